"""Determinism (issue 9, class 2): the same plan on the same data gives bit-identical results every run.

Polars' streaming group-by adds per-thread partial sums in the order the threads finish, so a float
group sum changed in its last bits from run to run, and a TPC-H q15-shaped filter
(``t == t.max()`` on group totals) sometimes found no row. Group-bys with float sums, means,
variances or products now run in Polars' in-memory engine, where each group's values are added
in one fixed order (``engines/cpu/kernels.py`` ``_engine``).

Cost (float64 group sum, 1000 groups, 2 cores shared with other jobs, best of 5): 1e6 rows 8 ms
streaming vs 88 ms in-memory; 1e7 rows 149 ms vs 769 ms - 5-10x on that one operation. Integer
keys of 4096+ groups keep the (deterministic, sequential) numpy bincount path, unchanged.
"""
from __future__ import annotations

import numpy as np
import pandas
import os

import pytest

import gframe as gpd


def _frame(n: int, groups: int, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    # values over ten orders of magnitude: the sum's last bits depend on the order they are added in
    return pandas.DataFrame({"k": rng.integers(0, groups, n), "v": rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n),
                             "w": rng.standard_normal(n).astype("float32")})


# libcudf's hash group-by adds floats with atomics: the last bits of a group's sum depend on thread
# timing (seen on the H100: the 100-run test differed). Deterministic GPU group-bys (a sort-based
# aggregation) are not built yet; these run on the CPU engine only.
cpu_only = pytest.mark.skipif(os.environ.get("GFRAME_ENGINE") == "gpu",
                              reason="GPU float group-bys are not deterministic yet (libcudf atomics)")


@cpu_only
def test_float_groupby_sum_bit_identical_100_runs() -> None:
    pdf = _frame(200_000, 300)
    g = gpd.DataFrame(pdf)
    first = g.groupby("k")["v"].sum().to_pandas().to_numpy().tobytes()
    for _ in range(99):
        assert g.groupby("k")["v"].sum().to_pandas().to_numpy().tobytes() == first
    expected = pdf.groupby("k")["v"].sum()
    got = g.groupby("k")["v"].sum().to_pandas()
    pandas.testing.assert_series_equal(got, expected, check_exact=False, rtol=1e-9, atol=0)


@cpu_only
@pytest.mark.parametrize("fn", ["mean", "std", "var"])
def test_float_groupby_moments_bit_identical(fn: str) -> None:
    pdf = _frame(100_000, 50, seed=1)
    g = gpd.DataFrame(pdf)
    runs = {getattr(g.groupby("k", sort=False)[["v", "w"]], fn)().to_pandas().to_numpy().tobytes() for _ in range(20)}
    assert len(runs) == 1
    expected = getattr(pdf.groupby("k", sort=False)[["v", "w"]], fn)()
    pandas.testing.assert_frame_equal(getattr(g.groupby("k", sort=False)[["v", "w"]], fn)().to_pandas(), expected,
                                      check_exact=False, rtol=1e-9, atol=0)


def test_whole_column_float_sum_bit_identical() -> None:
    pdf = _frame(300_000, 10, seed=2)
    g = gpd.DataFrame(pdf)
    runs = {float(g["v"].sum()) for _ in range(50)}
    assert len(runs) == 1
    assert runs.pop() == pytest.approx(pdf["v"].sum(), rel=1e-9)


@cpu_only
def test_q15_shape_max_filter_never_empty() -> None:
    """TPC-H q15: totals per supplier, then the suppliers whose total equals the largest total."""
    pdf = _frame(200_000, 1000, seed=3)
    g = gpd.DataFrame(pdf)
    for _ in range(30):
        t = g.groupby("k", as_index=False).agg(total=("v", "sum"))
        top = t[t["total"] == t["total"].max()].to_pandas()
        assert len(top) >= 1
    expected = pdf.groupby("k", as_index=False).agg(total=("v", "sum"))
    expected = expected[expected["total"] == expected["total"].max()]
    assert top["k"].tolist() == expected["k"].tolist()


@cpu_only
@pytest.mark.parametrize("fn", ["sum", "mean"])
def test_small_float_groupby_bit_identical(fn: str) -> None:
    """A few thousand rows in a hundred groups (TPC-H q15 at sf 0.01): Polars 2.1's in-memory
    group-by gave two to four different last bits over 100 runs; q15's ``t == t.max()`` then
    sometimes found no row."""
    rng = np.random.default_rng(1)
    n = 2284
    pdf = pandas.DataFrame({"k": rng.integers(1, 101, n),
                            "v": np.round(rng.uniform(900, 100000, n), 2) * (1 - np.round(rng.uniform(0, 0.1, n), 2))})
    g = gpd.DataFrame(pdf)
    runs = {getattr(g.groupby("k")["v"], fn)().to_pandas().to_numpy().tobytes() for _ in range(100)}
    assert len(runs) == 1
    pandas.testing.assert_series_equal(getattr(g.groupby("k")["v"], fn)().to_pandas(), getattr(pdf.groupby("k")["v"], fn)(),
                                       check_exact=False, rtol=1e-12, atol=0)
