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
