"""Lowering of gframe expressions to Polars expressions, with pandas' semantics.

Op tables map gframe operator / function names to Polars; ``lower`` is the only dispatch. Results
are cast to the type ``plan.dtypes`` inferred, and a NaN computed by float arithmetic becomes null
(gframe's one missing value), so the engine agrees with pandas and with the GPU engine.
"""
from __future__ import annotations

import operator
from typing import Any, Callable

import polars as pl
import pyarrow as pa

from gframe.errors import UnsupportedError
from gframe.plan.expr import ARITHMETIC, COMPARISON, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.freq import freq_in_unit
from gframe.plan.schema import PYOBJECT, ArrowType
from gframe.plan.dtypes import expr_type

BINARY: dict[str, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "and": operator.and_, "or": operator.or_, "xor": operator.xor,
}

# pandas' datetime fields (int32; the Lowering leaves nulls where the input is NaT)
_DT_FIELDS: dict[str, Callable[[pl.Expr], pl.Expr]] = {
    "dt.year": lambda e: e.dt.year(), "dt.month": lambda e: e.dt.month(), "dt.day": lambda e: e.dt.day(),
    "dt.hour": lambda e: e.dt.hour(), "dt.minute": lambda e: e.dt.minute(),
    "dt.second": lambda e: e.dt.second(), "dt.microsecond": lambda e: e.dt.microsecond(),
    "dt.nanosecond": lambda e: e.dt.nanosecond(),
    "dt.dayofweek": lambda e: e.dt.weekday() - 1, "dt.quarter": lambda e: e.dt.quarter(),
    "dt.dayofyear": lambda e: e.dt.ordinal_day(),
}

# numpy ufuncs (the input already cast to the float result type)
_UFUNCS: dict[str, Callable[[pl.Expr], pl.Expr]] = {
    "sqrt": lambda e: e.sqrt(), "exp": lambda e: e.exp(), "log": lambda e: e.log(), "log2": lambda e: e.log(2),
    "log10": lambda e: e.log10(), "log1p": lambda e: e.log1p(), "sin": lambda e: e.sin(), "cos": lambda e: e.cos(),
    "tan": lambda e: e.tan(), "arcsin": lambda e: e.arcsin(), "arccos": lambda e: e.arccos(),
    "arctan": lambda e: e.arctan(), "sinh": lambda e: e.sinh(), "cosh": lambda e: e.cosh(), "tanh": lambda e: e.tanh(),
    "floor": lambda e: e.floor(), "ceil": lambda e: e.ceil(), "rint": lambda e: e.round(0, mode="half_to_even"),
    "sign": lambda e: e.sign(),
}

# Python's str.isX predicates as regexes over the whole (non-empty) string
_CHAR_CLASSES = {"isdigit": r"^\d+$", "isalpha": r"^\p{Alphabetic}+$", "isalnum": r"^[\p{Alphabetic}\d]+$",
                 "isspace": r"^\s+$"}


def polars_type(t: ArrowType) -> pl.DataType:
    """Polars dtype for an Arrow type (through an empty Arrow array, the canonical mapping)."""
    if pa.types.is_dictionary(t):
        return pl.Categorical()
    return pl.from_arrow(pa.array([], type=t)).dtype  # type: ignore[union-attr]


class Lowering:
    """Lowers expressions over one input schema (``lookup`` gives a column's Arrow type)."""

    def __init__(self, lookup: Callable[[str], ArrowType | None], data: pl.DataFrame | None = None) -> None:
        # the input frame, where a kernel has it: value-dependent dtypes (a column the plan types
        # None, int // 0) are decided from the data
        self.data = data
        self.lookup = lookup if data is None else _data_lookup(lookup, data)

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
        if isinstance(e, (BinOp, Func, Agg)) and not (isinstance(e, Agg) and e.fn == "size") \
                and any(self.type_of(c) == PYOBJECT for c in e.children):
            # pickled Python objects: the engine moves them, pandas computes on them
            raise UnsupportedError(f"{getattr(e, 'fn', getattr(e, 'op', ''))} of a column of mixed Python objects "
                                   "is not native (pandas computes it: use a method that falls back)")
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
            elif op in ("floordiv", "mod") and _is_intlike(lt) and _is_intlike(rt):
                return self._int_division(op, e, left, right, lt, rt)
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

    def _int_division(self, op: str, e: BinOp, left: pl.Expr, right: pl.Expr, lt: Any, rt: Any) -> pl.Expr:
        """pandas' integer ``//`` and ``%``: x // 0 is +-inf (0 // 0 NaN) and x % 0 NaN, so the
        result is float64 where a divisor is 0 and int64 otherwise (``plan.dtypes`` says None)."""
        left = left.cast(pl.Int64) if _is_bool(lt) else left
        right = right.cast(pl.Int64) if _is_bool(rt) else right
        res = BINARY[op](left, right)
        if self.type_of(e) is not None:  # a nonzero literal divisor: exact integer result
            return res
        if op == "mod":
            return pl.when(right == 0).then(None).otherwise(res)
        has_zero = True
        if self.data is not None:
            has_zero = bool(self.data.select((right == 0).any()).item())
        if not has_zero:
            return res
        quotient = left.cast(pl.Float64) / right.cast(pl.Float64)  # +-inf, NaN for the zeros
        return pl.when(right == 0).then(quotient).otherwise(res.cast(pl.Float64))

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
                if xt is not None:
                    # pandas: values of another type never match (1 in a string column, "a" in ints)
                    values = [v for v in values if _same_kind(v, xt)]
                try:
                    res = x.is_in(pl.Series(values).cast(polars_type(xt)) if xt is not None and values else values) \
                        if values else pl.lit(False)
                except (TypeError, pl.exceptions.PolarsError):  # e.g. 1.5 against an int column
                    res = x.cast(pl.Float64).is_in(pl.Series([float(v) for v in values])) if _is_int(xt) else pl.lit(False)
                res = res.fill_null(False)
            if has_null:
                res = res | x.is_null()
            return res
        if fn == "cast":
            if not e.param("strict", True):  # unparsable values become missing (astype's checks)
                return x.cast(polars_type(e.param("dtype")), strict=False)
            return self._cast(x, xt, e.param("dtype"))
        if fn == "duplicated":  # rows equal to an earlier (keep="first") / later row; missing equals missing
            key = args[0] if len(args) == 1 else pl.struct(args)
            keep = e.param("keep", "first")
            if keep == "first":
                return ~key.is_first_distinct()
            if keep == "last":
                return ~key.is_last_distinct()
            return key.is_duplicated()
        if fn == "ufunc":
            name = e.param("name")
            t = self.type_of(e)
            if t is not None and pa.types.is_floating(t):
                x = x.cast(polars_type(t))
            return _UFUNCS[name](x)
        if fn == "shift":
            return x.shift(e.param("periods", 1))
        if fn == "udf":  # a Numba-compiled function (gframe/udf): one jitted loop over the inputs' values
            udf = e.param("udf")
            return pl.map_batches(args, lambda cols: pl.Series(udf.run_host([c.to_arrow() for c in cols])),
                                  return_dtype=polars_type(udf.result_type), is_elementwise=True)
        if fn.startswith("str."):
            return self._str(fn[4:], x, e)
        if fn in _DT_FIELDS:
            return _DT_FIELDS[fn](x).cast(pl.Int32)
        if fn == "dt.date":
            return x.dt.date()
        if fn in ("dt.floor", "dt.ceil", "dt.round"):
            dtype = polars_type(xt)
            every = freq_in_unit(int(e.param("freq")), dtype.time_unit)  # ticks of the physical unit
            if not every:
                raise UnsupportedError(f"{fn} to {e.param('freq')}ns on a {dtype.time_unit} column")
            return x if every == 1 else _round_datetime(fn[3:], x, every, dtype)
        raise UnsupportedError(f"cpu engine has no function {fn!r}")

    def _cast(self, x: pl.Expr, from_t: ArrowType | None, to_t: ArrowType) -> pl.Expr:
        if pa.types.is_large_string(to_t) and from_t is not None:
            if pa.types.is_floating(from_t):
                return _float_repr(x.cast(pl.String))
            if pa.types.is_boolean(from_t):
                return pl.when(x).then(pl.lit("True")).otherwise(pl.lit("False"))
            return x.cast(pl.String)
        if pa.types.is_integer(to_t) and _is_float(from_t):
            return x.cast(polars_type(to_t), strict=True)
        if pa.types.is_dictionary(to_t):
            if not pa.types.is_large_string(to_t.value_type) and not pa.types.is_string(to_t.value_type):
                return x  # numeric categories: the engine keeps the values, pandas sees a category
            return x.cast(pl.String).cast(pl.Categorical())
        return x.cast(polars_type(to_t))

    def _str(self, name: str, x: pl.Expr, e: Func) -> pl.Expr:
        p = e.param
        s = x.str
        if name in ("contains", "startswith", "endswith") or name in _CHAR_CLASSES or name in ("islower", "isupper"):
            return self._str_predicate(name, x, e).fill_null(p("na"))
        if name == "len":
            return s.len_chars().cast(pl.Int64)
        if name == "lower":
            return s.to_lowercase()
        if name == "upper":
            return s.to_uppercase()
        if name == "title":
            return s.to_titlecase()
        if name in ("strip", "lstrip", "rstrip"):
            fn = {"strip": s.strip_chars, "lstrip": s.strip_chars_start, "rstrip": s.strip_chars_end}[name]
            return fn(p("to_strip"))
        if name == "slice":
            return _py_slice(x, p("start"), p("stop"))
        if name == "get":
            i = p("i")
            n = s.len_chars()
            inside = (n > i) if i >= 0 else (n >= -i)
            return pl.when(inside).then(s.slice(i, 1)).otherwise(None)
        if name == "replace":
            return self._str_replace(x, e)
        if name == "to_datetime":  # unparsable values become missing (the frontend checks there are none)
            return s.strptime(pl.Datetime(p("unit", "us")), p("format"), strict=False, exact=True)
        if name == "split_get":
            pat, n, i = p("pat"), p("n", -1), p("i")
            if pat is None:  # Python's str.split(): runs of whitespace, no empty parts
                if n is not None and n > 0:
                    raise UnsupportedError("str.split() on whitespace with a maximum")
                parts = s.extract_all(r"\S+")
            elif n is not None and n > 0:
                if i < 0:
                    raise UnsupportedError("str.split(n=...) with a negative index")
                if i > n:
                    return pl.lit(None, dtype=pl.String)
                return s.splitn(pat, n + 1).struct.field(f"field_{i}")
            else:
                parts = s.split(pat)
            return parts.list.get(i, null_on_oob=True)
        raise UnsupportedError(f"cpu engine has no str.{name}")

    def _str_predicate(self, name: str, x: pl.Expr, e: Func) -> pl.Expr:
        p = e.param
        s = x.str
        if name == "contains":
            pat, case, regex = p("pat"), p("case", True), p("regex", True)
            if case:
                return s.contains(pat, literal=not regex)
            return s.contains("(?i)" + (pat if regex else pl.escape_regex(pat)))
        if name in ("startswith", "endswith"):
            fn = s.starts_with if name == "startswith" else s.ends_with
            pats = p("pat")
            if not pats:
                return pl.when(x.is_null()).then(None).otherwise(pl.lit(False))
            out = fn(pats[0])
            for pat in pats[1:]:
                out = out | fn(pat)
            return out
        if name in _CHAR_CLASSES:
            return s.contains(_CHAR_CLASSES[name])
        # islower / isupper: some cased character, none of the other case
        lower, upper = s.to_lowercase(), s.to_uppercase()
        cased = lower != upper
        return (x == lower) & cased if name == "islower" else (x == upper) & cased

    def _str_replace(self, x: pl.Expr, e: Func) -> pl.Expr:
        p = e.param
        pat, repl, n, case, regex = p("pat"), p("repl"), p("n", -1), p("case", True), p("regex", False)
        if n == 0:
            return x
        if not case:
            pat, regex = "(?i)" + (pat if regex else pl.escape_regex(pat)), True
            if repl is not None and not p("regex", False):
                repl = repl.replace("$", "$$")  # a literal replacement inside a regex substitution
        if n < 0:
            return x.str.replace_all(pat, repl, literal=not regex)
        return x.str.replace(pat, repl, literal=not regex, n=n)

    def agg(self, e: Agg) -> pl.Expr:
        """Lower an aggregation (in a group_by context or over a whole frame)."""
        fn = e.fn
        if fn == "size":
            return pl.len().cast(pl.Int64)
        if self.type_of(e.child) == PYOBJECT:
            raise UnsupportedError(f"{fn} of a column of mixed Python objects is not native")
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
        elif fn == "corr":  # Pearson over the rows where both are present, as pandas
            out = pl.corr(x.cast(pl.Float64), self.lower(e.other).cast(pl.Float64))
        elif fn == "cov":
            out = pl.cov(x.cast(pl.Float64), self.lower(e.other).cast(pl.Float64), ddof=ddof)
        elif fn == "quantile":  # numpy's methods, by the same names
            out = x.quantile(e.param("q"), interpolation=e.param("interpolation", "linear"))
        else:
            raise UnsupportedError(f"aggregation {fn!r}")
        return out

    def agg_finish(self, e: Agg, name: str) -> pl.Expr | None:
        """Cast an aggregated column to its inferred type, NaN -> null; applied *after* the group-by.

        Inside a group-by context these would turn Polars' fast aggregations into per-group
        expressions (10x slower), so kernels apply them to the aggregated frame instead.
        """
        t = self.type_of(e)
        if t is None or pa.types.is_dictionary(t):
            return None
        out = pl.col(name).cast(polars_type(t))
        return out.fill_nan(None) if pa.types.is_floating(t) else out


def _data_lookup(lookup: Callable[[str], ArrowType | None], data: pl.DataFrame) -> Callable[[str], ArrowType | None]:
    """The plan's column types, with the data's type where the plan leaves it to the data (None)."""
    from gframe.plan.schema import normalize_arrow_type

    def look(name: str) -> ArrowType | None:
        t = lookup(name)
        if t is None and name in data.schema:
            dt = data.schema[name]
            if dt.is_numeric() or dt == pl.Boolean:
                return normalize_arrow_type(data.select(name).head(0).to_arrow().schema.field(0).type)
        return t

    return look


def _round_datetime(how: str, x: pl.Expr, every: int, dtype: pl.DataType) -> pl.Expr:
    """pandas' Timestamp floor / ceil / round to ``every`` ticks of the column's unit, relative to
    the epoch, on the physical integers (round: half to even, as pandas)."""
    v = x.cast(pl.Int64)
    q = v // every
    if how == "floor":
        out = q * every
    elif how == "ceil":
        out = -((-v) // every) * every
    else:
        r = v - q * every
        up = (2 * r > every) | ((2 * r == every) & (q % 2 == 1))
        out = (q + up.cast(pl.Int64)) * every
    return out.cast(dtype)


def _py_slice(x: pl.Expr, start: int | None, stop: int | None) -> pl.Expr:
    """Python's ``s[start:stop]`` on every string (negative bounds count from the end)."""
    if (start is None or start >= 0) and (stop is None or stop >= 0):
        begin = start or 0
        return x.str.slice(begin, None if stop is None else max(stop - begin, 0))
    n = x.str.len_chars().cast(pl.Int64)

    def bound(b: int | None, default: pl.Expr) -> pl.Expr:
        if b is None:
            return default
        if b >= 0:
            return pl.min_horizontal(pl.lit(b, dtype=pl.Int64), n)
        return pl.max_horizontal(n + b, pl.lit(0, dtype=pl.Int64))

    lo = bound(start, pl.lit(0, dtype=pl.Int64))
    hi = bound(stop, n)
    return x.str.slice(lo, pl.max_horizontal(hi - lo, pl.lit(0, dtype=pl.Int64)))


_SMALL_FIXED = r"^(-?)0\.(0{4,})([1-9])(\d*)$"


def _float_repr(s: pl.Expr) -> pl.Expr:
    """Polars' float text as Python's ``repr`` (pandas' ``astype(str)``).

    Both print the shortest round-trip digits; they differ in notation only: Python switches to
    scientific below 1e-4 (Polars prints ``0.00001``) and pads the exponent to two digits
    (``1e-07``, Polars ``1e-7``).
    """
    parts = s.str.extract_groups(_SMALL_FIXED)
    sign, zeros, first, rest = (parts.struct.field(f) for f in ("1", "2", "3", "4"))
    exponent = zeros.str.len_chars() + 1
    scientific = pl.concat_str([
        sign, first, pl.when(rest == "").then(pl.lit("")).otherwise(pl.lit(".") + rest),
        pl.lit("e-"), exponent.cast(pl.String).str.pad_start(2, "0"),
    ])
    padded = s.str.replace(r"e-(\d)$", "e-0${1}")
    return pl.when(s.str.contains(_SMALL_FIXED)).then(scientific).otherwise(padded)


def _same_kind(v: Any, t: Any) -> bool:
    """Whether a Python value can equal values of Arrow type ``t`` (pandas' isin semantics)."""
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, bool) and pa.types.is_integer(t)
    if pa.types.is_boolean(t):
        return isinstance(v, (bool, int)) and v in (0, 1)
    if pa.types.is_large_string(t) or pa.types.is_string(t):
        return isinstance(v, str)
    return True


def _is_int(t: Any) -> bool:
    return t is not None and pa.types.is_integer(t)


def _is_float(t: Any) -> bool:
    return t is not None and pa.types.is_floating(t)


def _is_intlike(t: Any) -> bool:
    return t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t))


def _is_bool(t: Any) -> bool:
    return t is not None and pa.types.is_boolean(t)


def _is_string(t: Any) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))
