"""pandas' top-level namespace on gframe: every public name of ``pandas`` resolves on ``gframe``.

Each public pandas name is classed here, as data, in exactly one table:

- ``NATIVE``: gframe implements it (``gframe.DataFrame``, ``gframe.merge``, ...); ``gframe/__init__``
  imports these from the frontend.
- ``METHOD_FORMS``: top-level functions that are a method of their first argument in pandas
  (``pd.melt(df, ...)`` is ``df.melt(...)``): a gframe first argument calls gframe's method, which is
  native or falls back by itself; anything else runs pandas' function.
- ``CONSTRUCTORS``: functions that build index labels or arrays from Python values
  (``date_range``, ``period_range``, ``array``): like ``gframe.Index(data)``, which holds pandas'
  labels on the host, they are gframe's labels layer and run unrecorded, their results wrapped
  (a ``gframe.Index``). Given gframe data as input they are a recorded trip, as ``VIA_PANDAS``.
- ``VIA_PANDAS``: functions that compute: they run through pandas, recorded as a fallback, with
  gframe inputs converted to pandas and pandas frames / series in the result wrapped as gframe's.
- ``SHARED``: types, scalars, dtypes, submodules and settings functions, which are pandas' own
  objects (``gframe.Timestamp is pandas.Timestamp``): they hold no frame data, so sharing them keeps
  ``isinstance`` checks and pandas' options identical.
- ``OWN_MODULES``: names that are gframe submodules of the same name and role (``gframe.io``,
  ``gframe.testing``, ``gframe.errors``, ``gframe.plotting``), each exposing pandas' names too.

A pandas release that adds a name not in these tables still resolves (``gframe.__getattr__`` treats
it as ``VIA_PANDAS`` or ``SHARED`` by kind), and ``tests/test_namespace.py`` fails until it is classed.
"""
from __future__ import annotations

import functools
import types
from typing import Any, Callable

import pandas as pd

from gframe.frontend import bridge

NATIVE: frozenset[str] = frozenset({
    "DataFrame", "Series", "Index", "concat", "merge", "read_csv", "read_parquet",
    "to_datetime", "to_numeric", "to_timedelta", "options", "option_context",
})

METHOD_FORMS: dict[str, str] = {
    "melt": "melt", "pivot": "pivot", "pivot_table": "pivot_table", "isna": "isna", "isnull": "isna",
    "notna": "notna", "notnull": "notna",
}

CONSTRUCTORS: frozenset[str] = frozenset({
    "array", "bdate_range", "date_range", "interval_range", "period_range", "timedelta_range",
})

VIA_PANDAS: frozenset[str] = frozenset({
    "crosstab", "cut", "eval", "factorize", "from_dummies", "get_dummies",
    "infer_freq", "json_normalize", "lreshape", "merge_asof", "merge_ordered",
    "qcut", "to_pickle", "unique", "wide_to_long",
    "read_clipboard", "read_excel", "read_feather", "read_fwf", "read_hdf", "read_html", "read_iceberg",
    "read_json", "read_orc", "read_pickle", "read_sas", "read_spss", "read_sql", "read_sql_query",
    "read_sql_table", "read_stata", "read_table", "read_xml",
})

SHARED: frozenset[str] = frozenset({
    # scalars and missing values
    "NA", "NaT", "Timestamp", "Timedelta", "Period", "Interval", "DateOffset",
    # dtypes
    "ArrowDtype", "BooleanDtype", "CategoricalDtype", "DatetimeTZDtype", "Float32Dtype", "Float64Dtype",
    "Int8Dtype", "Int16Dtype", "Int32Dtype", "Int64Dtype", "IntervalDtype", "PeriodDtype", "SparseDtype",
    "StringDtype", "UInt8Dtype", "UInt16Dtype", "UInt32Dtype", "UInt64Dtype",
    # array and index types (constructed by pandas; gframe accepts them as data and as an index)
    "Categorical", "CategoricalIndex", "MultiIndex", "RangeIndex", "DatetimeIndex", "IntervalIndex", "PeriodIndex", "TimedeltaIndex",
    # groupby and indexing helpers, expressions
    "Grouper", "NamedAgg", "NamedFunc", "IndexSlice", "Flags", "col",
    # IO handles
    "ExcelFile", "ExcelWriter", "HDFStore",
    # settings and tooling: one options registry, shared with pandas (gframe.config)
    "get_option", "set_option", "reset_option", "describe_option", "set_eng_float_format", "show_versions",
    "test",
    # submodules with no frame-valued functions of their own
    "api", "arrays", "compat", "core", "offsets", "tseries", "util",
    # module attributes
    "annotations", "pandas",
})

OWN_MODULES: frozenset[str] = frozenset({"io", "testing", "errors", "plotting"})


def via_pandas(api: str, fn: Callable[..., Any], reason: str = "top-level function not native") -> Callable[..., Any]:
    """``fn`` (a pandas callable) as a gframe function: gframe inputs converted, the result wrapped,
    the call recorded as a fallback (and refused under ``fallback="raise"``)."""

    @functools.wraps(fn)
    def fallback(*args: Any, **kwargs: Any) -> Any:
        return bridge.via_pandas(api, fn, args, kwargs, reason)

    return fallback


def constructor(name: str) -> Callable[..., Any]:
    """``pandas.<name>`` as a ``CONSTRUCTORS`` function: Python values in, gframe's labels out."""
    pandas_fn = getattr(pd, name)
    fallback = via_pandas(name, pandas_fn, "input holds gframe data")

    @functools.wraps(pandas_fn)
    def build(*args: Any, **kwargs: Any) -> Any:
        if bridge.holds_gframe((args, kwargs)):
            return fallback(*args, **kwargs)
        return bridge.build_with_pandas(name, pandas_fn, args, kwargs)

    return build


def method_form(name: str, method: str) -> Callable[..., Any]:
    """``pandas.<name>(obj, ...)`` that is ``obj.<method>(...)`` in pandas: a gframe ``obj`` uses its
    own (native or self-recording) method, any other input pandas' function."""
    pandas_fn = getattr(pd, name)
    fallback = via_pandas(name, pandas_fn)

    @functools.wraps(pandas_fn)
    def call(obj: Any, *args: Any, **kwargs: Any) -> Any:
        from gframe.frontend.frame import DataFrame
        from gframe.frontend.index import Index
        from gframe.frontend.series import Series

        if isinstance(obj, (DataFrame, Series, Index)) and hasattr(type(obj), method):
            return getattr(obj, method)(*args, **kwargs)
        if pd.api.types.is_scalar(obj) or obj is None:
            return pandas_fn(obj, *args, **kwargs)  # ``pd.isna(3.0)``: no data for gframe to hold
        return fallback(obj, *args, **kwargs)

    return call


def resolve(name: str) -> Any:
    """The gframe value of pandas' public ``name`` (not a ``NATIVE`` or ``OWN_MODULES`` name)."""
    if name in METHOD_FORMS:
        return method_form(name, METHOD_FORMS[name])
    if name in CONSTRUCTORS:
        return constructor(name)
    attr = getattr(pd, name)  # AttributeError, as pandas raises, for a name pandas lacks
    if name in SHARED:
        return attr
    if name in VIA_PANDAS or (callable(attr) and not isinstance(attr, type)):
        return via_pandas(name, attr)
    return attr


def pandas_public_names() -> list[str]:
    """Every public name of the installed pandas's top-level namespace."""
    return sorted(n for n in dir(pd) if not n.startswith("_"))


def classified(name: str) -> bool:
    return name in NATIVE or name in METHOD_FORMS or name in CONSTRUCTORS or name in VIA_PANDAS or name in SHARED or name in OWN_MODULES


def wrap_module(module: types.ModuleType, target: types.ModuleType, reason: str) -> None:
    """Give ``target`` every public callable of pandas' ``module`` as a converting, recorded
    fallback, and its other public names as they are (used for ``gframe.plotting``)."""
    for name in dir(module):
        if name.startswith("_") or hasattr(target, name):
            continue
        attr = getattr(module, name)
        is_fn = callable(attr) and not isinstance(attr, type) and not isinstance(attr, types.ModuleType)
        setattr(target, name, via_pandas(f"{module.__name__.removeprefix('pandas.')}.{name}", attr, reason)
                if is_fn else attr)
