"""DataFrame: the pandas DataFrame API over an immutable logical plan.

Every method builds a new plan and returns a new DataFrame; nothing computes until a value is
needed (repr, len, iteration, to_pandas, values, scalars, writes). In-place idioms
(``df["c"] = ...``, ``inplace=True``) swap the object's plan. What is not native here runs through
pandas via ``gframe.fallback`` (see ``__getattr__``), recorded and visible.
"""
from __future__ import annotations

import sys
import warnings
from typing import Any, Callable, Hashable, Iterable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
from gframe.frontend.pdcompat import is_local_in_caller_frame, is_setitem_syntax_in_caller_frame
from pandas.errors import ChainedAssignmentError
from pandas.errors.cow import _chained_assignment_msg
from pandas.core.common import pipe as pandas_pipe

from gframe import engines
from gframe.frontend.bridge import (NotNative, as_pandas, call_method, get_attribute, objects_via_pandas, pandas_private, pickled_via_pandas, set_attribute, set_item, user_warnings,
                                    via_pandas, wraps_pandas)
from gframe.frontend.generic import NDFrame
from gframe.frontend.arrow import from_arrow, is_arrow_tabular
from gframe.frontend.device import frame_plan as device_frame_plan, is_device_data, to_host
from gframe.frontend.convert import NO_DEFAULT, converted_dtype, switches
from gframe.frontend.coerce import InvalidComparison, invalid_comparison, is_scalar, literal, scalar_operand, scalar_value
from gframe.frontend.verdict import agrees, verdict
from gframe.frontend.explain import explain as explain_plan, show
from gframe.interop import arrow_to_pandas, host_copy, scan_pandas
from gframe.frontend.index import Index, relabelled
from gframe.frontend import query as query_mod
from gframe import udf
from gframe.frontend.numpy_protocols import NumpyProtocols
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Col, Expr, Lit, columns_used, func
from gframe.plan.dtypes import aggregate_type, fill_makes_objects, literal_type
from gframe.plan.schema import (ARROW_FAMILIES, arrow_reduction_native, MASKED, NA_FAMILIES, DeletedFreq, NUMPY, OBJECT, OBJECT_FAMILIES, PYOBJECT, Field, Schema, family_dtype, index_name, internal_name, is_numeric,
                                 is_numeric_for_pandas, is_opaque, is_string, pandas_dtype)

def _listify(x: Any) -> list[Any]:
    if x is None:
        return []
    if isinstance(x, (list, tuple, pd.Index, np.ndarray)):
        return list(x)
    return [x]


# references to a frame or Series an assignment sees when nothing else holds it (the caller's stack,
# the method's ``self``, ``getrefcount``'s argument): pandas' ``REF_COUNT`` (one fewer from Python 3.14)
_CHAINED_REFS = 2 if sys.version_info >= (3, 14) else 3



@wraps_pandas(pd.DataFrame)
class DataFrame(NumpyProtocols, NDFrame):
    """Two-dimensional, size-mutable, lazily computed tabular data (pandas' DataFrame API).

    >>> import gframe as pd
    >>> df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", None]})
    >>> df[df.a > 1].shape
    (2, 2)
    """

    _plan: L.Plan
    # pandas' operators defer to an operand of a higher ``__pandas_priority__`` (pandas' DataFrame: 4000): a
    # pandas object with a gframe one is gframe's operator, aligned as pandas aligns
    __pandas_priority__ = 4001

    def __init__(self, data: Any = None, index: Any = None, columns: Any = None, dtype: Any = None,
                 copy: bool | None = None) -> None:
        if type(data) is DataFrame and index is None and columns is None and dtype is None:
            object.__setattr__(self, "_plan", data._plan)
            return
        if is_device_data(data):  # cudf, CUDA arrays: kept where they are (frontend/device.py)
            plan = device_frame_plan(data, index, columns, dtype)
            if plan is not None:
                object.__setattr__(self, "_plan", plan)
                return
            data = to_host(data)
        if is_arrow_tabular(data) and index is None and columns is None and dtype is None:
            object.__setattr__(self, "_plan", from_arrow(data)._plan)  # a polars frame, a pyarrow table...
            return
        data = as_pandas(data)
        index, columns = as_pandas(index), as_pandas(columns)  # (a gframe Index keeps its dtype)
        pdf = data if isinstance(data, pd.DataFrame) and index is None and columns is None and dtype is None \
            else pd.DataFrame(data, index=index, columns=columns, dtype=dtype, copy=copy)
        if not pdf.columns.is_unique:  # no plan holds it: kept as pandas' frame (``frontend/hostframe.py``)
            from gframe.frontend.hostframe import hold

            hold(self, pdf)
            return
        object.__setattr__(self, "_plan", scan_pandas(pdf, "DataFrame"))

    # ------------------------------------------------------------------ alternate constructors
    @classmethod
    def from_dict(cls, data: Any, orient: str = "columns", dtype: Any = None, columns: Any = None) -> "DataFrame":
        """pandas.DataFrame.from_dict: host data, converted at the edge as the constructor does."""
        return cls._from_pandas(pd.DataFrame.from_dict(as_pandas(data), orient=orient, dtype=dtype, columns=columns),
                                "DataFrame.from_dict")

    @classmethod
    def from_records(cls, data: Any, index: Any = None, exclude: Any = None, columns: Any = None,
                     coerce_float: bool = False, nrows: int | None = None) -> "DataFrame":
        """pandas.DataFrame.from_records: host data, converted at the edge as the constructor does."""
        if isinstance(data, DataFrame):  # pandas refuses a DataFrame here
            raise TypeError("Passing a DataFrame to DataFrame.from_records is not supported. Use set_index and/or drop "
                            "to modify the DataFrame instead.")
        return cls._from_pandas(pd.DataFrame.from_records(as_pandas(data), index=index, exclude=exclude,
                                                          columns=columns, coerce_float=coerce_float, nrows=nrows),
                                "DataFrame.from_records")

    # ------------------------------------------------------------------ construction helpers
    @classmethod
    def _from_plan(cls, plan: L.Plan) -> "DataFrame":
        obj = cls.__new__(cls)
        object.__setattr__(obj, "_plan", plan)
        return obj

    @classmethod
    def _from_pandas(cls, pdf: pd.DataFrame, origin: str = "pandas") -> "DataFrame":
        if not pdf.columns.is_unique:  # no plan holds it: kept as pandas' frame (``frontend/hostframe.py``)
            from gframe.frontend.hostframe import host_frame

            return host_frame(pdf)
        return cls._from_plan(scan_pandas(pdf, origin))

    def _replace(self, plan: L.Plan) -> None:
        """In-place idioms: swap this object's plan."""
        object.__setattr__(self, "_plan", plan)

    def _replace_from(self, new: "DataFrame") -> None:
        """In-place idioms: take ``new``'s contents, which may be a frame no plan holds (duplicate column
        labels, ``frontend/hostframe.py``): this object becomes one of those, or stops being one."""
        from gframe.frontend.hostframe import HostFrame, hold

        if isinstance(new, HostFrame):
            hold(self, new._host)
            return
        if isinstance(self, HostFrame):
            self.__dict__.pop("_host", None)
            object.__setattr__(self, "__class__", DataFrame)
        self._replace(new._plan)

    def _inplace(self, new: "DataFrame", inplace: bool) -> "DataFrame | None":
        if inplace:
            self._replace_from(new)
            return None
        return new

    def __setattr__(self, name: str, value: Any) -> None:
        # the class's own properties first (``columns``, ``index``: their setters decide what is
        # native), then pandas' ``df.a = ...`` for an existing column
        if name.startswith("_") or isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        elif self._schema.has(name):
            self[name] = value
        else:
            object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ schema, no execution
    def _value_types(self) -> list[Any]:
        """The Arrow types the value methods compute on (``objects_via_pandas``); of a column whose
        type the data decides, what pandas may see (``Series._data_typed_value``)."""
        types = [f.dtype for f in self._schema.columns]
        if any(t is None for t in types):
            undecided, nulls = L.undecided_bool_sources(self._plan), L.arrow_null_candidates(self._plan)
            types = [PYOBJECT if f.name in undecided else pa.null() if f.name in nulls else t
                     for f, t in zip(self._schema.columns, types)]
        return types

    @property
    def _schema(self) -> Schema:
        return self._plan.schema

    @property
    def columns(self) -> pd.Index:
        return self._schema.columns_index()

    @columns.setter
    def columns(self, value: Any) -> None:
        labels = list(value)
        if len(labels) != len(self._schema.columns):
            raise ValueError(f"Length mismatch: Expected axis has {len(self._schema.columns)} elements, "
                             f"new values have {len(labels)} elements")
        old = list(self._schema.labels)
        # native: a one-to-one relabelling (a rename); duplicate or tuple labels, through pandas
        if isinstance(value, pd.MultiIndex) or len(set(old)) != len(old) or len(set(labels)) != len(labels) \
                or any(isinstance(x, tuple) for x in old + labels):
            self._replace_from(set_attribute(self, "columns", value, "relabelling not one-to-one"))
            return
        self._replace(self.rename(columns=dict(zip(old, labels)))._plan)

    @property
    def dtypes(self) -> pd.Series:
        s = self._schema
        if not s.exact or any(pa.types.is_dictionary(f.dtype) for f in s.columns):
            return self.to_pandas().dtypes  # some dtype is decided by the data (a categorical's categories)
        return pd.Series([pandas_dtype(f.dtype, family=f.family) for f in s.columns], index=self.columns, dtype=object)

    @property
    def ndim(self) -> int:
        return 2

    @property
    def index(self) -> Index:
        return Index._of(self._plan, self)

    @index.setter
    def index(self, value: Any) -> None:
        plan = relabelled(self._plan, value)
        if plan is None:
            self._replace_from(set_attribute(self, "index", value, "setting the axis is not native"))
            return
        self._replace(plan)

    def _col(self, label: Hashable) -> Field:
        try:
            return self._schema.field(label)
        except (KeyError, TypeError):
            raise KeyError(label) from None

    def _names(self, labels: Iterable[Hashable], axis_msg: str = "not in index") -> list[str]:
        labels = list(labels)
        missing = [lab for lab in labels if not self._schema.has(lab)]
        if missing:
            raise KeyError(f"{missing} {axis_msg}")
        return [internal_name(lab) for lab in labels]

    def _subset_labels(self, subset: Any) -> list[Hashable]:
        """pandas' reading of a ``duplicated``/``drop_duplicates`` subset: one label (a string, a
        tuple that is a column's label, any non-iterable) or an iterable of labels (a set too)."""
        if not np.iterable(subset) or isinstance(subset, str) or (isinstance(subset, tuple) and self._schema.has(subset)):
            return [subset]
        return list(subset)

    def _subset_names(self, labels: Iterable[Hashable]) -> list[str] | None:
        """``_names`` of a ``duplicated``/``drop_duplicates`` subset; None for an empty frame (no rows
        or no columns), where pandas answers before it looks the labels up (a missing one raises
        KeyError only where there are values). The row count is computed only for a missing label."""
        labels = list(labels)
        missing = {lab for lab in labels if not self._schema.has(lab)}
        if missing and (not self._schema.columns or len(self) == 0):
            return None
        if missing:
            raise KeyError(pd.Index(missing))  # pandas' message: the Index of the missing labels
        return self._names(labels)

    # ------------------------------------------------------------------ execution
    def _result(self) -> engines.Result:
        return engines.materialize(self._plan)

    def to_pandas(self) -> pd.DataFrame:
        """Compute and return a pandas DataFrame (the only full host copy)."""
        hit = host_copy(self._plan)
        if hit is not None:
            return hit
        res = self._result()
        schema = self._schema
        if res.objects:  # a merge's bools it left missing: object, whatever rows were dropped since
            schema = schema.with_columns(Field(f.label, pa.bool_(), OBJECT) if f.name in res.objects else f
                                         for f in schema.columns)
        return arrow_to_pandas(res.to_arrow(), schema)

    def __len__(self) -> int:
        return self._result().num_rows()

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), len(self._schema.columns))

    @property
    def size(self) -> int:
        n, m = self.shape
        return n * m

    @property
    def empty(self) -> bool:
        return len(self._schema.columns) == 0 or len(self) == 0

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._schema.labels)

    def __contains__(self, key: Hashable) -> bool:
        return self._schema.has(key)

    def keys(self) -> pd.Index:
        return self.columns

    def items(self) -> Iterator[tuple[Hashable, Any]]:
        for label in self._schema.labels:
            yield label, self[label]

    def __repr__(self) -> str:
        return _repr_frame(self, html=False)

    def _repr_html_(self) -> str:
        return _repr_frame(self, html=True)

    def __bool__(self) -> bool:
        raise ValueError("The truth value of a DataFrame is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all().")

    __hash__ = None  # type: ignore[assignment]

    def explain(self, optimized: bool = True, analyze: bool = False) -> str:
        """The logical plan (and the optimized plan) with the engine each node runs on.

        ``analyze=True`` runs the query and shows, per node, its engine, time, rows, bytes and
        host<->device transfers (an HTML table in a notebook).
        """
        return show(explain_plan(self._plan, optimized=optimized, analyze=analyze))

    def dtypes_arrow(self) -> list[Any]:
        return [f.dtype for f in self._schema.columns]

    def copy(self, deep: bool = True) -> "DataFrame":
        return DataFrame._from_plan(self._plan)

    # ------------------------------------------------------------------ column access
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            if name != "_plan" and pandas_private(pd.DataFrame, name):
                return get_attribute(self, name)
            raise AttributeError(name)
        plan = self.__dict__.get("_plan") if hasattr(self, "__dict__") else None
        if plan is None:
            plan = object.__getattribute__(self, "_plan")
        if plan.schema.has(name):
            return self[name]
        attr = getattr(pd.DataFrame, name, None)
        if attr is None:
            raise AttributeError(f"'DataFrame' object has no attribute {name!r}")
        return get_attribute(self, name)

    def __getitem__(self, key: Any) -> Any:
        if callable(key) and not isinstance(key, (Series, Index)):
            key = key(self)  # pandas: df[lambda d: d.a > 1]
        try:
            return self._getitem(key)
        except NATIVE_ERRORS as exc:
            # pandas' verdict on a key found wrong: a column lookup's needs the column labels only
            # (a frame of no rows, built from the schema: nothing is computed)
            labels_only = is_scalar(key) or (isinstance(key, list) and not any(isinstance(k, (bool, np.bool_)) for k in key))
            pkey = as_pandas(key)
            probe = pd.DataFrame(columns=as_pandas(self.columns)) if labels_only else self
            pandas_verdict(probe, lambda p: p[pkey], exc)
            return call_method(self, "__getitem__", (key,), {}, "key not native")

    def _getitem(self, key: Any) -> Any:

        if isinstance(key, Series):
            return self._filter(key)
        if isinstance(key, slice):
            return self.iloc[key]
        if isinstance(key, (list, tuple, pd.Index, np.ndarray, Index, pd.api.extensions.ExtensionArray)) \
                and not (isinstance(key, tuple) and self._schema.has(key)):
            keys = list(key) if not isinstance(key, Index) else key.tolist()
            if keys and all(isinstance(k, (bool, np.bool_)) for k in keys) and not all(self._schema.has(k) for k in keys):
                return self._filter(Series(keys, index=self.index if self._schema.index is not None else None))
            names = self._names(keys)
            return DataFrame._from_plan(L.Select(tuple((lab, Col(n)) for lab, n in zip(keys, names)), self._plan))
        if isinstance(key, DataFrame):
            return via_pandas("DataFrame.__getitem__", pd.DataFrame.__getitem__, (self, key), {}, "frame mask")
        if not self._schema.has(key) and not isinstance(key, tuple):
            # MultiIndex columns: the key names a first level; the result's labels are the rest
            sub = [f for f in self._schema.columns if isinstance(f.label, tuple) and f.label and f.label[0] == key]
            if sub:
                rest = [f.label[1:] if len(f.label) > 2 else f.label[1] for f in sub]
                return DataFrame._from_plan(L.Select(tuple((r, Col(f.name)) for r, f in zip(rest, sub)), self._plan))
        f = self._col(key)
        return Series._over(self._plan, Col(f.name), f.label)

    def _filter(self, mask: Any) -> "DataFrame":
        if not isinstance(mask, Series):
            mask = Series(mask)
        t = mask._dtype_arrow
        if t is not None and not pa.types.is_boolean(t):
            raise KeyError(f"boolean mask expected, got a Series of dtype {mask.dtype}")
        al = _align_expr(self._plan, mask, "mask")
        if al is None:
            return call_method(self, "__getitem__", (mask,), {}, "mask index not alignable natively")
        plan, pred = al
        base = _positions(plan)
        out: L.Plan = L.Filter(pred, base)
        if plan is not self._plan:  # the aligned mask column goes once it has done its work
            out = L.Select(tuple((f.label, Col(f.name)) for f in self._schema.columns), out)
        return DataFrame._from_plan(out)

    def __setitem__(self, key: Any, value: Any) -> None:
        if sys.getrefcount(self) <= _CHAINED_REFS and not is_local_in_caller_frame(self) \
                and is_setitem_syntax_in_caller_frame():
            # pandas' check (copy-on-write): an assignment (``obj[key] = v`` syntax) into a frame
            # nothing else holds - a temporary, as ``df[["a"]]["a"] = 1`` makes - can change
            # nothing the caller sees (pandas' helpers read the caller's frame: called from here)
            warnings.warn(_chained_assignment_msg, ChainedAssignmentError, stacklevel=2)
        if isinstance(key, list):
            if isinstance(value, DataFrame):
                for k, c in zip(key, value._schema.labels):
                    self[k] = value[c]
                return
            for k in key:
                self[k] = value
            return
        if isinstance(key, Series) and is_scalar(value):
            # pandas: the mask's rows set in place (``iloc[positions] = value``), as ``loc[mask]``
            self.loc[key] = value
            return
        if isinstance(key, slice) or not isinstance(key, Hashable):
            # rows by a slice, an array or frame mask: pandas assigns (and raises what it raises)
            self._replace_from(set_item(self, key, value, "assignment key not native"))
            return
        self._replace(self._with_column(key, value)._plan)

    def _with_column(self, key: Hashable, value: Any) -> "DataFrame":
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]  # pandas broadcasts a 0-d array as its scalar, of the array's dtype
        if isinstance(value, DataFrame) and len(value._schema.columns) == 1:
            value = value[value._schema.labels[0]]
        if callable(value) and not isinstance(value, Series):
            value = value(self)
        if _known_no_rows(self._plan) and not (is_scalar(value) and self._schema.columns):
            # pandas' _ensure_valid_index: a frame without rows takes the rows (and index) of the
            # value; columns it has become missing (pandas' reindex) - pandas computes that (and a
            # scalar into a frame of no rows and no columns, which an engine's Select would broadcast)
            if self._schema.columns or self._schema.index is not None or is_scalar(value):
                return set_item(self, key, value, "assignment to a frame without rows")
            if not isinstance(value, Series):
                value = Series(value.to_pandas() if isinstance(value, Index) else value)
            return DataFrame._from_plan(L.Select(((key, value._expr),), value._plan))
        if not isinstance(value, Series) and not is_scalar(value):
            arr = value.to_pandas() if isinstance(value, Index) else value
            n = len(self)
            if len(arr) != n:
                raise ValueError(f"Length of values ({len(arr)}) does not match length of index ({n})")
            idx = self.index.to_pandas() if self._schema.index is not None else None
            value = Series(pd.Series(arr, index=idx) if not isinstance(arr, pd.Series) else arr.set_axis(idx) if idx is not None else arr.reset_index(drop=True))
            if not self._schema.columns:  # rows and labels only: the values with those labels are the frame
                return DataFrame._from_plan(L.Select(((key, value._expr),), value._plan))
        if isinstance(value, Series):
            al = _align_expr(self._plan, value)
            if al is None:
                return set_item(self, key, value, "index of the value not alignable natively")
            plan, expr = al
        else:
            plan, expr = self._plan, literal(value)
            if isinstance(value, (float, np.floating)) and value != value:
                # pandas: a NaN column is float64 (a numpy float's NaN: its dtype); None's is object
                expr = Lit(None, pa.from_numpy_dtype(value.dtype) if isinstance(value, np.floating) else pa.float64())
        outputs = [(f.label, Col(f.name)) for f in self._schema.columns]
        replaced = False
        for i, (lab, _) in enumerate(outputs):
            if lab == key and type(lab) is type(key):
                outputs[i] = (lab, expr)
                replaced = True
        if not replaced:
            outputs.append((key, expr))
        return DataFrame._from_plan(L.Select(tuple(outputs), plan))

    def __delitem__(self, key: Hashable) -> None:
        self._replace(self.drop(columns=[key])._plan)

    def pop(self, item: Hashable) -> Any:
        out = self[item]
        del self[item]
        return out

    def insert(self, loc: int, column: Hashable, value: Any, allow_duplicates: bool = False) -> None:
        if self._schema.has(column):
            raise ValueError(f"cannot insert {column}, already exists")
        new = self._with_column(column, value)
        labels = list(self._schema.labels)
        labels.insert(loc, column)
        self._replace(new[labels]._plan)

    @property
    def loc(self) -> Any:
        return LocIndexer(self)

    @property
    def iloc(self) -> Any:
        return ILocIndexer(self)

    # ------------------------------------------------------------------ rows
    def head(self, n: int = 5) -> "DataFrame":
        if n >= 0:
            return DataFrame._from_plan(L.Slice(0, n, self._plan))
        return DataFrame._from_plan(_all_but_last(self._plan, -n))

    def tail(self, n: int = 5) -> "DataFrame":
        if n == 0:
            return DataFrame._from_plan(L.Slice(0, 0, _positions(self._plan)))
        if n > 0:
            return DataFrame._from_plan(L.Slice(-n, None, _positions(self._plan)))
        return DataFrame._from_plan(L.Slice(-n, None, _positions(self._plan)))

    # ------------------------------------------------------------------ elementwise
    def _map_columns(self, fn: Callable[[Field, Expr], Expr | None], labels: Iterable[Hashable] | None = None) -> "DataFrame":
        want = None if labels is None else set(labels)
        outputs = []
        for f in self._schema.columns:
            e: Expr = Col(f.name)
            if want is None or f.label in want:
                new = fn(f, e)
                e = new if new is not None else e
            outputs.append((f.label, e))
        return DataFrame._from_plan(L.Select(tuple(outputs), self._plan))

    @pickled_via_pandas
    def isna(self) -> "DataFrame":
        return self._map_columns(lambda f, e: func("isna", e))

    isnull = isna

    @pickled_via_pandas
    def notna(self) -> "DataFrame":
        return self._map_columns(lambda f, e: func("notna", e))

    notnull = notna

    @objects_via_pandas
    def abs(self) -> "DataFrame":
        if self._python_objects() or any(f.dtype is not None and pa.types.is_boolean(f.dtype) and f.family in ARROW_FAMILIES
                                       for f in self._schema.columns):
            # Python's abs of each object in an object column; pyarrow has no abs of bool[pyarrow]
            return call_method(self, "abs", (), {}, "abs of Python or Arrow bools is pandas'")
        for f in self._schema.columns:
            if not is_numeric(f.dtype):
                raise TypeError(f"bad operand type for abs(): column {f.label!r} of dtype {pandas_dtype(f.dtype)}")
        return self._map_columns(lambda f, e: func("abs", e))

    @objects_via_pandas
    def round(self, decimals: int | dict[Hashable, int] = 0) -> "DataFrame":
        if isinstance(decimals, dict):
            return self._map_columns(lambda f, e: func("round", e, decimals=int(decimals[f.label])) if is_numeric(f.dtype) else None,
                                     decimals.keys())
        return self._map_columns(lambda f, e: func("round", e, decimals=int(decimals)) if is_numeric(f.dtype) else None)

    def rank(self, axis: Any = 0, method: str = "average", numeric_only: bool = False, na_option: str = "keep",
             ascending: bool = True, pct: bool = False) -> "DataFrame":
        """Ranks per column (numpy float64, as pandas); other arguments or column types run through pandas."""
        kwargs = {"axis": axis, "method": method, "numeric_only": numeric_only, "na_option": na_option,
                  "ascending": ascending, "pct": pct}
        # (a frame's ranks are numpy float64 whatever the family; an object column's strings are Python's to order)
        exprs = {f.name: _rank_expr(Col(f.name), f.dtype, kwargs, f.family if f.family in OBJECT_FAMILIES else NUMPY)
                 for f in self._schema.columns}
        if any(e is None for e in exprs.values()):
            return call_method(self, "rank", (), kwargs)
        # pandas ranks a frame's columns as numpy float64 whatever their dtype (Int64, Arrow, string),
        # where a Series keeps its family
        return self._map_columns(lambda f, e: exprs[f.name] if f.family == NUMPY
                                 else func("cast", exprs[f.name], dtype=pa.float64(), family=NUMPY))

    @objects_via_pandas
    def clip(self, lower: Any = None, upper: Any = None, axis: Any = None, inplace: bool = False) -> "DataFrame | None":
        if not (is_scalar(lower) and is_scalar(upper)):
            return call_method(self, "clip", (lower, upper), {"axis": axis, "inplace": inplace})
        lo, hi = scalar_value(lower), scalar_value(upper)
        if not all(clip_native(f.dtype, f.family, lo, hi) for f in self._schema.columns if is_numeric(f.dtype)):
            # pandas' result depends on the data (a bound of another kind, a bool column)
            return call_method(self, "clip", (lower, upper), {"axis": axis, "inplace": inplace})
        new = self._map_columns(lambda f, e: func("clip", e, lower=lo, upper=hi) if is_numeric(f.dtype) else None)
        return self._inplace(new, inplace)

    @objects_via_pandas
    def fillna(self, value: Any = None, *, axis: Any = None, inplace: bool = False, limit: Any = None) -> "DataFrame | None":
        if value is None or limit is not None:
            return call_method(self, "fillna", (value,), {"axis": axis, "inplace": inplace, "limit": limit})
        fills = value.items() if isinstance(value, dict) else [(f.label, value) for f in self._schema.columns] \
            if is_scalar(value) else []
        fields = {f.label: f for f in self._schema.columns}
        if any(fill_makes_objects(fields[k].dtype, literal_type(v), fields[k].family) if k in fields
               else fill_makes_objects(None, literal_type(v)) for k, v in fills if not _is_listlike(v)):
            # pandas' object column where values are missing: pandas computes it
            return call_method(self, "fillna", (value,), {"axis": axis, "inplace": inplace})
        try:
            if isinstance(value, dict):
                new = self._map_columns(lambda f, e: _fill(f, e, value[f.label]), value.keys())
            elif is_scalar(value):
                new = self._map_columns(lambda f, e: _fill(f, e, value))
            else:
                raise NotImplementedError("fillna with a frame or a Series")
        except NotImplementedError:
            return call_method(self, "fillna", (value,), {"axis": axis, "inplace": inplace})
        return self._inplace(new, inplace)

    @objects_via_pandas
    def isin(self, values: Any) -> "DataFrame":
        if isinstance(values, dict):
            return self._map_columns(lambda f, e: func("isin", e, values=tuple(scalar_value(v) for v in values.get(f.label, ()))))
        if isinstance(values, (DataFrame, Series, pd.DataFrame, pd.Series)):
            raise NotNative("isin of a frame or series: aligned on the labels")
        if not _is_listlike(values):
            raise TypeError(f"only list-like or dict-like objects are allowed to be passed to DataFrame.isin(), you passed a '{type(values).__name__}'")
        vals = tuple(scalar_value(v) for v in _values_of(values))
        return self._map_columns(lambda f, e: func("isin", e, values=vals))

    @objects_via_pandas
    def where(self, cond: Any, other: Any = np.nan, *, inplace: bool = False, axis: Any = None, level: Any = None) -> "DataFrame | None":
        if isinstance(cond, Series) or not is_scalar(other) or axis is not None:
            return call_method(self, "where", (cond, other), {"inplace": inplace, "axis": axis})
        if isinstance(cond, DataFrame) and isinstance(cond._plan, L.Select) and cond._plan.child == self._plan:
            # cond is computed from this frame's columns (``df > 0``): inline its expressions
            conds = dict(cond._plan.outputs)
            lit = literal(other)
            new = self._map_columns(lambda f, e: func("where", e, conds[f.label], lit) if f.label in conds else func("where", e, Lit(False), lit))
            if all(t is not None for t in new.dtypes_arrow()):
                return self._inplace(new, inplace)
        return call_method(self, "where", (cond, other), {"inplace": inplace})

    @objects_via_pandas
    def mask(self, cond: Any, other: Any = np.nan, *, inplace: bool = False, axis: Any = None, level: Any = None) -> "DataFrame | None":
        if isinstance(cond, DataFrame):
            return self.where(~cond, other, inplace=inplace)
        return call_method(self, "mask", (cond, other), {"inplace": inplace, "axis": axis})

    @objects_via_pandas
    def convert_dtypes(self, infer_objects: Any = NO_DEFAULT, convert_string: Any = NO_DEFAULT,
                       convert_integer: Any = NO_DEFAULT, convert_boolean: Any = NO_DEFAULT,
                       convert_floating: Any = NO_DEFAULT, dtype_backend: str = "numpy_nullable") -> "DataFrame":
        options = switches((infer_objects, convert_string, convert_integer, convert_boolean, convert_floating))
        changes = {}
        for f, dtype in zip(self._schema.columns, self.dtypes):
            target = converted_dtype(dtype, self._plan, Col(f.name), options, dtype_backend)
            if not (target is dtype or target == dtype):
                changes[f.label] = target
        return self.astype(changes) if changes else self.copy()

    def astype(self, dtype: Any, copy: Any = None, errors: str = "raise") -> "DataFrame":
        if isinstance(dtype, dict):
            missing = [k for k in dtype if not self._schema.has(k)]
            if missing:
                raise KeyError("Only a column name can be used for the key in a dtype mappings argument. "
                               f"'{missing[0]}' not found in columns.")
        try:
            if errors != "raise":
                raise NotImplementedError("astype(errors=...)")
            if isinstance(dtype, (pd.Series, Series)):  # a mapping of labels to dtypes, as pandas takes
                raise NotImplementedError("astype(Series of dtypes)")
            if isinstance(dtype, dict):
                return self._map_columns(lambda f, e: _cast_column(e, f, dtype[f.label], self._plan), dtype.keys())
            return self._map_columns(lambda f, e: cast_expr(e, f, dtype, self._plan))
        except NotImplementedError:
            return call_method(self, "astype", (dtype,), {"errors": errors})

    # ------------------------------------------------------------------ arithmetic
    def _binary(self, op: str, other: Any, reflected: bool = False) -> "DataFrame":
        if isinstance(other, np.ndarray) and other.ndim == 0:
            other = other[()]  # pandas' item_from_zerodim: a 0-d array is its scalar
        # pandas' exception where it refuses the operator for these dtypes (frontend/verdict.py)
        answers = verdict(op, self, other, reflected) if is_scalar(other) or isinstance(other, DataFrame) else False
        if op in ("floordiv", "mod") and any(f.dtype is not None and pa.types.is_decimal(f.dtype) for f in self._schema.columns):
            # decimal // and % are pandas' own (Series._binary says why)
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {}, "decimal // and % are not native")
        # (a column the engines only move - Python objects, Arrow's null type: ``is_opaque`` - is pandas')
        opaque = any(is_opaque(t) for t in self._value_types())
        if is_scalar(other) and not opaque:
            def apply(f: Field, e: Expr) -> Expr:
                try:
                    op_, lit = scalar_operand(op, other, f.dtype)  # per column: a string compares as a date there
                except InvalidComparison:
                    return invalid_comparison(op, e, other, f.dtype, f.family in (MASKED, *ARROW_FAMILIES))
                l, r = (lit, e) if reflected else (e, lit)
                expr = BinOp(op_, l, r)
                check_binop(expr, self._schema.dtype_of, op, other, f.dtype)
                return cross_kind_equality(expr, self._schema.dtype_of, self._schema.family_of) or expr

            try:
                result = self._map_columns(apply)
                if answers and not agrees(op, self, other, reflected, result):
                    # a dtype rule gframe lacks (its result's dtypes are not pandas'): pandas' result
                    return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                                       "the native result's dtypes are not pandas' for these operands")
                return result
            except TypeError:
                if not answers:
                    raise
                # pandas answers for these dtypes where gframe's rules refuse: pandas' result
                return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "an operation gframe's dtype rules refuse and pandas answers")
        if isinstance(other, DataFrame) and other._plan == self._plan and not opaque:
            outs = []
            for f in self._schema.columns:
                outs.append((f.label, BinOp(op, Col(f.name), Col(f.name))))
            return DataFrame._from_plan(L.Select(tuple(outs), self._plan))
        fn = getattr(pd.DataFrame, f"__{'r' if reflected else ''}{op}__")
        return via_pandas(f"DataFrame.__{op}__", fn, (self, other), {}, "operand is not a scalar")

    def _python_objects(self) -> bool:
        """Whether a column holds Python objects in an object column (``Series._python_objects``)."""
        return any(f.family in OBJECT_FAMILIES for f in self._schema.columns)

    @objects_via_pandas
    def __invert__(self) -> "DataFrame":
        if self._python_objects():
            return call_method(self, "__invert__", (), {}, "Python's ~ of each object")
        return self._map_columns(lambda f, e: func("invert", e))

    @objects_via_pandas
    def __neg__(self) -> "DataFrame":
        if self._python_objects():
            return call_method(self, "__neg__", (), {}, "Python's - of each object")
        return self._map_columns(lambda f, e: func("neg", e))

    def _flex(self, name: str, op: str, other: Any, axis: Any, level: Any, fill_value: Any, reflected: bool) -> Any:
        """``DataFrame.<name>(other, axis, level, fill_value)`` (NDFrame's flexible operators).

        Native: a scalar ``other`` (``fill_value`` fills the frame's missing values first, as
        pandas does), a Series along the index (``axis=0``: each column with the aligned series),
        and the cases the operator itself runs natively. ``level``, list-likes and a ``fill_value``
        with a frame or series operand go through pandas (which raises its own errors)."""
        axis_n = pd.DataFrame._get_axis_number(axis)  # pandas' ValueError for a bad axis
        has_objects = any(is_opaque(t) for t in self._value_types())

        def fallback() -> Any:
            kwargs = {"axis": axis, "level": level}
            if fill_value is not None:
                kwargs["fill_value"] = fill_value
            return call_method(self, name, (other,), kwargs)

        if level is not None or has_objects:
            return fallback()
        if is_scalar(other):
            if fill_value is None:
                return self._binary(op, other, reflected)
            if not is_scalar(fill_value):
                return fallback()
            return self.fillna(fill_value)._binary(op, other, reflected)
        if fill_value is not None:
            return fallback()
        if isinstance(other, DataFrame) or (axis_n == 1 and not _is_listlike(other)):
            return self._binary(op, other, reflected)
        if axis_n == 0 and isinstance(other, Series):
            al = _align_expr(self._plan, other, "outer")
            if al is None:
                return fallback()
            plan, right = al
            outs = []
            for f in plan.schema.columns[:len(self._schema.columns)]:
                l, r = (right, Col(f.name)) if reflected else (Col(f.name), right)
                expr = BinOp(op, l, r)
                check_binop(expr, plan.schema.dtype_of, op, other, f.dtype)
                outs.append((f.label, expr))
            return DataFrame._from_plan(L.Select(tuple(outs), plan))
        return fallback()

    # ------------------------------------------------------------------ columns
    def assign(self, **kwargs: Any) -> "DataFrame":
        out = self
        for k, v in kwargs.items():
            out = out._with_column(k, v(out) if callable(v) else v)
        return out

    def rename(self, mapper: Any = None, *, index: Any = None, columns: Any = None, axis: Any = None,
               copy: Any = None, inplace: bool = False, level: Any = None, errors: str = "ignore") -> "DataFrame | None":
        # native: the columns' labels, given as ``columns=`` alone or as the mapper along the columns (a
        # mapper alone renames the index); every other combination is pandas' (its TypeErrors too)
        if mapper is not None and axis in (1, "columns") and columns is None and index is None:
            columns, mapper = mapper, None
        elif mapper is not None or axis is not None:
            raise NotNative("rename of the index")
        if index is not None or level is not None or columns is None:
            raise NotNative("rename of the index")
        fn = columns if callable(columns) else (lambda lab: columns.get(lab, lab))
        if errors == "raise" and not callable(columns):
            missing = [k for k in columns if not self._schema.has(k)]
            if missing:
                raise KeyError(f"{missing} not found in axis")
        outputs = tuple((fn(f.label), Col(f.name)) for f in self._schema.columns)
        labels = [o[0] for o in outputs]
        if len(set(map(internal_name, labels))) != len(labels):
            raise NotNative("rename to duplicate labels")
        return self._inplace(DataFrame._from_plan(L.Select(outputs, self._plan)), inplace)

    def drop(self, labels: Any = None, *, axis: Any = 0, index: Any = None, columns: Any = None, level: Any = None,
             inplace: bool = False, errors: str = "raise") -> "DataFrame | None":
        if labels is not None and axis in (1, "columns"):
            columns = labels
        elif labels is not None:
            if index is not None or columns is not None:
                raise ValueError("Cannot specify both 'labels' and 'index'/'columns'")
            index = labels
        elif index is not None or columns is not None:
            if axis == 1:  # (pandas compares with 1 only)
                raise ValueError("Cannot specify both 'axis' and 'index'/'columns'")
        else:
            raise ValueError("Need to specify at least one of 'labels', 'index' or 'columns'")
        cols = [columns] if isinstance(columns, tuple) and self._schema.has(columns) else _listify(columns)
        if cols and (level is not None or (isinstance(self._schema.columns_index(), pd.MultiIndex)
                                           and not all(isinstance(c, tuple) for c in cols))):
            raise NotNative("labels of a level of the columns")
        if errors == "raise":
            missing = [c for c in cols if not self._schema.has(c)]
            if missing:
                raise KeyError(f"{missing} not found in axis")
        plan = self._plan
        if index is not None:
            rows = _drop_rows(plan, index, errors) if level is None else None
            if rows is None:
                # inplace only where given: pandas 3.1 warns (Pandas4Warning) whenever it is passed
                return call_method(self, "drop", (), {"index": index, "columns": columns, "level": level,
                                                         **({"inplace": True} if inplace else {}), "errors": errors})
            plan = rows
        drop = set(internal_name(c) for c in cols)
        keep = tuple((f.label, Col(f.name)) for f in self._schema.columns if f.name not in drop)
        return self._inplace(DataFrame._from_plan(L.Select(keep, plan)), inplace)

    def reindex(self, *args: Any, **kwargs: Any) -> Any:
        columns = kwargs.get("columns")
        if columns is not None and not args and set(kwargs) == {"columns"} and all(self._schema.has(c) for c in columns):
            return self[list(columns)]
        labels = args[0] if len(args) == 1 and "index" not in kwargs else kwargs.get("index") if not args else None
        if labels is not None and kwargs.get("method") and set(kwargs) - {"index"} <= {"method", "limit"} \
                and not callable(labels):
            from gframe.frontend.reshape import reindex_filled

            out = reindex_filled(self, labels, kwargs["method"], kwargs.get("limit"))
            if out is not None:
                return out
        return call_method(self, "reindex", args, kwargs)

    def filter(self, arg: Any = None, /, like: str | None = None, regex: str | None = None, axis: Any = None, *,
               items: Any = None, cond: Any = None, na: Any = False) -> "DataFrame":
        # pandas 3.1: the positional argument is labels, or a mask (booleans, a callable, an expression)
        # to filter rows with; native: labels only, given one way, as pandas' ``items``
        if cond is not None or na is not False or (arg is not None and items is not None) or not _labels_arg(arg):
            raise NotNative("filter by a mask")
        items = arg if arg is not None else items
        if sum(x is not None for x in (items, like, regex)) > 1:
            raise NotNative("several selections")  # pandas' TypeError
        if axis in (None, 1, "columns"):
            import re

            labels = self._schema.labels
            if items is not None:
                keep = [lab for lab in items if lab in labels]
            elif like is not None:
                keep = [lab for lab in labels if like in str(lab)]
            elif regex is not None:
                keep = [lab for lab in labels if re.search(regex, str(lab))]
            else:
                raise NotNative("nothing to select by")  # pandas' TypeError
            return self[keep]
        raise NotNative("filter of the index")

    def select_dtypes(self, include: Any = None, exclude: Any = None) -> "DataFrame":
        # pandas' own selection over a frame of no rows with the same dtypes (the exact ones: nullable,
        # Arrow, categorical, sparse each match only their own specifications), by position; its
        # warnings point at the caller's line
        dtypes = list(self.dtypes)
        empty = pd.DataFrame({i: pd.Series([], dtype=d) for i, d in enumerate(dtypes)}, columns=range(len(dtypes)))
        with user_warnings():
            kept = empty.select_dtypes(include=include, exclude=exclude).columns
        labels = self._schema.labels
        return self[[labels[i] for i in kept]]

    def set_index(self, keys: Any, *, drop: bool = True, append: bool = False, inplace: bool = False,
                  verify_integrity: bool = False) -> "DataFrame | None":
        keys_l = keys if isinstance(keys, list) else [keys]
        # a key is a column label, or an array of values (Series, Index, ndarray, list, iterator)
        if verify_integrity or not all(_label_key(k) and self._schema.has(k) for k in keys_l):
            if all(_label_key(k) for k in keys_l):
                missing = [k for k in keys_l if not self._schema.has(k)]
                if missing:
                    raise KeyError(f"None of {missing} are in the columns")
            return call_method(self, "set_index", (keys,), {"drop": drop, "append": append, "inplace": inplace,
                                                            "verify_integrity": verify_integrity})
        names = tuple(internal_name(k) for k in keys_l)
        base = _positions(self._plan) if append and self._schema.index is None else self._plan
        return self._inplace(DataFrame._from_plan(L.SetIndex(names, drop, append, True, base)), inplace)

    def reset_index(self, level: Any = None, *, drop: bool = False, inplace: bool = False, col_level: Any = 0,
                    col_fill: Any = "", allow_duplicates: Any = False, names: Any = None) -> "DataFrame | None":
        # an object index level moved into a column: pandas infers the column's dtype from the values
        # (ints int64, Timedeltas timedelta64, NaN among ints float64, none at all object), the data's
        # (values of several kinds, held as pickled objects, too: a filter may leave only ints)
        objects = not drop and any(f.family in OBJECT_FAMILIES or f.dtype == PYOBJECT for f in self._schema.index or ())
        if col_level != 0 or col_fill != "" or allow_duplicates not in (False, pd.api.extensions.no_default) or objects:
            return call_method(self, "reset_index", (level,), {"drop": drop, "inplace": inplace, "names": names,
                                                                  "col_level": col_level, "col_fill": col_fill,
                                                                  "allow_duplicates": allow_duplicates})
        return self._inplace(reshape.reset_index(self, level, drop, names, _column_labels(self._schema, _reset_labels(self._schema))),
                             inplace)

    def rename_axis(self, mapper: Any = pd.api.extensions.no_default, *, index: Any = pd.api.extensions.no_default,
                    columns: Any = pd.api.extensions.no_default, axis: Any = 0, copy: Any = None,
                    inplace: bool = False) -> "DataFrame | None":
        nd = pd.api.extensions.no_default
        value = mapper if mapper is not nd else index
        if columns is not nd or axis not in (0, "index") or value is nd or callable(value) or isinstance(value, dict) \
                or (mapper is not nd and index is not nd):
            kw = {k: v for k, v in (("index", index), ("columns", columns)) if v is not nd}
            return call_method(self, "rename_axis", (() if mapper is nd else (mapper,)),
                                  {**kw, "axis": axis, **({"inplace": True} if inplace else {})})
        return self._inplace(reshape.rename_axis(self, value), inplace)

    # ------------------------------------------------------------------ missing data
    @pickled_via_pandas  # (reads only which values are missing)
    def dropna(self, *, axis: Any = 0, how: Any = NO_DEFAULT, thresh: Any = NO_DEFAULT, subset: Any = None,
               inplace: bool = False, ignore_index: bool = False) -> "DataFrame | None":
        if how is not NO_DEFAULT and thresh is not NO_DEFAULT:
            raise TypeError("You cannot set both the how and thresh arguments at the same time.")
        if isinstance(axis, (tuple, list)) or axis not in (0, "index") or thresh is None:
            raise NotNative("dropna along the columns")  # (pandas' errors for the others)
        how = "any" if how is NO_DEFAULT else how
        thresh = None if thresh is NO_DEFAULT else thresh
        if how not in ("any", "all"):
            raise ValueError(f"invalid how option: {how}")
        if subset is not None:
            subset = _listify(subset) if pd.api.types.is_list_like(subset) else [subset]
            missing = [k for k in subset if not self._schema.has(k)]
            if missing:
                raise KeyError(missing)
        names = self._names(subset if subset is not None else self._schema.labels)
        if not names and thresh is None:
            new = self
        else:
            preds = [func("notna", Col(n)) for n in names]
            if thresh is not None:  # at least ``thresh`` non-missing values in the row
                count: Expr = Lit(0)
                for p in preds:
                    count = BinOp("add", count, func("cast", p, dtype=pa.int64()))
                pred = BinOp("ge", count, Lit(int(thresh)))
            else:
                pred = preds[0]
                for p in preds[1:]:
                    pred = BinOp("and" if how == "any" else "or", pred, p)
            new = DataFrame._from_plan(L.Filter(pred, _positions(self._plan)))
        if ignore_index:
            new = new.reset_index(drop=True)
        return self._inplace(new, inplace)

    # ------------------------------------------------------------------ reductions
    def _reduce(self, fn: str, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, min_count: int = 0,
                **params: Any) -> Any:
        def fallback() -> Any:
            # each pandas method's own keywords: any/all take bool_only, not numeric_only; count takes
            # no skipna; nunique neither (its dropna is in params)
            extra: dict[str, Any] = {"min_count": min_count} if min_count else {}
            if fn not in ("any", "all", "nunique"):
                extra["numeric_only"] = numeric_only
            if fn not in ("count", "nunique"):
                extra["skipna"] = skipna
            return call_method(self, fn, (), {"axis": axis, **extra, **params})

        if axis in (1, "columns"):
            out = self._reduce_rows(fn, skipna, numeric_only, min_count)
            return fallback() if out is None or params else out
        if axis is None:  # pandas reduces over both axes to a scalar (np.sum(df) passes axis=None)
            return fallback()
        if axis not in (0, "index"):
            raise ValueError(f"No axis named {axis} for object type DataFrame")
        if numeric_only and any(f.dtype is None for f in self._schema.columns):
            return fallback()  # a type the data decides (int or float with missing rows, bool or object)
        cols = [f for f in self._schema.columns if not numeric_only or is_numeric_for_pandas(f.dtype, f.family)]
        if not cols:
            # pandas' index is the frame's columns Index, filtered (a frame with no columns has
            # RangeIndex columns: an int64 result index)
            empty = "int64" if fn == "count" else "bool" if fn in ("any", "all") else "float64"
            return Series(pd.Series([], dtype=empty, index=self._schema.columns_index()[:0]))
        if fn in ("mean", "median", "std", "var", "prod") and any(is_string(f.dtype) for f in cols):
            bad = next(f for f in cols if is_string(f.dtype))
            raise TypeError(f"Cannot perform reduction '{fn}' with string dtype (column {bad.label!r})")

        def native(f: Field) -> bool:
            t = f.dtype
            if not arrow_reduction_native(fn, t, f.family):  # pyarrow's result types or TypeErrors
                return False
            if t is None or pa.types.is_dictionary(t):
                return fn in ("count", "nunique") and t is not None
            if is_numeric(t) or fn in ("count", "nunique"):
                return True
            if fn in ("min", "max"):
                return is_string(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t)
            return fn in ("mean", "median") and pa.types.is_timestamp(t)

        if not all(native(f) for f in cols) or not skipna and fn in ("any", "all"):
            return fallback()
        values = reduce_columns(self._plan, [(Col(f.name), f.dtype) for f in cols], fn, skipna, min_count, params)
        if fn not in ("count", "nunique", "any", "all") and any(f.family in OBJECT_FAMILIES for f in cols):
            # an object column's block reduces to an object array, and the common type with any other
            # block's is object: pandas' result is object, the object columns' results Python scalars
            # (``Series._reduce``; a concat's missing bools summed: the int 1, not 1.0)
            # (the statistics pandas computes in float64 over the frame's values: Python floats for all)
            values = [v.item() if (f.family in OBJECT_FAMILIES or fn in ("mean", "median", "std", "var", "sem"))
                      and isinstance(v, np.generic) else v for f, v in zip(cols, values)]
            out = pd.Series(values, index=pd.Index([f.label for f in cols]), dtype=object)
            return Series._from_pandas(out, origin=f"DataFrame.{fn}")
        out = pd.Series(values, index=pd.Index([f.label for f in cols]))
        kinds = [np.asarray(v).dtype for v in values]
        dtypes = [_reduction_dtype(fn, f, k, self._schema) for f, k in zip(cols, kinds)]
        if any(isinstance(d, pd.api.extensions.ExtensionDtype) for d in dtypes):
            # pandas reduces each block to a one-row array of its dtype (Int64.sum is Int64, boolean.mean
            # Float64), then takes the common dtype of those: masked wins over numpy, mixed kinds give object
            from pandas.core.dtypes.cast import find_common_type

            common = find_common_type(dtypes)
            if fn in ("any", "all") and str(common) != "boolean":
                common = np.dtype(bool)  # pandas' out_dtype for any/all, unless the blocks agree on boolean
            if isinstance(common, pd.ArrowDtype) and len(values) == 1:
                # one Arrow column: pandas' row of the results is its block's pyarrow result as it is, so
                # pyarrow's NaN made by the values (``[-inf, inf].sum()``) stays NaN; the row of several
                # columns is set value by value, which makes it NA
                arr = pa.array([None if v is pd.NA or v is None or v is pd.NaT else v for v in values],
                               type=common.pyarrow_dtype, from_pandas=False)
                out = pd.Series(pd.arrays.ArrowExtensionArray(arr), index=out.index)
            else:
                if isinstance(common, pd.api.extensions.ExtensionDtype):
                    values = [pd.NA if v is pd.NA or v is None or v is pd.NaT
                              or (isinstance(v, (float, np.floating)) and np.isnan(v)) else v for v in values]
                out = pd.Series(pd.array(values, dtype=common), index=out.index)
        elif kinds and all(k.kind in "iuf" for k in kinds):
            # pandas' result is the common type of the columns' results (int64 and uint64: float64;
            # int32 and float32: float64 - the Series of the scalars alone would say float32)
            from pandas.core.dtypes.cast import find_common_type

            out = out.astype(find_common_type(kinds))
        if fn in ("count", "nunique"):
            out = out.astype("int64")
        # mixed kinds (an int and a str) make pandas' object result: stored as Python objects
        return Series._from_pandas(out, origin=f"DataFrame.{fn}")

    def _reduce_rows(self, fn: str, skipna: bool, numeric_only: bool, min_count: int) -> Any:
        """Row-wise (axis=1) sum / mean / count: one expression over the columns; None if not native."""
        cols = [f for f in self._schema.columns if not numeric_only or is_numeric_for_pandas(f.dtype, f.family)]
        if fn not in ("sum", "mean", "count") or not cols or not all(is_numeric(f.dtype) for f in cols):
            return None

        def as_number(f: Field) -> Expr:
            e: Expr = Col(f.name)
            return func("cast", e, dtype=pa.int64()) if pa.types.is_boolean(f.dtype) else e

        valid: Expr = Lit(0)
        for f in cols:
            valid = BinOp("add", valid, func("cast", func("notna", Col(f.name)), dtype=pa.int64()))
        if fn == "count":
            return Series._over(self._plan, valid, None)
        total: Expr | None = None
        for f in cols:
            term = as_number(f) if not skipna else func("fillna", as_number(f), Lit(0))
            total = term if total is None else BinOp("add", total, term)
        assert total is not None
        if any(pa.types.is_floating(f.dtype) for f in cols):
            # numpy's reduction starts from 0, so a row of -0.0 sums to 0.0; added last, it changes
            # nothing else (the same partial sums up to the sign of a zero)
            total = BinOp("add", Lit(0.0), total)
        if fn == "mean":
            total = BinOp("truediv", total, valid if skipna else Lit(len(cols)))
        elif min_count:
            total = func("where", total, BinOp("ge", valid, Lit(int(min_count))), Lit(None))
        return Series._over(self._plan, total, None)

    @objects_via_pandas
    def sum(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, min_count: int = 0, **kw: Any) -> Any:
        return self._reduce("sum", axis, skipna, numeric_only, min_count)

    @objects_via_pandas
    def prod(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, min_count: int = 0, **kw: Any) -> Any:
        return self._reduce("prod", axis, skipna, numeric_only, min_count)

    product = prod

    @objects_via_pandas
    def mean(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("mean", axis, skipna, numeric_only)

    @objects_via_pandas
    def median(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("median", axis, skipna, numeric_only)

    @objects_via_pandas
    def min(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("min", axis, skipna, numeric_only)

    @objects_via_pandas
    def max(self, axis: Any = 0, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("max", axis, skipna, numeric_only)

    @objects_via_pandas
    def std(self, axis: Any = 0, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("std", axis, skipna, numeric_only, ddof=ddof)

    @objects_via_pandas
    def var(self, axis: Any = 0, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        return self._reduce("var", axis, skipna, numeric_only, ddof=ddof)

    @objects_via_pandas
    def count(self, axis: Any = 0, numeric_only: bool = False) -> Any:
        return self._reduce("count", axis, True, numeric_only)

    @objects_via_pandas
    def nunique(self, axis: Any = 0, dropna: bool = True) -> Any:
        return self._reduce("nunique", axis, True, False, dropna=dropna)

    @objects_via_pandas
    def any(self, *, axis: Any = 0, bool_only: bool = False, skipna: bool = True, **kw: Any) -> Any:
        if bool_only or kw:  # (numpy's keywords, validated by pandas: others raise TypeError)
            return call_method(self, "any", (), {"axis": axis, "bool_only": bool_only, "skipna": skipna, **kw})
        return self._reduce("any", axis, skipna, False)

    @objects_via_pandas
    def all(self, *, axis: Any = 0, bool_only: bool = False, skipna: bool = True, **kw: Any) -> Any:
        if bool_only or kw:  # (numpy's keywords, validated by pandas: others raise TypeError)
            return call_method(self, "all", (), {"axis": axis, "bool_only": bool_only, "skipna": skipna, **kw})
        return self._reduce("all", axis, skipna, False)

    # ------------------------------------------------------------------ ordering
    @objects_via_pandas
    def sort_values(self, by: Any, *, axis: Any = 0, ascending: Any = True, inplace: bool = False, kind: Any = None,
                    na_position: str = "last", ignore_index: bool = False, key: Any = None) -> "DataFrame | None":
        if key is not None or axis not in (0, "index"):
            return call_method(self, "sort_values", (by,), {"axis": axis, "ascending": ascending, "inplace": inplace,
                                                               "kind": kind, "na_position": na_position, "ignore_index": ignore_index, "key": key})
        by_l = _listify(by)
        levels = {f.label: f.name for f in self._schema.index or () if f.label is not None}
        names = []
        for b in by_l:
            if self._schema.has(b):
                if _label_key(b) and b in levels:
                    raise NotNative("a label of a column and of an index level")  # pandas' ValueError
                names.append(internal_name(b))
            elif _label_key(b) and b in levels:
                names.append(levels[b])  # pandas sorts by an index level named so
            else:
                raise KeyError(b)
        desc = _descending(ascending, len(names))
        if na_position not in ("first", "last"):
            raise ValueError(f"invalid na_position: {na_position}")
        if na_position == "first" and len(names) > 1 and set(names) & set(levels.values()):
            raise NotNative("index levels among several keys, missing values first")  # (see _sort_values_plan)
        plan = _sort_values_plan(_positions(self._plan), names, desc, na_position == "last")
        new = DataFrame._from_plan(plan)
        if ignore_index:
            new = new.reset_index(drop=True)
        return self._inplace(new, inplace)

    def sort_index(self, *, axis: Any = 0, level: Any = None, ascending: Any = True, inplace: bool = False, kind: Any = None,
                   na_position: str = "last", sort_remaining: bool = True, ignore_index: bool = False, key: Any = None) -> "DataFrame | None":
        if axis not in (0, "index") or level is not None or key is not None \
                or any(f.dtype == PYOBJECT for f in self._schema.index or ()):  # Python objects: Python's order (or TypeError)
            raise NotNative("sort_index by a level, a key or Python objects")
        levels = len(self._schema.index or (None,))
        bools = (bool, np.bool_)
        if not (isinstance(ascending, bools) or (isinstance(ascending, (list, tuple)) and len(ascending) == levels
                                                 and all(isinstance(a, bools) for a in ascending))) \
                or (not sort_remaining and levels > 1) or na_position not in ("first", "last"):
            raise NotNative("sort_index options")  # (pandas' ValueErrors; the first level alone)
        if self._schema.index is None:
            new = self if ascending else DataFrame._from_plan(L.Sort((index_name(0),), (True,), True, _positions(self._plan)))
        elif len(self._schema.index) > 1 and any(f.missing_in_levels for f in self._schema.index):
            new = DataFrame._from_plan(_sort_missing_in_levels(self._plan, _descending(ascending, levels), na_position == "last"))
        else:
            names = self._schema.index_names
            new = DataFrame._from_plan(L.Sort(tuple(names), _descending(ascending, len(names)), na_position == "last", self._plan))
        if ignore_index:
            new = new.reset_index(drop=True)
        return self._inplace(new, inplace)

    @objects_via_pandas
    def nlargest(self, n: int, columns: Any, keep: str = "first") -> "DataFrame":
        return self._topk(n, columns, keep, True)

    @objects_via_pandas
    def nsmallest(self, n: int, columns: Any, keep: str = "first") -> "DataFrame":
        return self._topk(n, columns, keep, False)

    def _topk(self, n: int, columns: Any, keep: str, largest: bool) -> "DataFrame":
        if keep not in ("first", "last", "all"):
            raise ValueError('keep must be either "first", "last" or "all"')
        names = self._names(_listify(columns))
        for name, f in zip(names, (self._col(c) for c in _listify(columns))):
            t = f.dtype
            if f.family in ARROW_FAMILIES:  # pandas' SelectN takes the Arrow numbers (ArrowDtype._is_numeric)
                ok = t is None or pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
                if t is not None and pa.types.is_decimal(t):
                    # it sorts the column when n covers it, else its int/float kernels raise TypeError
                    return call_method(self, "nlargest" if largest else "nsmallest", (n, columns), {"keep": keep})
            else:
                ok = t is None or is_numeric(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t)
            if not ok:
                raise TypeError(f"Column {f.label!r} has dtype {pandas_dtype(t, family=f.family)}, cannot use "
                                f"method {'nlargest' if largest else 'nsmallest'!r} with this dtype")
        desc = (largest,) * len(names)
        if keep == "all" or keep == "last" and len(names) > 1:
            # keep="last" over several columns: pandas cuts column by column (keep="all" before the
            # last one), so which rows count as cut is not one rule over the whole key
            return call_method(self, "nlargest" if largest else "nsmallest", (n, columns), {"keep": keep})
        return DataFrame._from_plan(L.TopK(tuple(names), desc, True, n, keep == "last", _positions(self._plan)))

    @objects_via_pandas
    def drop_duplicates(self, subset: Any = None, *, keep: Any = "first", inplace: bool = False,
                        ignore_index: bool = False) -> "DataFrame | None":
        if keep not in ("first", "last", False):
            raise ValueError('keep must be either "first", "last" or False')
        if not isinstance(ignore_index, (bool, np.bool_)):
            raise NotNative("ignore_index not a bool")  # pandas' ValueError
        names = self._subset_names(self._subset_labels(subset)) if subset is not None else []
        if names is None or not names and not self._schema.columns:  # no values to compare: no row is a duplicate (pandas)
            return self._inplace(self.copy(), inplace) if not ignore_index else self._inplace(self.reset_index(drop=True), inplace)
        how = "none" if keep is False else keep
        keys = names or [f.name for f in self._schema.columns]
        # over several columns pandas factorizes each (pyarrow's for Arrow floats: -0.0 is not 0.0);
        # one column's duplicates are numpy's (one zero)
        plan, keys, hidden = L.signed_zero_keys(_positions(self._plan), keys) if len(keys) > 1 else (None, (), ())
        if hidden:
            plan = L.Distinct((*keys, *hidden), how, plan)
            new = DataFrame._from_plan(L.Select(tuple((f.label, Col(f.name)) for f in plan.schema.columns
                                                      if f.name not in hidden), plan))
        elif len(one := names or [f.name for f in self._schema.columns]) == 1 and self._float_duplicates(one[0]):
            base = _positions(self._plan)
            hit = func("duplicated", Col(one[0]), keep=how, float_when_missing=True)
            new = DataFrame._from_plan(L.Filter(func("invert", hit), base))
        else:
            new = DataFrame._from_plan(L.Distinct(tuple(names), how, _positions(self._plan)))
        if ignore_index:
            new = new.reset_index(drop=True)
        return self._inplace(new, inplace)

    @objects_via_pandas
    def duplicated(self, subset: Any = None, keep: Any = "first") -> Any:
        if keep not in ("first", "last", False):
            raise ValueError('keep must be either "first", "last" or False')
        labels = self._subset_labels(subset) if subset is not None else self._schema.labels
        names = self._subset_names(labels) if labels else []
        if not names:
            return Series._over(self._plan, Lit(False), None)
        widen = {"float_when_missing": True} if len(names) == 1 and self._float_duplicates(names[0]) else {}
        expr = func("duplicated", *(Col(n) for n in names), keep="none" if keep is False else keep, **widen)
        return Series._over(self._plan, expr, None)

    def _float_duplicates(self, name: str) -> bool:
        """One column's duplicates go through ``Series.duplicated`` in pandas where the labels are
        unique, which compares an Arrow 64-bit column as float64 where a value is missing
        (``L.floats_where_missing``)."""
        labels = self._schema.labels
        return len(set(labels)) == len(labels) and L.floats_where_missing(self._plan, name)

    @objects_via_pandas
    def value_counts(self, subset: Any = None, normalize: bool = False, sort: bool = True, ascending: bool = False,
                     dropna: bool = True) -> Any:
        labels = _listify(subset) if subset is not None else self._schema.labels
        names = self._names(labels)
        if len(names) == 1:
            # pandas answers with a one-level MultiIndex here, which gframe's schemas cannot describe
            return call_method(self, "value_counts", (), {"subset": subset, "normalize": normalize, "sort": sort,
                                                             "ascending": ascending, "dropna": dropna})
        name = "proportion" if normalize else "count"
        agg = L.Aggregate(tuple(names), tuple(labels), ((name, Agg("size", (), Col(names[0]))),), False, dropna, True, self._plan)
        out = Series._from_frame_plan(agg)
        if normalize:
            out = (out / out.sum()).rename(name)
        if sort:
            out = out.sort_values(ascending=ascending, kind="stable")
        return out

    # ------------------------------------------------------------------ relational
    def groupby(self, by: Any = None, axis: Any = 0, level: Any = None, as_index: bool = True, sort: bool = True,
                group_keys: bool = True, observed: bool = True, dropna: bool = True) -> Any:
        return DataFrameGroupBy(self, by, level=level, as_index=as_index, sort=sort, observed=observed, dropna=dropna,
                                group_keys=group_keys)

    def resample(self, rule: Any, *args: Any, on: Any = None, **kwargs: Any) -> Any:
        """pandas' resample: the common frequencies natively (``frontend/resample.py``)."""
        from gframe.frontend.resample import Resampler

        if args:
            return get_attribute(self, "resample")(rule, *args, on=on, **kwargs)
        return Resampler(self, rule, on, kwargs)

    def merge(self, right: Any, how: str = "inner", on: Any = None, left_on: Any = None, right_on: Any = None,
              left_index: bool = False, right_index: bool = False, sort: bool = False, suffixes: Any = ("_x", "_y"),
              copy: Any = None, indicator: bool = False, validate: Any = None) -> "DataFrame":
        return reshape.merge(self, right, how=how, on=on, left_on=left_on, right_on=right_on, left_index=left_index,
                     right_index=right_index, sort=sort, suffixes=suffixes, indicator=indicator, validate=validate)

    def join(self, other: Any, on: Any = None, how: str = "left", lsuffix: Any = pd.api.extensions.no_default,
             rsuffix: Any = pd.api.extensions.no_default, sort: bool = False, validate: Any = None, *,
             suffixes: Any = pd.api.extensions.no_default) -> "DataFrame":
        return reshape.join(self, other, on=on, how=how, lsuffix=lsuffix, rsuffix=rsuffix, sort=sort, validate=validate,
                    suffixes=suffixes)

    # ------------------------------------------------------------------ I/O
    def to_parquet(self, path: Any = None, *args: Any, **kwargs: Any) -> Any:
        return readwrite.to_parquet(self, path, *args, **kwargs)

    def to_csv(self, path_or_buf: Any = None, *args: Any, **kwargs: Any) -> Any:
        return readwrite.to_csv(self, path_or_buf, *args, **kwargs)

    def query(self, expr: str, *, inplace: bool = False, **kwargs: Any) -> "DataFrame | None":
        # the caller's scope is taken here: through the bridge, @x would resolve in gframe's frames
        local_dict, global_dict = query_mod.caller_scope(kwargs.pop("level", 0))
        local_dict = kwargs.pop("local_dict", None) or local_dict
        global_dict = kwargs.pop("global_dict", None) or global_dict
        return query_mod.query(self, expr, inplace, kwargs, local_dict, global_dict)

    def eval(self, expr: str, *, inplace: bool = False, **kwargs: Any) -> Any:
        local_dict, global_dict = query_mod.caller_scope(kwargs.pop("level", 0))
        local_dict = kwargs.pop("local_dict", None) or local_dict
        global_dict = kwargs.pop("global_dict", None) or global_dict
        return query_mod.eval_(self, expr, inplace, kwargs, local_dict, global_dict)

    def pipe(self, func: Callable[..., Any] | tuple[Callable[..., Any], str], *args: Any, **kwargs: Any) -> Any:
        return pandas_pipe(self, func, *args, **kwargs)  # pandas' own: a (callable, keyword) tuple too

    def apply(self, func_: Any, axis: Any = 0, raw: bool = False, result_type: Any = None, args: tuple = (), **kwargs: Any) -> Any:
        out, reason = udf.apply_frame(self, func_, axis=axis, raw=raw, result_type=result_type, args=args, **kwargs)
        if out is not None:
            return out
        return via_pandas("DataFrame.apply", pd.DataFrame.apply, (self, func_),
                          dict(axis=axis, raw=raw, result_type=result_type, args=args, **kwargs), reason)


# ---------------------------------------------------------------------- helpers (module-private)

def _is_listlike(v: Any) -> bool:
    return isinstance(v, (list, tuple, set, frozenset, np.ndarray, pd.Index, pd.Series, range)) or type(v).__name__ in ("Series", "Index")


def _label_key(k: Any) -> bool:
    """A key of ``set_index`` that names a column (hashable, not an iterator of values)."""
    return pd.api.types.is_hashable(k) and not isinstance(k, Iterator)


def _labels_arg(arg: Any) -> bool:
    """Whether ``filter``'s positional argument is labels for certain: None, a tuple, or a list or Index
    holding no bools (pandas reads booleans, callables, expressions and frames as a mask)."""
    if arg is None or type(arg) is tuple:  # (pandas: a tuple is never a mask)
        return True
    if not isinstance(arg, (list, pd.Index)) or isinstance(arg, pd.MultiIndex):
        return False
    return not any(isinstance(v, (bool, np.bool_)) for v in arg)


def _values_of(v: Any) -> list[Any]:
    if hasattr(v, "to_pandas"):
        v = v.to_pandas()
    return list(v)


def _fill(f: Field, e: Expr, value: Any) -> Expr | None:
    if not fill_fits(f.dtype, value, f.family):
        raise NotImplementedError("fillna with a value of another kind")
    return func("fillna", e, literal(value))


def type_kind(t: Any) -> str | None:
    """The family a comparison or logical operator sees (None: decided by the data, or not checked)."""
    if t is None or pa.types.is_null(t) or t == PYOBJECT:
        return None
    if pa.types.is_dictionary(t):
        return "category"
    if pa.types.is_timestamp(t) or pa.types.is_date(t):
        return "datetime"
    if pa.types.is_duration(t):
        return "timedelta"
    if is_string(t):
        return "str"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_integer(t):
        return "int"
    if pa.types.is_floating(t):
        return "float"
    return None


def _value_kind(t: Any) -> str | None:
    """The kind ``fillna`` compares (numbers together; a categorical by its categories' type)."""
    if t is None or pa.types.is_null(t):
        return None
    if pa.types.is_dictionary(t):
        return _value_kind(t.value_type)
    k = type_kind(t)
    return "number" if k in ("bool", "int", "float") else k or "other"


def _cast_column(e: Expr, f: Field, dtype: Any, plan: L.Plan) -> Expr:
    """One column of ``astype({label: dtype})``: pandas names the column in a cast's ValueError
    (``DataFrame.astype`` re-raises it with the label appended; its TypeErrors are left as they are)."""
    try:
        return cast_expr(e, f, dtype, plan)
    except ValueError as ex:
        ex.args = (f"{ex}: Error while type casting for column '{f.label}'",)
        raise


def fill_fits(dtype: Any, value: Any, family: str = NUMPY) -> bool:
    """Whether ``fillna(value)`` on a column of ``dtype`` keeps to one kind (numbers, strings, datetimes,
    durations). Across kinds pandas' result depends on the data (the dtype is kept when nothing is
    missing, object when something is), so those calls go through pandas. So do values a nullable
    column cannot hold losslessly (``Int64.fillna(1.5)``, ``boolean.fillna(2)``, ``UInt8.fillna(-1)``):
    pandas raises for them where something is missing, and keeps the column where nothing is."""
    if value is None or dtype == PYOBJECT:
        return True
    if isinstance(value, (float, np.floating)) and np.isnan(value):
        return True
    from gframe.plan.dtypes import literal_type
    if family == MASKED and dtype is not None and not _masked_holds(dtype, scalar_value(value)):
        return False
    if family in ARROW_FAMILIES and dtype is not None and not _arrow_holds(dtype, scalar_value(value)):
        return False
    return _value_kind(dtype) in (None, _value_kind(literal_type(scalar_value(value))))


def clip_native(dtype: Any, family: str, *bounds: Any) -> bool:
    """Whether ``clip(bounds)`` on a column of ``dtype`` (of pandas' ``family``) is the engines' clip
    in the column's type, as pandas computes it. Not so - and pandas' to do, as its answer depends on
    the data - for bools (Polars has no bool clip; pandas keeps bool or makes object), a bool bound
    on numbers (object where a value is replaced), a bound a nullable column does not hold
    (TypeError where a value is replaced) or an Arrow column does not hold exactly (pyarrow casts
    it: ``int64[pyarrow].clip(upper=2.5)`` stays int64)."""
    if dtype is None:
        return True
    if pa.types.is_boolean(dtype):
        return all(b is None or isinstance(b, float) and b != b for b in bounds)
    for value in bounds:
        if value is None or isinstance(value, float) and value != value:
            continue
        if isinstance(value, (bool, np.bool_)):
            return False
        if family == MASKED and not _masked_holds(dtype, value):
            return False
        if family in ARROW_FAMILIES and not _arrow_holds(dtype, value, exact=True):
            return False
    return True


def _arrow_holds(dtype: Any, value: Any, exact: bool = False) -> bool:
    """Whether pyarrow takes ``value`` as a scalar of ``dtype``: pandas fills an ArrowDtype column
    with ``pa.scalar(value, type)``, so pyarrow's rules decide (``bool[pyarrow].fillna(-1)`` raises
    ArrowInvalid, ``int64[pyarrow].fillna(True)`` TypeError) - where something is missing."""
    if isinstance(value, (pd.Timestamp, pd.Timedelta)):
        return True  # pandas converts these itself first (units, tz): kind checks cover them
    try:
        held = pa.scalar(value, type=dtype)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return False
    return not exact or held.as_py() == value


def _masked_holds(dtype: Any, value: Any) -> bool:
    """Whether a nullable (masked) column of ``dtype`` takes ``value`` as it is (pandas' setitem check)."""
    is_bool = isinstance(value, (bool, np.bool_))
    if pa.types.is_boolean(dtype):
        return is_bool
    if pa.types.is_integer(dtype):
        if is_bool or not isinstance(value, (int, float, np.integer, np.floating)) or not float(value).is_integer():
            return False
        info = np.iinfo(dtype.to_pandas_dtype())
        return info.min <= int(value) <= info.max
    if pa.types.is_floating(dtype):
        return not is_bool and isinstance(value, (int, float, np.integer, np.floating))
    return True


def _sort_missing_in_levels(plan: L.Plan, desc: tuple[bool, ...], nulls_last: bool) -> L.Plan:
    """``sort_index`` of a MultiIndex whose levels hold the missing key as a value (a group-by's with
    ``dropna=False``: ``IndexField.missing_in_levels``): pandas sorts the codes, so the missing key
    is the largest value of its level (last ascending, first descending) whatever ``na_position``.
    Each such level is sorted after a hidden key saying whether the value is missing."""
    s = plan.schema
    cols = tuple((f.label, Col(f.name)) for f in s.columns)
    marks = tuple((f"__gf_na_level{f.level}", func("isna", Col(f.name))) for f in s.index if f.missing_in_levels)
    marked = L.Select(cols + marks, plan)
    by: list[str] = []
    order: list[bool] = []
    for f, d in zip(s.index, desc):
        if f.missing_in_levels:
            by.append(internal_name(f"__gf_na_level{f.level}"))
            order.append(d)
        by.append(f.name)
        order.append(d)
    ordered = L.Sort(tuple(by), tuple(order), nulls_last, marked)
    return L.Select(tuple((f.label, Col(m.name)) for f, m in zip(s.columns, marked.schema.columns)), ordered)


def _descending(ascending: Any, n: int) -> tuple[bool, ...]:
    if isinstance(ascending, (list, tuple)):
        if len(ascending) != n:
            raise ValueError(f"Length of ascending ({len(ascending)}) != length of by ({n})")
        return tuple(not bool(a) for a in ascending)
    if not isinstance(ascending, (bool, np.bool_, int)):
        raise ValueError(f'For argument "ascending" expected type bool, received type {type(ascending).__name__}.')
    return (not bool(ascending),) * n


def _reduction_dtype(fn: str, f: Field, kind: np.dtype, schema: Schema) -> Any:
    """The dtype of one column's result in a DataFrame reduction: a nullable or Arrow column's
    result keeps its family (the type the reduction gives, as that family's dtype); a numpy
    column's is the scalar's."""
    if f.family in NA_FAMILIES and fn not in ("count", "nunique"):
        x: Expr = Col(f.name)
        if f.dtype is not None and pa.types.is_boolean(f.dtype) and fn in ("mean", "std", "var", "median"):
            x = func("cast", x, dtype=pa.float64())
        special = family_dtype(aggregate_type(Agg(fn, (), x), schema.dtype_of, grouped=False), f.family)
        if special is not None:
            return special
    return kind


def _known_no_rows(plan: L.Plan) -> bool:
    """Whether ``plan`` is data in memory without rows (``pd.DataFrame()``): known without running."""
    return isinstance(plan, L.InMemoryScan) and plan.table.value.num_rows == 0


def _sort_values_plan(plan: L.Plan, names: list[str], desc: tuple[bool, ...], nulls_last: bool) -> L.Plan:
    """``sort_values`` by several keys. pandas 3.1's ``lexsort_indexer`` sorts a numpy float key
    with ``na_position="first"`` by its values with NaN replaced by -inf (negated first where
    descending): a NaN ties with -inf (+inf descending), the rows of the tie kept in order or
    ordered by the next keys - not every NaN before every number. Such keys are sorted as a copy
    filled so (numbers typed by the data are left as they are: an int key has no NaN)."""
    s = plan.schema
    by_name = {f.name: f for f in s.columns}
    filled = {}
    if len(names) > 1 and not nulls_last:
        for i, (n, d) in enumerate(zip(names, desc)):
            f = by_name.get(n)
            if f is not None and f.family == NUMPY and f.dtype is not None and pa.types.is_floating(f.dtype):
                filled[n] = (f"__gf_nan_first_{i}", func("fillna", Col(n), Lit(float("inf") if d else float("-inf"))))
    if not filled:
        return L.Sort(tuple(names), desc, nulls_last, plan)
    keep = tuple((f.label, Col(f.name)) for f in s.columns)
    plan = L.Select(keep + tuple(filled.values()), plan)
    keys = tuple(internal_name(filled[n][0]) if n in filled else n for n in names)
    return L.Select(keep, L.Sort(keys, desc, nulls_last, plan))


def _positions(plan: L.Plan) -> L.Plan:
    """Rows are about to move or go: carry the default RangeIndex as a real column first."""
    return L.RowIndex(plan) if plan.schema.index is None else plan


def _drop_rows(plan: L.Plan, labels: Any, errors: str) -> L.Plan | None:
    """``drop(index=labels)``: a filter on the index (one level); None where not native.

    Missing labels raise pandas' KeyError at the call (one small distinct over the matches).
    """
    if plan.schema.index is not None and len(plan.schema.index) != 1:
        return None
    values = [scalar_value(v) for v in (_listify(labels) if not isinstance(labels, tuple) else [labels])]
    if not all(isinstance(v, (int, float, str, bool)) and not isinstance(v, bool) or isinstance(v, pd.Timestamp)
               for v in values):
        return None
    looked_up = values
    t = plan.schema.index[0].dtype if plan.schema.index else None
    if any(isinstance(v, str) for v in values) and not is_string(t):
        # pandas' drop looks labels up as the index does: strings against naive timestamps are parsed
        # (one that is no date is a missing label); anything else through pandas
        if not (isinstance(t, pa.TimestampType) and t.tz is None):
            return None
        looked_up = [_date_label(v) if isinstance(v, str) else v for v in values]
    base = _positions(plan)
    key = Col(index_name(0))
    hit = func("isin", key, values=tuple(looked_up))
    if errors == "raise" and values:
        found = L.Distinct((index_name(0),), "first", L.Filter(hit, base))
        seen = set(DataFrame._from_plan(found).index.to_pandas().tolist())
        missing = [v for v, u in zip(values, looked_up) if u not in seen]
        if missing:
            raise KeyError(f"{missing} not found in axis")
    kept = L.Filter(func("invert", hit), base)
    freq = kept.schema.index[0].freq if kept.schema.index else None
    if freq is not None:  # pandas deletes the rows (Index.delete): the frequency stays only as it was
        kept = L.IndexFreq((kept.schema.index[0].label,), (freq if isinstance(freq, DeletedFreq) else DeletedFreq(freq),), kept)
    return kept


def _date_label(label: str) -> Any:
    """A string label as the timestamp a DatetimeIndex looks it up as (unparseable: the string, which
    matches no timestamp)."""
    try:
        return pd.Timestamp(label)
    except ValueError:
        return label


def _all_but_last(plan: L.Plan, k: int) -> L.Plan:
    """head(-k): the first len-k rows. The row count is computed here, when the call is made: the
    one place the frontend runs the engine to build a plan (a Slice's length is a plain number, so
    the optimizer can push it into readers)."""
    n_rows = L.Aggregate((), (), (("n", Agg("size", (), Lit(1))),), False, True, False, plan)
    res = engines.materialize(n_rows)
    n = int(res.to_arrow().column(0)[0].as_py()) if res.num_rows() else 0
    return L.Slice(0, max(n - k, 0), plan)


def _column_labels(schema: Schema, labels: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """Labels of index levels moved into MultiIndex columns: pandas puts each in the first level and
    fills the others with '' (``col_level=0, col_fill=''``): ``agg({c: [f]}).reset_index()`` gives
    ``('k', '')`` beside ``('c', 'f')``."""
    cols = [f.label for f in schema.columns]
    if not cols or not all(isinstance(c, tuple) for c in cols) or len({len(c) for c in cols}) != 1:
        return labels
    depth = len(cols[0])
    if depth < 2:
        return labels
    return tuple(lab if isinstance(lab, tuple) and len(lab) == depth else (lab,) + ("",) * (depth - 1) for lab in labels)


def _reset_labels(schema: Schema) -> tuple[Hashable, ...]:
    # pandas' ``"index" in df``: with MultiIndex columns, a label whose first level is "index"
    # (``('index', '')`` of an earlier reset_index) holds it too
    labels = [f.label for f in schema.columns]
    multi = _column_labels(schema, ("index",)) != ("index",)
    taken = schema.has("index") or multi and any(lab[0] == "index" for lab in labels)
    idx = schema.index
    if idx is None:
        return ("index" if not taken else "level_0",)
    if len(idx) == 1:
        lab = idx[0].label
        return (lab if lab is not None else ("index" if not taken else "level_0"),)
    return tuple(f.label if f.label is not None else f"level_{f.level}" for f in idx)


def aligned(join: str, *plans: L.Plan) -> L.HConcat | None:
    """``plans`` side by side, aligned on their index by the rule ``join`` (``plan/logical.ALIGN_JOINS``):
    every combination of two plans' rows goes through here. A default RangeIndex meeting a labelled
    index gets its positions first (pandas aligns its labels 0..n-1 with the other's). None where the
    engines do not align the indexes (level counts or types differ, a type only the data decides, a
    categorical index, several levels in a sorted union): the caller lets pandas compute it."""
    if all(p.schema.index is None for p in plans):
        return L.HConcat(join, *plans)
    plans = tuple(_positions(p) for p in plans)
    first = plans[0].schema.index
    assert first is not None
    for p in plans[1:]:
        idx = p.schema.index
        assert idx is not None
        if len(idx) != len(first) or any(a.dtype != b.dtype or a.family != b.family for a, b in zip(idx, first)):
            return None
    if any(f.dtype is None or pa.types.is_dictionary(f.dtype) for f in first) or (join == "outer" and len(first) > 1):
        return None
    return L.HConcat(join, *plans)


def _align_expr(plan: L.Plan, series: Any, join: str = "left") -> tuple[L.Plan, Expr] | None:
    """An expression of ``series`` over ``plan``, aligning on the index where the plans differ.

    Same plan (or the series a column of it): the series' expression as is. Otherwise the frame's
    columns and the series sit side by side in an ``HConcat`` by the rule ``join``: "left"
    (assignment: ``series.reindex(frame.index)``), "mask" (a boolean mask: the same, every label
    found; a frame with the default RangeIndex keeps it under both) or "outer" (``frame.op(series, axis=0)``: the sorted union). None where ``aligned``
    leaves it to pandas.
    """
    if series._plan == plan or _selects_keep(plan, series._plan, columns_used(series._expr)):
        return plan, series._expr
    tmp = "__gf_aligned"
    right = L.Select(((tmp, series._expr),), series._plan)
    both = aligned(join, plan, right)
    if both is None:
        return None
    n_left = len(plan.schema.columns)
    outputs = tuple((f.label, Col(f.name)) for f in both.schema.columns[:n_left])
    out: L.Plan = L.Select(outputs + ((tmp, Col(internal_name(tmp))),), both)
    if join in ("left", "mask") and plan.schema.index is None and out.schema.index is not None:
        out = L.ResetIndex(True, (), out)  # the frame's rows in their order: its RangeIndex again
    return out, Col(internal_name(tmp))


def _selects_keep(plan: L.Plan, base: L.Plan, names: set[str]) -> bool:
    """Whether ``plan`` is ``base`` under Selects (the same rows and index) that pass the columns
    ``names`` through unchanged. A Series taken from ``base`` is then a column of ``plan`` as it is:
    ``high = df["p"].isin(...); df["a"] = high * 1; df["b"] = ~high`` needs no alignment join (which
    would also leave the new columns' dtypes to the data)."""
    node = plan
    while node != base:
        if not isinstance(node, L.Select):
            return False
        kept = {f.name for f, (_, e) in zip(node.schema.columns, node.outputs) if isinstance(e, Col) and e.name == f.name}
        if not names <= kept:
            return False
        node = node.child
    return True


_RANK_METHODS = frozenset({"average", "min", "max", "first", "dense"})


def _rank_expr(e: Expr, dtype: Any, kwargs: dict[str, Any], family: str = NUMPY) -> Expr | None:
    """pandas' ``rank`` of ``e`` as a native expression, or None where pandas must run it (other
    arguments, invalid ones - pandas raises its own errors - and columns of other types).

    Ranks are float64 in the column's family, except that pandas gives whole ranks (every method
    but ``average``, without ``pct``) of nullable and Arrow numbers as unsigned ints (``UInt64``,
    ``uint64[pyarrow]``); ``string`` ranks stay ``Float64``."""
    k = kwargs
    if k["axis"] not in (0, "index") or k["numeric_only"] is not False or k["method"] not in _RANK_METHODS \
            or k["na_option"] not in ("keep", "top", "bottom") or not isinstance(k["ascending"], bool) \
            or not isinstance(k["pct"], bool):
        return None
    if not (dtype is None or is_numeric(dtype) or pa.types.is_timestamp(dtype) or pa.types.is_duration(dtype)
            or (is_string(dtype) and family == NUMPY)):  # (``str``: code point order; ``string`` ranks are
        return None                                          # float64 or Float64 by its storage, unknown here)
    rank = func("rank", e, method=k["method"], ascending=k["ascending"], na_option=k["na_option"], pct=k["pct"])
    if family in NA_FAMILIES and k["method"] != "average" and not k["pct"] and dtype is not None and is_numeric(dtype):
        return func("cast", rank, dtype=pa.uint64(), family=family)
    return rank


def _repr_frame(df: Any, html: bool, as_series: bool = False) -> str:
    """pandas' repr, computing only the rows shown: all when few, else the head and tail.

    The ``display.*`` options are read by pandas' own helpers (``max_rows=0`` is the terminal's
    height, ``show_dimensions``, ``max_colwidth``, ``expand_frame_repr``...), so they change gframe's
    repr as they change pandas'."""
    from pandas.io.formats import format as fmt

    params = fmt.get_series_repr_params() if as_series else fmt.get_dataframe_repr_params()
    max_rows = params["max_rows"]
    min_rows = params["min_rows"] or max_rows
    res = df._result()
    n = res.num_rows()
    schema = df._plan.schema
    is_series = as_series
    # max_rows=0 (fit the terminal) and large_repr="info" (df.info() when truncated) need every row
    whole = not is_series and (max_rows == 0 or pd.get_option("display.large_repr") == "info")
    if max_rows is None or n <= max_rows or whole:
        pdf = arrow_to_pandas(res.to_arrow(), schema)
        shown = pdf.iloc[:, 0].rename(schema.columns[0].label) if is_series else pdf
        return shown._repr_html_() if html and not is_series else repr(shown)  # type: ignore[union-attr]
    half = min(min_rows, max_rows) // 2
    head = arrow_to_pandas(res.to_arrow(0, half), schema)
    tail = arrow_to_pandas(res.to_arrow(n - half, half), schema, offset=n - half)
    # head, one hidden filler row, tail: pandas truncates it to exactly the rows it would show
    both = pd.concat([head, head.iloc[:1], tail])
    shown_rows = 2 * half
    if is_series:
        s = both.iloc[:, 0].rename(schema.columns[0].label)
        text = s.to_string(**{**params, "max_rows": shown_rows, "min_rows": shown_rows, "length": False})
        if not params["length"]:  # display.show_dimensions=False: no "Length: n"
            return text
        lines = text.split("\n")
        # pandas' footer line is "Name: x, Length: n, dtype: t"
        last = lines[-1]
        parts = [p.strip() for p in last.split(",")]
        parts = [p for p in parts if not p.startswith("Length")]
        insert_at = 1 if parts and parts[0].startswith("Name") else 0
        parts.insert(insert_at, f"Length: {n}")
        lines[-1] = ", ".join(parts)
        return "\n".join(lines)
    if html:
        with pd.option_context("display.max_rows", shown_rows, "display.min_rows", shown_rows):
            text = both._repr_html_()
        return text.replace(f"<p>{len(both)} rows × ", f"<p>{n} rows × ")
    text = both.to_string(**{**params, "max_rows": shown_rows, "min_rows": shown_rows, "show_dimensions": False})
    if not params["show_dimensions"]:  # True, or "truncate" (this frame is truncated): pandas' footer
        return text
    return f"{text}\n\n[{n} rows x {both.shape[1]} columns]"


# The modules that build on DataFrame import it back: they come after the class (Series first: the
# others use both). gframe/frontend/__init__.py imports this module first, whichever is asked for.
from gframe.frontend.series import Series, cast_expr, check_binop, cross_kind_equality, reduce_columns  # noqa: E402
from gframe.frontend import readwrite, reshape  # noqa: E402
from gframe.frontend.groupby import DataFrameGroupBy  # noqa: E402
from gframe.frontend.indexing import NATIVE_ERRORS, ILocIndexer, LocIndexer, pandas_verdict  # noqa: E402
from gframe.frontend import window as _window  # noqa: E402,F401  (registers rolling / expanding / ewm)
