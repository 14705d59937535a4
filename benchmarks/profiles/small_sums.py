"""The fixed cost of a GPU ``Series.sum()`` on a small resident column (db-benchmark's checksum
sums the value columns of answers of 100 to 1e5 rows: q4's three sums of 100 values took ~8 ms
of its 24), with numpy's pairwise order (``GFRAME_GPU_PAIRWISE=1``) and libcudf's reduction
(``0``), then a cProfile of the pairwise one.

    GFRAME_ENGINE=gpu python benchmarks/profiles/small_sums.py [--rows 100,100000] [--n 200]
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time

import numpy as np
import pandas as pd


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="100,100000")
    ap.add_argument("--n", type=int, default=200)
    args = ap.parse_args()
    import gframe
    from gframe.engines.gpu.exchange import synchronize

    for rows in (int(float(r)) for r in args.rows.split(",")):
        rng = np.random.default_rng(0)
        g = gframe.DataFrame(pd.DataFrame({"f": rng.random(rows), "i": rng.integers(0, 100, rows)}))
        len(g)
        for col in ("f", "i"):
            s = g[col]
            for mode in ("1", "0"):
                os.environ["GFRAME_GPU_PAIRWISE"] = mode
                float(s.sum())
                synchronize()
                t0 = time.perf_counter()
                for _ in range(args.n):
                    float(s.sum())
                synchronize()
                print(f"rows={rows} col={col} pairwise={mode}: {(time.perf_counter() - t0) / args.n * 1e3:.3f} ms per sum")
        os.environ["GFRAME_GPU_PAIRWISE"] = "1"
        pr = cProfile.Profile()
        pr.enable()
        for _ in range(50):
            float(g["f"].sum())
        pr.disable()
        print(f"== cProfile, rows={rows}, 50 float sums")
        pstats.Stats(pr).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
