"""Which strategy runs a UDF: tracing, then Numba; else ``(None, reason)`` and the frontend runs it
through pandas (recorded with the reasons). This package builds plans and expressions only: it
makes new frontend objects from the ones it is given, and imports no frontend module."""
from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from gframe.udf import compiled, trace
from gframe.udf.base import NotCompilable


def _first_native(attempts: list[tuple[str, Callable[[], Any]]]) -> tuple[Any, list[str]]:
    """Run each strategy until one succeeds; collect why the others declined."""
    reasons = []
    for name, attempt in attempts:
        try:
            return attempt(), reasons
        except NotCompilable as e:
            reasons.append(f"{name}: {e}")
    return None, reasons


def _fallback_reason(reasons: list[str]) -> str:
    return "UDF not native (" + "; ".join(reasons) + ")" if reasons else "UDF not native"


def map_series(series: Any, arg: Any, na_action: Any = None) -> tuple[Any, str]:
    """``Series.map(arg)`` / ``Series.apply(func)``: (the native Series, "") or (None, why not)."""
    reasons: list[str] = []
    if callable(arg) and not isinstance(arg, (dict, pd.Series)) and not hasattr(arg, "_plan"):
        out, reasons = _first_native([
            ("trace", lambda: trace.map_series(series, arg, na_action)),
            ("numba", lambda: compiled.map_series(series, arg, na_action)),
        ])
        if out is not None:
            return out, ""
    return None, _fallback_reason(reasons) if reasons else "mapping argument not native"


def apply_frame(df: Any, func: Any, axis: Any = 0, raw: bool = False, result_type: Any = None,
                args: tuple = (), **kwargs: Any) -> tuple[Any, str]:
    """``DataFrame.apply``: row-wise (axis=1) functions natively: (the Series, "") or (None, why not)."""
    reasons: list[str] = []
    if axis in (1, "columns") and not raw and result_type is None and not args and not kwargs and callable(func):
        out, reasons = _first_native([
            ("trace", lambda: trace.apply_rows(df, func)),
            ("numba", lambda: compiled.apply_rows(df, func)),
        ])
        if out is not None:
            return out, ""
    return None, _fallback_reason(reasons) if reasons else "column-wise or raw apply not native"


def groupby_apply(gb: Any, func: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``GroupBy.apply(func)``: a traced function becomes an aggregation plan; else pandas."""
    reasons: list[str] = []
    if callable(func) and not args and not kwargs:
        out, reasons = _first_native([("trace", lambda: trace.groupby_apply(gb, func))])
        if out is not None:
            return out
    return gb._fallback_reason("apply", _fallback_reason(reasons) if reasons else "UDF with arguments", func,
                               *args, **kwargs)
