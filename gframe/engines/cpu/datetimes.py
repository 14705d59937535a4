"""CPU declarations of the ``dt.`` functions, with pandas' Timestamp semantics (``functions.py``)."""
from __future__ import annotations

from typing import Callable

import polars as pl

from gframe.engines.cpu.expressions import Lowering, polars_type
from gframe.engines.cpu.functions import declare
from gframe.errors import UnsupportedError
from gframe.plan.expr import Func
from gframe.plan.freq import freq_in_unit

Args = "list[pl.Expr]"

# pandas' datetime fields (int32; the Lowering leaves nulls where the input is NaT)
_DT_FIELDS: dict[str, Callable[[pl.Expr], pl.Expr]] = {
    "dt.year": lambda e: e.dt.year(), "dt.month": lambda e: e.dt.month(), "dt.day": lambda e: e.dt.day(),
    "dt.hour": lambda e: e.dt.hour(), "dt.minute": lambda e: e.dt.minute(),
    "dt.second": lambda e: e.dt.second(), "dt.microsecond": lambda e: e.dt.microsecond(),
    "dt.nanosecond": lambda e: e.dt.nanosecond(),
    "dt.dayofweek": lambda e: e.dt.weekday() - 1, "dt.quarter": lambda e: e.dt.quarter(),
    "dt.dayofyear": lambda e: e.dt.ordinal_day(),
}


@declare(*_DT_FIELDS)
def _field(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return _DT_FIELDS[e.fn](args[0]).cast(pl.Int32)


@declare("dt.date")
def _date(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return args[0].dt.date()


@declare("dt.floor", "dt.ceil", "dt.round")
def _rounding(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, dtype = args[0], polars_type(lo.type_of(e.children[0]))
    every = freq_in_unit(int(e.param("freq")), dtype.time_unit)  # ticks of the physical unit
    if not every:
        raise UnsupportedError(f"{e.fn} to {e.param('freq')}ns on a {dtype.time_unit} column")
    return x if every == 1 else _round_datetime(e.fn[3:], x, every, dtype)


def _round_datetime(how: str, x: pl.Expr, every: int, dtype: pl.DataType) -> pl.Expr:
    """pandas' Timestamp floor / ceil / round to ``every`` ticks of the column's unit, relative to
    the epoch, on the physical integers (round: half to even, as pandas)."""
    v = x.cast(pl.Int64)
    q = v // every
    if how == "floor":
        out = q * every
    elif how == "ceil":
        out = -((-v) // every) * every
    else:
        r = v - q * every
        up = (2 * r > every) | ((2 * r == every) & (q % 2 == 1))
        out = (q + up.cast(pl.Int64)) * every
    return out.cast(dtype)


@declare("dt.bin")
def _bin(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """pandas' resample bin label of a calendar frequency (``frontend/resample.py``), midnight of
    the day that names the bin: the Sunday ending the week (W), the month's first (MS) or last (ME)
    day, the quarter's (QE) or year's (YE) last day."""
    x = args[0]
    dtype = polars_type(lo.type_of(e.children[0]))
    day = x.dt.truncate("1d")
    rule = e.param("rule")
    if rule == "W":
        out = day + pl.duration(days=(7 - x.dt.weekday()).cast(pl.Int64))
    elif rule == "MS":
        out = x.dt.truncate("1mo")
    elif rule == "ME":
        out = x.dt.truncate("1mo").dt.offset_by("1mo").dt.offset_by("-1d")
    elif rule == "QE":
        out = x.dt.truncate("1q").dt.offset_by("3mo").dt.offset_by("-1d")
    elif rule == "YE":
        out = x.dt.truncate("1y").dt.offset_by("1y").dt.offset_by("-1d")
    else:
        raise UnsupportedError(f"dt.bin for rule {rule!r}")
    return out.cast(dtype)
