"""The README's main example gives pandas' answer (and keeps doing so as the optimizer grows)."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pandas
import pytest

from gframe.testing import assert_matches_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "quickstart.py"


def _quickstart():
    spec = importlib.util.spec_from_file_location("quickstart", _EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_quickstart_pipeline_matches_pandas(tmp_path):
    qs = _quickstart()
    trips = str(tmp_path / "trips.parquet")
    qs.make_trips(trips, n=5000)
    assert_matches_pandas(lambda pd: qs.pipeline(pd, trips))


def test_size_of_a_column_nothing_else_reads(tmp_path):
    # named size() of a column the optimizer prunes from the scan: the aggregation never reads it
    path = str(tmp_path / "f.parquet")
    pandas.DataFrame({"k": [1, 1, 2], "a": [1.0, 2.0, 3.0], "b": [0, 1, 0]}).to_parquet(path)
    assert_matches_pandas(lambda pd: pd.read_parquet(path).groupby("k", as_index=False).agg(n=("a", "size"), m=("b", "sum")))
