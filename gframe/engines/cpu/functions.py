"""The CPU engine's expression functions: one declaration per function, its lowering to Polars.

A declaration maps a function name (``plan/functions.py``) to ``lower(lowering, func, args)``,
where ``args`` are the function's inputs already lowered to Polars expressions and ``lowering``
(``expressions.Lowering``) gives input types and the data. The CPU engine is the reference: it
declares every function the plan declares (``tests/test_registry.py`` checks that). A lowering
that cannot honour some parameters raises ``UnsupportedError``, and the frontend falls back.

The declarations live per family: ``rowwise.py`` (numbers, missing values, casts), ``strings.py``,
``datetimes.py``, ``window.py`` (functions of the whole column: shift, duplicated, rank);
``kernels.py`` imports them all.
"""
from __future__ import annotations

from typing import Any, Callable

import polars as pl

# (Lowering, Func, the lowered inputs) -> the Polars expression
Lower = Callable[[Any, Any, "list[pl.Expr]"], pl.Expr]

FUNCTIONS: dict[str, Lower] = {}


def declare(*names: str) -> Callable[[Lower], Lower]:
    """Declare the decorated lowering for ``names``."""

    def register(lower: Lower) -> Lower:
        for name in names:
            if name in FUNCTIONS:
                raise ValueError(f"CPU function {name!r} declared twice")
            FUNCTIONS[name] = lower
        return lower

    return register
