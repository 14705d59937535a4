"""Where a GPU group-by's time goes, and an A/B of how its order-deterministic float aggregations
find their groups: by a hash of the keys (``engines/gpu/groupcodes.py``, the default) or by a
stable sort by the keys (``GFRAME_GPU_GROUPCODES=0``, the previous path). db-benchmark's data and
questions (``benchmarks/dbbench_data.py``, ``dbbench_questions.py``: sort=False, dropna=False).

    GFRAME_ENGINE=gpu python benchmarks/profiles/gpu_groupby_phases.py [--rows 1e7] [--modes 1,0]
        [--questions q3,q4,q5,q6,q10] [--repeat 3] [--no-phases]

For each question and mode: the best end-to-end time of ``--repeat`` runs (result copied to the
host, device synced, no phase timers), then one run with device-synchronized phase timers
(their sync adds a little), and whether the two modes' results are the same bits (they must be:
each group's rows are added in the same order either way). ``--fake`` runs it over the host
stand-in for pylibcudf (a check of the script itself; its times mean nothing).
"""
from __future__ import annotations

import argparse
import collections
import gc
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/ (the data and the questions)

TIMES: dict[str, list[float]] = collections.defaultdict(list)
PHASES = [False]  # whether the phase timers run (off for the end-to-end times)


def _sync() -> Callable[[], None]:
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy.cuda.runtime.deviceSynchronize
    except Exception:  # noqa: BLE001 - no cupy / no device: the stand-in, nothing to wait for
        pass
    return lambda: None


SYNC = _sync()


def timed(name: str, fn: Callable) -> Callable:
    def wrapper(*a: Any, **k: Any) -> Any:
        if not PHASES[0]:
            return fn(*a, **k)
        SYNC()
        t0 = time.perf_counter()
        out = fn(*a, **k)
        SYNC()
        TIMES[name].append(time.perf_counter() - t0)
        return out
    return wrapper


def instrument() -> None:
    from gframe.engines.gpu import groupcodes as G
    from gframe.engines.gpu import kernels as K

    G.row_hashes = timed("  hash of the keys (xxhash_64)", G.row_hashes)
    G._keys_agree = timed("  check: adjacent keys agree", G._keys_agree)
    G.hash_runs = timed("runs by hash (hash, radix sort, check)", G.hash_runs)
    K._group_rank = timed("runs by key sort (stable sort by keys)", K._group_rank)
    K.SortedGroups.__init__ = timed("SortedGroups.__init__ (all of the runs)", K.SortedGroups.__init__)
    K.SortedGroups.aggregate = timed("SortedGroups.aggregate (ordered aggs)", K.SortedGroups.aggregate)
    K.SortedGroups._pairwise = timed("  _pairwise (chunked sums)", K.SortedGroups._pairwise)
    K._aggregate_runs = timed("_aggregate_runs (all after the runs)", K._aggregate_runs)
    K.sort_table = timed("sort_table (hash group-by's groups)", K.sort_table)
    K.gather = timed("gather (tables)", K.gather)


def bits(ans: Any) -> list[bytes]:
    """The answer's columns as bytes (numbers) or values (the rest), in row order."""
    import pandas

    frame = ans if isinstance(ans, pandas.DataFrame) else ans.to_frame()
    out = []
    for i in range(frame.shape[1]):
        a = frame.iloc[:, i].to_numpy()
        out.append(a.tobytes() if a.dtype.kind in "fiub" else repr(a.tolist()).encode())
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="1e7")
    ap.add_argument("--modes", default="1,0", help="GFRAME_GPU_GROUPCODES values to run, in order")
    ap.add_argument("--questions", default="q3,q4,q5,q6,q10")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-phases", action="store_true")
    ap.add_argument("--fake", action="store_true", help="over the host stand-in (checks the script only)")
    args = ap.parse_args(argv)
    if args.fake:
        from gframe.testing import fake_pylibcudf

        fake_pylibcudf.install()
    import dbbench_data
    import dbbench_questions as Q

    import gframe
    from gframe.engines.gpu import groupcodes

    n = int(float(args.rows))
    t0 = time.perf_counter()
    x = dbbench_data.groupby_data(n)["x"]
    print(f"data: {n:,} rows in {time.perf_counter() - t0:.1f} s")
    instrument()
    modes = args.modes.split(",")
    with gframe.option_context(engine="gpu"):
        g = gframe.DataFrame(x)
        len(g)
        answers: dict[tuple[str, str], list[bytes]] = {}
        for q in args.questions.split(","):
            fn = Q.PANDAS_API["groupby"][q]
            for mode in modes:
                os.environ[groupcodes.ENV] = mode
                PHASES[0] = False
                fn(gframe, g).to_pandas()  # warm (kernels compiled, caches filled)
                best = float("inf")
                for _ in range(args.repeat):
                    gc.collect()
                    SYNC()
                    t1 = time.perf_counter()
                    ans = fn(gframe, g).to_pandas()
                    SYNC()
                    best = min(best, time.perf_counter() - t1)
                answers[q, mode] = bits(ans)
                print(f"\n== {q} {Q.GROUPBY_TITLES[q]}, {groupcodes.ENV}={mode}: best {best * 1000:.1f} ms "
                      f"of {args.repeat}, {len(ans):,} groups")
                if args.no_phases:
                    continue
                TIMES.clear()
                PHASES[0] = True
                gc.collect()
                fn(gframe, g).to_pandas()
                PHASES[0] = False
                for k, v in TIMES.items():
                    print(f"   {k:44s} {sum(v) * 1000:8.1f} ms  x{len(v)}")
            if len(modes) > 1:
                same = all(answers[q, m] == answers[q, modes[0]] for m in modes[1:])
                print(f"   results of modes {modes}: {'the same bits' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
