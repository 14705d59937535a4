"""GPU declarations of the functions of a whole column (a row's value depends on other rows):
``shift``, ``duplicated``, ``rank``. Each lowering sits beside the check that says when it applies."""
from __future__ import annotations

from typing import Any

import pyarrow as pa

from gframe.engines.gpu.functions import declare
from gframe.engines.gpu.kinds import kind
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.plan.expr import Func

Types = "list[pa.DataType | None]"
BOOL, F64 = pa.bool_(), pa.float64()


def _shift_reason(e: Func, args: Types, t: Any) -> str | None:
    return None if isinstance(e.param("periods", 1), int) and t is not None else "shift with these options"


@declare("shift", reason=_shift_reason)
def _shift(ev: Any, e: Func) -> Any:
    col = E.as_column(ev.eval(e.children[0]), ev.n)
    return plc.copying.shift(col, int(e.param("periods", 1)), E.scalar(None, E.col_type(col)))


def _duplicated_reason(e: Func, args: Types, t: Any) -> str | None:
    keep = e.param("keep", "first")
    return None if keep in ("first", "last", "none") else f"duplicated keep={keep!r}"


@declare("duplicated", reason=_duplicated_reason)
def _duplicated(ev: Any, e: Func) -> Any:
    """Rows equal to an earlier (keep="first") / later ("last") / any other ("none") row, missing
    equal to missing: every row True but those ``distinct_indices`` keeps."""
    cols = [E.as_column(ev.eval(c), ev.n) for c in e.children]
    if e.param("float_when_missing") and cols[0].null_count() > 0:  # pandas' float64 compare (``L.floats_where_missing``)
        t = E.col_type(cols[0])
        x = cols[0] if pa.types.is_integer(t) else plc.unary.bit_cast(cols[0], E.plc_type(pa.int64()))
        cols = [plc.unary.cast(x, E.plc_type(F64))]
    keep = {"first": "KEEP_FIRST", "last": "KEEP_LAST"}.get(e.param("keep", "first"), "KEEP_NONE")
    out = E.as_column(E.Const(True, BOOL), ev.n)
    if ev.n == 0:
        return out
    kept = plc.stream_compaction.distinct_indices(
        plc.Table(cols), getattr(plc.stream_compaction.DuplicateKeepOption, keep), plc.types.NullEquality.EQUAL,
        plc.types.NanEquality.ALL_EQUAL)
    return plc.copying.scatter([E.scalar(False, BOOL)], kept, plc.Table([out])).columns()[0]


# ------------------------------------------------------------------------------------------ rank

_RANK_METHODS = {"average": "AVERAGE", "min": "MIN", "max": "MAX", "first": "FIRST", "dense": "DENSE"}


def _rank_reason(e: Func, args: Types, t: Any) -> str | None:
    if kind(args[0]) not in ("int", "uint", "float", "bool", "ts", "dur"):
        return f"rank of {args[0]}"
    if e.param("method") == "first" and e.param("na_option") != "keep":
        return "rank(method='first') with missing values placed first or last"
    return None


@declare("rank", reason=_rank_reason)
def _rank(ev: Any, e: Func) -> Any:
    """libcudf ranks the present values (missing ones stay missing); the missing values' ranks for
    na_option top / bottom and the percentage are pandas' arithmetic on that (as the CPU engine)."""
    method, na_option, pct = e.param("method"), e.param("na_option"), e.param("pct")
    col = E.nan_to_null(E.as_column(ev.eval(e.children[0]), ev.n))
    ascending = e.param("ascending")
    order = plc.types.Order.ASCENDING if ascending else plc.types.Order.DESCENDING
    # the missing values must sort last, or they take rank positions before the present ones (libcudf
    # places them as the largest value with AFTER, the smallest with BEFORE, whatever the order)
    nulls = plc.types.NullOrder.AFTER if ascending else plc.types.NullOrder.BEFORE
    r = plc.sorting.rank(col, getattr(plc.aggregation.RankMethod, _RANK_METHODS[method]), order,
                         plc.types.NullPolicy.EXCLUDE, nulls, False)
    r = E.cast(r, F64)
    n = ev.n
    k = col.null_count()
    m = n - k
    dense = method == "dense"
    top_ranks = m  # the last present value's rank: the number of present values, or of distinct ones
    if dense and m:
        top_ranks = plc.reduce.reduce(r, plc.aggregation.max(), E.plc_type(F64)).to_py()
    if na_option != "keep" and k:
        missing = {"average": (k + 1) / 2, "min": 1.0, "max": float(k), "dense": 1.0}[method]
        if na_option == "top":
            r = ev.binary("ADD", r, E.Const(1.0 if dense else float(k), F64), F64)
        else:
            missing += top_ranks
        r = plc.replace.replace_nulls(r, E.scalar(missing, F64))
    if pct:
        denom = top_ranks if na_option == "keep" else (top_ranks + (1 if k else 0) if dense else n)
        r = ev.binary("TRUE_DIV", r, E.Const(float(denom), F64), F64)
    return r
