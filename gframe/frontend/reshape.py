"""merge, join and concat: pandas' column rules (keys, suffixes, order) computed here, into plan nodes.

The frontend decides the output columns (which key columns are coalesced, which get suffixes) so the
``Join`` node only carries (label, side, internal name) triples; engines never re-derive pandas' rules.
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

import pandas as pd

from gframe.fallback import call_pandas
from gframe.plan import logical as L

_HOWS = ("inner", "left", "right", "outer", "cross", "left_anti", "right_anti")


def _frame(obj: Any) -> Any:
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.series import Series

    if isinstance(obj, DataFrame):
        return obj
    if isinstance(obj, Series):
        if obj.name is None:
            raise ValueError("Cannot merge a Series without a name")
        return obj.to_frame()
    if isinstance(obj, pd.DataFrame):
        return DataFrame._from_pandas(obj)
    if isinstance(obj, pd.Series):
        return DataFrame._from_pandas(obj.to_frame())
    raise TypeError(f"Can only merge Series or DataFrame objects, a {type(obj)} was passed")


def _as_list(x: Any) -> list[Any]:
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def merge(left: Any, right: Any, how: str = "inner", on: Any = None, left_on: Any = None, right_on: Any = None,
          left_index: bool = False, right_index: bool = False, sort: bool = False, suffixes: Any = ("_x", "_y"),
          copy: Any = None, indicator: bool = False, validate: Any = None) -> Any:
    """pandas.merge, natively for column keys (and index-on-index), through pandas otherwise."""
    left, right = _frame(left), _frame(right)
    if how not in _HOWS:
        raise ValueError(f"'{how}' is not a valid Merge type: left, right, inner, outer, left_anti, right_anti, cross")
    kwargs = dict(how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index, right_index=right_index,
                  sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)
    if indicator or validate or how in ("left_anti", "right_anti"):
        return call_pandas("merge", pd.merge, (left, right), kwargs, "indicator/validate/anti joins not native")
    ls, rs = left._plan.schema, right._plan.schema
    if how == "cross":
        if on is not None or left_on is not None or right_on is not None or left_index or right_index:
            raise pd.errors.MergeError("Can not pass on, right_on, left_on or set right_index=True or left_index=True")
        outputs = _outputs(ls, rs, [], [], set(), suffixes)
        return type(left)._from_plan(L.Join("cross", (), (), tuple(outputs), "none", False, left._plan, right._plan))
    if left_index and right_index and on is None and left_on is None and right_on is None:
        if ls.index is None or rs.index is None:
            # default RangeIndex: positions are the labels
            lp = L.RowIndex(left._plan) if ls.index is None else left._plan
            rp = L.RowIndex(right._plan) if rs.index is None else right._plan
        else:
            lp, rp = left._plan, right._plan
        if len(lp.schema.index or ()) != len(rp.schema.index or ()) or how == "outer":
            return call_pandas("merge", pd.merge, (left, right), kwargs, "index join of this shape not native")
        outputs = _outputs(lp.schema, rp.schema, [], [], set(), suffixes)
        idx_from = "right" if how == "right" else "left"
        plan = L.Join(how, tuple(lp.schema.index_names), tuple(rp.schema.index_names), tuple(outputs), idx_from, sort,
                      lp, rp)
        return type(left)._from_plan(plan)
    if left_index or right_index:
        return call_pandas("merge", pd.merge, (left, right), kwargs, "column-to-index merge not native")
    if on is not None:
        if left_on is not None or right_on is not None:
            raise pd.errors.MergeError('Can only pass argument "on" OR "left_on" and "right_on", not a combination of both.')
        lkeys = rkeys = _as_list(on)
    elif left_on is not None or right_on is not None:
        if left_on is None or right_on is None:
            raise pd.errors.MergeError('Must pass "left_on" OR "left_index" and "right_on" OR "right_index".' if left_on is None else
                                       'Must pass "right_on" OR "right_index".')
        lkeys, rkeys = _as_list(left_on), _as_list(right_on)
        if len(lkeys) != len(rkeys):
            raise ValueError("len(right_on) must equal len(left_on)")
    else:
        common = [c for c in ls.labels if rs.has(c)]
        if not common:
            raise pd.errors.MergeError(
                f"No common columns to perform merge on. Merge options: left_on={left_on}, right_on={right_on}, "
                f"left_index={left_index}, right_index={right_index}")
        lkeys = rkeys = common
    for k in lkeys:
        if not ls.has(k):
            raise KeyError(k)
    for k in rkeys:
        if not rs.has(k):
            raise KeyError(k)
    coalesced = {lk for lk, rk in zip(lkeys, rkeys) if lk == rk}
    outputs = _outputs(ls, rs, lkeys, rkeys, coalesced, suffixes)
    if outputs is None:
        return call_pandas("merge", pd.merge, (left, right), kwargs, "duplicate output labels")
    lnames = tuple(ls.field(k).name for k in lkeys)
    rnames = tuple(rs.field(k).name for k in rkeys)
    plan = L.Join(how, lnames, rnames, tuple(outputs), "none", sort, left._plan, right._plan)
    return type(left)._from_plan(plan)


def _outputs(ls: Any, rs: Any, lkeys: Sequence[Hashable], rkeys: Sequence[Hashable], coalesced: set[Hashable],
             suffixes: Any) -> list[tuple[Hashable, str, str]] | None:
    lsuf, rsuf = suffixes if suffixes is not None else (None, None)
    right_data = [f for f in rs.columns if f.label not in coalesced]
    left_labels = {f.label for f in ls.columns}
    right_labels = {f.label for f in right_data}
    overlap = (left_labels & right_labels) - set()
    out: list[tuple[Hashable, str, str]] = []
    for f in ls.columns:
        if f.label in coalesced:
            out.append((f.label, "key", f.name))
        elif f.label in overlap:
            if lsuf is None and rsuf is None or (not lsuf and not rsuf):
                raise ValueError(f"columns overlap but no suffix specified: {sorted(map(str, overlap))}")
            out.append((f"{f.label}{lsuf or ''}" if lsuf is not None else f.label, "left", f.name))
        else:
            out.append((f.label, "left", f.name))
    for f in right_data:
        if f.label in overlap:
            out.append((f"{f.label}{rsuf or ''}" if rsuf is not None else f.label, "right", f.name))
        else:
            out.append((f.label, "right", f.name))
    labels = [o[0] for o in out]
    if len(set(labels)) != len(labels):
        return None
    return out


def join(left: Any, other: Any, on: Any = None, how: str = "left", lsuffix: str = "", rsuffix: str = "",
         sort: bool = False, validate: Any = None) -> Any:
    """DataFrame.join: on the index (or ``on`` columns of the left against the right's index)."""
    right = _frame(other) if not isinstance(other, list) else None
    kwargs = dict(on=on, how=how, lsuffix=lsuffix, rsuffix=rsuffix, sort=sort, validate=validate)
    if right is None or on is not None or validate is not None or how not in ("left", "right", "inner"):
        if how not in _HOWS:
            raise ValueError(f"'{how}' is not a valid Merge type")
        return call_pandas("DataFrame.join", pd.DataFrame.join, (left, other), kwargs, "join shape not native")
    overlap = set(left._plan.schema.labels) & set(right._plan.schema.labels)
    if overlap and not lsuffix and not rsuffix:
        raise ValueError(f"columns overlap but no suffix specified: {pd.Index(sorted(overlap, key=str))}")
    return merge(left, right, how=how, left_index=True, right_index=True, sort=sort, suffixes=(lsuffix, rsuffix))


def concat(objs: Any, *, axis: Any = 0, join: str = "outer", ignore_index: bool = False, keys: Any = None,
           levels: Any = None, names: Any = None, verify_integrity: bool = False, sort: bool = False, copy: Any = None) -> Any:
    """pandas.concat: rows (``Union``) or columns aligned on the index (``HConcat``)."""
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.series import Series

    if isinstance(objs, dict):
        return call_pandas("concat", pd.concat, (objs,), dict(axis=axis, join=join, ignore_index=ignore_index), "dict input")
    objs = [o for o in list(objs) if o is not None]
    if not objs:
        raise ValueError("No objects to concatenate")
    kwargs = dict(axis=axis, join=join, ignore_index=ignore_index, keys=keys, levels=levels, names=names,
                  verify_integrity=verify_integrity, sort=sort)
    wrapped = [DataFrame._from_pandas(o) if isinstance(o, pd.DataFrame) else Series(o) if isinstance(o, pd.Series) else o
               for o in objs]
    if keys is not None or levels is not None or names is not None or verify_integrity or sort or join != "outer":
        return call_pandas("concat", pd.concat, (wrapped,), kwargs, "keys/levels/join options not native")
    if axis in (0, "index"):
        if all(isinstance(o, DataFrame) for o in wrapped):
            plans = [o._plan if ignore_index or o._plan.schema.index is not None else L.RowIndex(o._plan) for o in wrapped]
            if not ignore_index and len({len(p.schema.index or ()) for p in plans}) > 1:
                return call_pandas("concat", pd.concat, (wrapped,), kwargs, "index levels differ")
            return DataFrame._from_plan(L.Union(ignore_index, *plans))
        if all(isinstance(o, Series) for o in wrapped):
            names_ = {o.name for o in wrapped}
            name = wrapped[0].name if len(names_) == 1 else None
            label = "__gf_concat"
            frames = [DataFrame._from_plan(L.Select(((label, o._expr),), o._plan)) for o in wrapped]
            out = concat(frames, ignore_index=ignore_index)
            return Series._over(out._plan, out[label]._expr, name)
        return call_pandas("concat", pd.concat, (wrapped,), kwargs, "mixed frames and series")
    if axis in (1, "columns"):
        frames = []
        for i, o in enumerate(wrapped):
            if isinstance(o, Series):
                o = o.to_frame(name=o.name if o.name is not None else i)
            frames.append(o)
        labels = [lab for f in frames for lab in f._plan.schema.labels]
        if len(set(labels)) != len(labels) or ignore_index:
            return call_pandas("concat", pd.concat, (wrapped,), kwargs, "duplicate column labels")
        if len({len(f._plan.schema.index or ()) for f in frames}) > 1 or any(f._plan.schema.index is None for f in frames) and not all(f._plan.schema.index is None for f in frames):
            return call_pandas("concat", pd.concat, (wrapped,), kwargs, "index kinds differ")
        return DataFrame._from_plan(L.HConcat(*[f._plan for f in frames]))
    raise ValueError(f"No axis named {axis} for object type DataFrame")
