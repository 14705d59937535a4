"""Index labels computed natively: ``obj.index = labels`` (a scan of the labels joined to the rows by
position) and ``Index.as_unit`` (the labels' int64 values, floored or multiplied, pandas' errors)."""
import datetime

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas


@pytest.fixture(autouse=True)
def _strict():
    with gframe.option_context(fallback="raise"):  # a pass ran natively
        yield


LABELS = [
    lambda pd: ["x", "y", "z", "w"],
    lambda pd: np.array([4, 3, 2, 1]),
    lambda pd: pd.date_range("2000", periods=4, freq="D", name="t"),
    lambda pd: pd.date_range("2000", periods=4, freq="h", tz="dateutil/US/Pacific").as_unit("ms"),
    lambda pd: pd.date_range("2000", periods=4, freq="h", tz=datetime.timezone(datetime.timedelta(hours=1))),
    lambda pd: pd.Index([1.5, None, 2.5, 1.5], name="f"),
    lambda pd: pd.Series(["p", "q", "r", "s"], name="named"),
    lambda pd: [("a", 1), ("a", 2), ("b", 1), ("b", 2)],
]


@pytest.mark.parametrize("labels", LABELS)
def test_setting_a_frames_index(labels):
    def run(pd):
        df = pd.DataFrame({"s": ["u", None, "w", "v"], "i": [3, 1, 4, 2], "c": pandas.Categorical(["k", "l", "k", "m"])},
                          index=[10, 20, 30, 40])
        df = df.sort_values("i")  # the rows are not in their scan's order
        df.index = labels(pd)
        return df

    assert_matches_pandas(run)


@pytest.mark.parametrize("labels", LABELS)
def test_setting_a_series_index(labels):
    def run(pd):
        s = pd.Series([3.0, None, 1.0, 2.0], name="v")
        s = (s * 2)[lambda x: x.notna() | x.isna()]
        s.index = labels(pd)
        return s

    assert_matches_pandas(run)


def test_setting_the_index_to_a_plans_index_and_the_freq_it_carries():
    def run(pd):
        s = pd.Series(range(6), index=pd.date_range("2000", periods=6, freq="min", name="t"))
        s.index.name = "u"
        s.index = s.index.as_unit("s")
        t = pd.Series(np.arange(6.0))
        t.index = s.index
        return t

    got = assert_matches_pandas(run)
    assert got.index.freq == pandas.tseries.frequencies.to_offset("min")


def test_setting_an_index_of_another_length_raises_like_pandas():
    for pd in (pandas, gframe):
        df = pd.DataFrame({"a": [1, 2, 3]})
        with pytest.raises(ValueError, match="Length mismatch: Expected axis has 3 elements, new values have 2 elements"):
            df.index = ["x", "y"]


SOURCES = [
    pandas.DatetimeIndex(["1969-12-31 23:59:59.5", "2000-01-01 00:00:00.7", None], name="x"),
    pandas.date_range("2000", periods=3, freq="h", tz="America/New_York").as_unit("s"),
    pandas.date_range("2000", periods=3, freq="h", tz="dateutil/Asia/Singapore"),
    pandas.date_range("2000", periods=3, freq="h", tz=datetime.timezone(datetime.timedelta(hours=-1), name="foo")),
    pandas.TimedeltaIndex(["1s", "-1.5s", None]),
    pandas.date_range("2000", periods=3, freq="500ms"),  # floored to s: pandas keeps the freq unchecked
    pandas.timedelta_range("1D", periods=3, freq="6h"),
]


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("src", SOURCES)
def test_as_unit_matches_pandas(src, unit):
    got = gframe.Index(src).as_unit(unit).to_pandas()
    want = src.as_unit(unit)
    pandas.testing.assert_index_equal(got, want, exact=True)
    assert got.freq == want.freq
    assert type(getattr(got, "tz", None)) is type(getattr(want, "tz", None))


def test_as_unit_of_a_plans_index():
    def run(pd):
        df = pd.DataFrame({"a": [1.0, 2.0, 3.0]}, index=pd.date_range("2000", periods=3, freq="D", tz="UTC"))
        df.index = df[df.a > 0].index.as_unit("s")
        return df

    got = assert_matches_pandas(run)
    assert str(got.index.dtype) == "datetime64[s, UTC]"


def test_as_unit_errors_are_pandas():
    far = pandas.DatetimeIndex(["2300-01-01"]).as_unit("s")
    for idx in (far, gframe.Index(far)):
        with pytest.raises(pandas.errors.OutOfBoundsDatetime, match="Out of bounds nanosecond timestamp: 2300-01-01"):
            idx.as_unit("ns")
        with pytest.raises(ValueError, match="Supported units are 's', 'ms', 'us', 'ns'"):
            idx.as_unit("D")
    with pytest.raises(AttributeError, match="as_unit"):
        gframe.Index([1, 2]).as_unit("s")
    with pytest.raises(AttributeError, match="as_unit"):
        pandas.Index([1, 2]).as_unit("s")


@pytest.mark.parametrize("tz", [None, "EST"])
def test_assigning_values_to_a_frame_of_labels_only(tz):
    """``DataFrame(index=labels)`` then ``df[key] = array``: the values with those labels (the frame
    had rows but no columns for an alignment to keep)."""
    def run(pd):
        df = pd.DataFrame(index=pd.date_range("2011", periods=5, freq="h", tz=tz))
        df["first"] = np.arange(5.0)
        df["second"] = np.arange(5)
        return df

    assert_matches_pandas(run)
