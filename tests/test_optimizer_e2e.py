"""End to end: queries the optimizer rewrites give pandas' answer with the optimizer on and off.

Each query runs three ways against pandas: optimizer off, optimizer on, and optimizer on in
verification mode (every execution also runs unoptimized and the two results must be equal).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import gframe
from gframe.testing import assert_matches_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

NaN = float("nan")


@pytest.fixture(autouse=True)
def _optimizer_on():
    """These tests are about the optimizer: on, whatever GFRAME_OPTIMIZE says."""
    with gframe.option_context(optimize=True):
        yield

DATA = {
    "k": [1, 2, 1, 3, 2, 1, 3, 2, None, 1],
    "g": ["x", "y", "x", None, "y", "x", "z", "y", "x", "z"],
    "a": [5, 3, 0, 7, 2, 6, -8, 4, 1, 9],  # no ties: pandas' default sort is not stable
    "b": [1.5, NaN, -2.25, 0.0, 3.0, NaN, 10.5, -1.0, 2.0, 2.5],
    "c": [True, False, True, True, False, False, True, False, True, True],
}
LEFT = {"key": ["a", "b", "b", "c", None, "e"], "lv": [1, 2, 3, 4, 5, 6], "lf": [0.5, 1.5, NaN, 2.5, 3.5, 4.5]}
RIGHT = {"key": ["b", "c", "c", "d", None, "a"], "rv": [10.0, 20.0, 30.0, NaN, 50.0, 60.0], "ri": [1, 2, 3, 4, 5, 6]}


def frame(pd):
    return pd.DataFrame(DATA)


QUERIES = {
    # projection and predicate pushdown
    "filter_then_columns": lambda pd: (lambda d: d[d.a > 1][["g", "b"]])(frame(pd)),
    "columns_then_filter": lambda pd: (lambda d: d[["a", "b"]][d.a > 1])(frame(pd)),
    "assign_then_filter_other_column": lambda pd: frame(pd).assign(z=lambda d: d.a * 2).pipe(lambda d: d[d.b > 0]),
    "assign_then_filter_new_column": lambda pd: frame(pd).assign(z=lambda d: d.a * 2).pipe(lambda d: d[d.z > 3]),
    "two_filters": lambda pd: (lambda d: (lambda e: e[e.b < 3])(d[d.a > 0]))(frame(pd)),
    "filter_and": lambda pd: (lambda d: d[(d.a > 0) & (d.g == "x")])(frame(pd)),
    "filter_or": lambda pd: (lambda d: d[(d.a > 4) | d.b.isna()])(frame(pd)),
    "sort_then_filter": lambda pd: (lambda d: d[d.a > 0])(frame(pd).sort_values("b")),
    "filter_then_reset_index": lambda pd: (lambda d: d[d.a > 0].reset_index(drop=True))(frame(pd)),
    "reset_then_filter": lambda pd: (lambda d: d[d.a > 0])(frame(pd).sort_values("a").reset_index(drop=True)),
    "set_index_then_filter": lambda pd: (lambda d: d[d.b > 0])(frame(pd).set_index("g")),
    "drop_duplicates_then_filter_on_subset": lambda pd: (lambda d: d[d.g != "y"])(frame(pd).drop_duplicates(subset=["g"])),
    "drop_duplicates_then_filter_other": lambda pd: (lambda d: d[d.a > 2])(frame(pd).drop_duplicates(subset=["g"])),
    "not_duplicated_after_sort": lambda pd: (lambda d: d[~d.g.duplicated()])(frame(pd).sort_values("a")),
    "dropna_then_columns": lambda pd: frame(pd).dropna()[["a"]],
    "column_sum_after_filter": lambda pd: (lambda d: d[d.a > 0].b.sum())(frame(pd)),
    "len_after_filter": lambda pd: (lambda d: len(d[d.c]))(frame(pd)),
    # limits and top-k
    "sort_head": lambda pd: frame(pd).sort_values("a").head(3),
    "sort_desc_head": lambda pd: frame(pd).sort_values("b", ascending=False).head(4),
    "sort_na_first_head": lambda pd: frame(pd).sort_values("b", na_position="first").head(3),
    "sort_ties_stable_head": lambda pd: frame(pd).sort_values("c").head(5),
    "sort_two_keys_head": lambda pd: frame(pd).sort_values(["g", "a"], ascending=[True, False]).head(4),
    "sort_str_ties_head": lambda pd: frame(pd).sort_values("g", kind="stable").head(4),
    "sort_desc_ties_head": lambda pd: frame(pd).sort_values("k", ascending=False, kind="stable").head(4),
    "sort_bool_desc_head": lambda pd: frame(pd).sort_values("c", ascending=False, kind="stable").head(3),
    "nlargest_ties": lambda pd: frame(pd).nlargest(4, "k"),
    "sort_head_zero": lambda pd: frame(pd).sort_values("a").head(0),
    "sort_head_more_than_rows": lambda pd: frame(pd).sort_values("a").head(100),
    "filter_sort_head": lambda pd: (lambda d: d[d.a > 0].sort_values("b").head(2))(frame(pd)),
    "sort_iloc_window": lambda pd: frame(pd).sort_values("a").iloc[2:5],
    "sort_columns_head": lambda pd: frame(pd).sort_values("a")[["g", "a"]].head(3),
    "head_of_head": lambda pd: frame(pd).head(6).head(3),
    "columns_head": lambda pd: frame(pd)[["a", "g"]].head(4),
    "tail": lambda pd: frame(pd)[["a"]].tail(3),
    "nlargest": lambda pd: frame(pd).nlargest(3, "a"),
    "nsmallest_head": lambda pd: frame(pd).nsmallest(5, "b").head(2),
    "series_sort_head": lambda pd: frame(pd).b.sort_values().head(3),
    # group-bys
    "sort_then_groupby_sum": lambda pd: frame(pd).sort_values("b").groupby("g").a.sum(),
    "sort_then_groupby_first": lambda pd: frame(pd).sort_values("b").groupby("g").a.first(),
    "sort_then_groupby_unsorted": lambda pd: frame(pd).sort_values("b").groupby("g", sort=False).a.sum(),
    "filter_on_group_key": lambda pd: frame(pd).groupby("g").b.mean().reset_index().pipe(lambda r: r[r.g != "y"]),
    "filter_on_group_value": lambda pd: (lambda s: s[s > 1])(frame(pd).groupby("g").a.sum()),
    "two_aggs_same_keys": lambda pd: (lambda g: g.a.sum() + g.b.mean())(frame(pd).groupby("g")),
    "agg_list": lambda pd: frame(pd).groupby("g").agg({"a": ["sum", "count", "size"], "b": "max"}),
    "agg_same_twice": lambda pd: frame(pd).groupby("k").agg(s1=("a", "sum"), s2=("a", "sum"), n=("a", "size")),
    "value_counts": lambda pd: frame(pd).g.value_counts(),
    "value_counts_after_filter": lambda pd: (lambda d: d[d.a > 0].g.value_counts())(frame(pd)),
    "groupby_as_columns_filter_key": lambda pd: (lambda r: r[r.g != "x"])(frame(pd).groupby("g", as_index=False).a.sum()),
    # joins
    "merge_filter_left": lambda pd: (lambda m: m[m.lv > 1])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key")),
    "merge_filter_right": lambda pd: (lambda m: m[m.rv > 15])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key")),
    "merge_filter_key": lambda pd: (lambda m: m[m.key != "b"])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key")),
    "left_merge_filter_left": lambda pd: (lambda m: m[m.lf > 1])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key", how="left")),
    "left_merge_filter_right": lambda pd: (lambda m: m[m.rv > 15])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key", how="left")),
    "left_merge_int_right_filter_left": lambda pd: (lambda m: m[m.lv > 2])(
        pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT)[["key", "ri"]], on="key", how="left")),
    "right_merge_filter_right": lambda pd: (lambda m: m[m.rv > 15])(pd.DataFrame(LEFT)[["key", "lf"]].merge(pd.DataFrame(RIGHT)[["key", "rv"]], on="key", how="right")),
    "outer_merge_filter": lambda pd: (lambda m: m[m.lf > 1])(pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key", how="outer")),
    "left_merge_then_merge_filter": lambda pd: (lambda m: m[m.lv > 2])(
        pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT)[["key", "ri"]], on="key", how="left")
        .merge(pd.DataFrame({"key": ["a", "b", "c", "e"], "z": [1, 2, 3, 4]}), on="key")),
    "merge_then_two_columns": lambda pd: pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key")[["lv", "rv"]],
    "merge_then_groupby": lambda pd: pd.DataFrame(LEFT).merge(pd.DataFrame(RIGHT), on="key").groupby("key").rv.sum(),
    "self_merge_filtered": lambda pd: (lambda f: f.merge(f, on="key", suffixes=("_l", "_r")))(
        (lambda d: d[d.lv > 1])(pd.DataFrame(LEFT))),
    # shared subplans
    "concat_same_filtered_twice": lambda pd: (lambda f: pd.concat([f, f]))((lambda d: d[d.a > 0])(frame(pd))),
    "concat_filter_after": lambda pd: (lambda u: u[u.a > 2])(pd.concat([frame(pd), frame(pd)], ignore_index=True)),
    "concat_missing_int_column_filter": lambda pd: (lambda u: u[u.b > 0])(
        pd.concat([frame(pd)[["a", "b"]], frame(pd)[["b"]]], ignore_index=True)),
    "series_align_same_frame": lambda pd: (lambda d: d.a + d.b)(frame(pd).pipe(lambda d: d[d.a > 0])),
    # simplification
    "astype_noop": lambda pd: frame(pd).astype({"a": "int64"}).pipe(lambda d: d[d.a > 1]),
    "astype_float_noop": lambda pd: frame(pd).astype({"b": "float64"}).b.sum(),
    "rename_noop": lambda pd: frame(pd).rename(columns={"a": "a"}).head(2),
    "select_all_columns": lambda pd: frame(pd)[list(DATA)].sort_values("a").head(2),
    "assign_chain": lambda pd: frame(pd).assign(x=lambda d: d.a + 1).assign(y=lambda d: d.x * 2)[["y"]],
    "abs_then_filter": lambda pd: frame(pd)[["a"]].abs().pipe(lambda d: d[d.a > 2]),
}


@pytest.mark.parametrize("mode", ["off", "on", "verify"])
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_query_matches_pandas(name, mode):
    with gframe.option_context(optimize=mode != "off", verify_optimizer=mode == "verify"):
        assert_matches_pandas(QUERIES[name])


def test_parquet_queries_match_pandas(tmp_path):
    import pandas

    rng = np.random.default_rng(1)
    n = 2000
    pdf = pandas.DataFrame({"id": np.arange(n), "k": rng.integers(0, 7, n), "v": rng.random(n),
                            "s": rng.choice(["p", "q", None], n), "w": rng.random(n)})
    path = str(tmp_path / "t.parquet")
    pdf.to_parquet(path, row_group_size=250)
    queries = [
        lambda pd: (lambda d: d[d.id < 300][["v", "s"]])(pd.read_parquet(path)),
        lambda pd: (lambda d: d[(d.id >= 1500) & (d.k == 3)].v.sum())(pd.read_parquet(path)),
        lambda pd: (lambda d: d[d.id > 100].groupby("k").w.mean())(pd.read_parquet(path)),
        lambda pd: pd.read_parquet(path)[["s", "k"]].head(7),
        lambda pd: (lambda d: d[d.s == "p"].sort_values("v").head(4))(pd.read_parquet(path)),
        lambda pd: (lambda d: d[d.v > 0.99])(pd.read_parquet(path, columns=["v", "k"])),
        lambda pd: (lambda d: d.merge(d[d.id < 10][["k", "w"]], on="k").v.sum())(pd.read_parquet(path)),
    ]
    for q in queries:
        for on in (False, True):
            with gframe.option_context(optimize=on, verify_optimizer=on):
                assert_matches_pandas(q)


def test_explain_shows_logical_and_optimized(capsys):
    df = gframe.DataFrame(DATA)
    q = df[df.a > 0].sort_values("b").head(2)
    text = q.explain()
    assert "== logical plan ==" in text and "== optimized plan" in text
    assert "TopK k=2" in text.split("== optimized plan")[1]
    logical_only = q.explain(optimized=False)
    assert "optimized plan" not in logical_only and "Slice" in logical_only


def test_explain_shows_shared_subplans():
    df = gframe.DataFrame(DATA)
    f = df[df.a > 0]
    text = gframe.concat([f, f]).explain()
    optimized = text.split("== optimized plan")[1]
    assert "Cache" in optimized and "shared, see above" in optimized


def test_optimizer_off_and_disabled_passes():
    df = gframe.DataFrame(DATA)
    q = df.sort_values("a").head(2)
    with gframe.option_context(optimize=False):
        assert "TopK" not in q.explain()
    with gframe.option_context(disabled_passes={"limit_pushdown"}):
        assert "TopK" not in q.explain().split("== optimized plan")[1]
    assert "TopK" in q.explain().split("== optimized plan")[1]
