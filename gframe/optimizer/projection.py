"""Projection pushdown: only columns something downstream uses are read, computed or carried.

Two phases over the canonical plan (shared nodes once):

1. *Requirements*, top-down in topological order: the root needs all its columns; each node says
   which of its child's columns (internal names) it needs to produce the columns its parents need
   (``needs``, one rule per node type). A shared node needs the union of what its parents need,
   so it stays shared.
2. *Rebuild*, bottom-up: scans read only the required columns (``ParquetScan.columns``,
   ``CsvScan.columns``), ``Select``/``Join``/``Aggregate`` drop outputs nobody uses, a ``RowIndex``
   whose positions nobody uses disappears, and below nodes that move rows (filter, sort, join...) a
   projection drops columns the rest of the plan does not need, so they are not carried.

Every node keeps at least one column where it had one: a frame of zero columns would lose its
row count.
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any

from gframe.optimizer._util import data_fields_named, used, with_fields
from gframe.plan import logical as L
from gframe.plan.expr import Agg, Col
from gframe.plan.schema import index_name, internal_name

Names = frozenset[str]


# ------------------------------------------------------------------------ phase 1: what each node needs

@singledispatch
def needs(node: L.Plan, required: set[str], i: int) -> set[str]:
    """Columns of child ``i`` that ``node`` reads to produce ``required`` (default: all of them)."""
    return set(node.children[i].schema.all_names)  # type: ignore[attr-defined]


@needs.register
def _(node: L.Select, required: set[str], i: int) -> set[str]:
    out: set[str] = set()
    kept = _kept_outputs(node, required)
    for _, e in kept:
        out |= used(e)
    return out | (required & set(node.child.schema.index_names))


@needs.register
def _(node: L.Filter, required: set[str], i: int) -> set[str]:
    return required | used(node.predicate)


@needs.register
def _(node: L.RowIndex, required: set[str], i: int) -> set[str]:
    return required - {index_name(0)}


@needs.register(L.Sort)
@needs.register(L.TopK)
def _(node: L.Sort | L.TopK, required: set[str], i: int) -> set[str]:
    return required | set(node.by)


@needs.register(L.Slice)
@needs.register(L.Cache)
def _(node: L.Plan, required: set[str], i: int) -> set[str]:
    return set(required)


@needs.register
def _(node: L.Distinct, required: set[str], i: int) -> set[str]:
    return required | set(node.subset or node.child.schema.names)


@needs.register
def _(node: L.GroupHead, required: set[str], i: int) -> set[str]:
    return required | set(node.keys)


@needs.register
def _(node: L.Aggregate, required: set[str], i: int) -> set[str]:
    out = set(node.keys)
    for _, a in _kept_aggs(node, required):
        if a.fn != "size":  # size counts rows: its argument is never read
            out |= used(a)
    return out


@needs.register
def _(node: L.Join, required: set[str], i: int) -> set[str]:
    side = "left" if i == 0 else "right"
    child = node.children[i]
    out = set(node.left_on if i == 0 else node.right_on)
    for _label, s, name in _kept_join_outputs(node, required):
        if s == side or (s == "key" and i == 0):
            out.add(name)
    if node.index_from == side:
        out |= set(child.schema.index_names)  # type: ignore[attr-defined]
    return out


@needs.register
def _(node: L.Union, required: set[str], i: int) -> set[str]:
    child = node.children[i]
    have = set(child.schema.all_names)  # type: ignore[attr-defined]
    out = required & have
    if child.schema.columns and not out & set(child.schema.names):  # type: ignore[attr-defined]
        # a child with columns makes the others' columns missing even over no rows (pandas 3): it
        # keeps one, or the union's types would change (``plan/logical._union_type``: "absent")
        out.add(child.schema.names[0])  # type: ignore[attr-defined]
    if not node.ignore_index:
        out |= set(child.schema.index_names)  # type: ignore[attr-defined]
    return out


@needs.register
def _(node: L.HConcat, required: set[str], i: int) -> set[str]:
    child = node.children[i]
    # the index aligns the children: always read
    return (required & set(child.schema.names)) | set(child.schema.index_names)  # type: ignore[attr-defined]


@needs.register
def _(node: L.SetIndex, required: set[str], i: int) -> set[str]:
    out = (required & set(node.child.schema.names)) | set(node.keys)
    if node.append:
        out |= set(node.child.schema.index_names)
    return out


@needs.register
def _(node: L.ResetIndex, required: set[str], i: int) -> set[str]:
    out = required & set(node.child.schema.names)
    if not node.drop:
        out |= set(node.child.schema.index_names)
    return out


@needs.register
def _(node: L.RenameIndex, required: set[str], i: int) -> set[str]:
    return required | set(node.child.schema.index_names)


def _kept_outputs(node: L.Select, required: set[str]) -> tuple[tuple[Any, Any], ...]:
    kept = tuple((lab, e) for lab, e in node.outputs if internal_name(lab) in required)
    if not kept and node.outputs:
        # keep one output (the cheapest: a plain column if there is one) so the row count survives
        plain = [(lab, e) for lab, e in node.outputs if isinstance(e, Col)]
        kept = (plain or list(node.outputs))[:1]
        kept = tuple(kept)
    return kept


def _kept_aggs(node: L.Aggregate, required: set[str]) -> tuple[tuple[Any, Agg], ...]:
    kept = tuple((lab, a) for lab, a in node.aggs if internal_name(lab) in required)
    if not kept and node.aggs:
        sizes = [(lab, a) for lab, a in node.aggs if a.fn == "size"]
        kept = tuple((sizes or list(node.aggs))[:1])
    return kept


def _kept_join_outputs(node: L.Join, required: set[str]) -> tuple[tuple[Any, str, str], ...]:
    kept = tuple(o for o in node.outputs if internal_name(o[0]) in required)
    if not kept and node.outputs:
        keys = [o for o in node.outputs if o[1] == "key"]
        kept = tuple((keys or list(node.outputs))[:1])
    return kept


# ------------------------------------------------------------------------ phase 2: rebuild

@singledispatch
def prune(node: L.Plan, required: set[str]) -> L.Plan:
    """``node`` (already over its pruned children) producing at least ``required``."""
    return node


@prune.register
def _(node: L.ParquetScan, required: set[str]) -> L.Plan:
    return _prune_scan(node, required)


@prune.register
def _(node: L.CsvScan, required: set[str]) -> L.Plan:
    return _prune_scan(node, required)


def _prune_scan(node: L.ParquetScan | L.CsvScan, required: set[str]) -> L.Plan:
    present = [f.name for f in node.schema.columns]
    cols = [n for n in present if n in required]
    if not cols and present and not node.schema.index_names:
        cols = present[:1]  # keep the row count
    if len(cols) == len(node.file_schema.columns):
        return node
    if node.columns is not None and tuple(cols) == tuple(node.columns):
        return node
    return with_fields(node, columns=tuple(cols))


@prune.register
def _(node: L.Select, required: set[str]) -> L.Plan:
    kept = _kept_outputs(node, required)
    if len(kept) == len(node.outputs):
        return node
    return L.Select(kept, node.child)


@prune.register
def _(node: L.Aggregate, required: set[str]) -> L.Plan:
    kept = _kept_aggs(node, required)
    if len(kept) == len(node.aggs):
        return node
    return L.Aggregate(node.keys, node.key_labels, kept, node.sort, node.dropna, node.keys_as_index, node.child)


@prune.register
def _(node: L.Join, required: set[str]) -> L.Plan:
    kept = _kept_join_outputs(node, required)
    if len(kept) == len(node.outputs):
        return node
    return L.Join(node.how, node.left_on, node.right_on, kept, node.index_from, node.sort, node.left, node.right)


# nodes that copy every column of their input row by row: a projection below them saves the copy
_CARRIERS = (L.Filter, L.Sort, L.TopK, L.Join, L.Distinct, L.GroupHead, L.Union)


def projection_pushdown(plan: L.Plan) -> L.Plan:
    order = list(plan.walk())  # post-order: children first
    required: dict[int, set[str]] = {id(plan): set(plan.schema.all_names)}
    edge: dict[tuple[int, int], set[str]] = {}
    for node in reversed(order):  # parents before children
        r = required.get(id(node), set())
        for i, c in enumerate(node.children):
            need = needs(node, r, i)
            edge[(id(node), i)] = need
            required.setdefault(id(c), set()).update(need)

    memo: dict[int, L.Plan] = {}
    for node in order:
        kids = []
        for i, c in enumerate(node.children):
            new_c = memo[id(c)]
            if isinstance(node, _CARRIERS):
                new_c = _project(new_c, edge[(id(node), i)])
            kids.append(new_c)
        req = required.get(id(node), set())
        if isinstance(node, L.RowIndex) and index_name(0) not in req:
            memo[id(node)] = kids[0]  # nobody reads the positions: the default index will do
            continue
        # drop unused outputs first (over the old children, which still have every column)
        memo[id(node)] = prune(node, req).reconstruct(kids)  # type: ignore[arg-type]
    return memo[id(plan)]


def _project(child: L.Plan, need: set[str]) -> L.Plan:
    """``child`` restricted to the data columns in ``need`` (at least one; the index passes)."""
    names = child.schema.names
    if len(set(names)) != len(names):
        return child  # duplicated labels: a projection could not tell them apart
    keep = [n for n in names if n in need]
    if len(keep) == len(names):
        return child
    if not keep and not child.schema.index_names:
        keep = names[:1]
    # a projection of plain columns (zero-copy); ``simplify`` merges it into a Select below it
    return L.Select(data_fields_named(child, keep), child)
