"""GPU kernels: one function per plan node, over device tables (``GpuTable``), each declared with
its placement check.

The GPU twin of ``engines/cpu/kernels.py``: same nodes, same inputs and outputs (columns named by
the schema's internal names, data then index), same pandas semantics. Hash-based libcudf operators
give rows in no particular order, so pandas' order is restored explicitly: group-bys sort their
groups (by key, or by first appearance), joins sort their gather maps (left order, right order for
right joins), drop_duplicates uses the stable variant. ``run`` dispatches by node type.

``@kernel(NodeType, reason=...)`` declares a node's kernel and, beside it, ``reason(node)``: None
where the kernel runs the node, else why the CPU engine does (asked by ``placement.py`` from the
plan alone, before anything runs, also where no GPU library is installed: ``explain()``, the CPU
suite), and, where the plan cannot know enough, ``data_reason(node, inputs)``: the same question
asked of the device inputs just before the kernel runs (a column the plan types None that holds
strings; ``data_reason`` below). A node the GPU engine leaves to the CPU engine is listed in ``HOST_ONLY_NODES`` with its
reason. So a new plan node is one declaration here, as a new function is one in ``rowwise.py`` & co.
This module therefore imports no GPU library: pylibcudf, and ``expressions.py`` (which only the
kernels need), are reached through ``lib.py`` at the first call.
"""
from __future__ import annotations

import math

from functools import singledispatch
from typing import Any, Callable, Sequence

import numpy as np
import pyarrow as pa

from gframe.engines.gpu import categorical, coded, groupcodes, ops, pairwise, segmented
from gframe.engines.gpu.convert import col_type, device_type, plc_type, scalar, upload
from gframe.engines.gpu.kinds import NUMERIC, kind, storable
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.support import agg_reason, expr_reason
from gframe.engines.gpu.table import Deferred, GpuTable, LazyGather
from gframe.errors import IndexingError, UnsupportedError
from gframe.engines.csv import sample_bytes
from gframe.plan import logical as L
from gframe.plan.dtypes import expr_family, expr_type, group_sum_narrow_type, merge_key_type
from gframe.plan.expr import BIVARIATE, Agg, Col, Expr, Lit, columns_used
from gframe.plan.schema import ARROW_FAMILIES, MASKED, NA_FAMILIES, NUMPY, OBJECT_FAMILIES, STRING, Schema, index_name, is_string
from gframe.plan.source import FileSnapshot

BOOL, I32, I64, F64 = pa.bool_(), pa.int32(), pa.int64(), pa.float64()  # (expressions.py's, by value)
INT32_MAX = 2**31 - 1

# --------------------------------------------------------------------------------- declarations

# (the node) -> None where its kernel runs it, else why the CPU engine does
Check = Callable[[Any], "str | None"]
# (the node, its inputs on the device) -> the same, for what only the data tells
DataCheck = Callable[[Any, "list[GpuTable]"], "str | None"]
Kernel = Callable[[Any, "list[GpuTable]"], GpuTable]

# node type -> its placement check, one entry per ``@kernel`` declaration
NODES: dict[type, Check] = {}
# node type -> its check against the data, for the kernels declared with one
DATA_CHECKS: dict[type, DataCheck] = {}

# Plan nodes that run on the CPU engine, and why (``tests/test_registry.py`` checks that every plan
# node is here or declared with ``@kernel``).
HOST_ONLY_NODES: dict[type, str] = {
    L.CompleteGroups: "observed=False groups are completed on the host",
    L.MergeIndicator: "the indicator is a categorical column, built on the host",
}


def always(node: L.Plan) -> str | None:
    """The check of a node whose kernel runs every instance the plan can build."""
    return None


@singledispatch
def run(node: L.Plan, inputs: list[GpuTable]) -> GpuTable:
    raise UnsupportedError(f"gpu engine has no kernel for {type(node).__name__}")


def kernel(node_type: type, reason: Check = always, data_reason: DataCheck | None = None) -> Callable[[Kernel], Kernel]:
    """Declare the decorated function as the GPU kernel of ``node_type``, run where ``reason(node)``
    is None (``placement.py`` first checks that the device stores every column the node reads and
    writes) and, given, ``data_reason(node, inputs)`` too (asked by the engine before the kernel)."""

    def register(fn: Kernel) -> Kernel:
        if node_type in NODES or node_type in HOST_ONLY_NODES:
            raise ValueError(f"GPU kernel of {node_type.__name__} declared twice")
        NODES[node_type] = reason
        if data_reason is not None:
            DATA_CHECKS[node_type] = data_reason
        return run.register(node_type, fn)

    return register


def data_reason(node: L.Plan, inputs: list[GpuTable]) -> str | None:
    """What the plan could not know: None where the node's kernel runs on these device inputs, else
    why the CPU engine runs it (asked by the engine once the inputs are on the device)."""
    r = categorical.data_reason(node, inputs)
    if r is not None:
        return r
    check = DATA_CHECKS.get(type(node))
    return None if check is None else check(node, inputs)


_NUMERIC_KINDS = ("int", "uint", "float", "bool")


def untyped_columns_reason(schema: Schema, exprs: Sequence[Expr], t: GpuTable) -> str | None:
    """A column the plan types None ("decided by the data", taken to be numeric by placement) that
    an expression reads, holding something else than numbers. A categorical's device column is
    its int32 codes (``categorical.py``): read as numbers, a median would be the codes' median (an
    outer merge of categorical keys types its key None), so it is not numbers either."""
    names = set().union(*(columns_used(e) for e in exprs)) if exprs else set()
    for n in sorted(names):
        if schema.dtype_of(n) is None and t.has(n) and n in t.categories:
            return f"column {n!r} holds a categorical, not numbers"
        if schema.dtype_of(n) is None and t.has(n) and kind(col_type(t.column(n))) not in _NUMERIC_KINDS:
            return f"column {n!r} holds {col_type(t.column(n))}, not numbers"
    return None


# ------------------------------------------------------------------------------------- helpers

def order_args(descending: Sequence[bool], nulls_last: bool) -> tuple[list[Any], list[Any]]:
    """libcudf's column order and null precedence (null precedence is relative to the order)."""
    Order, NullOrder = plc.types.Order, plc.types.NullOrder
    orders = [Order.DESCENDING if d else Order.ASCENDING for d in descending]
    nulls = [NullOrder.BEFORE if d == nulls_last else NullOrder.AFTER for d in descending]
    return orders, nulls


def ascending(n: int) -> tuple[list[Any], list[Any]]:
    """libcudf's order and null precedence of ``n`` key columns sorted ascending, missing values last."""
    return order_args([False] * n, True)


def sequence(n: int, t: pa.DataType = I64) -> Any:
    return plc.filling.sequence(n, scalar(0, t), scalar(1, t))


def lazy_gather(t: GpuTable, gather_map: Any, nullify: bool = False) -> GpuTable:
    """``gather(t, gather_map, nullify)`` whose columns are gathered when first read
    (``table.LazyGather``): a join's sides, of which a later query may read a few columns."""
    if not t.names:
        return GpuTable([], [], gather_map.size())
    lazy = LazyGather([t.column(n) for n in t.names], gather_map, nullify)
    return GpuTable(t.names, [Deferred(lazy, i) for i in range(len(t.names))], gather_map.size())


def gather(t: GpuTable, gather_map: Any, nullify: bool = False) -> GpuTable:
    if not t.columns:
        return GpuTable([], [], gather_map.size())
    policy = plc.copying.OutOfBoundsPolicy.NULLIFY if nullify else plc.copying.OutOfBoundsPolicy.DONT_CHECK
    out = plc.copying.gather(plc.Table(t.columns), gather_map, policy)
    return GpuTable(t.names, out.columns(), gather_map.size())


def boolean_mask(t: GpuTable, mask: Any) -> GpuTable:
    fn = getattr(plc.stream_compaction, "apply_retention_mask", None) or plc.stream_compaction.apply_boolean_mask
    if not t.columns:
        kept = fn(plc.Table([sequence(t.num_rows, I32)]), mask)
        return GpuTable([], [], kept.num_rows())
    out = fn(plc.Table(t.columns), mask)
    return GpuTable(t.names, out.columns(), out.num_rows())


def slice_rows(t: GpuTable, start: int, stop: int) -> GpuTable:
    n = t.num_rows
    start, stop = min(max(start, 0), n), min(max(stop, 0), n)
    stop = max(stop, start)
    if start == 0 and stop == n:
        return t
    if not t.columns:
        return GpuTable([], [], stop - start)
    part = plc.copying.slice(plc.Table(t.columns), [start, stop])[0]
    return GpuTable(t.names, part.columns(), stop - start)


def sort_table(t: GpuTable, keys: Sequence[Any], descending: Sequence[bool], nulls_last: bool) -> GpuTable:
    """A stable sort of ``t`` by the key columns."""
    if t.num_rows <= 1 or not keys:
        return t
    orders, nulls = order_args(descending, nulls_last)
    order = plc.sorting.stable_sorted_order(plc.Table(list(keys)), orders, nulls)
    return gather(t, order)


def promote_missing(t: GpuTable, schema: Schema) -> GpuTable:
    """pandas' value-dependent dtype: an int column whose plan type is None and that holds
    missing values becomes float64 (``engines/cpu/kernels.promote_missing``); not in an NA family,
    whose missing value an int holds."""
    casts = []
    for f in list(schema.columns) + list(schema.index or ()):
        if f.dtype is None and t.has(f.name) and f.family not in NA_FAMILIES:
            col = t.column(f.name)
            if pa.types.is_integer(col_type(col)) and col.null_count() > 0:
                casts.append((f.name, plc.unary.cast(col, plc_type(F64))))
    return t.with_columns(casts) if casts else t


def finish(names: Sequence[str], cols: Sequence[Any], n: int, schema: Schema) -> GpuTable:
    return promote_missing(GpuTable(names, cols, n), schema)


def all_null(t: pa.DataType, n: int) -> Any:
    return plc.Column.from_scalar(scalar(None, t), n)


# ---------------------------------------------------------------------------------------- scans

def _in_memory_reason(node: L.InMemoryScan) -> str | None:
    table = node.table.value
    if not isinstance(table, pa.Table) or table.num_columns == 0:
        return "an in-memory table without columns"
    for f in table.schema:
        t = f.type
        if pa.types.is_string(t) or pa.types.is_string_view(t):
            t = STRING
        if not storable(t):
            return f"column {f.name!r} of type {f.type} is not stored on the GPU"
    return None


@kernel(L.InMemoryScan, reason=_in_memory_reason)
def _(node: L.InMemoryScan, inputs: list[GpuTable]) -> GpuTable:
    # uploaded once and kept on the source for as long as the user's frame lives (plan/source.py)
    t = node.table.resident("gpu", lambda: upload(node.table.value))
    return t.select(node.schema.all_names)


# pandas' spellings of booleans in a CSV file
CSV_TRUE, CSV_FALSE = ["True", "TRUE", "true"], ["False", "FALSE", "false"]


# read_csv options the GPU reader takes (others, and parse_dates, parse on the CPU); ``dtype``: the
# plan's types already say it (the sample was parsed with it), and the reader's types are checked
# against them; ``header``: 0 or "infer" (the only values a lazy scan takes)
CSV_OPTIONS = frozenset({"sep", "delimiter", "usecols", "dtype", "header"})


def _csv_reason(node: L.CsvScan) -> str | None:
    other = sorted(k for k, v in node.options if not k.startswith("__gf_") and k not in CSV_OPTIONS
                   or k == "header" and v not in (0, "infer"))
    if other:
        return f"read_csv option(s) {other} (parsed on the CPU)"
    for f in node.schema.columns:
        if f.dtype is None or not (is_string(f.dtype) or pa.types.is_boolean(f.dtype)
                                   or pa.types.is_integer(f.dtype) or pa.types.is_floating(f.dtype)):
            return f"CSV column {f.label!r} of type {f.dtype} (parsed on the CPU)"
    return None


@kernel(L.CsvScan, reason=_csv_reason)
def _(node: L.CsvScan, inputs: list[GpuTable]) -> GpuTable:
    """libcudf's CSV reader, straight to the device, parsing only the columns the plan needs.

    The plan's types come from the file's first 16 MiB parsed with pandas' rules (``engines/csv.py``);
    text and boolean columns are read as such, numbers as libcudf infers them from the whole file:
    ints become the plan's float where it says float (pandas' int column with missing values), and
    any other difference raises, as on the CPU engine (pandas would have given another dtype)."""
    fields = node.schema.columns
    labels = [f.label for f in fields]
    sep = node.option("sep", node.option("delimiter", ","))
    builder = plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([node.path])).delimiter(sep)
    if node.n_rows is not None:
        builder = builder.nrows(node.n_rows)
    opts = builder.build()
    opts.set_use_cols_names(labels)
    fixed = {f.label: plc_type(f.dtype) for f in fields if is_string(f.dtype) or pa.types.is_boolean(f.dtype)}
    if fixed:
        opts.set_dtypes(fixed)
    if any(pa.types.is_boolean(f.dtype) for f in fields):
        opts.set_true_values(CSV_TRUE)
        opts.set_false_values(CSV_FALSE)
    res = plc.io.csv.read_csv(opts)
    by_label = dict(zip(res.column_names(), res.tbl.columns()))
    cols = []
    typed = {k for k, _ in dict(node.options)["dtype"][1]} if node.option("dtype") else set()
    for f in fields:
        col = by_label[f.label]
        have, want = col_type(col), f.dtype
        widen = pa.types.is_floating(want) and (pa.types.is_integer(have) or pa.types.is_floating(have))
        if f.label in typed and pa.types.is_integer(want) and pa.types.is_integer(have) and have != want:
            _check_fits(col, want, labels.index(f.label))  # dtype={"a": "int32"}: pandas refuses values that do not fit
            widen = True
        if have != want and not widen or pa.types.is_integer(want) and col.null_count():
            if f.label in typed and pa.types.is_integer(want) and col.null_count():
                raise ValueError(f"Integer column has NA values in column {labels.index(f.label)}")
            raise ValueError(
                f"read_csv({node.path!r}): column {f.label!r} was inferred as {want} from the first "
                f"{sample_bytes(node) >> 20} MiB of the file but is {'float64' if col.null_count() else have} "
                f"in the whole file; pass dtype={{{f.label!r}: ...}} to read_csv")
        cols.append(E.cast(col, want) if have != want else col)
    return GpuTable([f.name for f in fields], cols, res.tbl.num_rows())


def _fits_int(col: Any, narrow: pa.DataType) -> bool:
    """Whether every value of the integer column ``col`` fits the integer type ``narrow`` (no values:
    yes). One min/max pair read back: a check inside the operator that needs it (a CSV ``dtype=``,
    a group sum's pandas type), not a trip between operators."""
    lo, hi = (plc.reduce.reduce(col, agg, col.type()).to_py() for agg in (plc.aggregation.min(), plc.aggregation.max()))
    info = np.iinfo(narrow.to_pandas_dtype())
    return lo is None or info.min <= lo <= hi <= info.max


def _int_sum_inexact(col: Any) -> bool:
    """Whether an integer column's group sums could reach 2**53 (the largest magnitude times the
    count of values), past which libcudf's int64 SUM (and its MEAN, that SUM over the count) is
    not pandas' float64 sum of the values as float64: it rounds, and past 2**63 wraps around
    (seed 803616: a group mean of [2**63 - 2, 5] was -4.6e18 on the H100). One min/max pair read
    back, as ``_fits_int``."""
    n = col.size() - col.null_count()
    return n > 0 and _largest_magnitude(col) * n >= 2 ** 53


def _largest_magnitude(col: Any) -> Any:
    """max |x| over ``col``'s values (at least one; an int as a Python int, exact), from one min/max
    pair read back: how large a sum of them can get (``_int_sum_inexact``, ``exact_sums``)."""
    lo, hi = (plc.reduce.reduce(col, agg, col.type()).to_py() for agg in (plc.aggregation.min(), plc.aggregation.max()))
    return max(abs(lo), abs(hi))


def _check_fits(col: Any, want: pa.DataType, position: int) -> None:
    """A CSV integer column read as int64 narrowed to ``dtype=``'s width: pandas raises where a value
    does not fit."""
    if not _fits_int(col, want):
        raise ValueError(f"cannot safely convert passed user dtype of {want.to_pandas_dtype().__name__} for "
                         f"int64 dtyped data in column {position}")


def _parquet_reason(node: L.ParquetScan) -> str | None:
    if node.predicate is not None:
        return expr_reason(node.predicate, node.file_schema.dtype_of)
    return None


@kernel(L.ParquetScan, reason=_parquet_reason)
def _(node: L.ParquetScan, inputs: list[GpuTable]) -> GpuTable:
    """libcudf's parquet reader, straight to the device, for the columns the plan needs and the row
    groups whose statistics let the filter (or the row limit) keep rows; what it reads stays on the
    device with the file's snapshot (``plan/source.py``) for as long as the user's frame lives, so a
    later query reads nothing it already has. The filter runs on the device. ``row_index``: the
    file's row positions, numbered before the filter (from the row groups' offsets)."""
    src = node.source
    if src is None:  # (scans come from io.parquet.parquet_plan, which gives each its file's snapshot)
        raise UnsupportedError(f"ParquetScan of {node.path!r} without its file snapshot")
    reverse = {v: k for k, v in node.file_columns}  # internal -> file column
    want = node.schema.all_names
    rid = index_name(0) if node.row_index else None
    needed = [n for n in want if n != rid]
    if node.predicate is not None:
        needed += [n for n in sorted(_columns_of(node.predicate)) if n not in needed]
    if not needed:  # only the row count: any one column gives it
        needed = [node.file_columns[0][1]]
    files = [reverse[n] for n in needed]
    groups = src.row_groups(node.predicate, node.file_schema.dtype_of, reverse, node.n_rows)
    if not groups:  # the statistics rule out every row group
        t = upload(src.read(files, []).rename_columns(needed))
    else:
        cols, todo = src.missing("gpu", files, groups)
        if cols:
            src.store("gpu", _read_parquet(src, cols, todo), todo, _slice_column)
        t = GpuTable(needed, [src.assemble("gpu", f, groups, _slice_column, plc.concatenate.concatenate)
                              for f in files], sum(src.sizes[g] for g in groups))
    # the plan's types (a file may store strings as another Arrow string type: the same on the device)
    types = {n: node.file_schema.dtype_of(n) for n in needed}
    t = t.with_columns([(n, E.cast(t.column(n), types[n])) for n in needed
                        if types[n] is not None and col_type(t.column(n)) != device_type(types[n])])
    if rid is not None:
        parts = [plc.filling.sequence(src.sizes[g], scalar(src.starts[g], I64), scalar(1, I64)) for g in groups]
        ids = plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0] if parts else all_null(I64, 0)
        t = t.with_columns([(rid, ids)])
    if node.predicate is not None:
        t = boolean_mask(t, E.Evaluator(t, node.file_schema.dtype_of).mask(node.predicate))
    if node.n_rows is not None:
        t = slice_rows(t, 0, int(node.n_rows))
    return t.select(want)


def _read_parquet(src: FileSnapshot, names: list[str], groups: list[int]) -> dict[str, Any]:
    """File columns of some row groups on the device: libcudf's reader from the file, or an upload
    of the host copy kept when gframe overwrote the file."""
    if src.preserved:
        t = upload(src.read(names, groups))
        return {n: t.column(n) for n in names}
    src.check()
    opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([src.path])) \
        .column_names(names).use_pandas_metadata(False).build()
    if len(groups) != len(src.sizes):
        opts.set_row_groups([groups])
    res = plc.io.parquet.read_parquet(opts)
    return dict(zip(res.column_names(), res.tbl.columns()))


def _slice_column(col: Any, offset: int, length: int) -> Any:
    return plc.copying.slice(col, [offset, offset + length])[0]


def _columns_of(e: Expr) -> set[str]:
    return {n.name for n in e.walk() if isinstance(n, Col)}


# ------------------------------------------------------------------------------- row-wise ops

def _select_reason(node: L.Select) -> str | None:
    look = node.child.schema.dtype_of
    for _, e in node.outputs:
        r = expr_reason(e, look)
        if r is not None:
            return r
    if not node.outputs and not node.schema.index_names:
        return "a selection of no columns"
    return None


def _select_data_reason(node: L.Select, inputs: list[GpuTable]) -> str | None:
    return untyped_columns_reason(node.child.schema, [e for _, e in node.outputs if not isinstance(e, Col)], inputs[0])


@kernel(L.Select, reason=_select_reason, data_reason=_select_data_reason)
def _(node: L.Select, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    ev = E.Evaluator(t, node.child.schema.dtype_of)
    cols = []
    for f, (label, e) in zip(node.schema.columns, node.outputs):
        want = f.dtype if isinstance(e, Lit) and f.dtype is not None else None
        cols.append(ev.column(e, want))
    cols += [t.column(n) for n in node.schema.index_names]
    return finish(node.schema.all_names, cols, t.num_rows, node.schema)


def _filter_reason(node: L.Filter) -> str | None:
    look = node.child.schema.dtype_of
    r = expr_reason(node.predicate, look)
    if r is None and kind(expr_type(node.predicate, look)) not in ("bool", "num?"):
        return "a filter whose predicate is not bool"
    return r


def _filter_data_reason(node: L.Filter, inputs: list[GpuTable]) -> str | None:
    return untyped_columns_reason(node.child.schema, [node.predicate], inputs[0])


@kernel(L.Filter, reason=_filter_reason, data_reason=_filter_data_reason)
def _(node: L.Filter, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    return boolean_mask(t, E.Evaluator(t, node.child.schema.dtype_of).mask(node.predicate))


@kernel(L.RowIndex)
def _(node: L.RowIndex, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    return t.with_columns([(index_name(0), sequence(t.num_rows, I64))]).select(node.schema.all_names)


def _sort_reason(node: L.Sort | L.TopK) -> str | None:
    for b in node.by:
        if kind(node.child.schema.dtype_of(b)) == "other":
            return f"sort by {b!r}"
    return None


@kernel(L.Sort, reason=_sort_reason)
def _(node: L.Sort, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    return sort_table(t, [t.column(b) for b in node.by], node.descending, node.nulls_last)


@kernel(L.TopK, reason=_sort_reason)
def _(node: L.TopK, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    if node.k <= 0:
        return slice_rows(t, 0, 0)
    keys, desc = [t.column(b) for b in node.by], list(node.descending)
    if node.ties_last and t.num_rows > node.k:
        # ties by position descending, rows with a missing first key in their order (TopK's doc):
        # one more key, n - position where the first key is valid, else the position
        n = t.num_rows
        pos = sequence(n, I64)
        back = plc.binaryop.binary_operation(scalar(n, I64), pos, plc.binaryop.BinaryOperator.SUB, plc_type(I64))
        valid = plc.unary.is_valid(keys[0])
        keys.append(plc.copying.copy_if_else(back, pos, valid))
        desc.append(False)
    return slice_rows(sort_table(t, keys, desc, node.nulls_last), 0, node.k)


@kernel(L.Slice)
def _(node: L.Slice, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    n = t.num_rows
    off = node.offset if node.offset >= 0 else max(n + node.offset, 0)
    stop = n if node.length is None else off + node.length
    return slice_rows(t, off, stop)


_KEEP = {"first": "KEEP_FIRST", "last": "KEEP_LAST", "none": "KEEP_NONE"}


@kernel(L.Distinct)
def _(node: L.Distinct, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    subset = list(node.subset) or node.child.schema.names
    if not subset or t.num_rows == 0:
        return t
    keys = [t.names.index(s) for s in subset]
    keep = getattr(plc.stream_compaction.DuplicateKeepOption, _KEEP[node.keep])
    out = plc.stream_compaction.stable_distinct(plc.Table(t.columns), keys, keep, plc.types.NullEquality.EQUAL,
                                                plc.types.NanEquality.ALL_EQUAL)
    return GpuTable(t.names, out.columns(), out.num_rows())


def _repeat_reason(node: L.Repeat) -> str | None:
    counts = node.repeats if isinstance(node.repeats, int) else sum(node.repeats)
    return f"repeat to more than {INT32_MAX} rows (libcudf's row limit)" if counts > INT32_MAX else None


@kernel(L.Repeat, reason=_repeat_reason)
def _(node: L.Repeat, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    if isinstance(node.repeats, int):
        count: Any = node.repeats
        n = t.num_rows * node.repeats
    else:  # one count per row, a column on the device (libcudf: integral, without nulls)
        count = plc.Column.from_arrow(pa.array(node.repeats, type=pa.int32()))
        n = sum(node.repeats)
    if not t.columns:
        return GpuTable([], [], n)
    out = plc.filling.repeat(plc.Table(t.columns), count)
    return GpuTable(t.names, out.columns(), out.num_rows())


# ---------------------------------------------------------------------------------- group-by

class AggPlan:
    """How one gframe aggregation runs in libcudf: the value column's preparation, the libcudf
    aggregation, and the result's fix-ups (a group of only missing values, the inferred type)."""

    def __init__(self, a: Agg, ev: E.Evaluator) -> None:
        self.a = a
        self.fn = a.fn
        self.out_type = ev.type_of(a)
        child_t = ev.type_of(a.child) if a.fn != "size" else None
        self.child_kind = kind(child_t)

    def values(self, ev: E.Evaluator) -> Any:
        """The column the aggregation reads (bools as numbers where libcudf needs them)."""
        fn, k = self.fn, self.child_kind
        if fn == "size":
            return None
        if fn in BIVARIATE:
            return pair_column(ev.column(self.a.child), ev.column(self.a.other))
        x = ev.column(self.a.child)
        if fn in ("any", "all"):
            return plc.unary.cast(E.cast(x, BOOL), plc_type(pa.int8()))
        if k == "bool" and fn in ("sum", "mean", "median", "std", "var", "prod"):
            return plc.unary.cast(x, plc_type(I64))
        if k == "bool" and fn in ("min", "max"):
            return plc.unary.cast(x, plc_type(pa.int8()))
        return x

    def aggregation(self) -> Any:
        A = plc.aggregation
        fn = self.fn
        if fn == "size":
            return A.count(plc.types.NullPolicy.INCLUDE)
        if fn == "count":
            return A.count(plc.types.NullPolicy.EXCLUDE)
        if fn == "nunique":
            return A.nunique(plc.types.NullPolicy.EXCLUDE if self.a.param("dropna", True) else plc.types.NullPolicy.INCLUDE)
        if fn in ("first", "last"):
            return A.nth_element(0 if fn == "first" else -1, plc.types.NullPolicy.EXCLUDE)
        if fn in ("std", "var"):
            return getattr(A, ops.AGGREGATIONS[fn])(ddof=int(self.a.param("ddof", 1)))
        if fn == "corr":  # pandas' min_periods=1: a group of one pair gives NaN, as the variance is 0
            return A.correlation(A.CorrelationType.PEARSON, 1)
        if fn == "cov":
            return A.covariance(1, int(self.a.param("ddof", 1)))
        return getattr(A, ops.AGGREGATIONS[fn])()

    def fix(self, col: Any) -> Any:
        fn = self.fn
        if fn in ("any", "all", "min", "max") and (fn in ("any", "all") or self.child_kind == "bool"):
            col = plc.unary.cast(col, plc_type(BOOL))
        if fn in ops.EMPTY_GROUP and col.null_count() > 0:
            t = col_type(col)
            col = plc.replace.replace_nulls(col, scalar(ops.EMPTY_GROUP[fn], t))
        if fn in ("count", "size", "nunique"):
            col = E.cast(col, I64)
        if self.out_type is not None and not pa.types.is_dictionary(self.out_type):
            col = E.cast(col, self.out_type)
        return E.nan_to_null(col)


def pair_column(x: Any, y: Any) -> Any:
    """The struct column libcudf's correlation / covariance read, as float64 pairs, with both
    values missing where either is (pandas' pairwise-complete rows; NaN counts as missing)."""
    x = plc.transform.column_nans_to_nulls(E.cast(x, F64))
    y = plc.transform.column_nans_to_nulls(E.cast(y, F64))
    if x.null_count() or y.null_count():
        missing = scalar(None, F64)
        x, y = (plc.copying.copy_if_else(x, missing, plc.unary.is_valid(y)),
                plc.copying.copy_if_else(y, missing, plc.unary.is_valid(x)))
    # the struct itself must have no null mask (libcudf); its children carry the missing values
    return plc.Column(plc.DataType(plc.TypeId.STRUCT), x.size(), None, None, 0, 0, [x, y])


def _aggregate_keys(node: L.Aggregate) -> list[str]:
    if node.keys_as_index:
        return [f.name for f in (node.schema.index or ())]
    return [f.name for f in node.schema.columns[: len(node.keys)]]


def _aggregate_reason(node: L.Aggregate) -> str | None:
    look = node.child.schema.dtype_of
    if not node.aggs and not node.keys:
        return "an aggregation of nothing"
    if not node.keys and any(a.fn in BIVARIATE for _, a in node.aggs):
        return "corr / cov of a whole column (libcudf reduces these only per group)"
    out = node.schema.index_names if node.keys_as_index else [f.name for f in node.schema.columns[: len(node.keys)]]
    if any(node.child.schema.family_of(k) in OBJECT_FAMILIES and node.schema.dtype_of(n) is None
           for k, n in zip(node.keys, out)):
        return "an object column's group keys (pandas infers their Index from the values: the CPU engine's _inferred_keys)"
    if any(node.child.schema.dtype_of(k) is None for k in node.keys) and set(node.keys) & set(L.undecided_bool_sources(node.child)):
        return "a merge's bools a side may miss as group keys (object where it did: the CPU engine's _inferred_keys)"
    for _, a in node.aggs:
        r = agg_reason(a, look)
        if r is not None:
            return r
        if a.fn == "prod" and expr_type(a.child, look) in (pa.float32(), pa.float16()):
            # numpy multiplies float32 in float32 one value after another (pandas' group kernel too);
            # libcudf's tree order rounds otherwise, past the fuzzer's 1e-9 (seed 997958)
            return f"{'group ' if node.keys else ''}prod of {expr_type(a.child, look)} (numpy's order)"
        if not node.keys and a.fn in ("std", "var") \
                and expr_family(a.child, node.child.schema.family_of, look) in ARROW_FAMILIES:
            # pandas reduces an ArrowDtype column with pyarrow's blockwise variance, whose last bits
            # (a tiny std of equal values, not 0) the CPU engine takes from pyarrow (``_arrow_variance``)
            return f"whole ArrowDtype column's {a.fn} (pyarrow's kernel)"
        if node.keys and a.fn == "std" and expr_type(a.child, look) == pa.float32():
            # float32 or float64 by the values (``plan.dtypes.group_float32_downcast``): the CPU engine decides
            return "group std of float32 (pandas types it by the values)"
        if node.keys and a.fn in ("sum", "mean", "var") and expr_type(a.child, look) == pa.float32():
            # pandas' float32 group kernels (float32 Kahan / Welford, or reduceat on rows in group
            # order, mean float64 there): the CPU engine models them, libcudf accumulates otherwise
            return f"group {a.fn} of float32"
    return None


def _aggregate_data_reason(node: L.Aggregate, inputs: list[GpuTable]) -> str | None:
    return untyped_columns_reason(node.child.schema, [a.child for _, a in node.aggs if a.fn != "size"], inputs[0])


@kernel(L.Aggregate, reason=_aggregate_reason, data_reason=_aggregate_data_reason)
def _(node: L.Aggregate, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    agg_names = [f.name for f in node.schema.columns[-len(node.aggs):]] if node.aggs else []
    if not node.keys:
        return _reduce(node, t, agg_names)
    if node.dropna:
        keys_idx = [t.names.index(k) for k in node.keys]
        kept = plc.stream_compaction.drop_nulls(plc.Table(t.columns), keys_idx, len(keys_idx))
        t = GpuTable(t.names, kept.columns(), kept.num_rows())
    ev = E.Evaluator(t, node.child.schema.dtype_of)
    plans = [AggPlan(a, ev) for _, a in node.aggs]
    for ap in plans:
        if ap.fn == "mean" and ap.child_kind in ("int", "uint") and _int_sum_inexact(ev.column(ap.a.child)):
            # pandas' group mean sums the values as float64: a float mean, over the sorted runs
            ap.child_kind = "float"
    # one request per distinct value expression, carrying every aggregation of it
    requests: list[tuple[Any, list[int]]] = []
    by_expr: dict[Any, int] = {}
    key_cols = [t.column(k) for k in node.keys]
    for i, ap in enumerate(plans):
        expr = ("size",) if ap.fn == "size" else ("pair", ap.a.children) if ap.fn in BIVARIATE else (
            ap.a.child, ap.fn in ("any", "all"), ap.child_kind == "bool")
        j = by_expr.get(expr)
        if j is None:
            values = ap.values(ev) if ap.fn != "size" else key_cols[0]
            by_expr[expr] = j = len(requests)
            requests.append((values, []))
        requests[j][1].append(i)
    # order-sensitive aggregations (float sums and moments) reduce over the rows sorted by the keys
    # (``SortedGroups``), the rest in libcudf's hash group-by, whose groups are then sorted by key too
    ordered = [i for i, ap in enumerate(plans) if on_sorted_runs(ap)] if t.num_rows else []
    if ordered and all(plans[i].fn in ("sum", "mean") and plans[i].child_kind == "float" for i in ordered) \
            and all(exact_sums(values) for values, idx in requests if set(idx) & set(ordered)):
        # every one of them a float sum or mean whose partial sums are all exact: any order of addition
        # gives the same bits, so the hash group-by adds them and no runs are needed (TPC-H q18's
        # l_quantity). Where some other needs the runs, these are summed over the runs too: one
        # kernel there, where libcudf's group-by over the runs would first gather the column into
        # run order (q1 on the H100: slower that way).
        ordered = []
    sg: GroupLayout | None = None
    if ordered:  # few groups of many rows: no runs (``coded``); else the runs
        sg = CodedGroups.find(key_cols, t.num_rows) if CodedGroups.usable(plans, ordered) else None
        sg = sg or SortedGroups(key_cols, t.num_rows)
    if sg is not None:
        requests = [(values, [i for i in idx if i not in ordered]) for values, idx in requests]
        requests = [r for r in requests if r[1]]
        if sg.hashed:
            return _aggregate_runs(node, sg, key_cols, plans, requests, ordered, agg_names, ev)
    elif not node.sort:  # first appearance of each group: the smallest row position in it
        requests.append((sequence(t.num_rows, I32), [-1]))
    key_out = _aggregate_keys(node)
    first = "__gf_first_row"
    if requests or sg is None:
        reqs = [plc.groupby.GroupByRequest(values, [plans[i].aggregation() if i >= 0 else plc.aggregation.min()
                                                    for i in idx]) for values, idx in requests]
        gb = plc.groupby.GroupBy(plc.Table(key_cols), null_handling=plc.types.NullPolicy.INCLUDE)
        keys_out, results = gb.aggregate(reqs)
        names, cols = [], []
        for (values, idx), res in zip(requests, results):
            for i, col in zip(idx, res.columns()):
                names.append(first if i < 0 else agg_names[i])
                cols.append(col if i < 0 else _narrowed(plans[i].fix(col), group_sum_narrow_type(
                    plans[i].a, node.child.schema.dtype_of)))
        keys = list(keys_out.columns())
        tbl = GpuTable(key_out + names, keys + cols, keys_out.num_rows())
        if node.sort or sg is not None:
            tbl = sort_table(tbl, keys, [False] * len(keys), True)
    else:
        assert sg is not None
        tbl = GpuTable(key_out, sg.group_keys(key_cols), sg.groups)
    if sg is not None:  # its groups are in key order, as the sorted hash group-by's
        tbl = tbl.with_columns([(agg_names[i], plans[i].fix(sg.aggregate(plans[i], ev))) for i in ordered]
                               + [(first, sg.first_rows)])
    if not node.sort:
        tbl = gather(tbl, plc.sorting.sorted_order(plc.Table([tbl.column(first)]), *ascending(1)))
    return promote_missing(tbl.select(node.schema.all_names), node.schema)


def _aggregate_runs(node: L.Aggregate, sg: "GroupLayout", key_cols: list[Any], plans: list[AggPlan],
                    requests: list[tuple[Any, list[int]]], ordered: list[int], agg_names: list[str],
                    ev: E.Evaluator) -> GpuTable:
    """The group-by over ``sg``'s runs found by hashing (groups in hash order), then put in pandas'
    order: by key (a sort of the distinct keys only) or by first appearance (an integer sort).

    The order-sensitive aggregations reduce over the runs (``SortedGroups.aggregate``); the rest go
    to libcudf's sort-based group-by over the run numbers, which are in order already
    (``keys_are_sorted``: no sort, one segmented pass) - instead of a second group-by on the keys
    themselves and a sort of its groups. Their results are exact (integer sums, counts, min, max,
    first, nunique, ...), the same as the hash group-by's; "first" / "last" read each run in row
    order, as pandas does."""
    if node.sort:
        keys = sg.group_keys(key_cols)  # (in hash order)
        out_order = plc.sorting.stable_sorted_order(plc.Table(keys), *ascending(len(keys)))
        keys = plc.copying.gather(plc.Table(keys), out_order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    else:  # first rows are distinct: any sort gives the one order
        out_order = plc.sorting.sorted_order(plc.Table([sg.first_rows]), *ascending(1))
        first = plc.copying.gather(plc.Table([sg.first_rows]), out_order,
                                   plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
        keys = plc.copying.gather(plc.Table(key_cols), first, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    names, cols = [], []
    # medians of values without missing ones: each run sorted on its own (libcudf's segmented sort of
    # one fixed-width column: radix or in-warp sorts, by segment size),
    # then its middle values - not libcudf's sort by (group, value) over all the rows
    medians = [(i, v) for v, idx in requests for i in idx
               if plans[i].fn == "median" and v.null_count() == 0 and kind(col_type(v)) in ("int", "uint", "float")]
    requests = [(v, [i for i in idx if all(i != j for j, _ in medians)]) for v, idx in requests]
    requests = [r for r in requests if r[1]]
    for i, v in medians:
        names.append(agg_names[i])
        cols.append(plans[i].fix(sg.median(v)))
    if requests:
        # a group's size counts the group numbers themselves (values None)
        results = sg.exact([(None if plans[idx[0]].fn == "size" else v, [plans[i].aggregation() for i in idx])
                            for v, idx in requests])
        for (_, idx), res in zip(requests, results):
            for i, col in zip(idx, res):
                names.append(agg_names[i])
                cols.append(_narrowed(plans[i].fix(col), group_sum_narrow_type(plans[i].a, node.child.schema.dtype_of)))
    for i in ordered:
        names.append(agg_names[i])
        cols.append(plans[i].fix(sg.aggregate(plans[i], ev)))
    tbl = gather(GpuTable(names, cols, sg.groups), out_order)
    tbl = GpuTable(_aggregate_keys(node) + tbl.names, list(keys) + list(tbl.columns), sg.groups)
    return promote_missing(tbl.select(node.schema.all_names), node.schema)


# aggregations whose float result depends on the order values are added in, by the kind of their
# input: float sums, products and means; variances of any number (their squared deviations are floats)
_ORDER_SENSITIVE = {"sum": {"float"}, "prod": {"float"}, "mean": {"float"}, "var": NUMERIC, "std": NUMERIC}


def order_sensitive(ap: AggPlan) -> bool:
    """Whether libcudf's hash group-by could give ``ap`` different bits run to run.

    The hash group-by adds each row into its group's accumulator with an atomic add, in whatever
    order the threads get there, and float addition is not associative: the last bits of a float
    sum, mean or variance change from run to run (seen on the H100). Its sort-based group-by is no
    cure: it reduces with ``thrust::reduce_by_key``, whose decoupled look-back combines a group
    that spans tiles in a timing-dependent association (NVIDIA/cccl#794, #9995). Exact operations
    stay on the hash path: integer sums and products (associative, wrapping), counts, min, max,
    first/last, nunique, and integer means (an exact int64 sum divided once).
    """
    return ap.child_kind in _ORDER_SENSITIVE.get(ap.fn, ())


def exact_sums(x: Any) -> bool:
    """Whether every sum of ``x``'s values, added in any order, is exact: FLOAT64 values that are
    all integers (no NaN, no infinity, no -0.0) with ``max |x| * rows <= 2**53``, so every partial
    sum is an integer a double holds exactly. Then a hash group-by's atomic adds give the same bits
    as the sorted runs' fixed order, and as pandas' (quantities in TPC-H: q18's sum over 15 million
    groups needs no sort). Decided by the data alone, in a few reductions over the column; the
    answer does not depend on it."""
    if col_type(x) != F64 or x.size() == 0 or x.null_count() == x.size():
        return False
    ev = E.Evaluator(GpuTable([], [], x.size()), lambda name: None)
    whole = ev.binary("EQUAL", x, plc.unary.unary_operation(x, plc.unary.UnaryOperator.FLOOR), BOOL)  # NaN: False
    if not plc.reduce.reduce(whole, plc.aggregation.all(), plc_type(BOOL)).to_py():
        return False
    if not _largest_magnitude(x) * x.size() <= 2.0 ** 53:  # (an infinity fails here)
        return False
    # -0.0 (pandas' sum of only -0.0 is -0.0, the hash group-by's starts from +0.0): of integers,
    # only -0.0 has 1 / x == -inf
    negative_zero = ev.binary("EQUAL", ev.binary("TRUE_DIV", E.Const(1.0, F64), x, F64), E.Const(-math.inf, F64), BOOL)
    return not plc.reduce.reduce(negative_zero, plc.aggregation.any(), plc_type(BOOL)).to_py()


def on_sorted_runs(ap: AggPlan) -> bool:
    """Whether ``ap`` reduces over ``SortedGroups``' runs rather than in libcudf's group-by: the
    order-sensitive aggregations (``order_sensitive``), and medians of floats.

    libcudf's group median interpolates (1 - f) * lower + f * upper even where f is 0, so a group
    of three or more whose middle value is infinite gets 0 * inf = NaN, a missing value (pandas:
    the infinity); ``SortedGroups.median`` takes the middle value as it is."""
    return order_sensitive(ap) or ap.fn == "median" and ap.child_kind == "float"


# rows one thread of libcudf's rolling sum adds in order (``SortedGroups._pairwise``)
CHUNK = 32
# group counts (and rows per group) below which group sums are per-group device reductions
# (``SortedGroups._few_sums``): each group is one reduction call per column
FEW_GROUPS, FEW_GROUPS_MIN_ROWS = 64, 4096


class GroupLayout:
    """What the order-deterministic aggregations need of a layout of the rows by group: each
    group's first row (``first_rows``, in the layout's group order), its number of rows
    (``sizes``), each row's group number in the layout (``group_of``), the values in the layout
    (``_in_layout``), float sums in a fixed order (``_pairwise``) and libcudf's exact aggregations
    per group (``exact``). ``aggregate`` is written once over these: ``SortedGroups`` (runs) and
    ``CodedGroups`` (group numbers, few groups) each supply them."""

    n: int
    groups: int
    first_rows: Any
    group_of: Any
    hashed: bool

    def sizes(self) -> Any:
        raise NotImplementedError

    def _in_layout(self, x: Any) -> Any:
        raise NotImplementedError

    def _pairwise(self, cols: list[Any], op: str) -> list[Any]:
        raise NotImplementedError

    def exact(self, requests: list[tuple[Any, list[Any]]]) -> list[list[Any]]:
        """libcudf's group-by of each (values, aggregations) request: one list of result columns
        per request, groups in the layout's order. A request whose values are None counts rows."""
        raise NotImplementedError

    def group_keys(self, keys: Sequence[Any]) -> list[Any]:
        """Each group's key values (at its first row)."""
        return plc.copying.gather(plc.Table(list(keys)), self.first_rows,
                                  plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()

    def aggregate(self, ap: AggPlan, ev: E.Evaluator) -> Any:
        """``ap`` (sum, prod, mean, var, std; median: ``SortedGroups.median``) per group, in float64,
        the same bits every run: sums and products in ``_pairwise``'s fixed order; the mean as sum /
        count; the variance in two passes, the squared deviations from each group's mean summed the
        same way. A group without values gives 0 (sum), 1 (prod) or a missing value, as libcudf's
        aggregations."""
        fn = ap.fn
        if fn == "median":
            return self.median(ap.values(ev))
        x = E.cast(self._in_layout(ap.values(ev)), F64)
        if fn == "prod":
            return self._pairwise([E.fill_null(x, 1.0)], "MUL")[0]
        if fn == "sum":
            return self._pairwise([E.fill_null(x, 0.0)], "ADD")[0]
        if x.null_count():
            present = plc.unary.cast(plc.unary.is_valid(x), plc_type(I32))
            total, count = self._pairwise([E.fill_null(x, 0.0), present], "ADD")
        else:  # every value present: the count is the group's size (no second column to sum)
            (total,) = self._pairwise([x], "ADD")
            count = self.sizes()
        count = E.cast(count, F64)
        mean = ev.binary("TRUE_DIV", total, count, F64)  # 0 / 0: NaN, a missing value after ``fix``
        if fn == "mean":
            return mean
        per_row = plc.copying.gather(plc.Table([mean]), self.group_of,
                                     plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
        dev = ev.binary("SUB", x, per_row, F64)
        (ssd,) = self._pairwise([E.fill_null(ev.binary("MUL", dev, dev, F64), 0.0)], "ADD")
        ddof = int(ap.a.param("ddof", 1))
        var = ev.binary("TRUE_DIV", ssd, ev.binary("SUB", count, E.Const(float(ddof), F64), F64), F64)
        few = ev.binary("LESS_EQUAL", count, E.Const(float(ddof), F64), BOOL)  # pandas: NaN
        var = plc.copying.copy_if_else(scalar(None, F64), var, few)
        return var if fn == "var" else plc.unary.unary_operation(var, plc.unary.UnaryOperator.SQRT)

    def median(self, values: Any) -> Any:
        raise NotImplementedError


class CodedGroups(GroupLayout):
    """Few groups of many rows, the rows left where they are: each row's group number
    (``group_of``, from ``coded.find``) and sums read from the rows in ``coded``'s fixed order.
    Groups in the order of their key hashes (``hashed``), as ``SortedGroups``' hashed runs."""

    hashed = True

    def __init__(self, n: int, codes: Any, first_rows: Any, groups: int) -> None:
        self.n, self.group_of, self.first_rows, self.groups = n, codes, first_rows, groups
        self._sizes: Any = None

    @classmethod
    def find(cls, keys: Sequence[Any], n: int) -> "CodedGroups | None":
        found = coded.find(keys, n)
        return None if found is None else cls(n, *found)

    def _in_layout(self, x: Any) -> Any:
        return x

    def _pairwise(self, cols: list[Any], op: str) -> list[Any]:
        if op != "ADD":
            raise UnsupportedError(f"{op} over group numbers (CodedGroups.usable excludes it)")
        return coded.group_sums(self.group_of, cols, self.groups)

    def sizes(self) -> Any:
        if self._sizes is None:
            (self._sizes,) = self.exact([(None, [plc.aggregation.count(plc.types.NullPolicy.INCLUDE)])])[0]
        return self._sizes

    def exact(self, requests: list[tuple[Any, list[Any]]]) -> list[list[Any]]:
        """A hash group-by on the group numbers (exact aggregations only: any order gives the same
        result), its groups then put in number order (a sort of ``groups`` rows)."""
        gb = plc.groupby.GroupBy(plc.Table([self.group_of]), null_handling=plc.types.NullPolicy.INCLUDE)
        keys, results = gb.aggregate([plc.groupby.GroupByRequest(self.group_of if v is None else v, aggs)
                                      for v, aggs in requests])
        order = plc.sorting.sorted_order(keys, *ascending(1))
        return [list(plc.copying.gather(res, order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns())
                for res in results]

    # the aggregations ``exact`` may compute (any order of the rows gives their result) and those
    # ``aggregate`` may (sums only: no products, no medians)
    EXACT = frozenset({"size", "count", "sum", "min", "max", "mean"})
    ORDERED = frozenset({"sum", "mean", "var", "std"})

    @classmethod
    def usable(cls, plans: list[AggPlan], ordered: list[int]) -> bool:
        """Whether every aggregation of the group-by can be computed over group numbers."""
        return all(ap.fn in (cls.ORDERED if i in ordered else cls.EXACT) for i, ap in enumerate(plans))


class SortedGroups(GroupLayout):
    """The rows in a stable order in which each group is a run: the layout the order-deterministic
    aggregations reduce over (``aggregate``), each group's rows in row order.

    The runs come from a hash of the keys (``groupcodes.hash_runs``: a radix sort of one UINT64
    column, checked against the keys), the groups then in hash order (``hashed``); or, where the
    hash cannot tell two keys apart or ``GFRAME_GPU_GROUPCODES=0``, from a stable sort by the keys
    themselves, the groups then in key order (ascending, missing keys last), the order of
    ``sort_table`` over the hash group-by's keys, so the two line up. Either way each group's rows
    and their positions in it are the same, so ``aggregate`` gives the same bits.

    Every step is a hash, a sort, a gather, an element-wise operation, a stream compaction or an
    integer scan, each of which gives the same bits every run; float values are only ever combined
    in ``_pairwise``'s fixed order: chunks of 32 rows added in row order, level after level (the
    numba-cuda kernel of ``segmented.py``, or, without it, libcudf's rolling sum over the chunks).
    """

    def __init__(self, keys: Sequence[Any], n: int) -> None:
        self.n = n
        runs = groupcodes.hash_runs(keys, n) if n and groupcodes.enabled() else None
        self.hashed = runs is not None
        ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
        if runs is None:
            self.order, self.rank = _group_rank(keys, n)  # sorted position -> row; position in its group
            is_start = ev.binary("EQUAL", self.rank, E.Const(0, I32), BOOL)
            starts = boolean_mask(GpuTable(["s"], [sequence(n, I32)]), is_start).column("s")
        else:
            self.order, is_start, starts = runs
            self.rank = _rank_in_runs(is_start, n)
        self.groups = starts.size()
        self.starts = starts  # each group's first sorted position
        # each sorted row's group number: an integer scan (exact)
        self.group_of = ev.binary("SUB", plc.reduce.scan(plc.unary.cast(is_start, plc_type(I32)), plc.aggregation.sum(),
                                                         plc.reduce.ScanType.INCLUSIVE), E.Const(1, I32), I32)
        # a stable sort keeps each group's rows in row order: its first sorted row is its first row
        self.first_rows = plc.copying.gather(plc.Table([self.order]), starts,
                                             plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
        self._bounds: Any = None  # starts, then n (``_segment_sums``), made at the first use
        self._largest = 0

    def sizes(self) -> Any:
        """Each group's number of rows (INT32): the next group's first position minus its own."""
        ev = E.Evaluator(GpuTable([], [], self.groups), lambda name: None)
        following = plc.copying.shift(self.starts, -1, scalar(self.n, I32))
        return ev.binary("SUB", following, self.starts, I32)

    def median(self, values: Any) -> Any:
        """Each group's median of ``values`` (numbers; row order), in float64, as pandas': each
        run's values sorted (one segmented sort, runs apart, missing values last in each), then
        the middle value of its present ones as it is, or 0.5 * lower + 0.5 * upper of the two
        middle ones (libcudf's interpolation at f = 0.5); a group without values: missing."""
        x = plc.copying.gather(plc.Table([values]), self.order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
        offsets = plc.concatenate.concatenate([self.starts, plc.Column.from_scalar(scalar(self.n, I32), 1)])
        x = plc.sorting.segmented_sort_by_key(plc.Table([x]), plc.Table([x]), offsets, *ascending(1)).columns()[0]
        x = E.cast(x, F64)
        ev = E.Evaluator(GpuTable([], [], self.groups), lambda name: None)
        none = None
        if x.null_count():  # each group's count of present values (an integer sum: exact)
            present = plc.unary.cast(plc.unary.is_valid(x), plc_type(I32))
            count = E.cast(self._pairwise([present], "ADD")[0], I32)
            none = ev.binary("EQUAL", count, E.Const(0, I32), BOOL)
            count = plc.copying.copy_if_else(scalar(1, I32), count, none)  # (an index inside the group)
        else:
            count = self.sizes()
        lower = ev.binary("ADD", self.starts, ev.binary("FLOOR_DIV", ev.binary("SUB", count, E.Const(1, I32), I32),
                                                         E.Const(2, I32), I32), I32)
        upper = ev.binary("ADD", self.starts, ev.binary("FLOOR_DIV", count, E.Const(2, I32), I32), I32)
        lo, hi = (plc.copying.gather(plc.Table([x]), at, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
                  for at in (lower, upper))
        half = E.Const(0.5, F64)
        mid = ev.binary("ADD", ev.binary("MUL", half, lo, F64), ev.binary("MUL", half, hi, F64), F64)
        out = plc.copying.copy_if_else(lo, mid, ev.binary("EQUAL", lower, upper, BOOL))
        return out if none is None else plc.copying.copy_if_else(scalar(None, F64), out, none)

    def _in_layout(self, x: Any) -> Any:
        return plc.copying.gather(plc.Table([x]), self.order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]

    def exact(self, requests: list[tuple[Any, list[Any]]]) -> list[list[Any]]:
        """libcudf's sort-based group-by over the run numbers, which are in order already
        (``keys_are_sorted``: no sort, one segmented pass), the values first put in run order."""
        moved = [v for v, _ in requests if v is not None]
        moved = list(plc.copying.gather(plc.Table(moved), self.order,
                                        plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()) if moved else []
        values = [self.group_of if v is None else moved.pop(0) for v, _ in requests]
        gb = plc.groupby.GroupBy(plc.Table([self.group_of]), null_handling=plc.types.NullPolicy.INCLUDE,
                                 keys_are_sorted=plc.types.Sorted.YES)
        _, results = gb.aggregate([plc.groupby.GroupByRequest(v, aggs) for v, (_, aggs) in zip(values, requests)])
        return [list(res.columns()) for res in results]

    def _few_sums(self, cols: list[Any]) -> list[Any]:
        """Each group's sum when there are few, large groups (TPC-H q1: 4 groups of 15 million
        rows): libcudf's reduction of each group's slice of the sorted rows, one device-wide
        reduction (CUB's, a fixed tree of the slice's length: the same bits every run) per group and
        column. The chunked rolling sums below cost ~32 window additions per row at their first
        level (339 of q1's 460 ms at sf10 on the H100). The group boundaries (a few numbers) are
        read back once: this kernel's own bookkeeping, not a trip between operators."""
        starts = self.starts.to_arrow().to_pylist()
        bounds = [b for g, start in enumerate(starts)
                  for b in (start, starts[g + 1] if g + 1 < len(starts) else self.n)]
        out = []
        for c in cols:
            t = col_type(c)
            parts = plc.copying.slice(c, bounds)
            sums = [plc.Column.from_scalar(plc.reduce.reduce(part, plc.aggregation.sum(), plc_type(t)), 1)
                    for part in parts]
            out.append(plc.concatenate.concatenate(sums) if len(sums) > 1 else sums[0])
        return out

    def _segment_sums(self, cols: list[Any]) -> list[Any]:
        """Each group's sum (FLOAT64) by ``segmented.group_sums``: one numba-cuda kernel per level
        of 32, in the chunked order described in ``_pairwise`` (so, up to libcudf's own rolling
        sum, the same bits). The largest group's size (one number) is read back once: the kernel's
        own bookkeeping (how many levels), not a trip between operators."""
        if self._bounds is None:
            self._bounds = plc.concatenate.concatenate([self.starts, plc.Column.from_scalar(scalar(self.n, I32), 1)])
            self._largest = int(plc.reduce.reduce(self.sizes(), plc.aggregation.max(), plc_type(I32)).to_py())
        return segmented.group_sums(cols, self.rank, self.group_of, self._bounds, self._largest)

    def _pairwise(self, cols: list[Any], op: str) -> list[Any]:
        """Each group's reduction of each column (sorted rows, no missing values) by ``op``, in an
        order fixed by the group sizes alone, so the result does not depend on timing.

        Sums (``ADD``) go to ``segmented.group_sums`` (one numba-cuda kernel per level, the order
        described next) where numba-cuda sees a device and ``GFRAME_GPU_SEGSUM`` is not 0.
        Otherwise by chunks of ``CHUNK`` rows: libcudf's rolling sum adds each row's window
        one value after another in one thread, so a window of (position in its chunk + 1) rows,
        read at the chunk's last row, is the chunk's sum in row order; the chunk sums then form the
        next, 32 times shorter level. ceil(log32(largest group)) rounds of a few kernels each (the
        pairwise tree below took log2: 17 rounds for 1e5-row groups, 74 ms of a 106 ms group-by on
        the H100, ``benchmarks/profiles/gpu_groupby_phases.py``).

        Products (rolling has none) go by a pairwise tree: every round, each row at an even
        position of its group takes in its successor in the group, and the odd positions drop out.
        """
        ev = E.Evaluator(GpuTable([], [], self.n), lambda name: None)
        rank = self.rank
        if op == "ADD" and segmented.usable():
            return self._segment_sums(cols)
        if op == "ADD" and 0 < self.groups <= FEW_GROUPS and self.n >= FEW_GROUPS_MIN_ROWS * self.groups:
            return self._few_sums(cols)
        if op == "ADD":
            while rank.size() > self.groups:
                n = rank.size()
                within = ev.binary("BITWISE_AND", rank, E.Const(CHUNK - 1, I32), I32)
                preceding = ev.binary("ADD", within, E.Const(1, I32), I32)
                following = E.as_column(E.Const(0, I32), n)  # (pylibcudf: both windows columns, or both ints)
                nxt = plc.copying.shift(rank, -1, scalar(0, I32))  # 0: the next row starts a group (or none)
                last = ev.binary("LOGICAL_OR", ev.binary("EQUAL", within, E.Const(CHUNK - 1, I32), BOOL),
                                 ev.binary("EQUAL", nxt, E.Const(0, I32), BOOL), BOOL)
                summed = [plc.rolling.rolling_window(c, preceding, following, 1, plc.aggregation.sum()) for c in cols]
                kept = boolean_mask(GpuTable([str(i) for i in range(len(cols) + 1)], summed + [rank]), last).columns
                cols, rank = kept[:-1], ev.binary("FLOOR_DIV", kept[-1], E.Const(CHUNK, I32), I32)
            return cols
        while rank.size() > self.groups:
            even = ev.binary("EQUAL", ev.binary("BITWISE_AND", rank, E.Const(1, I32), I32), E.Const(0, I32), BOOL)
            nxt_rank = plc.copying.shift(rank, -1, scalar(0, I32))
            paired = ev.binary("LOGICAL_AND", even,
                               ev.binary("EQUAL", nxt_rank, ev.binary("ADD", rank, E.Const(1, I32), I32), BOOL), BOOL)
            combined = []
            for c in cols:
                t = col_type(c)
                nxt = plc.copying.shift(c, -1, scalar(0, t))
                combined.append(plc.copying.copy_if_else(ev.binary(op, c, nxt, t), c, paired))
            kept = boolean_mask(GpuTable([str(i) for i in range(len(cols) + 1)], combined + [rank]), even).columns
            cols, rank = kept[:-1], ev.binary("FLOOR_DIV", kept[-1], E.Const(2, I32), I32)
        return cols


def _narrowed(col: Any, narrow: pa.DataType | None) -> Any:
    """A group sum (64 bits) in the input's narrow int type when every sum fits (pandas)."""
    if narrow is None or col.null_count():
        return col
    if col.size() and not _fits_int(col, narrow):
        return col
    return E.cast(col, narrow)


def _reduce(node: L.Aggregate, t: GpuTable, names: list[str]) -> GpuTable:
    """Aggregations without keys: one row."""
    ev = E.Evaluator(t, node.child.schema.dtype_of)
    cols = []
    for (label, a), name in zip(node.aggs, names):
        ap = AggPlan(a, ev)
        fn = ap.fn
        if fn == "size":
            cols.append(E.as_column(E.Const(t.num_rows, I64), 1))
            continue
        x = ap.values(ev)
        valid = x.size() - x.null_count()
        if fn == "count":
            value: Any = E.Const(valid, I64)
        elif fn == "nunique":
            policy = plc.types.NullPolicy.EXCLUDE if a.param("dropna", True) else plc.types.NullPolicy.INCLUDE
            value = E.Const(int(plc.reduce.distinct_count(x, policy, plc.types.NanPolicy.NAN_IS_VALID)) if x.size() else 0, I64)
        elif valid == 0:
            value = E.Const(ops.EMPTY_GROUP.get(fn), ap.out_type or col_type(x))
        else:
            value = _reduce_one(ap, x, expr_family(a.child, node.child.schema.family_of, node.child.schema.dtype_of))
        col = E.as_column(value, 1)
        cols.append(ap.fix(col) if not isinstance(value, E.Const) else _fix_const(ap, col))
    return GpuTable(node.schema.all_names, cols, 1)


def _fix_const(ap: AggPlan, col: Any) -> Any:
    if ap.out_type is not None and not pa.types.is_dictionary(ap.out_type):
        col = E.cast(col, ap.out_type)
    return col


def _reduce_one(ap: AggPlan, x: Any, family: str = NUMPY) -> Any:
    fn = ap.fn
    xt = col_type(x)
    if fn in ("sum", "mean") and (kind(xt) == "float" or fn == "mean" and kind(xt) in ("int", "uint")) \
            and pairwise.usable():
        return _numpy_order_sum(fn, x, family == MASKED)
    if fn == "std" and pa.types.is_float32(xt):
        # pandas (nanops): the float64 variance narrowed to float32 (inf past its range), then its
        # root in float32 - a float32 std of values near 1e20 is inf, not the float64 root narrowed
        var = _column_variance(x, int(ap.a.param("ddof", 1)), False)
        return plc.unary.unary_operation(E.cast(var, pa.float32()), plc.unary.UnaryOperator.SQRT)
    if fn in ("std", "var"):
        return _column_variance(x, int(ap.a.param("ddof", 1)), fn == "std")
    if fn == "median":
        return _column_median(x, family in ARROW_FAMILIES)
    if fn in ("any", "all"):
        agg = plc.aggregation.any() if fn == "any" else plc.aggregation.all()
        s = plc.reduce.reduce(plc.unary.cast(x, plc_type(BOOL)), agg, plc_type(BOOL))
        return plc.Column.from_scalar(s, 1)
    if fn in ("sum", "prod"):
        out = pa.uint64() if kind(xt) == "uint" else (I64 if kind(xt) in ("int", "bool") else xt if kind(xt) == "dec" else F64)
    elif fn == "mean":
        out = F64
    else:
        out = xt
    s = plc.reduce.reduce(x, ap.aggregation(), plc_type(out))
    return plc.Column.from_scalar(s, 1)


def _numpy_order_sum(fn: str, x: Any, masked: bool) -> Any:
    """A whole column's float sum or mean (an int column's mean) as pandas computes it, bit for bit:
    the sum in numpy's pairwise order (``pairwise.column_sum``: libcudf's reduction adds in CUB's
    tree, which differs under cancellation), in the column's float type (ints as float64); the mean
    that sum over the count, divided as pandas does: ``nanops.nanmean`` divides a float32 sum by
    the count as float32, ``np.mean(where=)`` (nullable) by the count as an integer (float64)."""
    total, count = pairwise.column_sum(x, masked=masked, counted=fn != "sum")
    if fn == "sum":
        return total
    t = col_type(total)
    ev = E.Evaluator(GpuTable([], [], 1), lambda name: None)
    if t == F64 or not masked:
        return ev.binary("TRUE_DIV", total, E.Const(float(count), t), t)
    mean = ev.binary("TRUE_DIV", E.cast(total, F64), E.Const(float(count), F64), F64)
    return E.cast(mean, t)


def _column_variance(x: Any, ddof: int, root: bool) -> Any:
    """A column's variance (its square root for ``root``) in float64, as pandas' ``nanvar``
    computes it: the mean first, then the squared deviations from it summed.

    Not libcudf's variance reduction: it merges (sum, squared deviations) pairs as it goes (Chan,
    Golub and LeVeque), and a merge with an infinite sum on one side gives an infinite variance,
    where pandas' deviation from an infinite mean is NaN: ``[inf, 1e20].std()`` was inf on the
    H100, NaN in pandas (seeds 500421, 501006). Two device sums, each one CUB tree of the
    column's length: the same bits every run. Fewer than ddof + 1 values: missing (pandas' NaN)."""
    n = x.size() - x.null_count()
    if n - ddof <= 0:
        return all_null(F64, 1)
    x = E.cast(x, F64)
    ev = E.Evaluator(GpuTable([], [], x.size()), lambda name: None)
    mean = plc.reduce.reduce(x, plc.aggregation.mean(), plc_type(F64))  # (libcudf's: the sum / n)
    dev = ev.binary("SUB", x, mean, F64)
    ssd = plc.reduce.reduce(ev.binary("MUL", dev, dev, F64), plc.aggregation.sum(), plc_type(F64))
    var = ev.binary("TRUE_DIV", plc.Column.from_scalar(ssd, 1), E.Const(float(n - ddof), F64), F64)
    return plc.unary.unary_operation(var, plc.unary.UnaryOperator.SQRT) if root else var


def _column_median(x: Any, arrow: bool = False) -> Any:
    """A column's median (some value present) as pandas' ``nanops.nanmedian``: numpy's median, the
    ``mean`` of the middle value or of the two middle ones of the sorted values - a sum from 0 over
    the count, in the column's float type (ints as float64): ``(0 + lower + upper) / 2``, or
    ``0 + middle``. So a median of -0.0 is 0.0, and of two float32 values past half its range inf,
    as in pandas. An ArrowDtype column's (``arrow``: pyarrow's quantile) is the middle value as it
    is (-0.0 stays), or 0.5 * lower + 0.5 * upper in float64.

    Not libcudf's median reduction: its LINEAR interpolation computes (1 - f) * lower + f * upper
    even where f is 0, and 0 * inf is NaN, so an infinite middle value came back NaN (a missing
    value) on the H100 (seed 500508: the median of ``[inf]``)."""
    n = x.size() - x.null_count()
    if x.null_count():
        x = plc.stream_compaction.drop_nulls(plc.Table([x]), [0], 1).columns()[0]
    t = col_type(x) if kind(col_type(x)) == "float" and not arrow else F64
    x = E.cast(plc.sorting.sort(plc.Table([x]), *ascending(1)).columns()[0], t)
    lower, upper = (n - 1) // 2, n // 2
    lo, hi = (plc.copying.slice(x, [i, i + 1])[0] for i in (lower, upper))
    ev = E.Evaluator(GpuTable([], [], 1), lambda name: None)
    if arrow:
        if lower == upper:
            return lo
        half = E.Const(0.5, F64)
        return ev.binary("ADD", ev.binary("MUL", half, lo, F64), ev.binary("MUL", half, hi, F64), F64)
    if lower == upper:
        return ev.binary("ADD", E.Const(0.0, t), lo, t)
    return ev.binary("TRUE_DIV", ev.binary("ADD", ev.binary("ADD", E.Const(0.0, t), lo, t), hi, t), E.Const(2.0, t), t)


@kernel(L.GroupHead)
def _(node: L.GroupHead, inputs: list[GpuTable]) -> GpuTable:
    """The first n rows of each group, in the original row order: rank each row within its group
    (stable sort by the keys, group starts, running max), keep rank < n, restore the order."""
    (t,) = inputs
    n = t.num_rows
    if node.n <= 0 or n == 0:
        return slice_rows(t, 0, 0)
    keys = [t.column(k) for k in node.keys]
    order = plc.sorting.stable_sorted_order(plc.Table(keys), *ascending(len(keys)))
    sorted_keys = plc.copying.gather(plc.Table(keys), order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    pos = sequence(n, I32)
    ev = E.Evaluator(t, lambda name: None)
    boundary = ev.binary("EQUAL", pos, E.Const(0, I32), BOOL)
    for c in sorted_keys:
        prev = plc.copying.shift(c, 1, scalar(None, col_type(c)))
        same = ev.binary("NULL_EQUALS", c, prev, BOOL)
        changed = plc.unary.unary_operation(same, plc.unary.UnaryOperator.NOT)
        boundary = ev.binary("LOGICAL_OR", boundary, changed, BOOL)
    starts = plc.copying.copy_if_else(pos, scalar(0, I32), boundary)
    group_start = plc.reduce.scan(starts, plc.aggregation.max(), plc.reduce.ScanType.INCLUSIVE)
    rank = ev.binary("SUB", pos, group_start, I32)
    keep = ev.binary("LESS", rank, E.Const(int(node.n), I32), BOOL)
    kept = boolean_mask(GpuTable(["order"], [order], n), keep).columns[0]
    kept = plc.sorting.sort(plc.Table([kept]), *ascending(1)).columns()[0]
    out = gather(t, kept)
    if node.dropna:
        idx = [out.names.index(k) for k in node.keys]
        kept_t = plc.stream_compaction.drop_nulls(plc.Table(out.columns), idx, len(idx))
        out = GpuTable(out.names, kept_t.columns(), kept_t.num_rows())
    return out


# --------------------------------------------------------------------------------------- joins

def _join_reason(node: L.Join) -> str | None:
    if node.how not in ops.JOINS:
        return f"join how={node.how!r}"
    if node.index_from not in ("none", "left", "right", "both"):
        return f"join index_from={node.index_from!r}"
    lt, rt = node.left.schema, node.right.schema
    for a, b in zip(node.left_on, node.right_on):
        ka, kb = kind(lt.dtype_of(a)), kind(rt.dtype_of(b))
        if lt.dtype_of(a) != rt.dtype_of(b) and not (ka in NUMERIC and kb in NUMERIC and "bool" not in (ka, kb)):
            return f"join keys of types {lt.dtype_of(a)} and {rt.dtype_of(b)}"
    return None


def _join_data_reason(node: L.Join, inputs: list[GpuTable]) -> str | None:
    if node.how == "cross":
        return None
    left, right = inputs
    for a, b in zip(node.left_on, node.right_on):
        ta, tb = col_type(left.column(a)), col_type(right.column(b))
        ka, kb = kind(ta), kind(tb)
        if ta != tb and not (ka in _NUMERIC_KINDS and kb in _NUMERIC_KINDS and "bool" not in (ka, kb)):
            return f"join keys of types {ta} and {tb}"
    return None


@kernel(L.Join, reason=_join_reason, data_reason=_join_data_reason)
def _(node: L.Join, inputs: list[GpuTable]) -> GpuTable:
    left, right = inputs
    how = node.how
    key_types: dict[str, Any] = {}
    if how == "cross":
        joined = plc.join.cross_join(plc.Table(left.columns), plc.Table(right.columns)) if left.columns and right.columns \
            else None
        n = left.num_rows * right.num_rows
        cols = joined.columns() if joined is not None else []
        lg = GpuTable(left.names, cols[: len(left.names)], n) if joined is not None else left
        rg = GpuTable(right.names, cols[len(left.names):], n) if joined is not None else right
    else:
        lmap, rmap, kept = _join_maps(node, left, right)
        key_types = _mixed_key_types(node, left, right, lmap)  # (right / outer: ``lmap`` is made)
        lneed, rneed = _join_columns_used(node)
        lsel = left.select([n for n in left.names if n in lneed])
        rsel = right.select([n for n in right.names if n in rneed])
        # the side whose rows come out as they are (``kept``) is not gathered: its columns are reused
        lg = lsel if kept == "left" else lazy_gather(lsel, lmap, nullify=True)
        rg = rsel if kept == "right" else lazy_gather(rsel, rmap, nullify=True)
    n = lg.num_rows

    def coalesced(own: Any, other: Any, own_may_miss: bool) -> Any:
        # a key column one side keeps: its own value, the other side's key where its row is missing
        if not own_may_miss or own.null_count() == 0:
            return own
        return plc.replace.replace_nulls(own, E.cast(other, col_type(own)))

    names, cols = [], []
    for f, (label, side, name) in zip(node.schema.columns, node.outputs):
        if side == "left":
            col = lg.entry(name)  # (a deferred column stays deferred: gathered when read)
        elif side == "right":
            if node.right_key_from_left_index(name):
                lk = node.left_on[node.right_on.index(name)]
                col = coalesced(rg.column(name), lg.column(lk), how in ("left", "outer"))
            else:
                col = rg.entry(name)
        else:  # key
            rk = node.right_on[node.left_on.index(name)]
            if name in key_types:  # numbers of two types: the left key, the right one where the left row is missing
                t = key_types[name]
                col = plc.replace.replace_nulls(E.cast(lg.column(name), t), E.cast(rg.column(rk), t))
            elif how == "right":  # pandas takes the right keys
                col = rg.entry(rk)
            elif how != "outer":  # the left key, never missing there
                col = lg.entry(name)
            else:
                col = coalesced(lg.column(name), rg.column(rk), True)
        names.append(f.name)
        cols.append(col)
    lidx, ridx = node.left.schema.index_names, node.right.schema.index_names
    if node.index_from == "left":
        names += lidx
        cols += [lg.column(x) for x in lidx]
    elif node.index_from == "right":
        names += ridx
        cols += [rg.column(x) for x in ridx]
    elif node.index_from == "both":
        names += lidx
        cols += [coalesced(lg.column(a), rg.column(b), True) for a, b in zip(lidx, ridx)]
    out = GpuTable(names, cols, n)
    if (how == "outer" or node.sort) and how != "cross":
        # pandas sorts by the join keys: the key values of whichever side has the row
        keys = [coalesced(lg.column(a), rg.column(b), True) for a, b in zip(node.left_on, node.right_on)]
        if out.num_rows > 1 and keys:  # NaT first, as pandas' factorized keys (the CPU engine's rule)
            nulls = [plc.types.NullOrder.BEFORE if f else plc.types.NullOrder.AFTER for f in node.missing_keys_first()]
            out = gather(out, plc.sorting.stable_sorted_order(plc.Table(keys), [plc.types.Order.ASCENDING] * len(keys),
                                                              nulls))
    undecided = node.undecided_bools()
    if undecided:  # read by ``GpuEngine.missing_bools`` once the plan has run (as the CPU engine's)
        MISSING_BOOLS[node] = frozenset(n for n in undecided if out.column(n).null_count())
    return promote_missing(out, node.schema)


# Joins of the run in progress -> their undecided bool columns the join left missing (as the CPU
# engine's, held for one run: ``cpu.kernels.one_run``)
MISSING_BOOLS: dict[L.Join | L.Union, frozenset[str]] = {}


def _mixed_key_types(node: L.Join, left: GpuTable, right: GpuTable, lmap: Any) -> dict[str, Any]:
    """Left key -> type of a right / outer merge's key column whose two keys are numbers of
    different types (types the data decided): pandas' type depends on how many rows have no left
    row (``merge_key_type``; ``lmap`` is negative there). One count read back, only for such keys."""
    if node.how not in ("right", "outer"):
        return {}
    mixed = {}
    for _, side, name in node.outputs:
        if side == "key" and name in node.left_on:
            ta, tb = col_type(left.column(name)), col_type(right.column(node.right_on[node.left_on.index(name)]))
            if ta != tb and kind(ta) in _NUMERIC_KINDS and kind(tb) in _NUMERIC_KINDS:
                mixed[name] = (ta, tb)
    if not mixed:
        return {}
    n = lmap.size()
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    missing = plc.unary.cast(ev.binary("LESS", lmap, E.Const(0, I32), BOOL), plc_type(I64))
    count = plc.reduce.reduce(missing, plc.aggregation.sum(), plc_type(I64)).to_py() if n else 0
    return {name: merge_key_type(ta, tb, count or 0, n) for name, (ta, tb) in mixed.items()}


def _join_columns_used(node: L.Join) -> tuple[set[str], set[str]]:
    """The columns of each side the join's output reads (only those are gathered)."""
    lneed: set[str] = set()
    rneed: set[str] = set()
    for _, side, name in node.outputs:
        if side == "left":
            lneed.add(name)
        elif side == "right":
            rneed.add(name)
            if node.right_key_from_left_index(name):
                lneed.add(node.left_on[node.right_on.index(name)])
        else:
            lneed.add(name)
            rneed.add(node.right_on[node.left_on.index(name)])
    if node.index_from in ("left", "both"):
        lneed.update(node.left.schema.index_names)
    if node.index_from in ("right", "both"):
        rneed.update(node.right.schema.index_names)
    if node.how == "outer" or node.sort:
        lneed.update(node.left_on)
        rneed.update(node.right_on)
    return lneed, rneed


def _join_maps(node: L.Join, left: GpuTable, right: GpuTable) -> tuple[Any, Any, str | None]:
    """Gather maps of the join, in pandas' row order, and the side ("left", "right" or None) whose
    map is the identity (that map then None): the side whose order pandas keeps, where each of its rows comes out once
    (the other side's keys unique, every row matched or kept) - its rows then need no gather (a
    left join on a unique right key, or an inner join where every left row matches: db-benchmark's
    joins, whose 1e7-row left gather, three string columns, cost ~2 ms on the H100)."""
    lkeys, rkeys = [], []
    for a, b in zip(node.left_on, node.right_on):
        ca, cb = left.column(a), right.column(b)
        ta, tb = col_type(ca), col_type(cb)
        if ta != tb:  # numbers of different types: compare as float64 if either is a float, else int64
            ct = F64 if "float" in (kind(ta), kind(tb)) else E.comparison_type(ta, tb)
            ca, cb = E.cast(ca, ct), E.cast(cb, ct)
        lkeys.append(ca)
        rkeys.append(cb)
    eq = plc.types.NullEquality.EQUAL
    how = node.how
    lt, rt = plc.Table(lkeys), plc.Table(rkeys)
    if how == "inner":
        lmap, rmap = plc.join.inner_join(lt, rt, eq)
        first, second = lmap, rmap
    elif how == "left":
        lmap, rmap = plc.join.left_join(lt, rt, eq)
        first, second = lmap, rmap
    elif how == "right":
        rmap, lmap = plc.join.left_join(rt, lt, eq)
        first, second = rmap, lmap
    else:  # outer: left rows in order, then the right-only rows in right order
        lmap, rmap = plc.join.full_join(lt, rt, eq)
        ev = E.Evaluator(GpuTable([], [], lmap.size()), lambda name: None)
        missing = ev.binary("LESS", lmap, E.Const(0, I32), BOOL)
        first = plc.copying.copy_if_else(scalar(INT32_MAX, I32), lmap, missing)
        second = rmap
    kept = None
    if lmap.size() > 1:
        order = None
        if how != "outer":  # inner / left / right: ``first`` indexes the side whose order pandas keeps
            rows = left.num_rows if how != "right" else right.num_rows
            order = first_side_order(first, rows)
            if order is not None and first.size() == rows:
                # each of the side's positions at most once (first_side_order's check), ``rows`` of
                # them, in order: 0, 1, ..., rows - 1
                kept = "right" if how == "right" else "left"
        if order is None:
            order = pair_order(first, second)
        if kept is None:
            lmap, rmap = plc.copying.gather(plc.Table([lmap, rmap]), order,
                                            plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
        else:  # the kept side's map would be 0, 1, ... (None: not made); the other one put in order
            moved = plc.copying.gather(plc.Table([rmap if kept == "left" else lmap]), order,
                                       plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
            lmap, rmap = (None, moved) if kept == "left" else (moved, None)
    return lmap, rmap, kept


def first_side_order(first: Any, n: int) -> Any | None:
    """The order of the join's rows by ``first`` (row positions into a side of ``n`` rows) where each
    position occurs at most once - the other side's keys are unique, as in most joins - by a scatter
    instead of a sort: ``slot[first[j]] = j``, then the slots that were written, in position order.
    None where some position repeats (then the pair sort orders them). Linear passes only; the one
    scalar read back is that decision."""
    m = first.size()
    seq = sequence(m, I32)
    slot = plc.copying.scatter(plc.Table([seq]), first, plc.Table([all_missing_slots(n)])).columns()[0]
    back = plc.copying.gather(plc.Table([slot]), first, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
    ev = E.Evaluator(GpuTable([], [], m), lambda name: None)
    unique = plc.reduce.reduce(ev.binary("EQUAL", back, seq, BOOL), plc.aggregation.all(), plc_type(BOOL))
    if not unique.to_py():
        return None
    if m == n:  # every slot written
        return slot
    written = E.Evaluator(GpuTable([], [], n), lambda name: None).binary("GREATER_EQUAL", slot, E.Const(0, I32), BOOL)
    return boolean_mask(GpuTable(["slot"], [slot], n), written).column("slot")


def all_missing_slots(n: int) -> Any:
    return plc.Column.from_scalar(scalar(-1, I32), n)


def pair_order(first: Any, second: Any) -> Any:
    """The order that sorts rows by (first, second), two int32 gather maps (no nulls): one int64
    key first * 2**32 + (second + 2**31), a single fixed-width column libcudf radix-sorts, instead of
    a two-column lexicographic sort."""
    ev = E.Evaluator(GpuTable([], [], first.size()), lambda name: None)
    hi = ev.binary("MUL", plc.unary.cast(first, plc_type(I64)), E.Const(2**32, I64), I64)
    lo = ev.binary("ADD", plc.unary.cast(second, plc_type(I64)), E.Const(2**31, I64), I64)
    key = ev.binary("ADD", hi, lo, I64)
    return plc.sorting.sorted_order(plc.Table([key]), *ascending(1))


# -------------------------------------------------------------------------------------- concat

def _union_reason(node: L.Union) -> str | None:
    for f in node.schema.columns:
        present = [c.schema.field(f.label).dtype for c in node.children if c.schema.has(f.label)]
        if len(set(present)) > 1 and not all(kind(t) in ("int", "uint", "float") for t in present):
            return f"concat of column {f.label!r} with types {sorted(map(str, set(present)))}"
        if len(set(present)) > 1 and f.dtype is None:
            return f"concat of column {f.label!r} whose type is decided by the data"
    if not node.ignore_index:
        idx = [c.schema.index for c in node.children]
        if any(i is None for i in idx) or len({len(i) for i in idx}) != 1:  # type: ignore[arg-type]
            return "concat of indexes of different depths"
        for lvl in range(len(idx[0])):  # type: ignore[arg-type]
            ts = {i[lvl].dtype for i in idx}  # type: ignore[index]
            if len(ts) != 1:
                return "concat of indexes of different types"
    return None


def _union_data_reason(node: L.Union, inputs: list[GpuTable]) -> str | None:
    for f in node.schema.columns:
        if f.dtype is None:
            types = {col_type(t.column(f.name)) for t in inputs if t.has(f.name)}
            if len(types) > 1 and not all(kind(x) in ("int", "uint", "float") for x in types):
                return f"concat of column {f.label!r} with types {sorted(map(str, types))}"
    return None


@kernel(L.Union, reason=_union_reason, data_reason=_union_data_reason)
def _(node: L.Union, inputs: list[GpuTable]) -> GpuTable:
    schema = node.schema
    fields = list(schema.columns) + ([] if node.ignore_index else list(schema.index or ()))
    names, cols = [], []
    total = sum(t.num_rows for t in inputs)
    for f in fields:
        parts: list[Any] = []
        present = [t.column(f.name) for t, c in zip(inputs, node.children)
                   if t.has(f.name) and (f.name in c.schema.all_names)]
        target = f.dtype
        if target is None:
            types = {col_type(c) for c in present}
            if len(types) == 1:
                target = types.pop()
            elif types:
                import numpy as np

                target = pa.from_numpy_dtype(np.result_type(*[t.to_pandas_dtype() for t in types]))
            else:
                target = F64
            if f in schema.columns and pa.types.is_integer(target) and node.widened(f.label):
                target = F64
        for t, c in zip(inputs, node.children):
            if t.has(f.name) and f.name in c.schema.all_names:
                parts.append(E.cast(t.column(f.name), target))
            else:
                parts.append(all_null(target, t.num_rows))
        names.append(f.name)
        cols.append(plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0])
    out = finish(names, cols, total, schema)
    undecided = node.undecided_bools()
    if undecided:  # a frame without columns left them missing (as the CPU engine's)
        MISSING_BOOLS[node] = frozenset(n for n in undecided if out.column(n).null_count())
    return out


# ------------------------------------------------------------------------------------- indexes

@kernel(L.SetIndex)
def _(node: L.SetIndex, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    child = node.child.schema
    base = len(child.index or ()) if node.append else 0
    names = [f.name for f in node.schema.columns]
    cols = [t.column(n) for n in names]
    if node.append:
        names += child.index_names
        cols += [t.column(n) for n in child.index_names]
    for i, k in enumerate(node.keys):
        names.append(index_name(base + i))
        cols.append(t.column(k))
    if node.range_key is not None and L.narrow_signed_int(col_type(cols[-1])):  # (a type the data decides: its own)
        wide = plc.unary.cast(cols[-1], plc_type(I64))
        if _is_int_range(t, wide):
            cols[-1] = wide  # pandas' RangeIndex: int64
    return GpuTable(names, cols, t.num_rows)


def _is_int_range(t: GpuTable, x: Any) -> bool:
    """pandas' ``maybe_sequence_to_range`` test of the int64 column ``x`` (no nulls): no values, or two
    or more evenly spaced by a nonzero step (the sequence from its first two values, compared)."""
    n = t.num_rows
    if n < 2:
        return n == 0
    first, second = (plc.reduce.reduce(plc.copying.slice(x, [i, i + 1])[0], plc.aggregation.min(), plc_type(I64)).to_py()
                     for i in (0, 1))
    if first == second:
        return False
    seq = plc.filling.sequence(n, scalar(first, I64), scalar(second - first, I64))
    eq = E.Evaluator(t, lambda name: None).binary("EQUAL", x, seq, BOOL)
    return bool(plc.reduce.reduce(eq, plc.aggregation.all(), plc_type(BOOL)).to_py())


@kernel(L.ResetIndex)
def _(node: L.ResetIndex, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    child = node.child.schema
    if node.drop:
        return GpuTable(child.names, [t.column(n) for n in child.names], t.num_rows)
    if child.index is None:
        src = [sequence(t.num_rows, I64)]
    else:
        src = [t.column(n) for n in child.index_names]
    front = [f.name for f in node.schema.columns[: len(src)]]
    return GpuTable(front + child.names, src + [t.column(n) for n in child.names], t.num_rows)


@kernel(L.RenameIndex)
@kernel(L.IndexFreq)
def _(node: L.RenameIndex, inputs: list[GpuTable]) -> GpuTable:
    return inputs[0]


@kernel(L.Cache)
def _(node: L.Cache, inputs: list[GpuTable]) -> GpuTable:
    return inputs[0]


@kernel(L.Materialized)  # a device result, or a host one the engine moves to the device (GpuEngine.on_gpu)
def _(node: L.Materialized, inputs: list[GpuTable]) -> GpuTable:
    return node.data.value


# ------------------------------------------------------------------------- more row-wise nodes

def _take_reason(node: L.Take) -> str | None:
    return "take by label" if node.by_label else None


@kernel(L.Take, reason=_take_reason)
def _(node: L.Take, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    positions = plc.Column.from_arrow(pa.array([int(k) for k in node.keys], type=pa.int32()))
    return gather(t, positions)


def _all_equal(a: GpuTable, b: GpuTable, names: Sequence[str]) -> bool:
    """Whether the named columns of two tables of one length hold the same values (missing equal)."""
    if a.num_rows == 0:
        return True
    ev = E.Evaluator(a, lambda name: None)
    for n in names:
        ca, cb = a.column(n), b.column(n)
        if col_type(ca) != col_type(cb):
            return False
        eq = ev.binary("NULL_EQUALS", ca, cb, BOOL)
        s = plc.reduce.reduce(eq, plc.aggregation.all(), plc_type(BOOL))
        if not s.to_py():
            return False
    return True


def _full_join_on(left: GpuTable, right: GpuTable, keys: Sequence[str], right_data: Sequence[str]) -> GpuTable:
    """left and right side by side, an outer join on the columns ``keys`` of both (coalesced),
    rows in left order then right-only rows in right order (Polars' maintain_order="left_right")."""
    eq = plc.types.NullEquality.EQUAL
    lmap, rmap = plc.join.full_join(plc.Table([left.column(k) for k in keys]),
                                    plc.Table([right.column(k) for k in keys]), eq)
    if lmap.size() > 1:
        ev = E.Evaluator(GpuTable([], [], lmap.size()), lambda name: None)
        first = plc.copying.copy_if_else(scalar(INT32_MAX, I32), lmap, ev.binary("LESS", lmap, E.Const(0, I32), BOOL))
        order = pair_order(first, rmap)
        lmap, rmap = plc.copying.gather(plc.Table([lmap, rmap]), order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    lg, rg = gather(left, lmap, nullify=True), gather(right, rmap, nullify=True)
    names = [n for n in left.names if n not in keys] + list(right_data) + list(keys)
    cols = [lg.column(n) for n in left.names if n not in keys] + [rg.column(n) for n in right_data]
    for k in keys:
        lk = lg.column(k)
        cols.append(plc.replace.replace_nulls(lk, E.cast(rg.column(k), col_type(lk))) if lk.null_count() else lk)
    return GpuTable(names, cols, lmap.size())


def _hconcat_reason(node: L.HConcat) -> str | None:
    names = [n for c in node.children for n in c.schema.names]
    if len(set(names)) != len(names):
        return "concat(axis=1) of frames sharing column names"
    idx = [c.schema.index for c in node.children]
    if idx[0] is not None:  # (without one, children are aligned by position, as the CPU engine does)
        if any(i is None for i in idx):
            return "concat(axis=1) of default and labelled indexes"
        if len({len(i) for i in idx}) != 1 or any(len({i[lvl].dtype for i in idx}) != 1 for lvl in range(len(idx[0]))):
            return "concat(axis=1) of indexes of different types"
    return None


@kernel(L.HConcat, reason=_hconcat_reason)
def _(node: L.HConcat, inputs: list[GpuTable]) -> GpuTable:
    # the rules are plan/logical.ALIGN_JOINS'; the CPU engine's kernel implements the same
    idx = node.schema.index_names
    first = inputs[0]
    same = all(t.num_rows == first.num_rows for t in inputs) and (
        not idx or all(_all_equal(first, t, idx) for t in inputs[1:]))
    datas = [t.select(c.schema.names) for t, c in zip(inputs, node.children)]
    if same:
        names = [n for d in datas for n in d.names] + idx
        cols = [c for d in datas for c in d.columns] + [first.column(n) for n in idx]
        out = GpuTable(names, cols, first.num_rows)
    elif node.join == "exact":
        raise ValueError("Can only compare identically-labeled Series objects")
    elif node.join in ("left", "mask") and idx and _has_duplicates(inputs[1], idx):
        raise ValueError(L.duplicate_labels_message(len(idx)))
    elif node.join == "mask" and not idx and first.num_rows > inputs[1].num_rows:
        raise IndexingError(L.UNALIGNABLE_MASK)
    elif not idx:  # default RangeIndex on every side: align by position
        n = first.num_rows if node.join in ("left", "mask") else max(t.num_rows for t in inputs)
        pos = sequence(n, I32)
        parts = [gather(d, pos, nullify=True) for d in datas]
        out = GpuTable([x for p in parts for x in p.names], [c for p in parts for c in p.columns], n)
    elif node.join in ("left", "mask"):
        out = _left_join_on(first.select(node.children[0].schema.names + idx), inputs[1], idx,
                            node.children[1].schema.names, node.join == "mask")
    else:
        out = inputs[0].select(node.children[0].schema.names + idx)
        for t, c in zip(inputs[1:], node.children[1:]):
            out = _full_join_on(out, t, idx, c.schema.names)
        if node.join == "outer" and out.num_rows > 1:  # Index.join(how="outer") sorts, stably
            order = plc.sorting.stable_sorted_order(plc.Table([out.column(k) for k in idx]), *ascending(len(idx)))
            out = gather(out, order)
    return promote_missing(out.select(node.schema.all_names), node.schema)


def _has_duplicates(t: GpuTable, keys: Sequence[str]) -> bool:
    """Whether two rows of ``t`` hold the same values in ``keys`` (missing equal to missing)."""
    if t.num_rows < 2:
        return False
    kept = plc.stream_compaction.distinct_indices(plc.Table([t.column(k) for k in keys]),
                                                  plc.stream_compaction.DuplicateKeepOption.KEEP_ANY,
                                                  plc.types.NullEquality.EQUAL, plc.types.NanEquality.ALL_EQUAL)
    return kept.size() < t.num_rows


def _left_join_on(left: GpuTable, right: GpuTable, keys: Sequence[str], right_data: Sequence[str],
                  all_found: bool = False) -> GpuTable:
    """``right``'s columns ``right_data`` looked up at each row of ``left`` by the columns ``keys``
    (unique in ``right``): left's rows in their order, missing where ``right`` has no such key
    (``all_found``: pandas' IndexingError of a boolean mask instead)."""
    lmap, rmap = plc.join.left_join(plc.Table([left.column(k) for k in keys]),
                                    plc.Table([right.column(k) for k in keys]), plc.types.NullEquality.EQUAL)
    if all_found and gather(GpuTable(["pos"], [sequence(right.num_rows, I32)], right.num_rows), rmap,
                            nullify=True).column("pos").null_count():
        raise IndexingError(L.UNALIGNABLE_MASK)
    if lmap.size() > 1:  # libcudf gives the pairs in no particular order
        order = plc.sorting.stable_sorted_order(plc.Table([lmap]), *ascending(1))
        lmap, rmap = plc.copying.gather(plc.Table([lmap, rmap]), order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    lg, rg = gather(left, lmap), gather(right.select(list(right_data)), rmap, nullify=True)
    names = [n for n in left.names if n not in keys] + list(right_data) + list(keys)
    cols = [lg.column(n) for n in left.names if n not in keys] + list(rg.columns) + [lg.column(k) for k in keys]
    return GpuTable(names, cols, lmap.size())


# ------------------------------------------------------------------------------ group windows

def _group_rank(keys: Sequence[Any], n: int) -> tuple[Any, Any]:
    """(order, rank): the stable sort order of the rows by ``keys`` and each sorted row's position
    within its group (0, 1, ...)."""
    order = plc.sorting.stable_sorted_order(plc.Table(list(keys)), *ascending(len(keys)))
    sorted_keys = plc.copying.gather(plc.Table(list(keys)), order, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    pos = sequence(n, I32)
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    boundary = ev.binary("EQUAL", pos, E.Const(0, I32), BOOL)
    for c in sorted_keys:
        prev = plc.copying.shift(c, 1, scalar(None, col_type(c)))
        same = ev.binary("NULL_EQUALS", c, prev, BOOL)
        boundary = ev.binary("LOGICAL_OR", boundary, plc.unary.unary_operation(same, plc.unary.UnaryOperator.NOT), BOOL)
    return order, _rank_in_runs(boundary, n)


def _rank_in_runs(start: Any, n: int) -> Any:
    """Each position's distance from the last position at or before it where ``start`` is true
    (a run's first position: 0, 1, ...): an integer running maximum, exact."""
    pos = sequence(n, I32)
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    starts = plc.copying.copy_if_else(pos, scalar(0, I32), start)
    group_start = plc.reduce.scan(starts, plc.aggregation.max(), plc.reduce.ScanType.INCLUSIVE)
    return ev.binary("SUB", pos, group_start, I32)


def _unsort(values: Any, order: Any, n: int) -> Any:
    """values[i] belongs to row order[i]: the column in the rows' own order."""
    target = plc.Table([plc.Column.from_scalar(scalar(None, col_type(values)), n)])
    return plc.copying.scatter(plc.Table([values]), order, target).columns()[0]


def _group_window_reason(node: L.GroupWindow) -> str | None:
    look = node.child.schema.dtype_of
    for _, a in node.outputs:
        if a.param("cumulative", False):
            if a.fn != "size":
                return f"cumulative {a.fn}"
            continue
        if a.fn in BIVARIATE:
            return f"{a.fn} broadcast to rows"
        r = agg_reason(a, look)
        if r is not None:
            return r
    return None


@kernel(L.GroupWindow, reason=_group_window_reason)
def _(node: L.GroupWindow, inputs: list[GpuTable]) -> GpuTable:
    (t,) = inputs
    n = t.num_rows
    keys = [t.column(k) for k in node.keys]
    ev = E.Evaluator(t, node.child.schema.dtype_of)
    names = [f.name for f in node.schema.columns] + node.schema.index_names
    if n == 0:
        empty = [all_null(f.dtype or (ev.type_of(a) if not a.param("cumulative", False) else I64) or F64, 0)
                 for f, (_, a) in zip(node.schema.columns, node.outputs)]
        return GpuTable(names, empty + [t.column(x) for x in node.schema.index_names], 0)
    outputs: list[Any] = [None] * len(node.outputs)
    rank = order = None
    broadcast = [(i, AggPlan(a, ev)) for i, (_, a) in enumerate(node.outputs) if not a.param("cumulative", False)]
    sizes_needed = any(not a.param("ascending", True) for _, a in node.outputs if a.param("cumulative", False))
    if sizes_needed:
        broadcast.append((-1, AggPlan(Agg("size", (), Col(node.keys[0])), ev)))
    sizes = None
    ordered = [(i, ap) for i, ap in broadcast if on_sorted_runs(ap)]  # float sums, moments, medians: see SortedGroups
    broadcast = [(i, ap) for i, ap in broadcast if not on_sorted_runs(ap)]
    sg = None
    if ordered:
        sg = SortedGroups(keys, n)
        for i, ap in ordered:
            per_group = ap.fix(sg.aggregate(ap, ev))
            by_sorted_row = plc.copying.gather(plc.Table([per_group]), sg.group_of,
                                               plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
            outputs[i] = _unsort(by_sorted_row, sg.order, n)
    if broadcast:
        gb = plc.groupby.GroupBy(plc.Table(keys), null_handling=plc.types.NullPolicy.INCLUDE)
        reqs = [plc.groupby.GroupByRequest(ap.values(ev) if ap.fn != "size" else keys[0], [ap.aggregation()])
                for _, ap in broadcast]
        keys_out, results = gb.aggregate(reqs)
        # each row's group: a join of the rows' keys with the groups' (every row matches one group)
        lmap, gmap = plc.join.inner_join(plc.Table(keys), keys_out, plc.types.NullEquality.EQUAL)
        by_row = plc.sorting.sorted_order(plc.Table([lmap]), *ascending(1))
        gmap = plc.copying.gather(plc.Table([gmap]), by_row, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
        for (i, ap), res in zip(broadcast, results):
            per_group = ap.fix(res.columns()[0])
            col = plc.copying.gather(plc.Table([per_group]), gmap, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
            if i >= 0:
                outputs[i] = col
            else:
                sizes = E.cast(col, I64)
    for i, (_, a) in enumerate(node.outputs):
        if not a.param("cumulative", False):
            continue
        if rank is None:  # each row's position in its group, in row order (the runs of ``SortedGroups``)
            sg = sg or SortedGroups(keys, n)
            order, rank = sg.order, sg.rank
        r = _unsort(E.cast(rank, I64), order, n)
        if not a.param("ascending", True):
            r = ev.binary("SUB", ev.binary("SUB", sizes, r, I64), E.Const(1, I64), I64)
        outputs[i] = r
    if node.dropna:
        missing = None
        for k in keys:
            if k.null_count():
                isnull = plc.unary.is_null(k)
                missing = isnull if missing is None else ev.binary("LOGICAL_OR", missing, isnull, BOOL)
        if missing is not None:
            outputs = [plc.copying.copy_if_else(scalar(None, col_type(c)), c, missing) for c in outputs]
    cols = outputs + [t.column(x) for x in node.schema.index_names]
    return promote_missing(GpuTable(names, cols, n), node.schema)
