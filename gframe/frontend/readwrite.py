"""pandas' readers and writers: ``read_csv``, ``read_parquet``, ``DataFrame.to_csv``/``to_parquet``.

The plans come from ``gframe.io`` (which builds plans and knows nothing of DataFrame); here they
become DataFrames, and what ``io`` declines (``None`` with a reason) runs through pandas,
recorded. Writes are atomic: a failed write leaves no file.
"""
from __future__ import annotations

import os
import pathlib
from typing import Any

import warnings

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from gframe.frontend.bridge import user_warnings, via_pandas
from gframe.frontend.frame import DataFrame
from gframe.io.atomic import atomic_path
from gframe.io.csv import csv_plan, format_csv
from gframe.io.parquet import arrow_for_pandas, parquet_plan

_CSV_WRITE_NATIVE = {"index", "header", "sep", "na_rep", "columns", "index_label"}
_NO_DEFAULT: Any = pd.api.extensions.no_default


def _parquet_engine(engine: Any) -> str:
    """pandas' ``engine`` argument of read_parquet / to_parquet: left out it is the option's engine
    ("auto": pyarrow); ``engine="auto"`` passed warns as pandas 3.1 does (deprecated)."""
    if engine is _NO_DEFAULT:
        return "auto"
    if engine == "auto":
        with user_warnings():  # (at the user's line)
            warnings.warn("engine='auto' is deprecated and will be removed in a future version. Pass engine='pyarrow' "
                          "or do not pass 'engine' to use the default.", pd.errors.Pandas4Warning, stacklevel=2)
    return engine


def _expanded(path: Any) -> Any:
    """A path string with ``~`` expanded, as pandas' readers and writers take it."""
    if isinstance(path, (str, os.PathLike)) and "://" not in str(path):
        return str(pathlib.Path(os.fspath(path)).expanduser())
    return path


def read_csv(filepath_or_buffer: Any, **kwargs: Any) -> Any:
    """pandas.read_csv: reads now (CSV has no footer to plan from) into an in-memory frame, or a
    lazy scan for a big file."""
    plan, reason = csv_plan(filepath_or_buffer, kwargs)
    if plan is None:
        return via_pandas("read_csv", pd.read_csv, (filepath_or_buffer,), kwargs, reason)
    return DataFrame._from_plan(plan)


def read_parquet(path: Any, engine: Any = _NO_DEFAULT, columns: Any = None, filters: Any = None, **kwargs: Any) -> Any:
    """Lazily read a parquet file (pandas.read_parquet's API)."""
    engine = _parquet_engine(engine)
    path = _expanded(path)
    backend = kwargs.get("dtype_backend")
    if backend not in (None, "pyarrow", "numpy_nullable"):
        raise ValueError(f"dtype_backend {backend} is invalid, only 'numpy_nullable' and 'pyarrow' are allowed.")
    plan, reason = parquet_plan(path, engine, columns, filters, **kwargs)
    if plan is None:
        if reason == "non-default RangeIndex":  # a local file, read by pandas as it is
            return via_pandas("read_parquet", pd.read_parquet, (os.fspath(path),), dict(columns=columns), reason)
        # (engine="auto", the default, is not passed on: pandas warns that it is deprecated)
        extra = {} if engine == "auto" else {"engine": engine}
        return via_pandas("read_parquet", pd.read_parquet, (path,),
                          dict(columns=columns, filters=filters, **extra, **kwargs), reason)
    df = DataFrame._from_plan(plan)
    if columns is None:
        return df
    have = set(plan.schema.labels)  # (the plan's labels: ``df.columns`` builds a pandas Index per call)
    missing = [c for c in columns if c not in have]
    if missing:  # pandas lets pyarrow's error through: the same type here
        raise pa.ArrowInvalid(f"No match for FieldRef.Name({missing[0]}) in the columns of {os.fspath(path)!r}")
    return df[list(columns)]


def to_csv(df: DataFrame, path_or_buf: Any = None, *args: Any, **kwargs: Any) -> Any:
    """pandas' ``to_csv``: columns formatted to text in the plan (pandas' float / bool text), then
    written by Arrow's CSV writer; other options through pandas, recorded."""
    text = None
    if not args and not set(kwargs) - _CSV_WRITE_NATIVE and (path_or_buf is None or isinstance(path_or_buf, (str, os.PathLike))):
        columns = kwargs.get("columns")
        plan = (df if columns is None else df[list(columns)])._plan
        text = format_csv(plan, **{k: v for k, v in kwargs.items() if k != "columns"})
    if text is None:
        if path_or_buf is None or not isinstance(path_or_buf, (str, os.PathLike)):
            return via_pandas("DataFrame.to_csv", pd.DataFrame.to_csv, (df, path_or_buf, *args), kwargs, "writer options not native")

        def write(pdf: Any, tmp: str) -> None:
            pdf.to_csv(tmp, *args, **kwargs)

        with atomic_path(path_or_buf) as tmp:
            via_pandas("DataFrame.to_csv", write, (df, tmp), {}, "writer options not native")
        return None
    if path_or_buf is None:
        return text
    with atomic_path(path_or_buf) as tmp:
        with open(tmp, "w", newline="") as fh:
            fh.write(text)
    return None


def to_parquet(df: DataFrame, path: Any = None, engine: Any = _NO_DEFAULT, compression: Any = "snappy", index: Any = None,
               partition_cols: Any = None, storage_options: Any = None, **kwargs: Any) -> Any:
    """Write atomically (a failed write leaves no file), from the engine's Arrow result with
    pandas' metadata, so pandas reads the file back with the same index and dtypes."""
    engine = _parquet_engine(engine)
    path = _expanded(path)
    extra = {} if engine == "auto" else {"engine": engine}
    if isinstance(path, (str, os.PathLike)) and not partition_cols and not kwargs and engine in ("auto", "pyarrow") \
            and not os.path.isdir(os.fspath(path)):
        table = arrow_for_pandas(df._plan, index)
        if table is not None:
            with atomic_path(path) as tmp:
                pq.write_table(table, tmp, compression=compression)
            return None

    def write(pdf: Any, target: Any) -> Any:
        return pdf.to_parquet(target, compression=compression, index=index, partition_cols=partition_cols,
                              storage_options=storage_options, **extra, **kwargs)

    if path is None or not isinstance(path, (str, os.PathLike)) or partition_cols:
        return via_pandas("DataFrame.to_parquet", write, (df, path), {}, "writer options not native")
    with atomic_path(path) as tmp:
        via_pandas("DataFrame.to_parquet", write, (df, tmp), {}, "writer options not native")
    return None
