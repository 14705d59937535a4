"""resample and reindex(method=) run natively and agree with pandas (session 10, conf10res).

- ``reindex(labels, method="pad" / "backfill" / "nearest", limit=)``: ``reshape.reindex_filled``
  (source labels and targets sorted in one column; fills and row distances in the engines);
- ``Resampler.ffill / bfill / nearest / asfreq``: that reindex on pandas' bin edges;
- downsampling with fixed frequencies and any ``closed`` / ``label`` / ``origin`` / ``offset``, on
  naive and tz-aware timestamps (``resample._anchored_bins``), and more aggregations.

Each case runs under the ``native`` fixture (a trip to pandas raises FallbackError) and compares
values, dtype, index (``freq`` included) and names with pandas.
"""
from __future__ import annotations

import datetime

import numpy as np
import pandas
import pytest

import gframe as gf

ZONES = [None, "America/New_York", "UTC", datetime.timezone(datetime.timedelta(hours=1))]


def series(tz=None, unit="ns", n=3, freq="10h", name="v", nan=False):
    rng = pandas.date_range("1/1/2000", periods=n, freq=freq, tz=tz, name="when").as_unit(unit)
    values = np.random.default_rng(2).standard_normal(n)
    if nan:
        values[1] = np.nan
    return pandas.Series(values, rng, name=name)


# ------------------------------------------------------------------ reindex(method=)

@pytest.mark.parametrize("method", ["pad", "ffill", "backfill", "bfill", "nearest"])
@pytest.mark.parametrize("limit", [None, 1, 2])
@pytest.mark.parametrize("tz", ZONES)
def test_reindex_method_timestamps(native, method, limit, tz):
    ps = series(tz=tz, n=4, nan=True)
    target = pandas.date_range("12/31/1999 20:00", periods=14, freq="5h", tz=tz)
    got = gf.Series(ps).reindex(target, method=method, limit=limit).to_pandas()
    pandas.testing.assert_series_equal(got, ps.reindex(target, method=method, limit=limit))


@pytest.mark.parametrize("method", ["pad", "backfill", "nearest"])
@pytest.mark.parametrize("limit", [None, 1])
@pytest.mark.parametrize("target", [[5, 10, 12, 15, 16, 25, 40, 41], [40, 5, 12, 12, 30, 30], [10, 20, 30]])
def test_reindex_method_ints(native, method, limit, target):
    ps = pandas.Series([1, 2, 3], index=pandas.Index([10, 20, 30], name="k"), name="x")
    if limit is not None and target != sorted(target):
        return  # pandas' ValueError (limit needs monotonic targets): not native, checked below
    got = gf.Series(ps).reindex(target, method=method, limit=limit).to_pandas()
    pandas.testing.assert_series_equal(got, ps.reindex(target, method=method, limit=limit))


def test_reindex_method_frame_keeps_nulls_and_dtypes(native):
    ps = series(nan=True)
    pdf = ps.to_frame().assign(i=np.arange(3), b=[True, False, True])
    target = pandas.date_range("1/1/2000", periods=7, freq="5h", name="other")
    for method in ["ffill", "bfill", "nearest"]:
        got = gf.DataFrame(pdf).reindex(target, method=method).to_pandas()
        pandas.testing.assert_frame_equal(got, pdf.reindex(target, method=method))
        got = gf.DataFrame(pdf).reindex(index=list(target), method=method).to_pandas()
        pandas.testing.assert_frame_equal(got, pdf.reindex(index=list(target), method=method))


def test_reindex_method_other_zone_target(native):
    ps = series(tz="America/New_York")
    target = pandas.date_range("1/1/2000", periods=5, freq="5h", tz="Asia/Tokyo")
    got = gf.Series(ps).reindex(target, method="nearest").to_pandas()
    pandas.testing.assert_series_equal(got, ps.reindex(target, method="nearest"))


def test_reindex_method_pandas_errors():
    # a source index that is not monotonic, or a limit with unsorted targets: pandas' ValueError
    ps = pandas.Series([1.0, 2.0, 3.0], index=[30, 10, 20])
    with pytest.raises(ValueError, match="monotonic"):
        ps.reindex([1, 2], method="pad")
    with pytest.raises(ValueError, match="monotonic"):
        gf.Series(ps).reindex([1, 2], method="pad")
    ps = pandas.Series([1.0, 2.0, 3.0], index=[10, 20, 30])
    with pytest.raises(ValueError, match="monotonic"):
        gf.Series(ps).reindex([25, 5], method="pad", limit=1)


# ------------------------------------------------------------------ upsampling

@pytest.mark.parametrize("rule", ["YE", "3ME", "15D", "30h", "15Min", "30s"])
@pytest.mark.parametrize("freq", ["1D", "10h", "5Min"])
@pytest.mark.parametrize("tz", ZONES)
def test_nearest_upsample_with_limit(native, rule, freq, tz):
    ps = series(tz=tz, freq=freq, unit="s")
    gs = gf.Series(ps)
    result = gs.resample(rule).nearest(limit=2)
    pandas.testing.assert_series_equal(result.to_pandas(), ps.resample(rule).nearest(limit=2))
    # pandas' test: the same as a reindex on the result's labels
    again = gs.reindex(result.index, method="nearest", limit=2)
    pandas.testing.assert_series_equal(again.to_pandas(), ps.resample(rule).nearest(limit=2))


@pytest.mark.parametrize("method", ["ffill", "bfill", "nearest", "asfreq"])
@pytest.mark.parametrize("kwargs", [{}, {"closed": "right"}, {"origin": "epoch", "offset": "7min"}])
def test_upsample_methods(native, method, kwargs):
    ps = series(n=5, freq="37min", nan=True)
    got = getattr(gf.Series(ps).resample("10min", **kwargs), method)().to_pandas()
    pandas.testing.assert_series_equal(got, getattr(ps.resample("10min", **kwargs), method)())


def test_upsample_frame_and_selection(native):
    pdf = series(n=4, freq="25min").to_frame().assign(i=np.arange(4))
    g = gf.DataFrame(pdf)
    pandas.testing.assert_frame_equal(g.resample("10min").ffill(limit=1).to_pandas(),
                                      pdf.resample("10min").ffill(limit=1))
    pandas.testing.assert_frame_equal(g.resample("10min").nearest().to_pandas(), pdf.resample("10min").nearest())


def test_upsample_on_column_raises_like_pandas():
    pdf = series(n=4).reset_index()
    with pytest.raises(ValueError, match="Upsampling from level= or on= selection"):
        pdf.resample("1h", on="when").ffill()
    with pytest.raises(ValueError, match="Upsampling from level= or on= selection"):
        gf.DataFrame(pdf).resample("1h", on="when").ffill()


# ------------------------------------------------------------------ downsampling

@pytest.mark.parametrize("rule", ["7min", "2h", "17s", "3D"])
@pytest.mark.parametrize("closed", [None, "left", "right"])
@pytest.mark.parametrize("label", [None, "right"])
@pytest.mark.parametrize("origin", ["start_day", "epoch", "start", "end", "end_day"])
@pytest.mark.parametrize("tz", [None, "America/New_York"])
def test_fixed_frequency_options(native, rule, closed, label, origin, tz):
    if tz is not None and rule == "3D":
        return  # a Day of a tz-aware index is a calendar day: not these bins (pandas', below)
    rng = pandas.date_range("1/1/2000 01:13", periods=40, freq="23min", tz=tz, name="t")
    ps = pandas.Series(np.arange(40.0) + 1, rng, name="x").drop(rng[10:25])
    kw = {"closed": closed, "label": label, "origin": origin, "offset": "5min"}
    gs = gf.Series(ps)
    try:
        ps.resample(rule, **kw)
    except ValueError as exc:  # pandas' "Values falls before first bin" (an origin at the end)
        with pytest.raises(ValueError, match=str(exc)):
            gs.resample(rule, **kw).sum()
        return
    for fn in ["sum", "mean", "count", "max"]:
        pandas.testing.assert_series_equal(getattr(gs.resample(rule, **kw), fn)().to_pandas(),
                                           getattr(ps.resample(rule, **kw), fn)())


def test_origin_timestamp_and_zone_mismatch(native):
    ps = series(n=20, freq="13min", tz="UTC")
    origin = pandas.Timestamp("1999-12-31 23:51", tz="UTC")
    got = gf.Series(ps).resample("17min", origin=origin).sum().to_pandas()
    pandas.testing.assert_series_equal(got, ps.resample("17min", origin=origin).sum())
    naive = pandas.Timestamp("1999-12-31 23:51")
    with pytest.raises(ValueError, match="The origin must have the same timezone as the index"):
        ps.resample("17min", origin=naive).sum()
    with pytest.raises(ValueError, match="The origin must have the same timezone as the index"):
        gf.Series(ps).resample("17min", origin=naive).sum()


@pytest.mark.parametrize("kwargs", [{"origin": "invalid"}, {"offset": "invalid"}, {"closed": "righttt"},
                                    {"label": "x"}])
def test_bad_options_raise_pandas_valueerror(native, kwargs):
    ps = series()
    with pytest.raises(ValueError) as expected:
        ps.resample("5min", **kwargs)
    with pytest.raises(ValueError) as got:
        gf.Series(ps).resample("5min", **kwargs)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("fn", ["median", "std", "var", "prod", "nunique", "sum", "mean", "count", "min", "first", "last"])
def test_aggregations_with_empty_bins(native, fn):
    rng = pandas.date_range("1/1/2000", periods=50, freq="7h", name="t")
    pdf = pandas.DataFrame({"a": np.arange(50.0), "b": np.arange(50) % 7}, index=rng)
    pdf.iloc[3:9] = np.nan
    pdf = pdf.drop(rng[20:30])
    g = gf.DataFrame(pdf)
    pandas.testing.assert_frame_equal(getattr(g.resample("D"), fn)().to_pandas(), getattr(pdf.resample("D"), fn)())
    pandas.testing.assert_series_equal(getattr(g["a"].resample("D"), fn)().to_pandas(),
                                       getattr(pdf["a"].resample("D"), fn)())
    pandas.testing.assert_series_equal(getattr(g.resample("D")["b"], fn)().to_pandas(),
                                       getattr(pdf.resample("D")["b"], fn)())


@pytest.mark.parametrize("spec", [["sum", "mean"], {"a": "sum", "b": ["min", "max"]}, {"a": "std"}])
def test_agg_lists_and_dicts(native, spec):
    rng = pandas.date_range("1/1/2000", periods=30, freq="5h")
    pdf = pandas.DataFrame({"a": np.arange(30.0), "b": np.arange(30) % 4}, index=rng)
    pandas.testing.assert_frame_equal(gf.DataFrame(pdf).resample("D").agg(spec).to_pandas(), pdf.resample("D").agg(spec))


def test_one_row_and_tz_aware_mean(native):
    one = series(n=1, tz="America/New_York")
    pandas.testing.assert_series_equal(gf.Series(one).resample("h").mean().to_pandas(), one.resample("h").mean())
    ps = series(n=30, freq="47min", tz=datetime.timezone(datetime.timedelta(hours=1)))
    pandas.testing.assert_series_equal(gf.Series(ps).resample("2h", label="right").mean().to_pandas(),
                                       ps.resample("2h", label="right").mean())


def test_grouper_with_options(native):
    rng = pandas.date_range("1/1/2000 00:07", periods=30, freq="31min")
    pdf = pandas.DataFrame({"t": rng, "x": np.arange(30.0)})
    grouper = pandas.Grouper(key="t", freq="90min", closed="right", label="right", origin="epoch")
    got = gf.DataFrame(pdf).groupby(grouper).sum().to_pandas()
    pandas.testing.assert_frame_equal(got, pdf.groupby(grouper).sum())
