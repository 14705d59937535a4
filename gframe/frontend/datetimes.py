"""``to_datetime``: parsing a gframe string Series is one ``str.to_datetime`` expression.

pandas picks one format for the column (the one given, or the one it guesses from the first value)
and raises when a value does not match. gframe parses natively with that format when it is made of
plain numeric fields, checks now that every value parsed (pandas raises at the call), and hands any
other case to pandas. Host data (lists, arrays, scalars) is converted at the edge, as constructors
do.
"""
from __future__ import annotations

import re
from typing import Any

import pandas as pd
import pyarrow as pa
from gframe.frontend.bridge import from_pandas_result, user_warnings, via_pandas
from gframe.frontend.frame import DataFrame
from gframe.frontend.index import Index
from gframe.frontend.series import Series, _any_true
from gframe.plan import logical as L
from gframe.plan.expr import BinOp, func
from gframe.plan.schema import NUMPY, STRING

# strptime formats the engines parse exactly as pandas: numeric fields and literal separators
_NATIVE_FORMAT = re.compile(r"^(?:%[YmdHMSy]|[-/ :T.,_])+$")


def to_datetime(arg: Any, *args: Any, **kwargs: Any) -> Any:
    """pandas.to_datetime."""
    if isinstance(arg, Series):
        out = _parse_series(arg, args, kwargs)
        if out is not None:
            return out
    if isinstance(arg, (Series, DataFrame, Index)):
        return via_pandas("to_datetime", pd.to_datetime, (arg, *args), kwargs, "argument not native")
    # host data: converted at the edge, like a constructor's input; pandas' warnings (a format it
    # could not infer, a deprecated quarter string) at the user's line, as a direct pandas call gives
    with user_warnings():
        out = pd.to_datetime(arg, *args, **kwargs)
    return from_pandas_result(out, "to_datetime")


def _parse_series(s: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """The native parse, or None where pandas decides."""
    fmt = kwargs.get("format")
    if not args and not set(kwargs) - {"errors", "cache"} and kwargs.get("errors", "raise") in ("raise", "coerce") \
            and isinstance(kwargs.get("cache", True), bool) and s._dtype_arrow is not None \
            and pa.types.is_timestamp(s._dtype_arrow) and s._family == NUMPY:
        return s._with(s._expr)  # timestamps already: pandas returns them as they are (``cache``: a speed knob)
    if args or set(kwargs) - {"format", "errors", "cache"} or kwargs.get("errors", "raise") != "raise" \
            or not isinstance(kwargs.get("cache", True), bool) or s._dtype_arrow != STRING:
        return None
    if fmt is None:
        first = _first_valid(s)
        if first is None:
            return None
        from pandas._libs.tslibs.parsing import guess_datetime_format

        fmt = guess_datetime_format(first)
    if not isinstance(fmt, str) or not _NATIVE_FORMAT.match(fmt):
        return None
    parsed = func("str.to_datetime", s._expr, format=fmt, unit="us")
    failed = BinOp("and", func("notna", s._expr), func("isna", parsed))
    if _any_true(s._plan, failed):
        return None  # pandas' own parser decides (and raises pandas' ValueError)
    return s._with(parsed)


def _first_valid(s: Any) -> str | None:
    """The first non-missing value (pandas guesses the format from it)."""
    plan = L.Slice(0, 1, L.Select((("v", s._expr),), L.Filter(func("notna", s._expr), s._plan)))
    values = Series._from_frame_plan(plan).tolist()
    return values[0] if values else None
