"""The package's layers: imports point one way (docs/architecture.md, "Layers").

Read from the source with ``ast`` (every ``import``, at module level or inside a function), so a
function-level import cannot hide an upward arrow. A package may import its own modules and the
packages below it, never one above or beside it.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gframe"

# higher imports lower; equal ranks are separate packages that must not import each other
RANK = {
    "__main__": 12,                    # python -m gframe: runs a script (zerocode) or lints it
    "lint": 11,                        # the static check: reads the frontend classes' names
    "testing": 10,                     # the test helper: runs pandas and gframe side by side
    "gframe": 9,                       # the top-level namespace (gframe/__init__.py)
    "plotting": 8,                     # pandas.plotting's names over gframe objects
    "namespace": 7,                    # every public pandas name, classed native / via pandas / shared
    "frontend": 6,                     # pandas API: builds plans, runs pandas through the bridge
    "zerocode": 6,                     # the import hook for unmodified scripts (gframe's extension)
    "io": 5, "udf": 5,                 # readers/writers and UDF strategies: build plans and expressions
    "engines": 4,                      # engine choice, evaluation, CPU and GPU kernels
    "optimizer": 3,                    # rule passes over plans
    "fallback": 2, "interop": 2,       # the fallback report; pandas <-> Arrow
    "plan": 1,                         # the IR
    "config": 0, "errors": 0, "_version": 0,
}
# the frontend talks to the engines through their facade only (gframe.engines), never a kernel
FACADES = {("frontend", "engines"): {"gframe.engines"}}
# the one upward edge, by design: pandas' namespace holds ``pandas.testing``, so ``gframe.testing`` (whose
# assert_* accept gframe objects) is an attribute of the top-level module, as in pandas
UPWARD = {("gframe", "gframe.testing")}


def _package(module: str) -> str:
    parts = module.split(".")
    return "gframe" if len(parts) == 1 else parts[1]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, me: str | None = None) -> list[tuple[int, str]]:
    """(line, imported module) for every gframe import in the file, wherever it is."""
    tree = ast.parse(path.read_text(), str(path))
    me = me or _module_name(path)
    is_pkg = path.name == "__init__.py"
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "gframe"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".")[: len(me.split(".")) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.split(".")[0] != "gframe":
                continue
            # ``from gframe.x import y``: y may be a submodule (gframe.x.y) or a name in gframe.x
            for a in node.names:
                sub = f"{mod}.{a.name}"
                out.append((node.lineno, sub if _exists(sub) else mod))
    return out


def _exists(module: str) -> bool:
    p = ROOT.parent.joinpath(*module.split("."))
    return p.with_suffix(".py").exists() or (p / "__init__.py").exists()


def _sources() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def _edges() -> list[tuple[str, int, str, str]]:
    """(file, line, importing module, imported module) across packages."""
    out = []
    for path in _sources():
        me = _module_name(path)
        for line, mod in _imports(path):
            if _package(mod) != _package(me):
                out.append((str(path.relative_to(ROOT.parent)), line, me, mod))
    return out


def test_every_package_has_a_rank():
    missing = {_package(_module_name(p)) for p in _sources()} - set(RANK)
    assert not missing, f"give these packages a layer in RANK: {sorted(missing)}"


def test_imports_point_down():
    wrong = []
    for file, line, me, mod in _edges():
        src, dst = _package(me), _package(mod)
        if RANK[dst] >= RANK[src] and (src, mod) not in UPWARD:
            wrong.append(f"{file}:{line}: {src} ({RANK[src]}) imports {mod} ({dst}, {RANK[dst]})")
        allowed = FACADES.get((src, dst))
        if allowed is not None and mod not in allowed:
            wrong.append(f"{file}:{line}: {src} may import {dst} only through {sorted(allowed)}, not {mod}")
    assert not wrong, "upward or sideways imports:\n" + "\n".join(wrong)


def test_no_import_cycle_between_packages():
    graph: dict[str, set[str]] = {}
    for _, _, me, mod in _edges():
        if (_package(me), mod) not in UPWARD:
            graph.setdefault(_package(me), set()).add(_package(mod))
    state: dict[str, int] = {}  # 1: on the stack, 2: done

    def visit(node: str, stack: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack + [node, nxt]
            if nxt not in state:
                found = visit(nxt, stack + [node])
                if found:
                    return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [])
            assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_checker_sees_function_level_and_relative_imports(tmp_path):
    # a guard for the guard: an import inside a function body is an edge like any other
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from gframe.frontend.frame import DataFrame\n"
                   "class C:\n    def g(self):\n        from ..fallback import record\n"
                   "        import gframe.engines\n")
    assert _imports(src, "gframe.plan.m") == [(2, "gframe.frontend.frame"), (5, "gframe.fallback"),
                                             (6, "gframe.engines")]


# Polars too: the CPU engine loads it at the first execution, so ``import gframe`` stays cheap
@pytest.mark.parametrize("heavy", ["pylibcudf", "cupy", "numba", "rmm", "polars"])
def test_import_gframe_and_building_a_plan_load_no_heavy_library(heavy):
    code = ("import sys, gframe as pd\n"
            "df = pd.DataFrame({'a': [1, 2, 3], 'b': ['x', 'y', 'z']})\n"
            "q = df[df.a > 1].groupby('b').a.sum()\n"
            f"print({heavy!r} in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT.parent)
    assert out.stdout.strip() == "False", f"import gframe loaded {heavy}"


def test_the_plan_layer_reads_no_file_format():
    """plan/ holds data: files are read in io/ and the engines (a FileSnapshot is handed its reader)."""
    formats = ("pyarrow.parquet", "pyarrow.csv", "pyarrow.dataset", "pyarrow.feather", "pyarrow.orc", "pyarrow.json")
    for path in sorted((ROOT / "plan").glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in mods if m.startswith(formats)}, f"{path.name} reads a file format"
