"""``to_numeric`` and ``to_timedelta`` (pandas' ``core/tools``; ``to_datetime`` is ``datetimes.py``).

Host data in (a scalar, a list, a numpy array, pandas' own objects) is converted at the edge by
pandas, as a constructor's input is (``to_datetime`` does the same): no gframe data moves, and the
result is what pandas returns (a numpy array, a scalar, a gframe Series / Index wrapping pandas'
answer). A gframe Series of numbers is already numeric: ``to_numeric`` gives its values as they are
(pandas returns the same dtype, name and index). Any other gframe input runs through pandas,
recorded.
"""
from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa

from gframe.frontend.bridge import from_pandas_result, holds_gframe, user_warnings, via_pandas
from gframe.frontend.frame import DataFrame
from gframe.frontend.index import Index
from gframe.frontend.series import Series
from gframe.plan.schema import OBJECT_FAMILIES, is_numeric


def to_numeric(arg: Any, *args: Any, **kwargs: Any) -> Any:
    """pandas.to_numeric."""
    if isinstance(arg, Series) and not args and _numbers_already(arg, kwargs):
        return arg._with(arg._expr)
    return _host_or_trip("to_numeric", pd.to_numeric, arg, args, kwargs)


def to_timedelta(arg: Any, *args: Any, **kwargs: Any) -> Any:
    """pandas.to_timedelta."""
    return _host_or_trip("to_timedelta", pd.to_timedelta, arg, args, kwargs)


def _numbers_already(s: Series, kwargs: dict[str, Any]) -> bool:
    """Whether ``to_numeric(s, **kwargs)`` is ``s`` itself: numbers (ints, floats, bools) in a
    numeric dtype, no ``downcast`` / ``dtype_backend``, and an ``errors`` pandas accepts."""
    if set(kwargs) - {"errors"} or kwargs.get("errors", "raise") not in ("raise", "coerce"):
        return False
    t = s._dtype_arrow
    return t is not None and is_numeric(t) and not pa.types.is_decimal(t) and s._family not in OBJECT_FAMILIES


def _host_or_trip(api: str, fn: Any, arg: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    if isinstance(arg, (Series, DataFrame, Index)) or holds_gframe((args, kwargs)):
        return via_pandas(api, fn, (arg, *args), kwargs, "argument not native")
    # host data: converted at the edge, like a constructor's input; pandas' warnings at the user's line
    with user_warnings():
        out = fn(arg, *args, **kwargs)
    return from_pandas_result(out, api)
