"""Lowering of gframe expressions to Polars expressions, with pandas' semantics.

Op tables map gframe operator / function names to Polars; ``lower`` is the only dispatch. Results
are cast to the type ``plan.typing`` inferred, and a NaN computed by float arithmetic becomes null
(gframe's one missing value), so the engine agrees with pandas and with the GPU engine.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import polars as pl
import pyarrow as pa

from gframe.errors import UnsupportedError
from gframe.plan.expr import ARITHMETIC, COMPARISON, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import ArrowType
from gframe.plan.typing import expr_type

BINARY: dict[str, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "and": operator.and_, "or": operator.or_, "xor": operator.xor,
}

_DT_FIELDS: dict[str, Callable[[pl.Expr], pl.Expr]] = {
    "dt.year": lambda e: e.dt.year(), "dt.month": lambda e: e.dt.month(), "dt.day": lambda e: e.dt.day(),
    "dt.hour": lambda e: e.dt.hour(), "dt.minute": lambda e: e.dt.minute(),
    "dt.second": lambda e: e.dt.second(), "dt.microsecond": lambda e: e.dt.microsecond(),
    "dt.nanosecond": lambda e: e.dt.nanosecond(),
    "dt.dayofweek": lambda e: e.dt.weekday() - 1, "dt.quarter": lambda e: e.dt.quarter(),
    "dt.dayofyear": lambda e: e.dt.ordinal_day(), "dt.date": lambda e: e.dt.date(),
}

# pandas frequency aliases -> Polars durations for floor / ceil / round
_FREQ = {"D": "1d", "h": "1h", "H": "1h", "min": "1m", "T": "1m", "s": "1s", "S": "1s", "ms": "1ms",
         "us": "1us", "ns": "1ns", "W": "1w"}


def polars_type(t: ArrowType) -> pl.DataType:
    """Polars dtype for an Arrow type (through an empty Arrow array, the canonical mapping)."""
    if pa.types.is_dictionary(t):
        return pl.Categorical()
    return pl.from_arrow(pa.array([], type=t)).dtype  # type: ignore[union-attr]


def freq_duration(freq: str) -> str:
    import re

    m = re.fullmatch(r"(\d*)([A-Za-z]+)", freq)
    if not m or m.group(2) not in _FREQ:
        raise UnsupportedError(f"frequency {freq!r}")
    n = int(m.group(1) or 1)
    base = _FREQ[m.group(2)]
    return f"{n * int(base[:-1] if base[-2].isdigit() else base[:-2])}{''.join(ch for ch in base if ch.isalpha())}"


class Lowering:
    """Lowers expressions over one input schema (``lookup`` gives a column's Arrow type)."""

    def __init__(self, lookup: Callable[[str], ArrowType | None]) -> None:
        self.lookup = lookup

    def type_of(self, e: Expr) -> ArrowType | None:
        return expr_type(e, self.lookup)

    def lower(self, e: Expr) -> pl.Expr:
        out = self._lower(e)
        t = self.type_of(e)
        if t is not None and not isinstance(e, (Col, Lit)):
            if pa.types.is_floating(t):
                out = out.cast(polars_type(t)).fill_nan(None)
            elif not pa.types.is_dictionary(t):
                out = out.cast(polars_type(t))
        return out

    def _lower(self, e: Expr) -> pl.Expr:
        if isinstance(e, Col):
            return pl.col(e.name)
        if isinstance(e, Lit):
            return self._literal(e)
        if isinstance(e, BinOp):
            return self._binop(e)
        if isinstance(e, Func):
            return self._func(e)
        if isinstance(e, Agg):
            return self.agg(e)
        raise UnsupportedError(f"cpu engine cannot lower {type(e).__name__}")

    def _literal(self, e: Lit) -> pl.Expr:
        if e.value is None:
            return pl.lit(None, dtype=polars_type(e.dtype) if e.dtype is not None else None)
        if e.dtype is not None:
            return pl.lit(e.value, dtype=polars_type(e.dtype))
        import pandas as pd

        if isinstance(e.value, pd.Timestamp):
            return pl.lit(e.value.to_pydatetime() if e.value.tz is None else e.value.to_pydatetime()).cast(
                polars_type(pa.timestamp(e.value.unit, tz=str(e.value.tz) if e.value.tz else None)))
        if isinstance(e.value, pd.Timedelta):
            return pl.lit(e.value.to_pytimedelta())
        return pl.lit(e.value)

    def _binop(self, e: BinOp) -> pl.Expr:
        op = e.op
        left, right = self.lower(e.left), self.lower(e.right)
        lt, rt = self.type_of(e.left), self.type_of(e.right)
        if op in ARITHMETIC:
            if op in ("truediv",):
                left, right = left.cast(pl.Float64), right.cast(pl.Float64)
            elif op in ("floordiv", "mod") and _is_int(lt) and _is_int(rt):
                # pandas: integer // 0 and % 0 give inf / NaN; floats keep numpy semantics
                res = BINARY[op](left, right)
                return pl.when(right == 0).then(None).otherwise(res)
            elif op == "pow" and _is_int(lt) and _is_int(rt):
                return left.pow(right)
            elif op == "add" and (_is_bool(lt) and _is_bool(rt)):
                return left | right
            elif op == "mul" and (_is_bool(lt) and _is_bool(rt)):
                return left & right
            elif _is_bool(lt) or _is_bool(rt):
                left, right = left.cast(pl.Int64) if _is_bool(lt) else left, right.cast(pl.Int64) if _is_bool(rt) else right
            return BINARY[op](left, right)
        if op in COMPARISON:
            res = BINARY[op](left, right)
            # pandas: a comparison with a missing value is False (!= is True)
            return res.fill_null(op == "ne")
        # logical: missing counts as False, as pandas does for NaN in object/bool ops
        if _is_bool(lt) or lt is None:
            left = left.fill_null(False)
        if _is_bool(rt) or rt is None:
            right = right.fill_null(False)
        return BINARY[op](left, right)

    def _func(self, e: Func) -> pl.Expr:
        fn = e.fn
        args = [self.lower(c) for c in e.children]
        x = args[0] if args else None
        xt = self.type_of(e.children[0]) if e.children else None
        if fn == "neg":
            return -x
        if fn == "invert":
            return ~x
        if fn == "abs":
            return x.abs()
        if fn == "isna":
            return x.is_null() | (x.is_nan() if _is_float(xt) else pl.lit(False))
        if fn == "notna":
            return x.is_not_null() & (x.is_not_nan() if _is_float(xt) else pl.lit(True))
        if fn == "fillna":
            return x.fill_null(args[1])
        if fn == "coalesce":
            return pl.coalesce(args)
        if fn == "where":
            cond, other = args[1], args[2]
            return pl.when(cond.fill_null(False)).then(x).otherwise(other)
        if fn == "clip":
            lo, hi = e.param("lower"), e.param("upper")
            return x.clip(lo, hi)
        if fn == "round":
            d = e.param("decimals", 0)
            if _is_int(xt):
                return x if d >= 0 else (x.cast(pl.Float64).round(d).cast(polars_type(xt)))
            return x.round(d, mode="half_to_even")
        if fn == "isin":
            values = list(e.param("values"))
            has_null = any(v is None or (isinstance(v, float) and v != v) for v in values)
            values = [v for v in values if not (v is None or (isinstance(v, float) and v != v))]
            if not values:
                res = pl.lit(False)
            else:
                try:
                    res = x.is_in(pl.Series(values).cast(polars_type(xt)) if xt is not None else values)
                except Exception:  # noqa: BLE001 - values of another type never match
                    res = pl.lit(False)
                res = res.fill_null(False)
            if has_null:
                res = res | x.is_null()
            return res
        if fn == "cast":
            return self._cast(x, xt, e.param("dtype"))
        if fn == "shift":
            return x.shift(e.param("periods", 1))
        if fn.startswith("str."):
            return self._str(fn[4:], x, e)
        if fn in _DT_FIELDS:
            return _DT_FIELDS[fn](x)
        if fn in ("dt.floor", "dt.ceil", "dt.round"):
            every = freq_duration(e.param("freq"))
            if fn == "dt.floor":
                return x.dt.truncate(every)
            if fn == "dt.round":
                return x.dt.round(every)
            fl = x.dt.truncate(every)
            return pl.when(fl == x).then(fl).otherwise(fl.dt.offset_by(every))
        raise UnsupportedError(f"cpu engine has no function {fn!r}")

    def _cast(self, x: pl.Expr, from_t: ArrowType | None, to_t: ArrowType) -> pl.Expr:
        if pa.types.is_large_string(to_t) and from_t is not None:
            if pa.types.is_floating(from_t):
                # pandas formats floats like repr(): 1.0, 0.5, 1e-05
                return x.map_elements(lambda v: repr(float(v)), return_dtype=pl.String)
            if pa.types.is_boolean(from_t):
                return pl.when(x).then(pl.lit("True")).otherwise(pl.lit("False")).cast(pl.String).fill_null(None) if True else x
            return x.cast(pl.String)
        if pa.types.is_integer(to_t) and _is_float(from_t):
            return x.cast(polars_type(to_t), strict=True)
        return x.cast(polars_type(to_t))

    def _str(self, name: str, x: pl.Expr, e: Func) -> pl.Expr:
        p = e.param
        s = x.str
        if name == "contains":
            pat = p("pat")
            if not p("case", True):
                pat = pat.lower() if not p("regex", True) else f"(?i){pat}"
                if not p("regex", True):
                    return x.str.to_lowercase().str.contains(pat, literal=True)
            return s.contains(pat, literal=not p("regex", True))
        if name == "startswith":
            return s.starts_with(p("pat"))
        if name == "endswith":
            return s.ends_with(p("pat"))
        if name == "len":
            return s.len_chars()
        if name == "lower":
            return s.to_lowercase()
        if name == "upper":
            return s.to_uppercase()
        if name in ("strip", "lstrip", "rstrip"):
            fn = {"strip": s.strip_chars, "lstrip": s.strip_chars_start, "rstrip": s.strip_chars_end}[name]
            return fn(p("to_strip"))
        if name == "slice":
            start, stop, step = p("start"), p("stop"), p("step")
            if step not in (None, 1) or (start is not None and start < 0) or (stop is not None and stop < 0):
                raise UnsupportedError("str.slice with negative bounds or a step")
            start = start or 0
            length = None if stop is None else max(stop - start, 0)
            return s.slice(start, length)
        if name == "replace":
            n = p("n", -1)
            literal = not p("regex", False)
            if n == -1:
                return s.replace_all(p("pat"), p("repl"), literal=literal)
            if n == 1:
                return s.replace(p("pat"), p("repl"), literal=literal, n=1)
            raise UnsupportedError("str.replace with n > 1")
        if name == "split_get":
            pat, i = p("pat"), p("i")
            if pat is None:
                raise UnsupportedError("str.split without a separator")
            parts = s.split(pat)
            return parts.list.get(i, null_on_oob=True)
        raise UnsupportedError(f"cpu engine has no str.{name}")

    def agg(self, e: Agg) -> pl.Expr:
        """Lower an aggregation (in a group_by context or over a whole frame)."""
        fn = e.fn
        if fn == "size":
            return pl.len()
        x = self.lower(e.child)
        xt = self.type_of(e.child)
        ddof = e.param("ddof", 1)
        if fn == "sum":
            if _is_string(xt):
                raise UnsupportedError("sum of strings")
            out = x.sum()
        elif fn == "mean":
            out = x.mean()
        elif fn == "median":
            out = x.median()
        elif fn == "min":
            out = x.min()
        elif fn == "max":
            out = x.max()
        elif fn == "count":
            out = x.count()
        elif fn == "std":
            out = x.std(ddof=ddof)
        elif fn == "var":
            out = x.var(ddof=ddof)
        elif fn == "prod":
            out = x.product()
        elif fn == "any":
            out = x.cast(pl.Boolean).any() if not _is_string(xt) else (x.str.len_bytes() > 0).any()
        elif fn == "all":
            out = x.cast(pl.Boolean).all() if not _is_string(xt) else (x.str.len_bytes() > 0).all()
        elif fn == "nunique":
            out = x.drop_nulls().n_unique() if e.param("dropna", True) else x.n_unique()
        elif fn == "first":
            out = x.drop_nulls().first()
        elif fn == "last":
            out = x.drop_nulls().last()
        else:
            raise UnsupportedError(f"aggregation {fn!r}")
        t = self.type_of(e)
        if t is not None and not pa.types.is_dictionary(t):
            out = out.cast(polars_type(t))
            if pa.types.is_floating(t):
                out = out.fill_nan(None)
        return out


def _is_int(t: Any) -> bool:
    return t is not None and pa.types.is_integer(t)


def _is_float(t: Any) -> bool:
    return t is not None and pa.types.is_floating(t)


def _is_bool(t: Any) -> bool:
    return t is not None and pa.types.is_boolean(t)


def _is_string(t: Any) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))
