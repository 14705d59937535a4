"""The fallback report: every time gframe runs something elsewhere than natively, it is recorded here.

Two kinds of event: an API call the frontend runs through pandas (``gframe.frontend.bridge``,
``via_pandas``) and a GPU subtree the GPU engine runs on the CPU engine (decided while lowering,
``engines/gpu``). This module only checks the mode and keeps the record, so it sits below both the
frontend and the engines and imports neither. Every event (API, reason, rows moved, seconds) shows
in ``fallback_report()``; ``options.fallback="warn"`` warns once per API and ``"raise"`` raises
``FallbackError`` before anything runs.
"""
from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass

import pandas as pd

from gframe.config import options
from gframe.errors import FallbackError


@dataclass(frozen=True)
class FallbackEvent:
    api: str
    reason: str
    rows: int
    seconds: float
    # "pandas" (API fallback), "cpu" (a GPU subtree run on the CPU engine) or "spill" (device memory
    # freed by the GPU engine's spill policy before a node ran again: no fallback, but worth seeing)
    kind: str = "pandas"
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
