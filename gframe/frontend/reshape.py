"""merge, join and concat: pandas' column rules (keys, suffixes, order) computed here, into plan nodes.

The frontend decides the output columns (which key columns are coalesced, which get suffixes) so the
``Join`` node only carries (label, side, internal name) triples; engines never re-derive pandas' rules.
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api.types import is_scalar
from gframe.frontend.bridge import via_pandas
from gframe.frontend.coerce import scalar_value
from gframe.frontend.frame import DataFrame, _positions
from gframe.frontend.series import Series
from gframe.plan import logical as L
from gframe.plan.dtypes import common_pandas_dtype, field_pandas_dtype, merge_keys_native
from gframe.plan.expr import Agg, BinOp, Col, Func, Lit, func
from gframe.plan.schema import (HOST_PREFIX,
    MASKED,
    NUMPY,
    OBJECT,
    OBJECT_FAMILIES,
    Field,
    internal_name,
)

_HOWS = ("inner", "left", "right", "outer", "cross", "left_anti", "right_anti")
_NO_DEFAULT: Any = pd.api.extensions.no_default


def _frame(obj: Any) -> Any:
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


def _column_levels(schema: Any) -> int:
    """How many levels pandas' column Index has: MultiIndex columns are labels that are all tuples."""
    labels = [f.label for f in schema.columns]
    if labels and all(isinstance(lab, tuple) for lab in labels):
        return max(len(lab) for lab in labels)
    return 1


_MERGE_ERRORS = (pd.errors.MergeError, ValueError, TypeError, KeyError)


def merge(left: Any, right: Any, how: str = "inner", on: Any = None, left_on: Any = None, right_on: Any = None,
          left_index: bool = False, right_index: bool = False, sort: bool = False, suffixes: Any = ("_x", "_y"),
          copy: Any = None, indicator: Any = False, validate: Any = None) -> Any:
    """pandas.merge, natively for column keys, index keys and a mix of both; validate and anti joins
    through pandas.

    An argument error found here is replaced by pandas' verdict on the same call: pandas checks the
    arguments in its own order with its own messages (``"Must pass right_on or right_index=True"``,
    the list of valid ``how``), which programs and tests match. Only the error path pays (the inputs
    go to pandas, unrecorded: no answer is computed)."""
    args = (left, right)
    kwargs = dict(how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index, right_index=right_index,
                  sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)
    try:
        return _merge(left, right, how, on, left_on, right_on, left_index, right_index, sort, suffixes, indicator,
                      validate)
    except _MERGE_ERRORS as exc:
        _pandas_verdict(args, kwargs, exc)
        raise


def _pandas_verdict(args: tuple[Any, Any], kwargs: dict[str, Any], exc: BaseException) -> None:
    """Raise what ``pandas.merge`` raises for the call (``exc`` where pandas does not raise)."""
    import warnings

    from gframe.frontend.bridge import as_pandas

    try:
        pargs = [as_pandas(a) for a in args]
    except Exception:  # noqa: BLE001 - the inputs cannot be converted: the native error stands
        raise exc from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pd.merge(*pargs, **kwargs)
    except Exception as pexc:  # noqa: BLE001 - pandas' verdict, whatever its type
        raise pexc from None
    raise exc


def _merge(left: Any, right: Any, how: str, on: Any, left_on: Any, right_on: Any, left_index: Any, right_index: Any,
           sort: bool, suffixes: Any, indicator: Any, validate: Any) -> Any:
    for flag, value in (("left_index", left_index), ("right_index", right_index)):
        if not pd.api.types.is_bool(value):
            raise ValueError(f"{flag} parameter must be of type bool, not {type(value)}")
    if suffixes is not None and (not pd.api.types.is_list_like(suffixes, allow_sets=False) or isinstance(suffixes, dict)):
        raise TypeError(f"Passing 'suffixes' as a {type(suffixes)}, is not supported. Provide 'suffixes' as a tuple "
                        "instead.")
    left, right = _frame(left), _frame(right)
    if how not in _HOWS:
        raise ValueError(f"'{how}' is not a valid Merge type: left, right, inner, outer, left_anti, right_anti, cross")
    kwargs = dict(how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index, right_index=right_index,
                  sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)
    if validate or how in ("left_anti", "right_anti"):
        return via_pandas("merge", pd.merge, (left, right), kwargs, "validate/anti joins not native")
    if any(_array_key(k) for k in (*_as_list(on), *_as_list(left_on), *_as_list(right_on))):
        # pandas takes arrays of the frame's length as keys (``left_on=[arr]``)
        return via_pandas("merge", pd.merge, (left, right), kwargs, "keys given as arrays")
    ls, rs = left._plan.schema, right._plan.schema
    nl, nr = _column_levels(ls), _column_levels(rs)
    if nl != nr:  # pandas checks this before any key
        raise pd.errors.MergeError(f"Not allowed to merge between different levels. ({nl} levels on the left, "
                                   f"{nr} on the right)")
    ind = _indicator_label(indicator, ls, rs)
    if how == "cross":
        if on is not None or left_on is not None or right_on is not None or left_index or right_index:
            raise pd.errors.MergeError("Can not pass on, right_on, left_on or set right_index=True or left_index=True")
        if ind is not None:
            return via_pandas("merge", pd.merge, (left, right), kwargs, "cross join with indicator not native")
        outputs = _outputs(ls, rs, [], [], set(), suffixes)
        if outputs is None:
            return via_pandas("merge", pd.merge, (left, right), kwargs, "duplicate output labels")
        return type(left)._from_plan(L.Join("cross", (), (), tuple(outputs), "none", False, left._plan, right._plan))
    if on is not None and (left_on is not None or right_on is not None):
        raise pd.errors.MergeError('Can only pass argument "on" OR "left_on" and "right_on", not a combination of both.')
    if on is not None and (left_index or right_index):
        raise pd.errors.MergeError('Can only pass argument "on" OR "left_index" and "right_index", not a combination '
                                   'of both.')
    if left_index and left_on is not None:
        raise pd.errors.MergeError('Can only pass argument "left_on" OR "left_index" not both.')
    if right_index and right_on is not None:
        raise pd.errors.MergeError('Can only pass argument "right_on" OR "right_index" not both.')
    lp, rp = left._plan, right._plan
    lkey_cols: list[str] = []  # left key columns joined to the right's index
    if left_index or right_index:
        # an index side: its levels are the keys (positions for a default RangeIndex); a column side
        # keeps its own index in the result
        lp = L.RowIndex(lp) if lp.schema.index is None else lp
        rp = L.RowIndex(rp) if rp.schema.index is None else rp
        ls, rs = lp.schema, rp.schema
        if left_index and right_index:
            lev_l, lev_r = [f.label for f in ls.index or ()], [f.label for f in rs.index or ()]
            if len(lev_l) != len(lev_r) or len(lev_l) > 1 and lev_l != lev_r:
                # a MultiIndex of other level names: pandas joins on the levels the two share
                return via_pandas("merge", pd.merge, (left, right), kwargs, "index join of this shape not native")
            lnames, rnames = tuple(ls.index_names), tuple(rs.index_names)
            coalesced: set[Hashable] = set()
            idx_from = {"right": "right", "outer": "both"}.get(how, "left")
        elif right_index:
            if left_on is None:
                raise pd.errors.MergeError('Must pass "left_on" OR "left_index" and "right_on" OR "right_index".')
            lkeys = _as_list(left_on)
            if len(lkeys) != len(rs.index_names):
                raise ValueError('len(left_on) must equal the number of levels in the index of "right"')
            if _level_keys(ls, lkeys) != []:  # keys naming index levels: pandas keeps them in the index
                return via_pandas("merge", pd.merge, (left, right), kwargs, "index level keys against an index")
            _check_keys(ls, lkeys)
            lnames, rnames = tuple(ls.field(k).name for k in lkeys), tuple(rs.index_names)
            lkey_cols, coalesced, idx_from = list(lnames), set(), "left"
        else:
            if right_on is None:
                raise pd.errors.MergeError('Must pass "left_on" OR "left_index" and "right_on" OR "right_index".')
            rkeys = _as_list(right_on)
            if len(rkeys) != len(ls.index_names):
                raise ValueError('len(right_on) must equal the number of levels in the index of "left"')
            if _level_keys(rs, rkeys) != []:  # keys naming index levels: pandas keeps them in the index
                return via_pandas("merge", pd.merge, (left, right), kwargs, "index level keys against an index")
            _check_keys(rs, rkeys)
            lnames, rnames = tuple(ls.index_names), tuple(rs.field(k).name for k in rkeys)
            coalesced, idx_from = set(), "right"
    else:
        if on is not None:
            lkeys = rkeys = _as_list(on)
        elif left_on is not None or right_on is not None:
            if left_on is None or right_on is None:
                raise pd.errors.MergeError('Must pass "left_on" OR "left_index" and "right_on" OR "right_index".'
                                           if left_on is None else 'Must pass "right_on" OR "right_index".')
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
        llev, rlev = _level_keys(ls, lkeys), _level_keys(rs, rkeys)
        if llev is None or rlev is None:  # pandas raises its ambiguity ValueError
            return via_pandas("merge", pd.merge, (left, right), kwargs, "keys both a column and an index level")
        if llev or rlev:
            return _merge_on_levels(left, right, lkeys, rkeys, llev, rlev, kwargs)
        _check_keys(ls, lkeys)
        _check_keys(rs, rkeys)
        coalesced = {lk for lk, rk in zip(lkeys, rkeys) if lk == rk}
        lnames = tuple(ls.field(k).name for k in lkeys)
        rnames = tuple(rs.field(k).name for k in rkeys)
        idx_from = "none"
    nullable = {(a, b) for a, b in zip(lnames, rnames) if idx_from == "none" and _nullable_int_pair(ls, rs, a, b, how)}
    if not all(merge_keys_native((ls.dtype_of(a), ls.family_of(a)), (rs.dtype_of(b), rs.family_of(b)), how)
               or (a, b) in nullable for a, b in zip(lnames, rnames)):
        return via_pandas("merge", pd.merge, (left, right), kwargs, "keys of different dtypes (pandas reads the data)")
    if not _keys_native(ls, rs, [a for a, b in zip(lnames, rnames) if (a, b) not in nullable],
                        [b for a, b in zip(lnames, rnames) if (a, b) not in nullable]):
        return via_pandas("merge", pd.merge, (left, right), kwargs, "merge keys of different kinds")
    outputs = _outputs(ls, rs, [], [], coalesced, suffixes)
    if outputs is None:
        return via_pandas("merge", pd.merge, (left, right), kwargs, "duplicate output labels")
    # a left key column joined to the right's index takes the right key where the left row is missing
    outputs = [(lab, "key" if side == "left" and name in lkey_cols else side, name) for lab, side, name in outputs]
    if _mixed_merge_markers(outputs, ls, rs, how):
        return via_pandas("merge", pd.merge, (left, right), kwargs,
                          "object columns whose missing value is not NaN on a side that may miss rows (pandas keeps each)")
    if ind is not None:
        if any(lab == ind for lab, _, _ in outputs):
            return via_pandas("merge", pd.merge, (left, right), kwargs, "indicator label clashes")
        # marker columns, true on each side's rows: missing after the join where that side has no row
        marks = ("__gf_left_row", "__gf_right_row")
        lp = L.Select(tuple((f.label, Col(f.name)) for f in ls.columns) + ((marks[0], Lit(True)),), lp)
        rp = L.Select(tuple((f.label, Col(f.name)) for f in rs.columns) + ((marks[1], Lit(True)),), rp)
        names = (internal_name(marks[0]), internal_name(marks[1]))
        outputs += [(marks[0], "left", names[0]), (marks[1], "right", names[1])]
        plan = L.Join(how, lnames, rnames, tuple(outputs), idx_from, sort, lp, rp)
        return type(left)._from_plan(L.MergeIndicator(ind, names[0], names[1], plan))
    plan = L.Join(how, lnames, rnames, tuple(outputs), idx_from, sort, lp, rp)
    return type(left)._from_plan(plan)


def _array_key(k: Any) -> bool:
    return isinstance(k, (np.ndarray, list, pd.Series, pd.Index, pd.api.extensions.ExtensionArray, Series)) \
        or type(k).__name__ == "Index"


def _level_keys(schema: Any, keys: Sequence[Hashable]) -> list[Hashable] | None:
    """The keys that name an index level and no column (pandas reads a key as a column first, then as
    an index level); None where a key names both, which pandas refuses as ambiguous."""
    levels = [f.label for f in schema.index or () if f.label is not None]
    out: list[Hashable] = []
    for k in keys:
        if any(k == lev for lev in levels):
            if schema.has(k):
                return None
            out.append(k)
    return out


def _merge_on_levels(left: Any, right: Any, lkeys: list[Hashable], rkeys: list[Hashable], llev: list[Hashable],
                     rlev: list[Hashable], kwargs: dict[str, Any]) -> Any:
    """merge with ``on`` / ``left_on`` / ``right_on`` keys that name index levels: pandas joins on the
    level's values, gives the key one column (inserted at the key's position) where both keys have one
    name, drops the other index levels (a new RangeIndex), and restores as the index the keys that are
    levels on both sides. The same merge on columns: the key levels moved into columns, merged, then
    set as the index."""
    if any((lk in llev or rk in rlev) and not (lk == rk and type(lk) is type(rk)) for lk, rk in zip(lkeys, rkeys)):
        # a level key paired with a key of another name leaves no column in pandas' result
        return via_pandas("merge", pd.merge, (left, right), kwargs, "index level keys of different names")

    def as_columns(frame: Any, keys: list[Hashable], levels: list[Hashable]) -> Any:
        if not levels:
            return frame
        order = list(frame.columns)
        for i, k in enumerate(keys):  # pandas inserts each key column at the key's position
            if k in levels and k not in order:
                order.insert(i, k)
        return frame.reset_index(level=list(dict.fromkeys(levels)))[order]

    out = merge(as_columns(left, lkeys, llev), as_columns(right, rkeys, rlev),
                **{**kwargs, "on": None, "left_on": lkeys, "right_on": rkeys})
    restore = list(dict.fromkeys(lk for lk, rk in zip(lkeys, rkeys) if lk in llev and rk in rlev))
    return out.set_index(restore) if restore else out


def _check_keys(schema: Any, keys: Sequence[Hashable]) -> None:
    for k in keys:
        if not schema.has(k):
            raise KeyError(k)


def _nullable_int_pair(ls: Any, rs: Any, a: str, b: str, how: str) -> bool:
    """Column keys of one int type, one nullable (``Int64``) and one numpy (``int64``): pandas matches
    their values, and the key column's dtype does not depend on the data where it is the left's (an
    inner or left merge) or where the left one is the nullable one (pandas' common dtype, ``Int64``)."""
    ta, tb, fa, fb = ls.dtype_of(a), rs.dtype_of(b), ls.family_of(a), rs.family_of(b)
    if ta is None or ta != tb or not pa.types.is_integer(ta) or {fa, fb} != {MASKED, NUMPY}:
        return False
    return how in ("inner", "left") or fa == MASKED


def _keys_native(ls: Any, rs: Any, lnames: Sequence[str], rnames: Sequence[str]) -> bool:
    """Whether the engines join these keys as pandas does: keys of one pandas dtype, numbers with numbers
    (ints, floats, decimals, compared in their common type) and categoricals (by value).

    Other pairs are pandas' to decide, and its answer depends on the data: it raises ValueError for
    a number or string against a datetime, or a string against numbers it infers as such - but only
    when both sides have rows - and merges the rest as object (bool with int or str, datetimes of
    different units, date32 with strings). Those merges run through pandas, which gives either."""
    def number(t: Any) -> bool:
        return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)

    for a, b in zip(lnames, rnames):
        ta, tb = ls.dtype_of(a), rs.dtype_of(b)
        if (ta is None) != (tb is None) and not number(ta if tb is None else tb) \
                and not pa.types.is_dictionary(ta if tb is None else tb):
            # a type the data decides (numbers: ``0 // bools`` is int64 or float64) beside bools, strings
            # or times: pandas' verdict (object keys, or its ValueError), the engines' would be their own
            return False
        if ta is None or tb is None or pa.types.is_dictionary(ta) or pa.types.is_dictionary(tb):
            continue
        if number(ta) and number(tb):
            continue
        # one type in two families is two pandas dtypes (str and string[pyarrow]: object; datetime64 and
        # timestamp[pyarrow]: ValueError)
        if ta != tb or ls.family_of(a) != rs.family_of(b):
            return False
    return True


def _indicator_label(indicator: Any, ls: Any, rs: Any) -> Hashable | None:
    if indicator is False or indicator is None:
        return None
    if indicator is True:
        label = "_merge"
    elif isinstance(indicator, str):
        label = indicator
    else:
        raise ValueError("indicator option can only accept boolean or string arguments")
    for s in (ls, rs):
        for reserved in ("_left_indicator", "_right_indicator"):  # pandas' own marker columns
            if s.has(reserved):
                raise ValueError(f"Cannot use `indicator=True` option when data contains a column named {reserved}")
        if s.has(label):
            raise ValueError(f"Cannot use `indicator=True` option when data contains a column named {label}"
                             if indicator is True else "Cannot use name of an existing column for indicator column")
    return label


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


def join(left: Any, other: Any, on: Any = None, how: str = "left", lsuffix: Any = _NO_DEFAULT, rsuffix: Any = _NO_DEFAULT,
         sort: bool = False, validate: Any = None, suffixes: Any = _NO_DEFAULT) -> Any:
    """DataFrame.join: a merge on the index (or ``on`` columns of the left against the right's index)."""
    if lsuffix is not _NO_DEFAULT or rsuffix is not _NO_DEFAULT:
        if suffixes is not _NO_DEFAULT:
            raise ValueError("Cannot specify both 'suffixes' and 'lsuffix'/'rsuffix'.")
        import warnings

        from gframe.fallback import user_stacklevel

        warnings.warn("The 'lsuffix' and 'rsuffix' keywords in DataFrame.join are deprecated and will be removed in "
                      "a future version. Use the 'suffixes' keyword instead.", pd.errors.Pandas4Warning,
                      stacklevel=user_stacklevel())
        resolved = (lsuffix if lsuffix is not _NO_DEFAULT else "", rsuffix if rsuffix is not _NO_DEFAULT else "")
    else:
        resolved = suffixes if suffixes is not _NO_DEFAULT else ("", "")
    if isinstance(other, (Series, pd.Series)) and other.name is None:
        raise ValueError("Other Series must have a name")
    if isinstance(other, (list, tuple)) or how not in _HOWS:
        if how not in _HOWS:
            raise ValueError(f"'{how}' is not a valid Merge type: left, right, inner, outer, left_anti, right_anti, cross")
        kwargs = dict(on=on, how=how, sort=sort, validate=validate, suffixes=resolved)
        return via_pandas("DataFrame.join", pd.DataFrame.join, (left, other), kwargs, "joining many frames not native")
    if how == "cross":
        return merge(left, other, how=how, on=on, suffixes=resolved, sort=sort, validate=validate)
    return merge(left, other, how=how, left_on=on, left_index=on is None, right_index=True, suffixes=resolved,
                 sort=sort, validate=validate)


def _without_empties(frames: list[Any]) -> list[Any]:
    """pandas leaves out frames with no rows and no columns (``sum(shape) == 0``) when any other frame
    has something: they add nothing, and do not take part in the index name or dtype either."""
    def empty(f: Any) -> bool:
        return not f._plan.schema.columns and len(f) == 0

    kept = [f for f in frames if not empty(f)]
    return kept if kept else frames


def concat(objs: Any, *, axis: Any = 0, join: str = "outer", ignore_index: bool = False, keys: Any = None,
           levels: Any = None, names: Any = None, verify_integrity: bool = False, sort: Any = _NO_DEFAULT,
           copy: Any = None, union_categories: bool = False) -> Any:
    """pandas.concat: rows (``Union``) or columns aligned on the index (``HConcat``); the result
    carries the inputs' ``attrs`` where every input has the same, non-empty ones (pandas'
    ``__finalize__`` for concat)."""
    import copy as _copy
    from collections import abc

    # pandas' checks of the inputs (``_clean_keys_and_objs``), in its order and words
    if isinstance(objs, abc.Mapping):
        objs = dict(objs)
    elif isinstance(objs, (pd.DataFrame, pd.Series, DataFrame, Series)) or pd.api.types.is_scalar(objs):
        raise TypeError("first argument must be an iterable of pandas objects, you passed an object of type "
                        f'"{type(objs).__name__}"')
    else:
        objs = list(objs)
        if not objs:
            raise ValueError("No objects to concatenate")
        if keys is not None and len(list(keys)) != len(objs):
            raise ValueError(f"The length of the keys ({len(list(keys))}) must match the length of the objects to "
                             f"concatenate ({len(objs)})")
        for o in objs:
            if o is not None and not isinstance(o, (pd.DataFrame, pd.Series, DataFrame, Series)):
                raise TypeError(f"cannot concatenate object of type '{type(o)}'; only Series and DataFrame objs are "
                                "valid")
        if all(o is None for o in objs):
            raise ValueError("All objects passed were None")
    out = _concat(objs, axis=axis, join=join, ignore_index=ignore_index, keys=keys, levels=levels, names=names,
                  verify_integrity=verify_integrity, sort=sort, union_categories=union_categories)
    given = [o for o in (objs.values() if isinstance(objs, dict) else objs if isinstance(objs, list) else ())
             if o is not None]
    if given and all(getattr(o, "attrs", None) for o in given) and all(o.attrs == given[0].attrs for o in given[1:]):
        out.attrs = _copy.deepcopy(given[0].attrs)
    return out


def _concat(objs: Any, *, axis: Any, join: str, ignore_index: bool, keys: Any, levels: Any, names: Any,
            verify_integrity: bool, sort: Any, union_categories: bool) -> Any:
    sort_default = sort is _NO_DEFAULT
    sort = False if sort_default else sort
    kwargs = dict(axis=axis, join=join, ignore_index=ignore_index, keys=keys, levels=levels, names=names,
                  verify_integrity=verify_integrity, sort=sort)
    if sort_default:  # pandas' default depends on the indexes (all DatetimeIndex: sorted, deprecated)
        del kwargs["sort"]
    if union_categories:
        kwargs["union_categories"] = union_categories
    if isinstance(objs, dict):
        return via_pandas("concat", pd.concat, (objs,), kwargs, "dict input")
    objs = list(objs)
    if keys is not None:
        if not names and getattr(keys, "names", None) is not None:
            names = list(keys.names)  # pandas: an Index of keys names the new level(s)
            kwargs["names"] = names
        pkeys = keys.to_pandas() if hasattr(keys, "to_pandas") else keys
        if isinstance(pkeys, pd.Index) and (isinstance(pkeys, pd.MultiIndex) or _index_dtype_of_values(pkeys)):
            # keys of a dtype their values do not infer (a CategoricalIndex): the new level keeps it
            return via_pandas("concat", pd.concat, (objs,), {**kwargs, "keys": pkeys}, "keys of their own dtype")
        keys = list(keys)
        if any(isinstance(k, tuple) for k in keys):  # pandas makes a level of each tuple's place
            return via_pandas("concat", pd.concat, (objs,), kwargs, "tuple keys")
        pairs = [(k, o) for k, o in zip(keys, objs) if o is not None]
        keys, objs = [k for k, _ in pairs], [o for _, o in pairs]
    objs = [o for o in objs if o is not None]
    if not objs:
        raise ValueError("No objects to concatenate")
    if join not in ("inner", "outer"):
        raise ValueError("Only can inner (intersect) or outer (union) join the other axis")
    wrapped = [DataFrame._from_pandas(o) if isinstance(o, pd.DataFrame) else Series(o) if isinstance(o, pd.Series) else o
               for o in objs]
    kwargs["keys"] = keys
    if levels is not None or verify_integrity or union_categories or (names is not None and keys is None):
        return via_pandas("concat", pd.concat, (wrapped,), kwargs, "levels/verify_integrity options not native")
    if any(not hasattr(o, "_plan") for o in wrapped):  # a frame of duplicate column labels (``frontend/hostframe.py``)
        return via_pandas("concat", pd.concat, (wrapped,), kwargs, "duplicate column labels")
    if any(f.family.startswith(HOST_PREFIX) for o in wrapped if hasattr(o, "_plan") for f in o._plan.schema.columns):
        # columns held as pickled objects (complex, bytes, Sparse): pandas' concat keeps their dtype
        return via_pandas("concat", pd.concat, (wrapped,), kwargs, "columns held as host objects")
    if axis in (0, "index", "rows"):
        if keys is not None and (ignore_index or len(keys) != len(wrapped)):
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "keys with ignore_index not native")
        if all(isinstance(o, DataFrame) for o in wrapped):
            if keys is None:
                wrapped = _without_empties(wrapped)
            if join == "outer":
                _check_column_levels(wrapped)
            if _categories_differ(wrapped, join):
                return via_pandas("concat", pd.concat, (wrapped,), kwargs,
                                  "categoricals with other categories (pandas: a union or their values)")
            casts = _common_dtype_casts(wrapped, join)
            if casts is None:
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "columns of different kinds (pandas: object)")
            wrapped = [o.astype(c) if c else o for o, c in zip(wrapped, casts)]
            if _mixed_missing_markers(wrapped, join):
                return via_pandas("concat", pd.concat, (wrapped,), kwargs,
                                  "object columns with different missing values (pandas keeps each)")
            plans = [o._plan if ignore_index or o._plan.schema.index is not None else L.RowIndex(o._plan) for o in wrapped]
            if not ignore_index and len({len(p.schema.index or ()) for p in plans}) > 1:
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "index levels differ")
            if not ignore_index and _object_index(plans):
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "index values of different kinds (pandas: object)")
            if len({_column_levels(p.schema) for p in plans if p.schema.columns}) > 1:
                # MultiIndex columns with flat ones: pandas' union of the two (NotImplementedError unless
                # the flat labels are tuples) - its rules, not restated here
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "MultiIndex columns with flat columns")
            labels = _concat_labels([p.schema for p in plans], join, sort)
            if labels is None:
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "column labels not sortable")
            if keys is not None:
                plans = [_with_key_level(p, k, names) for p, k in zip(plans, keys)]
            out = L.Union(ignore_index, *plans)
            if out.schema.labels != labels:
                out = L.Select(tuple((lab, Col(out.schema.field(lab).name)) for lab in labels), out)
            return DataFrame._from_plan(out)
        if all(isinstance(o, Series) for o in wrapped):
            names_ = {o.name for o in wrapped}
            name = wrapped[0].name if len(names_) == 1 else None
            label = "__gf_concat"
            frames = [DataFrame._from_plan(L.Select(((label, o._expr),), o._plan)) for o in wrapped]
            if _common_dtype_casts(frames, join) is None:
                # values of different kinds: pandas' Series concat keeps each (object; a frame's
                # concat of bools and ints would give ints)
                return via_pandas("concat", pd.concat, (wrapped,), kwargs, "values of different kinds (pandas: object)")
            out = concat(frames, ignore_index=ignore_index, keys=keys, names=names)
            return Series._over(out._plan, out[label]._expr, name)
        return via_pandas("concat", pd.concat, (wrapped,), kwargs, "mixed frames and series")
    if axis in (1, "columns"):
        if keys is not None or sort:
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "keys/sort along columns not native")
        frames = []
        unnamed = 0  # pandas numbers the unnamed Series among the inputs 0, 1, ... (frames do not count)
        for o in wrapped:
            if isinstance(o, Series):
                if o.name is None:
                    o, unnamed = o.to_frame(name=unnamed), unnamed + 1
                else:
                    o = o.to_frame(name=o.name)
            frames.append(o)
        labels = [lab for f in frames for lab in f._plan.schema.labels]
        if len(set(labels)) != len(labels) or ignore_index:
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "duplicate column labels")
        if len({len(f._plan.schema.index or ()) for f in frames}) > 1 or any(f._plan.schema.index is None for f in frames) and not all(f._plan.schema.index is None for f in frames):
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "index kinds differ")
        if _object_index([f._plan for f in frames]) or _index_types_differ([f._plan for f in frames]):
            # labels of different kinds (an object index beside datetimes): pandas' union is object
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "index values of different kinds (pandas: object)")
        if sort_default and join == "outer" and len(frames) > 1 and _all_datetime_indexes(frames):
            # pandas 3.1 sorts the union of DatetimeIndexes unless told not to (with a deprecation
            # warning where the order changes): its own default, decided on the labels
            return via_pandas("concat", pd.concat, (wrapped,), kwargs, "default sort of DatetimeIndexes")
        if join == "outer" or len(frames) == 1:
            return DataFrame._from_plan(L.HConcat("concat", *[f._plan for f in frames]))
        # inner: the index labels every frame has, in the first frame's order - the outer alignment
        # with a marker per frame, kept where every marker is present
        marks = [internal_name(f"__gf_present_{i}") for i in range(len(frames))]
        plans = [L.Select(tuple((fl.label, Col(fl.name)) for fl in f._plan.schema.columns) + ((f"__gf_present_{i}", Lit(True)),),
                          f._plan) for i, f in enumerate(frames)]
        both = L.HConcat("concat", *plans)
        pred: Any = Func("notna", (), Col(marks[0]))
        for m in marks[1:]:
            pred = BinOp("and", pred, Func("notna", (), Col(m)))
        kept = L.Filter(pred, both)
        # no row misses a value, so every column keeps its own dtype (the alignment made ints float)
        own = {fl.name: fl.dtype for f in frames for fl in f._plan.schema.columns}
        outputs = []
        for fl in both.schema.columns:
            if fl.name in marks:
                continue
            t = own[fl.name]
            e: Any = Col(fl.name)
            if t is not None and t != fl.dtype:
                e = func("cast", e, dtype=t)
            outputs.append((fl.label, e))
        return DataFrame._from_plan(L.Select(tuple(outputs), kept))
    raise ValueError(f"No axis named {axis} for object type DataFrame")


def _index_types_differ(plans: list[Any]) -> bool:
    """Whether the plans' index levels have types other than one kind (numbers of any width align)."""
    def kind(t: Any) -> Any:
        return "number" if t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t)) else t

    levels = [p.schema.index or () for p in plans]
    return any(len({kind(lv[i].dtype) for lv in levels if lv[i].dtype is not None}) > 1
               for i in range(min(map(len, levels), default=0)))


def _all_datetime_indexes(frames: list[Any]) -> bool:
    """Whether every frame has a one-level datetime index, not all of one plan."""
    idx = [f._plan.schema.index for f in frames]
    return all(i is not None and len(i) == 1 and i[0].dtype is not None and pa.types.is_timestamp(i[0].dtype)
               for i in idx) and not all(f._plan == frames[0]._plan for f in frames)


def _check_column_levels(frames: list[Any]) -> None:
    """pandas unions the frames' column Indexes in turn: MultiIndex columns (labels all tuples) so far,
    then a frame with other labels, is the NotImplementedError of ``MultiIndex.union``."""
    multi: bool | None = None
    for f in frames:
        labels = f._plan.schema.labels
        if not labels:
            continue
        tuples = all(isinstance(lab, tuple) for lab in labels)
        if multi and not tuples:
            raise NotImplementedError("Can only union MultiIndex with MultiIndex or Index of tuples, try "
                                      "mi.to_flat_index().union(other) instead.")
        multi = tuples if multi is None else multi and tuples


def _mixed_merge_markers(outputs: list[tuple[Hashable, str, str]], ls: Any, rs: Any, how: str) -> bool:
    """Whether a merge's column of a side that may miss rows is an object column whose missing value
    is not NaN (``pd.NA``, ``NaT``, ``None``): pandas fills the rows the merge leaves missing with
    NaN beside the column's own (``_mixed_missing_markers`` says the same of a concat), where a
    column's family names one. Those merges go through pandas."""
    miss = {"left": how in ("right", "outer"), "right": how in ("left", "outer")}
    return any(miss.get(side, False) and (ls if side == "left" else rs).family_of(name) in OBJECT_FAMILIES - {OBJECT}
               for _, side, name in outputs)


def _mixed_missing_markers(frames: list[Any], join: str) -> bool:
    """Whether an object column of the appended rows would hold two kinds of missing value: pandas
    keeps each frame's (``pd.NA`` from an ``Int64`` made object beside the NaN of a frame that lacks
    the column), where a column's family names one (``OBJECT_NA``...). Those go through pandas."""
    found: dict[Hashable, set[str | None]] = {}
    for f in frames:
        fams = {fl.label: fl.family for fl in f._plan.schema.columns}
        for lab in set(found) | set(fams):
            found.setdefault(lab, {None} if f is not frames[0] else set()).add(fams.get(lab))
    return any(len(fams) > 1 and fams & (OBJECT_FAMILIES - {OBJECT})
               and (join == "outer" or None not in fams) for fams in found.values())


def _object_index(plans: list[L.Plan]) -> bool:
    """Whether pandas' appended index has a level of ``object`` dtype made from levels of other
    dtypes (strings with ints, timestamps with positions): values of different kinds, which the
    engines' typed columns cannot hold side by side."""
    levels = [p.schema.index or () for p in plans]
    for i in range(len(levels[0])):
        fields = [Field(None, idx[i].dtype, idx[i].family) for idx in levels]
        common = common_pandas_dtype(fields)
        if common is not None and common == np.dtype(object) and not all(field_pandas_dtype(f) == common for f in fields):
            return True
    return False


def _index_dtype_of_values(index: pd.Index) -> bool:
    """Whether ``index`` has a dtype other than the one its values infer."""
    try:
        return str(pd.Index(list(index)).dtype) != str(index.dtype)
    except (TypeError, ValueError):
        return True


def _categories_differ(frames: list[Any], join: str) -> bool:
    """Whether a column is categorical in every frame that has it but the categories (or their
    order, or ``ordered``) are not the same everywhere. pandas then gives a categorical of the
    first's categories (unordered, the same set) or the values in their own dtype (float64 for
    ints with missing values); the engines' categorical columns concatenate only with the same
    categories. The plan's types do not hold the categories: frames of one plan share them, and
    the others' are read from the data (the dtype of the column's first 0 rows: no ``.cat``
    call through pandas, no rows moved)."""
    schemas = [f._plan.schema for f in frames]
    if any(len(set(s.labels)) != len(s.labels) for s in schemas):
        return False
    for lab in _concat_labels(schemas, join, False) or []:
        having = [i for i, s in enumerate(schemas) if s.has(lab)]
        fields = [schemas[i].field(lab) for i in having]
        if len(having) < 2 or not all(f.dtype is not None and pa.types.is_dictionary(f.dtype) for f in fields):
            continue
        if all(frames[i]._plan == frames[having[0]]._plan for i in having):
            continue
        first = None
        for i in having:
            dtype = frames[i][lab].head(0).to_pandas().dtype
            seen = (list(dtype.categories), bool(dtype.ordered))
            if first is None:
                first = seen
            elif seen != first:
                return True
    # categorical index levels likewise (pandas' append of CategoricalIndexes of other categories)
    levels = {len(s.index or ()) for s in schemas}
    if len(levels) == 1 and any(f.dtype is not None and pa.types.is_dictionary(f.dtype)
                                for s in schemas for f in s.index or ()) \
            and not all(f._plan == frames[0]._plan for f in frames):
        seen_levels = []
        for f in frames:
            idx = f.head(0).to_pandas().index
            seen_levels.append([(str(lv.dtype), list(lv.categories) if isinstance(lv.dtype, pd.CategoricalDtype) else None,
                                 bool(getattr(lv.dtype, "ordered", False)))
                                for lv in (idx.levels if isinstance(idx, pd.MultiIndex) else [idx])])
        return any(sl != seen_levels[0] for sl in seen_levels[1:])
    return False


def _common_dtype_casts(frames: list[Any], join: str) -> list[dict[Hashable, Any]] | None:
    """pandas casts each frame's column to the columns' common dtype (``plan/dtypes.common_pandas_dtype``)
    before it concatenates them: the casts per frame, as ``astype`` mappings. None where that dtype
    is ``object`` (columns of different kinds: pandas keeps each value as it is, which the engines'
    typed columns cannot hold)."""
    schemas = [f._plan.schema for f in frames]
    casts: list[dict[Hashable, Any]] = [{} for _ in frames]
    if any(len(set(s.labels)) != len(s.labels) for s in schemas):
        return casts  # duplicate labels: pandas pairs them by position; left to the Union's own rule
    labels = _concat_labels(schemas, join, False) or []
    for lab in labels:
        having = [(i, s.field(lab)) for i, s in enumerate(schemas) if s.has(lab)]
        if len(having) < 2:
            continue
        if any(f.dtype is None for _, f in having) and any(
                f.dtype is not None and not (f.family == NUMPY and (pa.types.is_integer(f.dtype) or pa.types.is_floating(f.dtype)
                                                                    or pa.types.is_boolean(f.dtype))) for _, f in having):
            # a type the data decides (numbers mostly: an int clipped to a fraction is int64 or
            # float64) beside times, strings, objects...: pandas' common dtype may be object, which
            # only the data can say (the engines' relaxed concat made ints of the times)
            return None
        common = common_pandas_dtype([f for _, f in having])
        if common is None:
            continue
        if common == np.dtype(object):
            if all(field_pandas_dtype(f) == common for _, f in having):
                continue  # object columns alike: the Union's own rule
            return None
        for i, f in having:
            if f.dtype is not None and pa.types.is_dictionary(f.dtype) or field_pandas_dtype(f) != common:
                casts[i][lab] = common
    return casts


def _concat_labels(schemas: list[Any], join: str, sort: bool) -> list[Hashable] | None:
    """The column labels of a row-wise concat: the union (or intersection) in first-seen order,
    sorted with ``sort`` (pandas 3 sorts frames whose columns are already aligned too)."""
    seen: list[Hashable] = []
    for s in schemas:
        for lab in s.labels:
            if lab not in seen:
                seen.append(lab)
    if join == "inner":
        seen = [lab for lab in seen if all(s.has(lab) for s in schemas)]
    if sort:
        try:
            seen = sorted(seen)
        except TypeError:
            # labels that do not compare: pandas keeps frames' aligned columns as they are (its
            # ``safe_sort_index``); a union of others is pandas' to order
            return seen if all(s.labels == schemas[0].labels for s in schemas) else None
    return seen


def _with_key_level(plan: L.Plan, key: Hashable, names: Any) -> L.Plan:
    """concat(keys=...): ``key`` as a new outermost index level of ``plan``."""
    s = plan.schema
    idx = s.index or ()
    tmp = [f"__gf_level_{i}" for i in range(len(idx))]
    cols = tuple((f.label, Col(f.name)) for f in s.columns)
    out: L.Plan = L.ResetIndex(False, tuple(tmp), plan)
    out = L.Select(cols + tuple((t, Col(internal_name(t))) for t in tmp) + (("__gf_key", Lit(key)),), out)
    out = L.SetIndex(tuple(internal_name(t) for t in ["__gf_key", *tmp]), True, False, False, out)
    labels = [None] + [f.label for f in idx]
    if names is not None:
        given = list(names)
        labels = [given[i] if i < len(given) else lab for i, lab in enumerate(labels)]
    return L.RenameIndex(tuple(labels), out)


# ------------------------------------------------------------------------------- index <-> columns

def index_levels(schema: Any, level: Any) -> list[int]:
    """Positions of the index levels ``level`` names (labels or positions), with pandas' errors."""
    idx = schema.index or (L.IndexField(None, None, 0),)
    out = []
    for lv in (list(level) if isinstance(level, (list, tuple)) else [level]):
        match = [f.level for f in idx if f.label == lv and f.label is not None]
        if match:
            out.append(match[0])
        elif isinstance(lv, (int, np.integer)) and not isinstance(lv, bool):
            n = len(idx)
            if lv < 0:
                lv += n
            if not 0 <= lv < n:
                raise IndexError(f"Too many levels: Index has only {n} level{'s' if n > 1 else ''}, not {lv + 1}"
                                 if lv >= n else f"Too many levels: Index has only {n} levels, {lv - n} is not a valid level number")
            out.append(int(lv))
        else:
            raise KeyError(f"Level {lv} not found" if len(idx) > 1 else f"Requested level ({lv}) does not match index name "
                           f"({idx[0].label})")
    return sorted(set(out))


def reset_index(df: Any, level: Any, drop: bool, names: Any, labels: tuple[Hashable, ...]) -> Any:
    """DataFrame.reset_index: ``labels`` are pandas' default column labels of every index level."""
    schema = df._plan.schema
    n = len(schema.index or ()) or 1
    moved = list(range(n)) if level is None else index_levels(schema, level)
    if names is not None and not drop:
        # pandas: one name per index level (the moved levels take theirs)
        if not isinstance(names, (str, int, list, tuple)):
            raise ValueError("Index names must be str or 1-dimensional list")
        new = [names] if isinstance(names, (str, int)) else list(names)
        labels = tuple(new[i] if i in moved else labels[i] for i in range(n))
    if not drop:
        for i in moved:
            if schema.has(labels[i]):
                raise ValueError(f"cannot insert {labels[i]}, already exists")
    if len(moved) == n:
        return type(df)._from_plan(L.ResetIndex(drop, tuple(labels), df._plan))
    # some levels only: all of them out (the kept ones under placeholder labels), the kept ones back in
    kept = [i for i in range(n) if i not in moved]
    tmp = {i: f"__gf_level_{i}" for i in kept}
    plan: L.Plan = L.ResetIndex(False, tuple(tmp.get(i, labels[i]) for i in range(n)), df._plan)
    plan = L.SetIndex(tuple(internal_name(tmp[i]) for i in kept), True, False, False, plan)
    plan = L.RenameIndex(tuple(schema.index[i].label for i in kept), plan)  # type: ignore[index]
    if drop:
        plan = L.Select(tuple((f.label, Col(f.name)) for f in schema.columns), plan)
    return type(df)._from_plan(plan)


def rename_axis(df: Any, value: Any) -> Any:
    """DataFrame.rename_axis(names): new index level names (a named default index keeps its positions)."""
    plan = df._plan if df._plan.schema.index is not None else _positions(df._plan)
    labels = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(labels) != len(plan.schema.index):
        raise ValueError("Length of names must match number of levels in MultiIndex.")
    return type(df)._from_plan(L.RenameIndex(tuple(labels), plan))


def reindex_series(s: Any, labels: Any, fill_value: Any) -> Any:
    """``Series.reindex(labels, fill_value=...)`` natively: the labels (host, pandas' Index of them)
    left-joined to the Series on its one-level index; None where pandas decides (duplicate labels:
    its ValueError; a MultiIndex, labels of another dtype, object labels; a fill value the column's
    dtype holds otherwise than the engines' ``where``).

    pandas keeps the Series' index name on the new labels, fills only the labels it did not find
    (``fill_value``; NaN by default: ints become float64 where a label is missing, bools object),
    and matches NaN labels with NaN."""
    from gframe.frontend.index import Index
    from gframe.plan.dtypes import holds, is_python_number

    target = labels.to_pandas() if isinstance(labels, (Index, Series)) else labels
    try:
        target = pd.Index(target) if not isinstance(target, pd.Index) else target
    except (TypeError, ValueError):
        return None
    index = s.index.to_pandas()
    if isinstance(target, pd.MultiIndex) or isinstance(index, pd.MultiIndex) or target.dtype != index.dtype \
            or target.dtype == object or isinstance(target.dtype, pd.CategoricalDtype) or not index.is_unique:
        return None
    t = s._dtype_arrow
    fill_missing = fill_value is None or is_scalar(fill_value) and not isinstance(fill_value, str) and pd.isna(fill_value)
    if not fill_missing and not (t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t))
                                 and s._family not in OBJECT_FAMILIES and is_python_number(fill_value)
                                 and holds(t, fill_value)):
        return None
    frame = s._frame()
    rp = frame._plan if frame._plan.schema.index is not None else L.RowIndex(frame._plan)
    lp = DataFrame(index=target.rename(index.name))._plan
    rs = rp.schema
    if lp.schema.index is None or len(lp.schema.index) != 1 or not _keys_native(lp.schema, rs, lp.schema.index_names,
                                                                                 rs.index_names):
        return None
    value = rs.columns[0]
    mark = "__gf_reindex_found"
    rp = L.Select(((value.label, Col(value.name)), (mark, Lit(True))), rp)
    names = (internal_name(value.label), internal_name(mark))
    outputs = ((value.label, "right", names[0]), (mark, "right", names[1]))
    plan = L.Join("left", tuple(lp.schema.index_names), tuple(rp.schema.index_names), outputs, "left", False, lp, rp)
    expr: Any = Col(names[0])
    if not fill_missing:
        expr = func("where", expr, func("notna", Col(names[1])), Lit(scalar_value(fill_value)))
        if pa.types.is_integer(t):  # every missing row filled with a value the ints hold: their dtype
            expr = func("cast", expr, dtype=t)
    return Series._over(plan, expr, s.name)



_FILL_METHODS = {"pad": "pad", "ffill": "pad", "backfill": "backfill", "bfill": "backfill", "nearest": "nearest"}


def reindex_filled(obj: Any, target: Any, method: Any, limit: Any) -> Any:
    """``obj.reindex(target, method=..., limit=...)`` natively - a Series or a DataFrame on one
    index level of timestamps or numbers, unique and increasing, targets of its dtype without
    missing labels - or None where pandas decides (its ValueError for an index that is not
    monotonic, not unique; other dtypes; a MultiIndex).

    pandas' ``get_indexer(method=...)``: ``pad`` takes the last label at or before each target,
    ``backfill`` the first at or after, ``nearest`` the closer of the two, the later on a tie, and
    the one there is where a side has none (``Index._get_nearest_indexer``). ``limit`` counts, for
    each source label, the targets it fills without matching exactly, the nearest first
    (``pandas._libs.algos.pad``). As engine operations: the source labels and the targets in one
    column, sorted (a source before an equal target) and numbered; each row's last / next source
    label and row number are forward / backward fills over the source rows; a target's rank among
    the targets a source fills is its distance in rows from that source (from the last row of the
    source's label, exact targets included, on the left). The targets then take the rows of their
    source label (a join), in the target's order, on the target labels (their name the index's)."""
    how = _FILL_METHODS.get(method) if isinstance(method, str) else None
    if how is None or not (limit is None or isinstance(limit, int) and not isinstance(limit, bool) and limit > 0):
        return None
    series = isinstance(obj, Series)
    frame = obj._frame() if series else obj
    schema = frame._plan.schema
    named = hasattr(target, "name")  # pandas keeps an Index's own name, else the index's
    try:
        target = target.to_pandas() if hasattr(target, "to_pandas") else pd.Index(target)
    except (TypeError, ValueError):
        return None
    if schema.index is None or len(schema.index) != 1 or not isinstance(target, pd.Index) \
            or isinstance(target, pd.MultiIndex):
        return None
    t = schema.index[0].dtype
    if t is None or not (pa.types.is_timestamp(t) or pa.types.is_integer(t) or pa.types.is_floating(t)):
        return None
    index = obj.index.to_pandas()
    if not index.is_unique or not index.is_monotonic_increasing or index.hasnans or target.hasnans \
            or limit is not None and not target.is_monotonic_increasing:  # (pandas' ValueErrors)
        return None
    ix = schema.index_names[0]
    key: Any = Col(ix)
    labels: Any = target
    if pa.types.is_timestamp(t):
        # timestamps compare as their int64 values (instants, for zones: pandas compares a target in
        # another zone by instant, and keeps the target's zone on the result)
        aware = isinstance(index.dtype, pd.DatetimeTZDtype)
        if not isinstance(target, pd.DatetimeIndex) or aware != isinstance(target.dtype, pd.DatetimeTZDtype):
            return None
        same_unit = target.as_unit(t.unit)  # (pandas compares across units; the target keeps its own)
        if not same_unit.equals(target):
            return None
        key, labels = func("cast", Col(ix), dtype=pa.int64()), same_unit.asi8
    elif target.dtype != index.dtype:
        return None
    k, sk, tp, r, c, pe = "k", "src", "t", "r", "c", "pe"  # (labels of these plans only)
    n = len(target)
    host = pd.DataFrame({k: labels, tp: np.arange(n, dtype=np.int64)}, index=target if named else target.rename(index.name))
    lp = DataFrame._from_pandas(host, "reindex targets")._plan  # (host input: the labels given)
    src = L.ResetIndex(True, (), L.Select(((k, key), (sk, key), (tp, Lit(-1))), frame._plan))
    tgt = L.ResetIndex(True, (), L.Select(((k, Col(lp.schema.field(k).name)), (tp, Col(lp.schema.field(tp).name))), lp))
    u = L.RowIndex(L.Sort((k, tp), (False, False), True, L.Union(True, src, tgt)))
    row = u.schema.index_names[0]

    def window(outputs: list[tuple[str, Any]], child: L.Plan) -> L.Plan:
        """Forward / backward fills over all rows, in their order (one group of a constant key)."""
        keyed = L.Select(tuple((f.label, Col(f.name)) for f in child.schema.columns) + ((c, Lit(0)),), child)
        return L.GroupWindow((c,), tuple((label, Agg(fn, (("limit", None),), e)) for label, fn, e in outputs),
                             False, keyed)

    sr = func("where", Col(row), BinOp("lt", Col(tp), Lit(0)), Lit(None))
    w1 = window([(k, "ffill", Col(k)), (tp, "ffill", Col(tp)), (r, "ffill", Col(row)),
                 ("pk", "ffill", Col(sk)), ("bk", "bfill", Col(sk)), ("br", "bfill", sr)],
                u)
    exact = BinOp("and", BinOp("ge", Col(tp), Lit(0)), func("fillna", BinOp("eq", Col(k), Col("pk")), Lit(False)))
    marked = L.Select(tuple((f.label, Col(f.name)) for f in w1.schema.columns) + (("ex", exact),), w1)
    er = func("where", Col(r), BinOp("or", BinOp("lt", Col(tp), Lit(0)), Col("ex")), Lit(None))
    # (the columns carried through: a fill leaves a column as it is where its only gaps are at the
    # end it fills from - the next source's label and row miss after the last source)
    w2 = window([(f.label, "bfill" if f.label in ("bk", "br") else "ffill", Col(f.name))
                 for f in marked.schema.columns] + [(pe, "ffill", er)], marked)
    targets = L.Filter(BinOp("ge", Col(tp), Lit(0)), w2)
    has_left = func("notna", Col("pk"))
    has_right = func("notna", Col("bk"))
    if limit is not None:
        has_left = BinOp("and", has_left, func("fillna", BinOp("le", BinOp("sub", Col(r), Col(pe)), Lit(limit)),
                                                Lit(False)))
        has_right = BinOp("and", has_right, func("fillna", BinOp("le", BinOp("sub", Col("br"), Col(r)),
                                                                 Lit(limit)), Lit(False)))
    left_ok = BinOp("or", Col("ex"), has_left)
    right_ok = BinOp("or", Col("ex"), has_right)
    right = func("where", Col(k), Col("ex"), Col("bk"))
    if how == "pad":
        chosen = func("where", Col("pk"), left_ok, Lit(None))
    elif how == "backfill":
        chosen = func("where", right, right_ok, Lit(None))
    else:
        closer = func("fillna", BinOp("lt", BinOp("sub", Col(k), Col("pk")), BinOp("sub", right, Col(k))), Lit(False))
        use_left = BinOp("and", left_ok, BinOp("or", func("invert", right_ok), closer))
        chosen = func("where", Col("pk"), use_left, func("where", right, right_ok, Lit(None)))
    picks = L.Select(((tp, Col(tp)), ("chosen", chosen)), targets)
    ltp = lp.schema.field(tp).name
    order = L.Join("left", (ltp,), (picks.schema.field(tp).name,),
                   ((tp, "left", ltp), ("chosen", "right", picks.schema.field("chosen").name)), "left", False,
                   lp, picks)
    values = L.Select(tuple((f.label, Col(f.name)) for f in schema.columns) + ((k, key),), frame._plan)
    outputs = tuple((f.label, "right", f.name) for f in schema.columns)
    plan = L.Join("left", (order.schema.field("chosen").name,), (values.schema.columns[-1].name,), outputs, "left",
                  False, order, values)
    return Series._from_frame_plan(plan) if series else DataFrame._from_plan(plan)
