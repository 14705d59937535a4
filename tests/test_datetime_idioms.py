"""pandas' datetime idioms (issue 10): comparisons with date-like scalars, partial-string indexing,
Grouper(freq=) and resample, date +- duration. Each is checked against pandas; where gframe runs it
natively, the fallback report stays empty."""
import datetime as dt

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

STAMPS = ["2024-03-01 10:00:00", None, "2024-06-02 00:00:00", "2024-03-31 23:59:59", "2024-06-01 00:00:00", "2023-12-31 00:00:00"]


@pytest.fixture(autouse=True)
def _clear_report():
    gframe.fallback_report(clear=True)
    yield
    gframe.fallback_report(clear=True)


def _native(gpu_tz: bool = False) -> None:
    """Nothing ran through pandas, nor (on the GPU engine) on the CPU engine. ``gpu_tz``: the GPU
    engine holds no tz-aware timestamps, so there the recorded CPU fallback is the expected path."""
    events = gframe.fallback_report()
    assert [e.api for e in events if e.kind == "pandas"] == []
    if not (gpu_tz and gframe.options.engine == "gpu"):
        assert [e.api for e in events] == []


def ts(pd, unit="us", tz=None):
    """The test column, built in pandas and handed to ``pd`` (gframe takes it as is)."""
    s = pandas.Series(pandas.to_datetime(pandas.Series(STAMPS, dtype=object)), name="ts").astype(f"datetime64[{unit}]")
    return pd.Series(s if tz is None else s.dt.tz_localize(tz))


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
@pytest.mark.parametrize("value", ["2024-06-01", "2024-03", "2024", "2024-06-01 00:00:00", "June 1, 2024",
                                   dt.datetime(2024, 6, 1), np.datetime64("2024-06-01"), pandas.Timestamp("2024-06-01"),
                                   pandas.Timestamp("2024-06-01 00:00:00.000001")])
@pytest.mark.parametrize("unit", ["s", "us", "ns"])
def test_compare_with_date_like(op, value, unit):
    assert_matches_pandas(lambda pd: getattr(ts(pd, unit), op)(value))
    _native()


@pytest.mark.parametrize("op", ["eq", "ne"])
@pytest.mark.parametrize("value", ["not a date", dt.date(2024, 6, 1)])
def test_equality_with_a_non_date_is_all_false(op, value):
    assert_matches_pandas(lambda pd: getattr(ts(pd), op)(value))
    _native()


@pytest.mark.parametrize("value", ["not a date", dt.date(2024, 6, 1), pandas.Timestamp("2024-06-01", tz="UTC")])
def test_ordering_with_a_non_date_raises_type_error(value):
    assert_raises_like_pandas(lambda pd: ts(pd) < value, match="Invalid comparison")


def test_reflected_comparison_with_a_string():
    assert_matches_pandas(lambda pd: "2024-06-01" <= ts(pd))
    _native()


@pytest.mark.parametrize("value", ["2024-06-02 00:00", "2024-06-02 00:00+02:00", pandas.Timestamp("2024-06-01", tz="UTC")])
def test_tz_aware_column(value):
    assert_matches_pandas(lambda pd: ts(pd, tz="Europe/Paris") >= value)
    assert_matches_pandas(lambda pd: ts(pd, tz="Europe/Paris") == value)
    _native(gpu_tz=True)


@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
def test_between_strings(inclusive):
    assert_matches_pandas(lambda pd: ts(pd).between("2024-03-01", "2024-03-31 23:59:59", inclusive=inclusive))
    _native()


def test_frame_comparison_parses_per_column():
    def f(pd):
        return pd.DataFrame({"a": ts(pd), "b": ts(pd)}) >= "2024-06-01"

    assert_matches_pandas(f)
    _native()


def test_filter_by_string_in_a_frame():
    def f(pd):
        df = pd.DataFrame({"ts": ts(pd), "x": range(6)})
        return df[(df.ts >= "2024-03-01") & (df.ts < "2024-04-01")]

    assert_matches_pandas(f)
    _native()


def test_empty_and_one_row():
    assert_matches_pandas(lambda pd: ts(pd).iloc[:0] >= "2024-06-01")
    assert_matches_pandas(lambda pd: ts(pd).iloc[:1].between("2024-03", "2024-04"))


# ------------------------------------------------------------------ partial-string indexing

def indexed(pd, n=200, freq="D", tz=None, unit="us"):
    p = pandas.DataFrame({"ts": pandas.date_range("2024-01-01", periods=n, freq=freq, tz=tz, unit=unit),
                          "x": np.arange(float(n))})
    return pd.DataFrame(p).set_index("ts")


PARTIAL = {
    "month": lambda pd: indexed(pd).loc["2024-03"],
    "year": lambda pd: indexed(pd).loc["2024"],
    "quarter": lambda pd: indexed(pd).loc["2024Q2"],
    "day, exact label": lambda pd: indexed(pd).loc["2024-03-05"],
    "day on hourly data": lambda pd: indexed(pd, 100, "h").loc["2024-01-02"],
    "hour, exact on hourly": lambda pd: indexed(pd, 100, "h").loc["2024-01-02 05:00"],
    "minute on seconds": lambda pd: indexed(pd, 300, "s").loc["2024-01-01 00:02"],
    "slice of days": lambda pd: indexed(pd).loc["2024-03-01":"2024-03-15"],
    "slice of months": lambda pd: indexed(pd).loc["2024-02":"2024-03"],
    "open slice": lambda pd: indexed(pd).loc[:"2024-01-10"],
    "open slice start": lambda pd: indexed(pd).loc["2024-07":],
    "Timestamp slice": lambda pd: indexed(pd).loc[pandas.Timestamp("2024-03-01"):pandas.Timestamp("2024-03-04 12:00")],
    "series month": lambda pd: indexed(pd).x.loc["2024-03"],
    "series exact": lambda pd: indexed(pd).x.loc["2024-03-05"],
    "month and column": lambda pd: indexed(pd).loc["2024-03", "x"],
    "exact and column": lambda pd: indexed(pd).loc["2024-03-05", "x"],
    "seconds unit": lambda pd: indexed(pd, unit="s").loc["2024-03"],
    "nanoseconds unit": lambda pd: indexed(pd, unit="ns").loc["2024-03-01":"2024-03-02"],
    "reversed": lambda pd: indexed(pd).iloc[::-1].loc["2024-03"],
    "shuffled": lambda pd: indexed(pd).iloc[list(np.random.default_rng(0).permutation(200))].loc["2024-03"],
    "shuffled, no match": lambda pd: indexed(pd).iloc[list(np.random.default_rng(0).permutation(200))].loc["2030-03"],
    "empty": lambda pd: indexed(pd).iloc[:0].loc["2024-03"],
    "one row": lambda pd: indexed(pd, 1).loc["2024-01"],
}


@pytest.mark.parametrize("case", PARTIAL)
def test_partial_string_indexing_is_a_native_range_filter(case):
    assert_matches_pandas(PARTIAL[case])
    _native()


def test_partial_string_on_tz_aware_index():
    assert_matches_pandas(lambda pd: indexed(pd, tz="Europe/Paris").loc["2024-03"])
    _native(gpu_tz=True)


@pytest.mark.parametrize("make", [
    lambda pd: indexed(pd).loc["2030-03"],  # sorted index, out of range
    lambda pd: indexed(pd).iloc[::-1].loc["2030-03"],  # sorted descending, out of range
    lambda pd: indexed(pd).loc["not a date"],
    lambda pd: indexed(pd, 10, "2D").loc["2024-01-02"],  # exact label, missing
])
def test_partial_string_key_errors_as_pandas(make):
    assert_raises_like_pandas(make)


def test_unsorted_slice_falls_back_with_pandas_answer():
    def unsorted(pd):
        return indexed(pd, 10).iloc[[3, 1, 2, 0, 4, 5, 6, 7, 8, 9]]

    assert_matches_pandas(lambda pd: unsorted(pd).loc[pandas.Timestamp("2024-01-02"):pandas.Timestamp("2024-01-04")])
    assert_raises_like_pandas(lambda pd: unsorted(pd).loc["2024-01-02":"2024-01-03"], match="non-monotonic")
