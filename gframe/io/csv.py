"""CSV. ``read_csv`` parses with pyarrow's multi-threaded reader under pandas' rules (NA strings,
type inference without date guessing, ``usecols``, ``dtype``, ``parse_dates``, ``index_col``,
``nrows``) straight into an in-memory Arrow scan, and falls back to pandas for options it does not
map; a malformed file raises pandas' ``ParserError``. ``to_csv`` formats every column to text with
pandas' rules in the plan (so the engine does the work), then writes atomically."""
from __future__ import annotations

import csv as _csv
import io
import os
from typing import Any, Hashable

import pandas as pd
import pyarrow as pa

from gframe.plan.schema import OBJECT_STRING, STRING, Field, IndexField, Schema, index_name, internal_name, normalize_arrow_type

# pandas' default missing-value strings
NA_VALUES = ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
             "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
_NATIVE = {"sep", "delimiter", "usecols", "dtype", "parse_dates", "nrows", "header", "index_col"}
_DTYPES = {"int64": pa.int64(), "int32": pa.int32(), "float64": pa.float64(), "float32": pa.float32(),
           "bool": pa.bool_(), "str": STRING, int: pa.int64(), float: pa.float64(), str: STRING, bool: pa.bool_()}


def read_csv(filepath_or_buffer: Any, **kwargs: Any) -> Any:
    """pandas.read_csv: reads now (CSV has no footer to plan from) into an in-memory frame."""
    from gframe.frontend.bridge import via_pandas
    from gframe.frontend.frame import DataFrame
    from gframe.plan.logical import InMemoryScan
    from gframe.plan.node import Opaque

    path = filepath_or_buffer
    if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)):
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{os.fspath(path)}'")
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(os.fspath(path)) or set(kwargs) - _NATIVE \
            or kwargs.get("header", 0) not in (0, "infer") or not _native_dtypes(kwargs.get("dtype")) \
            or not isinstance(kwargs.get("parse_dates", []), (list, tuple, type(None))):
        return via_pandas("read_csv", pd.read_csv, (path,), kwargs, "reader options not native")
    lazy = _lazy_scan(os.fspath(path), kwargs)
    if lazy is not None:
        return DataFrame._from_plan(lazy)
    native = _read_native(os.fspath(path), kwargs)
    if native is None:
        return via_pandas("read_csv", pd.read_csv, (path,), kwargs, "file layout not native")
    table, schema = native
    return DataFrame._from_plan(InMemoryScan(Opaque(table, "arrow"), schema, f"read_csv {os.fspath(path)!r}"))


def _native_dtypes(dtype: Any) -> bool:
    if dtype is None:
        return True
    if isinstance(dtype, dict):
        return all(_dtype_key(v) in _DTYPES for v in dtype.values())
    return False


def _dtype_key(v: Any) -> Any:
    return v if isinstance(v, type) else str(v)


def _header(path: str, sep: str) -> list[str] | None:
    """The header row, parsed as the file is (quotes included)."""
    with open(path, newline="") as fh:
        try:
            return next(_csv.reader(fh, delimiter=sep))
        except StopIteration:
            return None


def _read_native(path: str, kwargs: dict[str, Any]) -> tuple[pa.Table, Schema] | None:
    """Parse with pyarrow's multi-threaded CSV reader, then apply pandas' inference rules."""
    import pyarrow.csv as pacsv

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
    if any(c not in keep for c in parse_dates):
        return None
    dtype = {k: _DTYPES[_dtype_key(v)] for k, v in (kwargs.get("dtype") or {}).items()}
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
        col = _pandas_column_rules(col, table.num_rows)
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
            index = (IndexField(name if name != "" else None, _field_type(col), 0),)
            index_array = col
            continue
        fields.append(Field(name, _field_type(col)))
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
    import pyarrow.csv as pacsv

    read_opts = pacsv.ReadOptions(column_names=safe, skip_rows=1)
    parse_opts = pacsv.ParseOptions(delimiter=sep, newlines_in_values=True)
    convert = pacsv.ConvertOptions(null_values=NA_VALUES, strings_can_be_null=True, quoted_strings_can_be_null=True,
                                   true_values=["True", "TRUE", "true"], false_values=["False", "FALSE", "false"],
                                   include_columns=include, column_types=column_types)
    try:
        return pacsv.read_csv(path, read_options=read_opts, parse_options=parse_opts, convert_options=convert)
    except pa.ArrowInvalid as exc:
        msg = str(exc)
        import re

        m = re.search(r"Expected (\d+) columns, got (\d+)", msg)
        if m:
            line = _bad_line(path, sep)
            raise pd.errors.ParserError(f"Error tokenizing data. C error: Expected {m.group(1)} fields in line {line}, "
                                        f"saw {m.group(2)}") from None
        raise pd.errors.ParserError(f"Error tokenizing data: {msg}") from None


def _is_temporal(t: pa.DataType) -> bool:
    return pa.types.is_timestamp(t) or pa.types.is_date(t) or pa.types.is_time(t) or pa.types.is_decimal(t)


def _infer_text(table: pa.Table, infer: set[str], dates: set[str]) -> pa.Table | None:
    """pandas' type inference on text columns: int64, then float64, then bool, else str."""
    import pyarrow.compute as pc

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


def _pandas_column_rules(col: Any, n_rows: int) -> Any:
    """pandas' dtype from the parsed values: ints with missing values are float64, an empty file
    gives object columns, an all-missing column float64."""
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if pa.types.is_null(col.type):
        return pa.array([], OBJECT_STRING) if n_rows == 0 else pa.nulls(n_rows, pa.float64())
    if pa.types.is_integer(col.type) and col.null_count:
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


def _field_type(col: Any) -> Any:
    if col.type == OBJECT_STRING:
        return OBJECT_STRING
    return normalize_arrow_type(col.type)


def _bad_line(path: str, sep: str) -> int:
    with open(path, newline="") as fh:
        reader = _csv.reader(fh, delimiter=sep)
        width = None
        for i, row in enumerate(reader, start=1):
            if width is None:
                width = len(row)
            elif len(row) > width:
                return i
    return 0


# ------------------------------------------------------------------------------- lazy scan of big files
# A file larger than LAZY_CSV_BYTES becomes a ``CsvScan``: its schema comes from the rows of the
# first LAZY_CSV_BYTES (parsed with the same rules), and the optimizer's projection pushdown tells
# the reader which columns to parse (``usecols``), so ``read_csv(f)[["a", "b"]]`` parses two columns.
# pandas infers a column's dtype from all its values: when the full column turns out to have
# another dtype than the sample showed, the read raises (naming the column and ``dtype=``) rather
# than return values of another dtype than the frame announced. Smaller files are read at once.

LAZY_CSV_BYTES = 16 << 20
_LAZY_OPTIONS = {"sep", "delimiter", "usecols", "dtype", "parse_dates", "header"}


def _lazy_scan(path: str, kwargs: dict[str, Any]) -> Any:
    """A ``CsvScan`` for a big file, or None to read it now."""
    import tempfile

    from gframe.plan.logical import CsvScan

    st = os.stat(path)
    if st.st_size <= LAZY_CSV_BYTES or set(kwargs) - _LAZY_OPTIONS:
        return None
    with open(path, "rb") as fh:
        head = fh.read(LAZY_CSV_BYTES)
    cut = head.rfind(b"\n")
    if cut <= 0:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        sample = os.path.join(tmp, "sample.csv")
        with open(sample, "wb") as out:
            out.write(head[:cut + 1])
        try:
            native = _read_native(sample, kwargs)
        except (pd.errors.ParserError, ValueError):
            return None  # let the full read give pandas' answer (or error)
    if native is None or native[1].index is not None:
        return None
    schema = native[1]
    options = tuple(sorted((k, _hashable(v)) for k, v in kwargs.items())) + (
        ("__gf_stamp", (st.st_mtime_ns, st.st_size)),)
    return CsvScan(path, schema, options)


def _hashable(v: Any) -> Any:
    if isinstance(v, dict):
        return ("__gf_dict", tuple((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v


def _unhashable(v: Any) -> Any:
    if isinstance(v, tuple) and len(v) == 2 and v[0] == "__gf_dict":
        return {k: _unhashable(x) for k, x in v[1]}
    if isinstance(v, tuple):
        return [_unhashable(x) for x in v]
    return v


def read_csv_arrow(node: Any) -> pa.Table:
    """Execute a ``CsvScan``: parse the columns it needs, with pandas' rules, as an Arrow table."""
    kwargs = {k: _unhashable(v) for k, v in node.options if not k.startswith("__gf_")}
    schema = node.schema
    kwargs["usecols"] = [f.label for f in schema.columns]
    native = _read_native(node.path, kwargs)
    if native is None:  # the sample was native; pandas decides for the rest of the file
        from gframe.interop import pandas_to_table

        native = pandas_to_table(pd.read_csv(node.path, **kwargs))
    table, got = native
    for want, have in zip(schema.columns, got.columns):
        if want.dtype != have.dtype:
            raise ValueError(
                f"read_csv({node.path!r}): column {want.label!r} was inferred as {want.dtype} from the first "
                f"{LAZY_CSV_BYTES >> 20} MiB of the file but is {have.dtype} in the whole file; pass "
                f"dtype={{{want.label!r}: ...}} to read_csv")
    if node.n_rows is not None:
        table = table.slice(0, node.n_rows)
    return table.select(schema.all_names)


def read_csv_native(node: Any) -> Any:
    """The CPU engine's ``CsvScan`` kernel: ``read_csv_arrow`` as a Polars frame."""
    import polars as pl

    return pl.from_arrow(read_csv_arrow(node), rechunk=False)


# ------------------------------------------------------------------------------------------ write

_WRITE_NATIVE = {"index", "header", "sep", "na_rep", "columns", "index_label"}


def to_csv(df: Any, path_or_buf: Any = None, *args: Any, **kwargs: Any) -> Any:
    """pandas' ``to_csv``: columns formatted to text in the plan (pandas' float / bool text), then
    written by Arrow's CSV writer; other options through pandas, recorded."""
    from gframe.frontend.bridge import via_pandas
    from gframe.io.atomic import atomic_path

    text = None
    if not args and not set(kwargs) - _WRITE_NATIVE and (path_or_buf is None or isinstance(path_or_buf, (str, os.PathLike))):
        text = _format_csv(df, **kwargs)
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


def _format_csv(df: Any, index: bool = True, header: Any = True, sep: str = ",", na_rep: str = "",
                columns: Any = None, index_label: Any = None) -> str | None:
    """The CSV text pandas writes, or None where gframe does not format natively."""
    import polars as pl

    from gframe.frontend.frame import DataFrame
    from gframe.plan import logical as L
    from gframe.plan.expr import Col, func

    if not isinstance(sep, str) or len(sep) != 1 or not isinstance(na_rep, str) or not isinstance(header, bool):
        return None
    if columns is not None:
        df = df[list(columns)]
    plan = df._plan
    schema = plan.schema
    if index and schema.index is None:
        plan = L.RowIndex(plan)
        schema = plan.schema
    fields: list[tuple[Hashable, str, Any]] = [(f.label, f.name, f.dtype) for f in schema.columns]
    if index:
        if len(schema.index or ()) != 1:
            return None
        idx = schema.index[0]
        fields.insert(0, ("" if idx.label is None else idx.label, idx.name, idx.dtype))
        if index_label is not None:
            fields[0] = (index_label, idx.name, idx.dtype)
    if any(not _text_native(t) for _, _, t in fields):
        return None
    outputs = tuple((f"__gf_csv{i}", Col(name) if _is_text(t) else func("cast", Col(name), dtype=STRING))
                    for i, (_, name, t) in enumerate(fields))
    table = DataFrame._from_plan(L.Select(outputs, plan))._result().to_arrow()
    frame = pl.from_arrow(table.select([internal_name(f"__gf_csv{i}") for i in range(len(fields))]))
    if len(fields) == 1:
        # Python's csv module quotes a row that is one empty field: "" (Polars quotes empty strings)
        frame = frame.with_columns(pl.all().fill_null(na_rep))
    else:
        # pandas writes an empty string like a missing value, unquoted
        frame = frame.with_columns(pl.when(pl.all() == "").then(None).otherwise(pl.all()).name.keep())
    out = io.StringIO()
    if header:
        _csv.writer(out, delimiter=sep, lineterminator="\n").writerow([str(lab) for lab, _, _ in fields])
    if len(frame.columns):
        out.write(frame.write_csv(None, include_header=False, separator=sep, null_value=na_rep, quote_style="necessary"))
    return out.getvalue()


def _is_text(t: Any) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))


def _text_native(t: Any) -> bool:
    """Types whose text gframe writes as pandas does (temporal and categorical formats differ)."""
    return t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t) or _is_text(t))
