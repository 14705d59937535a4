"""What every UDF strategy shares: the signal that a function cannot take that route, and what
is known of an input without computing it."""
from __future__ import annotations

from gframe import engines
from gframe.plan import logical as L


class NotCompilable(Exception):
    """A strategy (tracing, Numba) cannot run this function natively; the message says why.

    Raised by ``udf.trace`` and ``udf.compiled``; ``udf.dispatch`` tries the next strategy and, when
    none is left, runs the function through pandas with the collected reasons in the fallback report.
    """


def known_rows(plan: L.Plan) -> int | None:
    """The row count of ``plan`` where it is known without computing (in memory or cached)."""
    while True:
        res = engines.cached(plan)
        if res is not None:
            return res.num_rows()
        if isinstance(plan, L.InMemoryScan):
            return plan.table.value.num_rows
        if isinstance(plan, (L.Select, L.RowIndex)):
            plan = plan.children[0]
            continue
        return None
