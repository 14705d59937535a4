"""Expression IR: what a column is computed from.

Five node types cover every expression: a column reference, a literal, a binary operator, a named
function (one node with a name, not fifty classes: ``"isna"``, ``"str.contains"``, ``"dt.year"``...)
and an aggregation. Engines lower each by table lookup on ``op`` / ``fn`` (functions: one
declaration per engine, ``engines/*/functions.py``); ``plan/dtypes.py`` infers each expression's Arrow type.
"""
from __future__ import annotations

from typing import Any, Hashable

import pyarrow as pa

from gframe.plan.functions import lookup as lookup_function
from gframe.plan.node import Node

# Binary operators. Arithmetic, comparison and logical; pandas' operator names.
ARITHMETIC = frozenset({"add", "sub", "mul", "truediv", "floordiv", "mod", "pow"})
COMPARISON = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
LOGICAL = frozenset({"and", "or", "xor"})
BINARY_OPS = ARITHMETIC | COMPARISON | LOGICAL

# Aggregations every engine implements natively (pandas names).
AGGREGATIONS = frozenset(
    {"sum", "mean", "min", "max", "count", "size", "std", "var", "median", "prod", "any", "all",
     "nunique", "first", "last", "quantile", "corr", "cov"}
)
# per-row results over a group, only in a ``GroupWindow`` (groupby().rank, shift, ffill, bfill, ngroup); the
# CPU engine computes them, the GPU engine places such a node on the CPU (its ``agg_reason``)
WINDOW_ONLY = frozenset({"rank", "shift", "ffill", "bfill", "ngroup"})
# aggregations of two expressions (pairwise-complete rows, as pandas' ``corr`` / ``cov``)
BIVARIATE = frozenset({"corr", "cov"})


class Expr(Node):
    __slots__ = ()


class Col(Expr):
    """A column of the input, by internal name."""

    __slots__ = ("name",)
    _non_child = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._setup((), name)


class Lit(Expr):
    """A scalar. ``dtype`` is the Arrow type; None lets the engine infer it from the value."""

    __slots__ = ("value", "dtype")
    _non_child = ("value", "dtype")
    value: Any
    dtype: pa.DataType | None

    def __init__(self, value: Any, dtype: pa.DataType | None = None) -> None:
        self._setup((), value, dtype)


class BinOp(Expr):
    __slots__ = ("op",)
    _non_child = ("op",)
    op: str

    def __init__(self, op: str, left: Expr, right: Expr) -> None:
        if op not in BINARY_OPS:
            raise ValueError(f"unknown binary operator {op!r}")
        self._setup((left, right), op)

    @property
    def left(self) -> Expr:
        return self.children[0]  # type: ignore[return-value]

    @property
    def right(self) -> Expr:
        return self.children[1]  # type: ignore[return-value]


class Func(Expr):
    """A named function of its children with hashable parameters.

    ``params`` is a tuple of (name, value) pairs so the node stays hashable. The name must be
    declared in ``plan/functions.py``'s registry (with its arity and dtype rule, in
    ``plan/dtypes.py``): an unknown name is a ValueError, a wrong number of inputs a TypeError.
    """

    __slots__ = ("fn", "params")
    _non_child = ("fn", "params")
    fn: str
    params: tuple[tuple[str, Hashable], ...]

    def __init__(self, fn: str, params: tuple[tuple[str, Hashable], ...], *args: Expr) -> None:
        lookup_function(fn).check_arity(len(args))
        self._setup(args, fn, tuple(params))

    def param(self, name: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == name:
                return v
        return default


class Agg(Expr):
    """An aggregation of one expression (``size`` counts rows and ignores its child), or of two
    for the bivariate ones (``corr``, ``cov``: ``child`` and ``other``)."""

    __slots__ = ("fn", "params")
    _non_child = ("fn", "params")
    fn: str
    params: tuple[tuple[str, Hashable], ...]

    def __init__(self, fn: str, params: tuple[tuple[str, Hashable], ...], child: Expr, other: Expr | None = None) -> None:
        if fn not in AGGREGATIONS and fn not in WINDOW_ONLY:
            raise ValueError(f"unknown aggregation {fn!r}")
        if (other is not None) != (fn in BIVARIATE):
            raise ValueError(f"aggregation {fn!r} takes {'two' if fn in BIVARIATE else 'one'} input(s)")
        self._setup((child,) if other is None else (child, other), fn, tuple(params))

    @property
    def child(self) -> Expr:
        return self.children[0]  # type: ignore[return-value]

    @property
    def other(self) -> Expr:
        """The second input of a bivariate aggregation."""
        return self.children[1]  # type: ignore[return-value]

    def param(self, name: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == name:
                return v
        return default


def func(fn: str, *args: Expr, **params: Hashable) -> Func:
    return Func(fn, tuple(sorted(params.items())), *args)


def columns_used(expr: Expr) -> set[str]:
    """Internal names of the columns an expression reads."""
    return {n.name for n in expr.walk() if isinstance(n, Col)}


def format_expr(expr: Expr) -> str:
    """Compact infix text for ``explain()``."""
    if isinstance(expr, Col):
        return expr.name
    if isinstance(expr, Lit):
        return repr(expr.value)
    if isinstance(expr, BinOp):
        sym = _SYMBOLS.get(expr.op, expr.op)
        return f"({format_expr(expr.left)} {sym} {format_expr(expr.right)})"
    if isinstance(expr, Func) and expr.fn == "udf":  # a compiled function, by its name
        return f"udf[{expr.param('udf').name}]({', '.join(format_expr(c) for c in expr.children)})"
    if isinstance(expr, (Func, Agg)):
        args = [format_expr(c) for c in expr.children]
        args += [f"{k}={v!r}" for k, v in expr.params]
        return f"{expr.fn}({', '.join(args)})"
    return repr(expr)


_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "and": "&", "or": "|",
    "xor": "^",
}
