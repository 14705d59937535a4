"""The one coercion point: user values (scalars, lists, numpy, pandas, gframe) to plan expressions."""
from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from gframe.plan.expr import Lit
from gframe.plan.schema import is_numeric, is_string


def is_scalar(value: Any) -> bool:
    return value is None or value is pd.NaT or isinstance(
        value, (bool, int, float, str, np.generic, pd.Timestamp, pd.Timedelta, _dt.datetime, _dt.date, _dt.timedelta)
    )


def scalar_value(value: Any) -> Any:
    """A hashable, canonical Python value for a literal (NaN/NaT -> None: missing is null)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, float) and np.isnan(value):
        return None
    if isinstance(value, np.generic):
        if isinstance(value, np.floating) and np.isnan(value):
            return None
        if isinstance(value, np.datetime64):
            return pd.Timestamp(value)
        if isinstance(value, np.timedelta64):
            return pd.Timedelta(value)
        return value.item() if isinstance(value, (np.bool_,)) else value
    if isinstance(value, _dt.datetime) and not isinstance(value, pd.Timestamp):
        return pd.Timestamp(value)
    return value


def literal(value: Any) -> Lit:
    return Lit(scalar_value(value))


# ------------------------------------------------------------------ comparisons with datetime columns

COMPARISONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})


class InvalidComparison(Exception):
    """``value`` cannot be compared with a datetime column: pandas answers ``==`` with all False,
    ``!=`` with all True, and raises ``TypeError`` for an ordering (``invalid_comparison``)."""


def comparison_literal(value: Any, dtype: Any) -> Lit:
    """The literal that ``column <op> value`` compares against, by pandas' rules for a timestamp
    column (``DatetimeArray._validate_comparison_value``): a string is parsed as ``Timestamp(value,
    tz=column's tz)``; a ``datetime``/``np.datetime64``/``Timestamp`` must agree with the column on
    tz-awareness; a bare ``date`` never compares with a timestamp column. The literal takes the
    column's unit where that loses nothing, so the engines compare like with like.

    Any other column type, or a value that is not date-like, gets the plain ``literal``.
    """
    import pyarrow as pa

    if isinstance(dtype, pa.DataType) and pa.types.is_date32(dtype) and isinstance(value, (str, _dt.datetime)):
        # a date column (date32[pyarrow], or pandas' object column of dates) compares with dates
        # only: a string or a datetime / Timestamp is never equal, and an ordering raises
        raise InvalidComparison(value)
    if not (isinstance(dtype, pa.TimestampType) and isinstance(value, (str, _dt.date, np.datetime64))):
        return literal(value)
    if value is pd.NaT or (isinstance(value, np.datetime64) and np.isnat(value)):
        return literal(None)
    tz = dtype.tz
    if isinstance(value, str):
        try:
            ts = pd.Timestamp(value, tz=tz)
        except (ValueError, TypeError, OverflowError) as exc:
            raise InvalidComparison(value) from exc
        if ts is pd.NaT:
            return literal(None)
    elif isinstance(value, (_dt.datetime, np.datetime64)):
        ts = pd.Timestamp(value)
    else:  # a datetime.date that is not a datetime
        raise InvalidComparison(value)
    if (ts.tz is None) != (tz is None):
        raise InvalidComparison(value)
    if tz is not None:
        ts = ts.tz_convert(tz)
    return Lit(ts.as_unit(dtype.unit, round_ok=True) if _on_grid(ts, dtype.unit) else ts)


def _on_grid(ts: pd.Timestamp, unit: str) -> bool:
    return ts.as_unit(unit, round_ok=True) == ts


# an ordering against a value between two ticks of the column's unit is an ordering against the
# next tick (x < v  <=>  x < ceil(v); x > v  <=>  x >= ceil(v)); no tick equals it
_OFF_GRID = {"lt": "lt", "le": "lt", "gt": "ge", "ge": "ge"}


def scalar_operand(op: str, value: Any, dtype: Any) -> tuple[str, Lit]:
    """The operator and right-hand literal of ``column <op> value`` for a column of ``dtype``.

    Comparisons go through ``comparison_literal`` (``InvalidComparison`` propagates to
    ``invalid_comparison``). A timestamp finer than the column's unit is compared exactly, as pandas
    compares it, by moving it to the next tick of the column's unit (the engines would otherwise
    truncate the literal to the column's unit)."""
    if op not in COMPARISONS:
        return op, literal(value)
    lit = comparison_literal(value, dtype)
    if isinstance(lit.value, pd.Timestamp) and dtype is not None and (is_numeric(dtype) or is_string(dtype)):
        raise InvalidComparison(value)  # pandas: a number or a string never equals a Timestamp, nor orders with one
    if isinstance(lit.value, pd.Timestamp) and dtype is not None and pa.types.is_dictionary(dtype):
        return op, lit  # a categorical's categories are looked up exactly (none between two ticks)
    if isinstance(lit.value, pd.Timestamp) and lit.value.unit != dtype.unit and not _on_grid(lit.value, dtype.unit):
        if op not in _OFF_GRID:
            raise InvalidComparison(value)  # == is all False, != all True
        return _OFF_GRID[op], Lit(lit.value.ceil(pd.Timedelta(1, dtype.unit)).as_unit(dtype.unit))
    return op, lit


def invalid_comparison(op: str, column: Any, value: Any, dtype: Any, nullable: bool = False) -> Any:
    """pandas' ``invalid_comparison``: ``==`` is all False, ``!=`` all True (also where the column
    is NaT), an ordering raises ``TypeError``. A nullable column (masked or Arrow: ``nullable``)
    keeps its missing values missing there (``BaseMaskedArray._cmp_method`` / ``ArrowExtensionArray``
    answer NA where the mask is set), so ``df[s != ts]`` drops those rows."""
    from gframe.plan.expr import BinOp, func
    from gframe.plan.schema import pandas_dtype

    if op in ("eq", "ne") and nullable:
        # (a comparison of the column with itself, so the result is a bool of the column's family)
        same = BinOp("and" if op == "eq" else "or", BinOp("eq", column, column), Lit(op == "ne"))
        return func("where", same, func("notna", column), Lit(None))
    if op == "eq":
        return BinOp("and", func("isna", column), Lit(False))
    if op == "ne":
        return BinOp("or", func("notna", column), Lit(True))
    raise TypeError(f"Invalid comparison between dtype={pandas_dtype(dtype)} and {type(value).__name__}")


# ------------------------------------------------------------------ date offsets

_FIXED_OFFSET_KEYS = {"weeks", "days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"}


def is_date_offset(value: Any) -> bool:
    return isinstance(value, pd.offsets.BaseOffset)


def offset_as_timedelta(value: Any, dtype: Any) -> pd.Timedelta | None:
    """A date offset that is a fixed duration on a tz-naive timestamp column (``Hour(2)``,
    ``Day(1)``, ``DateOffset(days=1, hours=2)``) as the ``Timedelta`` pandas adds; None for the
    calendar offsets (months, month ends, business days...), which pandas applies itself."""
    import pyarrow as pa

    if not isinstance(dtype, pa.TimestampType) or dtype.tz is not None:
        return None
    if isinstance(value, pd.offsets.Tick):
        td = pd.Timedelta(value)
    elif isinstance(value, pd.offsets.Day):
        td = pd.Timedelta(days=value.n)
    elif type(value) is pd.DateOffset and value.kwds and set(value.kwds) <= _FIXED_OFFSET_KEYS:
        td = pd.Timedelta(**value.kwds) * value.n
    else:
        return None
    # in the column's unit where that is exact (Hour(3) is a Timedelta of seconds: pandas' result
    # keeps the column's finer unit, and the engines add like units)
    in_unit = td.as_unit(dtype.unit, round_ok=True)
    return in_unit if in_unit == td else td
