"""GPU declarations of the ``dt.`` functions: lowering to ``plc.datetime`` (or integer arithmetic on
the timestamps) and, beside each, when it applies (a timestamp input whose device values are its
wall-clock times - tz-naive or UTC; the calendar fields of a date32 input too)."""
from __future__ import annotations

from typing import Any

import pyarrow as pa

from gframe.engines.gpu.functions import declare
from gframe.engines.gpu.kinds import kind, local_time
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.plan.expr import Func
from gframe.plan.freq import freq_in_unit

Types = "list[pa.DataType | None]"
BOOL, I32, I64 = pa.bool_(), pa.int32(), pa.int64()

# dt.<field> -> DatetimeComponent (int16 in libcudf; pandas' int32 after a cast). WEEKDAY is
# Monday=1..Sunday=7 in libcudf, pandas' dayofweek is Monday=0: one is subtracted.
DT_COMPONENTS = {"dt.year": "YEAR", "dt.month": "MONTH", "dt.day": "DAY", "dt.hour": "HOUR",
                 "dt.minute": "MINUTE", "dt.second": "SECOND", "dt.dayofweek": "WEEKDAY"}
# fields computed by a dedicated libcudf function
DT_FUNCTIONS = {"dt.quarter": "extract_quarter", "dt.dayofyear": "day_of_year"}
DT_ROUNDING = {"dt.floor", "dt.ceil", "dt.round"}


def _timestamp(e: Func, args: Types, t: Any) -> str | None:
    if kind(args[0]) != "ts":
        return f"{e.fn} of {args[0]}"
    if not local_time(args[0]):  # the device holds UTC instants; pylibcudf converts no time zones
        return f"{e.fn} of {args[0]} (local time in a time zone other than UTC: on the CPU)"
    return None


# the calendar fields of a date32 column (TIMESTAMP_DAYS: libcudf extracts them as from a timestamp)
DATE_FIELDS = frozenset({"dt.year", "dt.month", "dt.day", "dt.dayofweek", "dt.quarter", "dt.dayofyear"})


def _timestamp_or_date(e: Func, args: Types, t: Any) -> str | None:
    if kind(args[0]) == "date" and e.fn in DATE_FIELDS:
        return None
    return _timestamp(e, args, t)


def _x(ev: Any, e: Func) -> Any:
    return E.as_column(ev.eval(e.children[0]), ev.n)


@declare(*DT_COMPONENTS, reason=_timestamp_or_date)
def _component(ev: Any, e: Func) -> Any:
    """int16 in libcudf, pandas' int32; WEEKDAY is Monday=1, pandas' dayofweek Monday=0."""
    D = plc.datetime
    comp = getattr(D.DatetimeComponent, DT_COMPONENTS[e.fn])
    out = plc.unary.cast(D.extract_datetime_component(_x(ev, e), comp), E.plc_type(I32))
    if e.fn == "dt.dayofweek":
        out = ev.binary("SUB", out, E.Const(1, I32), I32)
    return out


@declare(*DT_FUNCTIONS, reason=_timestamp_or_date)
def _dt_function(ev: Any, e: Func) -> Any:
    return plc.unary.cast(getattr(plc.datetime, DT_FUNCTIONS[e.fn])(_x(ev, e)), E.plc_type(I32))


@declare("dt.microsecond", reason=_timestamp)
def _microsecond(ev: Any, e: Func) -> Any:
    """pandas' microsecond (0..999999 within the second) = MILLISECOND * 1000 + MICROSECOND."""
    D, x, i32 = plc.datetime, _x(ev, e), E.plc_type(I32)
    ms = plc.unary.cast(D.extract_datetime_component(x, D.DatetimeComponent.MILLISECOND), i32)
    us = plc.unary.cast(D.extract_datetime_component(x, D.DatetimeComponent.MICROSECOND), i32)
    return ev.binary("ADD", ev.binary("MUL", ms, E.Const(1000, I32), I32), us, I32)


def _rounding_reason(e: Func, args: Types, t: Any) -> str | None:
    r = _timestamp(e, args, t)
    if r is not None:
        return r
    freq = e.param("freq")
    ok = isinstance(freq, int) and freq_in_unit(int(freq), args[0].unit)  # type: ignore[union-attr]
    return None if ok else f"{e.fn} to {freq!r}ns on a {args[0]} column"


@declare(*DT_ROUNDING, reason=_rounding_reason)
def _rounding(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e), ev.type_of(e.children[0])
    every = freq_in_unit(int(e.param("freq")), xt.unit)  # ticks of the column's unit
    return x if every == 1 else _round_datetime(ev, e.fn[3:], x, int(every), xt)


def _round_datetime(ev: Any, how: str, x: Any, every: int, xt: pa.DataType) -> Any:
    """pandas' floor / ceil / round to ``every`` ticks, epoch-relative, on the int64 values
    (round: half to even), as the CPU engine computes it."""
    b, i64 = ev.binary, E.plc_type(I64)
    v = plc.unary.bit_cast(x, i64)
    ev_ = E.Const(every, I64)
    q = b("FLOOR_DIV", v, ev_, I64)
    if how == "floor":
        out = b("MUL", q, ev_, I64)
    elif how == "ceil":
        neg = plc.unary.unary_operation(v, plc.unary.UnaryOperator.NEGATE)
        out = plc.unary.unary_operation(b("FLOOR_DIV", neg, ev_, I64), plc.unary.UnaryOperator.NEGATE)
        out = b("MUL", out, ev_, I64)
    else:
        r2 = b("MUL", b("SUB", v, b("MUL", q, ev_, I64), I64), E.Const(2, I64), I64)
        above = b("GREATER", r2, ev_, BOOL)
        tie = b("EQUAL", r2, ev_, BOOL)
        odd = b("EQUAL", b("PYMOD", q, E.Const(2, I64), I64), E.Const(1, I64), BOOL)
        up = b("LOGICAL_OR", above, b("LOGICAL_AND", tie, odd, BOOL), BOOL)
        out = b("MUL", b("ADD", q, plc.unary.cast(up, i64), I64), ev_, I64)
    return plc.unary.bit_cast(out, E.plc_type(xt))


# ------------------------------------------------------------------ resample bins

_TICKS_PER_DAY = {"s": 86_400, "ms": 86_400_000, "us": 86_400_000_000, "ns": 86_400_000_000_000}


@declare("dt.bin", reason=_timestamp)
def _bin(ev: Any, e: Func) -> Any:
    """pandas' resample bin label of a calendar frequency (``frontend/resample.py``): the days since
    the epoch of the day naming the bin, from the date's fields by integer arithmetic (Hinnant's
    days-from-civil), times the ticks of a day, as the column's timestamp type."""
    D, x, xt = plc.datetime, _x(ev, e), ev.type_of(e.children[0])
    b, i64 = ev.binary, E.plc_type(I64)

    def field(name: str) -> Any:
        return plc.unary.cast(D.extract_datetime_component(x, getattr(D.DatetimeComponent, name)), i64)

    def c(v: int) -> Any:
        return E.Const(v, I64)

    tpd = _TICKS_PER_DAY[xt.unit]
    rule = e.param("rule")
    if rule == "W":  # the Sunday on or after the date (WEEKDAY: Monday=1 .. Sunday=7)
        days = b("FLOOR_DIV", plc.unary.bit_cast(x, i64), c(tpd), I64)
        days = b("ADD", days, b("SUB", c(7), field("WEEKDAY"), I64), I64)
    else:
        year, month = field("YEAR"), field("MONTH")
        if rule == "MS":
            days = _days_from_civil(b, c, year, month)
        else:  # the first day of the next month / quarter / year, less one day
            if rule == "ME":
                last = month
            elif rule == "QE":
                last = b("ADD", b("MUL", b("FLOOR_DIV", b("SUB", month, c(1), I64), c(3), I64), c(3), I64), c(3), I64)
            else:
                last = c(12)
            wrap = plc.unary.cast(b("EQUAL", last, c(12), BOOL), i64)
            next_year = b("ADD", year, wrap, I64)
            next_month = b("ADD", b("PYMOD", last, c(12), I64), c(1), I64)
            days = b("SUB", _days_from_civil(b, c, next_year, next_month), c(1), I64)
    return plc.unary.bit_cast(b("MUL", days, c(tpd), I64), E.plc_type(xt))


def _days_from_civil(b: Any, c: Any, y: Any, m: Any) -> Any:
    """Days since 1970-01-01 of the first of month ``m`` of year ``y`` (int64 columns)."""
    shift = plc.unary.cast(b("LESS_EQUAL", m, c(2), BOOL), E.plc_type(I64))
    y = b("SUB", y, shift, I64)
    era = b("FLOOR_DIV", y, c(400), I64)
    yoe = b("SUB", y, b("MUL", era, c(400), I64), I64)
    mp = b("PYMOD", b("ADD", m, c(9), I64), c(12), I64)
    doy = b("FLOOR_DIV", b("ADD", b("MUL", mp, c(153), I64), c(2), I64), c(5), I64)  # + day 1 - 1
    doe = b("ADD", b("ADD", b("MUL", yoe, c(365), I64), b("FLOOR_DIV", yoe, c(4), I64), I64), doy, I64)
    doe = b("SUB", doe, b("FLOOR_DIV", yoe, c(100), I64), I64)
    return b("SUB", b("ADD", b("MUL", era, c(146097), I64), doe, I64), c(719468), I64)
