"""The pandas API inventory (gframe/testing/api_coverage.py) and its rendering, docs/api-coverage.md.

A pandas public name that does not resolve on gframe fails here; so does a stale coverage file
(regenerate: ``python -m gframe.testing.api_coverage --write docs/api-coverage.md``). The classes
are checked against behaviour: a name classed ``fallback`` runs through pandas when called, a
``native`` one does not.
"""
from __future__ import annotations

from pathlib import Path

import pandas
import pytest

import gframe as gpd
from gframe.testing import api_coverage as cov

DOC = Path(__file__).resolve().parents[1] / "docs" / "api-coverage.md"


@pytest.fixture(scope="module")
def inventory() -> list[cov.ClassCoverage]:
    return cov.inventory()


def test_every_pandas_public_name_resolves_on_gframe(inventory: list[cov.ClassCoverage]) -> None:
    missing = {c.label: c.missing for c in inventory if c.missing}
    assert missing == {}


def test_inventory_covers_pandas_public_api(inventory: list[cov.ClassCoverage]) -> None:
    by_label = {c.label: c for c in inventory}
    assert {"pandas (top level)", "DataFrame", "Series", "Index", "MultiIndex", "DataFrameGroupBy", "SeriesGroupBy",
            "Rolling", "Expanding", "ExponentialMovingWindow", "Resampler", "Series.str", "Series.dt", "Series.cat",
            "Series.sparse"} <= set(by_label)
    for c in inventory:
        if c.label == "pandas (top level)":
            assert [e.name for e in c.entries] == cov.public_names(pandas)
        else:
            assert [e.name for e in c.entries] == cov.public_names(c.pandas_type)
        assert {e.status for e in c.entries} <= {cov.NATIVE, cov.PARTIAL, cov.FALLBACK, cov.SHARED}


def test_api_coverage_doc_is_current(inventory: list[cov.ClassCoverage]) -> None:
    assert DOC.exists(), f"missing {DOC}: run `{cov.REGENERATE}`"
    assert DOC.read_text() == cov.render(inventory), f"docs/api-coverage.md is stale: run `{cov.REGENERATE}`"


def _status(inventory: list[cov.ClassCoverage], label: str, name: str) -> cov.Entry:
    c = next(c for c in inventory if c.label == label)
    return next(e for e in c.entries if e.name == name)


def test_classes_match_behaviour(inventory: list[cov.ClassCoverage]) -> None:
    df = gpd.DataFrame({"a": [1, 2, 1], "b": [1.5, 2.5, 3.5]})
    pdf = df.to_pandas()

    # native: no trip to pandas
    assert _status(inventory, "DataFrame", "head").status == cov.NATIVE
    gpd.fallback_report(clear=True)
    pandas.testing.assert_frame_equal(df.head(2).to_pandas(), pdf.head(2))
    assert not [e for e in gpd.fallback_report() if e.kind == "pandas"]

    # fallback: the call runs through pandas, recorded, with pandas' answer
    entry = _status(inventory, "DataFrame", "cummax")
    if entry.status == cov.FALLBACK:
        gpd.fallback_report(clear=True)
        pandas.testing.assert_frame_equal(df.cummax().to_pandas(), pdf.cummax())
        assert [e.api for e in gpd.fallback_report()] == ["DataFrame.cummax"]

    # native with pandas' full signature: an argument combination it does not run itself goes
    # through pandas for that call, recorded
    entry = _status(inventory, "DataFrame", "add")
    assert entry.status in (cov.NATIVE, cov.PARTIAL)
    gpd.fallback_report(clear=True)
    pandas.testing.assert_frame_equal(df.add(df["a"], axis="index", fill_value=0).to_pandas(),
                                      pdf.add(pdf["a"], axis="index", fill_value=0))
    assert [e.api for e in gpd.fallback_report()] == ["DataFrame.add"]
    assert any(e.status == cov.PARTIAL for c in inventory for e in c.entries)
    assert _status(inventory, "Rolling", "mean").status == cov.NATIVE  # (frontend/window.py)
    assert _status(inventory, "Rolling", "apply").status == cov.FALLBACK
    assert _status(inventory, "Series.str", "upper").status == cov.NATIVE


def test_classify_reads_signatures() -> None:
    class Pandas:
        def f(self, x, y=1, *, z=2): ...
        def g(self, other, axis=0): ...
        def h(self, x): ...

    class Mine:
        def f(self, x, y=1, *, z=2): ...
        def g(self, o): ...
        def h(self, x, **kw): ...

    Mine.__module__ = "gframe.fake"
    assert cov.classify(Pandas, Mine, "f") == cov.Entry("f", cov.NATIVE)
    g = cov.classify(Pandas, Mine, "g")
    assert g.status == cov.PARTIAL and "`axis`" in g.detail and "`other` is passed by keyword" in g.detail
    assert cov.classify(Pandas, Mine, "h").status == cov.NATIVE
    assert cov.classify(Pandas, None, "f").status == cov.FALLBACK


def test_render_states_native_share(inventory: list[cov.ClassCoverage]) -> None:
    text = cov.render(inventory)
    assert "| **all** |" in text and "native share" in text
    assert cov.REGENERATE in text
