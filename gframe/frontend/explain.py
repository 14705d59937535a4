"""``explain()``: the logical plan, the optimized plan, and the engine each node runs on.

Lives in the frontend because it asks the engines where nodes run; ``plan/printer.py`` only renders.
"""
from __future__ import annotations

from gframe import engines
from gframe.config import options
from gframe.fallback import fallback_report
from gframe.optimizer import optimize
from gframe.plan.logical import Plan
from gframe.plan.printer import render


def explain(plan: Plan, optimized: bool = True) -> str:
    """Logical plan, and (``optimized=True``) the plan the engine runs, with engines per node."""
    engine = engines.get_engine()
    out = ["== logical plan ==", render(plan)]
    if optimized:
        # the plan the engine would run from scratch (cached results not substituted), so that
        # explain() shows the same thing before and after the frame was computed

        physical = optimize(plan, disabled=options.disabled_passes) if options.optimize else plan
        out += [f"== optimized plan (engine: {engine.name}) ==", render(physical, engines.placement(physical, engine))]
    report = fallback_report()
    if report:
        out += ["== pandas fallbacks so far ==", str(report)]
    return "\n".join(out)
