"""Where each TPC-H query's time goes on gframe: per query, the wall time of a run (IO included,
result brought to the host), then ``explain(analyze=True)`` of the query's final plan from scratch
(the device synchronized after each node, so a node's time is its own) and its slowest nodes.

    GFRAME_ENGINE=gpu python benchmarks/profiles/tpch_nodes.py --data /tmp/tpch/sf10 [--queries q1 q4] [--top 6]

"Eager" is the part of a run outside the final plan: calls that compute a value at once (a scalar
``mean()``, ``isin``'s value set), as pandas computes them. ``--every-plan`` profiles those too: every
plan the query executes is observed (each node's own time, the device synchronized after it), and
the slowest nodes over all of them are listed, with the time outside any node (planning, placement,
results to the host) as the rest.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True)
    ap.add_argument("--variant", default="arrow")
    ap.add_argument("--queries", nargs="*", default=None)
    ap.add_argument("--top", type=int, default=6)
    ap.add_argument("--every-plan", action="store_true", help="profile every plan a query runs, eager ones too")
    args = ap.parse_args()
    if args.every_plan:
        every_plan(args)
        return

    import gframe
    from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS

    gframe.options.progress = False  # the report, not a bar, in the log
    sync = lambda: None  # noqa: E731
    if gframe.options.engine == "gpu":
        from gframe.engines.gpu.exchange import synchronize as sync
    v = VARIANTS[args.variant](gframe, args.data)
    for q in args.queries or list(QUERIES):
        QUERIES[q](v).to_pandas()  # warm: compiled kernels, the file system cache
        gc.collect()
        t0 = time.perf_counter()
        out = QUERIES[q](v)
        sync()
        t1 = time.perf_counter()
        out.to_pandas()
        t2 = time.perf_counter()
        gc.collect()
        out = QUERIES[q](v)
        with contextlib.redirect_stdout(io.StringIO()):  # explain() also prints its report
            analysis = out.explain(analyze=True)
        runs = sorted(analysis.profile.runs, key=lambda r: -r.seconds)
        print(f"== {q}: run {t2 - t0:.3f} s (eager {t1 - t0:.3f} s), final plan {analysis.profile.seconds:.3f} s "
              f"in {len(analysis.profile.runs)} nodes", flush=True)
        for r in runs[: args.top]:
            text = " ".join(r.node.describe().split())
            print(f"   {r.seconds * 1e3:8.1f} ms  {r.engine:4}  {r.rows if r.rows is not None else '':>11}  {text[:110]}")


def every_plan(args: argparse.Namespace) -> None:
    """Each query run once with every plan execution observed (``RunStats(profile=True)``)."""
    import gframe
    from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS
    from gframe import engines

    gframe.options.progress = False
    runs: list = []
    execute = engines._execute

    def observed(engine, physical, stats):  # noqa: ANN001, ANN202
        stats.profile = True
        out = execute(engine, physical, stats)
        runs.extend(stats.runs)
        return out

    engines._execute = observed
    v = VARIANTS[args.variant](gframe, args.data)
    for q in args.queries or list(QUERIES):
        QUERIES[q](v).to_pandas()  # warm
        gc.collect()
        runs.clear()
        t0 = time.perf_counter()
        QUERIES[q](v).to_pandas()
        wall = time.perf_counter() - t0
        in_nodes = sum(r.seconds for r in runs)
        print(f"== {q}: {wall * 1e3:.1f} ms with every node synced; {in_nodes * 1e3:.1f} ms in {len(runs)} nodes, "
              f"{(wall - in_nodes) * 1e3:.1f} ms outside them", flush=True)
        for r in sorted(runs, key=lambda r: -r.seconds)[: args.top]:
            text = " ".join(r.node.describe().split())
            print(f"   {r.seconds * 1e3:8.1f} ms  {r.engine:4}  {r.rows if r.rows is not None else '':>11}  {text[:110]}")


if __name__ == "__main__":
    main()
