"""``explain()``: the plan as a tree, one node per line, with the engine each node runs on."""
from __future__ import annotations

from gframe.plan.logical import Plan


def render(plan: Plan, engine_of: "dict[int, str] | None" = None) -> str:
    lines: list[str] = []
    seen: dict[int, int] = {}

    def go(node: Plan, depth: int) -> None:
        tag = f" [{engine_of.get(id(node), '?')}]" if engine_of is not None else ""
        ref = ""
        if id(node) in seen:
            lines.append(f"{'  ' * depth}{node.describe()}{tag}  (shared, see above)")
            return
        seen[id(node)] = len(lines)
        lines.append(f"{'  ' * depth}{node.describe()}{tag}{ref}")
        for c in node.children:
            go(c, depth + 1)  # type: ignore[arg-type]

    go(plan, 0)
    return "\n".join(lines)


def explain(plan: Plan, optimized: bool = True) -> str:
    """Logical plan, and (``optimized=True``) the plan the engine runs, with engines per node."""
    from gframe import engines
    from gframe.fallback import fallback_report

    engine = engines.get_engine()
    out = ["== logical plan ==", render(plan)]
    if optimized:
        # the plan the engine would run from scratch (cached results not substituted), so that
        # explain() shows the same thing before and after the frame was computed
        from gframe.config import options
        from gframe.optimizer import optimize

        physical = optimize(plan, disabled=options.disabled_passes) if options.optimize else plan
        out += [f"== optimized plan (engine: {engine.name}) ==", render(physical, engines.placement(physical, engine))]
    report = fallback_report()
    if report:
        out += ["== pandas fallbacks so far ==", str(report)]
    return "\n".join(out)
