"""Whole pandas pipelines (read, assign, filter, group, merge, sort, head) against pandas: the
operations meet each other here, and the optimizer rewrites across them."""
from __future__ import annotations

import numpy as np
import pandas
import pytest

from gframe.testing import assert_matches_pandas


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("pipelines")
    rng = np.random.default_rng(1)
    n = 2000
    df = pandas.DataFrame({
        "k": rng.choice(["a", "b", "c", None], n), "g": rng.integers(0, 5, n), "x": rng.random(n),
        "y": np.where(rng.random(n) < .1, np.nan, rng.random(n)),
        "t": pandas.Timestamp("2024-01-01") + pandas.to_timedelta(rng.integers(0, 10**6, n), unit="s")})
    p, c = str(d / "t.parquet"), str(d / "t.csv")
    df.to_parquet(p, row_group_size=300)
    df.to_csv(c, index=False)
    return p, c


OTHER = {"g": [0, 1, 2, 7], "w": [10.0, 20.0, 30.0, 40.0]}

PIPELINES = {
    "assign-filter-agg": lambda pd, p, c: pd.read_parquet(p).assign(z=lambda d: d.x * 2)[lambda d: d.z > 1]
        .groupby("k").agg(n=("x", "count"), u=("g", "nunique")),
    "left-merge-sort-head": lambda pd, p, c: pd.read_parquet(p).merge(pd.DataFrame(OTHER), on="g", how="left")
        .sort_values(["w", "x"]).head(7),
    "dropna-groupby-unsorted": lambda pd, p, c: pd.read_parquet(p)[["k", "y"]].dropna().groupby("k", sort=False).y.mean(),
    "filter-project-tail": lambda pd, p, c: pd.read_parquet(p)[lambda d: (d.x > .5) & d.k.notna()][["t", "k"]].tail(4),
    "csv-size-nullkeys": lambda pd, p, c: pd.read_csv(c).groupby(["k", "g"], dropna=False).size(),
    "csv-dates-hour-nlargest": lambda pd, p, c: pd.read_csv(c, parse_dates=["t"]).assign(h=lambda d: d.t.dt.hour)
        .groupby("h").x.max().nlargest(3),
    "concat-head-tail": lambda pd, p, c: pd.concat([pd.read_parquet(p).head(5), pd.read_parquet(p).tail(5)]).reset_index(),
    "distinct-sort": lambda pd, p, c: pd.read_parquet(p).drop_duplicates(["k", "g"])
        .sort_values(["k", "g"], na_position="first")[["k", "g"]],
    "groupby-head": lambda pd, p, c: pd.read_parquet(p).groupby("g").head(2)[["g", "x"]],
    "set-index-sort-iloc": lambda pd, p, c: pd.read_parquet(p).set_index("t").sort_index().iloc[:5],
    "str-value-counts": lambda pd, p, c: pd.read_parquet(p)["k"].str.upper().value_counts(dropna=False),
    "scalar-in-filter": lambda pd, p, c: (lambda d: d[d.x > d.x.mean()])(pd.read_parquet(p)).shape,
    "agg-dict-lists": lambda pd, p, c: pd.read_parquet(p).groupby("k", as_index=False).agg({"x": ["min", "max"], "y": "sum"}),
    "self-merge-aggregate": lambda pd, p, c: pd.read_parquet(p).merge(
        pd.read_parquet(p)[["g", "x"]].groupby("g", as_index=False).x.mean(), on="g", suffixes=("", "_m")).head(),
}


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_pipeline_matches_pandas(files, name):
    p, c = files
    assert_matches_pandas(lambda pd: PIPELINES[name](pd, p, c))
