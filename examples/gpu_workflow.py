"""A GPU workflow: read on the device, stay on the device, look at what moved.

Run: python examples/gpu_workflow.py            (GPU when pylibcudf and a device are present)
     GFRAME_ENGINE=cpu python examples/gpu_workflow.py   (forces the CPU engine)
Where there is no GPU, ``engine="auto"`` picks the CPU engine and the same script runs unchanged.

The points it shows (docs/user-guide/engines.md, docs/user-guide/memory.md):
- the engine is a setting, not code: the same plan runs on either engine with the same results;
- data read by a GPU plan stays resident on the device between queries, so a frame reused by later
  queries is not copied again; only results you look at come back to the host;
- ``explain(analyze=True)`` shows per node where it ran and the bytes moved host<->device;
- a step without a GPU kernel runs on the CPU engine for that node only (placement), and is listed in
  ``gframe.fallback_report()``; ``GFRAME_OOM=cpu`` does the same for a node that runs out of memory.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas

import gframe as pd  # instead of: import pandas as pd
from gframe import engines


def make_events(path: str, n: int = 200_000, seed: int = 4) -> None:
    rng = np.random.default_rng(seed)
    pandas.DataFrame({
        "user": rng.integers(0, 5_000, n),
        "kind": rng.choice(["view", "click", "buy"], n, p=[0.8, 0.17, 0.03]),
        "ms": rng.exponential(300, n).round(1),
        "value": np.where(rng.random(n) < 0.03, rng.gamma(2, 20, n).round(2), 0.0),
    }).to_parquet(path)


def queries(pd, path: str):  # the same code for gframe and pandas
    events = pd.read_parquet(path)
    events = events[events.ms < 5_000]  # one frame, two queries: computed once, kept on the engine
    per_user = (events.groupby("user", as_index=False)
                .agg(events=("kind", "size"), spend=("value", "sum"), mean_ms=("ms", "mean")))
    top = per_user.nlargest(10, "spend").reset_index(drop=True)
    funnel = events.kind.value_counts()
    return top, funnel


def main() -> None:
    reason = engines.gpu_unavailable_reason()
    engine = engines.get_engine().name
    print(f"engine: {engine}" + (f" (no GPU here: {reason})" if reason else ""))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "events.parquet")
        make_events(path)
        top, funnel = queries(pd, path)
        print(top, "\n")
        print(funnel, "\n")
        # per node: engine (gpu / cpu / transfer), time, rows, bytes, bytes moved host<->device
        top.explain(analyze=True)

        # the same plan on the CPU engine gives the same answer, and so does pandas
        with pd.option_context(engine="cpu"):
            cpu_top, cpu_funnel = queries(pd, path)
            pandas.testing.assert_frame_equal(cpu_top.to_pandas(), top.to_pandas())
            pandas.testing.assert_series_equal(cpu_funnel.to_pandas(), funnel.to_pandas())
        want_top, want_funnel = queries(pandas, path)
        pandas.testing.assert_frame_equal(top.to_pandas(), want_top)
        pandas.testing.assert_series_equal(funnel.to_pandas(), want_funnel)
        print("\nsame answer on every engine and in pandas: yes")
        print(pd.fallback_report() or "no fallbacks or CPU placements")


if __name__ == "__main__":
    main()
