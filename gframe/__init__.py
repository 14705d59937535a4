"""gframe: pandas code, lazily planned, optimized, and run on a GPU (pylibcudf) or CPU (Polars).

``import gframe as pd`` and keep writing pandas. Pipeline: ``frontend`` (pandas API, builds plans)
-> ``plan`` (immutable IR) -> ``optimizer`` (rule passes) -> ``engines`` (cpu: Polars, gpu:
pylibcudf), with ``fallback`` to pandas for what is not native, recorded in ``fallback_report()``.
"""
from __future__ import annotations

from typing import Any

import pandas as _pd

from gframe.config import option_context, options
from gframe.errors import FallbackError, GPUUnavailableError
from gframe.fallback import fallback_report
from gframe.frontend.arrow import from_arrow
from gframe.frontend.datetimes import to_datetime
from gframe.frontend.frame import DataFrame
from gframe.frontend.index import Index, MultiIndex, RangeIndex
from gframe.frontend.reshape import concat, merge
from gframe.frontend.series import Series
from gframe.frontend.readwrite import read_csv, read_parquet

from gframe._version import __version__ as __version__  # single-sourced: pyproject.toml reads it too

# pandas names that are data, types or submodules rather than computations: shared as they are
NA = _pd.NA
NaT = _pd.NaT
Timestamp = _pd.Timestamp
Timedelta = _pd.Timedelta
Categorical = _pd.Categorical
CategoricalDtype = _pd.CategoricalDtype
StringDtype = _pd.StringDtype
NamedAgg = _pd.NamedAgg
errors = _pd.errors
api = _pd.api
testing = _pd.testing
offsets = _pd.offsets
get_option = _pd.get_option
set_option = _pd.set_option

__all__ = ["DataFrame", "Series", "Index", "MultiIndex", "RangeIndex", "concat", "merge", "read_csv",
           "read_parquet", "to_datetime", "from_arrow", "options", "option_context", "fallback_report", "FallbackError", "GPUUnavailableError"]


def __getattr__(name: str) -> Any:
    """Any other pandas top-level function runs through pandas (recorded as a fallback)."""
    attr = getattr(_pd, name)  # AttributeError as pandas would raise
    if callable(attr) and not isinstance(attr, type):
        from gframe.frontend.bridge import via_pandas

        def fallback(*args: Any, **kwargs: Any) -> Any:
            return via_pandas(name, attr, args, kwargs, "top-level function not native")

        fallback.__name__ = name
        fallback.__doc__ = attr.__doc__
        return fallback
    return attr


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext gframe``: ``import pandas`` in later cells gives gframe (see ``gframe.zerocode``)."""
    from gframe.zerocode import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    from gframe.zerocode import unload_ipython_extension as unload

    unload(ipython)
