"""Limit pushdown and top-k: ``head`` computes only the rows it keeps.

- ``sort_values(...).head(k)`` (a ``Slice`` over a ``Sort``) becomes a ``TopK``: O(n) selection
  of k rows plus a sort of those k, instead of a full sort. ``nlargest``/``nsmallest`` build the
  same node in the frontend. ``head`` over a top-k narrows it; two slices compose into one.
- ``head`` goes below row-wise projections (only the kept rows are computed), below ``RowIndex``
  (the first k positions are 0..k-1 either way) and into scans (``n_rows``: the reader stops early).

A shared subplan is left whole: its other parents need all of it anyway.
"""
from __future__ import annotations

from functools import singledispatch

from gframe.optimizer._util import SharedCtx, rows_independent, with_fields
from gframe.plan import logical as L
from gframe.plan.traversal import fold, rebuild


@singledispatch
def _below(child: L.Plan, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    """``node`` (a Slice over ``child``) rewritten, or None to leave it."""
    return None


def _compose(outer_off: int, outer_len: int | None, inner_off: int, inner_len: int | None) -> tuple[int, int | None]:
    """Slice(outer) of Slice(inner), both with non-negative offsets."""
    if inner_len is None:
        return inner_off + outer_off, outer_len
    avail = max(inner_len - outer_off, 0)
    return inner_off + outer_off, avail if outer_len is None else min(outer_len, avail)


@_below.register
def _(child: L.Slice, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    if node.offset < 0 or child.offset < 0:
        return None
    off, length = _compose(node.offset, node.length, child.offset, child.length)
    return _slice(off, length, child.child, ctx)


@_below.register
def _(child: L.Sort, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    if node.offset < 0 or node.length is None or ctx.shared(child):
        return None
    topk = L.TopK(child.by, child.descending, child.nulls_last, node.offset + node.length, False, child.child)
    return topk if node.offset == 0 else L.Slice(node.offset, node.length, topk)


@_below.register
def _(child: L.TopK, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    if node.offset < 0 or node.length is None or node.offset + node.length >= child.k or child.ties_last:
        return None  # ties_last: a smaller k may cut rows the larger one covered (another tie order)
    topk = L.TopK(child.by, child.descending, child.nulls_last, node.offset + node.length, False, child.child)
    return topk if node.offset == 0 else L.Slice(node.offset, node.length, topk)


@_below.register
def _(child: L.Select, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    # any slice commutes with a row-wise projection (it keeps the row count)
    if ctx.shared(child) or not rows_independent(child) or not child.child.schema.all_names:
        return None
    return L.Select(child.outputs, _slice(node.offset, node.length, child.child, ctx))


@_below.register
def _(child: L.RowIndex, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    if node.offset != 0 or node.length is None or ctx.shared(child):
        return None
    return L.RowIndex(_slice(0, node.length, child.child, ctx))


@_below.register(L.ParquetScan)
@_below.register(L.CsvScan)
def _(child: L.ParquetScan | L.CsvScan, node: L.Slice, ctx: SharedCtx) -> L.Plan | None:
    if node.offset != 0 or node.length is None or ctx.shared(child):
        return None
    n = node.length if child.n_rows is None else min(node.length, child.n_rows)
    if n == child.n_rows:
        return child
    return with_fields(child, n_rows=n)


def _slice(offset: int, length: int | None, child: L.Plan, ctx: SharedCtx) -> L.Plan:
    if offset == 0 and length is None:
        return child
    node = L.Slice(offset, length, child)
    return _below(child, node, ctx) or node


def limit_pushdown(plan: L.Plan) -> L.Plan:
    ctx = SharedCtx(plan)

    def rewrite(node: L.Plan, kids: list[L.Plan]) -> L.Plan:
        new = rebuild(node, kids)
        if isinstance(new, L.Slice):
            new = _slice(new.offset, new.length, new.child, ctx)
        if ctx.refs.get(id(node), 1) > 1:
            ctx.shared_new.add(id(new))
        return new

    return fold(plan, rewrite)
