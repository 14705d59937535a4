"""pandas frequencies in the plan: an alias ("h", "15min", "1h30min", "D"...) as a fixed duration.

The plan stores a frequency in one normalized, hashable form: a whole number of nanoseconds.
Parsing uses pandas' own offset parser, so invalid aliases and non-fixed frequencies ("W", "MS")
raise pandas' ``ValueError`` with pandas' message, at the call. Engines turn the nanoseconds into
their own vocabulary (the CPU engine: integer arithmetic on the physical value, epoch-relative
as pandas rounds).
"""
from __future__ import annotations

from typing import Any

UNIT_NANOS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def freq_nanos(freq: Any) -> int:
    """A fixed frequency in nanoseconds (pandas' ``ValueError`` for invalid or non-fixed ones)."""
    from pandas.tseries.frequencies import to_offset

    offset = to_offset(freq)
    return int(offset.nanos)  # ValueError: "<MonthBegin> is a non-fixed frequency"


def freq_in_unit(nanos: int, unit: str) -> int | None:
    """The frequency as a count of ``unit`` ticks; 0 when finer than the unit (rounding is a
    no-op), None when it is not a whole number of ticks."""
    size = UNIT_NANOS[unit]
    if nanos < size:
        return 0
    if nanos % size:
        return None
    return nanos // size

