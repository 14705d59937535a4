"""Determinism (issue 9, class 2): the same plan on the same data gives bit-identical results every run.

Polars' streaming group-by adds per-thread partial sums in the order the threads finish, so a float
group sum changed in its last bits from run to run, and a TPC-H q15-shaped filter
(``t == t.max()`` on group totals) sometimes found no row. Polars' in-memory engine, tried next, is
no cure either (30 runs of a float group sum, 100 groups of 1e4 rows: 11 different results).

CPU: float sums, means, variances and products by integer keys (and by strings, floats, dates:
their 64-bit hashes, numbered exactly and checked against the keys) run in one numba pass over the
rows in row order with pandas' own arithmetic - Kahan sums, Welford variances - so each group gets
pandas' bits (``engines/cpu/kernels.py`` ``_ordered_aggregate``). GPU: libcudf's hash group-by adds
with atomics and its sort group-by with ``reduce_by_key`` (timing-dependent look-back), so those
aggregations reduce over each group's rows in row order, in a fixed order (chunks of 32 rows): the groups are
runs of a radix sort by a hash of the keys, checked against the keys (``engines/gpu/groupcodes.py``), or of a
sort by the keys where two keys share a hash (``engines/gpu/kernels.py`` ``SortedGroups``).

Cost on the CPU (float64 group sum by an int key of 1000 groups, end to end, best of 5, 2 cores
shared with other jobs - load average 12-20, so +-30%): 1e6 rows 28 ms streaming (before the
fix), 28 ms in-memory, 17-26 ms ordered pass; 1e7 rows 196 ms, 1050 ms, 134-203 ms.
"""
from __future__ import annotations

import numpy as np
import pandas
import os
import sys

import pytest

import gframe as gpd


def _frame(n: int, groups: int, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    # values over ten orders of magnitude: the sum's last bits depend on the order they are added in
    return pandas.DataFrame({"k": rng.integers(0, groups, n), "v": rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n),
                             "w": rng.standard_normal(n).astype("float32")})


GPU = os.environ.get("GFRAME_ENGINE") == "gpu"
# the host stand-in for pylibcudf runs in Python, ~25 us a row per group-by: smaller frames there (the
# device and the CPU engine get the full size; the stand-in cannot be nondeterministic anyway)
STAND_IN = GPU and getattr(sys.modules.get("pylibcudf"), "__host_stand_in__", False)


def _rows(n: int) -> int:
    return n // 100 if STAND_IN else n


def test_float_groupby_sum_bit_identical_100_runs() -> None:
    pdf = _frame(_rows(200_000), 300)
    g = gpd.DataFrame(pdf)
    first = g.groupby("k")["v"].sum().to_pandas().to_numpy().tobytes()
    for _ in range(99):
        assert g.groupby("k")["v"].sum().to_pandas().to_numpy().tobytes() == first
    expected = pdf.groupby("k")["v"].sum()
    got = g.groupby("k")["v"].sum().to_pandas()
    pandas.testing.assert_series_equal(got, expected, check_exact=False, rtol=1e-9, atol=0)


@pytest.mark.parametrize("fn", ["sum", "mean", "std", "var"])
def test_float_groupby_moments_bit_identical(fn: str) -> None:
    pdf = _frame(_rows(100_000), 50, seed=1)
    pdf["i"] = np.random.default_rng(1).integers(-1000, 1000, len(pdf))  # an int variance sums float squares
    g = gpd.DataFrame(pdf)
    runs = {getattr(g.groupby("k", sort=False)[["v", "w", "i"]], fn)().to_pandas().to_numpy().tobytes() for _ in range(20)}
    assert len(runs) == 1
    cols = ["v", "i"] if GPU else ["v", "w", "i"]  # float32: see below
    expected = getattr(pdf.groupby("k", sort=False)[cols], fn)()
    pandas.testing.assert_frame_equal(getattr(g.groupby("k", sort=False)[cols], fn)().to_pandas(), expected,
                                      check_exact=False, rtol=1e-9, atol=0)


@pytest.mark.skipif(GPU, reason="GPU: float32 group moments are computed in float64 (pandas: float32 Kahan/Welford), "
                                "equal to ~1e-7, not 1e-9 (tests/test_numeric_rules.py)")
@pytest.mark.parametrize("fn", ["sum", "mean", "std", "var"])
def test_float32_groupby_moments_match_pandas(fn: str) -> None:
    pdf = _frame(100_000, 50, seed=1)
    g = gpd.DataFrame(pdf)
    pandas.testing.assert_series_equal(getattr(g.groupby("k", sort=False)["w"], fn)().to_pandas(),
                                       getattr(pdf.groupby("k", sort=False)["w"], fn)(), check_exact=False, rtol=1e-9, atol=0)


@pytest.mark.parametrize("keys", [["k"], ["k", "j"], ["s"], ["s", "j"], ["f"], ["f", "s"]])
@pytest.mark.parametrize("sort", [True, False])
def test_float_groupby_by_key_kinds(keys: list[str], sort: bool) -> None:
    """Integer keys (one, packed), strings and floats (hashed, checked; -0.0 is 0.0); missing
    values in the data and in the keys."""
    pdf = _frame(_rows(50_000), 200, seed=4)
    pdf["j"] = pdf["k"] % 3
    pdf["s"] = ("g" + pdf["k"].astype(str)).where(pdf["k"] % 17 != 0)
    pdf["f"] = ((pdf["k"] % 9 - 4) * 0.25).where(pdf["k"] % 13 != 0)
    pdf.loc[pdf.index[::5], "f"] = -0.0
    pdf.loc[pdf.index[::9], "v"] = np.nan
    g = gpd.DataFrame(pdf)
    for dropna in (True, False):
        agg = {"total": ("v", "sum"), "avg": ("v", "mean"), "sd": ("v", "std"), "n": ("v", "count"), "size": ("v", "size")}
        runs = [g.groupby(keys, sort=sort, dropna=dropna).agg(**agg).to_pandas() for _ in range(3)]
        assert runs[0].to_numpy().tobytes() == runs[1].to_numpy().tobytes() == runs[2].to_numpy().tobytes()
        expected = pdf.groupby(keys, sort=sort, dropna=dropna).agg(**agg)
        pandas.testing.assert_frame_equal(runs[0], expected, check_exact=False, rtol=1e-9, atol=0)


@pytest.mark.skipif(GPU, reason="the CPU engine's arithmetic (pandas' own); the GPU's is test_gpu_chunked_sum_order")
def test_cpu_float_group_sums_are_pandas_bits() -> None:
    """The CPU engine adds each group's values as pandas does - a Kahan sum, a Welford variance,
    row by row in row order - so its results are pandas' bits, not only close to them."""
    pdf = _frame(100_000, 300, seed=5)
    g = gpd.DataFrame(pdf)
    for fn in ("sum", "mean", "var", "std"):
        got = getattr(g.groupby("k", sort=False)["v"], fn)().to_pandas().to_numpy()
        assert got.tobytes() == getattr(pdf.groupby("k", sort=False)["v"], fn)().to_numpy().tobytes(), fn


def test_cpu_hash_collision_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """String keys are numbered by their 64-bit hashes, checked against the keys: a collision
    (every hash equal here) is caught, and Polars' group-by answers instead."""
    if GPU:
        pytest.skip("the CPU engine's key hashing")
    import polars as pl

    pdf = _frame(20_000, 40, seed=6)
    pdf["s"] = "g" + pdf["k"].astype(str)
    monkeypatch.setattr(pl.Series, "hash", lambda self, seed=0: pl.Series(np.zeros(len(self), dtype=np.uint64)))
    for keys in (["s"], ["s", "k"]):
        got = gpd.DataFrame(pdf).groupby(keys)["v"].sum().to_pandas()
        pandas.testing.assert_series_equal(got, pdf.groupby(keys)["v"].sum(), check_exact=False, rtol=1e-9, atol=0)


@pytest.mark.skipif(not GPU, reason="the GPU engine's reduction order")
def test_gpu_chunked_sum_order() -> None:
    """On the GPU a group's sum adds its rows in row order by chunks of 32 (one rolling-window
    thread each), then the chunk sums the same way, level by level: the result is a function of the
    data, computed here on the host with numpy's IEEE additions, the same bits."""
    pdf = _frame(_rows(20_000), 30, seed=7)
    got = gpd.DataFrame(pdf).groupby("k")["v"].sum().to_pandas()

    def chunked(x: np.ndarray) -> float:
        while len(x) > 1:
            width = -(-len(x) // 32) * 32
            chunks = np.concatenate([x, np.zeros(width - len(x))]).reshape(-1, 32)
            acc = np.zeros(len(chunks))
            for k in range(32):  # each chunk left to right, from 0 (as libcudf's rolling sum)
                acc = acc + chunks[:, k]
            x = acc
        return float(x[0])

    expected = pdf.groupby("k")["v"].agg(lambda s: chunked(s.to_numpy()))
    assert got.to_numpy().tobytes() == expected.to_numpy().tobytes()


def test_whole_column_float_sum_bit_identical() -> None:
    pdf = _frame(300_000, 10, seed=2)
    g = gpd.DataFrame(pdf)
    runs = {float(g["v"].sum()) for _ in range(50)}
    assert len(runs) == 1
    assert runs.pop() == pytest.approx(pdf["v"].sum(), rel=1e-9)


def test_q15_shape_max_filter_never_empty() -> None:
    """TPC-H q15: totals per supplier, then the suppliers whose total equals the largest total."""
    pdf = _frame(_rows(200_000), 1000, seed=3)
    g = gpd.DataFrame(pdf)
    for _ in range(30):
        t = g.groupby("k", as_index=False).agg(total=("v", "sum"))
        top = t[t["total"] == t["total"].max()].to_pandas()
        assert len(top) >= 1
    expected = pdf.groupby("k", as_index=False).agg(total=("v", "sum"))
    expected = expected[expected["total"] == expected["total"].max()]
    assert top["k"].tolist() == expected["k"].tolist()


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


@pytest.mark.parametrize("fn", ["sum", "mean", "std"])
def test_few_large_float_groups_bit_identical(fn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A handful of groups of many rows each (TPC-H q1: 4 groups of 15 million rows at sf10): the
    GPU engine sums each group with one device-wide reduction of its slice (``_few_sums``) or, where
    numba-cuda is there, with the fixed-order segmented kernel (``_segment_sums``) or, past
    ``coded.MIN_ROWS``, the coded kernels (``coded.group_sums``), which must give
    the same bits every run too, and pandas' answer within 1e-9."""
    rng = np.random.default_rng(5)
    n = _rows(400_000)
    pdf = pandas.DataFrame({"k": rng.choice(["A|F", "N|O", "R|F", "N|F"], n),
                            "v": np.round(rng.uniform(900, 100000, n), 2)})
    calls = []
    if GPU:
        from gframe.engines.gpu import kernels

        if STAND_IN:  # the stand-in's frame is smaller: let its groups count as large
            monkeypatch.setattr(kernels, "FEW_GROUPS_MIN_ROWS", 1)
        few = kernels.SortedGroups._few_sums
        monkeypatch.setattr(kernels.SortedGroups, "_few_sums", lambda self, cols: calls.append(1) or few(self, cols))
        seg = kernels.SortedGroups._segment_sums  # the device: the fixed-order numba-cuda kernel sums them
        monkeypatch.setattr(kernels.SortedGroups, "_segment_sums", lambda self, cols: calls.append(2) or seg(self, cols))
        coded_sums = kernels.coded.group_sums  # past coded.MIN_ROWS: the few-groups coded kernels
        monkeypatch.setattr(kernels.coded, "group_sums", lambda *a: calls.append(3) or coded_sums(*a))
    g = gpd.DataFrame(pdf)
    runs = {getattr(g.groupby("k")["v"], fn)().to_pandas().to_numpy().tobytes() for _ in range(30)}
    assert len(runs) == 1
    pandas.testing.assert_series_equal(getattr(g.groupby("k")["v"], fn)().to_pandas(), getattr(pdf.groupby("k")["v"], fn)(),
                                       check_exact=False, rtol=1e-9, atol=0)
    assert bool(calls) == GPU  # the GPU engine took a fixed-order per-group sum
