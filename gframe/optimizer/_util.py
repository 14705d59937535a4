"""Helpers every optimizer pass shares: hash-consing, reference counts, bottom-up rewriting and
expression utilities (conjunctions, substitution, "is this expression row-wise?").

Passes run over a *canonical* plan: equal subplans (structural equality, ``plan/node.py``) are one
object, so a memo keyed by ``id`` is a memo keyed by structure, and a node's reference count says
how many parents share it. Passes that rewrite a shared node rewrite it once for all its parents.
"""
from __future__ import annotations

from typing import Callable, Iterable

import pyarrow as pa

from gframe.plan.expr import Agg, BinOp, Col, Expr, Func
from gframe.plan.functions import FUNCTIONS
from gframe.plan.logical import Plan
from gframe.plan.node import Node
from gframe.plan.traversal import transform
from gframe.plan.dtypes import Lookup, expr_type, is_categorical

# ------------------------------------------------------------------------------------ plan walks


def canonical(plan: Plan) -> Plan:
    """The same plan with equal subplans made one object (hash-consing, bottom-up)."""
    table: dict[Plan, Plan] = {}

    def intern(node: Plan) -> Plan:
        try:
            return table.setdefault(node, node)
        except TypeError:  # an unhashable parameter: keep the node as it is
            return node

    return transform(plan, intern)


def parent_counts(plan: Plan) -> dict[int, int]:
    """How many parent edges point at each node (by id); the root counts one."""
    counts: dict[int, int] = {id(plan): 1}
    for node in plan.walk():
        for c in node.children:
            counts[id(c)] = counts.get(id(c), 0) + 1
    return counts


def rewrite_bottom_up(plan: Plan, fn: Callable[[Plan], Plan]) -> Plan:
    """Rebuild ``plan`` from the leaves up, applying ``fn`` to each node once (shared nodes once).

    ``fn`` receives the node already rebuilt over its rewritten children.
    """
    return transform(plan, fn)


def with_fields(node: Plan, **changes: object) -> Plan:
    """``node`` with some non-child fields changed (every other field, children included, kept)."""
    args = dict(zip(node._non_child, node._ctor_arguments()))
    unknown = set(changes) - set(args)
    if unknown:
        raise TypeError(f"{type(node).__name__} has no field(s) {sorted(unknown)}")
    args.update(changes)
    return type(node)(*args.values(), *node.children)


def data_fields_named(plan: Plan, names: Iterable[str]) -> tuple[tuple[object, Expr], ...]:
    """Select outputs that keep the data columns of ``plan`` named in ``names`` (schema order)."""
    keep = set(names)
    return tuple((f.label, Col(f.name)) for f in plan.schema.columns if f.name in keep)


# ------------------------------------------------------------------------------------ expressions

# Whether a function's value in a row depends on that row alone is part of its declaration
# (``plan/functions.py``); anything else (shift, rank, duplicated, an aggregation inside an expression)
# is treated as looking at other rows: a filter or a limit never moves across it.


# Plain recursion over the (small) expression trees: cheaper than ``Node.walk``'s bookkeeping.

def is_rowwise(expr: Expr) -> bool:
    if isinstance(expr, Agg):
        return False
    if isinstance(expr, Func) and not FUNCTIONS[expr.fn].rowwise:
        return False
    return all(is_rowwise(c) for c in expr.children)  # type: ignore[arg-type]


def rows_independent(node: Plan) -> bool:
    """A projection whose every output row depends on its input row alone, dtype included.

    A computed column typed None has its dtype decided by all its values (``int // int`` is float
    where a division by zero happened): fewer input rows could give another dtype. So does a
    categorical made from values (``astype('category')``): its categories are all the values'.
    """
    from gframe.plan.logical import Select

    assert isinstance(node, Select)
    for f, (_, e) in zip(node.schema.columns, node.outputs):
        if not isinstance(e, Col) and (f.dtype is None or not is_rowwise(e) or makes_categories(e, node.child.schema.dtype_of)):
            return False
    return True


def makes_categories(expr: Expr, lookup: Lookup) -> bool:
    """Whether ``expr`` casts values to a categorical (whose categories are then the values')."""
    if isinstance(expr, Func) and expr.fn == "cast" and is_categorical(expr.param("dtype")) \
            and not is_categorical(expr_type(expr.children[0], lookup)):
        return True
    return any(makes_categories(c, lookup) for c in expr.children)  # type: ignore[arg-type]


def may_raise(expr: Expr) -> bool:
    """Expressions that can fail on some values (a strict cast): never evaluated on more rows."""
    if isinstance(expr, Func) and expr.fn == "cast":
        return True
    return any(may_raise(c) for c in expr.children)  # type: ignore[arg-type]


def movable(expr: Expr) -> bool:
    """A predicate that may be evaluated on other rows than the plan says (pushed down, merged)."""
    return is_rowwise(expr) and not may_raise(expr)


def used(expr: Expr) -> frozenset[str]:
    """Internal names of the columns ``expr`` reads (``plan.expr.columns_used``)."""
    if isinstance(expr, Col):
        return frozenset((expr.name,))
    if not expr.children:
        return frozenset()
    return frozenset().union(*(used(c) for c in expr.children))  # type: ignore[arg-type]


def is_bool(expr: Expr, lookup: Lookup) -> bool:
    try:
        t = expr_type(expr, lookup)
    except (KeyError, TypeError):
        return False
    return t is not None and pa.types.is_boolean(t)


def conjuncts(pred: Expr, lookup: Lookup) -> list[Expr]:
    """``a & b & c`` as ``[a, b, c]`` where every part is boolean (Kleene AND then equals "all true")."""
    if isinstance(pred, BinOp) and pred.op == "and" and is_bool(pred.left, lookup) and is_bool(pred.right, lookup):
        return conjuncts(pred.left, lookup) + conjuncts(pred.right, lookup)
    return [pred]


def conjoin(preds: list[Expr]) -> Expr:
    out = preds[0]
    for p in preds[1:]:
        out = BinOp("and", out, p)
    return out


def substitute(expr: Expr, mapping: dict[str, Expr]) -> Expr:
    """``expr`` with each ``Col(name)`` in ``mapping`` replaced."""
    if isinstance(expr, Col):
        return mapping.get(expr.name, expr)
    if not expr.children:
        return expr
    return expr.reconstruct([substitute(c, mapping) for c in expr.children])  # type: ignore[arg-type]


def rename_columns(expr: Expr, mapping: dict[str, str]) -> Expr:
    return substitute(expr, {k: Col(v) for k, v in mapping.items()})


def count_col_refs(exprs: Iterable[Expr]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in exprs:
        for n in _walk_all(e):
            if isinstance(n, Col):
                counts[n.name] = counts.get(n.name, 0) + 1
    return counts


def _walk_all(expr: Node) -> Iterable[Node]:
    """Every node occurrence (not deduplicated, unlike ``Node.walk``)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


class SharedCtx:
    """State of one rewrite walk: how many parents each node has, and which rebuilt nodes are
    shared (a rewrite that would duplicate work under several parents is skipped for those)."""

    def __init__(self, plan: Plan) -> None:
        self.refs = parent_counts(plan)
        self.shared_new: set[int] = set()

    def shared(self, node: Plan) -> bool:
        return id(node) in self.shared_new
