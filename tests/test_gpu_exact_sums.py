"""GPU float group sums and means whose every partial sum is exact go to libcudf's hash group-by
(``kernels.exact_sums``): integer-valued FLOAT64 values (TPC-H's quantities) small enough that no
sum of them rounds. The answer must be pandas' to the bit and the sorted runs' to the bit (the
order of exact additions cannot matter), and anything that could round or depend on the order -
a fraction, NaN, an infinity, -0.0, a bound past 2**53 - must keep the sorted runs. Runs on the
GPU engine (the device, or the host stand-in for pylibcudf); skipped where there is none.
Where another aggregation needs the sorted runs anyway, the exact sums go over them too (one
group-by, not two)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import kernels

pytestmark = pytest.mark.skipif(engines.gpu_unavailable_reason() is not None,
                                reason=f"no GPU engine here: {engines.gpu_unavailable_reason()}")


class Spy:
    """The ``exact_sums`` verdict of each value column a group-by asked about."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[bool] = []
        real = kernels.exact_sums

        def spy(x: Any) -> bool:
            out = real(x)
            self.calls.append(out)
            return out

        monkeypatch.setattr(kernels, "exact_sums", spy)


def _frame(q: np.ndarray, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    return pandas.DataFrame({"k": rng.integers(0, 40, len(q)), "q": q})


AGGS = {"s": ("q", "sum"), "m": ("q", "mean"), "n": ("q", "count")}


def _gpu(pdf: pandas.DataFrame) -> pandas.DataFrame:
    with gframe.option_context(engine="gpu"):
        return gframe.DataFrame(pdf).groupby("k").agg(**AGGS).to_pandas()


def test_integer_valued_floats_take_the_hash_group_by(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(1)
    q = rng.integers(1, 51, 3000).astype("float64")
    q[::17] = np.nan  # missing values are skipped, as pandas'
    q[5] = 0.0
    pdf = _frame(q)
    spy = Spy(monkeypatch)
    got = _gpu(pdf)
    assert spy.calls == [True]
    pandas.testing.assert_frame_equal(got, pdf.groupby("k").agg(**AGGS), check_exact=True)
    monkeypatch.setattr(kernels, "exact_sums", lambda x: False)  # the sorted runs: the same bits
    pandas.testing.assert_frame_equal(_gpu(pdf), got, check_exact=True)


@pytest.mark.parametrize("case", ["fraction", "infinity", "negative zero", "past 2**53", "float32"])
def test_values_that_could_round_keep_the_sorted_runs(monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    rng = np.random.default_rng(2)
    q = rng.integers(1, 51, 400).astype("float64")
    if case == "fraction":
        q[7] = 2.5
    elif case == "infinity":
        q[7] = np.inf
    elif case == "negative zero":
        q[:] = -0.0  # a group of only -0.0 sums to -0.0 (pandas), a sum from +0.0 would not
    elif case == "past 2**53":
        q[7] = 2.0 ** 52
    pdf = _frame(q.astype("float32") if case == "float32" else q)
    spy = Spy(monkeypatch)
    got = _gpu(pdf)
    assert True not in spy.calls  # (float32: FLOAT64 only)
    pandas.testing.assert_frame_equal(got, pdf.groupby("k").agg(**AGGS), check_exact=False, rtol=1e-12, atol=0)


def test_exact_sums_beside_an_inexact_one_share_the_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    pdf = _frame(rng.integers(1, 51, 3000).astype("float64")).assign(p=rng.uniform(0, 100, 3000))
    aggs = {"s": ("q", "sum"), "m": ("q", "mean"), "p": ("p", "sum"), "n": ("q", "size")}
    runs: list[int] = []
    real = kernels.SortedGroups.__init__
    monkeypatch.setattr(kernels.SortedGroups, "__init__", lambda self, *a: runs.append(1) or real(self, *a))
    with gframe.option_context(engine="gpu"):
        got = gframe.DataFrame(pdf).groupby("k").agg(**aggs).to_pandas()
    assert runs == [1]  # one layout for all of them
    pandas.testing.assert_frame_equal(got, pdf.groupby("k").agg(**aggs), check_exact=False, rtol=1e-12, atol=0)
    pandas.testing.assert_frame_equal(got[["s", "m", "n"]], pdf.groupby("k").agg(**aggs)[["s", "m", "n"]], check_exact=True)


def test_exact_sums_itself() -> None:
    """The verdict over columns built directly (no group-by)."""
    import pyarrow as pa

    from gframe.engines.gpu.convert import upload

    def verdict(values: list[Any], t: pa.DataType | None = None) -> bool:
        t = pa.float64() if t is None else t
        with gframe.option_context(engine="gpu"):
            col = upload(pa.table({"x": pa.array(values, type=t)})).column("x")
        return kernels.exact_sums(col)

    assert verdict([1.0, 2.0, None, 50.0])
    assert not verdict([1.0, 0.5])
    assert not verdict([1.0, float("nan")])
    assert not verdict([1.0, -0.0])
    assert not verdict([None, None])
    assert not verdict([], pa.float64())
    assert not verdict([1, 2], pa.int64())
