"""``rolling`` / ``expanding`` / ``ewm`` computed by the engines (``frontend/window.py``): values,
dtype (float64), index and name as pandas' for fixed windows (``min_periods``, ``center``,
``closed``, ``step``, window 0), time windows over a DatetimeIndex or an ``on`` column, expanding
windows and exponentially weighted means; nulls, NaN, infinities, empty and one-row inputs, ints,
floats, bools, nullable and Arrow numbers, categoricals of numbers. Values compare with pandas'
default tolerance (rtol 1e-5): pandas' running sums and Polars' differ in the last bits. What is
not native (``apply``, ``win_type``, a ``BaseIndexer``, pairwise results) runs through pandas,
recorded; pandas' errors are raised from the window's arguments."""
import itertools

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

NaN = float("nan")
VALUES = [1.0, NaN, 3.0, 4.0, None, NaN, 7.0, -2.5, 0.0, 10.0, 11.0]
AGGS = ["sum", "mean", "min", "max", "count", "std", "var", "median", "skew", "kurt", "sem"]


def _native(fn):
    """``fn(gframe)`` computed without a trip to pandas (the report has only engine rows)."""
    gframe.fallback_report(clear=True)
    out = fn(gframe)
    if hasattr(out, "to_pandas"):
        out.to_pandas()
    trips = [e for e in gframe.fallback_report() if e.kind == "pandas"]
    assert not trips, trips
    return out


@pytest.mark.parametrize("agg", AGGS)
@pytest.mark.parametrize("window,min_periods", [(1, None), (3, None), (3, 1), (4, 0), (20, 2), (0, None)])
def test_series_fixed_window(agg, window, min_periods):
    def fn(pd):
        return getattr(pd.Series(VALUES, name="v").rolling(window, min_periods=min_periods), agg)()

    assert_matches_pandas(fn)
    _native(fn)


@pytest.mark.parametrize("closed,center", list(itertools.product([None, "left", "both", "neither"], [False, True])))
@pytest.mark.parametrize("window", [1, 2, 3, 4])
@pytest.mark.parametrize("agg", ["sum", "count", "mean", "max", "var"])
def test_fixed_window_closed_and_centered(closed, center, window, agg):
    def fn(pd):
        return getattr(pd.Series(VALUES).rolling(window, min_periods=0 if agg in ("sum", "count") else 1,
                                                 center=center, closed=closed), agg)()

    assert_matches_pandas(fn)
    _native(fn)


@pytest.mark.parametrize("step", [2, 3])
def test_step_and_labelled_index(step):
    idx = list("abcdefghijk")
    assert_matches_pandas(lambda pd: pd.Series(VALUES, index=idx, name=("t", 1)).rolling(3, min_periods=1, step=step).mean())
    assert_matches_pandas(lambda pd: pd.DataFrame({"x": VALUES, "y": range(11)}, index=idx).rolling(2, step=step).sum())


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint32", "float32", "bool", "Int64", "Float64", "boolean",
                                   "int64[pyarrow]", "double[pyarrow]"])
@pytest.mark.parametrize("agg", ["sum", "mean", "std", "count", "max"])
def test_dtypes_give_float64(dtype, agg):
    values = [True, False, True, True, None] if "bool" in dtype else [3, 1, 4, None, 5]
    if dtype in ("int64", "int8", "uint32", "bool"):
        values = [v for v in values if v is not None]

    def fn(pd):
        return getattr(pd.Series(values, dtype=dtype).rolling(2, min_periods=1), agg)()

    got = assert_matches_pandas(fn)
    assert got.dtype == np.float64
    _native(fn)


def test_categorical_of_numbers_and_counts_of_any_column():
    assert_matches_pandas(lambda pd: pd.Series([1.5, 2.0, None, 4.0], dtype="category").rolling(2, min_periods=1).sum())
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "b", "c"]).rolling(2).count())
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime(["2024-01-01", None, "2024-01-03"])).expanding().count())


def test_empty_and_one_row():
    for agg in ("sum", "mean", "std", "count"):
        assert_matches_pandas(lambda pd: getattr(pd.Series([], dtype="float64").rolling(2), agg)())
        assert_matches_pandas(lambda pd: getattr(pd.Series([4.0], name="s").rolling(2, min_periods=1), agg)())
        assert_matches_pandas(lambda pd: getattr(pd.DataFrame({"a": [], "b": []}).expanding(), agg)())


def test_infinities_are_missing_but_counted():
    vals = [1.0, 2.0, np.inf, -np.inf, 3.0, np.inf, 4.0, 5.0, 6.0]
    for agg in ("sum", "mean", "std", "max", "median", "count"):
        assert_matches_pandas(lambda pd: getattr(pd.Series(vals).rolling(3, min_periods=1), agg)())
    assert_matches_pandas(lambda pd: pd.Series(vals).ewm(com=2).mean())


@pytest.mark.parametrize("agg", AGGS + ["quantile"])
def test_expanding(agg):
    def fn(pd):
        e = pd.DataFrame({"a": VALUES, "b": range(11)}).expanding(min_periods=2)
        return e.quantile(0.3, interpolation="midpoint") if agg == "quantile" else getattr(e, agg)()

    assert_matches_pandas(fn)
    _native(fn)


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("q", [0.0, 0.25, 0.5, 1.0])
def test_quantile(interpolation, q):
    assert_matches_pandas(lambda pd: pd.Series(VALUES).rolling(4, min_periods=2).quantile(q, interpolation=interpolation))


def test_frame_numeric_only_and_on_column():
    def frame(pd):
        return pd.DataFrame({"a": [1, 2, 3, 4], "t": pd.date_range("2024-01-01", periods=4, freq="h"),
                             "s": list("wxyz"), "b": [1.0, None, 3.0, 4.0]})

    assert_matches_pandas(lambda pd: frame(pd).rolling(2).sum(numeric_only=True))
    assert_matches_pandas(lambda pd: frame(pd)[["a", "t", "b"]].rolling(2, on="t").mean())
    assert_raises_like_pandas(lambda pd: frame(pd).rolling(2).sum(), match="Cannot aggregate non-numeric type")
    assert_raises_like_pandas(lambda pd: pd.Series(["x", "y"]).rolling(1).sum(), match="No numeric types")


@pytest.mark.parametrize("window", ["2h", "90min", pandas.Timedelta("3h")])
@pytest.mark.parametrize("closed", [None, "left", "both", "neither"])
@pytest.mark.parametrize("agg", ["sum", "mean", "count", "min", "max", "std", "median"])
def test_time_window_over_index_and_on(window, closed, agg):
    times = ["2024-01-01 00:00", "2024-01-01 01:00", "2024-01-01 01:30", "2024-01-01 04:00", "2024-01-01 04:10",
             "2024-01-01 09:00"]

    def over_index(pd):
        s = pd.Series([1.0, NaN, 3.0, 4.0, 5.0, None], index=pd.to_datetime(times), name="v")
        return getattr(s.rolling(window, closed=closed), agg)()

    def over_on(pd):
        df = pd.DataFrame({"t": pd.to_datetime(times), "v": [1, 2, 3, 4, 5, 6]})
        return getattr(df.rolling(window, on="t", closed=closed, min_periods=2), agg)()

    assert_matches_pandas(over_index)
    assert_matches_pandas(over_on)
    _native(over_index)


def test_time_window_over_duplicates_falls_back_recorded():
    idx = pandas.to_datetime(["2024-01-01", "2024-01-01", "2024-01-02"])
    gframe.fallback_report(clear=True)
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, 3.0], index=idx).rolling("1D").sum())
    assert any("rolling" in e.api for e in gframe.fallback_report())
    assert_raises_like_pandas(lambda pd: pd.Series([1.0, 2.0, 3.0], index=idx[::-1][[1, 0, 2]]).rolling("1D"))


@pytest.mark.parametrize("adjust,ignore_na", list(itertools.product([True, False], [True, False])))
@pytest.mark.parametrize("decay", [{"com": 0.5}, {"span": 3}, {"halflife": 2}, {"alpha": 0.7}])
@pytest.mark.parametrize("agg", ["mean", "std", "var"])
def test_ewm(adjust, ignore_na, decay, agg):
    def fn(pd):
        return getattr(pd.Series(VALUES, name="e").ewm(adjust=adjust, ignore_na=ignore_na, min_periods=2, **decay), agg)()

    assert_matches_pandas(fn)
    if decay == {"span": 3} and not adjust and not ignore_na:
        return  # (alpha 0.5 without adjust: Polars decays over missing values otherwise; pandas computes it)
    _native(fn)


def test_ewm_sum_and_frame():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": VALUES, "b": range(11)}).ewm(span=4, ignore_na=True).sum())
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": VALUES}).ewm(alpha=0.3).var(bias=True))


@pytest.mark.parametrize("name", ["cov", "corr"])
@pytest.mark.parametrize("window", [2, 3, None])
def test_cov_corr(name, window):
    a = [1.0, NaN, 2.0, 3.0, np.inf, 4.0, 5.0, 6.5, 1e9]
    b = [6.0, 5.0, 4.0, np.inf, 3.0, 2.0, NaN, 1.0, 2.0]

    def roll(obj):
        return obj.expanding() if window is None else obj.rolling(window, min_periods=1)

    assert_matches_pandas(lambda pd: getattr(roll(pd.Series(a, name="x")), name)(pd.Series(b, name="x", index=range(2, 11))))
    assert_matches_pandas(lambda pd: getattr(roll(pd.Series(a)), name)())
    assert_matches_pandas(lambda pd: getattr(roll(pd.DataFrame({"a": a, "b": b})), name)(pairwise=False))


def test_iteration_and_settings():
    for got, want in zip(gframe.Series([1, 2, 3]).rolling(2), pandas.Series([1, 2, 3]).rolling(2)):
        pandas.testing.assert_series_equal(got.to_pandas(), want)
    r = gframe.DataFrame({"a": [1, 2]}).rolling(2, min_periods=1, center=True)
    assert (r.window, r.min_periods, r.center, r.closed) == (2, 1, True, None)
    assert repr(r) == repr(pandas.DataFrame({"a": [1, 2]}).rolling(2, min_periods=1, center=True))
    assert isinstance(gframe.Series([1.0]).expanding(), gframe.frontend.window.Expanding)


def test_selection_and_agg_name():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}).rolling(2)["b"].sum())
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}).rolling(2).agg("mean"))


@pytest.mark.parametrize("call", [
    lambda o: o.rolling(2).apply(lambda w: w[-1] - w[0], raw=True),
    lambda o: o.rolling(pandas.api.indexers.FixedForwardWindowIndexer(window_size=2)).sum(),
    lambda o: o.expanding().rank(),
    lambda o: o.rolling(2).agg(["sum", "mean"]),
])
def test_not_native_falls_back_recorded(call):
    gframe.fallback_report(clear=True)
    got = call(gframe.Series([1.0, 3.0, 2.0, 5.0]))
    want = call(pandas.Series([1.0, 3.0, 2.0, 5.0]))
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        pandas.testing.assert_series_equal(got.to_pandas(), want)
    assert [e for e in gframe.fallback_report() if e.kind == "pandas"]


@pytest.mark.parametrize("call,match", [
    (lambda pd: pd.Series([1.0]).rolling(-1), "window must be an integer 0 or greater"),
    (lambda pd: pd.Series([1.0]).rolling(2, min_periods=3), "min_periods 3 must be <= window 2"),
    (lambda pd: pd.Series([1.0]).rolling(2).quantile(1.5), None),
    (lambda pd: pd.Series([1.0]).ewm(com=1, span=2), None),
    (lambda pd: pd.Series([1.0]).rolling(2, step=2).cov(), "step not implemented"),
    (lambda pd: pd.Series(pd.to_datetime(["2024-01-01"])).rolling(1).sum(), "No numeric types"),
])
def test_errors_as_pandas(call, match):
    assert_raises_like_pandas(call, match=match)


def test_series_of_expression_and_filter_after():
    """The window runs over the rows the Series has (an expression of a frame's columns), and a
    filter applied after the window does not move before it (the function is not row-wise)."""
    def fn(pd):
        df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0], "b": [5, 4, 3, 2, 1]})
        r = (df.a * 2 + df.b).rolling(2).sum()
        return r[df.b > 2]

    assert_matches_pandas(fn)
