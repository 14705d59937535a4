"""CSV. ``read_csv`` parses with Polars' multi-threaded reader under pandas' rules (NA strings,
type inference, ``usecols``, ``dtype``, ``parse_dates``) and falls back to pandas for options it
does not map; a malformed file raises pandas' ``ParserError``. ``to_csv`` writes atomically."""
from __future__ import annotations

import io
import os
from typing import Any

import pandas as pd

# pandas' default missing-value strings
NA_VALUES = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
             "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
_NATIVE = {"sep", "delimiter", "usecols", "dtype", "parse_dates", "nrows", "header"}


def read_csv(filepath_or_buffer: Any, **kwargs: Any) -> Any:
    """pandas.read_csv: reads now (CSV has no footer to plan from) into an in-memory frame."""
    from gframe.fallback import call_pandas
    from gframe.frontend.frame import DataFrame

    path = filepath_or_buffer
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(os.fspath(path)) or set(kwargs) - _NATIVE \
            or kwargs.get("header", 0) != 0 or not _native_dtypes(kwargs.get("dtype")) \
            or not isinstance(kwargs.get("parse_dates", []), (list, tuple, type(None))):
        if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)):
            raise FileNotFoundError(f"[Errno 2] No such file or directory: '{os.fspath(path)}'")
        return call_pandas("read_csv", pd.read_csv, (path,), kwargs, "reader options not native")
    pdf = _read_native(os.fspath(path), kwargs)
    if pdf is None:
        return call_pandas("read_csv", pd.read_csv, (path,), kwargs, "file layout not native")
    return DataFrame._from_pandas(pdf, origin=f"read_csv {os.fspath(path)!r}")


def _native_dtypes(dtype: Any) -> bool:
    if dtype is None:
        return True
    if isinstance(dtype, dict):
        return all(str(v) in ("int64", "float64", "str", "string", "bool", "int32", "float32") or v in (str, int, float)
                   for v in dtype.values())
    return False


def _read_native(path: str, kwargs: dict[str, Any]) -> pd.DataFrame | None:
    """Parse with pyarrow's multi-threaded CSV reader, then apply pandas' inference rules."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    sep = kwargs.get("sep", kwargs.get("delimiter", ","))
    if not isinstance(sep, str) or len(sep) != 1:
        return None
    usecols = kwargs.get("usecols")
    parse_dates = list(kwargs.get("parse_dates") or [])
    dtype = kwargs.get("dtype") or {}
    read_opts = pacsv.ReadOptions()
    parse_opts = pacsv.ParseOptions(delimiter=sep, newlines_in_values=True)
    convert = pacsv.ConvertOptions(null_values=NA_VALUES, strings_can_be_null=True, quoted_strings_can_be_null=False,
                                   true_values=["True", "TRUE", "true"], false_values=["False", "FALSE", "false"],
                                   include_columns=list(usecols) if usecols is not None and all(isinstance(c, str) for c in usecols) else None,
                                   column_types={k: pa.large_string() for k, v in dtype.items() if v in (str, "str", "string")})
    try:
        table = pacsv.read_csv(path, read_options=read_opts, parse_options=parse_opts, convert_options=convert)
    except pa.ArrowInvalid as exc:
        msg = str(exc)
        if "Expected" in msg and "columns" in msg:
            import re

            m = re.search(r"Expected (\d+) columns, got (\d+)", msg)
            line = _bad_line(path, sep)
            detail = f"Expected {m.group(1)} fields in line {line}, saw {m.group(2)}" if m else msg
            raise pd.errors.ParserError(f"Error tokenizing data. C error: {detail}") from None
        return None
    if usecols is not None and not all(isinstance(c, str) for c in usecols):
        return None
    if kwargs.get("nrows") is not None:
        table = table.slice(0, int(kwargs["nrows"]))
    names = table.column_names
    if len(set(names)) != len(names) or any(n == "" for n in names):
        return None
    for i, f in enumerate(table.schema):
        if pa.types.is_timestamp(f.type) or pa.types.is_date(f.type) or pa.types.is_time(f.type) or pa.types.is_decimal(f.type):
            # pyarrow parsed these; pandas keeps strings unless parse_dates names them
            return None
        if pa.types.is_null(f.type):
            table = table.set_column(i, f.name, pa.nulls(table.num_rows, pa.float64()))
    pdf = table.to_pandas()
    if usecols is not None:
        pdf = pdf[[c for c in names if c in set(usecols)]]
    for c in parse_dates:
        if c not in pdf.columns:
            return None
        pdf[c] = pd.to_datetime(pdf[c])
    for c, t in dtype.items():
        if c in pdf.columns and t not in (str, "str", "string"):
            pdf[c] = pdf[c].astype(t)
    return pdf


def _bad_line(path: str, sep: str) -> int:
    with open(path, newline="") as fh:
        import csv

        reader = csv.reader(fh, delimiter=sep)
        width = None
        for i, row in enumerate(reader, start=1):
            if width is None:
                width = len(row)
            elif len(row) > width:
                return i
    return 0


def read_csv_native(node: Any) -> Any:
    raise NotImplementedError("CsvScan is produced by the optimizer only")


def to_csv(df: Any, path_or_buf: Any = None, *args: Any, **kwargs: Any) -> Any:
    from gframe.io.atomic import atomic_path

    pdf = df.to_pandas()
    if path_or_buf is None or not isinstance(path_or_buf, (str, os.PathLike)):
        return pdf.to_csv(path_or_buf, *args, **kwargs)
    with atomic_path(path_or_buf) as tmp:
        pdf.to_csv(tmp, *args, **kwargs)
    return None
