"""Tracing: run a UDF once on symbolic stand-ins and keep what it built as a native plan.

``s.map(lambda v: v * 2 + 1)`` calls the lambda once with a ``Value`` standing for *every* element
of ``s``; ``v * 2 + 1`` on it is the gframe expression ``s * 2 + 1``. Likewise ``DataFrame.apply(f,
axis=1)`` gets a ``Row`` whose fields are columns, and ``GroupBy.apply(f)`` gets a ``Group`` whose
reductions (``x.v1.sum()``, ``x.corr()["v1"]["v2"]``) become one ``Aggregate`` node, with the
arithmetic on reduced values (``** 2``) applied to its output. The result runs natively on either
engine, vectorized, and takes part in optimization like any other plan.

Tracing is only right where a scalar function and its vectorized form agree, so the stand-ins
refuse (``NotCompilable``) everything else: branching on a value (``if``, ``and``, ``not``),
conversions to Python numbers (``float(v)``, ``math.*``), arithmetic on booleans (``True + True``
is 2 in Python, ``True`` in numpy), unknown attributes, functions with ``try`` blocks, inputs
pandas would not call the function on (an input known to be empty). Then the next strategy
(Numba, then pandas) runs the function. Known difference: the function runs once, so side effects
(printing, appending to a list) happen once, and an error pandas would raise for one value
(``1 / 0`` on Python numbers) gives pandas' vectorized answer (``inf``) instead.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa

from gframe.plan import logical as L
from gframe.plan.expr import Agg, Col, Lit
from gframe.udf.base import NotCompilable, known_rows

_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "eq", "ne", "lt", "le", "gt", "ge",
           "and", "or", "xor")
_ARITH = frozenset({"add", "sub", "mul", "truediv", "floordiv", "mod", "pow"})
_LOGIC = frozenset({"and", "or", "xor"})


# ---------------------------------------------------------------------------------- shared


def _kind(dtype: Any) -> str:
    """'bool', 'int', 'float' or 'other' for a gframe Series' pandas dtype."""
    if dtype == np.bool_:
        return "bool"
    if isinstance(dtype, np.dtype) and dtype.kind in "iu":
        return "int"
    if isinstance(dtype, np.dtype) and dtype.kind == "f":
        return "float"
    return "other"


def _refuse(what: str) -> Any:
    raise NotCompilable(what)


class _Symbolic:
    """What every stand-in refuses: anything that needs one concrete value."""

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise NotCompilable("the function branches on a value (if / and / or / not)")

    def __len__(self) -> int:
        raise NotCompilable("len() of a traced value")

    def __iter__(self) -> Any:
        raise NotCompilable("iteration over a traced value")

    def __float__(self) -> float:
        raise NotCompilable("conversion to a Python number (float(), math.*)")

    __int__ = __index__ = __complex__ = __float__  # type: ignore[assignment]

    def __floor__(self) -> Any:
        raise NotCompilable("math.floor / ceil / trunc (Python ints, not floats)")

    __ceil__ = __trunc__ = __floor__

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotCompilable("conversion to a numpy array")


def _check_function(func: Callable[..., Any]) -> None:
    """A ``try`` block may catch what only a scalar raises (``1 / 0``): do not trace those."""
    code = getattr(func, "__code__", None)
    if code is not None and getattr(code, "co_exceptiontable", b""):
        raise NotCompilable("the function has a try / with block")


def _call(func: Callable[..., Any], arg: Any) -> Any:
    """Call ``func`` on a stand-in: any error means 'not traceable' (pandas will raise it for real)."""
    _check_function(func)
    try:
        return func(arg)
    except NotCompilable:
        raise
    except Exception as e:  # the user's function failed on the stand-in: let pandas run it
        raise NotCompilable(f"tracing raised {type(e).__name__}: {e}") from None


def _check_not_empty(plan: L.Plan) -> None:
    if known_rows(plan) == 0:
        raise NotCompilable("empty input (pandas does not call the function)")


# ---------------------------------------------------------------------------------- element-wise


class Value(_Symbolic):
    """One element of a column, standing for all of them: a gframe Series under the hood.

    Only what Python numbers and pandas' vectorized operators agree on is traced: arithmetic and
    comparisons on ints and floats, ``& | ^`` on booleans, ``abs``, ``round``, ``-``, numpy ufuncs.
    """

    __slots__ = ("series", "kind")

    def __init__(self, series: Any) -> None:
        self.series = series
        self.kind = _kind(series.dtype)
        if self.kind == "other":
            raise NotCompilable(f"values of dtype {series.dtype} are not traced")

    def _binary(self, op: str, other: Any, reflected: bool = False) -> Any:
        if isinstance(other, Value):
            okind, rhs = other.kind, other.series
        elif isinstance(other, (bool, np.bool_)):
            okind, rhs = "bool", bool(other)
        elif isinstance(other, (int, np.integer)):
            okind, rhs = "int", int(other)
        elif isinstance(other, (float, np.floating)):
            okind, rhs = "float", float(other)
        else:
            return NotImplemented
        kinds = {self.kind, okind}
        if op in _ARITH and "bool" in kinds:
            raise NotCompilable("arithmetic on booleans (Python ints, numpy booleans)")
        if op in _LOGIC and kinds != {"bool"}:
            raise NotCompilable("bitwise operators on numbers")
        if op == "pow" and (okind if not reflected else self.kind) == "int" and "float" not in kinds:
            exponent = rhs if not reflected else self.series
            if not isinstance(exponent, int) or exponent < 0:
                raise NotCompilable("an integer power with a negative or unknown exponent")
        lhs, rhs = (rhs, self.series) if reflected else (self.series, rhs)
        if not hasattr(lhs, "_plan"):
            # a Python number on the left of a Series: use the Series' reflected operator
            return Value(getattr(rhs, f"__r{_DUNDER[op]}__")(lhs))
        return Value(getattr(lhs, f"__{_DUNDER[op]}__")(rhs))

    def __neg__(self) -> Value:
        if self.kind == "bool":
            raise NotCompilable("negation of a boolean")
        return Value(-self.series)

    def __pos__(self) -> Value:
        return self

    def __abs__(self) -> Value:
        if self.kind == "bool":
            raise NotCompilable("abs() of a boolean")
        return Value(self.series.abs())

    def __invert__(self) -> Any:
        raise NotCompilable("~ (Python inverts the bits of an int, numpy negates a boolean)")

    def __round__(self, ndigits: int | None = None) -> Value:
        if ndigits is None:
            raise NotCompilable("round() without digits (a Python int)")
        if self.kind != "float":
            raise NotCompilable("round() of a non-float")
        return Value(self.series.round(ndigits))

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method != "__call__" or kwargs or ufunc.nout != 1:
            raise NotCompilable(f"numpy {ufunc.__name__}.{method}")
        if any(isinstance(i, Value) and i.kind == "bool" for i in inputs):
            raise NotCompilable(f"numpy {ufunc.__name__} of booleans")
        args = [i.series if isinstance(i, Value) else i for i in inputs]
        try:
            out = ufunc(*args)
        except Exception as e:
            raise NotCompilable(f"numpy {ufunc.__name__}: {e}") from None
        if not hasattr(out, "_plan"):
            raise NotCompilable(f"numpy {ufunc.__name__} is not native")
        return Value(out)


_DUNDER = {"add": "add", "sub": "sub", "mul": "mul", "truediv": "truediv", "floordiv": "floordiv", "mod": "mod",
           "pow": "pow", "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge", "and": "and",
           "or": "or", "xor": "xor"}
_REFLECTED_CMP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


def _install_operators(cls: type) -> None:
    """Python's operator methods on a stand-in class, each calling its ``_binary``."""
    for op in _BINARY:
        def forward(self: Any, other: Any, _op: str = op) -> Any:
            return self._binary(_op, other)

        setattr(cls, f"__{_DUNDER[op]}__", forward)
        if op in _REFLECTED_CMP:
            continue  # Python reflects comparisons itself (5 < v -> v > 5)

        def reflected(self: Any, other: Any, _op: str = op) -> Any:
            return self._binary(_op, other, reflected=True)

        setattr(cls, f"__r{_DUNDER[op]}__", reflected)


_install_operators(Value)


def _series_result(out: Any, name: Hashable) -> Any:
    if not isinstance(out, Value):
        raise NotCompilable(f"the function returned a {type(out).__name__}, not a value computed from its input")
    res = out.series
    return res.rename(name) if res.name != name else res


def map_series(series: Any, func: Callable[..., Any], na_action: Any = None) -> Any:
    """``Series.map(func)``: the traced expression, keeping the Series' index and name.

    ``na_action='ignore'`` keeps missing values missing; the function of a missing value is missing
    anyway for every traced operation except comparisons, so those are masked back.
    """
    _check_not_empty(series._plan)
    value = Value(series)
    out = _series_result(_call(func, value), series.name)
    if na_action == "ignore" and value.kind == "float":
        out = out.where(series.notna())
        if _kind(out.dtype) == "bool":
            raise NotCompilable("na_action='ignore' with a boolean result (pandas gives object)")
    return out


class Row(_Symbolic):
    """``DataFrame.apply(f, axis=1)``'s row: a field is a column, cast to the row's common dtype."""

    __slots__ = ("_df", "_dtype")

    def __init__(self, df: Any) -> None:
        from pandas.core.dtypes.cast import find_common_type

        object.__setattr__(self, "_df", df)
        dtypes = list(df.dtypes)
        common = find_common_type(dtypes) if dtypes else np.dtype(object)
        object.__setattr__(self, "_dtype", common if _kind(common) in ("int", "float") else None)

    def __getitem__(self, key: Any) -> Value:
        if not isinstance(key, Hashable) or isinstance(key, (list, tuple, slice)):
            raise NotCompilable("a row selection other than one label")
        col = self._df[key]
        if not hasattr(col, "_expr"):
            raise NotCompilable("duplicate column labels")
        if self._dtype is not None and col.dtype != self._dtype:
            col = col.astype(self._dtype)  # pandas' row holds every value in the common dtype
        return Value(col)

    def __getattr__(self, name: str) -> Value:
        if name.startswith("_") or hasattr(pd.Series, name):
            raise NotCompilable(f"row.{name} (a Series attribute, not a field)")
        if name not in self._df.columns:
            raise NotCompilable(f"row has no field {name!r}")
        return self[name]

    def __setattr__(self, name: str, value: Any) -> None:
        raise NotCompilable("assignment to a row")

    __setitem__ = __setattr__


def apply_rows(df: Any, func: Callable[..., Any]) -> Any:
    """``DataFrame.apply(func, axis=1)`` of a function returning one value per row."""
    _check_not_empty(df._plan)
    if df.columns.has_duplicates:
        raise NotCompilable("duplicate column labels")
    return _series_result(_call(func, Row(df)), None)


# ---------------------------------------------------------------------------------- group-wise


class _Trace:
    """The reductions a ``GroupBy.apply`` function asked for, each becoming one aggregation."""

    def __init__(self, base: Any) -> None:
        self.base = base  # the grouped frame (gframe DataFrame): traced columns are over its plan
        self.aggs: list[Agg] = []

    def slot(self, agg: Agg) -> int:
        if agg not in self.aggs:
            self.aggs.append(agg)
        return self.aggs.index(agg)


class Reduced(_Symbolic):
    """A per-group value: built from the aggregated frame once every reduction is known.

    ``build`` maps the aggregation slots (gframe Series over the ``Aggregate`` output) to this
    value's Series, so arithmetic on reduced values is arithmetic on those Series.
    """

    __slots__ = ("build", "kind")

    def __init__(self, build: Callable[[list[Any]], Any], kind: str) -> None:
        self.build = build
        self.kind = kind

    def _binary(self, op: str, other: Any, reflected: bool = False) -> Any:
        if isinstance(other, Reduced):
            okind, get = other.kind, other.build
        elif isinstance(other, (bool, np.bool_)):
            okind, get = "bool", (lambda slots, v=bool(other): v)
        elif isinstance(other, (int, np.integer)):
            okind, get = "int", (lambda slots, v=int(other): v)
        elif isinstance(other, (float, np.floating)):
            okind, get = "float", (lambda slots, v=float(other): v)
        else:
            return NotImplemented
        kinds = {self.kind, okind}
        if op in _ARITH and "bool" in kinds:
            raise NotCompilable("arithmetic on booleans")
        if op in _LOGIC and kinds != {"bool"}:
            raise NotCompilable("bitwise operators on numbers")
        if op == "pow" and "float" not in kinds:
            raise NotCompilable("an integer power of a reduced value")
        mine, dunder = self.build, _DUNDER[op]
        kind = "bool" if op in _REFLECTED_CMP or op in _LOGIC else ("float" if "float" in kinds or op == "truediv" else "int")

        def build(slots: list[Any]) -> Any:
            a, b = mine(slots), get(slots)
            if reflected:
                a, b = b, a
            if not hasattr(a, "_plan"):
                return getattr(b, f"__r{dunder}__")(a)
            return getattr(a, f"__{dunder}__")(b)

        return Reduced(build, kind)

    def __neg__(self) -> Reduced:
        if self.kind == "bool":
            raise NotCompilable("negation of a boolean")
        mine = self.build
        return Reduced(lambda slots: -mine(slots), self.kind)

    def __pos__(self) -> Reduced:
        return self

    def __abs__(self) -> Reduced:
        mine = self.build
        return Reduced(lambda slots: mine(slots).abs(), self.kind)

    def __invert__(self) -> Any:
        raise NotCompilable("~ of a reduced value")

    def __round__(self, ndigits: int | None = None) -> Any:
        raise NotCompilable("round() of a reduced value")


_install_operators(Reduced)

# Series reductions inside a group -> the aggregation, and the kind of value it gives
_REDUCTIONS: dict[str, Callable[[str], str]] = {
    "sum": lambda k: "int" if k in ("int", "bool") else k,
    "prod": lambda k: "int" if k in ("int", "bool") else k,
    "mean": lambda k: "float", "median": lambda k: "float", "std": lambda k: "float", "var": lambda k: "float",
    "min": lambda k: k, "max": lambda k: k,
    "count": lambda k: "int", "nunique": lambda k: "int",
}


class GroupColumn(_Symbolic):
    """One column of a group (a gframe Series over the whole grouped frame): arithmetic stays
    row-wise, reductions become aggregations."""

    __slots__ = ("_trace", "series", "kind")

    def __init__(self, trace: _Trace, series: Any) -> None:
        self._trace = trace
        self.series = series
        self.kind = _kind(series.dtype)
        if series._plan is not trace.base._plan:
            raise NotCompilable("a column from outside the group")

    def _reduce(self, fn: str, **params: Any) -> Reduced:
        if self.kind == "other" and fn not in ("count", "nunique"):
            raise NotCompilable(f"{fn}() of a {self.series.dtype} column")
        kind = _REDUCTIONS[fn](self.kind)
        i = self._trace.slot(Agg(fn, tuple(sorted(params.items())), self.series._expr))
        return Reduced(lambda slots: slots[i], kind)

    def sum(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("sum") if skipna and not kw else _refuse("sum() with arguments")

    def prod(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("prod") if skipna and not kw else _refuse("prod() with arguments")

    def mean(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("mean") if skipna and not kw else _refuse("mean() with arguments")

    def median(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("median") if skipna and not kw else _refuse("median() with arguments")

    def min(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("min") if skipna and not kw else _refuse("min() with arguments")

    def max(self, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("max") if skipna and not kw else _refuse("max() with arguments")

    def std(self, ddof: int = 1, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("std", ddof=int(ddof)) if skipna and not kw else _refuse("std() with arguments")

    def var(self, ddof: int = 1, skipna: bool = True, **kw: Any) -> Reduced:
        return self._reduce("var", ddof=int(ddof)) if skipna and not kw else _refuse("var() with arguments")

    def count(self) -> Reduced:
        return self._reduce("count")

    def nunique(self, dropna: bool = True) -> Reduced:
        return self._reduce("nunique", dropna=bool(dropna))

    @property
    def size(self) -> Reduced:
        i = self._trace.slot(Agg("size", (), self.series._expr))
        return Reduced(lambda slots: slots[i], "int")

    def corr(self, other: Any, method: str = "pearson", min_periods: int | None = None) -> Reduced:
        return self._bivariate("corr", other, method == "pearson" and min_periods is None)

    def cov(self, other: Any, min_periods: int | None = None, ddof: int = 1) -> Reduced:
        return self._bivariate("cov", other, min_periods is None, ddof=int(ddof))

    def _bivariate(self, fn: str, other: Any, plain: bool, **params: Any) -> Reduced:
        if not plain or not isinstance(other, GroupColumn):
            raise NotCompilable(f"{fn}() with these arguments")
        if self.kind not in ("int", "float") or other.kind not in ("int", "float"):
            raise NotCompilable(f"{fn}() of non-numeric columns")
        i = self._trace.slot(Agg(fn, tuple(sorted(params.items())), self.series._expr, other.series._expr))
        return Reduced(lambda slots: slots[i], "float")

    def _binary(self, op: str, other: Any, reflected: bool = False) -> Any:
        mine = Value(self.series) if self.kind != "other" else _refuse(f"arithmetic on {self.series.dtype}")
        theirs = Value(other.series) if isinstance(other, GroupColumn) else other
        out = mine._binary(op, theirs, reflected)
        return out if out is NotImplemented else GroupColumn(self._trace, out.series)

    def __neg__(self) -> GroupColumn:
        return GroupColumn(self._trace, (-Value(self.series)).series)

    def __abs__(self) -> GroupColumn:
        return GroupColumn(self._trace, abs(Value(self.series)).series)


_install_operators(GroupColumn)


class Group(_Symbolic):
    """``GroupBy.apply``'s group: the non-key columns (pandas 3 excludes the keys)."""

    __slots__ = ("_trace", "_labels")

    def __init__(self, trace: _Trace, labels: list[Hashable]) -> None:
        object.__setattr__(self, "_trace", trace)
        object.__setattr__(self, "_labels", labels)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, list):
            for k in key:
                if k not in self._labels:
                    raise NotCompilable(f"column {k!r} not in the group")
            return Group(self._trace, list(key))
        if not isinstance(key, Hashable) or key not in self._labels:
            raise NotCompilable(f"column {key!r} not in the group")
        return GroupColumn(self._trace, self._trace.base[key])

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or hasattr(pd.DataFrame, name) or name not in self._labels:
            raise NotCompilable(f"group.{name}")
        return self[name]

    def __setattr__(self, name: str, value: Any) -> None:
        raise NotCompilable("assignment to a group")

    __setitem__ = __setattr__

    def corr(self, method: str = "pearson", min_periods: int = 1, numeric_only: bool = False) -> CorrMatrix:
        if method != "pearson" or min_periods != 1:
            raise NotCompilable("corr() with these arguments")
        return CorrMatrix(self, "corr", {})

    def cov(self, min_periods: int | None = None, ddof: int = 1, numeric_only: bool = False) -> CorrMatrix:
        if min_periods is not None:
            raise NotCompilable("cov() with min_periods")
        return CorrMatrix(self, "cov", {"ddof": int(ddof)})


class CorrMatrix(_Symbolic):
    """``group.corr()`` / ``group.cov()``: indexing it twice names one bivariate aggregation."""

    __slots__ = ("_group", "_fn", "_params", "_row")

    def __init__(self, group: Group, fn: str, params: dict[str, Any], row: Hashable = None) -> None:
        for label in group._labels:
            if _kind(group._trace.base[label].dtype) not in ("int", "float"):
                raise NotCompilable(f"{fn}() of a group with non-numeric column {label!r}")
        self._group, self._fn, self._params, self._row = group, fn, params, row

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, Hashable) or key not in self._group._labels:
            raise NotCompilable(f"{self._fn}()[{key!r}]")
        if self._row is None:
            return CorrMatrix(self._group, self._fn, self._params, key)
        a, b = self._group[key], self._group[self._row]  # frame.corr()[col][row]
        return a._bivariate(self._fn, b, True, **self._params)

    @property
    def loc(self) -> Any:
        return _CorrLoc(self)


class _CorrLoc:
    def __init__(self, m: CorrMatrix) -> None:
        self._m = m

    def __getitem__(self, key: Any) -> Any:
        if not (isinstance(key, tuple) and len(key) == 2):
            raise NotCompilable("corr().loc[...] other than [row, col]")
        return self._m[key[1]][key[0]]


class Record(_Symbolic):
    """``pd.Series({"a": reduced, ...})`` built inside a traced function: named outputs."""

    __slots__ = ("items", "name")

    def __init__(self, items: dict[Hashable, Any], name: Hashable = None) -> None:
        self.items = items
        self.name = name


def is_symbolic(value: Any) -> bool:
    return isinstance(value, _Symbolic)


def record(data: dict[Hashable, Any], index: Any = None, dtype: Any = None, name: Any = None, **kw: Any) -> Record:
    """What ``gframe.Series(dict)`` returns when a value is traced."""
    if index is not None or dtype is not None or kw:
        raise NotCompilable("Series(dict of traced values) with index / dtype")
    return Record(dict(data), name)


def _outputs(result: Any) -> tuple[dict[Hashable, Any] | None, Any]:
    """(named outputs, or None for one unnamed value; the value)."""
    if isinstance(result, Record):
        return result.items, None
    if isinstance(result, pd.Series) and result.dtype == object:  # pandas' Series of traced values
        return dict(result.items()), None
    if isinstance(result, Reduced):
        return None, result
    raise NotCompilable(f"the function returned a {type(result).__name__} (only reduced values are traced)")


def _common_dtype(kinds: list[str]) -> Any:
    """pandas' dtype of a Series made of these values (per group): ints and floats -> float64."""
    if "other" in kinds or ("bool" in kinds and len(set(kinds)) > 1):
        raise NotCompilable("outputs of mixed kinds (pandas gives object)")
    return {"bool": np.dtype(bool), "int": np.dtype("int64"), "float": np.dtype("float64")}[
        "float" if "float" in kinds else kinds[0]]


def groupby_apply(gb: Any, func: Callable[..., Any]) -> Any:
    """``GroupBy.apply(func)`` whose function reduces each group to values: one ``Aggregate``."""
    if gb._native_keys is None or getattr(gb, "_unobserved", False):
        raise NotCompilable("grouping not native")
    base = gb._frame
    frame_cls = type(base)  # the frontend's DataFrame, from the frame given (this package imports no frontend)
    _check_not_empty(base._plan)
    keys, labels = gb._native_keys
    value_labels = [f.label for f in gb._value_fields()]
    trace = _Trace(base)
    series_group = gb._selection is not None and not isinstance(gb._selection, list)
    stand_in = GroupColumn(trace, base[gb._selection]) if series_group else Group(trace, value_labels)
    named, single = _outputs(_call(func, stand_in))
    if named is None and not gb._as_index and not series_group:
        raise NotCompilable("as_index=False with one unnamed value (pandas labels its column None, object dtype)")
    if named is not None:
        for label, v in named.items():
            if not isinstance(v, Reduced) and not isinstance(v, (bool, int, float, np.number)):
                raise NotCompilable(f"output {label!r} is a {type(v).__name__}")
    if not trace.aggs:
        raise NotCompilable("the function reduces nothing")
    slot_labels = [f"__gf_udf_{i}" for i in range(len(trace.aggs))]
    plan = L.Aggregate(keys, labels, tuple(zip(slot_labels, trace.aggs)), gb._sort, gb._dropna, gb._as_index,
                       base._plan)
    agg = frame_cls._from_plan(plan)
    slots = [agg[s] for s in slot_labels]
    if named is None:
        assert single is not None
        named = {gb._selection if series_group else None: single}
        if gb._as_index:
            return _over(plan, single.build(slots)).rename(gb._selection if series_group else None)
    dtype = _common_dtype([v.kind if isinstance(v, Reduced) else _kind(np.asarray(v).dtype) for v in named.values()])
    outputs = [] if gb._as_index else [(f.label, Col(f.name)) for f in plan.schema.columns[:len(keys)]]
    for label, v in named.items():
        if isinstance(v, Reduced):
            col = _over(plan, v.build(slots))
            outputs.append((label, (col if col.dtype == dtype else col.astype(dtype))._expr))
        else:  # a constant output, the same for every group
            outputs.append((label, Lit(dtype.type(v).item(), pa.from_numpy_dtype(dtype))))
    return frame_cls._from_plan(L.Select(tuple(outputs), plan))


def _over(plan: L.Plan, series: Any) -> Any:
    """A Series computed from the aggregated frame: its expression must be over that plan."""
    if series._plan is not plan:
        raise NotCompilable("an output not computed from the group's reductions")
    return series
