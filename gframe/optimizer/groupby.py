"""Group-by-aware rewrites: one hash aggregation per set of keys.

- Aggregations over the same keys of the same frame that meet in an index-aligned concat (what
  ``g.a.sum() + g.b.mean()`` or ``pd.concat([g.a.sum(), g.b.size()], axis=1)`` build) become one
  ``Aggregate`` computing all of them: one group-by instead of several and no alignment join.
- Within one ``Aggregate``, the same aggregation asked for twice is computed once.

``value_counts`` and ``size``/``count`` already build an ``Aggregate`` in the frontend, so they
take part in both rewrites.
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any, Hashable

from gframe.optimizer._util import rewrite_bottom_up
from gframe.plan import logical as L
from gframe.plan.expr import Agg, Col
from gframe.plan.schema import internal_name


@singledispatch
def _rewrite(node: L.Plan) -> L.Plan:
    return node


def _agg_of(child: L.Plan) -> tuple[L.Aggregate, dict[str, str]] | None:
    """The aggregate under ``child`` and, for each of child's data columns, the aggregate column."""
    if isinstance(child, L.Aggregate):
        return child, {f.name: f.name for f in child.schema.columns}
    if isinstance(child, L.Select) and isinstance(child.child, L.Aggregate):
        agg_cols = {f.name for f in child.child.schema.columns}
        mapping = {}
        for lab, e in child.outputs:
            if not isinstance(e, Col) or e.name not in agg_cols:
                return None
            mapping[internal_name(lab)] = e.name
        return child.child, mapping
    return None


def _group_signature(a: L.Aggregate) -> tuple[Any, ...]:
    return (a.keys, a.key_labels, a.sort, a.dropna, a.keys_as_index, a.child)


@_rewrite.register
def _(node: L.HConcat) -> L.Plan:
    found = [_agg_of(c) for c in node.children]  # type: ignore[arg-type]
    if any(f is None for f in found) or len(node.children) < 2:
        return node
    aggs = [f[0] for f in found]  # type: ignore[index]
    first = aggs[0]
    if not first.keys or not first.keys_as_index or any(_group_signature(a) != _group_signature(first) for a in aggs):
        return node
    names = node.schema.names
    if len(set(names)) != len(names):
        return node
    merged: list[tuple[Hashable, Agg]] = []
    position: dict[Agg, str] = {}
    outputs: list[tuple[Hashable, Col]] = []
    fields = iter(node.schema.columns)
    for child, (agg, mapping) in zip(node.children, found):  # type: ignore[misc]
        by_name = dict((internal_name(lab), a) for lab, a in agg.aggs)
        for f in child.schema.columns:  # type: ignore[attr-defined]
            a = by_name[mapping[f.name]]
            if a not in position:
                tmp = f"__gf_agg{len(merged)}"
                merged.append((tmp, a))
                position[a] = internal_name(tmp)
            outputs.append((next(fields).label, Col(position[a])))
    one = L.Aggregate(first.keys, first.key_labels, tuple(merged), first.sort, first.dropna, True, first.child)
    out = L.Select(tuple(outputs), one)
    if out.schema.all_names != node.schema.all_names:
        return node
    return out


@_rewrite.register
def _(node: L.Aggregate) -> L.Plan:
    seen: dict[Agg, Hashable] = {}
    kept: list[tuple[Hashable, Agg]] = []
    for lab, a in node.aggs:
        if a not in seen:
            seen[a] = lab
            kept.append((lab, a))
    if len(kept) == len(node.aggs):
        return node
    one = L.Aggregate(node.keys, node.key_labels, tuple(kept), node.sort, node.dropna, node.keys_as_index, node.child)
    n_keys = len(node.schema.columns) - len(node.aggs)
    outputs = [(f.label, Col(f.name)) for f in node.schema.columns[:n_keys]]
    outputs += [(lab, Col(internal_name(seen[a]))) for lab, a in node.aggs]
    out = L.Select(tuple(outputs), one)
    return out if out.schema == node.schema else node


def groupby_rewrites(plan: L.Plan) -> L.Plan:
    return rewrite_bottom_up(plan, _rewrite)
