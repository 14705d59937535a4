"""Device memory: one RMM memory resource, set up at the first GPU execution.

``GFRAME_GPU_MEMORY`` (``options.gpu_memory``) picks it:

* ``async`` (default): CUDA's stream-ordered allocator (``cudaMallocAsync``, the driver's own pool),
  as cudf-polars uses when managed memory is off. Why the default: on the H100, 22 TPC-H queries at
  sf10 took 2.45 s with it against 3.78 s over the managed pool (and 2.79 s over ``pool``), the
  parquet reader and every operator's many allocations being cheaper (benchmarks/RESULTS.md,
  seventh session). Where the driver has no memory pools, ``pool`` is used.
* ``managed``: a pool of CUDA managed memory with prefetching (as cudf.pandas does), so data
  somewhat larger than the device still runs, pages migrating between host and device. The pool may
  grow to twice the device's memory; past that an allocation fails cleanly.
* ``pool``: a pool of device memory (80% of what is free at start, growing to 95% of the device).
* ``cuda``: plain cudaMalloc / cudaFree.

An allocation that fails raises ``MemoryError`` (libcudf's bad_alloc / RMM's out_of_memory). The
engine then spills (``spill``): resident device copies of sources are let go (their host data or
file snapshot is the copy kept; the next use uploads again) and results the user holds move to host
memory, and the node runs once more. If it still fails, the engine raises a ``MemoryError`` naming the
plan node, or, with ``GFRAME_OOM=cpu``, runs that node on the CPU engine (``engine.py``).
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

_state: dict[str, Any] = {"mode": None, "resource": None}


def _round(n: float) -> int:
    return max(int(n) // 256 * 256, 256)


def _device_attribute(name: str) -> bool:
    """Whether device 0 has the boolean attribute ``cudaDevAttr<name>`` (False where it cannot say)."""
    try:
        from cuda.bindings import runtime  # type: ignore[import-not-found]

        runtime.cudaFree(0)
        err, value = runtime.cudaDeviceGetAttribute(getattr(runtime.cudaDeviceAttr, f"cudaDevAttr{name}"), 0)
        return int(err) == 0 and value != 0
    except Exception:  # noqa: BLE001 - no way to ask: the caller takes the plainer resource
        return False


def setup(mode: str) -> str:
    """Install the memory resource for ``mode`` once; returns the mode in effect."""
    if _state["mode"] is not None:
        return _state["mode"]
    import rmm

    free, total = rmm.mr.available_device_memory()
    if mode == "managed" and not _device_attribute("ConcurrentManagedAccess"):
        mode = "pool"
    if mode == "async" and not _device_attribute("MemoryPoolsSupported"):
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
    elif mode == "async":
        mr = rmm.mr.CudaAsyncMemoryResource()
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


def spill() -> tuple[int, int]:
    """Free device memory that something else can stand for: (sources released, results moved).

    Why this order of things: a resident source has its host data (or its file snapshot) already,
    so letting go of its device copy costs nothing now and one upload when it is next used; a result
    the user holds (``x = df.groupby(...).agg(...)``) has no other copy, so it is copied to host
    memory (a Polars frame, which the GPU engine uploads again when a plan uses it). Tables a running
    plan still uses stay: they are referenced by the run, not only by the stores."""
    import gc

    from gframe import engines
    from gframe.engines.gpu.convert import to_host_frame
    from gframe.engines.gpu.table import GpuTable
    from gframe.plan.node import release_resident

    released = release_resident("gpu")
    moved = 0
    for res in list(engines.held_results()):
        if res.engine.name == "gpu" and isinstance(res.native, GpuTable):
            try:
                res.native = to_host_frame(res.native)
            except MemoryError:  # even the copy out needs device memory: keep it where it is
                continue
            moved += 1
    gc.collect()
    return released, moved

