"""CSV plans. ``csv_plan`` turns ``read_csv``'s arguments into a plan: an in-memory Arrow scan
parsed now with pandas' rules (``engines/csv.py``), or for a big file a lazy ``CsvScan`` whose
schema comes from a sample; ``None`` with the reason where the options are not native (the frontend
then runs pandas). ``format_csv`` formats every column to text with pandas' rules in the plan (so
the engine does the work). The frontend (``frontend/readwrite.py``) wraps both in pandas' API."""
from __future__ import annotations

import csv as _csv
import io
import os
import tempfile
from typing import Any, Hashable

import pandas as pd
import pyarrow as pa

from gframe import engines
from gframe.engines import csv as engine_csv
from gframe.plan import logical as L
from gframe.plan.expr import Col, func
from gframe.plan.node import Opaque
from gframe.plan.schema import STRING, internal_name

_NATIVE = {"sep", "delimiter", "usecols", "dtype", "parse_dates", "nrows", "header", "index_col", "dtype_backend"}


def csv_plan(path: Any, kwargs: dict[str, Any]) -> tuple[L.Plan | None, str]:
    """The plan of ``pandas.read_csv(path, **kwargs)``, or ``(None, reason)`` where not native.

    Reads now (CSV has no footer to plan from) unless the file is big enough for a lazy scan."""
    if isinstance(path, (str, os.PathLike)) and not os.path.exists(os.fspath(path)):
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{os.fspath(path)}'")
    if not isinstance(path, (str, os.PathLike)) or not os.path.isfile(os.fspath(path)) or set(kwargs) - _NATIVE \
            or kwargs.get("header", 0) not in (0, "infer") or not _native_dtypes(kwargs.get("dtype")) \
            or not isinstance(kwargs.get("parse_dates", []), (list, tuple, type(None))) \
            or kwargs.get("dtype_backend") not in (None, "pyarrow", "numpy_nullable") \
            or kwargs.get("dtype_backend") is not None and kwargs.get("index_col") is not None:
        return None, "reader options not native"
    lazy = _lazy_scan(os.fspath(path), kwargs)
    if lazy is not None:
        return lazy, ""
    native = engine_csv.read_native(os.fspath(path), kwargs)
    if native is None:
        return None, "file layout not native"
    table, schema = native
    return L.InMemoryScan(Opaque(table, "arrow"), schema, f"read_csv {os.fspath(path)!r}"), ""


def _native_dtypes(dtype: Any) -> bool:
    if dtype is None:
        return True
    if isinstance(dtype, dict):
        return all(engine_csv.dtype_key(v) in engine_csv.DTYPES for v in dtype.values())
    return False



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
            native = engine_csv.read_native(sample, kwargs)
        except (pd.errors.ParserError, ValueError):
            return None  # let the full read give pandas' answer (or error)
    if native is None or native[1].index is not None:
        return None
    schema = native[1]
    options = tuple(sorted((k, _hashable(v)) for k, v in kwargs.items())) + (
        ("__gf_stamp", (st.st_mtime_ns, st.st_size)),)
    options += (("__gf_sample_bytes", LAZY_CSV_BYTES),)
    return L.CsvScan(path, schema, options)


def _hashable(v: Any) -> Any:
    if isinstance(v, dict):
        return ("__gf_dict", tuple((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    return v



def format_csv(plan: L.Plan, index: bool = True, header: Any = True, sep: str = ",", na_rep: str = "",
               index_label: Any = None) -> str | None:
    """The CSV text pandas writes for ``plan`` (the columns already selected), or None where gframe
    does not format natively."""
    import polars as pl  # loaded with the engine, not with ``import gframe``

    if not isinstance(sep, str) or len(sep) != 1 or not isinstance(na_rep, str) or not isinstance(header, bool):
        return None
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
    table = engines.materialize(L.Select(outputs, plan)).to_arrow()
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
