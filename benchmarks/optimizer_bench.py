"""What the optimizer buys, on the CPU engine: the same pandas code with the optimizer on, off, and
with pandas itself.

1. ``scan``: a parquet file of 20 columns (default 10M rows, row groups of 1M rows written in time
   order), a query touching 2 columns with a selective filter. With the optimizer the reader reads
   2 columns and skips the row groups whose statistics exclude the filter; without it, every
   column of every row group is read, then filtered. A second variant filters on an unordered
   column (no row group can be skipped: the gain is the columns alone).
2. ``topk``: ``df[df.x > t].sort_values("y").head(10)`` on an in-memory frame: a top-k (O(n)
   selection) against the full stable sort (``limit_pushdown`` disabled) and pandas.

Each query is timed as the call that produces its result (``to_pandas`` / a scalar); results of
earlier runs are dropped from gframe's cache between runs. The best of ``--repeat`` runs is
reported, and every answer is checked against pandas'.

    GFRAME_ENGINE=cpu python benchmarks/optimizer_bench.py --rows 1e7 --repeat 3
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from typing import Any, Callable

import numpy as np
import pandas

import gframe
from gframe import engines


def make_parquet(path: str, n: int, seed: int = 0) -> None:
    """20 columns: a time-ordered ``ts`` (int64 seconds), a key, 18 measures; written in chunks."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    chunk = 1_000_000
    writer = None
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        cols: dict[str, Any] = {"ts": np.arange(start, start + m, dtype=np.int64) * 3,
                                "k": rng.integers(0, 1000, m, dtype=np.int64)}
        for i in range(18):
            cols[f"m{i:02d}"] = rng.random(m) if i % 3 else rng.integers(0, 1_000_000, m, dtype=np.int64)
        table = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema, compression="snappy")
        writer.write_table(table, row_group_size=chunk)
    assert writer is not None
    writer.close()


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        engines._results.clear()  # no result of an earlier run
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def run_scan(path: str, n: int, repeat: int) -> list[tuple[str, str, float]]:
    cutoff = int(n * 3 * 0.02)  # the first 2% of the time range

    def q_ordered(pd: Any) -> float:
        df = pd.read_parquet(path)
        return float(df[df.ts < cutoff].m01.sum())

    def q_unordered(pd: Any) -> float:
        df = pd.read_parquet(path)
        return float(df[df.m03 < 20_000].m01.sum())  # about 2% of the rows, everywhere in the file

    rows = []
    for name, q in (("scan: filter on time-ordered ts, sum of m01", q_ordered),
                    ("scan: filter on unordered m03, sum of m01", q_unordered)):
        t_pd, want = timed(lambda: q(pandas), repeat)
        with gframe.option_context(optimize=True):
            t_on, got_on = timed(lambda: q(gframe), repeat)
        with gframe.option_context(optimize=False):
            t_off, got_off = timed(lambda: q(gframe), repeat)
        for got in (got_on, got_off):
            assert abs(got - want) <= 1e-9 * max(1.0, abs(want)), (name, got, want)
        rows += [(name, "gframe optimizer on", t_on), (name, "gframe optimizer off", t_off), (name, "pandas", t_pd)]
    return rows


def run_topk(n: int, repeat: int, seed: int = 1) -> list[tuple[str, str, float]]:
    rng = np.random.default_rng(seed)
    pdf = pandas.DataFrame({"x": rng.random(n), "y": rng.random(n), "k": rng.integers(0, 1000, n),
                            "z": rng.random(n)})
    gdf = gframe.DataFrame(pdf)
    t = 0.5

    def q(df: Any) -> Any:
        out = df[df.x > t].sort_values("y").head(10)
        return out if isinstance(out, pandas.DataFrame) else out.to_pandas()

    name = 'topk: df[df.x > t].sort_values("y").head(10)'
    t_pd, want = timed(lambda: q(pdf), repeat)
    with gframe.option_context(optimize=True):
        t_on, got_on = timed(lambda: q(gdf), repeat)
    with gframe.option_context(disabled_passes={"limit_pushdown"}):
        t_sort, got_sort = timed(lambda: q(gdf), repeat)
    with gframe.option_context(optimize=False):
        t_off, got_off = timed(lambda: q(gdf), repeat)
    for got in (got_on, got_sort, got_off):
        pandas.testing.assert_frame_equal(got, want)
    return [(name, "gframe optimizer on (top-k)", t_on), (name, "gframe full sort (limit_pushdown off)", t_sort),
            (name, "gframe optimizer off", t_off), (name, "pandas", t_pd)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", choices=["scan", "topk"], default=None)
    ap.add_argument("--dir", default=None, help="where to write the parquet file (default: a temp dir)")
    args = ap.parse_args()
    n = int(args.rows)
    gframe.options.engine = "cpu"
    rows: list[tuple[str, str, float]] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        if args.only in (None, "scan"):
            path = os.path.join(tmp, "wide.parquet")
            t0 = time.perf_counter()
            make_parquet(path, n)
            print(f"wrote {n:,} rows x 20 columns ({os.path.getsize(path) / 2**20:.0f} MiB) in "
                  f"{time.perf_counter() - t0:.1f}s", flush=True)
            rows += run_scan(path, n, args.repeat)
        if args.only in (None, "topk"):
            rows += run_topk(n, args.repeat)
    print(f"\nrows={n:,} repeat={args.repeat} (best of), CPU engine, {os.cpu_count()} cores\n")
    print("| query | solution | seconds | vs optimizer on |")
    print("|---|---|---:|---:|")
    best: dict[str, float] = {}
    for q, sol, t in rows:
        if "optimizer on" in sol:
            best[q] = t
    for q, sol, t in rows:
        print(f"| {q} | {sol} | {t:.3f} | {t / best[q]:.1f}x |")


if __name__ == "__main__":
    main()
