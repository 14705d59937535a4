"""Where a GPU group-by's time goes, and an A/B of one switch of its order-deterministic float
aggregations, in one process: ``--switch segsum`` (default) times the fixed-order numba-cuda group
sums (``engines/gpu/segmented.py``, ``GFRAME_GPU_SEGSUM=1``, the default) against the previous
chunked rolling sums (``GFRAME_GPU_SEGSUM=0``); ``--switch groupcodes`` how the groups are found:
by a hash of the keys (``engines/gpu/groupcodes.py``, the default) or by a stable sort by the keys
(``GFRAME_GPU_GROUPCODES=0``); ``--switch coded`` few groups summed from the rows by their group
numbers (``engines/gpu/coded.py``, the default) or over the runs (``GFRAME_GPU_CODED=0``). db-benchmark's data and questions (``benchmarks/dbbench_data.py``,
``dbbench_questions.py``: sort=False, dropna=False), or with ``--data q1`` TPC-H q1's group-by shape
(4 groups of two string keys, sums and means of price expressions: ``q1_data``).

    GFRAME_ENGINE=gpu python benchmarks/profiles/gpu_groupby_phases.py [--rows 1e7] [--switch segsum]
        [--modes 1,0] [--questions q1,...,q10] [--repeat 3] [--no-phases]

For each question and mode: the best end-to-end time of ``--repeat`` runs (result copied to the
host, device synced, no phase timers) and whether those runs gave the same bits (they must: issue
9), then one run with device-synchronized phase timers (their sync adds a little). Across modes:
whether the results are the same bits, else the largest relative difference of a float result
(it must be at most 1e-12: the modes add in different orders at most). ``--fake`` runs it over
the host stand-in for pylibcudf (a check of the script itself; its times mean nothing, and the
stand-in takes the previous path in both segsum modes).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks/ (the data and the questions)

from phase_timers import ON as PHASES  # noqa: E402  (whether the phase timers run: off for the end-to-end times)
from phase_timers import SYNC, TIMES, timed  # noqa: E402


def instrument() -> None:
    from gframe.engines.gpu import groupcodes as G
    from gframe.engines.gpu import kernels as K

    G.row_hashes = timed("  hash of the keys (xxhash_64)", G.row_hashes)
    G._keys_agree = timed("  check: the runs' keys agree", G._keys_agree)
    G.hash_runs = timed("runs by hash (hash, radix sort, check)", G.hash_runs)
    K._group_rank = timed("runs by key sort (stable sort by keys)", K._group_rank)
    K.SortedGroups.__init__ = timed("SortedGroups.__init__ (all of the runs)", K.SortedGroups.__init__)
    K.GroupLayout.aggregate = timed("GroupLayout.aggregate (ordered aggs)", K.GroupLayout.aggregate)
    K.SortedGroups._pairwise = timed("  _pairwise (chunked sums)", K.SortedGroups._pairwise)
    K.SortedGroups._segment_sums = timed("  _segment_sums (fixed-order kernel)", K.SortedGroups._segment_sums)
    K._aggregate_runs = timed("_aggregate_runs (all after the runs)", K._aggregate_runs)
    from gframe.engines.gpu import coded as C

    C.find = timed("coded: group numbers (hash, distinct, check, codes)", C.find)
    C.group_sums = timed("  coded: group sums (kernels)", C.group_sums)
    K.CodedGroups.exact = timed("  coded: exact aggregations (hash group-by)", K.CodedGroups.exact)
    K.sort_table = timed("sort_table (hash group-by's groups)", K.sort_table)
    K.gather = timed("gather (tables)", K.gather)


def q1_data(n: int) -> Any:
    """TPC-H q1's group-by input at ``n`` rows: l_returnflag / l_linestatus (4 combinations, as
    the data has), quantity, price, discount and tax as lineitem's value ranges."""
    import numpy as np
    import pandas

    rng = np.random.default_rng(1)
    combo = rng.integers(0, 4, n)
    return pandas.DataFrame({
        "l_returnflag": pandas.Series(np.array(["A", "N", "N", "R"])[combo], dtype="str"),
        "l_linestatus": pandas.Series(np.array(["F", "F", "O", "F"])[combo], dtype="str"),
        "l_quantity": rng.integers(1, 51, n).astype("float64"),
        "l_extendedprice": np.round(rng.uniform(900, 105000, n), 2),
        "l_discount": np.round(rng.integers(0, 11, n) * 0.01, 2),
        "l_tax": np.round(rng.integers(0, 9, n) * 0.01, 2),
    })


def q1(pd: Any, li: Any) -> Any:
    """TPC-H q1's aggregation (benchmarks/tpch/queries_pandas.py), without its date filter."""
    li = li.assign(disc_price=li.l_extendedprice * (1 - li.l_discount))
    li = li.assign(charge=li.disc_price * (1 + li.l_tax))
    return li.groupby(["l_returnflag", "l_linestatus"], as_index=False).agg(
        sum_qty=("l_quantity", "sum"), sum_base_price=("l_extendedprice", "sum"),
        sum_disc_price=("disc_price", "sum"), sum_charge=("charge", "sum"), avg_qty=("l_quantity", "mean"),
        avg_price=("l_extendedprice", "mean"), avg_disc=("l_discount", "mean"), count_order=("l_quantity", "size"))


def bits(ans: Any) -> list[bytes]:
    """The answer's columns as bytes (numbers) or values (the rest), in row order."""
    import pandas

    frame = ans if isinstance(ans, pandas.DataFrame) else ans.to_frame()
    out = []
    for i in range(frame.shape[1]):
        a = frame.iloc[:, i].to_numpy()
        out.append(a.tobytes() if a.dtype.kind in "fiub" else repr(a.tolist()).encode())
    return out


def floats(ans: Any) -> list[Any]:
    """The answer's float columns (numpy), for the relative difference across modes."""
    import pandas

    frame = ans if isinstance(ans, pandas.DataFrame) else ans.to_frame()
    return [frame.iloc[:, i].to_numpy() for i in range(frame.shape[1]) if frame.iloc[:, i].dtype.kind == "f"]


def kinds(ans: Any) -> list[str]:
    """The numpy kind of each of the answer's columns."""
    import pandas

    frame = ans if isinstance(ans, pandas.DataFrame) else ans.to_frame()
    return [frame.iloc[:, i].to_numpy().dtype.kind for i in range(frame.shape[1])]


def max_rel_diff(a: list[Any], b: list[Any]) -> float:
    """The largest |x - y| / |y| over the float columns (NaN in both: equal; NaN in one: inf)."""
    import numpy as np

    worst = 0.0
    for x, y in zip(a, b):
        if x.shape != y.shape or not np.array_equal(np.isnan(x), np.isnan(y)):
            return float("inf")
        ok = ~np.isnan(x)
        d = np.abs(x[ok] - y[ok])
        scale = np.abs(y[ok])
        rel = np.where(d == 0, 0.0, d / np.where(scale == 0, 1e-300, scale))
        worst = max(worst, float(rel.max()) if rel.size else 0.0)
    return worst


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="1e7")
    ap.add_argument("--switch", choices=["segsum", "groupcodes", "coded"], default="segsum",
                    help="the environment switch to A/B: GFRAME_GPU_SEGSUM, GFRAME_GPU_GROUPCODES or GFRAME_GPU_CODED")
    ap.add_argument("--data", choices=["dbbench", "q1"], default="dbbench",
                    help="db-benchmark's groupby data and questions, or TPC-H q1's group-by shape")
    ap.add_argument("--modes", default="1,0", help="the switch's values to run, in order")
    ap.add_argument("--questions", default="q1,q2,q3,q4,q5,q6,q7,q8,q9,q10")
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
    from gframe.engines.gpu import coded, groupcodes, segmented

    env = {"segsum": segmented.ENV, "groupcodes": groupcodes.ENV, "coded": coded.ENV}[args.switch]
    n = int(float(args.rows))
    t0 = time.perf_counter()
    x = q1_data(n) if args.data == "q1" else dbbench_data.groupby_data(n)["x"]
    questions, titles = ({"tpch_q1": q1}, {"tpch_q1": "TPC-H q1's group-by"}) \
        if args.data == "q1" else (Q.PANDAS_API["groupby"], Q.GROUPBY_TITLES)
    if args.data == "q1":
        args.questions = "tpch_q1"
    print(f"data: {n:,} rows in {time.perf_counter() - t0:.1f} s")
    if args.switch == "segsum":
        print(f"segmented kernel: {'usable' if segmented.unavailable_reason() is None else segmented.unavailable_reason()}"
              f"{' (the stand-in: previous path)' if args.fake else ''}")
    instrument()
    modes = args.modes.split(",")
    summary: list[str] = []
    failed = False
    with gframe.option_context(engine="gpu"):
        g = gframe.DataFrame(x)
        len(g)
        answers: dict[tuple[str, str], Any] = {}
        for q in args.questions.split(","):
            fn = questions[q]
            line = [q]
            for mode in modes:
                os.environ[env] = mode
                PHASES[0] = False
                fn(gframe, g).to_pandas()  # warm (kernels compiled, caches filled)
                best = float("inf")
                runs = []
                for _ in range(args.repeat):
                    gc.collect()
                    SYNC()
                    t1 = time.perf_counter()
                    ans = fn(gframe, g).to_pandas()
                    SYNC()
                    best = min(best, time.perf_counter() - t1)
                    runs.append(bits(ans))
                stable = all(r == runs[0] for r in runs[1:])
                failed |= not stable
                answers[q, mode] = ans
                print(f"\n== {q} {titles[q]}, {env}={mode}: best {best * 1000:.1f} ms "
                      f"of {args.repeat}, {len(ans):,} groups; run to run: {'the same bits' if stable else 'DIFFERENT BITS'}")
                line.append(f"{env}={mode} {best * 1000:8.1f} ms{'' if stable else ' (NOT DETERMINISTIC)'}")
                if args.no_phases:
                    continue
                TIMES.clear()
                PHASES[0] = True
                gc.collect()
                fn(gframe, g).to_pandas()
                PHASES[0] = False
                for k, v in TIMES.items():
                    print(f"   {k:44s} {sum(v) * 1000:8.1f} ms  x{len(v)}")
            for m in modes[1:]:
                a, b = answers[q, m], answers[q, modes[0]]
                if bits(a) == bits(b):
                    verdict = "the same bits"
                else:  # only float columns may differ, and by at most 1e-12 relative
                    others_same = ([c for c, f in zip(bits(a), kinds(a)) if f != "f"]
                                   == [c for c, f in zip(bits(b), kinds(b)) if f != "f"])
                    rel = max_rel_diff(floats(a), floats(b)) if others_same else float("inf")
                    ok = rel <= 1e-12
                    verdict = f"max relative difference {rel:.2e} ({'<= 1e-12' if ok else 'MORE THAN 1e-12'})"
                    failed |= not ok
                print(f"   results of modes {modes[0]} and {m}: {verdict}")
                line.append(f"vs {m}: {verdict}")
            summary.append("  ".join(line))
    print("\n== summary (best of %d, ms)" % args.repeat)
    print("\n".join(summary))
    if failed:
        print("FAILED: a mode was not deterministic run to run, or the modes differ by more than 1e-12")
        sys.exit(1)

if __name__ == "__main__":
    main()
