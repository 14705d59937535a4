"""Few groups of many rows on the GPU engine (``engines/gpu/coded.py``): each row's group number
from its key hash, and float group sums read from the rows in a fixed, compensated order - no sort
of the rows (TPC-H q1's shape). The answer must be pandas' (values within 1e-12 relative, dtypes,
index, order), the same bits every run, and the numba-cuda kernels must compute exactly the host
model's order (checked in numba's CUDA simulator, and on the device where there is one).

The group-by tests run on the GPU engine (the device, or the host stand-in for pylibcudf, where
the host model computes the sums) with ``MIN_ROWS`` lowered so small frames take the path."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from typing import Any

import numpy as np
import pandas
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import coded

gpu_only = pytest.mark.skipif(engines.gpu_unavailable_reason() is not None,
                              reason=f"no GPU engine here: {engines.gpu_unavailable_reason()}")


def _exact(x: np.ndarray) -> float:
    return float(sum((Fraction(float(v)) for v in x), Fraction(0)))


# ----------------------------------------------------------------------------- the host model

@pytest.mark.parametrize("parts", [1, 3, 16, 1024, 5000])
def test_model_is_compensated(parts: int) -> None:
    """Sums that cancel (1e16 beside small values) come out within an ulp or two of the exact sum,
    where a plain sum in any order loses everything (pandas' group sums are compensated too)."""
    rng = np.random.default_rng(parts)
    n = 4000
    x = rng.normal(size=n)
    x[::7] = 1e16
    x[3::7] = -1e16
    codes = rng.integers(0, 3, n).astype(np.int32)
    got = coded.model_sums(codes, x, 3, parts)
    for g in range(3):
        exact = _exact(x[codes == g])
        assert got[g] == pytest.approx(exact, rel=1e-14, abs=1e-12), (g, got[g], exact)


def test_model_non_finite_values_absorb() -> None:
    x = np.array([1.0, np.inf, 2.0, -np.inf, 3.0, np.nan, 4.0, 1e308, 1e308, 5.0])
    codes = np.array([0, 0, 1, 1, 2, 2, 3, 4, 4, 5], np.int32)
    got = coded.model_sums(codes, x, 6, 4)
    assert got[0] == np.inf and got[1] == -np.inf and np.isnan(got[2])
    assert got[3] == 4.0 and got[4] == np.inf and got[5] == 5.0


def test_model_empty_and_single() -> None:
    assert coded.model_sums(np.zeros(0, np.int32), np.zeros(0), 1, 8).tolist() == [0.0]
    assert coded.model_sums(np.zeros(1, np.int32), np.array([-2.5]), 1, 8).tolist() == [-2.5]


# ----------------------------------------------------------------------------- the kernels

_SIM = textwrap.dedent("""
    import numpy as np
    from numba import cuda
    from gframe.engines.gpu import coded, coded_kernels as K

    rng = np.random.default_rng(7)
    n, groups, blocks, threads = 300, 3, 2, 8
    parts = blocks * threads
    x = rng.normal(size=n) * 10.0 ** rng.integers(-3, 17, n)
    x[5], x[40] = np.inf, -0.0
    codes = rng.integers(0, groups, n).astype(np.int32)
    codes[5] = 2
    h = rng.integers(0, 2**63, 4).astype(np.uint64)
    uniques = np.sort(h)
    hashes = uniques[rng.integers(0, 4, 50)]
    out = cuda.device_array(50, np.int32)
    K.codes[1, 64](cuda.to_device(hashes), cuda.to_device(uniques), out, 50)
    assert (out.copy_to_host() == np.searchsorted(uniques, hashes)).all()
    s, c = cuda.device_array(groups * parts, np.float64), cuda.device_array(groups * parts, np.float64)
    K.partial[blocks, threads](cuda.to_device(codes), cuda.to_device(x), s, c, n, groups)
    ms, mc = coded.model_partial(codes, x, groups, parts)
    assert np.array_equal(s.copy_to_host(), ms, equal_nan=True), "partial sums"
    assert np.array_equal(c.copy_to_host(), mc, equal_nan=True), "compensations"
    res = cuda.device_array(groups, np.float64)
    K.combine[groups, coded.COMBINE](s, c, res, parts)
    want = coded.model_combine(ms, mc, groups, parts)
    assert np.array_equal(res.copy_to_host(), want, equal_nan=True), (res.copy_to_host(), want)
    print("ok", want.tolist())
""")


def test_kernels_match_the_model_in_the_simulator() -> None:
    """The numba-cuda kernels, run by numba's CUDA simulator, give the host model's bits: the
    group numbers, each thread's partial sums and compensations, and each group's sum."""
    pytest.importorskip("numba")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.run([sys.executable, "-c", _SIM], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("ok"), proc.stdout


# ----------------------------------------------------------------------------- group-bys

class Spy:
    """How many times the group-by took the coded path (``coded.group_sums`` calls)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = coded.group_sums

        def spy(*args: Any) -> Any:
            self.calls += 1
            return real(*args)

        monkeypatch.setattr(coded, "group_sums", spy)
        monkeypatch.setattr(coded, "MIN_ROWS", 1)


def _frame(n: int, seed: int = 0) -> pandas.DataFrame:
    rng = np.random.default_rng(seed)
    v = rng.normal(size=n) * 1000
    v[::11] = np.nan
    return pandas.DataFrame({
        "flag": pandas.array(rng.choice(["A", "N", "R"], n), dtype="str"),
        "status": rng.choice(["F", "O"], n),
        "k": rng.integers(0, 5, n),
        "v": v,
        "w": rng.integers(-50, 50, n).astype("float64") / 4,
        "i": rng.integers(-100, 100, n),
    })


def _check(pdf: pandas.DataFrame, fn: Any) -> None:
    want = fn(pdf)
    with gframe.option_context(engine="gpu"):
        got = fn(gframe.DataFrame(pdf)).to_pandas()
    pandas.testing.assert_frame_equal(got, want, rtol=1e-12, atol=1e-9)


Q1 = {"sum_v": ("v", "sum"), "sum_w": ("w", "sum"), "avg_v": ("v", "mean"), "avg_w": ("w", "mean"),
      "n": ("v", "size"), "cnt": ("v", "count"), "lo": ("i", "min"), "hi": ("i", "max"), "si": ("i", "sum")}


@gpu_only
@pytest.mark.parametrize("keys", [["flag", "status"], ["k"], ["status"]])
@pytest.mark.parametrize("sort", [True, False])
def test_q1_shape_takes_the_coded_path(monkeypatch: pytest.MonkeyPatch, keys: list[str], sort: bool) -> None:
    spy = Spy(monkeypatch)
    _check(_frame(3000), lambda d: d.groupby(keys, sort=sort).agg(**Q1))
    assert spy.calls > 0


@gpu_only
@pytest.mark.parametrize("fn", ["var", "std"])
def test_moments(monkeypatch: pytest.MonkeyPatch, fn: str) -> None:
    spy = Spy(monkeypatch)
    _check(_frame(2000, 1), lambda d: d.groupby("flag")[["v", "w"]].agg(fn))
    assert spy.calls > 0


@gpu_only
def test_missing_keys_kept_as_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _frame(1500, 2)
    pdf.loc[::13, "k"] = np.nan
    spy = Spy(monkeypatch)
    _check(pdf, lambda d: d.groupby("k", dropna=False).agg(s=("v", "sum"), m=("w", "mean")))
    _check(pdf, lambda d: d.groupby("k").agg(s=("v", "sum"), m=("w", "mean")))
    assert spy.calls > 0
    nan_key = pandas.DataFrame({"k": np.random.default_rng(3).choice([0.5, 1.5, np.nan], 500), "v": np.arange(500.0)})
    _check(nan_key, lambda d: d.groupby("k", dropna=False).agg(s=("v", "sum")))


@gpu_only
def test_one_group_and_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    pdf = pandas.DataFrame({"k": ["a"] * 5, "v": [1.5, -2.0, np.nan, 1e6, -3e5]})
    _check(pdf, lambda d: d.groupby("k").agg(s=("v", "sum"), m=("v", "mean")))
    _check(pdf.head(1), lambda d: d.groupby("k").agg(s=("v", "sum"), m=("v", "mean")))
    assert spy.calls > 0


@gpu_only
def test_declined_where_it_cannot_apply(monkeypatch: pytest.MonkeyPatch) -> None:
    """Too many groups, a NaN key, a median or a product: the runs, with pandas' answer."""
    spy = Spy(monkeypatch)
    rng = np.random.default_rng(3)
    many = pandas.DataFrame({"k": rng.integers(0, coded.MAX_GROUPS + 5, 2000), "v": rng.normal(size=2000)})
    _check(many, lambda d: d.groupby("k").agg(s=("v", "sum")))
    assert spy.calls == 0
    _check(_frame(800), lambda d: d.groupby("flag").agg(s=("v", "sum"), md=("w", "median")))
    assert spy.calls == 0
    _check(_frame(800), lambda d: d.groupby("flag")[["v"]].prod())
    assert spy.calls == 0


@gpu_only
def test_same_bits_every_run(monkeypatch: pytest.MonkeyPatch) -> None:
    Spy(monkeypatch)
    pdf = _frame(4000, 4)
    with gframe.option_context(engine="gpu"):
        runs = [gframe.DataFrame(pdf).groupby(["flag", "status"]).agg(**Q1).to_pandas() for _ in range(3)]
    for r in runs[1:]:
        for c in ("sum_v", "avg_v", "sum_w"):
            assert r[c].to_numpy().tobytes() == runs[0][c].to_numpy().tobytes()


@gpu_only
def test_off_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy(monkeypatch)
    monkeypatch.setenv(coded.ENV, "0")
    _check(_frame(500), lambda d: d.groupby("flag").agg(s=("v", "sum")))
    assert spy.calls == 0
    assert math.isfinite(coded.PARTS)
