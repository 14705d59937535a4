"""The cost of the GPU engine's numpy-order float sums against libcudf's reduction.

``engines/gpu/pairwise.py`` adds a whole column in numpy's pairwise order (pandas' bits);
``GFRAME_GPU_PAIRWISE=0`` takes libcudf's reduction instead. The switch is read at each use, so the
two modes alternate in one process: best of 5 per mode, twice each, on a resident frame of ``n``
rows (float64, a nullable Float64 with 10% missing, int64 for a mean). ``--phases`` then times the
pieces of one numpy-order sum, each with a device sync around it (``phase_timers``): where the time
goes that the kernels do not explain. Run on the GPU machine:

    GFRAME_ENGINE=gpu python benchmarks/profiles/gpu_sums.py 1e7 [--phases]
"""
from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

import gframe as gpd
from gframe.engines.gpu.exchange import synchronize

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phase_timers import ON, TIMES, timed  # noqa: E402  (this folder: the script's own)


def instrument() -> None:
    """Timers around the pieces of ``pairwise.column_sum`` and the kernel calls under it."""
    from gframe.engines.gpu import expressions as E
    from gframe.engines.gpu import kernels as K
    from gframe.engines.gpu import numba_cuda, pairwise

    K._numpy_order_sum = timed("_numpy_order_sum (all)", K._numpy_order_sum)
    pairwise.column_sum = timed("  column_sum", pairwise.column_sum)
    E.nan_to_null = timed("    nan_to_null", E.nan_to_null)
    pairwise._device_sums = timed("    _device_sums", pairwise._device_sums)
    pairwise.segment_sums = timed("      segment_sums (launches)", pairwise.segment_sums)
    numba_cuda.array = timed("      numba views (as_cuda_array)", numba_cuda.array)
    numba_cuda.launch = timed("        launch", numba_cuda.launch)


def phases(questions: list[tuple[str, Callable]]) -> None:
    os.environ["GFRAME_GPU_PAIRWISE"] = "1"
    instrument()
    for name, fn in questions:
        fn()  # warm
        TIMES.clear()
        ON[0] = True
        best_of(fn, 3)
        ON[0] = False
        print(f"== {name} (3 runs, best total)")
        for k, v in TIMES.items():
            print(f"   {k:40s} {min(v) * 1e3:8.3f} ms min  x{len(v) // 3}")


def best_of(fn, repeat: int = 5) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeat):
        gc.collect()
        synchronize()
        t0 = time.perf_counter()
        value = fn()
        synchronize()
        best = min(best, time.perf_counter() - t0)
    return best, value


def main(n: int, with_phases: bool) -> None:
    rng = np.random.default_rng(1)
    missing = np.where(rng.random(n) < 0.1, np.nan, rng.random(n))
    p = pd.DataFrame({"v": rng.random(n), "w": pd.array(missing, dtype="Float64"), "i": rng.integers(0, 1000, n)})
    g = gpd.DataFrame(p)
    len(g)  # resident before the clock
    questions = [("float64 sum", lambda: g["v"].sum()), ("float64 mean", lambda: g["v"].mean()),
                 ("Float64 (10% NA) sum", lambda: g["w"].sum()), ("int64 mean", lambda: g["i"].mean())]
    for name, fn in questions:
        res: dict[str, tuple[float, object]] = {}
        for mode in ("1", "0", "1", "0"):
            os.environ["GFRAME_GPU_PAIRWISE"] = mode
            t, value = best_of(fn)
            res[mode] = (min(t, res.get(mode, (float("inf"), None))[0]), value)
        print(f"{name:24s} numpy order {res['1'][0] * 1e3:7.2f} ms   libcudf {res['0'][0] * 1e3:7.2f} ms   "
              f"values {res['1'][1]!r} / {res['0'][1]!r}", flush=True)
    if with_phases:
        phases(questions)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(int(float(args[0]) if args else 1e7), "--phases" in sys.argv)
