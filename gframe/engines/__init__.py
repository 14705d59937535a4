"""Execution: pick the engine, optimize, evaluate, and cache results on the plan.

This is where a lazy frontend object turns into data. ``materialize(plan)`` returns a ``Result``:
the engine-native table plus the engine that holds it. Results are cached by plan (structural
equality, weak keys), so a frame used twice is computed once, and later plans that contain a
materialized frame start from its result (the subtree is replaced by a ``Materialized`` leaf
before the optimizer runs).
"""
from __future__ import annotations

import time
import weakref
from dataclasses import dataclass
from typing import Any

import pandas.testing as pdt
import pyarrow as pa

from gframe.config import options
from gframe.engines.evaluate import NodeRun, RunStats
from gframe.engines.progress import Bar
from gframe.engines.values import ColumnValues
from gframe.errors import GPUUnavailableError
from gframe.interop import arrow_to_pandas
from gframe.optimizer import optimize as run_passes
from gframe.plan.logical import Materialized, Plan
from gframe.plan.node import Opaque
from gframe.plan.traversal import transform

_engines: dict[str, Any] = {}
_gpu_probe: list[str | None] = []  # [None] when a GPU is usable, [reason] when not


def gpu_unavailable_reason() -> str | None:
    """Why the GPU engine cannot run here (None if it can). Imports pylibcudf on first call only."""
    if not _gpu_probe:
        try:
            from gframe.engines.gpu import probe
        except ImportError as exc:  # the gpu package itself failed to import
            _gpu_probe.append(f"gpu engine unavailable: {exc}")
        else:
            _gpu_probe.append(probe())
    return _gpu_probe[0]


def get_engine(name: str | None = None) -> Any:
    """The engine for ``name`` (default: ``options.engine``); 'auto' prefers the GPU when usable."""
    name = name or options.engine
    if name == "auto":
        name = "gpu" if gpu_unavailable_reason() is None else "cpu"
    if name not in _engines:
        if name == "gpu":
            reason = gpu_unavailable_reason()
            if reason is not None:
                raise GPUUnavailableError(f"GFRAME_ENGINE=gpu but the GPU engine cannot run: {reason}")
            from gframe.engines.gpu import GpuEngine

            _engines["gpu"] = GpuEngine()
        else:
            from gframe.engines.cpu import CpuEngine

            _engines["cpu"] = CpuEngine()
    return _engines[name]


def on_gpu() -> bool:
    """Whether the engine in effect is the GPU engine (whose memory other GPU libraries can share)."""
    return get_engine().name == "gpu"


def device_result(plan: Plan) -> Any:
    """``plan``'s result in the GPU engine's device memory, to share with other GPU libraries without a
    host copy (``engines/gpu/exchange.DeviceResult``): computed on the GPU engine, or moved to the
    device once where its root ran on the host. ``TypeError`` when the GPU engine is not in effect."""
    engine = get_engine()
    if engine.name != "gpu":
        raise TypeError(f"the {engine.name} engine holds no device memory (options.engine='gpu' does)")
    from gframe.engines.gpu.exchange import DeviceResult

    return DeviceResult(engine.to_device(materialize(plan).native))


def device_plan(data: Any, **kw: Any) -> Plan | None:
    """A plan over a GPU library's memory (a CUDA array, a dict of them, a cudf object) without a copy,
    on the GPU engine; None where the engine in effect is not the GPU engine or the device cannot
    hold the data with pandas' meaning (the caller copies through the host then)."""
    if not on_gpu():
        return None
    from gframe.engines.gpu.exchange import device_plan as plan_of

    return plan_of(data, **kw)


@dataclass
class Result:
    """A materialized plan: the engine's native table and the engine that holds it."""

    engine: Any
    native: Any
    # output columns that are a merge's bools the merge left missing (``missing_bools``): pandas'
    # object columns even where a later operation dropped the missing rows
    objects: frozenset[str] = frozenset()

    def num_rows(self) -> int:
        return self.engine.num_rows(self.native)

    def to_arrow(self, offset: int = 0, length: int | None = None) -> pa.Table:
        return self.engine.to_arrow(self.native, offset, length)


def column_values(plan: Plan, nulls_match: bool) -> Opaque:
    """``plan``'s first column, computed now by the engine in effect, as an ``isin`` parameter."""
    return Opaque(ColumnValues(materialize(plan), nulls_match), "isin values")


_results: "weakref.WeakKeyDictionary[Plan, Result]" = weakref.WeakKeyDictionary()


def held_results() -> list[Result]:
    """The results kept for plans that are still alive (the GPU engine's spill moves them to host)."""
    return list(_results.values())


def cached(plan: Plan) -> Result | None:
    res = _results.get(plan)
    if res is not None and res.engine is get_engine():
        return res
    return None


def substitute_cached(plan: Plan, engine: Any) -> Plan:
    """Replace every subtree already materialized on ``engine`` with a ``Materialized`` leaf."""

    def materialized(node: Plan) -> Plan | None:
        res = _results.get(node)
        # (a result holding a merge's bools it left missing is computed again: the join below it
        # tells a plan built on it that they are object - ``missing_bools``)
        if res is not None and res.engine is engine and not res.objects:
            return Materialized(Opaque(res.native, "result"), engine.name, node.schema)
        return None

    return transform(plan, lambda node: node, shortcut=materialized)


def prepare(plan: Plan, engine: Any, optimize: bool | None = None) -> Plan:
    """The plan an engine runs: cached subtrees substituted, then optimized (unless turned off)."""
    plan = substitute_cached(plan, engine)
    if options.optimize if optimize is None else optimize:
        plan = run_passes(plan, disabled=options.disabled_passes)
    return plan


def materialize(plan: Plan) -> Result:
    """Compute ``plan`` (or return its cached result)."""
    hit = cached(plan)
    if hit is not None:
        return hit
    engine = get_engine()
    physical = prepare(plan, engine)
    native = _execute(engine, physical, RunStats())
    # the output's merge bools the merge left missing (``logical.missing_bool_columns``), as the
    # engine found them in the plan it ran
    objects = getattr(engine, "last_objects", frozenset())
    if options.verify_optimizer and options.optimize:
        _verify(plan, engine, native)
    return _keep(plan, Result(engine, native, objects))


def _keep(plan: Plan, res: Result) -> Result:
    try:
        _results[plan] = res  # no reference to the plan in res: the cache key must be able to die
    except TypeError:  # unhashable parameters somewhere: just don't cache
        pass
    return res


def _execute(engine: Any, physical: Plan, stats: RunStats) -> Any:
    """``engine.execute`` with the progress bar (``options.progress``) told about each node."""
    if not options.progress:
        return engine.execute(physical, stats)
    bar = Bar(options.progress_after)
    stats.progress = bar
    try:
        return engine.execute(physical, stats)
    finally:
        bar.close()


@dataclass
class Profile:
    """One run of a plan, observed: ``explain(analyze=True)``'s data.

    ``runs`` are the executed nodes in execution order (the root last), each with its engine, kernel
    seconds, output rows and bytes, and bytes moved between host and device; ``seconds`` is the whole
    run's wall time (optimizer included).
    """

    engine: str
    runs: list[NodeRun]
    seconds: float


def profile(plan: Plan) -> tuple[Result, Profile]:
    """Run ``plan`` from scratch (earlier results not reused, so every node's cost shows) and
    observe each node; the result is cached as ``materialize`` would."""
    engine = get_engine()
    t0 = time.perf_counter()
    physical = run_passes(plan, disabled=options.disabled_passes) if options.optimize else plan
    stats = RunStats(profile=True)
    native = _execute(engine, physical, stats)
    seconds = time.perf_counter() - t0
    return _keep(plan, Result(engine, native)), Profile(engine.name, stats.runs, seconds)


def _verify(plan: Plan, engine: Any, native: Any) -> None:
    """Verification mode: the unoptimized plan must give the same result."""
    reference = engine.execute(prepare(plan, engine, optimize=False))
    got = arrow_to_pandas(engine.to_arrow(native), plan.schema)
    want = arrow_to_pandas(engine.to_arrow(reference), plan.schema)
    pdt.assert_frame_equal(got, want, check_dtype=True, check_exact=False)


def placement(plan: Plan, engine: Any) -> dict[int, str]:
    """Which engine runs each node (by id): the engine's own name, or where it hands a subtree off."""
    placed = getattr(engine, "placement", None)
    if placed is not None:
        return placed(plan)
    return {id(n): engine.name for n in plan.walk()}
