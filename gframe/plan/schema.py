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
from typing import Hashable, Iterable

import numpy as np
import pandas as pd
import pyarrow as pa

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


@dataclass(frozen=True)
class Field:
    label: Hashable
    dtype: ArrowType | None

    @property
    def name(self) -> str:
        return internal_name(self.label)


@dataclass(frozen=True)
class IndexField:
    label: Hashable  # the index level's name (None by default)
    dtype: ArrowType | None
    level: int

    @property
    def name(self) -> str:
        return index_name(self.level)


@dataclass(frozen=True)
class Schema:
    columns: tuple[Field, ...]
    index: tuple[IndexField, ...] | None = None  # None: default RangeIndex, not stored

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
        for f in self.columns:
            if f.label == label and type(f.label) is type(label) or (f.label == label and not isinstance(label, bool)):
                return f
        raise KeyError(label)

    def has(self, label: Hashable) -> bool:
        try:
            self.field(label)
        except (KeyError, TypeError):
            return False
        return True

    def dtype_of(self, name: str) -> ArrowType | None:
        for f in self.columns:
            if f.name == name:
                return f.dtype
        for f in self.index or ():
            if f.name == name:
                return f.dtype
        raise KeyError(name)

    @property
    def exact(self) -> bool:
        return all(f.dtype is not None for f in self.columns) and all(
            f.dtype is not None for f in self.index or ()
        )

    def with_columns(self, columns: Iterable[Field]) -> "Schema":
        return Schema(tuple(columns), self.index)

    def with_index(self, index: tuple[IndexField, ...] | None) -> "Schema":
        return Schema(self.columns, index)


# ---------------------------------------------------------------------------------------------
# pandas <-> Arrow types. pandas 3 semantics: strings are the ``str`` dtype, NaN/NaT/None are
# missing; inside gframe missing is always null.
# ---------------------------------------------------------------------------------------------

STRING = pa.large_string()


def normalize_arrow_type(t: ArrowType) -> ArrowType:
    """One Arrow type per pandas dtype: large_string for strings, int32 codes for categoricals."""
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return STRING
    if pa.types.is_dictionary(t):
        return pa.dictionary(pa.int32(), normalize_arrow_type(t.value_type))
    if pa.types.is_null(t):
        return pa.float64()
    return t


def arrow_type_from_pandas(dtype: object) -> ArrowType | None:
    """Arrow type for a pandas dtype; None where gframe has no native representation (object)."""
    dtype = pd.api.types.pandas_dtype(dtype)
    if isinstance(dtype, pd.StringDtype):
        return STRING
    if isinstance(dtype, pd.CategoricalDtype):
        cats = dtype.categories
        value = arrow_type_from_pandas(cats.dtype) if cats is not None else STRING
        return pa.dictionary(pa.int32(), value or STRING)
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


def pandas_dtype(t: ArrowType | None, has_nulls: bool = False) -> object:
    """The dtype pandas shows for an Arrow type, given whether the column holds missing values."""
    if t is None:
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
    return np.dtype("O")


def is_numeric(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t))


def is_string(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))


def is_temporal(t: ArrowType | None) -> bool:
    return t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t))
