"""Dates (date32) on the GPU engine: stored on the device as TIMESTAMP_DAYS and operated on there.

Two kinds of tests:
- **Against pandas** (``assert_matches_pandas``), for every operation a TPC-H-style query uses on a
  date column - comparisons with ``datetime.date`` scalars and date columns, ``between``, ``isin``,
  the calendar fields of ``.dt``, group keys, sort keys, join keys, min/max/nunique - on a
  ``read_parquet(..., dtype_backend="pyarrow")`` frame (``date32[pyarrow]``) and on the default
  backend (pandas' object column of ``datetime.date``), with missing values, no rows and one row.
  They run on whatever engine the suite runs on: the CPU engine, the GPU stand-in
  (``fake_pylibcudf``, ``GFRAME_ENGINE=gpu``) and a real GPU. On the GPU engine (stand-in or device)
  each also asserts that no node was handed to the CPU engine.
- **Placement** (no GPU library needed): the optimized plans of these queries place every node on
  the GPU (``placement.lower`` puts no node on the CPU).
"""
from __future__ import annotations

import datetime as dt
import os

import pandas
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gframe
from gframe.engines.gpu import placement as lowering
from gframe.optimizer import optimize
from gframe.testing import assert_matches_pandas, assert_native_on_gpu as native_on_gpu, assert_raises_like_pandas

SELFCHECK = os.environ.get("GFRAME_TEST_SELFCHECK") == "1"


def _dates(n: int) -> list:
    base = dt.date(1994, 11, 27)
    out = [base + dt.timedelta(days=53 * i) for i in range(n)]
    return [None if i % 5 == 3 else d for i, d in enumerate(out)]  # missing values


def _table(n: int) -> pa.Table:
    return pa.table({
        "d": pa.array(_dates(n), pa.date32()),
        "e": pa.array(list(reversed(_dates(n))), pa.date32()),
        "k": pa.array([["A", "B", "C"][i % 3] for i in range(n)], pa.string()),
        "x": pa.array([float(i) * 1.5 if i % 7 != 2 else None for i in range(n)], pa.float64()),
        "q": pa.array([i % 4 for i in range(n)], pa.int64()),
    })


SIZES = {"rows": 23, "one": 1, "empty": 0}


@pytest.fixture(params=list(SIZES))
def path(request, tmp_path):
    p = tmp_path / "dates.parquet"
    pq.write_table(_table(SIZES[request.param]), p)
    return str(p)


def arrow_frame(pd, path):
    return pd.read_parquet(path, dtype_backend="pyarrow")


D1, D2 = dt.date(1995, 3, 1), dt.date(1996, 6, 30)

# queries over a date32[pyarrow] frame (read_parquet(dtype_backend="pyarrow"))
ARROW_QUERIES = {
    "ge": lambda d: d[d.d >= D1],
    "lt_and_ge": lambda d: d[(d.d >= D1) & (d.d < D2)],
    "eq": lambda d: d.d == dt.date(1995, 3, 13),
    "ne": lambda d: d.d != dt.date(1995, 3, 13),
    "cmp_columns": lambda d: d[d.d < d.e],
    "between": lambda d: d[d.d.between(D1, D2)],
    "between_neither": lambda d: d.d.between(D1, D2, inclusive="neither"),
    "isin": lambda d: d[d.d.isin([dt.date(1995, 3, 13), dt.date(1997, 1, 1), dt.date(1996, 12, 8)])],
    "isna": lambda d: d.d.isna(),
    "year": lambda d: d.d.dt.year,
    "month": lambda d: d.d.dt.month,
    "day": lambda d: d.d.dt.day,
    "quarter": lambda d: d.d.dt.quarter,
    "dayofweek": lambda d: d.d.dt.day_of_week,
    "dayofyear": lambda d: d.d.dt.day_of_year,
    "year_filter": lambda d: d[d.d.dt.year == 1995],
    "group_key": lambda d: d.groupby("d").x.sum(),
    "group_key_unsorted": lambda d: d.groupby("d", sort=False).q.sum(),
    "group_keys_dropna": lambda d: d.groupby(["k", "d"], dropna=False).x.count(),
    "group_year": lambda d: d.assign(y=d.d.dt.year).groupby("y").x.sum(),
    "group_min_max": lambda d: d.groupby("k").agg(first=("d", "min"), last=("d", "max"), n=("d", "nunique")),
    "sort": lambda d: d.sort_values("d"),
    "sort_desc_first": lambda d: d.sort_values(["d", "q"], ascending=[False, True], na_position="first"),
    "nsmallest_by_sort": lambda d: d.sort_values("d").head(3),
    "join_key": lambda d: d[["d", "q"]].merge(d[["d", "k"]].drop_duplicates("d"), on="d", how="inner"),
    "join_left": lambda d: d[["d", "x"]].merge(d[["e", "k"]], left_on="d", right_on="e", how="left"),
    "drop_duplicates": lambda d: d.drop_duplicates("d"),
    "select": lambda d: d.assign(z=d.x * 2)[["d", "z"]],
    "min": lambda d: d.d.min(),
    "max": lambda d: d.d.max(),
    "tpch_q1_like": lambda d: d[d.d <= dt.date(1998, 9, 2)].groupby(["k"]).agg(s=("x", "sum"), n=("q", "count")),
    "tpch_q3_like": lambda d: (lambda f: f.assign(v=f.x * (1 - f.q / 10)))(d[d.d < D2]).groupby(["d", "k"]).v.sum()
    .sort_values(ascending=False).head(5),
}


@pytest.mark.parametrize("name", list(ARROW_QUERIES))
def test_date32_arrow_backed_matches_pandas(name, path):
    q = ARROW_QUERIES[name]
    native_on_gpu(lambda pd: q(arrow_frame(pd, path)))


# the default backend: pandas' object column of datetime.date (gframe's date32, numpy family)
OBJECT_QUERIES = {
    "ge": lambda d: d[d.d >= D1],
    "between": lambda d: d[d.d.between(D1, D2)],
    "eq": lambda d: d.d == dt.date(1995, 3, 13),
    "isin": lambda d: d[d.d.isin([dt.date(1995, 3, 13), dt.date(1996, 12, 8)])],
    "sort": lambda d: d.sort_values(["d", "q"]),
    "join_key": lambda d: d[["d", "q"]].merge(d[["d", "k"]].drop_duplicates("d"), on="d"),
    "group_key": lambda d: d.groupby("d").q.sum(),
}


@pytest.mark.parametrize("name", list(OBJECT_QUERIES))
def test_date32_object_column_matches_pandas(name, path):
    q = OBJECT_QUERIES[name]
    native_on_gpu(lambda pd: q(pd.read_parquet(path)))


def test_date32_from_an_arrow_backed_pandas_frame(path):
    """A frame built from pandas' date32[pyarrow] column (an upload, not a read)."""
    native_on_gpu(lambda pd: (lambda d: d[d.d > D1].sort_values("d"))(
        pd.DataFrame(pandas.read_parquet(path, dtype_backend="pyarrow"))))


def test_date32_round_trips_its_dtype(path):
    got = native_on_gpu(lambda pd: arrow_frame(pd, path)[["d", "k"]])
    assert str(got.d.dtype) == "date32[day][pyarrow]"


@pytest.mark.parametrize("value", ["1995-03-01", pandas.Timestamp("1995-03-01"), dt.datetime(1995, 3, 1)])
def test_date32_ordering_with_a_str_or_timestamp_raises_as_pandas(value, path):
    """pandas compares a date column with dates only: an ordering with a str or a Timestamp raises
    TypeError; in an object column of dates ``==`` is all False and ``!=`` all True."""
    assert_raises_like_pandas(lambda pd: arrow_frame(pd, path).d < value)
    assert_raises_like_pandas(lambda pd: arrow_frame(pd, path).d >= value)
    if len(pandas.read_parquet(path)):  # (pandas compares an empty object column without raising)
        assert_raises_like_pandas(lambda pd: pd.read_parquet(path).d > value)
    native_on_gpu(lambda pd: pd.read_parquet(path).d == value)
    native_on_gpu(lambda pd: pd.read_parquet(path).d != value)


# ------------------------------------------------------------------------- placement (no GPU)

def lowered(obj):
    """The physical plan of a gframe frame or Series (a Series' expression is over its frame's plan)."""
    if isinstance(obj, gframe.Series):
        obj = obj.to_frame()
    return lowering.lower(optimize(obj._plan))


PLACED = ["ge", "lt_and_ge", "cmp_columns", "between", "isin", "year", "quarter", "dayofweek", "year_filter",
          "group_key", "group_key_unsorted", "group_keys_dropna", "group_year", "group_min_max", "sort",
          "sort_desc_first", "join_key", "join_left", "drop_duplicates", "tpch_q1_like", "tpch_q3_like"]


@pytest.mark.skipif(SELFCHECK, reason="gframe's placement")
@pytest.mark.parametrize("name", PLACED)
def test_date32_plans_place_fully_on_the_gpu(name, tmp_path):
    p = tmp_path / "dates.parquet"
    pq.write_table(_table(23), p)
    with gframe.option_context(engine="cpu"):  # building the plan runs nothing
        obj = ARROW_QUERIES[name](gframe.read_parquet(str(p), dtype_backend="pyarrow"))
    low = lowered(obj)
    assert not low.cpu, f"placed on the CPU: {sorted(set(low.cpu.values()))}"
    assert not any(isinstance(n, (lowering.HostToDevice, lowering.DeviceToHost)) for n in low.plan.walk())


def test_placement_reasons_name_what_is_still_off_the_gpu():
    """date64 (gframe's object column of dates, from .dt.date) still runs on the CPU, with a reason."""
    from gframe.engines.gpu.support import schema_reason
    from gframe.plan.schema import Schema

    assert schema_reason(Schema.make([("d", pa.date32())])) is None
    r = schema_reason(Schema.make([("d", pa.date64())]))
    assert r is not None and "date64" in r


# ------------------------------------------------------------------ timestamps with a time zone
# stored on the device as their UTC instants; the zone is the plan's (``convert.device_type``) and
# comes back on the way out; wall-clock fields are computed there only in UTC

def _zoned(n: int, tz: str) -> pandas.DataFrame:
    ts = pandas.date_range("2021-03-13 20:00", periods=n, freq="7h", tz=tz, unit="us")
    ts = pandas.Series(ts).where([i % 4 != 2 for i in range(n)])  # missing values
    return pandas.DataFrame({"t": ts, "k": [["a", "b", "c"][i % 3] for i in range(n)],
                             "x": np.arange(n, dtype="float64")})


@pytest.fixture(params=[(23, "UTC"), (23, "America/New_York"), (1, "Asia/Kolkata"), (0, "UTC")],
                ids=["rows-utc", "rows-ny", "one-kolkata", "empty-utc"])
def zoned(request, tmp_path):
    n, tz = request.param
    p = tmp_path / "zoned.parquet"
    _zoned(n, tz).to_parquet(p)
    return str(p), tz


ZONED_QUERIES = {
    "roundtrip": lambda d, tz: d,
    "gt": lambda d, tz: d[d.t > pandas.Timestamp("2021-03-14 09:00", tz=tz)],
    "between": lambda d, tz: d[d.t.between(pandas.Timestamp("2021-03-14", tz=tz), pandas.Timestamp("2021-03-16", tz=tz))],
    "eq_str": lambda d, tz: d[d.t == "2021-03-14 10:00"] if tz == "UTC" else d[d.t.notna()],
    "sort": lambda d, tz: d.sort_values("t", ascending=False),
    "group_key": lambda d, tz: d.groupby("t").x.sum(),
    "group_min_max": lambda d, tz: d.groupby("k").agg(lo=("t", "min"), hi=("t", "max")),
    "join_key": lambda d, tz: d[["t", "x"]].merge(d[["t", "k"]].drop_duplicates("t"), on="t"),
    "sub": lambda d, tz: d.t - pandas.Timestamp("2021-03-01", tz=tz),
    "add_timedelta": lambda d, tz: d.t + pandas.Timedelta(hours=5),
    "max": lambda d, tz: d.t.max(),
}


@pytest.mark.parametrize("backend", ["numpy", "pyarrow"])
@pytest.mark.parametrize("name", list(ZONED_QUERIES))
def test_zoned_timestamps_match_pandas(name, backend, zoned):
    path, tz = zoned
    q = ZONED_QUERIES[name]
    kw = {"dtype_backend": "pyarrow"} if backend == "pyarrow" else {}
    native_on_gpu(lambda pd: q(pd.read_parquet(path, **kw), tz))


@pytest.mark.parametrize("field", ["year", "month", "day", "hour", "minute", "dayofweek"])
def test_zoned_fields_match_pandas(field, zoned):
    """Wall-clock fields (arrow-backed: native in gframe): on the device in UTC; in another zone
    on the CPU engine, which is checked against pandas only."""
    path, tz = zoned
    get = (lambda s: s.dt.day_of_week) if field == "dayofweek" else (lambda s: getattr(s.dt, field))
    if tz == "UTC":
        native_on_gpu(lambda pd: get(pd.read_parquet(path, dtype_backend="pyarrow").t))
    else:
        assert_matches_pandas(lambda pd: get(pd.read_parquet(path, dtype_backend="pyarrow").t))


@pytest.mark.skipif(SELFCHECK, reason="gframe's placement")
def test_zoned_plans_place_on_the_gpu_and_local_fields_do_not(tmp_path):
    p = tmp_path / "zoned.parquet"
    _zoned(23, "America/New_York").to_parquet(p)
    with gframe.option_context(engine="cpu"):
        d = gframe.read_parquet(str(p), dtype_backend="pyarrow")
        ok = [ZONED_QUERIES[n](d, "America/New_York") for n in ("gt", "between", "sort", "group_key", "join_key", "sub")]
        hour = d.t.dt.hour
    for obj in ok:
        low = lowered(obj)
        assert not low.cpu, f"placed on the CPU: {sorted(set(low.cpu.values()))}"
    low = lowered(hour)
    reasons = list(low.cpu.values())
    assert len(reasons) == 1 and "time zone other than UTC" in reasons[0]


# ------------------------------------------------------------------------------------- decimals
# stored on the device as DECIMAL128 of their scale (libcudf keeps no precision: the plan's type,
# ``GpuTable.logical``, gives it back); what gframe computes on decimals natively runs there

def _decimal_table(n: int) -> pa.Table:
    import decimal

    vals = [None if i % 6 == 4 else decimal.Decimal(f"{(i * 7919) % 2000 - 500}.{i % 100:02d}") for i in range(n)]
    return pa.table({"p": pa.array(vals, pa.decimal128(12, 2)),
                     "w": pa.array([None if v is None else v * 3 for v in vals], pa.decimal128(20, 2)),
                     "k": pa.array([["a", "b", "c"][i % 3] for i in range(n)], pa.string()),
                     "x": pa.array(np.arange(n, dtype="float64"))})


@pytest.fixture(params=list(SIZES))
def decimals(request, tmp_path):
    p = tmp_path / "decimals.parquet"
    pq.write_table(_decimal_table(SIZES[request.param]), p)
    return str(p)


DECIMAL_QUERIES = {
    "roundtrip": lambda d: d,
    "gt_int": lambda d: d[d.p > 100],
    "le_int": lambda d: d[d.p <= -3],
    "cmp_cols": lambda d: d[d.w >= d.w],
    "sort": lambda d: d.sort_values(["p", "x"], ascending=[False, True]),
    "group_sum": lambda d: d.groupby("k").agg(s=("p", "sum"), lo=("p", "min"), hi=("w", "max"), n=("p", "count")),
    "group_key": lambda d: d.groupby("p").x.sum(),
    "join_key": lambda d: d[["p", "x"]].merge(d[["p", "k"]].drop_duplicates("p"), on="p"),
    "sum": lambda d: d.p.sum(),
    "max": lambda d: d.w.max(),
    "astype_float": lambda d: d.p.astype("float64"),
}


@pytest.mark.parametrize("name", list(DECIMAL_QUERIES))
def test_decimals_match_pandas(name, decimals):
    q = DECIMAL_QUERIES[name]
    native_on_gpu(lambda pd: q(pd.read_parquet(decimals, dtype_backend="pyarrow")))


@pytest.mark.skipif(SELFCHECK, reason="gframe's placement")
def test_decimal_plans_place_on_the_gpu(tmp_path):
    p = tmp_path / "decimals.parquet"
    pq.write_table(_decimal_table(23), p)
    with gframe.option_context(engine="cpu"):
        d = gframe.read_parquet(str(p), dtype_backend="pyarrow")
        objs = [DECIMAL_QUERIES[n](d) for n in ("gt_int", "sort", "group_sum", "group_key", "join_key",
                                                "astype_float")]
    for obj in objs:
        low = lowered(obj)
        assert not low.cpu, f"placed on the CPU: {sorted(set(low.cpu.values()))}"


# ------------------------------------------------------------------- read_parquet(filters=...)
# pyarrow's filters as a Filter over the scan (pushed into it: row groups pruned by statistics,
# the rest filtered on the device), with pyarrow's missing-value rules

FILTERS = {
    "date_range": [("d", ">=", dt.date(1995, 6, 1)), ("d", "<", dt.date(1997, 1, 1))],
    "ne_drops_missing": [("x", "!=", 3.0)],
    "in_strings": [("k", "in", ["A", "C"])],
    "not_in_keeps_missing": [("x", "not in", [3.0, 4.5])],
    "or_of_ands": [[("d", ">=", dt.date(1997, 1, 1))], [("k", "==", "B"), ("q", ">", 1)]],
    "int_vs_float": [("q", "<=", 1.5)],
}


@pytest.mark.parametrize("backend", [None, "pyarrow", "numpy_nullable"])
@pytest.mark.parametrize("name", list(FILTERS))
def test_read_parquet_filters_match_pandas(name, backend, tmp_path):
    p = tmp_path / "groups.parquet"
    pq.write_table(_table(50), p, row_group_size=8)
    kw = {} if backend is None else {"dtype_backend": backend}
    native_on_gpu(lambda pd: pd.read_parquet(str(p), filters=FILTERS[name], **kw))
    native_on_gpu(lambda pd: pd.read_parquet(str(p), columns=["k", "x"], filters=FILTERS[name], **kw))


def test_read_parquet_filters_gframe_cannot_translate_are_read_by_pandas(tmp_path):
    """A value of another kind than the column (pyarrow's error), an unknown column: as pandas."""
    p = tmp_path / "groups.parquet"
    pq.write_table(_table(10), p)
    assert_raises_like_pandas(lambda pd: pd.read_parquet(str(p), filters=[("d", ">=", "1997-01-01")]))
    assert_raises_like_pandas(lambda pd: pd.read_parquet(str(p), filters=[("nope", ">=", 1)]))
    assert_matches_pandas(lambda pd: pd.read_parquet(str(p), filters=[("x", "in", [None, 1.5])]))


@pytest.mark.skipif(SELFCHECK, reason="gframe's placement")
def test_read_parquet_filters_place_on_the_gpu(tmp_path):
    p = tmp_path / "groups.parquet"
    pq.write_table(_table(50), p, row_group_size=8)
    with gframe.option_context(engine="cpu"):
        objs = [gframe.read_parquet(str(p), filters=f, dtype_backend="pyarrow") for f in FILTERS.values()]
    for obj in objs:
        low = lowered(obj)
        assert not low.cpu, f"placed on the CPU: {sorted(set(low.cpu.values()))}"


def test_a_date_range_prunes_row_groups_by_their_statistics(tmp_path):
    """Row groups whose date statistics rule the filter out are not read (both engines read the
    row groups ``FileSnapshot.row_groups`` names)."""
    from gframe.io.parquet import read_columns
    from gframe.plan.source import FileSnapshot

    p = tmp_path / "groups.parquet"
    pq.write_table(_table(50), p, row_group_size=8)  # dates ascend: each row group a date range
    with gframe.option_context(engine="cpu"):
        d = gframe.read_parquet(str(p), dtype_backend="pyarrow")
        q = d[(d.d >= dt.date(1996, 1, 1)) & (d.d < dt.date(1996, 6, 1))]
    scan = optimize(q._plan)
    while not hasattr(scan, "predicate") or scan.predicate is None:
        scan = scan.children[0]
    src = FileSnapshot(str(p), pq.ParquetFile(p).metadata, read_columns)
    reverse = {v: k for k, v in scan.file_columns}
    groups = src.row_groups(scan.predicate, scan.file_schema.dtype_of, reverse, None)
    assert 0 < len(groups) < len(src.sizes)
    native_on_gpu(lambda pd: (lambda f: f[(f.d >= dt.date(1996, 1, 1)) & (f.d < dt.date(1996, 6, 1))])(
        pd.read_parquet(str(p), dtype_backend="pyarrow")))


@pytest.mark.parametrize("backend", [None, "pyarrow", "numpy_nullable"])
@pytest.mark.parametrize("date_as_object", [False, True])
def test_read_parquet_dates_as_timestamps_match_pandas(date_as_object, backend, path):
    """``to_pandas_kwargs={"date_as_object": False}`` (TPC-H's numpy variant): dates arrive as
    datetime64[ms] (date32[pyarrow] with the arrow backend), read natively; then compared with a
    Timestamp, grouped by year, sorted."""
    kw = {"to_pandas_kwargs": {"date_as_object": date_as_object}}
    if backend is not None:
        kw["dtype_backend"] = backend
    native_on_gpu(lambda pd: pd.read_parquet(path, **kw))
    if not date_as_object and backend != "pyarrow":
        native_on_gpu(lambda pd: (lambda f: f.assign(y=f.d.dt.year).groupby("y").x.sum())(
            (lambda f: f[f.d >= pandas.Timestamp("1995-06-01")])(pd.read_parquet(path, **kw))))
        native_on_gpu(lambda pd: pd.read_parquet(path, **kw).sort_values(["d", "q"]))


def test_zoned_and_decimal_columns_cross_between_engines(tmp_path):
    """A plan mixing GPU nodes and a CPU one (a wall-clock field in New York) moves zoned
    timestamps and decimals host <-> device with their exact types."""
    p = tmp_path / "mixed.parquet"
    t = pa.Table.from_pandas(_zoned(23, "America/New_York"), preserve_index=False)
    t = t.append_column("p", _decimal_table(23).column("p"))
    pq.write_table(t, p)

    def q(pd):
        d = pd.read_parquet(str(p), dtype_backend="pyarrow")
        d = d[d.t > pandas.Timestamp("2021-03-14 06:00", tz="America/New_York")]
        d = d.assign(h=d.t.dt.hour)  # on the CPU engine (local time)
        return d.sort_values(["h", "p"]).groupby("h").agg(t=("t", "max"), p=("p", "sum"))

    assert_matches_pandas(q)
