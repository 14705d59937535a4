"""Arrow interop: the Arrow PyCapsule interface and the dataframe interchange protocol, in and out.

A mixin shared by ``DataFrame`` and ``Series`` so that any Arrow consumer (pyarrow, Polars, DuckDB,
pandas' ``from_arrow``/``from_dataframe``) reads a gframe object without going through Python
objects. The spec is pandas': what leaves gframe is exactly what ``pyarrow.Table.from_pandas`` makes of
``obj.to_pandas()`` (the index carried as pandas metadata, a default RangeIndex as metadata only), so
a round trip through Arrow gives back the same frame. Numeric columns without missing values are not
copied on the way out (the engine's Arrow buffers become numpy views, which Arrow wraps again).

On the way in, a table without pandas metadata (Polars, DuckDB, plain pyarrow) whose column types
gframe stores natively becomes an in-memory scan of that very table (no copy; float NaN becomes
null, gframe's one missing value; an integer column with nulls becomes float64 as pandas makes it);
anything else - pandas metadata to restore an index, nested or
decimal columns - goes through ``pyarrow.Table.to_pandas`` as ``pandas.DataFrame.from_arrow`` does.

``pandas.DataFrame(gdf)`` cannot be served by a protocol: pandas 3's constructor only recognises its
own classes and dicts, and treats anything else iterable as a list-like through ``__array__`` (which
loses labels, index and dtypes). ``__array__`` therefore refuses that one caller with a ``TypeError``
that names the exact conversions (``gdf.to_pandas()``, ``pandas.DataFrame.from_arrow(gdf)``,
``pandas.api.interchange.from_dataframe(gdf)``) instead of building a scrambled frame.
"""
from __future__ import annotations

import sys
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from gframe.interop import host_copy
from gframe.plan.logical import InMemoryScan, Plan
from gframe.plan.node import Opaque
from gframe.plan.schema import Field, Schema, internal_name, normalize_arrow_type


class ArrowInterop:
    """Arrow export for DataFrame and Series (``to_arrow``, ``__arrow_c_stream__``, ``__dataframe__``)."""

    def to_arrow(self, preserve_index: bool | None = None) -> Any:
        """The values as Arrow: a ``pyarrow.Table`` for a DataFrame, a ``pyarrow.Array`` for a Series.

        For a DataFrame, ``preserve_index`` is ``pyarrow.Table.from_pandas``'s: ``None`` (default)
        stores a RangeIndex as metadata and any other index as columns, ``True`` always as columns,
        ``False`` drops it; the pandas metadata lets ``Table.to_pandas()`` give back this frame.
        """
        pobj = self.to_pandas()  # type: ignore[attr-defined]
        if isinstance(pobj, (pd.Series, pd.Index)):
            return pa.Array.from_pandas(pobj)
        return pa.Table.from_pandas(pobj, preserve_index=preserve_index)

    @property
    def attrs(self) -> dict[Any, Any]:
        """pandas' ``attrs`` of the pandas object this one was built from (gframe's operations do not
        carry them), else empty: read without converting the data (``Table.from_pandas`` reads it)."""
        own = self.__dict__.get("_attrs")
        if own is not None:
            return own
        plan = getattr(self, "_plan", None)
        hit = host_copy(plan) if plan is not None else None
        return dict(hit.attrs) if hit is not None else {}

    @attrs.setter
    def attrs(self, value: dict[Any, Any]) -> None:
        self.__dict__["_attrs"] = dict(value)

    @classmethod
    def from_arrow(cls, data: Any) -> Any:
        """pandas 3's ``DataFrame.from_arrow``/``Series.from_arrow``: gframe objects over Arrow data."""
        if cls.__name__ == "DataFrame":
            return from_arrow(data)
        return cls._from_pandas(getattr(pd, cls.__name__).from_arrow(data))  # type: ignore[attr-defined]

    def __arrow_array__(self, type: Any = None) -> pa.Array:
        """``pyarrow.array(obj)``: a Series' values; a frame's rows as a struct array (as for pandas).

        ``pyarrow.Table.from_pandas(gdf)`` converts each column through this: one Arrow conversion per
        column instead of pyarrow walking the values one by one.
        """
        out = self.to_arrow(preserve_index=False)
        if isinstance(out, pa.Table):
            out = out.to_struct_array().combine_chunks() if out.num_columns else pa.array([{}] * out.num_rows)
        return out if type is None else out.cast(type)

    def _arrow_stream_source(self) -> Any:
        out = self.to_arrow()
        return out if isinstance(out, pa.Table) else pa.chunked_array([out])

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """Arrow PyCapsule interface: the values as an ArrowArrayStream (as pandas' own method does)."""
        source = self._arrow_stream_source()
        if requested_schema is not None:
            target = pa.Schema._import_from_c_capsule(requested_schema) if isinstance(source, pa.Table) \
                else pa.DataType._import_from_c_capsule(requested_schema)
            source = source.cast(target)
        return source.__arrow_c_stream__()

    def __arrow_c_schema__(self) -> Any:
        """Arrow PyCapsule interface: the Arrow schema (type, for a Series) ``__arrow_c_stream__`` has."""
        out = self.to_arrow()
        return (out.schema if isinstance(out, pa.Table) else out.type).__arrow_c_schema__()

    def __dataframe__(self, nan_as_null: bool = False, allow_copy: bool = True) -> Any:
        """The dataframe interchange protocol, served by pyarrow's implementation over ``to_arrow()``.

        pandas 3 deprecates the protocol (its ``from_dataframe`` prefers ``__arrow_c_stream__``), but
        seaborn, plotly and older consumers still ask for it.
        """
        table = self.to_arrow()
        if not isinstance(table, pa.Table):
            table = pa.table({str(self.name) if self.name is not None else "0": table})  # type: ignore[attr-defined]
        return table.__dataframe__(nan_as_null=nan_as_null, allow_copy=allow_copy)


def called_by_pandas_constructor() -> bool:
    """Whether ``__array__`` was reached from ``pandas.DataFrame(obj)``/``pandas.Series(obj)``
    (directly: not from ``np.asarray`` in user code or in another library)."""
    frame = sys._getframe(2)  # 0: here, 1: __array__, 2: its caller (numpy is C, not a frame)
    if frame.f_code.co_name == "sanitize_array" and frame.f_back is not None:
        frame = frame.f_back  # pandas.Series(obj) converts through construction.sanitize_array
    path = frame.f_code.co_filename.replace("\\", "/")
    return frame.f_code.co_name == "__init__" and path.endswith(("pandas/core/frame.py", "pandas/core/series.py"))


PANDAS_CONSTRUCTOR_MESSAGE = (
    "pandas.{kind}(<gframe {kind}>) cannot keep labels, index and dtypes (pandas treats it as a "
    "list-like); use obj.to_pandas(), pandas.{kind}.from_arrow(obj) or, for a frame, "
    "pandas.api.interchange.from_dataframe(obj)"
)


# ------------------------------------------------------------------------------------ Arrow in

def _native_type(t: pa.DataType) -> bool:
    """Arrow types gframe keeps as they are (after ``normalize_arrow_type``) with pandas' meaning."""
    if pa.types.is_dictionary(t):
        return _native_type(t.value_type) and not pa.types.is_dictionary(t.value_type)
    return (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)
            or pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t)
            or (pa.types.is_timestamp(t) and t.unit in ("ms", "us", "ns"))
            or (pa.types.is_duration(t) and t.unit in ("ms", "us", "ns")))


def _column_in(col: pa.ChunkedArray) -> pa.ChunkedArray:
    t = normalize_arrow_type(col.type)
    if pa.types.is_integer(t) and col.null_count:
        t = pa.float64()  # what pandas makes of it: later filters keep it float, as in pandas
    if t != col.type:
        col = col.cast(t)
    if pa.types.is_floating(col.type) and pc.any(pc.is_nan(col)).as_py():
        col = pc.if_else(pc.is_nan(col), pa.scalar(None, col.type), col)
    return col


def arrow_table_plan(table: pa.Table, origin: str = "arrow") -> Plan | pd.DataFrame:
    """A scan of ``table`` (no copy for native types), or its pandas form where Arrow alone cannot say
    what pandas would make of it (pandas metadata, nested or decimal columns)."""
    names = table.column_names
    if (table.schema.pandas_metadata is not None or len(set(names)) != len(names) or not names
            or not all(_native_type(f.type) for f in table.schema)
            or any(pa.types.is_boolean(c.type) and c.null_count for c in table.columns)):  # object in pandas
        return pd.DataFrame.from_arrow(table) if table.num_columns else table.to_pandas()
    columns = [_column_in(table.column(i)) for i in range(table.num_columns)]
    fields = tuple(Field(name, col.type) for name, col in zip(names, columns))
    internal = pa.Table.from_arrays(columns, names=[internal_name(n) for n in names])
    return InMemoryScan(Opaque(internal, "arrow"), Schema(fields, None), origin)


def to_arrow_table(obj: Any) -> pa.Table:
    """Any Arrow tabular object (``pa.Table``, ``RecordBatch``, an ``__arrow_c_stream__`` exporter)."""
    if isinstance(obj, pa.Table):
        return obj
    if isinstance(obj, pa.RecordBatchReader):
        return obj.read_all()
    return pa.table(obj)


def is_arrow_tabular(obj: Any) -> bool:
    """Arrow data that is not a pandas object (pandas frames export ``__arrow_c_stream__`` too)."""
    return isinstance(obj, (pa.Table, pa.RecordBatch, pa.RecordBatchReader)) or (
        hasattr(obj, "__arrow_c_stream__") and not isinstance(obj, (pd.DataFrame, pd.Series))
        and not type(obj).__module__.startswith("gframe."))


def from_arrow(obj: Any) -> Any:
    """A gframe DataFrame over Arrow data: a ``pyarrow.Table``/``RecordBatch`` or any object with
    ``__arrow_c_stream__`` (a Polars DataFrame, a DuckDB relation...); ``pandas.DataFrame.from_arrow``'s
    result, without a copy where the column types allow."""
    from gframe.frontend.frame import DataFrame

    out = arrow_table_plan(to_arrow_table(obj), "from_arrow")
    if isinstance(out, pd.DataFrame):
        return DataFrame._from_pandas(out, "from_arrow")
    return DataFrame._from_plan(out)
