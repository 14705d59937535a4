"""The one generic evaluator: recursion, per-run sharing of equal subplans, result cache, timing.

Engines provide kernels (a function of a node and its already-evaluated inputs); this module walks
the plan. Equal subplans (structural equality) are computed once per run, and a node whose result
the frontend already materialized is taken from the engine's cache instead of recomputed.

Being the one place every node passes through, it is also where a run is observed: ``RunStats``
collects per-node timings (``explain(analyze=True)``) and drives the progress bar.
"""
from __future__ import annotations

import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from gframe.errors import pandas_error
from gframe.plan.logical import Plan
from gframe.plan.traversal import fold


class Progress(Protocol):
    """What the evaluator tells a progress display: the node count, then each node as it ends."""

    def start(self, total: int) -> None: ...

    def advance(self, node: Plan) -> None: ...


@dataclass
class NodeRun:
    """One node of one run: where it ran, how long its kernel took, what it produced.

    ``engine`` is "cpu", "gpu" or "transfer" (a host<->device copy the GPU engine inserted);
    ``transfer_bytes`` counts the bytes copied between host and device for this node.
    """

    node: Plan
    seconds: float
    rows: int | None = None
    nbytes: int | None = None
    engine: str = ""
    transfer_bytes: int = 0


@dataclass
class RunStats:
    """What one execution did: node count, kernel seconds by node type, cache hits.

    Optional: a caller that wants to see a run (a benchmark, a profiler, a progress bar) passes one
    to ``engine.execute(plan, stats)``; ``materialize`` keeps none. With ``profile=True`` every node
    is also recorded in ``runs`` (in execution order) with its output's rows and bytes - a size
    estimate per node, which is why it is off by default.
    """

    nodes: int = 0
    cache_hits: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    profile: bool = False
    runs: list[NodeRun] = field(default_factory=list)
    progress: Progress | None = None
    # the engine's "wait for the device" (profile runs only): a GPU kernel returns before its work is
    # done, so without it a node's time is its launch time and the next node pays for it
    sync: Callable[[], None] | None = None


def evaluate(plan: Plan, kernel: Callable[[Plan, list[Any]], Any], cache: MutableMapping[Plan, Any],
             stats: RunStats | None = None,
             measure: Callable[[Any], tuple[int, int]] | None = None) -> Any:
    """Evaluate ``plan`` bottom-up with ``kernel``; ``cache`` holds results materialized earlier.

    ``measure(result) -> (rows, bytes)`` is the engine's size of one of its results, used when
    ``stats.profile`` is set.
    """
    stats = stats if stats is not None else RunStats()
    if stats.progress is not None:
        stats.progress.start(len(set(plan.walk())))

    def from_cache(node: Plan) -> Any:
        cached = cache.get(node)
        if cached is not None:
            stats.cache_hits += 1
        return cached

    def run(node: Plan, inputs: list[Any]) -> Any:
        t0 = time.perf_counter()
        try:
            out = kernel(node, inputs)
        except Exception as exc:  # an engine's own error type never reaches the user: pandas' type instead
            mapped = pandas_error(exc, node.describe())
            if mapped is None:
                raise
            raise mapped from exc
        if stats.profile and stats.sync is not None:
            stats.sync()
        elapsed = time.perf_counter() - t0
        name = type(node).__name__
        stats.seconds[name] = stats.seconds.get(name, 0.0) + elapsed
        stats.nodes += 1
        if stats.profile:
            rows, nbytes = measure(out) if measure is not None else (None, None)
            stats.runs.append(NodeRun(node, elapsed, rows, nbytes))
        if stats.progress is not None:
            stats.progress.advance(node)
        return out

    # keyed by the node itself: equal subplans (structural equality) are computed once per run
    return fold(plan, run, shortcut=from_cache, key=lambda node: node)
