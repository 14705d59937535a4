"""CPU declarations of the row-wise functions of numbers, missing values and types (``functions.py``)."""
from __future__ import annotations

import datetime as _dt
from typing import Any, Callable

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa

from gframe.engines.cpu import categorical as C
from gframe.engines.cpu.expressions import Lowering, _is_float, _is_int, exact_divisor, polars_type
from gframe.engines.cpu.functions import declare
from gframe.engines.values import ColumnValues
from gframe.errors import UnsupportedError
from gframe.plan.dtypes import expr_family, holds, is_python_number, replaced_type
from gframe.plan.expr import Col, Func, Lit
from gframe.plan.node import Opaque
from gframe.plan.schema import NA_FAMILIES, is_string

Args = "list[pl.Expr]"


@declare("neg")
def _neg(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    # numpy's negative wraps an unsigned int (-x == ~x + 1) and inverts a bool; Polars refuses both.
    # The frontend rewrites these where it knows the type; a type decided by the data lands here
    t = lo.type_of(e.children[0])
    if t is not None and pa.types.is_unsigned_integer(t):
        return (~args[0] + 1).cast(polars_type(t), wrap_numerical=True)
    if t is not None and pa.types.is_boolean(t):
        return ~args[0]
    return -args[0]


@declare("invert")
def _invert(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return ~args[0]


@declare("abs")
def _abs(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    t = lo.type_of(e.children[0])
    if t is not None and pa.types.is_boolean(t):
        return args[0]  # numpy's absolute of a bool is the bool (Polars has no abs of one)
    return args[0].abs()


@declare("isna")
def _isna(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x = args[0]
    return x.is_null() | (x.is_nan() if _is_float(lo.type_of(e.children[0])) else pl.lit(False))


@declare("notna")
def _notna(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x = args[0]
    return x.is_not_null() & (x.is_not_nan() if _is_float(lo.type_of(e.children[0])) else pl.lit(True))


@declare("fillna")
def _fillna(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """In the column's type (``plan.dtypes``' rule); a value of another kind fills nothing where
    nothing is missing (pandas keeps the column), and makes an object column otherwise."""
    x, value = args
    xt, vt, t = lo.type_of(e.children[0]), lo.type_of(e.children[1]), lo.type_of(e)
    if t is not None and t == xt and pa.types.is_dictionary(t) and isinstance(e.children[1], Lit) \
            and C.holds_values(e.children[0]) and lo.data is not None:
        # a categorical made here (``astype('category')``): its categories are the values present,
        # and pandas refuses a fill value that is none of them where something is missing
        held = lo.data.select(x.alias("v")).get_column("v")
        fill = e.children[1].value
        if held.null_count() and not any(fill == c for c in held.drop_nulls().unique().to_list()):
            raise TypeError(f"Cannot setitem on a Categorical with a new category ({fill}), set the categories first")
    if t is not None and xt is not None and t == xt:
        if vt is not None and vt != t and not _fits_kind(vt, t) and not pa.types.is_dictionary(t):
            return x  # an int / bool column of pandas' numpy dtypes: nothing missing to fill
        if pa.types.is_dictionary(t) and isinstance(e.children[1], Lit) and not C.holds_values(e.children[0]):
            # a category of the column's own, as the Enum's string for it; pandas refuses another
            # value where something is missing (the categories are the data's: checked here)
            fill = e.children[1].value
            code = C.encode_scalar(fill, t.value_type) if C.encoded(t) else fill
            C.check_new_category(lo.data, e.children[0], code, fill)
            return x.fill_null(pl.lit(code))
        if pa.types.is_dictionary(t):  # a category of the column's own (Polars casts it to the Enum)
            return x.fill_null(value)
        return x.fill_null(value.cast(polars_type(t), strict=False) if vt is not None and vt != t else value)
    if t is None and xt is not None and vt is not None and lo.data is not None and isinstance(e.children[0], Col) \
            and e.children[0].name in lo.data.columns and lo.data.get_column(e.children[0].name).null_count() == 0:
        return x  # nothing missing: pandas keeps the column and its type
    return x.fill_null(value)


def _fits_kind(v: Any, t: Any) -> bool:
    """Whether a value of type ``v`` can fill a column of type ``t`` in ``t`` itself (numbers in numbers)."""
    num = (pa.types.is_integer, pa.types.is_floating)
    if pa.types.is_dictionary(t):  # a categorical: a value of its categories' kind (the frontend checks it is one)
        t = t.value_type
        if is_string(t) and is_string(v):
            return True
    return any(f(v) for f in num) and any(f(t) for f in num) or pa.types.is_timestamp(v) and pa.types.is_timestamp(t)


@declare("coalesce")
def _coalesce(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return pl.coalesce(args)


@declare("where")
def _where(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, cond, other = args
    xt, c = lo.type_of(e.children[0]), e.children[2]
    if isinstance(c, Lit) and c.value is None and expr_family(e.children[0], lo.family, lo.lookup) in NA_FAMILIES:
        # an NA family's missing value is NA in the column's own type (``Int64`` stays ``Int64``):
        # no numpy promotion to float64, which would round ints past 2**53
        return pl.when(cond.fill_null(False)).then(x).otherwise(pl.lit(None, dtype=polars_type(xt)) if xt is not None else None)
    if lo.type_of(e) is None and xt is not None and isinstance(c, Lit) and c.dtype is None and \
            (is_python_number(c.value) or c.value is None) and (pa.types.is_integer(xt) or pa.types.is_floating(xt)):
        return _replace(lo, x, xt, cond.fill_null(False), c.value)[0]
    return pl.when(cond.fill_null(False)).then(x).otherwise(other)


def _replace(lo: Lowering, x: pl.Expr, xt: Any, keep: pl.Expr, value: Any) -> tuple[pl.Expr, Any]:
    """pandas' ``where(keep, value)`` with a number the column does not hold: the column as it is
    where no value is replaced (decided by the data, where the kernel has it), else both in the
    smallest type that holds them (``plan.dtypes.replaced_type``)."""
    if lo.data is not None and not lo.data.select((~keep).any()).item():
        return x, xt
    t = replaced_type(xt, value)
    return pl.when(keep).then(x.cast(polars_type(t))).otherwise(pl.lit(value, dtype=polars_type(t))), t


@declare("clip")
def _clip(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, xt, lower, upper = args[0], lo.type_of(e.children[0]), e.param("lower"), e.param("upper")
    if lo.type_of(e) is not None or xt is None:
        return x.clip(lower, upper)
    # a bound the column does not hold: where() with each bound (pandas' clip), missing values kept
    for bound, is_lower in ((lower, True), (upper, False)):
        if bound is not None:
            keep = x.is_null() | (x >= bound if is_lower else x <= bound)
            if holds(xt, bound):
                x = pl.when(keep).then(x).otherwise(pl.lit(bound).cast(polars_type(xt)))
            else:
                x, xt = _replace(lo, x, xt, keep, bound)
    return x


@declare("round")
def _round(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, xt, d = args[0], lo.type_of(e.children[0]), e.param("decimals", 0)
    if _is_int(xt) and d >= 0:
        return x
    if _is_int(xt) and xt == pa.uint32():
        return _numpy_int_round(x, polars_type(xt), d)
    # numpy's around, which pandas calls: scale by 10**|d|, rint (half to even), scale back - in the
    # column's float type (float32 stays float32: 2.675 -> 2.68, where Polars' round gives 2.67),
    # ints in float64; a scaled value past the type's range is inf, as numpy's is
    ft = pl.Float64 if _is_int(xt) or xt is None else polars_type(xt)
    f = 10.0 ** abs(d)
    y = x.cast(ft)
    out = ((y * pl.lit(f, dtype=ft)).round(0, mode="half_to_even") / exact_divisor(f, ft)) if d >= 0 \
        else ((y / exact_divisor(f, ft)).round(0, mode="half_to_even") * pl.lit(f, dtype=ft))
    if not _is_int(xt):
        return out
    # back to the int type as numpy's cast does: wrapping in narrow types (int8 127 -> 130 -> -126),
    # and a value past int64/uint64 (2**63 from int64's max) as this platform's conversion gives it
    t = polars_type(xt)
    if t == pl.UInt64:
        return pl.when(out >= 2.0 ** 64).then(pl.lit(_F2U64_PAST, pl.UInt64)).otherwise(out.cast(pl.UInt64, strict=False))
    wide = pl.when(out >= 2.0 ** 63).then(pl.lit(_F2I64_PAST, pl.Int64)).otherwise(out.cast(pl.Int64, strict=False))
    if t == pl.Int32:
        # numpy's double -> int32 is the platform's 32-bit conversion: past int32 it is int32's min
        # (x86-64), not a wrap (int32 max rounded to -1 places: -2147483648); the narrower types and
        # uint32 convert through a wider int and wrap
        past = (out >= 2.0 ** 31) | (out < -(2.0 ** 31))
        return pl.when(past).then(pl.lit(_F2I32_PAST, pl.Int32)).otherwise(wide.cast(t, wrap_numerical=True))
    return wide if t == pl.Int64 else wide.cast(t, wrap_numerical=True)


def _numpy_int_round(x: pl.Expr, dtype: pl.DataType, d: int) -> pl.Expr:
    """numpy's own round of a uint32 column to negative decimals, over the whole column as pandas
    calls it: numpy rounds in float64 and casts back, and its float64 -> uint32 cast of a value past
    the type (4294967295 rounded to 4294967300) depends on where the value sits in the array - 0 in
    its SIMD loop's blocks of 4, 4 in the scalar loop of the last ones - so only numpy itself, over
    the same positions, gives pandas' values (a missing value's position is rounded too, unseen)."""
    def apply(s: pl.Series) -> pl.Series:
        with np.errstate(all="ignore"):
            out = pl.Series(s.name, np.round(s.fill_null(0).to_numpy(), d), dtype=dtype)
        return out if not s.null_count() else pl.select(pl.when(s.is_null()).then(None).otherwise(out)).to_series()

    return x.map_batches(apply, return_dtype=dtype)


def _numpy_cast_past(value: float, dtype: Any) -> int:
    """What numpy's float -> int cast gives for a value past the int type (C leaves it undefined; the
    platform decides: x86-64 gives int64's min for 2**63 and 0 for 2**64)."""
    with np.errstate(invalid="ignore"):
        return int(np.array([value]).astype(dtype)[0])


_F2I64_PAST = _numpy_cast_past(2.0 ** 63, np.int64)
_F2U64_PAST = _numpy_cast_past(2.0 ** 64, np.uint64)
_F2I32_PAST = _numpy_cast_past(2.0 ** 31, np.int32)


@declare("isin")
def _isin(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, xt = args[0], lo.type_of(e.children[0])
    if isinstance(e.param("values"), Opaque):  # values of a column: a categorical of numbers by its values
        x, xt = C.as_values(x, e.children[0], xt)
    if isinstance(e.param("values"), Opaque) and isinstance(e.param("values").value, ColumnValues):
        cv = e.param("values").value  # another Series' values, as an engine holds them
        native = cv.result.native
        hay = native.to_series(0) if isinstance(native, pl.DataFrame) else pl.Series(cv.result.to_arrow().column(0))
        res = x.is_in(hay.drop_nulls().implode()).fill_null(False)
        return res | x.is_null() if cv.nulls_match and hay.null_count() else res
    if isinstance(e.param("values"), Opaque):  # distinct values as an Arrow array of the column's type
        arr = e.param("values").value
        res = x.is_in(pl.Series(arr.drop_null()).implode()).fill_null(False)
        return res | x.is_null() if arr.null_count else res
    # numpy scalars (``set(ser.values)``) as the Python values they equal, as the GPU engine reads them
    values = [v.item() if isinstance(v, (np.number, np.bool_)) else v for v in e.param("values")]
    if xt is not None and pa.types.is_timestamp(xt):
        return _isin_timestamps(x, xt, values)
    has_null = any(v is None or (isinstance(v, float) and v != v) for v in values)
    values = [v for v in values if not (v is None or (isinstance(v, float) and v != v))]
    if not values:
        res = pl.lit(False)
    else:
        if xt is not None:
            # pandas: values of another type never match (1 in a string column, "a" in ints)
            values = [v for v in values if _same_kind(v, xt)]
            if _is_int(xt) or _is_float(xt):
                # numbers compare as numbers (numpy's common type): a bool is 0 / 1, and a fraction
                # equals no int (the cast to the column's int type would truncate 0.1 to 0)
                values = [int(v) if isinstance(v, bool) else v for v in values
                          if not (_is_int(xt) and isinstance(v, float) and not v.is_integer())]
        if C.encoded(xt) and not C.holds_values(e.children[0]):
            # a categorical of numbers (etc.): the Enum's strings of the values that are of its kind
            codes = [C.encode_scalar(v, xt.value_type) for v in values]
            x, xt, values = x.cast(pl.String), pa.large_string(), [c for c in codes if c is not None]
        elif C.encoded(xt):
            xt = xt.value_type
        if xt is not None and pa.types.is_dictionary(xt) and _is_string_type(xt.value_type):
            # a string categorical is an Enum of its categories or a Categorical, as the node that made
            # it left it (a scan's column vs a join's output): the categories' strings compare either way
            x, xt, values = x.cast(pl.String), xt.value_type, [v for v in values if isinstance(v, str)]
        try:
            res = x.is_in(pl.Series(values).cast(polars_type(xt)).implode() if xt is not None and values else values) \
                if values else pl.lit(False)
        except (TypeError, pl.exceptions.PolarsError):  # 1.5 against an int column; [2, 2.0] (mixed: no Series)
            floats = pl.Series([float(v) for v in values])
            res = x.cast(pl.Float64).is_in(floats.implode()) if _is_int(xt) \
                else x.is_in(floats.cast(polars_type(xt)).implode()) if _is_float(xt) else pl.lit(False)
        res = res.fill_null(False)
    if has_null:
        res = res | x.is_null()
    return res


_EXP10 = {"s": 0, "ms": 3, "us": 6, "ns": 9}


def _isin_timestamps(x: pl.Expr, xt: Any, values: list) -> pl.Expr:
    """pandas compares a datetime column with the values exactly: a value finer than the column's
    unit (a nanosecond on ``[us]``), of the other tz-awareness, or not a timestamp (a string, None)
    matches nothing; NaT matches the missing rows. Compared as integers in the unit the engine holds
    the column in (Polars has no ``[s]``: ``[ms]``), so nothing is rounded through ``datetime``."""
    unit = polars_type(xt).time_unit
    ints, has_nat = [], False
    for v in values:
        if v is None or v is pd.NaT or isinstance(v, np.datetime64) and np.isnat(v):  # NaT (None in the plan)
            has_nat = True
            continue
        if not isinstance(v, (_dt.datetime, np.datetime64)):
            continue
        ts = pd.Timestamp(v)
        if (ts.tz is None) != (xt.tz is None):
            continue
        shift = _EXP10[unit] - _EXP10[ts.unit]
        raw = ts._value  # in ts.unit (UTC for a tz-aware one, as the column holds it)
        if shift >= 0:
            ints.append(raw * 10 ** shift)
        elif raw % 10 ** -shift == 0:
            ints.append(raw // 10 ** -shift)
    ints = [i for i in ints if -2 ** 63 <= i < 2 ** 63]
    res = x.cast(pl.Int64).is_in(pl.Series(ints, dtype=pl.Int64).implode()).fill_null(False) if ints else pl.lit(False)
    return res | x.is_null() if has_nat else res
def _is_string_type(t: Any) -> bool:
    return pa.types.is_string(t) or pa.types.is_large_string(t)


def _same_kind(v: Any, t: Any) -> bool:
    """Whether a Python value can equal values of Arrow type ``t`` (pandas' isin semantics)."""
    if isinstance(v, str) and pa.types.is_temporal(t):
        return False  # pandas' isin does not parse strings against dates ("2012-01-01" matches nothing)
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        return isinstance(v, (int, float))  # (a bool too: 1.0 is True)
    if pa.types.is_boolean(t):
        return isinstance(v, (bool, int)) and v in (0, 1)
    if pa.types.is_large_string(t) or pa.types.is_string(t):
        return isinstance(v, str)
    if pa.types.is_timestamp(t):  # a string or a number never matches a datetime (not parsed)
        return isinstance(v, (_dt.datetime, np.datetime64))
    if pa.types.is_duration(t):
        return isinstance(v, (_dt.timedelta, np.timedelta64))
    return True


# ------------------------------------------------------------------------------------------ casts

@declare("cast")
def _cast(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, from_t, to_t = args[0], lo.type_of(e.children[0]), e.param("dtype")
    if to_t is None or to_t == from_t:
        # (no type: the data's kept, only the family set - value_counts' keys of an object column
        # whose type the data decides, a merge's bools it may have left missing)
        return x
    x, from_t = C.as_values(x, e.children[0], from_t)  # a categorical of numbers: cast its values
    if not e.param("strict", True):  # unparsable values become missing (astype's checks)
        return x.cast(polars_type(to_t), strict=False)
    if pa.types.is_large_string(to_t) and from_t is not None:
        if pa.types.is_floating(from_t):
            return _float_repr(x.cast(pl.String))
        if pa.types.is_boolean(from_t):
            # a missing bool (an object column's NaN) stays missing: pandas' astype(str) keeps NaN
            return pl.when(x).then(pl.lit("True")).when(x.not_()).then(pl.lit("False"))
        return x.cast(pl.String)
    if pa.types.is_integer(to_t) and _is_float(from_t):
        if to_t in (pa.int64(), pa.int32()):
            # numpy's cast on x86 (cvttsd2si): a finite value past the type's range is its minimum
            # (pandas' astype(int64) of 9.3e18 is -2**63; it refuses only NaN and inf, upstream)
            lo = -2 ** (to_t.bit_width - 1)
            f = x.cast(pl.Float64)
            past = (f >= -float(lo)) | (f < float(lo) if to_t.bit_width == 64 else f <= float(lo - 1))
            return pl.when(past).then(pl.lit(lo, dtype=polars_type(to_t))).otherwise(x.cast(polars_type(to_t), strict=False))
        return x.cast(polars_type(to_t), strict=True)
    if _in_seconds(from_t) and pa.types.is_integer(to_t):
        # Polars has no [s]: the engine holds a [s] column as [ms] (``polars_type``), whose integers are
        # 1000 times pandas' (seconds); whole seconds always, so the division is exact
        return (x.cast(pl.Int64) // 1000).cast(polars_type(to_t), wrap_numerical=True)
    if _in_seconds(to_t) and from_t is not None and pa.types.is_integer(from_t):
        # the integers are seconds (pandas' [s] ticks), held as [ms]: past int64 / 1000 seconds (292
        # million years) the engine cannot hold them - refused where the node has the rows, never wrapped
        ticks = x.cast(pl.Int64)
        if lo.data is not None and lo.data.height and bool(lo.data.select(past_ms_range(ticks).any()).item()):
            raise UnsupportedError(f"{to_t} values past the cpu engine's range (it holds [s] as [ms]: Polars has no [s])")
        return (ticks * 1000).cast(polars_type(to_t))
    if pa.types.is_dictionary(to_t):
        if not pa.types.is_large_string(to_t.value_type) and not pa.types.is_string(to_t.value_type):
            return x  # numeric categories: the engine keeps the values, pandas sees a category
        return x.cast(pl.String).cast(pl.Categorical())
    return x.cast(polars_type(to_t))


_MS_LIMIT_S = (2 ** 63 - 1) // 1000


def past_ms_range(seconds: pl.Expr) -> pl.Expr:
    """Whether int64 seconds are past what [ms] ticks in int64 hold (the engine's [s])."""
    return (seconds > _MS_LIMIT_S) | (seconds < -_MS_LIMIT_S)


def _in_seconds(t: Any) -> bool:
    """Whether ``t`` is a datetime / timedelta in seconds (held as [ms] by the engine)."""
    return t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)) and t.unit == "s"


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


# ----------------------------------------------------------------------------- numpy ufuncs, udfs

# numpy ufuncs (the input already cast to the float result type)
_UFUNCS: dict[str, Callable[[pl.Expr], pl.Expr]] = {
    "sqrt": lambda e: e.sqrt(), "exp": lambda e: e.exp(), "log": lambda e: e.log(), "log2": lambda e: e.log(2),
    "log10": lambda e: e.log10(), "log1p": lambda e: e.log1p(), "sin": lambda e: e.sin(), "cos": lambda e: e.cos(),
    "tan": lambda e: e.tan(), "arcsin": lambda e: e.arcsin(), "arccos": lambda e: e.arccos(),
    "arctan": lambda e: e.arctan(), "sinh": lambda e: e.sinh(), "cosh": lambda e: e.cosh(), "tanh": lambda e: e.tanh(),
    "floor": lambda e: e.floor(), "ceil": lambda e: e.ceil(), "rint": lambda e: e.round(0, mode="half_to_even"),
    "sign": lambda e: e.sign(),
}


@declare("ufunc")
def _ufunc(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, t = args[0], lo.type_of(e)
    if t is not None and pa.types.is_floating(t):
        x = x.cast(polars_type(t))
    return _UFUNCS[e.param("name")](x)


@declare("udf")
def _udf(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """A Numba-compiled function (gframe/udf): one jitted loop over the inputs' values."""
    udf = e.param("udf")
    return pl.map_batches(args, lambda cols: pl.Series(udf.run_host([c.to_arrow() for c in cols])),
                          return_dtype=polars_type(udf.result_type), is_elementwise=True)
