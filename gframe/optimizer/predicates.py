"""Predicate pushdown: filters move as close to the data as pandas' semantics allow.

A filter's predicate is split into its conjuncts (``a & b``: two predicates) and each travels down
on its own, top-down: through projections whose columns it reads are plain columns, ``assign``s
that do not define them, sorts, renames of the index, group-bys (predicates on the keys only),
``drop_duplicates``/``groupby().head`` (predicates on the subset / keys), concatenations with exact
dtypes, and into the side of a join that owns its columns. A predicate on a parquet scan becomes
the reader's filter, so row groups whose statistics exclude it are skipped.

What stops a predicate (pandas semantics):
- ``RowIndex``, ``Slice``, ``TopK``: positions and counts change when rows go first.
- a predicate that is not row-wise (``duplicated``, ``shift``) or may raise (a strict cast), and a
  projection computing something not row-wise: the rows it sees would change.
- the outer side of an outer join (the filter would remove rows the join re-creates with nulls),
  and any side of a left/right/outer join whose int/bool columns become float/object when the join
  introduces missing values (the dtype would depend on whether unmatched rows are still there).
- a node shared by several parents: pushing into it would compute it twice.
"""
from __future__ import annotations

import sys
from functools import singledispatch
import pyarrow as pa

from gframe.optimizer._util import (conjoin, conjuncts, movable, parent_counts, rename_columns, rows_independent, used,
                                    with_fields)
from gframe.plan import logical as L
from gframe.plan.expr import Col, Expr
from gframe.plan.schema import index_name, internal_name

Preds = list[Expr]


class _Pusher:
    def __init__(self, plan: L.Plan) -> None:
        self.refs = parent_counts(plan)
        self.memo: dict[int, L.Plan] = {}

    def visit(self, node: L.Plan) -> L.Plan:
        """``node`` with the filters inside it pushed down (nothing from above)."""
        hit = self.memo.get(id(node))
        if hit is None:
            new, left = sink(node, [], self)
            assert not left
            hit = self.memo[id(node)] = new
        return hit

    def sink_child(self, child: L.Plan, preds: Preds) -> tuple[L.Plan, Preds]:
        """Push ``preds`` into ``child``: the new child and the predicates it could not take."""
        if not preds:
            return self.visit(child), []
        if self.refs.get(id(child), 1) > 1 and not isinstance(child, L.ParquetScan):
            # a shared subplan is computed once for all its parents: leave it whole. A shared scan
            # is the exception: two reads that each skip what their filter excludes beat one full
            return self.visit(child), preds
        return sink(child, preds, self)

    def place(self, child: L.Plan, preds: Preds) -> L.Plan:
        """Push ``preds`` into ``child``; the ones it cannot take filter right above it."""
        new, left = self.sink_child(child, preds)
        return filtered(new, left)


def filtered(plan: L.Plan, preds: Preds) -> L.Plan:
    return L.Filter(conjoin(preds), plan) if preds else plan


@singledispatch
def sink(node: L.Plan, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    """Default: a barrier. Children are processed on their own; ``preds`` stay above."""
    return node.reconstruct([ctx.visit(c) for c in node.children]), preds  # type: ignore[arg-type]


@sink.register
def _(node: L.Filter, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    if not movable(node.predicate):
        # it must see exactly its input rows, and nothing from above may pass it
        return node.reconstruct([ctx.visit(node.child)]), preds
    own = conjuncts(node.predicate, node.child.schema.dtype_of)
    return ctx.place(node.child, own + preds), []


def _split(preds: Preds, mapping: dict[str, str]) -> tuple[Preds, Preds, dict[int, Expr]]:
    """Predicates that can be rewritten over a child's names (``mapping``: output -> child name)."""
    down, stay, back = [], [], {}
    for p in preds:
        if movable(p) and used(p) <= mapping.keys():
            q = rename_columns(p, {k: v for k, v in mapping.items() if k != v})
            down.append(q)
            back[id(q)] = p
        else:
            stay.append(p)
    return down, stay, back


@sink.register
def _(node: L.Select, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    if not preds or not rows_independent(node):
        return node.reconstruct([ctx.visit(node.child)]), preds
    mapping = {internal_name(lab): e.name for lab, e in node.outputs if isinstance(e, Col)}
    mapping.update({n: n for n in node.child.schema.index_names})
    down, stay, back = _split(preds, mapping)
    new_child, left = ctx.sink_child(node.child, down)
    if all(isinstance(e, Col) for _, e in node.outputs):
        # a pure projection: what could not go further down stays above it, where it was
        return node.reconstruct([new_child]), stay + [back[id(q)] for q in left]
    # an assign: filtering first computes the new columns for the kept rows only
    return node.reconstruct([filtered(new_child, left)]), stay


@sink.register
def _(node: L.RowIndex, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    # positions are a barrier; but a row-wise projection keeps them, so it may go above the
    # RowIndex, which lets a filter on the columns it does not compute pass it (``df.assign(...)``
    # then ``df[mask]``: the new column is computed for the kept rows only)
    child = node.child
    if preds and isinstance(child, L.Select) and ctx.refs.get(id(child), 1) == 1 and rows_independent(child):
        return sink(L.Select(child.outputs, L.RowIndex(child.child)), preds, ctx)
    return node.reconstruct([ctx.visit(child)]), preds


@sink.register
def _(node: L.Sort, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    movable_preds = [p for p in preds if movable(p)]
    stay = [p for p in preds if not movable(p)]
    return node.reconstruct([ctx.place(node.child, movable_preds)]), stay


@sink.register
def _(node: L.RenameIndex, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    down, stay, _ = _split(preds, {n: n for n in node.child.schema.all_names})
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.Distinct, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    # rows with equal subset values are kept or dropped together: a predicate on them commutes
    subset = node.subset or tuple(node.child.schema.names)
    down, stay, _ = _split(preds, {n: n for n in subset})
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.GroupHead, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    down, stay, _ = _split(preds, {n: n for n in node.keys})
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.Aggregate, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    # a predicate on the group keys removes whole groups: it may run before the aggregation
    mapping: dict[str, str] = {}
    # an aggregate typed None gets its dtype from the values of every group: then all groups stay
    cols = node.schema.columns
    exact = all(f.dtype is not None for f in cols[len(cols) - len(node.aggs):])
    if node.keys and exact:
        child = node.child.schema
        for i, (k, lab) in enumerate(zip(node.keys, node.key_labels)):
            t = child.dtype_of(k)
            if t is not None and pa.types.is_dictionary(t):
                continue  # categories: groups exist without rows
            out = index_name(i) if node.keys_as_index else internal_name(lab)
            mapping[out] = k
    down, stay, _ = _split(preds, mapping)
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.SetIndex, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    if node.range_key is not None:  # the index type is decided by the rows here: a barrier
        return sink.dispatch(L.Plan)(node, preds, ctx)
    child = node.child.schema
    mapping = {n: n for n in node.schema.names}
    base = len(child.index or ()) if node.append else 0
    if node.append:
        mapping.update({n: n for n in child.index_names})
    for i, k in enumerate(node.keys):
        mapping[index_name(base + i)] = k
    down, stay, _ = _split(preds, mapping)
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.ResetIndex, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    child = node.child.schema
    if child.index is None and not node.drop:
        return sink.dispatch(L.Plan)(node, preds, ctx)  # the new column is positions: a barrier
    mapping = {n: n for n in child.names}
    if not node.drop:
        for f, src in zip(node.schema.columns, child.index_names):
            mapping[f.name] = src
    down, stay, _ = _split(preds, mapping)
    return node.reconstruct([ctx.place(node.child, down)]), stay


@sink.register
def _(node: L.Union, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    # only where the dtypes are exact: a column missing from a child is filled with nulls and may
    # change dtype depending on which rows are left
    exact = all(f.dtype is not None for f in node.schema.columns)
    down: Preds = []
    stay: Preds = []
    for p in preds:
        cols = used(p)
        if exact and movable(p) and all(cols <= set(c.schema.all_names) for c in node.children):  # type: ignore[attr-defined]
            down.append(p)
        else:
            stay.append(p)
    kids = [ctx.place(c, list(down)) for c in node.children]  # type: ignore[arg-type]
    return node.reconstruct(kids), stay


@sink.register
def _(node: L.Join, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    left_ok = node.how in ("inner", "left", "cross")
    right_ok = node.how in ("inner", "right", "cross")
    if _value_dependent_dtypes(node):
        left_ok = right_ok = False
    lmap: dict[str, str] = {}
    rmap: dict[str, str] = {}
    for label, side, name in node.outputs:
        out = internal_name(label)
        if side == "left":
            lmap[out] = name
        elif side == "right":
            rmap[out] = name
        elif node.how in ("inner", "left"):  # a coalesced key holds the left value
            lmap[out] = name
        elif node.how == "right":
            rmap[out] = node.right_on[node.left_on.index(name)]
    if node.index_from == "left":
        lmap.update({n: n for n in node.left.schema.index_names})
    elif node.index_from == "right":
        rmap.update({n: n for n in node.right.schema.index_names})
    lp: Preds = []
    rp: Preds = []
    stay: Preds = []
    for p in preds:
        cols = used(p)
        if not movable(p) or not cols:
            stay.append(p)
        elif left_ok and cols <= lmap.keys():
            lp.append(rename_columns(p, {k: v for k, v in lmap.items() if k != v}))
        elif right_ok and cols <= rmap.keys():
            rp.append(rename_columns(p, {k: v for k, v in rmap.items() if k != v}))
        else:
            stay.append(p)
    return node.reconstruct([ctx.place(node.left, lp), ctx.place(node.right, rp)]), stay


def _value_dependent_dtypes(node: L.Join) -> bool:
    """Whether an output's dtype depends on which rows meet in the join: a column already typed
    None (int with missing values...), or an int/bool column of a side the join may miss (it
    becomes float64/object where the join introduces missing values)."""
    for f, (_label, side, name) in zip(node.schema.columns, node.outputs):
        if f.dtype is not None:
            continue
        if side == "key":
            src = node.right.schema.dtype_of(node.right_on[node.left_on.index(name)]) if node.how == "right" \
                else node.left.schema.dtype_of(name)
            if src is None:
                return True
            continue  # an exact key type: the join adds no missing values to it on a side it keeps
        src = (node.right if side == "right" else node.left).schema.dtype_of(name)
        may_miss = (side == "right" and node.how in ("left", "outer")) or (side == "left" and node.how in ("right", "outer"))
        if src is None or may_miss and (pa.types.is_integer(src) or pa.types.is_boolean(src)):
            return True
    return False


@sink.register
def _(node: L.ParquetScan, preds: Preds, ctx: _Pusher) -> tuple[L.Plan, Preds]:
    if node.n_rows is not None:
        return node, preds
    down = [p for p in preds if movable(p)]
    stay = [p for p in preds if not movable(p)]
    if not down:
        return node, stay
    pred = conjoin(([node.predicate] if node.predicate is not None else []) + down)
    return with_fields(node, predicate=pred), stay


def predicate_pushdown(plan: L.Plan) -> L.Plan:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return _Pusher(plan).visit(plan)
    finally:
        sys.setrecursionlimit(limit)

