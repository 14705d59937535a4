"""Fallback: what gframe does not implement natively runs through pandas, visibly.

A fallback materializes the gframe inputs, converts them to pandas at the edge, calls pandas and
converts the result back into a gframe object (its plan is an in-memory scan whose origin names the
call). Every fallback is recorded (API, reason, rows moved, seconds) in ``fallback_report()``;
``options.fallback="warn"`` warns once per API and ``"raise"`` raises ``FallbackError`` instead of
running. This is the *API-level* fallback; the GPU engine's per-node fallback to the CPU engine is
decided while lowering (``engines/gpu``) and recorded here too.
"""
from __future__ import annotations

import os
import sys
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd

from gframe.config import options
from gframe.errors import FallbackError


@dataclass(frozen=True)
class FallbackEvent:
    api: str
    reason: str
    rows: int
    seconds: float
    kind: str = "pandas"  # "pandas" (API fallback) or "cpu" (a GPU subtree run on the CPU engine)
    bytes_moved: int = 0


_events: list[FallbackEvent] = []
_warned: set[str] = set()


def check(api: str, reason: str) -> None:
    """Call before running ``api`` through pandas: raises in strict mode, warns in warn mode."""
    if options.fallback == "raise":
        raise FallbackError(
            f"{api} is not implemented natively by gframe ({reason}) and would run through pandas; "
            "fallback='raise' (GFRAME_FALLBACK=raise) forbids that"
        )
    if options.fallback == "warn" and api not in _warned:
        _warned.add(api)
        warnings.warn(f"gframe: {api} runs through pandas ({reason})", stacklevel=user_stacklevel())


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` for a warning raised from the caller that points at the first frame outside
    the gframe package (the user's line), however deep inside gframe the call started."""
    frame = sys._getframe(2)  # 0: here, 1: the function warning (stacklevel 1), 2: its caller
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    return level


def record(event: FallbackEvent) -> None:
    _events.append(event)


class FallbackReport(list):
    """The recorded fallbacks (a list of ``FallbackEvent``), printed as a table."""

    def __str__(self) -> str:
        if not self:
            return "no fallbacks"
        rows = [f"{'api':40} {'kind':6} {'rows':>10} {'seconds':>9}  reason"]
        for e in self:
            rows.append(f"{e.api:40} {e.kind:6} {e.rows:>10} {e.seconds:>9.4f}  {e.reason}")
        return "\n".join(rows)

    __repr__ = __str__

    def to_pandas(self) -> pd.DataFrame:
        return pd.DataFrame([e.__dict__ for e in self], columns=["api", "reason", "rows", "seconds", "kind", "bytes_moved"])


def fallback_report(clear: bool = False) -> FallbackReport:
    """All fallbacks recorded so far (``clear=True`` also forgets them)."""
    out = FallbackReport(_events)
    if clear:
        _events.clear()
        _warned.clear()
    return out


# --------------------------------------------------------------------------------- running pandas

def _to_pandas(obj: Any, counter: list[int]) -> Any:
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.index import Index
    from gframe.frontend.series import Series

    if isinstance(obj, (DataFrame, Series, Index)):
        out = obj.to_pandas()
        counter[0] += len(out)
        return out
    if isinstance(obj, PandasProxy):
        return obj._obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to_pandas(o, counter) for o in obj)
    if isinstance(obj, dict):
        return {k: _to_pandas(v, counter) for k, v in obj.items()}
    if callable(obj) and not isinstance(obj, type):
        return _wrap_callable(obj)
    return obj


def _wrap_callable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A user function given to a pandas method may return gframe objects: hand pandas pandas."""

    def call(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return _to_pandas(out, [0]) if _is_gframe(out) else out

    return call


def _is_gframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("gframe.")


def from_pandas_result(obj: Any, api: str) -> Any:
    """Wrap a pandas result as a gframe object (frames, series, indexes); other values pass through."""
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.index import Index
    from gframe.frontend.series import Series

    if isinstance(obj, pd.DataFrame):
        try:
            return DataFrame._from_pandas(obj, origin=f"pandas {api}")
        except (TypeError, ValueError):
            return PandasProxy(obj, api)
    if isinstance(obj, pd.Series):
        try:
            return Series._from_pandas(obj, origin=f"pandas {api}")
        except (TypeError, ValueError):
            return PandasProxy(obj, api)
    if isinstance(obj, pd.Index):
        return Index._from_pandas(obj)
    if isinstance(obj, tuple):
        return tuple(from_pandas_result(o, api) for o in obj)
    if type(obj).__module__.startswith("pandas.") and not isinstance(obj, (pd.Timestamp, pd.Timedelta, pd.Period, pd.Interval)) and obj is not pd.NaT:
        return PandasProxy(obj, api)
    return obj


def call_pandas(api: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], reason: str) -> Any:
    """Run ``fn`` (a pandas callable) on pandas versions of ``args``; record it; wrap the result."""
    check(api, reason)
    t0 = time.perf_counter()
    counter = [0]
    pargs = _to_pandas(args, counter)
    pkwargs = _to_pandas(kwargs, counter)
    out = fn(*pargs, **pkwargs)
    res = from_pandas_result(out, api)
    record(FallbackEvent(api, reason, counter[0], time.perf_counter() - t0))
    return res


class PandasProxy:
    """A pandas object without a gframe counterpart (Rolling, Styler...): calls keep falling back."""

    def __init__(self, obj: Any, api: str) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_api", api)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._obj, name)
        api = f"{self._api}.{name}"
        if callable(attr):
            return lambda *a, **k: call_pandas(api, attr, a, k, "no native equivalent")
        return from_pandas_result(attr, api)

    def __getitem__(self, key: Any) -> Any:
        return from_pandas_result(self._obj[_to_pandas(key, [0])], f"{self._api}[]")

    def __iter__(self) -> Any:
        return iter(self._obj)

    def __len__(self) -> int:
        return len(self._obj)

    def __repr__(self) -> str:
        return repr(self._obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return call_pandas(self._api, self._obj, args, kwargs, "no native equivalent")

    def to_pandas(self) -> Any:
        return self._obj
