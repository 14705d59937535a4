"""Whole-column float sums in numpy's order on the GPU engine (``engines/gpu/pairwise.py``).

Three layers. (1) The claims about numpy's order that the module is built on, checked against
numpy itself through a host model (``_model``): the pairwise blocks, the reduction's 0 start,
``where=`` runs, the 8192-value buffers of a casting reduction. (2) The numba-cuda kernels on
numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, in a child process), bit for bit against numpy
on adversarial values (cancellation, -0.0, inf, NaN) and lengths around the 8 / 16 / 128 / 256
boundaries. (3) The engine wired to the simulated kernel over the pylibcudf stand-in (the segment
building runs as on the device), bit for bit against pandas; and the stand-in's own path (numpy's
sums) likewise. On the device ``tests/test_fuzz_regressions.py::test_fuzz_regression_fz7gpu``
and ``test_engine_sums_match_pandas_bits`` run the real kernels.
"""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from gframe.engines.gpu import pairwise  # (imports no numba)

ROOT = Path(__file__).resolve().parents[1]
POOL = [1e20, -1e20, 1e-300, -0.0, 0.1, 3.3, -1.5, 59.835981, 1e16, -1e16, 7.0]
LENGTHS = [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 120, 127, 128, 129, 135, 136, 137, 255, 256, 257, 383, 384,
           385, 511, 512, 513, 1000]


def _pw(a: np.ndarray, lo: int, n: int) -> np.generic:
    """numpy's ``pairwise_sum`` of a[lo:lo + n], as documented in ``pairwise``."""
    t = a.dtype.type
    if n < 8:
        res = t(0)
        for i in range(n):
            res = t(res + a[lo + i])
        return res
    if n <= pairwise.BLOCK:
        r = [a[lo + j] for j in range(8)]
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] = t(r[j] + a[lo + i + j])
            i += 8
        res = t(t(t(r[0] + r[1]) + t(r[2] + r[3])) + t(t(r[4] + r[5]) + t(r[6] + r[7])))
        for k in range(i, n):
            res = t(res + a[lo + k])
        return res
    h = pairwise.half(n)
    return t(_pw(a, lo, h) + _pw(a, lo + h, n - h))


def _model(a: np.ndarray, where: np.ndarray | None = None, chunk: int = 0) -> np.generic:
    """A reduction from 0: each inner loop's (a run of ``where``, cut at ``chunk`` boundaries)
    pairwise sum added one after another."""
    t = a.dtype.type
    valid = np.ones(len(a), bool) if where is None else where
    edges = list(range(0, len(a), chunk)) + [len(a)] if chunk else [0, len(a)]
    res = t(0)
    for c0, c1 in itertools.pairwise(edges):
        i = c0
        while i < c1:
            if not valid[i]:
                i += 1
                continue
            j = i
            while j < c1 and valid[j]:
                j += 1
            res = t(res + _pw(a, i, j - i))
            i = j
    return res


def _values(n: int, seed: int, dtype: type = np.float64) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.choice(POOL, n) * rng.choice([1.0, 1.0, 1.0000001], n)).astype(dtype)


def _same(a: object, b: object) -> bool:
    return np.asarray(a).tobytes() == np.asarray(b).tobytes()


# ------------------------------------------------------------------ (1) numpy's order, as claimed

@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_sum_is_the_documented_order(dtype: type) -> None:
    for n in LENGTHS + [2000, 8193, 20000]:
        x = _values(n, n, dtype)
        assert _same(np.sum(x), _model(x)), n
        w = np.random.default_rng(n).random(n) < 0.7
        assert _same(np.sum(x, where=w), _model(x, w)), n  # where=: per run, no buffer cuts (no cast)


def test_numpy_casting_sum_is_buffered_by_8192() -> None:
    """An int column's float64 sum (pandas' int mean) is cut into 8192-value inner loops."""
    rng = np.random.default_rng(3)
    x = rng.choice(np.array([2**62, -2**62, 1, 3, 1000, 2**55], dtype=np.int64), 20000)
    xf = x.astype(np.float64)
    assert _same(np.sum(x, dtype=np.float64), _model(xf, chunk=pairwise.BUFSIZE))
    assert not _same(np.sum(x, dtype=np.float64), _model(xf))  # (the cuts matter here)
    # with where=, a run across a buffer's end is cut there
    n = 9000
    x = np.zeros(n, np.int64)
    w = np.zeros(n, bool)
    x[0], w[0] = 2**62, True
    x[8189:8195], w[8189:8195] = 200, True
    got = np.sum(x, dtype=np.float64, where=w)
    assert _same(got, _model(x.astype(np.float64), w, pairwise.BUFSIZE))
    assert not _same(got, _model(x.astype(np.float64), w))


def test_numpy_reduction_starts_from_zero() -> None:
    assert not np.signbit(np.sum(np.array([-0.0, -0.0])))  # 0.0 + -0.0: the sign is lost
    assert not np.signbit(np.sum(np.array([-0.0] * 300, np.float32)))
    # (the pairwise blocks themselves keep -0.0: a small block starts from -0.0; only a reduction
    # started from -0.0 shows it, and a sum's value is the same either way)
    assert np.signbit(np.add.reduce(np.array([-0.0] * 5), initial=-0.0))
    assert np.signbit(np.add.reduce(np.array([-0.0] * 300), initial=-0.0))


def test_depth() -> None:
    assert [pairwise.depth(n) for n in (0, 128, 129, 256, 257, 512, 513)] == [0, 0, 1, 1, 2, 2, 3]
    assert pairwise.half(129) == 64 and pairwise.half(300) == 144 and pairwise.half(136) == 64


# ------------------------------------------------------------------ (2) the kernels, simulated

_CHILD = r"""
import json, sys
import numpy as np
from numba import cuda
from gframe.engines.gpu import pairwise

cases = json.loads(sys.stdin.read())
out = {}
small = pairwise.SMALL
for name, c in [(n, c) for n, c in cases.items()] + [(n + "@tree", c) for n, c in cases.items() if c["bounds"] is None]:
    # "@tree": the single segments again with the one-thread kernel off (the tree and the fold)
    pairwise.SMALL = -1 if name.endswith("@tree") else small
    x = np.frombuffer(bytes.fromhex(c["x"]), c["dtype"])
    m = len(x)
    bounds = group_of = None
    if c["bounds"] is not None:
        b = np.asarray(c["bounds"], np.int64)
        bounds, group_of = cuda.to_device(b), cuda.to_device(np.repeat(np.arange(len(b) - 1), np.diff(b)).astype(np.int32))
    work = cuda.device_array(pairwise.scratch_length(m, c["chunk"], c["nseg"]), x.dtype)
    res = cuda.device_array(1, x.dtype)
    pairwise.segment_sums(cuda.to_device(x), work, res, bounds, group_of, c["nseg"], c["chunk"])
    w = work.copy_to_host()
    slots = [] if c["bounds"] is None else [w[s].tobytes().hex() for s in c["bounds"][:-1]]
    out[name] = [res.copy_to_host().tobytes().hex(), slots]
print(pairwise.unavailable_reason())
print(json.dumps(out))
"""


def _case(x: np.ndarray, chunk: int = 0, bounds: list[int] | None = None) -> dict:
    m = len(x)
    if bounds is None:
        chunk = chunk or max(m, 1)
        nseg = (m + chunk - 1) // chunk
    else:
        nseg = len(bounds) - 1
    return {"x": x.tobytes().hex(), "dtype": x.dtype.str, "chunk": chunk, "bounds": bounds, "nseg": nseg}


def _special(n: int, seed: int, dtype: type) -> np.ndarray:
    x = _values(n, seed, dtype)
    rng = np.random.default_rng(seed)
    if n:
        x[rng.integers(0, n)] = rng.choice([np.inf, -np.inf, np.nan, -0.0])
    return x


def _runs(lengths: list[int], seed: int, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Values with missing gaps between runs of ``lengths`` (x, valid)."""
    rng = np.random.default_rng(seed)
    parts, valid = [], []
    for k in lengths:
        gap = int(rng.integers(1, 4))
        parts += [np.zeros(gap, dtype), _values(k, seed + k, dtype)]
        valid += [np.zeros(gap, bool), np.ones(k, bool)]
    return np.concatenate(parts), np.concatenate(valid)


RUN_LENGTHS = [1, 2, 7, 8, 9, 16, 17, 100, 127, 128, 129, 136, 200, 257, 300, 5, 1]
MANY_RUNS = [1, 2, 3] * 1500 + [9]  # more runs than ``fold`` stages in shared memory at once (TILE)


@pytest.fixture(scope="module")
def simulated() -> tuple[dict, dict]:
    pytest.importorskip("numba")
    cases: dict[str, dict] = {}
    for dtype in (np.float64, np.float32):
        for n in LENGTHS + [pairwise.SMALL, pairwise.SMALL + 1]:
            cases[f"{dtype.__name__}-{n}"] = _case(_values(n, n, dtype))
        for n in (9, 130, 300):
            cases[f"{dtype.__name__}-{n}-special"] = _case(_special(n, n + 1, dtype))
        x, valid = _runs(RUN_LENGTHS, 7, dtype)
        present = x[valid]
        starts = np.flatnonzero(valid & ~np.concatenate([[False], valid[:-1]]))
        bounds = np.searchsorted(np.flatnonzero(valid), starts).tolist() + [len(present)]
        cases[f"{dtype.__name__}-runs"] = _case(present, bounds=bounds)
    x, valid = _runs(MANY_RUNS, 5, np.float64)
    present = x[valid]
    starts = np.flatnonzero(valid & ~np.concatenate([[False], valid[:-1]]))
    bounds = np.searchsorted(np.flatnonzero(valid), starts).tolist() + [len(present)]
    cases["float64-many-runs"] = _case(present, bounds=bounds)
    ints = np.random.default_rng(3).choice(np.array([2**62, -2**62, 1, 3, 1000, 2**55], np.int64), 20000)
    cases["int-buffers"] = _case(ints.astype(np.float64), chunk=pairwise.BUFSIZE)
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(cases), env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    reason, payload = proc.stdout.strip().splitlines()[-2:]
    assert reason == "None"  # the simulator sees a "device" and the kernels build
    return cases, json.loads(payload)


def test_kernel_single_segment_bits(simulated: tuple[dict, dict]) -> None:
    """Every single segment twice: by the one-thread kernel where it is short enough
    (``pairwise.small``), and by the tree and the fold ("@tree")."""
    cases, got = simulated
    checked = 0
    for name, c in cases.items():
        if c["bounds"] is not None or name == "int-buffers":
            continue
        x = np.frombuffer(bytes.fromhex(c["x"]), c["dtype"])
        for run in (name, name + "@tree"):
            res = np.frombuffer(bytes.fromhex(got[run][0]), c["dtype"])[0]
            with np.errstate(invalid="ignore", over="ignore"):
                assert _same(res, np.sum(x)), (run, res, np.sum(x))
            checked += 1
    assert checked == 2 * 2 * (len(LENGTHS) + 2 + 3)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_kernel_runs_bits(simulated: tuple[dict, dict], dtype: str) -> None:
    """Each run's pairwise sum sits at its first slot; the total is numpy's ``where=`` sum."""
    cases, got = simulated
    np_dtype = np.dtype(dtype).type
    x, valid = _runs(RUN_LENGTHS, 7, np_dtype)
    c = cases[f"{dtype}-runs"]
    res, slots = got[f"{dtype}-runs"]
    assert _same(np.frombuffer(bytes.fromhex(res), dtype)[0], np.sum(x, where=valid))
    present = x[valid]
    b = c["bounds"]
    assert len(slots) == len(RUN_LENGTHS)
    for g, slot in enumerate(slots):
        run_sum = np.frombuffer(bytes.fromhex(slot), dtype)[0]
        assert _same(np_dtype(0) + run_sum, np.add.reduce(present[b[g]:b[g + 1]])), g


def test_kernel_many_runs_bits(simulated: tuple[dict, dict]) -> None:
    """More runs than one shared-memory tile of ``fold``: their sums still added in order from 0."""
    _, got = simulated
    x, valid = _runs(MANY_RUNS, 5, np.float64)
    assert len(MANY_RUNS) > 4096  # pairwise_kernels.TILE (that module builds the kernels at import)
    assert _same(np.frombuffer(bytes.fromhex(got["float64-many-runs"][0]), np.float64)[0], np.sum(x, where=valid))


def test_kernel_int_buffers_bits(simulated: tuple[dict, dict]) -> None:
    _, got = simulated
    ints = np.random.default_rng(3).choice(np.array([2**62, -2**62, 1, 3, 1000, 2**55], np.int64), 20000)
    assert _same(np.frombuffer(bytes.fromhex(got["int-buffers"][0]), np.float64)[0], np.sum(ints, dtype=np.float64))


# ------------------------------------------------------------------ (3) the engine's sums

def _frames(lengths: tuple[int, ...] = (0, 1, 9, 129, 300, 9000), dtypes: tuple[str, ...] = ("float64", "float32", "Float64", "Float32")) -> list:
    import pandas as pd

    out = []
    for n in lengths:
        rng = np.random.default_rng(11 + n)
        x = rng.choice([1e20, -1e20, 0.1, 1.5, -0.0, 59.835981, np.nan], n)
        xi = rng.choice([2**62, -2**62, 1, 200, 3], n)
        for dt in dtypes:
            df = pd.DataFrame({"c": x, "i": xi}).astype({"c": dt})
            out.append(df)
            if n:
                masked = df.astype({"i": "Int64"})
                masked.loc[masked.index[::5], "i"] = None
                out.append(masked)
    return out


def _check_engine_sums(frames: list | None = None) -> int:
    import pandas as pd

    import gframe as gpd

    checked = 0
    for df in _frames() if frames is None else frames:
        want = pd.concat([df.sum(), df.mean()])
        got = pd.concat([gpd.DataFrame(df).sum().to_pandas(), gpd.DataFrame(df).mean().to_pandas()])
        assert got.dtype == want.dtype
        w, g = want.to_numpy(dtype=float, na_value=np.nan), got.to_numpy(dtype=float, na_value=np.nan)
        assert _same(np.where(np.isnan(w), 0, w), np.where(np.isnan(g), 0, g)), (df.dtypes.tolist(), len(df), want, got)
        assert (np.isnan(w) == np.isnan(g)).all()
        checked += 1
    return checked


def test_engine_sums_match_pandas_bits() -> None:
    """On whichever engine the suite runs (CPU, the stand-in's numpy path, the device's kernels)."""
    assert _check_engine_sums() == 44


_WIRED = r"""
import sys
import numpy as np, pyarrow as pa
from gframe.testing import fake_pylibcudf
fake_pylibcudf.install()
from numba import cuda
from gframe.engines.gpu import pairwise
sys.path.insert(0, sys.argv[1])
import test_gpu_pairwise as T

calls = []


def simulated_sums(vals, bounds, group_of, nseg, chunk, nan_zero=False):
    # pairwise._device_sums with the stand-in's columns copied to the simulator's "device" (no
    # zero-copy view of foreign memory): the same kernels, the same arguments
    plc = sys.modules["pylibcudf"]
    host = lambda c, t: np.asarray(c.to_arrow().to_numpy(zero_copy_only=False), t)
    x = host(vals, vals.to_arrow().type.to_pandas_dtype())
    views = [None if c is None else cuda.to_device(host(c, t)) for c, t in ((bounds, np.int64), (group_of, np.int32))]
    work = cuda.device_array(pairwise.scratch_length(len(x), chunk, nseg), x.dtype)
    out = cuda.device_array(1, x.dtype)
    pairwise.segment_sums(cuda.to_device(x), work, out, *views, nseg, chunk, nan_zero=nan_zero)
    calls.append((len(x), nseg, chunk, nan_zero))
    return plc.Column.from_arrow(pa.array(out.copy_to_host()))


pairwise._host_sums = simulated_sums
import os
os.environ["GFRAME_ENGINE"] = "gpu"
frames = T._frames((1, 9, 300)) + T._frames((9000,), ("Float64",))
print(T._check_engine_sums(frames), len(calls), sum(1 for c in calls if c[2] == 0 and c[1] > 1), sum(1 for c in calls if c[2] == 8192),
      sum(1 for c in calls if c[3]))
"""


def test_engine_wired_to_the_simulated_kernels() -> None:
    """The engine's segment building (pylibcudf calls, over the stand-in) feeding the simulated
    kernels gives pandas' bits: whole columns, runs between missing values, 8192-value buffers."""
    pytest.importorskip("numba")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("GFRAME_ENGINE", None)
    proc = subprocess.run([sys.executable, "-c", _WIRED, str(ROOT / "tests")], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    checked, calls, runs, buffered, nan_zero = map(int, proc.stdout.strip().splitlines()[-1].split())
    assert checked == 26
    # every kind of segment went through the kernels, and plain float sums read NaN as 0 there
    assert calls > 50 and runs > 0 and buffered > 0 and nan_zero > 0


@pytest.mark.parametrize(("value", "on"), [(None, True), ("1", True), ("0", False), ("off", False)])
def test_switch(monkeypatch: pytest.MonkeyPatch, value: str | None, on: bool) -> None:
    if value is None:
        monkeypatch.delenv(pairwise.ENV, raising=False)
    else:
        monkeypatch.setenv(pairwise.ENV, value)
    assert pairwise.enabled() is on
