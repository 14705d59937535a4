"""CPU declarations of the functions of a whole column (a row's value depends on other rows):
``shift``, ``duplicated``, ``rank``, and pandas' window aggregations ``rolling`` (also expanding)
and ``ewm`` (``functions.py``)."""
from __future__ import annotations

from typing import Any

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


# ------------------------------------------------------------------------- rolling / expanding / ewm

# an expanding window: a fixed window longer than any column (Polars' rolling kernels keep running
# state, not a buffer of the window's size, so the width costs nothing)
EXPANDING_ROWS = 2**31 - 1
# pandas' ``closed`` of a fixed window of ``w`` rows -> (rows in the window, rows it ends before the row)
# (pandas' ``FixedWindowIndexer``: "left" and "both" start a row earlier, "left" and "neither" end one)
_FIXED_CLOSED = {None: (0, 0), "right": (0, 0), "left": (0, 1), "both": (1, 0), "neither": (-1, 1)}
_POLARS_CLOSED = {None: "right", "right": "right", "left": "left", "both": "both", "neither": "none"}


def _window_kernel(x: pl.Expr, fn: str, e: Func, by: pl.Expr | None, window: Any, min_samples: int,
                   closed: str) -> pl.Expr:
    """pandas' rolling aggregation ``fn`` of the float64 values ``x`` over the windows of ``window``
    rows ending at each row (or, with ``by``, of ``window`` ns of time): missing values are nulls,
    which Polars' kernels skip and ``min_samples`` does not count, as pandas' NaN."""
    interpolation, ddof = e.param("interpolation"), e.param("ddof", 1)
    if fn.startswith("quantile:"):  # (an interpolation of the caller's choosing)
        fn, interpolation = fn.split(":")
    if fn.startswith("var:"):  # (a ddof of the caller's choosing)
        fn, ddof = "var", int(fn.split(":")[1])
    if fn == "count":
        fn = "sum"
    if by is not None:
        kw: dict[str, Any] = {"window_size": f"{window}ns", "min_samples": min_samples, "closed": closed}
        if fn in ("std", "var"):
            kw["ddof"] = ddof
        if fn == "quantile":
            return x.rolling_quantile_by(by, quantile=e.param("q"), interpolation=interpolation, **kw)
        return getattr(x, f"rolling_{fn}_by")(by, **kw)
    kw = {"window_size": window, "min_samples": min_samples}
    if fn in ("std", "var"):
        return getattr(x, f"rolling_{fn}")(ddof=ddof, **kw)
    if fn == "quantile":
        return x.rolling_quantile(e.param("q"), interpolation, **kw)
    if fn in ("skew", "kurt"):
        # both are unchanged by a shift of the values: shifted by the column's first value, Polars'
        # power sums keep the digits that pandas' (mean-shifted) moments keep for values far from 0
        x = x - _first_finite(x)
        if fn == "skew":
            return x.rolling_skew(bias=False, **kw)
        return x.rolling_kurtosis(fisher=True, bias=False, **kw)
    return getattr(x, f"rolling_{fn}")(**kw)


def _finite(x: pl.Expr) -> pl.Expr:
    """The values as pandas' window functions take them: float64, infinities missing (``_prep_values``)."""
    x = x.cast(pl.Float64)
    return pl.when(x.is_finite()).then(x)


def _window_kernel_ddof(place: Any, v: pl.Expr, ddof: int, min_periods: int) -> pl.Expr:
    """``place``'s rolling variance of ``v`` with this ``ddof`` (a ``var:<ddof>`` aggregation)."""
    return place(v, f"var:{ddof}", min_periods)


def _first_finite(x: pl.Expr) -> pl.Expr:
    """The first finite value (0 without any): a shift that keeps a window's spread exact and does
    not depend on the rows after it (a longer column gives the same first results)."""
    m = x.filter(x.is_finite()).first()
    return pl.when(m.is_not_null()).then(m).otherwise(0.0)


@declare("rolling")
def _rolling(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """pandas' rolling / expanding aggregations over float64 values (pandas computes every numeric
    input as float64, infinities as missing; ``count`` counts the present values of any column). Polars' kernels match
    pandas' NaN and ``min_periods`` rules; sums and means are running sums as pandas' (last bits may
    differ). A fixed window is pandas' ``FixedWindowIndexer``: row ``i``'s window is the ``rows``
    rows ending at ``i + shift`` (``center`` moves the end down by (window-1)//2 rows, ``closed``
    adds or drops a row and ends a row earlier: ``_FIXED_CLOSED``), i.e. the right-aligned window
    of Polars read ``shift`` rows further on, past the end over missing values (windows pandas
    clips at the last row). A time window (``by``: the last input, strictly increasing timestamps,
    which the frontend checked) is Polars' ``rolling_*_by`` of the same closure. An empty window is
    missing, but its ``sum`` / ``count`` is 0 where ``min_periods`` is 0 (as pandas).

    ``cov`` / ``corr`` take a second input: pandas' ``roll_cov`` / ``roll_corr`` of the pair, each
    missing where the other is, from Polars' (online, stable) rolling variances:
    ``cov = (var(x + y) - var(x) - var(y)) / 2``, ``corr = cov / sqrt(var(x) var(y))``. A pair
    holding an infinite value is missing (pandas' ``x + 0 * y`` makes the other NaN); a correlation
    of values without spread is NaN."""
    fn, by = e.param("agg"), args[-1] if e.param("by") else None
    window, min_periods, closed = e.param("window"), e.param("min_periods"), e.param("closed")

    def place(x: pl.Expr, fn: str, min_periods: int) -> pl.Expr:
        if by is not None:
            return _window_kernel(x, fn, e, by, window, min_periods, _POLARS_CLOSED[closed])
        if window is None:
            return _window_kernel(x, fn, e, None, EXPANDING_ROWS, min_periods, "right")
        extra, before = _FIXED_CLOSED[closed]
        rows = window + extra
        if rows < 1 or min_periods > rows:  # every window is empty, or holds fewer rows than min_periods
            return pl.when(pl.int_range(pl.len()) < 0).then(pl.lit(0.0)).otherwise(None)
        # (pandas centers a window of 0 rows too: its "both" window is the row before)
        shift = ((window - 1) // 2 if e.param("center") or window == 0 else 0) - before
        if shift > 0:
            padded = x.append(pl.repeat(None, shift, dtype=pl.Float64))
            return _window_kernel(padded, fn, e, None, rows, min_periods, "right").slice(shift, pl.len())
        return _window_kernel(x, fn, e, None, rows, min_periods, "right").shift(-shift)

    if fn in ("cov", "corr"):
        x, y = args[0].cast(pl.Float64), args[1].cast(pl.Float64)
        both = x.is_finite() & y.is_finite()  # (pandas' x + 0 * y is NaN where y is infinite, and so on)
        x, y = pl.when(both).then(x), pl.when(both).then(y)
        ddof = e.param("ddof", 1) if fn == "cov" else 1

        def var(v: pl.Expr) -> pl.Expr:
            return _window_kernel_ddof(place, v, ddof, min_periods)

        vx, vy = var(x), var(y)
        cov = (var(x + y) - vx - vy) / 2
        if fn == "cov":
            return cov
        spread = vx * vy
        return pl.when(spread > 0).then(cov / spread.sqrt()).otherwise(pl.when(spread.is_not_null()).then(float("nan")))
    x = args[0]
    x = x.is_not_null().cast(pl.Float64) if fn == "count" else _finite(x)
    if fn == "quantile" and e.param("interpolation") == "nearest":
        # pandas rounds a position halfway between two values to the even one (numpy's round);
        # Polars rounds it up: at such a tie, the lower value for an even lower position
        n = place(x.is_not_null().cast(pl.Float64), "sum", 0)
        position = (n - 1) * e.param("q")
        low = position.floor()
        tie = (position - low) == 0.5
        return pl.when(tie & (low % 2 == 0)).then(place(x, "quantile:lower", min_periods)) \
            .when(tie).then(place(x, "quantile:higher", min_periods)).otherwise(place(x, fn, min_periods))
    out = place(x, fn, min_periods)
    return out.fill_null(0.0) if min_periods == 0 and fn in ("sum", "count") else out


@declare("ewm")
def _ewm(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """pandas' exponentially weighted mean / sum / std / var: Polars' ``ewm_*`` with pandas' weights
    (``adjust``, ``ignore_na``); Polars leaves a missing row missing where pandas repeats the
    previous value (the row adds no observation), hence the forward fill."""
    x = _finite(args[0])
    kw = {"alpha": e.param("alpha"), "adjust": e.param("adjust"), "min_samples": e.param("min_periods"),
          "ignore_nulls": e.param("ignore_na")}
    fn = e.param("agg")
    if fn == "mean":
        out = x.ewm_mean(**kw)
    elif fn == "sum":  # (with ignore_na: the frontend sends no other; pandas refuses adjust=False)
        out = x.ewm_sum(alpha=kw["alpha"], min_samples=kw["min_samples"], ignore_nulls=True)
    else:
        out = getattr(x, f"ewm_{fn}")(bias=bool(e.param("bias")), **kw)
    return out.forward_fill()
