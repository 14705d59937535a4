"""The cost of the GPU engine's numpy-order float sums against libcudf's reduction.

``engines/gpu/pairwise.py`` adds a whole column in numpy's pairwise order (pandas' bits);
``GFRAME_GPU_PAIRWISE=0`` takes libcudf's reduction instead. The switch is read at each use, so the
two modes alternate in one process: best of 5 per mode, twice each, on a resident frame of ``n``
rows (float64, a nullable Float64 with 10% missing, int64 for a mean). Run on the GPU machine:

    GFRAME_ENGINE=gpu python benchmarks/profiles/gpu_sums.py 1e7
"""
from __future__ import annotations

import gc
import os
import sys
import time

import numpy as np
import pandas as pd

import gframe as gpd
from gframe.engines.gpu.exchange import synchronize


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


def main(n: int) -> None:
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


if __name__ == "__main__":
    main(int(float(sys.argv[1]) if len(sys.argv) > 1 else 1e7))
