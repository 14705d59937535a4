"""GPU declarations of the ``dt.`` functions: lowering to ``plc.datetime`` (or integer arithmetic on
the timestamps) and, beside each, when it applies (a tz-naive timestamp input)."""
from __future__ import annotations

from typing import Any

import pyarrow as pa

from gframe.engines.gpu.functions import declare
from gframe.engines.gpu.kinds import kind
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
    return None if kind(args[0]) == "ts" else f"{e.fn} of {args[0]}"


def _x(ev: Any, e: Func) -> Any:
    return E.as_column(ev.eval(e.children[0]), ev.n)


@declare(*DT_COMPONENTS, reason=_timestamp)
def _component(ev: Any, e: Func) -> Any:
    """int16 in libcudf, pandas' int32; WEEKDAY is Monday=1, pandas' dayofweek Monday=0."""
    D = plc.datetime
    comp = getattr(D.DatetimeComponent, DT_COMPONENTS[e.fn])
    out = plc.unary.cast(D.extract_datetime_component(_x(ev, e), comp), E.plc_type(I32))
    if e.fn == "dt.dayofweek":
        out = ev.binary("SUB", out, E.Const(1, I32), I32)
    return out


@declare(*DT_FUNCTIONS, reason=_timestamp)
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
