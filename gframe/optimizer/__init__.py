"""The optimizer: rule passes over the logical plan, in an explicit order. Knows nothing of devices.

Each pass is a module of this package: a free function ``Plan -> Plan`` that returns an equivalent
plan, dispatching on node type with ``functools.singledispatch`` in one place. ``PASSES`` lists
them in the order they run; a pass may appear twice (it runs again once others have opened new
opportunities) and is turned off by name everywhere (``gframe.options.disabled_passes`` or
``GFRAME_DISABLED_PASSES=simplify,cse``); ``GFRAME_OPTIMIZE=0`` turns the optimizer off.

Order, and why:

1. ``simplify``: fold constants, drop no-op casts/renames/sorts, merge filters and projections,
   so the later passes see fewer, larger nodes.
   ``scan_row_index``: positions taken by a parquet reader itself (``RowIndex(scan)`` folded in),
   so filters on a frame that keeps its positions as index can still reach the reader.
2. ``groupby``: aggregations over the same keys share one group-by.
3. ``limit_pushdown``: ``sort + head`` becomes a top-k, ``head`` goes down to the scans.
4. ``predicate_pushdown``: filters move down (through joins, projections, sorts...).
5. ``projection_pushdown``: scans read only used columns, unused positions (``RowIndex``) go.
6. ``predicate_pushdown`` again: with the positions gone, filters reach the parquet reader.
7. ``projection_pushdown`` again: a column only the reader's filter reads is not returned.
8. ``simplify`` again: merge what the pushdowns stacked (filters, projections).
9. ``cse``: shared subplans marked ``Cache`` (computed once, visible in ``explain()``).

The optimized plan produces the same columns, in the same order, with the same index, as the input
plan: ``optimize`` checks that and returns the input plan (with a warning) if a pass broke it.
"""
from __future__ import annotations

import sys
import warnings
from typing import Callable, Iterable

from gframe.optimizer._util import canonical
from gframe.optimizer.cse import common_subplans
from gframe.optimizer.groupby import groupby_rewrites
from gframe.optimizer.limits import limit_pushdown
from gframe.optimizer.predicates import predicate_pushdown
from gframe.optimizer.projection import projection_pushdown
from gframe.optimizer.scans import scan_row_index
from gframe.optimizer.simplify import simplify
from gframe.plan.logical import Plan

Pass = Callable[[Plan], Plan]

# (name, pass) in the order they run; each pass is a module of this package.
PASSES: list[tuple[str, Pass]] = [
    ("simplify", simplify),
    ("scan_row_index", scan_row_index),
    ("groupby", groupby_rewrites),
    ("limit_pushdown", limit_pushdown),
    ("predicate_pushdown", predicate_pushdown),
    ("projection_pushdown", projection_pushdown),
    ("predicate_pushdown", predicate_pushdown),
    ("projection_pushdown", projection_pushdown),
    ("simplify", simplify),
    ("cse", common_subplans),
]

PASS_NAMES: tuple[str, ...] = tuple(dict.fromkeys(name for name, _ in PASSES))


class OptimizerWarning(RuntimeWarning):
    """A pass produced a plan with other output columns than its input: the input plan is used."""


def optimize(plan: Plan, disabled: Iterable[str] = ()) -> Plan:
    """Run every enabled pass over ``plan``; the result is an equivalent plan.

    >>> from gframe.optimizer import optimize, PASS_NAMES
    >>> "projection_pushdown" in PASS_NAMES
    True
    """
    skip = set(disabled)
    unknown = skip - set(PASS_NAMES)
    if unknown:
        raise ValueError(f"unknown optimizer pass(es) {sorted(unknown)}; passes are {list(PASS_NAMES)}")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        out = canonical(plan)
        last: dict[str, Plan] = {}  # each pass's latest output: a second run over it changes nothing
        for name, fn in PASSES:
            if name not in skip and last.get(name) is not out:
                out = last[name] = fn(out)
    finally:
        sys.setrecursionlimit(limit)
    if out.schema.all_names != plan.schema.all_names:
        warnings.warn(f"optimizer changed the plan's columns from {plan.schema.all_names} to "
                      f"{out.schema.all_names}; running the plan unoptimized", OptimizerWarning, stacklevel=2)
        return plan
    return out
