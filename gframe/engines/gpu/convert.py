"""Host <-> device at the edges: Arrow tables in and out, CPU-engine frames across transfers.

The only host copies the GPU engine makes are here: ``download`` (what the user asked for, or just
the rows ``repr`` shows) and ``to_host_frame`` (a subtree the GPU engine hands to the CPU engine).
pylibcudf is reached through ``lib.py`` at the first call, so the kernels that import these helpers
import where no GPU library is installed (their placement checks run there).
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pyarrow as pa

from gframe.engines.gpu import categorical
from gframe.engines.gpu.kinds import storable
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.table import GpuTable
from gframe.plan.schema import STRING

# libcudf type id (by its name in ``plc.TypeId``) -> the Arrow type gframe uses for it (strings are
# large_string everywhere)
ARROW_OF: dict[str, pa.DataType] = {
    "INT8": pa.int8(), "INT16": pa.int16(), "INT32": pa.int32(), "INT64": pa.int64(),
    "UINT8": pa.uint8(), "UINT16": pa.uint16(), "UINT32": pa.uint32(), "UINT64": pa.uint64(),
    "FLOAT32": pa.float32(), "FLOAT64": pa.float64(), "BOOL8": pa.bool_(), "STRING": STRING,
    "TIMESTAMP_SECONDS": pa.timestamp("s"), "TIMESTAMP_MILLISECONDS": pa.timestamp("ms"),
    "TIMESTAMP_MICROSECONDS": pa.timestamp("us"), "TIMESTAMP_NANOSECONDS": pa.timestamp("ns"),
    "DURATION_SECONDS": pa.duration("s"), "DURATION_MILLISECONDS": pa.duration("ms"),
    "DURATION_MICROSECONDS": pa.duration("us"), "DURATION_NANOSECONDS": pa.duration("ns"),
    "TIMESTAMP_DAYS": pa.date32(),
}

_PLC_OF: dict[pa.DataType, Any] = {}
_ARROW_BY_ID: dict[int, pa.DataType] = {}  # ARROW_OF by the type id's value, built at the first use


def device_type(t: pa.DataType) -> pa.DataType:
    """The Arrow type of the device column that stores a column of type ``t``: a timestamp with a
    time zone is stored as its UTC instants (libcudf has no time zones), a decimal as DECIMAL128 of
    its scale (libcudf keeps no precision); the zone and the precision stay in the plan's schema
    and in ``GpuTable.logical``."""
    if pa.types.is_timestamp(t) and t.tz is not None:
        return pa.timestamp(t.unit)
    if pa.types.is_decimal(t):  # every decimal as DECIMAL128 of its scale (the precision is the plan's)
        return pa.decimal128(38, t.scale)
    if pa.types.is_dictionary(t):  # a categorical: its codes (the categories: ``GpuTable.categories``)
        return pa.int32()
    return t


def logical_types(schema: Any) -> dict[str, pa.DataType]:
    """The columns of ``schema`` (data and index) whose type their device column cannot say."""
    fields = list(schema.columns) + list(schema.index or ())
    return {f.name: f.dtype for f in fields if f.dtype is not None and device_type(f.dtype) != f.dtype}


# fixed-point: libcudf keeps the scale (negated: the power of ten of the last digit), no precision;
# each width (by its name in ``plc.TypeId``) stands for the Arrow decimal of its full precision
# (what pylibcudf's to_arrow gives)
DECIMAL_OF: dict[str, Any] = {"DECIMAL32": (pa.decimal32, 9), "DECIMAL64": (pa.decimal64, 18),
                              "DECIMAL128": (pa.decimal128, 38)}
_DECIMAL_BY_ID: dict[int, Any] = {}  # DECIMAL_OF by the type id's value, built at the first use


def arrow_type(dtype: Any) -> pa.DataType:
    """The Arrow type of a ``plc.DataType``."""
    if not _ARROW_BY_ID:
        _ARROW_BY_ID.update({int(getattr(plc.TypeId, name)): t for name, t in ARROW_OF.items()})
    tid = dtype.id()
    if not _DECIMAL_BY_ID:
        _DECIMAL_BY_ID.update({int(getattr(plc.TypeId, name)): d for name, d in DECIMAL_OF.items()})
    hit = _DECIMAL_BY_ID.get(int(tid))
    if hit is not None:
        return hit[0](hit[1], -dtype.scale())
    try:
        return _ARROW_BY_ID[int(tid)]
    except KeyError:
        raise TypeError(f"libcudf type {tid!r} has no gframe equivalent") from None


def plc_type(t: pa.DataType) -> Any:
    """The ``plc.DataType`` of an Arrow type."""
    hit = _PLC_OF.get(t)
    if hit is None:
        if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
            hit = plc.DataType(plc.TypeId.STRING)
        elif pa.types.is_decimal(t):
            hit = plc.DataType(plc.TypeId.DECIMAL128, -t.scale)
        else:
            hit = plc.DataType.from_arrow(device_type(t))
        _PLC_OF[t] = hit
    return hit


def col_type(col: Any) -> pa.DataType:
    return arrow_type(col.type())


class NotUploadable(TypeError):
    """A host table holds a column the device cannot store (the node then runs on the CPU)."""


def _uploadable(table: pa.Table, categories: dict[str, pa.Array]) -> pa.Table:
    for i, f in enumerate(table.schema):
        t = f.type
        if pa.types.is_dictionary(t) and storable(t):  # its codes; the categories into ``categories``
            codes, categories[f.name] = categorical.split(table.column(i))
            table = table.set_column(i, f.name, codes)
        elif pa.types.is_string(t) or pa.types.is_string_view(t) or pa.types.is_large_string(t):
            # 32-bit offsets where they suffice (libcudf's usual string layout), 64-bit beyond 2 GB
            col = table.column(i)
            want = pa.string() if col.nbytes < 2**31 - 2**24 else STRING
            if t != want:
                table = table.set_column(i, f.name, col.cast(want))
        elif not storable(t) or pa.types.is_float16(t):
            raise NotUploadable(f"column {f.name!r} of type {t} cannot be stored on the GPU")
        elif device_type(t) != t:  # (a cast between time zones keeps the instants: metadata only)
            table = table.set_column(i, f.name, table.column(i).cast(device_type(t)))
    return table


def upload(table: pa.Table) -> GpuTable:
    """An Arrow table (host) as a device table; column names kept (and the types their device
    columns cannot say: ``GpuTable.logical``)."""
    logical = {f.name: f.type for f in table.schema if device_type(f.type) != f.type}
    categories: dict[str, pa.Array] = {}
    table = _uploadable(table, categories)
    n = table.num_rows
    if table.num_columns == 0:
        return GpuTable([], [], n)
    dev = plc.Table.from_arrow(table)
    return GpuTable(table.column_names, dev.columns(), n).typed(logical).with_categories(categories)


def download(t: GpuTable, offset: int = 0, length: int | None = None) -> pa.Table:
    """Rows [offset, offset+length) of a device table, copied to host Arrow memory."""
    n = t.num_rows
    start = min(max(offset, 0), n)
    stop = n if length is None else min(start + max(length, 0), n)
    if not t.columns:
        return pa.table({"__gf_len": pa.nulls(stop - start)})
    cols = t.columns
    if start != 0 or stop != n:
        cols = plc.copying.slice(plc.Table(cols), [start, stop])[0].columns()
    out = plc.Table(list(cols)).to_arrow(metadata=list(t.names))
    arrays = []
    for name, col in zip(t.names, cols):
        a = out.column(name)
        want = t.logical.get(name) or col_type(col)
        if pa.types.is_dictionary(want):  # pandas' categorical: the codes and every category
            if name not in t.categories:  # values from a host frame that held them so: as they came
                arrays.append(a)
                continue
            a = categorical.join(a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a,
                                 t.categories[name], want)
        elif a.type != want:
            a = a.cast(want)
        arrays.append(a)
    return pa.Table.from_arrays(arrays, names=list(t.names))


def to_host_frame(t: GpuTable) -> Any:
    """A device table as a CPU-engine frame (Polars), for a subtree the CPU engine runs."""
    from gframe.engines.cpu.kernels import _from_table

    return _from_table(download(t))  # (string categoricals as the CPU engine's Enums)


def from_host_frame(frame: Any, schema: Any = None) -> GpuTable:
    """A CPU-engine frame (Polars) as a device table. ``NotUploadable`` if a column can't be stored.
    ``schema`` (the plan's, where known): the CPU engine's categoricals of numbers (etc.) are Enums of
    their categories' encodings, decoded to the categories by it."""
    table = frame.to_arrow()
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    if schema is not None:
        from gframe.interop import categories_from_engine

        types = {n: schema.dtype_of(n) for n in schema.all_names}
        cols = [categories_from_engine(table.column(n), types[n]) if types.get(n) is not None else table.column(n)
                for n in table.column_names]
        table = pa.table(cols, names=table.column_names)
    if table.num_columns == 0:
        return GpuTable([], [], frame.height)
    return upload(table)


def scalar(value: Any, t: pa.DataType) -> Any:
    """A device scalar of Arrow type ``t`` (None: a missing value of that type).

    Plain values (None, bools, ints, floats, short strings) are made once per (type, value) and
    shared: libcudf only reads a scalar, and making one is a device allocation and a copy that
    waits for the stream (~0.1 ms: a group-by with its checksum made 16, 1.9 ms of ~20 on the H100).
    The key tells -0.0 from 0.0 and a bool from an int."""
    key = _scalar_key(value)
    if key is not None:
        return _shared_scalar(t, key, value)
    return _make_scalar(value, t)


def _scalar_key(value: Any) -> tuple | None:
    if value is None:
        return ("none",)
    if isinstance(value, (float, np.floating)):
        return (type(value), bool(np.signbit(value)), value != value)
    if isinstance(value, (bool, int, np.integer, np.bool_)) or isinstance(value, str) and len(value) <= 64:
        return (type(value),)
    return None


@functools.lru_cache(maxsize=4096)
def _shared_scalar(t: pa.DataType, key: tuple, value: Any) -> Any:
    return _make_scalar(value, t)


def _make_scalar(value: Any, t: pa.DataType) -> Any:
    if isinstance(value, pa.Scalar):
        s = value if value.type == t else value.cast(t)
    elif value is None:
        s = pa.scalar(None, type=t)
    else:
        try:
            s = pa.scalar(value, type=t)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, OverflowError, ValueError):
            s = pa.scalar(value).cast(t, safe=False)
    if pa.types.is_large_string(s.type):
        s = s.cast(pa.string())
    if device_type(s.type) != s.type:
        s = s.cast(device_type(s.type))
    return plc.Scalar.from_arrow(s)
