"""A frame made by a join or a group-by is computed once when several scalar questions are asked of
it (``frontend/series._keep_derived``), as pandas computed it once, and the answers are pandas'."""
from __future__ import annotations

import numpy as np
import pandas
import pandas.testing as pdt
import pytest

import gframe
from gframe import engines
from gframe.plan import logical as L


@pytest.fixture
def executed(monkeypatch):
    """The physical plans the engine runs, in order."""
    plans = []
    real = engines._execute

    def run(engine, physical, stats):
        plans.append(physical)
        return real(engine, physical, stats)

    monkeypatch.setattr(engines, "_execute", run)
    return plans


def _count(plans, kind):
    return sum(isinstance(n, kind) for p in plans for n in p.walk())


def _frames(lib):
    rng = np.random.default_rng(3)
    li = lib.DataFrame({"pk": rng.integers(0, 50, 2000), "price": rng.normal(100, 10, 2000),
                        "disc": rng.uniform(0, 0.1, 2000)})
    part = lib.DataFrame({"pk": np.arange(50), "type": rng.choice(["PROMO A", "STD B"], 50)})
    return li, part


def _q14(lib):
    li, part = _frames(lib)
    df = li.merge(part, on="pk")
    revenue = df["price"] * (1 - df["disc"])
    promo = revenue.where(df["type"].str.startswith("PROMO"), 0.0)
    return 100.0 * promo.sum() / revenue.sum()


def test_two_sums_over_one_merge_run_the_merge_once(executed):
    got = _q14(gframe)
    assert got == pytest.approx(_q14(pandas), rel=1e-12)
    assert _count(executed, L.Join) == 1


def test_filter_by_the_max_of_a_group_by_runs_the_group_by_once(executed):
    li, _ = _frames(pandas)
    g = gframe.DataFrame(li).groupby("pk", as_index=False).agg(t=("price", "sum"))
    top = g[g["t"] == g["t"].max()]
    want = li.groupby("pk", as_index=False).agg(t=("price", "sum"))
    want = want[want["t"] == want["t"].max()]
    pdt.assert_frame_equal(top.to_pandas(), want)
    assert _count(executed, L.Aggregate) == 2  # the group-by, then the max over its result


def test_a_reduction_over_a_plain_scan_is_not_materialized_first(executed):
    s = gframe.Series(np.arange(10.0))
    assert (s * 2).sum() == 90.0
    assert engines.cached(s._plan) is None
