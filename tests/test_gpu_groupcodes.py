"""GPU group-bys over runs found by hashing the keys (``engines/gpu/groupcodes.py``).

The order-deterministic aggregations (float sums, means, variances, products) reduce over a stable
order of the rows in which each group is a run. That order now comes from a radix sort of one
64-bit hash of the keys, checked against the keys, instead of a sort by the keys: each group's
rows and their positions in it are the same, so the results must be the same bits as the key
sort's (``GFRAME_GPU_GROUPCODES=0``), equal to pandas, with pandas' group order (sorted or first
appearance), for every kind of key, with missing keys and values; and where two keys share a hash
the check must catch it and the key sort answer (the same bits again). Runs on the GPU engine (on
the device, or over the host stand-in for pylibcudf); skipped where there is none.
"""
from __future__ import annotations

import decimal
from typing import Any

import numpy as np
import pandas
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import groupcodes

pytestmark = pytest.mark.skipif(engines.gpu_unavailable_reason() is not None,
                                reason=f"no GPU engine here: {engines.gpu_unavailable_reason()}")


def _frame(n: int = 600, groups: int = 40, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    k = rng.integers(0, groups, n)
    return pandas.DataFrame({
        "k": k,
        "j": k % 3,
        "s": pandas.Series(np.char.add("g", (k * 7 % groups).astype(str)), dtype="str").where(k % 11 != 0),
        "f": ((k % 9 - 4) * 0.25),
        "d": pandas.Timestamp("2021-01-01") + pandas.to_timedelta(k % 5, unit="D"),
        "b": k % 2 == 0,
        "u": rng.integers(0, 10**9, n),  # nearly one row a group
        "v": rng.standard_normal(n) * 10.0 ** rng.integers(-5, 5, n),
        "i": rng.integers(-1000, 1000, n),
    })


AGGS = {"total": ("v", "sum"), "avg": ("v", "mean"), "sd": ("v", "std"), "var": ("i", "var"),
        "isum": ("i", "sum"), "n": ("v", "count"), "size": ("v", "size"), "lo": ("v", "min"),
        "first": ("i", "first"), "last": ("v", "last"), "uniq": ("i", "nunique"), "med": ("v", "median"),
        "imed": ("i", "median"), "imean": ("i", "mean")}  # (med: v has missing values, libcudf's median; imed: none, the segmented sort)


class Spy:
    """Counts the group-bys whose runs came from the hash (True) or fell back to the key sort (False)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[bool] = []
        real = groupcodes.hash_runs

        def spy(keys, n):
            out = real(keys, n)
            self.calls.append(out is not None)
            return out

        monkeypatch.setattr(groupcodes, "hash_runs", spy)


def _both_ways(monkeypatch: pytest.MonkeyPatch, query) -> tuple[pandas.DataFrame, pandas.DataFrame]:
    """(hashed, key-sorted): the query's result each way, on the GPU engine."""
    out = []
    for flag in ("1", "0"):
        monkeypatch.setenv(groupcodes.ENV, flag)
        with gframe.option_context(engine="gpu"):
            out.append(query())
    return out[0], out[1]


def _bits(f: pandas.DataFrame | pandas.Series) -> list[Any]:
    """Each column's and the index's values, numbers as their bytes (equal bits, not just close).
    A float key's 0.0 and -0.0 are one group, whose label is either (pandas: the first seen; the
    hash group-by: any): the index's zeros are compared as numbers."""
    frame = f.to_frame() if isinstance(f, pandas.Series) else f
    arrays = [frame.iloc[:, i].to_numpy() for i in range(frame.shape[1])]
    levels = [frame.index.get_level_values(i).to_numpy() for i in range(frame.index.nlevels)]
    arrays += [a + 0.0 if a.dtype.kind == "f" else a for a in levels]
    return [a.tobytes() if a.dtype.kind in "fiub" else repr(a.tolist()) for a in arrays]


@pytest.mark.parametrize("keys", [["k"], ["s"], ["s", "j"], ["f"], ["f", "s"], ["d"], ["b", "j"], ["u"], ["u", "s"]])
@pytest.mark.parametrize("sort", [True, False])
def test_hashed_runs_same_bits_as_key_sort(monkeypatch: pytest.MonkeyPatch, keys: list[str], sort: bool) -> None:
    pdf = _frame()
    pdf.loc[pdf.index[::7], "v"] = np.nan
    pdf.loc[pdf.index[::5], "f"] = -0.0  # one group with 0.0 (pandas), though its bits differ
    g = gframe.DataFrame(pdf)
    spy = Spy(monkeypatch)
    for dropna in (True, False):
        def query():
            return g.groupby(keys, sort=sort, dropna=dropna).agg(**AGGS).to_pandas()

        hashed, sorted_ = _both_ways(monkeypatch, query)
        assert _bits(hashed) == _bits(sorted_)
        pandas.testing.assert_frame_equal(hashed, pdf.groupby(keys, sort=sort, dropna=dropna).agg(**AGGS),
                                          check_exact=False, rtol=1e-9, atol=0)
    assert spy.calls == [True, True]  # hashed both times (dropna True / False); GFRAME_GPU_GROUPCODES=0 never asks


def test_as_index_false_and_series_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _frame(seed=1)
    g = gframe.DataFrame(pdf)
    queries = [
        lambda d: d.groupby(["s", "k"], as_index=False, sort=False, dropna=False).agg({"v": "sum", "i": "size"}),
        lambda d: d.groupby("k")["v"].mean(),
        lambda d: d.groupby("s", sort=False)[["v", "i"]].var(),
        lambda d: d.groupby("j")["v"].prod(),
    ]
    for q in queries:
        hashed, sorted_ = _both_ways(monkeypatch, lambda: q(g).to_pandas())
        assert _bits(hashed) == _bits(sorted_)
        expected = q(pdf)
        if isinstance(expected, pandas.Series):
            pandas.testing.assert_series_equal(hashed, expected, check_exact=False, rtol=1e-9, atol=0)
        else:
            pandas.testing.assert_frame_equal(hashed, expected, check_exact=False, rtol=1e-9, atol=0)


def test_decimal_and_nullable_int_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _frame(200, 12, seed=2)
    pdf["ni"] = pandas.array(pdf["k"] % 4, dtype="Int64")
    pdf.loc[pdf.index[::6], "ni"] = pandas.NA
    g = gframe.DataFrame(pdf)
    spy = Spy(monkeypatch)
    for keys in (["ni"], ["ni", "s"]):
        def query(keys=keys):
            return g.groupby(keys, dropna=False).agg(total=("v", "sum"), avg=("v", "mean")).to_pandas()

        hashed, sorted_ = _both_ways(monkeypatch, query)
        assert _bits(hashed) == _bits(sorted_)
        expected = pdf.groupby(keys, dropna=False).agg(total=("v", "sum"), avg=("v", "mean"))
        pandas.testing.assert_frame_equal(hashed, expected, check_exact=False, rtol=1e-9, atol=0)
    dec = pandas.DataFrame({"k": pandas.array([decimal.Decimal("1.5"), decimal.Decimal("-2.25"), decimal.Decimal("1.5"),
                                               None, decimal.Decimal("-2.25")], dtype="object"),
                            "v": [1.0, 2.0, 3.5, 4.0, 5.0]})
    monkeypatch.setenv(groupcodes.ENV, "1")
    with gframe.option_context(engine="gpu"):
        got = gframe.DataFrame(dec).groupby("k", dropna=False)["v"].sum().to_pandas()
    assert got.tolist() == [2.0 + 5.0, 1.0 + 3.5, 4.0]
    pandas.testing.assert_series_equal(got, dec.groupby("k", dropna=False)["v"].sum())
    # the decimals in an object column with a missing None are keys whose Index pandas infers from
    # the values (family ``object_none``): that group-by is the CPU engine's, the two above hashed
    assert spy.calls == [True, True]


@pytest.mark.parametrize("collide", ["all", "some"])
@pytest.mark.parametrize("keys", [["k"], ["s", "j"], ["u"]])
def test_hash_collisions_fall_back_to_the_key_sort(monkeypatch: pytest.MonkeyPatch, collide: str,
                                                   keys: list[str]) -> None:
    """Two different keys with one hash are caught - by comparing each sorted row's keys with the
    next row's (many rows a group: k, s) or only the pairs of rows that share a hash (most groups
    one row: u) - and the key sort answers, with the same bits."""
    from gframe.engines.gpu.lib import plc

    pdf = _frame(seed=3)
    g = gframe.DataFrame(pdf)
    real = groupcodes.row_hashes

    def weak(keys_, n):
        h = real(keys_, n)
        if collide == "all":  # one hash for every row
            return plc.Column.from_scalar(_u64(0), n)
        return plc.binaryop.binary_operation(h, _u64(3), plc.binaryop.BinaryOperator.BITWISE_AND, h.type())

    def query():
        return g.groupby(keys, sort=False).agg(total=("v", "sum"), sd=("v", "std"), n=("i", "size")).to_pandas()

    _, sorted_ = _both_ways(monkeypatch, query)
    monkeypatch.setattr(groupcodes, "row_hashes", weak)
    spy = Spy(monkeypatch)
    hashed, _ = _both_ways(monkeypatch, query)
    assert spy.calls == [False]
    assert _bits(hashed) == _bits(sorted_)
    expected = pdf.groupby(keys, sort=False).agg(total=("v", "sum"), sd=("v", "std"), n=("i", "size"))
    pandas.testing.assert_frame_equal(hashed, expected, check_exact=False, rtol=1e-9, atol=0)


def _u64(v: int):
    import pyarrow as pa

    from gframe.engines.gpu.lib import plc

    return plc.Scalar.from_arrow(pa.scalar(v, type=pa.uint64()))


def test_group_windows_over_hashed_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """transform("sum") / cumcount broadcast each group's result back to its rows: the same over
    hashed runs as over the key sort."""
    pdf = _frame(seed=4)
    g = gframe.DataFrame(pdf)
    for q in (lambda d: d.groupby("s")["v"].transform("sum"), lambda d: d.groupby(["s", "j"])["v"].transform("mean"),
              lambda d: d.groupby("u").cumcount(), lambda d: d.groupby("k").cumcount(ascending=False)):
        hashed, sorted_ = _both_ways(monkeypatch, lambda: q(g).to_pandas())
        assert _bits(hashed) == _bits(sorted_)
        pandas.testing.assert_series_equal(hashed, q(pdf), check_exact=False, rtol=1e-9, atol=0)


def test_hash_runs_are_the_groups() -> None:
    """``hash_runs`` itself: every group one run, each run's rows in row order."""
    from gframe.engines.gpu.convert import upload

    pdf = _frame(300, 25, seed=5)
    with gframe.option_context(engine="gpu"):
        t = upload(__import__("pyarrow").Table.from_pandas(pdf[["s", "j"]], preserve_index=False))
    runs = groupcodes.hash_runs([t.column("s"), t.column("j")], len(pdf))
    assert runs is not None
    order, start, starts = runs
    order = order.to_arrow().to_numpy()
    start = start.to_arrow().to_numpy(zero_copy_only=False)
    assert sorted(order.tolist()) == list(range(len(pdf)))
    assert starts.to_arrow().to_numpy().tolist() == np.flatnonzero(start).tolist()
    run_of = np.cumsum(start)  # per sorted position
    key = [tuple(x) for x in pdf[["s", "j"]].astype(object).where(pdf[["s", "j"]].notna(), None).to_numpy()[order]]
    seen: dict[tuple, int] = {}
    for p, (kk, r) in enumerate(zip(key, run_of)):
        assert seen.setdefault(kk, r) == r  # one run per key
        if not start[p]:
            assert key[p - 1] == kk and order[p - 1] < order[p]  # the run's rows in row order
    assert len(seen) == len(starts.to_arrow())


@pytest.mark.parametrize("dropna", [True, False])
def test_float_keys_with_nan_and_signed_zero(monkeypatch: pytest.MonkeyPatch, dropna: bool) -> None:
    """Many rows a group, so the runs are checked by counting the distinct keys: -0.0 groups with
    0.0 (one hash after +0.0, equal keys) and pandas' NaN key is a missing one (null on the
    device: one group with dropna=False). Both ways: pandas' groups and the same bits."""
    rng = np.random.default_rng(6)
    n = 400
    k = rng.choice([1.5, -0.0, 0.0, 2.5], n)
    pdf = pandas.DataFrame({"k": k, "v": rng.standard_normal(n)})
    for frame in (pdf, pdf.assign(k=np.where(np.arange(n) % 9 == 0, np.nan, k))):
        g = gframe.DataFrame(frame)

        def query():
            return g.groupby("k", dropna=dropna).agg(total=("v", "sum"), n=("v", "size")).to_pandas()

        spy = Spy(monkeypatch)
        hashed, sorted_ = _both_ways(monkeypatch, query)
        assert spy.calls == [True]  # the hash runs, their check passed
        assert _bits(hashed) == _bits(sorted_)
        pandas.testing.assert_frame_equal(hashed, frame.groupby("k", dropna=dropna).agg(total=("v", "sum"), n=("v", "size")),
                                          check_exact=False, rtol=1e-9, atol=0)
