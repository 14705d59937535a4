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


# pandas itself warns while answering some of these (quarter strings are deprecated; a ns timestamp
# compared with a coarser bound): the same warnings on both sides are pandas' behaviour
@pytest.mark.filterwarnings("ignore:Parsing '.*' as a quarterly string:pandas.errors.Pandas4Warning",
                            "ignore:Discarding nonzero nanoseconds:UserWarning")
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


# ------------------------------------------------------------------ Grouper(freq=) and resample

def events(pd, n=300, freq="7h", start="2024-01-01 00:00", nat=False, unit="us"):
    """Timestamps with gaps (every 7th row dropped: some bins are empty) and optionally NaT."""
    ts = pandas.date_range(start, periods=n, freq=freq, unit=unit)
    p = pandas.DataFrame({"ts": ts, "x": np.arange(float(n)), "i": np.arange(n) % 7})
    p = p[p.i != 3].reset_index(drop=True)
    if nat:
        p.loc[[2, 5], "ts"] = pandas.NaT
    return pd.DataFrame(p)


RULES = {"D": "7h", "h": "7min", "W": "7h", "ME": "13h", "MS": "13h", "QE": "2D", "YE": "5D", "15min": "7min"}
AGGS = ["sum", "mean", "min", "max", "count", "size", "first", "last"]
# gframe's DatetimeIndex results carry no ``freq`` attribute (pandas sets it on resample results)
NOFREQ = {"check_freq": False}


@pytest.mark.parametrize("fn", AGGS)
@pytest.mark.parametrize("rule", RULES)
def test_grouper_freq_is_native(rule, fn):
    assert_matches_pandas(lambda pd: getattr(events(pd, freq=RULES[rule]).groupby(pd.Grouper(key="ts", freq=rule)), fn)(),
                          **NOFREQ)
    _native()


@pytest.mark.parametrize("fn", AGGS)
@pytest.mark.parametrize("rule", RULES)
def test_resample_is_native(rule, fn):
    assert_matches_pandas(lambda pd: getattr(events(pd, freq=RULES[rule]).set_index("ts").resample(rule), fn)(),
                          **NOFREQ)
    _native()


@pytest.mark.parametrize("make", [
    lambda pd: events(pd).set_index("ts").x.resample("W").sum(),
    lambda pd: events(pd).set_index("ts").x.resample("D").size(),
    lambda pd: events(pd).set_index("ts").i.resample("ME").max(),
    lambda pd: events(pd).resample("ME", on="ts").x.mean(),
    lambda pd: events(pd).resample("W", on="ts")[["x", "i"]].sum(),
    lambda pd: events(pd).resample("ME", on="ts").agg("sum"),
    lambda pd: events(pd).groupby(pd.Grouper(key="ts", freq="ME")).x.sum(),
    lambda pd: events(pd).groupby(pd.Grouper(key="ts", freq="ME"))["i"].count(),
    lambda pd: events(pd).groupby(pd.Grouper(key="ts", freq="ME")).agg({"x": "sum", "i": "max"}),
    lambda pd: events(pd).set_index("ts").rename_axis("when").resample("MS").sum(),
    lambda pd: events(pd, unit="s").set_index("ts").resample("h").sum(),
    lambda pd: events(pd, unit="ns").set_index("ts").resample("YE").mean(),
    lambda pd: events(pd, 1).set_index("ts").resample("ME").sum(),
], ids=["series sum", "series size", "series int max", "on", "on columns", "agg str", "grouper column",
        "grouper count", "grouper dict", "named index", "seconds", "nanoseconds", "one row"])
def test_resample_shapes(make):
    assert_matches_pandas(make, **NOFREQ)
    _native()


def test_grouper_with_nat_drops_them():
    assert_matches_pandas(lambda pd: events(pd, nat=True).groupby(pd.Grouper(key="ts", freq="ME")).sum(), **NOFREQ)
    _native()


def test_resample_empty():
    assert_matches_pandas(lambda pd: events(pd).iloc[:0].set_index("ts").resample("D").sum(), check_freq=False,
                          check_index_type=False)


@pytest.mark.parametrize("make", [
    lambda pd: events(pd).set_index("ts").resample("2ME").sum(),
    lambda pd: events(pd).set_index("ts").resample("W", label="left").sum(),
    lambda pd: events(pd).set_index("ts").resample("BME").sum(),
    lambda pd: events(pd).set_index("ts").resample("ME").ohlc(),
    lambda pd: events(pd).groupby(pd.Grouper(key="ts", freq="W-MON")).sum(),
    lambda pd: events(pd).groupby(pd.Grouper(key="ts", freq="ME", closed="left")).sum(),
], ids=["multiple", "label", "business", "ohlc", "W-MON", "grouper closed"])
def test_other_rules_and_options_fall_back_with_pandas_answer(make):
    assert_matches_pandas(make)
    assert [e.kind for e in gframe.fallback_report()].count("pandas") >= 1


@pytest.mark.parametrize("make", [
    lambda pd: events(pd).set_index("ts").resample("D", closed="right").sum(),
    lambda pd: events(pd).set_index("ts").resample("h", origin="epoch", offset="5min").mean(),
    lambda pd: events(pd).set_index("ts").resample("D").x.std(),
], ids=["closed", "origin", "std"])
def test_fixed_rules_with_options_are_native(make):
    # (fixed frequencies with any closed / label / origin / offset: conf10res, tests/test_resample_native.py)
    assert_matches_pandas(make)
    _native()


def test_tz_aware_resample_falls_back_with_pandas_answer():
    def f(pd):
        p = pandas.DataFrame({"x": np.arange(50.0)},
                             index=pandas.date_range("2024-03-25", periods=50, freq="7h", tz="Europe/Paris"))
        return pd.DataFrame(p).resample("D").sum()

    assert_matches_pandas(f)


# ------------------------------------------------------------------ date +- duration

@pytest.mark.parametrize("make", [
    lambda pd: ts(pd) + pandas.Timedelta(days=1),
    lambda pd: ts(pd) - pandas.Timedelta(hours=5),
    lambda pd: pandas.Timedelta(days=1) + ts(pd),
    lambda pd: ts(pd) - ts(pd),
    lambda pd: ts(pd) - pandas.Timestamp("2024-01-01"),
    lambda pd: ts(pd) + pandas.offsets.Day(2),
    lambda pd: ts(pd) + pandas.offsets.Hour(3),
    lambda pd: ts(pd) - pandas.DateOffset(days=1, hours=2),
    lambda pd: pandas.DateOffset(weeks=1) + ts(pd),
    lambda pd: ts(pd).iloc[:0] + pandas.Timedelta(days=1),
], ids=["+Timedelta", "-Timedelta", "Timedelta+", "ts-ts", "ts-Timestamp", "+Day", "+Hour", "-DateOffset fixed",
        "DateOffset fixed+", "empty"])
def test_date_plus_duration_is_native(make):
    assert_matches_pandas(make)
    _native()


@pytest.mark.parametrize("make", [
    lambda pd: ts(pd) + pandas.DateOffset(months=1),
    lambda pd: ts(pd) - pandas.offsets.MonthEnd(),
    lambda pd: ts(pd) + pandas.offsets.BDay(2),
    lambda pd: ts(pd, tz="Europe/Paris") + pandas.offsets.Day(1),
], ids=["months", "MonthEnd", "BDay", "tz-aware Day"])
def test_calendar_offsets_fall_back_with_pandas_answer(make):
    assert_matches_pandas(make)
    assert [e.api for e in gframe.fallback_report() if e.kind == "pandas"] in (["Series.__add__"], ["Series.__sub__"])
