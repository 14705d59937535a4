"""``python -m gframe --lint script.py``: the calls in a pandas script that gframe would run through
pandas, found without running it.

A static check (``ast``) against gframe's frontend classes: a name is *native* when gframe's
``DataFrame``, ``Series``, ``Index``, groupby or ``.str``/``.dt`` accessor classes (or the ``gframe``
module, for ``pd.<function>``) define it themselves; a pandas name that none of them defines reaches
pandas through ``__getattr__``, i.e. a fallback. Only expressions that come from pandas are looked
at: the names the script binds to ``import pandas`` (or ``import gframe``) and the variables assigned from expressions that
use them (a light data flow, in source order), so ``mydict.update()`` is not reported while
``df.update()`` is. A native method can still fall back for some arguments (those are decided at run
time and listed by ``gframe.fallback_report()``); the full native-vs-fallback coverage table comes
from the pandas-compatibility issue's API inventory (issue 10), which this check does not replace.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    name: str
    where: str  # "DataFrame/Series method", "top-level function", ...

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col + 1}: {self.name} runs through pandas ({self.where} not native in gframe)"


@lru_cache(maxsize=1)
def _tables() -> tuple[frozenset[str], dict[str, str], frozenset[str], dict[str, str]]:
    """(native method names, pandas method name -> pandas classes having it,
        native top-level names, pandas top-level callables -> kind)."""
    import pandas as pd
    from pandas.core.groupby import DataFrameGroupBy as PdDFG
    from pandas.core.groupby import SeriesGroupBy as PdSG

    import gframe
    from gframe.frontend.accessors import DatetimeMethods, StringMethods
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.groupby import DataFrameGroupBy, SeriesGroupBy
    from gframe.frontend.index import Index
    from gframe.frontend.series import Series

    native = frozenset().union(*(dir(c) for c in (DataFrame, Series, Index, DataFrameGroupBy, SeriesGroupBy,
                                                 StringMethods, DatetimeMethods)))
    pandas_classes = {"DataFrame": pd.DataFrame, "Series": pd.Series, "Index": pd.Index,
                      "GroupBy": PdDFG, "SeriesGroupBy": PdSG,
                      "Series.str": pd.Series.str, "Series.dt": pd.core.indexes.accessors.CombinedDatetimelikeProperties}
    owners: dict[str, list[str]] = {}
    for cname, cls in pandas_classes.items():
        for n in dir(cls):
            if not n.startswith("_"):
                owners.setdefault(n, []).append(cname)
    methods = {n: "/".join(c) for n, c in owners.items()}
    from gframe import namespace

    # every pandas name resolves on gframe; those the namespace runs through pandas are fallbacks
    # (a function that calls a method, ``pd.pivot_table(df)``, is as native as that method)
    via_methods = {n for n, m in namespace.METHOD_FORMS.items() if m not in vars(DataFrame)}
    native_top = frozenset(n for n in vars(gframe) if not n.startswith("_")) - namespace.VIA_PANDAS - via_methods
    top = {n: "top-level function" for n in dir(pd) if not n.startswith("_") and callable(getattr(pd, n, None))
           and not isinstance(getattr(pd, n), type)}
    return native, methods, native_top, top


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.modules: set[str] = set()  # names bound to the pandas module
        self.direct: dict[str, str] = {}  # ``from pandas import merge as m``: m -> merge
        self.tracked: set[str] = set()  # variables holding pandas objects
        self.findings: list[Finding] = []
        self.native, self.methods, self.native_top, self.top = _tables()

    # --------------------------------------------------------------- bindings
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name in ("pandas", "gframe") or a.name.startswith("pandas."):
                self.modules.add(a.asname or a.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module in ("pandas", "gframe") and node.level == 0:
            for a in node.names:
                if a.name == "*":
                    continue
                local = a.asname or a.name
                if a.name in self.top and a.name not in self.native_top:
                    self.direct[local] = a.name
                else:
                    self.tracked.add(local)  # DataFrame, Series, read_csv...: what they make is pandas

    def _from_pandas(self, node: ast.AST | None) -> bool:
        """Whether the expression uses pandas (the module, a pandas name or a tracked variable)."""
        if node is None:
            return False
        return any(isinstance(n, ast.Name) and (n.id in self.modules or n.id in self.tracked or n.id in self.direct)
                   for n in ast.walk(node))

    def _bind(self, target: ast.AST, value_is_pandas: bool) -> None:
        for n in ast.walk(target):
            if isinstance(n, ast.Name):
                if value_is_pandas:
                    self.tracked.add(n.id)
                else:
                    self.tracked.discard(n.id)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for t in node.targets:
            self.visit(t)
            if isinstance(t, (ast.Name, ast.Tuple, ast.List)):
                self._bind(t, self._from_pandas(node.value))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self._bind(node.target, self._from_pandas(node.value))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        if self._from_pandas(node.value):
            self._bind(node.target, True)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self._bind(node.target, self._from_pandas(node.iter))
        for stmt in node.body + node.orelse:
            self.visit(stmt)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, self._from_pandas(item.context_expr))
        for stmt in node.body:
            self.visit(stmt)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self.visit(node.iter)
        self._bind(node.target, self._from_pandas(node.iter))
        for cond in node.ifs:
            self.visit(cond)

    def visit_ListComp(self, node: ast.ListComp) -> None:
        for gen in node.generators:
            self.visit(gen)
        self.visit(node.elt)

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        for gen in node.generators:
            self.visit(gen)
        self.visit(node.key)
        self.visit(node.value)

    # --------------------------------------------------------------- uses
    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return
        base = node.value
        if isinstance(base, ast.Name) and base.id in self.modules:
            if node.attr in self.top and node.attr not in self.native_top:
                self._report(node, f"pandas.{node.attr}", "top-level function")
            return
        if node.attr in self.native or node.attr not in self.methods or not self._from_pandas(base):
            return
        if isinstance(base, ast.Attribute) and base.attr in ("str", "dt") and "Series." + base.attr in self.methods[node.attr]:
            self._report(node, f"Series.{base.attr}.{node.attr}", f"Series.{base.attr} method")
            return
        self._report(node, node.attr, f"{self.methods[node.attr]} attribute")

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.direct:
            self._report(node, f"pandas.{self.direct[node.id]}", "top-level function")

    def _report(self, node: ast.AST, name: str, where: str) -> None:
        self.findings.append(Finding(self.path, node.lineno, node.col_offset, name, where))


def lint_source(source: str, path: str = "<string>") -> list[Finding]:
    """The findings for one script's source, in source order."""
    checker = _Checker(path)
    checker.visit(ast.parse(source, filename=path))
    return sorted(set(checker.findings), key=lambda f: (f.line, f.col, f.name))


def main(argv: list[str]) -> int:
    """Print one line per call that would fall back; exit status 1 when there is any (as linters do)."""
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python -m gframe --lint script.py [script.py ...]")
        return 0 if argv else 2
    found = 0
    for path in argv:
        with open(path, encoding="utf-8") as fh:
            findings = lint_source(fh.read(), path)
        for f in findings:
            print(f)
        found += len(findings)
    print(f"gframe lint: {found} call(s) would run through pandas" if found
          else "gframe lint: no pandas fallbacks found", file=sys.stderr)
    return 1 if found else 0
