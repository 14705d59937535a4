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
