"""A DatetimeIndex's ``freq`` through plans: pandas keeps it where the rows left are an evenly spaced
run of the original (``DatetimeIndex.take``), and labels resample bins with the rule's offset.
``assert_matches_pandas`` compares the index ``freq`` (pandas' ``check_freq``)."""
import datetime

import numpy as np
import pandas
import pytest

import gframe as gf
from gframe.testing import assert_matches_pandas


def hourly(pd, n=10):
    return pd.DataFrame({"a": np.arange(float(n)), "b": np.arange(n)},
                        index=pd.date_range("2020-01-01", periods=n, freq="h", name="t"))


@pytest.mark.parametrize("op", [
    lambda df: df,
    lambda df: df[df.a > 3],                      # a contiguous run: freq kept
    lambda df: df[df.a % 2 == 0],                 # every second row: 2 * freq
    lambda df: df[df.a.isin([1, 2, 5])],          # uneven: None
    lambda df: df.iloc[::3],
    lambda df: df.sort_index(ascending=False),    # -1 * freq
    lambda df: df.head(1),
    lambda df: df.iloc[0:0],
    lambda df: df.a + 1,
    lambda df: df.assign(c=df.a * 2),
    lambda df: df.a.rename("x").to_frame(),
    lambda df: df.rename_axis("u"),
])
def test_freq_kept_as_pandas(op):
    assert_matches_pandas(lambda pd: op(hourly(pd)))


@pytest.mark.parametrize("rule", ["2h", "D", "30min"])
@pytest.mark.parametrize("how", ["sum", "mean", "count", "size", "max"])
def test_resample_labels_have_the_rule_freq(rule, how):
    got = assert_matches_pandas(lambda pd: getattr(hourly(pd, 50).resample(rule), how)())
    assert got.index.freq is not None


def test_grouper_with_nat_has_no_freq():
    """pandas inserts a NaT bin into the labels and drops it again: the frequency is lost."""
    def run(pd):
        df = pd.DataFrame({"a": [1, 2, 3, 4]})
        df["k"] = pandas.to_datetime(["2013-01-01", "2013-01-02", None, "2013-01-05"])
        return df.groupby(pd.Grouper(key="k", freq="D")).sum()

    got = assert_matches_pandas(run)
    assert got.index.freq is None


def test_grouper_empty_bins_prod_is_one():
    def run(pd):
        df = pd.DataFrame({"a": [2, 3, 4]})
        df["k"] = pandas.to_datetime(["2013-01-01", "2013-01-01", "2013-01-04"])
        return df.groupby(pd.Grouper(key="k", freq="D")).prod()

    assert_matches_pandas(run)


def test_freq_setter():
    """``idx.freq = ...`` (pandas validates) sets the index metadata of the frame it was read from."""
    def run(pd):
        s = hourly(pd).a.resample("24h").mean()
        s.index.freq = pandas.tseries.frequencies.to_offset("D")
        return s

    got = assert_matches_pandas(run)
    assert got.index.freq == pandas.offsets.Day()
    s = hourly(gf).a
    with pytest.raises(ValueError):
        s.index.freq = "2D"  # pandas: the values do not conform


def test_freq_through_optimizer_and_join():
    def run(pd):
        df = hourly(pd)
        other = pd.DataFrame({"z": np.arange(10) * 2}, index=df.index)
        return df.join(other)[lambda d: d.b >= 2]

    assert_matches_pandas(run)


@pytest.mark.parametrize("labels", [["2020-01-01 00:00"], ["2020-01-01 09:00"], ["2020-01-01 03:00"],
                                    ["2020-01-01 01:00", "2020-01-01 03:00"]])
def test_drop_keeps_freq_only_at_the_ends(labels):
    """pandas' drop deletes rows (``Index.delete``): the frequency stays where the first or last rows
    went, and is lost otherwise, even where the rows left are evenly spaced."""
    assert_matches_pandas(lambda pd: hourly(pd).drop(pandas.to_datetime(labels)).drop(pandas.to_datetime(labels[:0])))
    assert_matches_pandas(lambda pd: hourly(pd).drop(labels))


@pytest.mark.parametrize("tz", ["dateutil/US/Pacific", "US/Pacific", "UTC", "dateutil/Asia/Singapore"])
def test_index_keeps_its_tz_object(tz):
    """Arrow keeps a zone's name only; the index comes back with the tz object it came in with
    (dateutil's ``tzfile`` is another dtype to pandas than the zoneinfo of the same name)."""
    try:
        pandas.date_range("2000", periods=1, tz=tz)
    except Exception as exc:  # noqa: BLE001 - a machine without that zone's data (the GPU machine has no tzdata)
        pytest.skip(f"pandas cannot make zone {tz!r} here: {type(exc).__name__}")
    def run(pd):
        s = pd.Series(np.arange(4.0), pd.date_range("2000-01-01", periods=4, freq="h", tz=tz))
        return (s + 1)[lambda x: x > 1]

    got = assert_matches_pandas(run)
    assert type(got.index.tz) is type(pandas.date_range("2000", periods=1, tz=tz).tz)


@pytest.mark.parametrize("tz", [datetime.timezone(datetime.timedelta(hours=1)),
                                datetime.timezone(datetime.timedelta(hours=-1), name="foo"),
                                datetime.timezone(datetime.timedelta(0)), "+03:00"])
@pytest.mark.parametrize("unit", ["s", "ms", "ns"])
def test_index_keeps_its_fixed_offset_zone(tz, unit):
    """A whole-hour fixed offset is ``'Etc/GMT-1'`` to Polars: the index comes back in the offset it
    came in with (pandas' ``UTC+01:00`` / named ``datetime.timezone``), not the engine's zone."""
    def run(pd):
        s = pd.Series([3.0, 1.0, 2.0, 0.0], pd.date_range("2000-01-01", periods=4, freq="10h", tz=tz).as_unit(unit))
        return s.sort_values()[lambda x: x > 0]

    got = assert_matches_pandas(run)
    want = pandas.date_range("2000", periods=1, tz=tz).tz
    assert got.index.tz == want and type(got.index.tz) is type(want)


@pytest.mark.parametrize("tz", ["+01:15", "UTC-02:15"])
def test_index_of_a_fallback_result_is_its_pandas_labels(tz):
    """The index of a frame a trip to pandas returned is that frame's labels, read without the engine
    (a zone such as ``'+01:15'`` is not one Polars can hold)."""
    def run(pd):
        ts = pd.Series(np.arange(3.0), pd.date_range("2000-01-01", periods=3, freq="10h", tz=tz))
        result = ts.resample("30h").nearest(limit=2)
        return ts.reindex(result.index, method="nearest", limit=2)

    assert_matches_pandas(run)


@pytest.mark.parametrize("columns", [None, pandas.Index([], dtype=object)])
@pytest.mark.parametrize("how", ["min", "sum", "size"])
def test_resample_of_a_frame_without_columns_keeps_its_column_index(columns, how):
    """A frame of timestamps only: pandas' result has the frame's (empty) column Index, not one typed
    by the bins' key label."""
    def run(pd):
        df = pd.DataFrame(index=pd.date_range("2000", periods=3, freq="D")[:0], columns=columns)
        return getattr(df.resample("ME"), how)()

    assert_matches_pandas(run)


def test_resample_size_of_a_frame_without_columns_is_native():
    """``size`` is a Series (no column Index to keep): the native group-by answers it."""
    def run(pd):
        return pd.DataFrame(index=pd.date_range("2000", periods=5, freq="10D")).resample("ME").size()

    with gf.option_context(fallback="raise"):
        assert_matches_pandas(run)
