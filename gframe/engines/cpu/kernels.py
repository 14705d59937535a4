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
    return df.with_columns(casts) if casts else df


@singledispatch
def run(node: L.Plan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    raise UnsupportedError(f"cpu engine has no kernel for {type(node).__name__}")


@run.register
def _(node: L.InMemoryScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    table: pa.Table = node.table.value
    return pl.from_arrow(table, rechunk=False)  # type: ignore[return-value]


@run.register
def _(node: L.ParquetScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    mapping = dict(node.file_columns)  # file name -> internal
    want = node.schema.all_names
    reverse = {v: k for k, v in mapping.items()}
    lf = pl.scan_parquet(node.path)
    if node.predicate is not None:
        # the predicate is over internal names: rename first, Polars pushes both into the reader
        lf = lf.rename({k: v for k, v in mapping.items() if k != v})
        lf = lf.filter(lowering(node.file_schema).lower(node.predicate).fill_null(False))
        lf = lf.select(want)
    else:
        lf = lf.select([pl.col(reverse[n]).alias(n) for n in want])
    if node.n_rows is not None:
        lf = lf.head(node.n_rows)
    return lf.collect()


@run.register
def _(node: L.CsvScan, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    from gframe.io.csv import read_csv_native

    return read_csv_native(node)


@run.register
def _(node: L.Select, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    low = lowering(node.child.schema)
    exprs = []
    for f, (label, e) in zip(node.schema.columns, node.outputs):
        exprs.append(low.lower(e).alias(f.name))
    exprs.extend(pl.col(n) for n in node.schema.index_names)
    if not exprs:
        return df.select([])
    out = df.select(exprs)
    if df.width and out.height != df.height:  # all-literal outputs broadcast to the input's length
        out = df.select([pl.col(df.columns[0]).alias("__gf_len")]).with_columns(exprs).drop("__gf_len")
    return out


@run.register
def _(node: L.Filter, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    return df.filter(lowering(node.child.schema).lower(node.predicate).fill_null(False))


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
def _(node: L.TopK, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    if node.k <= 0:
        return df.head(0)
    by = _sort_keys(node.by, node.child.schema)
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
    if not node.keys:
        if not aggs:
            return pl.DataFrame()
        out = df.select(aggs)
        return out
    keys = list(node.keys)
    key_out = [f.name for f in (node.schema.index or ())] if node.keys_as_index else [
        f.name for f in node.schema.columns[: len(keys)]]
    src = df
    if node.dropna:
        src = src.drop_nulls(subset=keys)
    renamed = [pl.col(k).alias(o) for k, o in zip(keys, key_out)]
    if not aggs:
        aggs = [pl.len().alias("__gf_len")]
    out = src.group_by(renamed, maintain_order=not node.sort).agg(aggs)
    if node.sort:
        out = out.sort(_sort_keys(tuple(key_out), _key_schema(node, key_out)), nulls_last=True, maintain_order=True)
    if "__gf_len" in out.columns and "__gf_len" not in node.schema.all_names:
        out = out.drop("__gf_len")
    return _order(out, node.schema)


def _key_schema(node: L.Aggregate, key_out: list[str]) -> dict[str, Any]:
    child = node.child.schema
    return {n: child.dtype_of(k) for n, k in zip(key_out, node.keys)}


@run.register
def _(node: L.GroupHead, inputs: list[pl.DataFrame]) -> pl.DataFrame:
    (df,) = inputs
    keys = list(node.keys)
    rank = pl.int_range(pl.len()).over(keys)
    out = df.filter(rank < node.n)
    if node.dropna:
        out = out.drop_nulls(subset=keys)
    return out


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
    exprs = []
    for f, (label, side, name) in zip(node.schema.columns, node.outputs):
        if side == "left":
            exprs.append(pl.col(name).alias(f.name))
        elif side == "right":
            exprs.append(pl.col(rname[name]).alias(f.name))
        else:  # coalesced key: pandas takes the left value, the right one where the left is missing
            rk = node.right_on[node.left_on.index(name)]
            if node.how == "right":
                exprs.append(pl.col(rname[rk]).alias(f.name))
            elif node.how == "outer":
                exprs.append(pl.coalesce(pl.col(name), pl.col(rname[rk]).cast(joined.schema[name])).alias(f.name))
            else:
                exprs.append(pl.col(name).alias(f.name))
    if node.index_from == "left":
        exprs.extend(pl.col(n) for n in node.left.schema.index_names)
    elif node.index_from == "right":
        exprs.extend(pl.col(rname[n]).alias(n) for n in node.right.schema.index_names)
    out = joined.select(exprs)
    if node.sort or node.how == "outer":
        keycols = [f.name for f, (_, side, _) in zip(node.schema.columns, node.outputs) if side == "key"]
        if not keycols and node.index_from != "none":
            keycols = node.schema.index_names
        if not keycols:
            # keys were not kept under one name (left_on/right_on): sort by the left keys' values
            lab = {name: f.name for f, (_, side, name) in zip(node.schema.columns, node.outputs) if side == "left"}
            keycols = [lab[k] for k in node.left_on if k in lab]
        if keycols:
            out = out.sort(keycols, nulls_last=True, maintain_order=True)
    return promote_missing(out, node.schema)


def _join_keys(node: L.Join, left: pl.DataFrame, right: pl.DataFrame, rname: dict[str, str]) -> tuple[list[pl.Expr], list[pl.Expr]]:
    lk, rk = [], []
    for a, b in zip(node.left_on, node.right_on):
        ta, tb = left.schema[a], right.schema[rname[b]]
        ea, eb = pl.col(a), pl.col(rname[b])
        if ta != tb:
            if ta.is_numeric() and tb.is_numeric():
                sup = pl.Float64 if (ta.is_float() or tb.is_float()) else pl.Int64
                ea, eb = ea.cast(sup), eb.cast(sup)
            elif ta == pl.Categorical or tb == pl.Categorical:
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
