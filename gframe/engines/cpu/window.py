"""CPU declarations of the functions of a whole column (a row's value depends on other rows):
``shift``, ``duplicated``, ``rank`` (``functions.py``)."""
from __future__ import annotations

import polars as pl
import pyarrow as pa

from gframe.engines.cpu.expressions import Lowering
from gframe.engines.cpu.functions import declare
from gframe.plan.expr import Func

Args = "list[pl.Expr]"


@declare("shift")
def _shift(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return args[0].shift(e.param("periods", 1))


@declare("duplicated")
def _duplicated(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Rows equal to an earlier (keep="first") / later row; missing equals missing. With
    ``float_when_missing`` (``L.floats_where_missing``) the one key compares as float64 where it
    has a missing value, exactly otherwise: the pair (float64 or missing, value or missing)."""
    key = args[0] if len(args) == 1 else pl.struct(args)
    if e.param("float_when_missing"):
        x = key.to_physical()
        lossy = x.null_count() > 0
        key = pl.struct(pl.when(lossy).then(x.cast(pl.Float64)).alias("f"), pl.when(~lossy).then(x).alias("x"))
    keep = e.param("keep", "first")
    if keep == "first":
        return ~key.is_first_distinct()
    if keep == "last":
        return ~key.is_last_distinct()
    return key.is_duplicated()


_RANK_METHODS = {"average": "average", "min": "min", "max": "max", "first": "ordinal", "dense": "dense"}


@declare("rank")
def _rank(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """pandas' rank: Polars ranks the present values (NaN is missing, as in pandas), then pandas'
    arithmetic places the missing ones first / last (na_option) and divides by the count (pct)."""
    method, na_option = e.param("method"), e.param("na_option")
    x, xt = args[0], lo.type_of(e.children[0])
    if xt is not None and pa.types.is_floating(xt):
        x = x.fill_nan(None)
    elif xt is not None and pa.types.is_boolean(xt):
        x = x.cast(pl.UInt8)
    r = x.rank(_RANK_METHODS[method], descending=not e.param("ascending")).cast(pl.Float64)
    dense = method == "dense"
    missing_count = x.null_count().cast(pl.Float64)
    top_rank = r.max().fill_null(0.0) if dense else x.count().cast(pl.Float64)  # the last present value's
    if na_option != "keep":
        if method == "first":  # missing values in their order of appearance
            missing = x.is_null().cast(pl.Float64).cum_sum()
        else:
            missing = {"average": (missing_count + 1) / 2, "min": pl.lit(1.0), "max": missing_count,
                       "dense": pl.lit(1.0)}[method]
        if na_option == "top":
            r = r + ((missing_count > 0).cast(pl.Float64) if dense else missing_count)
        else:
            missing = missing + top_rank
        r = pl.when(x.is_null()).then(missing).otherwise(r)
    if e.param("pct"):
        if na_option == "keep":
            denom = top_rank
        else:
            denom = top_rank + (missing_count > 0).cast(pl.Float64) if dense else pl.len().cast(pl.Float64)
        r = r / denom
    return r
