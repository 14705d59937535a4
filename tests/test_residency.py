"""Residency and snapshot semantics: a source the user holds is converted once and kept for as long as
the user's object lives; a frame read from a file shows what the file held at read time.

Run on the current engine (``GFRAME_ENGINE=gpu`` checks device residency the same way).
"""
from __future__ import annotations

import gc
import os
import time

import numpy as np
import pandas
import pandas.testing as pdt
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gframe
from gframe import engines
from gframe.errors import SourceChangedError


def _engine() -> str:
    return engines.get_engine().name


# verification mode runs every query unoptimized too, which reads every column of every row group:
# what a single optimized query loads cannot be observed there
needs_optimized_reads = pytest.mark.skipif(gframe.options.verify_optimizer,
                                           reason="verification mode also runs each query unoptimized")


def _scan(frame):
    return next(n for n in frame._plan.walk() if not n.children)


def _pdf(n: int = 1000) -> pandas.DataFrame:
    rng = np.random.default_rng(0)
    return pandas.DataFrame({"k": rng.integers(0, 7, n), "v": rng.normal(size=n),
                             "s": pandas.array(rng.choice(["a", "b", None], n), dtype="str")})


def test_in_memory_source_is_converted_once_and_kept_across_collections():
    pdf = _pdf()
    df = gframe.DataFrame(pdf)
    scan = _scan(df)
    for _ in range(3):
        got = df.groupby("k").v.sum()
        pdt.assert_series_equal(got.to_pandas(), pdf.groupby("k").v.sum())
        del got
        gc.collect()
    assert scan.table.resident_on() == [_engine()]
    held = scan.table.resident(_engine(), lambda: pytest.fail("converted again"))
    df.groupby("s").v.max().to_pandas()
    assert scan.table.resident(_engine(), lambda: None) is held  # the same converted form
    assert f"resident on {_engine()}" in scan.describe()  # what explain() prints for the scan


def test_resident_form_dies_with_the_users_frame():
    import weakref

    df = gframe.DataFrame(_pdf())
    df.v.sum()
    ref = weakref.ref(_scan(df).table.resident(_engine(), lambda: pytest.fail("not resident")))
    del df
    gc.collect()
    assert ref() is None


@needs_optimized_reads
def test_parquet_columns_are_read_once(tmp_path, monkeypatch):
    path = str(tmp_path / "t.parquet")
    pdf = _pdf(5000)
    pdf.to_parquet(path, row_group_size=1000)
    df = gframe.read_parquet(path)
    src = _scan(df).source
    reads: list[tuple] = []
    real = src._reader
    object.__setattr__(src, "_reader", lambda *a: reads.append(a) or real(*a))
    want = pdf.groupby("k").v.sum()
    for _ in range(3):
        pdt.assert_series_equal(df.groupby("k").v.sum().to_pandas(), want)
        gc.collect()
    held = src.columns(_engine())
    assert set(held) == {"k", "v"}
    if _engine() == "cpu":
        assert len(reads) == 1
    # a filter whose statistics rule out row groups reads only the others, and keeps them
    sel = df[df.k == 3].s.value_counts()
    pdt.assert_series_equal(sel.to_pandas(), pdf[pdf.k == 3].s.value_counts())
    pdt.assert_frame_equal(df.to_pandas(), pdf)


@needs_optimized_reads
def test_parquet_row_groups_pruned_then_completed(tmp_path):
    path = str(tmp_path / "sorted.parquet")
    pdf = pandas.DataFrame({"id": np.arange(4000), "w": np.arange(4000) * 0.5})
    pdf.to_parquet(path, row_group_size=500)
    df = gframe.read_parquet(path)
    src = _scan(df).source
    got = df[df.id < 700].w.sum()
    assert got == pdf[pdf.id < 700].w.sum()
    held = src.columns(_engine())
    assert sorted(k for k in held["w"]) == [0, 1]  # only the two row groups the statistics leave
    pdt.assert_frame_equal(df[df.id >= 3900].to_pandas(), pdf[pdf.id >= 3900])
    pdt.assert_frame_equal(df.to_pandas(), pdf)  # the rest read now; row order and index as pandas
    assert df.head(3).w.tolist() == [0.0, 0.5, 1.0]


def test_overwriting_a_file_keeps_the_frame_a_snapshot(tmp_path):
    path = str(tmp_path / "t.parquet")
    pdf = _pdf(300)
    pdf.to_parquet(path)
    df = gframe.read_parquet(path)
    df[df.k > 3].to_parquet(path)  # the documented hazard: write a filtered copy to the same path
    pdt.assert_frame_equal(df.to_pandas(), pdf)  # still what the file held when read
    assert len(df) == 300
    again = gframe.read_parquet(path)
    want = pdf[pdf.k > 3]
    pdt.assert_frame_equal(again.to_pandas(), pandas.read_parquet(path))
    assert len(again) == len(want)
    assert "snapshot" in _scan(df).describe()


def test_overwriting_with_to_csv_also_preserves(tmp_path):
    path = str(tmp_path / "t.parquet")
    pdf = _pdf(50)
    pdf.to_parquet(path)
    df = gframe.read_parquet(path)
    df.to_csv(path)  # replaces the parquet file with text
    pdt.assert_frame_equal(df.to_pandas(), pdf)


@needs_optimized_reads
def test_change_by_another_program_raises(tmp_path):
    path = str(tmp_path / "t.parquet")
    pdf = _pdf(100)
    pdf.to_parquet(path)
    df = gframe.read_parquet(path)
    assert df.k.sum() == pdf.k.sum()  # loads k
    time.sleep(0.01)
    pq.write_table(pa.table({"k": [1], "v": [1.0], "s": ["x"]}), path)  # not through gframe
    os.utime(path, ns=(time.time_ns(), time.time_ns()))
    assert df.k.sum() == pdf.k.sum()  # already loaded: the snapshot still answers
    with pytest.raises(SourceChangedError, match="changed by another program"):
        df.v.sum()  # v was never loaded: the old contents are gone
    with pytest.raises(OSError):  # SourceChangedError is an OSError, as pandas' I/O errors
        df.s.tolist()


def test_deleted_file_raises_clearly(tmp_path):
    path = str(tmp_path / "t.parquet")
    _pdf(10).to_parquet(path)
    df = gframe.read_parquet(path)
    os.unlink(path)
    with pytest.raises(SourceChangedError, match="was deleted"):
        df.to_pandas()
