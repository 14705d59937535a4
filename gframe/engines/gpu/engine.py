"""The GPU engine: places a plan (``placement.py``), runs it with the generic evaluator, GPU kernels
for the nodes it lowers and the CPU engine's kernels for the others, across explicit transfers.

Native tables are ``GpuTable`` (device) - or, where the root of a plan ran on the CPU engine, that
engine's host frame: the user wants host data then anyway, and a later GPU plan reading it moves it
to the device through a ``HostToDevice`` node. Every CPU-side node and every transfer is recorded
in ``gframe.fallback_report()`` (kind "cpu") with its reason and the bytes moved.
"""
from __future__ import annotations

import time
from typing import Any, Sequence

import pyarrow as pa

from gframe.config import options
from gframe.engines.cpu.kernels import MISSING_BOOLS as HOST_MISSING_BOOLS
from gframe.engines.cpu.kernels import one_run
from gframe.engines.cpu.kernels import run as cpu_run
from gframe.engines.evaluate import NodeRun, RunStats, evaluate
from gframe.engines.gpu import categorical, kernels, memory, placement, support
from gframe.engines.gpu.placement import DeviceToHost, HostToDevice, Lowered
from gframe.engines.gpu.table import GpuTable
from gframe.fallback import FallbackEvent, record
from gframe.plan import logical as L


class GpuEngine:
    name = "gpu"
    # the output's merge bools the merge left missing, of the plan run last (``engines.materialize``)
    last_objects: frozenset[str] = frozenset()

    def __init__(self) -> None:
        from gframe.engines.gpu import memory

        self.memory_mode = memory.setup(options.gpu_memory)
        import pylibcudf  # noqa: F401 - loads pylibcudf now (the kernels reach it lazily, through lib.py)

        from gframe.engines.gpu import iothreads

        self.io_threads = iothreads.setup()

    # ------------------------------------------------------------------------------ contract
    def supports(self, plan: L.Plan) -> str | None:
        return placement.node_reason(plan)

    def placement(self, plan: L.Plan) -> dict[int, str]:
        return placement.placement(plan)

    def execute(self, plan: L.Plan, stats: RunStats | None = None) -> Any:
        if support.stays_on_host(plan):
            t0 = time.perf_counter()
            with one_run(kernels.MISSING_BOOLS, HOST_MISSING_BOOLS):
                out = cpu_run(plan, [])
                self.last_objects = L.missing_bool_columns(plan, self.missing_bools)
            if stats is not None and stats.profile:
                stats.runs.append(NodeRun(plan, time.perf_counter() - t0, *self.measure(out), engine="cpu"))
            return out
        lowered = placement.lower(plan)
        runner = _Run(lowered)
        if stats is not None and stats.profile:
            from gframe.engines.gpu.exchange import synchronize

            stats.sync = synchronize
        with one_run(kernels.MISSING_BOOLS, HOST_MISSING_BOOLS):
            out = evaluate(lowered.plan, runner.kernel, {}, stats, self.measure)
            # (the placed plan: a join run on the host is found through the transfers around it)
            self.last_objects = L.missing_bool_columns(lowered.plan, self.missing_bools)
        if stats is not None:
            for r in stats.runs:  # where each node ran, and the bytes it moved between host and device
                r.engine, r.transfer_bytes = runner.where.get(id(r.node), ("gpu", 0))
        return out

    @staticmethod
    def measure(native: Any) -> tuple[int, int]:
        if isinstance(native, GpuTable):
            return native.num_rows, int(native.nbytes())
        return native.height, int(native.estimated_size())

    @staticmethod
    def missing_bools(join: Any) -> frozenset[str]:
        """The undecided bool columns ``join`` left missing when it ran (on the device, or on the host)."""
        return kernels.MISSING_BOOLS.get(join, frozenset()) | HOST_MISSING_BOOLS.get(join, frozenset())

    def num_rows(self, native: Any) -> int:
        if isinstance(native, GpuTable):
            return native.num_rows
        return native.height

    def to_arrow(self, native: Any, offset: int = 0, length: int | None = None) -> pa.Table:
        if isinstance(native, GpuTable):
            from gframe.engines.gpu.convert import download

            return download(native, offset, length)
        if offset or length is not None:
            native = native.slice(offset, length)
        return native.to_arrow()

    def from_arrow(self, table: pa.Table) -> GpuTable:
        from gframe.engines.gpu.convert import upload

        return upload(table)

    def to_device(self, native: Any) -> GpuTable:
        """A result as a device table: itself, or a host result (its root ran on the CPU engine) moved
        to the device (``exchange.py`` shares device results with other GPU libraries)."""
        if isinstance(native, GpuTable):
            return native
        from gframe.engines.gpu.convert import from_host_frame

        return from_host_frame(native)


def _typed(out: Any, node: L.Plan, inputs: Sequence[Any] = ()) -> Any:
    """A node's device result, with the types of the node's schema its columns cannot say (a
    timestamp's time zone: ``GpuTable.logical``), so the host copy made of it has them; a column
    whose type the data decides keeps the type it came with (``_data_typed``)."""
    if not isinstance(out, GpuTable):
        return out
    from gframe.engines.gpu.convert import logical_types

    types = logical_types(node.schema)
    data = [f.name for f in list(node.schema.columns) + list(node.schema.index or ()) if f.dtype is None and out.has(f.name)]
    if data:
        types = {**_data_typed(node, inputs, out, data), **types}
    return out.typed(types)


def _data_typed(node: L.Plan, inputs: Sequence[Any], out: GpuTable, names: list[str]) -> dict[str, Any]:
    """The types (``GpuTable.logical``) of a node's columns ``names``, whose type the data decides,
    that their device columns cannot say: a decimal's precision (libcudf keeps none: a CPU engine's
    decimal group median over no groups, decimal128(10, 2), came back from a GPU group-by as
    decimal128(38, 2)), a time zone. A column the node moves from an input (``categorical.sources``,
    else an input's column of its name where the node computes none) keeps that input's; one the
    device holds as what it came with (a host result moved to the device) keeps its own."""
    from gframe.engines.gpu.convert import col_type, device_type

    where = categorical.sources(node)
    computes = isinstance(node, (L.Select, L.Aggregate))
    found = {}
    for n in names:
        t = None
        hit = where.get(n)
        if hit is not None:
            src = inputs[hit[0]] if hit[0] < len(inputs) else None
            t = src.logical.get(hit[1]) if isinstance(src, GpuTable) else None
        elif not inputs:
            t = out.logical.get(n)
        elif not computes:
            src = next((x for x in inputs if isinstance(x, GpuTable) and x.has(n)), None)
            t = src.logical.get(n) if src is not None else None
        if t is not None and device_type(t) == col_type(out.column(n)):
            found[n] = t
    return found


def _record(api: str, reason: str, rows: int, seconds: float, nbytes: int) -> None:
    record(FallbackEvent(api, reason, rows, seconds, kind="cpu", bytes_moved=int(nbytes)))


class _Run:
    """One execution: the kernel the evaluator calls for every physical node."""

    def __init__(self, lowered: Lowered) -> None:
        self.lowered = lowered
        # id(node) -> (engine, bytes moved host<->device) for nodes not simply run on the GPU
        self.where: dict[int, tuple[str, int]] = {}

    def kernel(self, node: L.Plan, inputs: list[Any]) -> Any:
        if isinstance(node, DeviceToHost):
            x = inputs[0]
            self.where[id(node)] = ("transfer", x.nbytes() if isinstance(x, GpuTable) else 0)
            return self.to_host(x)
        if isinstance(node, HostToDevice):
            out = self.to_device(node, inputs[0])
            moved = out.nbytes() if isinstance(out, GpuTable) and not isinstance(inputs[0], GpuTable) else 0
            self.where[id(node)] = ("transfer", moved)
            return out
        reason = self.lowered.cpu.get(id(node))
        if reason is not None:
            return self.on_cpu(node, inputs, reason)
        return self.on_gpu(node, inputs)

    # ----------------------------------------------------------------------------- transfers
    def to_host(self, x: Any) -> Any:
        if not isinstance(x, GpuTable):
            return x
        from gframe.engines.gpu.convert import to_host_frame

        return to_host_frame(x)

    def to_device(self, node: HostToDevice, x: Any) -> Any:
        if isinstance(x, GpuTable):
            return x
        from gframe.engines.gpu.convert import NotUploadable, from_host_frame

        t0 = time.perf_counter()
        try:
            out = from_host_frame(x, node.schema)
        except NotUploadable:
            return x  # stays on the host: the GPU node above runs on the CPU too
        _record(f"{type(node.child).__name__} result -> device", node.reason, out.num_rows,
                time.perf_counter() - t0, out.nbytes())
        return out

    # ---------------------------------------------------------------------------- placement
    def on_cpu(self, node: L.Plan, inputs: list[Any], reason: str) -> Any:
        from gframe.engines.gpu.convert import to_host_frame

        t0 = time.perf_counter()
        moved = 0
        host = []
        for x in inputs:
            if isinstance(x, GpuTable):
                moved += x.nbytes()
                x = to_host_frame(x)
            host.append(x)
        if isinstance(node, L.Materialized):
            out = node.data.value
            if isinstance(out, GpuTable):
                out = to_host_frame(out)
        else:
            out = cpu_run(node, host)
        self.where[id(node)] = ("cpu", moved)
        _record(type(node).__name__, reason, out.height, time.perf_counter() - t0, moved)
        return out

    def _after_spill(self, node: L.Plan, dev: list[GpuTable], exc: MemoryError) -> Any:
        """The node once more after the spill policy freed device memory (``memory.spill``), or
        None when there was nothing to spill or it still does not fit. Recorded as a ``spill``."""
        t0 = time.perf_counter()
        released, moved = memory.spill()
        if not (released or moved):
            return None
        record(FallbackEvent(
            f"{type(node).__name__} (device memory spilled)", f"GPU out of memory ({exc}): {released} resident "
            f"sources released, {moved} held results moved to host memory", 0, time.perf_counter() - t0, kind="spill"))
        try:
            return _typed(categorical.carry(node, dev, kernels.run(node, dev)), node, dev)
        except MemoryError:
            return None

    def on_gpu(self, node: L.Plan, inputs: list[Any]) -> Any:
        from gframe.engines.gpu.convert import NotUploadable, from_host_frame

        if isinstance(node, L.Materialized) and not isinstance(node.data.value, GpuTable):
            host = node.data.value  # a result the host holds: to the device now
            t0 = time.perf_counter()
            try:
                out = from_host_frame(host, node.schema)
            except NotUploadable:
                return host
            except MemoryError:  # (a result the spill policy moved to the host, say): it stays there,
                return host  # and the node that needs it decides (runs on the CPU, or names itself)
            out = _typed(out, node)
            self.where[id(node)] = ("gpu", out.nbytes())
            if out.num_rows > support.SMALL_HOST_ROWS:
                _record("Materialized result -> device", "a result held on the host", out.num_rows,
                        time.perf_counter() - t0, out.nbytes())
            return out

        dev = []
        for x, child in zip(inputs, node.children):
            if not isinstance(x, GpuTable):
                try:
                    x = from_host_frame(x, child.schema)
                except NotUploadable as exc:
                    return self.on_cpu(node, inputs, str(exc))
                except MemoryError as exc:
                    if options.oom == "cpu":
                        return self.on_cpu(node, inputs, f"GPU out of memory ({exc})")
                    raise MemoryError(f"GPU out of memory in {node.describe()}: {exc}. GFRAME_OOM=cpu runs such "
                                      "a node on the CPU engine instead") from None
                self.where[id(node)] = ("gpu", self.where.get(id(node), ("gpu", 0))[1] + x.nbytes())
            dev.append(x)
        reason = kernels.data_reason(node, dev)
        if reason is not None:
            return self.on_cpu(node, dev, reason)
        try:
            return _typed(categorical.carry(node, dev, kernels.run(node, dev)), node, dev)
        except MemoryError as exc:
            out = self._after_spill(node, dev, exc)
            if out is not None:
                return out
            if options.oom == "cpu":
                return self.on_cpu(node, dev, f"GPU out of memory ({exc})")
            raise MemoryError(
                f"GPU out of memory in {node.describe()}: {exc}. GFRAME_OOM=cpu runs such a node on the CPU "
                f"engine instead; GFRAME_GPU_MEMORY=managed lets data exceed the device's memory") from None
