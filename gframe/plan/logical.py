"""Logical plan nodes: what to compute, never how.

Each node is immutable, hashed by structure, and computes its output ``schema`` when built, so
``df.columns``, ``df.dtypes`` and a ``KeyError`` for a missing column need no execution. Engines
lower these nodes (``engines/cpu``, ``engines/gpu``); the optimizer rewrites them.

Index handling: a schema with ``index=None`` has pandas' default RangeIndex, which no engine stores.
Operations that reorder or drop rows need the original positions, so the frontend puts a
``RowIndex`` node below them; that makes the index an ordinary int64 column the engines carry.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Hashable, Sequence

import numpy as np
import pyarrow as pa

from gframe.plan.expr import Agg, Col, Expr, format_expr
from gframe.plan.node import Node, Opaque
from gframe.plan.schema import (ARROW_FAMILIES, MASKED, NUMPY, OBJECT, OBJECT_DATE, OBJECT_FAMILIES, OBJECT_NONE, PYOBJECT, STRING, Field,
                                DeletedFreq, IndexField, Schema, is_numeric, pandas_dtype)
from gframe.plan.dtypes import (aggregate_type, combine_families, expr_family, expr_field, expr_type, group_float32_downcast,
                                group_median_decimal, group_sum_narrow_type,
                                keeps_type_when_missing)
from gframe.plan.source import FileSnapshot


class Plan(Node):
    """Base of plan nodes. ``schema`` is computed at construction."""

    __slots__ = ("schema",)
    schema: Schema

    def _init(self, children: Sequence["Plan"], *values: Any) -> None:
        self._setup(children, *values)
        object.__setattr__(self, "schema", self._compute_schema())

    def _compute_schema(self) -> Schema:
        raise NotImplementedError

    @property
    def child(self) -> "Plan":
        return self.children[0]  # type: ignore[return-value]

    def describe(self) -> str:
        """One-line description for ``explain()``."""
        return type(self).__name__

    def _lookup(self, child: "Plan | None" = None) -> Any:
        schema = (child or self.child).schema
        return schema.dtype_of


# ----------------------------------------------------------------------------------------- scans

class InMemoryScan(Plan):
    """An Arrow table already in memory (from a dict, numpy, pandas, or a fallback's result).

    ``table`` is an ``Opaque`` wrapping a ``pyarrow.Table`` whose columns are the schema's internal
    names (data, then index). ``origin`` says where it came from, for ``explain()``.
    """

    __slots__ = ("table", "table_schema", "origin")
    _non_child = ("table", "table_schema", "origin")

    def __init__(self, table: Opaque, table_schema: Schema, origin: str = "") -> None:
        self._init((), table, table_schema, origin)

    def _compute_schema(self) -> Schema:
        return self.table_schema

    def describe(self) -> str:
        t = self.table.value
        where = self.table.resident_on()
        return f"InMemoryScan [{t.num_rows} rows x {len(self.table_schema.columns)} cols]" + (
            f" from {self.origin}" if self.origin else ""
        ) + (f" resident on {', '.join(where)}" if where else "")


class ParquetScan(Plan):
    """Read a parquet file. ``columns`` (internal names) and ``predicate`` are filled by the optimizer."""

    __slots__ = ("path", "file_schema", "file_columns", "columns", "predicate", "n_rows", "stamp", "row_index",
                 "source")
    _non_child = ("path", "file_schema", "file_columns", "columns", "predicate", "n_rows", "stamp", "row_index",
                  "source")

    def __init__(self, path: str, file_schema: Schema, file_columns: tuple[tuple[str, str], ...],
                 columns: tuple[str, ...] | None = None, predicate: Expr | None = None,
                 n_rows: int | None = None, stamp: Hashable = None, row_index: bool = False,
                 source: FileSnapshot | None = None) -> None:
        # file_columns: (column name in the file, internal name) for every data and index column;
        # stamp: the file's version when read (mtime, size), so a rewritten file is a new plan and
        # never meets a cached result of the old one; row_index: the reader numbers the file's rows
        # (before its filter) as the index, what RowIndex over the scan would give; source: the
        # file as the user read it (snapshot semantics, engines keep the columns they read there)
        self._init((), path, file_schema, tuple(file_columns), columns, predicate, n_rows, stamp, row_index, source)

    def _compute_schema(self) -> Schema:
        schema = self.file_schema
        if self.row_index:
            assert schema.index is None
            schema = schema.with_index((IndexField(None, pa.int64(), 0),))
        if self.columns is None:
            return schema
        keep = set(self.columns)
        return schema.with_columns(f for f in schema.columns if f.name in keep)

    def describe(self) -> str:
        parts = [f"ParquetScan {self.path!r}"]
        if self.columns is not None:
            parts.append(f"columns={list(self.columns)}")
        if self.predicate is not None:
            parts.append(f"filter={format_expr(self.predicate)}")
        if self.n_rows is not None:
            parts.append(f"n_rows={self.n_rows}")
        if self.row_index:
            parts.append("row_index")
        if self.source is not None:
            where = [f"{e} ({len(cols)} cols)" for e in self.source.resident_on() if (cols := self.source.columns(e))]
            if where:
                parts.append(f"resident on {', '.join(where)}")
            if self.source.preserved:
                parts.append("(file overwritten: snapshot in host memory)")
        return " ".join(parts)


class CsvScan(Plan):
    """Read a CSV file with pandas' parsing rules (options as sorted (key, value) pairs)."""

    __slots__ = ("path", "file_schema", "options", "columns", "n_rows")
    _non_child = ("path", "file_schema", "options", "columns", "n_rows")

    def __init__(self, path: str, file_schema: Schema, options: tuple[tuple[str, Hashable], ...],
                 columns: tuple[str, ...] | None = None, n_rows: int | None = None) -> None:
        self._init((), path, file_schema, options, columns, n_rows)

    def option(self, name: str, default: Any = None) -> Any:
        return dict(self.options).get(name, default)

    def _compute_schema(self) -> Schema:
        if self.columns is None:
            return self.file_schema
        keep = set(self.columns)
        return self.file_schema.with_columns(f for f in self.file_schema.columns if f.name in keep)

    def describe(self) -> str:
        cols = f" columns={list(self.columns)}" if self.columns is not None else ""
        rows = f" n_rows={self.n_rows}" if self.n_rows is not None else ""
        return f"CsvScan {self.path!r}{cols}{rows}"


# ---------------------------------------------------------------------------------- row-wise ops

class Select(Plan):
    """Compute the output data columns from expressions; the index passes through.

    ``outputs`` is a tuple of (label, expr) pairs in output order.
    """

    __slots__ = ("outputs",)
    _non_child = ("outputs",)

    def __init__(self, outputs: tuple[tuple[Hashable, Expr], ...], child: Plan) -> None:
        self._init((child,), tuple(outputs))

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        return s.with_columns(expr_field(label, e, s) for label, e in self.outputs)

    def describe(self) -> str:
        items = []
        for label, e in self.outputs:
            text = format_expr(e)
            items.append(text if isinstance(e, Col) and e.name == Field(label, None).name else f"{label}={text}")
        return f"Select [{', '.join(items)}]"


class Filter(Plan):
    __slots__ = ("predicate",)
    _non_child = ("predicate",)

    def __init__(self, predicate: Expr, child: Plan) -> None:
        self._init((child,), predicate)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        return f"Filter {format_expr(self.predicate)}"


class RowIndex(Plan):
    """Materialize the default RangeIndex as an int64 index column (positions 0..n-1)."""

    __slots__ = ()

    def __init__(self, child: Plan) -> None:
        self._init((child,))

    def _compute_schema(self) -> Schema:
        assert self.child.schema.index is None
        return self.child.schema.with_index((IndexField(None, pa.int64(), 0),))


class Sort(Plan):
    """Stable sort by internal column names (data or index columns)."""

    __slots__ = ("by", "descending", "nulls_last")
    _non_child = ("by", "descending", "nulls_last")

    def __init__(self, by: tuple[str, ...], descending: tuple[bool, ...], nulls_last: bool, child: Plan) -> None:
        self._init((child,), tuple(by), tuple(descending), nulls_last)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        keys = ", ".join(f"{b}{' desc' if d else ''}" for b, d in zip(self.by, self.descending))
        return f"Sort [{keys}] nulls_{'last' if self.nulls_last else 'first'}"


class Slice(Plan):
    """Rows ``offset`` .. ``offset+length`` (negative offset counts from the end; length None: to the end)."""

    __slots__ = ("offset", "length")
    _non_child = ("offset", "length")

    def __init__(self, offset: int, length: int | None, child: Plan) -> None:
        self._init((child,), offset, length)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        return f"Slice offset={self.offset} length={self.length}"


class Take(Plan):
    """Rows picked in the given order, repeats included: by position (``iloc[[2, 0]]``, positions
    already non-negative) or, with ``by_label``, by the label of the one index level
    (``loc[["z", "x"]]``; every label matching rows gives all of them). The frontend has checked
    the positions are in range / the labels exist, as pandas raises at the call."""

    __slots__ = ("keys", "by_label")
    _non_child = ("keys", "by_label")

    def __init__(self, keys: tuple[Any, ...], by_label: bool, child: Plan) -> None:
        self._init((child,), tuple(keys), by_label)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        keys = list(self.keys[:8]) + (["..."] if len(self.keys) > 8 else [])
        return f"Take {'labels' if self.by_label else 'positions'}={keys}"


class TopK(Plan):
    """The first ``k`` rows of a stable sort: what ``sort_values(...).head(k)`` and ``nlargest`` mean.

    ``ties_last``: pandas' ``nlargest/nsmallest(keep="last")``. Where ``k`` cuts the rows, rows equal
    on every key come in reverse row order (pandas reverses the column, then sorts stably); where
    ``k`` covers every row the sort is stable, as pandas then sorts the whole column. Rows with a
    missing first key keep their order either way (pandas appends them as they were). The row count
    decides, so a ``TopK`` with it is not to be re-cut to a smaller ``k`` (``optimizer/limits.py``).
    """

    __slots__ = ("by", "descending", "nulls_last", "k", "ties_last")
    _non_child = ("by", "descending", "nulls_last", "k", "ties_last")

    def __init__(self, by: tuple[str, ...], descending: tuple[bool, ...], nulls_last: bool, k: int,
                 ties_last: bool, child: Plan) -> None:
        self._init((child,), tuple(by), tuple(descending), nulls_last, k, bool(ties_last))

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        keys = ", ".join(f"{b}{' desc' if d else ''}" for b, d in zip(self.by, self.descending))
        return f"TopK k={self.k} [{keys}]{' ties last' if self.ties_last else ''}"


class Distinct(Plan):
    """drop_duplicates: keep 'first', 'last' or 'none' of each group of equal ``subset`` rows, in order."""

    __slots__ = ("subset", "keep")
    _non_child = ("subset", "keep")

    def __init__(self, subset: tuple[str, ...], keep: str, child: Plan) -> None:
        self._init((child,), tuple(subset), keep)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        return f"Distinct subset={list(self.subset)} keep={self.keep}"


class Repeat(Plan):
    """``Series.repeat``: each row ``repeats`` times in a row (a a b b, not a b a b), its index
    labels with it - an int for every row, or one count per row (the frontend has checked the counts
    are non-negative and, per row, as many as the rows, as pandas raises at the call)."""

    __slots__ = ("repeats",)
    _non_child = ("repeats",)

    def __init__(self, repeats: int | tuple[int, ...], child: Plan) -> None:
        self._init((child,), int(repeats) if isinstance(repeats, int) else tuple(int(r) for r in repeats))

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        if isinstance(self.repeats, int):
            return f"Repeat {self.repeats}"
        counts = list(self.repeats[:8]) + (["..."] if len(self.repeats) > 8 else [])
        return f"Repeat per row={counts}"


# ------------------------------------------------------------------------------------ relational

def _inferred_family(family: str) -> str:
    """The family of a group key in the result: object columns' keys are inferred (numpy)."""
    return NUMPY if family in OBJECT_FAMILIES else family


def _inferred_type(t: Any, family: str) -> Any:
    """The type of a group key in the result: an object column's is the data's (``_inferred_keys``
    in the engines). Times too - no groups leave nothing to infer from (object, not DatetimeIndex) -
    except in seconds, whose unit the plan's type keeps (the CPU engine holds [s] as [ms])."""
    if family in OBJECT_FAMILIES and t is not None and not (pa.types.is_temporal(t) and getattr(t, "unit", None) in (None, "s")):
        return None
    return t


class Aggregate(Plan):
    """Group by ``keys`` (internal names) and aggregate; no keys: one row.

    ``sort``: keys in sorted order, else first-appearance order. ``dropna``: drop groups whose key
    is null. ``keys_as_index``: keys become the index (pandas' as_index=True). Output data columns
    are the keys (unless they are the index) then the aggregations ``aggs`` ((label, Agg) pairs).
    """

    __slots__ = ("keys", "key_labels", "aggs", "sort", "dropna", "keys_as_index")
    _non_child = ("keys", "key_labels", "aggs", "sort", "dropna", "keys_as_index")

    def __init__(self, keys: tuple[str, ...], key_labels: tuple[Hashable, ...], aggs: tuple[tuple[Hashable, Agg], ...],
                 sort: bool, dropna: bool, keys_as_index: bool, child: Plan) -> None:
        self._init((child,), tuple(keys), tuple(key_labels), tuple(aggs), sort, dropna, keys_as_index)

    def _compute_schema(self) -> Schema:
        look = self._lookup()
        s = self.child.schema
        # pandas builds the group keys' index from their unique values, inferring its dtype: an object
        # column's keys come back as what they hold (strings ``str``, ints int64); ``Series.value_counts``
        # alone keeps object, and says so itself. The inferred dtype is the data's: ints are int64 (uint64
        # past its range), floats float64, and no groups leave nothing to infer from (object). Times
        # keep their type (the engines' units are not pandas': the plan's type keeps the unit)
        # (dates in an object column, ``dt.date``: pandas' group label of the missing key is NaN, not NaT)
        keyf = [(lab, _inferred_type(look(k), s.family_of(k)), OBJECT if look(k) == OBJECT_DATE else _inferred_family(s.family_of(k)))
                for k, lab in zip(self.keys, self.key_labels)]
        # the family (numpy / masked / arrow) from the expression; numpy results take pandas' numpy
        # aggregation types (narrow int sums that fit stay narrow, decided by the data)
        # (and a decimal's group median, an Arrow family's: its type decided by the data too)
        aggf = [Field(label, aggregate_type(a, look, bool(self.keys)), f.family) if f.family == NUMPY
                else Field(label, None, f.family) if self.keys and (group_median_decimal(a, look) is not None
                                                                     or group_float32_downcast(a, look) is not None
                                                                     or (f.family == MASKED
                                                                         and group_sum_narrow_type(a, look) is not None))
                else f
                for (label, a), f in ((la, expr_field(la[0], la[1], s)) for la in self.aggs)]
        if self.keys:
            # a group's first / last of an object column where the group has no value is None (pandas'
            # object kernels), whatever marker the column's missing values had
            aggf = [Field(f.label, f.dtype, OBJECT_NONE) if a.fn in ("first", "last")
                    and _object_column(expr_type(a.child, look), expr_family(a.child, s.family_of, look))
                    else f for f, (_, a) in zip(aggf, self.aggs)]
            # pandas 3.1's group mean / median / var / sum / prod of an object column of numbers stay
            # object (its object kernels; std and sem are float64)
            aggf = [Field(f.label, f.dtype, OBJECT) if a.fn in ("mean", "median", "var", "sum", "prod")
                    and f.family == NUMPY and expr_family(a.child, s.family_of, look) in OBJECT_FAMILIES
                    and expr_type(a.child, look) is not None and is_numeric(expr_type(a.child, look))
                    else f for f, (_, a) in zip(aggf, self.aggs)]
        if self.keys_as_index and self.keys:
            in_levels = not self.dropna and len(keyf) > 1
            # (a tz-aware key keeps its zone object: ``Field.tz``)
            zones = {f.name: f.tz for f in (*(s.index or ()), *s.columns) if f.tz is not None}
            index = tuple(IndexField(lab, t, i, fam, missing_in_levels=in_levels, tz=zones.get(k))
                          for i, ((lab, t, fam), k) in enumerate(zip(keyf, self.keys)))
            # no aggregations: pandas' empty column Index keeps the dtype of the grouped frame's labels
            return Schema(tuple(aggf), index, None if aggf else self.child.schema.with_columns(()).empty_columns_dtype)
        return Schema(tuple(Field(lab, t, fam) for lab, t, fam in keyf) + tuple(aggf), None)

    def describe(self) -> str:
        aggs = ", ".join(f"{label}={format_expr(a)}" for label, a in self.aggs)
        return (f"Aggregate keys={list(self.keys)} [{aggs}] sort={self.sort} dropna={self.dropna}"
                f"{' as_index' if self.keys_as_index else ''}")


class CompleteGroups(Plan):
    """pandas' ``observed=False`` over an ``Aggregate``'s output: every category of the categorical
    keys (crossed with the other keys' distinct values in ``source``, the aggregated input) gets a
    row, groups no row fell into included.

    ``keys``: internal names of the key columns (index or data) in the child's output;
    ``source_keys``: the same keys' names in ``source``. ``fills``:
    (internal name, value) of the aggregations an empty group gives a value to (0 for counts and
    sums, 1 for prod...); the others are missing there. ``sort``: all rows in key order (categories
    in category order), else the observed groups first, in their order, then the unobserved ones.
    """

    __slots__ = ("keys", "source_keys", "fills", "sort")
    _non_child = ("keys", "source_keys", "fills", "sort")

    def __init__(self, keys: tuple[str, ...], source_keys: tuple[str, ...], fills: tuple[tuple[str, Any], ...],
                 sort: bool, child: Plan, source: Plan) -> None:
        self._init((child, source), tuple(keys), tuple(source_keys), tuple(fills), sort)

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        filled = {n for n, _ in self.fills}
        keys = set(self.keys)

        def widen(f: Any) -> Any:
            # an empty group's missing value: pandas decides int (and bool) -> float64 from the data
            t = f.dtype
            if f.name in filled or f.name in keys or t is None or keeps_type_when_missing(f.family):
                return t
            return None if pa.types.is_integer(t) or pa.types.is_boolean(t) else t

        cols = tuple(Field(f.label, widen(f), f.family) for f in s.columns)
        return replace(s, columns=cols)  # (no columns: the labels' Index type stays)

    def describe(self) -> str:
        return f"CompleteGroups keys={list(self.keys)}{' sort' if self.sort else ''}"


class GroupWindow(Plan):
    """groupby().transform / cumcount: per row, a value computed over the row's group of ``keys``.

    ``outputs``: (label, Agg) pairs, the output data columns; the index and row order are the child's.
    An aggregation is broadcast to every row of its group; ``Agg("size", (("cumulative", True),
    ("ascending", a)), ...)`` counts the group's rows before the row (after it where not ``a``):
    pandas' cumcount. ``dropna``: rows whose key is missing get a missing value.
    """

    __slots__ = ("keys", "outputs", "dropna")
    _non_child = ("keys", "outputs", "dropna")

    def __init__(self, keys: tuple[str, ...], outputs: tuple[tuple[Hashable, Agg], ...], dropna: bool,
                 child: Plan) -> None:
        self._init((child,), tuple(keys), tuple(outputs), dropna)

    def _compute_schema(self) -> Schema:
        fields = []
        for label, a in self.outputs:
            f = expr_field(label, a, self.child.schema)
            t = f.dtype
            if (self.dropna or a.fn == "shift") and t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t)) \
                    and not keeps_type_when_missing(f.family):
                # a missing key gives NaN (a shift: the rows it moves past a group's edge): pandas
                # decides int -> float64, bool -> object from the data
                t = None
            fields.append(Field(label, t, f.family))
        return Schema(tuple(fields), self.child.schema.index)

    def describe(self) -> str:
        outs = ", ".join(f"{label}={format_expr(a)}" for label, a in self.outputs)
        return f"GroupWindow keys={list(self.keys)} [{outs}]{' dropna' if self.dropna else ''}"


class GroupHead(Plan):
    """The first ``n`` rows of each group of ``keys``, in the original row order (groupby().head)."""

    __slots__ = ("keys", "n", "dropna")
    _non_child = ("keys", "n", "dropna")

    def __init__(self, keys: tuple[str, ...], n: int, dropna: bool, child: Plan) -> None:
        self._init((child,), tuple(keys), n, dropna)

    def _compute_schema(self) -> Schema:
        return self.child.schema


class Join(Plan):
    """pandas merge. ``how`` in inner/left/right/outer/cross.

    ``left_on``/``right_on`` are internal names (data or index columns of each side). The output is
    described by ``outputs``: (label, side, internal name) triples - the merge's column list after
    pandas' key coalescing and suffix rules, computed by the frontend. side is "left"/"right" (that
    side's column) or "key" (a left key column holding the right key where the left row is missing:
    ``on=`` keys of one name, and a left key column joined to the right's index). A right key column
    joined to the left's index likewise holds the left key where the right row is missing.
    ``index_from`` is "none" (a new RangeIndex), "left" or "right" (that side's index, as pandas
    keeps for index joins; missing where that side has no row) or "both" (the two indexes
    coalesced: an outer join on both indexes).
    ``sort`` sorts the result by the keys (pandas' sort=True, and how="outer").
    """

    __slots__ = ("how", "left_on", "right_on", "outputs", "index_from", "sort")
    _non_child = ("how", "left_on", "right_on", "outputs", "index_from", "sort")

    def __init__(self, how: str, left_on: tuple[str, ...], right_on: tuple[str, ...],
                 outputs: tuple[tuple[Hashable, str, str], ...], index_from: str, sort: bool,
                 left: Plan, right: Plan) -> None:
        self._init((left, right), how, tuple(left_on), tuple(right_on), tuple(outputs), index_from, sort)

    @property
    def left(self) -> Plan:
        return self.children[0]  # type: ignore[return-value]

    @property
    def right(self) -> Plan:
        return self.children[1]  # type: ignore[return-value]

    def _compute_schema(self) -> Schema:
        lt, rt = self.left.schema, self.right.schema
        how = self.how
        fields = []
        for label, side, name in self.outputs:
            t = (lt if side in ("left", "key") else rt).dtype_of(name)
            fam = (lt if side in ("left", "key") else rt).family_of(name)
            # a side that may miss rows gets nulls: pandas decides int->float from the data
            may_miss = (side == "right" and how in ("left", "outer")) or (
                side in ("left", "key") and how in ("right", "outer"))
            if side == "key" and how == "right" and name in self.left_on:
                other = self.right_on[self.left_on.index(name)]
                # pandas takes the right keys: their type where both sides agree (else the data's), their family
                t = t if t is not None and rt.dtype_of(other) == t else None
                # (a nullable left key with a numpy right one of its type: the nullable dtype, pandas' common one)
                fam = fam if fam == MASKED and rt.family_of(other) == NUMPY and t is not None else rt.family_of(other)
            elif (side == "key" and how == "right") or (how == "left" and self.right_key_from_left_index(name)):
                t = None  # the other side's key values
            if side == "key" or (side == "right" and self.right_key_from_left_index(name)):
                t = self._categorical_key(side, name, t)
            # an object column's missing rows are NaN (pandas' reindex), whatever its own marker (``Union``)
            objects = may_miss and side != "key" and _object_column(t, fam)
            if may_miss and t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t)) \
                    and not keeps_type_when_missing(fam):
                t = None
            if objects:
                fam = OBJECT
            fields.append(Field(label, t, fam))
        index: tuple[IndexField, ...] | None
        if self.index_from == "none":
            index = None
        elif self.index_from == "both":  # the two indexes coalesced
            index = tuple(IndexField(a.label, a.dtype if a.dtype == b.dtype else None, a.level, a.family,
                                     a.freq if a.freq == b.freq else None, a.tz if a.tz == b.tz else None)
                          for a, b in zip(lt.index or (), rt.index or ()))
        else:
            src = lt if self.index_from == "left" else rt
            may_miss = how == "outer" or how == ("right" if self.index_from == "left" else "left")
            index = src.index
            if index is not None and may_miss:
                index = tuple(IndexField(f.label, f.dtype if keeps_type_when_missing(f.family) else None
                                         if f.dtype is None or pa.types.is_integer(f.dtype)
                                         or pa.types.is_boolean(f.dtype) else f.dtype, f.level, f.family) for f in index)
        # no columns on either side: pandas appends the two empty column Indexes (two RangeIndexes
        # stay one, two of one dtype keep it, others are object)
        a, b = lt.empty_columns_dtype, rt.empty_columns_dtype
        empty = None if fields else a if a == b else "object"
        return Schema(tuple(fields), index, empty)

    def _categorical_key(self, side: str, name: str, t: Any) -> Any:
        """A key column over categoricals: pandas keeps the categorical when both sides share the
        categories (known from the data only), and gives strings when one side is not categorical."""
        i = (self.left_on if side == "key" else self.right_on).index(name)
        a, b = self.left.schema.dtype_of(self.left_on[i]), self.right.schema.dtype_of(self.right_on[i])
        dict_a = a is not None and pa.types.is_dictionary(a)
        dict_b = b is not None and pa.types.is_dictionary(b)
        if dict_a and dict_b:
            # the data decides: categories that match keep the categorical; different dtypes (one
            # ordered, one not) give strings - unless a side has no rows, where pandas coerces nothing
            return None
        if dict_a or dict_b:
            other = b if dict_a else a
            return STRING if other is not None and pa.types.is_string(other) or other == STRING else None
        return t

    def missing_keys_first(self) -> tuple[bool, ...]:
        """Per key, whether a missing key sorts first where pandas sorts the result (``sort``, outer):
        pandas sorts merge keys by their factorized values - a missing numpy datetime/timedelta (NaT,
        the smallest int64) first, any other missing key last (an ArrowDtype one too: pyarrow
        factorizes it, nulls apart). Both engines' join sorts read this."""
        s = self.left.schema
        return tuple(t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t))
                     and s.family_of(a) not in ARROW_FAMILIES for a in self.left_on for t in [s.dtype_of(a)])

    def undecided_bools(self) -> frozenset[str]:
        """Output names of numpy bool columns of a side that may miss rows: pandas makes them object
        (NaN where missing) exactly where the merge leaves a row missing, and keeps that dtype when a
        later operation drops those rows - the data decides here, not where the result is shown."""
        lt, rt = self.left.schema, self.right.schema
        out = set()
        for f, (label, side, name) in zip(self.schema.columns, self.outputs):
            may_miss = (side == "right" and self.how in ("left", "outer")) or (side == "left" and self.how in ("right", "outer"))
            src = lt if side == "left" else rt
            if may_miss and f.dtype is None and f.family == NUMPY and not self.right_key_from_left_index(name):
                t = src.dtype_of(name)
                if t is not None and pa.types.is_boolean(t) and src.family_of(name) == NUMPY:
                    out.add(f.name)
                elif t is None and name in undecided_bool_sources(self.left if side == "left" else self.right):
                    out.add(f.name)  # an earlier merge's bools: bool where it left none missing
        return frozenset(out)

    def right_key_from_left_index(self, name: str) -> bool:
        """Whether right column ``name`` is a key joined to the left's index (pandas fills it from there)."""
        if name not in self.right_on:
            return False
        return self.left_on[self.right_on.index(name)] in self.left.schema.index_names

    def describe(self) -> str:
        return (f"Join how={self.how} left_on={list(self.left_on)} right_on={list(self.right_on)}"
                f" index={self.index_from}{' sort' if self.sort else ''}")


class MergeIndicator(Plan):
    """merge(indicator=...): the child's two marker columns (``left_mark``/``right_mark``, true where
    the row has a left / right side, missing elsewhere) become pandas' categorical ``label`` column
    ("left_only", "right_only", "both"), last."""

    __slots__ = ("label", "left_mark", "right_mark")
    _non_child = ("label", "left_mark", "right_mark")

    def __init__(self, label: Hashable, left_mark: str, right_mark: str, child: Plan) -> None:
        self._init((child,), label, left_mark, right_mark)

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        cols = tuple(f for f in s.columns if f.name not in (self.left_mark, self.right_mark))
        return Schema(cols + (Field(self.label, pa.dictionary(pa.int32(), STRING)),), s.index)

    def describe(self) -> str:
        return f"MergeIndicator {self.label!r}"


class Union(Plan):
    """concat(axis=0): rows of each child in order; columns are the union in first-seen order.

    Missing columns are null (so pandas decides int->float from the data). The index is the
    children's indexes concatenated (``ignore_index`` gives a new RangeIndex).
    """

    __slots__ = ("ignore_index",)
    _non_child = ("ignore_index",)

    def __init__(self, ignore_index: bool, *children: Plan) -> None:
        self._init(children, ignore_index)

    def _compute_schema(self) -> Schema:
        labels: list[Hashable] = []
        seen: set[str] = set()
        for c in self.children:
            for f in c.schema.columns:
                if f.name not in seen:
                    seen.add(f.name)
                    labels.append(f.label)
        fields = []
        undecided: dict[int, set[str]] = {}

        def undecided_bool(i: int, name: str) -> bool:
            # a merge's bool column a side may miss (bool, or object where it did): bools here
            if i not in undecided:
                undecided[i] = set(undecided_bool_sources(self.children[i]))
            return name in undecided[i]

        for label in labels:
            ts = []
            fams = []
            for c in self.children:
                # a child with columns but not this one adds missing values even with no rows (pandas
                # 3 counts empty frames' columns); one with no columns adds them only if it has rows
                ts.append(c.schema.field(label).dtype if c.schema.has(label) else "missing" if c.schema.columns else "absent")
                fams.append(c.schema.field(label).family if c.schema.has(label) else NUMPY)
            fam = combine_families(*fams)
            present = [t for t in ts if t not in ("missing", "absent")]
            if keeps_type_when_missing(fam) and all(t == present[0] for t in present):
                fields.append(Field(label, present[0], fam))  # NA fills the missing rows: the type stays
            elif (fam == NUMPY or fam in OBJECT_FAMILIES) and "missing" in ts and all(
                    t is not None and pa.types.is_boolean(t) or t is None and undecided_bool(i, Field(label, None).name)
                    for i, t in enumerate(ts) if t not in ("missing", "absent")):
                # pandas 3 reindexes bools to object (NaN) for a child with other columns, rows or not
                # ("missing", as ints to float64): the family says so, so that an op that drops the
                # missing rows later (dropna, a filter) keeps object, as pandas does
                fields.append(Field(label, pa.bool_(), OBJECT))  # (NaN, as below, in an object family too)
            elif "missing" in ts and _object_column(_union_type(ts), fam):
                # an object column (``astype(object)`` of decimals or of a nullable dtype, ``.dt.date``):
                # pandas fills a child's missing column with NaN, whatever marker the column's own
                # missing values have - one marker per column here, so NaN's (``OBJECT``)
                fields.append(Field(label, _union_type(ts), OBJECT))
            else:
                fields.append(Field(label, _union_type(ts), fam))
        # no columns: pandas' union of the column Indexes keeps a typed empty one (str) over a RangeIndex
        empty = None if fields else next((c.schema.empty_columns_dtype for c in self.children
                                          if c.schema.empty_columns_dtype), None)
        # pandas' union of the column Indexes: their common dtype (object Indexes of ints stay object)
        cdtype = None
        if fields and any(c.schema.columns_dtype for c in self.children):
            from pandas.core.dtypes.cast import find_common_type

            common = find_common_type([c.schema.columns_index().dtype for c in self.children if c.schema.columns])
            cdtype = str(common)
        cnames = {c.schema.columns_name for c in self.children}  # (pandas: the name they all have)
        cname = cnames.pop() if len(cnames) == 1 else None
        if self.ignore_index:
            return Schema(tuple(fields), None, empty, cdtype, cname)
        idx = [c.schema.index for c in self.children]
        first = idx[0]
        assert first is not None
        levels = []
        for f in first:
            ts = [i[f.level].dtype if i is not None and len(i) > f.level else None for i in idx]
            # pandas keeps a frequency all the pieces have where they follow on one another (one run)
            freqs = {i[f.level].freq if i is not None and len(i) == 1 else None for i in idx}
            freq = freqs.pop() if len(freqs) == 1 else None
            fams = [i[f.level].family if i is not None and len(i) > f.level else None for i in idx]
            levels.append(IndexField(f.label if all(i is not None and i[f.level].label == f.label for i in idx) else None,
                                     ts[0] if all(t == ts[0] for t in ts) else _finest_time_unit(ts)
                                     or _common_number_type(ts, fams), f.level, f.family,
                                     None if freq is None or isinstance(freq, DeletedFreq) else DeletedFreq(freq)))
        return Schema(tuple(fields), tuple(levels), empty, cdtype, cname)

    def undecided_bools(self) -> frozenset[str]:
        """Output names of numpy bool columns (or an earlier merge's / concat's undecided bools) that a
        child without columns leaves missing if it has rows: pandas makes them object (NaN) exactly
        then, and keeps object when a later operation drops those rows (``Join.undecided_bools``;
        a child with other columns makes them object whatever its rows: the schema's ``OBJECT``)."""
        out = set()
        sources: dict[int, Any] = {}  # each child's undecided bools, walked once (not per column)

        def undecided_below(c: Plan, name: str) -> bool:
            if id(c) not in sources:
                sources[id(c)] = undecided_bool_sources(c)
            return name in sources[id(c)]

        for f in self.schema.columns:
            if f.dtype is not None or f.family != NUMPY:
                continue
            present = [c for c in self.children if c.schema.has(f.label)]
            if len(present) == len(self.children):  # (a child with other columns: OBJECT, above)
                continue
            if all(c.schema.dtype_of(f.name) is not None and pa.types.is_boolean(c.schema.dtype_of(f.name))
                   and c.schema.family_of(f.name) == NUMPY
                   or c.schema.dtype_of(f.name) is None and undecided_below(c, f.name) for c in present):
                out.add(f.name)
        return frozenset(out)

    def widened(self, label: Hashable) -> bool:
        """Whether a child with columns lacks column ``label``: pandas then casts the column to a
        dtype that holds NA (ints to float64) whether or not the child has rows - where the type is
        the data's (None), the engines apply this to the ints they find. A column of an NA family
        (nullable, Arrow) holds NA in its ints: never widened (``boolean % int16`` is Int16, its
        type the data's, and stays Int16 beside a frame without it)."""
        if self.schema.has(label) and keeps_type_when_missing(self.schema.field(label).family):
            return False
        return any(c.schema.columns and not c.schema.has(label) for c in self.children)

    def describe(self) -> str:
        return f"Union{' ignore_index' if self.ignore_index else ''}"


def _object_column(t: Any, fam: str) -> bool:
    """Whether a column of type ``t`` (known) and family ``fam`` is an object column in pandas."""
    return t is not None and t != PYOBJECT and pandas_dtype(t, False, fam) == np.dtype("O")


_TIME_UNITS = ("s", "ms", "us", "ns")


def _finest_time_unit(types: list[Any]) -> pa.DataType | None:
    """Datetimes of one zone (or durations) in several units: pandas' common dtype is the finest
    unit (``concat`` of ``datetime64[us]`` and ``[ns]`` is ``[ns]``); None for other types."""
    if all(t is not None and pa.types.is_timestamp(t) for t in types) and len({t.tz for t in types}) == 1:
        return pa.timestamp(max((t.unit for t in types), key=_TIME_UNITS.index), types[0].tz)
    if all(t is not None and pa.types.is_duration(t) for t in types):
        return pa.duration(max((t.unit for t in types), key=_TIME_UNITS.index))
    return None


def _common_number_type(types: list[Any], families: list[Any]) -> pa.DataType | None:
    """Index levels of numpy numbers of several types: pandas' ``Index.append`` takes numpy's common
    type of them all, empty pieces too (``uint64`` with ``int64`` is float64, ``int8`` with ``uint8``
    int16); None for other types (Polars' own supertype of uint64 and int64 is Int128)."""
    if not all(t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t)) and fam == NUMPY
               for t, fam in zip(types, families)):
        return None
    return pa.from_numpy_dtype(np.result_type(*(np.dtype(t.to_pandas_dtype()) for t in types)))


def _union_type(types: list[Any]) -> pa.DataType | None:
    """The type of a concatenated column from its children's types; "missing": a child with other
    columns (its rows are missing here), "absent": a child with no columns (missing only if it has
    rows). None: decided by the data."""
    present = [t for t in types if t not in ("missing", "absent")]
    if any(t is None for t in present):
        return None
    if len(present) < len(types):
        t0 = _union_type(present)
        if t0 is not None and pa.types.is_integer(t0) and "absent" not in types:
            return pa.float64()  # pandas: the missing rows make ints float64, whether there are any or not
        if t0 is not None and not (pa.types.is_integer(t0) or pa.types.is_boolean(t0)):
            return t0
        return None
    t0 = present[0]
    if all(t == t0 for t in present):
        return t0
    finer = _finest_time_unit(present)
    if finer is not None:
        return finer
    import numpy as np

    try:
        if all(pa.types.is_integer(t) or pa.types.is_floating(t) for t in present):
            return pa.from_numpy_dtype(np.result_type(*[t.to_pandas_dtype() for t in present]))
    except (TypeError, NotImplementedError):
        return None
    return None


ALIGN_JOINS = ("concat", "outer", "left", "mask", "exact")
"""How ``HConcat`` aligns children whose index values differ (the one rule every two-plan combination
declares; engines implement each the same way). Two children whose index columns hold the same
labels in the same order are put side by side as they are, under every rule (pandas'
``index.equals``: no reordering, no missing values). Otherwise:

* ``"concat"`` - ``pd.concat(axis=1)``: the union of the labels, first-seen order (the first
  child's rows, then each later child's new labels).
* ``"outer"`` - a binary operation of two Series (``Index.join(how="outer")``, which sorts): the
  union of the labels sorted ascending, missing labels last; a label on both sides several times
  gives every pair, left-major.
* ``"left"`` - assignment of a Series to a frame (``Series.reindex(frame.index)``): the first
  child's rows in their order; the second child's value at each label, missing where it has none.
  A second child with a duplicate label raises ValueError("cannot reindex on an axis with duplicate
  labels").
* ``"mask"`` - a boolean Series indexing a frame (pandas' ``check_bool_indexer``): "left", and a
  label of the first child missing from the second raises pandas' IndexingError ("Unalignable
  boolean Series provided as indexer ...").
* ``"exact"`` - a comparison of two Series: the labels must be equal, else ValueError("Can only
  compare identically-labeled Series objects").

Children with no index (pandas' default RangeIndex, not stored) align by position under the same
rules: the sorted union of two ranges is the longer range. The frontend gives a default-index child
its positions (``RowIndex``) before it meets a labelled one, and gives plans whose index levels or
types differ to pandas: the engines join like-typed, single- or multi-level index columns only.
"""

def duplicate_labels_message(levels: int) -> str:
    """pandas' ValueError message for reindexing onto labels that hold a duplicate ("left", "mask")."""
    return "cannot handle a non-unique multi-index!" if levels > 1 else "cannot reindex on an axis with duplicate labels"


UNALIGNABLE_MASK = ("Unalignable boolean Series provided as indexer (index of the boolean Series and of the indexed "
                    "object do not match).")


class HConcat(Plan):
    """Children side by side, aligned on their index by the rule ``join`` (``ALIGN_JOINS``)."""

    __slots__ = ("join",)
    _non_child = ("join",)

    def __init__(self, join: str, *children: Plan) -> None:
        if join not in ALIGN_JOINS:
            raise ValueError(f"HConcat join must be one of {ALIGN_JOINS}, got {join!r}")
        self._init(children, join)

    def describe(self) -> str:
        return f"HConcat [{self.join}]"

    def _compute_schema(self) -> Schema:
        fields: list[Field] = []
        for i, c in enumerate(self.children):
            if self.join == "exact" or (self.join in ("left", "mask") and i == 0):  # these rows are never missing
                fields.extend(c.schema.columns)
                continue
            fields.extend(Field(f.label, f.dtype if keeps_type_when_missing(f.family) else None if f.dtype is None
                                or pa.types.is_integer(f.dtype) or pa.types.is_boolean(f.dtype) else f.dtype, f.family)
                          for f in c.schema.columns)
        first = self.children[0].schema.index
        index = None if first is None else tuple(first)
        if index is not None and self.join == "concat":
            # pandas' union of the indexes names each level where every index agrees (else None)
            index = tuple(replace(f, label=f.label if all(c.schema.index is not None and len(c.schema.index) > i
                                                          and c.schema.index[i].label == f.label
                                                          and type(c.schema.index[i].label) is type(f.label)
                                                          for c in self.children) else None)
                          for i, f in enumerate(index))
        cnames = {c.schema.columns_name for c in self.children}
        return Schema(tuple(fields), index, None, None,
                      cnames.pop() if self.join == "concat" and len(cnames) == 1 else None)


def narrow_signed_int(t: Any) -> bool:
    """An int8/16/32 (a type pandas' ``maybe_sequence_to_range`` makes a RangeIndex, int64, of)."""
    return t is not None and pa.types.is_signed_integer(t) and t != pa.int64()


class SetIndex(Plan):
    """Make data columns ``keys`` the index (``append``: after the existing levels); ``drop`` removes them from the data.

    ``as_range``: pandas' ``DataFrame.set_index`` of one column (``ensure_index_from_sequences``),
    which makes a RangeIndex of a numpy signed int column whose values form an arithmetic range
    (``maybe_sequence_to_range``: no rows, or two or more evenly spaced by a nonzero step) - an int64
    index from an int8/16/32 column, decided by the data as the rows are *here* (so nothing that
    changes them may move below this node). Other uses (value_counts, pivots) build an Index as is.
    """

    __slots__ = ("keys", "drop", "append", "as_range")
    _non_child = ("keys", "drop", "append", "as_range")

    def __init__(self, keys: tuple[str, ...], drop: bool, append: bool, as_range: bool, child: Plan) -> None:
        self._init((child,), tuple(keys), drop, append, as_range)

    @property
    def range_key(self) -> str | None:
        """The key whose index type the data decides (int64 where its values form a range), if any."""
        if not self.as_range or self.append or len(self.keys) != 1:
            return None
        s, k = self.child.schema, self.keys[0]
        t = s.dtype_of(k)
        # a type the data decides (a merge's key or a side that may miss rows: int or float64) may
        # be a narrow int too: the engines read the column's own type (``narrow_signed_int``)
        narrow = t is None or narrow_signed_int(t)
        return k if narrow and s.family_of(k) == NUMPY else None

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        by_name = {f.name: f for f in s.columns}
        levels: list[IndexField] = []
        if self.append and s.index is not None:
            levels.extend(s.index)
        for k in self.keys:
            f = by_name[k]
            levels.append(IndexField(f.label, None if k == self.range_key else f.dtype, len(levels), f.family))
        cols = [f for f in s.columns if not (self.drop and f.name in self.keys)]
        return s.with_columns(cols).with_index(tuple(levels))  # no columns left: the labels' Index type stays

    def describe(self) -> str:
        return f"SetIndex {list(self.keys)}{' drop' if self.drop else ''}"


class ResetIndex(Plan):
    """Move the index levels into data columns in front (``drop``: discard them) and use a RangeIndex."""

    __slots__ = ("drop", "labels")
    _non_child = ("drop", "labels")

    def __init__(self, drop: bool, labels: tuple[Hashable, ...], child: Plan) -> None:
        self._init((child,), drop, tuple(labels))

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        if self.drop:
            return s.with_index(None)
        idx = s.index if s.index is not None else (IndexField(None, pa.int64(), 0),)
        front = tuple(Field(lab, f.dtype, f.family, f.tz) for lab, f in zip(self.labels, idx))
        return Schema(front + s.columns, None, None, None, s.columns_name)  # (pandas' insert keeps the name)

    def describe(self) -> str:
        return f"ResetIndex{' drop' if self.drop else ''}"


class RenameIndex(Plan):
    """Set the index level names (labels only: no data moves)."""

    __slots__ = ("labels",)
    _non_child = ("labels",)

    def __init__(self, labels: tuple[Hashable, ...], child: Plan) -> None:
        self._init((child,), tuple(labels))

    def _compute_schema(self) -> Schema:
        s = self.child.schema
        assert s.index is not None
        return s.with_index(tuple(replace(f, label=lab) for lab, f in zip(self.labels, s.index)))


class IndexFreq(RenameIndex):
    """Set the index levels' ``freq`` (pandas' DatetimeIndex metadata; no data moves), with the names.

    A ``RenameIndex`` that also sets the frequency a result's index has in pandas where the plan's
    own rules cannot know it (a resample's bins are labelled by the rule's offset): every pass and
    engine treats it as the rename it also is (``optimizer/simplify.py`` keeps it where the frequency
    changes)."""

    __slots__ = ("freqs",)
    _non_child = ("labels", "freqs")

    def __init__(self, labels: tuple[Hashable, ...], freqs: tuple[Any, ...], child: Plan) -> None:
        self._init((child,), tuple(labels), tuple(freqs))

    def _compute_schema(self) -> Schema:
        s = super()._compute_schema()
        assert s.index is not None
        return s.with_index(tuple(replace(f, freq=q) for f, q in zip(s.index, self.freqs)))

    def describe(self) -> str:
        return f"IndexFreq {list(self.freqs)}"


class Cache(Plan):
    """Marks a subplan the optimizer found used more than once: engines compute it once per run."""

    __slots__ = ()

    def __init__(self, child: Plan) -> None:
        self._init((child,))

    def _compute_schema(self) -> Schema:
        return self.child.schema


class Materialized(Plan):
    """A result an engine already holds (a frame computed earlier): a leaf the optimizer stops at.

    ``data`` wraps the engine-native table; ``engine`` names the engine that owns it.
    """

    __slots__ = ("data", "engine", "result_schema")
    _non_child = ("data", "engine", "result_schema")

    def __init__(self, data: Opaque, engine: str, result_schema: Schema) -> None:
        self._init((), data, engine, result_schema)

    def _compute_schema(self) -> Schema:
        return self.result_schema

    def describe(self) -> str:
        return f"Materialized [{self.engine}]"


SIGNED_ZERO_PREFIX = "__gf_negzero_"


def signed_zero_keys(plan: Plan, names: Sequence[str]) -> tuple[Plan, tuple[str, ...], tuple[str, ...]]:
    """``plan`` with a hidden key column beside each Arrow float key in ``names`` that tells -0.0
    from 0.0 (``1 / x < 0``: True for -0.0 and negative numbers only), and those columns' names.

    pyarrow's hashing keeps the sign of zero, so pandas counts, groups and factorizes -0.0 and 0.0
    of an ``ArrowDtype`` float as two keys (``value_counts``, a ``drop_duplicates`` over several
    columns), where numpy's and the masked hash tables (and the engines') make them one. Keyed on
    the pair (x, sign), the engines group as pyarrow does and nothing else changes: for any other
    value the sign follows from x. Returns (plan, the keys' names in it, the hidden columns' names);
    the caller drops the hidden columns after."""
    from gframe.plan.expr import BinOp, Lit

    extra = [(f"{SIGNED_ZERO_PREFIX}{i}", BinOp("lt", BinOp("truediv", Lit(1.0), Col(n)), Lit(0.0)))
             for i, n in enumerate(names)
             if plan.schema.family_of(n) in ARROW_FAMILIES and plan.schema.dtype_of(n) is not None
             and pa.types.is_floating(plan.schema.dtype_of(n))]
    if not extra:
        return plan, tuple(names), ()
    keep = tuple((f.label, Col(f.name)) for f in plan.schema.columns)
    out = Select((*keep, *extra), plan)
    renamed = {f.name: g.name for f, g in zip(plan.schema.columns, out.schema.columns)}
    return out, tuple(renamed.get(n, n) for n in names), tuple(f.name for f in out.schema.columns[len(keep):])


def floats_where_missing(plan: Plan, name: str) -> bool:
    """Whether pandas tells one column's duplicates (``Series.duplicated``/``drop_duplicates``, and a
    frame's over one column) apart as float64 where the column has a missing value.

    ``ArrowExtensionArray.duplicated`` compares ints and 64-bit times through ``to_numpy(na_value=0)``,
    which is float64 once a value is missing: 2**63-1 and 2**63-2 are then one key, as are any two
    values float64 rounds together. Only 64-bit ints and times can differ that way (narrower ones are
    exact in float64); a frame's duplicates over several columns factorize each exactly. The engines
    take the parameter ``float_when_missing`` of ``duplicated`` (``window.py``)."""
    t = plan.schema.dtype_of(name)
    if plan.schema.family_of(name) not in ARROW_FAMILIES or t is None:
        return False
    if pa.types.is_integer(t) or pa.types.is_temporal(t):
        return t.bit_width == 64
    return False


_ROWS_ONLY = (Filter, Sort, Slice, Take, TopK, Distinct, GroupHead, Cache, RowIndex, RenameIndex)


def undecided_bool_sources(plan: Plan) -> dict[str, tuple[tuple[Join | Union, str], ...]]:
    """The columns of ``plan``'s output that are a merge's undecided bools (``Join.undecided_bools``)
    carried unchanged: output name -> the (join, its output name) pairs its values come from. A
    column follows through operations that only select, reorder or drop rows, selections of the
    column as it is, the rows of a concat (each frame's source), a later merge's non-key column and
    the rows an aligned mask or left join keeps. The engines tell whether a join left such a column
    missing (where pandas made it object, and kept it object whatever drops those rows later). A
    concat with a frame of no columns is such a source too (``Union.undecided_bools``)."""
    memo: dict[int, dict[str, tuple[tuple[Join | Union, str], ...]]] = {}

    def go(node: Plan) -> dict[str, tuple[tuple[Join | Union, str], ...]]:
        hit = memo.get(id(node))
        if hit is not None:
            return hit
        out: dict[str, tuple[tuple[Join | Union, str], ...]] = {}
        names = set(node.schema.names)
        undecided = lambda n: n in names and node.schema.dtype_of(n) is None  # noqa: E731 - decided by the data
        if isinstance(node, Join):
            out = {n: ((node, n),) for n in node.undecided_bools()}
            for f, (_, side, name) in zip(node.schema.columns, node.outputs):
                below = go(node.left if side == "left" else node.right) if side in ("left", "right") else {}
                if name in below and f.dtype is None:
                    out[f.name] = out.get(f.name, ()) + below[name]
                elif side == "key" and f.dtype is None:
                    # a key whose either side is object is object (pandas' common type of the keys)
                    srcs = go(node.left).get(name, ())
                    if name in node.left_on:
                        srcs += go(node.right).get(node.right_on[node.left_on.index(name)], ())
                    if srcs:
                        out[f.name] = out.get(f.name, ()) + srcs
        elif isinstance(node, Union):
            out = {n: ((node, n),) for n in node.undecided_bools()}
            for c in node.children:
                for n, src in go(c).items():
                    if undecided(n):
                        out[n] = out.get(n, ()) + src
        elif isinstance(node, HConcat) and node.join in ("exact", "left", "mask"):
            for i, c in enumerate(node.children):
                if node.join == "exact" or i == 0:
                    out.update({n: src for n, src in go(c).items() if undecided(n)})
        elif isinstance(node, (*_ROWS_ONLY, SetIndex)) or (
                len(node.children) == 1 and node.schema == node.children[0].schema and not isinstance(node, Select)):
            # (and an engine's own node that moves the data as it is: a transfer between devices)
            below = go(node.children[0])
            out = {n: src for n, src in below.items() if undecided(n)}
        elif isinstance(node, Select):
            below = go(node.child)
            for label, e in node.outputs:
                name = Field(label, None).name
                if isinstance(e, Col) and e.name in below and undecided(name):
                    out[name] = below[e.name]
        elif isinstance(node, ResetIndex):
            # the columns stay as they are behind the index levels moved in front of them
            front = {f.name for f in node.schema.columns[:len(node.schema.columns) - len(node.child.schema.columns)]}
            out = {n: src for n, src in go(node.child).items() if undecided(n) and n not in front}
        memo[id(node)] = out
        return out

    return go(plan)


def arrow_null_candidates(plan: Plan) -> frozenset[str]:
    """The columns of ``plan``'s output that may be Arrow's null type (``null[pyarrow]``): an
    ``Aggregate``'s column whose type it leaves to the data in an Arrow family (a decimal's group
    median: double, or the null type where no group has a median), carried unchanged through
    operations that only select or move rows (a concat's rows, a merge's non-key column too). Value methods leave those to pandas (``fillna`` of
    the null type raises ArrowInvalid there), as pandas decides each by the type it sees."""
    memo: dict[int, frozenset[str]] = {}

    def go(node: Plan) -> frozenset[str]:
        hit = memo.get(id(node))
        if hit is not None:
            return hit
        names = set(node.schema.names)
        undecided = lambda n: n in names and node.schema.dtype_of(n) is None  # noqa: E731 - decided by the data
        out: frozenset[str] = frozenset()
        if isinstance(node, Aggregate) and node.keys:
            look = node._lookup()
            fields = node.schema.columns[len(node.schema.columns) - len(node.aggs):]
            out = frozenset(f.name for f, (_, a) in zip(fields, node.aggs)
                            if f.dtype is None and f.family in ARROW_FAMILIES and group_median_decimal(a, look) is not None)
        elif isinstance(node, Union):
            out = frozenset(n for c in node.children for n in go(c) if undecided(n))
        elif isinstance(node, HConcat) and node.join in ("exact", "left", "mask"):
            out = frozenset(n for i, c in enumerate(node.children) if node.join == "exact" or i == 0
                            for n in go(c) if undecided(n))
        elif isinstance(node, Join):
            out = frozenset(f.name for f, (_, side, name) in zip(node.schema.columns, node.outputs)
                            if side in ("left", "right") and f.dtype is None
                            and name in go(node.left if side == "left" else node.right))
        elif isinstance(node, (*_ROWS_ONLY, SetIndex, ResetIndex)) or (
                len(node.children) == 1 and node.schema == node.children[0].schema and not isinstance(node, Select)):
            out = frozenset(n for n in go(node.children[0]) if undecided(n))
        elif isinstance(node, Select):
            below = go(node.child)
            out = frozenset(Field(label, None).name for label, e in node.outputs
                            if isinstance(e, Col) and e.name in below and undecided(Field(label, None).name))
        memo[id(node)] = out
        return out

    return go(plan)


def missing_bool_columns(plan: Plan, missing: Callable[[Join | Union], frozenset[str]]) -> frozenset[str]:
    """The columns of ``plan``'s output (just run) that carry a merge's undecided bools where a
    merge they come from left rows missing: ``missing`` says, for a join the engine ran, which of
    them it did."""
    return frozenset(n for n, srcs in undecided_bool_sources(plan).items()
                     if any(name in missing(join) for join, name in srcs))
