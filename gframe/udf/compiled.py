"""Numba-compiled scalar UDFs (placeholder until the Numba path lands)."""
from __future__ import annotations

from typing import Any

from gframe.udf.base import NotCompilable


def map_series(series: Any, func: Any, na_action: Any = None) -> Any:
    raise NotCompilable("Numba path not built")


def apply_rows(df: Any, func: Any) -> Any:
    raise NotCompilable("Numba path not built")
