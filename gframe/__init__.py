"""gframe: pandas code, lazily planned, optimized, and run on a GPU (pylibcudf) or CPU (Polars).

``import gframe as pd`` and keep writing pandas. Pipeline: ``frontend`` (pandas API, builds plans)
-> ``plan`` (immutable IR) -> ``optimizer`` (rule passes) -> ``engines`` (cpu: Polars, gpu:
pylibcudf), with ``fallback`` to pandas for what is not native, recorded in ``fallback_report()``.
"""
from __future__ import annotations

import os as _os
import sys as _sys

# pandas' Arrow extension types (interval, period) are columns the engines only move. Polars 2 loads
# an extension type it does not know as an extension, kept through every node; Polars 1.x (which
# gframe supports, and which the GPU machine's cudf-polars pins) loads it as its storage type, so an
# interval came back as a struct of dicts. Polars reads this once, at its import: set before ours,
# unless the user chose.
_os.environ.setdefault("POLARS_UNKNOWN_EXTENSION_TYPE_BEHAVIOR", "load_as_extension")
from typing import Any

from gframe import errors, plotting, testing
from gframe import namespace as _namespace
from gframe.config import describe_option, get_option, option_context, options, reset_option, set_option
from gframe.errors import FallbackError, GPUUnavailableError
from gframe.fallback import fallback_report
from gframe.frontend.arrow import from_arrow
from gframe.frontend.datetimes import to_datetime
from gframe.frontend.frame import DataFrame
from gframe.frontend.index import Index, MultiIndex, RangeIndex
from gframe.frontend.reshape import concat, merge
from gframe.frontend.series import Series
from gframe.frontend.readwrite import read_csv, read_parquet
from gframe.frontend.tools import to_numeric, to_timedelta

from gframe._version import __version__ as __version__  # single-sourced: pyproject.toml reads it too

# Every other public pandas name, classed in gframe.namespace: pandas' own types, scalars, dtypes and
# submodules shared as they are; top-level functions run through pandas (converted, wrapped, recorded).
for _name in _namespace.pandas_public_names():
    if _name not in globals():
        globals()[_name] = _namespace.resolve(_name)
del _name
pandas = _sys.modules[__name__]  # as ``pandas.pandas is pandas``

__all__ = ["DataFrame", "Series", "Index", "MultiIndex", "RangeIndex", "concat", "merge", "read_csv",
           "read_parquet", "to_datetime", "to_numeric", "to_timedelta", "from_arrow", "options", "option_context", "get_option", "set_option", "reset_option",
           "describe_option", "fallback_report", "FallbackError", "GPUUnavailableError", "errors", "plotting",
           "testing"]


def __getattr__(name: str) -> Any:
    """A public pandas name this gframe was not built with (a newer pandas): resolved by kind."""
    if name.startswith("_"):
        raise AttributeError(f"module 'gframe' has no attribute {name!r}")
    return _namespace.resolve(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_namespace.pandas_public_names()))


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext gframe``: ``import pandas`` in later cells gives gframe (see ``gframe.zerocode``)."""
    from gframe.zerocode import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    from gframe.zerocode import unload_ipython_extension as unload

    unload(ipython)
