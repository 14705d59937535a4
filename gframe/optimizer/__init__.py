"""The optimizer: rule passes over the logical plan, in an explicit order. Knows nothing of devices."""
from __future__ import annotations

from typing import Callable, Iterable

from gframe.plan.logical import Plan

Pass = Callable[[Plan], Plan]

# (name, pass) in the order they run; each pass is a module of this package.
PASSES: list[tuple[str, Pass]] = []


def optimize(plan: Plan, disabled: Iterable[str] = ()) -> Plan:
    """Run every enabled pass over ``plan``; the result is an equivalent plan."""
    skip = set(disabled)
    for name, fn in PASSES:
        if name not in skip:
            plan = fn(plan)
    return plan
