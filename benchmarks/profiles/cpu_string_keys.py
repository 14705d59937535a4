"""Interleaved A/B of the CPU engine's group-by on held key codes (``kernels._held_codes``) and
the branchless median selection (``ordered.kth_smallest``) against the same engine without them
(no codes kept; the median by ``np.partition``, as before), with pandas alongside as the
yardstick, in ONE process: on a loaded machine only ratios taken side by side mean anything.

    GFRAME_PROGRESS=0 GFRAME_ENGINE=cpu python benchmarks/profiles/cpu_string_keys.py --rows 1e7 --rounds 3

Each round runs every question once per variant (pandas, gframe without held codes, gframe with
them), alternating, ``gc.collect()`` before each run; the best of the rounds is printed. Answers of
the two gframe variants are checked equal to each other (bit for bit) and to pandas'.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numba  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import gframe  # noqa: E402
from benchmarks import dbbench_questions as Q  # noqa: E402
from benchmarks.dbbench_data import groupby_data  # noqa: E402
from gframe.engines.cpu import kernels as K  # noqa: E402
from gframe.engines.cpu import ordered as O  # noqa: E402


@numba.njit(nogil=True)
def median_before(code, groups, x, rows=None, complete=False):  # ``ordered.group_median`` before: np.partition
    nobs = O.count_values(code, groups, x)
    start, buf = O.bucket_values(code, groups, x, nobs)
    out = np.empty(groups)
    for g in range(groups):
        m = nobs[g]
        if m == 0:
            out[g] = np.nan
            continue
        h = m // 2
        part = np.partition(buf[start[g]:start[g] + m], h)
        upper = part[h]
        out[g] = upper if m % 2 else (upper + part[:h].max()) / 2
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--questions", nargs="*", default=["q1", "q3", "q6", "q7"])
    args = ap.parse_args()
    x = groupby_data(int(args.rows))["x"]
    g = gframe.DataFrame(x)
    len(g)  # resident, as db_benchmark.py makes it (the frame is then a Materialized result)
    held, median = K._held_codes, O.group_median

    def without(*a):  # the engine as before: no codes kept on the source
        return None

    variants = {"pandas": (pd, x, (held, median)), "gframe-old": (gframe, g, (without, median_before)),
                "gframe-new": (gframe, g, (held, median))}
    best: dict[tuple[str, str], float] = {}
    answers: dict[tuple[str, str], pd.DataFrame] = {}
    for q in args.questions:  # warm-up: conversion, numba compilation, the held codes
        for name, (mod, frame, h) in variants.items():
            K._held_codes, O.group_median = h
            ans = Q.PANDAS_API["groupby"][q](mod, x=frame)
            answers[q, name] = ans if mod is pd else ans.to_pandas()
    for _ in range(args.rounds):
        for q in args.questions:
            for name, (mod, frame, h) in variants.items():
                K._held_codes, O.group_median = h
                gc.collect()
                t = time.perf_counter()
                ans = Q.PANDAS_API["groupby"][q](mod, x=frame)
                if mod is not pd:
                    ans = ans.to_pandas()
                dt = time.perf_counter() - t
                best[q, name] = min(best.get((q, name), 1e9), dt)
    K._held_codes, O.group_median = held, median
    for q in args.questions:
        ref = answers[q, "pandas"]
        ok_old = answers[q, "gframe-old"].equals(ref)
        ok_new = answers[q, "gframe-new"].equals(answers[q, "gframe-old"])
        p, o, n = best[q, "pandas"], best[q, "gframe-old"], best[q, "gframe-new"]
        print(f"{q:4s} {Q.GROUPBY_TITLES[q]:32s} pandas {p:.4f}  old {o:.4f} ({p / o:.2f}x)  "
              f"new {n:.4f} ({p / n:.2f}x)  old==pandas {ok_old}  new==old {ok_new}")


if __name__ == "__main__":
    main()
