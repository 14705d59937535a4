"""GPU group-bys over a few large groups by masked reductions (``engines/gpu/fewgroups.py``).

Where there are at most ``MAX_GROUPS`` groups over many rows, the order-sensitive aggregations
(float sums, means, variances, products) reduce each group as one device-wide reduction of the
whole column with the other groups' rows set to the identity, instead of sorting the rows into
runs. The answers must be pandas' (values within 1e-9, dtypes, group order sorted or by first
appearance, missing keys with ``dropna=False``, missing values), the same bits run to run, within
1e-12 of the sorted-runs path (``GFRAME_GPU_FEWGROUPS=0``), and two keys sharing a hash must send
the group-by back to the sorted runs. ``MIN_ROWS`` is lowered here so small frames take the path.
Runs on the GPU engine (the device, or the host stand-in for pylibcudf); skipped where there is none.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import fewgroups, groupcodes

pytestmark = pytest.mark.skipif(engines.gpu_unavailable_reason() is not None,
                                reason=f"no GPU engine here: {engines.gpu_unavailable_reason()}")


def _frame(n: int = 500, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    k = rng.integers(0, 4, n)
    return pandas.DataFrame({
        "k": k,
        "s": pandas.Series(np.array(["R", "A", "N", "F"])[k], dtype="str").where(k != 3),  # missing keys
        "t": pandas.Series(np.array(["O", "F"])[k % 2], dtype="str"),
        "v": rng.standard_normal(n) * 10.0 ** rng.integers(-3, 6, n),
        "w": (rng.integers(1, 50, n) * 0.01),
        "i": rng.integers(-1000, 1000, n),
    })


AGGS = {"total": ("v", "sum"), "avg": ("v", "mean"), "sd": ("v", "std"), "var": ("i", "var"),
        "wsum": ("w", "sum"), "n": ("v", "count"), "size": ("v", "size"), "lo": ("v", "min"),
        "isum": ("i", "sum"), "imean": ("i", "mean"), "prod": ("w", "prod")}


class Spy:
    """Which layout each group-by took: True for the masks, False where ``find`` declined."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[bool] = []
        real = fewgroups.find

        def spy(keys: Any, n: int, sort_keys: Any, h: Any) -> Any:
            out = real(keys, n, sort_keys, h)
            self.calls.append(out is not None)
            return out

        monkeypatch.setattr(fewgroups, "find", spy)


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fewgroups, "MIN_ROWS", 0)


def _run(monkeypatch: pytest.MonkeyPatch, flag: str, query: Any) -> Any:
    monkeypatch.setenv(fewgroups.ENV, flag)
    with gframe.option_context(engine="gpu"):
        return query()


def _assert_close(got: Any, want: Any, rtol: float) -> None:
    if isinstance(want, pandas.Series):
        pandas.testing.assert_series_equal(got, want, check_exact=False, rtol=rtol, atol=0)
    else:
        pandas.testing.assert_frame_equal(got, want, check_exact=False, rtol=rtol, atol=0)


@pytest.mark.parametrize("keys", [["k"], ["s"], ["s", "t"], ["t", "k"]])
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_masked_groups_match_pandas(monkeypatch: pytest.MonkeyPatch, small: None, keys: list[str], sort: bool,
                                    dropna: bool) -> None:
    pdf = _frame()
    pdf.loc[pdf.index[::7], "v"] = np.nan
    g = gframe.DataFrame(pdf)

    def query() -> pandas.DataFrame:
        return g.groupby(keys, sort=sort, dropna=dropna).agg(**AGGS).to_pandas()

    spy = Spy(monkeypatch)
    masked = _run(monkeypatch, "1", query)
    assert spy.calls == [True]
    again = _run(monkeypatch, "1", query)
    pandas.testing.assert_frame_equal(masked, again, check_exact=True)  # the same bits run to run
    _assert_close(masked, pdf.groupby(keys, sort=sort, dropna=dropna).agg(**AGGS), 1e-9)
    _assert_close(masked, _run(monkeypatch, "0", query), 1e-12)  # the sorted runs: other last bits at most
    assert spy.calls == [True, True, False]  # GFRAME_GPU_FEWGROUPS=0: declined


def test_series_forms_and_one_group(monkeypatch: pytest.MonkeyPatch, small: None) -> None:
    pdf = _frame(seed=1)
    pdf["one"] = "x"
    g = gframe.DataFrame(pdf)
    queries = [
        lambda d: d.groupby("s")["v"].mean(),
        lambda d: d.groupby("one")["v"].sum(),
        lambda d: d.groupby(["t", "s"], sort=False, dropna=False)[["v", "w"]].var(),
        lambda d: d.groupby("t", as_index=False)["w"].std(ddof=0),
        lambda d: d.groupby("k")["w"].prod(),
    ]
    for q in queries:
        _assert_close(_run(monkeypatch, "1", lambda: q(g).to_pandas()), q(pdf), 1e-9)


def test_groups_without_values(monkeypatch: pytest.MonkeyPatch, small: None) -> None:
    """A group whose values are all missing: sum 0, mean / var NaN (pandas); a group of one row:
    var NaN (ddof=1) and 0 (ddof=0)."""
    pdf = pandas.DataFrame({"k": ["a", "a", "b", "b", "c"], "v": [np.nan, np.nan, 1.5, 2.5, 4.0]})
    g = gframe.DataFrame(pdf)
    aggs = {"sum": ("v", "sum"), "mean": ("v", "mean"), "var": ("v", "var"), "std": ("v", "std")}
    got = _run(monkeypatch, "1", lambda: g.groupby("k").agg(**aggs).to_pandas())
    _assert_close(got, pdf.groupby("k").agg(**aggs), 1e-12)
    got = _run(monkeypatch, "1", lambda: g.groupby("k")["v"].var(ddof=0).to_pandas())
    _assert_close(got, pdf.groupby("k")["v"].var(ddof=0), 1e-12)


def test_more_groups_or_fewer_rows_keep_the_sorted_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _frame(seed=2)
    pdf["many"] = np.arange(len(pdf)) % (fewgroups.MAX_GROUPS + 1)
    g = gframe.DataFrame(pdf)
    spy = Spy(monkeypatch)
    monkeypatch.setattr(fewgroups, "MIN_ROWS", 0)
    _assert_close(_run(monkeypatch, "1", lambda: g.groupby("many")["v"].sum().to_pandas()),
                  pdf.groupby("many")["v"].sum(), 1e-9)
    monkeypatch.setattr(fewgroups, "MIN_ROWS", len(pdf) + 1)
    _assert_close(_run(monkeypatch, "1", lambda: g.groupby("k")["v"].sum().to_pandas()),
                  pdf.groupby("k")["v"].sum(), 1e-9)
    assert spy.calls == [False, False]


def test_hash_collision_falls_back(monkeypatch: pytest.MonkeyPatch, small: None) -> None:
    """Every row given one hash: the check finds rows whose keys differ from their group's first
    row's, and the sorted runs (which catch it too, then sort by the keys) answer."""
    from gframe.engines.gpu.lib import plc

    pdf = _frame(seed=3)
    g = gframe.DataFrame(pdf)

    def one_hash(keys: Any, n: int) -> Any:
        import pyarrow as pa

        return plc.Column.from_scalar(plc.Scalar.from_arrow(pa.scalar(7, type=pa.uint64())), n)

    monkeypatch.setattr(groupcodes, "row_hashes", one_hash)
    spy = Spy(monkeypatch)
    got = _run(monkeypatch, "1", lambda: g.groupby(["s", "t"], dropna=False).agg(**AGGS).to_pandas())
    assert spy.calls == [False]
    _assert_close(got, pdf.groupby(["s", "t"], dropna=False).agg(**AGGS), 1e-9)


def test_float_median_keeps_the_sorted_runs(monkeypatch: pytest.MonkeyPatch, small: None) -> None:
    """A float median among the aggregations: the masks cannot take a middle value, so the whole
    group-by takes the sorted runs (``SortedGroups.median``, infinities and missing values as pandas)."""
    pdf = _frame(seed=4)
    pdf.loc[pdf.index[::5], "v"] = np.nan
    pdf.loc[pdf.index[1:40:3], "v"] = np.inf
    g = gframe.DataFrame(pdf)
    aggs = {"med": ("v", "median"), "total": ("w", "sum"), "avg": ("w", "mean")}
    spy = Spy(monkeypatch)
    got = _run(monkeypatch, "1", lambda: g.groupby("s", dropna=False).agg(**aggs).to_pandas())
    assert spy.calls == [False]
    _assert_close(got, pdf.groupby("s", dropna=False).agg(**aggs), 1e-9)
    spy.calls.clear()
    got = _run(monkeypatch, "1", lambda: g.groupby("s").agg(total=("w", "sum"), avg=("w", "mean")).to_pandas())
    assert spy.calls == [True]  # without the median: the masks
    _assert_close(got, pdf.groupby("s").agg(total=("w", "sum"), avg=("w", "mean")), 1e-9)
