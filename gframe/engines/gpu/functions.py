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
