"""Where a TPC-H query's parquet scans spend their time on the GPU engine, step by step, next to
libcudf's reader alone and the Polars GPU engine's scan of the same columns: what a faster scan
would have to remove.

    GFRAME_ENGINE=gpu python benchmarks/profiles/scan_phases.py --data /tmp/tpch/sf10 [--queries q1 q10]

Per query (after one warm run): the query's wall time, then one run with the scan's steps timed
(the device synchronized around each step, so a step's time is its own): the footer read and
snapshot at ``read_parquet`` (host), the row groups chosen from statistics, libcudf's read, the
resident store and assembly, the type casts, the filter. Then, for each file the query read, the
reader alone on the same columns (best of 3), and Polars GPU's ``scan_parquet(...).select(...)``
(best of 3) where cudf-polars is installed.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from phase_timers import ON, SYNC, TIMES, timed  # noqa: E402  (this folder: the script's own)

SCANS: list[tuple[str, tuple[str, ...], int, int]] = []  # (path, file columns, row groups read, of)


def instrument() -> None:
    from gframe.engines.gpu import kernels as K
    from gframe.engines.gpu import expressions as E
    from gframe.frontend import readwrite as R
    from gframe.plan import logical as L
    from gframe.plan import source as S

    K.run.register(L.ParquetScan, timed("ParquetScan kernel (all)", K.run.dispatch(L.ParquetScan)))
    read = K._read_parquet

    def read_wrapper(src: Any, names: list[str], groups: list[int]) -> Any:
        if ON[0]:
            SCANS.append((src.path, tuple(names), len(groups), len(src.sizes)))
        return timed("  libcudf read_parquet", read)(src, names, groups)

    K._read_parquet = read_wrapper
    S.FileSnapshot.row_groups = timed("  row groups from statistics", S.FileSnapshot.row_groups)
    S.FileSnapshot.store = timed("  store resident columns", S.FileSnapshot.store)
    S.FileSnapshot.assemble = timed("  assemble resident columns", S.FileSnapshot.assemble)
    S.FileSnapshot.check = timed("  file check (stat)", S.FileSnapshot.check)
    K.boolean_mask = timed("  boolean_mask (scan filter and others)", K.boolean_mask)
    E.cast = timed("  casts (E.cast, all)", E.cast)
    R.parquet_plan = timed("read_parquet: footer, snapshot, plan (host)", R.parquet_plan)


def best(fn: Callable[[], Any], n: int = 3) -> float:
    fn()
    SYNC()
    out = float("inf")
    for _ in range(n):
        gc.collect()
        SYNC()
        t0 = time.perf_counter()
        fn()
        SYNC()
        out = min(out, time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--variant", default="arrow")
    ap.add_argument("--queries", nargs="*", default=["q1", "q3", "q5", "q9", "q10", "q12", "q13", "q18"])
    args = ap.parse_args()

    import pylibcudf as plc

    import gframe
    from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS

    gframe.options.progress = False
    instrument()
    try:
        import cudf_polars  # noqa: F401
        import polars as pl

        has_pl = True
    except Exception:  # noqa: BLE001
        has_pl = False
    v = VARIANTS[args.variant](gframe, args.data)
    for q in args.queries:
        wall = best(lambda: QUERIES[q](v).to_pandas(), 2)
        TIMES.clear()
        SCANS.clear()
        ON[0] = True
        gc.collect()
        t0 = time.perf_counter()
        QUERIES[q](v).to_pandas()
        SYNC()
        t1 = time.perf_counter()
        ON[0] = False
        print(f"== {q}: best run {wall * 1e3:.1f} ms; instrumented run {(t1 - t0) * 1e3:.1f} ms", flush=True)
        for k, ts in TIMES.items():
            print(f"   {k:44} {sum(ts) * 1e3:8.1f} ms  x{len(ts)}")
        for path, names, got, of in SCANS:
            def bare(path: str = path, names: tuple[str, ...] = names) -> Any:
                opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([path])) \
                    .column_names(list(names)).use_pandas_metadata(False).build()
                return plc.io.parquet.read_parquet(opts)
            line = f"   reader alone {os.path.basename(path)} {len(names)} cols ({got}/{of} row groups read): " \
                   f"{best(bare) * 1e3:.1f} ms (all groups)"
            if has_pl:
                engine = pl.GPUEngine(raise_on_fail=True)
                t = best(lambda path=path, names=names: pl.scan_parquet(path).select(list(names)).collect(engine=engine))
                line += f"; Polars GPU scan+select {t * 1e3:.1f} ms"
            print(line, flush=True)


if __name__ == "__main__":
    main()
