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


class ExplainText(str):
    """``explain()``'s text: a ``str`` whose repr is the text itself, so that an interactive shell
    shows it once, laid out (IPython and the plain REPL display the value ``explain()`` returns;
    it prints only outside them, where nothing would display it)."""

    def __repr__(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:  # IPython's plain-text display
        printer.text(str(self))  # type: ignore[attr-defined]


def interactive() -> bool:
    """Whether a shell displays the values of expressions (IPython/Jupyter, ``python -i``, the REPL)."""
    import sys

    ipython = sys.modules.get("IPython")
    if ipython is not None and getattr(ipython, "get_ipython", lambda: None)() is not None:
        return True
    return hasattr(sys, "ps1")


def show(text: str) -> ExplainText:
    """Print ``text`` in scripts; return it (displayed once by an interactive shell)."""
    out = ExplainText(text)
    if not interactive():
        print(out)
    return out
