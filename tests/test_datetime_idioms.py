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
