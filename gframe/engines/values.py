"""Values an engine holds, passed as expression parameters (kept apart from ``engines/__init__``
so that the engines' lowering modules can name them without importing the dispatcher)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)
class ColumnValues:
    """The first column of a result an engine holds, as an expression's parameter: the value set of
    ``isin`` against a Series (``orders.o_orderkey.isin(late.l_orderkey)``, TPC-H q4, q16, q20, q22).

    Why not an Arrow array or a tuple of scalars: the values would make a trip through the host, 38
    million keys at sf10 (2 s of q4's 2.5 s on the GPU). Kept as the engine's own table they stay
    in device memory, and the engine that evaluates the expression tests membership there.
    ``nulls_match``: whether a missing value among them matches missing values of the tested
    column (pandas: yes, except for its nullable numbers, whose NA matches nothing)."""

    result: Any  # engines.Result: the native table and the engine that holds it
    nulls_match: bool
