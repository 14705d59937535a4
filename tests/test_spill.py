"""The GPU engine's spill policy (``engines/gpu/memory.spill``): when a node runs out of device
memory, resident device copies of sources are let go (their host data or file snapshot stays) and
results the user holds move to host memory; the node runs once more, and later queries give the same
answers, uploading again what they need. Recorded in the fallback report as kind ``spill``.

The allocator is not modelled here (the stand-in's limit is per column): the device is "full" while
any source holds a device copy, which is what the policy must undo."""
from __future__ import annotations

import os

import numpy as np
import pandas
import pandas.testing as pdt
import pytest

import gframe
from gframe import engines
from gframe.plan import logical as L
from gframe.plan.node import _holders, release_resident

NO_GPU = engines.gpu_unavailable_reason()
if NO_GPU is None:
    from gframe.engines.gpu import kernels
    from gframe.engines.gpu.table import GpuTable
pytestmark = [pytest.mark.skipif(NO_GPU is not None, reason=f"no GPU here: {NO_GPU}"),
              # verification mode runs every query unoptimized too: more kernel calls than counted here
              pytest.mark.skipif(gframe.options.verify_optimizer, reason="verification mode runs each query twice"),
              pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")]


def _device_full() -> bool:
    """Whether some source holds a device copy."""
    return any("gpu" in holder._store() for holder in list(_holders.get("gpu", {}).values()))


@pytest.fixture
def full_device(monkeypatch):
    """kernels.run of an Aggregate raises MemoryError while a source holds a device copy."""
    real = kernels.run
    calls = []

    def run(node, inputs):
        if isinstance(node, L.Aggregate):
            calls.append(_device_full())
            if calls[-1]:
                raise MemoryError("std::bad_alloc: out of memory (test)")
        return real(node, inputs)

    monkeypatch.setattr(kernels, "run", run)
    return calls


def _pdf(n: int = 5000) -> pandas.DataFrame:
    rng = np.random.default_rng(1)
    return pandas.DataFrame({"k": rng.integers(0, 9, n), "v": rng.normal(size=n), "s": rng.choice(["a", "b", None], n)})


def test_out_of_memory_spills_resident_sources_and_runs_the_node_again(full_device):
    pdf, other = _pdf(), _pdf(300)
    with gframe.option_context(engine="gpu"):
        release_resident("gpu")
        d, o = gframe.DataFrame(pdf), gframe.DataFrame(other)
        held = o.assign(w=o.v * 2)
        held_result = held.to_pandas()  # a result the user holds, on the device
        d[d.k >= 0].v.to_pandas()  # d resident on the device
        assert _device_full()
        gframe.fallback_report(clear=True)
        got = d.groupby("k").v.sum().to_pandas()
        assert full_device == [True, False]  # failed once, ran again after the spill
        pdt.assert_series_equal(got, pdf.groupby("k").v.sum())
        spills = [e for e in gframe.fallback_report() if e.kind == "spill"]
        assert len(spills) == 1 and "resident sources released" in spills[0].reason
        assert not [e for e in gframe.fallback_report() if e.kind in ("cpu", "pandas")]
        # the held result moved to host memory, and is still the same frame
        res = engines.cached(held._plan)
        assert res is not None and not isinstance(res.native, GpuTable)
        pdt.assert_frame_equal(held.to_pandas(), held_result)
        # later queries upload again what they need and give the same answers (no Aggregate here)
        pdt.assert_frame_equal(d[d.k > 3].to_pandas(), pdf[pdf.k > 3])
        pdt.assert_frame_equal(held[held.w > 0].to_pandas(), held_result[held_result.w > 0])


def test_out_of_memory_with_nothing_to_spill_still_names_the_node(full_device, monkeypatch):
    real = kernels.run

    def run(node, inputs):
        if isinstance(node, L.Aggregate):
            raise MemoryError("std::bad_alloc: out of memory (test)")
        return real(node, inputs)

    monkeypatch.setattr(kernels, "run", run)
    with gframe.option_context(engine="gpu"):
        d = gframe.DataFrame(_pdf())
        with pytest.raises(MemoryError, match="Aggregate"):
            d.groupby("k").v.sum().to_pandas()


def test_release_forgets_only_the_engine_form():
    pdf = _pdf(100)
    with gframe.option_context(engine="gpu"):
        d = gframe.DataFrame(pdf)
        d[d.k >= 0].to_pandas()  # the engine runs (a plain source converts without it)
        assert _device_full()
        assert release_resident("gpu") >= 1
        assert not _device_full()
        pdt.assert_frame_equal(d.to_pandas(), pdf)
