"""The GPU engine (pylibcudf): the same plans give the same results on the CPU and the GPU engines.

For every native operation the result on ``engine="gpu"`` equals the one on ``engine="cpu"`` (values,
dtypes, index, row order), with missing values, strings, datetimes and empty inputs, and the plan ran
on the GPU (no node handed to the CPU engine). Further: results stay on the device between queries,
``repr`` copies only the rows it shows, a node the GPU does not lower runs on the CPU engine with
explicit transfers (in ``explain()`` and the fallback report), and an out-of-memory error names the
node or re-runs it on the CPU. Tests that need a GPU are marked ``gpu`` and skipped where there is
none; the placement tests need none.
"""
from __future__ import annotations

import os

import numpy as np
import pandas
import pyarrow as pa
import pandas.testing as pdt
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import placement as lowering
from gframe.plan import logical as L
from gframe.plan.expr import Col, Lit, func
from gframe.testing import to_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

NO_GPU = engines.gpu_unavailable_reason()
def needs_gpu(fn):
    return pytest.mark.gpu(pytest.mark.skipif(NO_GPU is not None, reason=f"no GPU here: {NO_GPU}")(fn))


def _frame() -> pandas.DataFrame:
    """Numbers, bools, strings and datetimes, each with missing values where pandas has them."""
    return pandas.DataFrame({
        "k": [1, 2, 1, 3, 2, 1, 3, 2],
        "i": [5, -3, 0, 7, 2, 2, -8, 4],
        "f": [1.5, np.nan, -2.25, 0.0, 3.0, np.nan, 10.5, -1.0],
        "b": [True, False, True, True, False, False, True, False],
        "s": pandas.Series(["apple", None, "Banana", "cherry", "apple", "date", " fig ", "kiwi"], dtype="str"),
        "g": pandas.Series(["x", "y", "x", None, "y", "x", "z", None], dtype="str"),
        "t": pandas.to_datetime(["2021-03-01 10:15:30.250", None, "2020-12-31 23:59:59", "2021-01-15 00:00:00",
                                 "2021-03-01 08:00:00", "2022-07-04 12:30:45.5", "2019-02-28 06:07:08",
                                 "2021-03-01 10:15:30.250"], format="ISO8601"),
    })


def _right() -> pandas.DataFrame:
    return pandas.DataFrame({
        "g": pandas.Series(["y", "x", None, "w", "x"], dtype="str"),
        "k": [2.0, 1.0, 3.0, 9.0, 1.0],
        "r": [10, 20, 30, 40, 50],
    })


def df(mod, empty: bool = False):
    p = _frame()
    return mod.DataFrame(p.iloc[0:0] if empty else p)


def run_on(engine: str, fn) -> object:
    with gframe.option_context(engine=engine):
        return to_pandas(fn(gframe))


def _compare(want: object, got: object) -> None:
    if isinstance(want, pandas.DataFrame):
        pdt.assert_frame_equal(got, want, check_exact=False, rtol=1e-9)
    elif isinstance(want, pandas.Series):
        pdt.assert_series_equal(got, want, check_exact=False, rtol=1e-9)
    elif isinstance(want, float) and np.isnan(want):
        assert isinstance(got, float) and np.isnan(got), got
    elif isinstance(want, (float, np.floating)):
        assert type(got) is type(want) and got == pytest.approx(want, rel=1e-9), (got, want)
    else:
        assert got == want and type(got) is type(want), (got, want)


def same_on_both(fn, native: bool = True) -> object:
    """``fn(gframe)`` gives the same on both engines; ``native``: nothing ran on the CPU engine."""
    want = run_on("cpu", fn)
    gframe.fallback_report(clear=True)
    got = run_on("gpu", fn)
    handed = [e for e in gframe.fallback_report() if e.kind == "cpu"]
    _compare(want, got)
    if native:
        assert not handed, f"ran on the CPU engine: {handed}"
    return got


# ------------------------------------------------------------------------- element-wise ops
ELEMENTWISE = {
    "add": lambda d: d.i + d.k,
    "sub_lit": lambda d: d.i - 3,
    "mul_mixed": lambda d: d.i * d.f,
    "truediv": lambda d: d.f / d.i,
    "div_by_zero": lambda d: d.i / 0,
    "floordiv_lit": lambda d: d.i // 3,
    "mod_lit": lambda d: d.i % 3,
    "pow_float": lambda d: d.f ** 2,
    "neg": lambda d: -d.f,
    "abs": lambda d: d.i.abs(),
    "bool_add": lambda d: d.b + d.b,
    "bool_int": lambda d: d.b + d.i,
    "gt": lambda d: d.f > 1,
    "eq_cols": lambda d: d.f == d.f,
    "ne_null": lambda d: d.f != 1.5,
    "int_float_cmp": lambda d: d.i >= d.f,
    "str_eq": lambda d: d.s == "apple",
    "str_lt": lambda d: d.s < "b",
    "str_ne_cols": lambda d: d.s != d.g,
    "ts_gt": lambda d: d.t > pandas.Timestamp("2021-01-01"),
    "and": lambda d: (d.f > 0) & d.b,
    "or_not": lambda d: (d.f > 0) | ~d.b,
    "xor": lambda d: d.b ^ (d.i > 0),
    "int_and": lambda d: d.i & d.k,
    "isna": lambda d: d.f.isna(),
    "notna_str": lambda d: d.s.notna(),
    "isna_ts": lambda d: d.t.isna(),
    "fillna_num": lambda d: d.f.fillna(0),
    "fillna_str": lambda d: d.s.fillna("zz"),
    "where": lambda d: d.f.where(d.b),
    "where_other": lambda d: d.i.where(d.b, 0),
    "clip": lambda d: d.f.clip(0, 5),
    "clip_lower": lambda d: d.i.clip(lower=0),
    "round": lambda d: d.f.round(1),
    "isin": lambda d: d.i.isin([2, 5]),
    "isin_str_none": lambda d: d.s.isin(["apple", None]),
    "astype_float": lambda d: d.i.astype("float64"),
    "astype_f32": lambda d: d.f.astype("float32"),
    "astype_str": lambda d: d.i.astype(str),
    "astype_int": lambda d: d.b.astype("int64"),
    "str_len": lambda d: d.s.str.len(),
    "str_lower": lambda d: d.s.str.lower(),
    "str_upper": lambda d: d.s.str.upper(),
    "str_strip": lambda d: d.s.str.strip(),
    "str_rstrip_chars": lambda d: d.s.str.rstrip("e"),
    "str_contains": lambda d: d.s.str.contains("an", regex=False),
    "str_contains_re": lambda d: d.s.str.contains("^a.*e$"),
    "str_contains_case": lambda d: d.s.str.contains("AN", case=False, regex=False),
    "str_startswith": lambda d: d.s.str.startswith("a"),
    "str_endswith": lambda d: d.s.str.endswith(("e", "y")),
    "str_replace": lambda d: d.s.str.replace("a", "o", regex=False),
    "str_slice": lambda d: d.s.str.slice(1, 3),
    "str_concat": lambda d: d.s + "!",
    "str_concat_cols": lambda d: d.s + d.g,
    "dt_year": lambda d: d.t.dt.year,
    "dt_month": lambda d: d.t.dt.month,
    "dt_day": lambda d: d.t.dt.day,
    "dt_hour": lambda d: d.t.dt.hour,
    "dt_minute": lambda d: d.t.dt.minute,
    "dt_second": lambda d: d.t.dt.second,
    "dt_dayofweek": lambda d: d.t.dt.dayofweek,
    "dt_quarter": lambda d: d.t.dt.quarter,
    "dt_dayofyear": lambda d: d.t.dt.dayofyear,
    "dt_microsecond": lambda d: d.t.dt.microsecond,
    "dt_floor": lambda d: d.t.dt.floor("h"),
    "dt_ceil": lambda d: d.t.dt.ceil("D"),
    "dt_round": lambda d: d.t.dt.round("15min"),
    "ts_sub": lambda d: d.t - d.t,
}


@needs_gpu
@pytest.mark.parametrize("empty", [False, True], ids=["rows", "empty"])
@pytest.mark.parametrize("name", list(ELEMENTWISE))
def test_elementwise(name, empty):
    op = ELEMENTWISE[name]
    same_on_both(lambda pd: op(df(pd, empty)))


# ------------------------------------------------------------------------------ relational ops
RELATIONAL = {
    "filter": lambda d: d[d.f > 0],
    "filter_str": lambda d: d[d.s.str.contains("a", regex=False)],
    "filter_ts": lambda d: d[d.t.notna() & (d.t.dt.year == 2021)],
    "select_assign": lambda d: d.assign(x=d.i * 2, y=1)[["x", "y", "s"]],
    "sort": lambda d: d.sort_values("f"),
    "sort_desc_first": lambda d: d.sort_values("f", ascending=False, na_position="first"),
    "sort_multi": lambda d: d.sort_values(["g", "i"], ascending=[True, False]),
    "sort_str": lambda d: d.sort_values("s"),
    "sort_ts": lambda d: d.sort_values("t"),
    "sort_index": lambda d: d.sort_values("f").sort_index(),
    "head": lambda d: d.head(3),
    "tail": lambda d: d.tail(3),
    "iloc": lambda d: d.iloc[2:6],
    "nlargest": lambda d: d.nlargest(3, "i"),
    "nsmallest": lambda d: d.nsmallest(3, "f"),
    "drop_duplicates": lambda d: d.drop_duplicates(subset=["g"]),
    "drop_duplicates_last": lambda d: d.drop_duplicates(subset=["g", "k"], keep="last"),
    "drop_duplicates_none": lambda d: d.drop_duplicates(subset=["k"], keep=False),
    "set_index": lambda d: d.set_index("g"),
    "reset_index": lambda d: d.set_index(["g", "k"]).reset_index(),
    "concat": lambda d: gframe_concat(d, [d[["i", "s"]], d[["i", "f"]]]),
    "concat_ignore": lambda d: gframe_concat(d, [d[["i", "s"]], d[["f", "s"]]], ignore_index=True),
    "take": lambda d: d.iloc[[2, 0, 5, 0]] if len(d) else d.iloc[[]],
    "concat_axis1": lambda d: gframe_concat(d, [d[["i"]], (d.f * 2).rename("f2")], axis=1),
    "concat_axis1_positional": lambda d: gframe_concat(d, [d[["i"]].reset_index(drop=True), d[["s"]].head(3).reset_index(
        drop=True)], axis=1),
    "concat_axis1_index": lambda d: gframe_concat(d, [d.set_index("k")[["i"]].head(4), d.set_index("k")[["f"]].tail(
        5)], axis=1),
    "series_align": lambda d: d.f + d.sort_values("f").i,
    "shift": lambda d: d.assign(p=d.f.shift(1), q=d.s.shift(-2)),
    "duplicated": lambda d: d.duplicated(subset=["g"]),
    "duplicated_last": lambda d: d.duplicated(subset=["g", "k"], keep="last"),
    "duplicated_none": lambda d: d.k.duplicated(keep=False),
    "transform": lambda d: d.groupby("g").f.transform("sum"),
    "transform_mean": lambda d: d.groupby("k").i.transform("mean"),
    "cumcount": lambda d: d.groupby("g").cumcount(),
    "cumcount_desc": lambda d: d.groupby("k").cumcount(ascending=False),
    "groupby_head": lambda d: d.groupby("g").head(2),
    "groupby_head_dropna": lambda d: d.groupby("g", dropna=False).head(1),
}


def gframe_concat(d, frames, **kw):
    mod = gframe if type(d).__module__.startswith("gframe") else pandas
    return mod.concat(frames, **kw)


@needs_gpu
@pytest.mark.parametrize("empty", [False, True], ids=["rows", "empty"])
@pytest.mark.parametrize("name", list(RELATIONAL))
def test_relational(name, empty):
    op = RELATIONAL[name]
    same_on_both(lambda pd: op(df(pd, empty)))


AGGS = ["sum", "mean", "min", "max", "count", "size", "std", "var", "median", "prod", "nunique", "first",
        "last"]


@needs_gpu
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("agg", AGGS)
def test_groupby(agg, sort, dropna):
    same_on_both(lambda pd: getattr(df(pd).groupby("g", sort=sort, dropna=dropna)[["i", "f"]], agg)())


@pytest.mark.parametrize("case", ["multi_key", "as_index_false", "strings", "bools", "named", "ts_minmax",
                                  "int_key", "empty"])
@needs_gpu
def test_groupby_variants(case):
    ops = {
        "multi_key": lambda d: d.groupby(["g", "k"], dropna=False).f.agg(["sum", "count", "mean"]),
        "as_index_false": lambda d: d.groupby("k", as_index=False, sort=False).agg({"i": "sum", "f": "max"}),
        "strings": lambda d: d.groupby("k").s.agg(["min", "max", "count", "nunique", "first", "last"]),
        "bools": lambda d: d.groupby("g").b.agg(["sum", "mean", "any", "all"]),
        "named": lambda d: d.groupby("g", sort=False).agg(total=("i", "sum"), n=("f", "size"), sd=("f", "std")),
        "ts_minmax": lambda d: d.groupby("k").t.agg(["min", "max"]),
        "int_key": lambda d: d.groupby("i").f.sum(),
        "empty": lambda d: d.iloc[0:0].groupby("g").f.sum(),
    }
    same_on_both(lambda pd: ops[case](df(pd)))


@needs_gpu
@pytest.mark.parametrize("fn", ["sum", "mean", "min", "max", "count", "std", "var", "median", "prod", "nunique"])
@pytest.mark.parametrize("empty", [False, True], ids=["rows", "empty"])
def test_reductions(fn, empty):
    same_on_both(lambda pd: getattr(df(pd, empty).f, fn)())
    same_on_both(lambda pd: getattr(df(pd, empty).i, fn)())


@needs_gpu
def test_reductions_strings_and_bools():
    same_on_both(lambda pd: df(pd).s.min())
    same_on_both(lambda pd: df(pd).s.nunique())
    same_on_both(lambda pd: df(pd).b.any())
    same_on_both(lambda pd: df(pd).b.all())
    same_on_both(lambda pd: df(pd).b.sum())


@needs_gpu
@pytest.mark.parametrize("how", ["inner", "left", "right", "outer", "cross"])
def test_merge(how):
    if how == "cross":
        same_on_both(lambda pd: df(pd)[["i", "g"]].merge(pd.DataFrame(_right()), how="cross"))
        return
    same_on_both(lambda pd: df(pd)[["g", "i", "f"]].merge(pd.DataFrame(_right()), on="g", how=how))
    # an int key joined to a float key, suffixes for the common column
    same_on_both(lambda pd: df(pd)[["k", "g", "i"]].merge(pd.DataFrame(_right()), on="k", how=how))
    same_on_both(lambda pd: df(pd)[["i", "g"]].merge(pd.DataFrame(_right()), left_on="g", right_on="g", how=how,
                                                     sort=True))


@needs_gpu
@pytest.mark.parametrize("how", ["inner", "left", "right", "outer"])
def test_merge_result_columns_gathered_when_read(how):
    """A held join result keeps its gathered sides deferred (``table.LazyGather``): ``len`` gathers
    nothing, a column read alone is gathered alone, and every way of reading the result gives
    pandas' answer (strings, missing values, the rows a side lacks)."""
    from gframe.engines.gpu.table import Deferred, GpuTable

    rng = np.random.default_rng(5)
    n = 3000
    left = pandas.DataFrame({"k": rng.integers(0, 60, n), "s": rng.choice(["a", "bb", None], n),
                             "v": rng.random(n)})
    right = pandas.DataFrame({"k": np.arange(0, 80, 2), "t": [f"r{i}" for i in range(40)], "w": np.arange(40.0)})
    want = left.merge(right, on="k", how=how)
    with gframe.option_context(engine="gpu"):
        got = gframe.DataFrame(left).merge(gframe.DataFrame(right), on="k", how=how)
        assert len(got) == len(want)
        res = engines.cached(got._plan)
        assert res is not None and isinstance(res.native, GpuTable)
        deferred = {name for name, c in zip(res.native.names, res.native._cols) if isinstance(c, Deferred)}
        # the gathered sides' columns wait (an outer join's rows are then sorted by key: all gathered)
        assert bool(deferred) == (how != "outer")
        assert float(got["w"].sum()) == want["w"].sum()
        assert float(got["v"].sum()) == want["v"].sum()
        pdt.assert_frame_equal(to_pandas(got), want)
        assert not any(isinstance(c, Deferred) for c in res.native._cols)


@needs_gpu
def test_merge_empty_and_index_joins():
    same_on_both(lambda pd: df(pd, empty=True)[["g", "i"]].merge(pd.DataFrame(_right()), on="g"))
    same_on_both(lambda pd: df(pd)[["g", "i"]].merge(pd.DataFrame(_right()).iloc[0:0], on="g", how="left"))
    for how in ("left", "inner", "outer", "right"):
        same_on_both(lambda pd: pd.DataFrame({"a": [1, 2, 3]}, index=["x", "y", "z"]).join(
            pd.DataFrame({"b": ["p", None, "q"]}, index=["z", "x", "w"]), how=how))


@needs_gpu
def test_read_parquet_with_columns_and_filter(tmp_path):
    path = str(tmp_path / "data.parquet")
    p = _frame()
    p.to_parquet(path, row_group_size=3)
    same_on_both(lambda pd: pd.read_parquet(path))
    same_on_both(lambda pd: pd.read_parquet(path, columns=["i", "s"]))
    same_on_both(lambda pd: (lambda d: d[(d.i > 0) & (d.s != "apple")][["s", "f"]])(pd.read_parquet(path)))
    same_on_both(lambda pd: pd.read_parquet(path).head(4))
    # the scan itself, with the column list and filter the optimizer pushes into it (a file of its
    # own: the scans above are cached results now)
    other = str(tmp_path / "other.parquet")
    p.to_parquet(other, row_group_size=3)
    q = gframe.read_parquet(other)
    q = q[(q.i > 1) & (q.k <= 2)][["f", "t"]]
    with gframe.option_context(engine="gpu"):
        physical = engines.prepare(q._plan, engines.get_engine())
        scans = [n for n in physical.walk() if isinstance(n, L.ParquetScan)]
        assert scans and engines.get_engine().placement(physical)[id(scans[0])] == "gpu"


@needs_gpu
def test_read_csv_on_the_device(tmp_path, monkeypatch):
    """A big CSV (lazy ``CsvScan``) is parsed by libcudf's reader, only the columns asked for."""
    from gframe.io import csv as gcsv

    monkeypatch.setattr(gcsv, "LAZY_CSV_BYTES", 4096)
    rng = np.random.default_rng(1)
    n = 3000
    p = pandas.DataFrame({"a": rng.integers(-50, 100, n), "b": rng.random(n).round(4),
                          "s": rng.choice(["x", "y", "long text, quoted", ""], n),
                          "flag": rng.choice([True, False], n), "c": rng.integers(0, 5, n)})
    p.loc[::7, "b"] = np.nan
    path = str(tmp_path / "big.csv")
    p.to_csv(path, index=False)
    same_on_both(lambda pd: pd.read_csv(path))
    same_on_both(lambda pd: (lambda d: d[d.a > 20][["s", "b", "flag"]])(pd.read_csv(path)))
    same_on_both(lambda pd: pd.read_csv(path, usecols=["c", "s"]).groupby("s").c.sum())
    q = gframe.read_csv(path)
    q = q[q.c > 2][["b"]]
    with gframe.option_context(engine="gpu"):
        physical = engines.prepare(q._plan, engines.get_engine())
        scans = [n for n in physical.walk() if isinstance(n, L.CsvScan)]
        assert scans and engines.get_engine().placement(physical)[id(scans[0])] == "gpu"
        assert sorted(scans[0].schema.names) == ["b", "c"]


@needs_gpu
def test_read_csv_with_dtype_and_header_on_the_device(tmp_path, monkeypatch):
    """``dtype=`` (numbers narrowed or widened, text kept as text) and ``header=0`` parse on the
    device: the scan is placed there, and the answers, dtypes and errors are pandas'."""
    from gframe.io import csv as gcsv

    monkeypatch.setattr(gcsv, "LAZY_CSV_BYTES", 4096)
    rng = np.random.default_rng(2)
    n = 3000
    p = pandas.DataFrame({"a": rng.integers(-50, 100, n), "b": rng.integers(0, 9, n), "z": rng.integers(0, 99, n),
                          "s": rng.choice(["x", "y"], n)})
    path = str(tmp_path / "typed.csv")
    p.to_csv(path, index=False)
    kw = {"dtype": {"a": "int32", "b": "float64", "z": "str"}, "header": 0}
    same_on_both(lambda pd: pd.read_csv(path, **kw))
    same_on_both(lambda pd: pd.read_csv(path, **kw).groupby("z").a.sum())
    q = gframe.read_csv(path, **kw)
    with gframe.option_context(engine="gpu"):
        physical = engines.prepare(q._plan, engines.get_engine())
        scans = [n for n in physical.walk() if isinstance(n, L.CsvScan)]
        assert scans and engines.get_engine().placement(physical)[id(scans[0])] == "gpu"
    # a value past the sample that int32 cannot hold: pandas' ValueError
    with open(path, "a") as fh:
        fh.write("3000000000,1,1,x\n")
    monkeypatch.setattr(gframe.options, "verify_optimizer", False)
    with pytest.raises(ValueError, match="cannot safely convert passed user dtype of int32"):
        pandas.read_csv(path, dtype={"a": "int32"})
    with gframe.option_context(engine="gpu"):
        with pytest.raises(ValueError, match="cannot safely convert passed user dtype of int32"):
            gframe.read_csv(path, dtype={"a": "int32"}).a.sum()


@needs_gpu
def test_read_csv_whose_type_changes_after_the_sample_raises_on_the_device(tmp_path, monkeypatch):
    from gframe.io import csv as gcsv

    monkeypatch.setattr(gcsv, "LAZY_CSV_BYTES", 4096)
    path = str(tmp_path / "late.csv")
    with open(path, "w") as fh:
        fh.write("a,b\n")
        for i in range(2000):
            fh.write(f"{i},{i}\n")
        fh.write(",7\n")  # "a" has a missing value: float64 for pandas, int64 in the sample
    monkeypatch.setattr(gframe.options, "verify_optimizer", False)
    with gframe.option_context(engine="gpu"):
        df = gframe.read_csv(path)
        assert df.b.sum() == sum(range(2000)) + 7
        with pytest.raises(ValueError, match="dtype="):
            df.a.sum()


# ------------------------------------------------------------------------------ the engine itself
@needs_gpu
def test_results_stay_on_the_device(monkeypatch):
    from gframe.engines.gpu import convert, kernels
    from gframe.engines.gpu.table import GpuTable

    uploads: list[int] = []
    real = convert.upload

    def counting(table):
        uploads.append(table.num_rows)
        return real(table)

    monkeypatch.setattr(convert, "upload", counting)
    monkeypatch.setattr(kernels, "upload", counting)
    with gframe.option_context(engine="gpu"):
        d = gframe.DataFrame(pandas.concat([_frame()] * 200, ignore_index=True))
        assert len(d) == 1600
        assert uploads == [1600]
        assert isinstance(engines.materialize(d._plan).native, GpuTable)
        # later queries start from the device table: no new upload
        a = d[d.f > 0].groupby("g").i.sum()
        b = d.merge(d[["g", "k"]], on="g")
        assert len(a) and len(b)
        assert isinstance(engines.materialize(a._plan).native, GpuTable)
        assert uploads == [1600]


@needs_gpu
def test_repr_copies_only_the_rows_it_shows(monkeypatch):
    from gframe.engines.gpu import convert

    copies: list[tuple[int, object]] = []
    real = convert.download

    def spy(t, offset=0, length=None):
        copies.append((offset, length))
        return real(t, offset, length)

    monkeypatch.setattr(convert, "download", spy)
    with gframe.option_context(engine="gpu"):
        d = gframe.DataFrame({"a": np.arange(10_000), "b": np.arange(10_000) * 0.5})
        text = repr(d[d.a % 2 == 0])
    assert "[5000 rows x 2 columns]" in text
    assert copies and all(length is not None and length <= 10 for _, length in copies), copies


def _unsupported_query(pd):
    d = df(pd)
    return d.assign(u=d.s.str.title()).groupby("u").i.sum()


@needs_gpu
def test_partial_fallback_runs_one_node_on_the_cpu():
    got = same_on_both(_unsupported_query, native=False)
    pdt.assert_series_equal(got, _unsupported_query(pandas))
    handed = [e for e in gframe.fallback_report() if e.kind == "cpu"]
    assert handed and all(e.reason for e in handed)
    assert any(e.bytes_moved > 0 for e in handed)
    with gframe.option_context(engine="gpu"):
        text = _unsupported_query(gframe).explain()
    assert "[gpu]" in text and "cpu: function 'str.title'" in text


@needs_gpu
def test_out_of_memory_names_the_node_or_runs_it_on_the_cpu():
    from gframe.engines.gpu import memory

    with gframe.option_context(engine="gpu"):
        d = gframe.DataFrame({"k": np.arange(20_000) % 7, "v": np.arange(20_000) * 1.0})
        len(d)  # on the device before the limit
        q = d.groupby("k").v.sum()
        with memory.limit(1024):
            with pytest.raises(MemoryError, match="Aggregate"):
                len(q)
        q2 = d.groupby("k").v.mean()
        gframe.fallback_report(clear=True)
        with gframe.option_context(oom="cpu"), memory.limit(1024):
            n = len(q2)
        assert n == 7
        assert any("out of memory" in e.reason for e in gframe.fallback_report() if e.kind == "cpu")
        pdt.assert_series_equal(q2.to_pandas(), pandas.DataFrame({"k": np.arange(20_000) % 7,
                                                                  "v": np.arange(20_000) * 1.0}).groupby("k").v.mean())


@needs_gpu
def test_memory_resource_is_set_up_once():
    from gframe.engines.gpu import memory

    with gframe.option_context(engine="gpu"):
        len(gframe.DataFrame({"a": [1]}))
    assert memory.mode() in ("managed", "pool", "async", "cuda")
    # the option's allocator (the default: async), or the device pool where the driver cannot be
    # asked for memory pools (the host stand-in has no driver)
    from gframe.engines.gpu.lib import plc

    chosen = gframe.get_option("gframe.gpu_memory")
    assert memory.mode() == ("pool" if getattr(plc, "__host_stand_in__", False) and chosen in ("async", "managed") else chosen)


# ------------------------------------------------------------------------- placement (no GPU)
def _scan() -> L.Plan:
    p = _frame()
    return gframe.DataFrame(p)._plan


def test_lowering_puts_transfers_around_an_unsupported_node():
    scan = _scan()
    sel = L.Select((("u", func("str.title", Col("s"))), ("i", Col("i"))), scan)
    agg = L.Aggregate(("u",), ("u",), (("i", __import__("gframe.plan.expr", fromlist=["Agg"]).Agg("sum", (), Col("i"))),),
                      True, True, True, sel)
    low = lowering.lower(agg)
    top = low.plan
    assert isinstance(top, L.Aggregate) and id(top) not in low.cpu
    (h2d,) = top.children
    assert isinstance(h2d, lowering.HostToDevice) and "str.title" in h2d.reason
    (cpu_sel,) = h2d.children
    assert isinstance(cpu_sel, L.Select) and id(cpu_sel) in low.cpu
    (d2h,) = cpu_sel.children
    assert isinstance(d2h, lowering.DeviceToHost) and isinstance(d2h.child, L.InMemoryScan)
    tags = lowering.placement(agg)
    assert tags[id(agg)] == "gpu" and tags[id(scan)] == "gpu -> host"
    assert tags[id(sel)].startswith("cpu: ") and tags[id(sel)].endswith("-> device")


def test_lowering_keeps_native_plans_whole_on_the_gpu():
    scan = _scan()
    plan = L.Filter(func("isna", Col("f")), L.Select((("x", Col("i")), ("f", Col("f")), ("y", Lit(1))), scan))
    low = lowering.lower(plan)
    assert not low.cpu
    assert not any(isinstance(n, (lowering.HostToDevice, lowering.DeviceToHost)) for n in low.plan.walk())


def test_unsupported_types_stay_on_the_cpu():
    # (categoricals are stored now: their codes, tests/test_gpu_categorical.py; decimal256 is not)
    wide = pandas.ArrowDtype(pa.decimal256(40, 2))
    dec = gframe.DataFrame(pandas.DataFrame({"c": pandas.array([None, None], dtype=wide), "v": [1, 2]}))._plan
    low = lowering.lower(L.Select((("v", Col("v")),), dec))
    assert id(low.plan) in low.cpu or any(id(n) in low.cpu for n in low.plan.walk())
