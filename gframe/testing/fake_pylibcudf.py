"""A host stand-in for the part of pylibcudf (and rmm) the GPU engine uses, over pyarrow/numpy.

For developing and testing the engine's own logic - lowering, placement, transfers, pandas' row
order over hash operators, null rules - on machines without a GPU. ``install()`` puts the fake
modules in ``sys.modules["pylibcudf"]`` (its submodules under ``pylibcudf.<name>``) and
``sys.modules["rmm"]``; the GPU engine imports pylibcudf lazily and its ``probe()`` accepts a module
with a true ``__host_stand_in__`` without a CUDA device. Call it before the first GPU use.
``module()`` builds the fake without installing it, so a test can hold it next to the real
pylibcudf (``tests/test_fake_fidelity.py`` compares the two on the GPU machine).

It lives in ``gframe.testing``, not in the engine: nothing in the engine imports it, and it is
importable from an installed gframe (for ``.ci/run`` and ``benchmarks/``), which ``tests/`` is not.

**Strict.** Every function models real pylibcudf 26.10 for the argument values it accepts and raises
``NotImplementedError("fake pylibcudf: fn(arg=value) ...")`` for any value it does not model, so a
new call in the engine cannot pass here on a guess. Where libcudf raises (type mismatches, say), the
fake raises the same Python type pylibcudf maps the C++ exception to (TypeError, ValueError,
IndexError). Known, deliberate differences:

* Hash-based operators (group-by, joins, ``distinct_indices``) return their rows in a *shuffled*
  order, as libcudf promises none, so code that forgets to restore pandas' order fails here too.
* ``sorting.sorted_order`` / ``sort`` (unstable) return the stable order: a stable order is one of
  the orders an unstable sort may return, so this is a valid answer, not a model of which one
  libcudf returns; code must not rely on the order of ties after an unstable sort.
* ``stream_compaction`` ``KEEP_ANY`` keeps the first row of each duplicate set (a valid choice).
* Element-wise integer arithmetic past the width is refused (not modelled); sums and products in
  reductions, group-bys and scans wrap as libcudf's do (two's complement in the result type).

It is not libcudf: results on a real device are what the GPU tests check.
"""
from __future__ import annotations

import ctypes
import enum
import functools
import itertools
import math
import random
import sys
import types
import warnings
from typing import Any, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def _unmodelled(fn: str, arg: str, value: Any, why: str = "") -> NotImplementedError:
    """The error for an argument value the fake does not model (never a silent guess)."""
    return NotImplementedError(f"fake pylibcudf: {fn}({arg}={value!r}) is not modelled{': ' + why if why else ''}")


def _require(fn: str, arg: str, value: Any, allowed: Sequence[Any]) -> None:
    """Raise unless ``value`` is one of ``allowed`` (enum members compare by identity of kind and name)."""
    if not any(value is a or (type(value) is type(a) and value == a) for a in allowed):
        raise _unmodelled(fn, arg, value, f"modelled: {list(allowed)!r}")


def _enum_arg(cls: type, fn: str, arg: str, value: Any) -> Any:
    """``value`` as a member of the fake's enum ``cls``: a member of another enum (the real one) is refused."""
    if not isinstance(value, cls):
        raise TypeError(f"fake pylibcudf: {fn}({arg}=...) expects {cls.__name__}, got {value!r}")
    return value


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
    LIST = 24
    DECIMAL32 = 25
    DECIMAL64 = 26
    DECIMAL128 = 27
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

# fixed-point: libcudf keeps a scale (the power of ten of the last digit: Arrow's scale negated) and
# no precision; the fake holds DECIMAL32/64/128 as Arrow decimal32(9)/decimal64(18)/decimal128(38)
_DECIMALS = {TypeId.DECIMAL32: (pa.decimal32, 9), TypeId.DECIMAL64: (pa.decimal64, 18),
             TypeId.DECIMAL128: (pa.decimal128, 38)}


def _decimal_id(t: pa.DataType) -> TypeId:
    return {32: TypeId.DECIMAL32, 64: TypeId.DECIMAL64}.get(t.bit_width, TypeId.DECIMAL128)


def _device_decimal(t: pa.DataType) -> pa.DataType:
    """The Arrow type a decimal of type ``t`` has on the device (and back): the width's full precision."""
    make, precision = _DECIMALS[_decimal_id(t)]
    return make(precision, t.scale)


class DataType:
    def __init__(self, type_id: TypeId, scale: int = 0) -> None:
        self._id = TypeId(type_id)
        if scale and self._id not in _DECIMALS:
            raise _unmodelled("DataType", "scale", scale, f"a scale of {self._id.name}")
        self._scale = int(scale)

    def id(self) -> TypeId:
        return self._id

    def scale(self) -> int:
        return self._scale

    def to_arrow(self) -> pa.DataType:
        if self._id in _DECIMALS:
            make, precision = _DECIMALS[self._id]
            return make(precision, -self._scale)
        if self._id not in _ARROW:
            raise _unmodelled("DataType.to_arrow", "self", self)
        return _ARROW[self._id]

    @staticmethod
    def from_arrow(t: pa.DataType) -> "DataType":
        if pa.types.is_string_view(t):
            return DataType(TypeId.STRING)
        if pa.types.is_decimal(t):
            return DataType(_decimal_id(t), -t.scale)
        return DataType(_ID[t])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DataType) and other._id == self._id and other._scale == self._scale

    def __hash__(self) -> int:
        return hash((self._id, self._scale))

    def __repr__(self) -> str:
        return f"DataType({self._id.name}{f', {self._scale}' if self._scale else ''})"


def _norm(arr: Any) -> pa.Array:
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks else pa.array([], type=arr.type)
    if pa.types.is_string(arr.type) or pa.types.is_string_view(arr.type):
        arr = arr.cast(pa.large_string())
    if pa.types.is_decimal(arr.type):  # libcudf holds no precision: the width's full one comes back
        if arr.type.precision > 38:
            raise TypeError(f"fake pylibcudf: no device type for {arr.type}")
        arr = arr.cast(_device_decimal(arr.type))
    if arr.type not in _ID and not pa.types.is_struct(arr.type) and not pa.types.is_decimal(arr.type):
        raise TypeError(f"fake pylibcudf: no device type for {arr.type}")
    return arr


_LIMIT: list[int] = []


class Column:
    def __init__(self, arr: Any, size: int | None = None, data: Any = None, mask: Any = None, null_count: int = 0,
                 offset: int = 0, children: Sequence["Column"] = ()) -> None:
        if isinstance(arr, DataType):  # libcudf's constructor: only the struct-of-children form is modelled
            if arr.id() != TypeId.STRUCT or data is not None or mask is not None or null_count or offset:
                raise _unmodelled("Column", "data_type", arr, "only Column(STRUCT, n, None, None, 0, 0, children)")
            if any(c.size() != size for c in children):
                raise ValueError("fake pylibcudf: Column: children sizes differ from size")
            arr = pa.StructArray.from_arrays([c.arr for c in children], [str(i) for i in range(len(children))])
        self.arr = _norm(arr)
        if _LIMIT and self.arr.nbytes > _LIMIT[-1]:
            raise MemoryError(f"std::bad_alloc: out of memory (fake limit {_LIMIT[-1]} bytes)")

    def type(self) -> DataType:
        return DataType.from_arrow(self.arr.type)

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
        if not isinstance(s, Scalar):
            raise TypeError(f"fake pylibcudf: Column.from_scalar expects a Scalar, got {type(s).__name__}")
        return Column(pa.array([s.s.as_py()] * n, type=s.s.type) if n else pa.array([], type=s.s.type))

    @staticmethod
    def from_arrow(arr: Any, dtype: Any = None) -> "Column":
        if dtype is not None:
            raise _unmodelled("Column.from_arrow", "dtype", dtype)
        if not isinstance(arr, (pa.Array, pa.ChunkedArray)):
            raise _unmodelled("Column.from_arrow", "arr", type(arr).__name__, "pyarrow arrays only")
        return Column(arr)

    @staticmethod
    def struct_from_children(children: Sequence["Column"]) -> "Column":
        return Column(pa.StructArray.from_arrays([c.arr for c in children], [str(i) for i in range(len(children))]))

    def to_arrow(self, metadata: Any = None) -> pa.Array:
        if metadata is not None:
            raise _unmodelled("Column.to_arrow", "metadata", metadata)
        return self.arr

    # ---- memory, as libcudf lays it out (``gframe.engines.gpu.exchange`` shares it): the fake's
    # "device" memory is host memory, so these spans hold host addresses
    def data(self) -> "_HostSpan":
        """The values buffer (``offset()`` is always 0 here, so it starts at row 0). BOOL8 is one
        byte per row in libcudf (Arrow packs bits): a byte copy is made once and kept."""
        t = self.arr.type
        if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
                or pa.types.is_temporal(t)):
            raise _unmodelled("Column.data", "type", t, "fixed-width columns only")
        cached = self.__dict__.get("_data")
        if cached is None:
            n = len(self.arr)
            if pa.types.is_boolean(t):
                values = pc.fill_null(self.arr, False).to_numpy(zero_copy_only=False).astype(np.uint8)
                cached = _HostSpan(values, values.ctypes.data, values.nbytes)
            else:
                width = t.bit_width // 8
                buf = self.arr.buffers()[1]
                ptr = (buf.address if buf is not None else 0) + self.arr.offset * width
                cached = _HostSpan(buf, ptr, n * width)
            self.__dict__["_data"] = cached
        return cached

    def null_mask(self) -> "_HostSpan | None":
        """libcudf's validity bitmask (bit i set: row i valid, least significant bit first, padded to
        64 bytes), or None without missing values (one of the states libcudf allows)."""
        if not self.arr.null_count:
            return None
        cached = self.__dict__.get("_mask")
        if cached is None:
            cached = _bitmask(pc.is_valid(self.arr).to_numpy(zero_copy_only=False))
            self.__dict__["_mask"] = cached
        return cached

    def copy(self) -> "Column":
        """A deep copy (new memory)."""
        return Column(pc.take(self.arr, pa.array(np.arange(len(self.arr), dtype=np.int64))))

    def with_mask(self, mask: Any, null_count: int, validate: bool = True) -> "Column":
        """A column over the same values with ``mask`` (a span of libcudf's bitmask layout) as validity."""
        n = len(self.arr)
        if mask is None:
            valid = np.ones(n, dtype=bool)
        else:
            raw = np.frombuffer(ctypes.string_at(mask.ptr, mask.size), dtype=np.uint8)
            valid = np.unpackbits(raw, bitorder="little")[:n].astype(bool)
        if validate and int((~valid).sum()) != null_count:
            raise ValueError("fake pylibcudf: with_mask: null_count does not match the mask")
        # the values under rows that were missing are unspecified in libcudf: any value here
        base = pc.fill_null(self.arr, _any_value(self.arr.type)) if self.arr.null_count else self.arr
        return Column(pc.if_else(pa.array(valid), base, pa.scalar(None, self.arr.type)))

    def __repr__(self) -> str:
        return f"FakeColumn({self.arr.type}, {self.arr.to_pylist()[:10]})"


class _HostSpan:
    """The fake's ``gpumemoryview``: ``ptr`` and ``size`` (bytes) of host memory that ``obj`` owns."""

    def __init__(self, obj: Any, ptr: int, size: int) -> None:
        self.obj, self.ptr, self.size = obj, int(ptr), int(size)

    @property
    def nbytes(self) -> int:
        return self.size


def _bitmask(valid: np.ndarray) -> _HostSpan:
    """libcudf's bitmask of a bool array, padded to 64 bytes."""
    bits = np.packbits(np.asarray(valid, dtype=bool), bitorder="little")
    out = np.zeros(max(-(-len(bits) // 64) * 64, 64), dtype=np.uint8)
    out[:len(bits)] = bits
    return _HostSpan(out, out.ctypes.data, out.nbytes)


def _any_value(t: pa.DataType) -> pa.Scalar:
    return pa.scalar(False) if pa.types.is_boolean(t) else pa.scalar(0).cast(t)


class Table:
    def __init__(self, columns: Sequence[Column], num_rows: int | None = None) -> None:
        self._cols = list(columns)
        if len({c.size() for c in self._cols}) > 1:
            raise ValueError("fake pylibcudf: Table: columns of different sizes")
        self._n = num_rows if num_rows is not None else (self._cols[0].size() if self._cols else 0)

    def columns(self) -> tuple[Column, ...]:
        # a tuple, as pylibcudf 26.10 gives (seen on the device: ``.pop()`` on it failed there)
        return tuple(self._cols)

    def num_columns(self) -> int:
        return len(self._cols)

    def num_rows(self) -> int:
        return self._n

    @staticmethod
    def from_arrow(t: pa.Table, dtype: Any = None) -> "Table":
        if dtype is not None or not isinstance(t, pa.Table):
            raise _unmodelled("Table.from_arrow", "arrow_like", type(t).__name__, "a pa.Table, no dtype")
        return Table([Column(c) for c in t.columns], t.num_rows)

    def to_arrow(self, metadata: Any = None) -> pa.Table:
        names = [m if isinstance(m, str) else getattr(m, "name", str(i)) for i, m in enumerate(metadata)] \
            if metadata is not None else ["" for _ in self._cols]  # libcudf names nothing (seen on the device)
        return pa.Table.from_arrays([c.arr for c in self._cols], names=names)


class Scalar:
    def __init__(self, s: pa.Scalar) -> None:
        if pa.types.is_string(s.type):
            s = s.cast(pa.large_string())
        if pa.types.is_decimal(s.type):
            s = s.cast(_device_decimal(s.type))
        self.s = s

    @staticmethod
    def from_arrow(s: pa.Scalar, dtype: Any = None) -> "Scalar":
        if dtype is not None:
            raise _unmodelled("Scalar.from_arrow", "dtype", dtype)
        if not isinstance(s, pa.Scalar):
            raise _unmodelled("Scalar.from_arrow", "pa_scalar", type(s).__name__)
        _norm(pa.array([], type=s.type))  # a type the device can hold
        return Scalar(s)

    def is_valid(self) -> bool:
        return self.s.is_valid

    def type(self) -> DataType:
        return DataType.from_arrow(self.s.type)

    def to_py(self) -> Any:
        if pa.types.is_date32(self.s.type):  # pylibcudf 26.10 refuses TIMESTAMP_DAYS (seen on the H100)
            raise _unmodelled("Scalar.to_py", "type", "TIMESTAMP_DAYS", "pylibcudf does not convert it")
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
NullEquality, NanEquality, NanPolicy, Sorted = (types_mod.NullEquality, types_mod.NanEquality, types_mod.NanPolicy,
                                                types_mod.Sorted)


class _NanKey:
    """NaN as a value equal to itself (libcudf's ALL_EQUAL / NAN_IS_VALID), ordered after every number."""

    def __repr__(self) -> str:
        return "NaN"


_NAN = _NanKey()


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


_BINARY_MODELLED = {"ADD", "SUB", "MUL", "DIV", "TRUE_DIV", "FLOOR_DIV", "PYMOD", "POW", "BITWISE_AND", "BITWISE_OR",
                    "BITWISE_XOR", "LOGICAL_AND", "LOGICAL_OR", "NULL_LOGICAL_AND", "NULL_LOGICAL_OR", "NULL_EQUALS", "NULL_NOT_EQUALS", *_CMP}


def _unscaled(a: pa.Array) -> list[int | None]:
    """A decimal column's stored integers (its values times 10**scale)."""
    return [None if v is None else int(v.scaleb(a.type.scale)) for v in a.to_pylist()]


def _fixed_point_binary(name: str, a: pa.Array, b: pa.Array, output_type: DataType) -> Column:
    """libcudf's fixed-point ADD/SUB/MUL/DIV (``binary_operation_fixed_point_scale``): both inputs of
    one fixed-point width, the output of that width and of libcudf's scale (ADD/SUB: the smaller
    (finer) libcudf scale, the inputs rescaled to it; MUL: the sum of the scales; DIV: lhs' minus rhs',
    the stored integers divided, truncated toward zero). libcudf does no overflow check (the int128
    wraps) and a zero divisor is undefined: the fake refuses both."""
    t = output_type.to_arrow()
    if a.type.bit_width != b.type.bit_width or not pa.types.is_decimal(t) or t.bit_width != a.type.bit_width:
        raise TypeError(f"fake pylibcudf: binary_operation {name} of {a.type} and {b.type} to {t}: libcudf "
                        "requires one fixed-point type id for both inputs and the output")
    sa, sb = -a.type.scale, -b.type.scale  # libcudf's scales (10**scale is the unit)
    scale = {"ADD": min(sa, sb), "SUB": min(sa, sb), "MUL": sa + sb, "DIV": sa - sb}[name]
    if output_type.scale() != scale:
        raise _unmodelled("binary_operation", "output_type", output_type,
                          f"{name} of scales {sa} and {sb} has libcudf's scale {scale}")
    x, y = _unscaled(a), _unscaled(b)
    if name in ("ADD", "SUB"):  # both at the finer scale first (exact)
        x = [None if v is None else v * 10 ** (sa - scale) for v in x]
        y = [None if v is None else v * 10 ** (sb - scale) for v in y]
    out: list[int | None] = []
    for u, v in zip(x, y):
        if u is None or v is None:
            out.append(None)
        elif name == "ADD":
            out.append(u + v)
        elif name == "SUB":
            out.append(u - v)
        elif name == "MUL":
            out.append(u * v)
        else:
            if v == 0:
                raise _unmodelled("binary_operation", "rhs", "fixed-point 0", "DIV by zero is undefined")
            q = abs(u) // abs(v)
            out.append(q if (u < 0) == (v < 0) else -q)
    limit = 10 ** _DECIMALS[_decimal_id(t)][1]
    if any(r is not None and abs(r) >= limit for r in out):
        raise _unmodelled("binary_operation", "output", name, "a result past the width's digits (libcudf wraps)")
    import decimal as _decimal

    return Column(pa.array([None if r is None else _decimal.Decimal(r).scaleb(scale) for r in out], type=t))


def binary_operation(lhs: Any, rhs: Any, op: Any, output_type: DataType) -> Column:
    name = _enum_arg(BinaryOperator, "binary_operation", "op", op).name
    if name not in _BINARY_MODELLED:
        raise _unmodelled("binary_operation", "op", op)
    if not isinstance(lhs, Column) and not isinstance(rhs, Column):
        raise _unmodelled("binary_operation", "lhs", lhs, "one side must be a Column")
    if isinstance(lhs, Column) and isinstance(rhs, Column) and lhs.size() != rhs.size():
        raise ValueError("fake pylibcudf: binary_operation: columns of different sizes")
    a, b = _pair(lhs, rhs)
    t = output_type.to_arrow()
    decimals = [pa.types.is_decimal(x.type) for x in (a, b)]
    if any(decimals):
        if not all(decimals):  # libcudf: fixed-point only with fixed-point
            # libcudf accepts a decimal against an integer column (seen on the H100), with semantics
            # not modelled here: the engine casts integers to decimals first
            raise _unmodelled("binary_operation", "rhs", f"{a.type} with {b.type}", "mixed fixed-point")
        if name in ("ADD", "SUB", "MUL", "DIV"):
            return _fixed_point_binary(name, a, b, output_type)
        if name not in _CMP and name not in ("NULL_EQUALS", "NULL_NOT_EQUALS"):  # libcudf's comparison binops
            raise _unmodelled("binary_operation", "op", op, f"on {a.type} and {b.type} (comparisons and "
                              "ADD/SUB/MUL/DIV modelled)")
    if name == "DIV":
        raise _unmodelled("binary_operation", "op", op, "DIV modelled on fixed-point only")
    strings = [pa.types.is_large_string(x.type) for x in (a, b)]
    if any(strings) and (not all(strings) or name not in _CMP and name not in ("NULL_EQUALS", "NULL_NOT_EQUALS")):
        raise _unmodelled("binary_operation", "op", op, f"on {a.type} and {b.type}")
    if name in _CMP:
        return Column(_CMP[name](a, b).cast(t))
    if name in ("NULL_EQUALS", "NULL_NOT_EQUALS"):
        eq = pc.fill_null(pc.equal(a, b), False)
        both = pc.and_(pc.is_null(a), pc.is_null(b))
        res = pc.or_(eq, both)
        return Column(pc.invert(res) if name == "NULL_NOT_EQUALS" else res)
    if name in ("NULL_LOGICAL_AND", "NULL_LOGICAL_OR"):  # libcudf's Kleene logic
        fa, fb = a.cast(pa.bool_()), b.cast(pa.bool_())
        return Column((pc.and_kleene if name == "NULL_LOGICAL_AND" else pc.or_kleene)(fa, fb).cast(t))
    if name in ("LOGICAL_AND", "LOGICAL_OR"):
        fa, fb = a.cast(pa.bool_()), b.cast(pa.bool_())
        return Column((pc.and_ if name == "LOGICAL_AND" else pc.or_)(fa, fb).cast(t))
    if pa.types.is_timestamp(a.type) or pa.types.is_duration(a.type) or pa.types.is_timestamp(b.type) \
            or pa.types.is_duration(b.type):
        if name not in ("ADD", "SUB"):
            raise _unmodelled("binary_operation", "op", op, f"on {a.type} and {b.type}")
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
        elif name in ("FLOOR_DIV", "PYMOD"):
            if np.issubdtype(np.result_type(av, bv), np.integer):
                if np.any((bv == 0) & valid):  # undefined in libcudf (no trap on the device)
                    raise _unmodelled("binary_operation", "rhs", "integer 0", f"{name} by zero")
                safe = np.where(bv == 0, 1, bv)
                r = np.floor_divide(av, safe) if name == "FLOOR_DIV" else np.mod(av, safe)
            else:
                r = np.floor(av / bv) if name == "FLOOR_DIV" else np.mod(av, bv)
        elif name == "POW":
            r = np.power(av.astype(np.float64), bv.astype(np.float64))
        elif name == "BITWISE_AND":
            r = av & bv
        elif name == "BITWISE_OR":
            r = av | bv
        elif name == "BITWISE_XOR":
            r = av ^ bv
        else:
            raise _unmodelled("binary_operation", "op", op)
    return _from_np(np.asarray(r), valid, t)


binaryop = types.SimpleNamespace(BinaryOperator=BinaryOperator, binary_operation=binary_operation)


# ----------------------------------------------------------------------------------------- unary

UnaryOperator = _enum("UnaryOperator", [
    "SIN", "COS", "TAN", "ARCSIN", "ARCCOS", "ARCTAN", "SINH", "COSH", "TANH", "ARCSINH", "ARCCOSH", "ARCTANH",
    "EXP", "LOG", "SQRT", "CBRT", "CEIL", "FLOOR", "ABS", "RINT", "BIT_COUNT", "BIT_INVERT", "NOT", "NEGATE"])
_UFN = {"SIN": np.sin, "COS": np.cos, "TAN": np.tan, "ARCSIN": np.arcsin, "ARCCOS": np.arccos, "ARCTAN": np.arctan,
        "SINH": np.sinh, "COSH": np.cosh, "TANH": np.tanh, "ARCSINH": np.arcsinh, "ARCCOSH": np.arccosh,
        "ARCTANH": np.arctanh, "EXP": np.exp, "LOG": np.log, "SQRT": np.sqrt, "CBRT": np.cbrt, "CEIL": np.ceil,
        "FLOOR": np.floor, "ABS": np.abs, "RINT": np.rint, "NEGATE": np.negative, "BIT_INVERT": np.invert,
        "NOT": np.logical_not}
_MATH = {"SIN", "COS", "TAN", "ARCSIN", "ARCCOS", "ARCTAN", "SINH", "COSH", "TANH", "ARCSINH", "ARCCOSH", "ARCTANH",
         "EXP", "LOG", "SQRT", "CBRT", "CEIL", "FLOOR", "RINT"}


def _fixed_width(fn: str, col: Column) -> None:
    t = col.arr.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
            or pa.types.is_timestamp(t) or pa.types.is_date32(t) or pa.types.is_duration(t)):
        raise _unmodelled(fn, "input", col, "fixed-width types only")


def unary_operation(input: Column, op: Any) -> Column:
    name = _enum_arg(UnaryOperator, "unary_operation", "op", op).name
    t = input.arr.type
    if name not in _UFN:
        raise _unmodelled("unary_operation", "op", op)
    numeric = pa.types.is_integer(t) or pa.types.is_floating(t)
    if name in _MATH and not pa.types.is_floating(t) or name in ("ABS", "NEGATE") and not numeric \
            or name == "BIT_INVERT" and not pa.types.is_integer(t) \
            or name == "NOT" and not (numeric or pa.types.is_boolean(t)):
        raise _unmodelled("unary_operation", "input", input, f"{name} on {t} (modelled on floats for math, "
                          "numbers for ABS/NEGATE, integers for BIT_INVERT)")
    v, m = _np(input.arr)
    with np.errstate(all="ignore"):
        r = _UFN[name](v)
    return _from_np(np.asarray(r), m, pa.bool_() if name == "NOT" else t)


_CASTABLE = (pa.types.is_integer, pa.types.is_floating, pa.types.is_boolean)


def _cast(input: Column, data_type: DataType) -> Column:
    """libcudf's cast among numbers and bools, and chrono to chrono of the same kind (and to/from int64)."""
    target = data_type.to_arrow()
    a = input.arr
    if pa.types.is_large_string(a.type) != pa.types.is_large_string(target):  # libcudf: fixed-width types only
        raise TypeError(f"fake pylibcudf: cast from {a.type} to {target}: libcudf casts fixed-width types only")
    if pa.types.is_decimal(a.type) or pa.types.is_decimal(target):
        if pa.types.is_decimal(a.type) and pa.types.is_decimal(target) and a.type.scale <= target.scale:
            # the same scale, or a finer one (the stored integers times a power of 10: exact; libcudf
            # does not check the width's range, the fake refuses a value past it)
            if a.type.scale < target.scale and pc.max(pc.abs(a)).as_py() is not None \
                    and pc.max(pc.abs(a)).as_py() >= 10 ** (target.precision - target.scale):
                raise _unmodelled("cast", "input", a.type, f"a value past {target}'s digits (libcudf wraps)")
            return Column(a.cast(target))
        if pa.types.is_integer(a.type) and pa.types.is_decimal(target):
            # libcudf: the integer times 10**-scale, unchecked (the fake refuses a value past the width)
            big = pc.max(pc.abs(a.cast(pa.decimal128(38, 0)))).as_py() if len(a) else None
            if big is not None and big >= 10 ** (target.precision - target.scale):
                raise _unmodelled("cast", "input", a.type, f"a value past {target}'s digits (libcudf wraps)")
            return Column(a.cast(target))
        if pa.types.is_decimal(a.type) and target == pa.float64():
            return Column(a.cast(target))
        raise _unmodelled("cast", "data_type", data_type, f"from {a.type} (decimal to a decimal of its "
                          "scale or a finer one, integers to decimals, decimals to float64)")
    src_num, dst_num = any(f(a.type) for f in _CASTABLE), any(f(target) for f in _CASTABLE)
    same_chrono = (pa.types.is_timestamp(a.type) or pa.types.is_date32(a.type)) and \
        (pa.types.is_timestamp(target) or pa.types.is_date32(target)) or \
        pa.types.is_duration(a.type) and pa.types.is_duration(target)
    if not (src_num and dst_num or same_chrono or a.type == target):
        raise _unmodelled("cast", "data_type", data_type, f"from {a.type}")
    if pa.types.is_floating(a.type) and pa.types.is_integer(target):
        v, m = _np(a)
        if np.any(~np.isfinite(v) & m):  # undefined in libcudf
            raise _unmodelled("cast", "input", "NaN/inf", f"to {target}")
        return _from_np(np.trunc(v).astype(target.to_pandas_dtype()), m, target)
    return Column(a.cast(target, safe=False))


def bit_cast(input: Column, data_type: DataType) -> Column:
    """Same-width reinterpretation: modelled between int64 and 64-bit timestamps/durations (the engine's use)."""
    src, dst = input.arr.type, data_type.to_arrow()
    chrono = lambda t: pa.types.is_timestamp(t) or pa.types.is_duration(t)  # noqa: E731
    if src == dst:
        return Column(input.arr)
    if chrono(src) and dst == pa.int64() or src == pa.int64() and chrono(dst):
        return Column(input.arr.cast(pa.int64()).cast(dst) if chrono(dst) else input.arr.cast(pa.int64()))
    raise _unmodelled("bit_cast", "data_type", data_type, f"from {src}")


def _is_nan(input: Column) -> Column:
    if not pa.types.is_floating(input.arr.type):  # libcudf: "Input column must be floating point"
        raise TypeError(f"fake pylibcudf: is_nan of {input.arr.type}: libcudf requires a floating-point column")
    return Column(pc.fill_null(pc.is_nan(input.arr), False))


def is_null(input: Column) -> Column:
    return Column(pc.is_null(input.arr))


def is_valid(input: Column) -> Column:
    return Column(pc.is_valid(input.arr))


unary = types.SimpleNamespace(
    UnaryOperator=UnaryOperator, unary_operation=unary_operation, cast=_cast, bit_cast=bit_cast,
    is_null=is_null, is_valid=is_valid, is_nan=_is_nan)


# ---------------------------------------------------------------------------------- aggregation

class Aggregation:
    def __init__(self, kind: str, **params: Any) -> None:
        self.kind = kind
        self.params = params


CorrelationType = _enum("CorrelationType", ["PEARSON", "KENDALL", "SPEARMAN"])
RankMethod = _enum("RankMethod", ["FIRST", "AVERAGE", "MIN", "MAX", "DENSE"])


def _policy(fn: str, null_handling: Any) -> Any:
    return _enum_arg(NullPolicy, fn, "null_handling", null_handling)


def _count(null_handling: Any = None) -> Aggregation:
    # the .pyx default is EXCLUDE (the stub says INCLUDE): the engine always passes it
    return Aggregation("count", nulls=NullPolicy.EXCLUDE if null_handling is None else _policy("count", null_handling))


def _nunique(null_handling: Any = None) -> Aggregation:
    return Aggregation("nunique",
                       nulls=NullPolicy.EXCLUDE if null_handling is None else _policy("nunique", null_handling))


def _nth_element(n: int, null_handling: Any = None) -> Aggregation:
    return Aggregation("nth", n=int(n),
                       nulls=NullPolicy.INCLUDE if null_handling is None else _policy("nth_element", null_handling))


def _ddof(fn: str, ddof: Any) -> int:
    if not isinstance(ddof, int) or ddof < 0:
        raise _unmodelled(fn, "ddof", ddof)
    return ddof


def _correlation(type: Any, min_periods: int) -> Aggregation:
    _require("correlation", "type", _enum_arg(CorrelationType, "correlation", "type", type), [CorrelationType.PEARSON])
    return Aggregation("corr", min_periods=int(min_periods))


def _covariance(min_periods: int, ddof: int) -> Aggregation:
    return Aggregation("cov", min_periods=int(min_periods), ddof=_ddof("covariance", ddof))


aggregation = types.SimpleNamespace(
    sum=lambda: Aggregation("sum"), product=lambda: Aggregation("product"), min=lambda: Aggregation("min"),
    max=lambda: Aggregation("max"), mean=lambda: Aggregation("mean"), median=lambda: Aggregation("median"),
    any=lambda: Aggregation("any"), all=lambda: Aggregation("all"),
    std=lambda ddof=1: Aggregation("std", ddof=_ddof("std", ddof)),
    variance=lambda ddof=1: Aggregation("var", ddof=_ddof("variance", ddof)),
    count=_count, nunique=_nunique, nth_element=_nth_element,
    CorrelationType=CorrelationType, correlation=_correlation, covariance=_covariance, RankMethod=RankMethod,
)


def _pairs(vals: list[Any], agg: Aggregation) -> tuple[Any, pa.DataType]:
    """correlation / covariance of a group of {"0": x, "1": y} rows (libcudf skips missing ones)."""
    pairs = np.asarray([(v["0"], v["1"]) for v in vals if v is not None and None not in (v["0"], v["1"])],
                       dtype=float).reshape(-1, 2)
    if len(pairs) < max(agg.params["min_periods"], 1) or agg.kind == "cov" and len(pairs) <= agg.params["ddof"] \
            or agg.kind == "corr" and len(pairs) < 2:  # libcudf: a correlation of one pair is null (seen on the device)
        return None, pa.float64()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a constant column: NaN, as libcudf gives
        if agg.kind == "cov":
            return float(np.cov(pairs[:, 0], pairs[:, 1], ddof=agg.params["ddof"])[0, 1]), pa.float64()
        return float(np.corrcoef(pairs[:, 0], pairs[:, 1])[0, 1]), pa.float64()


# which aggregations each libcudf context accepts (the rest raise NotImplementedError there too)
_CONTEXTS = {
    "groupby": {"sum", "product", "min", "max", "count", "nunique", "nth", "mean", "median", "std", "var", "corr",
                "cov"},
    "reduce": {"sum", "product", "min", "max", "any", "all", "mean", "median", "std", "var", "nunique", "nth"},
    "scan": {"sum", "product", "min", "max"},
}
# results that depend on how libcudf orders or compares NaN, which the fake does not model
_NAN_SENSITIVE = {"min", "max", "median", "nunique", "corr", "cov"}


def _is_nan_value(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _check_agg(fn: str, agg: Any, context: str, t: pa.DataType, vals: list[Any]) -> None:
    if not isinstance(agg, Aggregation):
        raise TypeError(f"fake pylibcudf: {fn} expects an Aggregation, got {agg!r}")
    if agg.kind not in _CONTEXTS[context]:
        raise _unmodelled(fn, "agg", agg.kind, f"not a {context} aggregation here")
    if agg.kind in ("any", "all") and not pa.types.is_boolean(t):
        raise _unmodelled(fn, "agg", agg.kind, f"on {t} (modelled on bools)")
    if agg.kind in ("sum", "product", "mean", "median", "std", "var") and not (
            pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
            or agg.kind == "sum" and pa.types.is_decimal(t)):
        raise _unmodelled(fn, "agg", agg.kind, f"on {t}")
    if agg.kind in _NAN_SENSITIVE and pa.types.is_floating(t) and any(_is_nan_value(v) for v in vals):
        raise _unmodelled(fn, "col", "NaN", f"{agg.kind} over NaN (make NaN null first)")


def _wrap_int(v: Any, t: pa.DataType) -> Any:
    """An integer sum or product as libcudf's accumulator in type ``t`` holds it: wrapped around
    (two's complement), as numpy's and pandas' int64 sums wrap."""
    if not isinstance(v, int) or isinstance(v, bool) or not pa.types.is_integer(t):
        return v
    span = 1 << t.bit_width
    v %= span
    return v - span if pa.types.is_signed_integer(t) and v >= span >> 1 else v


def _linear_middle(nonnull: list[Any]) -> float:
    """libcudf's median (quantile 0.5, LINEAR) of sorted values: ``(1 - f) * lower + f * upper``
    in double, f the fraction of the position - also where f is 0, so an infinite middle value
    gives 0 * inf = NaN (cudf/detail/utilities/cuda.cuh ``interpolate::linear``, seen on the H100:
    the median of [inf] came back NaN)."""
    xs = sorted(float(v) for v in nonnull)
    pos = 0.5 * (len(xs) - 1)
    lower, upper = math.floor(pos), math.ceil(pos)
    frac = pos - lower
    return (1.0 - frac) * xs[lower] + frac * xs[upper]


def _chan_variance(nonnull: list[Any], ddof: int) -> float:
    """libcudf's variance reduction: (sum, squared deviations, count) triples merged as Chan, Golub
    and LeVeque's pairwise update (reduction_operators.cuh ``var_std``), here in row order (CUB's
    tree is another order: the last bits may differ). A merge where one side's sum is infinite
    gives an infinite variance: [inf, 1e20] has variance inf on the H100 (pandas: NaN)."""
    total, ssd, m = 0.0, 0.0, 0
    for v in nonnull:
        x = float(v)
        if m == 0:
            total, ssd, m = x, 0.0, 1
            continue
        diff = (1.0 / m) * total - x
        ssd = ssd + (m / 1.0) / (m + 1) * diff * diff
        total, m = total + x, m + 1
    return ssd / (m - ddof)


def _agg_values(vals: list[Any], agg: Aggregation, t: pa.DataType,
                reduction: bool = False) -> tuple[Any, pa.DataType]:
    """One group's aggregate (Python values) and its libcudf result type."""
    k = agg.kind
    if k in ("corr", "cov"):
        if any(_is_nan_value(x) for v in vals if v is not None for x in v.values()):
            raise _unmodelled("GroupBy.aggregate", "values", "NaN", f"{k} over NaN")
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
        rt = (pa.uint64() if pa.types.is_unsigned_integer(t) else pa.int64()) if numeric else t
        return _wrap_int(sum(nonnull), rt), rt
    if k == "product":
        rt = pa.int64() if numeric else t
        return _wrap_int(functools.reduce(lambda x, y: x * y, nonnull), rt), rt
    if k == "min":
        return min(nonnull), t
    if k == "max":
        return max(nonnull), t
    if k == "mean":
        if numeric and not reduction:
            # the group-by's MEAN is its SUM (in int64 / uint64: wrapping) over its COUNT_VALID
            # (groupby/hash/flatten_single_pass_aggs: a compound aggregation), divided in double:
            # [2**63 - 2, 5] has mean -4.6e18 on the H100 (seed 803616; pandas: 4.6e18)
            st = pa.uint64() if pa.types.is_unsigned_integer(t) else pa.int64()
            return float(_wrap_int(sum(int(v) for v in nonnull), st)) / len(nonnull), pa.float64()
        return float(np.mean(nonnull)), pa.float64()
    if k == "median":
        # the group median interpolates a group of one too (the H100: a group [inf] gives NaN)
        return _linear_middle(nonnull), pa.float64()
    if k in ("std", "var"):
        ddof = agg.params["ddof"]
        if len(nonnull) - ddof <= 0:
            return None, pa.float64()
        v = _chan_variance(nonnull, ddof) if reduction else float(np.var(np.asarray(nonnull, dtype=float), ddof=ddof))
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
        # keys_are_sorted=YES: libcudf's sort-based group-by over keys already in ascending order
        # (it skips the sort; keys out of order are undefined there, refused here)
        self.presorted = keys_are_sorted is not None and _enum_arg(
            Sorted, "GroupBy", "keys_are_sorted", keys_are_sorted) == Sorted.YES
        if column_order is not None or null_precedence is not None:
            raise _unmodelled("GroupBy", "column_order/null_precedence", (column_order, null_precedence))
        self.keys = keys
        self.include = null_handling is not None and _policy("GroupBy", null_handling) == NullPolicy.INCLUDE

    def aggregate(self, requests: list[GroupByRequest]) -> tuple[Table, list[Table]]:
        keys = [c.arr.to_pylist() for c in self.keys.columns()]
        if any(_is_nan_value(v) for col in keys for v in col):
            raise _unmodelled("GroupBy.aggregate", "keys", "NaN", "NaN keys (make NaN null first)")
        n = self.keys.num_rows()
        groups: dict[tuple, list[int]] = {}
        for i in range(n):
            k = tuple(col[i] for col in keys)
            if not self.include and any(v is None for v in k):
                continue
            groups.setdefault(k, []).append(i)
        order = list(groups)
        if self.presorted:  # the sort-based group-by: groups in key order (here, as they come)
            rows = list(zip(*keys)) if keys else []
            if any(v is None for r in rows for v in r):
                raise _unmodelled("GroupBy", "keys", "nulls", "presorted keys modelled without nulls")
            if any(rows[i] > rows[i + 1] for i in range(len(rows) - 1)):
                raise _unmodelled("GroupBy", "keys_are_sorted", "YES", "the keys are not in ascending order "
                                  "(undefined in libcudf)")
        else:
            _rng.shuffle(order)  # libcudf's hash group-by: no particular order
        key_cols = [Column(pa.array([g[j] for g in order], type=c.arr.type)) for j, c in enumerate(self.keys.columns())]
        results = []
        for r in requests:
            if r.values.size() != n:
                raise ValueError("fake pylibcudf: GroupByRequest values and keys differ in size")
            vals = r.values.arr.to_pylist()
            cols = []
            for agg in r.aggregations:
                if agg.kind not in ("corr", "cov"):
                    _check_agg("GroupBy.aggregate", agg, "groupby", r.values.arr.type, vals)
                elif not pa.types.is_struct(r.values.arr.type):
                    raise _unmodelled("GroupBy.aggregate", "values", r.values.arr.type, f"{agg.kind} needs a struct")
                out, rt = [], r.values.arr.type
                for g in order:
                    v, rt = _agg_values([vals[i] for i in groups[g]], agg, r.values.arr.type)
                    out.append(v)
                if not order:  # the result type of an empty group-by
                    rt = _agg_values([], agg, r.values.arr.type)[1]
                cols.append(Column(pa.array(out, type=rt)))
            results.append(Table(cols, len(order)))
        return Table(key_cols, len(order)), results


groupby = types.SimpleNamespace(GroupBy=GroupBy, GroupByRequest=GroupByRequest)


# ------------------------------------------------------------------------------------- reduce

ScanType = _enum("ScanType", ["INCLUSIVE", "EXCLUSIVE"])


def reduce(col: Column, agg: Aggregation, data_type: DataType, init: Any = None) -> Scalar:
    if init is not None:
        raise _unmodelled("reduce", "init", init)
    vals = col.arr.to_pylist()
    _check_agg("reduce", agg, "reduce", col.arr.type, vals)
    out = data_type.to_arrow()
    if agg.kind in ("any", "all") and all(v is None for v in vals):
        return Scalar(pa.scalar(agg.kind == "all", type=out))  # libcudf: the identity, valid (seen on the device)
    if agg.kind == "nunique" and not vals:
        return Scalar(pa.scalar(None, type=out))  # libcudf: an empty column's nunique is null (seen on the device)
    v, _ = _agg_values(vals, agg, col.arr.type, reduction=True)
    if agg.kind in ("sum", "product"):
        v = _wrap_int(v, out)  # (libcudf accumulates in the output type)
    return Scalar(pa.scalar(v, type=out) if v is not None else pa.scalar(None, type=out))


_SCAN_STEP = {"sum": lambda a, b: a + b, "product": lambda a, b: a * b, "min": min, "max": max}


def scan(col: Column, agg: Aggregation, inclusive: Any) -> Column:
    """libcudf's scan with null_policy EXCLUDE (what pylibcudf passes): nulls are skipped by the running
    value and stay null in the output."""
    _require("scan", "inclusive", _enum_arg(ScanType, "scan", "inclusive", inclusive), [ScanType.INCLUSIVE])
    vals = col.arr.to_pylist()
    t = col.arr.type
    _check_agg("scan", agg, "scan", t, vals)
    if agg.kind in ("sum", "product") and not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise _unmodelled("scan", "agg", agg.kind, f"on {t}")
    step = _SCAN_STEP[agg.kind]
    out, cur = [], None
    for v in vals:
        if v is None:
            out.append(None)
            continue
        cur = v if cur is None else _wrap_int(step(cur, v), t)
        out.append(cur)
    return Column(pa.array(out, type=t))


def distinct_count(source: Column, null_handling: Any, nan_handling: Any) -> int:
    """Nulls equal each other; NaNs equal each other (NAN_IS_VALID) or count as null (NAN_IS_NULL)."""
    include = _policy("distinct_count", null_handling) == NullPolicy.INCLUDE
    nan_is_null = _enum_arg(NanPolicy, "distinct_count", "nan_handling", nan_handling) == NanPolicy.NAN_IS_NULL
    seen = set()
    for v in source.arr.to_pylist():
        if _is_nan_value(v):
            v = None if nan_is_null else _NAN
        if v is None and not include:
            continue
        seen.add(v)
    return len(seen)


def distinct_count_table(source: Table, nulls_equal: Any) -> int:
    """The number of distinct rows, nulls equal each other (EQUAL, the only one modelled). NaN keys
    are not modelled (counted as one here): the GPU engine counts only keys without NaN."""
    _require("distinct_count_table", "nulls_equal",
             _enum_arg(NullEquality, "distinct_count_table", "nulls_equal", nulls_equal), [NullEquality.EQUAL])
    return len(set(_row_keys(source.columns(), source.num_rows())))


reduce_mod = types.SimpleNamespace(reduce=reduce, scan=scan, ScanType=ScanType, distinct_count=distinct_count,
                                   distinct_count_table=distinct_count_table)


# -------------------------------------------------------------------------------------- sorting

def _cmp_rows(cols: list[list[Any]], orders: Sequence[Any], nulls: Sequence[Any]) -> Any:
    """libcudf's lexicographic row order: NaN after every number and equal to NaN; nulls where asked.

    BEFORE makes null smaller than every value, so DESCENDING flips it too (libcudf's rule)."""
    def cmp(i: int, j: int) -> int:
        for c, o, nl in zip(cols, orders, nulls):
            a, b = c[i], c[j]
            if a is None and b is None:
                r = 0
            elif a is None or b is None:
                small = nl == NullOrder.BEFORE
                r = (-1 if small else 1) if a is None else (1 if small else -1)
            else:
                an, bn = _is_nan_value(a), _is_nan_value(b)
                r = (an > bn) - (an < bn) if an or bn else (a > b) - (a < b)
            if o == Order.DESCENDING:
                r = -r
            if r:
                return r
        return 0

    return functools.cmp_to_key(cmp)


def _order_values(arr: pa.Array) -> list[Any]:
    """A sort key column's values as Python values that compare as libcudf compares them: times,
    dates and durations as their integers (libcudf compares the stored ticks; a Python datetime
    cannot hold the ticks past year 9999, e.g. int64's largest microsecond)."""
    t = arr.type
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t) or pa.types.is_time(t):
        return arr.view(pa.int32() if t.bit_width == 32 else pa.int64()).to_pylist()
    return arr.to_pylist()


def _sort_args(fn: str, t: Table, column_order: Sequence[Any], null_precedence: Sequence[Any]) -> None:
    if not isinstance(t, Table):
        raise TypeError(f"fake pylibcudf: {fn} expects a Table")
    for o in column_order:
        _enum_arg(Order, fn, "column_order", o)
    for nl in null_precedence:
        _enum_arg(NullOrder, fn, "null_precedence", nl)
    if len(column_order) != t.num_columns() or len(null_precedence) != t.num_columns():
        raise _unmodelled(fn, "column_order/null_precedence", (len(column_order), len(null_precedence)),
                          f"one entry per column ({t.num_columns()})")


def stable_sorted_order(source_table: Table, column_order: Sequence[Any], null_precedence: Sequence[Any]) -> Column:
    _sort_args("stable_sorted_order", source_table, column_order, null_precedence)
    cols = [_order_values(c.arr) for c in source_table.columns()]
    idx = sorted(range(source_table.num_rows()), key=_cmp_rows(cols, column_order, null_precedence))
    return Column(pa.array(idx, type=pa.int32()))


def _segmented_sort(fn: str, values: Table, keys: Table, segment_offsets: Column, column_order: Sequence[Any],
                    null_precedence: Sequence[Any]) -> Table:
    """``values`` with each segment's rows sorted by ``keys`` (stably; the other segments untouched).
    Modelled: INT32 offsets without nulls, from 0 to the row count, never decreasing."""
    _sort_args(fn, keys, column_order, null_precedence)
    n = keys.num_rows()
    if values.num_rows() != n:
        raise ValueError(f"fake pylibcudf: {fn}: values and keys differ in size")
    offs = segment_offsets.arr.to_pylist()
    if segment_offsets.arr.type != pa.int32() or None in offs or not offs or offs[0] != 0 or offs[-1] != n \
            or any(a > b for a, b in itertools.pairwise(offs)):
        raise _unmodelled(fn, "segment_offsets", offs, "INT32 offsets from 0 to the row count, non-decreasing")
    cols = [_order_values(c.arr) for c in keys.columns()]
    cmp = _cmp_rows(cols, column_order, null_precedence)
    idx = [i for a, b in itertools.pairwise(offs) for i in sorted(range(a, b), key=cmp)]
    take = pa.array(idx, type=pa.int64())
    return Table([Column(c.arr.take(take)) for c in values.columns()], n)


def segmented_sort_by_key(values: Table, keys: Table, segment_offsets: Column, column_order: Sequence[Any],
                          null_precedence: Sequence[Any]) -> Table:
    """Unstable in libcudf: the stable order is one valid answer."""
    return _segmented_sort("segmented_sort_by_key", values, keys, segment_offsets, column_order, null_precedence)


def stable_segmented_sort_by_key(values: Table, keys: Table, segment_offsets: Column, column_order: Sequence[Any],
                                 null_precedence: Sequence[Any]) -> Table:
    return _segmented_sort("stable_segmented_sort_by_key", values, keys, segment_offsets, column_order,
                           null_precedence)


def sorted_order(source_table: Table, column_order: Sequence[Any], null_precedence: Sequence[Any]) -> Column:
    """Unstable in libcudf: the stable order is one valid answer (ties' order must not be relied on)."""
    _sort_args("sorted_order", source_table, column_order, null_precedence)
    return stable_sorted_order(source_table, column_order, null_precedence)


def stable_sort(source_table: Table, column_order: Sequence[Any], null_precedence: Sequence[Any]) -> Table:
    _sort_args("stable_sort", source_table, column_order, null_precedence)
    return gather(source_table, stable_sorted_order(source_table, column_order, null_precedence),
                  OutOfBoundsPolicy.DONT_CHECK)


def sort(source_table: Table, column_order: Sequence[Any], null_precedence: Sequence[Any]) -> Table:
    """Unstable in libcudf: served stably (see ``sorted_order``)."""
    _sort_args("sort", source_table, column_order, null_precedence)
    return stable_sort(source_table, column_order, null_precedence)


def rank(input: Column, method: Any, column_order: Any, null_handling: Any, null_precedence: Any,
         percentage: bool) -> Column:
    """libcudf's rank with missing values excluded (they stay missing) and no percentage, the only
    arguments modelled: FLOAT64 for AVERAGE, INT32 (size_type) for the other methods; ties of FIRST
    in row order. NaN is not modelled."""
    name = _enum_arg(RankMethod, "rank", "method", method).name
    descending = _enum_arg(Order, "rank", "column_order", column_order) == Order.DESCENDING
    _require("rank", "null_handling", _enum_arg(NullPolicy, "rank", "null_handling", null_handling),
             [NullPolicy.EXCLUDE])
    # null_precedence places the missing values as the smallest (BEFORE) or largest (AFTER) value; with
    # EXCLUDE their own ranks are null, but they still take rank positions when they sort first (seen
    # on the device: descending with AFTER ranks the present values from 1 + the number missing)
    nulls_largest = _enum_arg(NullOrder, "rank", "null_precedence", null_precedence) == NullOrder.AFTER
    if percentage:
        raise _unmodelled("rank", "percentage", percentage)
    vals = input.arr.to_pylist()
    if any(isinstance(v, float) and v != v for v in vals):
        raise _unmodelled("rank", "input", "NaN", "NaN's place among the values")

    def key(i: int) -> tuple[int, Any]:
        missing = vals[i] is None
        return ((1 if nulls_largest else -1) if missing else 0, 0 if missing else vals[i])

    order = sorted(range(len(vals)), key=key, reverse=descending)  # stable: ties in row order
    ranks: list[Any] = [None] * len(vals)
    pos, dense = 0, 0
    while pos < len(order):
        end = pos
        while end + 1 < len(order) and key(order[end + 1]) == key(order[pos]):
            end += 1
        dense += 1
        for j in range(pos, end + 1):
            ranks[order[j]] = {"FIRST": j + 1, "AVERAGE": (pos + end) / 2 + 1, "MIN": pos + 1, "MAX": end + 1,
                               "DENSE": dense}[name]
        pos = end + 1
    out = [None if v is None else r for v, r in zip(vals, ranks)]
    return Column(pa.array(out, type=pa.float64() if name == "AVERAGE" else pa.int32()))


sorting = types.SimpleNamespace(stable_sorted_order=stable_sorted_order, sorted_order=sorted_order,
                                sort=sort, stable_sort=stable_sort, rank=rank,
                                segmented_sort_by_key=segmented_sort_by_key,
                                stable_segmented_sort_by_key=stable_segmented_sort_by_key)


# ------------------------------------------------------------------------------------- copying

OutOfBoundsPolicy = _enum("OutOfBoundsPolicy", ["NULLIFY", "DONT_CHECK"])


def gather(source_table: Table, gather_map: Column, bounds_policy: Any) -> Table:
    """NULLIFY: a negative entry counts from the end (-1 is the last row, as libcudf does: seen on the
    device); one outside [-n, n) becomes null. DONT_CHECK: an entry outside [0, n) is undefined
    behaviour in libcudf, so the fake raises IndexError."""
    policy = _enum_arg(OutOfBoundsPolicy, "gather", "bounds_policy", bounds_policy)
    if not pa.types.is_integer(gather_map.arr.type) or gather_map.null_count():
        raise _unmodelled("gather", "gather_map", gather_map, "an integer map without nulls")
    idx = gather_map.arr.to_pylist()
    n = source_table.num_rows()
    if policy == OutOfBoundsPolicy.DONT_CHECK and any(not 0 <= i < n for i in idx):
        raise IndexError("fake pylibcudf: gather(bounds_policy=DONT_CHECK) with a map entry outside the table "
                         "(undefined in libcudf)")
    take = pa.array([i if 0 <= i < n else i + n if -n <= i < 0 else None for i in idx], type=pa.int64())
    return Table([Column(c.arr.take(take)) for c in source_table.columns()], len(idx))


def _slice(input: Any, indices: list[int]) -> list[Any]:
    if len(indices) % 2 or any(not 0 <= i <= input.num_rows() if isinstance(input, Table) else not 0 <= i <= input.size()
                               for i in indices) or any(s > e for s, e in zip(indices[::2], indices[1::2])):
        raise IndexError(f"fake pylibcudf: slice: bad indices {indices!r}")
    out = []
    for s, e in zip(indices[::2], indices[1::2]):
        if isinstance(input, Table):
            out.append(Table([Column(c.arr.slice(s, e - s)) for c in input.columns()], e - s))
        else:
            out.append(Column(input.arr.slice(s, e - s)))
    return out


def _same_type(fn: str, what: str, a: pa.DataType, b: pa.DataType) -> None:
    if a != b:  # libcudf: data_type_error, mapped to TypeError
        raise TypeError(f"fake pylibcudf: {fn}: {what} types differ ({a} vs {b}); libcudf does not convert")


def shift(input: Column, offset: int, fill_value: Scalar) -> Column:
    _same_type("shift", "fill_value", fill_value.s.type, input.arr.type)
    vals = input.arr.to_pylist()
    f = fill_value.s.as_py()
    offset = int(offset)
    out = ([f] * offset + vals[: len(vals) - offset]) if offset >= 0 else (vals[-offset:] + [f] * (-offset))
    return Column(pa.array(out[: len(vals)], type=input.arr.type))


def copy_if_else(lhs: Any, rhs: Any, boolean_mask: Column) -> Column:
    """Where the mask is true (and valid), lhs; else rhs. lhs and rhs must have the same type."""
    if not pa.types.is_boolean(boolean_mask.arr.type):
        raise TypeError("fake pylibcudf: copy_if_else: boolean_mask must be BOOL8")
    n = boolean_mask.size()
    for side in (lhs, rhs):
        if isinstance(side, Column) and side.size() != n:
            raise ValueError("fake pylibcudf: copy_if_else: sizes differ")
    a, b = _arr(lhs, n), _arr(rhs, n)
    _same_type("copy_if_else", "lhs and rhs", a.type, b.type)
    return Column(pc.if_else(pc.fill_null(boolean_mask.arr, False), a, b))


def scatter(source: Any, scatter_map: Column, target_table: Table) -> Table:
    """Rows of ``source`` (a Table, or one Scalar per column) written at ``scatter_map`` (negative: from the end;
    with duplicate entries, any one of the writes wins)."""
    if scatter_map.null_count() or not pa.types.is_integer(scatter_map.arr.type):
        raise _unmodelled("scatter", "scatter_map", scatter_map, "an integer map without nulls")
    idx = scatter_map.arr.to_pylist()
    n = target_table.num_rows()
    if any(not -n <= i < n for i in idx):
        raise IndexError("fake pylibcudf: scatter: map entry outside the target (undefined in libcudf)")
    order = list(range(len(idx)))
    _rng.shuffle(order)  # with duplicate targets libcudf promises no winner: here a random one wins
    srcs = source if isinstance(source, list) else source.columns()
    if len(srcs) != target_table.num_columns():
        raise ValueError("fake pylibcudf: scatter: source and target differ in columns")
    out = []
    for s_, col in zip(srcs, target_table.columns()):
        _same_type("scatter", "source and target", s_.s.type if isinstance(s_, Scalar) else s_.arr.type, col.arr.type)
        vals = col.arr.to_pylist()
        src = [s_.s.as_py()] * len(idx) if isinstance(s_, Scalar) else s_.arr.to_pylist()
        if len(src) != len(idx):
            raise ValueError("fake pylibcudf: scatter: source rows and map differ in size")
        for k in order:
            vals[idx[k]] = src[k]
        out.append(Column(pa.array(vals, type=col.arr.type)))
    return Table(out, n)


copying = types.SimpleNamespace(gather=gather, slice=_slice, shift=shift, copy_if_else=copy_if_else, scatter=scatter,
                                OutOfBoundsPolicy=OutOfBoundsPolicy)


# ------------------------------------------------------------------------------------ rolling

def rolling_window(source: Column, preceding_window: Any, following_window: Any, min_periods: int,
                   agg: Aggregation) -> Column:
    """libcudf's fixed-width rolling sum: row i adds rows [i - preceding + 1, i + following] one by one,
    left to right, from 0 (one thread per row), so its bits follow from the data alone. Modelled: a
    sum over numbers without missing values; both windows ints or both INT32 columns (pylibcudf's
    fused window type); int columns sum to INT64, FLOAT64 stays FLOAT64."""
    if not isinstance(agg, Aggregation) or agg.kind != "sum":
        raise _unmodelled("rolling_window", "agg", getattr(agg, "kind", agg), "sum modelled")
    if isinstance(preceding_window, Column) != isinstance(following_window, Column):
        raise TypeError("fake pylibcudf: rolling_window: preceding_window and following_window must both be "
                        "Columns or both ints")
    t = source.arr.type
    if not (pa.types.is_integer(t) or pa.types.is_float64(t)):
        raise _unmodelled("rolling_window", "source", t, "integer or FLOAT64 columns modelled")
    if source.null_count():
        raise _unmodelled("rolling_window", "source", "nulls", "modelled without missing values")
    if int(min_periods) < 1:
        raise _unmodelled("rolling_window", "min_periods", min_periods, "at least 1 modelled")
    n = source.size()

    def window(w: Any, name: str) -> np.ndarray:
        if isinstance(w, Column):
            if w.arr.type != pa.int32() or w.null_count() or w.size() != n:
                raise _unmodelled("rolling_window", name, w.arr.type, "INT32 columns of the source's size modelled")
            return w.arr.to_numpy(zero_copy_only=False).astype(np.int64)
        return np.full(n, int(w), dtype=np.int64)

    pre, fol = window(preceding_window, "preceding_window"), window(following_window, "following_window")
    rows_ = np.arange(n)
    if isinstance(preceding_window, Column) and ((pre > rows_ + 1).any() or (fol > n - 1 - rows_).any()):
        # libcudf takes column windows as given: one reaching past the column is undefined (it
        # aborted the process on the H100), so the engine only builds in-bounds ones
        raise _unmodelled("rolling_window", "preceding_window", "out of bounds", "column windows must stay in the column")
    out_t = pa.float64() if pa.types.is_floating(t) else pa.int64()
    x = source.arr.to_numpy(zero_copy_only=False).astype(out_t.to_pandas_dtype())
    rows = np.arange(n)
    start, stop = np.maximum(rows - pre + 1, 0), np.minimum(rows + fol + 1, n)
    acc = np.zeros(n, dtype=x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):  # (inf - inf is NaN, as on the device)
        for k in range(int((stop - start).max(initial=0))):  # k-th value of every window, in order
            j = start + k
            inside = j < stop
            acc = np.where(inside, acc + x[np.minimum(j, n - 1)], acc)
    valid = (stop - start) >= int(min_periods)
    return Column(pa.array(acc, type=out_t, mask=~valid))


rolling = types.SimpleNamespace(rolling_window=rolling_window)


# -------------------------------------------------------------------------------------- hashing

_P1, _P2, _P3, _P4, _P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x85EBCA77C2B2AE63,
                           0x27D4EB2F165667C5)
_M64 = (1 << 64) - 1


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def _xxh_round(acc: int, lane: int) -> int:
    return (_rotl((acc + lane * _P2) & _M64, 31) * _P1) & _M64


def _xxh64(data: bytes, seed: int) -> int:
    """XXH64 of ``data`` (the reference algorithm, which cuco's ``xxhash_64`` implements)."""
    n, p = len(data), 0
    u64 = lambda i: int.from_bytes(data[i:i + 8], "little")  # noqa: E731
    if n >= 32:
        v = [(seed + _P1 + _P2) & _M64, (seed + _P2) & _M64, seed, (seed - _P1) & _M64]
        while p + 32 <= n:
            v = [_xxh_round(v[k], u64(p + 8 * k)) for k in range(4)]
            p += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M64
        for x in v:
            h = ((h ^ _xxh_round(0, x)) * _P1 + _P4) & _M64
    else:
        h = (seed + _P5) & _M64
    h = (h + n) & _M64
    while p + 8 <= n:
        h = (_rotl(h ^ _xxh_round(0, u64(p)), 27) * _P1 + _P4) & _M64
        p += 8
    if p + 4 <= n:
        h = (_rotl(h ^ ((int.from_bytes(data[p:p + 4], "little") * _P1) & _M64), 23) * _P2 + _P3) & _M64
        p += 4
    while p < n:
        h = (_rotl(h ^ ((data[p] * _P5) & _M64), 11) * _P1) & _M64
        p += 1
    h ^= h >> 33
    h = (h * _P2) & _M64
    h ^= h >> 29
    h = (h * _P3) & _M64
    return h ^ (h >> 32)


def _element_bytes(a: pa.Array) -> list[bytes | None]:
    """Each value's bytes as libcudf hashes them: fixed-width values as stored (little-endian; a
    float's NaN as the canonical quiet NaN, -0.0 kept: ``normalize_nans`` only), bools as one
    byte, strings as their UTF-8 bytes, decimals as their 128-bit unscaled integer."""
    t = a.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return [None if v is None else v.encode() for v in a.to_pylist()]
    if pa.types.is_boolean(t):
        return [None if v is None else bytes([int(v)]) for v in a.to_pylist()]
    if pa.types.is_decimal(t) and t.bit_width == 128:
        return [None if v is None else v.to_bytes(16, "little", signed=True) for v in _unscaled(a)]
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date32(t):
        a = a.view(pa.int32() if pa.types.is_date32(t) else pa.int64())
        t = a.type
    if not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        raise _unmodelled("hashing.xxhash_64", "input", t)
    dtype = np.dtype(t.to_pandas_dtype()).newbyteorder("<")
    valid = a.is_valid().to_numpy(zero_copy_only=False)
    vals = a.fill_null(0).to_numpy(zero_copy_only=False).astype(dtype)
    if pa.types.is_floating(t):
        vals = np.where(np.isnan(vals), np.array(np.nan, dtype=dtype), vals)  # (numpy's NaN: the quiet one)
    return [vals[i].tobytes() if valid[i] else None for i in range(len(vals))]


def xxhash_64(input: Table, seed: int = 0) -> Column:
    """libcudf's row hash (``cudf::hashing::xxhash_64``): each row's columns hashed in turn, each
    with the previous column's hash as its seed; a null element's hash is 2**64 - 1 (whatever came
    before), checked only where the table has nulls. UINT64, no nulls. One column's bits are
    libcudf 26.10's (``tests/test_fake_fidelity.py``); a row of several columns hashes to other bits
    than the device's (seen on the H100): the engine relies only on equal rows hashing equal."""
    if not isinstance(input, Table) or not input.num_columns():
        raise _unmodelled("hashing.xxhash_64", "input", input, "a Table of one or more columns")
    n = input.num_rows()
    nullable = any(c.null_count() for c in input.columns())
    out = [int(seed)] * n
    for c in input.columns():
        for i, b in enumerate(_element_bytes(c.arr)):
            out[i] = _M64 if b is None and nullable else _xxh64(b if b is not None else bytes(0), out[i])
    return Column(pa.array(out, type=pa.uint64()))


hashing = types.SimpleNamespace(xxhash_64=xxhash_64)


# ------------------------------------------------------------------------------------- others

def sequence(size: int, init: Scalar, step: Scalar) -> Column:
    t = init.s.type
    _same_type("sequence", "init and step", t, step.s.type)
    if not (pa.types.is_integer(t) or pa.types.is_floating(t)) or not init.is_valid() or not step.is_valid():
        raise _unmodelled("sequence", "init", init.s, "valid numeric scalars")
    return Column(pa.array(np.arange(size, dtype=t.to_pandas_dtype()) * step.to_py() + init.to_py(), type=t))


def _concatenate(objects: Sequence[Any]) -> Column:
    if not objects or not all(isinstance(c, Column) for c in objects):
        raise _unmodelled("concatenate", "objects", objects, "a non-empty list of Columns")
    for c in objects[1:]:
        _same_type("concatenate", "column", c.arr.type, objects[0].arr.type)
    return Column(pa.concat_arrays([c.arr for c in objects]))


def repeat(input_table: Table, count: Any) -> Table:
    """Each row ``count`` times, in row order: an int, or a Column of one count per row (integral,
    without nulls; libcudf leaves negative counts undefined, so the fake refuses them)."""
    if not isinstance(input_table, Table):
        raise _unmodelled("repeat", "input_table", type(input_table).__name__, "a Table")
    n = input_table.num_rows()
    if isinstance(count, Column):
        if not pa.types.is_integer(count.arr.type):
            raise TypeError("fake pylibcudf: repeat: count column must be of an integral type")
        if count.null_count():
            raise _unmodelled("repeat", "count", count, "a count column without nulls")
        if count.size() != n:
            raise ValueError("fake pylibcudf: repeat: in and count must have equal size")
        counts = np.asarray(count.arr.to_numpy(zero_copy_only=False), dtype=np.int64)
        if (counts < 0).any():
            raise _unmodelled("repeat", "count", "negative counts", "undefined in libcudf")
    elif isinstance(count, (int, np.integer)) and not isinstance(count, bool):
        if count < 0 and n:  # (the real one returns an empty table for no rows: seen on the H100)
            raise ValueError("fake pylibcudf: repeat: count cannot be negative")
        count = max(int(count), 0)
        counts = np.full(n, int(count), dtype=np.int64)
    else:
        raise _unmodelled("repeat", "count", count, "an int or an integral Column")
    if counts.sum() > 2**31 - 1:
        raise OverflowError("fake pylibcudf: repeat: the result exceeds the column size limit")
    take = pa.array(np.repeat(np.arange(n, dtype=np.int64), counts), type=pa.int64())
    return Table([Column(c.arr.take(take)) for c in input_table.columns()], len(take))


filling = types.SimpleNamespace(sequence=sequence, repeat=repeat)
concatenate = types.SimpleNamespace(concatenate=_concatenate)


def replace_nulls(source_column: Column, replacement: Any) -> Column:
    if isinstance(replacement, Column):
        if replacement.size() != source_column.size():
            raise ValueError("fake pylibcudf: replace_nulls: sizes differ")
        r: Any = replacement.arr
        _same_type("replace_nulls", "replacement", r.type, source_column.arr.type)
    elif isinstance(replacement, Scalar):
        _same_type("replace_nulls", "replacement", replacement.s.type, source_column.arr.type)
        r = replacement.s
    else:
        raise _unmodelled("replace_nulls", "replacement", replacement, "a Column or a Scalar")
    return Column(pc.coalesce(source_column.arr, r))


def clamp(source_column: Column, lo: Scalar, hi: Scalar, lo_replace: Any = None, hi_replace: Any = None) -> Column:
    if lo_replace is not None or hi_replace is not None:
        raise _unmodelled("clamp", "lo_replace/hi_replace", (lo_replace, hi_replace))
    a = source_column.arr
    _same_type("clamp", "lo", lo.s.type, a.type)
    _same_type("clamp", "hi", hi.s.type, a.type)
    if pa.types.is_floating(a.type) and pc.any(pc.is_nan(a)).as_py():
        raise _unmodelled("clamp", "source_column", "NaN")
    if lo.is_valid():
        a = pc.max_element_wise(a, lo.s, skip_nulls=False)
    if hi.is_valid():
        a = pc.min_element_wise(a, hi.s, skip_nulls=False)
    return Column(a)


replace = types.SimpleNamespace(replace_nulls=replace_nulls, clamp=clamp)
RoundingMethod = _enum("RoundingMethod", ["HALF_UP", "HALF_EVEN"])


def _round(source: Column, decimal_places: int = 0, round_method: Any = None) -> Column:
    """HALF_UP (libcudf's default) rounds halves away from zero; HALF_EVEN to the even neighbour."""
    method = RoundingMethod.HALF_UP if round_method is None else _enum_arg(RoundingMethod, "round", "round_method",
                                                                             round_method)
    t = source.arr.type
    if not pa.types.is_floating(t):
        raise _unmodelled("round", "source", t, "floating-point columns")
    mode = "half_to_even" if method == RoundingMethod.HALF_EVEN else "half_towards_infinity"
    return Column(pc.round(source.arr, int(decimal_places), round_mode=mode))


round_mod = types.SimpleNamespace(RoundingMethod=RoundingMethod, round=_round)


def _contains(haystack: Column, needles: Column) -> Column:
    """isin: a null needle gives null (libcudf copies the needles' null mask)."""
    _same_type("search.contains", "haystack and needles", haystack.arr.type, needles.arr.type)
    if pa.types.is_floating(haystack.arr.type) and (pc.any(pc.is_nan(haystack.arr)).as_py()
                                                     or pc.any(pc.is_nan(needles.arr)).as_py()):
        raise _unmodelled("search.contains", "haystack/needles", "NaN")
    hit = pc.is_in(needles.arr, value_set=pc.drop_null(haystack.arr))
    return Column(pc.if_else(pc.is_null(needles.arr), pa.scalar(None, pa.bool_()), hit))


search = types.SimpleNamespace(contains=_contains)


def column_nans_to_nulls(input: Column) -> Column:
    if not pa.types.is_floating(input.arr.type):  # libcudf: "Input column must be floating point"
        raise TypeError(f"fake pylibcudf: column_nans_to_nulls of {input.arr.type}: needs floating point")
    return Column(pc.if_else(pc.fill_null(pc.is_nan(input.arr), False), pa.scalar(None, input.arr.type), input.arr))


def nans_to_nulls(input: Column) -> tuple[_HostSpan, int]:
    """(bitmask, null count) with NaN and missing values invalid; the values are left as they are."""
    if not pa.types.is_floating(input.arr.type):
        raise TypeError(f"fake pylibcudf: nans_to_nulls of {input.arr.type}: needs floating point")
    valid = pc.fill_null(pc.invert(pc.is_nan(input.arr)), False).to_numpy(zero_copy_only=False)
    return _bitmask(valid), int((~valid).sum())


transform = types.SimpleNamespace(column_nans_to_nulls=column_nans_to_nulls, nans_to_nulls=nans_to_nulls)


DuplicateKeepOption = _enum("DuplicateKeepOption", ["KEEP_ANY", "KEEP_FIRST", "KEEP_LAST", "KEEP_NONE"])


def _retain(fn: str, source_table: Table, mask: Column) -> Table:
    if not pa.types.is_boolean(mask.arr.type) or mask.size() != source_table.num_rows():
        raise TypeError(f"fake pylibcudf: {fn}: the mask must be BOOL8 of the table's size")
    m = pc.fill_null(mask.arr, False)
    cols = [Column(c.arr.filter(m)) for c in source_table.columns()]
    return Table(cols, pc.sum(m.cast(pa.int64())).as_py() or 0)


def apply_boolean_mask(source_table: Table, boolean_mask: Column) -> Table:
    warnings.warn("apply_boolean_mask is deprecated; use apply_retention_mask instead", FutureWarning,
                  stacklevel=2)  # as pylibcudf 26.10 (seen on the device)
    """Rows whose mask is true and valid, in order (deprecated in libcudf 26.10)."""
    return _retain("apply_boolean_mask", source_table, boolean_mask)


def apply_retention_mask(source_table: Table, retention_mask: Column) -> Table:
    """Rows whose mask is true and valid, in order."""
    return _retain("apply_retention_mask", source_table, retention_mask)


def drop_nulls(source_table: Table, keys: list[int], keep_threshold: int) -> Table:
    cols = source_table.columns()
    valid = np.zeros(source_table.num_rows(), dtype=np.int64)
    for k in keys:
        valid += np.asarray(cols[k].arr.is_valid().to_numpy(zero_copy_only=False), dtype=np.int64)
    return _retain("drop_nulls", source_table, Column(pa.array(valid >= keep_threshold, type=pa.bool_())))


def _equalities(fn: str, nulls_equal: Any, nans_equal: Any) -> None:
    _require(fn, "nulls_equal", _enum_arg(NullEquality, fn, "nulls_equal", nulls_equal), [NullEquality.EQUAL])
    _require(fn, "nans_equal", _enum_arg(NanEquality, fn, "nans_equal", nans_equal), [NanEquality.ALL_EQUAL])


def _key_values(arr: pa.Array) -> pa.Array:
    """A key column's values as Python can hold them: times by their ticks (a timestamp past
    datetime's range - year 36812 in [s] - has no Python object, libcudf compares the integers)."""
    if pa.types.is_temporal(arr.type):
        return arr.cast(pa.int32() if arr.type.bit_width == 32 else pa.int64())
    return arr


def _row_keys(cols: Sequence[Column], n: int) -> list[tuple]:
    """Rows as hashable keys: nulls equal nulls, NaN equals NaN (EQUAL / ALL_EQUAL)."""
    lists = [[_NAN if _is_nan_value(v) else v for v in _key_values(c.arr).to_pylist()] for c in cols]
    return list(zip(*lists)) if lists else [()] * n


def _distinct_mask(rows: list[tuple], keep: str) -> list[bool]:
    counts: dict[tuple, int] = {}
    for r in rows:
        counts[r] = counts.get(r, 0) + 1
    seen: set[tuple] = set()
    last = {r: i for i, r in enumerate(rows)}
    mask = []
    for i, r in enumerate(rows):
        if keep in ("KEEP_FIRST", "KEEP_ANY"):  # KEEP_ANY: any row of the set is valid; the first is one
            mask.append(r not in seen)
            seen.add(r)
        elif keep == "KEEP_LAST":
            mask.append(last[r] == i)
        else:
            mask.append(counts[r] == 1)
    return mask


def stable_distinct(input: Table, keys: list[int], keep: Any, nulls_equal: Any, nans_equal: Any) -> Table:
    keep_name = _enum_arg(DuplicateKeepOption, "stable_distinct", "keep", keep).name
    _equalities("stable_distinct", nulls_equal, nans_equal)
    rows = _row_keys([input.columns()[k] for k in keys], input.num_rows())
    return _retain("stable_distinct", input, Column(pa.array(_distinct_mask(rows, keep_name), type=pa.bool_())))


def distinct_indices(input: Table, keep: Any, nulls_equal: Any, nans_equal: Any) -> Column:
    """The kept rows' indices, in no particular order (shuffled here)."""
    keep_name = _enum_arg(DuplicateKeepOption, "distinct_indices", "keep", keep).name
    _equalities("distinct_indices", nulls_equal, nans_equal)
    mask = _distinct_mask(_row_keys(input.columns(), input.num_rows()), keep_name)
    idx = [i for i, m in enumerate(mask) if m]
    _rng.shuffle(idx)
    return Column(pa.array(idx, type=pa.int32()))


stream_compaction = types.SimpleNamespace(distinct_indices=distinct_indices,
    apply_boolean_mask=apply_boolean_mask, apply_retention_mask=apply_retention_mask, drop_nulls=drop_nulls,
    stable_distinct=stable_distinct, DuplicateKeepOption=DuplicateKeepOption)


# ---------------------------------------------------------------------------------------- joins

NO_MATCH = -(2**31)


def _join(fn: str, lt: Table, rt: Table, nulls_equal: Any, how: str) -> tuple[Column, Column]:
    """Gather maps in no particular order (shuffled here); unmatched rows hold INT32_MIN."""
    eq = _enum_arg(NullEquality, fn, "nulls_equal", nulls_equal)
    if lt.num_columns() != rt.num_columns() or not lt.num_columns():
        raise ValueError(f"fake pylibcudf: {fn}: key tables differ in columns")
    for a, b in zip(lt.columns(), rt.columns()):
        _same_type(fn, "key", a.arr.type, b.arr.type)
        if pa.types.is_floating(a.arr.type) and (pc.any(pc.is_nan(a.arr)).as_py() or pc.any(pc.is_nan(b.arr)).as_py()):
            raise _unmodelled(fn, "keys", "NaN", "NaN join keys (make NaN null first)")
    lrows = _row_keys(lt.columns(), lt.num_rows())
    rrows = _row_keys(rt.columns(), rt.num_rows())
    index: dict[tuple, list[int]] = {}
    for j, r in enumerate(rrows):
        if eq == NullEquality.UNEQUAL and None in r:
            continue
        index.setdefault(r, []).append(j)
    pairs = []
    matched_r: set[int] = set()
    for i, r in enumerate(lrows):
        js = [] if eq == NullEquality.UNEQUAL and None in r else index.get(r, [])
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


def inner_join(left_keys: Table, right_keys: Table, nulls_equal: Any) -> tuple[Column, Column]:
    return _join("inner_join", left_keys, right_keys, nulls_equal, "inner")


def left_join(left_keys: Table, right_keys: Table, nulls_equal: Any) -> tuple[Column, Column]:
    return _join("left_join", left_keys, right_keys, nulls_equal, "left")


def full_join(left_keys: Table, right_keys: Table, nulls_equal: Any) -> tuple[Column, Column]:
    return _join("full_join", left_keys, right_keys, nulls_equal, "full")


def cross_join(left: Table, right: Table) -> Table:
    n, m = left.num_rows(), right.num_rows()
    li = pa.array(np.repeat(np.arange(n), m), type=pa.int64())
    ri = pa.array(np.tile(np.arange(m), n), type=pa.int64())
    return Table([Column(c.arr.take(li)) for c in left.columns()] + [Column(c.arr.take(ri)) for c in right.columns()],
                 n * m)


join = types.SimpleNamespace(inner_join=inner_join, left_join=left_join, full_join=full_join, cross_join=cross_join)


# -------------------------------------------------------------------------------------- strings

SideType = _enum("SideType", ["LEFT", "RIGHT", "BOTH"])
RegexFlags = _enum("RegexFlags", ["DEFAULT", "IGNORECASE"])


class RegexProgram:
    def __init__(self, pattern: str, flags: Any) -> None:
        flags = _enum_arg(RegexFlags, "RegexProgram.create", "flags", flags)
        self.pattern = pattern if flags == RegexFlags.DEFAULT else "(?i)" + pattern

    @staticmethod
    def create(pattern: str, flags: Any) -> "RegexProgram":
        return RegexProgram(pattern, flags)


def _strings(fn: str, input: Column) -> list[Any]:
    if not pa.types.is_large_string(input.arr.type):
        raise TypeError(f"fake pylibcudf: {fn} expects a STRING column, got {input.arr.type}")
    return input.arr.to_pylist()


def _str_scalar(fn: str, arg: str, value: Any) -> str:
    if not isinstance(value, Scalar) or not pa.types.is_large_string(value.s.type) or not value.is_valid():
        raise _unmodelled(fn, arg, value, "a valid STRING Scalar")
    return value.s.as_py()


def _strip(input: Column, side: Any = None, to_strip: Scalar | None = None) -> Column:
    """``to_strip`` None or empty strips whitespace."""
    name = "BOTH" if side is None else _enum_arg(SideType, "strip", "side", side).name
    chars = _str_scalar("strip", "to_strip", to_strip) if to_strip is not None else None
    vals = _strings("strip", input)
    fn = {"BOTH": str.strip, "LEFT": str.lstrip, "RIGHT": str.rstrip}[name]
    return Column(pa.array([None if v is None else fn(v, chars or None) for v in vals], type=pa.large_string()))


def _slice_strings(input: Column, start: Any = None, stop: Any = None, step: Any = None) -> Column:
    bounds = []
    for arg, x in (("start", start), ("stop", stop)):
        if not isinstance(x, Scalar):  # a Python None stop after a start gives '' on the device: not modelled
            raise _unmodelled("slice_strings", arg, x, "a Scalar (valid or not)")
        bounds.append(x.s.as_py() if x is not None and x.is_valid() else None)
    if step is not None and not (isinstance(step, Scalar) and step.is_valid() and step.to_py() == 1):
        raise _unmodelled("slice_strings", "step", step, "None or 1")
    a, b = bounds
    return Column(pa.array([None if v is None else v[a:b] for v in _strings("slice_strings", input)],
                           type=pa.large_string()))


def _replace(input: Column, target: Scalar, repl: Scalar, maxrepl: int = -1) -> Column:
    t, r = _str_scalar("replace", "target", target), _str_scalar("replace", "repl", repl)
    if not t:
        raise _unmodelled("replace", "target", target.s, "an empty target")
    return Column(pa.array([None if v is None else v.replace(t, r, int(maxrepl)) for v in _strings("replace", input)],
                           type=pa.large_string()))


def _str_concat(strings_columns: Table, separator: Any, narep: Any = None, col_narep: Any = None,
                separate_nulls: Any = None) -> Column:
    """A row with any null is null (``narep`` None or a null scalar, libcudf's default)."""
    sep = _str_scalar("strings.combine.concatenate", "separator", separator)
    if narep is not None and (not isinstance(narep, Scalar) or narep.is_valid()):
        raise _unmodelled("strings.combine.concatenate", "narep", narep, "None or a null Scalar")
    if col_narep is not None or separate_nulls is not None:
        raise _unmodelled("strings.combine.concatenate", "col_narep/separate_nulls", (col_narep, separate_nulls))
    cols = [_strings("strings.combine.concatenate", c) for c in strings_columns.columns()]
    out = [None if any(c[i] is None for c in cols) else sep.join(c[i] for c in cols)
           for i in range(strings_columns.num_rows())]
    return Column(pa.array(out, type=pa.large_string()))


def _count_characters(input: Column) -> Column:
    _strings("count_characters", input)
    return Column(pc.utf8_length(input.arr).cast(pa.int32()))


def _case(fn: str, kernel: Any) -> Any:
    def run(input: Column) -> Column:
        _strings(fn, input)
        return Column(kernel(input.arr))
    run.__name__ = fn
    return run


def _contains_re(input: Column, prog: RegexProgram) -> Column:
    _strings("contains_re", input)
    if not isinstance(prog, RegexProgram):
        raise TypeError("fake pylibcudf: contains_re expects a RegexProgram")
    return Column(pc.match_substring_regex(input.arr, prog.pattern))


def _find(fn: str, kernel: Any) -> Any:
    def run(input: Column, target: Any) -> Column:
        _strings(fn, input)
        return Column(kernel(input.arr, _str_scalar(fn, "target", target)))
    run.__name__ = fn
    return run


def _from_integers(integers: Column) -> Column:
    if not pa.types.is_integer(integers.arr.type):
        raise TypeError(f"fake pylibcudf: from_integers of {integers.arr.type}")
    return Column(integers.arr.cast(pa.large_string()))


strings = types.SimpleNamespace(
    attributes=types.SimpleNamespace(count_characters=_count_characters),
    case=types.SimpleNamespace(to_lower=_case("to_lower", pc.utf8_lower), to_upper=_case("to_upper", pc.utf8_upper)),
    side_type=types.SimpleNamespace(SideType=SideType),
    strip=types.SimpleNamespace(strip=_strip),
    slice=types.SimpleNamespace(slice_strings=_slice_strings),
    replace=types.SimpleNamespace(replace=_replace),
    regex_flags=types.SimpleNamespace(RegexFlags=RegexFlags),
    regex_program=types.SimpleNamespace(RegexProgram=RegexProgram),
    contains=types.SimpleNamespace(contains_re=_contains_re),
    find=types.SimpleNamespace(
        contains=_find("contains", pc.match_substring), starts_with=_find("starts_with", pc.starts_with),
        ends_with=_find("ends_with", pc.ends_with)),
    combine=types.SimpleNamespace(concatenate=_str_concat),
    convert=types.SimpleNamespace(convert_integers=types.SimpleNamespace(from_integers=_from_integers)),
)


# ------------------------------------------------------------------------------------ datetimes

DatetimeComponent = _enum("DatetimeComponent", ["YEAR", "MONTH", "DAY", "WEEKDAY", "HOUR", "MINUTE", "SECOND",
                                                "MILLISECOND", "MICROSECOND", "NANOSECOND"])


def _chrono(fn: str, input: Column) -> pa.Array:
    t = input.arr.type
    if not (pa.types.is_timestamp(t) or pa.types.is_date32(t)) or getattr(t, "tz", None):
        raise TypeError(f"fake pylibcudf: {fn} expects a timestamp column, got {t}")
    return input.arr


def _component(input: Column, component: Any) -> Column:
    """libcudf's fields as INT16; WEEKDAY is Monday=1 .. Sunday=7."""
    name = _enum_arg(DatetimeComponent, "extract_datetime_component", "component", component).name
    a = _chrono("extract_datetime_component", input)
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
    extract_quarter=lambda input: Column(pc.quarter(_chrono("extract_quarter", input)).cast(pa.int16())),
    day_of_year=lambda input: Column(pc.day_of_year(_chrono("day_of_year", input)).cast(pa.int16())))


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
        if right is None:
            raise _unmodelled("Operation", "right", None, "unary AST operators")
        self.op, self.left, self.right = _enum_arg(ASTOperator, "Operation", "op", op).name, left, right


expressions = types.SimpleNamespace(ASTOperator=ASTOperator, Literal=Literal, ColumnNameReference=ColumnNameReference,
                                    Operation=Operation)


class _ReaderOptions:
    def __init__(self, paths: list[str]) -> None:
        self.paths, self.cols, self.filter, self.nrows, self.row_groups = paths, None, None, None, None

    def column_names(self, cols: list[str]) -> "_ReaderOptions":
        self.cols = cols
        return self

    def columns(self, cols: list[str]) -> "_ReaderOptions":
        warnings.warn("columns is deprecated and will be removed in a future version of cudf. Use column_names "
                      "instead.", FutureWarning, stacklevel=2)  # as pylibcudf 26.10 (seen on the device)
        return self.column_names(cols)

    def use_pandas_metadata(self, v: bool) -> "_ReaderOptions":
        return self

    def build(self) -> "_ReaderOptions":
        return self

    def set_filter(self, e: Any) -> None:
        self.filter = e

    def set_num_rows(self, n: int) -> None:
        self.nrows = n

    def set_row_groups(self, groups: list[list[int]]) -> None:
        if len(groups) != len(self.paths):
            raise ValueError("fake pylibcudf: set_row_groups: one list of row groups per source")
        self.row_groups = groups[0]


class _SourceInfo:
    def __init__(self, paths: list[str]) -> None:
        self.paths = paths


class _TableWithMetadata:
    def __init__(self, t: pa.Table) -> None:
        for i, f in enumerate(t.schema):  # libcudf reads a zoned timestamp as its UTC instants: no zone
            if pa.types.is_timestamp(f.type) and f.type.tz is not None:
                t = t.set_column(i, f.name, t.column(i).cast(pa.timestamp(f.type.unit)))
            elif pa.types.is_decimal(f.type):  # the narrowest fixed-point type of the precision
                p = f.type.precision
                narrow = pa.decimal32(9, f.type.scale) if p <= 9 else pa.decimal64(18, f.type.scale) if p <= 18 \
                    else pa.decimal128(38, f.type.scale)
                t = t.set_column(i, f.name, t.column(i).cast(narrow))
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
        return [(e.left.name, sym[e.op], e.right.value.s.as_py())]
    return None


def read_parquet(opts: _ReaderOptions) -> _TableWithMetadata:
    import pyarrow.parquet as pq

    if len(opts.paths) != 1:
        raise _unmodelled("read_parquet", "sources", opts.paths, "one file")
    given = [k for k in ("row_groups", "nrows", "filter") if getattr(opts, k) is not None]
    if len(given) > 1:
        raise _unmodelled("read_parquet", "options", given, "at most one of row groups, num rows, filter")
    path = opts.paths[0]
    if opts.row_groups is not None:
        with pq.ParquetFile(path) as f:
            return _TableWithMetadata(f.read_row_groups(opts.row_groups, columns=opts.cols))
    if opts.nrows is not None:  # only the row groups that hold the first rows, as libcudf reads
        with pq.ParquetFile(path) as f:
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
        if opts.filter is not None and filters is None:
            raise _unmodelled("read_parquet", "filter", opts.filter, "ANDs of column-vs-literal comparisons")
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
        if not isinstance(dtypes, dict):
            raise _unmodelled("CsvReaderOptions.set_dtypes", "types", type(dtypes).__name__, "a dict by column name")
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
        elif opts.true_values and set(probe.column(name).drop_null().to_pylist()) - {""} <= \
                set(opts.true_values) | set(opts.false_values):
            types_[name] = pa.bool_()  # every value one of the true/false spellings: libcudf reads bools
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

SUBMODULES = ("types", "binaryop", "unary", "aggregation", "groupby", "reduce", "sorting", "copying", "filling",
              "concatenate", "replace", "round", "search", "transform", "stream_compaction", "join", "strings",
              "datetime", "expressions", "io", "prefetch", "rolling", "hashing")


def module() -> types.ModuleType:
    """A fresh fake ``pylibcudf`` module, not installed (so it can sit next to the real one)."""
    m = types.ModuleType("pylibcudf", "gframe's host stand-in for pylibcudf (gframe.testing.fake_pylibcudf)")
    m.__dict__.update(
        Column=Column, Table=Table, Scalar=Scalar, DataType=DataType, TypeId=TypeId, types=types_mod,
        binaryop=binaryop, unary=unary, aggregation=aggregation, groupby=groupby, reduce=reduce_mod,
        sorting=sorting, copying=copying, filling=filling, concatenate=concatenate, replace=replace,
        round=round_mod, search=search, transform=transform, stream_compaction=stream_compaction, join=join,
        strings=strings, datetime=datetime, expressions=expressions, io=io, rolling=rolling, hashing=hashing,
        prefetch=types.SimpleNamespace(enable=lambda: None), __host_stand_in__=True)
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
        ManagedMemoryResource=_Resource, CudaMemoryResource=_Resource, CudaAsyncMemoryResource=_Resource,
        PrefetchResourceAdaptor=_Resource,
        LimitingResourceAdaptor=_Limiting, set_current_device_resource=_set_resource,
        get_current_device_resource=lambda: _current[0])
    return m


def install() -> None:
    """Put the fake ``pylibcudf`` (and its submodules) and ``rmm`` in ``sys.modules``.

    Call it before the first GPU use in the process: the GPU engine imports pylibcudf lazily and
    its ``probe()`` takes a module with ``__host_stand_in__`` as usable without a CUDA device. It
    refuses to replace a real pylibcudf already imported (tests and development only)."""
    current = sys.modules.get("pylibcudf")
    if current is not None and not getattr(current, "__host_stand_in__", False):
        raise RuntimeError("fake pylibcudf: the real pylibcudf is already imported in this process")
    m = module()
    sys.modules["pylibcudf"] = m
    for name in SUBMODULES:
        sys.modules[f"pylibcudf.{name}"] = getattr(m, name)
    sys.modules["rmm"] = _rmm()
