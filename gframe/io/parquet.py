"""Parquet plans: ``parquet_plan`` builds a ``ParquetScan`` (columns and filters are pushed in by the
optimizer; engines read through the scan's ``FileSnapshot``, which holds the footer and
``read_columns``, or with their own readers); ``arrow_for_pandas`` gives the table to write with
pandas' metadata, so pandas reads the file back with the same index and dtypes. The frontend
(``frontend/readwrite.py``) wraps both in pandas' API and writes atomically (``io/atomic.py``)."""
from __future__ import annotations

import json
import os
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from gframe import engines
from gframe.interop import arrow_to_pandas
from gframe.plan.expr import BinOp, Col, Expr, Lit, func
from gframe.plan.logical import Filter, ParquetScan, Plan, RowIndex
from gframe.plan.schema import (
    ARROW_FAMILIES,
    MASKED,
    Field,
    IndexField,
    Schema,
    backend_family,
    index_name,
    internal_name,
    normalize_arrow_type,
)
from gframe.plan.source import FileSnapshot


def _is_local_file(path: Any) -> bool:
    return isinstance(path, (str, os.PathLike)) and os.path.isfile(os.fspath(path))


def parquet_plan(path: Any, engine: str = "auto", columns: Any = None, filters: Any = None,
                 dtype_backend: str | None = None, **kwargs: Any) -> tuple[Plan | None, str]:
    """The lazy ``ParquetScan`` of ``pandas.read_parquet(path, ...)`` (all columns: the frontend
    selects ``columns``; pyarrow's ``filters`` as a ``Filter`` over it, which the optimizer pushes
    into the scan), or ``(None, reason)`` where not native."""
    if filters is not None and engine in ("auto", "pyarrow") and "to_pandas_kwargs" not in kwargs:
        # (pyarrow filters the file's types: with to_pandas_kwargs the plan's may differ)
        scan, reason = parquet_plan(path, engine, columns, None, dtype_backend, **kwargs)
        if scan is None:
            return scan, reason
        predicate = filters_predicate(filters, scan.schema)
        if predicate is None:
            return None, "reader filters not native"
        return Filter(predicate, scan), ""
    dates_as_timestamps = False
    tpk = kwargs.get("to_pandas_kwargs")
    if isinstance(tpk, dict) and set(tpk) <= {"date_as_object"} and isinstance(tpk.get("date_as_object", True), bool):
        # pyarrow's date_as_object=False: dates as datetime64[ms] (the arrow backend keeps date32)
        kwargs = {k: v for k, v in kwargs.items() if k != "to_pandas_kwargs"}
        dates_as_timestamps = tpk.get("date_as_object", True) is False and dtype_backend != "pyarrow"
    if not _is_local_file(path) or filters is not None or kwargs:
        if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)) and "://" not in str(path):
            raise FileNotFoundError(str(path))
        return None, "not a local file or reader options not native"
    path = os.fspath(path)
    with pq.ParquetFile(path) as pf:  # the footer only: schema, row groups, statistics
        schema, footer = pf.schema_arrow, pf.metadata
    meta = schema.pandas_metadata or {}
    reason = _metadata_reason(schema, meta)
    if reason:
        return None, reason
    index_cols = meta.get("index_columns", [])
    col_meta = {c.get("field_name"): c for c in meta.get("columns", [])}
    file_cols: list[tuple[str, str]] = []
    index_fields: list[IndexField] | None = None
    names_in_index: set[str] = set()
    for lvl, ic in enumerate(index_cols):
        if isinstance(ic, dict):  # RangeIndex stored as metadata
            if ic.get("start", 0) != 0 or ic.get("step", 1) != 1 or ic.get("name") is not None:
                return None, "non-default RangeIndex"
            continue
        if index_fields is None:
            index_fields = []
        t = schema.field(ic).type
        label = col_meta.get(ic, {}).get("name", None)
        index_fields.append(IndexField(label, normalize_arrow_type(t), len(index_fields),
                                       backend_family(t, dtype_backend, col_meta.get(ic, {}).get("numpy_type"))))
        file_cols.append((ic, index_name(len(index_fields) - 1)))
        names_in_index.add(ic)
    fields = []
    for f in schema:
        if f.name in names_in_index:
            continue
        label = col_meta.get(f.name, {}).get("name", f.name)
        if label is None:
            label = f.name
        t = pa.timestamp("ms") if dates_as_timestamps and pa.types.is_date32(f.type) else normalize_arrow_type(f.type)
        fields.append(Field(label, t, backend_family(f.type, dtype_backend, col_meta.get(f.name, {}).get("numpy_type"))))
        file_cols.append((f.name, internal_name(label)))
    file_schema = Schema(tuple(fields), tuple(index_fields) if index_fields else None)
    source = FileSnapshot(path, footer, read_columns)
    return ParquetScan(path, file_schema, tuple(file_cols), stamp=source.stamp, source=source), ""


# pandas' metadata ``pandas_type`` of a column index gframe labels as it reads them (the file's names)
_STRING_COLUMN_INDEX = ("unicode", "string")


def _metadata_reason(schema: pa.Schema, meta: dict[str, Any]) -> str:
    """Why pandas' reading of this file's metadata is not the plan's, or "": pandas rebuilds from
    its metadata what a scan of the file's columns does not give - a column index of other labels
    than the file's strings (ints, timestamps, several levels: a MultiIndex, an empty one), the
    categories of a categorical (unobserved ones included), ``DataFrame.attrs``, Arrow extension
    types (``uuid``: pandas' objects), and fixed-offset time zones (pandas' ``UTC+02:00``)."""
    levels = meta.get("column_indexes")
    if levels and (len(levels) != 1 or levels[0].get("name") is not None
                               or levels[0].get("pandas_type") not in _STRING_COLUMN_INDEX):
        return "column labels of the file's metadata not native"
    if meta.get("attributes"):
        return "DataFrame.attrs of the file's metadata not native"
    if any(c.get("pandas_type") == "categorical" for c in meta.get("columns", [])):
        return "categorical columns not native"
    for f in schema:
        if isinstance(f.type, pa.BaseExtensionType):
            return f"column of Arrow extension type {f.type} not native"
        if pa.types.is_timestamp(f.type) and f.type.tz is not None and f.type.tz[:1] in ("+", "-"):
            return "fixed-offset time zone not native"
    return ""


def read_columns(path: str, names: list[str] | None, groups: list[int] | None) -> pa.Table:
    """File columns of some row groups as an Arrow table (None: all), without pandas' metadata: the
    reader a ``FileSnapshot`` reads the file with (the engines read through the snapshot)."""
    if groups is None:
        return pq.read_table(path, columns=names, use_pandas_metadata=False)
    with pq.ParquetFile(path) as pf:
        return pf.read_row_groups(groups, columns=names, use_pandas_metadata=False)


# pyarrow's filter operators -> gframe comparisons ("in" / "not in" are isin)
_FILTER_OPS = {"=": "eq", "==": "eq", "!=": "ne", "<": "lt", ">": "gt", "<=": "le", ">=": "ge"}


def filters_predicate(filters: Any, schema: Schema) -> Expr | None:
    """pyarrow's ``filters`` (a list of ``(column, op, value)`` ANDed, or a list of such lists ORed)
    as one predicate over ``schema``'s columns, with pyarrow's missing values: a comparison with a
    missing value drops the row, ``in`` never keeps one and ``not in`` keeps it. None where a term
    is not one gframe translates exactly (unknown columns, values of another kind, None among the
    values): pandas reads those, with pyarrow's own errors."""
    if not isinstance(filters, list) or not filters:
        return None
    groups = filters if all(isinstance(g, list) for g in filters) else [filters]
    ors: list[Expr] = []
    for group in groups:
        if not group or not all(isinstance(t, tuple) and len(t) == 3 for t in group):
            return None
        ands: list[Expr] = []
        for col, op, value in group:
            term = _filter_term(col, op, value, schema)
            if term is None:
                return None
            ands.append(term)
        ors.append(_fold("and", ands))
    return _fold("or", ors)


def _fold(op: str, terms: list[Expr]) -> Expr:
    out = terms[0]
    for t in terms[1:]:
        out = BinOp(op, out, t)
    return out


def _filter_term(label: Any, op: Any, value: Any, schema: Schema) -> Expr | None:
    matches = [f for f in schema.columns if f.label == label and isinstance(f.label, str)]
    if len(matches) != 1 or matches[0].dtype is None:
        return None
    f = matches[0]
    col = Col(f.name)
    if op in ("in", "not in"):
        if not isinstance(value, (list, tuple, set)) or not value or not all(_same_kind(f.dtype, v) for v in value):
            return None
        isin = func("isin", col, values=tuple(value))
        return isin if op == "in" else func("invert", isin)
    if op not in _FILTER_OPS or not _same_kind(f.dtype, value):
        return None
    return BinOp("and", func("notna", col), BinOp(_FILTER_OPS[op], col, Lit(value)))


def _same_kind(t: pa.DataType, value: Any) -> bool:
    """Whether pyarrow compares a column of type ``t`` with ``value`` as gframe does (no casts
    between kinds: pyarrow raises on a date column against a string)."""
    import datetime as _dt

    import pandas as pd

    if value is None or isinstance(value, float) and value != value:
        return False
    if pa.types.is_boolean(t):
        return isinstance(value, bool)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if pa.types.is_large_string(t) or pa.types.is_string(t):
        return isinstance(value, str)
    if pa.types.is_date32(t):
        return isinstance(value, _dt.date) and not isinstance(value, _dt.datetime)
    if pa.types.is_timestamp(t) and t.tz is None:
        return isinstance(value, pd.Timestamp) and value.tz is None
    return False


def arrow_for_pandas(plan: Plan, index: Any) -> pa.Table | None:
    """The plan's Arrow table named and typed as pandas writes it, with pandas' metadata; None
    where gframe does not write natively (non-string labels, categoricals, bools with nulls)."""
    if index is True and plan.schema.index is None:
        plan = RowIndex(plan)
    schema = plan.schema
    if not all(isinstance(f.label, str) for f in schema.columns) or len(set(schema.labels)) != len(schema.labels):
        return None
    fields = list(schema.columns) + list(schema.index or ())
    if any(f.dtype is None or pa.types.is_dictionary(f.dtype) for f in fields):
        return None
    table = engines.materialize(plan).to_arrow()
    arrays = {}
    for f in fields:
        col = table.column(f.name).combine_chunks()
        if col.null_count and pa.types.is_boolean(f.dtype):
            return None  # pandas: an object column
        if col.null_count and pa.types.is_integer(f.dtype) and f.family != MASKED and f.family not in ARROW_FAMILIES:
            col = col.cast(pa.float64())  # pandas: float64 with NaN (a nullable Int64 keeps its ints)
        arrays[f.name] = col
    # pandas' metadata and Arrow types: from a zero-row pandas frame of the same dtypes
    empty = arrow_to_pandas(pa.table({n: a.slice(0, 0) for n, a in arrays.items()}), schema)
    for f in schema.columns:
        if pa.types.is_floating(arrays[f.name].type) and not pa.types.is_floating(f.dtype):
            empty[f.label] = empty[f.label].astype("float64")
    if schema.index is not None and len(schema.index) == 1 and pa.types.is_floating(arrays[schema.index[0].name].type) \
            and not pa.types.is_floating(schema.index[0].dtype):
        empty.index = empty.index.astype("float64")
    try:
        meta = pa.Table.from_pandas(empty, preserve_index=index).schema
    except (pa.ArrowInvalid, pa.ArrowTypeError, ValueError, TypeError):
        return None
    index_names = list(schema.index_names)
    data_names = [f.name for f in schema.columns]
    source = data_names + (index_names if len(meta.names) > len(data_names) else [])
    if len(source) != len(meta.names):
        return None
    try:
        out_arrays = [arrays[n].cast(meta.field(i).type) for i, n in enumerate(source)]
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    pandas_meta = json.loads(meta.metadata[b"pandas"])
    for ic in pandas_meta.get("index_columns", []):
        if isinstance(ic, dict) and ic.get("kind") == "range":
            ic["stop"] = ic.get("start", 0) + table.num_rows * ic.get("step", 1)
    metadata = dict(meta.metadata)
    metadata[b"pandas"] = json.dumps(pandas_meta).encode()
    return pa.Table.from_arrays(out_arrays, schema=meta.with_metadata(metadata))
