"""Type inference for expressions: the Arrow type of each expression, at plan-build time.

pandas' (numpy's) promotion rules, written once; both engines cast their results to the type given
here, so the two engines and pandas agree on dtypes. ``None`` means "decided by the data".
"""
from __future__ import annotations

import datetime as _dt
import math
from typing import Callable

import numpy as np
import pyarrow as pa

from gframe.plan.expr import ARITHMETIC, COMPARISON, LOGICAL, Agg, BinOp, Col, Expr, Func, Lit, columns_used
from gframe.plan.functions import declare
from gframe.plan.functions import lookup as lookup_function
from gframe.plan.schema import (
    ARROW,
    ARROW_LARGE,
    MASKED,
    NA_FAMILIES,
    NUMPY,
    OBJECT,
    OBJECT_DATE,
    OBJECT_FAMILIES,
    OBJECT_NA,
    OBJECT_NAT,
    OBJECT_NONE,
    OBJECT_STRING,
    STRING,
    ArrowType,
    Field,
    Schema,
    is_numeric,
    is_string,
    pandas_dtype,
    string_storage,
)

Lookup = Callable[[str], "ArrowType | None"]


def literal_type(value: object) -> ArrowType | None:
    import pandas as pd

    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return pa.bool_()
    if isinstance(value, (int, np.integer)):
        return pa.int64() if isinstance(value, int) else pa.from_numpy_dtype(np.asarray(value).dtype)
    if isinstance(value, (float, np.floating)):
        return pa.float64() if isinstance(value, float) else pa.from_numpy_dtype(np.asarray(value).dtype)
    if isinstance(value, str):
        return STRING
    if isinstance(value, pd.Timestamp):
        return pa.timestamp(value.unit, tz=str(value.tz) if value.tz is not None else None)
    if isinstance(value, _dt.datetime):
        return pa.timestamp("us")
    if isinstance(value, pd.Timedelta):
        return pa.duration(value.unit)
    if isinstance(value, _dt.timedelta):
        return pa.duration("us")
    if isinstance(value, _dt.date):
        return pa.date32()
    return None


def _np(t: ArrowType) -> np.dtype:
    return np.dtype(t.to_pandas_dtype())


def _is_python_scalar(e: Expr) -> bool:
    return isinstance(e, Lit) and e.dtype is None and type(e.value) in (int, float, bool)


def numeric_result(op: str, lt: ArrowType, rt: ArrowType, left: Expr, right: Expr) -> ArrowType:
    """numpy's result type for an arithmetic op (NEP 50: Python scalars take the array's kind)."""
    res = _numpy_result(op, lt, rt, left, right)
    if op == "mod" and pa.types.is_boolean(rt):
        # pandas fills x % 0 with NaN only for an integer divisor: a bool one leaves numpy's x % False, 0
        return pa.from_numpy_dtype(res)
    if op == "mod" and res.kind in "iu" and isinstance(right, Lit) and right.value == 0:
        return pa.float64()  # x % 0 is NaN: pandas converts for a zero divisor even over no rows
    if op in ("floordiv", "mod") and res.kind in "iu" and not (isinstance(right, Lit) and right.value not in (0, None)):
        # x // 0 is inf and x % 0 NaN in pandas: float64 where a divisor is 0, decided by the data
        return None
    if op == "floordiv" and res == np.float32 and not (isinstance(right, Lit) and right.value not in (0, None)):
        # pandas' mask_zero_div_zero: float32 // 0 of a number is float64 (its inf/NaN filled in a
        # float64 copy), decided by the data; with no such row it stays float32
        return None
    return pa.from_numpy_dtype(res)


def int_division_type(lt: ArrowType, rt: ArrowType, left: Expr, right: Expr) -> ArrowType:
    """The type of an integer ``//`` or ``%`` where no divisor is 0 (numpy's: ``bool // uint32`` is
    uint32), which ``numeric_result`` leaves to the data (None) for a divisor that may be 0."""
    return pa.from_numpy_dtype(_numpy_result("floordiv", lt, rt, left, right))


def _numpy_result(op: str, lt: ArrowType, rt: ArrowType, left: Expr, right: Expr) -> np.dtype:
    if op == "pow" and pa.types.is_boolean(lt) and _is_python_scalar(right) and type(right.value) is int \
            and right.value == 2:
        return np.dtype("int8")  # numpy takes x ** 2 as np.square, whose bool loop is int8's (** 3 is int64)
    if _is_python_scalar(right) and not _is_python_scalar(left):
        rdt = np.result_type(_np(lt), type(right.value)(right.value)) if not isinstance(right.value, bool) else _np(lt)
        ldt = _np(lt)
        res = np.result_type(ldt, rdt)
    elif _is_python_scalar(left) and not _is_python_scalar(right):
        rdt = _np(rt)
        ldt = np.result_type(rdt, left.value) if not isinstance(left.value, bool) else rdt
        res = np.result_type(ldt, rdt)
    else:
        res = np.result_type(_np(lt), _np(rt))
    if res == np.bool_ and op == "mod":
        return np.dtype("int8")  # numpy's bool % bool (x % False is 0 there, no float division by zero)
    if res == np.bool_ and op in ("add", "sub", "mul", "pow", "floordiv"):
        res = np.dtype("int64") if op not in ("add", "mul") else np.dtype("bool")
    if op == "truediv":
        res = np.result_type(res, np.float64) if res.kind in "iub" else res
        if res.kind in "iub":
            res = np.dtype("float64")
    return res


# digits of each integer type as Arrow casts it to a decimal (int64 -> decimal128(19, 0))
_INT_DIGITS = {8: 3, 16: 5, 32: 10, 64: 19}
DECIMAL_OPS = ("add", "sub", "mul", "truediv")


def decimal_operand(t: ArrowType | None, e: Expr) -> ArrowType | None:
    """An operand of decimal arithmetic as the decimal Arrow casts it to (None: not an integer or
    decimal). pandas hands a Python or numpy integer scalar to Arrow as int64."""
    if t is None:
        return None
    if pa.types.is_decimal(t):
        return t
    if pa.types.is_integer(t):
        if isinstance(e, Lit):
            return pa.decimal128(19, 0)
        return pa.decimal128(_INT_DIGITS[t.bit_width] + (t == pa.uint64()), 0)
    return None


def decimal_precision(op: str, lt: ArrowType, rt: ArrowType) -> tuple[int, int]:
    """Arrow's (pyarrow compute's, hence pandas') precision and scale of ``lt op rt`` for decimals:
    + and - at the larger scale with one more digit, * adds scales and precisions (plus one),
    / keeps at least 4 fraction digits (``s1 + p2 - s2 + 1``). A precision past 38 is Arrow's error."""
    p1, s1, p2, s2 = lt.precision, lt.scale, rt.precision, rt.scale
    if op in ("add", "sub"):
        s = max(s1, s2)
        return max(p1 - s1, p2 - s2) + s + 1, s
    if op == "mul":
        return p1 + p2 + 1, s1 + s2
    assert op == "truediv"
    s = max(4, s1 + p2 - s2 + 1)
    return p1 - s1 + s2 + s, s


def decimal_result(op: str, lt: ArrowType, rt: ArrowType, left: Expr, right: Expr) -> ArrowType | None:
    """pandas' type of arithmetic with a decimal operand (ArrowDtype: pyarrow compute's rules): a
    float operand makes it double; an integer one is the decimal of its digits; ``//``, ``%``, ``**``
    and precisions past 38 are not typed here (None: the frontend raises pandas' error)."""
    if op == "pow":  # Arrow's power of a decimal is in float64
        return pa.float64() if all(pa.types.is_decimal(t) or is_numeric(t) and not pa.types.is_boolean(t)
                                   for t in (lt, rt)) else None
    if pa.types.is_floating(lt) or pa.types.is_floating(rt):
        return pa.float64() if op in DECIMAL_OPS else None
    a, b = decimal_operand(lt, left), decimal_operand(rt, right)
    if a is None or b is None or op not in DECIMAL_OPS:
        return None
    p, s = decimal_precision(op, a, b)
    return pa.decimal128(p, s) if p <= 38 else None


def expr_type(expr: Expr, lookup: Lookup) -> ArrowType | None:
    """Arrow type of ``expr`` over columns whose types ``lookup(name)`` gives."""
    if isinstance(expr, Col):
        return lookup(expr.name)
    if isinstance(expr, Lit):
        return expr.dtype if expr.dtype is not None else literal_type(expr.value)
    if isinstance(expr, BinOp):
        return _binop_type(expr, lookup)
    if isinstance(expr, Func):
        return _func_type(expr, lookup)
    if isinstance(expr, Agg):
        return _agg_type(expr, lookup)
    raise TypeError(f"no type rule for {type(expr).__name__}")


def _finer_unit(a: str, b: str) -> str:
    return max(a, b, key=["s", "ms", "us", "ns"].index)


def _binop_type(expr: BinOp, lookup: Lookup) -> ArrowType | None:
    lt, rt = expr_type(expr.left, lookup), expr_type(expr.right, lookup)
    op = expr.op
    if op in COMPARISON:
        return pa.bool_()
    if op in LOGICAL:
        if lt is not None and rt is not None and pa.types.is_integer(lt) and pa.types.is_integer(rt):
            return pa.from_numpy_dtype(np.result_type(_np(lt), _np(rt)))
        return pa.bool_()
    assert op in ARITHMETIC
    if lt is None:
        return rt if isinstance(expr.left, Lit) else None
    if rt is None:
        return lt if isinstance(expr.right, Lit) else None
    if is_numeric(lt) and is_numeric(rt):
        return numeric_result(op, lt, rt, expr.left, expr.right)
    if pa.types.is_decimal(lt) or pa.types.is_decimal(rt):
        return decimal_result(op, lt, rt, expr.left, expr.right)
    if is_string(lt) and is_string(rt) and op == "add":
        return STRING
    if op == "mul" and (is_string(lt) and pa.types.is_integer(rt) or pa.types.is_integer(lt) and is_string(rt)):
        return STRING  # pandas: a string times an int repeats it (none for a count below 1)
    if pa.types.is_timestamp(lt) and pa.types.is_timestamp(rt) and op == "sub":
        unit = max(lt.unit, rt.unit, key=["s", "ms", "us", "ns"].index)
        return pa.duration(unit)
    # datetime / timedelta arithmetic is in the finer unit of the two (numpy: [s] + Timedelta in us is [us])
    if pa.types.is_timestamp(lt) and pa.types.is_duration(rt) and op in ("add", "sub"):
        return pa.timestamp(_finer_unit(lt.unit, rt.unit), tz=lt.tz)
    if pa.types.is_duration(lt) and pa.types.is_timestamp(rt) and op == "add":
        return pa.timestamp(_finer_unit(lt.unit, rt.unit), tz=rt.tz)
    if pa.types.is_duration(lt) and pa.types.is_duration(rt) and op in ("add", "sub"):
        return pa.duration(_finer_unit(lt.unit, rt.unit))
    if pa.types.is_date32(lt) or pa.types.is_date32(rt):
        return date_result(op, lt, rt)
    return None


def date_result(op: str, lt: ArrowType, rt: ArrowType) -> ArrowType | None:
    """pandas' type of arithmetic with a ``date32[pyarrow]`` operand (pyarrow compute's rules): a date
    plus or minus a duration is a timestamp in the duration's unit, a date minus a date a duration in
    seconds, a date minus a (tz-naive) timestamp or the reverse a duration in the timestamp's unit.
    The date is the timestamp of that unit first (``date_arithmetic_unit``)."""
    unit = date_arithmetic_unit(op, lt, rt)
    if unit is None:
        return None
    if pa.types.is_duration(lt) or pa.types.is_duration(rt):
        return pa.timestamp(unit)
    return pa.duration(unit)


def date_arithmetic_unit(op: str, lt: ArrowType, rt: ArrowType) -> str | None:
    """The unit date arithmetic is done in (each date cast to a timestamp of it), None where pandas
    refuses (a date plus a date, a zoned timestamp: Arrow's ambiguity error)."""
    def other(t: ArrowType) -> bool:
        return pa.types.is_duration(t) or pa.types.is_timestamp(t) and t.tz is None
    if pa.types.is_date32(lt) and pa.types.is_date32(rt):
        return "s" if op == "sub" else None
    if pa.types.is_date32(lt) and other(rt):
        ok = op == "sub" or op == "add" and pa.types.is_duration(rt)
        return rt.unit if ok else None
    if pa.types.is_date32(rt) and other(lt):
        ok = op == "sub" and pa.types.is_timestamp(lt) or op == "add" and pa.types.is_duration(lt)
        return lt.unit if ok else None
    return None


# ---------------------------------------------------------------------------- function declarations
# Each expression function, declared once: name, inputs, result type, row-wise or not
# (``plan/functions.py``). Integer results that are missing where the input is (dt.year, str.len)
# are typed None: pandas' dtype is int without missing values, float64 with them, decided by the
# data; engines give int32 / int64 and promote.

TypeOf = Callable[[Expr], "ArrowType | None"]


def _first(e: Func, type_of: TypeOf) -> ArrowType | None:
    return type_of(e.children[0]) if e.children else None


@declare("isna", "notna", "isin", "str.contains", "str.startswith", "str.endswith", "str.isdigit", "str.isalpha",
         "str.isalnum", "str.isspace", "str.islower", "str.isupper")
def _bool(e: Func, type_of: TypeOf) -> ArrowType | None:
    return pa.bool_()


@declare("duplicated", args=(1, None), rowwise=False)
def _duplicated(e: Func, type_of: TypeOf) -> ArrowType | None:
    return pa.bool_()


@declare("invert", "neg", "abs", "round", "str.lower", "str.upper", "str.title", "str.strip", "str.lstrip",
         "str.rstrip", "str.slice", "str.replace", "str.get", "str.extract", "str.zfill", "str.pad",
         "str.removeprefix", "str.removesuffix", "dt.floor", "dt.ceil", "dt.round", "dt.bin")
def _same_type(e: Func, type_of: TypeOf) -> ArrowType | None:
    return _first(e, type_of)


@declare("coalesce", args=(1, None))
def _coalesce(e: Func, type_of: TypeOf) -> ArrowType | None:
    return _first(e, type_of)


@declare("shift", rowwise=False)
def _shift(e: Func, type_of: TypeOf) -> ArrowType | None:
    return _first(e, type_of)


@declare("rank", rowwise=False)
def _rank(e: Func, type_of: TypeOf) -> ArrowType | None:
    """pandas' rank is float64 for every input (params: method, ascending, na_option, pct)."""
    return pa.float64()


@declare("rolling", args=(1, 3), rowwise=False)
def _rolling(e: Func, type_of: TypeOf) -> ArrowType | None:
    """pandas' rolling / expanding aggregations (``frontend/window.py``) are numpy float64 for every
    numeric input. Params: ``agg`` (sum, mean, min, max, count, std, var, median, quantile, skew,
    kurt, cov, corr), ``window`` (rows; None: expanding), ``min_periods``, ``center``, ``closed``, and ``ddof`` /
    ``q`` / ``interpolation`` of their aggregations; ``cov`` / ``corr`` take a second input (the other
    values). With ``by``, the last input holds strictly increasing timestamps and ``window`` is a
    time span in nanoseconds over them."""
    return pa.float64()


@declare("ewm", rowwise=False)
def _ewm(e: Func, type_of: TypeOf) -> ArrowType | None:
    """pandas' exponentially weighted ``mean`` / ``sum`` / ``std`` / ``var`` (numpy float64). Params: ``agg``,
    ``alpha`` (from com / span / halflife), ``adjust``, ``ignore_na``, ``min_periods``, ``bias``."""
    return pa.float64()


def fill_makes_objects(column: ArrowType | None, value: ArrowType | None, family: str = NUMPY) -> bool:
    """Whether ``fillna`` of a column of type ``column`` with a value of type ``value`` gives
    pandas' object column where values are missing (a value of another kind): the frontend has
    pandas compute those, as the engines hold no mixed columns.

    A column whose type the data decides (a merge's side that may miss rows: int, or float64 where
    rows went missing; bool, or object) may hold missing values of a number column: a value other
    than a number (a bool, a string) is pandas' to judge there too. So may a column of pandas'
    object dtype the engines hold typed (``family`` one of ``OBJECT_FAMILIES``: ``[nan, False]`` is
    a bool column with a null, ``[nan, 1]`` an int64 one): pandas puts the value itself where
    values are missing, so a value of another type (``1.5`` into bools or ints, ``2`` into floats)
    makes mixed objects. (Not a numpy bool column: it holds no missing value but where an object
    column of None and bools is held as one, and pandas' result for it would lose the merge origin
    of a bool column a later merge leaves missing - ``Join.undecided_bools``.)"""
    if value is None:
        return False
    if column is None:
        return not (pa.types.is_integer(value) or pa.types.is_floating(value))
    if family in OBJECT_FAMILIES and value != column and not (is_string(value) and is_string(column)):
        return True
    return _fillna(Func("fillna", (), Col("x"), Col("v")), lambda c: column if c.name == "x" else value) is None


@declare("fillna", args=2)
def _fillna(e: Func, type_of: TypeOf) -> ArrowType | None:
    """pandas fills in the column's own type where the value fits it: an int, uint or bool column
    holds no missing value, so nothing is filled and it keeps its type whatever the value
    (``int64.fillna(1.5)``, ``uint8.fillna('z')``); a float column keeps its width for a number
    (float32 stays float32). A value of another kind where values are missing makes pandas' object
    column: decided by the data (None) - without missing values the column is kept."""
    arg = _first(e, type_of)
    if arg is None:
        return None
    if pa.types.is_dictionary(arg):
        return arg  # a categorical keeps its dtype (categories, orderedness): pandas fills within them
    other = type_of(e.children[1])
    if other is None or other == arg:
        return arg
    if pa.types.is_integer(arg) or pa.types.is_boolean(arg):
        return arg
    if pa.types.is_floating(arg) and (pa.types.is_integer(other) or pa.types.is_floating(other)):
        return arg
    if pa.types.is_timestamp(arg) and pa.types.is_timestamp(other) and arg.tz == other.tz:
        return arg
    if is_string(arg) and is_string(other):
        return arg
    return None


@declare("where", args=3)
def _where(e: Func, type_of: TypeOf) -> ArrowType | None:
    arg = _first(e, type_of)
    if arg is None:
        return arg
    other = e.children[2]
    other_t = type_of(other)
    if other_t is None and not (isinstance(other, Lit) and other.value is None):
        return None
    if isinstance(other, Lit) and other.value is None:
        # pandas puts NaN there: ints become float64, bools object - where a value is replaced
        # (decided by the data: with none replaced the column keeps its type)
        if pa.types.is_integer(arg):
            return None
        if pa.types.is_boolean(arg):
            return None
        return arg
    if isinstance(other, Lit) and other.dtype is None and is_python_number(other.value) and \
            (pa.types.is_integer(arg) or pa.types.is_floating(arg)):
        return arg if holds(arg, other.value) else None
    if other_t is not None and other_t != arg and is_numeric(arg) and is_numeric(other_t):
        return pa.from_numpy_dtype(np.result_type(_np(arg), _np(other_t)))
    if other_t is not None and other_t != arg:
        return None
    return arg


def is_python_number(v: object) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def holds(t: ArrowType, value: object) -> bool:
    """Whether a column of numeric type ``t`` holds ``value`` exactly (pandas' ``can_hold_element``:
    an int column an integral value in its range; a float column any Python number)."""
    if pa.types.is_floating(t):
        return not isinstance(value, np.floating) or np.dtype(type(value)).itemsize <= t.bit_width // 8
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value) or value != int(value):
            return False
        value = int(value)
    info = np.iinfo(_np(t))
    return info.min <= int(value) <= info.max  # type: ignore[call-overload]


def replaced_type(t: ArrowType, value: object) -> ArrowType:
    """The type a numeric column of type ``t`` takes where ``where`` / ``clip`` put ``value`` in it
    and it does not hold it: the smallest that holds both (uint8 with -1: int16; with 1.5: float64)."""
    if pa.types.is_floating(t) or value is None:
        return pa.float64()
    if isinstance(value, (float, np.floating)) and (not math.isfinite(value) or value != int(value)):
        return pa.float64()
    return pa.from_numpy_dtype(np.result_type(_np(t), np.min_scalar_type(int(value))))  # type: ignore[call-overload]


@declare("clip")
def _clip(e: Func, type_of: TypeOf) -> ArrowType | None:
    """Clipping is ``where`` with each bound: the column's type where the bounds fit it; decided by
    the data otherwise (pandas changes the type only where a value is replaced by a bound it does
    not hold: int32 [1, 5].clip(0, 2.5) is float64, [1, 2].clip(0, 2.5) stays int32)."""
    arg = _first(e, type_of)
    if arg is not None and (pa.types.is_integer(arg) or pa.types.is_floating(arg)):
        if not all(holds(arg, b) for b in (e.param("lower"), e.param("upper")) if b is not None):
            return None
    return arg


@declare("dt.year", "dt.month", "dt.day", "dt.hour", "dt.minute", "dt.second", "dt.dayofweek", "dt.quarter",
         "dt.dayofyear", "dt.microsecond", "dt.nanosecond", "str.len", "str.count")
def _int_or_missing(e: Func, type_of: TypeOf) -> ArrowType | None:
    return None


@declare("dt.date")
def _date(e: Func, type_of: TypeOf) -> ArrowType | None:
    return OBJECT_DATE


@declare("str.split_get")
def _split_get(e: Func, type_of: TypeOf) -> ArrowType | None:
    return OBJECT_STRING


@declare("str.to_datetime")
def _to_datetime(e: Func, type_of: TypeOf) -> ArrowType | None:
    return pa.timestamp(e.param("unit", "us"))


@declare("cast")
def _cast(e: Func, type_of: TypeOf) -> ArrowType | None:
    return e.param("dtype")


@declare("udf", args=(0, None), rowwise=False)
def _udf(e: Func, type_of: TypeOf) -> ArrowType | None:
    """A compiled function: Numba inferred its result type (gframe/udf/compiled.py)."""
    return e.param("udf").dtype


@declare("ufunc")
def _ufunc(e: Func, type_of: TypeOf) -> ArrowType | None:
    """numpy's own result dtype for the input dtype (sqrt: int8 -> float16, int64 -> float64)."""
    arg = _first(e, type_of)
    if arg is None:
        return None
    return pa.from_numpy_dtype(getattr(np, e.param("name"))(np.empty(0, _np(arg))).dtype)


def _func_type(expr: Func, lookup: Lookup) -> ArrowType | None:
    return lookup_function(expr.fn).dtype(expr, lambda e: expr_type(e, lookup))


def group_sum_narrow_type(expr: Agg, lookup: Lookup) -> ArrowType | None:
    """The input's int type that a *group* sum or product goes back to when every group's result
    fits in it (pandas, value-dependent: an int16 sum stays int16, an int32 sum past 2**31 is
    int64); None where the rule does not apply (64-bit ints, bools, floats, other aggregations)."""
    if expr.fn not in ("sum", "prod"):
        return None
    arg = expr_type(expr.child, lookup)
    if arg is not None and pa.types.is_integer(arg) and arg.bit_width < 64:
        return arg
    return None


def group_float32_downcast(expr: Agg, lookup: Lookup) -> ArrowType | None:
    """float32 for a *group* std of a float32 column, whose type pandas decides by the data (None
    where the rule does not apply): its Cython kernel computes the std in float64, then
    ``maybe_downcast_to_dtype`` narrows the whole result to float32 only where every value is
    within 5e-4 (absolute) of its float32 rounding - a std of 7e19 stays float64 (seed 861648)."""
    if expr.fn != "std":
        return None
    arg = expr_type(expr.child, lookup)
    return arg if arg is not None and pa.types.is_float32(arg) else None


def float32_downcast_fits(values: np.ndarray) -> bool:
    """pandas' ``maybe_downcast_numeric`` to float32: whether every float64 value is within 5e-4 of
    its float32 rounding (NaN matching NaN, an infinity itself; past float32's range: no)."""
    with np.errstate(over="ignore", invalid="ignore"):
        narrow = values.astype(np.float32)
        return bool(np.allclose(narrow, values, equal_nan=True, rtol=0.0, atol=5e-4))


def group_median_decimal(expr: Agg, lookup: Lookup) -> ArrowType | None:
    """The decimal type of a column whose *group* median pandas types by the data (None where the
    rule does not apply): pandas takes the values through object numpy and back into Arrow, so the
    result is double where a group has a median, ``null[pyarrow]`` where none has (every value
    missing), and the input's decimal type where there are no groups (nothing to infer from)."""
    if expr.fn != "median":
        return None
    arg = expr_type(expr.child, lookup)
    return arg if arg is not None and pa.types.is_decimal(arg) else None


def aggregate_type(expr: Agg, lookup: Lookup, grouped: bool) -> ArrowType | None:
    """An aggregation's type in a group-by (``grouped``) or over the whole input: they differ for
    sums and products of narrow ints, decided by the data in a group-by (``group_sum_narrow_type``),
    and for the mean of float32."""
    if grouped and (group_sum_narrow_type(expr, lookup) is not None or group_median_decimal(expr, lookup) is not None
                    or group_float32_downcast(expr, lookup) is not None):
        return None
    if grouped and expr.fn == "mean" and expr_type(expr.child, lookup) == pa.float32():
        # pandas 3.1: float64 where the rows are in group order and hold no NaN (numpy's reduceat
        # path), float32 otherwise (its Cython kernel): decided by the data
        return None
    return _agg_type(expr, lookup)


def _agg_type(expr: Agg, lookup: Lookup) -> ArrowType | None:
    fn = expr.fn
    if fn == "size":  # counts rows: its argument is never read (projection pushdown may drop it)
        return pa.int64()
    if fn in ("corr", "cov", "rank"):  # (rank: pandas' group ranks are float64 whatever the values)
        return pa.float64()
    arg = expr_type(expr.child, lookup)
    if expr.param("cumulative", False) and fn != "size":  # a running min / max / sum / product
        return pa.int64() if fn in ("sum", "prod") and arg is not None and pa.types.is_boolean(arg) else arg
    if fn in ("count", "nunique", "ngroup"):
        return pa.int64()
    if fn == "quantile":  # an existing value for lower / higher / nearest; pandas' float64 otherwise
        if arg is not None and pa.types.is_integer(arg) and expr.param("interpolation") in ("lower", "higher", "nearest"):
            return pa.int64()
        return pa.float64()
    if fn in ("mean", "std", "var", "median"):
        if arg is not None and (pa.types.is_timestamp(arg) or pa.types.is_duration(arg)) and fn in ("mean", "median"):
            return arg  # a time (a timedelta) in the column's unit
        if arg is not None and pa.types.is_float32(arg):
            return pa.float32()
        if arg is not None and pa.types.is_decimal(arg) and fn == "mean":
            return arg  # Arrow's mean of decimals: the input's type, rounded half away from zero
        return pa.float64()
    if fn in ("any", "all"):
        return pa.bool_()
    if fn in ("sum", "prod"):
        if arg is not None and pa.types.is_decimal(arg):
            return pa.decimal128(38, arg.scale)  # Arrow's (pandas') sum widens to the full precision
        if arg is not None and (pa.types.is_boolean(arg) or pa.types.is_integer(arg)):
            if arg is not None and pa.types.is_unsigned_integer(arg):
                return pa.uint64()
            return pa.int64()
        return arg
    return arg  # min, max, first, last


# ------------------------------------------------------------------------------ pandas dtype families
# Which pandas dtype family (``plan/schema.py``: numpy, masked, arrow, object) an expression's
# result belongs to, from its inputs' families, by pandas' rules: an ArrowDtype operand makes the
# result ArrowDtype, else a nullable (masked) one makes it nullable; a literal takes the other side's.
# The Arrow type (``expr_type``) says what the values are; the family says how pandas shows them
# and whether a comparison with a missing value is missing (NA families) or False (numpy).

FamilyLookup = Callable[[str], str]

_FAMILY_RANK = {NUMPY: 0, OBJECT: 1, OBJECT_NA: 1, OBJECT_NAT: 1, OBJECT_NONE: 1, MASKED: 2, ARROW: 3, ARROW_LARGE: 3}
# functions whose result is a plain numpy column whatever the input (``Int64.isna()`` is bool)
_NUMPY_RESULT = frozenset({"isna", "notna", "duplicated", "str.split_get", "udf", "dt.date", "str.to_datetime",
                           "rolling", "ewm"})
# functions whose missing values pandas' numpy rules make a new dtype (ints with NaN -> float64):
# in an NA family the values stay ints (``string.str.len()`` is Int64, ``date32[pyarrow].dt.year`` int64[pyarrow])
_INT_RESULT = frozenset({"dt.year", "dt.month", "dt.day", "dt.hour", "dt.minute", "dt.second", "dt.dayofweek",
                         "dt.quarter", "dt.dayofyear", "dt.microsecond", "dt.nanosecond", "str.len", "str.count"})

# string functions whose result pandas keeps in an object column of an object column's strings, each
# missing value as it was (``Series(["a", None], dtype=object).str.upper()`` is object ``["A", None]``)
_OBJECT_KEEPING = frozenset({"str.lower", "str.upper", "str.title", "str.strip", "str.lstrip", "str.rstrip",
                             "str.slice", "str.replace", "str.get"})


def combine_families(*families: str) -> str:
    """The family of an operation over operands of these families (arrow > masked > numpy)."""
    best = NUMPY
    for f in families:
        if _FAMILY_RANK.get(f, 0) > _FAMILY_RANK[best]:
            best = f
    if not string_storage(best):
        # the family of Python-storage strings where it is the one chosen (equal to its base family,
        # so the ranks alone would give the base one back for ``NUMPY``)
        best = next((f for f in families if f == best and string_storage(f)), best)
    return best


def expr_family(expr: Expr, family: FamilyLookup, lookup: Lookup) -> str:
    """The pandas dtype family of ``expr``'s result over columns of families ``family(name)``."""
    if isinstance(expr, Col):
        return family(expr.name)
    if isinstance(expr, Lit):
        return NUMPY
    if isinstance(expr, Func) and expr.fn == "cast" and is_categorical(expr.param("dtype")):
        return expr.param("family") or NUMPY  # astype('category'): its categories' family
    kids = [expr_family(c, family, lookup) for c in expr.children]
    if any(_reads_categorical(c, lookup) for c in expr.children) and not _reads_categorical(expr, lookup):
        kids = [operand_family(c, family, lookup) for c in expr.children]
    if isinstance(expr, BinOp):
        fam = combine_families(*kids)
        if expr.op in COMPARISON or expr.op in LOGICAL:
            if fam in OBJECT_FAMILIES:
                return NUMPY
            if fam == MASKED and any(f == MASKED and is_string(expr_type(c, lookup))
                                     for f, c in zip(kids, expr.children)):
                # pandas: comparing ``string`` columns gives bool[pyarrow]; ``string[python]`` ones boolean
                return MASKED if string_storage(fam) else ARROW
        if fam == OBJECT_NONE:
            return OBJECT  # pandas' object arithmetic masks the missing rows and fills NaN (None * 2: NaN)
        return fam
    if isinstance(expr, Func):
        if expr.fn in _NUMPY_RESULT:
            return NUMPY
        if expr.fn == "cast":
            return expr.param("family") or NUMPY
        fam = combine_families(*kids) if kids else NUMPY
        if expr.fn == "isin" and (fam != MASKED or is_string(expr_type(expr.children[0], lookup))):
            return NUMPY  # ``int64[pyarrow].isin`` is numpy bool, ``Int64.isin`` boolean, ``string``'s bool
        if fam == ARROW_LARGE and expr.fn in _INT_RESULT and expr.fn not in ("str.len", "str.count"):
            return ARROW  # (str.len keeps it: pyarrow's length of large strings is int64, see family_type)
        return fam if fam in OBJECT_FAMILIES and (expr.fn in ("fillna", "coalesce", "where", "shift")
                                                  or expr.fn in _OBJECT_KEEPING) else (
            NUMPY if fam in OBJECT_FAMILIES else fam)
    if isinstance(expr, Agg):
        if expr.param("family"):
            return expr.param("family")  # set where the API decides (``string.value_counts()`` is int64[pyarrow])
        fam = kids[0] if kids else NUMPY
        if fam in (OBJECT_NA, OBJECT_NONE) and expr.fn in ("min", "max"):
            return OBJECT  # a value of the column, but a group of missing values only is NaN (``group_min``)
        if fam in OBJECT_FAMILIES and expr.fn in ("first", "last", "min", "max"):
            return fam  # a value of the column: pandas keeps object (a count or a mean is numeric)
        if expr.fn == "nunique" or fam in OBJECT_FAMILIES:
            return NUMPY
        if fam == MASKED and (expr.fn == "count" or expr.fn == "size" and string_storage(fam)) \
                and is_string(expr_type(expr.child, lookup)):
            # pandas: a group count of ``string`` values is int64 (their group size Int64; of
            # ``string[python]`` values int64)
            return NUMPY
        return fam
    return NUMPY


def family_type(expr: Expr, t: ArrowType | None, fam: str, lookup: Lookup,
                family: FamilyLookup | None = None) -> ArrowType | None:
    """``expr_type`` refined for a result in an NA family: where the numpy rules leave the type to
    the data only because a missing value would turn ints into floats (``str.len``, ``dt.year``,
    ``where(cond)``, a join's missing rows), an NA family keeps the type (the missing value is NA).

    ``//`` and ``%`` keep ints only where the left operand is a masked int column (pandas' masked
    ``floordiv``/``mod`` is numpy's: ``Int64 % 0`` is 0); with a numpy or boolean left operand the
    masked array's reflected op follows pandas' numpy rules (``int32 % Int64(0)`` is Float64, NaN
    where a divisor is 0: decided by the data)."""
    if fam not in NA_FAMILIES:
        return t
    if isinstance(expr, Func):
        if expr.fn in _INT_RESULT and t is None:
            if expr.fn == "str.len":  # pyarrow's utf8_length: the offsets' width (int32 for string, int64 for large_string)
                return pa.int32() if fam == ARROW else pa.int64()
            return pa.int64()
        if expr.fn == "where" and isinstance(expr.children[2], Lit) and expr.children[2].value is None:
            return expr_type(expr.children[0], lookup)
    if isinstance(expr, BinOp) and expr.op in ("floordiv", "mod") and (t is None or pa.types.is_floating(t)):
        lt, rt = expr_type(expr.left, lookup), expr_type(expr.right, lookup)
        intlike = (pa.types.is_integer, pa.types.is_boolean)
        masked_int_left = family is None or (expr_family(expr.left, family, lookup) == MASKED
                                             and lt is not None and pa.types.is_integer(lt))
        if masked_int_left and lt is not None and rt is not None and any(f(lt) for f in intlike) \
                and any(f(rt) for f in intlike) and not (pa.types.is_boolean(lt) and pa.types.is_boolean(rt)):
            # pandas: Int64 // 0 is 0, NA-typed ints (boolean // Int32 is Int32)
            return int_division_type(lt, rt, expr.left, expr.right)
    return t


def field_pandas_dtype(f: Field) -> object | None:
    """The pandas dtype a column of this field shows, where the schema alone decides it (None: the
    data does - an unknown type, or a categorical, whose categories only the data holds)."""
    if f.dtype is None or pa.types.is_dictionary(f.dtype):
        return None
    return pandas_dtype(f.dtype, False, f.family)


def common_pandas_dtype(fields: list[Field]) -> object | None:
    """pandas' ``find_common_type`` over columns being combined (the rows of a concat): the dtype
    each of them is cast to first. None where the schemas cannot say (a type left to the data, or
    categoricals of one Arrow type, which pandas keeps only where their categories match).

    Categoricals of different types (ordered with unordered, other categories' types) never share
    a dtype, so pandas combines their categories' dtypes (``CategoricalDtype._get_common_dtype``).
    """
    from pandas.core.dtypes.cast import find_common_type

    dicts = [f.dtype for f in fields if f.dtype is not None and pa.types.is_dictionary(f.dtype)]
    if dicts and len(dicts) == len(fields) and all(t == dicts[0] for t in dicts):
        return None
    dtypes = []
    for f in fields:
        if f.dtype is not None and pa.types.is_dictionary(f.dtype):
            dtypes.append(pandas_dtype(f.dtype.value_type))  # the categories' dtype (always numpy's here)
        else:
            d = field_pandas_dtype(f)
            if d is None:
                return None
            dtypes.append(d)
    return find_common_type(dtypes)


def merge_keys_native(a: tuple[ArrowType | None, str], b: tuple[ArrowType | None, str], how: str) -> bool:
    """Whether a merge on a left key of (type, family) ``a`` and a right key ``b`` is the engines' to do.

    Keys of one pandas dtype are; so are numpy ints of any widths and numpy floats of any widths in
    an inner or left merge (no left row is missing: pandas keeps the left key's dtype, as the engines
    do; in a right or outer merge the dtype depends on which rows are missing). For other pairs pandas'
    ``_maybe_coerce_merge_keys`` reads the data: a side with no rows is not checked, object keys by
    their inferred kind, ints with floats warn where values differ, some pairs go to ``object``, and
    the coalesced key's dtype depends on which rows are missing - pandas' to decide. A key whose type
    the data decides (None) keeps the engines' rule.
    """
    (ta, fa), (tb, fb) = a, b
    if ta is None or tb is None:
        return True
    if pa.types.is_dictionary(ta) and pa.types.is_dictionary(tb):
        # one categorical type: the categories (data) decide, as the Join's schema says - and a key
        # the data decides comes back unordered (engines' enums carry no flag): ordered ones to pandas
        return ta == tb and not ta.ordered
    da, db = field_pandas_dtype(Field(None, ta, fa)), field_pandas_dtype(Field(None, tb, fb))
    if da is not None and db is not None and da == db:  # (numpy: float64 == None)
        return True
    if fa == NUMPY and fb == NUMPY and how in ("inner", "left"):
        return (pa.types.is_integer(ta) and pa.types.is_integer(tb)) or (
            pa.types.is_floating(ta) and pa.types.is_floating(tb))
    return False


def merge_key_type(left: ArrowType, right: ArrowType, left_missing: int, rows: int) -> ArrowType:
    """The type of a right or outer merge's key column over keys of two number types (a key whose
    type the data decided, ``merge_keys_native``), as pandas' ``_maybe_add_join_keys`` gives it: the
    left key's where no left row is missing (the left key column as it is), the right key's where
    every row's left row is (the right keys as they are), else numpy's common type of the two (the
    left keys, then the right ones where the left row is missing: ``int64`` with ``float64`` is
    ``float64``, ``uint8`` with ``int8`` ``int16``). ``left_missing`` of the result's ``rows`` have
    no left row. Both engines read this once their join has run."""
    if left == right or left_missing == 0:
        return left
    if left_missing == rows:
        return right
    return pa.from_numpy_dtype(np.result_type(_np(left), _np(right)))


def keeps_type_when_missing(fam: str) -> bool:
    """Whether a column of this family keeps its type when rows go missing (a join's or concat's
    missing side): nullable and Arrow dtypes hold NA; numpy ints and bools do not."""
    return fam in NA_FAMILIES


def expr_field(label: object, expr: Expr, schema: Schema) -> Field:
    """The output field of ``expr`` over ``schema``'s columns: type and family together."""

    t = expr_type(expr, schema.dtype_of)
    fam = expr_family(expr, schema.family_of, schema.dtype_of)
    tz = None
    if t is not None and pa.types.is_timestamp(t) and t.tz is not None and not isinstance(expr, Lit):
        # the time zone object of the tz-aware column it computes from (``Field.tz``: a dateutil or
        # pytz zone comes back as itself, ``ts + Timedelta`` keeps pandas' dtype); read back only
        # where the zone's name is still the result's (``interop.column_tz``)
        holders = {f.name: f.tz for f in (*(schema.index or ()), *schema.columns) if f.tz is not None}
        tz = next((holders[n] for n in sorted(columns_used(expr)) if n in holders), None)
    return Field(label, family_type(expr, t, fam, schema.dtype_of, schema.family_of), fam, tz)


def family_lookup(lookup: Lookup) -> FamilyLookup:
    """The family lookup that goes with a type lookup: engines are handed ``schema.dtype_of`` and
    find the families on the same schema; any other lookup (a literal-only evaluation) is numpy."""
    schema = getattr(lookup, "__self__", None)
    fam = getattr(schema, "family_of", None)
    return fam if fam is not None else (lambda name: NUMPY)


def keeps_missing(expr: BinOp, family: FamilyLookup, lookup: Lookup) -> bool:
    """Whether a comparison or logical operator keeps a missing operand missing (pandas' NA
    semantics of nullable and Arrow dtypes: NA == 1 is NA, Kleene ``&``/``|``) rather than
    numpy's (NaN == 1 is False, a missing bool counts as False)."""
    return any(operand_family(c, family, lookup) in NA_FAMILIES for c in expr.children)


def is_categorical(t: ArrowType | None) -> bool:
    return t is not None and pa.types.is_dictionary(t)


def _reads_categorical(expr: Expr, lookup: Lookup) -> bool:
    """Whether ``expr`` is of a categorical type (False where its type cannot be known here: a
    ``size`` aggregation names no column of the schema)."""
    try:
        return is_categorical(expr_type(expr, lookup))
    except KeyError:
        return False


def operand_family(expr: Expr, family: FamilyLookup, lookup: Lookup) -> str:
    """The family an operation sees in its operand ``expr``: a categorical's family is its
    categories' (how pandas shows them: ``schema.family_of_pandas``), but pandas' categorical
    operations are numpy's whatever the categories (``cat == 1`` is numpy bool, missing is False)."""
    return NUMPY if _reads_categorical(expr, lookup) else expr_family(expr, family, lookup)
