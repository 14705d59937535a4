"""gframe quickstart: a pandas script, unchanged but for the import.

Run: python examples/quickstart.py
It writes a small taxi-trips parquet file, runs the pipeline below with gframe (on the GPU when one
is present, else the CPU engine) and with pandas, and checks both give the same answer.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas

import gframe as pd  # instead of: import pandas as pd


def make_trips(path: str, n: int = 200_000, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    fare = rng.gamma(2.0, 7.5, n).round(2)
    pandas.DataFrame({
        "vendor": rng.choice(["CMT", "VTS", "DDS"], n),
        "payment": rng.choice(["card", "cash", "dispute", "no charge"], n, p=[0.6, 0.35, 0.03, 0.02]),
        "passengers": rng.integers(1, 7, n),
        "fare": fare,
        "tip": np.where(rng.random(n) < 0.7, (fare * rng.uniform(0, 0.3, n)).round(2), 0.0),
        "pickup": pandas.Timestamp("2026-01-01") + pandas.to_timedelta(rng.integers(0, 31 * 86400, n), unit="s"),
    }).to_parquet(path)


def pipeline(pd, path: str):  # the same code for gframe and pandas
    df = pd.read_parquet(path)
    df["tip_pct"] = df.tip / df.fare * 100
    out = (df[df.passengers > 1]
           .groupby(["vendor", "payment"], as_index=False)
           .agg(n=("fare", "size"), tip=("tip_pct", "mean"))
           .sort_values("tip", ascending=False))
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        trips = os.path.join(tmp, "trips.parquet")
        make_trips(trips)
        out = pipeline(pd, trips)
        print(out.head())                        # runs here; the same text pandas prints
        out.to_parquet(os.path.join(tmp, "summary.parquet"))
        expected = pipeline(pandas, trips)
        pandas.testing.assert_frame_equal(out.to_pandas(), expected)
        print("\nsame answer as pandas: yes")
        print(f"engine: {pd.options.engine}; fallbacks: {len(pd.fallback_report())}")
        out.explain()


if __name__ == "__main__":
    main()
