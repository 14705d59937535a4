"""CSV under pandas' rules: what a ``CsvScan`` reads on the CPU engine, and what ``read_csv`` parses now.

pyarrow's multi-threaded reader parses; pandas' rules decide the types (NA strings, inference without
date guessing, ints with missing values as float64, ``usecols``, ``dtype``, ``parse_dates``,
``index_col``, ``nrows``). ``gframe.io.csv`` builds plans with it (an eager read, or a ``CsvScan``
whose schema comes from a sample); ``read_csv_arrow`` parses the whole file when the plan runs (the
CPU engine's ``CsvScan`` kernel; the GPU engine parses with libcudf and checks against the same
schema). pyarrow only: importing this module loads neither engine.
"""
from __future__ import annotations

import csv as _csv
import os
import re
import tempfile
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from gframe.interop import pandas_to_table
from gframe.plan.logical import CsvScan
from gframe.plan.schema import (
    backend_family,
    OBJECT_STRING,
    STRING,
    Field,
    IndexField,
    Schema,
    index_name,
    normalize_arrow_type,
)

# pandas' default missing-value strings
NA_VALUES = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
             "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
# the ``dtype=`` values parsed natively
DTYPES = {"int64": pa.int64(), "int32": pa.int32(), "float64": pa.float64(), "float32": pa.float32(),
           "bool": pa.bool_(), "str": STRING, int: pa.int64(), float: pa.float64(), str: STRING, bool: pa.bool_()}



def dtype_key(v: Any) -> Any:
    return v if isinstance(v, type) else str(v)


def _header(path: str, sep: str) -> list[str] | None:
    """The header row, parsed as the file is (quotes included)."""
    with open(path, newline="") as fh:
        try:
            return next(_csv.reader(fh, delimiter=sep))
        except StopIteration:
            return None


def read_native(path: str, kwargs: dict[str, Any]) -> tuple[pa.Table, Schema] | None:
    """Parse with pyarrow's multi-threaded CSV reader, then apply pandas' inference rules."""
    sep = kwargs.get("sep", kwargs.get("delimiter", ","))
    if not isinstance(sep, str) or len(sep) != 1:
        return None
    names = _header(path, sep)
    if not names or len(set(names)) != len(names):
        return None  # pandas renames duplicates ("a.1") and reads a headerless empty file its own way
    usecols = kwargs.get("usecols")
    if usecols is not None:
        if callable(usecols) or not all(isinstance(c, str) for c in usecols):
            return None
        missing = [c for c in usecols if c not in names]
        if missing:
            raise ValueError(f"Usecols do not match columns, columns expected but not found: {missing}")
    index_col = kwargs.get("index_col")
    if index_col is False:
        index_col = None
    if index_col is not None:
        if isinstance(index_col, int) and not isinstance(index_col, bool) and 0 <= index_col < len(names):
            index_col = names[index_col] if usecols is None else None
        if index_col not in names or usecols is not None and index_col not in usecols:
            return None
    if any(n == "" for n in names if n != index_col):
        return None  # pandas names it "Unnamed: i"
    keep = [n for n in names if usecols is None or n in set(usecols)]
    parse_dates = list(kwargs.get("parse_dates") or [])
    backend = kwargs.get("dtype_backend")  # "pyarrow" / "numpy_nullable": ints keep NA, families in the schema
    if any(c not in keep for c in parse_dates):
        return None
    dtype = {k: DTYPES[dtype_key(v)] for k, v in (kwargs.get("dtype") or {}).items()}
    if any(k not in names for k in dtype):
        return None
    # pyarrow infers dates and timestamps; pandas keeps text unless parse_dates names the column
    safe = [f"c{i}" for i in range(len(names))]
    by_name = dict(zip(names, safe))
    text = {by_name[k]: pa.large_string() for k, t in dtype.items() if t == STRING}
    nrows = kwargs.get("nrows")
    if nrows is not None:  # pandas infers types from the rows it keeps: read text, infer after the cut
        text.update({by_name[n]: pa.large_string() for n in keep if by_name[n] not in text})
    table = _pyarrow_read(path, sep, safe, [by_name[n] for n in keep], text)
    temporal = [f.name for f in table.schema if _is_temporal(f.type) and f.name not in
                {by_name[c] for c in parse_dates}]
    if temporal:
        text.update({n: pa.large_string() for n in temporal})
        table = _pyarrow_read(path, sep, safe, [by_name[n] for n in keep], text)
    if nrows is not None:
        table = table.slice(0, int(nrows))
        table = _infer_text(table, {by_name[n] for n in keep} - {by_name[k] for k, t in dtype.items() if t == STRING},
                            {by_name[c] for c in parse_dates})
        if table is None:
            return None
    columns = []
    for name, col in zip(keep, table.columns):
        col = _pandas_column_rules(col, table.num_rows, backend is None)
        if name in parse_dates:
            col = _as_datetime(col)
            if col is None:
                return None
        if name in dtype and dtype[name] != STRING:
            if pa.types.is_integer(dtype[name]) and col.null_count:
                raise ValueError(f"Integer column has NA values in column {keep.index(name)}")
            try:
                col = col.cast(dtype[name])
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                return None  # pandas' own conversion (and its error message)
        columns.append((name, col))
    fields, arrays, index = [], [], None
    for name, col in columns:
        if name == index_col:
            index = (IndexField(name if name != "" else None, _field_type(col), 0, _family(col, backend)),)
            index_array = col
            continue
        # pandas parses dates to numpy datetime64 whatever the backend
        fields.append(Field(name, _field_type(col), _family(col, None if name in parse_dates else backend)))
        arrays.append(col)
    names_out = [f.name for f in fields]
    if index is not None:
        arrays.append(index_array)
        names_out.append(index_name(0))
    if not arrays:
        return None
    out = pa.Table.from_arrays([a.cast(_field_type(a)) if a.type != _field_type(a) else a for a in arrays], names=names_out)
    return out, Schema(tuple(fields), index)


def _pyarrow_read(path: str, sep: str, safe: list[str], include: list[str], column_types: dict[str, Any]) -> pa.Table:
    read_opts = pacsv.ReadOptions(column_names=safe, skip_rows=1)
    parse_opts = pacsv.ParseOptions(delimiter=sep, newlines_in_values=True)
    convert = pacsv.ConvertOptions(null_values=NA_VALUES, strings_can_be_null=True, quoted_strings_can_be_null=True,
                                   true_values=["True", "TRUE", "true"], false_values=["False", "FALSE", "false"],
                                   include_columns=include, column_types=column_types)
    try:
        return pacsv.read_csv(path, read_options=read_opts, parse_options=parse_opts, convert_options=convert)
    except pa.ArrowInvalid as exc:
        msg = str(exc)
        m = re.search(r"Expected (\d+) columns, got (\d+)", msg)
        if m and int(m.group(2)) < int(m.group(1)) and not _padded(path):
            # pandas fills a row with fewer fields with missing values: pad those rows, parse again
            with tempfile.TemporaryDirectory() as tmp:
                padded = os.path.join(tmp, _PADDED)
                if _pad_short_rows(path, padded, sep, len(safe)):
                    return _pyarrow_read(padded, sep, safe, include, column_types)
        if m:
            line, saw = _bad_line(path, sep)
            raise pd.errors.ParserError(f"Error tokenizing data. C error: Expected {m.group(1)} fields in line {line}, "
                                        f"saw {saw or m.group(2)}") from None
        raise pd.errors.ParserError(f"Error tokenizing data: {msg}") from None


_PADDED = "gframe-padded.csv"


def _padded(path: str) -> bool:
    return os.path.basename(path) == _PADDED


def _pad_short_rows(path: str, out: str, sep: str, width: int) -> bool:
    """Copy ``path`` to ``out`` with every non-blank row of fewer than ``width`` fields padded with
    empty (missing) fields, as pandas reads them; False where a row is longer (pandas' own error,
    or its index-column rule, decides)."""
    with open(path, newline="") as fh, open(out, "w", newline="") as dst:
        reader = _csv.reader(fh, delimiter=sep)
        writer = _csv.writer(dst, delimiter=sep, lineterminator="\n")
        for row in reader:
            if len(row) > width:
                return False
            writer.writerow(row + [""] * (width - len(row)) if row else row)
    return True


def _is_temporal(t: pa.DataType) -> bool:
    return pa.types.is_timestamp(t) or pa.types.is_date(t) or pa.types.is_time(t) or pa.types.is_decimal(t)


def _infer_text(table: pa.Table, infer: set[str], dates: set[str]) -> pa.Table | None:
    """pandas' type inference on text columns: int64, then float64, then bool, else str."""
    cols = []
    for name, col in zip(table.column_names, table.columns):
        if name in infer and name not in dates:
            for target in (pa.int64(), pa.float64()):
                try:
                    col = pc.cast(col, target)
                    break
                except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                    continue
            else:
                values = set(pc.unique(col.drop_null()).to_pylist())
                if values and values <= {"True", "TRUE", "true", "False", "FALSE", "false"}:
                    col = pc.equal(pc.utf8_lower(col), "true")
        cols.append(col)
    return pa.Table.from_arrays(cols, names=table.column_names)


def _pandas_column_rules(col: Any, n_rows: int, numpy_rules: bool = True) -> Any:
    """pandas' dtype from the parsed values: ints with missing values are float64, an empty file
    gives object columns, an all-missing column float64."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if pa.types.is_null(col.type):
        return pa.array([], OBJECT_STRING) if n_rows == 0 else pa.nulls(n_rows, pa.float64())
    if pa.types.is_integer(col.type) and col.null_count and numpy_rules:
        return col.cast(pa.float64())
    if pa.types.is_string(col.type) or pa.types.is_string_view(col.type):
        return col.cast(STRING)  # the plain string type is gframe's marker for object columns
    return col


def _as_datetime(col: Any) -> Any:
    """parse_dates for ISO-formatted columns (pyarrow parsed them): pandas' datetime64[us]."""
    if pa.types.is_date(col.type) or pa.types.is_timestamp(col.type) and col.type.tz is None \
            and col.type.unit in ("s", "ms", "us"):
        return col.cast(pa.timestamp("us"))
    if pa.types.is_null(col.type):
        return None
    return None  # other formats: pandas' own inference


def _family(col: Any, backend: str | None) -> str:
    """The column's dtype family for ``dtype_backend`` (pandas' CSV strings are ``string[pyarrow]``)."""
    return backend_family(pa.string() if pa.types.is_large_string(col.type) else col.type, backend)


def _field_type(col: Any) -> Any:
    if col.type == OBJECT_STRING:
        return OBJECT_STRING
    return normalize_arrow_type(col.type)


def _bad_line(path: str, sep: str) -> tuple[int, int]:
    """pandas' report of the first row longer than the header: (line, fields), or (0, 0)."""
    with open(path, newline="") as fh:
        reader = _csv.reader(fh, delimiter=sep)
        width = None
        for i, row in enumerate(reader, start=1):
            if width is None:
                width = len(row)
            elif len(row) > width:
                return i, len(row)
    return 0, 0



def _unhashable(v: Any) -> Any:
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "__gf_dict":
        return {k: _unhashable(x) for k, x in v[1]}
    if isinstance(v, tuple):
        return [_unhashable(x) for x in v]
    return v


def sample_bytes(node: CsvScan) -> int:
    """How much of the file the plan's types were inferred from (for the error that says so)."""
    return int(node.option("__gf_sample_bytes", 16 << 20))


def read_csv_arrow(node: CsvScan) -> pa.Table:
    """Execute a ``CsvScan``: parse the columns it needs, with pandas' rules, as an Arrow table."""
    kwargs = {k: _unhashable(v) for k, v in node.options if not k.startswith("__gf_")}
    schema = node.schema
    kwargs["usecols"] = [f.label for f in schema.columns]
    native = read_native(node.path, kwargs)
    if native is None:  # the sample was native; pandas decides for the rest of the file
        native = pandas_to_table(pd.read_csv(node.path, **kwargs))
    table, got = native
    for want, have in zip(schema.columns, got.columns):
        if want.dtype != have.dtype:
            raise ValueError(
                f"read_csv({node.path!r}): column {want.label!r} was inferred as {want.dtype} from the first "
                f"{sample_bytes(node) >> 20} MiB of the file but is {have.dtype} in the whole file; pass "
                f"dtype={{{want.label!r}: ...}} to read_csv")
    if node.n_rows is not None:
        table = table.slice(0, node.n_rows)
    return table.select(schema.all_names)
