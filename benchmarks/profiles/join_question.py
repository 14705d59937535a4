"""Where a db-benchmark join question's time goes on the GPU engine, as the benchmark asks it.

The frames built once from pandas (``gframe.DataFrame(pandas_df)``), then per question the merge,
``len`` of the answer and each value column's ``sum`` (``float(...)``: the checksum), each piece
timed with a device sync around it, then a cProfile of the whole question (Python's share: the
frontend, the optimizer and the engine's calls). Run on the GPU machine:

    GFRAME_ENGINE=gpu python benchmarks/profiles/join_question.py --rows 1e7 [--profile q1,q5]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from phase_timers import clocked, profile_calls  # noqa: E402  (benchmarks/profiles/)
from gpu_join_profile import QUERIES, make  # noqa: E402  (benchmarks/: the data and the questions)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--profile", default="q1,q5")
    args = ap.parse_args()
    import gframe
    from gframe.engines.gpu.exchange import synchronize

    data = {k: v.to_pandas() for k, v in make(int(args.rows)).items()}
    frames = {k: gframe.DataFrame(v) for k, v in data.items()}
    for f in frames.values():
        len(f)
    synchronize()


    def question(q):
        ans = q(frames["x"], frames["small"], frames["medium"], frames["big"])
        return [len(ans), float(ans["v1"].sum()), float(ans["v2"].sum())]

    for title, q in QUERIES.items():
        question(q)  # warm
        best: dict[str, float] = {}
        for _ in range(args.repeat):
            gc.collect()
            t_all, _ = clocked(lambda: question(q))
            t_m, ans = clocked(lambda: q(frames["x"], frames["small"], frames["medium"], frames["big"]))
            t_len, _ = clocked(lambda: len(ans))
            t_v1, _ = clocked(lambda: float(ans["v1"].sum()))
            t_v2, _ = clocked(lambda: float(ans["v2"].sum()))
            for k, v in (("question", t_all), ("merge (lazy)", t_m), ("len (runs the merge)", t_len),
                         ("v1.sum", t_v1), ("v2.sum", t_v2)):
                best[k] = min(best.get(k, 1e9), v)
        print(f"== {title}: " + "  ".join(f"{k} {v * 1e3:.2f} ms" for k, v in best.items()), flush=True)

    for name in [s for s in args.profile.split(",") if s]:
        title = next(t for t in QUERIES if t.startswith(name + " "))
        q = QUERIES[title]
        profile_calls(title, lambda: question(q), rows=40)


if __name__ == "__main__":
    main()
