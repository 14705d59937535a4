"""Parquet: ``read_parquet`` builds a ``ParquetScan`` (columns and filters are pushed in by the
optimizer; engines read with their own readers); ``to_parquet`` writes atomically with pandas'
metadata so pandas reads the file back with the same index and dtypes."""
from __future__ import annotations

import os
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from gframe.plan.logical import ParquetScan
from gframe.plan.schema import Field, IndexField, Schema, index_name, internal_name, normalize_arrow_type


def _is_local_file(path: Any) -> bool:
    return isinstance(path, (str, os.PathLike)) and os.path.isfile(os.fspath(path))


def read_parquet(path: Any, engine: str = "auto", columns: Any = None, filters: Any = None, **kwargs: Any) -> Any:
    """Lazily read a parquet file (pandas.read_parquet's API)."""
    from gframe.fallback import call_pandas
    from gframe.frontend.frame import DataFrame

    if not _is_local_file(path) or filters is not None or kwargs:
        if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)) and "://" not in str(path):
            raise FileNotFoundError(f"[Errno 2] No such file or directory: '{path}'" if False else str(path))
        return call_pandas("read_parquet", pd.read_parquet, (path,), dict(engine=engine, columns=columns, filters=filters, **kwargs),
                           "not a local file or reader options not native")
    path = os.fspath(path)
    schema = pq.read_schema(path)
    meta = schema.pandas_metadata or {}
    index_cols = meta.get("index_columns", [])
    col_meta = {c.get("field_name"): c for c in meta.get("columns", [])}
    file_cols: list[tuple[str, str]] = []
    index_fields: list[IndexField] | None = None
    names_in_index: set[str] = set()
    for lvl, ic in enumerate(index_cols):
        if isinstance(ic, dict):  # RangeIndex stored as metadata
            if ic.get("start", 0) != 0 or ic.get("step", 1) != 1 or ic.get("name") is not None:
                return call_pandas("read_parquet", pd.read_parquet, (path,), dict(columns=columns), "non-default RangeIndex")
            continue
        if index_fields is None:
            index_fields = []
        t = schema.field(ic).type
        label = col_meta.get(ic, {}).get("name", None)
        index_fields.append(IndexField(label, normalize_arrow_type(t), len(index_fields)))
        file_cols.append((ic, index_name(len(index_fields) - 1)))
        names_in_index.add(ic)
    fields = []
    for f in schema:
        if f.name in names_in_index:
            continue
        label = col_meta.get(f.name, {}).get("name", f.name)
        if label is None:
            label = f.name
        fields.append(Field(label, normalize_arrow_type(f.type)))
        file_cols.append((f.name, internal_name(label)))
    file_schema = Schema(tuple(fields), tuple(index_fields) if index_fields else None)
    plan = ParquetScan(path, file_schema, tuple(file_cols))
    df = DataFrame._from_plan(plan)
    if columns is not None:
        df = df[list(columns)]
    return df


def to_parquet(df: Any, path: Any = None, engine: str = "auto", compression: Any = "snappy", index: Any = None,
               partition_cols: Any = None, storage_options: Any = None, **kwargs: Any) -> Any:
    """Write atomically: a failed write leaves no file."""
    from gframe.io.atomic import atomic_path

    pdf = df.to_pandas()
    if path is None or not isinstance(path, (str, os.PathLike)) or partition_cols:
        return pdf.to_parquet(path, engine=engine, compression=compression, index=index, partition_cols=partition_cols,
                              storage_options=storage_options, **kwargs)
    with atomic_path(path) as tmp:
        pdf.to_parquet(tmp, engine=engine, compression=compression, index=index, **kwargs)
    return None
