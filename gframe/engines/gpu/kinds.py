"""Coarse classes of Arrow types and of literal values, as the GPU engine sees them.

A leaf module (no GPU library, nothing from the engine): the placement decisions in ``support.py``
and every function declaration (``rowwise.py``, ``strings.py``, ``datetimes.py``, ``window.py``)
classify types with the same helpers.
"""
from __future__ import annotations

import datetime as _dt
import re
from typing import Any

import numpy as np
import pyarrow as pa

from gframe.plan.schema import STRING


# ------------------------------------------------------------------------------------------ types

def storable(t: pa.DataType | None) -> bool:
    """Whether a column of Arrow type ``t`` lives on the device (None: decided by the data)."""
    if t is None:
        return True
    if pa.types.is_integer(t) or pa.types.is_floating(t) and not pa.types.is_float16(t) or pa.types.is_boolean(t):
        return True
    if t == STRING:
        return True  # pa.string() is gframe's "strings in an object column": its own rules, on the CPU
    if pa.types.is_timestamp(t):
        return True  # with a time zone: its UTC instants (the zone is the plan's: ``convert.device_type``)
    if pa.types.is_duration(t):
        return True
    if pa.types.is_date32(t):
        return True  # TIMESTAMP_DAYS (date64 is gframe's object column of dates: on the CPU)
    if pa.types.is_decimal(t):
        return t.bit_width <= 128  # DECIMAL128 of its scale (``convert.device_type``); not decimal256
    if pa.types.is_dictionary(t):
        # a categorical: its int32 codes, the categories on the host (``categorical.py``); of values
        # ``astype`` can gather on the device
        v = STRING if pa.types.is_string(t.value_type) else t.value_type
        return kind(v) in CATEGORY_VALUES and storable(v)
    return False


# kinds of the categories of a categorical the device holds
CATEGORY_VALUES = frozenset({"str", "int", "uint", "float", "bool", "ts", "dur", "date"})


def kind(t: pa.DataType | None) -> str:
    """A coarse class of a type: int, uint, float, bool, str, ts (with or without a time zone: see
    ``local_time``), dur, date (date32), dec (decimal), cat (a categorical: its codes on the device),
    num? (unknown) or other."""
    if t is None:
        return "num?"
    if pa.types.is_unsigned_integer(t):
        return "uint"
    if pa.types.is_integer(t):
        return "int"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_boolean(t):
        return "bool"
    if t == STRING:
        return "str"
    if pa.types.is_timestamp(t):
        return "ts"
    if pa.types.is_duration(t):
        return "dur"
    if pa.types.is_date32(t):
        return "date"
    if pa.types.is_decimal(t) and t.bit_width <= 128:
        return "dec"
    if pa.types.is_dictionary(t):
        return "cat"
    return "other"


def local_time(t: pa.DataType | None) -> bool:
    """Whether the device's values of a timestamp column are its wall-clock times: tz-naive, or in
    UTC (the device stores a zoned timestamp's UTC instants, and pylibcudf converts no zones)."""
    return t is not None and pa.types.is_timestamp(t) and (t.tz is None or t.tz in _UTC)


_UTC = frozenset({"UTC", "utc", "Etc/UTC", "+00:00", "Z", "GMT", "Etc/GMT"})


NUMERIC = frozenset({"int", "uint", "float", "bool", "num?"})
INTLIKE = frozenset({"int", "uint", "bool"})


# ------------------------------------------------------------------------------------ literals

def literal_ok(value: Any) -> bool:
    import pandas as pd

    if value is None or isinstance(value, (bool, np.bool_, str)):
        return True
    if isinstance(value, (int, np.integer)):
        return -(2**63) <= int(value) < 2**64
    if isinstance(value, (float, np.floating)):
        return True
    if isinstance(value, pd.Timestamp):
        return True
    if isinstance(value, _dt.datetime):
        return value.tzinfo is None
    if isinstance(value, (pd.Timedelta, _dt.timedelta, _dt.date)):
        return True  # (a datetime.date that is not a datetime: a date32 literal)
    return False


# Regex constructs libcudf reads differently from Python's re (or not at all): lookaround, named
# and non-capturing groups, flags, backreferences, word boundaries, possessive/lazy quantifiers,
# Unicode classes and escapes other than the common ones.
_REGEX_BAD = re.compile(r"\(\?|\\[bBAZzpPUuxN0-9]|\{[^}]*,\}|[*+?}]\?|[*+?}]\+")


def regex_ok(pat: str) -> bool:
    # (the construct check first: a pattern in the engines' dialect - nested classes - would make
    # Python's compile warn "Possible nested set")
    if not pat.isascii() or _REGEX_BAD.search(pat) is not None:
        return False
    try:
        re.compile(pat)
    except re.error:
        return False
    return _REGEX_BAD.search(pat) is None
