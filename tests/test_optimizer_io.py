"""Pushdown into readers really reads less.

Parquet: the bytes of the columns (or row groups) a query must not read are overwritten with
garbage. The optimized query reads the file fine - so it never touched them - and the same query
unoptimized fails on them. CSV: a big file becomes a ``CsvScan`` whose reader is asked only for
the columns the query uses.
"""
from __future__ import annotations

import os

import numpy as np
import pandas
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gframe
import gframe.engines.csv as engine_csv
import gframe.io.csv as gcsv
from gframe.engines import prepare, get_engine
from gframe.plan import logical as L

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

N = 1000
ROW_GROUP = 100


@pytest.fixture(autouse=True)
def _optimizer_on():
    """These tests are about the optimizer: on, whatever GFRAME_OPTIMIZE says."""
    with gframe.option_context(optimize=True):
        yield


def _write(path: str) -> pa.Table:
    table = pa.table({"id": np.arange(N), "v": np.arange(N) * 1.5, "w": np.arange(N) * 2.0, "k": np.arange(N) % 7})
    # plain pages, no compression: the bytes of each column chunk sit where the footer says
    pq.write_table(table, path, row_group_size=ROW_GROUP, compression="none", use_dictionary=False)
    return table


def _corrupt(path: str, out: str, columns: set[str] | None = None, row_groups: set[int] | None = None) -> None:
    with open(path, "rb") as fh:
        raw = bytearray(fh.read())
    with pq.ParquetFile(path) as pf:
        md = pf.metadata
    for r in range(md.num_row_groups):
        if row_groups is not None and r not in row_groups:
            continue
        rg = md.row_group(r)
        for c in range(rg.num_columns):
            chunk = rg.column(c)
            if columns is not None and chunk.path_in_schema not in columns:
                continue
            start = chunk.dictionary_page_offset or chunk.data_page_offset
            raw[start:start + chunk.total_compressed_size] = b"\xab" * chunk.total_compressed_size
    with open(out, "wb") as fh:
        fh.write(raw)


def _scan(frame) -> L.ParquetScan:
    physical = prepare(frame._plan, get_engine())
    (scan,) = [n for n in physical.walk() if isinstance(n, L.ParquetScan)]
    return scan


@pytest.fixture
def files(tmp_path):
    good = str(tmp_path / "good.parquet")
    table = _write(good)
    # verification mode runs each query unoptimized too, which cannot read the damaged files
    with gframe.option_context(verify_optimizer=False):
        yield good, table, tmp_path


def test_unused_columns_are_not_read(files):
    good, table, tmp = files
    bad = str(tmp / "bad_w.parquet")
    _corrupt(good, bad, columns={"w"})
    q = gframe.read_parquet(bad)[["v", "id"]]
    assert _scan(q).columns == ("id", "v")
    pandas.testing.assert_frame_equal(q.to_pandas(), table.to_pandas()[["v", "id"]])
    again = str(tmp / "bad_w_again.parquet")  # another file: not the cached result of the same plan
    _corrupt(good, again, columns={"w"})
    with gframe.option_context(optimize=False, verify_optimizer=False), pytest.raises(Exception):
        gframe.read_parquet(again)[["v", "id"]].to_pandas()


def test_filter_skips_row_groups_by_statistics(files):
    good, table, tmp = files
    bad = str(tmp / "bad_rg.parquet")
    _corrupt(good, bad, row_groups={5, 6, 7, 8, 9})  # ids 500..999

    def query(pd, path):
        df = pd.read_parquet(path)
        sel = df[(df.id < 300) & (df.k == 3)]
        return sel.v.sum(), sel.groupby("k").w.max()

    q = gframe.read_parquet(bad)
    # a filtered frame keeps its rows' positions as the index: the reader numbers the rows itself,
    # so the filter still reaches it
    scan = _scan(q[q.id < 300])
    assert scan.predicate is not None and scan.row_index
    pandas.testing.assert_frame_equal(q[(q.id < 300) & (q.k == 3)].to_pandas(),
                                      table.to_pandas().query("id < 300 and k == 3"))
    got_sum, got_max = query(gframe, bad)
    want_sum, want_max = query(pandas, good)
    assert got_sum == want_sum
    pandas.testing.assert_series_equal(got_max.to_pandas(), want_max)
    again = str(tmp / "bad_rg_again.parquet")
    _corrupt(good, again, row_groups={5, 6, 7, 8, 9})
    with gframe.option_context(optimize=False, verify_optimizer=False), pytest.raises(Exception):
        query(gframe, again)


def test_pushed_filter_and_columns_are_in_the_scan(files):
    good, _, _ = files
    df = gframe.read_parquet(good)
    sel = df[(df.id < 300) & (df.k == 3)]
    agg = sel.groupby("k").w.max()
    scan = _scan(agg)
    assert scan.columns == ("w", "k")
    assert scan.predicate is not None
    text = agg.explain()
    assert "filter=" in text.split("== optimized plan")[1]


def test_head_reads_only_the_first_rows(files):
    good, table, tmp = files
    bad = str(tmp / "bad_tail.parquet")
    _corrupt(good, bad, row_groups={3, 4, 5, 6, 7, 8, 9})
    q = gframe.read_parquet(bad)[["v"]].head(5)
    assert _scan(q).n_rows == 5
    pandas.testing.assert_frame_equal(q.to_pandas(), table.to_pandas()[["v"]].head(5))


# ---------------------------------------------------------------------------------------- CSV

@pytest.fixture
def big_csv(tmp_path, monkeypatch):
    """A CSV file above the lazy threshold (lowered for the test)."""
    monkeypatch.setattr(gcsv, "LAZY_CSV_BYTES", 4096)
    rng = np.random.default_rng(0)
    n = 2000
    pdf = pandas.DataFrame({"a": rng.integers(0, 100, n), "b": rng.random(n).round(3),
                            "s": rng.choice(["x", "y", "zz"], n), "c": rng.integers(0, 5, n)})
    path = str(tmp_path / "big.csv")
    pdf.to_csv(path, index=False)
    return path


def test_read_csv_is_lazy_and_reads_only_used_columns(big_csv, monkeypatch):
    asked: list[list[str]] = []
    original = engine_csv.read_native

    def recording(path, kwargs):
        if path == big_csv:
            asked.append(list(kwargs.get("usecols") or []))
        return original(path, kwargs)

    monkeypatch.setattr(engine_csv, "read_native", recording)
    monkeypatch.setattr(gframe.options, "verify_optimizer", False)  # an unoptimized run reads all
    df = gframe.read_csv(big_csv)
    assert isinstance(df._plan, L.CsvScan) and asked == []  # nothing read yet but a sample
    q = df[df.a > 50][["b", "a"]]
    pandas.testing.assert_frame_equal(q.to_pandas(), (lambda d: d[d.a > 50][["b", "a"]])(pandas.read_csv(big_csv)))
    if gframe.engines.get_engine().name == "cpu":  # the GPU engine parses with libcudf (test_gpu_engine)
        assert asked and all(sorted(cols) == ["a", "b"] for cols in asked)


@pytest.mark.parametrize("query", [
    lambda pd, p: pd.read_csv(p),
    lambda pd, p: pd.read_csv(p).groupby("s").b.sum(),
    lambda pd, p: pd.read_csv(p, usecols=["s", "c"]).sort_values("c", kind="stable").head(3),
    lambda pd, p: pd.read_csv(p, dtype={"c": "float64"}).c.sum(),
])
def test_lazy_csv_matches_pandas(big_csv, query):
    from gframe.testing import assert_matches_pandas

    assert_matches_pandas(lambda pd: query(pd, big_csv))


def test_lazy_csv_whose_type_changes_after_the_sample_raises(tmp_path, monkeypatch):
    monkeypatch.setattr(gcsv, "LAZY_CSV_BYTES", 4096)
    path = str(tmp_path / "late.csv")
    with open(path, "w") as fh:
        fh.write("a,b\n")
        for i in range(2000):
            fh.write(f"{i},{i}\n")
        fh.write("1.5,7\n")  # "a" is float64 for pandas, int64 in the sample
    monkeypatch.setattr(gframe.options, "verify_optimizer", False)  # an unoptimized run reads "a" too
    df = gframe.read_csv(path)
    assert df.b.sum() == sum(range(2000)) + 7
    with pytest.raises(ValueError, match="dtype="):
        df.a.sum()
