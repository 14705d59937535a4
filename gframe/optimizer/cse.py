"""Common subplan elimination: a subplan used more than once is computed once per execution.

Plans are hash-consed (equal subplans become one object: structural hashing makes that one dict
lookup per node), and every subplan with several parents that costs something to compute is marked
with a ``Cache`` node, so ``explain()`` shows it (printed once, then "shared, see above"). The
evaluator computes each distinct subplan once per run; ``Cache`` states that contract in the plan.

It runs last: the other passes take care not to break sharing (projection pushdown asks a shared
node for the union of what its parents need; predicate and limit pushdown stop at shared nodes).
"""
from __future__ import annotations

from gframe.optimizer._util import canonical, parent_counts
from gframe.plan import logical as L
from gframe.plan.traversal import fold, rebuild

_FREE = (L.InMemoryScan, L.Materialized, L.Cache)


def common_subplans(plan: L.Plan) -> L.Plan:
    plan = canonical(plan)
    refs = parent_counts(plan)

    def rewrite(node: L.Plan, kids: list[L.Plan]) -> L.Plan:
        new = rebuild(node, kids)
        if refs.get(id(node), 1) > 1 and node is not plan and not isinstance(node, _FREE):
            new = L.Cache(new)
        return new

    return fold(plan, rewrite)
