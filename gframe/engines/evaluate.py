"""The one generic evaluator: recursion, per-run sharing of equal subplans, result cache, timing.

Engines provide kernels (a function of a node and its already-evaluated inputs); this module walks
the plan. Equal subplans (structural equality) are computed once per run, and a node whose result
the frontend already materialized is taken from the engine's cache instead of recomputed.
"""
from __future__ import annotations

import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from gframe.errors import pandas_error
from gframe.plan.logical import Plan
from gframe.plan.traversal import fold


@dataclass
class RunStats:
    """What one execution did: node count, kernel seconds by node type, cache hits.

    Optional: a caller that wants to see a run (a benchmark, a profiler) passes one to
    ``engine.execute(plan, stats)``; ``materialize`` does not keep them.
    """

    nodes: int = 0
    cache_hits: int = 0
    seconds: dict[str, float] = field(default_factory=dict)


def evaluate(plan: Plan, kernel: Callable[[Plan, list[Any]], Any], cache: MutableMapping[Plan, Any],
             stats: RunStats | None = None) -> Any:
    """Evaluate ``plan`` bottom-up with ``kernel``; ``cache`` holds results materialized earlier."""
    stats = stats if stats is not None else RunStats()

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
        name = type(node).__name__
        stats.seconds[name] = stats.seconds.get(name, 0.0) + time.perf_counter() - t0
        stats.nodes += 1
        return out

    # keyed by the node itself: equal subplans (structural equality) are computed once per run
    return fold(plan, run, shortcut=from_cache, key=lambda node: node)
