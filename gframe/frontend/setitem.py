"""Native assignment through the indexers (``loc`` / ``iloc`` / ``at`` / ``iat`` / ``obj[mask]``).

An assignment is a plan like any other: the selected rows become a boolean row mask (the row's
position, from a ``RowIndex`` under a frame of pandas' default RangeIndex, or its label in a unique
one-level index), and each assigned column becomes ``where(column, ~mask, value)``. Nothing the
caller holds elsewhere changes (copy-on-write): only the assigned object's plan is swapped.

pandas 3 sets in place: a column keeps its dtype where the value fits it, and raises TypeError
("Invalid value ... for dtype ...") where it does not - except a missing value into a numpy int
column of a Series or of some rows of a frame, which makes the column float64. Whether a value
fits, and the value it becomes (a string parsed as a timestamp, ``2.0`` as the int 2), is pandas'
own verdict on the *value*, asked of a one-row stand-in of the column's dtype (no data of the
object goes to pandas). Where the stand-in raises, the caller's error path has pandas decide on
the object itself (``indexing.pandas_verdict``: pandas' exception, or its answer recorded - an
empty selection, where pandas sets nothing, is such a case). Anything the rules below do not cover
(categoricals, objects, a row the key would add, values of several rows that need a join) returns
``NotImplemented``: pandas assigns, recorded.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from gframe.frontend.coerce import is_scalar, scalar_value
from gframe.frontend.frame import DataFrame, _align_expr
from gframe.frontend.series import Series
from gframe.plan import logical as L
from gframe.plan.dtypes import field_pandas_dtype
from gframe.plan.expr import BinOp, Col, Expr, Lit, func
from gframe.plan.schema import NUMPY, OBJECT_FAMILIES, index_name

# values of several rows are set by a chain of ``where`` over the rows' keys: at most this many
MAX_ROW_VALUES = 64

_LABEL_TYPES = (int, float, str, pd.Timestamp)
_NONE = object()
NO_COLUMNS = object()  # a ``loc`` key of rows only (``df.loc[label]``, not ``df.loc[label, :]``)


class Rows:
    """The rows an assignment selects: every row (``everything``), a boolean Series ``mask`` over the
    object's plan, or ``positions`` (a list in key order, repeats kept, or an ascending range)."""

    def __init__(self, everything: bool = False, mask: Any = None, positions: Any = None) -> None:
        self.everything, self.mask, self.positions = everything, mask, positions
        # a slice of every row: pandas may set a frame's column in place as a whole (``is_full_setter``)
        self.all_by_slice = everything
        self.scalar = False  # one row by a scalar key
        self.new_label: Any = _NONE  # a label the index lacks: the row ``loc`` adds

    def count(self, n: int) -> int:
        return n if self.everything else len(self.positions)


# ----------------------------------------------------------------------------------- the key

def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _bool_array(key: Any) -> np.ndarray | None:
    if isinstance(key, np.ndarray) and key.dtype == bool and key.ndim == 1:
        return key
    if isinstance(key, list) and key and all(isinstance(v, (bool, np.bool_)) for v in key):
        return np.asarray(key, dtype=bool)
    return None


def _int_list(key: Any) -> list[int] | None:
    if isinstance(key, np.ndarray) and key.ndim == 1 and key.dtype.kind in "iu":
        return [int(v) for v in key]
    if isinstance(key, (list, pd.Index)) and all(_is_int(v) for v in key):
        return [int(v) for v in key]
    return None


def _length(frame: DataFrame) -> int:
    return len(frame)


def _refused(key: Any) -> None:
    """Keys pandas refuses to assign by (a 2-d or deeper array): an error, so that the caller's error
    path has pandas' own verdict (its exception; where pandas assigns after all, its recorded answer)."""
    if isinstance(key, np.ndarray) and key.ndim > 1:
        raise ValueError(f"Cannot set values with ndim > 1 (a key of {key.ndim} dimensions)")


def position_rows(frame: DataFrame, key: Any) -> Rows | None:
    """``iloc``'s rows; pandas' IndexError for a position outside the rows (iloc never enlarges)."""
    _refused(key)
    if is_scalar(key) and not _is_int(key) and not isinstance(key, (bool, np.bool_)):
        raise IndexError("iloc cannot enlarge its target object")  # (a float, a label: pandas' verdict)
    if isinstance(key, slice):
        if key == slice(None):
            return Rows(everything=True)
        if not all(v is None or _is_int(v) for v in (key.start, key.stop, key.step)):
            return None
        return _slice_rows(range(_length(frame))[key])
    if _is_int(key):
        n = _length(frame)
        if not -n <= key < n:
            raise IndexError("iloc cannot enlarge its target object")
        return _one_row(int(key) % n)
    rows = _mask_rows(frame, key)
    if rows is not None:
        return rows
    ints = _int_list(key)
    if ints is not None:
        n = _length(frame)
        for p in ints:
            if not -n <= p < n:
                raise IndexError(f"index {p} is out of bounds for axis 0 with size {n}")
        return Rows(positions=[p % n for p in ints])
    return None


def _mask_rows(frame: DataFrame, key: Any) -> Rows | None:
    """The rows a boolean array key selects (``loc`` and ``iloc`` alike), pandas' IndexError for
    one of another length; None for other keys."""
    mask = _bool_array(key)
    if mask is None:
        return None
    n = _length(frame)
    if len(mask) != n:
        raise IndexError(f"Boolean index has wrong length: {len(mask)} instead of {n}")
    return Rows(positions=[int(i) for i in np.flatnonzero(mask)])


def _host_index(frame: DataFrame) -> pd.Index:
    """The row labels, on the host (pandas' lookup rules on them, as ``indexing.label_lookup``)."""
    if frame._schema.index is None:
        return pd.RangeIndex(_length(frame))
    return frame.index.to_pandas()


def label_rows(frame: DataFrame, key: Any) -> Rows | None:
    """``loc``'s rows by pandas' lookup on the index labels; a missing label of a list is pandas'
    KeyError; a missing scalar label (a row to add) is pandas' (None)."""
    _refused(key)
    if isinstance(key, slice) and key == slice(None):
        return Rows(everything=True)
    if isinstance(key, Series):
        t = key._dtype_arrow
        return Rows(mask=key) if t is not None and pa.types.is_boolean(t) else None
    rows = _mask_rows(frame, key)
    if rows is not None:
        return rows
    if frame._schema.index is not None and len(frame._schema.index) != 1:
        return None  # a MultiIndex: partial keys, tuples - pandas
    if isinstance(key, slice):
        if not all(v is None or isinstance(v, _LABEL_TYPES) and not isinstance(v, str) for v in (key.start, key.stop)) \
                or not (key.step is None or _is_int(key.step)):
            return None  # (a string bound may be a partial date)
        idx = _host_index(frame)
        found = idx.slice_indexer(key.start, key.stop, key.step)
        return _slice_rows(range(len(idx))[found])
    if isinstance(key, (list, np.ndarray, pd.Index)) and not isinstance(key, pd.MultiIndex):
        labels = list(key)
        if not labels or not all(isinstance(v, _LABEL_TYPES) and not isinstance(v, bool) and v == v for v in labels):
            return None
        idx = _host_index(frame)
        if not idx.is_unique or isinstance(idx, (pd.DatetimeIndex, pd.CategoricalIndex)) and any(isinstance(v, str) for v in labels):
            return None
        got = idx.get_indexer(labels)
        if (got < 0).any():
            raise KeyError(f"{[v for v, g in zip(labels, got) if g < 0]} not in index")
        return Rows(positions=[int(p) for p in got])
    if isinstance(key, _LABEL_TYPES) and not isinstance(key, bool) and key == key:
        idx = _host_index(frame)
        labels_dtype = idx.dtype.categories.dtype if isinstance(idx.dtype, pd.CategoricalDtype) else idx.dtype
        if isinstance(key, str) and not (labels_dtype == object or isinstance(labels_dtype, pd.StringDtype)):
            return None  # (a partial date of a DatetimeIndex)
        if key not in idx:
            out = Rows(positions=[])
            out.new_label = key  # a new row (``enlarge``)
            return out
        found = idx.get_loc(key)
        if isinstance(found, slice):
            return Rows(positions=range(len(idx))[found])
        if isinstance(found, np.ndarray):
            return Rows(positions=[int(i) for i in np.flatnonzero(found)])
        return _one_row(int(found))
    return None


def _one_row(pos: int) -> Rows:
    out = Rows(positions=[pos])
    out.scalar = True
    return out


def _slice_rows(positions: range) -> Rows:
    out = Rows(positions=positions)
    out.all_by_slice = positions.step == 1 and positions.start == 0 and positions.stop == len(positions)
    return out


# ---------------------------------------------------------------------------- the row mask

def _range_mask(p: Expr, r: range) -> Expr:
    if r.step < 0:
        r = r[::-1]
    if len(r) == 0:
        return BinOp("ne", p, p)  # (no row: never true; positions are never missing)
    last = r[-1]
    m: Expr = BinOp("and", BinOp("ge", p, Lit(r.start)), BinOp("le", p, Lit(last)))
    if r.step != 1:
        m = BinOp("and", m, BinOp("eq", BinOp("mod", BinOp("sub", p, Lit(r.start)), Lit(r.step)), Lit(0)))
    return m


class _Target:
    """The plan rows are selected on, the key of each row (``key``: its position or its label) and
    how to return to the object's own rows (``finish``)."""

    def __init__(self, plan: L.Plan) -> None:
        self.plan = plan
        self.by_position = plan.schema.index is None
        self.base = L.RowIndex(plan) if self.by_position else plan
        self.key = Col(index_name(0))
        self.labels: pd.Index | None = None

    def usable(self, frame: DataFrame) -> bool:
        if self.by_position:
            return True
        if len(self.plan.schema.index) != 1 or not _plain_index(self.plan.schema.index[0]):
            return False
        t = self.plan.schema.index[0].dtype
        if pa.types.is_dictionary(t):  # (a categorical's membership is its values')
            self.key = func("cast", self.key, dtype=t.value_type)
        self.labels = _host_index(frame)
        return bool(self.labels.is_unique)

    def row_key(self, pos: int) -> Any:
        """The key value of the row at ``pos`` (None: a label the engines cannot match exactly)."""
        if self.by_position:
            return pos
        v = scalar_value(self.labels[pos])
        if isinstance(v, np.generic):
            v = v.item()
        if v is None or isinstance(v, bool) or not isinstance(v, _LABEL_TYPES):
            return None
        if isinstance(v, pd.Timestamp) and v.tz is not None:
            return None
        return v

    def mask(self, rows: Rows) -> Expr | None:
        pos = rows.positions
        if self.by_position and isinstance(pos, range):
            return _range_mask(self.key, pos)
        keys = [self.row_key(p) for p in pos]
        if any(k is None for k in keys):
            return None
        if not keys:
            return BinOp("ne", self.key, self.key) if self.by_position else None
        return func("isin", self.key, values=tuple(dict.fromkeys(keys)))

    def finish(self, plan: L.Plan) -> L.Plan:
        return L.ResetIndex(True, (), plan) if self.by_position else plan


def _plain_index(f: Any) -> bool:
    """An index level whose labels the engines match exactly (``isin``): numbers, strings, naive times
    (a CategoricalIndex of them: its values)."""
    t = f.dtype
    if t is None or f.family in OBJECT_FAMILIES:
        return False
    if pa.types.is_dictionary(t):
        t = t.value_type
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_string(t) or pa.types.is_large_string(t) \
        or pa.types.is_timestamp(t) and t.tz is None


# ------------------------------------------------------------------------------ the values

def _stand_in(pdt: Any, k: int) -> pd.Series | None:
    """A Series of ``k`` rows of the dtype ``pdt`` (what pandas' verdict on a value is asked of)."""
    if isinstance(pdt, np.dtype):
        if pdt.kind in "iufbmM":
            return pd.Series(np.zeros(k, dtype=pdt))
        return None  # objects (None and NaN apart), bytes, complex
    if isinstance(pdt, (pd.CategoricalDtype, pd.PeriodDtype, pd.IntervalDtype, pd.SparseDtype)):
        return None
    # values, not missing ones: pandas' casts may depend on whether a column holds a missing value
    for fill in (0, "", None):
        try:
            return pd.Series(pd.array([fill] * k, dtype=pdt))
        except (TypeError, ValueError, NotImplementedError):
            continue
    return None


def fit(pdt: Any, value: Any, k: int | None, how: str) -> pd.Series | None:
    """pandas' setitem of ``value`` (a scalar: ``k`` None; else ``k`` values) into a stand-in of dtype
    ``pdt``, the way the object sets it (``how``): a Series' rows ("series"), some rows of a frame's
    column ("rows") or the column as a whole, in place ("column": pandas' ``is_full_setter``, which
    never upcasts). The values as the column would hold them (their dtype the column's after it);
    pandas' exception where the value does not fit; None where pandas would warn, or no stand-in exists."""
    ps = _stand_in(pdt, 1 if k is None else k)
    if ps is None:
        return None
    at = 0 if k is None else list(range(k))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if how == "series":
                ps.iloc[at] = value
            else:
                pdf = ps.to_frame("x")
                pdf.iloc[slice(None) if how == "column" else [at] if k is None else at, 0] = value
                ps = pdf["x"]
    except (TypeError, ValueError):
        raise  # (the caller's error path: pandas' verdict on the object itself)
    except Exception:  # noqa: BLE001 - another failure of the stand-in: pandas assigns
        return None
    return None if caught else ps


def _fit_as_pandas(pdt: Any, value: Any, k: int | None, is_frame: bool, rows: Rows) -> Any:
    """``fit`` the way pandas sets these rows; NotImplemented where a slice of every row leaves it
    open whether pandas sets the column as a whole (the two ways disagree)."""
    if not is_frame:
        return fit(pdt, value, k, "series")
    if rows.everything:
        return fit(pdt, value, k, "column")
    if not rows.all_by_slice:
        return fit(pdt, value, k, "rows")
    outcomes = []
    for how in ("column", "rows"):
        try:
            got = fit(pdt, value, k, how)
            outcomes.append(("ok", got))
        except (TypeError, ValueError) as exc:
            outcomes.append(("error", exc))
    (a, x), (b, y) = outcomes
    if a == b == "ok" and x is not None and y is not None and x.dtype == y.dtype and x.equals(y):
        return x
    if a == b == "error" and type(x) is type(y) and str(x) == str(y):
        raise x
    return NotImplemented


def _lit(v: Any, t: pa.DataType) -> Lit:
    return Lit(None if v is pd.NA or v is pd.NaT else scalar_value(v), t)


def _column_dtype(frame: DataFrame, f: Any) -> Any:
    if f.dtype is None or f.family in OBJECT_FAMILIES or pa.types.is_dictionary(f.dtype):
        return None
    if (pa.types.is_integer(f.dtype) or pa.types.is_boolean(f.dtype)) and not frame._schema.exact:
        return None  # (pandas' dtype may be float / object: the data decides)
    return field_pandas_dtype(f)


def settable(obj: Any) -> bool:
    """Whether ``assign`` may set values of ``obj`` (asked before its rows are looked up): a Series
    pandas built and gframe has not planned yet (``_pending``) is judged by its pandas dtype, as a
    plan of it may not exist (interval categories)."""
    pending = obj.__dict__.get("_pending") if not isinstance(obj, DataFrame) else None
    if pending is not None:
        return _stand_in(pending.dtype, 1) is not None
    return True


def assign(obj: Any, rows: Rows, labels: list[Any] | None, value: Any, columns_key: Any = None,
           enlarges: bool = False) -> Any:
    """Assign ``value`` to ``rows`` x ``labels`` (None: a Series' values) of ``obj`` natively: None when
    done, NotImplemented where pandas assigns. ``columns_key``: the key's columns part, as the caller
    wrote it. A row the key adds (``rows.new_label``) is ``enlarge``'s where the indexer ``enlarges``."""
    if rows.new_label is not _NONE:
        return enlarge(obj, rows.new_label, columns_key, value) if enlarges else NotImplemented
    is_frame = isinstance(obj, DataFrame)
    frame = obj if is_frame else obj._frame()
    schema = frame._schema
    if labels is None:
        labels = [schema.columns[0].label]
    fields = []
    for lab in labels:
        hits = [f for f in schema.columns if f.label == lab and type(f.label) is type(lab)]
        if len(hits) != 1:
            return NotImplemented  # a new column, or a label gframe cannot tell apart
        fields.append(hits[0])
    if len(set(f.name for f in fields)) != len(fields):
        return NotImplemented
    target = _Target(frame._plan)
    mask: Expr | None
    if rows.mask is not None:
        cond = rows.mask.fillna(False)
        al = _align_expr(frame._plan, cond, "mask")
        if al is None or al[0] is not frame._plan:
            return NotImplemented
        mask, target.by_position, target.base = al[1], False, frame._plan
    elif rows.everything:
        mask = None
    else:
        if not target.usable(frame):
            return NotImplemented
        mask = target.mask(rows)
        if mask is None:
            return NotImplemented
    n_rows = None if rows.positions is None else len(rows.positions)
    if rows.scalar and not is_scalar(value) and not (is_frame and (len(fields) > 1 or isinstance(columns_key, list))):
        return NotImplemented  # one cell and a list-like: pandas unpacks a length-1 array, or refuses

    # the value of each column: one scalar, or one value per selected row (in key order)
    per_column: list[Any]
    if is_scalar(value):
        per_column = [("scalar", value)] * len(fields)
    elif isinstance(value, Series):
        if len(fields) != 1:
            return NotImplemented
        per_column = [("series", value)]
    elif isinstance(value, (list, tuple, np.ndarray, pd.Series, pd.Index, pd.api.extensions.ExtensionArray)) \
            and not isinstance(value, pd.MultiIndex) and np.ndim(value) == 1:
        vals = list(value) if not isinstance(value, (np.ndarray, pd.api.extensions.ExtensionArray)) else value
        if isinstance(value, pd.Series):
            return NotImplemented  # (pandas aligns a Series value on the labels)
        if len(fields) > 1 or rows.scalar:
            if n_rows != 1 or len(vals) != len(fields) or not all(is_scalar(v) for v in vals):
                return NotImplemented
            per_column = [("scalar", v) for v in vals]
        else:
            k = _length(frame) if rows.everything else n_rows
            if k is None:
                return NotImplemented
            if len(vals) != k:
                raise ValueError("cannot set using a list-like indexer with a different length than the value")
            if not rows.everything and k > MAX_ROW_VALUES:
                return NotImplemented
            per_column = [("rows", value)]
    elif isinstance(value, np.ndarray) and value.ndim == 2 and value.dtype != object and is_frame:
        # rows x columns: each column its values, row by row in the key's order
        k = _length(frame) if rows.everything else n_rows
        if k is None or value.shape != (k, len(fields)) or not rows.everything and k > MAX_ROW_VALUES:
            return NotImplemented  # (a shape pandas broadcasts or refuses: its verdict)
        per_column = [("rows", value[:, j]) for j in range(len(fields))]
    else:
        return NotImplemented

    new_exprs: dict[str, tuple[Expr, Any]] = {}
    whole: list[tuple[Any, pd.Series]] = []  # columns whose every row is given, in order
    for f, (kind, v) in zip(fields, per_column):
        pdt = _column_dtype(frame, f)
        if pdt is None:
            return NotImplemented
        col: Expr = Col(f.name)
        if kind == "series":
            if v.dtype != pdt:
                return NotImplemented
            al = _align_expr(frame._plan, v)
            if al is None or al[0] is not frame._plan:
                return NotImplemented
            if mask is None:
                new_exprs[f.name] = (al[1], pdt)
            else:
                new_exprs[f.name] = (func("where", col, func("invert", mask), al[1]), pdt)
            continue
        if kind == "scalar":
            fitted = _fit_as_pandas(pdt, v, None, is_frame, rows)
            if fitted is None or fitted is NotImplemented:
                return NotImplemented
            got, out_t = fitted.iloc[0], f.dtype
            if fitted.dtype != pdt:
                # pandas: a missing value into a numpy int column makes it float64 (not where a
                # frame's whole column is set in place); any other change of dtype is pandas'
                if not (isinstance(pdt, np.dtype) and pdt.kind in "iu" and fitted.dtype == np.float64
                        and pd.isna(got)):
                    return NotImplemented
                col, out_t = func("cast", col, dtype=pa.float64()), pa.float64()
            lit = _lit(got, out_t)
            expr = lit if mask is None else func("where", col, func("invert", mask), lit)
            new_exprs[f.name] = (expr, fitted.dtype)
            continue
        # one value per selected row
        k = _length(frame) if rows.everything else n_rows
        fitted = _fit_as_pandas(pdt, v, k, is_frame, rows)
        if fitted is None or fitted is NotImplemented or fitted.dtype != pdt:
            return NotImplemented
        if rows.everything or isinstance(rows.positions, range) and rows.positions == range(_length(frame)):
            whole.append((f, fitted))
            continue
        if not target.by_position and target.labels is None:
            return NotImplemented  # (rows by a mask: pandas)
        expr = col
        for p, got in zip(rows.positions, fitted.array):
            key = target.row_key(p)
            if key is None:
                return NotImplemented
            expr = func("where", expr, BinOp("ne", target.key, Lit(key)), _lit(got, f.dtype))
        new_exprs[f.name] = (expr, pdt)

    if whole:
        return _whole_columns(obj, frame, whole) if not new_exprs else NotImplemented
    outputs = tuple((f.label, new_exprs[f.name][0] if f.name in new_exprs else Col(f.name)) for f in schema.columns)
    uses_key = mask is not None or any(kind == "rows" for kind, _ in per_column)
    plan: L.Plan = L.Select(outputs, target.base if uses_key else frame._plan)
    if uses_key:
        plan = target.finish(plan)
    out = DataFrame._from_plan(plan)
    for f, new in zip(out._schema.columns, schema.columns):
        if new.name in new_exprs and field_pandas_dtype(f) != new_exprs[new.name][1]:
            return NotImplemented  # the engines' type is not pandas' dtype: pandas assigns
    if is_frame:
        obj._replace_from(out)
    else:
        obj._replace_from(Series._back(out))
    return None


def _whole_columns(obj: Any, frame: DataFrame, whole: list[tuple[Any, pd.Series]]) -> Any:
    """Every row's value given in order: each column is the host values (of the column's dtype)."""
    idx = frame.index.to_pandas() if frame._schema.index is not None else None
    if idx is not None and not idx.is_unique:
        return NotImplemented
    new = frame
    for f, fitted in whole:
        new = new._with_column(f.label, fitted.set_axis(idx) if idx is not None else fitted)
        if len(new._schema.columns) != len(frame._schema.columns):
            return NotImplemented
        # every label (position) of the rows is the value's own, so none is missing: an int column
        # the alignment left to the data is of the column's type
        outputs = []
        for c in new._schema.columns:
            e: Expr = Col(c.name)
            if c.label == f.label and type(c.label) is type(f.label) and c.dtype is None:
                e = func("cast", e, dtype=f.dtype, family=f.family) if f.family != NUMPY else func("cast", e, dtype=f.dtype)
            outputs.append((c.label, e))
        new = DataFrame._from_plan(L.Select(tuple(outputs), new._plan))
        hits = [c for c in new._schema.columns if c.label == f.label and type(c.label) is type(f.label)]
        if len(hits) != 1 or field_pandas_dtype(hits[0]) != fitted.dtype:
            return NotImplemented
    if isinstance(obj, DataFrame):
        obj._replace_from(new)
    else:
        obj._replace_from(Series._back(new))
    return None


def enlarge(obj: Any, label: Any, columns_key: Any, value: Any) -> Any:
    """``loc[label] = value`` (``loc[label, columns]``, ``ser[label]``) for a label the index lacks:
    pandas appends the row (``_setitem_with_indexer_missing``; columns not given are missing). The
    columns' dtypes after it, and the row as they hold it, are pandas' verdict on a one-row stand-in
    of the columns' dtypes and the index's first label; the object's rows and the new one are then
    concatenated natively (``Union``), the new index being the labels' ``insert`` (a RangeIndex that
    continues stays one). NotImplemented where pandas would warn, where a dtype changes other than
    an int column taking a missing value, or the index is not plain labels."""
    is_frame = isinstance(obj, DataFrame)
    if not is_scalar(value) and not (is_frame and isinstance(value, (list, tuple, np.ndarray)) and np.ndim(value) == 1
                                     and all(is_scalar(v) for v in value)):
        return NotImplemented
    frame = obj if is_frame else obj._frame()
    schema = frame._schema
    if not schema.columns or schema.index is not None and (len(schema.index) != 1 or not _plain_index(schema.index[0])
                                                            or schema.index[0].freq is not None):
        return NotImplemented
    n = _length(frame)
    if n == 0:
        return NotImplemented  # (pandas builds the frame from the value)
    idx = _host_index(frame)
    grown = idx.insert(n, label)
    range_kept = schema.index is None and isinstance(grown, pd.RangeIndex)
    if not range_kept and grown.dtype != (np.dtype(np.int64) if schema.index is None else idx.dtype):
        return NotImplemented  # (an object index: pandas)
    pdts = [_column_dtype(frame, f) for f in schema.columns]
    stand = [None if p is None else _stand_in(p, 1) for p in pdts]
    if any(s is None for s in stand):
        return NotImplemented
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if is_frame:
                probe = pd.DataFrame({i: st.array for i, st in enumerate(stand)}, index=idx[:1])
                probe.columns = schema.columns_index()
                if columns_key is NO_COLUMNS:
                    probe.loc[label] = value
                else:
                    probe.loc[label, columns_key] = value
            else:
                probe = pd.Series(stand[0].array, index=idx[:1], name=obj.name)
                probe.loc[label] = value
                probe = probe.to_frame(schema.columns[0].label)
    except Exception:  # noqa: BLE001 - whatever pandas makes of it, on the object itself: pandas assigns
        return NotImplemented
    if caught or len(probe) != 2 or list(probe.columns) != list(schema.labels):
        return NotImplemented
    outputs = []
    for f, pdt, (_, col) in zip(schema.columns, pdts, probe.items()):
        e: Expr = Col(f.name)
        if col.dtype != pdt:
            if not (isinstance(pdt, np.dtype) and pdt.kind in "iu" and col.dtype == np.float64):
                return NotImplemented
            e = func("cast", e, dtype=pa.float64())
        outputs.append((f.label, e))
    row = DataFrame._from_pandas(probe.iloc[1:], "the row loc adds")
    left: L.Plan = L.Select(tuple(outputs), frame._plan)
    right: L.Plan = L.Select(tuple((f.label, Col(g.name)) for f, g in zip(schema.columns, row._schema.columns)), row._plan)
    if range_kept:
        plan: L.Plan = L.Union(True, left, L.ResetIndex(True, (), right))
    else:
        plan = L.Union(False, L.RowIndex(left) if schema.index is None else left, right)
    out = DataFrame._from_plan(plan)
    for f, (_, col) in zip(out._schema.columns, probe.items()):
        if field_pandas_dtype(f) != col.dtype:
            return NotImplemented
    if not range_kept and (out._schema.index is None or len(out._schema.index) != 1
                           or out._schema.index[0].dtype != (pa.int64() if schema.index is None else schema.index[0].dtype)
                           or out._schema.index[0].label != idx.name):
        return NotImplemented
    obj._replace_from(out if is_frame else Series._back(out))
    return None
