"""Every example in examples/ runs (as ``python examples/X.py`` would, in this process so the suite's
engine applies) and gives pandas' answer: each example's ``main()`` asserts that itself, and the tests
below also compare its functions with pandas through ``assert_matches_pandas``."""
from __future__ import annotations

import importlib.util
import os
import runpy
from pathlib import Path

import pandas
import pytest

from gframe.testing import assert_matches_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, _EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _quickstart():
    return _load("quickstart")


def test_every_example_has_a_test():
    tested = {"quickstart", "etl", "notebook_analytics", "udfs", "gpu_workflow"}
    assert {p.stem for p in _EXAMPLES.glob("*.py")} == tested


@pytest.mark.parametrize("name", ["quickstart", "etl", "notebook_analytics", "udfs", "gpu_workflow"])
def test_example_runs_as_a_script(name, capsys):
    runpy.run_path(str(_EXAMPLES / f"{name}.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "same answer" in out  # printed after its own comparison with pandas passed


def test_quickstart_pipeline_matches_pandas(tmp_path):
    qs = _quickstart()
    trips = str(tmp_path / "trips.parquet")
    qs.make_trips(trips, n=5000)
    assert_matches_pandas(lambda pd: qs.pipeline(pd, trips))


def test_etl_matches_pandas(tmp_path):
    etl = _load("etl")
    orders, customers = str(tmp_path / "o.csv"), str(tmp_path / "c.csv")
    etl.make_raw(orders, customers, n=3000)
    assert_matches_pandas(lambda pd: etl.transform(pd, orders, customers))
    assert_matches_pandas(lambda pd: etl.summarize(pd, etl.transform(pd, orders, customers)))


@pytest.mark.parametrize("cell", ["cell_overview", "cell_top_stores", "cell_category_share",
                                  "cell_discount_effect", "cell_daily"])
def test_notebook_cells_match_pandas(cell):
    nb = _load("notebook_analytics")
    sales = nb.make_sales(n=4000)
    assert_matches_pandas(lambda pd: getattr(nb, cell)(pd, sales))


def test_udfs_match_pandas():
    udfs = _load("udfs")
    readings = udfs.make_readings(n=2000)
    assert_matches_pandas(lambda pd: udfs.run(pd, readings)[0])
    assert_matches_pandas(lambda pd: udfs.run(pd, readings)[1])


def test_gpu_workflow_matches_pandas(tmp_path):
    gw = _load("gpu_workflow")
    path = str(tmp_path / "events.parquet")
    gw.make_events(path, n=5000)
    assert_matches_pandas(lambda pd: gw.queries(pd, path)[0])
    assert_matches_pandas(lambda pd: gw.queries(pd, path)[1])


def test_size_of_a_column_nothing_else_reads(tmp_path):
    # named size() of a column the optimizer prunes from the scan: the aggregation never reads it
    path = str(tmp_path / "f.parquet")
    pandas.DataFrame({"k": [1, 1, 2], "a": [1.0, 2.0, 3.0], "b": [0, 1, 0]}).to_parquet(path)
    assert_matches_pandas(lambda pd: pd.read_parquet(path).groupby("k", as_index=False).agg(n=("a", "size"), m=("b", "sum")))
