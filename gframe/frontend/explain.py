"""``explain()``: the logical plan, the optimized plan, and the engine each node runs on.

Lives in the frontend because it asks the engines where nodes run; ``plan/printer.py`` only renders.
"""
from __future__ import annotations

import html

from gframe import engines
from gframe.config import options
from gframe.fallback import fallback_report
from gframe.optimizer import optimize
from gframe.plan.logical import Plan
from gframe.plan.printer import render


def explain(plan: Plan, optimized: bool = True, analyze: bool = False) -> str:
    """Logical plan, and (``optimized=True``) the plan the engine runs, with engines per node.

    ``analyze=True`` runs the query instead and shows the plan that ran, per node its engine, time,
    rows, bytes and host<->device transfers (an ``Analysis``: an HTML table in a notebook).
    """
    if analyze:
        return analyze_plan(plan)
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
    out = text if isinstance(text, ExplainText) else ExplainText(text)
    if not interactive():
        print(out)
    return out


# ------------------------------------------------------------------------ explain(analyze=True)
_COLUMNS = ("engine", "time", "rows", "bytes", "moved")


def _seconds(s: float) -> str:
    return f"{s * 1e3:.2f} ms" if s < 1 else f"{s:.2f} s"


def _bytes(n: int | None) -> str:
    if n is None:
        return ""
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000  # type: ignore[assignment]
    return ""


def _rows(profile: "engines.Profile") -> list[tuple[int, str, tuple[str, ...]]]:
    """(depth, node text, cells) per executed node, as a tree from the root (the last node run)."""
    if not profile.runs:
        return []
    by_id = {id(r.node): r for r in profile.runs}
    out: list[tuple[int, str, tuple[str, ...]]] = []
    seen: set[int] = set()

    def go(node: Plan, depth: int) -> None:
        r = by_id.get(id(node))
        text = node.describe()
        if id(node) in seen:
            out.append((depth, text + "  (shared, see above)", ("",) * len(_COLUMNS)))
            return
        seen.add(id(node))
        cells = ("", "", "", "", "") if r is None else (
            r.engine, _seconds(r.seconds), "" if r.rows is None else f"{r.rows:,}", _bytes(r.nbytes),
            _bytes(r.transfer_bytes) if r.transfer_bytes else "")
        out.append((depth, text, cells))
        for c in node.children:
            go(c, depth + 1)  # type: ignore[arg-type]

    go(profile.runs[-1].node, 0)
    return out


class Analysis(ExplainText):
    """``explain(analyze=True)``'s report: text in a terminal, an HTML table in a notebook.

    ``profile`` holds the numbers (``gframe.engines.Profile``: one ``NodeRun`` per node).
    """

    profile: "engines.Profile"
    header: str

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{c}</th>" for c in ("node",) + _COLUMNS)
        body = []
        for depth, text, cells in _rows(self.profile):
            tds = "".join(f"<td style='text-align:right'>{html.escape(c)}</td>" for c in cells)
            body.append(f"<tr><td style='text-align:left;padding-left:{0.3 + 1.2 * depth:.1f}em'>"
                        f"<code>{html.escape(text)}</code></td>{tds}</tr>")
        return (f"<div><p>{html.escape(self.header)}</p><table><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(body)}</tbody></table></div>")


def analyze_plan(plan: Plan) -> Analysis:
    """Run ``plan`` and report each node (``explain(analyze=True)``)."""
    _, profile = engines.profile(plan)
    header = (f"== executed plan (engine: {profile.engine}, {_seconds(profile.seconds)} in all, "
              f"{len(profile.runs)} nodes) ==")
    rows = _rows(profile)
    labels = ["  " * d + t for d, t, _ in rows]
    width = min(max((len(x) for x in labels), default=4), 80)
    labels = [x if len(x) <= width else x[: width - 3] + "..." for x in labels]
    widths = [max([len(c)] + [len(cells[i]) for _, _, cells in rows]) for i, c in enumerate(_COLUMNS)]
    lines = [header, "node".ljust(width) + "".join("  " + c.rjust(w) for c, w in zip(_COLUMNS, widths))]
    for label, (_, _, cells) in zip(labels, rows):
        lines.append(label.ljust(width) + "".join("  " + c.rjust(w) for c, w in zip(cells, widths)))
    report = fallback_report()
    if report:
        lines += ["== pandas fallbacks so far ==", str(report)]
    out = Analysis("\n".join(lines))
    out.profile = profile
    out.header = header
    return out

