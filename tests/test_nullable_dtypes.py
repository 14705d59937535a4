"""pandas' nullable dtypes (Int*, UInt*, Float*, boolean, string) through gframe's plans.

The plan's schema carries each column's dtype family (``plan/schema.py``): nullable columns stay
nullable after any operation, missing values are ``pd.NA``, comparisons with NA are NA, filters drop
NA rows and ``&``/``|`` are Kleene. Every test runs the same code on pandas and on gframe, natively
(``fallback="raise"``: a trip through pandas would hide a lost dtype).
"""
from __future__ import annotations

import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas


def frame(pd, n=None):
    """The test frame, built by pandas and handed to ``pd.DataFrame`` (the user's way in)."""
    return pd.DataFrame(_frame(pandas, n))


def _frame(pd, n=None):
    df = pd.DataFrame({
        "k": [1, 2, 1, 3, 2],
        "i": pd.array([1, None, 3, 4, None], dtype="Int64"),
        "n": pd.array([1, 2, None, 4, None], dtype="Int64"),
        "u": pd.array([7, 8, None, 1, 2], dtype="UInt16"),
        "f": pd.array([1.5, None, -2.0, 0.0, 3.25], dtype="Float64"),
        "x": [1.0, 2.0, float("nan"), 4.0, 5.0],
        "b": pd.array([True, None, False, True, False], dtype="boolean"),
        "s": pd.array(["a", None, "bc", "a", ""], dtype="string"),
        "t": pd.to_datetime(["2020-01-01", None, "2021-06-30", "2020-01-01", "2022-02-02"]),
        "c": pd.Categorical(["x", "y", None, "x", "y"], categories=["z", "y", "x"]),
    })
    return df if n is None else df.head(n)


@pytest.fixture(autouse=True)
def strict():
    with gframe.option_context(fallback="raise"):
        yield


ROWS = [None, 0, 1]  # all rows, empty, one row


@pytest.mark.parametrize("n", ROWS)
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
def test_comparisons_are_NA_where_an_operand_is(n, op):
    assert_matches_pandas(lambda pd: getattr(frame(pd, n).i, op)(frame(pd, n).n))
    assert_matches_pandas(lambda pd: getattr(frame(pd, n).f, op)(frame(pd, n).x))
    assert_matches_pandas(lambda pd: getattr(frame(pd, n).i, op)(2))


@pytest.mark.parametrize("n", ROWS)
def test_filter_drops_NA_rows(n):
    # the repro: rows where n is NA are not kept by !=
    assert_matches_pandas(lambda pd: (lambda d: d[d.i != d.n])(frame(pd, n)))
    assert_matches_pandas(lambda pd: (lambda d: d[d.f > 0])(frame(pd, n)))
    assert_matches_pandas(lambda pd: (lambda d: d[d.b])(frame(pd, n)))


def test_kleene_logic():
    assert_matches_pandas(lambda pd: (frame(pd).i > 1) | frame(pd).b)
    assert_matches_pandas(lambda pd: (frame(pd).i > 1) & frame(pd).b)
    assert_matches_pandas(lambda pd: ~frame(pd).b)
    assert_matches_pandas(lambda pd: (lambda d: d[(d.i > 1) | d.b])(frame(pd)))


@pytest.mark.parametrize("n", ROWS)
def test_arithmetic_keeps_the_nullable_family(n):
    assert_matches_pandas(lambda pd: frame(pd, n).i + frame(pd, n).n)
    assert_matches_pandas(lambda pd: frame(pd, n).i + frame(pd, n).x)  # masked op numpy -> Float64
    assert_matches_pandas(lambda pd: frame(pd, n).i / frame(pd, n).n)
    assert_matches_pandas(lambda pd: (lambda d: d.i * 2 - d.k)(frame(pd, n)))
    assert_matches_pandas(lambda pd: frame(pd, n).f * 2)
    assert_matches_pandas(lambda pd: frame(pd, n).u + 1)
    assert_matches_pandas(lambda pd: -frame(pd, n).i)
    assert_matches_pandas(lambda pd: frame(pd, n).i.abs())


def test_functions_keep_the_nullable_family():
    assert_matches_pandas(lambda pd: frame(pd).i.isna())  # numpy bool
    assert_matches_pandas(lambda pd: frame(pd).i.isin([1, 4]))  # boolean
    assert_matches_pandas(lambda pd: frame(pd).i.fillna(0))
    with gframe.option_context(fallback="silent"):  # not native yet: pandas' answer all the same
        assert_matches_pandas(lambda pd: frame(pd).i.cumsum())
        assert_matches_pandas(lambda pd: frame(pd).i.shift(1))
        assert_matches_pandas(lambda pd: frame(pd).i.rank())


def test_strings():
    assert_matches_pandas(lambda pd: frame(pd).s.str.len())  # Int64
    assert_matches_pandas(lambda pd: frame(pd).s.str.upper())
    assert_matches_pandas(lambda pd: frame(pd).s.str.contains("a"))  # boolean with NA
    assert_matches_pandas(lambda pd: frame(pd).s.str.startswith("b"))
    assert_matches_pandas(lambda pd: frame(pd).s == "a")
    assert_matches_pandas(lambda pd: (lambda d: d[d.s != "a"])(frame(pd)))
    assert_matches_pandas(lambda pd: frame(pd).s.value_counts())  # counts are int64[pyarrow]


def test_scalar_reductions():
    assert_matches_pandas(lambda pd: frame(pd).i.sum())
    assert_matches_pandas(lambda pd: frame(pd).i.max())
    assert_matches_pandas(lambda pd: frame(pd).i.mean())
    assert_matches_pandas(lambda pd: frame(pd).i.count())
    assert_matches_pandas(lambda pd: frame(pd, 0).i.max())  # pd.NA, not NaN
    assert_matches_pandas(lambda pd: (lambda d: d[d.k > 2].n.min())(frame(pd)))


@pytest.mark.parametrize("n", ROWS)
def test_groupby(n):
    assert_matches_pandas(lambda pd: frame(pd, n).groupby("k").i.sum())
    assert_matches_pandas(lambda pd: frame(pd, n).groupby("k").agg({"i": ["sum", "mean", "count", "max"], "f": "min"}))
    assert_matches_pandas(lambda pd: frame(pd, n).groupby("i").x.count())  # Int64 key as the index
    assert_matches_pandas(lambda pd: frame(pd, n).groupby("s", as_index=False).i.sum())
    assert_matches_pandas(lambda pd: frame(pd, n).set_index("i"))


@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_and_concat_keep_NA(how):
    def run(pd):
        d = frame(pd)[["k", "i", "b", "s"]]
        other = pd.DataFrame(pandas.DataFrame({"k": [1, 5], "y": pandas.array([True, None], dtype="boolean"),
                                               "z": pandas.array([10, None], dtype="Int32")}))
        return d.merge(other, on="k", how=how)

    assert_matches_pandas(run)
    assert_matches_pandas(lambda pd: pd.concat([frame(pd)[["i", "s"]], frame(pd)[["i"]]]))


def test_sort_and_dedup():
    assert_matches_pandas(lambda pd: frame(pd).sort_values("i", kind="stable"))
    assert_matches_pandas(lambda pd: frame(pd).drop_duplicates("b"))
    assert_matches_pandas(lambda pd: frame(pd).dropna())


def test_astype_to_and_from_nullable():
    assert_matches_pandas(lambda pd: frame(pd).x.astype("Int64"))
    assert_matches_pandas(lambda pd: frame(pd).k.astype("Float64"))
    assert_matches_pandas(lambda pd: frame(pd).i.astype("float64"))
    assert_matches_pandas(lambda pd: frame(pd).k.astype("string"))


def test_astype_fraction_to_Int64_raises_like_pandas():
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: pd.Series([1.5, 2.0]).astype("Int64"))


def test_datetimes_and_categoricals_beside_nullables():
    assert_matches_pandas(lambda pd: (lambda d: d[d.i > 1][["t", "c", "i"]])(frame(pd)))
    assert_matches_pandas(lambda pd: frame(pd).t.dt.year + frame(pd).i)


def test_numpy_bools_that_go_missing_are_object_with_NaN():
    def run(pd):
        left = pd.DataFrame({"k": [1, 2]})
        right = pd.DataFrame({"k": [1], "b": [False]})
        return left.merge(right, on="k", how="left")

    out = assert_matches_pandas(run)
    assert out["b"].iloc[1] != out["b"].iloc[1]  # NaN, not None
    with gframe.option_context(fallback="silent"):  # object -> bool runs through pandas
        assert_matches_pandas(lambda pd: run(pd).assign(b=run(pd)["b"].astype(bool)))
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"b": [True]}), pd.DataFrame({"a": [1]})]))


def test_unordered_categoricals_stay_unordered():
    def run(pd):
        cats = ["z", "y", "x"]
        a = pd.DataFrame(pandas.DataFrame({"k": [1, 2, 3], "c": pandas.Categorical(["x", "y", None], categories=cats)}))
        b = pd.DataFrame(pandas.DataFrame({"k": [1, 4], "c2": pandas.Categorical(["y", "x"], categories=cats)}))
        return a, b

    assert_matches_pandas(lambda pd: run(pd)[0].merge(run(pd)[1], on="k", how="outer"))
    assert_matches_pandas(lambda pd: run(pd)[0].c.fillna("x"))
    assert_matches_pandas(lambda pd: (lambda d: d[d.c.isin([])])(run(pd)[0]))
    assert_matches_pandas(lambda pd: (lambda d: d[d.k > 5].sort_values("c"))(run(pd)[0]))
    assert_matches_pandas(lambda pd: (lambda d: d[d.k > 5].drop_duplicates())(run(pd)[0]))


def test_astype_object_is_kept():
    assert_matches_pandas(lambda pd: frame(pd).k.astype(object))
    assert_matches_pandas(lambda pd: pd.Series([True, False]).astype(object))
