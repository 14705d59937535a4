"""pandas <-> Arrow at the edges: pandas/numpy/dict in, Arrow tables with internal names, and back.

Below both the frontend and the engines (it imports only ``plan``), so the engines' verification
mode and the readers convert without reaching up into the frontend.

On the way in NaN in float columns becomes null (gframe's one missing value); on the way out nulls
become what pandas shows (NaN, NaT, None) and dtypes follow pandas' value-dependent rules (an int
column with missing values is float64).
"""
from __future__ import annotations

import contextlib
import pickle
import re
import warnings
import weakref
from typing import Any, Hashable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from gframe.plan.logical import InMemoryScan, Plan
from gframe.plan.node import Opaque
from gframe.plan.schema import (
    HOST_PREFIX,
    MASKED,
    DeletedFreq,
    NA_FAMILIES,
    OBJECT_DATE,
    OBJECT_STRING,
    PYOBJECT,
    Field,
    IndexField,
    NUMPY,
    OBJECT,
    OBJECT_FAMILIES,
    OBJECT_NA,
    OBJECT_NAT,
    OBJECT_NONE,
    Schema,
    arrow_type_from_pandas,
    family_dtype,
    family_of_pandas,
    host_family,
    index_name,
    internal_name,
    normalize_arrow_type,
    object_missing,
    pandas_dtype,
    string_storage,
)


def _array_from_pandas(values: pd.Series | pd.Index, label: Hashable) -> pa.Array:
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        # built from codes and categories: the categories are the dtype's, all of them, even where
        # no row uses them (Arrow's cast of an empty dictionary array drops its dictionary)
        codes = np.asarray(pd.Series(values).cat.codes, dtype=np.int32)
        try:
            cats = pa.array(np.asarray(dtype.categories, dtype=object) if dtype.categories.dtype == object
                            or isinstance(dtype.categories.dtype, pd.StringDtype) else dtype.categories)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
            # categories of several kinds (``["a", 1]``): the values kept as the objects they are,
            # shown as the categorical they were (``host_family`` carries its dtype)
            return _pickled(values)
        if isinstance(cats, pa.ChunkedArray):  # (categories of an ArrowDtype: no chunk where there are none)
            cats = cats.combine_chunks() if cats.num_chunks else pa.array([], cats.type)
        if pa.types.is_null(cats.type) and not len(cats):  # no categories: Arrow cannot tell their type
            want = arrow_type_from_pandas(dtype.categories.dtype)
            cats = pa.array([], want) if want is not None else cats
        cats = cats.cast(normalize_arrow_type(cats.type) if not pa.types.is_null(cats.type) else pa.float64())
        return pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32(), mask=codes < 0), cats, ordered=bool(dtype.ordered))
    if isinstance(dtype, np.dtype) and dtype.kind in "cSV" or _zone_engines_refuse(dtype) \
            or isinstance(values, pd.Series) and _zone_lost_in_arrow(dtype):
        # complex numbers, numpy bytes: Arrow has no such type (bytes would come back object); kept as
        # the objects they are, shown as their dtype (``host_family``); so are datetimes in a fixed
        # offset that is not a whole hour (``+01:15``), a zone the engines cannot name
        return _pickled(values)
    try:
        if dtype == object and pd.api.types.infer_dtype(values, skipna=True) in ("mixed", "mixed-integer"):
            # values of several kinds: Arrow would take some as another's (an int in timestamps is a
            # time, -1 is 1969-12-31 23:59:59.999999) - kept as the objects they are
            raise pa.ArrowInvalid("values of several kinds")
        with _storage_warnings_quiet():
            arr = pa.Array.from_pandas(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, OverflowError) as exc:
        # (OverflowError: Python ints past int64 in an object column, which Arrow infers as int64)
        if dtype != object and not isinstance(dtype, pd.SparseDtype):
            raise TypeError(f"column {label!r} of dtype {dtype} has values gframe cannot store natively: {exc}") from exc
        # mixed Python objects (and sparse values): kept exactly (pickled), moved by the engines,
        # computed on by pandas
        return _pickled(values)
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if dtype == object and (pa.types.is_temporal(arr.type)) and pd.api.types.infer_dtype(values, skipna=True) not in (
            "datetime", "datetime64", "date", "timedelta", "timedelta64"):
        # pyarrow reads the first value's kind and converts the rest to it (a Timestamp, then 0 ->
        # 1970-01-01); pandas' appended index of timestamps and positions holds both as they are
        return pa.array([pickle.dumps(v) for v in values], PYOBJECT)
    if dtype == object and pa.types.is_timestamp(arr.type) and _mixed_time_zones(values):
        # pyarrow takes the first value's time zone for all (a naive Timestamp after a UTC one became
        # UTC); pandas' object column holds each as it is
        return pa.array([pickle.dumps(v) for v in values], PYOBJECT)
    if dtype == object and arr.null_count and _mixed_markers(values):
        # pd.NA or NaT beside other missing values (a concat of an ``astype(object)`` of a nullable
        # column with rows another frame lacks: NA and NaN): one family shows one marker, pandas'
        # column keeps each - kept as the objects they are
        return _pickled(values)
    if dtype == object and (pa.types.is_timestamp(arr.type) or pa.types.is_duration(arr.type)) and arr.type.unit != "ns":
        arr = _object_times_in_ns(values, arr)
    if isinstance(dtype, np.dtype) and _past_seconds_range(arr):
        # times in [s] past the range of [ms] (Polars has no [s]: the CPU engine holds them as [ms],
        # where these wrap): kept as the objects they are, shown as their dtype (``host_family``) -
        # the engines move them, pandas computes on them (an ArrowDtype's values have no Python
        # object past datetime's range: refused by the CPU engine, ``kernels._check_seconds_range``)
        return _pickled(values)
    t = normalize_arrow_type(arr.type)
    if t != arr.type:
        arr = arr.cast(t)
    if dtype == object and pa.types.is_null(arr.type):
        arr = pa.nulls(len(values), pa.float64())
    return arr


def _mixed_markers(values: pd.Series | pd.Index) -> bool:
    """Whether an object column's missing values mix ``pd.NA`` or ``NaT`` with another missing value
    (the object families ``OBJECT_NA`` / ``OBJECT_NAT`` show one marker for every missing value)."""
    missing = np.asarray(values, dtype=object)[np.asarray(pd.isna(values))]
    # the markers' identities, compared in numpy (``map`` of the builtin ``id``: no bytecode per value)
    ids = np.fromiter(map(id, missing), dtype=np.uint64, count=len(missing))
    na = int((ids == id(pd.NA)).sum())
    nat = int((ids == id(pd.NaT)).sum())
    return (na > 0 or nat > 0) and na != len(missing) and nat != len(missing)


_MS_LIMIT = (2 ** 63 - 1) // 1000  # the [s] values a [ms] int64 holds


def _past_seconds_range(arr: pa.Array) -> bool:
    """Whether ``arr`` holds times in [s] that [ms] cannot hold (``_array_from_pandas``)."""
    t = arr.type
    if not (pa.types.is_timestamp(t) or pa.types.is_duration(t)) or t.unit != "s" or not len(arr):
        return False
    lo, hi = pc.min_max(arr.cast(pa.int64())).values()
    return lo.is_valid and (lo.as_py() < -_MS_LIMIT or hi.as_py() > _MS_LIMIT)


def _mixed_time_zones(values: pd.Series | pd.Index) -> bool:
    """Whether an object column's timestamps mix time zones, or tz-aware with naive ones: pandas'
    ``DatetimeIndex`` refuses those (ValueError), where Arrow converts them all to one zone."""
    try:
        pd.DatetimeIndex(np.asarray(values, dtype=object))
    except pd.errors.OutOfBoundsDatetime:
        return False
    except (ValueError, TypeError):
        return True
    return False


def _pickled(values: pd.Series | pd.Index) -> pa.Array:
    return pa.array([pickle.dumps(v) for v in values], PYOBJECT)


def _object_times_in_ns(values: pd.Series | pd.Index, arr: pa.Array) -> pa.Array:
    """An object column of pandas ``Timestamp`` / ``Timedelta`` objects: pyarrow converts them to
    [us], dropping their nanoseconds (``Timestamp(1)`` became 1970-01-01 00:00:00); where that lost
    something, the values in [ns] (pandas' conversion, which knows them), else Arrow's as they are."""
    kind = "datetime64[ns]" if pa.types.is_timestamp(arr.type) else "timedelta64[ns]"
    try:
        with _storage_warnings_quiet():
            ns = pa.Array.from_pandas(pd.Series(np.asarray(values, dtype=object)).astype(kind))
    except (ValueError, TypeError, OverflowError, pa.ArrowInvalid, pd.errors.OutOfBoundsDatetime):
        return arr  # (tz-aware, or past the [ns] range: nothing finer than [us] to keep)
    if isinstance(ns, pa.ChunkedArray):
        ns = ns.combine_chunks()
    if ns.type.unit != "ns" or ns.equals(arr.cast(ns.type)):
        return arr
    return ns


@contextlib.contextmanager
def _storage_warnings_quiet() -> Any:
    """Silence pandas' deprecation warnings raised by storing values in Arrow (a ``PeriodDtype[B]``
    index's ``__arrow_array__`` makes the deprecated dtype again): the user's program warned when it
    made those values, and pandas itself never converts them, so a pandas program sees no second
    warning (pandas' ``assert_produces_warning`` counts them, and checks each one's file)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        yield


def _stored_family(dtype: Any, arr: pa.Array, values: Any = None) -> str:
    """The family of a pandas column stored as ``arr``: an object column whose values Arrow stores as
    a type pandas shows otherwise (all numbers: float64; no values at all, or only None/NaN: float64
    nulls) stays object (the family) when it comes back - an empty ``pd.Index([])`` is object, and so
    is pandas' ``datetime.fillna(1.5)`` of a column with no dates left.

    Bools with missing values are object in pandas either way, and an object column here too (a
    numpy-family bool column with nulls would compute as bools: ``fillna(0)`` kept None, and
    ``astype(int)`` made floats): the missing value says which object family - NaN (what pandas'
    reindex, join and shift put in a bool column), None (a file's or Arrow's nulls, a user's
    column), ``pd.NA``."""
    if arr.type == PYOBJECT and dtype != object:
        return host_family(dtype)  # complex, bytes, sparse: shown as their dtype
    if dtype == object and pandas_dtype(arr.type, arr.null_count > 0) != object:
        return _object_marker(values, arr)
    if dtype == object and pa.types.is_boolean(arr.type) and arr.null_count and values is not None:
        return _object_marker(values, arr)
    if dtype == object and not pa.types.is_boolean(arr.type) and arr.null_count and _object_marker(values, arr) != OBJECT:
        # values object in pandas too (dates, decimals: ``astype(object)`` of an ArrowDtype) missing as
        # NA / NaT / None, not NaN
        return _object_marker(values, arr)
    return family_of_pandas(dtype)


def _object_marker(values: Any, arr: pa.Array) -> str:
    """The object family of an object column by the missing value it holds: ``pd.NA`` (an
    ``astype(object)`` of a nullable or Arrow column), ``NaT`` (of datetimes) and ``None`` (pandas'
    object kernels' group ``first`` of no value, a user's column) stay what they are; NaN or a mix
    show as NaN."""
    if values is None or not arr.null_count:
        return OBJECT
    missing = np.asarray(values, dtype=object)[np.asarray(pd.isna(values))]
    for family, marker in ((OBJECT_NA, pd.NA), (OBJECT_NAT, pd.NaT), (OBJECT_NONE, None)):
        if missing[0] is marker and all(v is marker for v in missing):
            return family
    return OBJECT


def pandas_to_table(df: pd.DataFrame) -> tuple[pa.Table, Schema]:
    """A pandas DataFrame as an Arrow table with internal column names, and its schema."""
    if not df.columns.is_unique:
        dup = df.columns[df.columns.duplicated()].tolist()
        raise ValueError(f"gframe needs unique column labels; duplicated: {dup}")
    arrays: list[pa.Array] = []
    names: list[str] = []
    fields: list[Field] = []
    for i, label in enumerate(df.columns):
        arr = _array_from_pandas(df.iloc[:, i], label)
        arrays.append(arr)
        names.append(internal_name(label))
        dtype = df.dtypes.iloc[i]
        tz = tz_holder(dtype.tz) if isinstance(dtype, pd.DatetimeTZDtype) and arr.type != PYOBJECT else None
        fields.append(Field(label, arr.type, _stored_family(dtype, arr, df.iloc[:, i]), tz))
    index: tuple[IndexField, ...] | None
    idx = df.index
    if isinstance(idx, pd.RangeIndex) and idx.start == 0 and idx.step == 1 and idx.name is None:
        index = None
    else:
        # by position: ``get_level_values(1)`` reads 1 as a level's name first (levels named 1, 2)
        levels = [idx._get_level_values(i) if isinstance(idx, pd.MultiIndex) else idx for i in range(idx.nlevels)]
        index = []
        for lvl, values in enumerate(levels):
            arr = _array_from_pandas(values, values.name)
            arrays.append(arr)
            names.append(index_name(lvl))
            index.append(IndexField(values.name, arr.type, lvl, _stored_family(values.dtype, arr, values),
                                    _freq_of(idx) if idx.nlevels == 1 else None, _tz_of(values)))
        index = tuple(index)
    table = pa.Table.from_arrays(arrays, names=names) if arrays else pa.table({})
    if not arrays and len(df):
        table = pa.table({"__gf_len": pa.nulls(len(df))}).drop_columns([])  # keep the row count
    empty = None if len(df.columns) or isinstance(df.columns, pd.RangeIndex) else str(df.columns.dtype)
    return table, Schema(tuple(fields), index, empty, _columns_dtype(df.columns), _columns_name(df.columns))


def _columns_name(columns: pd.Index) -> Hashable:
    """``df.columns.name`` (a MultiIndex of columns: its names are pandas' to keep, not held)."""
    return None if isinstance(columns, pd.MultiIndex) else columns.name


def _columns_dtype(columns: pd.Index) -> str | None:
    """The dtype of a frame's column Index where its labels infer another (``Schema.columns_dtype``)."""
    if not len(columns) or isinstance(columns, (pd.MultiIndex, pd.RangeIndex)) or columns.dtype == np.int64 \
            or columns.dtype == "str":  # (the common cases, without inferring)
        return None
    dtype = str(columns.dtype)
    try:
        return None if str(pd.Index(list(columns)).dtype) == dtype else dtype
    except (TypeError, ValueError):
        return None


# pandas objects a scan was built from, by scan node (weakly): asking for that frame back as pandas
# (a fallback's result handed to the next pandas call, a UDF's return value) needs no conversion.
_host_copies: "weakref.WeakKeyDictionary[Plan, pd.DataFrame]" = weakref.WeakKeyDictionary()


class DeferredTable(Opaque):
    """The Arrow table of a pandas frame, converted on first use.

    A frame built from pandas whose dtypes give the schema directly (numbers, bools, strings,
    datetimes) is not converted until an engine reads it: a frame that only goes back to pandas (a
    fallback's result passed on, a UDF's return value) is never converted at all. Hashed by the
    identity of its source, like every in-memory value in a plan.
    """

    __slots__ = ("_source", "_table")

    def __init__(self, source: pd.DataFrame) -> None:  # noqa: D107 - the base's value is a property here
        object.__setattr__(self, "label", "arrow")
        object.__setattr__(self, "_source", source)
        object.__setattr__(self, "_table", None)

    @property  # type: ignore[override]
    def value(self) -> pa.Table:
        if self._table is None:
            object.__setattr__(self, "_table", pandas_to_table(self._source)[0])
        return self._table

    def __hash__(self) -> int:
        return id(self._source)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DeferredTable) and other._source is self._source


def _direct_type(dtype: Any) -> pa.DataType | None:
    """The Arrow type ``pandas_to_table`` gives a column of this dtype, when it is knowable from the
    dtype alone (None: the values must be looked at)."""
    if isinstance(dtype, pd.StringDtype):
        return normalize_arrow_type(pa.large_string())
    if isinstance(dtype, np.dtype) and dtype.kind in "iufbM" and not (dtype.kind == "M" and np.datetime_data(dtype)[0] == "s"):
        return pa.from_numpy_dtype(dtype)  # ([s] may hold values the engines cannot: ``_past_seconds_range``)
    return None


def _direct_schema(df: pd.DataFrame) -> Schema | None:
    if not df.columns.is_unique or not len(df.columns):
        return None
    fields = []
    mgr = getattr(df, "_mgr", None)  # the block manager's dtype array is ~50x cheaper than df.dtypes
    dtypes = mgr.get_dtypes() if mgr is not None and hasattr(mgr, "get_dtypes") else df.dtypes
    for label, dtype in zip(df.columns, dtypes):
        t = _direct_type(dtype)
        if t is None:
            return None
        fields.append(Field(label, t, family_of_pandas(dtype)))
    idx = df.index
    cdtype, cname = _columns_dtype(df.columns), _columns_name(df.columns)
    if isinstance(idx, pd.RangeIndex) and idx.start == 0 and idx.step == 1 and idx.name is None:
        return Schema(tuple(fields), None, None, cdtype, cname)
    if isinstance(idx, pd.MultiIndex):
        return None
    t = _direct_type(idx.dtype)
    if t is None:
        return None
    return Schema(tuple(fields), (IndexField(idx.name, t, 0, family_of_pandas(idx.dtype), _freq_of(idx), _tz_of(idx)),),
                  None, cdtype, cname)


def scan_pandas(df: pd.DataFrame, origin: str = "pandas") -> Plan:
    # a shallow copy: under pandas' copy-on-write, later changes to ``df`` do not reach it
    source = df.copy(deep=False)
    schema = _direct_schema(source)
    if schema is not None:
        plan = InMemoryScan(DeferredTable(source), schema, origin)
    else:
        table, schema = pandas_to_table(source)
        plan = InMemoryScan(Opaque(table, "arrow"), schema, origin)
    _host_copies[plan] = source
    return plan


def host_copy(plan: Plan) -> pd.DataFrame | None:
    """The pandas frame ``plan`` was built from, if it is such a scan (a copy-on-write copy)."""
    if type(plan) is not InMemoryScan:
        return None
    hit = _host_copies.get(plan)
    return None if hit is None else hit.copy(deep=False)


# ----------------------------------------------------------------- categoricals of non-string categories
# The CPU engine holds every categorical as a Polars Enum, whose categories are strings: one of
# numbers, bools or temporal values is an Enum of its categories encoded as strings, exact both ways
# (``engines/cpu/categorical.py`` says why). The encoding lives here, beside the conversion to
# pandas that undoes it (``categories_from_engine``), since it is Arrow's alone.

def _is_string(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def categories_storage(t: pa.DataType) -> pa.DataType | None:
    """The integer type a value type's strings are the digits of (None: the values' own repr)."""
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date64(t):
        return pa.int64()
    if pa.types.is_date32(t):
        return pa.int32()
    if pa.types.is_boolean(t):
        return pa.int8()
    return None


def encode_categories(values: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Values (of a categorical's categories' type) as the strings the engine's Enum holds."""
    if isinstance(values, pa.ChunkedArray) and values.num_chunks == 0:
        return pa.chunked_array([], pa.large_string())
    store = categories_storage(values.type)
    if store is not None:
        values = values.cast(store) if not pa.types.is_boolean(values.type) else pc.cast(values, pa.int8())
    return values.cast(pa.large_string())


def decode_categories(strings: pa.Array | pa.ChunkedArray, t: pa.DataType) -> pa.Array | pa.ChunkedArray:
    """``encode_categories`` undone: the strings as values of type ``t``."""
    if pa.types.is_null(t):  # a categorical of no values (its categories' type unknown to the plan)
        return pa.nulls(len(strings))
    store = categories_storage(t)
    if store is None:
        return strings.cast(t)
    ints = strings.cast(store)
    return pc.not_equal(ints, 0) if pa.types.is_boolean(t) else ints.cast(t)


def categories_from_engine(col: pa.ChunkedArray | pa.Array, t: pa.DataType) -> pa.ChunkedArray | pa.Array:
    """A column the engine gave for a categorical of plan type ``t`` (an Enum of encodings: a
    dictionary of strings) as Arrow's dictionary of ``t``'s categories, every category kept."""
    if not pa.types.is_dictionary(t) or _is_string(t.value_type) or not pa.types.is_dictionary(col.type) \
            or not _is_string(col.type.value_type):
        return col
    chunks = col.chunks if isinstance(col, pa.ChunkedArray) else [col]
    out = [pa.DictionaryArray.from_arrays(c.indices, decode_categories(c.dictionary, t.value_type), ordered=col.type.ordered)
           for c in chunks]
    want = pa.dictionary(col.type.index_type, t.value_type, col.type.ordered)
    return pa.chunked_array(out, type=want) if isinstance(col, pa.ChunkedArray) else out[0]


def _family_column(col: pa.ChunkedArray | pa.Array, dtype: pa.DataType | None, family: str) -> Any:
    """A column of a non-numpy family as its pandas dtype (None: the numpy rules apply)."""
    target = family_dtype(dtype if dtype is not None else col.type, family)  # None: the data's type
    if target is None:
        return None
    if family.startswith(HOST_PREFIX):  # the pickled values as their dtype
        return pd.Series(pd.array(np.asarray(_pandas_column(col, PYOBJECT, NUMPY), dtype=object), dtype=target))
    if family in OBJECT_FAMILIES:
        if pa.types.is_integer(col.type) and col.null_count and (dtype is None or pa.types.is_integer(dtype)):
            # Python ints beside the marker (``astype(object)`` of ``Int64``: ``[3, <NA>]``), not the
            # floats numpy's rules would make of ints with a missing value
            values = pd.Series(col.to_pandas(integer_object_nulls=True), dtype=object)
        else:
            values = _pandas_column(col, dtype, NUMPY)
        return pd.Series(values.astype(object), dtype=object).where(values.notna(), object_missing(family))
    if dtype is not None and col.type != dtype and not pa.types.is_dictionary(col.type):
        # an engine without the exact type (Polars' large strings, units) widened it (a unit: truncated, above)
        col = col.cast(dtype, safe=not (pa.types.is_timestamp(dtype) or pa.types.is_duration(dtype)))
    if isinstance(target, pd.ArrowDtype):
        if col.type != target.pyarrow_dtype:
            col = col.cast(target.pyarrow_dtype)
        return pd.Series(pd.arrays.ArrowExtensionArray(col if isinstance(col, pa.ChunkedArray) else pa.chunked_array([col])))
    numpy_dtype = getattr(target, "numpy_dtype", None)
    if isinstance(target, pd.core.arrays.masked.BaseMaskedDtype) and numpy_dtype is not None and numpy_dtype.kind in "iub":
        # from Arrow's values and validity directly: ``pd.array`` goes through float64 where a value is
        # missing, which rounds ints past 2**53 (and raises OverflowError near the int64 limits)
        want = pa.from_numpy_dtype(numpy_dtype)
        chunked = col if isinstance(col, pa.ChunkedArray) else pa.chunked_array([col], type=col.type)
        return pd.Series(target.__from_arrow__(chunked if chunked.type == want else chunked.cast(want)))
    return pd.Series(pd.array(col, dtype=target) if len(col) else pd.array([], dtype=target))


def _pandas_column(col: pa.ChunkedArray | pa.Array, dtype: pa.DataType | None, family: str = NUMPY) -> Any:
    if isinstance(col, pa.ChunkedArray) and col.num_chunks == 0:
        col = pa.array([], type=col.type)
    if isinstance(dtype, pa.ExtensionType) and col.type == dtype.storage_type:
        # pandas' interval / period through an engine that kept only the storage (Polars 1.x)
        col = pa.chunked_array([pa.ExtensionArray.from_storage(dtype, c) for c in col.chunks], dtype) \
            if isinstance(col, pa.ChunkedArray) else pa.ExtensionArray.from_storage(dtype, col)
    cat_family = NUMPY
    if dtype is not None and pa.types.is_dictionary(dtype):
        col = categories_from_engine(col, dtype)
        cat_family, family = family, NUMPY  # (the categories' family: applied to them below)
    if family != NUMPY or string_storage(family):
        out = _family_column(col, dtype, family)
        if out is not None:
            return out
    if dtype is not None and (pa.types.is_timestamp(dtype) or pa.types.is_duration(dtype)) \
            and (pa.types.is_timestamp(col.type) or pa.types.is_duration(col.type)) and col.type.unit != dtype.unit:
        # an engine without the unit (Polars has no seconds) widened it; a mean or median between
        # two seconds holds a fraction of one there, which pandas' float -> int64 truncates (toward 0)
        col = col.cast(dtype, safe=False)
    if dtype == PYOBJECT:
        objects = np.empty(len(col), dtype=object)
        # every stored object is pickled, None too: a null is a row an engine added (a concat's or
        # merge's missing side, a shift), where pandas puts NaN
        objects[:] = [np.nan if b is None else pickle.loads(b) for b in col.to_pylist()]
        return pd.Series(objects, dtype=object)
    with _storage_warnings_quiet():
        values = col.to_pandas()
    if dtype == OBJECT_STRING:
        return values.astype(object).where(values.notna(), np.nan)
    if dtype == OBJECT_DATE:
        values = pd.Series(col.cast(pa.date32()).to_pandas(date_as_object=True), dtype=object)
        return values.where(values.notna(), pd.NaT)
    if dtype is not None and pa.types.is_dictionary(dtype) and not isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype("category")
    ordered = bool(dtype.ordered) if dtype is not None and pa.types.is_dictionary(dtype) else False
    if isinstance(values.dtype, pd.CategoricalDtype) and values.dtype.ordered != ordered \
            and (dtype is None or pa.types.is_dictionary(dtype)):
        # engines' enums are all ordered (Polars has no unordered Enum); the plan's type says which,
        # and a categorical the data decides (a merge key, a fillna) is pandas' default, unordered
        values = values.astype(pd.CategoricalDtype(values.dtype.categories, ordered=ordered))
    if isinstance(values.dtype, pd.CategoricalDtype) and not len(values.dtype.categories) \
            and dtype is not None and pa.types.is_dictionary(dtype):
        # no categories: Arrow gives them object dtype; pandas' are typed by the values' type (str)
        cats = pd.Index([], dtype=pandas_dtype(dtype.value_type))
        values = pd.Series(pd.Categorical.from_codes(np.asarray(values.cat.codes), dtype=pd.CategoricalDtype(cats, ordered)),
                           index=values.index)
    if (cat_family != NUMPY or string_storage(cat_family)) and isinstance(values.dtype, pd.CategoricalDtype):
        values = _categories_in_family(values, dtype.value_type, cat_family)  # type: ignore[union-attr]
    if dtype is None and family == NUMPY and pa.types.is_decimal(col.type) and col.null_count:
        # decimals whose dtype pandas infers (a group key from an object column of Decimals: the
        # plan leaves its type to the data): pandas' object values, missing as NaN (pyarrow: None)
        values = values.where(values.notna(), np.nan)
    if dtype is None and pa.types.is_boolean(col.type) and values.dtype == object and col.null_count:
        # bools that rows went missing from (a merge's or concat's missing side): pandas reindexes
        # them to object with NaN (a file's or Arrow's missing bools are None: typed bool in the plan)
        values = values.where(values.notna(), np.nan)
    if pa.types.is_integer(col.type) and col.null_count == 0 and values.dtype.kind == "f":
        values = values.astype(col.type.to_pandas_dtype())
    return values


def _categories_in_family(values: pd.Series, t: pa.DataType, family: str) -> pd.Series:
    """A categorical whose categories are of a pandas dtype of ``family`` (``Int64``,
    ``string[pyarrow]``...): its categories as that dtype, the codes and orderedness kept."""
    want = family_dtype(t, family)
    cats = values.dtype.categories
    if want is None or cats.dtype == want:
        return values
    if isinstance(want, pd.ArrowDtype):
        arr = pa.array(cats.to_numpy(dtype=object) if cats.dtype == object else cats, from_pandas=True)
        new = pd.Index(pd.arrays.ArrowExtensionArray(arr if arr.type == want.pyarrow_dtype else arr.cast(want.pyarrow_dtype)))
    else:
        new = cats.astype(want)
    dtype = pd.CategoricalDtype(new, ordered=values.dtype.ordered)
    return pd.Series(pd.Categorical.from_codes(np.asarray(values.cat.codes), dtype=dtype), index=values.index, name=values.name)


def _freq_of(idx: pd.Index) -> Any:
    """A DatetimeIndex's or TimedeltaIndex's ``freq`` (None for other indexes)."""
    return idx.freq if isinstance(idx, (pd.DatetimeIndex, pd.TimedeltaIndex)) else None


def _tz_of(idx: pd.Index) -> Any:
    """The time zone of a tz-aware DatetimeIndex as a hashable holder of the tz object (dateutil's
    zones are unhashable): pandas' ``DatetimeTZDtype`` of it; None for other indexes."""
    tz = getattr(idx, "tz", None) if isinstance(idx, pd.DatetimeIndex) else None
    return tz_holder(tz)


def tz_holder(tz: Any) -> Any:
    """A tz object as ``IndexField.tz`` holds it (``index_tz`` reads it back); None for None."""
    return None if tz is None else pd.DatetimeTZDtype("ns", tz)


def index_tz(index: pd.Index, tz: Any) -> pd.Index:
    """``index`` in the time zone object ``tz`` where its zone is the one of that name (Arrow's
    name for it): a dateutil or pytz zone comes back as itself, not as the zoneinfo pandas makes of
    the name (another dtype to pandas). A zone the plan changed (``tz_convert``) is left alone."""
    tz = getattr(tz, "tz", None)
    if tz is None or not isinstance(index, pd.DatetimeIndex) or index.tz is None or index.tz is tz:
        return index
    try:
        same = engine_zone_name(pa.lib.tzinfo_to_string(tz)) == engine_zone_name(pa.lib.tzinfo_to_string(index.tz))
    except (TypeError, ValueError, pa.ArrowException):
        return index
    return index.tz_convert(tz) if same else index


def column_tz(values: Any, tz: Any) -> Any:
    """``index_tz`` for a column's values (a Series or an array)."""
    if not isinstance(getattr(values, "dtype", None), pd.DatetimeTZDtype):
        return values
    index = index_tz(pd.DatetimeIndex(values), tz)
    return values if index.tz is values.dtype.tz else pd.Series(index.array, index=getattr(values, "index", None))


_WHOLE_HOUR_OFFSET = re.compile(r"^([+-])(\d\d):00$")
_FIXED_OFFSET = re.compile(r"^[+-]\d\d:\d\d$")


def _zone_lost_in_arrow(dtype: Any) -> bool:
    """Whether a column of datetimes in this zone would come back in another one: Arrow names a zone
    by a string, and a zone object pandas keeps (``dateutil``'s, ``tzlocal()``, ``datetime.timezone``
    of whole hours, which the engines hold as ``Etc/GMT-1``) is not the zone that string gives back.
    Held as pickled objects where pandas' dtype string names the zone exactly (``host_family``)."""
    if not isinstance(dtype, pd.DatetimeTZDtype):
        return False
    try:
        name = engine_zone_name(pa.lib.tzinfo_to_string(dtype.tz))
        return pd.DatetimeTZDtype(dtype.unit, name) != dtype and pd.api.types.pandas_dtype(str(dtype)) == dtype
    except (TypeError, ValueError, KeyError, pa.ArrowException):
        return False


def _zone_engines_refuse(dtype: Any) -> bool:
    """Whether ``dtype`` is a datetime in a zone the engines cannot name (Polars takes IANA names;
    a fixed offset of whole hours is its ``Etc/GMT`` zone, others raise), which pandas' dtype string
    names exactly (so the host family shows it back)."""
    if not isinstance(dtype, pd.DatetimeTZDtype):
        return False
    try:
        name = engine_zone_name(pa.lib.tzinfo_to_string(dtype.tz))
        return bool(_FIXED_OFFSET.match(name)) and pd.api.types.pandas_dtype(str(dtype)) == dtype
    except (TypeError, ValueError, pa.ArrowException):
        return False


def engine_zone_name(name: str) -> str:
    """The name the engines give the Arrow time zone ``name``: Polars (and so the CPU engine) holds a
    whole-hour fixed offset (``'+01:00'``, pandas' ``datetime.timezone(timedelta(hours=1))``) as the
    IANA zone of that offset, ``'Etc/GMT-1'`` (POSIX signs: inverted), and ``'+00:00'`` as ``'UTC'``.
    Two names with one engine name are one zone: an index that comes back in the engine's name is
    in the zone the plan recorded (``index_tz``)."""
    m = _WHOLE_HOUR_OFFSET.match(name)
    if m is None:
        return name
    hours = int(m.group(2))
    if hours == 0:
        return "UTC"
    return f"Etc/GMT{'-' if m.group(1) == '+' else '+'}{hours}"


def index_freq(index: pd.Index, freq: Any) -> pd.Index:
    """``index`` with the ``freq`` pandas gives it, where the plan says its rows came from an index
    of frequency ``freq``.

    pandas keeps a frequency through a take of rows only where the positions taken form a slice
    (``DatetimeIndex.take``: a filter, a sort, ``iloc[::k]``): the rows left are then evenly spaced,
    ``k * freq`` apart (one row or none: ``freq``). Evenly spaced values are what that gives, so
    the values decide here, and pandas' constructor checks them."""
    if freq is None or not isinstance(index, (pd.DatetimeIndex, pd.TimedeltaIndex)) or index.freq is not None:
        return index
    run_only = isinstance(freq, DeletedFreq)
    freq = freq.freq if run_only else freq
    if len(index) < 2:
        return type(index)(index, freq=freq)
    step = index[1] - index[0]
    if index[0] + freq == index[1]:
        want = freq
    elif run_only:
        return index
    elif index[0] - freq == index[1]:
        want = -freq
    else:
        nanos = getattr(freq, "nanos", None) if isinstance(freq, pd.offsets.Tick) else None
        if not nanos or step.value % nanos:
            return index
        want = freq * (step.value // nanos)
    try:
        return type(index)(index, freq=want)
    except ValueError:  # not evenly spaced: pandas' take gave no frequency
        return index


def arrow_to_pandas(table: pa.Table, schema: Schema, offset: int = 0) -> pd.DataFrame:
    """Arrow table (internal names) -> pandas DataFrame with the schema's labels and index.

    ``offset``: the table holds rows from this position on (a default RangeIndex starts there).
    """
    data = {}
    for i, f in enumerate(schema.columns):
        data[i] = _pandas_column(table.column(f.name), f.dtype, f.family)
        if f.tz is not None:
            data[i] = column_tz(data[i], f.tz)
    n = table.num_rows
    if schema.index is None:
        index: pd.Index = pd.RangeIndex(offset, offset + n)
    else:
        arrays = [_pandas_column(table.column(f.name), f.dtype, f.family) for f in schema.index]
        if len(arrays) == 1:
            index = index_freq(index_tz(pd.Index(arrays[0]), schema.index[0].tz), schema.index[0].freq)
            index.name = schema.index[0].label
        else:
            index = pd.MultiIndex.from_arrays([pd.Index(a) for a in arrays], names=[f.label for f in schema.index])
    out = pd.DataFrame({k: pd.Series(v).set_axis(index) if len(v) == n else v for k, v in data.items()}, index=index)
    if not data:
        out = pd.DataFrame(index=index, columns=schema.columns_index())
    if schema.columns:
        out.columns = schema.columns_index()
    return out


def family_scalar(value: Any, family: str) -> Any:
    """A reduction's scalar as pandas gives it for a column of ``family``: nullable and Arrow dtypes
    give ``pd.NA`` where numpy gives NaN/NaT, and Arrow dtypes give Python scalars, not numpy's."""
    if family not in NA_FAMILIES:
        return value
    if value is pd.NaT or (isinstance(value, (float, np.floating)) and np.isnan(value)):
        return pd.NA
    if family != MASKED and isinstance(value, np.generic):
        return value.item()
    return value
