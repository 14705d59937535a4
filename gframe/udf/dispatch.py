"""Which strategy runs a UDF: tracing, then Numba, then pandas (recorded with the reasons)."""
from __future__ import annotations

from typing import Any, Callable

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


def map_series(series: Any, arg: Any, na_action: Any = None) -> Any:
    """``Series.map(arg)`` / ``Series.apply(func)``."""
    import pandas as pd

    from gframe.frontend.bridge import via_pandas

    reasons: list[str] = []
    if callable(arg) and not isinstance(arg, (dict, pd.Series)) and not hasattr(arg, "_plan"):
        from gframe.udf import compiled, trace

        out, reasons = _first_native([
            ("trace", lambda: trace.map_series(series, arg, na_action)),
            ("numba", lambda: compiled.map_series(series, arg, na_action)),
        ])
        if out is not None:
            return out
    return via_pandas("Series.map", pd.Series.map, (series, arg), {"na_action": na_action},
                       _fallback_reason(reasons) if reasons else "mapping argument not native")


def apply_frame(df: Any, func: Any, axis: Any = 0, raw: bool = False, result_type: Any = None,
                args: tuple = (), **kwargs: Any) -> Any:
    """``DataFrame.apply``: row-wise (axis=1) functions natively, the rest through pandas."""
    import pandas as pd

    from gframe.frontend.bridge import via_pandas

    reasons: list[str] = []
    if axis in (1, "columns") and not raw and result_type is None and not args and not kwargs and callable(func):
        from gframe.udf import compiled, trace

        out, reasons = _first_native([
            ("trace", lambda: trace.apply_rows(df, func)),
            ("numba", lambda: compiled.apply_rows(df, func)),
        ])
        if out is not None:
            return out
    return via_pandas("DataFrame.apply", pd.DataFrame.apply, (df, func),
                       dict(axis=axis, raw=raw, result_type=result_type, args=args, **kwargs),
                       _fallback_reason(reasons) if reasons else "column-wise or raw apply not native")


def groupby_apply(gb: Any, func: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``GroupBy.apply(func)``: a traced function becomes an aggregation plan; else pandas."""
    reasons: list[str] = []
    if callable(func) and not args and not kwargs:
        from gframe.udf import trace

        out, reasons = _first_native([("trace", lambda: trace.groupby_apply(gb, func))])
        if out is not None:
            return out
    return gb._fallback_reason("apply", _fallback_reason(reasons) if reasons else "UDF with arguments", func,
                               *args, **kwargs)
