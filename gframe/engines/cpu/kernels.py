"""CPU kernels: one function per plan node, over eager Polars frames.

A kernel receives its node and its already-evaluated inputs (``pl.DataFrame`` whose columns are the
input schema's internal names: data columns, then index columns) and returns the output frame in
the same convention. ``run`` dispatches by node type; the recursion lives in ``engines/evaluate``.
pandas semantics (row order, null keys, index) are applied here with Polars' own options
(``maintain_order``, ``nulls_equal``...), never by a loop over rows.
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any

import polars as pl
import pyarrow as pa

from gframe.engines.cpu.expressions import Lowering, polars_type
from gframe.errors import UnsupportedError
from gframe.plan import logical as L
from gframe.plan.expr import Lit
from gframe.plan.schema import Schema, index_name


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
        if f.dtype is None and f.name in df.columns:
            col = df.get_column(f.name)
            if col.dtype.is_integer() and col.null_count() > 0:
                casts.append(pl.col(f.name).cast(pl.Float64))
        elif f.dtype is not None and pa.types.is_dictionary(f.dtype) and f.name in df.columns \
                and isinstance(df.schema[f.name], pl.Categorical):
            # a categorical made from values (astype('category')): pandas' categories are the
            # sorted distinct values
            cats = df.get_column(f.name).cast(pl.String).drop_nulls().unique().sort()
            casts.append(pl.col(f.name).cast(pl.String).cast(pl.Enum(cats.to_list())))
    return df.with_columns(casts) if casts else df


@singledispatch
def run(node: L.Plan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    raise UnsupportedError(f"cpu engine has no kernel for {type(node).__name__}")


@run.register
def _(node: L.InMemoryScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    table: pa.Table = node.table.value
    return _with_categories(pl.from_arrow(table, rechunk=False), table)  # type: ignore[arg-type]


def _with_categories(df: pl.DataFrame, table: pa.Table) -> pl.DataFrame:
    """String categoricals as Polars Enums of the table's dictionary: pandas' categories (all of
    them, observed or not, in their order) then travel in the dtype, and sorting by the physical
    codes is pandas' category order."""
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
    mapping = dict(node.file_columns)  # file name -> internal
    want = node.schema.all_names
    reverse = {v: k for k, v in mapping.items()}
    lf = pl.scan_parquet(node.path)
    if node.row_index:  # file positions, numbered before the filter (Polars keeps them exact)
        lf = lf.with_row_index(index_name(0)).with_columns(pl.col(index_name(0)).cast(pl.Int64))
        mapping = {**mapping, index_name(0): index_name(0)}
        reverse[index_name(0)] = index_name(0)
    if node.predicate is not None:
        # the predicate is over internal names: rename first, Polars pushes both into the reader
        lf = lf.rename({k: v for k, v in mapping.items() if k != v})
        simple = _statistics_filter(node.predicate, node.file_schema)
        if simple is not None:  # plain comparisons Polars can check against row-group statistics
            lf = lf.filter(simple)
        lf = lf.filter(lowering(node.file_schema).lower(node.predicate).fill_null(False))
        lf = lf.select(want)
    else:
        lf = lf.select([pl.col(reverse[n]).alias(n) for n in want])
    if node.n_rows is not None:
        lf = lf.head(node.n_rows)
    return lf.collect()


_STATS_OPS = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}
_FLIPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def _statistics_filter(pred: Any, schema: Schema) -> pl.Expr | None:
    """The ``column <op> number/string`` conjuncts of a scan's predicate as plain Polars
    comparisons: the lowered predicate (casts, fill_null) is opaque to Polars' row-group pruning.
    Each conjunct is implied by the predicate, so filtering by them first changes nothing."""
    from gframe.plan.expr import BinOp, Col, Lit

    parts: list[pl.Expr] = []
    stack = [pred]
    while stack:
        e = stack.pop()
        if isinstance(e, BinOp) and e.op == "and":
            stack.extend((e.left, e.right))
        elif isinstance(e, BinOp) and e.op in _STATS_OPS:
            col, lit, op = e.left, e.right, e.op
            if isinstance(col, Lit) and isinstance(lit, Col):
                col, lit, op = lit, col, _FLIPPED[op]
            if not (isinstance(col, Col) and isinstance(lit, Lit) and lit.dtype is None):
                continue
            t = schema.dtype_of(col.name)
            numeric = t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t))
            text = t is not None and (pa.types.is_string(t) or pa.types.is_large_string(t))
            if (type(lit.value) in (int, float) and numeric and lit.value == lit.value) or (type(lit.value) is str and text):
                parts.append(getattr(pl.col(col.name), _STATS_OPS[op])(lit.value))
    if not parts:
        return None
    out = parts[0]
    for p in parts[1:]:
        out = out & p
    return out


@run.register
def _(node: L.CsvScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    from gframe.io.csv import read_csv_native

    return read_csv_native(node)


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
    if len(by) == 1:
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
    keys.append(pl.col("__gf_pos"))
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
def _(node: L.Aggregate, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = lowering(node.child.schema)
    agg_names = [f.name for f in node.schema.columns[-len(node.aggs):]] if node.aggs else []
    aggs = [low.agg(a).alias(n) for n, (_, a) in zip(agg_names, node.aggs)]
    finish = [f for f in (low.agg_finish(a, n) for n, (_, a) in zip(agg_names, node.aggs)) if f is not None]
    if not node.keys:
        if not aggs:
            return pl.DataFrame()
        out = df.select(aggs)
        return out.with_columns(finish) if finish else out
    keys = list(node.keys)
    key_out = [f.name for f in (node.schema.index or ())] if node.keys_as_index else [
        f.name for f in node.schema.columns[: len(keys)]]
    src = df
    if node.dropna:
        src = src.drop_nulls(subset=keys)
    renamed = [pl.col(k).alias(o) for k, o in zip(keys, key_out)]
    if not aggs:
        aggs = [pl.len().alias("__gf_len")]
    # through Polars' lazy API: it reads only the key and value columns (measured 1.2-1.4x faster
    # than the eager group_by on the db-benchmark questions)
    if node.sort:
        lazy = src.lazy().group_by(renamed).agg(aggs)
    else:
        # pandas' sort=False: groups in order of first appearance. A hash group-by plus each group's
        # first row position, sorted, beats Polars' maintain_order (2x on many groups, db-benchmark
        # q5/q10 at 1e7 rows; within 15% on few groups)
        pos = "__gf_pos"
        lazy = (src.lazy().with_row_index(pos).group_by(renamed).agg([*aggs, pl.col(pos).min()])
                .sort(pos).drop(pos))
    if finish:
        lazy = lazy.with_columns(finish)
    out = lazy.collect()
    if node.sort:
        out = out.sort(_sort_keys(tuple(key_out), _key_schema(node, key_out)), nulls_last=True, maintain_order=True)
    if "__gf_len" in out.columns and "__gf_len" not in node.schema.all_names:
        out = out.drop("__gf_len")
    return _order(out, node.schema)


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
    return promote_missing(out.select(node.schema.all_names), node.schema)


@run.register
def _(node: L.GroupWindow, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = lowering(node.child.schema)
    keys = list(node.keys)
    exprs, finish = [], []
    for f, (_, a) in zip(node.schema.columns, node.outputs):
        if a.param("cumulative", False):
            pos = pl.int_range(pl.len(), dtype=pl.Int64)
            e = (pos if a.param("ascending", True) else pos.reverse()).over(keys)
        else:
            e = low.agg(a).over(keys)
            done = low.agg_finish(a, f.name)
            if done is not None:
                finish.append(done)
        if node.dropna:
            e = pl.when(pl.all_horizontal([pl.col(k).is_not_null() for k in keys])).then(e)
        exprs.append(e.alias(f.name))
    out = df.select(exprs + [pl.col(n) for n in node.schema.index_names])
    if finish:
        out = out.with_columns(finish)
    return promote_missing(out, node.schema)


@run.register
def _(node: L.GroupHead, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    keys = list(node.keys)
    if node.dropna:
        df = df.drop_nulls(subset=keys)
    # the first n rows of each group, back in their original order (faster than a window rank)
    pos = "__gf_pos"
    out = df.with_row_index(pos).group_by(keys).head(node.n).sort(pos)
    return out.select(df.columns)


@run.register
def _(node: L.Join, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    left, right = inputs
    rname = {c: f"__gf_r_{c}" for c in right.columns}
    right = right.rename(rname)
    how = {"outer": "full"}.get(node.how, node.how)
    order = {"inner": "left_right", "left": "left_right", "right": "right_left", "full": "left_right",
             "cross": "left_right"}[how]
    if how == "cross":
        joined = left.join(right, how="cross", maintain_order="left_right")
    else:
        lkeys, rkeys = _join_keys(node, left, right, rname)
        joined = left.join(right, left_on=lkeys, right_on=rkeys, how=how, nulls_equal=True,
                           coalesce=False, maintain_order=order)

    def coalesced(own: str, other: str, own_may_miss: bool) -> pl.Expr:
        # a key column one side keeps: its own value, the other side's key where its row is missing
        t_own, t_other = joined.schema[own], joined.schema[other]
        mine, theirs = pl.col(own), pl.col(other)
        if isinstance(t_own, (pl.Categorical, pl.Enum)) or isinstance(t_other, (pl.Categorical, pl.Enum)):
            if not (isinstance(t_own, pl.Enum) and t_own == t_other):  # categories differ: pandas' strings
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
            if node.how == "right":  # pandas takes the right keys
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
    if node.how == "outer" or node.sort:
        # pandas sorts by the join keys: the key values of whichever side has the row
        sort_keys = [coalesced(a, rname[b], True).alias(f"__gf_sort_{i}") if how != "cross" else None
                     for i, (a, b) in enumerate(zip(node.left_on, node.right_on))]
        exprs.extend(k for k in sort_keys if k is not None)
    out = joined.select(exprs)
    sort_names = [c for c in out.columns if c.startswith("__gf_sort_")]
    if sort_names:
        out = out.sort(sort_names, nulls_last=True, maintain_order=True).drop(sort_names)
    return promote_missing(out, node.schema)


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
    for df, child in zip(inputs, node.children):
        if node.ignore_index:
            df = df.select([c for c in df.columns if c in set(child.schema.names)])
        frames.append(df)
    out = pl.concat(frames, how="diagonal_relaxed") if len(frames) > 1 else frames[0]
    for n in names:
        if n not in out.columns:
            out = out.with_columns(pl.lit(None).alias(n))
    out = out.select(names)
    casts = []
    for f in list(node.schema.columns) + list(node.schema.index or ()):
        if f.dtype is not None and out.schema[f.name] != polars_type(f.dtype) and not pa.types.is_dictionary(f.dtype):
            casts.append(pl.col(f.name).cast(polars_type(f.dtype)))
    if casts:
        out = out.with_columns(casts)
    return promote_missing(out, node.schema)


@run.register
def _(node: L.HConcat, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    idx = node.schema.index_names
    first = inputs[0]
    same = all(df.height == first.height for df in inputs) and all(
        df.select(idx).equals(first.select(idx)) for df in inputs[1:]) if idx else all(df.height == first.height for df in inputs)
    datas = []
    for df, child, in zip(inputs, node.children):
        datas.append(df.select(child.schema.names))
    if same:
        out = pl.concat(datas + [first.select(idx)], how="horizontal")
    else:
        if not idx:
            # default RangeIndex on every side: align by position, the longer side wins
            n = max(df.height for df in inputs)
            frames = [d.with_row_index("__gf_pos") for d in datas]
            out = pl.DataFrame({"__gf_pos": pl.arange(0, n, eager=True).cast(pl.UInt32)})
            for f in frames:
                out = out.join(f, on="__gf_pos", how="left", maintain_order="left")
            out = out.drop("__gf_pos")
        else:
            out = inputs[0]
            for df in inputs[1:]:
                out = out.join(df, on=idx, how="full", coalesce=True, nulls_equal=True, maintain_order="left_right")
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
    return df.select(exprs)


@run.register
def _(node: L.ResetIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    child = node.child.schema
    if node.drop:
        return df.select(child.names)
    if child.index is None:
        df = df.with_row_index(index_name(0)).with_columns(pl.col(index_name(0)).cast(pl.Int64))
        src = [index_name(0)]
    else:
        src = child.index_names
    front = [pl.col(s).alias(f.name) for s, f in zip(src, node.schema.columns)]
    return df.select(front + [pl.col(n) for n in child.names])


@run.register
def _(node: L.RenameIndex, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    return inputs[0]


@run.register
def _(node: L.Cache, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    return inputs[0]


def kernel(node: L.Plan, inputs: list[Any]) -> pl.DataFrame:
    return run(node, inputs)
