"""Where a GPU group-by's time goes (device-synchronized phase timings), for the ordered float
aggregations (``SortedGroups``) against libcudf's hash group-by: db-benchmark-shaped data, 1e7 rows.

    GFRAME_ENGINE=gpu python benchmarks/profiles/gpu_groupby_phases.py [rows]
"""
from __future__ import annotations

import collections
import gc
import sys
import time

import cupy
import numpy as np
import pandas as pd

import gframe as gpd
from gframe.engines.gpu import kernels as K

TIMES: dict[str, list[float]] = collections.defaultdict(list)


def timed(name, fn):
    def wrapper(*a, **k):
        cupy.cuda.runtime.deviceSynchronize()
        t0 = time.perf_counter()
        out = fn(*a, **k)
        cupy.cuda.runtime.deviceSynchronize()
        TIMES[name].append(time.perf_counter() - t0)
        return out
    return wrapper


K._group_rank = timed("group_rank (stable sort by keys)", K._group_rank)
K.SortedGroups.aggregate = timed("SortedGroups.aggregate", K.SortedGroups.aggregate)
K.SortedGroups._pairwise = timed("  _pairwise", K.SortedGroups._pairwise)
K.SortedGroups.__init__ = timed("SortedGroups.__init__", K.SortedGroups.__init__)
K.sort_table = timed("sort_table", K.sort_table)
K.gather = timed("gather", K.gather)
n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
rng = np.random.default_rng(0)
K_ = 100
pdf = pd.DataFrame({
    "id1": pd.Series(rng.integers(1, K_ + 1, n)).map(lambda i: f"id{i:03d}") if n <= 1e6 else np.char.add("id", rng.integers(1, K_ + 1, n).astype(str)),
    "id3": np.char.add("id", rng.integers(1, n // K_ + 1, n).astype(str)),
    "id4": rng.integers(1, K_ + 1, n), "id5": rng.integers(1, K_ + 1, n), "id6": rng.integers(1, n // K_ + 1, n),
    "v1": rng.integers(1, 6, n), "v2": rng.integers(1, 16, n), "v3": np.round(rng.uniform(0, 100, n), 6)})
df = gpd.DataFrame(pdf)
QS = {
    "q3 sum v1 mean v3 by id3": lambda d: d.groupby("id3", observed=True).agg(v1=("v1", "sum"), v3=("v3", "mean")),
    "q4 mean v1:v3 by id4": lambda d: d.groupby("id4").agg(v1=("v1", "mean"), v2=("v2", "mean"), v3=("v3", "mean")),
    "q5 sum v3 by id6": lambda d: d.groupby("id6").agg(v3=("v3", "sum")),
    "q6 median sd v3 by id4 id5": lambda d: d.groupby(["id4", "id5"]).agg(m=("v3", "median"), s=("v3", "std")),
    "float sum by id4 (100 groups)": lambda d: d.groupby("id4").agg(v3=("v3", "sum")),
}
for name, q in QS.items():
    q(df).to_pandas()  # warm
    for _ in range(2):
        TIMES.clear()
        gc.collect()
        cupy.cuda.runtime.deviceSynchronize()
        t0 = time.perf_counter()
        out = q(df).to_pandas()
        total = time.perf_counter() - t0
    print(f"\n== {name}: total {total * 1000:.1f} ms, {len(out)} groups")
    for k, v in TIMES.items():
        print(f"   {k:40s} {sum(v) * 1000:8.1f} ms  x{len(v)}")
