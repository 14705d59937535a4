"""Categoricals on the CPU engine: Polars Enums, whatever the categories' type.

pandas' ``category`` (the plan's ``pa.dictionary(int32, value, ordered)``) is data with its own
categories: all of them, used or not, in their order. A Polars ``Enum`` carries exactly that in
its dtype, and its physical codes are the category order (sorting, grouping, ``observed=False``
read them), but its categories are strings only. So a categorical of numbers, bools, dates,
timestamps or durations is an Enum of its categories *encoded* as strings, one string per value,
exact both ways (``interop.encode_categories`` / ``decode_categories``): integers (and the int64
/ int32 storage of temporal types, and 0/1 for bools) as their decimal digits, floats and
decimals as Arrow's round-trip repr. Holding the values instead (what this engine did before)
lost unused categories and the category order; an Enum of the encodings moves through every
row-moving kernel unchanged.

The plan's type says how to read the strings back: ``interop.categories_from_engine`` on the way
out, ``values`` where an expression needs the values (a cast to the categories' type, a merge
key against a column of values, a concat that does not keep the categorical). A literal compared
with such a categorical is encoded the same way (``encode_scalar``; None where it is no value of
the categories' type: never equal). An ``astype('category')`` gives values inside its node
(``holds_values``); the node's output makes them the Enum (``enum_of_values``).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from gframe.interop import categories_storage, encode_categories as encode


def is_cat(t: pa.DataType | None) -> bool:
    return t is not None and pa.types.is_dictionary(t)


def _is_string(t: pa.DataType) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def encoded(t: pa.DataType | None) -> bool:
    """Whether the CPU engine holds a categorical of plan type ``t`` as an Enum of encodings (its
    categories are not strings)."""
    return is_cat(t) and not _is_string(t.value_type)  # type: ignore[union-attr]


def encode_scalar(value: Any, t: pa.DataType) -> str | None:
    """A scalar as the Enum's string for it among categories of type ``t``; None where it is no
    value of that type (1.5 among ints, a string among numbers: it equals no category)."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, str) or isinstance(value, bool) != pa.types.is_boolean(t):
        return None
    try:
        arr = pa.array([value]).cast(t)  # safe cast: 1.5 does not become 1
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        return None
    if arr.null_count:
        return None
    return encode(arr)[0].as_py()


def to_enum_table(table: pa.Table) -> pa.Table:
    """``table`` with its non-string dictionary columns' dictionaries encoded (same codes), so that
    Polars reads every categorical as strings and ``kernels._with_categories`` makes Enums of them."""
    cols, changed = [], False
    for name in table.column_names:
        col = table.column(name)
        if encoded(col.type):
            changed = True
            if col.num_chunks > 1:
                col = col.unify_dictionaries()
            chunks = [pa.DictionaryArray.from_arrays(c.indices, encode(c.dictionary), ordered=col.type.ordered)
                      for c in col.chunks]
            want = pa.dictionary(col.type.index_type, pa.large_string(), col.type.ordered)
            col = pa.chunked_array(chunks, type=want)
        cols.append(col)
    return pa.table(cols, names=table.column_names) if changed else table


def enum_of_values(values: pl.Series, t: pa.DataType, one_zero: bool = True) -> pl.Series:
    """A column of values (``astype('category')``) as the Enum of its categories: pandas' are the
    sorted distinct values, in the values' order, not the strings'.

    ``one_zero``: -0.0 and 0.0 are one category, the first zero's (numpy's and the masked hash
    tables keep the first of equal values, and every zero shows as it); pyarrow's hashing keeps
    them apart (an ``ArrowDtype`` float's two zeros, which pandas then refuses as duplicates)."""
    arr = values.to_arrow()
    if not pa.types.is_dictionary(arr.type) and arr.type != t.value_type:
        arr = arr.cast(t.value_type)
    if one_zero and pa.types.is_floating(arr.type):
        first = pc.index(arr, pa.scalar(0.0, arr.type)).as_py()
        if first >= 0:
            arr = pc.if_else(pc.equal(arr, pa.scalar(0.0, arr.type)), arr[first], arr)
    cats = pc.unique(arr.drop_null())
    cats = cats.take(pc.sort_indices(cats))
    names = encode(cats).to_pylist()
    strings = pl.Series(values.name, encode(arr), dtype=pl.String)
    return strings.cast(pl.Enum(names))


def values(x: pl.Expr, t: pa.DataType) -> pl.Expr:
    """The values of an Enum of encodings (a categorical of plan type ``t``) as Polars values of
    ``t``'s categories' type."""
    from gframe.engines.cpu.expressions import polars_type

    vt = t.value_type
    store = categories_storage(vt)
    strings = x.cast(pl.String)
    if store is None:
        return strings.cast(polars_type(vt))
    ints = strings.cast(polars_type(store))
    return (ints != 0) if pa.types.is_boolean(vt) else ints.cast(polars_type(vt))


def holds_values(e: Any) -> bool:
    """Whether the engine holds expression ``e`` (a categorical of numbers, by its plan type) as
    values, not yet the Enum: an ``astype('category')`` inside a node, whose categories the node's
    output makes (``kernels.promote_missing``)."""
    from gframe.plan.expr import Func

    return isinstance(e, Func) and e.fn == "cast" and pa.types.is_dictionary(e.param("dtype"))


def as_values(x: pl.Expr, e: Any, t: pa.DataType | None) -> tuple[pl.Expr, pa.DataType | None]:
    """``x`` (the lowered ``e``, of plan type ``t``) as values where it is an Enum of encodings,
    with the values' type; else as it is."""
    if encoded(t) and not holds_values(e):
        return values(x, t), t.value_type  # type: ignore[union-attr]
    if encoded(t):
        return x, t.value_type  # type: ignore[union-attr]
    return x, t


def check_new_category(data: pl.DataFrame | None, e: Any, code: str | None, value: Any) -> None:
    """pandas' TypeError for a fill value that is not a category of column ``e`` (its Enum's string
    ``code``), where the column has a missing value to fill; nothing where the data is not at hand."""
    from gframe.plan.expr import Col

    if data is None or not isinstance(e, Col) or e.name not in data.columns:
        return
    col = data.get_column(e.name)
    if not isinstance(col.dtype, pl.Enum) or not col.null_count():
        return
    if code is None or code not in set(col.dtype.categories.to_list()):
        raise TypeError(f"Cannot setitem on a Categorical with a new category ({value}), set the categories first")
