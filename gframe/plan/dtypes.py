"""Type inference for expressions: the Arrow type of each expression, at plan-build time.

pandas' (numpy's) promotion rules, written once; both engines cast their results to the type given
here, so the two engines and pandas agree on dtypes. ``None`` means "decided by the data".
"""
from __future__ import annotations

import datetime as _dt
from typing import Callable

import numpy as np
import pyarrow as pa

from gframe.plan.expr import ARITHMETIC, COMPARISON, LOGICAL, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.functions import declare
from gframe.plan.functions import lookup as lookup_function
from gframe.plan.schema import OBJECT_DATE, OBJECT_STRING, STRING, ArrowType, is_numeric, is_string

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
    if res == np.bool_ and op in ("add", "sub", "mul", "pow", "floordiv", "mod"):
        res = np.dtype("int64") if op not in ("add", "mul") else np.dtype("bool")
    if op == "truediv":
        res = np.result_type(res, np.float64) if res.kind in "iub" else res
        if res.kind in "iub":
            res = np.dtype("float64")
    if op in ("floordiv", "mod") and res.kind in "iu" and not (isinstance(right, Lit) and right.value not in (0, None)):
        # x // 0 is inf and x % 0 NaN in pandas: float64 where a divisor is 0, decided by the data
        return None
    return pa.from_numpy_dtype(res)


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
    if is_string(lt) and is_string(rt) and op == "add":
        return STRING
    if pa.types.is_timestamp(lt) and pa.types.is_timestamp(rt) and op == "sub":
        unit = max(lt.unit, rt.unit, key=["s", "ms", "us", "ns"].index)
        return pa.duration(unit)
    if pa.types.is_timestamp(lt) and pa.types.is_duration(rt) and op in ("add", "sub"):
        return lt
    if pa.types.is_duration(lt) and pa.types.is_timestamp(rt) and op == "add":
        return rt
    if pa.types.is_duration(lt) and pa.types.is_duration(rt) and op in ("add", "sub"):
        return lt
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
         "str.rstrip", "str.slice", "str.replace", "str.get", "dt.floor", "dt.ceil", "dt.round", "dt.bin")
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


@declare("fillna", args=2)
def _fillna(e: Func, type_of: TypeOf) -> ArrowType | None:
    arg = _first(e, type_of)
    if arg is not None:
        other = type_of(e.children[1])
        if other is not None and is_numeric(arg) and is_numeric(other) and other != arg:
            if pa.types.is_floating(arg) or pa.types.is_floating(other):
                return pa.float64()
        if other is not None and is_string(other) != is_string(arg):
            return None
    return arg


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
        # pandas puts NaN there: ints become float64, bools object
        if pa.types.is_integer(arg):
            return pa.float64()
        if pa.types.is_boolean(arg):
            return None
        return arg
    if other_t is not None and other_t != arg and is_numeric(arg) and is_numeric(other_t):
        return pa.from_numpy_dtype(np.result_type(_np(arg), _np(other_t)))
    if other_t is not None and other_t != arg:
        return None
    return arg


@declare("clip")
def _clip(e: Func, type_of: TypeOf) -> ArrowType | None:
    arg = _first(e, type_of)
    if arg is not None and pa.types.is_integer(arg):
        if any(isinstance(b, float) for b in (e.param("lower"), e.param("upper"))):
            return pa.float64()
    return arg


@declare("dt.year", "dt.month", "dt.day", "dt.hour", "dt.minute", "dt.second", "dt.dayofweek", "dt.quarter",
         "dt.dayofyear", "dt.microsecond", "dt.nanosecond", "str.len")
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


def _agg_type(expr: Agg, lookup: Lookup) -> ArrowType | None:
    fn = expr.fn
    if fn == "size":  # counts rows: its argument is never read (projection pushdown may drop it)
        return pa.int64()
    if fn in ("corr", "cov"):
        return pa.float64()
    arg = expr_type(expr.child, lookup)
    if fn in ("count", "nunique"):
        return pa.int64()
    if fn == "quantile":  # an existing value for lower / higher / nearest; pandas' float64 otherwise
        if arg is not None and pa.types.is_integer(arg) and expr.param("interpolation") in ("lower", "higher", "nearest"):
            return pa.int64()
        return pa.float64()
    if fn in ("mean", "std", "var", "median"):
        if arg is not None and pa.types.is_timestamp(arg) and fn in ("mean", "median"):
            return arg
        if arg is not None and pa.types.is_float32(arg):
            return pa.float32()
        return pa.float64()
    if fn in ("any", "all"):
        return pa.bool_()
    if fn in ("sum", "prod"):
        if arg is not None and (pa.types.is_boolean(arg) or pa.types.is_integer(arg)):
            if arg is not None and pa.types.is_unsigned_integer(arg):
                return pa.uint64()
            return pa.int64()
        return arg
    return arg  # min, max, first, last
