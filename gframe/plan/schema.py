"""Schemas: what every plan node knows about its output before anything runs.

A schema is the ordered data columns (pandas label + Arrow type) and the index (labels + types, or
``None`` for pandas' default RangeIndex, which engines do not store). Types are Arrow types: the
neutral vocabulary both engines read (the CPU engine through Polars, the GPU engine through
pylibcudf's Arrow interop). A type of ``None`` means "decided by the data": pandas itself picks the
dtype from the values there (an int column that gains missing values becomes float64).

Engines address columns by *internal names* (strings); pandas labels can be any hashable.
``internal_name`` maps one to the other, one-to-one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Hashable, Iterable

import numpy as np
import pandas as pd
import pyarrow as pa

class cached_property:  # noqa: N801 - functools' name and behaviour, without its lock
    """Compute once per instance, store in its ``__dict__`` (Python 3.11's version takes a lock on
    every first access, a measurable cost when passes build thousands of schemas)."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        value = self.fn(instance)
        instance.__dict__[self.name] = value
        return value


ArrowType = pa.DataType

INDEX_PREFIX = "__gf_index_"
_RESERVED = "__gf_"


def internal_name(label: Hashable) -> str:
    """Engine-side column name for a pandas column label (injective)."""
    if isinstance(label, str) and not label.startswith(_RESERVED):
        return label
    return f"{_RESERVED}{type(label).__name__}:{label!r}"


def index_name(level: int) -> str:
    return f"{INDEX_PREFIX}{level}"


# pandas dtype families. The Arrow type says what the values are; the family says which pandas dtype
# shows them, and so which of pandas' rules apply to them (result dtypes, missing values):
#   NUMPY  - numpy dtypes and pandas' defaults (``str``, ``category``, tz-aware datetimes): an int
#            column with missing values is float64, a comparison with a missing value is False;
#   MASKED - pandas' nullable dtypes (``Int64``, ``Float64``, ``boolean``, ``string``): missing is
#            ``pd.NA``, comparisons with NA are NA, ``&``/``|`` are Kleene, ints stay ints;
#   ARROW  - ``pd.ArrowDtype`` (``int64[pyarrow]``, ``date32[pyarrow]``...): NA semantics as MASKED,
#            results are ArrowDtype again (``ARROW_LARGE``: the same for large_string columns, which
#            the engines cannot tell from string ones - both are ``STRING`` inside);
#   OBJECT - an ``object`` column whose values the engines hold natively (``astype(object)``); its
#            missing values show as NaN (``OBJECT_NA``: as ``pd.NA``, ``OBJECT_NAT``: as ``NaT`` - an
#            object column keeps the missing value of the array it came from, ``Int64``/Arrow/``string``
#            columns' ``pd.NA``, datetimes' ``NaT``; pandas shows and compares them as the objects they are).
# A tag beside the Arrow type rather than new Arrow types: the engines compute on the Arrow type
# alone and stay unaware of pandas; only the plan's dtype rules (``plan/dtypes.py``), the null
# semantics of comparisons and the conversion back to pandas (``interop``) read the family.
NUMPY = "numpy"
MASKED = "masked"
ARROW = "arrow"
ARROW_LARGE = "arrow_large"
OBJECT = "object"
OBJECT_NA = "object_na"
OBJECT_NAT = "object_nat"
# an object column whose missing values show as None: a group's ``first`` / ``last`` of an object
# column where the group has no value (pandas' object kernels leave None there)
OBJECT_NONE = "object_none"
OBJECT_FAMILIES = frozenset({OBJECT, OBJECT_NA, OBJECT_NAT, OBJECT_NONE})
# a column of a pandas dtype the engines cannot hold (complex numbers, numpy bytes ``S3``, sparse):
# stored as pickled Python objects (``PYOBJECT``: engines move the rows, pandas computes on the
# values), its family names the dtype it shows as - ``"host:complex128"`` (``host_family``)
HOST_PREFIX = "host:"
NA_FAMILIES = frozenset({MASKED, ARROW, ARROW_LARGE})  # missing is NA, comparisons propagate it
ARROW_FAMILIES = frozenset({ARROW, ARROW_LARGE})  # pd.ArrowDtype: pandas computes with pyarrow


class _PythonStrings(str):
    """A string column's family (``MASKED`` or ``NUMPY``) for strings pandas holds in Python storage
    (``string[python]``, ``StringDtype("python", na_value=nan)``). Equal to its base family (a str of
    the same value), so every dtype and missing-value rule reads it as that family; only where a
    string column is shown (``family_dtype``) does the storage count, and pandas' string results of
    such a column keep it (``str.upper`` of ``string[python]`` is ``string[python]``). Two plans that
    differ by the storage alone are different plans (``node._typed`` compares the type too)."""

    __slots__ = ()
    storage = "python"

    def __repr__(self) -> str:
        return f"{str.__repr__(self)}[python]"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_PythonStrings, (str(self),))


MASKED_PYTHON = _PythonStrings(MASKED)  # string[python]
NUMPY_PYTHON = _PythonStrings(NUMPY)  # str with storage "python" (NaN is missing)


def string_storage(family: str | None) -> str | None:
    """"python" for a family of Python-storage strings (``MASKED_PYTHON``, ``NUMPY_PYTHON``), else None."""
    return getattr(family, "storage", None)


def python_storage(family: str) -> str:
    """``family`` (``MASKED`` or ``NUMPY``) for strings in Python storage; other families as they are."""
    return family if family not in (MASKED, NUMPY) or string_storage(family) else _PythonStrings(family)


def is_na_family(family: str | None) -> bool:
    return family in NA_FAMILIES


class _HostFamily(str):
    """A host family whose dtype its name does not spell (a categorical of categories Arrow cannot
    type, ``["a", 1]``: ``"host:category"``): the dtype rides along with the name. Such columns come
    only from a pandas object (a scan, by identity), so two of them never meet in one plan node."""

    def __new__(cls, name: str, dtype: object) -> "_HostFamily":
        out = super().__new__(cls, name)
        out.dtype = dtype
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        return (_HostFamily, (str(self), self.dtype))


def host_family(dtype: object) -> str:
    """The family of a column of ``dtype`` held as pickled objects (``HOST_PREFIX``)."""
    name = HOST_PREFIX + str(dtype)
    try:
        spelled = pd.api.types.pandas_dtype(str(dtype)) == dtype
    except TypeError:
        spelled = False
    return name if spelled else _HostFamily(name, dtype)


def host_dtype(family: str | None) -> object | None:
    """The pandas dtype a host family (``host_family``) shows; None for every other family."""
    if family is None or not family.startswith(HOST_PREFIX):
        return None
    carried = getattr(family, "dtype", None)
    return carried if carried is not None else pd.api.types.pandas_dtype(family[len(HOST_PREFIX):])


def object_family(family: str, t: ArrowType | None) -> str:
    """The object family of ``astype(object)`` of a column of ``family`` and type ``t``: the missing
    value the source array's ``astype(object)`` puts there (``pd.NA`` from nullable and Arrow arrays,
    ``NaT`` from numpy datetimes and timedeltas, NaN otherwise)."""
    if family in OBJECT_FAMILIES:
        return family
    if family in (MASKED, ARROW, ARROW_LARGE):
        return OBJECT_NA
    if t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)):
        return OBJECT_NAT
    return OBJECT


def object_missing(family: str) -> object:
    """The missing value an object family shows (see ``object_family``)."""
    return pd.NA if family == OBJECT_NA else pd.NaT if family == OBJECT_NAT else None if family == OBJECT_NONE else np.nan


@dataclass(frozen=True)
class Field:
    label: Hashable
    dtype: ArrowType | None
    family: str = NUMPY
    # a tz-aware column's pandas time zone object as it came in (``IndexField.tz``'s holder): Arrow keeps
    # only a name, which pandas reads back as another tz object (a dateutil zone as zoneinfo, a fixed
    # offset as ``Etc/GMT-1``); used at output while the column is still in that zone
    tz: Any = None

    @cached_property
    def name(self) -> str:
        return internal_name(self.label)


@dataclass(frozen=True)
class DeletedFreq:
    """The ``freq`` of an index that rows were deleted from (pandas' ``Index.delete``, used by
    ``drop``): kept only where the rows left are still one run of it, never a multiple."""

    freq: Any


@dataclass(frozen=True)
class IndexField:
    label: Hashable  # the index level's name (None by default)
    dtype: ArrowType | None
    level: int
    family: str = NUMPY
    # a DatetimeIndex's/TimedeltaIndex's ``freq`` (a pandas offset) as the rows were when it was set:
    # pandas keeps it through every operation that keeps a regular run of the rows (a filter, a slice
    # with a step, a sort give ``step * freq`` when the rows left are evenly spaced), so the plan carries
    # it and the values decide at output (``interop.index_freq``)
    freq: Any = None
    # the pandas time zone object of a tz-aware index as it came in (a dateutil or pytz zone, held by a
    # ``DatetimeTZDtype``: dateutil's zones are unhashable): Arrow
    # keeps only its name, which pandas reads back as another tz object (another dtype); used at
    # output where the index still has that zone (``interop.index_tz``)
    tz: Any = None
    # a level of a group-by's MultiIndex with ``dropna=False``: pandas keeps the missing key *in the
    # level's values* (a code, not -1), so ``sort_index`` orders it as the largest value, whatever
    # ``na_position`` (a MultiIndex from ``set_index`` sorts it by ``na_position``)
    missing_in_levels: bool = False

    @property
    def name(self) -> str:
        return index_name(self.level)


@dataclass(frozen=True)
class Schema:
    columns: tuple[Field, ...]
    index: tuple[IndexField, ...] | None = None  # None: default RangeIndex, not stored
    # with no data columns: the dtype of pandas' (empty) column Index, which keeps the dtype of the
    # labels it was selected from (df[[]] of str labels: str); None: a RangeIndex
    empty_columns_dtype: str | None = None
    # with columns: the dtype of pandas' column Index where it is not the one its labels infer (an
    # object Index of ints, a nullable ``UInt8`` Index); kept by selections of these labels, else None
    columns_dtype: str | None = None
    # the name of pandas' column Index (``df.columns.name``), kept by operations on the columns
    columns_name: Hashable = None

    @staticmethod
    def make(columns: Iterable[tuple[Hashable, ArrowType | None]], index: Iterable[tuple[Hashable, ArrowType | None]] | None = None) -> "Schema":
        cols = tuple(Field(label, dtype) for label, dtype in columns)
        idx = None if index is None else tuple(IndexField(label, dtype, i) for i, (label, dtype) in enumerate(index))
        return Schema(cols, idx)

    @property
    def labels(self) -> list[Hashable]:
        return [f.label for f in self.columns]

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.columns]

    @property
    def index_names(self) -> list[str]:
        return [] if self.index is None else [f.name for f in self.index]

    @property
    def all_names(self) -> list[str]:
        """Data columns then index columns: the columns an engine's table holds."""
        return self.names + self.index_names

    def field(self, label: Hashable) -> Field:
        try:
            candidates = self._by_label.get(label, ())
        except TypeError:  # an unhashable label: compare one by one
            candidates = self.columns
        for f in candidates:
            if f.label == label and type(f.label) is type(label) or (f.label == label and not isinstance(label, bool)):
                return f
        raise KeyError(label)

    @cached_property
    def _by_label(self) -> dict[Hashable, list[Field]]:
        """Columns by label (``1``, ``1.0`` and ``True`` share a key; ``field`` tells them apart)."""
        out: dict[Hashable, list[Field]] = {}
        for f in self.columns:
            try:
                out.setdefault(f.label, []).append(f)
            except TypeError:
                pass
        return out

    def has(self, label: Hashable) -> bool:
        try:
            self.field(label)
        except (KeyError, TypeError):
            return False
        return True

    def dtype_of(self, name: str) -> ArrowType | None:
        return self._types[name]

    @cached_property
    def _types(self) -> dict[str, ArrowType | None]:
        """Internal name -> type, built once: ``dtype_of`` runs for every column of every node."""
        types: dict[str, ArrowType | None] = {}
        for f in (*(self.index or ()), *reversed(self.columns)):
            types[f.name] = f.dtype  # the first data column of a name wins, as a linear scan would
        return types

    def family_of(self, name: str) -> str:
        """The pandas dtype family of a column (data or index) by internal name."""
        return self._families.get(name, NUMPY)

    @cached_property
    def _families(self) -> dict[str, str]:
        fams: dict[str, str] = {}
        for f in (*(self.index or ()), *reversed(self.columns)):
            fams[f.name] = f.family
        return fams

    @property
    def exact(self) -> bool:
        return all(f.dtype is not None for f in self.columns) and all(
            f.dtype is not None for f in self.index or ()
        )

    def with_columns(self, columns: Iterable[Field]) -> "Schema":
        cols = tuple(columns)
        empty = None
        if not cols:
            empty = str(self.columns_index().dtype) if self.columns else self.empty_columns_dtype
        return Schema(cols, self.index, empty, self.columns_dtype if self.columns_dtype and cols
                      and _labels_within([f.label for f in cols], self.labels) else None, self.columns_name)

    def with_index(self, index: tuple[IndexField, ...] | None) -> "Schema":
        return Schema(self.columns, index, self.empty_columns_dtype, self.columns_dtype, self.columns_name)

    def columns_index(self) -> pd.Index:
        """pandas' column Index for these labels."""
        name = self.columns_name
        if self.columns:
            if self.columns_dtype:
                try:
                    return pd.Index(self.labels, dtype=self.columns_dtype, name=name)
                except (TypeError, ValueError):
                    pass
            return pd.Index(self.labels, name=name)
        return pd.Index([], dtype=self.empty_columns_dtype, name=name) if self.empty_columns_dtype \
            else pd.RangeIndex(0, name=name)


def _labels_within(labels: list[Hashable], of: list[Hashable]) -> bool:
    """Whether every label is one of ``of`` (of the same type: ``1`` is not ``1.0`` or ``True``)."""
    try:
        known = {(type(x), x) for x in of}
        return all((type(x), x) in known for x in labels)
    except TypeError:
        return False


# ---------------------------------------------------------------------------------------------
# pandas <-> Arrow types. pandas 3 semantics: strings are the ``str`` dtype, NaN/NaT/None are
# missing; inside gframe missing is always null.
# ---------------------------------------------------------------------------------------------

STRING = pa.large_string()

# Object-dtype columns whose values gframe stores natively. pandas gives these object dtype with a
# missing marker that depends on how the column was made; the Arrow types below are never produced
# by ``normalize_arrow_type`` from data, so they carry that meaning through a plan unambiguously.
OBJECT_STRING = pa.string()  # Python str in an object column, missing is NaN (``split().str.get``)
OBJECT_DATE = pa.date64()  # datetime.date in an object column, missing is NaT (``.dt.date``)
# Python objects Arrow cannot type (an object column mixing ints and strs), each pickled: engines
# move these rows (select, filter, sort by other columns) but never compute on the values
PYOBJECT = pa.large_binary()


def is_opaque(t: ArrowType | None) -> bool:
    """Values the engines move (select, filter, sort by other columns) but never compute on:
    pickled Python objects (``PYOBJECT``) and pandas' own Arrow extension types (``interval``,
    ``period``), whose arithmetic, comparisons and missing-value rules are pandas'; and Arrow's null
    type (``null[pyarrow]``: a column of no values, whose operations pyarrow mostly refuses -
    ``fillna`` raises ArrowInvalid - and pandas decides each)."""
    return t is not None and (t == PYOBJECT or isinstance(t, pa.ExtensionType) or pa.types.is_null(t))


def normalize_arrow_type(t: ArrowType) -> ArrowType:
    """One Arrow type per pandas dtype: large_string for strings, int32 codes for categoricals."""
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return STRING
    if pa.types.is_date64(t):
        return pa.date32()
    if pa.types.is_large_binary(t):
        return pa.binary()
    if pa.types.is_dictionary(t):
        return pa.dictionary(pa.int32(), normalize_arrow_type(t.value_type), t.ordered)
    return t  # (Arrow's null type stays itself: ``null[pyarrow]``; an object column of None is float64 nulls)


def arrow_type_from_pandas(dtype: object) -> ArrowType | None:
    """Arrow type for a pandas dtype; None where gframe has no native representation (object)."""
    dtype = pd.api.types.pandas_dtype(dtype)
    if isinstance(dtype, pd.StringDtype):
        return STRING
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        value = arrow_type_from_pandas(cats.dtype) if cats is not None else STRING
        return pa.dictionary(pa.int32(), value or STRING, bool(dtype.ordered))
    if isinstance(dtype, pd.DatetimeTZDtype):
        return pa.timestamp(dtype.unit, tz=str(dtype.tz))
    if isinstance(dtype, pd.ArrowDtype):
        return normalize_arrow_type(dtype.pyarrow_dtype)
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        numpy_dtype = getattr(dtype, "numpy_dtype", None)
        if numpy_dtype is not None:
            return pa.from_numpy_dtype(numpy_dtype)
        return None
    if dtype.kind == "O":
        return None
    if dtype.kind in "mM":
        return pa.from_numpy_dtype(dtype)
    return pa.from_numpy_dtype(dtype)


def family_of_pandas(dtype: object) -> str:
    """The family (see ``NUMPY``...) of a pandas dtype. A categorical's is its categories' (the
    categoricals of ``Int64``, ``string`` or ``int64[pyarrow]`` values are other pandas dtypes);
    what operates on the categorical sees NUMPY (``plan.dtypes.operand_family``)."""
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        if cats is not None and cats.dtype == object and not len(cats):
            return OBJECT  # no categories, of object dtype (Arrow's dictionary cannot tell: float64 else)
        return NUMPY if cats is None or cats.dtype == object else family_of_pandas(cats.dtype)
    if isinstance(dtype, pd.ArrowDtype):
        t = dtype.pyarrow_dtype
        return ARROW_LARGE if pa.types.is_large_string(t) else ARROW
    if isinstance(dtype, pd.StringDtype):
        family = MASKED if dtype.na_value is pd.NA else NUMPY
        return python_storage(family) if dtype.storage == "python" else family
    if isinstance(dtype, pd.api.extensions.ExtensionDtype) and getattr(dtype, "na_value", None) is pd.NA \
            and getattr(dtype, "numpy_dtype", None) is not None:
        return MASKED  # Int*, UInt*, Float*, boolean
    return NUMPY


_MASKED_NAMES = {"int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64", "uint8": "UInt8",
                 "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64", "float": "Float32",
                 "double": "Float64", "bool": "boolean"}


def family_dtype(t: ArrowType | None, family: str) -> object | None:
    """The pandas dtype of an Arrow type in a family other than NUMPY (None: the family has no
    dtype for this type, and the numpy rules apply)."""
    if string_storage(family) and is_string(t) and t != OBJECT_STRING:
        return pd.StringDtype("python", na_value=pd.NA if family == MASKED else np.nan)
    if t is None or family == NUMPY or pa.types.is_dictionary(t):
        return None  # (a categorical's family is its categories': the interop rebuilds them with it)
    if family.startswith(HOST_PREFIX):
        return host_dtype(family)
    if family in OBJECT_FAMILIES:
        return np.dtype("O")
    if family == MASKED:
        if is_string(t) and t != OBJECT_STRING:
            return pd.StringDtype(na_value=pd.NA)
        name = _MASKED_NAMES.get(str(t))
        return None if name is None else pd.api.types.pandas_dtype(name)
    if family in (ARROW, ARROW_LARGE):
        if is_string(t):
            return pd.ArrowDtype(pa.large_string() if family == ARROW_LARGE else pa.string())
        if pa.types.is_dictionary(t):
            return None
        return pd.ArrowDtype(t)
    return None


def pandas_dtype(t: ArrowType | None, has_nulls: bool = False, family: str = NUMPY) -> object:
    """The dtype pandas shows for an Arrow type, given whether the column holds missing values."""
    special = family_dtype(t, family)
    if special is not None:
        return special
    if t is None:
        return np.dtype("O")
    if t == OBJECT_STRING:
        return np.dtype("O")
    if pa.types.is_large_string(t) or pa.types.is_string(t):
        return pd.StringDtype(na_value=np.nan)
    if pa.types.is_integer(t):
        return np.dtype("float64") if has_nulls else np.dtype(t.to_pandas_dtype())
    if pa.types.is_boolean(t):
        return np.dtype("O") if has_nulls else np.dtype("bool")
    if pa.types.is_floating(t):
        return np.dtype(t.to_pandas_dtype())
    if pa.types.is_timestamp(t):
        if t.tz is not None:
            return pd.DatetimeTZDtype(t.unit, t.tz)
        return np.dtype(f"datetime64[{t.unit}]")
    if pa.types.is_duration(t):
        return np.dtype(f"timedelta64[{t.unit}]")
    if pa.types.is_dictionary(t):
        return pd.CategoricalDtype()
    if isinstance(t, pa.ExtensionType):
        # pandas' own Arrow extension types (``ArrowIntervalType``, ``ArrowPeriodType``): the column
        # is pandas' interval / period dtype, which the type names itself
        try:
            return pd.api.types.pandas_dtype(t.to_pandas_dtype())
        except (NotImplementedError, TypeError):
            pass
    return np.dtype("O")


def is_numeric(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t))


def is_numeric_for_pandas(t: ArrowType | None, family: str) -> bool:
    """Whether pandas' ``numeric_only=True`` keeps a column (its block's ``is_numeric``): numpy's
    numbers and bools and the masked ones, but of the Arrow dtypes ints, floats and decimals only -
    ``ArrowDtype._is_numeric`` leaves ``bool[pyarrow]`` out and takes ``decimal128[pyarrow]`` in."""
    if family in ARROW_FAMILIES and t is not None:
        return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
    if family in OBJECT_FAMILIES:
        return False  # an object block is never numeric, whatever its values (object bools, ``datetime.fillna(1.5)``)
    return is_numeric(t)


# Reductions of Arrow-backed columns that pandas computes with pyarrow to results the engines' do not
# give: a duration's or a date's mean/median is a duration/date, a decimal's mean a decimal, a date's
# or duration's std a duration, a bool's median/std/var raise TypeError; these are pandas' to do.
_ARROW_REDUCTIONS_VIA_PANDAS: tuple[tuple[Any, frozenset[str]], ...] = (
    (pa.types.is_boolean, frozenset({"median", "std", "var", "sem"})),
    (pa.types.is_duration, frozenset({"mean", "median", "std", "var", "sem", "any", "all", "prod"})),
    # pyarrow has no truth, sum or product of a time: pandas' TypeError
    (pa.types.is_date, frozenset({"mean", "median", "std", "var", "sem", "any", "all", "sum", "prod"})),
    (pa.types.is_timestamp, frozenset({"any", "all", "sum", "prod"})),
    (pa.types.is_time, frozenset({"any", "all", "sum", "prod"})),
    # (a decimal mean is native: the decimal type kept, rounded half away from zero, as pyarrow)
    # Arrow's null type (``null[pyarrow]``): a sum is int64 0, a mean null, a median TypeError...
    (pa.types.is_null, frozenset({"mean", "median", "std", "var", "sem", "any", "all", "sum", "prod", "skew"})),
)


def arrow_reduction_native(fn: str, t: ArrowType | None, family: str) -> bool:
    """Whether a (group) reduction ``fn`` of a column of type ``t`` in ``family`` is the engines' to
    compute (see ``_ARROW_REDUCTIONS_VIA_PANDAS``; every non-Arrow family is)."""
    if family not in ARROW_FAMILIES or t is None:
        return True
    return not any(test(t) and fn in fns for test, fns in _ARROW_REDUCTIONS_VIA_PANDAS)


def is_string(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))


def is_temporal(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t))


def backend_family(t: ArrowType, dtype_backend: str | None, numpy_type: str | None = None) -> str:
    """The family pandas' readers give a column of Arrow type ``t`` for ``dtype_backend``
    ("pyarrow": ArrowDtype for every column; "numpy_nullable": nullable dtypes for numbers, bools
    and strings; none: numpy, or the nullable dtype pandas' metadata in the file names)."""
    if dtype_backend == "pyarrow":
        return ARROW_LARGE if pa.types.is_large_string(t) else ARROW
    if dtype_backend == "numpy_nullable":
        if is_numeric(t) or is_string(t):
            return MASKED
    if numpy_type:
        try:
            return family_of_pandas(pd.api.types.pandas_dtype(numpy_type))
        except TypeError:
            return NUMPY
    return NUMPY
