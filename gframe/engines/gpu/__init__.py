"""The GPU engine on pylibcudf (see docs/gpu.md). Importing this package imports no GPU library;
``probe()`` and ``GpuEngine()`` load pylibcudf at the first GPU execution.

Modules: ``support`` (what is lowered, decided from the plan and, once, from the data),
``placement`` (the explicit host/device transfer nodes), ``functions`` (the function registry) with
the declarations per family ``rowwise``, ``strings``, ``datetimes``, ``window``, ``kinds`` (type
classes), ``ops`` (op tables), ``table`` (``GpuTable``), ``convert`` (Arrow in and out),
``expressions`` and ``kernels`` (the lowering to pylibcudf), ``lib`` (lazy imports), ``memory`` (RMM),
``engine`` (``GpuEngine``: partial fallback to the CPU engine, out-of-memory handling).
"""
from __future__ import annotations


def probe() -> str | None:
    """None when pylibcudf imports and a CUDA device is visible, else the reason it can't run.

    pylibcudf is whatever ``import pylibcudf`` finds, so a host stand-in placed in
    ``sys.modules["pylibcudf"]`` (and ``"rmm"``) before the first GPU use is used as is. A stand-in
    says so with a true ``__host_stand_in__`` attribute; it needs no CUDA device (see
    ``gframe.testing.fake_pylibcudf.install``, the one the test suite uses).
    """
    try:
        import pylibcudf
    except Exception as exc:  # noqa: BLE001 - any import failure means "no GPU engine here"
        return f"pylibcudf is not importable ({type(exc).__name__}: {exc})"
    if getattr(pylibcudf, "__host_stand_in__", False):
        return None
    try:
        import rmm  # noqa: F401
        from cuda.bindings import runtime  # type: ignore[import-not-found]

        err, count = runtime.cudaGetDeviceCount()
        if int(err) != 0 or count < 1:
            return "no CUDA device is visible"
    except Exception as exc:  # noqa: BLE001
        return f"CUDA runtime unavailable ({type(exc).__name__}: {exc})"
    return None


from gframe.engines.gpu.engine import GpuEngine  # noqa: E402  (imports no GPU library)

__all__ = ["GpuEngine", "probe"]
