"""Device memory: one RMM memory resource, set up at the first GPU execution.

``GFRAME_GPU_MEMORY`` (``options.gpu_memory``) picks it:

* ``managed`` (default): a pool of CUDA managed memory with prefetching (as cudf.pandas does), so
  data somewhat larger than the device still runs, pages migrating between host and device. The
  pool may grow to twice the device's memory; past that an allocation fails cleanly.
* ``pool``: a pool of device memory (80% of what is free at start, growing to 95% of the device).
* ``cuda``: plain cudaMalloc / cudaFree.

An allocation that fails raises ``MemoryError`` (libcudf's bad_alloc / RMM's out_of_memory); the
engine turns it into a ``MemoryError`` naming the plan node, or, with ``GFRAME_OOM=cpu``, runs that
node on the CPU engine (``engine.py``).
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

_state: dict[str, Any] = {"mode": None, "resource": None}


def _round(n: float) -> int:
    return max(int(n) // 256 * 256, 256)


def _managed_supported() -> bool:
    try:
        from cuda.bindings import runtime  # type: ignore[import-not-found]

        runtime.cudaFree(0)
        err, value = runtime.cudaDeviceGetAttribute(runtime.cudaDeviceAttr.cudaDevAttrConcurrentManagedAccess, 0)
        return int(err) == 0 and value != 0
    except Exception:  # noqa: BLE001 - no way to ask: use device memory
        return False


def setup(mode: str) -> str:
    """Install the memory resource for ``mode`` once; returns the mode in effect."""
    if _state["mode"] is not None:
        return _state["mode"]
    import rmm

    free, total = rmm.mr.available_device_memory()
    if mode == "managed" and not _managed_supported():
        mode = "pool"
    if mode == "managed":
        import pylibcudf as plc

        pool = rmm.mr.PoolMemoryResource(rmm.mr.ManagedMemoryResource(), initial_pool_size=_round(free * 0.8),
                                         maximum_pool_size=_round(total * 2))
        mr: Any = rmm.mr.PrefetchResourceAdaptor(pool)
        plc.prefetch.enable()
    elif mode == "pool":
        mr = rmm.mr.PoolMemoryResource(rmm.mr.CudaMemoryResource(), initial_pool_size=_round(free * 0.8),
                                       maximum_pool_size=_round(total * 0.95))
    else:
        mode = "cuda"
        mr = rmm.mr.CudaMemoryResource()
    rmm.mr.set_current_device_resource(mr)
    _state.update(mode=mode, resource=mr)
    return mode


def mode() -> str | None:
    return _state["mode"]


@contextlib.contextmanager
def limit(nbytes: int) -> Iterator[None]:
    """Cap the bytes that may be allocated inside the block (tests of the out-of-memory paths)."""
    import rmm

    current = rmm.mr.get_current_device_resource()
    rmm.mr.set_current_device_resource(rmm.mr.LimitingResourceAdaptor(current, int(nbytes)))
    try:
        yield
    finally:
        rmm.mr.set_current_device_resource(current)
