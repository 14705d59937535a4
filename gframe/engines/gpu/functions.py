"""The GPU engine's expression functions: one declaration per function, lowering and check together.

A declaration pairs ``lower`` (evaluate the ``Func`` on the device, given the ``Evaluator``) with
``reason`` (None when ``lower`` applies to these input types and parameters, else the phrase that
``explain()`` and the fallback report show). Placement (``support.expr_reason``) asks ``reason``
before anything runs; the ``Evaluator`` calls ``lower`` of the same declaration. A function with no
declaration here runs on the CPU engine.

The declarations live per family, beside the helpers they share: ``rowwise.py`` (numbers, missing
values, casts), ``strings.py``, ``datetimes.py``, ``window.py`` (functions of the whole column:
shift, duplicated, rank). ``support.py`` imports them all; they reach pylibcudf lazily (``lib.py``)
so that placement runs where no GPU library is installed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import pyarrow as pa

# (Func, its inputs' Arrow types, its own Arrow type) -> None, or why the GPU does not lower it
Reason = Callable[[Any, "list[pa.DataType | None]", "pa.DataType | None"], "str | None"]
# (Evaluator, Func) -> a device column or a Const
Lower = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class GpuFunction:
    name: str
    lower: Lower
    reason: Reason


FUNCTIONS: dict[str, GpuFunction] = {}

# Functions the plan declares that run on the CPU engine, and why (placement reports the reason;
# ``tests/test_registry.py`` checks that every declared function is here or in FUNCTIONS).
HOST_ONLY: dict[str, str] = {
    "str.title": "libcudf's title case is not Python's",
    "str.get": "no GPU lowering of str.get",
    "str.zfill": "no GPU lowering of str.zfill (Python's sign handling)",
    "str.pad": "no GPU lowering of str.pad",
    "str.removeprefix": "no GPU lowering of str.removeprefix",
    "str.removesuffix": "no GPU lowering of str.removesuffix",
    "str.count": "no GPU lowering of str.count (regex matches counted as Python's re.findall)",
    "str.extract": "no GPU lowering of str.extract (one capture group of a regex search)",
    "str.split_get": "the result is an object column (strings in Python objects)",
    "str.to_datetime": "format parsing is pandas' (strptime), not libcudf's",
    "str.isdigit": "Unicode character classes differ in libcudf",
    "str.isalpha": "Unicode character classes differ in libcudf",
    "str.isalnum": "Unicode character classes differ in libcudf",
    "str.isspace": "Unicode character classes differ in libcudf",
    "str.islower": "Unicode case classes differ in libcudf",
    "str.isupper": "Unicode case classes differ in libcudf",
    "dt.nanosecond": "no GPU lowering of dt.nanosecond",
    "dt.date": "the result is an object column (datetime.date objects)",
    "rolling": "pandas' rolling aggregations (running sums, Welford variances, skipped NaN) run on the CPU engine",
    "ewm": "no GPU lowering of exponentially weighted windows",
}


def always(e: Any, args: list[pa.DataType | None], t: pa.DataType | None) -> str | None:
    """The reason of a function the GPU lowers for every input its dtype rule accepts."""
    return None


def declare(*names: str, reason: Reason = always) -> Callable[[Lower], Lower]:
    """Declare the decorated lowering for ``names``, runnable where ``reason`` returns None."""

    def register(lower: Lower) -> Lower:
        for name in names:
            if name in FUNCTIONS:
                raise ValueError(f"GPU function {name!r} declared twice")
            FUNCTIONS[name] = GpuFunction(name, lower, reason)
        return lower

    return register
