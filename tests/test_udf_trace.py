"""Traced UDFs: map / apply / apply(axis=1) / groupby.apply become native plans, with pandas' answers.

``native`` runs the gframe side with ``fallback="raise"``, so a test that passes there proves the
function was traced, not run through pandas. Functions tracing must refuse are checked to still give
pandas' answer (through Numba or pandas).
"""
import math

import numpy as np
import pandas
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gframe
from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "k": ["b", "a", "b", None, "a", "c", "b", None, "a", "d"],
    "n": [1, 2, 1, 3, 2, 1, 3, 2, 1, 4],
    "v1": [1.0, NaN, 3.0, 4.0, 5.0, NaN, 7.0, 8.0, 2.0, 1.0],
    "v2": [10, 20, 35, 40, 50, 60, 70, 80, 90, 5],
}


def frame(pd, data=DATA):
    return pd.DataFrame(data)


def native(fn, **kw):
    """Compare with pandas; the gframe side must not fall back."""
    def run(pd):
        if pd is gframe:
            with gframe.option_context(fallback="raise"):
                out = fn(pd)
                return out.to_pandas() if hasattr(out, "to_pandas") else out
        return fn(pd)

    return assert_matches_pandas(run, **kw)


# ------------------------------------------------------------------------------ Series.map / apply

MAPS = [
    lambda v: v * 2 + 1,
    lambda v: 1 - v / 4,
    lambda v: (v - 1) ** 2,
    lambda v: v // 3 + v % 3,
    lambda v: 10 > v,
    lambda v: (v > 2) & (v < 8),
    lambda v: abs(-v),
    lambda v: np.sqrt(v) + np.log1p(v),
]


@pytest.mark.parametrize("f", MAPS)
@pytest.mark.parametrize("col", ["v1", "v2", "n"])
def test_map_traced(f, col):
    native(lambda pd: frame(pd)[col].map(f))
    native(lambda pd: frame(pd)[col].apply(f))


def test_map_keeps_index_and_name():
    native(lambda pd: frame(pd).set_index("k")["v2"].map(lambda v: v * 3))
    native(lambda pd: frame(pd).sort_values("v2", ascending=False)["v1"].map(lambda v: v + 1).head(3))


def test_map_round_on_floats():
    native(lambda pd: frame(pd)["v1"].map(lambda v: round(v / 3, 2)))


def test_map_na_action_ignore():
    native(lambda pd: frame(pd)["v1"].map(lambda v: v * 2, na_action="ignore"))


def test_map_one_row():
    native(lambda pd: pd.Series([2.5]).map(lambda v: v * v))


@pytest.mark.parametrize("f", [
    lambda v: v * 2 if v > 2 else -v,          # branches
    lambda v: math.floor(v),                   # a Python int from a float
    lambda v: float(v) + 1,                    # conversion
    lambda v: str(v),                          # not a number
    lambda v: 7,                               # constant
])
def test_map_not_traced_still_matches(f):
    assert_matches_pandas(lambda pd: pd.Series([1.5, 2.5, 3.0, -1.0]).map(f))


def test_map_bool_arithmetic_not_traced():
    # True + True is 2 in Python, True in numpy: tracing must decline
    assert_matches_pandas(lambda pd: pd.Series([True, False, True]).map(lambda v: v + v))


def test_map_empty_gives_pandas_dtype():
    # pandas never calls the function on an empty Series and keeps its dtype
    assert_matches_pandas(lambda pd: pd.Series([], dtype="int64").map(lambda v: v > 1))


def test_map_try_block_not_traced():
    def f(v):
        try:
            return 1 / v
        except ZeroDivisionError:
            return 0.0

    assert_matches_pandas(lambda pd: pd.Series([1.0, 0.0, 4.0]).map(f))


def test_map_error_is_pandas_error():
    for pd in (pandas, gframe):
        with pytest.raises(KeyError):
            pd.Series([1, 2]).map(lambda v: {}[v]).tolist()


# ------------------------------------------------------------------------------ apply(axis=1)

def test_apply_rows_int_and_float_upcast():
    # pandas' row is float64 when int and float columns mix: n * 2 is a float
    native(lambda pd: frame(pd)[["n", "v1", "v2"]].apply(lambda r: r.n * 2, axis=1))
    native(lambda pd: frame(pd)[["n", "v1", "v2"]].apply(lambda r: r["v1"] * r.v2 - r.n, axis=1))


def test_apply_rows_ints_only():
    native(lambda pd: frame(pd)[["n", "v2"]].apply(lambda r: r.n * 2 + r.v2, axis=1))


def test_apply_rows_with_string_column():
    # an object row: each value keeps its own type
    native(lambda pd: frame(pd).apply(lambda r: r.n * 2 + r.v2, axis=1))


def test_apply_rows_predicate_filters():
    native(lambda pd: frame(pd)[frame(pd)[["n", "v2"]].apply(lambda r: r.n * 10 < r.v2, axis=1)])


def test_apply_rows_name_is_the_label_not_a_column():
    data = {"name": [1, 2], "x": [3, 4]}
    assert_matches_pandas(lambda pd: pd.DataFrame(data, index=[7, 8]).apply(lambda r: r.name + r.x, axis=1))


def test_apply_rows_branching_still_matches():
    assert_matches_pandas(lambda pd: frame(pd)[["n", "v2"]].apply(lambda r: r.n if r.v2 > 40 else r.v2, axis=1))


# ------------------------------------------------------------------------------ groupby.apply

def r2(pd):
    return lambda x: pd.Series({"r2": x.corr()["v1"]["v2"] ** 2})


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("as_index", [True, False])
def test_groupby_apply_corr_db_benchmark_q9(sort, dropna, as_index):
    native(lambda pd: frame(pd)[["k", "v1", "v2"]].groupby("k", sort=sort, dropna=dropna, as_index=as_index,
                                                           observed=True).apply(r2(pd)))


def test_groupby_apply_corr_two_keys():
    native(lambda pd: frame(pd)[["k", "n", "v1", "v2"]].groupby(["k", "n"], sort=False, dropna=False,
                                                                as_index=False).apply(r2(pd)))


def test_groupby_apply_several_outputs_common_dtype():
    # an int and a float per group: pandas' Series of them is float64
    native(lambda pd: frame(pd).groupby("k").apply(
        lambda x: pd.Series({"total": x.v2.sum(), "avg": x.v1.mean(), "spread": x.v2.max() - x.v2.min()})))
    native(lambda pd: frame(pd).groupby("k").apply(lambda x: pd.Series({"a": x.v2.sum(), "b": x.n.max(), "c": 1})))


def test_groupby_apply_scalar():
    native(lambda pd: frame(pd).groupby("k").apply(lambda x: x.v2.sum() / x.n.sum()))
    native(lambda pd: frame(pd).groupby("n").apply(lambda x: (x.v1 * x.v2).sum()))
    native(lambda pd: frame(pd).groupby("n").apply(lambda x: (x.v2 > 30).mean()))


def test_groupby_apply_series_groupby():
    native(lambda pd: frame(pd).groupby("k")["v2"].apply(lambda s: s.max() - s.min()))
    native(lambda pd: frame(pd).groupby("k", as_index=False)["v1"].apply(lambda s: s.std()))


def test_groupby_apply_corr_cov_methods():
    native(lambda pd: frame(pd).groupby("n").apply(
        lambda x: pd.Series({"c": x.v1.corr(x.v2), "v": x.v1.cov(x.v2), "v0": x.v1.cov(x.v2, ddof=0)})))


def test_groupby_apply_real_pandas_series_inside():
    # the function builds a *pandas* Series of traced values
    native(lambda pd: frame(pd).groupby("k").apply(lambda x: pandas.Series({"s": x.v2.sum()})))


def test_groupby_apply_one_row_groups_and_constant_columns():
    data = {"k": [1, 2, 2, 3, 3], "v1": [1.0, 2.0, 2.0, 1.0, 5.0], "v2": [3.0, 1.0, 4.0, 2.0, 2.0]}
    native(lambda pd: pd.DataFrame(data).groupby("k").apply(r2(pd)))


def test_groupby_apply_empty_frame():
    data = {"k": pandas.Series([], dtype="str"), "v1": pandas.Series([], dtype="float64"),
            "v2": pandas.Series([], dtype="float64")}
    assert_matches_pandas(lambda pd: pd.DataFrame(data).groupby("k").apply(r2(pd)))


def test_groupby_apply_not_reducing_falls_back():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").apply(lambda x: x.head(1)))
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").apply(lambda x: x.v2.sum() if len(x) > 1 else 0))


def test_groupby_apply_corr_of_strings_raises_like_pandas():
    for pd in (pandas, gframe):
        with pytest.raises(ValueError):
            out = frame(pd)[["n", "k", "v1"]].groupby("n").apply(lambda x: x.corr()["v1"]["v1"])
            out.to_pandas() if hasattr(out, "to_pandas") else out


def test_groupby_apply_include_groups_true_raises():
    for pd in (pandas, gframe):
        with pytest.raises(ValueError, match="include_groups"):
            frame(pd).groupby("k").apply(lambda x: x.v2.sum(), include_groups=True)


def test_groupby_apply_explain_shows_aggregation():
    out = frame(gframe)[["k", "v1", "v2"]].groupby("k").apply(r2(gframe))
    aggs = [a for n in out._plan.walk() if type(n).__name__ == "Aggregate" for _, a in n.aggs]
    assert [a.fn for a in aggs] == ["corr"]


# values on a grid of 1/8: corr of near-subnormal floats differs between any two algorithms
VALUES = st.one_of(st.none(), st.integers(-800, 800).map(lambda i: i / 8))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), VALUES, VALUES), min_size=1, max_size=30))
def test_groupby_apply_corr_property(rows):
    data = {"k": [r[0] for r in rows], "v1": [NaN if r[1] is None else r[1] for r in rows],
            "v2": [NaN if r[2] is None else r[2] for r in rows]}
    native(lambda pd: pd.DataFrame(data).groupby("k", sort=False).apply(
        lambda x: pd.Series({"r": x.v1.corr(x.v2), "c": x.v1.cov(x.v2), "s": (x.v1 * x.v2).sum()})),
        rtol=1e-6, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(st.lists(VALUES, max_size=30), st.sampled_from(MAPS[:6]))
def test_map_property(values, f):
    data = [NaN if v is None else v for v in values] or [1.0]
    native(lambda pd: pd.Series(data).map(f))


def test_series_corr_cov_native():
    g, p = frame(gframe), frame(pandas)
    for a, b in [("v1", "v2"), ("n", "v2"), ("v1", "v1")]:
        for method in ("corr", "cov"):
            with gframe.option_context(fallback="raise"):
                got = getattr(g[a], method)(g[b])
            assert got == pytest.approx(getattr(p[a], method)(p[b]), rel=1e-12)
    with gframe.option_context(fallback="raise"):
        assert g["v1"].cov(g["v2"], ddof=0) == pytest.approx(p["v1"].cov(p["v2"], ddof=0))
        one = gframe.DataFrame({"a": [1.0], "b": [2.0]})
        assert math.isnan(one.a.corr(one.b))
    # Series of different frames: pandas aligns them on the index (through pandas here)
    assert gframe.Series([1.0, 2.0, 4.0]).corr(gframe.Series([3.0, 1.0, 2.0], index=[2, 1, 0])) == pytest.approx(
        pandas.Series([1.0, 2.0, 4.0]).corr(pandas.Series([3.0, 1.0, 2.0], index=[2, 1, 0])))
