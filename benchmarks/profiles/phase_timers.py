"""Device-synchronized phase timers, shared by the profiles (``gpu_groupby_phases.py``,
``scan_phases.py``).

``timed(name, fn)`` wraps a function: while ``ON[0]`` is set, each call's time is added to
``TIMES[name]``, with the device synchronized before and after (``exchange.synchronize``: nothing
to wait for over the host stand-in), so a phase's time is its own and not its predecessors' queued
kernels. Off, the wrapper only forwards (end-to-end timings carry no syncs).
"""
from __future__ import annotations

import collections
import time
from typing import Any, Callable

from gframe.engines.gpu.exchange import synchronize as SYNC

TIMES: dict[str, list[float]] = collections.defaultdict(list)
ON = [False]


def timed(name: str, fn: Callable) -> Callable:
    def wrapper(*a: Any, **k: Any) -> Any:
        if not ON[0]:
            return fn(*a, **k)
        SYNC()
        t0 = time.perf_counter()
        out = fn(*a, **k)
        SYNC()
        TIMES[name].append(time.perf_counter() - t0)
        return out
    return wrapper


def clocked(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call of ``fn``, the device synchronized before and after."""
    SYNC()
    t0 = time.perf_counter()
    out = fn()
    SYNC()
    return time.perf_counter() - t0, out


def profile_calls(title: str, fn: Callable[[], Any], n: int = 20, rows: int = 40) -> None:
    """A cProfile of ``n`` calls of ``fn`` (the device synchronized at the end), printed by
    cumulative and by own time: Python's share of a question (frontend, optimizer, engine calls)."""
    import cProfile
    import pstats

    pr = cProfile.Profile()
    pr.enable()
    for _ in range(n):
        fn()
    SYNC()
    pr.disable()
    print(f"== cProfile, {n} x {title}")
    pstats.Stats(pr).sort_stats("cumulative").print_stats(rows)
    pstats.Stats(pr).sort_stats("tottime").print_stats(rows * 5 // 8)
