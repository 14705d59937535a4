"""CPU kernels: one function per plan node, over eager Polars frames.

A kernel receives its node and its already-evaluated inputs (``pl.DataFrame`` whose columns are the
input schema's internal names: data columns, then index columns) and returns the output frame in
the same convention. ``run`` dispatches by node type; the recursion lives in ``engines/evaluate``.
pandas semantics (row order, null keys, index) are applied here with Polars' own options
(``maintain_order``, ``nulls_equal``...), never by a loop over rows.

Some kernels pick a faster physical algorithm where the data allows it, checked at run time and
giving the same rows in the same order: a direct-address join for unique dense integer keys,
numpy bincount sums for one dense integer key, integer keys packed into one code, pandas'
first-appearance group order from a prefix of the rows, and ``physical`` fuses a sort followed by
``groupby.head``. Their thresholds are module constants (tests lower them to reach the paths).
"""
from __future__ import annotations

import contextlib
import weakref
from functools import singledispatch
from typing import Any, Iterator

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

# the function declarations, by family (each registers its lowering in functions.FUNCTIONS)
from gframe.engines.cpu import datetimes, rowwise, strings, window  # noqa: F401
from gframe.engines.cpu import categorical as C
from gframe.engines.cpu.expressions import FLOAT64_ACCUMULATED, Lowering, polars_type
from gframe.engines.csv import read_csv_arrow
from gframe.errors import IndexingError, UnsupportedError
from gframe.plan import logical as L
from gframe.plan.dtypes import (aggregate_type, expr_family, float32_downcast_fits, group_float32_downcast, group_median_decimal,
                                group_sum_narrow_type, merge_key_type)
from gframe.plan.expr import Agg, Col, Lit, columns_used
from gframe.plan.schema import ARROW_FAMILIES, MASKED, NUMPY, NA_FAMILIES, OBJECT_FAMILIES, Field, Schema, index_name


def lowering(schema: Schema) -> Lowering:
    return Lowering(schema.dtype_of)


def _order(df: pl.DataFrame, schema: Schema) -> pl.DataFrame:
    cols = schema.all_names
    return df if df.columns == cols else df.select(cols)


def promote_missing(df: pl.DataFrame, schema: Schema) -> pl.DataFrame:
    """pandas' value-dependent dtypes: an int column holding missing values becomes float64.

    Applied where a node can introduce missing values (outer joins, unions with absent columns,
    index alignment). Reading null counts is O(1) Arrow metadata.
    """
    casts = []
    for f in list(schema.columns) + list(schema.index or ()):
        if f.dtype is None and f.name in df.columns and f.family not in NA_FAMILIES:  # (NA holds the missing ints)
            col = df.get_column(f.name)
            if col.dtype.is_integer() and col.null_count() > 0:
                casts.append(pl.col(f.name).cast(pl.Float64))
        elif f.dtype is not None and pa.types.is_dictionary(f.dtype) and f.name in df.columns \
                and isinstance(df.schema[f.name], pl.Categorical):
            # a categorical made from values (astype('category')): pandas' categories are the
            # sorted distinct values
            cats = df.get_column(f.name).cast(pl.String).drop_nulls().unique().sort()
            casts.append(pl.col(f.name).cast(pl.String).cast(pl.Enum(cats.to_list())))
        elif C.encoded(f.dtype) and f.name in df.columns and not isinstance(df.schema[f.name], pl.Enum):
            # a categorical of numbers (bools, dates...) made from values: the Enum of the encodings
            # of their sorted distinct values (``engines/cpu/categorical.py``)
            casts.append(C.enum_of_values(df.get_column(f.name), f.dtype,  # type: ignore[arg-type]
                                          one_zero=f.family not in ARROW_FAMILIES).alias(f.name))
    return df.with_columns(casts) if casts else df


@singledispatch
def run(node: L.Plan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    raise UnsupportedError(f"cpu engine has no kernel for {type(node).__name__}")


@run.register
def _(node: L.InMemoryScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    # converted once and kept on the source for as long as the user's frame lives (plan/source.py)
    return node.table.resident("cpu", lambda: _from_table(node.table.value))


def _from_table(table: pa.Table) -> pl.DataFrame:
    if any(isinstance(f.type, pa.ExtensionType) for f in table.schema) and pl.__version__.startswith("1."):
        # Polars 1.x, imported before gframe could ask it to keep extension types (``gframe/__init__``):
        # it loads them as their storage type with a warning; ``interop`` restores the type on the way out
        import warnings

        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Extension type .* is not registered", category=UserWarning)
            return _from_table_quiet(table)
    return _from_table_quiet(table)


def _from_table_quiet(table: pa.Table) -> pl.DataFrame:
    table = C.to_enum_table(table)  # categoricals of numbers etc.: their categories encoded as strings
    _check_seconds_range(table)
    return _with_categories(pl.from_arrow(table, rechunk=False), table)  # type: ignore[arg-type]


def _check_seconds_range(table: pa.Table) -> None:
    """Polars has no [s]: ``from_arrow`` turns a [s] column into [ms], multiplying the ticks by 1000
    and wrapping past int64 (year -292277022657 became 1970-01-01 00:00:01). Such values are refused
    (``UnsupportedError``), never wrapped."""
    for name in table.column_names:
        t = table.schema.field(name).type
        if (pa.types.is_timestamp(t) or pa.types.is_duration(t)) and t.unit == "s" and table.num_rows:
            lo, hi = pc.min_max(table.column(name).cast(pa.int64())).values()
            limit = (2 ** 63 - 1) // 1000
            if lo.is_valid and (lo.as_py() < -limit or hi.as_py() > limit):
                raise UnsupportedError(f"column {name!r}: {t} values past the cpu engine's range (it holds [s] as [ms])")


def _with_categories(df: pl.DataFrame, table: pa.Table) -> pl.DataFrame:
    """String categoricals (and the encoded ones, ``C.to_enum_table``) as Polars Enums of the
    table's dictionary: pandas' categories (all of them, observed or not, in their order) then
    travel in the dtype, and sorting by the physical codes is pandas' category order."""
    casts = []
    for name in table.column_names:
        t = table.schema.field(name).type
        if pa.types.is_dictionary(t) and (pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)):
            col = table.column(name)
            if col.num_chunks > 1:
                col = col.unify_dictionaries()
            cats = col.chunk(0).dictionary.to_pylist() if col.num_chunks else []
            casts.append(pl.col(name).cast(pl.Enum(cats)))
    return df.with_columns(casts) if casts else df


@run.register
def _(node: L.ParquetScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    """A scan of a file the user read: the row groups its filter's statistics (or its row limit)
    leave, from the columns this engine keeps on the file's snapshot (read on first use, then kept
    for as long as the frame lives: a later query reads nothing it already has)."""
    src = node.source
    if src is None:  # (scans come from io.parquet.parquet_plan, which gives each its file's snapshot)
        raise UnsupportedError(f"ParquetScan of {node.path!r} without its file snapshot")
    reverse = {v: k for k, v in node.file_columns}  # internal -> file column
    want = node.schema.all_names
    rid = index_name(0) if node.row_index else None
    needed = [n for n in want if n != rid]
    if node.predicate is not None:
        needed += [n for n in sorted(columns_used(node.predicate)) if n not in needed]
    if not needed:  # only the row count: any one column gives it
        needed = [node.file_columns[0][1]]
    groups = src.row_groups(node.predicate, node.file_schema.dtype_of, reverse, node.n_rows)
    files = [reverse[n] for n in needed]
    if not groups:  # the statistics rule out every row group: nothing to keep
        out = pl.from_arrow(src.read(files, []))
        out = out.rename(dict(zip(files, needed)))  # type: ignore[union-attr]
    else:
        cols, todo = src.missing("cpu", files, groups)
        if cols:
            got = pl.from_arrow(src.read(cols, todo), rechunk=False)
            src.store("cpu", {c: got.get_column(c) for c in cols}, todo, _slice)  # type: ignore[union-attr]
        out = pl.DataFrame([src.assemble("cpu", f, groups, _slice, _concat).alias(n) for f, n in zip(files, needed)])
    # dates the plan reads as timestamps (read_parquet(to_pandas_kwargs={"date_as_object": False}))
    dates = [n for n in needed if out.schema[n] == pl.Date and pa.types.is_timestamp(node.file_schema.dtype_of(n) or pa.null())]
    if dates:
        out = out.with_columns([pl.col(n).cast(polars_type(node.file_schema.dtype_of(n))) for n in dates])
    if rid is not None:  # the file's row positions, numbered before the filter
        pos = [np.arange(src.starts[g], src.starts[g] + src.sizes[g], dtype=np.int64) for g in groups]
        out = out.with_columns(pl.Series(rid, np.concatenate(pos) if pos else np.empty(0, np.int64)))
    lf = out.lazy()
    if node.predicate is not None:
        lf = lf.filter(lowering(node.file_schema).lower(node.predicate).fill_null(False))
    if node.n_rows is not None:
        lf = lf.head(node.n_rows)
    return lf.select(want).collect()


def _slice(col: pl.Series, offset: int, length: int) -> pl.Series:
    return col.slice(offset, length)


def _concat(parts: list[pl.Series]) -> pl.Series:
    return pl.concat(parts, rechunk=False)


@run.register
def _(node: L.CsvScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    return pl.from_arrow(read_csv_arrow(node), rechunk=False)


@run.register
def _(node: L.Select, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = Lowering(node.child.schema.dtype_of, df)
    exprs = []
    for f, (label, e) in zip(node.schema.columns, node.outputs):
        out = low.lower(e)
        if isinstance(e, Lit) and f.dtype is not None and not pa.types.is_dictionary(f.dtype):
            out = out.cast(polars_type(f.dtype))  # a scalar column: pandas' dtype (int64), not Polars' i32
        exprs.append(out.alias(f.name))
    exprs.extend(pl.col(n) for n in node.schema.index_names)
    if not exprs:
        # no columns but still the rows (df[[]]): a placeholder column keeps the height, as the
        # in-memory scan of a column-less frame does
        return df.select(pl.lit(None).alias("__gf_len")) if not df.width else \
            df.select(pl.col(df.columns[0]).is_null().alias("__gf_len"))
    out = df.select(exprs)
    if df.width and out.height != df.height:  # all-literal outputs broadcast to the input's length
        out = df.select([pl.col(df.columns[0]).alias("__gf_len")]).with_columns(exprs).drop("__gf_len")
    # columns whose dtype pandas decides from the data (dt.year over NaT): int with nulls -> float64
    return promote_missing(out, node.schema)


@run.register
def _(node: L.Filter, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    return df.filter(Lowering(node.child.schema.dtype_of, df).lower(node.predicate).fill_null(False))


@run.register
def _(node: L.RowIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    return df.with_row_index(index_name(0)).with_columns(pl.col(index_name(0)).cast(pl.Int64)).select(node.schema.all_names)


@run.register
def _(node: L.Sort, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    by = _sort_keys(node.by, node.child.schema)
    return df.sort(by, descending=list(node.descending), nulls_last=node.nulls_last, maintain_order=True)


def _sort_keys(by: tuple[str, ...], schema: Schema | dict[str, Any]) -> list[pl.Expr]:
    """Sort keys; float NaN are nulls inside gframe so they sort with na_position."""
    keys = []
    for b in by:
        t = schema[b] if isinstance(schema, dict) else schema.dtype_of(b)
        e = pl.col(b)
        if t is not None and pa.types.is_dictionary(t):
            e = e.to_physical()  # pandas sorts categoricals by category order
        keys.append(e)
    return keys


@run.register
def _(node: L.Take, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    if not node.by_label:
        return df.select(pl.all().gather(list(node.keys))) if node.keys else df.head(0)
    key = index_name(0)
    wanted = pl.DataFrame({"__gf_take": pl.Series(list(node.keys), strict=False)})
    wanted = wanted.with_columns(pl.col("__gf_take").cast(df.schema[key], strict=False))
    out = wanted.join(df, left_on="__gf_take", right_on=key, how="inner", maintain_order="left", nulls_equal=True)
    return out.rename({"__gf_take": key}).select(node.schema.all_names)


@run.register
def _(node: L.TopK, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    if node.k <= 0:
        return df.head(0)
    by = _sort_keys(node.by, node.child.schema)
    ties_last = node.ties_last and df.height > node.k
    if len(by) == 1 and not ties_last:
        fast = _topk_one_key(df, by[0], node.descending[0], node.nulls_last, node.k)
        if fast is not None:
            return fast
    # a stable sort's first k rows: bottom_k in O(n) on (null flag, key) per column then position,
    # so ties keep their original order as pandas' stable sort does; then sort just those k rows
    keys: list[pl.Expr] = []
    reverse: list[bool] = []
    for b, d in zip(by, node.descending):
        keys += [b.is_null(), b]
        reverse += [not node.nulls_last, d]
    pos = pl.col("__gf_pos").cast(pl.Int64)
    # ties_last: ties by position descending, rows with a missing first key in their order (TopK's doc)
    keys.append(pl.when(by[0].is_null()).then(pos).otherwise(-pos) if ties_last else pos)
    reverse.append(False)
    tmp = df.with_row_index("__gf_pos")
    out = tmp.bottom_k(node.k, by=keys, reverse=reverse)
    return out.sort(keys, descending=reverse).drop("__gf_pos")


def _topk_one_key(df: pl.DataFrame, key: pl.Expr, descending: bool, nulls_last: bool, k: int) -> pl.DataFrame | None:
    """One sort key, nulls last, at least k non-null keys: the k-th key value bounds the answer, so
    only the rows up to it (about k) are sorted - stably, so ties keep their order. O(n)."""
    s = df.select(key.alias("__gf_key")).to_series()
    if not nulls_last or s.len() - s.null_count() < k or s.dtype.is_float() and bool(s.is_nan().any()):
        return None
    bound = s.top_k(k).min() if descending else s.bottom_k(k).max()
    cond = key >= bound if descending else key <= bound
    return df.filter(cond).sort(key, descending=descending, nulls_last=True, maintain_order=True).head(k)


@run.register
def _(node: L.Slice, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    n = df.height
    off = node.offset if node.offset >= 0 else max(n + node.offset, 0)
    return df.slice(off, node.length)


@run.register
def _(node: L.Distinct, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    subset = list(node.subset) or node.child.schema.names
    if node.keep == "none":
        return df.filter(~pl.struct(subset).is_duplicated()) if subset else df
    return df.unique(subset=subset, keep=node.keep, maintain_order=True)


@run.register
def _(node: L.Repeat, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    """Gathers the rows by their positions, each position repeated (no nulls among positions, so
    ``repeat_by`` never sees a missing value; a count of 0 gives an empty list, which drops the row)."""
    (df,) = inputs
    counts = node.repeats if isinstance(node.repeats, int) else pl.Series(node.repeats, dtype=pl.UInt32)
    rows = pl.int_range(pl.len(), dtype=pl.Int64).repeat_by(counts).explode(empty_as_null=False)
    return df.select(pl.all().gather(rows))


@run.register
def _(node: L.Aggregate, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = lowering(node.child.schema)
    # float sums and means pandas 3.1 takes to numpy's reduceat where its group codes are monotonic
    # (``_rows_in_group_order``) and the column holds no NaN: float32 (its type decided by that), and
    # numpy float64 (each group's first value plus the rest's pairwise sum: a group of -0.0 sums to
    # -0.0, where the Cython kernel's Kahan sum from 0 gives 0.0; nullable / Arrow floats take the
    # Cython kernels)
    f32 = {a.child.name for _, a in node.aggs if a.fn in ("sum", "mean") and isinstance(a.child, Col)
           and (low.type_of(a.child) == pa.float32()
                or low.type_of(a.child) == pa.float64() and node.child.schema.family_of(a.child.name) == NUMPY)
           and df.get_column(a.child.name).null_count() == 0 and not df.get_column(a.child.name).is_nan().any()}
    keys = list(node.keys)
    src = df
    if keys and node.dropna:
        src = src.drop_nulls(subset=keys)
    engine = _engine([a for _, a in node.aggs], low)
    held = _held_codes(node, keys, src) if keys else None
    ordered_pass = engine == "in-memory" or held is not None
    # where the ordered pass runs, it reads the rows' group order from the codes it makes anyway
    # (``order_of``); the Polars path needs ``_rows_in_group_order`` first (a count of distinct
    # keys: seconds for 1e7 rows of six keys)
    order_of = _GroupOrder(df, keys, node.sort, node.dropna) if keys and f32 else None
    if order_of is not None and not ordered_pass and order_of.rows_check():
        low.sorted_groups = frozenset(f32)
    agg_names = [f.name for f in node.schema.columns[-len(node.aggs):]] if node.aggs else []
    named = [(n, a) for n, (_, a) in zip(agg_names, node.aggs)]

    def lowered() -> list[pl.Expr]:
        return [low.agg(a, grouped=bool(keys)).alias(n) for n, a in named]

    aggs = lowered()
    if not keys:
        if not aggs:
            return pl.DataFrame()
        return _numpy_sums(df, _finish(df.select(aggs), low, named, source=df.schema), low, named)
    key_out = [f.name for f in (node.schema.index or ())] if node.keys_as_index else [
        f.name for f in node.schema.columns[: len(keys)]]
    if not aggs:
        aggs = [pl.len().alias("__gf_len")]
    plain = named or [("__gf_len", Agg("size", (), Col(keys[0])))]

    def dense() -> pl.DataFrame | None:
        return _dense_aggregate(src, keys, key_out, plain, node.sort)

    out = part = None
    if ordered_pass:
        reduceat = frozenset(f32) if order_of is not None else low.sorted_groups
        # the order-sensitive aggregations go to the ordered numba pass (``_ordered_aggregate``):
        # Polars' in-memory engine is not deterministic either (30 runs of a float group sum, 100
        # groups of 1e4 rows: 11 different results); the others, where there are any, to Polars,
        # joined on the keys. A key whose codes its source keeps (``_held_codes``) takes the pass
        # for every aggregation it computes: an int group-by on them, no hashing of the key.
        sens = [i for i, (_, a) in enumerate(plain) if _order_sensitive(a, low)]
        done = _ordered_aggregate(src, keys, key_out, plain, node.sort, reduceat, held, order_of)  # all in one pass, where it can
        if done is not None:
            out, in_key_order = done
            if node.sort and not in_key_order and out.height > 1:
                out = out.sort(_sort_keys(tuple(key_out), _key_schema(node, key_out)), nulls_last=True,
                               maintain_order=True)
        elif sens and len(sens) < len(plain):
            done = _ordered_aggregate(src, keys, key_out, [plain[i] for i in sens], False, reduceat, held, order_of)
            if done is not None:
                part = done[0]
                plain = [x for i, x in enumerate(plain) if i not in sens]
                engine = _engine([a for _, a in plain], low)
        if out is None and order_of is not None and order_of.rows_check():
            low.sorted_groups = frozenset(f32)  # what is left goes to Polars: lowered knowing the order
        if out is None:
            kept = {n for n, _ in plain}
            aggs = [x for x, (n, _) in zip(lowered(), named) if n in kept] or [pl.len().alias("__gf_len")]
    if out is not None:
        pass
    elif not node.sort:
        grouping = Grouping(src, keys, key_out, engine)
        out = grouping.first_appearance(aggs, dense)
    else:
        out = dense()
        if out is None:
            grouping = Grouping(src, keys, key_out, engine)
            out = grouping.unpack(grouping.aggregate(aggs))
            out = out.sort(_sort_keys(tuple(key_out), _key_schema(node, key_out)), nulls_last=True, maintain_order=True)
    if part is not None:
        out = out.join(part, on=key_out, how="left", nulls_equal=True, maintain_order="left")
    out = _finish(out, low, named, grouped=True)
    if "__gf_len" in out.columns and "__gf_len" not in node.schema.all_names:
        out = out.drop("__gf_len")
    if out.height == 0:
        # no groups: pandas' float32 mean is its Cython kernel's float32 (numpy's reduceat, float64,
        # needs rows; ``aggregate_type`` leaves the type to the data)
        f32 = [pl.col(n).cast(pl.Float32) for n, a in named if a.fn == "mean" and n in out.columns
               and node.schema.dtype_of(n) is None and low.type_of(a.child) == pa.float32()]
        out = out.with_columns(f32) if f32 else out
    return _order(_inferred_keys(df, out, node, key_out), node.schema)


def _no_values(name: str, out: pl.DataFrame) -> pl.Expr:
    """An inferred key column of no values: object (Arrow's null type) where no group has it, NaN
    (float64) where a missing key's group does (``dropna=False``: pandas' ``Index([nan])``)."""
    return pl.lit(None, dtype=pl.Float64 if out.height else pl.Null).alias(name)


def _inferred_keys(df: pl.DataFrame, out: pl.DataFrame, node: L.Aggregate, key_out: list[str]) -> pl.DataFrame:
    """Object columns' group keys as pandas infers their Index (a MultiIndex's level) from the
    values of the key column ``df`` holds - every row's, the rows a missing value of another key
    drops too (the plan leaves the type to the data): ints int64 (uint64 past int64's range), floats
    float64; no values, nothing to infer from: object (Arrow's null type, which pandas shows as object)."""
    s = node.child.schema
    casts = []
    merged = None
    for k, name in zip(node.keys, key_out):
        if node.schema.dtype_of(name) is not None:
            continue
        if s.family_of(k) not in OBJECT_FAMILIES:
            # a merge's bools a side may miss: object where it did - and with every value missing,
            # nothing to infer from (object); otherwise bools, as they are
            merged = L.undecided_bool_sources(node.child) if merged is None else merged
            values = df.get_column(k)
            if k in merged and values.len() and values.null_count() == values.len():
                casts.append(_no_values(name, out))
            continue
        t, values = out.schema[name], df.get_column(k)
        held = s.dtype_of(k)
        if values.null_count() == values.len():
            casts.append(_no_values(name, out))
        elif held is not None and pa.types.is_temporal(held) and t != _polars_type(held):
            # times: pandas' Index of the Timestamps keeps their unit, the column's type (its
            # objects are held in Arrow's [us] where nothing finer is needed)
            casts.append(pl.col(name).cast(_polars_type(held)))
        elif t.is_integer() and t != pl.Int64 and not (t == pl.UInt64 and values.max() > 2**63 - 1):  # type: ignore[operator]
            casts.append(pl.col(name).cast(pl.Int64))
        elif t.is_float() and t != pl.Float64:
            casts.append(pl.col(name).cast(pl.Float64))
    return out.with_columns(casts) if casts else out


def _numpy_sums(df: pl.DataFrame, out: pl.DataFrame, low: Lowering, named: list[tuple[str, Agg]]) -> pl.DataFrame:
    """A whole column's float sum and mean (and an int's mean) as pandas' nanops compute them: numpy's
    pairwise ``sum`` of the values, missing ones as 0, in the column's float type (float32 adds in
    float32; ints are summed as float64), then / count. Polars adds in another order (and float32
    in float64): where values cancel (1e20 and -1e20 beside small ones) the results differ in more
    than the last bits. NaN made by the values (inf - inf) is null, as ``_finish`` makes it."""
    todo = []
    for name, a in named:
        t = low.type_of(a.child)
        if a.fn == "median" and t is not None and (pa.types.is_floating(t) and not pa.types.is_float16(t)
                                                    or pa.types.is_integer(t)):
            col = df.select(low.lower(a.child).alias("x")).get_column("x")
            median = _arrow_median if expr_family(a.child, low.family, low.lookup) in ARROW_FAMILIES else _numpy_median
            todo.append(median(col, out.schema[name], name))
            continue
        if a.fn in ("std", "var") and t is not None and (pa.types.is_floating(t) and not pa.types.is_float16(t)
                                                          or pa.types.is_integer(t)) \
                and expr_family(a.child, low.family, low.lookup) in ARROW_FAMILIES:
            col = df.select(low.lower(a.child).alias("x")).get_column("x")
            todo.append(_arrow_variance(col, a.fn, a.param("ddof", 1), out.schema[name], name))
            continue
        if a.fn not in ("sum", "mean"):
            continue
        if a.fn == "mean" and t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)):
            todo.append(_numpy_time_mean(df.select(low.lower(a.child).alias("x")).get_column("x"), t, out.schema[name], name))
            continue
        if t is None or not (pa.types.is_floating(t) or a.fn == "mean" and pa.types.is_integer(t)) \
                or pa.types.is_float16(t):
            continue
        col = df.select(low.lower(a.child).alias("x")).get_column("x")
        family = expr_family(a.child, low.family, low.lookup)
        if family in ARROW_FAMILIES:
            # pandas' ArrowDtype reduces with pyarrow: its own summation order (an int mean adds in
            # float64 left to right in blocks; 5 beside -2**63 and 2**63 is lost there, not in numpy's)
            with np.errstate(invalid="ignore"):
                found = (pc.sum if a.fn == "sum" else pc.mean)(col.to_arrow(), skip_nulls=True, min_count=0).as_py()
            if a.fn == "mean" and col.len() == col.null_count() or found is None or found != found:
                found = None
            todo.append(pl.Series(name, [None if found is None else float(found)], dtype=pl.Float64).cast(out.schema[name]))
            continue
        if family == MASKED:
            # pandas' nullable Float64 / Int64 (``masked_reductions``): numpy's sum / mean ``where`` a
            # value is - numpy adds each run of present values pairwise and the runs one after
            # another (a missing value between 1e20 and -1e20 changes the result)
            valid = col.is_not_null().to_numpy()
            x = col.fill_null(0).to_numpy()
            if a.fn == "mean" and not valid.any():
                value = None  # (numpy's mean of no values warns "Mean of empty slice"; pandas: NA)
            else:
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    value = (np.sum if a.fn == "sum" else np.mean)(x, where=valid)
                if np.isnan(value):
                    value = None
            todo.append(pl.Series(name, [None if value is None else float(value)], dtype=pl.Float64).cast(out.schema[name]))
            continue
        if pa.types.is_integer(t):
            if col.null_count():
                continue  # (a nullable int's mean: its own masked kernel)
            total = np.sum(col.to_numpy(), dtype=np.float64)
            count = np.float64(len(col))
        else:
            nans = int(col.is_nan().sum())
            x = col.fill_null(0.0).fill_nan(0.0).to_numpy() if col.null_count() or nans else col.to_numpy()
            total = np.sum(x, dtype=x.dtype)
            count = x.dtype.type(len(col) - col.null_count() - nans)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = total if a.fn == "sum" else total / count
        if a.fn == "mean" and count == 0 or np.isnan(value):
            value = None
        target = out.schema[name]
        todo.append(pl.Series(name, [None if value is None else float(value)], dtype=pl.Float64).cast(target))
    return out.with_columns(todo) if todo else out


def _numpy_median(col: pl.Series, target: pl.DataType, name: str) -> pl.Series:
    """A whole column's median as pandas' ``nanops.nanmedian``: numpy's median of the present values
    (ints as float64; floats in their type), whose middle pair is averaged as ``(a + b) / 2`` -
    Polars' interpolation ``a + (b - a) / 2`` gave NaN for ``-inf`` and a number (``[-inf, -inf,
    2.25, 39]``: pandas -inf). NaN made by the values is null, as ``_finish`` makes it."""
    x = col.drop_nulls()
    if not x.len():
        return pl.Series(name, [None], dtype=target)
    v = x.to_numpy()
    with np.errstate(invalid="ignore", over="ignore"):
        value = np.median(v.astype(np.float64) if v.dtype.kind in "iu" else v)
    return pl.Series(name, [None if np.isnan(value) else float(value)], dtype=pl.Float64).cast(target)


def _arrow_median(col: pl.Series, target: pl.DataType, name: str) -> pl.Series:
    """A whole ArrowDtype column's median as pandas reduces it: pyarrow's ``quantile(q=0.5)``, whose
    middle pair is interpolated as ``(1 - f) * a + f * b`` - Polars' ``a + (b - a) / 2`` gave NaN
    for ``[98.61, -inf]`` (pandas -inf). NaN made by the values is null, as the sums' branch has it."""
    with np.errstate(invalid="ignore", over="ignore"):
        found = pc.quantile(col.to_arrow(), q=0.5, skip_nulls=True)[0].as_py()
    return pl.Series(name, [None if found is None or found != found else float(found)], dtype=pl.Float64).cast(target)


def _arrow_variance(col: pl.Series, fn: str, ddof: int, target: pl.DataType, name: str) -> pl.Series:
    """A whole ArrowDtype column's std / var as pandas reduces it: pyarrow's ``stddev`` / ``variance``,
    whose blockwise sums leave their own last bits - seven 39.6 between nulls: 7.7e-15, where Polars'
    std is 0.0 (seed 1054959). NaN made by the values is null, as the sums' branch has it."""
    with np.errstate(invalid="ignore", over="ignore"):
        found = (pc.stddev if fn == "std" else pc.variance)(col.to_arrow(), ddof=ddof, skip_nulls=True).as_py()
    return pl.Series(name, [None if found is None or found != found else float(found)], dtype=pl.Float64).cast(target)


def _numpy_time_mean(col: pl.Series, t: Any, target: pl.DataType, name: str) -> pl.Series:
    """A whole column's datetime / timedelta mean as pandas' ``nanops.nanmean``: the ticks (in the
    column's own unit; the engine holds [s] as [ms]) summed as float64 by numpy, missing ones as 0,
    / count, truncated to int64 - Polars' mean rounds differently (256 ns apart near 2020)."""
    ticks = col.to_physical()
    scale = 1000 if t.unit == "s" else 1
    valid = int(ticks.len() - ticks.null_count())
    if not valid:
        return pl.Series(name, [None], dtype=target)
    x = ticks.fill_null(0).to_numpy()
    x = x // scale if scale != 1 else x
    with np.errstate(invalid="ignore", over="ignore"):
        mean = np.sum(x, dtype=np.float64) / np.float64(valid)
    if not np.isfinite(mean) or abs(mean) >= 2.0 ** 63:
        return pl.Series(name, [None], dtype=target)
    return pl.Series(name, [int(np.int64(mean)) * scale], dtype=pl.Int64).cast(target)


class _GroupOrder:
    """Whether pandas' group codes are non-decreasing over a group-by's rows (its ``is_monotonic``,
    which picks numpy's reduceat for float sums and means), found once: from the codes the ordered
    pass makes anyway (``from_codes``: linear, no hashing), or from the rows (``rows_check``)."""

    def __init__(self, df: pl.DataFrame, keys: list[str], sort: bool, dropna: bool) -> None:
        self.df, self.keys, self.sort, self.dropna = df, keys, sort, dropna
        self._answer: bool | None = None

    def rows_check(self) -> bool:
        if self._answer is None:
            self._answer = _rows_in_group_order(self.df, self.keys, self.sort, self.dropna)
        return self._answer

    def from_codes(self, code: np.ndarray, size: np.ndarray, in_code_order: bool) -> bool:
        """``code``: each kept row's group (the rows a missing key drops left out), ``size``: the
        rows of each code. Unsorted, pandas numbers groups by first appearance: monotonic where
        each group's rows are one run (runs == groups, whatever the numbering); sorted, where the
        codes follow the keys' order and do not decrease; codes from hashes say nothing of that."""
        if self._answer is not None:
            return self._answer
        if self.sort and not in_code_order or len(code) != self.df.height - _dropped_first(self.df, self.keys, self.dropna):
            return self.rows_check()
        if len(code) < 2:
            ok = len(code) > 0 or self.df.height == 0
        elif self.sort:
            ok = bool((code[1:] >= code[:-1]).all())
        else:
            ok = int(np.count_nonzero(code[1:] != code[:-1])) + 1 == int(np.count_nonzero(size))
        self._answer = ok
        return ok


def _dropped_first(df: pl.DataFrame, keys: list[str], dropna: bool) -> int:
    """The rows a missing key drops (``dropna``) where they all come first; -1 where some comes
    later (pandas' code -1 then breaks the order)."""
    if not dropna:
        return 0
    dropped = df.select(pl.any_horizontal([pl.col(c).is_null() for c in keys])).to_series()
    n = int(dropped.sum())
    return n if not n or bool(dropped.head(n).all()) else -1


def _rows_in_group_order(df: pl.DataFrame, keys: list[str], sort: bool, dropna: bool) -> bool:
    """Whether pandas' group codes are non-decreasing over the rows (its ``is_monotonic``, which
    picks numpy's reduceat for sums and means): keys sorted for ``sort``, else each group's rows
    contiguous. Only asked for float sums and means, whose result depends on it."""
    k = df.select(keys)
    # a row a missing key drops has code -1: monotonic only where every such row comes first
    # (and pandas' reduceat then needs a row left)
    n = _dropped_first(df, keys, dropna)
    if n < 0 or n and n == k.height:
        return False
    k = k.slice(n)
    if k.height < 2:
        return True

    def ordered(part: pl.DataFrame) -> bool:
        if sort:
            return bool(part.with_row_index("__gf_i").sort(keys, nulls_last=True, maintain_order=True)
                        .get_column("__gf_i").is_sorted())
        runs = part.select(pl.struct(keys).rle_id().max()).item() + 1
        return runs == _n_distinct(part)

    # rows out of group order in a prefix settle it (rows in random order: at once); only rows that
    # may be in order pay the whole check (a count of distinct keys: 0.7 s for 1e7 strings, 2 cores)
    if k.height > _ORDER_PREFIX and not ordered(k.head(_ORDER_PREFIX)):
        return False
    return ordered(k)


_ORDER_PREFIX = 4096


# Aggregations Polars' in-memory engine computes faster than its streaming one, which is faster on
# the rest (measured on 1e6-1e7 rows, 2 threads: median 1.6x, with std beside it 1.5x; sums 0.7x).
_IN_MEMORY_AGGS = frozenset({"median", "quantile", "first", "last"})


def _order_sensitive(a: Agg, low: Lowering) -> bool:
    """Whether a group aggregation's float result depends on the order its values are added in
    (``_engine``'s rule), leaving out the float32 sums, means and variances: ``_ordered_aggregate``
    computes them in pandas' float32 kernels (``ordered.group_pass32``), and where its keys do not
    qualify ``_float32_group`` does, group by group in one fixed order."""
    if a.fn not in FLOAT64_ACCUMULATED:
        return False
    t = low.type_of(a.child)
    if t is not None and pa.types.is_float32(t) and a.fn in ("sum", "mean", "var", "prod"):
        return False
    return t is None or pa.types.is_floating(t) or a.fn in ("var", "std")


def _engine(aggs: list[Agg], low: Lowering) -> str:
    """Which Polars engine a group-by runs in; "in-memory" also marks the order-sensitive ones
    (float sums, means, variances, products; integer variances), which the Aggregate kernel gives
    to ``_ordered_aggregate`` where the keys qualify. Neither Polars engine fixes the order floats
    are added in: the streaming one adds per-thread partial sums in the order the threads finish,
    and the in-memory one also changed the last bits run to run (30 runs of a float group sum, 100
    groups of 1e4 rows: 11 different results) - which makes a ``t == t.max()`` filter on the result
    find no row."""
    if any(a.fn in _IN_MEMORY_AGGS for a in aggs):
        return "in-memory"
    for a in aggs:
        if a.fn in FLOAT64_ACCUMULATED:
            t = low.type_of(a.child)
            # a variance of integers sums float squared deviations: order-sensitive too
            if t is None or pa.types.is_floating(t) or a.fn in ("var", "std"):
                return "in-memory"
    return "auto"


class Grouping:
    """How a group-by runs over ``src``: key columns ``keys`` (named ``key_out`` in the output).

    Two or more integer keys are packed into one int64 code, ``(k - min)`` of each in its own
    digits (1.2x on sums, 1.6x on medians: one hashed column instead of a row encoding); the
    output keys are unpacked from the code, or gathered at each group's first row.
    """

    CODE = "__gf_code"

    def __init__(self, src: pl.DataFrame, keys: list[str], key_out: list[str], engine: str) -> None:
        self.src, self.engine = src, engine
        self.renamed = [pl.col(k).alias(o) for k, o in zip(keys, key_out)]
        packed = _pack_keys(src, keys, key_out)
        if packed is None:
            self.by, self.names, self.unpacked = self.renamed, key_out, None
            self.orderable = all(_orderable(src.schema[k]) for k in keys)
        else:
            code, self.unpacked = packed
            self.by, self.names = [code.alias(self.CODE)], [self.CODE]
            self.orderable = True

    def aggregate(self, aggs: list[pl.Expr], lazy: pl.LazyFrame | None = None) -> pl.DataFrame:
        """The hash group-by, in no particular group order. Through Polars' lazy API: it reads only
        the key and value columns (1.2-1.4x faster than the eager group_by on db-benchmark)."""
        lf = self.src.lazy() if lazy is None else lazy
        return lf.group_by(self.by).agg(aggs).collect(engine=self.engine)  # type: ignore[arg-type]

    def unpack(self, out: pl.DataFrame) -> pl.DataFrame:
        """The output with its key columns (from the packed code, when there is one)."""
        if self.unpacked is None:
            return out
        return out.select([*self.unpacked, pl.exclude(self.CODE)])

    def first_appearance(self, aggs: list[pl.Expr], dense: Any = None) -> pl.DataFrame:
        """pandas' sort=False: the groups in order of their first row.

        Few groups (a sample of the first rows says so): a hash group-by, then the order of the
        distinct keys in a prefix of the rows, which holds every group's first row when it holds
        every group. Many groups: ``dense()`` where it answers (``_dense_aggregate``), else each
        group's first row position, aggregated with the rest; the result is ordered by it, and its
        keys gathered at those rows of the input (an ascending gather: 1.5x faster than reordering
        the group-by's own key columns). The prefix order costs nothing measurable, the position
        10-15% of the group-by.
        """
        src, n = self.src, self.src.height
        if self.orderable:
            for rows, per_group, times in _SAMPLES:
                if n < times * rows:
                    break
                head = src.head(rows).select(self.by)
                if _n_distinct(head) * per_group > rows:
                    continue  # many groups: a prefix is unlikely to hold them all
                order = _distinct(head)
                out = self.aggregate(aggs)
                if out.height != order.height:  # groups first seen later: a prefix in proportion
                    longer = 16 * out.height + 1024
                    order = _distinct(src.head(longer).select(self.by)) if longer <= n // 4 else order
                if out.height == order.height:
                    out = order.join(out, on=self.names, how="left", nulls_equal=True, maintain_order="left")
                    return self.unpack(out)
                break
        if dense is not None:
            out = dense()
            if out is not None:
                return out
        pos = "__gf_pos"
        out = self.aggregate([*aggs, pl.col(pos).min()], src.lazy().with_row_index(pos))
        first = out.get_column(pos)
        if out.height * 8 < n:
            perm = first.arg_sort()
            keys = src.select(self.renamed)[first.gather(perm)]
        else:  # groups about as many as rows: linear passes beat the sort (1.6x at 1e7 rows)
            slot = np.full(n, -1, dtype=np.int64)
            slot[first.to_numpy()] = np.arange(out.height)
            is_first = slot >= 0
            perm = pl.Series(slot[is_first])
            keys = src.select(self.renamed).filter(pl.Series(is_first))
        return _hconcat([keys, out.select(pl.exclude(*self.names, pos))[perm]])


_DENSE_KEYS = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32)
_DENSE_VALUES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.Float64)
_DENSE_MIN_GROUPS = 4096
_pool: list[Any] = []


def _dense_aggregate(src: pl.DataFrame, keys: list[str], key_out: list[str], named: list[tuple[str, Agg]],
                     sort: bool) -> pl.DataFrame | None:
    """Sums, means and counts by one integer key of small range ("perfect hash" aggregation): the
    key minus its minimum indexes the groups, numpy's bincount adds (in threads: it releases the
    GIL), and each group's first row is a minimum by index. 1.25-1.3x faster than the hash
    group-by on db-benchmark q5 (1e4-1e5 groups); slower on a hundred groups, which stay with
    Polars. None where the key or an aggregation does not qualify: missing values anywhere, other
    aggregations, or int sums that float64 might not hold exactly.
    """
    n = src.height
    if len(keys) != 1 or n == 0:
        return None
    key = src.get_column(keys[0])
    if key.dtype not in _DENSE_KEYS or key.null_count():
        return None
    lo, hi = int(key.min()), int(key.max())  # type: ignore[arg-type]
    span = hi - lo + 1
    if not _DENSE_MIN_GROUPS <= span <= 2 * n + 1024:  # few groups: Polars' table stays in cache
        return None
    values: dict[str, pl.Series] = {}
    for _, a in named:
        if a.fn == "size":
            continue
        if a.fn not in ("sum", "mean", "count") or a.params or not isinstance(a.child, Col):
            return None
        col = src.get_column(a.child.name)
        if col.dtype not in _DENSE_VALUES or col.null_count():
            return None
        if a.fn == "sum" and col.dtype.is_integer():
            big = max(abs(int(col.min())), abs(int(col.max())))  # type: ignore[arg-type]
            if big * n >= 2**53:  # every partial sum an integer float64 holds exactly
                return None
        values[a.child.name] = col
    codes = key.to_numpy().astype(np.intp, copy=False) - lo
    counts = np.bincount(codes, minlength=span)
    if sort:
        groups = np.flatnonzero(counts)
    else:  # first appearance: each group's smallest row position
        first = np.full(span, n, dtype=np.int64)
        np.minimum.at(first, codes, np.arange(n))
        present = np.flatnonzero(counts)
        groups = present[np.argsort(first[present], kind="stable")]
    if not _pool:
        from concurrent.futures import ThreadPoolExecutor

        _pool.append(ThreadPoolExecutor(max(pl.thread_pool_size(), 1), thread_name_prefix="gframe-cpu"))
    sums = dict(zip(values, _pool[0].map(
        lambda s: np.bincount(codes, weights=s.to_numpy().astype(np.float64, copy=False), minlength=span)[groups],
        values.values())))
    size = counts[groups].astype(np.int64)
    out = {key_out[0]: pl.Series(groups + lo).cast(key.dtype)}
    for name, a in named:
        if a.fn in ("size", "count"):
            out[name] = pl.Series(size)
        elif a.fn == "mean":
            out[name] = pl.Series(sums[a.child.name] / size)
        elif values[a.child.name].dtype.is_integer():
            out[name] = pl.Series(sums[a.child.name].astype(np.int64))
        else:
            out[name] = pl.Series(sums[a.child.name])
    return pl.DataFrame(out)


_ORDERED_FNS = frozenset({"size", "count", "sum", "mean", "var", "std", "prod", "median", "min", "max"})
_ORDERED_VALUES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.Float64)


def _ordered_aggregate(src: pl.DataFrame, keys: list[str], key_out: list[str], named: list[tuple[str, Agg]],
                       sort: bool, reduceat: frozenset[str] = frozenset(),
                       held: tuple[dict[Any, Any], Any] | None = None,
                       order_of: _GroupOrder | None = None) -> tuple[pl.DataFrame, bool] | None:
    """Counts, sums, means and variances by integer keys in one pass over the rows in row order
    (numba, ``_group_pass``): the same bits every run, and pandas' own arithmetic - its Kahan sum,
    its mean (that sum / count) and its Welford variance, row by row in row order - so each group
    gets the value pandas computes, bit for bit. Faster than Polars' streaming group-by (whose
    per-thread partial sums change the last bits run to run) on integer keys. Medians too
    (``group_median``: pandas' middle value, or mean of the two middle ones), which then need no
    second group-by beside the pass.

    The keys become int64 codes (``_group_codes``: integer keys exactly, others by checked
    hashes); codes of a small range index the groups directly, wider ones are numbered in order of
    first appearance by an exact hash table (the ``factorize`` kernel). Returns (the result in
    first-appearance order, or in key order where ``sort`` and the codes follow the keys; whether
    it is in key order), or None where the keys or an aggregation do not qualify (nested keys,
    other aggregations, a float32 column asked for std/prod beside sum/mean/var, a hash collision).

    float32 sums, means and variances are pandas' float32 kernels (``group_pass32``): Kahan and
    Welford in float32 accumulators; for the columns in ``reduceat`` (the rows in group order, no
    NaN: ``_rows_in_group_order``) numpy's ``add.reduceat`` over each group's run, as pandas 3.1
    then calls it, the mean from a float64 reduceat. Minimums and maximums of floats and of integers
    without missing values are pandas' ``group_min`` / ``group_max`` (``group_extreme``).

    ``held`` (``_held_codes``): where the source keeps this key's codes - read from there, or made
    and checked here and then kept (their numbering depends only on the source's rows).
    ``order_of``: ``reduceat`` holds candidates, kept where the codes say the rows are in pandas'
    group order (``_GroupOrder.from_codes``).
    """
    n = src.height
    if n == 0:
        return None
    values: dict[str, pl.Series] = {}
    for _, a in named:
        if a.fn not in _ORDERED_FNS or (a.params and set(dict(a.params)) - {"ddof"}):
            return None
        if a.fn == "size":
            continue
        if not isinstance(a.child, Col):
            return None
        col = src.get_column(a.child.name)
        if a.fn in ("min", "max") and not (col.dtype == pl.Float64 or col.dtype in _ORDERED_VALUES and not col.null_count()):
            return None  # (pandas keeps the column's type: floats, or integers without missing values)
        if col.dtype == pl.Float32 and a.fn == "prod":
            return None  # pandas' group_prod multiplies in float32: ``_float32_group``
        if col.dtype == pl.Float32 and a.fn == "std":  # pandas: in float64
            col = col.cast(pl.Float64)
        elif col.dtype == pl.Boolean and a.fn != "median":  # pandas adds bools as ints
            col = col.cast(pl.Int64)
        elif col.dtype == pl.Float32 and a.fn in ("count", "sum", "mean", "var"):
            pass  # pandas' float32 kernels (group_pass32)
        elif col.dtype not in _ORDERED_VALUES or a.fn == "prod" and col.dtype != pl.Float64:
            return None
        if a.child.name in values and values[a.child.name].dtype != col.dtype:
            return None  # float32 wanted both in float32 (sum) and in float64 (std)
        values[a.child.name] = col
    kept = held[0].get(held[1]) if held is not None else None
    if kept is not None:
        code, groups, first, size = kept
        in_code_order, codes_by_first = False, True
    else:
        codes = _group_codes(src, keys, key_out)
        if codes is None:
            return None
        code, groups, in_code_order, codes_by_first, hashed = codes
        first, size = _kernel("first")(code, groups)
        if hashed is not None and not _same_keys(hashed, groups, first, code):
            return None  # two keys share a 64-bit hash (never seen): Polars' group-by decides
        if held is not None and codes_by_first and groups * _HELD_ROWS_PER_GROUP <= n:
            code = code.astype(np.int32) if groups < 2**31 else code  # half the memory, and faster passes
            for a in (code, first, size):
                a.setflags(write=False)
            held[0][held[1]] = (code, groups, first, size)
    if reduceat and order_of is not None and not order_of.from_codes(code, size, in_code_order):
        reduceat = frozenset()
    if size.all() and (sort and in_code_order or not in_code_order and codes_by_first):
        chosen = None  # every code a group, already in the order wanted
    else:
        present = np.flatnonzero(size)
        chosen = present if sort and in_code_order else present[np.argsort(first[present], kind="stable")]
    pick = (lambda x: x) if chosen is None else (lambda x: x[chosen])
    if not _pool:
        from concurrent.futures import ThreadPoolExecutor

        _pool.append(ThreadPoolExecutor(max(pl.thread_pool_size(), 1), thread_name_prefix="gframe-cpu"))

    int_sums = {a.child.name for _, a in named if a.fn == "sum" and a.child.name in values
                and values[a.child.name].dtype.is_integer()}
    fns = {name: {a.fn for _, a in named if a.fn != "size" and a.child.name == name} for name in values}
    # the moments a column's pass computes: what is left besides its exact int sum, median and extremes
    rest = {name: fns[name] - {"median", "min", "max"} - ({"sum"} if name in int_sums else set()) for name in values}

    def floats(name: str) -> np.ndarray:
        col = values[name]
        return col.cast(pl.Float64).to_numpy() if col.dtype.is_integer() else col.to_numpy()

    def job(task: tuple[str, str]) -> Any:
        # one pass over the rows; the passes of one column run in parallel too (q6's median and std)
        name, what = task
        col = values[name]
        if what == "int_sum":  # exact int64 sums
            return _kernel("int_sum")(code, groups, col.fill_null(0).to_numpy().astype(np.int64, copy=False))
        if what == "pass32":  # (nobs, sum, m2): float32 accumulators
            x = col.to_numpy()
            nobs, total, m2 = _kernel("pass32")(code, groups, x)
            if name in reduceat:  # numpy's reduceat over each group's run of rows (no NaN among them)
                return nobs, (_reduceat_sums(code, groups, x), _reduceat_sums(code, groups, x.astype(np.float64))), m2
            return nobs, (total, None), m2
        if what == "moments":  # floats, missing values as NaN
            x = floats(name)
            nobs, total, m2, prod = _moments(code, groups, x, rest[name])
            if name in reduceat and total is not None:  # numpy's reduceat over each group's run of rows
                total = _reduceat_sums(code, groups, x)
            return nobs, total, m2, prod
        if what == "median":  # in the pass' place: Polars' median was 4x the CPU time
            x = floats(name)
            return _kernel("median")(code, groups, x, size, not np.isnan(x).any())
        x = col.to_numpy()  # min / max: in the column's own type
        out, seen = _kernel("extreme")(code, groups, x, what == "max")
        # groups whose values are all missing (floats: integers with missing values go to Polars); the
        # codes of no rows (a gap in a range of int keys) are dropped by ``pick`` and stay as they are
        unseen = ~seen & (size > 0)
        if unseen.any():
            out[unseen] = np.nan
        return out

    tasks = []
    for name, col in values.items():
        if name in int_sums:
            tasks.append((name, "int_sum"))
        if col.dtype == pl.Float32:
            if rest[name]:
                tasks.append((name, "pass32"))
            continue
        if rest[name]:
            tasks.append((name, "moments"))
        tasks += [(name, fn) for fn in ("median", "min", "max") if fn in fns[name]]
    done = dict(zip(tasks, _pool[0].map(job, tasks)))

    def one(name: str) -> tuple[Any, ...]:
        """(int sum, count, sum, m2, product, median, min, max) of a column, None where not computed;
        for float32 (None, count, (float32 sum, float64 sum from reduceat or None), m2)."""
        if (name, "pass32") in done:
            return (None, *done[name, "pass32"])
        moments_of = done.get((name, "moments")) or (None,) * 4
        return (done.get((name, "int_sum")), *moments_of, done.get((name, "median")), done.get((name, "min")),
                done.get((name, "max")))

    stats = {name: one(name) for name in values}
    rows = pick(first)
    key_frame = src.select([pl.col(k).alias(o) for k, o in zip(keys, key_out)])[pl.Series(rows)]
    cols: dict[str, pl.Series] = {}
    with np.errstate(divide="ignore", invalid="ignore"):
        for name, a in named:
            if a.fn == "size":
                cols[name] = pl.Series(pick(size))
                continue
            raw = stats[a.child.name]
            if isinstance(raw[2], tuple):  # float32 (group_pass32): (sum in float32, float64 sum of reduceat)
                nobs, m2 = pick(raw[1]), pick(raw[3])
                total32, total64 = (pick(x) if x is not None else None for x in raw[2])
                f32 = np.float32
                if a.fn == "count":
                    cols[name] = pl.Series(nobs)
                elif a.fn == "sum":
                    cols[name] = pl.Series(total32)
                elif a.fn == "mean":
                    cols[name] = pl.Series(total64 / nobs if total64 is not None else (total32 / nobs.astype(f32)).astype(f32))
                else:
                    ddof = int(a.param("ddof", 1))
                    cols[name] = pl.Series(np.where(nobs > ddof, (m2 / (nobs - ddof).astype(f32)).astype(f32), f32(np.nan)))
                continue
            int_sum, nobs, total, m2, prod, median, lo, hi = (pick(x) if x is not None else None for x in raw)
            if a.fn == "median":
                cols[name] = pl.Series(median)
            elif a.fn in ("min", "max"):
                cols[name] = pl.Series(lo if a.fn == "min" else hi)
            elif a.fn == "prod":
                cols[name] = pl.Series(prod)
            elif a.fn == "count":
                cols[name] = pl.Series(nobs)
            elif a.fn == "sum":
                cols[name] = pl.Series(int_sum if int_sum is not None else total)
            elif a.fn == "mean":
                cols[name] = pl.Series(total / nobs)
            else:
                ddof = int(a.param("ddof", 1))
                var = np.where(nobs > ddof, m2 / (nobs - ddof), np.nan)
                cols[name] = pl.Series(var if a.fn == "var" else np.sqrt(var))
    return _hconcat([key_frame, pl.DataFrame(cols)]), sort and in_code_order


# Per source - an in-memory table (its ``Opaque``, which holds its converted form) or a result this
# engine holds (a ``Materialized`` leaf's frame: ``len(df)`` or an earlier query made it) - by the
# source's id while it lives (a finalizer drops the entry with it), the group codes of single keys
# that are not integers (strings, categoricals, floats, dates: numbered through their hashes, which
# costs a hash table probe a row and a check of every row's key): ``(code, groups, first, size)``
# by (column, dropna). Kept only for keys of at least this many rows a group on average: the
# dictionary encoding of a low-cardinality column, not a copy of a near-unique one.
_HELD: dict[int, dict[Any, Any]] = {}
_HELD_ROWS_PER_GROUP = 4


def _held_codes(node: L.Aggregate, keys: list[str], src: pl.DataFrame) -> tuple[dict[Any, Any], Any] | None:
    """Where this group-by's key codes are kept: for one key that is not an integer (those are
    their own codes, or packed ones) read unchanged (through renaming projections) from a source,
    the source's entry of ``_HELD`` and the key's place in it; None for other keys. Residency, as
    the source's converted form (``plan/source.py``): a string key is hashed and numbered once for
    as long as the user's frame lives, and each later group-by on it is an int group-by on those
    codes."""
    if len(keys) != 1 or src.schema[keys[0]].is_integer() or not _hash_key(src.schema[keys[0]]):
        return None
    plan, name = node.child, keys[0]
    while isinstance(plan, L.Select):
        for f, (_, e) in zip(plan.schema.columns, plan.outputs):
            if f.name == name:
                if not isinstance(e, Col) or plan.child.schema.dtype_of(e.name) != f.dtype:
                    return None
                name = e.name
                break
        else:
            if name not in plan.schema.index_names:
                return None
        plan = plan.child
    if isinstance(plan, L.InMemoryScan):
        owner: Any = plan.table  # (the plan's own: a new Opaque of the table would be equal, not the same)
    elif isinstance(plan, L.Materialized) and plan.engine == "cpu" and isinstance(plan.data.value, pl.DataFrame):
        owner = plan.data.value  # (each query wraps the engine's result in a new Opaque: the frame lasts)
    else:
        return None
    held = _HELD.get(id(owner))
    if held is None:
        held = _HELD[id(owner)] = {}
        weakref.finalize(owner, _HELD.pop, id(owner), None)
    return held, (name, node.dropna)


def _reduceat_sums(code: np.ndarray, groups: int, x: np.ndarray) -> np.ndarray:
    """Each group's sum as numpy's ``add.reduceat`` over its run of rows (the rows in group order,
    no NaN), as pandas 3.1 computes it there: the run's first value plus the rest's pairwise sum,
    in ``x``'s type."""
    starts = np.flatnonzero(np.diff(code)) + 1 if len(code) > 1 else np.zeros(0, np.int64)
    starts = np.concatenate([[0], starts]).astype(np.int64)
    total = np.zeros(groups, x.dtype)
    with np.errstate(invalid="ignore", over="ignore"):  # (inf - inf: NaN, as pandas)
        total[code[starts]] = np.add.reduceat(x, starts)
    return total


def _moments(code: np.ndarray, groups: int, x: np.ndarray, fns: set[str]) -> tuple[Any, ...]:
    """(count, sum, m2, product) of each group (None for those ``fns`` do not read): the pass that
    computes only what they need - the Kahan sum alone for sums and means (2.5-4x faster than the
    full pass, whose Welford division dominates), the Welford variance alone for variances - each
    the same arithmetic in the same row order as ``group_pass``, so the same bits."""
    if fns <= {"sum", "mean", "count"}:
        nobs, total = _kernel("sum_pass")(code, groups, x)
        return nobs, total, None, None
    if fns <= {"var", "std", "count"}:
        nobs, m2 = _kernel("var_pass")(code, groups, x)
        return nobs, None, m2, None
    return _kernel("pass")(code, groups, x)


def _factorize(k: np.ndarray) -> tuple[np.ndarray, int]:
    """64-bit values numbered in order of first appearance (the kernels' exact hash tables): one
    table while the groups stay few enough for it to fit in cache, else the rows partitioned by
    hash into cache-sized tables (``factorize_partitioned``: 6x faster on 1e7 distinct keys, where
    one table takes a cache miss a row). Both number the groups the same way."""
    code, groups = _kernel("factorize_small")(k, _FACTORIZE_SMALL)
    if groups >= 0:
        return code, int(groups)
    bits = min(max(int(np.ceil(np.log2(max(len(k), 1) / 8192))), 1), 16)  # ~8k rows a partition
    code, groups = _kernel("factorize_partitioned")(k, bits)
    return code, int(groups)


_FACTORIZE_SMALL = 1 << 17  # groups one table numbers (4 MiB of table): past it, the partitioned way


def _group_codes(src: pl.DataFrame, keys: list[str],
                 key_out: list[str]) -> tuple[np.ndarray, int, bool, bool, pl.DataFrame | None] | None:
    """Each row's group as an int64 code in [0, groups): (codes, number of codes, whether the codes
    follow the keys' sort order - missing keys last -, whether they number the groups in order of
    first appearance, and for codes made from hashes the keys the caller must check them against). Integer keys give their codes exactly (their values, or packed
    by ``_pack_keys``); strings, floats, bools, dates and the like their 64-bit hashes (Polars'),
    numbered by the ``factorize`` kernel's table in order of first appearance; floats plus 0.0
    first, so -0.0 and 0.0 are one key, as in pandas. None for other keys (nested types)."""
    n = src.height
    k = None
    ordered = False
    hashed = None
    if len(keys) == 1:
        col = src.get_column(keys[0])
        if col.dtype in _PACKABLE and not col.null_count() and not (
                col.dtype == pl.UInt64 and int(col.max()) >= 2**63):  # type: ignore[arg-type]
            k, ordered = col.to_numpy().astype(np.int64, copy=False), True
    else:
        packed = _pack_keys(src, keys, key_out)
        if packed is not None:
            k = src.select(packed[0]).to_series().to_numpy().astype(np.int64, copy=False)
            ordered = not any(src.get_column(c).null_count() for c in keys)  # a missing key is digit 0: first
    if k is None:
        if not all(_hash_key(src.schema[c]) for c in keys):
            return None
        hashed = src.select([pl.col(c) + 0.0 if src.schema[c].is_float() else pl.col(c) for c in keys])
        h = None
        for c in hashed.columns:  # the keys' hashes, combined (a collision is caught by ``_same_keys``)
            hc = hashed.get_column(c).hash(seed=0).to_numpy()
            h = hc if h is None else h * np.uint64(0x100000001B3) + hc
        assert h is not None
        k = h
    else:
        lo, hi = int(k.min()), int(k.max())
        if hi - lo + 1 <= 2 * n + 1024:
            return k - lo, hi - lo + 1, ordered, False, None
    code, groups = _factorize(k.view(np.uint64))
    return code, groups, False, True, hashed


def _hash_key(t: pl.DataType) -> bool:
    """Key types whose equal values hash equal and whose equality ``_same_keys`` checks exactly."""
    return t.is_integer() or t.is_float() or t in (pl.String, pl.Boolean, pl.Date) or isinstance(
        t, (pl.Enum, pl.Categorical, pl.Datetime, pl.Duration))


def _same_keys(keys: pl.DataFrame, groups: int, first: np.ndarray, code: np.ndarray) -> bool:
    """Whether the codes made from hashes number the distinct keys exactly: every row's keys equal
    to those of its group's first row (a gather and a comparison; faster than Polars' n_unique of
    one key - 25x on 1e5 distinct strings in 1e7 rows, 2x on 100)."""
    rows = pl.Series(first[code])
    return all(c.eq_missing(c.gather(rows)).all() for c in keys.get_columns())


def _hconcat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Frames of one height side by side. Not ``pl.concat(how="horizontal")``: Polars 1.4x warns
    that its meaning changes and 2.x warns about the ``strict`` that 1.4x needs (gframe supports
    both, ``pyproject.toml``); ``hstack`` means the same in each. A frame of no columns (a side the
    optimizer pruned to its index, elsewhere) adds nothing: Polars gives it height 0, which hstack refuses."""
    frames = [f for f in frames if f.width] or frames[:1]
    return frames[0].hstack([c for f in frames[1:] for c in f.get_columns()])


def _kernel(name: str) -> Any:
    """A numba kernel of ``_ordered_aggregate`` (``ordered.py``, imported at the first use)."""
    from gframe.engines.cpu import ordered

    return {"first": ordered.first_and_size, "pass": ordered.group_pass, "pass32": ordered.group_pass32,
            "int_sum": ordered.int_sum, "factorize": ordered.factorize, "sum_pass": ordered.sum_pass,
            "var_pass": ordered.var_pass, "factorize_small": ordered.factorize_small,
            "factorize_partitioned": ordered.factorize_partitioned, "median": ordered.group_median,
            "extreme": ordered.group_extreme}[name]


# (prefix rows, at least this many of them per distinct key seen, at least this many times more
# rows in all). A longer prefix for 1e4 groups (db-benchmark q2/q6 at 1e7 rows) saved nothing
# measurable over first positions: unique() of 131072 rows of two strings costs what they save.
_SAMPLES = ((4096, 16, 4),)
_PACKABLE = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64)


def _pack_keys(src: pl.DataFrame, keys: list[str], key_out: list[str]) -> tuple[pl.Expr, list[pl.Expr]] | None:
    """Two or more integer keys as one int64 code, and the expressions that give the keys back;
    None where a key is not an integer or their ranges do not fit in 62 bits. A key with missing
    values gets digit 0 for them."""
    if len(keys) < 2 or src.height == 0:
        return None
    cols = [src.get_column(k) for k in keys]
    if any(c.dtype not in _PACKABLE for c in cols):
        return None
    parts = []
    total = 1
    for c in cols:
        lo, hi = c.min(), c.max()
        if lo is None:  # all missing
            lo = hi = 0
        if not -(2**62) < int(lo) <= int(hi) < 2**62:  # type: ignore[arg-type]
            return None
        nulls = c.null_count() > 0
        span = int(hi) - int(lo) + 1 + nulls  # type: ignore[arg-type]
        total *= span
        if total >= 2**62:
            return None
        parts.append((int(lo), span, nulls, c.dtype))  # type: ignore[arg-type]
    code: pl.Expr | None = None
    unpack = []
    stride = total
    for (lo, span, nulls, dtype), k, o in zip(parts, keys, key_out):
        stride //= span
        digit = pl.col(k).cast(pl.Int64) - (lo - nulls)
        if nulls:
            digit = digit.fill_null(0)
        term = digit * stride if stride > 1 else digit
        code = term if code is None else code + term
        value = (pl.col(Grouping.CODE) // stride) % span + (lo - nulls)
        if nulls:
            value = pl.when(value == lo - 1).then(None).otherwise(value)
        unpack.append(value.cast(dtype).alias(o))
    assert code is not None
    return code, unpack


def _n_distinct(keys: pl.DataFrame) -> int:
    return keys.to_series().n_unique() if keys.width == 1 else keys.n_unique()


def _distinct(keys: pl.DataFrame) -> pl.DataFrame:
    """The distinct rows of ``keys``, in order of first appearance (a Series' unique for one column:
    a third of the frame's fixed cost, which counts on small prefixes)."""
    if keys.width == 1:
        return keys.to_series().unique(maintain_order=True).to_frame()
    return keys.unique(maintain_order=True)


def _orderable(t: pl.DataType) -> bool:
    """Whether keys found by a group-by can be matched back by a join on their values: exact types
    only (floats are left out: -0.0 and 0.0 group together in one and maybe not in the other)."""
    return t.is_integer() or t in (pl.String, pl.Boolean, pl.Date) or isinstance(t, (pl.Enum, pl.Datetime, pl.Duration))


def _finish(out: pl.DataFrame, low: Lowering, named: list[tuple[str, Any]], grouped: bool = False,
            source: pl.Schema | None = None) -> pl.DataFrame:
    """The aggregations' pandas dtypes (``Lowering.agg_finish``: a cast, NaN -> null for floats),
    leaving out what changes nothing - a column already of its target type, holding no NaN - which
    is most of the cost of a reduction's small result (Polars' fill_nan is ~0.1 ms a call).
    ``grouped``: group sums of narrow ints go back to the input's type where every sum fits."""
    todo = []
    for name, a in named:
        narrow = group_sum_narrow_type(a, low.lookup) if grouped else None
        if narrow is not None:
            todo.append(_narrowed(out.get_column(name), narrow))
            continue
        decimal = group_median_decimal(a, low.lookup) if grouped else None
        if decimal is not None:
            todo.append(_decimal_median(out.get_column(name), decimal))
            continue
        if grouped and group_float32_downcast(a, low.lookup) is not None:
            col = out.get_column(name).cast(pl.Float64)  # (the kernels compute it in float64)
            col = col.fill_nan(None)
            fits = float32_downcast_fits(col.fill_null(float("nan")).to_numpy())
            todo.append(col.cast(pl.Float32) if fits else col)
            continue
        t = aggregate_type(a, low.lookup, grouped)
        if t is None and source is not None and a.fn in ("sum", "prod") and isinstance(a.child, Col) \
                and a.child.name in source and (source[a.child.name].is_integer() or source[a.child.name] == pl.Boolean):
            # a column whose type the data decides (``7 // uint32``: ints, or float64 where a divisor
            # is 0; a right / outer merge's bool keys): pandas' sum / product of its ints is uint64 for
            # unsigned ones, else int64, of bools int64 (Polars' product of unsigned ints is Int64, its
            # sum keeps the width; its sum of bools is UInt32)
            todo.append(pl.col(name).cast(pl.UInt64 if source[a.child.name].is_unsigned_integer() else pl.Int64))
            continue
        if t is None and name in out.columns and out.schema[name].is_float() and _has_nan(out.get_column(name)):
            # a type the data decides (a float32 group mean: float64 from reduceat, float32 over no
            # rows) is still the engine's float: NaN is its missing value (null), or Polars' ``NaN > inf``
            # (True) and ``fillna`` see a value
            todo.append(pl.col(name).fill_nan(None))
            continue
        if t is not None and not pa.types.is_dictionary(t) and out.schema[name] == _polars_type(t) \
                and not (pa.types.is_floating(t) and _has_nan(out.get_column(name))):
            continue  # agg_finish would change nothing
        done = low.agg_finish(a, name, grouped)
        if done is not None:
            todo.append(done)
    return out.with_columns(todo) if todo else out


def _narrowed(col: pl.Series, narrow: Any) -> pl.Series:
    """``col`` (64-bit sums) as ``narrow`` when every value fits in it, else as it is (pandas)."""
    info = np.iinfo(narrow.to_pandas_dtype())
    lo, hi = col.min(), col.max()
    if col.null_count() == 0 and (lo is None or (info.min <= lo and hi <= info.max)):  # type: ignore[operator]
        return col.cast(_polars_type(narrow))
    if pa.types.is_unsigned_integer(narrow) and col.dtype != pl.UInt64:
        return col.cast(pl.UInt64)  # pandas sums unsigned ints in uint64 (a kernel's int64 sums: same values)
    return col


def _decimal_median(col: pl.Series, decimal: Any) -> pl.Series:
    """Group medians of a decimal column as pandas types them (``group_median_decimal``): the
    input's decimal type where there are no groups, Arrow's null type where every median is
    missing, double otherwise."""
    if col.len() == 0:
        return col.cast(_polars_type(decimal))
    if col.null_count() == col.len():
        return pl.Series(col.name, [None] * col.len(), dtype=pl.Null)
    return col.cast(pl.Float64)


def _has_nan(s: pl.Series) -> bool:
    if s.null_count() == 0:
        return bool(np.isnan(s.to_numpy()).any())  # no copy, and no Polars call overhead
    return bool(s.is_nan().any())


_TYPES: dict[Any, pl.DataType] = {}


def _polars_type(t: Any) -> pl.DataType:
    """``polars_type`` remembered (it converts through an empty Arrow array: ~50 us a call)."""
    hit = _TYPES.get(t)
    if hit is None:
        hit = _TYPES[t] = polars_type(t)
    return hit


def _key_schema(node: L.Aggregate, key_out: list[str]) -> dict[str, Any]:
    child = node.child.schema
    return {n: child.dtype_of(k) for n, k in zip(key_out, node.keys)}


@run.register
def _(node: L.CompleteGroups, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    df, source = inputs
    keys = list(node.keys)
    domains = []
    for k, sk in zip(keys, node.source_keys):
        dt = df.schema[k]
        if isinstance(dt, pl.Enum):  # every category, in category order
            domains.append(pl.DataFrame({k: dt.categories}).cast({k: dt}))
        else:  # another key: its distinct values in the whole input
            dom = source.select(pl.col(sk).drop_nulls().unique(maintain_order=True).alias(k))
            domains.append(dom.sort(_sort_keys((k,), {k: None})) if node.sort else dom)
    full = domains[0]
    for dom in domains[1:]:
        full = full.join(dom, how="cross", maintain_order="left_right")
    if node.sort:
        # null-key groups (dropna=False) come after every category
        null_keys = df.filter(pl.any_horizontal([pl.col(k).is_null() for k in keys]))
        out = pl.concat([full.join(df, on=keys, how="left", nulls_equal=True, maintain_order="left"), null_keys],
                        how="diagonal")
    else:
        unobserved = full.join(df, on=keys, how="anti", nulls_equal=True, maintain_order="left")
        out = pl.concat([df, unobserved], how="diagonal")
    if node.fills:
        out = out.with_columns(pl.col(n).fill_null(pl.lit(v).cast(out.schema[n])) for n, v in node.fills)
    # an empty group's bool (min, max, first, last): pandas' group kernels give float64 with NaN, as
    # for ints (not the object column a reindex of bools makes)
    child = node.child.schema
    floats = [pl.col(f.name).cast(pl.Float64) for f in node.schema.columns
              if f.dtype is None and child.dtype_of(f.name) is not None and pa.types.is_boolean(child.dtype_of(f.name))
              and f.family == NUMPY and out.get_column(f.name).null_count()]
    if floats:
        out = out.with_columns(floats)
    return promote_missing(out.select(node.schema.all_names), node.schema)


@run.register
def _(node: L.GroupWindow, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = lowering(node.child.schema)
    keys = list(node.keys)
    exprs, finish = [], []
    for f, (_, a) in zip(node.schema.columns, node.outputs):
        if a.param("cumulative", False) and a.fn != "size":
            # running sum / product / min / max in each group; missing values stay missing and are
            # skipped (pandas' skipna); bools sum as ints (``groupby().cumsum`` of bools is int64)
            x = low.lower(a.child)
            if a.fn in ("sum", "prod") and low.type_of(a.child) == pa.bool_():
                x = x.cast(pl.Int64)
            run = {"sum": x.cum_sum, "prod": x.cum_prod, "min": x.cum_min, "max": x.cum_max}[a.fn]()
            e = run.over(keys)
        elif a.param("cumulative", False):
            pos = pl.int_range(pl.len(), dtype=pl.Int64)
            e = (pos if a.param("ascending", True) else pos.reverse()).over(keys)
        elif a.fn == "ngroup":
            # the number of the row's group, in the groups' order: the keys' (dense rank) where
            # sorted, first appearance otherwise; rows of a missing key have none
            present = pl.all_horizontal([pl.col(k).is_not_null() for k in keys])
            if a.param("sort", True):
                order = pl.struct(keys) if len(keys) > 1 else pl.col(keys[0])
            else:  # (the rows' numbers, taken before the window: within it they restart)
                df = df.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias("__gf_row"))
                order = pl.col("__gf_row").min().over(keys)
            r = pl.when(present).then(order).rank("dense").cast(pl.Int64) - 1
            e = r if a.param("ascending", True) else r.max() - r
        elif a.fn in ("shift", "ffill", "bfill"):
            # pandas' groupby().shift / ffill / bfill: within each group, in row order
            x = low.lower(a.child)
            if a.fn == "shift":
                e = x.shift(a.param("periods", 1)).over(keys)
            else:
                fill = x.forward_fill if a.fn == "ffill" else x.backward_fill
                e = fill(a.param("limit", None)).over(keys)
        elif a.fn == "rank":
            x = low.lower(a.child)
            t = low.type_of(a.child)
            if node.dropna and t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)):
                # pandas 3.1: where a key is missing (dropna), its group rank of times reads NaT as
                # the smallest value (its int64), not as missing
                if df.select(pl.any_horizontal([pl.col(k).is_null() for k in keys]).any()).item():
                    x = x.fill_null(pl.lit(np.iinfo(np.int64).min, pl.Int64).cast(_polars_type(t)))
            e = _group_rank(x, keys, a)
        else:
            e = low.agg(a, grouped=True).over(keys)
            done = low.agg_finish(a, f.name, True)
            if done is not None:
                finish.append(done)
        if node.dropna:
            e = pl.when(pl.all_horizontal([pl.col(k).is_not_null() for k in keys])).then(e)
        exprs.append(e.alias(f.name))
    out = df.select(exprs + [pl.col(n) for n in node.schema.index_names])
    if finish:
        out = out.with_columns(finish)
    return promote_missing(out, node.schema)


def _group_rank(x: pl.Expr, keys: list[str], a: Any) -> pl.Expr:
    """pandas' ``groupby().rank``: float64 ranks within each group. Polars ranks the present values
    (``first`` is its ``ordinal``: ties in row order, either direction) and leaves missing ones
    missing (``na_option="keep"``); ``top`` / ``bottom`` rank the missing values of a group among
    themselves by the same method, before / after the present ones (``dense``: one rank). ``pct``
    divides by the rows ranked (``dense``: by the group's highest rank)."""
    method = a.param("method", "average")
    na_option = a.param("na_option", "keep")
    ranked = x.rank("ordinal" if method == "first" else method, descending=not a.param("ascending", True))
    ranked = ranked.cast(pl.Float64).over(keys)
    if na_option != "keep":
        missing = x.is_null()
        n_missing = missing.sum().over(keys).cast(pl.Float64)
        if method == "average":
            among = (n_missing + 1) / 2
        elif method == "max":
            among = n_missing
        elif method == "first":
            among = missing.cum_sum().over(keys).cast(pl.Float64)
        else:  # min, dense
            among = pl.lit(1.0)
        if na_option == "top":
            shift = (n_missing > 0).cast(pl.Float64) if method == "dense" else n_missing
            ranked = pl.when(missing).then(among).otherwise(ranked + shift)
        else:
            present = ranked.max().over(keys).fill_null(0.0) if method == "dense" else x.count().over(keys).cast(pl.Float64)
            ranked = pl.when(missing).then(among + present).otherwise(ranked)
    if a.param("pct", False):
        if method == "dense":
            total = ranked.max().over(keys)
        elif na_option == "keep":
            total = x.count().over(keys).cast(pl.Float64)
        else:
            total = pl.len().over(keys).cast(pl.Float64)
        ranked = ranked / total
    return ranked


@run.register
def _(node: L.GroupHead, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    return _group_head(df, list(node.keys), node.n, node.dropna)


def _group_head(df: pl.DataFrame, keys: list[str], n: int, dropna: bool) -> pl.DataFrame:
    if n <= 0:  # Polars' ``group_by().head(0)`` keeps one row of each group; pandas' ``head(0)`` none
        return df.clear()
    if dropna:
        df = df.drop_nulls(subset=keys)
    # the first n rows of each group, back in their original order (faster than a window rank)
    pos = "__gf_pos"
    out = df.with_row_index(pos).group_by(keys).head(n).sort(pos)
    return out.select(df.columns)


class SortedGroupHead(L.Plan):
    """``GroupHead(Sort(child))`` fused: the CPU engine's physical node for pandas'
    ``df.sort_values(by).groupby(keys).head(n)`` (db-benchmark groupby q8), made by ``physical``.

    Only the rows that can be among the first ``n`` of their group need sorting: those at or past
    their group's n-th value of the (one) sort key. Sorting and taking the heads of those rows
    gives exactly the unfused result, since a stable sort restricted to a subset of the rows keeps
    their relative order. That skips the full sort (1.8x on q8 at 1e7 rows).
    """

    __slots__ = ("by", "descending", "nulls_last", "keys", "n", "dropna")
    _non_child = ("by", "descending", "nulls_last", "keys", "n", "dropna")

    def __init__(self, by: tuple[str, ...], descending: tuple[bool, ...], nulls_last: bool, keys: tuple[str, ...],
                 n: int, dropna: bool, child: L.Plan) -> None:
        self._init((child,), tuple(by), tuple(descending), nulls_last, tuple(keys), n, dropna)

    def _compute_schema(self) -> Schema:
        return self.child.schema


def physical(plan: L.Plan) -> L.Plan:
    """The plan the CPU engine runs: fuses the node pairs it has a faster kernel for (today
    ``GroupHead`` over ``Sort``). Not an optimizer pass: the fused node is this engine's own."""
    if not any(isinstance(n, L.GroupHead) for n in plan.walk()):
        return plan
    memo: dict[int, L.Plan] = {}

    def go(node: L.Plan) -> L.Plan:
        done = memo.get(id(node))
        if done is not None:
            return done
        out = node.reconstruct([go(c) for c in node.children])  # type: ignore[arg-type]
        if isinstance(out, L.GroupHead) and isinstance(out.child, L.Sort):
            srt = out.child
            out = SortedGroupHead(srt.by, srt.descending, srt.nulls_last, out.keys, out.n, out.dropna, srt.child)
        memo[id(node)] = out
        return out

    return go(plan)


@run.register
def _(node: SortedGroupHead, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    keys = list(node.keys)
    if node.dropna:
        df = df.drop_nulls(subset=keys)
    if len(node.by) == 1 and node.n >= 1:
        df = _head_candidates(df, node.by[0], node.descending[0], keys, node.n)
    by = _sort_keys(node.by, node.child.schema)
    df = df.sort(by, descending=list(node.descending), nulls_last=node.nulls_last, maintain_order=True)
    return _group_head(df, keys, node.n, False)


def _head_candidates(df: pl.DataFrame, by: str, descending: bool, keys: list[str], n: int) -> pl.DataFrame:
    """The rows that can be among the first ``n`` of their group once sorted by ``by``: at or past
    the group's n-th largest (descending) / smallest value; all rows when the key holds missing
    values or NaN (where they sort is the sort's business)."""
    col = df.get_column(by)
    t = col.dtype
    if not (t.is_numeric() or t.is_temporal()) or col.null_count() or (t.is_float() and _has_nan(col)):
        return df
    x = pl.col(by)
    bound = x.top_k(n).min() if descending else x.bottom_k(n).max()
    return df.filter((x >= bound.over(keys)) if descending else (x <= bound.over(keys)))


@run.register
def _(node: L.Join, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    left, right = inputs
    rname = {c: f"__gf_r_{c}" for c in right.columns}
    right = right.rename(rname)
    how = {"outer": "full"}.get(node.how, node.how)
    exprs = _join_outputs(node, left.schema, right.schema, rname, how, left.height > 0 and right.height > 0)
    # only the columns the output reads travel through the join (it gathers every column it holds)
    needed = {n for e in exprs for n in e.meta.root_names()}
    lkeys, rkeys = ([], []) if how == "cross" else _join_keys(node, left, right, rname)
    lkey_names = {n for e in lkeys for n in e.meta.root_names()}
    rkey_names = {n for e in rkeys for n in e.meta.root_names()}
    left = _keep(left, needed | lkey_names)
    right = _keep(right, needed | rkey_names)
    mixed = _mixed_number_keys(node, left, right, rname, how)
    if mixed:  # which rows have no left row decides those keys' type (``merge_key_type``)
        left = left.with_columns(pl.lit(True).alias(_LEFT_ROW))
    joined = None
    if how in ("inner", "left") and not node.sort:
        joined = _direct_join(left, right, lkeys, rkeys, how, needed)
    if joined is None:
        order = {"inner": "left_right", "left": "left_right", "right": "right_left", "full": "left_right",
                 "cross": "left_right"}[how]
        if how == "cross":
            joined = left.join(right, how="cross", maintain_order=order)
        else:
            # pandas matches missing keys with each other; where one side has none, Polars' default
            # (nulls never match) gives the same rows, and its join is up to 2x faster
            nulls = any(_may_be_null(left, a) for a in lkeys) and any(_may_be_null(right, b) for b in rkeys)
            joined = left.join(right, left_on=lkeys, right_on=rkeys, how=how, nulls_equal=nulls,
                               coalesce=False, maintain_order=order)
    if mixed:
        missing = joined.get_column(_LEFT_ROW).null_count()
        types = {a: polars_type(merge_key_type(_arrow_type(left.schema[a]), _arrow_type(right.schema[b]), missing,
                                               joined.height)) for a, b in mixed.items()}
        exprs = _join_outputs(node, left.schema, right.schema, rname, how, left.height > 0 and right.height > 0, types)
    out = joined.select(exprs)
    sort_names = [c for c in out.columns if c.startswith("__gf_sort_")]
    if sort_names:
        first = node.missing_keys_first()  # NaT first, as pandas' factorized keys
        # and a key that stays a categorical (both sides' categories equal: an Enum here), whose
        # missing value's code -1 pandas sorts first
        first = tuple(f or isinstance(out.schema[n], pl.Enum) for f, n in zip(first, sort_names))
        out = out.sort(sort_names, nulls_last=[not f for f in first], maintain_order=True).drop(sort_names)
    undecided = node.undecided_bools()
    if undecided:  # (O(1) null counts) read by ``missing_bools`` once the plan has run
        MISSING_BOOLS[node] = frozenset(n for n in undecided if out.get_column(n).null_count())
    return promote_missing(out, node.schema)


# Joins of the run in progress -> their undecided bool columns (``Join.undecided_bools``) the join
# left missing: pandas' object columns, whatever rows a later operation drops (each engine's
# ``execute`` reads it for ``last_objects``). Held only for one run (``one_run``): plan nodes compare
# by value, and a weak table lost a join's entry when an equal node of an earlier run was collected.
MISSING_BOOLS: dict[L.Join | L.Union, frozenset[str]] = {}


@contextlib.contextmanager
def one_run(*tables: dict) -> Iterator[None]:
    """Empty ``tables`` (``MISSING_BOOLS``) for one plan's run, and give back what an enclosing run
    (a kernel that materializes another plan) had recorded when it ends."""
    saved = [dict(t) for t in tables]
    for t in tables:
        t.clear()
    try:
        yield
    finally:
        for t, old in zip(tables, saved):
            t.clear()
            t.update(old)


_LEFT_ROW = "__gf_left_row_present"


def _mixed_number_keys(node: L.Join, left: pl.DataFrame, right: pl.DataFrame, rname: dict[str, str],
                       how: str) -> dict[str, str]:
    """Left key -> renamed right key of a right / outer merge's key columns whose two keys are numbers
    of different types (types the data decided): pandas' key column type depends on which rows have
    no left row (``merge_key_type``)."""
    if how not in ("right", "full"):
        return {}
    out = {}
    for label, side, name in node.outputs:
        if side != "key" or name not in node.left_on:
            continue
        rk = rname[node.right_on[node.left_on.index(name)]]
        ta, tb = left.schema.get(name), right.schema.get(rk)
        if ta is not None and tb is not None and ta != tb and ta.is_numeric() and tb.is_numeric() \
                and not (C.encoded(node.left.schema.dtype_of(name)) or C.encoded(node.right.schema.dtype_of(
                    node.right_on[node.left_on.index(name)]))):
            out[name] = rk
    return out


def _arrow_type(t: pl.DataType) -> pa.DataType:
    return pl.Series([], dtype=t).to_arrow().type


def _join_outputs(node: L.Join, lschema: pl.Schema, rschema: pl.Schema, rname: dict[str, str],
                  how: str, both_rows: bool = True, key_types: dict[str, pl.DataType] | None = None) -> list[pl.Expr]:
    """The merge's output columns over the joined frame (left columns, then the right ones renamed),
    plus ``__gf_sort_{i}`` keys where pandas sorts the result. ``both_rows``: both sides have rows
    (pandas coerces categorical keys of different dtypes to strings only then). ``key_types``: the
    type of a right / outer merge's key column over numbers of two types, decided by the joined
    rows (``merge_key_type``): the left key, the right one where the left row is missing."""
    schema = {**dict(lschema), **dict(rschema)}
    plan_types = {**{n: node.left.schema.dtype_of(n) for n in node.left.schema.all_names},
                  **{rname[n]: node.right.schema.dtype_of(n) for n in node.right.schema.all_names if n in rname}}

    def coalesced(own: str, other: str, own_may_miss: bool) -> pl.Expr:
        # a key column one side keeps: its own value, the other side's key where its row is missing
        t_own, t_other = schema[own], schema[other]
        mine, theirs = pl.col(own), pl.col(other)
        p_own, p_other = plan_types.get(own), plan_types.get(other)
        if (C.encoded(p_own) or C.encoded(p_other)) and not (t_own == t_other and p_own == p_other):
            # categoricals of numbers (etc.) of other categories, or one against values: the values
            mine = C.values(mine, p_own) if C.encoded(p_own) else mine
            theirs = C.values(theirs, p_other) if C.encoded(p_other) else theirs
            vo = polars_type(p_own.value_type) if C.encoded(p_own) else t_own
            vt = polars_type(p_other.value_type) if C.encoded(p_other) else t_other
            if vo != vt:
                sup = pl.Float64 if vo.is_float() or vt.is_float() else vo
                mine, theirs = mine.cast(sup), theirs.cast(sup)
        elif isinstance(t_own, (pl.Categorical, pl.Enum)) or isinstance(t_other, (pl.Categorical, pl.Enum)):
            # categories differ, or one side is ordered and the other not (Polars' Enums have no
            # such flag): pandas' strings
            if not (isinstance(t_own, pl.Enum) and t_own == t_other) \
                    or both_rows and _orderedness_differs(node, own, other, rname):
                mine, theirs = mine.cast(pl.String), theirs.cast(pl.String)
        elif own_may_miss:
            theirs = theirs.cast(t_own)
        return pl.coalesce(mine, theirs) if own_may_miss else mine

    exprs = []
    for f, (label, side, name) in zip(node.schema.columns, node.outputs):
        if side == "left":
            exprs.append(pl.col(name).alias(f.name))
        elif side == "right":
            if node.right_key_from_left_index(name):
                lk = node.left_on[node.right_on.index(name)]
                exprs.append(coalesced(rname[name], lk, node.how in ("left", "outer")).alias(f.name))
            else:
                exprs.append(pl.col(rname[name]).alias(f.name))
        else:  # key
            rk = rname[node.right_on[node.left_on.index(name)]]
            if key_types and name in key_types:
                t = key_types[name]
                exprs.append(pl.coalesce(pl.col(name).cast(t), pl.col(rk).cast(t)).alias(f.name))
            elif node.how == "right":  # pandas takes the right keys
                exprs.append(coalesced(rk, name, False).alias(f.name))
            else:
                exprs.append(coalesced(name, rk, node.how == "outer").alias(f.name))
    lidx, ridx = node.left.schema.index_names, node.right.schema.index_names
    if node.index_from == "left":
        exprs.extend(pl.col(n) for n in lidx)
    elif node.index_from == "right":
        exprs.extend(pl.col(rname[n]).alias(n) for n in ridx)
    elif node.index_from == "both":
        exprs.extend(coalesced(a, rname[b], True).alias(a) for a, b in zip(lidx, ridx))
    if (node.how == "outer" or node.sort) and how != "cross":
        # pandas sorts by the join keys: the key values of whichever side has the row
        exprs.extend(coalesced(a, rname[b], True).alias(f"__gf_sort_{i}")
                     for i, (a, b) in enumerate(zip(node.left_on, node.right_on)))
    return exprs


def _orderedness_differs(node: L.Join, a: str, b: str, rname: dict[str, str]) -> bool:
    """Whether join columns ``a`` and ``b`` (internal names over the joined frame, right ones
    renamed by ``rname``) are categoricals of which one is ordered and the other not."""
    back = {v: k for k, v in rname.items()}
    types = []
    for n in (a, b):
        side = node.right.schema if n in back else node.left.schema
        own = back.get(n, n)
        types.append(side.dtype_of(own) if own in side.all_names else None)
    ta, tb = types
    return ta is not None and tb is not None and pa.types.is_dictionary(ta) and pa.types.is_dictionary(tb) \
        and ta.ordered != tb.ordered


def _keep(df: pl.DataFrame, names: set[str]) -> pl.DataFrame:
    """``df``'s columns in ``names`` (at least one column, so that a frame keeps its height)."""
    cols = [c for c in df.columns if c in names] or df.columns[:1]
    return df if len(cols) == df.width else df.select(cols)


def _may_be_null(df: pl.DataFrame, key: pl.Expr) -> bool:
    """Whether a join key can hold nulls (its columns' null counts: O(1) metadata)."""
    return any(df.get_column(n).null_count() > 0 for n in key.meta.root_names())


_DIRECT_TYPES = (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32)
# below this many rows on both sides Polars' hash join is as fast; a small right side with a long
# left one is faster direct (1.8x CPU time on db-benchmark join q2, 1e7 x 1e4 rows: one gather of
# the right rows, the left columns untouched where every row matches)
_DIRECT_MIN_ROWS = 1 << 18


def _direct_join(left: pl.DataFrame, right: pl.DataFrame, lkeys: list[pl.Expr], rkeys: list[pl.Expr],
                 how: str, needed: set[str]) -> pl.DataFrame | None:
    """An inner / left join on one integer key whose right values are distinct and dense (DuckDB's
    "perfect hash join"): a table indexed by key value holds each right row's position, so probing
    is one gather, and the result is in left order without a sort (pandas' order: each left row's
    one match). None where the key does not qualify; the hash join then runs.
    """
    if len(lkeys) != 1 or max(left.height, right.height) < max(_DIRECT_MIN_ROWS, 1) or right.height == 0 \
            or right.height >= 2**31:
        return None
    (lk,), (rk,) = lkeys, rkeys
    lnames, rnames = lk.meta.root_names(), rk.meta.root_names()
    if not (lk.meta.is_column() and rk.meta.is_column() and len(lnames) == 1 and len(rnames) == 1):
        return None
    lcol, rcol = left.get_column(lnames[0]), right.get_column(rnames[0])
    if lcol.dtype not in _DIRECT_TYPES or rcol.dtype not in _DIRECT_TYPES or lcol.null_count() or rcol.null_count():
        return None
    lo, hi = rcol.min(), rcol.max()
    span = int(hi) - int(lo) + 1  # type: ignore[arg-type]
    if span > 2 * right.height + 1024:
        return None
    rv = rcol.cast(pl.Int64).to_numpy()
    table = np.full(span, -1, dtype=np.int32)
    table[rv - lo] = np.arange(right.height, dtype=np.int32)
    if int(np.count_nonzero(table >= 0)) != right.height:  # a key twice: fewer slots filled
        return None
    lv = lcol.cast(pl.Int64).to_numpy()
    inside = (lv >= lo) & (lv <= hi)
    idx = table.take(np.where(inside, lv - lo, 0))
    idx[~inside] = -1
    found = idx >= 0
    rcols = [c for c in right.columns if c in needed]
    if how == "inner" and not found.all():
        left = left.filter(pl.Series(found))
        idx = idx[found]
    if not rcols:
        return left
    pos = pl.Series("__gf_pos", idx)
    if how == "left" and not found.all():  # no match: a null position gathers nulls
        pos = pl.select(pl.when(pos >= 0).then(pos)).to_series()
    return _hconcat([left, right.select(pl.col(rcols).gather(pos))])


@run.register
def _(node: L.MergeIndicator, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    lm, rm = pl.col(node.left_mark), pl.col(node.right_mark)
    state = pl.when(lm.is_null()).then(pl.lit("right_only")).when(rm.is_null()).then(pl.lit("left_only")).otherwise(
        pl.lit("both"))
    name = node.schema.columns[-1].name
    return df.with_columns(state.cast(pl.Enum(["left_only", "right_only", "both"])).alias(name)).select(
        node.schema.all_names)


def _join_keys(node: L.Join, left: pl.DataFrame, right: pl.DataFrame, rname: dict[str, str]) -> tuple[list[pl.Expr], list[pl.Expr]]:
    lk, rk = [], []
    for a, b in zip(node.left_on, node.right_on):
        ta, tb = left.schema[a], right.schema[rname[b]]
        ea, eb = pl.col(a), pl.col(rname[b])
        pa_, pb = node.left.schema.dtype_of(a), node.right.schema.dtype_of(b)
        if ta != tb and (C.encoded(pa_) or C.encoded(pb)):
            # a categorical of numbers (etc.) against another key: matched by value, as pandas does
            if C.encoded(pa_):
                ea, ta = C.values(ea, pa_), polars_type(pa_.value_type)
            if C.encoded(pb):
                eb, tb = C.values(eb, pb), polars_type(pb.value_type)
        if ta != tb:
            if ta.is_numeric() and tb.is_numeric():
                sup = pl.Float64 if (ta.is_float() or tb.is_float()) else pl.Int64
                ea, eb = ea.cast(sup), eb.cast(sup)
            elif isinstance(ta, (pl.Categorical, pl.Enum)) or isinstance(tb, (pl.Categorical, pl.Enum)):
                ea, eb = ea.cast(pl.String), eb.cast(pl.String)
            else:
                raise ValueError(
                    f"You are trying to merge on {_pd_name(ta)} and {_pd_name(tb)} columns for key '{a}'. "
                    "If you wish to proceed you should use pd.concat")
        lk.append(ea)
        rk.append(eb)
    return lk, rk


def _pd_name(t: pl.DataType) -> str:
    return "str" if t == pl.String else str(t).lower()


@run.register
def _(node: L.Union, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    names = node.schema.all_names
    frames = []
    out_types = {f.name: f.dtype for f in list(node.schema.columns) + list(node.schema.index or ())}
    for df, child in zip(inputs, node.children):
        # a categorical of numbers (etc.) that the result does not keep as that categorical: its values
        held = set(child.schema.all_names)
        decode = [C.values(pl.col(n), t).alias(n) for n in df.columns if n in held for t in [child.schema.dtype_of(n)]
                  if C.encoded(t) and n in out_types and out_types[n] != t]
        if decode:
            df = df.with_columns(decode)
        if node.ignore_index:
            keep = [c for c in df.columns if c in set(child.schema.names)]
            # a frame without columns still has rows (missing values in the others' columns)
            df = df.select(keep) if keep or not df.width else df.select(pl.col(df.columns[0]).is_null().alias("__gf_len"))
        frames.append(df)
    out = pl.concat(frames, how="diagonal_relaxed") if len(frames) > 1 else frames[0]
    if not names and out.width:  # no columns, no index: a placeholder keeps the rows (as Select does)
        return out.select(pl.col(out.columns[0]).is_null().alias("__gf_len"))
    for n in names:
        if n not in out.columns:
            out = out.with_columns(pl.lit(None).alias(n))
    if not names and out.width:  # no columns left: a placeholder keeps the height (as Select does)
        return out.select(pl.col(out.columns[0]).is_null().alias("__gf_len"))
    out = out.select(names)
    casts = []
    for f in list(node.schema.columns) + list(node.schema.index or ()):
        if f.dtype is not None and out.schema[f.name] != polars_type(f.dtype) and not pa.types.is_dictionary(f.dtype):
            casts.append(pl.col(f.name).cast(polars_type(f.dtype)))
        elif f.dtype is None and isinstance(f, Field) and out.schema[f.name].is_integer() and node.widened(f.label):
            casts.append(pl.col(f.name).cast(pl.Float64))
    if casts:
        out = out.with_columns(casts)
    undecided = node.undecided_bools()
    if undecided:  # a frame without columns left them missing (its rows): object, as a join's
        MISSING_BOOLS[node] = frozenset(n for n in undecided if out.get_column(n).null_count())
    return promote_missing(out, node.schema)


@run.register
def _(node: L.HConcat, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    # the rules are plan/logical.ALIGN_JOINS'; the GPU engine's kernel implements the same
    idx = node.schema.index_names
    first = inputs[0]
    same = all(df.height == first.height for df in inputs) and all(
        df.select(idx).equals(first.select(idx)) for df in inputs[1:]) if idx else all(df.height == first.height for df in inputs)
    datas = []
    for df, child, in zip(inputs, node.children):
        datas.append(df.select(child.schema.names))
    if same:
        out = _hconcat(datas + [first.select(idx)])
    elif node.join == "exact":
        raise ValueError("Can only compare identically-labeled Series objects")
    elif node.join in ("left", "mask") and idx and inputs[1].select(idx).is_duplicated().any():
        raise ValueError(L.duplicate_labels_message(len(idx)))
    elif node.join == "mask" and (first.height > inputs[1].height if not idx else first.select(idx).join(
            inputs[1].select(idx), on=idx, how="anti", nulls_equal=True).height > 0):
        raise IndexingError(L.UNALIGNABLE_MASK)
    elif not idx:
        # default RangeIndex on every side: align by position (the sorted union of ranges is the
        # longest; reindexing to the first keeps its length)
        n = first.height if node.join in ("left", "mask") else max(df.height for df in inputs)
        frames = [d.with_row_index("__gf_pos") for d in datas]
        out = pl.DataFrame({"__gf_pos": pl.arange(0, n, eager=True).cast(pl.UInt32)})
        for f in frames:
            out = out.join(f, on="__gf_pos", how="left", maintain_order="left")
        out = out.drop("__gf_pos")
    elif node.join in ("left", "mask"):
        out = first.join(inputs[1], on=idx, how="left", nulls_equal=True, maintain_order="left")
    else:
        out = first
        for df in inputs[1:]:
            out = out.join(df, on=idx, how="full", coalesce=True, nulls_equal=True, maintain_order="left_right")
        if node.join == "outer":  # Index.join(how="outer") sorts; equal labels keep the join's left-major order
            out = out.sort(idx, nulls_last=True, maintain_order=True)
    return promote_missing(out.select(node.schema.all_names), node.schema)


@run.register
def _(node: L.SetIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    child = node.child.schema
    base = len(child.index or ()) if node.append else 0
    exprs = [pl.col(f.name) for f in node.schema.columns]
    if node.append:
        exprs += [pl.col(n) for n in child.index_names]
    exprs += [pl.col(k).alias(index_name(base + i)) for i, k in enumerate(node.keys)]
    out = df.select(exprs)
    key = out.get_column(index_name(0))
    if node.range_key is not None and key.dtype in (pl.Int8, pl.Int16, pl.Int32) and _is_int_range(key):
        out = out.with_columns(pl.col(index_name(0)).cast(pl.Int64))  # pandas' RangeIndex: int64
    return out


def _is_int_range(s: pl.Series) -> bool:
    """pandas' ``maybe_sequence_to_range`` test: no values, or two or more evenly spaced by a nonzero step."""
    if len(s) < 2:
        return len(s) == 0
    x = s.cast(pl.Int64)  # narrow ints: their differences fit
    step = x[1] - x[0]
    return step != 0 and bool((x.diff().slice(1) == step).all())


@run.register
def _(node: L.ResetIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    child = node.child.schema
    if node.drop:
        if not child.names and df.width:  # no columns left: a placeholder keeps the height (as Select does)
            return df.select(pl.col(df.columns[0]).is_null().alias("__gf_len"))
        return df.select(child.names)
    if child.index is None:
        df = df.with_row_index(index_name(0)).with_columns(pl.col(index_name(0)).cast(pl.Int64))
        src = [index_name(0)]
    else:
        src = child.index_names
    front = [pl.col(s).alias(f.name) for s, f in zip(src, node.schema.columns)]
    return df.select(front + [pl.col(n) for n in child.names])


@run.register(L.RenameIndex)
@run.register(L.IndexFreq)
def _(node: L.RenameIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    return inputs[0]


@run.register
def _(node: L.Cache, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    return inputs[0]


def kernel(node: L.Plan, inputs: list[Any]) -> pl.DataFrame:
    return run(node, inputs)
