"""Where a db-benchmark group-by question's time goes on the GPU engine, as the benchmark asks it.

The frame built once from pandas (``gframe.DataFrame(pandas_df)``), then per question the group-by,
``len`` of the answer (runs it) and each checksum column's ``sum`` (``float(...)``), each piece
timed with a device sync around it; then a cProfile of whole questions (Python's share: the
frontend, the optimizer, the engine's calls, numba-cuda's launches). Run on the GPU machine:

    GFRAME_ENGINE=gpu python benchmarks/profiles/groupby_question.py --rows 1e7 [--questions q3,q4,q5] [--profile q4]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from phase_timers import clocked, profile_calls  # noqa: E402  (benchmarks/profiles/)
import dbbench_data as D  # noqa: E402  (benchmarks/: the data and the questions)
import dbbench_questions as Q  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--questions", default="q3,q4,q5")
    ap.add_argument("--profile", default="q4")
    args = ap.parse_args()
    import gframe
    from gframe.engines.gpu.exchange import synchronize

    x = gframe.DataFrame(D.make_data("groupby", int(args.rows))["x"])
    len(x)
    synchronize()


    def question(q):
        ans = getattr(Q, "g_" + q)(gframe, x)
        return [len(ans)] + [float(ans[c].sum()) for c in Q.flat_chk(Q.CHK["groupby"][q])]

    for q in args.questions.split(","):
        question(q)  # warm
        best: dict[str, float] = {}
        ans = None
        for _ in range(args.repeat):
            ans = None  # (the last run's answer would let the next one hit the result cache)
            gc.collect()
            t_all, _ = clocked(lambda: question(q))
            t_g, ans = clocked(lambda: getattr(Q, "g_" + q)(gframe, x))
            t_len, _ = clocked(lambda: len(ans))
            parts = [("question", t_all), ("group-by (lazy)", t_g), ("len (runs it)", t_len)]
            for c in Q.flat_chk(Q.CHK["groupby"][q]):
                parts.append((f"{c}.sum", clocked(lambda: float(ans[c].sum()))[0]))
            for k, v in parts:
                best[k] = min(best.get(k, 1e9), v)
        print(f"== {q}: " + "  ".join(f"{k} {v * 1e3:.2f} ms" for k, v in best.items()), flush=True)

    for q in [s for s in args.profile.split(",") if s]:
        profile_calls(q, lambda: question(q), rows=45)


if __name__ == "__main__":
    main()
