"""Lowering of gframe expressions to Polars expressions, with pandas' semantics.

Operators map to Polars by table, functions by their declarations (``functions.py``:
``rowwise.py``, ``strings.py``, ``datetimes.py``, ``window.py``); ``lower`` is the only dispatch. Results
are cast to the type ``plan.dtypes`` inferred, and a NaN computed by float arithmetic becomes null
(gframe's one missing value), so the engine agrees with pandas and with the GPU engine.
"""
from __future__ import annotations

import math
import operator

import numpy as np
from typing import Any, Callable

import polars as pl
import pyarrow as pa

from gframe.engines.cpu.functions import FUNCTIONS
from gframe.errors import UnsupportedError
from gframe.plan.expr import ARITHMETIC, COMPARISON, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import MASKED, PYOBJECT, ArrowType, is_string
from gframe.plan.dtypes import (aggregate_type, expr_family, expr_type, family_lookup, int_division_type, is_python_number,
                                 keeps_missing)

BINARY: dict[str, Callable[[pl.Expr, pl.Expr], pl.Expr]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "and": operator.and_, "or": operator.or_, "xor": operator.xor,
}

# aggregations whose float result depends on the order values are added in (engines keep that order
# fixed, so a plan gives the same bits every run), and that pandas' group kernels accumulate in float64
FLOAT64_ACCUMULATED = frozenset({"sum", "mean", "std", "var", "prod"})


def polars_type(t: ArrowType) -> pl.DataType:
    """Polars dtype for an Arrow type (through an empty Arrow array, the canonical mapping)."""
    if pa.types.is_dictionary(t):
        return pl.Categorical()
    return pl.from_arrow(pa.array([], type=t)).dtype  # type: ignore[union-attr]


def _encoded_cat(e: Expr, t: ArrowType | None) -> bool:
    """Whether ``e`` (of plan type ``t``) is held as an Enum of encodings (a categorical of numbers,
    bools, temporal values: ``engines/cpu/categorical.py``)."""
    from gframe.engines.cpu import categorical as C

    return C.encoded(t) and not C.holds_values(e)


def exact_divisor(value: float, t: pl.DataType) -> pl.Expr:
    """A scalar divisor as a column of type ``t``, so the division is IEEE's, as numpy's.

    Polars divides a float column by a scalar as a multiplication by its reciprocal: ``x / 3`` is off
    by one bit from numpy's in about a third of the rows (float32 ``round(2)``: 2.675 gave 2.6799998,
    numpy 2.68). By a column it divides exactly. The column is a zero of the value's sign plus the
    value (Polars takes ``z + 0.0`` as ``z``, so the zero carries the sign of a zero divisor)."""
    value = float(value)
    zero = -0.0 if math.copysign(1.0, value) < 0 else 0.0
    return pl.int_range(pl.len()).cast(t) * pl.lit(zero, dtype=t) + pl.lit(value, dtype=t)


class Lowering:
    """Lowers expressions over one input schema (``lookup`` gives a column's Arrow type)."""

    def __init__(self, lookup: Callable[[str], ArrowType | None], data: pl.DataFrame | None = None) -> None:
        # the input frame, where a kernel has it: value-dependent dtypes (a column the plan types
        # None, int // 0) are decided from the data
        self.data = data
        self.family = family_lookup(lookup)  # pandas dtype families: NA semantics of comparisons
        self.lookup = lookup if data is None else _data_lookup(lookup, data)
        # the columns without NaN of a group-by whose rows are already in group order (pandas then
        # sums float32 with numpy's reduceat, and its mean is float64): set by the kernel, for ``_float32_group``
        self.sorted_groups: frozenset[str] = frozenset()

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
        import pandas as pd

        if isinstance(e.value, pd.Timedelta):  # exactly, in its own unit (a Python timedelta drops ns)
            unit = e.value.unit if e.value.unit != "s" else "ms"
            out = pl.lit(e.value.as_unit(unit).asm8.astype(np.int64)).cast(pl.Duration(unit))
            return out.cast(polars_type(e.dtype)) if e.dtype is not None else out
        if isinstance(e.value, pd.Timestamp) and e.value is not pd.NaT:
            # exactly, from its ticks (UTC for a tz-aware one) in its own unit: a Python datetime drops
            # the nanoseconds (x < Timestamp(38 ns) was x < 0 on an [ns] column)
            unit = e.value.unit if e.value.unit != "s" else "ms"
            tz = str(e.value.tz) if e.value.tz else None
            out = pl.lit(e.value.as_unit(unit)._value, dtype=pl.Int64).cast(pl.Datetime(unit, tz))
            return out.cast(polars_type(e.dtype)) if e.dtype is not None else out
        if e.dtype is not None:
            return pl.lit(e.value, dtype=polars_type(e.dtype))
        return pl.lit(e.value)

    def _binop(self, e: BinOp) -> pl.Expr:
        op = e.op
        left, right = self.lower(e.left), self.lower(e.right)
        lt, rt = self.type_of(e.left), self.type_of(e.right)
        if op in ARITHMETIC:
            t = self.type_of(e)
            if op == "mul" and is_string(t):  # a string repeated (plan.dtypes: a string times an int)
                text, times = (left, right) if is_string(lt) else (right, left)
                repeated = text.repeat_by(pl.max_horizontal(times.cast(pl.Int64), pl.lit(0, dtype=pl.Int64))).list.join("")
                return pl.when(text.is_null() | times.is_null()).then(None).otherwise(repeated)
            if t is not None and pa.types.is_decimal(t):
                return _decimal_binary(op, left, right, lt, rt, e, t)
            if _is_decimal(lt) or _is_decimal(rt):  # with a float: in float64, as Arrow casts
                left, right = left.cast(pl.Float64), right.cast(pl.Float64)
            if op in ("truediv",):
                # in the result's float type, as numpy (float32 / 0.1 divides in float32)
                ft = pl.Float32 if t is not None and pa.types.is_float32(t) else pl.Float64
                left, right = left.cast(ft), right.cast(ft)
                if isinstance(e.right, Lit) and is_python_number(e.right.value):
                    right = exact_divisor(e.right.value, ft)
            elif op in ("floordiv", "mod") and _is_intlike(lt) and _is_intlike(rt) \
                    and not pa.types.is_floating(int_division_type(lt, rt, e.left, e.right)):
                return self._int_division(op, e, left, right, lt, rt)  # (int64 with uint64: numpy's float64, below)
            elif op == "floordiv" and t is None and pa.float32() in (lt, rt) and _is_numeric(lt) and _is_numeric(rt):
                # float32 // 0 of a number: pandas' float64 (plan.dtypes.numeric_result), decided by the data
                # (the type is the data's: ``lower`` cannot make numpy's NaN missing, so it is done here)
                res = _numpy_binary(op, left.cast(pl.Float32), right.cast(pl.Float32), pl.Float32).fill_nan(None)
                zero = (right == 0) & left.is_not_null() & ~left.cast(pl.Float32).is_nan()
                if self.data is None or self.data.height and bool(self.data.select(zero.any()).item()):
                    return res.cast(pl.Float64)
                return res
            elif op in ("floordiv", "mod") and _is_float(t) and _is_numeric(lt) and _is_numeric(rt):
                return _numpy_binary(op, left.cast(polars_type(t)), right.cast(polars_type(t)), polars_type(t))
            elif op == "pow" and _is_int(t) and _is_intlike(lt) and _is_intlike(rt):
                # numpy refuses a negative integer exponent where there are rows to raise (ValueError;
                # over no rows it gives the empty result): checked on the data where the node has it
                # (an unsigned exponent is never negative: uint64 past int64's range does not cast to it)
                negative = (right.cast(pl.Int64) < 0) & left.is_not_null() if not _is_unsigned(rt) else pl.lit(False)
                if self.data is not None and self.data.height and bool(self.data.select(negative.any()).item()):
                    raise ValueError("Integers to negative integer powers are not allowed.")
                if self.data is not None and isinstance(e.right, Lit) and isinstance(e.right.value, int) and e.right.value < 0:
                    return left.cast(polars_type(t))  # no rows to raise: the (empty or missing) column, typed
                # both sides in the result's width: Polars types a bare literal base as Int32 (3 ** x overflows)
                pt = polars_type(t)
                left, right = left.cast(pt), right.cast(pt)
                # pandas' nullable ints: 1 ** NA and NA ** 0 are 1 (its pow masks); numpy's ints hold no
                # missing value, and where gframe's int column does (pandas' float64 NaN), numpy's
                # NaN ** 0 and 1 ** NaN are 1 too
                return pl.when((right == 0) | (left == 1)).then(pl.lit(1, dtype=pt)).otherwise(self._int_pow(left, right, pt))
            elif op == "pow" and _is_float(t) and _is_numeric(lt) and _is_numeric(rt):
                # numpy: x ** 0 and 1 ** x are 1 even for NaN (gframe's null in a float column)
                pt = polars_type(t)
                left, right = left.cast(pt), right.cast(pt)
                # float32: numpy's own power (its SIMD kernels and ``arr ** 2``'s square are not a
                # correctly rounded powf; Polars' float32 pow, x * x * x for ** 3, is neither): ulps apart
                raised = left.pow(right)
                if pt == pl.Float32:
                    scalar = e.right.value if isinstance(e.right, Lit) and is_python_number(e.right.value) else None
                    raised = _numpy_binary("pow", left, right, pt, scalar)
                return pl.when((right == 0) | (left == 1)).then(pl.lit(1.0, dtype=pt)).otherwise(raised)
            elif t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)):
                # both sides in the result's unit first (Polars keeps the left one's: [us] + 1 ns dropped the ns)
                unit = t.unit if t.unit != "s" else "ms"  # Polars has no [s]
                self._check_unit_fits(op, e, left, right, lt, rt, t.unit)
                left, right = _in_unit(left, lt, unit), _in_unit(right, rt, unit)
            elif op in ("add", "mul") and (_is_bool(lt) and _is_bool(rt)):
                # numpy's bool + is or, * is and; pandas' boolean arithmetic is missing where an operand
                # is (its masks or'ed), not Kleene's True | NA = True of the logical ops
                res = left | right if op == "add" else left & right
                return pl.when(left.is_null() | right.is_null()).then(None).otherwise(res)
            elif _is_bool(lt) or _is_bool(rt):
                # a bool operand in the result's int type (uint8 + bool is uint8, wrapping as numpy does)
                as_int = polars_type(t) if _is_int(t) else pl.Int64
                left, right = left.cast(as_int) if _is_bool(lt) else left, right.cast(as_int) if _is_bool(rt) else right
            if op == "add" and _is_float(t) and any(_is_zero_literal(x) for x in (e.left, e.right)):
                # Polars simplifies ``0 + x`` to ``x``, but in IEEE (numpy) -0.0 + 0.0 is 0.0: a sum
                # of a row of -0.0 (``DataFrame.sum(axis=1)`` starts from 0, as numpy) or ``x + 0``
                other = right if _is_zero_literal(e.left) else left
                return pl.when(other == 0).then(pl.lit(0.0, dtype=polars_type(t))).otherwise(BINARY[op](left, right))
            return BINARY[op](left, right)
        na = keeps_missing(e, self.family, self.lookup)
        if op in COMPARISON and (_encoded_cat(e.left, lt) or _encoded_cat(e.right, rt)):
            return self._cat_compare(e, left, right, lt, rt)
        if op in COMPARISON:
            res = BINARY[op](left, right)
            # pandas: a comparison with a missing value is False (!= is True); NA in NA families
            return res if na else res.fill_null(op == "ne")
        if na:  # nullable / Arrow bools: Kleene logic, which Polars' & | ^ follow
            return BINARY[op](left, right)
        # logical: missing counts as False, as pandas does for NaN in object/bool ops
        if _is_bool(lt) or lt is None:
            left = left.fill_null(False)
        if _is_bool(rt) or rt is None:
            right = right.fill_null(False)
        return BINARY[op](left, right)

    def _check_unit_fits(self, op: str, e: BinOp, left: pl.Expr, right: pl.Expr, lt: Any, rt: Any, unit: str) -> None:
        """pandas brings the operand of the coarser unit to the result's (``as_unit``) and raises
        ``OutOfBoundsDatetime`` / ``OutOfBoundsTimedelta`` for a value that does not fit, whatever the
        other operand holds (Polars' strict cast raised its own error): checked on the data where
        the node has it. A duration subtracted is negated first (pandas adds ``-right``)."""
        from gframe.errors import finer_unit_limit, unit_overflow

        if self.data is None or not self.data.height:
            return
        for side, x, xt in ((e.left, left, lt), (e.right, right, rt)):
            if isinstance(side, Lit) or xt is None or not (pa.types.is_timestamp(xt) or pa.types.is_duration(xt)):
                continue
            lim = finer_unit_limit(xt.unit, unit)
            if lim is None:
                continue
            scale = 1000 if xt.unit == "s" else 1  # (Polars holds [s] as [ms])
            ticks = x.cast(pl.Int64)
            bad = self.data.select(ticks.filter((ticks < -lim * scale) | (ticks > lim * scale)).first()).item()
            if bad is not None:
                value = bad // scale
                negated = op == "sub" and side is e.right and pa.types.is_duration(xt)
                raise unit_overflow(-value if negated else value, xt.unit, unit, pa.types.is_timestamp(xt))

    def _cat_compare(self, e: BinOp, left: pl.Expr, right: pl.Expr, lt: Any, rt: Any) -> pl.Expr:
        """A categorical of numbers (etc., an Enum of encodings: ``engines/cpu/categorical.py``)
        compared: with a scalar, as the Enum's string for it (the Enum's order is the categories');
        with anything else, by the values."""
        from gframe.engines.cpu import categorical as C

        op = e.op
        cat_left = _encoded_cat(e.left, lt)
        other = e.right if cat_left else e.left
        if isinstance(other, Lit) and other.value is not None:
            t = lt if cat_left else rt
            code = C.encode_scalar(other.value, t.value_type)
            if code is None:  # no category: never equal; an ordering is pandas' TypeError
                if op not in ("eq", "ne"):
                    raise TypeError(f"Cannot compare a Categorical for op __{op}__ with a scalar, which is not a category.")
                return pl.repeat(op == "ne", pl.len())
            lit = pl.lit(code)
            res = BINARY[op](left, lit) if cat_left else BINARY[op](lit, right)
            return res.fill_null(op == "ne")  # pandas: a missing category compares False (!= True)
        if _encoded_cat(e.left, lt):
            left = C.values(left, lt)
        if _encoded_cat(e.right, rt):
            right = C.values(right, rt)
        return BINARY[op](left, right).fill_null(op == "ne")

    def _int_pow(self, left: pl.Expr, right: pl.Expr, pt: pl.DataType) -> pl.Expr:
        """numpy's integer power, wrapping. Polars takes exponents up to 2**32 - 1 only: a larger one
        (64-bit exponents, where the data has one) is split, x ** (h * 2**32 + l) =
        ((x ** 2**16) ** 2**16) ** h * x ** l, each power wrapping as numpy's repeated squaring does."""
        if pt not in (pl.Int64, pl.UInt64):
            return left.pow(right)
        big = right > 2 ** 32 - 1
        if self.data is not None and not (self.data.height and bool(self.data.select(big.any()).item())):
            return left.pow(right)
        hi, lo = (right // 2 ** 32).cast(pl.UInt32), (right % 2 ** 32).cast(pl.UInt32)
        return left.pow(2 ** 16).pow(2 ** 16).pow(hi) * left.pow(lo)

    def _int_division(self, op: str, e: BinOp, left: pl.Expr, right: pl.Expr, lt: Any, rt: Any) -> pl.Expr:
        """pandas' integer ``//`` and ``%``: x // 0 is +-inf (0 // 0 NaN) and x % 0 NaN, so the
        result is float64 where a divisor is 0 and int64 otherwise (``plan.dtypes`` says None)."""
        # where no divisor is 0, numpy's type (bool // uint32 is uint32; a bool takes the other side's)
        it = int_division_type(lt, rt, e.left, e.right)
        it = polars_type(it) if pa.types.is_integer(it) else pl.Int64
        left = left.cast(it) if _is_bool(lt) else left
        right = right.cast(it) if _is_bool(rt) else right
        res = BINARY[op](left, right)
        if op == "mod" and _is_bool(rt):  # numpy's x % False is 0 (pandas fills NaN only for int divisors)
            return pl.when((right == 0) & left.is_not_null()).then(pl.lit(0, dtype=it)).otherwise(res)  # NA % False: NA
        if expr_family(e.left, self.family, self.lookup) == MASKED and not _is_bool(lt):
            # pandas' nullable ints divide as numpy does: x // 0 and x % 0 are 0, the type stays (a
            # nullable bool's // and % are pandas' numpy rules: float where a divisor is 0)
            return pl.when((right == 0) & left.is_not_null()).then(pl.lit(0, dtype=it)).otherwise(res.cast(it))
        if op == "mod" and isinstance(e.right, Lit) and e.right.value == 0 and _is_float(self.type_of(e)):
            return res.cast(pl.Float64) * None  # x % 0: all missing (NaN), float64 even over no rows
        if self.type_of(e) is not None:  # a nonzero literal divisor (or a nullable int): exact integer result
            return res
        has_zero = True
        zero = right == 0
        if _is_bool(rt) and expr_family(e.right, self.family, self.lookup) == MASKED:
            # pandas divides by a nullable bool's data, which is False under its missing values
            # (``1 // boolean(NA)`` is Float64); a nullable int's holds 1 there (not a zero)
            zero = zero.fill_null(True)
        if self.data is not None:  # pandas converts to float only where a row divides by 0
            has_zero = self.data.height > 0 and bool(self.data.select(zero.any()).item())
        if not has_zero:
            return res.cast(it)
        if op == "mod":  # x % 0 is NaN: float64 (Float64 in a nullable family, which holds missing ints)
            return pl.when(right == 0).then(None).otherwise(res.cast(pl.Float64))
        quotient = left.cast(pl.Float64) / right.cast(pl.Float64)  # +-inf, NaN for the zeros
        # 0 // 0 is NaN, which is pandas' missing value in float64: gframe's null (the type is the
        # data's here, so ``lower`` cannot turn it into null itself)
        return pl.when(right == 0).then(quotient).otherwise(res.cast(pl.Float64)).fill_nan(None)

    def _func(self, e: Func) -> pl.Expr:
        """The function's CPU declaration (``functions.py``) over its lowered inputs."""
        lower = FUNCTIONS.get(e.fn)
        if lower is None:
            raise UnsupportedError(f"cpu engine has no function {e.fn!r}")
        return lower(self, e, [self.lower(c) for c in e.children])

    def agg(self, e: Agg, grouped: bool = False) -> pl.Expr:
        """Lower an aggregation (in a group_by context: ``grouped``, or over a whole frame)."""
        fn = e.fn
        if fn == "size":
            return pl.len().cast(pl.Int64)
        if self.type_of(e.child) == PYOBJECT:
            raise UnsupportedError(f"{fn} of a column of mixed Python objects is not native")
        x = self.lower(e.child)
        xt = self.type_of(e.child)
        if grouped and xt is not None and pa.types.is_float32(xt) and fn in ("var", "sum", "mean", "prod"):
            return _float32_group(x, fn, e.param("ddof", 1), isinstance(e.child, Col) and e.child.name in self.sorted_groups)
        if grouped and xt is not None and pa.types.is_float32(xt) and fn in FLOAT64_ACCUMULATED:
            x = x.cast(pl.Float64)  # pandas' group std of float32 is computed in float64
        if grouped and xt is not None and pa.types.is_float64(xt) and fn in ("sum", "mean"):
            if isinstance(e.child, Col) and e.child.name in self.sorted_groups:
                return _reduceat_group(x, fn)  # pandas 3.1's reduceat (the kernel's ``sorted_groups``)
            # Polars 2.1's group-by adds a group's floats in an order that depends on its threads,
            # in the in-memory engine too (the last bits changed run to run, and TPC-H q15's
            # ``t == t.max()`` found no row): each group's values as one list, added in row order
            return x.implode().list.sum() if fn == "sum" else x.implode().list.mean()
        ddof = e.param("ddof", 1)
        if fn == "sum":
            if _is_string(xt):
                raise UnsupportedError("sum of strings")
            out = _wide(x, xt).sum()
        elif fn == "mean":
            out = _decimal_mean(x, xt.scale) if _is_decimal(xt) else x.mean()
        elif fn == "median" and xt is not None and pa.types.is_floating(xt):
            # pandas' ``median_linear``: (lower middle + upper middle) / 2, in float64. Polars
            # interpolates (lower + (upper - lower) / 2), NaN beside an infinity ([-inf, -60.2]: -inf)
            mid = (x.quantile(0.5, "lower").cast(pl.Float64) + x.quantile(0.5, "higher").cast(pl.Float64)) / 2
            out = mid.cast(pl.Float32) if pa.types.is_float32(xt) else mid
        elif fn == "median":
            out = x.median()
        elif fn == "min":
            out = x.min()
        elif fn == "max":
            out = x.max()
        elif fn == "count":
            out = x.count()
        elif fn == "std" and not grouped and xt is not None and pa.types.is_float32(xt):
            # pandas (nanops): the variance in float64, cast to float32 (inf past its range), then
            # its root - a float32 std of values near 1e20 is inf, not the float64 root narrowed
            out = x.cast(pl.Float64).var(ddof=ddof).cast(pl.Float32).sqrt()
        elif fn == "std":
            out = x.std(ddof=ddof)
        elif fn == "var":
            out = x.var(ddof=ddof)
        elif fn == "prod":
            out = _wide(x, xt).product()
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

    def agg_finish(self, e: Agg, name: str, grouped: bool = False) -> pl.Expr | None:
        """Cast an aggregated column to its inferred type, NaN -> null; applied *after* the group-by.

        Inside a group-by context these would turn Polars' fast aggregations into per-group
        expressions (10x slower), so kernels apply them to the aggregated frame instead.
        """
        t = aggregate_type(e, self.lookup, grouped)
        if t is None or pa.types.is_dictionary(t):
            return None
        out = pl.col(name).cast(polars_type(t))
        return out.fill_nan(None) if pa.types.is_floating(t) else out


def _reduceat_group(x: pl.Expr, fn: str) -> pl.Expr:
    """A float64 group's sum / mean as pandas 3.1 computes it where its rows are in group order and
    hold no NaN: numpy's ``add.reduceat`` (the first value plus the rest's pairwise sum; a group
    of -0.0 sums to -0.0), the mean that over the count."""
    import numpy as np

    def reduceat(s: pl.Series) -> pl.Series:
        v = s.cast(pl.Float64).to_numpy()
        if not len(v):
            return pl.Series([0.0 if fn == "sum" else None], dtype=pl.Float64)
        with np.errstate(invalid="ignore", over="ignore"):  # (inf - inf: NaN, as pandas)
            total = np.add.reduceat(v, [0])[0]
        return pl.Series([total if fn == "sum" else total / len(v)], dtype=pl.Float64)

    return x.map_batches(reduceat, return_dtype=pl.Float64, returns_scalar=True)


def _float32_group(x: pl.Expr, fn: str, ddof: int, sorted_groups: bool) -> pl.Expr:
    """pandas' group sum / mean / variance / product of float32, in its Cython kernels' float32
    accumulators: a Kahan-compensated sum, Welford's update, a product row by row (a float64 result
    rounded to float32 differs from them in the 7th digit); or, with the rows in group order and no NaN, numpy's reduceat as
    pandas 3.1 then does. One loop per group, in row order."""
    import numpy as np

    if sorted_groups and fn in ("sum", "mean"):
        # pandas 3.1 with its groups' rows in order and no NaN: numpy's reduceat per group, the
        # mean in float64 (a missing value sends it to the Cython kernels below)
        def reduceat(s: pl.Series) -> pl.Series:
            if s.null_count():
                return pl.Series([_kernels()[fn](s.cast(pl.Float32).to_numpy(), ddof)], dtype=pl.Float64)
            v = s.cast(pl.Float32).to_numpy()
            if not len(v):
                return pl.Series([0.0 if fn == "sum" else np.nan], dtype=pl.Float64)
            if fn == "sum":
                return pl.Series([np.add.reduceat(v, [0])[0]], dtype=pl.Float64)
            return pl.Series([np.add.reduceat(v.astype(np.float64), [0])[0] / len(v)], dtype=pl.Float64)

        return x.map_batches(reduceat, return_dtype=pl.Float64, returns_scalar=True)
    kernel = _kernels()[fn]

    def apply(s: pl.Series) -> pl.Series:
        return pl.Series([kernel(s.cast(pl.Float32).to_numpy(), ddof)], dtype=pl.Float32)

    return x.map_batches(apply, return_dtype=pl.Float32, returns_scalar=True)


_KERNELS: dict[str, Any] = {}


def _kernels() -> dict[str, Any]:
    if not _KERNELS:
        import numba
        import numpy as np

        f32 = np.float32

        @numba.njit(cache=False, nogil=True)
        def var(x: Any, ddof: int) -> float:
            mean, m2, n = f32(0.0), f32(0.0), 0
            for v in x:
                if not np.isnan(v):
                    n += 1
                    old = mean
                    mean = f32(mean + f32((v - old) / f32(n)))
                    m2 = f32(m2 + f32((v - mean) * (v - old)))
            return f32(m2 / f32(n - ddof)) if n > ddof else np.nan

        @numba.njit(cache=False, nogil=True)
        def total(x: Any, ddof: int) -> float:
            acc, comp = f32(0.0), f32(0.0)
            for v in x:
                if not np.isnan(v):
                    y = f32(v - comp)
                    t = f32(acc + y)
                    comp = f32(f32(t - acc) - y)
                    if np.isnan(comp):  # an infinite value: no compensation (pandas GH#53606)
                        comp = f32(0.0)
                    acc = t
            return acc

        @numba.njit(cache=False, nogil=True)
        def mean(x: Any, ddof: int) -> float:
            n = 0
            for v in x:
                n += not np.isnan(v)
            return f32(total(x, ddof) / f32(n)) if n else np.nan

        @numba.njit(cache=False, nogil=True)
        def prod(x: Any, ddof: int) -> float:
            acc = f32(1.0)  # pandas' group_prod: in the values' float32, row by row
            for v in x:
                if not np.isnan(v):
                    acc = f32(acc * v)
            return acc

        _KERNELS.update(var=var, sum=total, mean=mean, prod=prod)
    return _KERNELS


# pandas' kernels for ArrowDtype arithmetic (``ArrowExtensionArray``): checked + - *, and Arrow's
# decimal division (the dividend rescaled, the quotient truncated; a zero divisor is ArrowInvalid)
_ARROW_DECIMAL = {"add": "add_checked", "sub": "subtract_checked", "mul": "multiply_checked", "truediv": "divide"}


def _decimal_binary(op: str, left: pl.Expr, right: pl.Expr, lt: Any, rt: Any, e: BinOp, t: Any) -> pl.Expr:
    """Decimal arithmetic by Arrow's own kernels over whole columns (the batches Polars hands over):
    Polars' decimal arithmetic has other scales and rounds (``x * y`` kept one operand's scale), and
    pandas' result is pyarrow compute's exactly. Integers go in as the type pandas gives them (a
    literal as int64), a one-row literal as a scalar."""
    import pyarrow.compute as pc

    from gframe.plan.dtypes import decimal_operand

    fn = getattr(pc, _ARROW_DECIMAL[op])
    ltype, rtype = decimal_operand(lt, e.left), decimal_operand(rt, e.right)
    left = left.cast(pl.Int64) if isinstance(e.left, Lit) else left
    right = right.cast(pl.Int64) if isinstance(e.right, Lit) else right
    lit_left, lit_right = isinstance(e.left, Lit), isinstance(e.right, Lit)

    def kernel(cols: list[pl.Series]) -> pl.Series:
        a, b = (c.to_arrow() for c in cols)
        a = a[0] if lit_left and not lit_right else a
        b = b[0] if lit_right and not lit_left else b
        if pa.types.is_integer(a.type):  # as Arrow's implicit cast, to the digits of the int type
            a = a.cast(ltype)
        if pa.types.is_integer(b.type):
            b = b.cast(rtype)
        out = fn(a, b)
        if isinstance(out, pa.Scalar):
            out = pa.array([out.as_py()], type=out.type)
        return pl.Series(out.cast(t))  # (the type plan.dtypes gave: Arrow's, asserted by the tests)

    return pl.map_batches([left, right], kernel, return_dtype=polars_type(t))


def _decimal_mean(x: pl.Expr, scale: int) -> pl.Expr:
    """Arrow's (pandas') mean of decimals, exactly: the sum over the count rounded half away from
    zero at the input's scale (Polars' mean is a float, its decimal division rounds half to even).
    In integers of the scale: the sum's unscaled value ``u``, ``sign(u) * ((2|u| + n) // 2n)``."""
    from decimal import Decimal

    u = (x.sum() * (10**scale)).cast(pl.Int128)  # (a whole number at the scale: the cast is exact)
    n = x.count().cast(pl.Int128)
    m = ((u.abs() * 2 + n) // (n * 2)) * u.sign()  # (no rows: 0 // 0 is null, as the mean)
    return m.cast(pl.Decimal(38, scale)) * pl.lit(Decimal(1).scaleb(-scale), dtype=pl.Decimal(38, scale))


def _is_decimal(t: Any) -> bool:
    return t is not None and pa.types.is_decimal(t)


def _in_unit(x: pl.Expr, t: Any, unit: str) -> pl.Expr:
    if t is not None and pa.types.is_date32(t):  # a date in date arithmetic: its midnight (Arrow's)
        return x.cast(pl.Datetime(unit))  # type: ignore[arg-type]
    if t is not None and pa.types.is_timestamp(t):
        return x.cast(pl.Datetime(unit, t.tz))  # type: ignore[arg-type]
    if t is not None and pa.types.is_duration(t):
        return x.cast(pl.Duration(unit))  # type: ignore[arg-type]
    return x


def _wide(x: pl.Expr, t: Any) -> pl.Expr:
    """Integer sums and products accumulate in 64 bits, as numpy's (Polars' keep the input's width
    and wrap: an int32 column summing to 3e9)."""
    if _is_int(t):
        return x.cast(pl.UInt64 if pa.types.is_unsigned_integer(t) else pl.Int64)
    if _is_bool(t):
        return x.cast(pl.Int64)
    return x


def _numpy_binary(op: str, left: pl.Expr, right: pl.Expr, dtype: pl.DataType, scalar: Any = None) -> pl.Expr:
    """Float ``//`` and ``%`` by numpy itself: its ``divmod`` rules (an exact ``fmod``, then Python's
    sign convention; ``inf // 3`` NaN, ``1e20 % 3`` 1.0, ``-5 % inf`` inf) are not Polars' ``a - b * floor(a / b)``.
    Missing values go in as NaN and come out NaN, which ``lower`` makes missing again. ``pow`` too
    (float32), with a Python number ``scalar`` exponent as pandas raises to one: ``arr ** 2`` (numpy's
    square, not its power kernel)."""
    import numpy as np

    ufunc = np.floor_divide if op == "floordiv" else np.remainder if op == "mod" else np.power

    def apply(cols: list[pl.Series]) -> pl.Series:
        a, b = (c.cast(dtype).to_numpy() for c in cols)
        with np.errstate(all="ignore"):
            return pl.Series(a ** scalar if scalar is not None else ufunc(a, b), dtype=dtype)

    return pl.map_batches([left, right], apply, return_dtype=dtype, is_elementwise=True)


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


def _is_int(t: Any) -> bool:
    return t is not None and pa.types.is_integer(t)


def _is_unsigned(t: Any) -> bool:
    return t is not None and pa.types.is_unsigned_integer(t)


def _is_float(t: Any) -> bool:
    return t is not None and pa.types.is_floating(t)


def _is_numeric(t: Any) -> bool:
    return t is not None and (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t))


def _is_intlike(t: Any) -> bool:
    return t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t))


def _is_bool(t: Any) -> bool:
    return t is not None and pa.types.is_boolean(t)


def _is_string(t: Any) -> bool:
    return t is not None and (pa.types.is_large_string(t) or pa.types.is_string(t))


def _is_zero_literal(e: Expr) -> bool:
    """A literal number 0 (not a bool): ``x + 0`` Polars would fold away."""
    return isinstance(e, Lit) and is_python_number(e.value) and not isinstance(e.value, bool) and e.value == 0
