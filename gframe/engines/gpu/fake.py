"""A host stand-in for the part of pylibcudf (and rmm) the GPU engine uses, over pyarrow/numpy.

For developing and testing the engine's own logic - lowering, placement, transfers, pandas' row
order over hash operators, null rules - on machines without a GPU: ``install()`` registers fake
``pylibcudf`` and ``rmm`` modules and marks the GPU usable. Hash-based operators (group-by, joins)
return their rows in a *shuffled* order, as libcudf may, so code that forgets to restore pandas'
order fails here too. It is not libcudf: results on a real device are what the GPU tests check.
"""
from __future__ import annotations

import enum
import functools
import random
import sys
import types
from typing import Any, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_rng = random.Random(1234)


class TypeId(enum.IntEnum):
    EMPTY = 0
    INT8 = 1
    INT16 = 2
    INT32 = 3
    INT64 = 4
    UINT8 = 5
    UINT16 = 6
    UINT32 = 7
    UINT64 = 8
    FLOAT32 = 9
    FLOAT64 = 10
    BOOL8 = 11
    TIMESTAMP_DAYS = 12
    TIMESTAMP_SECONDS = 13
    TIMESTAMP_MILLISECONDS = 14
    TIMESTAMP_MICROSECONDS = 15
    TIMESTAMP_NANOSECONDS = 16
    DURATION_DAYS = 17
    DURATION_SECONDS = 18
    DURATION_MILLISECONDS = 19
    DURATION_MICROSECONDS = 20
    DURATION_NANOSECONDS = 21
    DICTIONARY32 = 22
    STRING = 23
    STRUCT = 28


_ARROW = {
    TypeId.INT8: pa.int8(), TypeId.INT16: pa.int16(), TypeId.INT32: pa.int32(), TypeId.INT64: pa.int64(),
    TypeId.UINT8: pa.uint8(), TypeId.UINT16: pa.uint16(), TypeId.UINT32: pa.uint32(), TypeId.UINT64: pa.uint64(),
    TypeId.FLOAT32: pa.float32(), TypeId.FLOAT64: pa.float64(), TypeId.BOOL8: pa.bool_(),
    TypeId.STRING: pa.large_string(), TypeId.TIMESTAMP_DAYS: pa.date32(),
    TypeId.TIMESTAMP_SECONDS: pa.timestamp("s"), TypeId.TIMESTAMP_MILLISECONDS: pa.timestamp("ms"),
    TypeId.TIMESTAMP_MICROSECONDS: pa.timestamp("us"), TypeId.TIMESTAMP_NANOSECONDS: pa.timestamp("ns"),
    TypeId.DURATION_SECONDS: pa.duration("s"), TypeId.DURATION_MILLISECONDS: pa.duration("ms"),
    TypeId.DURATION_MICROSECONDS: pa.duration("us"), TypeId.DURATION_NANOSECONDS: pa.duration("ns"),
}
_ID = {v: k for k, v in _ARROW.items()}
_ID[pa.string()] = TypeId.STRING


class DataType:
    def __init__(self, type_id: TypeId, scale: int = 0) -> None:
        self._id = TypeId(type_id)

    def id(self) -> TypeId:
        return self._id

    def to_arrow(self) -> pa.DataType:
        return _ARROW[self._id]

    @staticmethod
    def from_arrow(t: pa.DataType) -> "DataType":
        if pa.types.is_string_view(t):
            return DataType(TypeId.STRING)
        return DataType(_ID[t])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DataType) and other._id == self._id

    def __hash__(self) -> int:
        return hash(self._id)

    def __repr__(self) -> str:
        return f"DataType({self._id.name})"


def _norm(arr: Any) -> pa.Array:
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks else pa.array([], type=arr.type)
    if pa.types.is_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.large_string())
    if arr.type not in _ID and not pa.types.is_struct(arr.type):
        raise TypeError(f"fake pylibcudf: no device type for {arr.type}")
    return arr


_LIMIT: list[int] = []


class Column:
    def __init__(self, arr: Any, size: int | None = None, data: Any = None, mask: Any = None, null_count: int = 0,
                 offset: int = 0, children: Sequence["Column"] = ()) -> None:
        if isinstance(arr, DataType):  # libcudf's constructor: only the struct-of-children form is used
            arr = pa.StructArray.from_arrays([c.arr for c in children], [str(i) for i in range(len(children))])
        self.arr = _norm(arr)
        if _LIMIT and self.arr.nbytes > _LIMIT[-1]:
            raise MemoryError(f"std::bad_alloc: out of memory (fake limit {_LIMIT[-1]} bytes)")

    def type(self) -> DataType:
        return DataType(_ID[self.arr.type])

    def size(self) -> int:
        return len(self.arr)

    def null_count(self) -> int:
        return self.arr.null_count

    def offset(self) -> int:
        return 0

    def device_buffer_size(self) -> int:
        return self.arr.nbytes

    @staticmethod
    def from_scalar(s: "Scalar", n: int) -> "Column":
        return Column(pa.array([s.s.as_py()] * n, type=s.s.type) if n else pa.array([], type=s.s.type))

    @staticmethod
    def from_arrow(arr: Any, dtype: Any = None) -> "Column":
        return Column(arr)

    @staticmethod
    def struct_from_children(children: Sequence["Column"]) -> "Column":
        return Column(pa.StructArray.from_arrays([c.arr for c in children], [str(i) for i in range(len(children))]))

    def to_arrow(self) -> pa.Array:
        return self.arr

    def __repr__(self) -> str:
        return f"FakeColumn({self.arr.type}, {self.arr.to_pylist()[:10]})"


class Table:
    def __init__(self, columns: Sequence[Column], num_rows: int | None = None) -> None:
        self._cols = list(columns)
        self._n = num_rows if num_rows is not None else (self._cols[0].size() if self._cols else 0)

    def columns(self) -> list[Column]:
        return list(self._cols)

    def num_columns(self) -> int:
        return len(self._cols)

    def num_rows(self) -> int:
        return self._n

    @staticmethod
    def from_arrow(t: pa.Table) -> "Table":
        return Table([Column(c) for c in t.columns], t.num_rows)

    def to_arrow(self, metadata: Any = None) -> pa.Table:
        names = [m if isinstance(m, str) else getattr(m, "name", str(i)) for i, m in enumerate(metadata)] \
            if metadata is not None else [str(i) for i in range(len(self._cols))]
        return pa.Table.from_arrays([c.arr for c in self._cols], names=names)


class Scalar:
    def __init__(self, s: pa.Scalar) -> None:
        if pa.types.is_string(s.type):
            s = s.cast(pa.large_string())
        self.s = s

    @staticmethod
    def from_arrow(s: pa.Scalar, dtype: Any = None) -> "Scalar":
        return Scalar(s)

    def is_valid(self) -> bool:
        return self.s.is_valid

    def type(self) -> DataType:
        return DataType(_ID[self.s.type])

    def to_py(self) -> Any:
        return self.s.as_py()


# ------------------------------------------------------------------------------------------ types

def _enum(name: str, members: Sequence[str]) -> type:
    return enum.IntEnum(name, {m: i for i, m in enumerate(members)})


types_mod = types.SimpleNamespace(
    TypeId=TypeId, DataType=DataType,
    Order=_enum("Order", ["ASCENDING", "DESCENDING"]),
    NullOrder=_enum("NullOrder", ["AFTER", "BEFORE"]),
    NullPolicy=_enum("NullPolicy", ["EXCLUDE", "INCLUDE"]),
    NullEquality=_enum("NullEquality", ["EQUAL", "UNEQUAL"]),
    NanEquality=_enum("NanEquality", ["ALL_EQUAL", "UNEQUAL"]),
    NanPolicy=_enum("NanPolicy", ["NAN_IS_NULL", "NAN_IS_VALID"]),
    Sorted=_enum("Sorted", ["NO", "YES"]),
)
Order, NullOrder, NullPolicy = types_mod.Order, types_mod.NullOrder, types_mod.NullPolicy


# ------------------------------------------------------------------------------------ numpy view

def _arr(x: Any, n: int | None = None) -> pa.Array:
    if isinstance(x, Column):
        return x.arr
    if isinstance(x, Scalar):
        return pa.array([x.s.as_py()] * (1 if n is None else n), type=x.s.type)
    raise TypeError(type(x))


def _np(a: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(values, valid) of a fixed-width array; nulls hold 0."""
    valid = np.asarray(a.is_valid().to_numpy(zero_copy_only=False), dtype=bool)
    t = a.type
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        vals = a.cast(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
    elif pa.types.is_boolean(t):
        vals = a.fill_null(False).to_numpy(zero_copy_only=False).astype(bool)
    else:
        vals = a.fill_null(0).to_numpy(zero_copy_only=False) if len(a) else np.array([], dtype=t.to_pandas_dtype())
    return vals, valid


def _from_np(vals: np.ndarray, valid: np.ndarray, t: pa.DataType) -> Column:
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        arr = pa.array(vals.astype(np.int64), type=pa.int64(), mask=~valid).cast(t)
    else:
        arr = pa.array(vals, mask=~valid, from_pandas=False).cast(t, safe=False) if len(vals) else pa.array([], type=t)
    return Column(arr)


def _pair(lhs: Any, rhs: Any) -> tuple[pa.Array, pa.Array]:
    n = lhs.size() if isinstance(lhs, Column) else rhs.size()
    return _arr(lhs, n), _arr(rhs, n)


# ------------------------------------------------------------------------------------- binaryop

BinaryOperator = _enum("BinaryOperator", [
    "ADD", "SUB", "MUL", "DIV", "TRUE_DIV", "FLOOR_DIV", "MOD", "PMOD", "PYMOD", "POW", "INT_POW", "BITWISE_AND",
    "BITWISE_OR", "BITWISE_XOR", "LOGICAL_AND", "LOGICAL_OR", "EQUAL", "NOT_EQUAL", "LESS", "GREATER",
    "LESS_EQUAL", "GREATER_EQUAL", "NULL_EQUALS", "NULL_NOT_EQUALS", "NULL_LOGICAL_AND", "NULL_LOGICAL_OR"])

_CMP = {"EQUAL": pc.equal, "NOT_EQUAL": pc.not_equal, "LESS": pc.less, "GREATER": pc.greater,
        "LESS_EQUAL": pc.less_equal, "GREATER_EQUAL": pc.greater_equal}


def binary_operation(lhs: Any, rhs: Any, op: Any, out: DataType) -> Column:
    a, b = _pair(lhs, rhs)
    name = BinaryOperator(op).name
    t = out.to_arrow()
    if name in _CMP:
        return Column(_CMP[name](a, b).cast(t))
    if name in ("NULL_EQUALS", "NULL_NOT_EQUALS"):
        eq = pc.fill_null(pc.equal(a, b), False)
        both = pc.and_(pc.is_null(a), pc.is_null(b))
        res = pc.or_(eq, both)
        return Column(pc.invert(res) if name == "NULL_NOT_EQUALS" else res)
    if name in ("LOGICAL_AND", "LOGICAL_OR"):
        fa, fb = a.cast(pa.bool_()), b.cast(pa.bool_())
        return Column((pc.and_ if name == "LOGICAL_AND" else pc.or_)(fa, fb).cast(t))
    if pa.types.is_timestamp(a.type) or pa.types.is_duration(a.type) or pa.types.is_timestamp(b.type) \
            or pa.types.is_duration(b.type):
        fn = {"ADD": pc.add, "SUB": pc.subtract}[name]
        return Column(fn(a, b).cast(t))
    av, am = _np(a)
    bv, bm = _np(b)
    valid = am & bm
    with np.errstate(all="ignore"):
        if name == "ADD":
            r = av + bv
        elif name == "SUB":
            r = av - bv
        elif name == "MUL":
            r = av * bv
        elif name == "TRUE_DIV":
            r = av.astype(np.float64) / bv.astype(np.float64)
        elif name == "FLOOR_DIV":
            if np.issubdtype(np.result_type(av, bv), np.integer):
                safe = np.where(bv == 0, 1, bv)
                r = np.floor_divide(av, safe)
            else:
                r = np.floor(av / bv)
        elif name == "PYMOD":
            safe = np.where(bv == 0, 1, bv)
            r = np.mod(av, safe)
        elif name == "POW":
            r = np.power(av.astype(np.float64), bv.astype(np.float64))
        elif name == "BITWISE_AND":
            r = av & bv
        elif name == "BITWISE_OR":
            r = av | bv
        elif name == "BITWISE_XOR":
            r = av ^ bv
        else:
            raise NotImplementedError(name)
    return _from_np(np.asarray(r), valid, t)


def is_supported_operation(*a: Any) -> bool:
    return True


binaryop = types.SimpleNamespace(BinaryOperator=BinaryOperator, binary_operation=binary_operation,
                                  is_supported_operation=is_supported_operation)


# ----------------------------------------------------------------------------------------- unary

UnaryOperator = _enum("UnaryOperator", [
    "SIN", "COS", "TAN", "ARCSIN", "ARCCOS", "ARCTAN", "SINH", "COSH", "TANH", "ARCSINH", "ARCCOSH", "ARCTANH",
    "EXP", "LOG", "SQRT", "CBRT", "CEIL", "FLOOR", "ABS", "RINT", "BIT_COUNT", "BIT_INVERT", "NOT", "NEGATE"])
_UFN = {"SIN": np.sin, "COS": np.cos, "TAN": np.tan, "ARCSIN": np.arcsin, "ARCCOS": np.arccos, "ARCTAN": np.arctan,
        "SINH": np.sinh, "COSH": np.cosh, "TANH": np.tanh, "EXP": np.exp, "LOG": np.log, "SQRT": np.sqrt,
        "CBRT": np.cbrt, "CEIL": np.ceil, "FLOOR": np.floor, "ABS": np.abs, "RINT": np.rint, "NEGATE": np.negative,
        "BIT_INVERT": np.invert, "NOT": np.logical_not}


def unary_operation(col: Column, op: Any) -> Column:
    v, m = _np(col.arr)
    with np.errstate(all="ignore"):
        r = _UFN[UnaryOperator(op).name](v)
    return _from_np(np.asarray(r), m, col.arr.type)


def _cast(col: Column, t: DataType) -> Column:
    target = t.to_arrow()
    a = col.arr
    if pa.types.is_floating(a.type) and pa.types.is_integer(target):
        v, m = _np(a)
        return _from_np(np.trunc(v).astype(target.to_pandas_dtype()), m, target)
    return Column(a.cast(target, safe=False))


def bit_cast(col: Column, t: DataType) -> Column:
    return Column(col.arr.cast(pa.int64()) if t.to_arrow() == pa.int64() else col.arr.cast(t.to_arrow()))


def _is_nan(col: Column) -> Column:
    if pa.types.is_floating(col.arr.type):
        return Column(pc.is_nan(col.arr))
    return Column(pa.array([False] * col.size()))


unary = types.SimpleNamespace(
    UnaryOperator=UnaryOperator, unary_operation=unary_operation, cast=_cast, bit_cast=bit_cast,
    is_null=lambda c: Column(pc.is_null(c.arr)), is_valid=lambda c: Column(pc.is_valid(c.arr)), is_nan=_is_nan)


# ---------------------------------------------------------------------------------- aggregation

class Aggregation:
    def __init__(self, kind: str, **params: Any) -> None:
        self.kind = kind
        self.params = params


aggregation = types.SimpleNamespace(
    sum=lambda: Aggregation("sum"), product=lambda: Aggregation("product"), min=lambda: Aggregation("min"),
    max=lambda: Aggregation("max"), mean=lambda: Aggregation("mean"), median=lambda: Aggregation("median"),
    any=lambda: Aggregation("any"), all=lambda: Aggregation("all"),
    std=lambda ddof=1: Aggregation("std", ddof=ddof), variance=lambda ddof=1: Aggregation("var", ddof=ddof),
    count=lambda null_handling=None: Aggregation("count", nulls=null_handling if null_handling is not None else NullPolicy.EXCLUDE),
    nunique=lambda null_handling=None: Aggregation("nunique", nulls=null_handling if null_handling is not None else NullPolicy.EXCLUDE),
    nth_element=lambda n, null_handling=None: Aggregation("nth", n=n, nulls=null_handling),
    CorrelationType=_enum("CorrelationType", ["PEARSON", "KENDALL", "SPEARMAN"]),
    correlation=lambda kind, min_periods: Aggregation("corr", min_periods=min_periods),
    covariance=lambda min_periods, ddof: Aggregation("cov", min_periods=min_periods, ddof=ddof),
    RankMethod=_enum("RankMethod", ["FIRST", "AVERAGE", "MIN", "MAX", "DENSE"]),
)


def _pairs(vals: list[Any], agg: Aggregation) -> tuple[Any, pa.DataType]:
    """correlation / covariance of a group of {"0": x, "1": y} rows (libcudf skips missing ones)."""
    pairs = np.asarray([(v["0"], v["1"]) for v in vals if v is not None and None not in (v["0"], v["1"])],
                       dtype=float).reshape(-1, 2)
    if len(pairs) < max(agg.params["min_periods"], 1) or agg.kind == "cov" and len(pairs) <= agg.params["ddof"]:
        return None, pa.float64()
    with np.errstate(all="ignore"):
        if agg.kind == "cov":
            return float(np.cov(pairs[:, 0], pairs[:, 1], ddof=agg.params["ddof"])[0, 1]), pa.float64()
        return float(np.corrcoef(pairs[:, 0], pairs[:, 1])[0, 1]), pa.float64()


def _agg_values(vals: list[Any], agg: Aggregation, t: pa.DataType) -> tuple[Any, pa.DataType]:
    """One group's aggregate (Python values) and its libcudf result type."""
    k = agg.kind
    if k in ("corr", "cov"):
        return _pairs(vals, agg)
    nonnull = [v for v in vals if v is not None]
    numeric = pa.types.is_integer(t) or pa.types.is_boolean(t)
    if k == "count":
        return (len(vals) if agg.params["nulls"] == NullPolicy.INCLUDE else len(nonnull)), pa.int32()
    if k == "nunique":
        return (len(set(vals)) if agg.params["nulls"] == NullPolicy.INCLUDE else len(set(nonnull))), pa.int32()
    if k == "nth":
        pool = nonnull if agg.params["nulls"] == NullPolicy.EXCLUDE else vals
        n = agg.params["n"]
        return (pool[n] if -len(pool) <= n < len(pool) else None), t
    if not nonnull:
        rt = pa.int64() if k in ("sum", "product") and numeric else (pa.float64() if k in ("mean", "median", "std", "var") else t)
        return None, rt
    if k == "sum":
        return sum(nonnull), (pa.uint64() if pa.types.is_unsigned_integer(t) else pa.int64()) if numeric else t
    if k == "product":
        return functools.reduce(lambda x, y: x * y, nonnull), pa.int64() if numeric else t
    if k == "min":
        return min(nonnull), t
    if k == "max":
        return max(nonnull), t
    if k == "mean":
        return float(np.mean(nonnull)), pa.float64()
    if k == "median":
        return float(np.median(nonnull)), pa.float64()
    if k in ("std", "var"):
        ddof = agg.params["ddof"]
        if len(nonnull) - ddof <= 0:
            return None, pa.float64()
        v = float(np.var(np.asarray(nonnull, dtype=float), ddof=ddof))
        return (v ** 0.5 if k == "std" else v), pa.float64()
    if k == "any":
        return any(nonnull), pa.bool_()
    if k == "all":
        return all(nonnull), pa.bool_()
    raise NotImplementedError(k)


# -------------------------------------------------------------------------------------- groupby

class GroupByRequest:
    def __init__(self, values: Column, aggregations: list[Aggregation]) -> None:
        self.values = values
        self.aggregations = aggregations


class GroupBy:
    def __init__(self, keys: Table, null_handling: Any = None, keys_are_sorted: Any = None,
                 column_order: Any = None, null_precedence: Any = None) -> None:
        self.keys = keys
        self.include = null_handling == NullPolicy.INCLUDE

    def aggregate(self, requests: list[GroupByRequest]) -> tuple[Table, list[Table]]:
        keys = [c.arr.to_pylist() for c in self.keys.columns()]
        n = self.keys.num_rows()
        groups: dict[tuple, list[int]] = {}
        for i in range(n):
            k = tuple(col[i] for col in keys)
            if not self.include and any(v is None for v in k):
                continue
            groups.setdefault(k, []).append(i)
        order = list(groups)
        _rng.shuffle(order)  # libcudf's hash group-by: no particular order
        key_cols = [Column(pa.array([g[j] for g in order], type=c.arr.type)) for j, c in enumerate(self.keys.columns())]
        results = []
        for r in requests:
            vals = r.values.arr.to_pylist()
            cols = []
            for agg in r.aggregations:
                out, rt = [], r.values.arr.type
                for g in order:
                    v, rt = _agg_values([vals[i] for i in groups[g]], agg, r.values.arr.type)
                    out.append(v)
                cols.append(Column(pa.array(out, type=rt)))
            results.append(Table(cols, len(order)))
        return Table(key_cols, len(order)), results


groupby = types.SimpleNamespace(GroupBy=GroupBy, GroupByRequest=GroupByRequest)


# ------------------------------------------------------------------------------------- reduce

ScanType = _enum("ScanType", ["INCLUSIVE", "EXCLUSIVE"])


def reduce(col: Column, agg: Aggregation, out: DataType) -> Scalar:
    v, _ = _agg_values(col.arr.to_pylist(), agg, col.arr.type)
    return Scalar(pa.scalar(v, type=out.to_arrow()) if v is not None else pa.scalar(None, type=out.to_arrow()))


def scan(col: Column, agg: Aggregation, inclusive: Any) -> Column:
    vals = col.arr.to_pylist()
    out, cur = [], None
    for v in vals:
        if v is not None:
            cur = v if cur is None else (max(cur, v) if agg.kind == "max" else cur + v)
        out.append(cur)
    return Column(pa.array(out, type=col.arr.type))


def distinct_count(col: Column, null_handling: Any, nan_handling: Any) -> int:
    vals = col.arr.to_pylist()
    return len(set(vals)) if null_handling == NullPolicy.INCLUDE else len({v for v in vals if v is not None})


reduce_mod = types.SimpleNamespace(reduce=reduce, scan=scan, ScanType=ScanType, distinct_count=distinct_count)


# -------------------------------------------------------------------------------------- sorting

def _cmp_rows(cols: list[list[Any]], orders: Sequence[Any], nulls: Sequence[Any]) -> Any:
    def cmp(i: int, j: int) -> int:
        for c, o, nl in zip(cols, orders, nulls):
            a, b = c[i], c[j]
            if a is None and b is None:
                r = 0
            elif a is None or b is None:
                small = NullOrder(nl) == NullOrder.BEFORE  # null is smaller than every value
                r = (-1 if small else 1) if a is None else (1 if small else -1)
            else:
                r = (a > b) - (a < b)
            if Order(o) == Order.DESCENDING:
                r = -r
            if r:
                return r
        return 0

    return functools.cmp_to_key(cmp)


def stable_sorted_order(t: Table, orders: Sequence[Any], nulls: Sequence[Any]) -> Column:
    cols = [c.arr.to_pylist() for c in t.columns()]
    idx = sorted(range(t.num_rows()), key=_cmp_rows(cols, orders, nulls))
    return Column(pa.array(idx, type=pa.int32()))


def _sort(t: Table, orders: Sequence[Any], nulls: Sequence[Any]) -> Table:
    return gather(t, stable_sorted_order(t, orders, nulls), None)


def rank(col: Column, method: Any, column_order: Any, null_handling: Any, null_precedence: Any,
         percentage: bool) -> Column:
    """libcudf's rank with missing values excluded (they stay missing) and no percentage, the only
    arguments modelled: FLOAT64 for AVERAGE, INT32 (size_type) for the other methods."""
    if NullPolicy(null_handling) != NullPolicy.EXCLUDE or percentage:
        raise NotImplementedError("fake rank models null_handling=EXCLUDE, percentage=False only")
    name = aggregation.RankMethod(method).name
    vals = col.arr.to_pylist()
    present = sorted((i for i, v in enumerate(vals) if v is not None), key=lambda i: vals[i],
                     reverse=Order(column_order) == Order.DESCENDING)  # stable: ties in row order
    out: list[Any] = [None] * len(vals)
    pos, dense = 0, 0
    while pos < len(present):
        end = pos
        while end + 1 < len(present) and vals[present[end + 1]] == vals[present[pos]]:
            end += 1
        dense += 1
        for j in range(pos, end + 1):
            out[present[j]] = {"FIRST": j + 1, "AVERAGE": (pos + end) / 2 + 1, "MIN": pos + 1, "MAX": end + 1,
                               "DENSE": dense}[name]
        pos = end + 1
    return Column(pa.array(out, type=pa.float64() if name == "AVERAGE" else pa.int32()))


sorting = types.SimpleNamespace(stable_sorted_order=stable_sorted_order, sorted_order=stable_sorted_order,
                                sort=_sort, stable_sort=_sort, rank=rank)


# ------------------------------------------------------------------------------------- copying

OutOfBoundsPolicy = _enum("OutOfBoundsPolicy", ["NULLIFY", "DONT_CHECK"])


def gather(t: Table, gather_map: Column, policy: Any) -> Table:
    idx = gather_map.arr.to_pylist()
    n = t.num_rows()
    take = pa.array([i if i is not None and 0 <= i < n else None for i in idx], type=pa.int64())
    return Table([Column(c.arr.take(take)) for c in t.columns()], len(idx))


def _slice(t: Any, indices: list[int]) -> list[Any]:
    out = []
    for s, e in zip(indices[::2], indices[1::2]):
        if isinstance(t, Table):
            out.append(Table([Column(c.arr.slice(s, e - s)) for c in t.columns()], e - s))
        else:
            out.append(Column(t.arr.slice(s, e - s)))
    return out


def shift(col: Column, offset: int, fill: Scalar) -> Column:
    vals = col.arr.to_pylist()
    f = fill.to_py()
    out = ([f] * offset + vals[: len(vals) - offset]) if offset >= 0 else (vals[-offset:] + [f] * (-offset))
    return Column(pa.array(out[: len(vals)], type=col.arr.type))


def copy_if_else(lhs: Any, rhs: Any, mask: Column) -> Column:
    n = mask.size()
    a, b = _arr(lhs, n), _arr(rhs, n)
    t = a.type if isinstance(lhs, Column) else b.type
    return Column(pc.if_else(pc.fill_null(mask.arr, False), a.cast(t), b.cast(t)))


def scatter(source: Any, scatter_map: Column, target: Table) -> Table:
    idx = scatter_map.arr.to_pylist()
    out = []
    for j, col in enumerate(target.columns()):
        vals = col.arr.to_pylist()
        src = [source[j].to_py()] * len(idx) if isinstance(source, list) else source.columns()[j].arr.to_pylist()
        for i, v in zip(idx, src):
            vals[i] = v
        out.append(Column(pa.array(vals, type=col.arr.type)))
    return Table(out, target.num_rows())


copying = types.SimpleNamespace(gather=gather, slice=_slice, shift=shift, copy_if_else=copy_if_else, scatter=scatter,
                                OutOfBoundsPolicy=OutOfBoundsPolicy)


# ------------------------------------------------------------------------------------- others

def sequence(n: int, init: Scalar, step: Scalar) -> Column:
    t = init.s.type
    return Column(pa.array(np.arange(n, dtype=t.to_pandas_dtype()) * step.to_py() + init.to_py(), type=t))


filling = types.SimpleNamespace(sequence=sequence)
concatenate = types.SimpleNamespace(concatenate=lambda cols: Column(pa.concat_arrays([c.arr for c in cols])))


def replace_nulls(col: Column, repl: Any) -> Column:
    r = repl.arr if isinstance(repl, Column) else repl.s.cast(col.arr.type)
    return Column(pc.coalesce(col.arr, r))


def clamp(col: Column, lo: Scalar, hi: Scalar) -> Column:
    a = col.arr
    if lo.is_valid():
        a = pc.max_element_wise(a, lo.s.cast(a.type), skip_nulls=False)
    if hi.is_valid():
        a = pc.min_element_wise(a, hi.s.cast(a.type), skip_nulls=False)
    return Column(a)


replace = types.SimpleNamespace(replace_nulls=replace_nulls, clamp=clamp)
RoundingMethod = _enum("RoundingMethod", ["HALF_UP", "HALF_EVEN"])
round_mod = types.SimpleNamespace(
    RoundingMethod=RoundingMethod,
    round=lambda col, d=0, m=None: Column(pc.round(col.arr, d, round_mode="half_to_even")))
search = types.SimpleNamespace(contains=lambda hay, needles: Column(pc.is_in(needles.arr, value_set=hay.arr)))
transform = types.SimpleNamespace(
    column_nans_to_nulls=lambda c: Column(pc.if_else(pc.is_nan(c.arr), None, c.arr))
    if pa.types.is_floating(c.arr.type) else c)


DuplicateKeepOption = _enum("DuplicateKeepOption", ["KEEP_ANY", "KEEP_FIRST", "KEEP_LAST", "KEEP_NONE"])


def apply_boolean_mask(t: Table, mask: Column) -> Table:
    m = pc.fill_null(mask.arr, False)
    cols = [Column(c.arr.filter(m)) for c in t.columns()]
    return Table(cols, pc.sum(m.cast(pa.int64())).as_py() or 0)


def drop_nulls(t: Table, keys: list[int], threshold: int) -> Table:
    cols = t.columns()
    valid = np.zeros(t.num_rows(), dtype=np.int64)
    for k in keys:
        valid += np.asarray(cols[k].arr.is_valid().to_numpy(zero_copy_only=False), dtype=np.int64)
    return apply_boolean_mask(t, Column(pa.array(valid >= threshold)))


def stable_distinct(t: Table, keys: list[int], keep: Any, nulls_equal: Any, nans_equal: Any) -> Table:
    rows = list(zip(*[t.columns()[k].arr.to_pylist() for k in keys])) if keys else [()] * t.num_rows()
    keep = DuplicateKeepOption(keep).name
    counts: dict[tuple, int] = {}
    for r in rows:
        counts[r] = counts.get(r, 0) + 1
    seen: set[tuple] = set()
    last = {r: i for i, r in enumerate(rows)}
    mask = []
    for i, r in enumerate(rows):
        if keep == "KEEP_FIRST":
            mask.append(r not in seen)
            seen.add(r)
        elif keep == "KEEP_LAST":
            mask.append(last[r] == i)
        else:
            mask.append(counts[r] == 1)
    return apply_boolean_mask(t, Column(pa.array(mask)))


def distinct_indices(t: Table, keep: Any, nulls_equal: Any, nans_equal: Any) -> Column:
    withpos = Table(t.columns() + [Column(pa.array(range(t.num_rows()), type=pa.int32()))], t.num_rows())
    kept = stable_distinct(withpos, list(range(t.num_columns())), keep, nulls_equal, nans_equal)
    idx = kept.columns()[-1].arr.to_pylist()
    _rng.shuffle(idx)
    return Column(pa.array(idx, type=pa.int32()))


stream_compaction = types.SimpleNamespace(distinct_indices=distinct_indices,
    apply_boolean_mask=apply_boolean_mask, apply_retention_mask=apply_boolean_mask, drop_nulls=drop_nulls,
    stable_distinct=stable_distinct, DuplicateKeepOption=DuplicateKeepOption)


# ---------------------------------------------------------------------------------------- joins

NO_MATCH = -(2**31)


def _join(lt: Table, rt: Table, how: str) -> tuple[Column, Column]:
    lrows = list(zip(*[c.arr.to_pylist() for c in lt.columns()]))
    rrows = list(zip(*[c.arr.to_pylist() for c in rt.columns()]))
    index: dict[tuple, list[int]] = {}
    for j, r in enumerate(rrows):
        index.setdefault(r, []).append(j)
    pairs = []
    matched_r: set[int] = set()
    for i, r in enumerate(lrows):
        js = index.get(r, [])
        for j in js:
            pairs.append((i, j))
            matched_r.add(j)
        if not js and how in ("left", "full"):
            pairs.append((i, NO_MATCH))
    if how == "full":
        pairs += [(NO_MATCH, j) for j in range(len(rrows)) if j not in matched_r]
    _rng.shuffle(pairs)  # libcudf's hash join: no particular order
    return (Column(pa.array([p[0] for p in pairs], type=pa.int32())),
            Column(pa.array([p[1] for p in pairs], type=pa.int32())))


def cross_join(lt: Table, rt: Table) -> Table:
    n, m = lt.num_rows(), rt.num_rows()
    li = pa.array(np.repeat(np.arange(n), m))
    ri = pa.array(np.tile(np.arange(m), n))
    return Table([Column(c.arr.take(li)) for c in lt.columns()] + [Column(c.arr.take(ri)) for c in rt.columns()], n * m)


join = types.SimpleNamespace(inner_join=lambda l, r, eq: _join(l, r, "inner"),
                             left_join=lambda l, r, eq: _join(l, r, "left"),
                             full_join=lambda l, r, eq: _join(l, r, "full"), cross_join=cross_join)


# -------------------------------------------------------------------------------------- strings

SideType = _enum("SideType", ["LEFT", "RIGHT", "BOTH"])
RegexFlags = _enum("RegexFlags", ["DEFAULT", "IGNORECASE"])


class RegexProgram:
    def __init__(self, pattern: str, flags: Any) -> None:
        self.pattern = pattern if RegexFlags(flags) == RegexFlags.DEFAULT else "(?i)" + pattern

    @staticmethod
    def create(pattern: str, flags: Any) -> "RegexProgram":
        return RegexProgram(pattern, flags)


def _strip(col: Column, side: Any, to_strip: Scalar | None) -> Column:
    chars = to_strip.to_py() if to_strip is not None else None
    name = SideType(side).name
    vals = col.arr.to_pylist()
    fn = {"BOTH": str.strip, "LEFT": str.lstrip, "RIGHT": str.rstrip}[name]
    return Column(pa.array([None if v is None else fn(v, chars) for v in vals], type=pa.large_string()))


def _slice_strings(col: Column, start: Scalar, stop: Scalar) -> Column:
    a = start.to_py() if start is not None and start.is_valid() else None
    b = stop.to_py() if stop is not None and stop.is_valid() else None
    return Column(pa.array([None if v is None else v[a:b] for v in col.arr.to_pylist()], type=pa.large_string()))


def _replace(col: Column, target: Scalar, repl: Scalar, maxrepl: int = -1) -> Column:
    t, r = target.to_py(), repl.to_py()
    return Column(pa.array([None if v is None else v.replace(t, r, maxrepl) for v in col.arr.to_pylist()],
                           type=pa.large_string()))


def _str_concat(t: Table, sep: Scalar, narep: Scalar | None = None) -> Column:
    cols = [c.arr.to_pylist() for c in t.columns()]
    s = sep.to_py()
    out = [None if any(c[i] is None for c in cols) else s.join(c[i] for c in cols) for i in range(t.num_rows())]
    return Column(pa.array(out, type=pa.large_string()))


strings = types.SimpleNamespace(
    attributes=types.SimpleNamespace(count_characters=lambda c: Column(pc.utf8_length(c.arr).cast(pa.int32()))),
    case=types.SimpleNamespace(to_lower=lambda c: Column(pc.utf8_lower(c.arr)), to_upper=lambda c: Column(pc.utf8_upper(c.arr))),
    side_type=types.SimpleNamespace(SideType=SideType), SideType=SideType,
    strip=types.SimpleNamespace(strip=_strip),
    slice=types.SimpleNamespace(slice_strings=_slice_strings),
    replace=types.SimpleNamespace(replace=_replace),
    regex_flags=types.SimpleNamespace(RegexFlags=RegexFlags),
    regex_program=types.SimpleNamespace(RegexProgram=RegexProgram),
    contains=types.SimpleNamespace(contains_re=lambda c, prog: Column(pc.match_substring_regex(c.arr, prog.pattern))),
    find=types.SimpleNamespace(
        contains=lambda c, s: Column(pc.match_substring(c.arr, s.to_py())),
        starts_with=lambda c, s: Column(pc.starts_with(c.arr, s.to_py())),
        ends_with=lambda c, s: Column(pc.ends_with(c.arr, s.to_py()))),
    combine=types.SimpleNamespace(concatenate=_str_concat),
    convert=types.SimpleNamespace(convert_integers=types.SimpleNamespace(
        from_integers=lambda c: Column(c.arr.cast(pa.large_string())))),
)


# ------------------------------------------------------------------------------------ datetimes

DatetimeComponent = _enum("DatetimeComponent", ["YEAR", "MONTH", "DAY", "WEEKDAY", "HOUR", "MINUTE", "SECOND",
                                                "MILLISECOND", "MICROSECOND", "NANOSECOND"])


def _component(col: Column, comp: Any) -> Column:
    name = DatetimeComponent(comp).name
    a = col.arr
    fn = {"YEAR": pc.year, "MONTH": pc.month, "DAY": pc.day, "HOUR": pc.hour, "MINUTE": pc.minute,
          "SECOND": pc.second, "MILLISECOND": pc.millisecond, "MICROSECOND": pc.microsecond,
          "NANOSECOND": pc.nanosecond}.get(name)
    if name == "WEEKDAY":
        out = pc.add(pc.day_of_week(a), 1)
    else:
        out = fn(a)
    return Column(out.cast(pa.int16()))


datetime = types.SimpleNamespace(
    DatetimeComponent=DatetimeComponent, extract_datetime_component=_component,
    extract_quarter=lambda c: Column(pc.quarter(c.arr).cast(pa.int16())),
    day_of_year=lambda c: Column(pc.day_of_year(c.arr).cast(pa.int16())))


# ------------------------------------------------------------------------------- io and the AST

ASTOperator = _enum("ASTOperator", ["EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "LOGICAL_AND"])


class Literal:
    def __init__(self, value: Scalar) -> None:
        self.value = value


class ColumnNameReference:
    def __init__(self, name: str) -> None:
        self.name = name


class Operation:
    def __init__(self, op: Any, left: Any, right: Any = None) -> None:
        self.op, self.left, self.right = ASTOperator(op).name, left, right


def _eval_ast(e: Any, table: pa.Table) -> pa.Array:
    if isinstance(e, Literal):
        return e.value.s
    if isinstance(e, ColumnNameReference):
        return table.column(e.name)
    a, b = _eval_ast(e.left, table), _eval_ast(e.right, table)
    if e.op == "LOGICAL_AND":
        return pc.and_(a, b)
    return _CMP[{"LESS_EQUAL": "LESS_EQUAL", "GREATER_EQUAL": "GREATER_EQUAL"}.get(e.op, e.op)](a, b)


expressions = types.SimpleNamespace(ASTOperator=ASTOperator, Literal=Literal, ColumnNameReference=ColumnNameReference,
                                    Operation=Operation)


class _ReaderOptions:
    def __init__(self, paths: list[str]) -> None:
        self.paths, self.cols, self.filter, self.nrows, self.row_groups = paths, None, None, None, None

    def columns(self, cols: list[str]) -> "_ReaderOptions":
        self.cols = cols
        return self

    def use_pandas_metadata(self, v: bool) -> "_ReaderOptions":
        return self

    def build(self) -> "_ReaderOptions":
        return self

    def set_filter(self, e: Any) -> None:
        self.filter = e

    def set_num_rows(self, n: int) -> None:
        self.nrows = n

    def set_row_groups(self, groups: list[list[int]]) -> None:
        self.row_groups = groups[0]


class _SourceInfo:
    def __init__(self, paths: list[str]) -> None:
        self.paths = paths


class _TableWithMetadata:
    def __init__(self, t: pa.Table) -> None:
        self.tbl = Table.from_arrow(t)
        self._names = t.column_names

    def column_names(self, include_children: bool = False) -> list[str]:
        return list(self._names)


def _dnf(e: Any) -> list[tuple[str, str, Any]] | None:
    """The AST as pyarrow's conjunctive filter list (for row-group pruning by statistics)."""
    if isinstance(e, Operation) and e.op == "LOGICAL_AND":
        a, b = _dnf(e.left), _dnf(e.right)
        return None if a is None or b is None else a + b
    sym = {"EQUAL": "==", "LESS": "<", "LESS_EQUAL": "<=", "GREATER": ">", "GREATER_EQUAL": ">="}
    if isinstance(e, Operation) and isinstance(e.left, ColumnNameReference) and isinstance(e.right, Literal):
        return [(e.left.name, sym[e.op], e.right.value.to_py())]
    return None


def read_parquet(opts: _ReaderOptions) -> _TableWithMetadata:
    import pyarrow.parquet as pq

    path = opts.paths[0]
    if opts.row_groups is not None:
        return _TableWithMetadata(pq.ParquetFile(path).read_row_groups(opts.row_groups, columns=opts.cols))
    if opts.nrows is not None:  # only the row groups that hold the first rows, as libcudf reads
        f = pq.ParquetFile(path)
        parts, got = [], 0
        for r in range(f.num_row_groups):
            if got >= opts.nrows:
                break
            part = f.read_row_group(r, columns=opts.cols)
            parts.append(part)
            got += part.num_rows
        t = pa.concat_tables(parts) if parts else f.schema_arrow.empty_table().select(opts.cols)
        t = t.slice(0, opts.nrows)
    else:
        filters = _dnf(opts.filter) if opts.filter is not None else None
        t = pq.read_table(path, columns=opts.cols, filters=filters)
    return _TableWithMetadata(t)


class _CsvOptions:
    """libcudf's CSV reader options, the subset the engine sets."""

    def __init__(self, paths: list[str]) -> None:
        self.paths, self.sep, self.n_rows, self.usecols, self.dtypes = paths, ",", None, None, {}
        self.true_values: list[str] = []
        self.false_values: list[str] = []

    def delimiter(self, sep: str) -> "_CsvOptions":
        self.sep = sep
        return self

    def nrows(self, n: int) -> "_CsvOptions":
        self.n_rows = n
        return self

    def build(self) -> "_CsvOptions":
        return self

    def set_use_cols_names(self, names: list[str]) -> None:
        self.usecols = names

    def set_dtypes(self, dtypes: dict[str, DataType]) -> None:
        self.dtypes = dtypes

    def set_true_values(self, v: list[str]) -> None:
        self.true_values = v

    def set_false_values(self, v: list[str]) -> None:
        self.false_values = v


def read_csv(opts: _CsvOptions) -> _TableWithMetadata:
    """pyarrow's reader with libcudf's inference: numbers, or text (no dates unless asked)."""
    import pyarrow.csv as pacsv

    text = {n: pa.string() for n in opts.usecols or []}
    probe = pacsv.read_csv(opts.paths[0], parse_options=pacsv.ParseOptions(delimiter=opts.sep),
                           convert_options=pacsv.ConvertOptions(include_columns=opts.usecols, column_types=text))
    types_ = {}
    for name in probe.column_names:
        if name in opts.dtypes:
            types_[name] = opts.dtypes[name].to_arrow()
        else:
            col = probe.column(name)
            for t in (pa.int64(), pa.float64()):
                try:
                    pc.cast(pc.if_else(pc.equal(col, ""), None, col), t)
                    types_[name] = t
                    break
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    continue
            else:
                types_[name] = pa.string()
    bools = {"true_values": opts.true_values, "false_values": opts.false_values} if opts.true_values else {}
    conv = pacsv.ConvertOptions(include_columns=opts.usecols, column_types=types_, strings_can_be_null=True, **bools)
    t = pacsv.read_csv(opts.paths[0], parse_options=pacsv.ParseOptions(delimiter=opts.sep), convert_options=conv)
    if opts.n_rows is not None:
        t = t.slice(0, opts.n_rows)
    return _TableWithMetadata(t)


io = types.SimpleNamespace(
    SourceInfo=_SourceInfo,
    csv=types.SimpleNamespace(CsvReaderOptions=types.SimpleNamespace(builder=lambda src: _CsvOptions(src.paths)),
                              read_csv=read_csv),
    parquet=types.SimpleNamespace(
        ParquetReaderOptions=types.SimpleNamespace(builder=lambda src: _ReaderOptions(src.paths)),
        read_parquet=read_parquet))


# ----------------------------------------------------------------------------------- the modules

def _pylibcudf() -> types.ModuleType:
    m = types.ModuleType("pylibcudf")
    m.__dict__.update(
        Column=Column, Table=Table, Scalar=Scalar, DataType=DataType, TypeId=TypeId, types=types_mod,
        binaryop=binaryop, unary=unary, aggregation=aggregation, groupby=groupby, reduce=reduce_mod,
        sorting=sorting, copying=copying, filling=filling, concatenate=concatenate, replace=replace,
        round=round_mod, search=search, transform=transform, stream_compaction=stream_compaction, join=join,
        strings=strings, datetime=datetime, expressions=expressions, io=io,
        prefetch=types.SimpleNamespace(enable=lambda: None), __fake__=True)
    return m


class _Resource:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args


class _Limiting(_Resource):
    def __init__(self, upstream: Any, limit: int) -> None:
        self.upstream, self.limit = upstream, limit


_current: list[Any] = [_Resource()]


def _set_resource(mr: Any) -> None:
    _current[0] = mr
    _LIMIT[:] = [mr.limit] if isinstance(mr, _Limiting) else []


def _rmm() -> types.ModuleType:
    m = types.ModuleType("rmm")
    m.mr = types.SimpleNamespace(  # type: ignore[attr-defined]
        available_device_memory=lambda: (8 << 30, 16 << 30), PoolMemoryResource=_Resource,
        ManagedMemoryResource=_Resource, CudaMemoryResource=_Resource, PrefetchResourceAdaptor=_Resource,
        LimitingResourceAdaptor=_Limiting, set_current_device_resource=_set_resource,
        get_current_device_resource=lambda: _current[0])
    return m


def install() -> None:
    """Register the fake modules and mark the GPU engine usable (tests and development only)."""
    sys.modules["pylibcudf"] = _pylibcudf()
    sys.modules["rmm"] = _rmm()
    from gframe import engines

    engines._gpu_probe[:] = [None]
