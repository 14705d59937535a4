"""``rolling`` / ``expanding`` / ``ewm``: pandas' window objects over a gframe DataFrame or Series.

A window object holds the frame or series, pandas' window arguments and pandas' own window object
over a no-row copy of it (the *probe*: same columns, dtypes and index type, nothing computed on
rows). The probe gives pandas' verdict at each call - the constructor's argument errors, an
aggregation's ``DataError`` for non-numeric columns, the result's column labels (``numeric_only``,
the ``on`` column) - and pandas' repr and settings (``window``, ``min_periods``...), so gframe
copies none of pandas' validation rules.

Native (an expression per column: the ``rolling`` / ``ewm`` functions of ``plan/dtypes.py``,
lowered by the engines' ``window.py``):

- ``rolling`` with an integer window (``min_periods``, ``center``, ``closed``, ``step``) or a
  fixed-frequency time window (``"2s"``, a Timedelta) over a single-level DatetimeIndex or an ``on``
  column of timestamps that are strictly increasing (checked when the window is made; duplicates,
  NaT or a decreasing index are pandas'); ``expanding``; aggregations ``sum``, ``mean``, ``min``,
  ``max``, ``count``, ``std``, ``var``, ``sem``, ``median``, ``quantile``, ``skew``, ``kurt`` (the
  last two not over a time window), ``agg`` of one of their names;
- ``ewm`` (com / span / halflife / alpha, ``adjust``, ``ignore_na``, ``min_periods``) ``mean``,
  ``std``, ``var``;

over numeric columns (numpy, nullable or Arrow ints, floats and bools: pandas computes them as
float64 and answers numpy float64). Everything else - ``apply``, ``win_type``, ``method="table"``,
a ``BaseIndexer``, ``times=``, ``cov`` / ``corr``, ``rank``, ``engine="numba"``, object or
categorical columns, iteration - runs through pandas for that call, recorded
(``bridge.via_pandas``), with pandas' answer.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.errors import DataError

from gframe import engines
from gframe.frontend.bridge import call_method, full_signatures, holds_gframe, user_warnings, via_pandas
from gframe.frontend.frame import _align_expr
from gframe.frontend.generic import WINDOWS
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Col, Expr, Lit, func
from gframe.plan.schema import index_name, is_opaque

_NO_SELECTION = object()
# cov / corr run through pandas: the engines' co-moments from rolling variances lose the digits
# pandas' online co-moments keep after an outlier leaves the window (pandas' test_pairwise
# ``test_rolling_cov_corr_outlier_exit``); the native path below is kept for when the engines have
# an online co-moment kernel
_COV_THROUGH_PANDAS = True
# methods gframe leaves to pandas whose argument errors pandas raises on the no-row probe as on the
# data (not ``apply`` / ``agg`` / ``pipe``: a user's function may fail on no rows only)
_JUDGED = frozenset({"cov", "corr", "rank", "nunique", "first", "last", "sum", "mean", "std", "var"})
# the settings pandas' window objects show as attributes (read from the probe: no data in them)
_SETTINGS = frozenset({"window", "min_periods", "center", "win_type", "on", "closed", "step", "method", "axis",
                       "com", "span", "halflife", "alpha", "adjust", "ignore_na", "times", "exclusions",
                       "ndim", "_attributes", "_on", "_win_freq_i8", "_com", "_deltas", "_constructor"})


def _numeric(t: Any) -> bool:
    """A column pandas' window aggregations compute as float64 and gframe's engines lower (a
    categorical of numbers: pandas computes on its values)."""
    if t is not None and pa.types.is_dictionary(t):
        t = t.value_type
    return t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t))


def _values(e: Expr, t: Any) -> Expr:
    """The values pandas aggregates: a categorical's values, not its codes."""
    return func("cast", e, dtype=t.value_type) if t is not None and pa.types.is_dictionary(t) else e


def _unconvertible(plan: L.Plan, e: Expr, t: Any) -> bool:
    """Whether pandas' float64 conversion of the values refuses them (its ``DataError``): dates
    always, strings where one does not parse as a number (computed now; pandas converts strings of
    numbers)."""
    if t is None:
        return False
    if pa.types.is_date32(t) or pa.types.is_date64(t):
        return True
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return _any_true(plan, BinOp("and", func("notna", e), func("isna", func("cast", e, dtype=pa.float64(),
                                                                                   strict=False))))
    return False


def _same_label(a: Any, b: Any) -> bool:
    """pandas' name of ``a <op> b``: kept where the two names are equal (``ops._maybe_match_name``)."""
    try:
        return bool(a == b) or (a is None and b is None)
    except Exception:  # noqa: BLE001 - names that do not compare: different
        return False


def _countable(t: Any) -> bool:
    """A column whose present values ``count`` counts (any type the engines hold, not Python objects)."""
    return t is not None and not is_opaque(t)


def _no_rows(obj: Any) -> Any:
    """pandas' object of ``obj``'s columns, dtypes and index type, with its first row at most
    (pandas validates some window arguments otherwise on an object without rows: a string window
    over an empty RangeIndex is "not compatible with a datetimelike index")."""
    return obj.iloc[:1].to_pandas()


def _any_true(plan: L.Plan, pred: Expr) -> bool:
    agg = L.Aggregate((), (), (("any", Agg("any", (), pred)),), False, True, False, plan)
    table = engines.materialize(agg).to_arrow()
    return bool(table.num_rows and table.column(0)[0].as_py())


def _strictly_increasing(plan: L.Plan, name: str) -> bool:
    """Whether the timestamps ``name`` of ``plan`` hold no NaT and increase from row to row: where
    pandas' time windows (each row's window ends at the row) are Polars' (which end at the last
    row of equal time). One small aggregation, computed now, as pandas checks monotonicity at the call."""
    x = Col(name)
    bad = BinOp("or", func("isna", x), func("fillna", BinOp("le", x, func("shift", x, periods=1)), Lit(False)))
    return not _any_true(plan, bad)


def _time_window_ns(window: Any) -> int | None:
    """A time window's span in nanoseconds (pandas takes a fixed frequency: "2s", a Timedelta, a Tick)."""
    if isinstance(window, (bool, np.bool_, int, np.integer)) or window is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (pandas warned of a deprecated alias when the window was made)
            return int(pd.tseries.frequencies.to_offset(window).nanos)
    except (TypeError, ValueError):
        return None


class _Window:
    """What the three window objects share: the probe, pandas' verdict, the native outputs, the fallback."""

    _kind = ""  # pandas' method that makes the window: "rolling", "expanding", "ewm"
    _pandas_type: type = object

    def __init__(self, obj: Any, params: dict[str, Any], probe: Any, selection: Any = _NO_SELECTION) -> None:
        self._obj = obj
        self._params = params
        self._probe = probe
        self._selection = selection
        self._why: str | None = None  # why the aggregations run through pandas (None: native)

    @classmethod
    def _make(cls, obj: Any, params: dict[str, Any]) -> Any:
        """The window object, native where ``_native_reason`` finds nothing against it, else pandas'
        window over the data (a ``PandasProxy``: its calls keep falling back, recorded)."""
        if holds_gframe(params) or params.get("times") is not None and not isinstance(params["times"], str):
            return call_method(obj, cls._kind, (), params, "window arguments holding data")
        probe_obj = _no_rows(obj)
        with user_warnings():
            probe = getattr(probe_obj, cls._kind)(**params)  # pandas' own argument errors, raised here
        window = cls(obj, params, probe)
        why = window._made_by_pandas()
        if why is not None:
            return call_method(obj, cls._kind, (), params, why)
        window._why = window._native_reason()
        return window

    def _made_by_pandas(self) -> str | None:
        """Why pandas must make the window object itself (its class, or an error it raises from the
        data), or None: then a setting gframe does not compute (``_native_reason``) sends each
        aggregation to pandas instead, and the object itself stays gframe's."""
        return None

    def _native_reason(self) -> str | None:
        if self._params.get("method", "single") != "single":
            return "method='table'"
        return None

    # ------------------------------------------------------------------ pandas' object, as pandas shows it
    @property
    def obj(self) -> Any:
        return self._obj

    @property
    def _selected_obj(self) -> Any:
        return self._obj if self._selection is _NO_SELECTION else self._obj[self._selection]

    def __repr__(self) -> str:
        return repr(self._probe)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_obj", "_params", "_probe", "_selection", "_why"):
            raise AttributeError(name)
        attr = getattr(self._probe, name)  # pandas' AttributeError for a name it lacks
        if name in _SETTINGS:
            return attr
        if callable(attr):
            def method(*args: Any, **kwargs: Any) -> Any:
                if name in _JUDGED and not holds_gframe((args, kwargs)):
                    self._verdict(name, args, kwargs)  # pandas' error for the arguments, raised without a trip
                return self._fallback(name, args, kwargs, "not native")

            method.__name__ = name
            return method
        return self._fallback_read(name)

    def __iter__(self) -> Any:
        return iter(self._fallback("__iter__", (), {}, "iterating over windows"))

    def __getitem__(self, key: Any) -> Any:
        with user_warnings():
            self._probe[key]  # pandas' KeyError for a column the frame lacks
        if self._selection is not _NO_SELECTION or self._params.get("on") is not None or self._obj.ndim != 2:
            return _Selected(self, key)
        return type(self)._make(self._obj[key], self._params)

    # ------------------------------------------------------------------ the fallback
    def _pandas_window(self, pobj: Any, params: dict[str, Any]) -> Any:
        w = getattr(pobj, self._kind)(**params)
        return w if self._selection is _NO_SELECTION else w[self._selection]

    def _fallback(self, name: str, args: tuple, kwargs: dict[str, Any], reason: str) -> Any:
        def run(pobj: Any, params: dict[str, Any], *a: Any, **k: Any) -> Any:
            attr = getattr(self._pandas_window(pobj, params), name)
            return list(attr()) if name == "__iter__" else attr(*a, **k)

        api = f"{self._pandas_type.__name__}.{name}"
        return via_pandas(api, run, (self._obj, self._params, *args), kwargs, reason)

    def _fallback_read(self, name: str) -> Any:
        def run(pobj: Any, params: dict[str, Any]) -> Any:
            return getattr(self._pandas_window(pobj, params), name)

        return via_pandas(f"{self._pandas_type.__name__}.{name}", run, (self._obj, self._params), {}, "not native")

    # ------------------------------------------------------------------ native aggregation
    def _verdict(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        """pandas' answer on the probe: its exception (raised), else its no-row result (labels)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return getattr(self._probe, name)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - pandas' verdict, whatever its type
            raise exc.with_traceback(None) from None

    def _aggregate(self, name: str, args: tuple, kwargs: dict[str, Any], make: Any) -> Any:
        """``make(column expression) -> expression`` over each column pandas' result holds, or the
        call through pandas where a column is not one the engines compute (``_numeric``)."""
        if kwargs.get("engine") not in (None, "cython"):
            return self._fallback(name, args, kwargs, f"engine={kwargs.get('engine')!r}")
        if self._why is not None:  # (no verdict: a BaseIndexer's bounds are for the data's rows)
            return self._fallback(name, args, kwargs, self._why)
        expected = self._verdict(name, args, kwargs)
        obj = self._obj
        plan = obj._plan
        schema = plan.schema
        on = self._params.get("on")
        takes = _countable if name == "count" else _numeric
        if obj.ndim == 1:
            t = obj._dtype_arrow
            if not takes(t):
                if _unconvertible(plan, obj._expr, t):
                    raise DataError("No numeric types to aggregate")
                return self._fallback(name, args, kwargs, f"{self._kind} of {t} values")
            out = type(obj)._over(plan, make(_values(obj._expr, t)), obj._name)
        else:
            outputs = []
            for label in expected.columns:
                f = schema.field(label)
                if on is not None and label == on:
                    outputs.append((label, Col(f.name)))
                    continue
                if not takes(f.dtype):
                    if _unconvertible(plan, Col(f.name), f.dtype):
                        dtype = self._probe.obj[label].dtype
                        raise DataError(f"Cannot aggregate non-numeric type: {dtype}")
                    return self._fallback(name, args, kwargs, f"{self._kind} of a column of {f.dtype}")
                outputs.append((label, make(_values(Col(f.name), f.dtype))))
            out = type(obj)._from_plan(L.Select(tuple(outputs), plan))
        step = self._params.get("step")
        return out.iloc[::step] if step not in (None, 1) else out


class _Selected:
    """``window[key]`` where gframe keeps no native window (a selection of a selection, ``on=``):
    pandas' window over the data, selected, each call recorded."""

    def __init__(self, parent: _Window, key: Any) -> None:
        self._parent, self._key = parent, key

    def __getattr__(self, name: str) -> Any:
        parent, key = self._parent, self._key

        def run(pobj: Any, params: dict[str, Any], *a: Any, **k: Any) -> Any:
            return getattr(parent._pandas_window(pobj, params)[key], name)(*a, **k)

        def method(*args: Any, **kwargs: Any) -> Any:
            api = f"{parent._pandas_type.__name__}.{name}"
            return via_pandas(api, run, (parent._obj, parent._params, *args), kwargs, "selected window")

        return method


# --------------------------------------------------------------------------------------- rolling

class _RollingBase(_Window):
    """rolling and expanding: the ``rolling`` function of each column."""

    def _spec(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def _by(self) -> Expr | None:
        return None

    def _rolling(self, name: str, args: tuple, kwargs: dict[str, Any], **params: Any) -> Any:
        if self._why is not None:
            return self._fallback(name, args, kwargs, self._why)
        spec = self._spec()
        fn = params["agg"]
        if self._by() is not None and fn in ("skew", "kurt"):
            return self._fallback(name, args, kwargs, f"{fn} over a time window")
        by = self._by()

        def make(e: Expr) -> Expr:
            def one(**p: Any) -> Expr:
                kids = (e,) if by is None else (e, by)
                return func("rolling", *kids, by=by is not None, **{**spec, **p})

            if fn == "sem":  # pandas: std / sqrt(count)
                return BinOp("truediv", one(agg="std", ddof=params["ddof"]), BinOp("pow", one(agg="count"), Lit(0.5)))
            return one(**params)

        return self._aggregate(name, args, kwargs, make)

    def __iter__(self) -> Any:
        """pandas' windows, each the rows ``iloc[start:end]`` of the bounds pandas' indexer gives for
        the row count (fixed and expanding windows; a time window's bounds need the timestamps: pandas')."""
        if self._why is not None or self._by() is not None or self._params.get("on") is not None \
                or self._selection is not _NO_SELECTION:
            return super().__iter__()
        p = self._probe
        obj = self._obj
        start, end = p._get_window_indexer().get_window_bounds(
            num_values=len(obj), min_periods=p.min_periods, center=getattr(p, "center", False),
            closed=getattr(p, "closed", None), step=getattr(p, "step", None))
        return (obj.iloc[int(a):int(b)] for a, b in zip(start, end))

    def sum(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._rolling("sum", (), {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}, agg="sum")

    def mean(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._rolling("mean", (), {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}, agg="mean")

    def median(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._rolling("median", (), {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs},
                             agg="median")

    def min(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._rolling("min", (), {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}, agg="min")

    def max(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._rolling("max", (), {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}, agg="max")

    def count(self, numeric_only: bool = False) -> Any:
        return self._rolling("count", (), {"numeric_only": numeric_only}, agg="count")

    def std(self, ddof: int = 1, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        kwargs = {"ddof": ddof, "numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}
        if not isinstance(ddof, (int, np.integer)) or isinstance(ddof, bool):
            return self._fallback("std", (), kwargs, "ddof not an int")
        return self._rolling("std", (), kwargs, agg="std", ddof=int(ddof))

    def var(self, ddof: int = 1, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        kwargs = {"ddof": ddof, "numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}
        if not isinstance(ddof, (int, np.integer)) or isinstance(ddof, bool):
            return self._fallback("var", (), kwargs, "ddof not an int")
        return self._rolling("var", (), kwargs, agg="var", ddof=int(ddof))

    def sem(self, ddof: int = 1, numeric_only: bool = False) -> Any:
        kwargs = {"ddof": ddof, "numeric_only": numeric_only}
        if not isinstance(ddof, (int, np.integer)) or isinstance(ddof, bool):
            return self._fallback("sem", (), kwargs, "ddof not an int")
        return self._rolling("sem", (), kwargs, agg="sem", ddof=int(ddof))

    def skew(self, numeric_only: bool = False) -> Any:
        return self._rolling("skew", (), {"numeric_only": numeric_only}, agg="skew")

    def kurt(self, numeric_only: bool = False) -> Any:
        return self._rolling("kurt", (), {"numeric_only": numeric_only}, agg="kurt")

    def quantile(self, q: float, interpolation: str = "linear", numeric_only: bool = False) -> Any:
        kwargs = {"q": q, "interpolation": interpolation, "numeric_only": numeric_only}
        if not isinstance(q, (float, int, np.floating, np.integer)) or isinstance(q, bool) \
                or interpolation not in ("linear", "lower", "higher", "nearest", "midpoint"):
            return self._fallback("quantile", (), kwargs, "quantile arguments not native")
        self._verdict("quantile", (), kwargs)
        if not 0 <= q <= 1:
            raise ValueError(f"quantile value {q} not in [0, 1]")  # (pandas' kernel raises it, also where no row)
        return self._rolling("quantile", (), kwargs, agg="quantile", q=float(q), interpolation=interpolation)

    # ------------------------------------------------------------------ cov / corr
    def cov(self, other: Any = None, pairwise: Any = None, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._binary("cov", other, pairwise, ddof, numeric_only)

    def corr(self, other: Any = None, pairwise: Any = None, ddof: int = 1, numeric_only: bool = False) -> Any:
        return self._binary("corr", other, pairwise, ddof, numeric_only)

    def _binary(self, name: str, other: Any, pairwise: Any, ddof: Any, numeric_only: bool) -> Any:
        """pandas' rolling ``cov`` / ``corr`` (``RollingAndExpandingMixin``) of a Series with itself or
        another Series, or of each column of a frame with a Series or (``pairwise=False``) with itself:
        the two aligned on the sorted union of their indexes and each missing where the other is
        (pandas' ``prep_binary``), then pandas' ``roll_cov`` / ``roll_corr`` (the engines' ``rolling``
        of the two).
        Pairwise results (a MultiIndex of column pairs) and frames against frames are pandas'."""
        kwargs = {"other": other, "pairwise": pairwise, "ddof": ddof, "numeric_only": numeric_only}
        obj = self._obj
        same = other is None or other is obj
        gframe_other = type(other).__module__.startswith("gframe.")
        if gframe_other and not hasattr(other, "_plan") or not hasattr(obj, "_plan"):
            return self._fallback(name, (), kwargs, "a frame gframe holds as pandas'")  # (HostFrame)
        pother = None if other is None else self._probe.obj if other is obj else _no_rows(other) if gframe_other else other
        expected = self._verdict(name, (), {**kwargs, "other": pother})  # (pandas refuses a step here)
        if self._why is not None:
            return self._fallback(name, (), kwargs, self._why)
        if not isinstance(ddof, (int, np.integer)) or isinstance(ddof, bool) or _COV_THROUGH_PANDAS:
            return self._fallback(name, (), kwargs, "rolling cov / corr (pandas' online co-moments)")
        if obj.ndim == 2 and same and pairwise is not False:
            return self._fallback(name, (), kwargs, "pairwise results (a MultiIndex of column pairs)")
        if not same and not (gframe_other and getattr(other, "ndim", 0) == 1):
            return self._fallback(name, (), kwargs, f"{name} with a frame or a pandas object")
        spec, by = self._spec(), self._by()

        extra = {"ddof": int(ddof)} if name == "cov" else {}

        def formula(x: Expr, y: Expr) -> Expr:
            kids = (x, y) if by is None else (x, y, by)
            return func("rolling", *kids, by=by is not None, agg=name, **spec, **extra)

        if obj.ndim == 1:
            if not _numeric(obj._dtype_arrow) or not same and not _numeric(other._dtype_arrow):
                return self._fallback(name, (), kwargs, f"{name} of values of this type")
            if same:
                plan, x, y, label = obj._plan, obj._expr, obj._expr, obj._name
            else:
                hit = _align_expr(obj._frame_plan(), other, "outer")
                if hit is None:
                    return self._fallback(name, (), kwargs, "indexes the engines do not align")
                plan, y = hit
                x = Col(plan.schema.columns[0].name)
                label = obj._name if _same_label(obj._name, other._name) else None
            return type(obj)._over(plan, formula(x, y), label)
        schema = obj._plan.schema
        fields = [schema.field(label) for label in expected.columns]
        if not all(_numeric(f.dtype) for f in fields) or not same and not _numeric(other._dtype_arrow):
            return self._fallback(name, (), kwargs, f"{name} of columns of this type")
        if same:
            return type(obj)._from_plan(L.Select(tuple((f.label, formula(Col(f.name), Col(f.name))) for f in fields),
                                                 obj._plan))
        hit = _align_expr(obj._plan, other, "outer")
        if hit is None or hit[0] != obj._plan:
            # (pandas computes each column on the union of the indexes, then keeps the frame's rows)
            return self._fallback(name, (), kwargs, "a frame and a Series of other rows")
        return type(obj)._from_plan(L.Select(tuple((f.label, formula(Col(f.name), hit[1])) for f in fields), obj._plan))

    def aggregate(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(func, str) and not args and not kwargs and func in _NATIVE_AGGS:
            return getattr(self, func)()
        return self._fallback("aggregate", (func, *args), kwargs, "aggregations other than one name")

    agg = aggregate


_NATIVE_AGGS = frozenset({"sum", "mean", "median", "min", "max", "count", "std", "var", "sem", "skew", "kurt"})


@full_signatures(pd.api.typing.Rolling, lambda w, name, a, k, why: w._fallback(name, a, k, why))
class Rolling(_RollingBase):
    """pandas' ``Rolling`` (``df.rolling(3)``, ``s.rolling("2s")``): see the module's docstring.

    >>> import gframe as pd
    >>> pd.Series([1.0, 2.0, 4.0]).rolling(2).sum().tolist()
    [nan, 3.0, 6.0]
    """

    _kind = "rolling"
    _pandas_type = pd.api.typing.Rolling

    def _time_column(self) -> str | None:
        """The internal name of the timestamps a time window runs over (the index, or ``on``)."""
        schema = self._obj._plan.schema
        on = self._params.get("on")
        if on is not None:
            if self._obj.ndim != 2 or not schema.has(on):
                return None
            f = schema.field(on)
            return f.name if isinstance(f.dtype, pa.TimestampType) else None
        if schema.index is None or len(schema.index) != 1 or not isinstance(schema.index[0].dtype, pa.TimestampType):
            return None
        return schema.index[0].name if schema.index[0].name == index_name(0) else None

    def _made_by_pandas(self) -> str | None:
        if self._params.get("win_type") is not None:
            return "weighted windows (win_type)"  # (pandas' ``Window``, another class)
        if _time_window_ns(self._params.get("window")) is not None:
            name = self._time_column()
            if name is not None and not _strictly_increasing(self._obj._plan, name):
                # pandas refuses timestamps out of order or NaT when the window is made
                return "a time window over timestamps with NaT, duplicates or out of order"
        return None

    def _native_reason(self) -> str | None:
        why = super()._native_reason()
        if why is not None:
            return why
        p = self._params
        window, center = p.get("window"), p.get("center", False)
        if isinstance(window, (int, np.integer)) and not isinstance(window, (bool, np.bool_)):
            return None
        if _time_window_ns(window) is None:
            return "a window of this kind (a BaseIndexer)"
        if center:
            return "a centered time window"
        if self._time_column() is None:
            return "a time window over timestamps of this kind"
        return None

    def _spec(self) -> dict[str, Any]:
        p = self._params
        window, closed = p.get("window"), p.get("closed")
        mp = self._probe.min_periods
        if isinstance(window, (int, np.integer)) and not isinstance(window, (bool, np.bool_)):
            return {"window": int(window), "min_periods": int(window) if mp is None else int(mp),
                    "center": bool(p.get("center", False)), "closed": closed}
        return {"window": _time_window_ns(window), "min_periods": 1 if mp is None else int(mp), "center": False,
                "closed": closed}

    def _by(self) -> Expr | None:
        if isinstance(self._params.get("window"), (int, np.integer)):
            return None
        name = self._time_column()
        return None if name is None else Col(name)


@full_signatures(pd.api.typing.Expanding, lambda w, name, a, k, why: w._fallback(name, a, k, why))
class Expanding(_RollingBase):
    """pandas' ``Expanding`` (``df.expanding()``): see the module's docstring.

    >>> import gframe as pd
    >>> pd.Series([1.0, 2.0, 4.0]).expanding().sum().tolist()
    [1.0, 3.0, 7.0]
    """

    _kind = "expanding"
    _pandas_type = pd.api.typing.Expanding

    def _spec(self) -> dict[str, Any]:
        mp = self._probe.min_periods
        return {"window": None, "min_periods": 1 if mp is None else int(mp), "center": False, "closed": None}


# ------------------------------------------------------------------------------------------- ewm

@full_signatures(pd.api.typing.ExponentialMovingWindow, lambda w, name, a, k, why: w._fallback(name, a, k, why))
class ExponentialMovingWindow(_Window):
    """pandas' ``ExponentialMovingWindow`` (``df.ewm(span=3)``): see the module's docstring.

    >>> import gframe as pd
    >>> pd.Series([1.0, 2.0, 4.0]).ewm(alpha=0.5).mean().round(4).tolist()
    [1.0, 1.6667, 3.0]
    """

    _kind = "ewm"
    _pandas_type = pd.api.typing.ExponentialMovingWindow

    def _native_reason(self) -> str | None:
        why = super()._native_reason()
        if why is not None:
            return why
        if self._params.get("times") is not None:
            return "times="
        com = getattr(self._probe, "_com", None)
        if com is None or not np.isfinite(com):
            return "a decay pandas derives from times"
        if com == 1.0 and not self._probe.adjust and not self._probe.ignore_na:
            # Polars' ewm with alpha 0.5, adjust=False decays over missing values otherwise than
            # pandas (other alphas agree)
            return "alpha=0.5 with adjust=False and ignore_na=False"
        return None

    def _ewm(self, name: str, kwargs: dict[str, Any], **params: Any) -> Any:
        if self._why is not None:
            self._verdict(name, (), kwargs)
            return self._fallback(name, (), kwargs, self._why)
        probe = self._probe
        spec = {"alpha": 1.0 / (1.0 + float(probe._com)), "adjust": bool(probe.adjust),
                "ignore_na": bool(probe.ignore_na), "min_periods": int(probe.min_periods or 0)}
        return self._aggregate(name, (), kwargs, lambda e: func("ewm", e, **spec, **params))

    def mean(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        return self._ewm("mean", {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs},
                         agg="mean")

    def sum(self, numeric_only: bool = False, engine: Any = None, engine_kwargs: Any = None) -> Any:
        kwargs = {"numeric_only": numeric_only, "engine": engine, "engine_kwargs": engine_kwargs}
        if not self._probe.ignore_na:
            self._verdict("sum", (), kwargs)
            return self._fallback("sum", (), kwargs, "ewm sum with ignore_na=False")
        return self._ewm("sum", kwargs, agg="sum")

    def std(self, bias: bool = False, numeric_only: bool = False) -> Any:
        return self._ewm("std", {"bias": bias, "numeric_only": numeric_only}, agg="std", bias=bool(bias))

    def var(self, bias: bool = False, numeric_only: bool = False) -> Any:
        return self._ewm("var", {"bias": bias, "numeric_only": numeric_only}, agg="var", bias=bool(bias))


def make_window(obj: Any, kind: str, params: dict[str, Any]) -> Any:
    """``obj.rolling / expanding / ewm(**params)`` (the frontend's methods call this)."""
    cls = {"rolling": Rolling, "expanding": Expanding, "ewm": ExponentialMovingWindow}[kind]
    return cls._make(obj, params)


WINDOWS["make"] = make_window

__all__ = ["Expanding", "ExponentialMovingWindow", "Rolling", "make_window"]
