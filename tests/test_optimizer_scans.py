"""scan_row_index: RowIndex over a parquet scan becomes the reader's own row numbering."""
from __future__ import annotations

import os

import numpy as np
import pandas
import pytest

import gframe
from gframe.optimizer.scans import scan_row_index
from gframe.plan import logical as L
from gframe.testing import assert_matches_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")


@pytest.fixture
def path(tmp_path):
    p = str(tmp_path / "f.parquet")
    pandas.DataFrame({"x": np.arange(5000) % 100, "y": np.arange(5000) * 0.5, "s": ["a", "b"] * 2500}).to_parquet(
        p, row_group_size=500)
    return p


def test_rowindex_folds_into_scan(path):
    scan = gframe.read_parquet(path)._plan
    assert isinstance(scan, L.ParquetScan)
    out = scan_row_index(L.Filter(_gt("x", 90), L.RowIndex(scan)))
    assert isinstance(out, L.Filter) and isinstance(out.child, L.ParquetScan) and out.child.row_index
    assert out.child.schema == L.RowIndex(scan).schema


def test_rowindex_over_filtered_scan_is_kept(path):
    from gframe.optimizer._util import with_fields

    scan = with_fields(gframe.read_parquet(path)._plan, predicate=_gt("x", 1))
    out = scan_row_index(L.RowIndex(scan))
    assert isinstance(out, L.RowIndex)  # positions after the reader's filter would differ


def _gt(name, value):
    from gframe.plan.expr import BinOp, Col, Lit

    return BinOp("gt", Col(name), Lit(value))


@pytest.mark.parametrize("query", [
    lambda pd, p: pd.read_parquet(p)[lambda d: d.x > 90],
    lambda pd, p: pd.read_parquet(p)[lambda d: d.x > 90][["y"]].head(7),
    lambda pd, p: pd.read_parquet(p)[lambda d: (d.x > 90) & (d.s == "b")].sort_values("y", ascending=False).head(5),
    lambda pd, p: pd.read_parquet(p).tail(3),
    lambda pd, p: pd.read_parquet(p).sort_values("x", kind="stable").head(4),
])
def test_results_keep_pandas_positions(path, query):
    assert_matches_pandas(lambda pd: query(pd, path))
