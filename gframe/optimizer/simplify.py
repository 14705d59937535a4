"""Simplification: merge filters and projections, fold constants, drop what does nothing.

- Expressions: constant folding of literal arithmetic/comparisons and of boolean identities
  (``x & True`` -> ``x``), casts to the type a column already has (not float: that cast also turns
  NaN into missing; not categorical: categories may change).
- ``Filter(True)`` disappears; a filter over a filter is one filter (``a & b``) when the upper
  predicate is row-wise and cannot raise (it then also sees the rows the lower one drops).
- A projection that keeps every column as is (a no-op rename/select) disappears; a projection over
  a projection is one, where no computed column is duplicated.
- No-op index renames, ``reset_index(drop=True)`` of a default index, ``Slice(0, None)``.
- Sorts whose order nobody observes: below a group-by that sorts its groups (or has no keys) and
  whose aggregations do not depend on row order, a ``Sort`` (through filters and row-wise
  projections) is removed.
"""
from __future__ import annotations

import operator
from functools import singledispatch
from typing import Any, Callable

import numpy as np
import pyarrow as pa

from gframe.optimizer._util import SharedCtx, conjoin, count_col_refs, is_bool, is_rowwise, movable, substitute
from gframe.plan import logical as L
from gframe.plan.dtypes import Lookup, expr_type
from gframe.plan.expr import BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import internal_name
from gframe.plan.traversal import fold, rebuild

# aggregations whose result does not depend on the order of the rows in a group
# Aggregations whose result does not depend on the order of the rows: the Sorts below them may go.
ORDER_INSENSITIVE = frozenset({"min", "max", "count", "size", "median", "any", "all", "nunique"})
# ... and these where their input is an integer or a bool (exact arithmetic); over floats the
# last bits depend on the order the values are added in (pandas adds in row order: the answer of a
# float32 sum after a sort_values differed with the optimizer on, fuzz seed 213060), and a
# variance is computed in floats whatever its input.
ORDER_INSENSITIVE_ON_INTEGERS = frozenset({"sum", "mean", "prod"})


def order_insensitive(a: Any, lookup: Lookup) -> bool:
    """Whether the aggregation ``a`` gives the same bits whatever the order of its rows."""
    if a.fn in ORDER_INSENSITIVE:
        return True
    if a.fn in ORDER_INSENSITIVE_ON_INTEGERS:
        t = expr_type(a.child, lookup)
        return t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t))
    return False

# ------------------------------------------------------------------------------------ expressions

_FOLD: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
}


def _plain_number(e: Expr) -> bool:
    return (isinstance(e, Lit) and e.value is not None and type(e.value) in (int, float)
            and (e.dtype is None or pa.types.is_integer(e.dtype) or pa.types.is_floating(e.dtype)))


def _true(e: Expr) -> bool:
    return isinstance(e, Lit) and e.value is True


def _false(e: Expr) -> bool:
    return isinstance(e, Lit) and e.value is False


def simplify_expr(e: Expr, lookup: Lookup) -> Expr:
    if not e.children:
        return e
    kids = [simplify_expr(c, lookup) for c in e.children]  # type: ignore[arg-type]
    e = e.reconstruct(kids)
    try:
        return _simplify_node(e, lookup)
    except (KeyError, TypeError, ValueError, OverflowError, ArithmeticError):
        return e


def _simplify_node(e: Expr, lookup: Lookup) -> Expr:
    if isinstance(e, BinOp):
        l, r = e.left, e.right
        if e.op in _FOLD and _plain_number(l) and _plain_number(r):
            t = expr_type(e, lookup)
            if t is None:
                return e
            value = _FOLD[e.op](np.array(l.value, dtype=_np(l, lookup)), np.array(r.value, dtype=_np(r, lookup)))
            return Lit(value.item() if not pa.types.is_boolean(t) else bool(value), t)
        if e.op in ("and", "or") and _plain_bool(l) and _plain_bool(r):
            return Lit((l.value and r.value) if e.op == "and" else (l.value or r.value), pa.bool_())
        # Kleene logic: x & True is x and x | False is x, missing values included
        unit = _true if e.op == "and" else _false if e.op == "or" else None
        if unit is not None:
            if unit(l) and is_bool(r, lookup):
                return r
            if unit(r) and is_bool(l, lookup):
                return l
        return e
    if isinstance(e, Func):
        if e.fn == "cast" and len(e.children) == 1:
            target = e.param("dtype")
            src = expr_type(e.children[0], lookup)
            if (isinstance(target, pa.DataType) and src is not None and src == target
                    and not pa.types.is_floating(src) and not pa.types.is_dictionary(src)):
                return e.children[0]  # type: ignore[return-value]
        if e.fn == "invert" and len(e.children) == 1 and isinstance(e.children[0], Lit) \
                and isinstance(e.children[0].value, bool):
            return Lit(not e.children[0].value, pa.bool_())
    return e


def _plain_bool(e: Expr) -> bool:
    return isinstance(e, Lit) and isinstance(e.value, bool)


def _np(lit: Lit, lookup: Lookup) -> np.dtype:
    t = expr_type(lit, lookup)
    return np.dtype(t.to_pandas_dtype())  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------ plan nodes



@singledispatch
def simplify_node(node: L.Plan, ctx: SharedCtx) -> L.Plan:
    return node


@simplify_node.register
def _(node: L.Filter, ctx: SharedCtx) -> L.Plan:
    look = node.child.schema.dtype_of
    pred = simplify_expr(node.predicate, look)
    if _true(pred):
        return node.child
    child = node.child
    if (isinstance(child, L.Filter) and not ctx.shared(child) and movable(pred)
            and is_bool(pred, look) and is_bool(child.predicate, look)):
        return L.Filter(conjoin([child.predicate, pred]), child.child)
    return node if pred is node.predicate else L.Filter(pred, child)


@simplify_node.register
def _(node: L.Select, ctx: SharedCtx) -> L.Plan:
    look = node.child.schema.dtype_of
    outputs = tuple((lab, simplify_expr(e, look)) for lab, e in node.outputs)
    if any(a[1] is not b[1] for a, b in zip(outputs, node.outputs)):
        new = L.Select(outputs, node.child)
        node = new if new.schema == node.schema else node
    child = node.child
    if _identity(node):
        return child
    if isinstance(child, L.Select) and not ctx.shared(child):
        merged = _merge_selects(node, child)
        if merged is not None:
            return merged
    return node


def _identity(node: L.Select) -> bool:
    child = node.child.schema
    if len(node.outputs) != len(child.columns):
        return False
    for (lab, e), f in zip(node.outputs, child.columns):
        if not (isinstance(e, Col) and e.name == f.name and internal_name(lab) == f.name):
            return False
    return node.schema == node.child.schema


def _merge_selects(outer: L.Select, inner: L.Select) -> L.Plan | None:
    """One projection for two, when no computed column would be computed twice."""
    if not inner.child.schema.all_names:
        return None  # all-literal outputs take their length from the input's columns
    defs = {internal_name(lab): e for lab, e in inner.outputs}
    refs = count_col_refs(e for _, e in outer.outputs)
    for name, n in refs.items():
        e = defs.get(name)
        if e is None:
            continue  # an index column: passes through
        if isinstance(e, Lit):
            if e.dtype is None or e.value is None:
                return None  # an untyped literal types differently than a column (NEP 50)
        elif not isinstance(e, Col) and (n > 1 or inner.schema.dtype_of(name) is None):
            return None  # computed twice, or a dtype the materialized column decides from its values
    outputs = tuple((lab, substitute(e, defs)) for lab, e in outer.outputs)
    merged = L.Select(outputs, inner.child)
    return merged if merged.schema == outer.schema else None


@simplify_node.register
def _(node: L.RenameIndex, ctx: SharedCtx) -> L.Plan:
    idx = node.child.schema.index or ()
    if tuple(f.label for f in idx) == node.labels and all(type(f.label) is type(lab) for f, lab in zip(idx, node.labels)):
        return node.child
    return node


@simplify_node.register
def _(node: L.IndexFreq, ctx: SharedCtx) -> L.Plan:
    return node.child if node.schema == node.child.schema else node  # names and frequencies already so


@simplify_node.register
def _(node: L.ResetIndex, ctx: SharedCtx) -> L.Plan:
    if node.drop and node.child.schema.index is None:
        return node.child
    return node


@simplify_node.register
def _(node: L.Slice, ctx: SharedCtx) -> L.Plan:
    return node.child if node.offset == 0 and node.length is None else node


@simplify_node.register
def _(node: L.Aggregate, ctx: SharedCtx) -> L.Plan:
    if not all(order_insensitive(a, node.child.schema.dtype_of) for _, a in node.aggs):
        return node
    if node.keys and not node.sort:
        return node  # groups come in order of first appearance: the order is observed
    child = _strip_sorts(node.child, ctx)
    if child is node.child:
        return node
    return L.Aggregate(node.keys, node.key_labels, node.aggs, node.sort, node.dropna, node.keys_as_index, child)


def _strip_sorts(node: L.Plan, ctx: SharedCtx) -> L.Plan:
    """``node`` without the sorts that only reorder rows for an order-insensitive consumer."""
    if ctx.shared(node):
        return node
    if isinstance(node, L.Sort):
        return _strip_sorts(node.child, ctx)
    if isinstance(node, L.Filter) and is_rowwise(node.predicate):
        child = _strip_sorts(node.child, ctx)
        return node if child is node.child else L.Filter(node.predicate, child)
    if isinstance(node, L.Select) and all(is_rowwise(e) for _, e in node.outputs):
        child = _strip_sorts(node.child, ctx)
        return node if child is node.child else L.Select(node.outputs, child)
    return node


def simplify(plan: L.Plan) -> L.Plan:
    ctx = SharedCtx(plan)

    def rewrite(node: L.Plan, kids: list[L.Plan]) -> L.Plan:
        new = rebuild(node, kids)
        for _ in range(8):  # a rewrite may enable another at the same place
            nxt = simplify_node(new, ctx)
            if nxt is new:
                break
            new = nxt
        if ctx.refs.get(id(node), 1) > 1:
            ctx.shared_new.add(id(new))
        return new

    return fold(plan, rewrite)

