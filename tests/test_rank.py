"""``rank``, native on both engines (Series and DataFrame, pandas 3 semantics): every method,
both orders, the three places for missing values, percentages; nulls, NaN, ties, datetimes,
empty and one-row inputs. Arguments gframe does not lower run through pandas, and are recorded."""
import itertools

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

NaN = float("nan")
METHODS = ["average", "min", "max", "first", "dense"]
NA_OPTIONS = ["keep", "top", "bottom"]
VALUES = [3.0, NaN, 1.0, 3.0, None, 2.0, 1.0, 3.0]


@pytest.mark.parametrize("method,na_option,ascending,pct",
                         list(itertools.product(METHODS, NA_OPTIONS, [True, False], [False, True])))
def test_series_rank_floats_with_ties_and_missing(method, na_option, ascending, pct):
    assert_matches_pandas(lambda pd: pd.Series(VALUES, name="v").rank(
        method=method, na_option=na_option, ascending=ascending, pct=pct))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("pct", [False, True])
def test_series_rank_ints_without_missing(method, pct):
    assert_matches_pandas(lambda pd: pd.Series([5, 1, 5, 2, 5, -3], index=list("abcdef")).rank(method=method, pct=pct))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("na_option", NA_OPTIONS)
def test_series_rank_datetimes(method, na_option):
    def fn(pd):
        s = pd.Series(pd.to_datetime(["2024-01-03", None, "2024-01-01", "2024-01-03", "2023-12-31"]))
        return s.rank(method=method, na_option=na_option, ascending=False)

    assert_matches_pandas(fn)


@pytest.mark.parametrize("na_option", NA_OPTIONS)
@pytest.mark.parametrize("pct", [False, True])
def test_series_rank_all_missing(na_option, pct):
    assert_matches_pandas(lambda pd: pd.Series([NaN, NaN, NaN]).rank(na_option=na_option, pct=pct))


@pytest.mark.parametrize("method", METHODS)
def test_series_rank_empty_and_one_row(method):
    assert_matches_pandas(lambda pd: pd.Series([], dtype="float64").rank(method=method, pct=True))
    assert_matches_pandas(lambda pd: pd.Series([7], dtype="int64").rank(method=method, pct=True))
    assert_matches_pandas(lambda pd: pd.Series([NaN]).rank(method=method, na_option="bottom"))


def test_series_rank_bools():
    assert_matches_pandas(lambda pd: pd.Series([True, False, True, True]).rank(method="min"))


@pytest.mark.parametrize("method,na_option,pct", [("average", "keep", False), ("dense", "top", True),
                                                  ("first", "bottom", False), ("max", "top", False)])
def test_frame_rank(method, na_option, pct):
    def fn(pd):
        df = pd.DataFrame({"a": [3, 1, 3, 2], "f": [NaN, 0.5, 0.5, -1.0],
                           "t": pd.to_datetime(["2020-01-02", "2020-01-01", None, "2020-01-01"])})
        return df.rank(method=method, na_option=na_option, pct=pct)

    assert_matches_pandas(fn)


def test_rank_after_filter_uses_the_filtered_rows():
    """rank looks at other rows: a later filter must not be pushed below it."""
    def fn(pd):
        df = pd.DataFrame({"a": [4, 1, 3, 2, 5]})
        r = df.a.rank()
        return r[df.a > 2]

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [4, 1, 3, 2, 5]}).rank().head(2))


def test_rank_is_native():
    gframe.fallback_report(clear=True)
    s = gframe.Series([3.0, NaN, 1.0])
    s.rank(method="dense", na_option="top", pct=True).to_pandas()
    gframe.DataFrame({"a": [1, 2]}).rank().to_pandas()
    assert not [e for e in gframe.fallback_report() if e.kind != "cpu"]


@pytest.mark.parametrize("call", [
    lambda s: s.rank(numeric_only=True),
    lambda s: s.rank(axis=0, method="first", ascending=np.bool_(True)),
])
def test_series_rank_other_arguments_fall_back_recorded(call):
    gframe.fallback_report(clear=True)
    got = call(gframe.Series([2.0, 1.0, 2.0])).to_pandas()
    pandas.testing.assert_series_equal(got, call(pandas.Series([2.0, 1.0, 2.0])))
    assert any(e.api == "Series.rank" for e in gframe.fallback_report())


def test_rank_of_object_strings_falls_back_recorded():
    """An object column's strings are Python's to order (``str`` / ``string`` columns rank natively, below)."""
    gframe.fallback_report(clear=True)
    assert_matches_pandas(lambda pd: pd.DataFrame({"s": pd.Series(["b", "a", None, "b"], dtype=object),
                                                   "a": [1, 2, 3, 4]}).rank())
    assert any(e.api == "DataFrame.rank" for e in gframe.fallback_report())


@pytest.mark.parametrize("kw", [{"method": "bogus"}, {"na_option": "middle"}])
def test_rank_invalid_arguments_raise_as_pandas(kw):
    assert_raises_like_pandas(lambda pd: pd.Series([1.0, 2.0]).rank(**kw))


def test_rank_gpu_declaration_says_where_it_runs():
    """The GPU's check comes from rank's own declaration: numbers and datetimes run on the device,
    method='first' with missing values placed first / last and strings on the CPU engine."""
    import pyarrow as pa

    from gframe.engines.gpu import support
    from gframe.plan.expr import Col, func
    from gframe.plan.schema import STRING

    look = {"f": pa.float64(), "t": pa.timestamp("ns"), "s": STRING}.get

    def rank(col, **kw):
        return func("rank", Col(col), **{"method": "average", "ascending": True, "na_option": "keep", "pct": False, **kw})

    assert support.expr_reason(rank("f", method="dense", na_option="top", pct=True), look) is None
    assert support.expr_reason(rank("t", method="first"), look) is None
    assert "method='first'" in support.expr_reason(rank("f", method="first", na_option="bottom"), look)
    assert support.expr_reason(rank("s"), look).startswith("rank of")


@pytest.mark.parametrize("method", METHODS)
def test_series_rank_durations(method):
    assert_matches_pandas(lambda pd: pd.Series(pd.to_timedelta([2, None, 0, 2], unit="D")).rank(
        method=method, na_option="bottom", pct=True))


@pytest.mark.parametrize("dtype", ["Float64", "Int64", "int64[pyarrow]", "float64[pyarrow]", "string[pyarrow]"])
@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
@pytest.mark.parametrize("pct", [False, True])
def test_rank_nullable_and_arrow_dtypes(dtype, method, pct):
    """pandas: whole ranks of nullable/Arrow numbers are UInt64 / uint64[pyarrow]; averages, pct and
    ``string`` ranks are Float64 / double[pyarrow]."""
    values = ["1", "2", "2", None, "5"] if dtype.startswith("string") else [1, 2, 2, None, 5]
    assert_matches_pandas(lambda pd: pd.Series(values).astype(dtype).rank(method=method, pct=pct))
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": pd.Series(values).astype(dtype)}).rank(method=method, pct=pct))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("na_option", NA_OPTIONS)
def test_rank_strings_native(method, na_option):
    """``str`` values rank in code point order, natively (float64 ranks); ``string`` ranks are
    pandas' (Float64 or float64 by the array's storage)."""
    vals = ["b", "a", None, "ä", "B", "a", "", None, "ab"]
    for dtype in ("string[python]", "string[pyarrow]"):
        assert_matches_pandas(lambda pd: pd.Series(vals, dtype=dtype).rank(method=method, na_option=na_option))
    dtype = "str"
    with gframe.option_context(fallback="raise"):
        for ascending, pct in itertools.product([True, False], [False, True]):
            assert_matches_pandas(lambda pd: pd.Series(vals, dtype=dtype).rank(
                method=method, na_option=na_option, ascending=ascending, pct=pct))
        assert_matches_pandas(lambda pd: pd.DataFrame({"s": pd.Series(vals, dtype=dtype), "i": range(9)}).rank(method=method))
