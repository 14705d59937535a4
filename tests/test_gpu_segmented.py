"""The GPU group sums' fixed-order kernel (``engines/gpu/segmented.py``) on numba's CUDA simulator.

No GPU here: ``NUMBA_ENABLE_CUDASIM=1`` must be set before ``numba.cuda`` is first imported, so the
kernel runs in a child process (``_simulated``), which writes each case's sums as raw bytes. This
side checks them against numpy: within 1e-12 of ``math.fsum`` (relative to the sum of the values'
magnitudes, the scale of any rounding), bit for bit against a host model of the documented order,
the same bits on a second run, and the same bits for a group wherever its run lies. The device run
(``benchmarks/profiles/gpu_groupby_phases.py --switch segsum``) checks the real kernel.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from gframe.engines.gpu import segmented  # noqa: E402  (imports no numba)

ROOT = Path(__file__).resolve().parents[1]

# group sizes: no groups, one row, groups of one, around a warp / a chunk, more than one level
# (33, 1025: two and three levels), one large group, many tiny ones, empty groups among others
CASES: dict[str, list[int]] = {
    "no groups": [],
    "one row": [1],
    "groups of 1": [1] * 40,
    "31": [31], "32": [32], "33": [33],
    "31/32/33 mixed": [33, 1, 32, 31, 64, 65, 2],
    "1025 (three levels)": [1025],
    "one large group": [2100],
    "large among small": [3, 1100, 1, 40],
    "many tiny": [1, 2, 3] * 60,
    "empty groups": [0, 5, 0, 0, 33, 0],
}

_CHILD = r"""
import json, sys
import numpy as np
from numba import cuda
from gframe.engines.gpu import segmented

cases = json.loads(sys.argv[1])
out = {}
for name, (sizes, values) in cases.items():
    sizes = np.asarray(sizes, np.int64)
    x = np.asarray(values, np.float64)
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    group_of = np.repeat(np.arange(len(sizes)), sizes).astype(np.int32)
    rank = (np.arange(len(x)) - bounds[:-1][group_of]).astype(np.int32)
    largest = int(sizes.max()) if len(sizes) else 0
    runs = []
    for _ in range(2):
        res = cuda.device_array(len(sizes), np.float64)
        work = cuda.device_array(len(x), np.float64)
        segmented.segment_sums(cuda.to_device(x), cuda.to_device(rank), cuda.to_device(group_of),
                               cuda.to_device(bounds), largest, work, res)
        runs.append(res.copy_to_host().tobytes().hex())
    out[name] = runs
print(segmented.unavailable_reason())
print(json.dumps(out))
"""


def _values(sizes: list[int], seed: int) -> np.ndarray:
    """Values of mixed signs over six orders of magnitude (rounding shows in the last bits)."""
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    return rng.standard_normal(n) * 10.0 ** rng.uniform(-3, 3, n)


def _simulated(cases: dict[str, tuple[list[int], list[float]]]) -> dict[str, list[np.ndarray]]:
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(cases)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    reason, payload = proc.stdout.strip().splitlines()[-2:]
    assert reason == "None"  # the simulator sees a "device" and the kernels build
    return {k: [np.frombuffer(bytes.fromhex(h), np.float64) for h in v] for k, v in json.loads(payload).items()}


def _model(sizes: list[int], x: np.ndarray) -> np.ndarray:
    """The documented order on the host: per group, chunks of FAN_IN values added one after
    another from 0.0, level after level, until one value is left (at least one level)."""
    out, start = [], 0
    for m in sizes:
        level = [float(v) for v in x[start:start + m]]
        first = True
        while first or len(level) > 1:
            first = False
            sums = []
            for i in range(0, len(level), segmented.FAN_IN):
                acc = 0.0
                for v in level[i:i + segmented.FAN_IN]:
                    acc += v
                sums.append(acc)
            level = sums
        out.append(level[0] if level else 0.0)
        start += m
    return np.asarray(out, np.float64)


@pytest.fixture(scope="module")
def simulated() -> tuple[dict, dict]:
    cases = {name: (sizes, _values(sizes, i).tolist()) for i, (name, sizes) in enumerate(CASES.items())}
    # a group's bits do not depend on where its run lies: the same groups in the reverse order
    sizes, values = cases["large among small"]
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    rev = [values[bounds[g]:bounds[g + 1]] for g in reversed(range(len(sizes)))]
    cases["large among small, reversed"] = (sizes[::-1], [v for part in rev for v in part])
    return cases, _simulated(cases)


@pytest.mark.parametrize("name", list(CASES))
def test_sums_match_numpy(simulated: tuple[dict, dict], name: str) -> None:
    cases, got = simulated
    sizes, values = cases[name]
    x = np.asarray(values, np.float64)
    first, second = got[name]
    assert len(first) == len(sizes)
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    for g in range(len(sizes)):
        part = x[bounds[g]:bounds[g + 1]]
        exact = math.fsum(part)
        scale = float(np.abs(part).sum())
        assert abs(first[g] - exact) <= 1e-12 * scale, (name, g, first[g], exact)
        assert first[g] == pytest.approx(float(np.sum(part)), rel=1e-12, abs=1e-12 * scale)
    assert first.tobytes() == second.tobytes()  # the same bits run to run
    assert first.tobytes() == _model(sizes, x).tobytes()  # and exactly the documented order


def test_bits_do_not_depend_on_the_run_position(simulated: tuple[dict, dict]) -> None:
    _, got = simulated
    fwd, rev = got["large among small"][0], got["large among small, reversed"][0]
    assert fwd.tobytes() == rev[::-1].copy().tobytes()


@pytest.mark.parametrize(("largest", "strides"), [(0, [1]), (1, [1]), (32, [1]), (33, [1, 32]), (1024, [1, 32]),
                                                   (1025, [1, 32, 1024]), (10**7, [1, 32, 1024, 32768, 32**4])])
def test_levels(largest: int, strides: list[int]) -> None:
    assert segmented.levels(largest) == strides


@pytest.mark.parametrize(("value", "on"), [(None, True), ("1", True), ("0", False), ("off", False), ("no", False)])
def test_switch(monkeypatch: pytest.MonkeyPatch, value: str | None, on: bool) -> None:
    if value is None:
        monkeypatch.delenv(segmented.ENV, raising=False)
    else:
        monkeypatch.setenv(segmented.ENV, value)
    assert segmented.enabled() is on


_WIRED = r"""
import json, sys
import numpy as np, pandas, pyarrow as pa
from gframe.testing import fake_pylibcudf
fake_pylibcudf.install()
from numba import cuda
import gframe
from gframe.engines.gpu import segmented

calls = []


def simulated_group_sums(cols, rank, group_of, bounds, largest):
    # segmented.group_sums with the stand-in's columns copied to the simulator's "device" (the
    # simulator has no zero-copy view of foreign memory); the same kernel, the same arguments
    plc = sys.modules["pylibcudf"]
    host = lambda c, t: np.asarray(c.to_arrow().to_numpy(zero_copy_only=False), t)
    views = [cuda.to_device(host(c, np.int32)) for c in (rank, group_of, bounds)]
    out = []
    for c in cols:
        assert c.null_count() == 0
        x = host(c, np.float64)
        res, work = cuda.device_array(bounds.size() - 1, np.float64), cuda.device_array(len(x), np.float64)
        segmented.segment_sums(cuda.to_device(x), *views, largest, work, res)
        out.append(plc.Column.from_arrow(pa.array(res.copy_to_host())))
    calls.append((len(cols), rank.size(), bounds.size() - 1, largest))
    return out


segmented.group_sums = simulated_group_sums
segmented.usable = segmented.enabled  # (the stand-in is no device: the test says where the kernel runs)
rng = np.random.default_rng(5)
sizes = {"a": 1, "b": 40, "c": 1100, "d": 33, "e": 2}
keys = np.repeat(list(sizes), list(sizes.values()))
rng.shuffle(keys)
v = rng.standard_normal(len(keys)) * 100
v[rng.random(len(keys)) < 0.1] = np.nan
data = {"k": keys, "v": v, "w": rng.integers(-5, 5, len(keys)).astype(float)}
out = {}
for mode in ("1", "0"):
    import os
    os.environ[segmented.ENV] = mode
    with gframe.option_context(engine="gpu"):
        g = gframe.DataFrame(data).groupby("k")
        res = {"sum": g.v.sum(), "mean": g.v.mean(), "var": g.v.var(), "std": g.w.std(), "wsum": g.w.sum()}
        out[mode] = {k: r.to_pandas().to_dict() for k, r in res.items()}
p = pandas.DataFrame(data).groupby("k")
out["pandas"] = {"sum": p.v.sum().to_dict(), "mean": p.v.mean().to_dict(), "var": p.v.var().to_dict(),
                 "std": p.w.std().to_dict(), "wsum": p.w.sum().to_dict()}
print(json.dumps({"calls": calls, "out": out}))
"""


def test_group_by_through_the_kernel() -> None:
    """SortedGroups' wiring (rank, group numbers, bounds, largest group) into the simulated kernel,
    over the stand-in for pylibcudf: sums, means with missing values (a count summed beside the
    total), variances (a second pass), against pandas and against the previous path."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]), GFRAME_ENGINE="gpu")
    proc = subprocess.run([sys.executable, "-c", _WIRED], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    # sum, mean (values + count), var (mean + squared deviations), std, sum; with the kernel only
    assert len(got["calls"]) >= 5 and all(c[1:] == [1176, 5, 1100] for c in got["calls"])
    assert any(c[0] == 2 for c in got["calls"])  # the mean of values with missing ones: two columns
    kernel, before, expected = got["out"]["1"], got["out"]["0"], got["out"]["pandas"]
    for agg, want in expected.items():
        for key, value in want.items():
            for result in (kernel, before):
                assert result[agg][key] == pytest.approx(value, rel=1e-12, nan_ok=True), (agg, key)


# ---- on a device (the lead's GPU runs): the real kernel over pylibcudf columns

def _real_device() -> str | None:
    """None where the GPU engine runs on a real device and the kernel builds, else why not."""
    from gframe import engines

    reason = engines.gpu_unavailable_reason()
    if reason is None and getattr(sys.modules.get("pylibcudf"), "__host_stand_in__", False):
        reason = "host stand-in"
    return reason or segmented.unavailable_reason()


def needs_device(fn):  # type: ignore[no-untyped-def]
    reason = _real_device()
    return pytest.mark.gpu(pytest.mark.skipif(reason is not None, reason=f"needs a GPU: {reason}")(fn))


@needs_device
@pytest.mark.parametrize("name", ["one row", "groups of 1", "31/32/33 mixed", "1025 (three levels)",
                                  "large among small", "many tiny"])
def test_device_kernel_gives_the_model_bits(name: str) -> None:
    """The real kernel over zero-copy views of pylibcudf columns: the host model's bits, twice;
    a sliced input (a column offset) and an INT32 column (counts, cast to float64) too."""
    import pyarrow as pa
    import pylibcudf as plc

    sizes = CASES[name]
    x = _values(sizes, 11)
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    group_of = np.repeat(np.arange(len(sizes)), sizes).astype(np.int32)
    rank = (np.arange(len(x)) - bounds[:-1][group_of]).astype(np.int32)
    col = lambda a: plc.Column.from_arrow(pa.array(a))  # noqa: E731
    padded = col(np.concatenate([[123.0], x]))
    sliced = plc.copying.slice(padded, [1, len(x) + 1])[0]  # offset 1
    counts = np.arange(len(x), dtype=np.int32) % 7
    args = (col(rank), col(group_of), col(bounds), max(sizes))
    want = _model(sizes, x).tobytes()
    for values in (col(x), sliced):
        first, second = (segmented.group_sums([values], *args)[0] for _ in range(2))
        assert first.to_arrow().to_numpy().tobytes() == want
        assert second.to_arrow().to_numpy().tobytes() == want
    (total,) = segmented.group_sums([col(counts)], *args)
    assert total.to_arrow().to_numpy().tolist() == [float(counts[b:e].sum()) for b, e in itertools.pairwise(bounds)]


@needs_device
def test_device_group_by_kernel_against_previous_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A GPU group-by with the kernel (counted) and without it: within 1e-12, each the same bits
    twice, and near pandas."""
    import pandas

    import gframe

    calls = []
    real = segmented.group_sums
    monkeypatch.setattr(segmented, "group_sums", lambda *a: calls.append(1) or real(*a))
    rng = np.random.default_rng(3)
    n = 200_000
    data = {"k": rng.integers(0, 300, n), "v": rng.standard_normal(n) * 1e3}
    data["v"][rng.random(n) < 0.05] = np.nan
    got = {}
    for mode in ("1", "0", "1", "0"):
        monkeypatch.setenv(segmented.ENV, mode)
        with gframe.option_context(engine="gpu"):
            g = gframe.DataFrame(data).groupby("k").v
            res = pandas.concat({"sum": g.sum().to_pandas(), "mean": g.mean().to_pandas(),
                                 "std": g.std().to_pandas()}, axis=1)
        if mode in got:
            assert res.to_numpy().tobytes() == got[mode].to_numpy().tobytes()  # run to run
        got[mode] = res
    assert calls  # the kernel ran
    # (atol: 1e-12 of a sum of ~700 magnitudes of ~1e3, for a sum that cancels to near 0)
    pandas.testing.assert_frame_equal(got["1"], got["0"], rtol=1e-12, atol=1e-9)
    p = pandas.DataFrame(data).groupby("k").v
    want = pandas.concat({"sum": p.sum(), "mean": p.mean(), "std": p.std()}, axis=1)
    pandas.testing.assert_frame_equal(got["1"], want, rtol=1e-10, check_dtype=False)
