"""GroupBy: ``df.groupby(keys)`` builds an ``Aggregate`` plan node; nothing runs until needed.

Native: column keys (one or many), index levels, keys given as values (arrays, lists, an Index, a
Series aligned on the index, a function's or dict's labels: hidden key columns) and
``pd.Grouper(key=...)``; ``as_index``, ``sort``, ``dropna``, ``observed``; ``agg`` with a name (the
method of that name), a list, a dict or named aggregations, the aggregation methods, ``size``,
``head(n)``, ``transform`` of a name (pandas' kernel lists), ``cumcount`` / ``ngroup``, running
``cum*``, ``rank``, ``shift`` / ``ffill`` / ``bfill``, ``groups`` and ``SeriesGroupBy.value_counts``
where the types allow. A dtype pandas refuses an operation for raises pandas' exception natively
(``_REFUSALS``). Anything else (apply of most functions, rolling...) runs through pandas on the
same grouping.
"""
from __future__ import annotations

import warnings
from typing import Any, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas._libs import lib
from gframe.frontend.bridge import _is_method as _is_pandas_method, as_pandas, from_pandas_result, full_signatures, pandas_private, pandas_private_method, via_pandas
from gframe.frontend.frame import DataFrame, _positions
from gframe.frontend.series import Series
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import (MASKED, NUMPY, OBJECT_FAMILIES, OBJECT_STRING, PYOBJECT, arrow_reduction_native,
                                is_numeric_for_pandas, is_string, pandas_dtype)
from gframe.fallback import user_stacklevel
from gframe.udf import groupby_apply
from pandas.core.groupby import base as _pandas_groupby_kernels  # pandas' kernel lists: the spec of transform(name)

_NUMERIC_ONLY = {"mean", "std", "var", "median", "prod"}


def _time_moment(t: Any, fn: str) -> bool:
    """A group aggregation of times that pandas computes by its own rules (a timestamp's std is a
    timedelta, its sum / product / var raise; a timedelta's std is a timedelta truncated to its
    unit, NaT for a group of one, its product / var raise): pandas' answer, through the fallback
    (Polars has no std of a duration: seed 862963 raised in the CPU engine); a timestamp's any / all
    is pandas' TypeError."""
    return pa.types.is_timestamp(t) and fn in ("sum", "prod", "std", "var", "any", "all") \
        or pa.types.is_duration(t) and fn in ("sum", "prod", "std", "var", "any", "all")
_ALIASES = {"size": "size", "count": "count", "nunique": "nunique", "first": "first", "last": "last",
            "sum": "sum", "mean": "mean", "min": "min", "max": "max", "std": "std", "var": "var",
            "median": "median", "prod": "prod", "any": "any", "all": "all"}


# what pandas gives an empty group (observed=False); the other aggregations give a missing value
_EMPTY_GROUP = {"size": 0, "count": 0, "nunique": 0, "sum": 0, "prod": 1, "any": False, "all": True}


# pandas' refusals of a group operation for a column's dtype (its ``_groupby_op`` checks, which run
# before any data is looked at, so the message depends on the dtype only): raised natively, where
# the fallback would only have asked pandas to raise them. Rows: (kind, ops, exception, message
# template; ``{fn}`` the operation, ``{dtype}`` the column's dtype as pandas writes it); a kind a
# method has per class (SeriesGroupBy "S", DataFrameGroupBy "F") is marked so.
_STR_OPS = frozenset({"prod", "mean", "median", "cumsum", "cumprod", "std", "sem", "var", "skew", "kurt", "quantile"})
_CAT_OPS = frozenset({"cummax", "cummin", "cumprod", "cumsum", "prod", "skew", "kurt", "sum"})
_CAT_AGG = frozenset({"mean", "median", "sem", "std", "var"})
_REFUSALS: tuple[tuple[str, frozenset[str], type, str], ...] = (
    ("str", _STR_OPS, TypeError, "dtype '{dtype}' does not support operation '{fn}'"),
    ("str S", frozenset({"cummin", "cummax"}), TypeError, "{fn} is not supported for {dtype} dtype"),
    ("str F", frozenset({"cummin", "cummax"}), NotImplementedError,
     "function is not implemented for this dtype: [how->{fn},dtype->object]"),
    ("str pyarrow", frozenset({"diff"}), TypeError, "operation 'sub' not supported for dtype '{dtype}' with dtype '{dtype}'"),
    ("str pyarrow", frozenset({"pct_change"}), TypeError,
     "operation 'truediv' not supported for dtype '{dtype}' with dtype '{dtype}'"),
    ("datetime", frozenset({"sum", "prod", "cumsum", "cumprod", "var", "skew", "kurt"}), TypeError,
     "datetime64 type does not support operation '{fn}'"),
    ("datetime", frozenset({"any", "all"}), TypeError,
     "'{fn}' with datetime64 dtypes is not supported. Use (obj != pd.Timestamp(0)).{fn}() instead."),
    ("datetime", frozenset({"pct_change"}), TypeError, "cannot perform __truediv__ with this index type: DatetimeArray"),
    ("timedelta", frozenset({"prod", "cumprod", "var", "skew", "kurt"}), TypeError,
     "timedelta64 type does not support {fn} operations"),
    ("category", _CAT_OPS, TypeError, "category type does not support {fn} operations"),
    ("category", _CAT_AGG, TypeError, "category dtype does not support aggregation '{fn}'"),
    ("category", frozenset({"diff"}), TypeError, "unsupported operand type(s) for -: 'Categorical' and 'Categorical'"),
    ("category", frozenset({"pct_change"}), TypeError, "unsupported operand type(s) for /: 'Categorical' and 'Categorical'"),
    ("category", frozenset({"quantile"}), TypeError, "No matching signature found"),
    ("unordered", frozenset({"min", "max", "rank"}), TypeError,
     "Cannot perform {fn} with non-ordered Categorical"),
)


def _dtype_kinds(f: Any, frame_groupby: bool) -> tuple[set[str], str] | None:
    """The ``_REFUSALS`` kinds of a column, and its dtype as pandas writes it (None: no refusal
    known for it - Arrow-backed and object columns, whose messages name their values)."""
    t = f.dtype
    if t is None:
        return None
    if pa.types.is_dictionary(t):
        return ({"category"} if t.ordered else {"category", "unordered"}), "category"
    if f.family != NUMPY and not (is_string(t) and f.family in (MASKED,)):
        return None
    if is_string(t):
        if t == OBJECT_STRING:
            return None
        dtype = pandas_dtype(t, family=f.family)
        kinds = {"str", "str F" if frame_groupby else "str S"}
        if getattr(dtype, "storage", None) == "pyarrow":
            kinds.add("str pyarrow")
        return kinds, str(dtype)
    if pa.types.is_timestamp(t):
        return {"datetime"}, "datetime64"
    if pa.types.is_duration(t):
        return {"timedelta"}, "timedelta64"
    return None


def _refusal(fn: str, fields: list[Any], frame_groupby: bool) -> Exception | None:
    """pandas' exception for ``fn`` over these value columns, where one column's dtype refuses it
    and every refusing column gives the same one (else None: pandas' own order decides)."""
    found = set()
    for f in fields:
        got = _dtype_kinds(f, frame_groupby)
        if got is None:
            continue
        kinds, dtype = got
        for kind, ops, exc, msg in _REFUSALS:
            if kind in kinds and fn in ops:
                found.add((exc, msg.format(fn=fn, dtype=dtype)))
                break
    if len(found) != 1:
        return None
    exc, msg = found.pop()
    return exc(msg)


def _truth_of_strings(f: Any) -> bool:
    """Whether a strings column's any / all is native: ``str`` columns (pandas reads
    a string as true where not empty, missing values skipped); Python objects and the nullable
    ``string`` (whose truth pandas computes as ``boolean``, then gives ``bool``) are pandas'."""
    return f.family == NUMPY and f.dtype != OBJECT_STRING


def _categorical_native(fn: str, f: Any) -> bool:
    """Whether a group aggregation of a categorical column is native: counted, or picked (first /
    last, min / max in the categories' order where ordered - pandas refuses the unordered) with
    the categories kept."""
    v = f.dtype.value_type
    plain = is_string(v) or pa.types.is_integer(v) or pa.types.is_floating(v) or pa.types.is_timestamp(v)
    return f.family == NUMPY and plain and (fn in ("count", "nunique", "first", "last", "size")
                                            or (fn in ("min", "max") and f.dtype.ordered))


def _agg_child(fn: str, f: Any, per_column: bool = False) -> Expr:
    """The expression a group aggregation reads: the column; for any / all of strings their truth
    (not empty; missing stays missing, which the aggregation skips); for a SeriesGroupBy's
    (``per_column``) min / max of an object column of strings, ``str``: pandas computes it by its
    Python fallback over ``Series(values)``, which infers ``str`` from the strings (pandas 3; a
    frame's blocks stay object, and an object column with no string at all stays object there)."""
    if fn in ("any", "all") and is_string(f.dtype):
        # (a missing value decides nothing: numpy's comparisons of a missing value, False for
        # ``>`` and True for ``!=``, leave it out of any and of all)
        return BinOp("gt" if fn == "any" else "ne", Func("str.len", (), Col(f.name)), Lit(0, pa.int64()))
    if per_column and fn in ("min", "max") and f.family in OBJECT_FAMILIES and is_string(f.dtype):
        return Func("cast", (("dtype", f.dtype),), Col(f.name))
    return Col(f.name)


def _plain_key_dtype(dt: Any) -> bool:
    """Whether values of this pandas dtype (a categorical's: its categories') are keys the engines
    group by as pandas does: numbers, bools, times, strings; Python objects (pandas hashes and
    orders them), intervals and periods (pandas' own types) are not."""
    if isinstance(dt, pd.CategoricalDtype):
        dt = dt.categories.dtype
    if isinstance(dt, pd.StringDtype):
        return True
    return isinstance(dt, (np.dtype, pd.DatetimeTZDtype)) and dt.kind != "O"


class _ValueKey:
    """A key given as values, held as the hidden column ``name`` of the grouped frame; ``label``
    names it in the result (pandas' name of the key)."""

    def __init__(self, name: str, label: Hashable) -> None:
        self.name = name
        self.label = label


def _is_function_key(k: Any) -> bool:
    return callable(k) and not isinstance(k, (pd.Series, pd.Index, pd.Grouper)) and not hasattr(k, "_expr") \
        and not hasattr(k, "to_pandas")


def _agg_name(fn: Any) -> str | None:
    if isinstance(fn, str):
        return _ALIASES.get(fn)

    import numpy as np

    # (Python's sum / min / max: pandas 3 calls them on each group as they are - a NaN propagates -
    # so they are pandas', not the skipping reductions)
    table = {np.sum: "sum", np.mean: "mean", np.min: "min", np.max: "max", len: "size"}
    try:
        return table.get(fn)
    except TypeError:  # (unhashable: a NamedAgg of a list, a list - pandas says what it takes)
        return None


class _GroupBy:
    def __init__(self, obj: Any, by: Any, *, level: Any = None, as_index: bool = True, sort: bool = True,
                 observed: bool = True, dropna: bool = True, group_keys: bool = True, selection: Any = None) -> None:
        self._obj = obj
        self._by = by
        self._keys_given = by  # (``_by`` may become the labels a function key gave)
        self._level = level
        self._as_index = as_index
        self._sort = sort
        self._given = (sort, dropna)  # (as given: a ``pd.Grouper`` key's own sort / dropna may rule the result)
        self._observed = observed
        self._dropna = dropna
        self._group_keys = group_keys
        self._selection = selection
        self._native_keys = self._resolve_keys()

    # pandas' public attributes of a group-by (kept by column selection)
    as_index = property(lambda self: self._as_index)
    sort = property(lambda self: self._given[0])
    group_keys = property(lambda self: self._group_keys)
    observed = property(lambda self: self._observed)
    dropna = property(lambda self: self._given[1])
    level = property(lambda self: self._level)
    keys = property(lambda self: self._keys_given)
    # (a selected column's group-by holds that Series, a list selection the whole frame: pandas' ``obj``)
    obj = property(lambda self: self._obj[self._selection] if isinstance(self, SeriesGroupBy)
                   and self._selection is not None else self._obj)

    # which keys, as internal names + labels, or None when the grouping is not native
    def _resolve_keys(self) -> tuple[tuple[str, ...], tuple[Hashable, ...]] | None:
        frame = self._frame
        schema = frame._plan.schema
        if self._level is not None:
            if self._by is not None or schema.index is None:
                return None
            levels = self._level if isinstance(self._level, list) else [self._level]
            names, labels = [], []
            for lv in levels:
                match = [f for f in schema.index if f.level == lv or (f.label == lv and f.label is not None)] if not isinstance(lv, bool) else []
                if not match:
                    return None
                names.append(match[0].name)
                labels.append(match[0].label)
            return self._check_observed(tuple(names), tuple(labels))
        keys = self._by if isinstance(self._by, list) else [self._by]
        if self._by is None:
            raise TypeError("You have to supply one of 'by' and 'level'")
        if isinstance(self._obj, DataFrame) and any(self._own_column(k) is not None for k in keys):
            # ``df.groupby(df["a"])``: pandas sees its own column (``is_in_obj``) and groups by the
            # label, leaving the column out of the result
            keys = [k if self._own_column(k) is None else self._own_column(k) for k in keys]
            self._by = keys if isinstance(self._by, list) else keys[0]
        if any(_is_function_key(k) or isinstance(k, dict) for k in keys):
            # a function of the index labels (a dict: its ``get``): pandas calls it on each label when
            # the group-by is made (its errors raise there); the labels it gives are the key (named
            # as the index)
            labels = self._frame.index.to_pandas()
            keys = [labels.map(k.get if isinstance(k, dict) else k) if _is_function_key(k) or isinstance(k, dict) else k
                    for k in keys]
            self._by = keys if isinstance(self._by, list) else keys[0]
        if isinstance(self._by, list) and len(self._by) == len(frame) and len(keys) > 0 \
                and not any(pd.api.types.is_list_like(k) or isinstance(k, pd.Grouper) for k in keys) \
                and not all(schema.has(k) or (schema.index is not None and any(f.label == k for f in schema.index))
                            for k in keys):
            # pandas' "index replacement": a list of scalars as long as the rows, not all of them
            # labels, is one key of values (``df.groupby(len(df) * [ts])``); numbers and bools here
            # (others: pandas infers the array's type)
            arr = np.asarray(keys)
            if arr.dtype.kind not in "iufb":
                return None
            keys = [arr]
        if isinstance(self._obj, Series) and any(not pd.api.types.is_list_like(k) for k in keys):
            return None  # (a Series grouped by labels: its index levels, pandas')
        values = [k for k in keys if pd.api.types.is_list_like(k) and not isinstance(k, (tuple, pd.Grouper))]
        if values:
            keyed = self._value_keys(frame, keys)
            if keyed is None:
                return None
            self._keyed = keyed
            frame, keys = keyed
            schema = frame._plan.schema
        names, labels = [], []
        for k in keys:
            if isinstance(k, _ValueKey):
                names.append(k.name)
                labels.append(k.label)
                continue
            if isinstance(k, (list, tuple, dict)) or callable(k) or hasattr(k, "_expr") or isinstance(k, pd.Series) \
                    or pd.api.types.is_list_like(k):
                return None
            if isinstance(k, pd.Grouper):
                return self._grouper_keys(k, keys)
            if not schema.has(k):
                if schema.index is not None and any(f.label == k for f in schema.index):
                    f = next(f for f in schema.index if f.label == k)
                    names.append(f.name)
                    labels.append(k)
                    continue
                if isinstance(self._by, list) and len(self._by) == len(frame):
                    # pandas' "index replacement": a list of scalars as long as the rows, not all of
                    # them labels, is one key of values (``df.groupby(len(df) * [ts])``)
                    return None
                raise KeyError(k)
            if isinstance(self._obj, DataFrame) and schema.index is not None \
                    and any(f.label is not None and f.label == k for f in schema.index):
                # pandas' ``_check_label_or_level_ambiguity``: a key naming a column and an index level
                raise ValueError(f"'{k}' is both an index level and a column label, which is ambiguous.")
            f = schema.field(k)
            names.append(f.name)
            labels.append(k)
        return self._check_observed(tuple(names), tuple(labels))

    def _value_keys(self, frame: Any, keys: list[Any]) -> tuple[Any, list[Any]] | None:
        """Keys given as values (an array, a list, an Index, a Series - aligned on the index as
        pandas' ``reindex`` - or the labels a function / dict gave) become hidden columns of the
        grouped frame, named as pandas names the key (a Series' or Index's name, else None); None
        where pandas' own grouping decides (its length check, ``as_index=False``, no rows)."""
        from gframe.frontend.frame import _align_expr

        if not self._as_index:
            return None  # (pandas leaves a key that is no column out of the frame, or not)
        sch = frame._plan.schema
        if sch.columns_name is not None or sch.columns_dtype is not None or sch.empty_columns_dtype is not None \
                or any(isinstance(k, pd.MultiIndex) or getattr(k, "freq", None) is not None for k in keys):
            # (a named or typed column Index, a MultiIndex key - tuples - or a key with a freq,
            # which pandas' result index keeps: pandas')
            return None
        n = len(frame)
        if n == 0:
            return None
        idx = frame.index.to_pandas() if frame._plan.schema.index is not None else None
        plan = frame._plan
        out_keys: list[Any] = []
        for i, k in enumerate(keys):
            if not pd.api.types.is_list_like(k) or isinstance(k, (tuple, pd.Grouper)):
                out_keys.append(k)
                continue
            if isinstance(k, dict):
                return None
            hidden = f"__gf_groupby_key_{i}"
            if isinstance(k, pd.Series) or (hasattr(k, "_expr") and isinstance(k, Series)):
                if not _plain_key_dtype(k.dtype):
                    return None
                ser = k if isinstance(k, Series) else Series(k)
                label = k.name
                al = _align_expr(plan, ser)
                if al is None:
                    return None
                plan, expr = al
            else:
                if hasattr(k, "to_pandas"):
                    k = k.to_pandas()
                if isinstance(k, pd.DataFrame) or getattr(k, "ndim", 1) != 1 or len(k) != n:
                    return None  # (pandas' ValueError: "Grouper and axis must be same length")
                label = k.name if isinstance(k, pd.Index) else None
                # (a list: pandas' ``asarray_tuplesafe``, whose type the Index infers)
                arr = pd.Series(pd.Index(k) if isinstance(k, list) else k, index=idx)
                if not _plain_key_dtype(arr.dtype):
                    return None
                al = _align_expr(plan, Series(arr))
                if al is None:
                    return None
                plan, expr = al
            # the aligned plan keeps the frame's columns first; the key rides along, hidden
            outputs = [(f.label, Col(f.name)) for f in plan.schema.columns
                       if not (isinstance(f.label, str) and f.label.startswith("__gf_aligned"))]
            outputs.append((hidden, expr))
            plan = L.Select(tuple(outputs), plan)
            out_keys.append(_ValueKey(plan.schema.field(hidden).name, label))
        return DataFrame._from_plan(plan), out_keys

    def _own_column(self, k: Any) -> Hashable | None:
        """The label of the grouped frame's column that ``k`` is (a gframe Series ``df[label]`` of
        this frame, under its own name), or None."""
        if not isinstance(k, Series) or k._plan is not self._obj._plan or not isinstance(k._expr, Col):
            return None
        schema = self._obj._plan.schema
        try:
            f = schema.field(k.name)
        except (KeyError, TypeError):
            return None
        return f.label if f.name == k._expr.name else None

    def _grouper_keys(self, grouper: Any, keys: list[Any]) -> Any:
        """``pd.Grouper(key=..., freq=...)`` as the only key: the timestamps' bins (``resample.py``)
        become a key column; any other Grouper goes to pandas."""
        from gframe.frontend.resample import grouper_bins

        if len(keys) != 1 or self._level is not None:
            return None
        if grouper.key is not None and getattr(grouper, "freq", None) is None and grouper.level is None \
                and type(grouper) is pd.Grouper:
            # ``pd.Grouper(key="a")``: the column, in the Grouper's own order and missing-key rule
            # (pandas takes its ``sort`` - False unless given - and ``dropna``, not the group-by's;
            # a Grouper that sorts sorts the rows too, transforms included: pandas')
            schema = self._frame._plan.schema
            if not schema.has(grouper.key) or grouper.sort:
                return None
            self._sort, self._dropna = False, bool(grouper.dropna)
            f = schema.field(grouper.key)
            return self._check_observed((f.name,), (grouper.key,))
        if not self._as_index:
            return None
        binned = grouper_bins(self._frame, grouper)
        if binned is None:
            return None
        self._binned = binned
        return (binned.key,), (binned.label,)

    def _check_observed(self, names: tuple[str, ...], labels: tuple[Hashable, ...]) -> Any:
        """observed=False with a categorical key: native for one key, or many keys sorted without nulls."""
        if len(set(names)) != len(names):  # a key given twice (``by=["a", "a"]``): pandas' index of both
            return None
        schema = self._frame._plan.schema
        if any(schema.dtype_of(n) == PYOBJECT for n in names):
            # keys of Python objects: pandas hashes and sorts them by Python's rules (TypeError where
            # sort meets values of kinds that do not compare); the engines only move them
            return None
        if any(schema.dtype_of(n) is None for n in names) \
                and any(n in L.undecided_bool_sources(self._frame._plan) for n in names):
            # a merge's bools a side may miss: pandas' object keys (True, False, NaN) where it did
            return None
        if not self._observed and any(schema.dtype_of(n) is None for n in names):
            # a key whose type the data decides may be a categorical (a merge's key over two of one
            # dtype keeps it where the categories match): its unobserved categories are pandas' to add
            return None
        cat = any(schema.dtype_of(n) is not None and pa.types.is_dictionary(schema.dtype_of(n)) for n in names)
        self._unobserved = cat and not self._observed
        if self._unobserved and len(names) > 1 and not (self._sort and self._dropna):
            return None
        return names, labels

    @property
    def _frame(self) -> Any:
        binned = getattr(self, "_binned", None)
        if binned is not None:  # a time Grouper: the key column holds the bin labels
            return binned.frame
        keyed = getattr(self, "_keyed", None)
        if keyed is not None:  # keys given as values: hidden columns of the frame
            return keyed[0]
        obj = self._obj
        return obj if isinstance(obj, DataFrame) else obj._frame()

    def _value_fields(self) -> list[Any]:
        schema = self._frame._plan.schema
        keys = set(self._native_keys[0]) if self._native_keys else set()
        if self._selection is not None:
            sel = self._selection if isinstance(self._selection, list) else [self._selection]
            return [schema.field(s) for s in sel]
        return [f for f in schema.columns if f.name not in keys]

    # ------------------------------------------------------------------ fallback
    def _pandas_groupby(self, pobj: Any) -> Any:
        by = self._by
        by = as_pandas(by)
        gb = pobj.groupby(by, level=self._level, as_index=self._as_index, sort=self._given[0], observed=self._observed,
                          dropna=self._given[1], group_keys=self._group_keys)
        if self._selection is not None:
            gb = gb[self._selection]
        return gb

    def _fallback(self, name: str, *args: Any, **kwargs: Any) -> Any:
        self._refuse(name, kwargs.get("numeric_only", False))
        return self._fallback_reason(name, "not native for this grouping", *args, **kwargs)

    def _refuse(self, name: str, numeric_only: Any = False) -> None:
        """Raise pandas' exception where a value column's dtype refuses ``name`` (``_REFUSALS``):
        the same before the trip as pandas would after it. Only where the value columns are known
        (native keys, or a selected column); ``numeric_only=True`` leaves such columns out."""
        if numeric_only is not False:
            return
        if self._native_keys is None and self._selection is None and not isinstance(self._obj, Series):
            return
        exc = _refusal(name, self._value_fields(), self._is_frame_groupby)
        if exc is not None:
            raise exc

    def _fallback_reason(self, name: str, reason: str, *args: Any, **kwargs: Any) -> Any:
        def run(pobj: Any, *a: Any, **k: Any) -> Any:
            return getattr(self._pandas_groupby(pobj), name)(*a, **k)

        kind = "DataFrameGroupBy" if self._is_frame_groupby else "SeriesGroupBy"
        return via_pandas(f"{kind}.{name}", run, (self._obj, *args), kwargs, reason)

    def apply(self, func: Any, *args: Any, include_groups: bool = False, **kwargs: Any) -> Any:
        """A function that reduces each group to values runs as one native aggregation (traced,
        see ``gframe/udf/trace.py``); any other function runs through pandas."""
        if include_groups:
            raise ValueError("include_groups=True is no longer allowed.")
        return groupby_apply(self, func, args, kwargs)

    @property
    def _is_frame_groupby(self) -> bool:
        return isinstance(self, DataFrameGroupBy) and not (self._selection is not None and not isinstance(self._selection, list))

    def __getattr__(self, name: str) -> Any:
        cls = pd.core.groupby.DataFrameGroupBy if isinstance(self, DataFrameGroupBy) else pd.core.groupby.SeriesGroupBy
        if name.startswith("_"):
            if pandas_private_method(cls, name):  # ``_cython_agg_general``: pandas' tests call it
                return lambda *a, **k: self._fallback(name, *a, **k)
            if pandas_private(cls, name):  # a private property (``_positional_selector``): read now
                kind = "DataFrameGroupBy" if self._is_frame_groupby else "SeriesGroupBy"
                return via_pandas(f"{kind}.{name}", lambda pobj: getattr(self._pandas_groupby(pobj), name),
                                  (self._obj,), {}, "not native for this grouping")
            raise AttributeError(name)
        if self._selection is None and self._frame._plan.schema.has(name) and isinstance(self, DataFrameGroupBy):
            return self[name]
        if not hasattr(cls, name):
            raise AttributeError(f"'{cls.__name__}' object has no attribute {name!r}")
        if not _is_pandas_method(cls, name):  # a property (``ngroups``, ``groups``, ``indices``): read now
            kind = "DataFrameGroupBy" if self._is_frame_groupby else "SeriesGroupBy"
            return via_pandas(f"{kind}.{name}", lambda pobj: getattr(self._pandas_groupby(pobj), name), (self._obj,), {},
                              "not native for this grouping")
        return lambda *a, **k: self._fallback(name, *a, **k)

    # ------------------------------------------------------------------ native aggregation
    def _aggregate(self, specs: list[tuple[Hashable, str, Any, dict[str, Any]]], squeeze: bool = False,
                   per_column: bool = True) -> Any:
        """specs: (output label, agg name, input Field or None for size, params). ``per_column``:
        pandas aggregates each column as a SeriesGroupBy (a selected column, ``agg`` of a list, a
        dict or named aggregations), not the frame's blocks (``DataFrameGroupBy.max()``)."""
        names, labels = self._native_keys  # type: ignore[misc]
        width = max((len(lab) for lab, *_ in specs if isinstance(lab, tuple)), default=0)
        if width and not self._as_index:
            # pandas: with MultiIndex columns the key columns become (key, '', ...)
            labels = tuple(lab if isinstance(lab, tuple) else (lab,) + ("",) * (width - 1) for lab in labels)
        aggs = []
        for out_label, fn, f, params in specs:
            child = _agg_child(fn, f, per_column) if f is not None else Col(names[0])
            aggs.append((out_label, Agg(fn, tuple(sorted(params.items())), child)))
        plan = self._complete(L.Aggregate(names, labels, tuple(aggs), self._sort, self._dropna, self._as_index,
                                          self._frame._plan))
        out = DataFrame._from_plan(plan)
        if squeeze and self._as_index:
            return Series._from_frame_plan(plan)
        return out

    def _complete(self, plan: L.Aggregate) -> L.Plan:
        """observed=False: add the groups of unobserved categories (counts and sums 0, others missing);
        a time Grouper: add the empty bins."""
        binned = getattr(self, "_binned", None)
        if binned is not None:
            from gframe.frontend.resample import complete_bins

            return complete_bins(plan, binned)
        if not getattr(self, "_unobserved", False):
            return plan
        n = len(plan.keys)
        keys = plan.schema.index_names if plan.keys_as_index else plan.schema.names[:n]
        fields = plan.schema.columns[len(plan.schema.columns) - len(plan.aggs):]
        fills = tuple((f.name, _EMPTY_GROUP[a.fn]) for f, (_, a) in zip(fields, plan.aggs) if a.fn in _EMPTY_GROUP)
        return L.CompleteGroups(tuple(keys), plan.keys, fills, plan.sort, plan, plan.child)

    def _method(self, fn: str, numeric_only: bool = False, **params: Any) -> Any:
        if numeric_only:  # pandas' own call, whichever reason sends it there
            params = {"numeric_only": numeric_only, **params}
        if self._native_keys is None or (numeric_only and not self._is_frame_groupby):
            # (a SeriesGroupBy's numeric_only=True: pandas' TypeError for a non-numeric Series)
            return self._fallback(fn, **params)
        fields = self._value_fields()
        if numeric_only:
            # a type the data decides (int or float where rows went missing) is pandas' to judge
            fields = [f for f in fields if f.dtype is None or is_numeric_for_pandas(f.dtype, f.family)]
        for f in fields:
            if f.dtype is not None and pa.types.is_dictionary(f.dtype) and _categorical_native(fn, f):
                continue
            if f.dtype is None or f.dtype == PYOBJECT or pa.types.is_dictionary(f.dtype) \
                    or isinstance(f.dtype, pa.ExtensionType):
                # (pandas' interval / period columns: its own rules and errors; Python objects:
                # pandas compares / hashes them by Python's rules; ``_ok`` says why)
                return self._fallback(fn, **params)
            if is_string(f.dtype) and (fn in _NUMERIC_ONLY or fn == "sum" or (fn in ("any", "all") and not _truth_of_strings(f))):
                return self._fallback(fn, **params)
            if _time_moment(f.dtype, fn) or not arrow_reduction_native(fn, f.dtype, f.family):
                return self._fallback(fn, **params)
        params = {k: v for k, v in params.items() if k != "numeric_only"}
        specs = [(f.label, fn, f, params) for f in fields]
        return self._aggregate(specs, squeeze=not self._is_frame_groupby, per_column=not self._is_frame_groupby)

    def sum(self, numeric_only: bool = False, min_count: int = 0, **kw: Any) -> Any:
        if min_count or kw:
            return self._fallback("sum", numeric_only=numeric_only, min_count=min_count, **kw)
        return self._method("sum", numeric_only)

    def mean(self, numeric_only: bool = False, **kw: Any) -> Any:
        return self._method("mean", numeric_only) if not kw else self._fallback("mean", numeric_only=numeric_only, **kw)

    def median(self, numeric_only: bool = False, **kw: Any) -> Any:
        return self._method("median", numeric_only) if not kw else self._fallback("median", numeric_only=numeric_only, **kw)

    def min(self, numeric_only: bool = False, min_count: int = -1, **kw: Any) -> Any:
        return self._method("min", numeric_only) if not kw and min_count == -1 else self._fallback("min", numeric_only=numeric_only, min_count=min_count, **kw)

    def max(self, numeric_only: bool = False, min_count: int = -1, **kw: Any) -> Any:
        return self._method("max", numeric_only) if not kw and min_count == -1 else self._fallback("max", numeric_only=numeric_only, min_count=min_count, **kw)

    def prod(self, numeric_only: bool = False, min_count: int = 0) -> Any:
        return self._method("prod", numeric_only) if not min_count else self._fallback("prod", numeric_only=numeric_only, min_count=min_count)

    def std(self, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        return self._method("std", numeric_only, ddof=ddof) if not kw else self._fallback("std", ddof=ddof, numeric_only=numeric_only, **kw)

    def var(self, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        return self._method("var", numeric_only, ddof=ddof) if not kw else self._fallback("var", ddof=ddof, numeric_only=numeric_only, **kw)

    def count(self) -> Any:
        return self._method("count")

    def nunique(self, dropna: bool = True) -> Any:
        return self._method("nunique", dropna=dropna)

    def first(self, numeric_only: bool = False, min_count: int = -1, skipna: bool = True) -> Any:
        if min_count != -1 or not skipna:
            return self._fallback("first", numeric_only=numeric_only, min_count=min_count, skipna=skipna)
        return self._method("first", numeric_only)

    def last(self, numeric_only: bool = False, min_count: int = -1, skipna: bool = True) -> Any:
        if min_count != -1 or not skipna:
            return self._fallback("last", numeric_only=numeric_only, min_count=min_count, skipna=skipna)
        return self._method("last", numeric_only)

    def _skipna_moot(self) -> bool:
        """Whether no value column can hold a missing value (numpy ints and bools): skipna=False
        is then the same computation."""
        return self._native_keys is not None and all(
            f.dtype is not None and f.family == NUMPY and (pa.types.is_integer(f.dtype) or pa.types.is_boolean(f.dtype))
            for f in self._value_fields())

    def any(self, skipna: bool = True) -> Any:
        return self._method("any") if skipna or self._skipna_moot() else self._fallback("any", skipna=skipna)

    def all(self, skipna: bool = True) -> Any:
        return self._method("all") if skipna or self._skipna_moot() else self._fallback("all", skipna=skipna)

    def size(self) -> Any:
        if self._native_keys is None:
            return self._fallback("size")
        names, labels = self._native_keys
        label = "size" if not self._as_index else None
        if self._as_index and not self._is_frame_groupby:
            # SeriesGroupBy.size keeps the Series' name
            label = self._selection if self._selection is not None else self._obj.name
        # the count's dtype follows the grouped Series (``SeriesGroupBy.size`` of an Int64 column is
        # Int64, of a ``string`` column int64[pyarrow]); a DataFrameGroupBy's is int64 whatever the keys
        counted: Any = Lit(1) if self._is_frame_groupby else Col(self._value_fields()[0].name)
        plan = self._complete(L.Aggregate(names, labels, ((label, Agg("size", (), counted)),), self._sort,
                                          self._dropna, self._as_index, self._frame._plan))
        if self._as_index:
            return Series._from_frame_plan(plan)
        return DataFrame._from_plan(plan)

    def transform(self, func: Any = None, *args: Any, engine: Any = None, engine_kwargs: Any = None, **kwargs: Any) -> Any:
        """pandas' ``transform(name)``: a name outside its allow-list is its ValueError; a
        transformation (``cumsum``, ``shift``, ``rank``...) is that method; a reduction is the
        method's result broadcast to the rows (natively for the ``_ALIASES``; a dtype that refuses
        it raises pandas' error, as the method would)."""
        if isinstance(func, str):
            if func not in _pandas_groupby_kernels.transform_kernel_allowlist:
                raise ValueError(f"'{func}' is not a valid function name for transform(name)")
            if func in _pandas_groupby_kernels.transformation_kernels:
                extra = {"engine": engine, "engine_kwargs": engine_kwargs} if engine is not None else {}
                return getattr(self, func)(*args, **kwargs, **extra)
        plain = not args and not kwargs and engine is None and engine_kwargs is None
        # (a list or dict of functions, named aggregations: pandas')
        name = _agg_name(func) if plain and (isinstance(func, str) or callable(func)) else None
        if self._native_keys is None or name is None:
            if isinstance(func, str):
                self._refuse(func, kwargs.get("numeric_only", False))
            extra = {k: v for k, v in (("engine", engine), ("engine_kwargs", engine_kwargs)) if v is not None}
            return self._fallback_reason("transform", "not native for this grouping", func, *args, **extra, **kwargs)
        keys = self._native_keys[0]
        squeeze = not self._is_frame_groupby
        if name == "size":
            label = (self._selection if self._selection is not None else self._obj.name) if squeeze else None
            plan = L.GroupWindow(keys, ((label, Agg("size", (), Col(keys[0]))),), self._dropna, self._frame._plan)
            return Series._from_frame_plan(plan)
        fields = self._value_fields()
        if not all(self._ok(name, f) for f in fields):
            if isinstance(func, str):
                self._refuse(func)
            return self._fallback_reason("transform", "not native for this grouping", func)
        outputs = tuple((f.label, Agg(name, (), _agg_child(name, f, squeeze))) for f in fields)
        plan = L.GroupWindow(keys, outputs, self._dropna, self._frame._plan)
        return Series._from_frame_plan(plan) if squeeze else DataFrame._from_plan(plan)

    def cumcount(self, ascending: bool = True) -> Any:
        if self._native_keys is None:
            return self._fallback("cumcount", ascending=ascending)
        keys = self._native_keys[0]
        a = Agg("size", (("ascending", bool(ascending)), ("cumulative", True)), Col(keys[0]))
        return Series._from_frame_plan(L.GroupWindow(keys, ((None, a),), self._dropna, self._frame._plan))

    def ngroup(self, ascending: bool = True) -> Any:
        """Each row's group number (``GroupWindow`` ``ngroup``): natively where missing keys drop
        and every group is observed; pandas' numbering of missing keys and unobserved categories
        otherwise."""
        if self._native_keys is None or getattr(self, "_unobserved", False) or not self._dropna \
                or getattr(self, "_binned", None) is not None:
            return self._fallback("ngroup", ascending=ascending)
        keys = self._native_keys[0]
        a = Agg("ngroup", (("ascending", bool(ascending)), ("sort", bool(self._sort))), Col(keys[0]))
        return Series._from_frame_plan(L.GroupWindow(keys, ((None, a),), self._dropna, self._frame._plan))

    def _cumulative(self, fn: str, name: str, numeric_only: bool, skipna: bool, args: tuple, kwargs: dict) -> Any:
        """``cumsum`` / ``cumprod`` / ``cummin`` / ``cummax`` in each group (missing values skipped):
        natively where pandas' result type does not depend on the data and the values come out
        bit for bit (running min / max of numpy numbers and times; sums of int64 and bools,
        products of float64: pandas' Kahan-summed float sums and its narrow ints that widen on
        overflow stay pandas')."""
        self._refuse(name, numeric_only)
        if args or kwargs or numeric_only or not skipna or self._native_keys is None or getattr(self, "_unobserved", False):
            # (positional as given: numpy's ``cumsum(axis, dtype)`` compatibility arguments follow them)
            return self._fallback_reason(name, "not native for this grouping", numeric_only, skipna, *args, **kwargs)
        fields = self._value_fields()
        for f in fields:
            t = f.dtype
            if t is None or f.family != NUMPY:
                return self._fallback(name, numeric_only, skipna)
            # (bools: rows of a missing key make pandas' running min / max float64, NaN there)
            ordered = pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_timestamp(t) \
                or pa.types.is_duration(t) or (pa.types.is_boolean(t) and not self._dropna)
            ok = ordered if fn in ("min", "max") else t in (pa.int64(), pa.bool_()) if fn == "sum" else t == pa.float64()
            if not ok:
                return self._fallback(name, numeric_only, skipna)
        outputs = tuple((f.label, Agg(fn, (("cumulative", True),), Col(f.name))) for f in fields)
        plan = L.GroupWindow(self._native_keys[0], outputs, self._dropna, self._frame._plan)
        return Series._from_frame_plan(plan) if not self._is_frame_groupby else DataFrame._from_plan(plan)

    def cumsum(self, numeric_only: bool = False, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._cumulative("sum", "cumsum", numeric_only, skipna, args, kwargs)

    def cumprod(self, numeric_only: bool = False, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._cumulative("prod", "cumprod", numeric_only, skipna, args, kwargs)

    def cummin(self, numeric_only: bool = False, skipna: bool = True, **kwargs: Any) -> Any:
        return self._cumulative("min", "cummin", numeric_only, skipna, (), kwargs)

    def cummax(self, numeric_only: bool = False, skipna: bool = True, **kwargs: Any) -> Any:
        return self._cumulative("max", "cummax", numeric_only, skipna, (), kwargs)

    def quantile(self, q: Any = 0.5, interpolation: str = "linear", numeric_only: bool = False) -> Any:
        """One quantile natively for numpy numbers (pandas' float64, numpy's interpolation); a list of
        quantiles, other columns and ``nearest`` through pandas."""
        args = {"q": q, "interpolation": interpolation, "numeric_only": numeric_only}
        if isinstance(q, (float, int)) and not isinstance(q, bool) and not 0 <= q <= 1:
            raise ValueError(f"Each 'q' must be between 0 and 1. Got '{float(q)}' instead")  # pandas' check, first
        if not isinstance(q, (float, int)) or isinstance(q, bool) or numeric_only or self._native_keys is None \
                or interpolation not in ("linear", "lower", "higher", "midpoint") or not 0 <= q <= 1:
            return self._fallback("quantile", **args)
        for f in self._value_fields():
            t = f.dtype
            if t is None or f.family != NUMPY or not (pa.types.is_integer(t) or pa.types.is_floating(t)):
                return self._fallback("quantile", **args)
        specs = [(f.label, "quantile", f, {"q": float(q), "interpolation": interpolation}) for f in self._value_fields()]
        return self._aggregate(specs, squeeze=not self._is_frame_groupby)

    def rank(self, method: str = "average", ascending: bool = True, na_option: str = "keep", pct: bool = False) -> Any:
        """Native for columns of numpy numbers, booleans and times (float64 ranks, ``_group_rank`` in
        the CPU engine); pandas' for other columns (nullable ones give Float64) and methods."""
        if na_option not in {"keep", "top", "bottom"}:  # pandas checks before anything runs
            raise ValueError("na_option must be one of 'keep', 'top', or 'bottom'")
        args = {"method": method, "ascending": ascending, "na_option": na_option, "pct": pct}
        if self._native_keys is None or method not in ("average", "min", "max", "first", "dense") \
                or getattr(self, "_unobserved", False):
            return self._fallback("rank", **args)
        fields = self._value_fields()
        for f in fields:
            t = f.dtype
            if t is None or f.family != NUMPY or not (pa.types.is_integer(t) or pa.types.is_floating(t)
                                                       or pa.types.is_boolean(t) or pa.types.is_timestamp(t)
                                                       or pa.types.is_duration(t)
                                                       or (is_string(t) and t != OBJECT_STRING)):
                return self._fallback("rank", **args)
        params = tuple(sorted({**args, "ascending": bool(ascending), "pct": bool(pct)}.items()))
        outputs = tuple((f.label, Agg("rank", params, Col(f.name))) for f in fields)
        plan = L.GroupWindow(self._native_keys[0], outputs, self._dropna, self._frame._plan)
        return Series._from_frame_plan(plan) if not self._is_frame_groupby else DataFrame._from_plan(plan)

    @property
    def groups(self) -> Any:
        """pandas' ``{group key: Index of the group's row labels}``, natively for one column key,
        sorted, missing keys dropped: the group sizes (the native ``size``, unobserved categories
        included) cut the row labels stably sorted by the key. Other groupings: pandas' (a list of
        one key warns there, many keys give tuples of the observed groups only)."""
        kind = "DataFrameGroupBy" if self._is_frame_groupby else "SeriesGroupBy"
        native = self._native_keys is not None and len(self._native_keys[0]) == 1 and self._given[0] \
            and self._given[1] and self._sort and self._dropna and getattr(self, "_binned", None) is None \
            and any(f.name == self._native_keys[0][0] for f in self._frame._plan.schema.columns)
        if not native:
            return via_pandas(f"{kind}.groups", lambda pobj: self._pandas_groupby(pobj).groups, (self._obj,), {},
                              "not native for this grouping")
        from pandas.io.formats.printing import PrettyDict

        given = self._keys_given
        if isinstance(given, list) and len(given) == 1:
            warnings.warn(  # pandas' words
                "In a future version, the keys of `groups` will be a "
                f"tuple with a single element, e.g. ({given[0]},) , "
                f"instead of a scalar, e.g. {given[0]}, when grouping "
                "by a list with a single element. Use ``df.groupby(by='a').groups`` "
                "instead of ``df.groupby(by=['a']).groups`` to avoid this warning",
                pd.errors.Pandas4Warning, stacklevel=user_stacklevel())
        name = self._native_keys[0][0]
        plan = self._frame._plan
        rows = DataFrame._from_plan(L.Select((("key", Col(name)),), plan))
        rows = rows[rows["key"].notna()].sort_values("key", kind="stable")
        labels = rows.index.to_pandas()
        sizes = Series._from_frame_plan(self._complete(L.Aggregate(
            (name,), (None,), ((None, Agg("size", (), Lit(1))),), True, True, True, plan))).to_pandas()
        ends = np.cumsum(sizes.to_numpy(dtype=np.int64))
        starts = ends - sizes.to_numpy(dtype=np.int64)
        if plan.schema.index is None:
            # the default RangeIndex: its labels are the positions, and pandas' ``take`` of it
            # gives a RangeIndex where they are evenly spaced
            whole = pd.RangeIndex(len(self._frame))
            return PrettyDict({k: whole.take(labels[a:b].to_numpy()) for k, a, b in zip(sizes.index, starts, ends)})
        return PrettyDict({k: labels[a:b] for k, a, b in zip(sizes.index, starts, ends)})

    def _row_window(self, fn: str, params: dict[str, Any], call: tuple[tuple, dict]) -> Any:
        """``shift`` / ``ffill`` / ``bfill`` in each group (a ``GroupWindow``): natively for numpy
        numbers, bools, times and ``str`` columns and the nullable ones (a shift of ints / bools
        gives float64 / object where it moves past a group's edge, as pandas); categoricals,
        Python objects and Arrow-backed columns through pandas."""
        if self._native_keys is None:  # (unobserved categories have no rows: nothing to add)
            return self._fallback(fn, *call[0], **call[1])
        fields = self._value_fields()
        for f in fields:
            t = f.dtype
            if t is not None and pa.types.is_dictionary(t):
                continue  # (a categorical moves as its codes: the categories kept)
            if t is None or f.family not in (NUMPY, MASKED) or t in (OBJECT_STRING, PYOBJECT) \
                    or not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
                            or pa.types.is_timestamp(t) or pa.types.is_duration(t) or is_string(t)):
                return self._fallback(fn, *call[0], **call[1])
        outputs = tuple((f.label, Agg(fn, tuple(sorted(params.items())), Col(f.name))) for f in fields)
        plan = L.GroupWindow(self._native_keys[0], outputs, self._dropna, self._frame._plan)
        return Series._from_frame_plan(plan) if not self._is_frame_groupby else DataFrame._from_plan(plan)

    def shift(self, periods: Any = 1, freq: Any = None, fill_value: Any = lib.no_default, suffix: Any = None) -> Any:
        call = ((), {"periods": periods, "freq": freq, "fill_value": fill_value, "suffix": suffix})
        if not isinstance(periods, int) or isinstance(periods, bool) or periods == 0 or freq is not None \
                or fill_value is not lib.no_default or suffix is not None:
            return self._fallback("shift", **call[1])
        return self._row_window("shift", {"periods": periods}, call)

    def ffill(self, limit: Any = None) -> Any:
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
            return self._fallback("ffill", limit=limit)  # (pandas' checks)
        return self._row_window("ffill", {"limit": limit}, ((), {"limit": limit}))

    def bfill(self, limit: Any = None) -> Any:
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
            return self._fallback("bfill", limit=limit)
        return self._row_window("bfill", {"limit": limit}, ((), {"limit": limit}))

    def head(self, n: int = 5) -> Any:
        if self._native_keys is None or n < 0 or (getattr(self, "_keyed", None) is not None
                                                   and not isinstance(self._obj, DataFrame)):
            return self._fallback("head", n)
        frame = self._frame
        plan = L.GroupHead(self._native_keys[0], n, self._dropna, _positions(frame._plan))
        out = DataFrame._from_plan(plan)
        if getattr(self, "_keyed", None) is not None:  # (keys given as values: their hidden columns out)
            out = out[[f.label for f in self._obj._plan.schema.columns]]
        if self._selection is not None:
            out = out[self._selection]
            return out
        return out

    def agg(self, func: Any = None, *args: Any, **kwargs: Any) -> Any:
        cls = pd.core.groupby.DataFrameGroupBy if isinstance(self, DataFrameGroupBy) else pd.core.groupby.SeriesGroupBy
        if isinstance(func, str) and not func.startswith("_") and _is_pandas_method(cls, func) and "axis" not in kwargs:
            # pandas' ``agg(name)`` is the method of that name, with the arguments given
            return getattr(self, func)(*args, **kwargs)
        if self._native_keys is None or args or "engine" in kwargs or "engine_kwargs" in kwargs:
            return self._fallback("agg", func, *args, **kwargs)
        squeeze = not self._is_frame_groupby
        if func is None and kwargs:
            if not self._as_index and set(kwargs) & set(self._native_keys[1]):
                return self._fallback("agg", **kwargs)  # pandas drops the key column of that name
            specs = []
            for out_label, spec in kwargs.items():
                if squeeze:
                    col, fn = self._value_fields()[0].label, spec
                else:
                    if isinstance(spec, pd.NamedAgg):
                        col, fn = spec.column, spec.aggfunc
                    elif isinstance(spec, tuple) and len(spec) == 2:
                        col, fn = spec
                    else:
                        return self._fallback("agg", **kwargs)  # pandas' TypeError for what it cannot read
                name = _agg_name(fn)
                if name is None:
                    return self._fallback("agg", **kwargs)
                f = self._frame._plan.schema.field(col) if self._frame._plan.schema.has(col) else None
                if f is None:
                    raise KeyError(col)
                if not self._ok(name, f):
                    return self._fallback("agg", **kwargs)
                specs.append((out_label, name, f, {}))
            return self._aggregate(specs)
        if kwargs:
            return self._fallback("agg", func, **kwargs)
        if isinstance(func, (str,)) or callable(func):
            name = _agg_name(func)
            if name is None:
                return self._fallback("agg", func)
            if name == "size":
                return self.size()
            if not isinstance(func, str) and not all(self._ok(name, f) for f in self._value_fields()):
                # pandas' ``agg(np.mean)`` (its own checks and messages), not ``mean()``
                return self._fallback("agg", func)
            return self._method(name)
        if isinstance(func, list):
            names = [_agg_name(f) for f in func]
            if any(n is None for n in names) or len(set(names)) != len(names):
                return self._fallback("agg", func)
            fields = self._value_fields()
            specs = []
            for f in fields:
                for n, orig in zip(names, func):
                    if not self._ok(n, f):
                        return self._fallback("agg", func)
                    lab = orig if isinstance(orig, str) else n
                    specs.append((lab if squeeze else (f.label, lab), n, f, {}))
            out = self._aggregate(specs)
            return out
        if isinstance(func, dict):
            if squeeze:
                return self._fallback("agg", func)  # (a SeriesGroupBy's dict: pandas' SpecificationError)
            specs = []
            multi = any(isinstance(v, list) for v in func.values())
            schema = self._frame._plan.schema
            for col, fns in func.items():
                if not schema.has(col):
                    raise KeyError(col)
                f = schema.field(col)
                for fn in (fns if isinstance(fns, list) else [fns]):
                    n = _agg_name(fn)
                    if n is None or not self._ok(n, f):
                        return self._fallback("agg", func)
                    lab = fn if isinstance(fn, str) else n
                    specs.append(((col, lab) if multi else col, n, f, {}))
            return self._aggregate(specs)
        return self._fallback("agg", func)

    aggregate = agg

    @staticmethod
    def _ok(fn: str, f: Any) -> bool:
        t = f.dtype
        if t is None:  # a dtype the data decides (int64 or float64 after a left merge): counts do not care
            return fn in ("count", "size")
        if isinstance(t, pa.ExtensionType):  # (pandas' interval / period columns)
            return fn in ("count", "size")
        if pa.types.is_dictionary(t):
            return _categorical_native(fn, f)
        if t == PYOBJECT:
            # Python objects (a str column's ``fillna(0)``): the engines only move them; pandas takes
            # their first / max / nunique by Python's rules (TypeError where kinds do not compare)
            return fn == "size"
        if is_string(t) and (fn in _NUMERIC_ONLY or fn == "sum" or (fn in ("any", "all") and not _truth_of_strings(f))):
            return False
        if _time_moment(t, fn):
            return False
        return arrow_reduction_native(fn, t, f.family)

    def __iter__(self) -> Any:
        gb = self._pandas_groupby(self._obj.to_pandas())
        for k, g in gb:
            yield k, from_pandas_result(g, "GroupBy.__iter__")

    def __len__(self) -> int:
        return len(self.size())


@full_signatures(pd.core.groupby.DataFrameGroupBy, lambda g, name, a, k, why: g._fallback_reason(name, why, *a, **k))
class DataFrameGroupBy(_GroupBy):
    def __getitem__(self, key: Any) -> Any:
        """pandas' column selection: a list-like (an Index, an array) of labels is a list; a
        tuple of more than one label is pandas' ValueError, of one a deprecated list."""
        if isinstance(key, tuple) and len(key) > 1:
            raise ValueError("Cannot subset columns with a tuple with more than one element. Use a list instead.")
        if self._selection is not None:
            raise IndexError(f"Column(s) {self._selection} already selected")
        if isinstance(key, tuple):
            warnings.warn("Passing a tuple to __getitem__ is deprecated and will raise a KeyError in a future "
                          "version. Use a list instead.", pd.errors.Pandas4Warning, stacklevel=user_stacklevel())
            key = list(key)
        if isinstance(key, (pd.Series, pd.Index, np.ndarray)) or (hasattr(key, "to_pandas") and not isinstance(key, list)):
            key = list(as_pandas(key))
        schema = self._frame._plan.schema
        if isinstance(key, list):
            bad = [k for k in dict.fromkeys(key) if not schema.has(k)]
            if bad:
                raise KeyError(f"Columns not found: {str(bad)[1:-1]}")
        elif not schema.has(key):
            raise KeyError(f"Column not found: {key}")
        cls = DataFrameGroupBy if isinstance(key, list) else SeriesGroupBy
        out = cls(self._obj, self._by, level=self._level, as_index=self._as_index, sort=self._given[0], observed=self._observed,
                  dropna=self._given[1], group_keys=self._group_keys, selection=key)
        out._keys_given = self._keys_given
        return out


@full_signatures(pd.core.groupby.SeriesGroupBy, lambda g, name, a, k, why: g._fallback_reason(name, why, *a, **k))
class SeriesGroupBy(_GroupBy):
    def value_counts(self, normalize: bool = False, sort: bool = True, ascending: bool = False, bins: Any = None,
                     dropna: bool = True) -> Any:
        """Each group's counts of its values (an ``Aggregate`` by the keys and the value, in the
        combinations' first-appearance order), stably sorted as pandas: by the keys where the
        group-by sorts, then (``sort``) by the count; ``normalize`` divides by the group's total.
        Natively for numpy numbers, bools, times and ``str`` values under keys that are not
        categorical; bins, categoricals and unobserved groups are pandas'."""
        args = {"normalize": normalize, "sort": sort, "ascending": ascending, "bins": bins, "dropna": dropna}
        if self._native_keys is None or bins is not None or getattr(self, "_unobserved", False) \
                or getattr(self, "_binned", None) is not None or not self._as_index:
            return self._fallback("value_counts", **args)
        names, labels = self._native_keys
        f = self._value_fields()[0]
        schema = self._frame._plan.schema
        t = f.dtype
        if t is None or f.family != NUMPY or t in (OBJECT_STRING, PYOBJECT) or f.label in labels \
                or not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
                        or pa.types.is_timestamp(t) or pa.types.is_duration(t) or is_string(t)) \
                or any(schema.dtype_of(n) is None or pa.types.is_dictionary(schema.dtype_of(n)) for n in names) \
                or (not dropna and not sort and (pa.types.is_timestamp(t) or pa.types.is_duration(t))):
            # (unsorted counts of times with NaT kept: pandas' own order of the NaT row)
            return self._fallback("value_counts", **args)
        plan = self._frame._plan
        dropped = [n for n in names if self._dropna] + ([f.name] if dropna else [])
        if dropped:
            cond: Any = Func("notna", (), Col(dropped[0]))
            for n in dropped[1:]:
                cond = BinOp("and", cond, Func("notna", (), Col(n)))
            plan = L.Filter(cond, plan)
        label = "proportion" if normalize else "count"
        counted: L.Plan = L.Aggregate(names + (f.name,), labels + (f.label,), ((label, Agg("size", (), Lit(1))),),
                                      False, False, True, plan)
        count_name = counted.schema.columns[0].name
        key_levels = tuple(counted.schema.index_names[:len(names)])
        by = (key_levels if self._sort else ()) + ((count_name,) if sort else ())
        if by:
            counted = L.Sort(by, (False,) * (len(by) - int(sort)) + ((not ascending,) if sort else ()), True, counted)
        if normalize:  # (the group's total beside each count: the same rows, index and order)
            total = L.GroupWindow(key_levels, (("__gf_total", Agg("sum", (), Col(count_name))),), False, counted)
            both = L.HConcat("exact", counted, total)
            ratio = BinOp("truediv", Col(count_name), Col(total.schema.columns[0].name))
            counted = L.Select(((label, ratio),), both)
        return Series._from_frame_plan(counted)

    def __init__(self, obj: Any, by: Any, **kw: Any) -> None:
        if isinstance(obj, Series) and kw.get("selection") is None:
            # s.groupby(other_series_or_level): group the one-column frame by its index or a key series
            self._series_obj = obj
            super().__init__(obj, by, **kw)
        else:
            super().__init__(obj, by, **kw)


    def _value_fields(self) -> list[Any]:
        if isinstance(self._obj, Series) and self._selection is None:
            return [self._frame._plan.schema.columns[0]]
        return super()._value_fields()
