"""Series: one column as an expression over a frame's plan.

A Series is ``(plan, expr, name)``: ``df.a + df.b`` is one expression over ``df``'s plan, so
``df["c"] = df.a + df.b`` becomes a single projection. Operations that move rows (sort, filter,
head) turn the Series into a one-column frame plan and come back; two Series over different plans
are aligned on their index (an ``HConcat``), as pandas aligns them.
"""
from __future__ import annotations

import datetime
import decimal
import sys
import warnings
from typing import Any, Callable, Hashable, Iterator

import datetime as _dt
import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.core.ops.common import _maybe_match_name
from pandas.errors import ChainedAssignmentError
from pandas.errors.cow import _chained_assignment_msg

from gframe import engines
from gframe.frontend.accessors import CategoricalMethods, DatetimeMethods, StringMethods
from gframe.frontend.bridge import (
    as_pandas,
    call_method,
    get_attribute,
    objects_via_pandas,
    pickled_via_pandas,
    pandas_private,
    set_attribute,
    set_item,
    via_pandas,
    wraps_pandas,
)
from gframe.frontend.coerce import (InvalidComparison, invalid_comparison, is_date_offset, is_scalar, literal,
                                   offset_as_timedelta, scalar_operand, scalar_value)
from gframe.frontend.frame import (
    _CHAINED_REFS,
    DataFrame,
    _align_expr,
    aligned,
    fill_fits,
    clip_native,
    _is_listlike,
    _positions,
    _rank_expr,
    type_kind as _kind,
    _repr_frame,
    _values_of,
)
from gframe.frontend.convert import NO_DEFAULT, converted_dtype, switches
from gframe.frontend.device import DEVICE_ATTRIBUTES, SeriesDeviceInterop, is_device_data, refusal, series_plan, to_host
from gframe.frontend.generic import NDFrame
from gframe.frontend.pdcompat import is_local_in_caller_frame, is_setitem_syntax_in_caller_frame
from gframe.frontend.index import Index, relabelled
from gframe.interop import family_scalar, host_copy
from gframe.frontend.numpy_protocols import NumpyProtocols
from gframe.frontend.verdict import agrees, verdict
from gframe.plan import logical as L
from gframe.plan.traversal import fold
from gframe.plan.expr import ARITHMETIC, COMPARISON, LOGICAL, Agg, BinOp, Col, Expr, Lit, func
from gframe.plan.node import Opaque
from gframe.plan.schema import (
    ARROW,
    ARROW_FAMILIES,
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
    PYOBJECT,
    Field,
    arrow_reduction_native,
    arrow_type_from_pandas,
    family_dtype,
    family_of_pandas,
    host_dtype,
    internal_name,
    is_numeric,
    is_opaque,
    is_string,
    object_family,
    pandas_dtype,
    string_storage,
)
from gframe.plan.dtypes import (DECIMAL_OPS, decimal_operand, decimal_precision, expr_family, expr_type, family_lookup,
                                fill_makes_objects, literal_type)
from gframe.udf import map_series
from gframe.udf.trace import is_symbolic, record

def _over_categoricals(plan: L.Plan) -> bool:
    """Whether ``plan`` reads a categorical column anywhere: a column whose type the data decides
    may then be one (a merge's key over two categoricals of one dtype keeps it), with pandas'
    rules for every category (``value_counts`` counts the unobserved ones)."""
    def holds(node: L.Plan, below: list[bool]) -> bool:
        return any(below) or any(f.dtype is not None and pa.types.is_dictionary(f.dtype)
                                 for f in list(node.schema.columns) + list(node.schema.index or ()))

    return fold(plan, holds)


_OP_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**"}


_ORDERED_TOGETHER = {frozenset({"bool", "int", "float"}), frozenset({"datetime", "str"})}


def _operand_name(t: Any, e: Expr, other: Any) -> str:
    if isinstance(e, Lit):
        return type(e.value).__name__
    return str(pandas_dtype(t))


def cross_kind_equality(expr: BinOp, lookup: Any, family: Any = None) -> Expr | None:
    """``==`` / ``!=`` between kinds that never compare equal (a str column and a number, a datetime and
    an int): pandas gives all False / all True, missing values included, without raising. The
    replacement expression (None: an ordinary comparison). A nullable column (``Int64 != 'a'``,
    ``family`` given) keeps its missing values: pandas' masked comparison is NA there."""
    if expr.op not in ("eq", "ne"):
        return None
    lk, rk = _kind(expr_type(expr.left, lookup)), _kind(expr_type(expr.right, lookup))
    if lk is None or rk is None or lk == rk or "category" in (lk, rk) or any({lk, rk} <= s for s in _ORDERED_TOGETHER):
        return None
    col = expr.right if isinstance(expr.left, Lit) else expr.left
    if family is not None and isinstance(expr.left if col is expr.right else expr.right, Lit) \
            and expr_family(col, family, lookup) == MASKED and not is_string(expr_type(col, lookup)):
        # the column against itself: True (False for ==) where a value is, NA where it is missing
        return BinOp("eq" if expr.op == "ne" else "ne", col, col)
    both = BinOp("or", func("isna", col), func("notna", col))  # True on every row
    return both if expr.op == "ne" else func("invert", both)


def _np_dtype(t: Any) -> Any:
    return np.dtype(t.to_pandas_dtype())


def _is_na_like(v: Any) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or isinstance(v, (float, np.floating)) and v != v \
        or isinstance(v, np.datetime64) and bool(np.isnat(v))


def _isin_missing(values: list, t: Any, family: str) -> list:
    """``isin``'s values with their missing markers as pandas matches them against the column's
    missing rows: one None where they match, none where not. Which marker matches depends on the
    dtype: a numpy float's NaN only (not None), a nullable column's ``pd.NA`` only, a datetime64's NaT
    (None too beside a timestamp, as the values then infer as datetimes); any of them for the
    string, categorical and Arrow dtypes. Object columns keep theirs as given."""
    missing = [v for v in values if _is_na_like(v)]
    if not missing or t is None or t == PYOBJECT:
        return list(values)
    rest = [v for v in values if not _is_na_like(v)]
    if family == MASKED and not is_string(t):
        match = any(v is pd.NA for v in missing)
    elif family == NUMPY and pa.types.is_floating(t):
        match = any(isinstance(v, (float, np.floating)) for v in missing)
    elif family == NUMPY and pa.types.is_timestamp(t):
        match = any(v is pd.NaT or isinstance(v, np.datetime64) for v in missing) or any(v is None for v in missing) \
            and any(isinstance(v, (datetime.datetime, np.datetime64)) for v in rest)
    else:
        match = True
    return rest + [None] if match else rest


def check_binop(expr: BinOp, lookup: Any, op: str, other: Any, dtype: Any) -> None:
    """pandas raises TypeError at the call for operations its dtypes don't support: so do we.

    Decided on the plan's types while the call is built (the dtype rules), so no engine ever sees an
    operation pandas refuses: ordering comparisons across kinds (``datetime_col > 5``, ``str_col < 1``),
    ordering an unordered categorical, ``&``/``|``/``^`` on non-bool, non-int columns, ``bool - bool``."""
    if op in ("lt", "le", "gt", "ge", "and", "or", "xor") or op == "sub":
        lt, rt = expr_type(expr.left, lookup), expr_type(expr.right, lookup)
        lk, rk = _kind(lt), _kind(rt)
        if op in ("lt", "le", "gt", "ge") and lk is not None and rk is not None:
            for t, k in ((lt, lk), (rt, rk)):
                if k == "category" and not t.ordered:
                    raise TypeError("Unordered Categoricals can only compare equality or not")
            if lk != rk and "category" not in (lk, rk) and not any({lk, rk} <= s for s in _ORDERED_TOGETHER):
                raise TypeError(f"Invalid comparison between dtype={_operand_name(lt, expr.left, other)} and "
                                f"{_operand_name(rt, expr.right, other)}")
        if op in LOGICAL:
            for t, k, e in ((lt, lk, expr.left), (rt, rk, expr.right)):
                if k is not None and k not in ("bool", "int"):
                    raise TypeError(f"Cannot perform '{op}_' with a dtyped [{_operand_name(t, e, other)}] array")
        if op == "sub" and lk == "bool" and rk == "bool":
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                            "the `^` operator, or the logical_xor function instead.")
    if op in ("truediv", "floordiv", "pow") \
            and _kind(expr_type(expr.left, lookup)) == _kind(expr_type(expr.right, lookup)) == "bool":
        raise NotImplementedError(f"operator '{op}' not implemented for bool dtypes")  # pandas' _bool_arith_check
    if op in ARITHMETIC and op != "truediv" and isinstance(other, (int, np.integer)) and not isinstance(other, (bool, np.bool_)) \
            and dtype is not None and pa.types.is_integer(dtype):
        # NEP 50: a Python int takes the int column's dtype, and numpy refuses one it cannot hold (also
        # over no rows); Arrow dtypes widen instead
        column = expr.right if isinstance(expr.left, Lit) else expr.left
        if expr_family(column, family_lookup(lookup), lookup) not in (ARROW, ARROW_LARGE):
            info = np.iinfo(_np_dtype(dtype))
            if not info.min <= int(other) <= info.max:
                raise OverflowError(f"Python integer {int(other)} out of bounds for {np.dtype(_np_dtype(dtype))}")
    if op in ARITHMETIC and expr_type(expr, lookup) is None:
        lt = expr_type(expr.left, lookup)
        rt = expr_type(expr.right, lookup)
        ld, rd = decimal_operand(lt, expr.left), decimal_operand(rt, expr.right)
        if op in DECIMAL_OPS and ld is not None and rd is not None and (pa.types.is_decimal(lt) or pa.types.is_decimal(rt)):
            # pyarrow compute's error for a decimal result past 38 digits (pandas raises it as is)
            raise pa.ArrowInvalid(f"Decimal precision out of range [1, 38]: {decimal_precision(op, ld, rd)[0]}")
        # a None operand is decided by the data (nothing to check yet); int // int is None too
        if lt is not None and rt is not None and not (is_numeric(lt) and is_numeric(rt)):
            left = str(pandas_dtype(lt)) if lt is not None else type(other).__name__
            raise TypeError(f"operation {op!r} not supported for dtype {left!r} with {pandas_dtype(rt) if rt is not None else type(other).__name__!r}")
    if op in ARITHMETIC and isinstance(other, str) and dtype is not None and not is_string(dtype):
        raise TypeError(f"unsupported operand type(s) for {_OP_SYMBOL[op]}: dtype {pandas_dtype(dtype)} and 'str'")
    if op in ARITHMETIC and dtype is not None and is_string(dtype) and not (isinstance(other, str) or op == "add" and other is None):
        if not (hasattr(other, "_dtype_arrow") and is_string(other._dtype_arrow)) and op != "mul":
            raise TypeError(f"operation {op!r} not supported for dtype 'str' with object of type {type(other)}")


def cast_expr(e: Expr, f: Field, dtype: Any, plan: L.Plan | None = None) -> Expr:
    """``astype``: the Arrow type pandas' dtype maps to; NotImplementedError where not native.

    With ``plan`` (the column's plan), casts pandas refuses for some values (NaN / inf to int,
    unparsable strings to numbers) are checked now and raise pandas' exception at the call.
    """
    family = NUMPY
    if dtype is str or isinstance(dtype, str) and dtype == "str":
        # (not ``dtype in (str, "str")``: a StringDtype equals "str" whatever its storage)
        target = pa.large_string()
    elif dtype is object or isinstance(dtype, np.dtype) and dtype == object or dtype in ("object", "O"):
        # object: the same values, shown as Python objects (the family says so)
        if f.dtype is None or f.dtype == PYOBJECT or pa.types.is_dictionary(f.dtype) or f.family in ARROW_FAMILIES:
            raise NotImplementedError("astype(object) of this column is not native")  # (Arrow: pandas' scalars, NA)
        return func("cast", e, dtype=f.dtype, family=object_family(f.family, f.dtype))
    else:
        try:
            pdtype = pd.api.types.pandas_dtype(dtype)
            target = arrow_type_from_pandas(pdtype)
        except TypeError:
            raise TypeError(f"dtype {dtype!r} not understood") from None
        family = family_of_pandas(pdtype)  # "Int64", "string", "int64[pyarrow]": NA semantics
        if family != NUMPY and family_dtype(target, family) != pdtype:
            target = None  # a dtype the family cannot show (string storage "python")
        if isinstance(pdtype, pd.CategoricalDtype) and (pdtype.categories is not None or pdtype.ordered):
            target = None
    if target is None:
        raise NotImplementedError(f"astype({dtype!r}) has no native equivalent")
    if f.dtype == PYOBJECT:  # Python objects: the engines move them, pandas casts them (or raises)
        raise NotImplementedError(f"astype({dtype!r}) of a column of Python objects")
    src = f.dtype
    if plan is not None and family in ARROW_FAMILIES and f.family == NUMPY and src is not None \
            and pa.types.is_floating(src) and pa.types.is_integer(target):
        # pyarrow's safe cast of numpy floats (NaN is missing): native where every value casts exactly
        # (a fraction or a value past the int type: pyarrow's ArrowInvalid, pandas' to raise)
        info = np.iinfo(target.to_pandas_dtype())
        outside = BinOp("or", BinOp("or", BinOp("lt", e, Lit(float(info.min))), BinOp("ge", e, Lit(float(int(info.max) + 1)))),
                        BinOp("ne", e, func("round", e, decimals=0)))
        if not _any_true(plan, BinOp("and", func("notna", e), outside)):
            return func("cast", e, dtype=target, family=family)
    if not _arrow_cast_native(src, f.family, target, family):
        raise NotImplementedError(f"astype({dtype!r}) from {pandas_dtype(src, family=f.family)}: pyarrow's cast rules")
    _check_cast_legal(src, target, dtype)
    if pa.types.is_dictionary(target) and f.family in OBJECT_FAMILIES and plan is not None \
            and not _any_true(plan, func("notna", e)):
        # pandas' categories are the Index of the values present: of an object column with none
        # (missing values only) an empty object Index, not one of the type the engines hold
        raise NotImplementedError("astype('category') of an object column without values")
    if pa.types.is_dictionary(target) and src is not None and (pa.types.is_integer(src) or pa.types.is_floating(src)):
        target = pa.dictionary(pa.int32(), src)  # categories of the values' own dtype, sorted
    if pa.types.is_dictionary(target) and src is not None and not pa.types.is_dictionary(src) and f.family not in OBJECT_FAMILIES:
        family = f.family  # the categories keep the values' pandas dtype (Int64, string[pyarrow]...)
    if target == src and family == f.family and string_storage(family) == string_storage(f.family):
        return e
    if src is None and plan is not None and family == NUMPY and f.family == NUMPY and pa.types.is_integer(target) \
            and not (isinstance(e, Col) and e.name in L.undecided_bool_sources(plan)) and _holds_numbers(plan, e):
        # numbers the data decides (ints where rows went missing: int64 or float64): numpy's cast of
        # either, with the float's checks (NaN and inf raise pandas' error, values past the type are numpy's)
        _check_cast(plan, e, f, pa.float64(), target, family)
        return func("cast", e, dtype=target)
    if src is None and not (pa.types.is_floating(target) or is_string(target)) \
            or pa.types.is_dictionary(target) and not (is_string(src) or target.value_type == src) \
            or is_string(target) and not (is_numeric(src) or is_string(src)) \
            or is_string(src) and not (is_numeric(target) and not pa.types.is_boolean(target)) and not is_string(target) \
            and not pa.types.is_dictionary(target) \
            or pa.types.is_timestamp(target) or pa.types.is_duration(target) or pa.types.is_date(target) \
            or pa.types.is_decimal(target):
        raise NotImplementedError(f"astype({dtype!r}) from {pandas_dtype(src)} is not native")
    if plan is not None:
        if pa.types.is_integer(target) and src is not None and pa.types.is_floating(src) and family != NUMPY \
                and _any_true(plan, BinOp("eq", func("abs", e), Lit(float("inf")))):
            raise NotImplementedError("infinite values into a nullable int: pandas' OverflowError")
        _check_cast(plan, e, f, src, target, family)
    if family != NUMPY or string_storage(family):
        return func("cast", e, dtype=target, family=family)
    if src is not None and (pa.types.is_timestamp(src) or pa.types.is_duration(src)) and target == pa.int64():
        # numpy's int64 view of NaT is the smallest int64, not a missing value
        return func("fillna", func("cast", e, dtype=target), Lit(np.iinfo(np.int64).min))
    if pa.types.is_boolean(target) and f.family in OBJECT_FAMILIES:
        # numpy's bool() of each object: a missing None is False, NaN and NaT are True (pd.NA raises,
        # ``_check_cast``); a date or time object is true, which the engines' casts do not say
        if src is not None and pa.types.is_temporal(src):
            raise NotImplementedError("astype(bool) of date / time objects")
        return func("fillna", func("cast", e, dtype=target), Lit(f.family != OBJECT_NONE))
    return func("cast", e, dtype=target)


def _compare_native(t: Any, family: str, value: Any) -> bool:
    """Whether comparing a column of type ``t`` (of pandas' ``family``) with the scalar ``value`` is
    native. A categorical compares natively with a value of its categories' kind only (pandas: a
    number against string categories is all False / True, a missing value raises TypeError for an
    unordered ``<``); an ArrowDtype or pandas ``string`` column with a value of its own kind (the
    others give pyarrow's answers, ``bool[pyarrow]`` with missing values - ``_arrow_comparable``)."""
    if t is None:  # decided by the data (ints or floats where rows went missing): a string is pandas',
        # and so is a time (no unit to compare in: a number never equals a Timestamp, ``<`` raises)
        return not isinstance(value, (str, _dt.date, _dt.timedelta, np.datetime64, np.timedelta64))
    if pa.types.is_dictionary(t):
        missing = value is None or isinstance(value, float) and value != value or value is pd.NaT or value is pd.NA
        if family in ARROW_FAMILIES and (pa.types.is_timestamp(t.value_type) or pa.types.is_duration(t.value_type)) \
                and isinstance(value, (_dt.datetime, _dt.timedelta)) and not isinstance(value, (pd.Timestamp, pd.Timedelta)):
            # pandas looks the value up in the categories (``value in categories``), which an Arrow
            # timestamp / duration Index answers False for Python's datetime / timedelta (True for a
            # Timestamp): all different there - pandas' verdict, computed by pandas
            return False
        return not missing and _arrow_comparable(t.value_type, value)
    if family in ARROW_FAMILIES or family == MASKED and is_string(t):
        return _arrow_comparable(t, value)
    if family in OBJECT_FAMILIES or is_string(t):
        # Python objects compare one by one (a missing one is False, whatever the scalar), and so
        # does ``str`` with a scalar of another kind (pandas' TypeError for ``<`` only where a
        # value is there): pandas' to compare, not a dtype's TypeError
        return _arrow_comparable(t, value)
    return True


def _arrow_comparable(t: Any, value: Any) -> bool:
    """Whether an ArrowDtype column of type ``t`` compares with the scalar ``value`` natively: a value
    of the column's own kind. pandas compares other pairs with pyarrow's kernels, casting the scalar
    (``duration < 5`` works, ``duration == True`` is ``1 µs == 1``), then with numpy per value, and
    only then takes them as different (``==`` False, missing where the column is, ``<`` TypeError)."""
    if t is None or value is None or isinstance(value, float) and value != value:
        return True
    v = scalar_value(value)
    if pa.types.is_boolean(t):
        return isinstance(v, (bool, np.bool_))
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
        return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
    if is_string(t):
        return isinstance(v, str)
    if pa.types.is_date(t):
        return isinstance(v, _dt.date) and not isinstance(v, _dt.datetime)
    if pa.types.is_timestamp(t):
        return isinstance(v, _dt.datetime) and (getattr(v, "tzinfo", None) is None) == (t.tz is None)
    if pa.types.is_duration(t):
        return isinstance(v, _dt.timedelta)
    return False


def _pandas_dtype_or_none(dtype: Any) -> Any:
    try:
        return pd.api.types.pandas_dtype(dtype)
    except TypeError:
        return None


def _arrow_cast_native(src: Any, src_family: str, target: Any, family: str) -> bool:
    """Whether a cast from or to an Arrow-backed dtype is the engines' cast.

    pandas casts *to* an ArrowDtype by pyarrow's cast of the values (1.0 is "1" and True "true" as
    strings, no truncating float -> int: ``ArrowInvalid``, no temporal -> number:
    ``ArrowNotImplementedError``), and *from* one by pyarrow to Arrow targets and through ``to_numpy``
    to numpy ones (NA into int/bool raises ``TypeError``, a date or decimal column has no number
    view, ``object`` holds pandas' scalars and NA, categories keep the Arrow dtype). The numpy table
    (``_check_cast_legal``) does not describe them; what is not native here is pandas' to do."""
    if src_family not in ARROW_FAMILIES and family not in ARROW_FAMILIES:
        return True
    if src is None or target is None:
        return False
    if src == target and src_family == family:
        return True
    integer, floating, boolean = pa.types.is_integer, pa.types.is_floating, pa.types.is_boolean
    if integer(src) and integer(target) and _narrower(target, src):
        return False
    if family in ARROW_FAMILIES:
        if is_string(target):
            # (numpy / masked uint64: pandas boxes the values through pyarrow's inference of Python
            # ints, which overflows past int64 - OverflowError where such a value is: pandas decides)
            return not (floating(src) or boolean(src) or src == pa.uint64() and src_family not in ARROW_FAMILIES)
        if integer(target):
            return integer(src) or boolean(src)
        if floating(target):
            return integer(src) or floating(src) or boolean(src) or pa.types.is_decimal(src)
        if boolean(target):
            return integer(src) or floating(src) or boolean(src)
        return False
    if is_string(target):
        return not boolean(src)
    if floating(target):
        return integer(src) or floating(src) or pa.types.is_decimal(src)
    same_kind = any(k(src) and k(target) for k in (integer, floating, boolean))
    return same_kind and family != NUMPY


def _check_cast_legal(src: Any, target: Any, dtype: Any) -> None:
    """The cast legality table, decided on types while the call is built: pandas' TypeError for casts
    it refuses whatever the values; NotImplementedError (-> pandas) for casts whose meaning pandas
    defines differently from the engines (a categorical's string values parsed as numbers, datetimes
    to bool)."""
    if src is None:
        return
    masked = isinstance(_pandas_dtype_or_none(dtype), pd.core.dtypes.dtypes.BaseMaskedDtype)
    if (pa.types.is_timestamp(src) or pa.types.is_duration(src)) and masked and pa.types.is_boolean(target):
        raise NotImplementedError("datetimes to boolean: pandas' TypeError only where there are rows")
    if (pa.types.is_timestamp(src) or pa.types.is_duration(src)) and masked:
        raise TypeError(f"{pandas_dtype(src)} cannot be converted to {type(_pandas_dtype_or_none(dtype)).__name__}")
    if pa.types.is_timestamp(src) or pa.types.is_duration(src):
        name = "DatetimeArray" if pa.types.is_timestamp(src) else "TimedeltaArray"
        if pa.types.is_floating(target):
            raise TypeError(f"Cannot cast {name} to dtype {dtype}")
        if pa.types.is_integer(target) and target != pa.int64():
            raise TypeError(f"Converting from {pandas_dtype(src)} to {pd.api.types.pandas_dtype(dtype)} is not supported. "
                            "Do obj.astype('int64').astype(dtype) instead")
        if pa.types.is_boolean(target):
            raise NotImplementedError("datetime to bool")
    if pa.types.is_dictionary(src) and not pa.types.is_dictionary(target) and is_string(src.value_type) \
            and is_numeric(target):
        raise NotImplementedError("categorical of strings to a number: pandas parses each category")
    if pa.types.is_dictionary(src) and not pa.types.is_dictionary(target) and is_numeric(target) \
            and is_numeric(src.value_type) and (masked or not _widens(src.value_type, target)):
        # pandas casts the categories as numpy casts them (uint16 to uint8 wraps; NaN to an int raises
        # ValueError; a nullable target its TypeError): the engines' checked casts refuse - pandas'
        raise NotImplementedError("categorical of numbers to a type that cannot hold them all: pandas' cast")
    if pa.types.is_dictionary(src) and not pa.types.is_dictionary(target) and is_numeric(target) \
            and (pa.types.is_timestamp(src.value_type) or pa.types.is_duration(src.value_type)):
        # pandas casts the categories' times and refuses (ValueError, TypeError for a nullable
        # target; a frame's message names the column): its errors, raised by pandas
        raise NotImplementedError("categorical of times to a number: pandas' errors")


def _widens(src: Any, target: Any) -> bool:
    """Whether every value of type ``src`` casts exactly to ``target`` (a bool's too): the same type,
    ints to ints that hold them all, floats to floats."""
    if src == target or pa.types.is_boolean(src) and (pa.types.is_integer(target) or pa.types.is_floating(target)):
        return True
    if pa.types.is_integer(src) and pa.types.is_integer(target):
        return not _narrower(target, src)
    return pa.types.is_floating(src) and pa.types.is_floating(target)


def _narrower(target: Any, src: Any) -> bool:
    """Whether the integer type ``target`` cannot hold every value of ``src``."""
    t, s = np.iinfo(target.to_pandas_dtype()), np.iinfo(src.to_pandas_dtype())
    return t.min > s.min or t.max < s.max


def _holds_numbers(plan: L.Plan, e: Expr) -> bool:
    """Whether the engines hold ``e``'s values, whose type the data decides, as numbers (ints, or
    floats where rows went missing) - not bools or a categorical, which the float checks of a cast
    do not apply to (pandas casts those). Read from one row: the kind does not depend on how many."""
    t = engines.materialize(L.Slice(0, 1, L.Select((("v", e),), plan))).to_arrow().schema.field(0).type
    return pa.types.is_integer(t) or pa.types.is_floating(t)


def _any_true(plan: L.Plan, pred: Expr) -> bool:
    """Whether ``pred`` holds for some row of ``plan`` (one small aggregation, computed now)."""
    agg = L.Aggregate((), (), (("any", Agg("any", (), pred)),), False, True, False, plan)
    table = engines.materialize(agg).to_arrow()
    return bool(table.num_rows and table.column(0)[0].as_py())


def _check_cast(plan: L.Plan, e: Expr, f: Field, src: Any, target: Any, family: str = "numpy") -> None:
    """pandas' errors for values a cast cannot take, raised at the call as pandas does."""
    if pa.types.is_integer(target) and src is not None and pa.types.is_integer(src) and _narrower(target, src):
        info = np.iinfo(target.to_pandas_dtype())
        if _any_true(plan, BinOp("or", BinOp("lt", e, Lit(int(info.min))), BinOp("gt", e, Lit(int(info.max))))):
            raise NotImplementedError("values outside the target integer type: numpy wraps them")
    if family in ARROW_FAMILIES and pa.types.is_floating(target) and src is not None and pa.types.is_integer(src):
        # pyarrow's safe cast refuses ints the float cannot hold exactly (ArrowInvalid): pandas' to raise
        exact = 2 ** (np.finfo(target.to_pandas_dtype()).nmant + 1)
        if _any_true(plan, BinOp("or", BinOp("lt", e, Lit(-exact)), BinOp("gt", e, Lit(exact)))):
            raise NotImplementedError("ints a float cannot hold exactly, cast by pyarrow")
    if pa.types.is_boolean(target) and family == MASKED and src is not None and f.family not in NA_FAMILIES \
            and (pa.types.is_integer(src) or pa.types.is_floating(src)):
        # pandas' BooleanArray takes numbers 0 and 1 only (a nullable number casts nonzero to True)
        if _any_true(plan, BinOp("and", func("notna", e), BinOp("and", BinOp("ne", e, Lit(0)), BinOp("ne", e, Lit(1))))):
            raise TypeError("Need to pass bool-like values")
    if pa.types.is_boolean(target) and src is not None and pa.types.is_floating(src) and _any_true(plan, func("isna", e)):
        # NaN is True for numpy's float64, an error for pandas' Float64: pandas knows which one it is
        raise NotImplementedError("missing floats to bool")
    if pa.types.is_integer(target) and src is not None and pa.types.is_floating(src) \
            and (f.family in NA_FAMILIES or family == NUMPY):
        # a float casts as numpy does (truncating fractions; NaN / NA raise below for a numpy int);
        # numpy's result for values out of the target's range (undefined in C, the platform's) is
        # pandas' to give
        info = np.iinfo(target.to_pandas_dtype())
        if _any_true(plan, BinOp("or", BinOp("lt", e, Lit(float(info.min))), BinOp("gt", e, Lit(float(info.max))))):
            raise NotImplementedError("floats outside the target integer type: numpy's cast is undefined there")
    if pa.types.is_integer(target) and src is not None and pa.types.is_floating(src) and family != NUMPY \
            and f.family not in NA_FAMILIES:
        # a nullable / Arrow int holds missing values, not numpy floats' fractions, nor values past its
        # range (pandas' safe cast compares numpy's cast back: 2.0**63 is not an int64)
        info = np.iinfo(target.to_pandas_dtype())
        inexact = BinOp("or", BinOp("ne", e, func("round", e, decimals=0)),
                        BinOp("or", BinOp("lt", e, Lit(float(info.min))), BinOp("ge", e, Lit(float(int(info.max) + 1)))))
        if _any_true(plan, BinOp("and", func("notna", e), inexact)):
            raise TypeError(f"cannot safely cast non-equivalent {pandas_dtype(src)} to {pandas_dtype(target)}")
    elif pa.types.is_integer(target) and src is not None and pa.types.is_floating(src) and family == NUMPY:
        if _any_true(plan, BinOp("or", func("isna", e), BinOp("eq", func("abs", e), Lit(float("inf"))))):
            raise pd.errors.IntCastingNaNError(
                f"Cannot convert non-finite values (NA or inf) to integer in column {f.label!r}. Replace or remove "
                "non-finite values or cast to an integer type that supports these values (e.g. 'Int64')")
    if family == NUMPY and src is not None and f.family in (MASKED, *OBJECT_FAMILIES) \
            and (pa.types.is_integer(target) or pa.types.is_boolean(target)) and _any_true(plan, func("isna", e)):
        # a missing value into numpy's int / bool: each source array refuses it its own way
        na = "NAType" if f.family in (MASKED, OBJECT_NA) else "NaTType" if f.family == OBJECT_NAT else "NoneType"
        if is_string(src) or f.family in OBJECT_FAMILIES:  # object values go through int() / bool()
            if pa.types.is_integer(target) and f.family == OBJECT:
                # the object family's missing value is NaN (a concat's or merge's missing bools): int(nan)
                raise ValueError("cannot convert float NaN to integer")
            if pa.types.is_integer(target):
                raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, not '{na}'")
            if f.family in (MASKED, OBJECT_NA):
                raise TypeError("boolean value of NA is ambiguous")
        else:  # a masked number's to_numpy
            raise ValueError("cannot convert NA to integer" if pa.types.is_integer(target) else "cannot convert float NaN to bool")
    if is_string(src) and is_numeric(target):
        if pa.types.is_integer(target) and family == NUMPY and f.family == NUMPY and _any_true(plan, func("isna", e)):
            # (a nullable or Arrow int holds the missing strings as NA)
            raise ValueError(f"cannot convert float NaN to integer (column {f.label!r} has missing values)")
        failed = BinOp("and", func("notna", e), func("isna", func("cast", e, dtype=target, strict=False)))
        if _any_true(plan, failed):
            bad = Series._from_frame_plan(L.Slice(0, 3, L.Select((("value", e),), L.Filter(failed, plan))))
            convert = int if pa.types.is_integer(target) else float
            for value in bad.tolist():
                convert(value)  # Python's (pandas') own ValueError: "invalid literal for int() ..."
            raise NotImplementedError("strings Python parses but the engine does not")  # -> pandas


@wraps_pandas(pd.Series)
class Series(SeriesDeviceInterop, NumpyProtocols, NDFrame):
    """One-dimensional labeled array, computed lazily (pandas' Series API).

    >>> import gframe as pd
    >>> s = pd.Series([1.0, None, 3.0], name="x")
    >>> float(s.sum())
    4.0
    """

    _plan: L.Plan
    _expr: Expr
    _name: Hashable
    # pandas' operators defer to an operand of a higher ``__pandas_priority__`` (pandas' Series: 3000): a
    # pandas object with a gframe one is gframe's operator, aligned as pandas aligns
    __pandas_priority__ = 3001

    def __new__(cls, data: Any = None, *args: Any, **kwargs: Any) -> Any:
        if type(data) is dict and data:
            if any(is_symbolic(v) for v in data.values()):
                # built inside a traced UDF (``groupby.apply(lambda x: pd.Series({...}))``)
                return record(data, *args, **kwargs)
        return super().__new__(cls)

    def __init__(self, data: Any = None, index: Any = None, dtype: Any = None, name: Any = None, copy: Any = None) -> None:
        if isinstance(data, Series) and index is None and dtype is None:
            self._set(data._plan, data._expr, data._name if name is None else name)
            return
        if is_device_data(data):  # a CUDA array, a cudf Series: kept where it is (frontend/device.py)
            hit = series_plan(data, index, dtype, name)
            if hit is not None:
                self._set(hit[0], Col(hit[1]), hit[2])
                return
            data = to_host(data)
        data = as_pandas(data)
        index = as_pandas(index)
        ps = data if isinstance(data, pd.Series) and index is None and dtype is None and name is None \
            else pd.Series(data, index=index, dtype=dtype, name=name, copy=copy)
        # the plan is built on first use (``__getattr__``): a Series that only goes back to pandas
        # (what a UDF run by a pandas fallback returns) never pays for it
        object.__setattr__(self, "_pending", ps.copy(deep=False))
        object.__setattr__(self, "_name", ps.name)

    def _set(self, plan: L.Plan, expr: Expr, name: Hashable) -> None:
        object.__setattr__(self, "_pending", None)
        object.__setattr__(self, "_plan", plan)
        object.__setattr__(self, "_expr", expr)
        object.__setattr__(self, "_name", name)

    def _value_types(self) -> list[Any]:
        """The Arrow types the value methods compute on (``objects_via_pandas``; ``_data_typed_value``)."""
        t = self._dtype_arrow
        return [t if t is not None else self._data_typed_value()]

    def _data_typed_value(self) -> Any:
        """What pandas may see in values whose type the data decides, where the engines' type is not
        it (None: the engines' is). A merge's bools of a side that may miss rows (``Join.undecided_bools``,
        followed by ``L.undecided_bool_sources``) are pandas' object column of True, False and NaN where
        the merge left a row missing (kept object whatever drops those rows later): Python objects
        (``PYOBJECT``; ``fillna(0)`` is 0 in an object column). A decimal's group median may be Arrow's
        null type (``L.arrow_null_candidates``). pandas computes on both (``is_opaque``)."""
        frame = self._frame()
        name = frame._plan.schema.columns[0].name
        if name in L.undecided_bool_sources(frame._plan):
            return PYOBJECT
        return pa.null() if name in L.arrow_null_candidates(frame._plan) else None

    def _build_pending(self) -> None:
        s = Series._from_pandas(self.__dict__["_pending"], "Series")
        self._set(s._plan, s._expr, self._name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "name":
            self._set(self._plan, self._expr, value)
        elif name == "index":
            plan = relabelled(self._frame_plan(), value)
            if plan is not None:
                self._set(plan, Col(plan.schema.columns[0].name), self._name)
                return
            new = set_attribute(self, name, value, "setting the axis is not native")
            self._set(new._plan, new._expr, new._name)
        else:
            object.__setattr__(self, name, value)

    @classmethod
    def _over(cls, plan: L.Plan, expr: Expr, name: Hashable) -> "Series":
        obj = cls.__new__(cls)
        obj._set(plan, expr, name)
        return obj

    @classmethod
    def _from_frame_plan(cls, plan: L.Plan) -> "Series":
        f = plan.schema.columns[0]
        return cls._over(plan, Col(f.name), f.label)

    @classmethod
    def _from_pandas(cls, ps: pd.Series, origin: str = "pandas") -> "Series":
        frame = DataFrame._from_pandas(ps.to_frame(name=ps.name if ps.name is not None else "__gf_series"), origin)
        f = frame._plan.schema.columns[0]
        return cls._over(frame._plan, Col(f.name), ps.name)

    def _replace_from(self, other: "Series") -> None:
        self._set(other._plan, other._expr, other._name)

    def _inplace(self, new: "Series", inplace: bool) -> "Series | None":
        if inplace:
            self._replace_from(new)
            return None
        return new

    def _with(self, expr: Expr, name: Hashable = ...) -> "Series":
        return Series._over(self._plan, expr, self._name if name is ... else name)

    # ------------------------------------------------------------------ frame view
    def _frame_plan(self) -> L.Plan:
        """This Series as a one-column frame plan (its label is the Series name)."""
        if isinstance(self._expr, Col) and len(self._plan.schema.columns) == 1 and self._plan.schema.columns[0].name == self._expr.name \
                and self._plan.schema.columns[0].label == self._name:
            return self._plan
        return L.Select(((self._name, self._expr),), self._plan)

    def _frame(self) -> DataFrame:
        return DataFrame._from_plan(self._frame_plan())

    @staticmethod
    def _back(df: DataFrame) -> "Series":
        return Series._from_frame_plan(df._plan)

    @property
    def _dtype_arrow(self) -> Any:
        return expr_type(self._expr, self._plan.schema.dtype_of)

    @property
    def _family(self) -> str:
        """The pandas dtype family of the values (``plan/schema.py``)."""
        s = self._plan.schema
        return expr_family(self._expr, s.family_of, s.dtype_of)

    # ------------------------------------------------------------------ metadata
    @property
    def name(self) -> Hashable:
        return self._name

    @property
    def dtype(self) -> Any:
        t = self._dtype_arrow
        fam = self._family
        special = family_dtype(t, fam)
        if special is not None:
            return special
        # a categorical's dtype holds its categories, which are data: pandas' dtype, read from the values
        if t is None or pa.types.is_dictionary(t) \
                or (pa.types.is_integer(t) or pa.types.is_boolean(t)) and not self._plan.schema.exact:
            return self.to_pandas().dtype
        return pandas_dtype(t)

    dtypes = dtype

    @property
    def ndim(self) -> int:
        return 1

    @property
    def index(self) -> Index:
        return Index._of(self._plan, self)

    @property
    def shape(self) -> tuple[int]:
        return (len(self),)

    @property
    def size(self) -> int:
        return len(self)

    @property
    def empty(self) -> bool:
        return len(self) == 0

    # ------------------------------------------------------------------ execution
    def to_pandas(self) -> pd.Series:
        pending = self.__dict__.get("_pending")
        if pending is not None:
            return pending.copy(deep=False).rename(self._name)
        hit = host_copy(self._plan)
        if hit is not None and isinstance(self._expr, Col) and hit.shape[1] == 1 and self._plan.schema.names == [self._expr.name]:
            return hit.iloc[:, 0].rename(self._name)
        pdf = self._frame().to_pandas()
        out = pdf.iloc[:, 0].rename(self._name)
        want = host_dtype(self._family)
        if want is not None and out.dtype != want:
            out = out.astype(want)  # numpy bytes: a pandas frame holds them as object, a Series as ``S``
        return out

    def __len__(self) -> int:
        return len(DataFrame._from_plan(self._plan))

    @property
    def array(self) -> Any:
        return self.to_pandas().array


    def tolist(self) -> list[Any]:
        return self.to_pandas().tolist()

    to_list = tolist

    def to_frame(self, name: Any = None) -> DataFrame:
        label = self._name if name is None else name
        if label is None:
            label = 0
        return DataFrame._from_plan(L.Select(((label, self._expr),), self._plan))

    def __iter__(self) -> Iterator[Any]:
        return iter(self.to_pandas())

    def items(self) -> Any:
        return self.to_pandas().items()

    def __repr__(self) -> str:
        return _series_repr(self)

    def __bool__(self) -> bool:
        raise ValueError("The truth value of a Series is ambiguous. Use a.empty, a.bool(), a.item(), a.any() or a.all().")

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, key: Any) -> bool:
        return key in self.index.to_pandas()

    def item(self) -> Any:
        return self.to_pandas().item()

    def explain(self, optimized: bool = True, analyze: bool = False) -> str:
        return self._frame().explain(optimized=optimized, analyze=analyze)

    def copy(self, deep: bool = True) -> "Series":
        return Series._over(self._plan, self._expr, self._name)

    def __getattr__(self, name: str) -> Any:
        if name in ("_plan", "_expr") and self.__dict__.get("_pending") is not None:
            self._build_pending()
            return self.__dict__[name]
        if name in DEVICE_ATTRIBUTES:  # the property refused: no device memory to share here
            raise AttributeError(refusal(self, name))
        if name.startswith("_"):
            if pandas_private(pd.Series, name):
                return get_attribute(self, name)
            raise AttributeError(name)
        if name in ("str", "dt", "cat"):  # the accessor refused this dtype: its AttributeError stands
            return getattr(type(self), name).fget(self)
        attr = getattr(pd.Series, name, None)
        if attr is None:
            raise AttributeError(f"'Series' object has no attribute {name!r}")
        return get_attribute(self, name)

    # ------------------------------------------------------------------ selection
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, Series):
            t = key._dtype_arrow
            if t is not None and pa.types.is_boolean(t):
                return Series._back(self._frame()._filter(key))
        if isinstance(key, slice) and (key.start is None or isinstance(key.start, int)) and (key.stop is None or isinstance(key.stop, int)):
            return self.iloc[key]
        return self.loc[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        if sys.getrefcount(self) <= _CHAINED_REFS and not is_local_in_caller_frame(self) \
                and is_setitem_syntax_in_caller_frame():
            # pandas' check (copy-on-write): an assignment (``obj[key] = v`` syntax) into a Series
            # nothing else holds - a temporary, as ``df["a"][0] = 1`` makes - can change nothing
            # the caller sees (pandas' helpers read the caller's frame: called from here)
            warnings.warn(_chained_assignment_msg, ChainedAssignmentError, stacklevel=2)
        if series_setitem(self, key, value) is None:
            return  # natively, by pandas' rules of setting in place (``frontend/setitem.py``)
        new = set_item(self, key, value, "label-based assignment is not native")
        self._replace_from(new)

    @property
    def loc(self) -> Any:
        return LocIndexer(self)

    @property
    def iloc(self) -> Any:
        return ILocIndexer(self)

    def head(self, n: int = 5) -> "Series":
        return Series._back(self._frame().head(n))

    def tail(self, n: int = 5) -> "Series":
        return Series._back(self._frame().tail(n))

    # ------------------------------------------------------------------ arithmetic
    def _binary(self, op: str, other: Any, reflected: bool = False, flex: str | None = None) -> "Series":
        if isinstance(other, DataFrame):
            return NotImplemented  # type: ignore[return-value]
        if isinstance(other, (Index, pd.Index)):
            other = other.to_pandas() if isinstance(other, Index) else other
        if isinstance(other, np.ndarray) and other.ndim == 0:
            other = other[()]  # pandas' item_from_zerodim: a 0-d array is its scalar
        # pandas' exception where it refuses the operator for these dtypes (``verdict``); True where
        # pandas answers, so a refusal of gframe's own dtype rules below is pandas' call instead
        answers = verdict(op, self, other, reflected)
        if is_date_offset(other) and op in ("add", "sub"):
            fixed = offset_as_timedelta(other, self._dtype_arrow)
            if fixed is None or (op == "sub" and reflected):  # a calendar offset: pandas applies it
                return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "calendar date offset arithmetic not native")
            other = fixed
        aligned_logical = False
        if isinstance(other, Series):
            if other._plan == self._plan:
                plan, lexpr, rexpr = self._plan, self._expr, other._expr
            elif op in LOGICAL and not (self._bool_family() and other._bool_family()):
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "logical operator of aligned non-bool Series not native")
            else:
                # numpy bools: pandas' own missing-value rule below; a nullable "boolean": Kleene logic
                aligned_logical = op in LOGICAL and self._bool_family() == other._bool_family() == NUMPY
                # an operator compares identically-labelled Series only; arithmetic and the flex
                # methods (``eq``, ``add``) align on the sorted union
                pair = _align_pair(self, other, "exact" if flex is None and op in COMPARISON else "outer")
                if pair is None:
                    return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                       "indexes not alignable natively")
                (plan, rexpr), lexpr = pair
            name = _maybe_match_name(self, other)  # pandas' rule (equal names, or both the same missing marker)
        elif is_scalar(other):
            plan, lexpr, name = self._plan, self._expr, self._name
            t = self._dtype_arrow
            if any(is_opaque(x) for x in self._value_types()):  # (``is_opaque`` below)
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {})
            if op in COMPARISON and self._family in ARROW_FAMILIES and t is not None and pa.types.is_timestamp(t) \
                    and isinstance(other, str):
                # pandas does not parse a string for an Arrow timestamp (pyarrow has no such kernel; numpy
                # compares per value): == False, != True, missing where the column is; an ordering raises
                if op not in ("eq", "ne"):
                    raise TypeError(f"Invalid comparison between dtype={family_dtype(t, self._family)} and str")
                return Series._over(self._plan, BinOp("ne" if op == "eq" else "eq", self._expr, self._expr), self._name)
            if op in COMPARISON and not _compare_native(self._dtype_arrow, self._family, other):
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "compared with a scalar of another kind (pandas' rules per dtype)")
            try:
                op, rexpr = scalar_operand(op, other, self._dtype_arrow)
            except InvalidComparison:
                return Series._over(plan, invalid_comparison(op, lexpr, other, self._dtype_arrow,
                                                             self._family in (MASKED, *ARROW_FAMILIES)), name)
        elif _is_listlike(other) or isinstance(other, (np.ndarray, pd.api.extensions.ExtensionArray)):
            if isinstance(other, pd.Series):
                return self._binary(op, Series(other), reflected)
            if any(is_opaque(x.value_type if x is not None and pa.types.is_dictionary(x) else x)
                   for x in self._value_types()) or getattr(other, "ndim", 1) != 1 or isinstance(other, tuple):
                # intervals, periods, objects (categories too), arrays of more dimensions, a tuple
                # (a value where the values are tuples, else a list-like: pandas decides): pandas'
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {})
            # an array keeps its dtype (an ExtensionArray's too); a list is numpy's reading of it
            arr = other if isinstance(other, (np.ndarray, pd.api.extensions.ExtensionArray)) else np.asarray(other)
            if len(arr) != len(self):
                raise ValueError(f"Unable to coerce to Series, length must be {len(self)}: given {len(arr)}")
            idx = self.index.to_pandas() if self._plan.schema.index is not None else None
            name = _maybe_match_name(self, other) if isinstance(other, pd.Index) else self._name
            return self._binary(op, Series(pd.Series(arr, index=idx)), reflected).rename(name)
        elif pd.api.types.is_scalar(other):
            # a scalar to pandas that gframe has no literal for (``Decimal``, ``Fraction``): pandas' result
            # (returning NotImplemented would let Python compare the objects themselves: ``==`` False)
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                               f"a {type(other).__name__} operand is not native")
        else:
            # an object of another kind (a user's class, a path, a dict): pandas' rules - it defers to
            # a higher ``__pandas_priority__`` (NotImplemented, so Python asks the other operand) or
            # applies the operator to each value
            return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                               f"a {type(other).__name__} operand: pandas' rules")
        if is_opaque(expr_type(lexpr, plan.schema.dtype_of)) or is_opaque(expr_type(rexpr, plan.schema.dtype_of)) \
                or any(is_opaque(t) for t in self._value_types()) \
                or isinstance(other, Series) and any(is_opaque(t) for t in other._value_types()):
            # Python objects, intervals, periods: pandas applies the operator to each
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {})
        if op in ("lt", "le", "gt", "ge") and not isinstance(lexpr, Lit) and not isinstance(rexpr, Lit) and {
                _kind(expr_type(lexpr, plan.schema.dtype_of)), _kind(expr_type(rexpr, plan.schema.dtype_of))} == {"datetime", "str"}:
            # a column of dates ordered against a column of strings: pandas parses neither and its
            # answer depends on the rows (a TypeError, or no error over no rows): pandas' verdict
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                               "ordering dates against a column of strings")
        if op in ("floordiv", "mod") and any(t is not None and pa.types.is_decimal(t) for t in (
                expr_type(lexpr, plan.schema.dtype_of), expr_type(rexpr, plan.schema.dtype_of))):
            # pandas' decimal // is pyarrow's floor of its division (the quotient's scale, its errors)
            # and it has no decimal %: NotImplementedError - pandas' own answers
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                               f"decimal {_OP_SYMBOL[op]} is not native")
        arrow = any(expr_family(x, plan.schema.family_of, plan.schema.dtype_of) in ARROW_FAMILIES for x in (lexpr, rexpr))
        bools = any(t is not None and pa.types.is_boolean(t) for t in (
            *(expr_type(x, plan.schema.dtype_of) for x in (lexpr, rexpr)),  # (an aligned bool side's type is the data's:
            self._dtype_arrow, getattr(other, "_dtype_arrow", None)))     # the operands' own say)
        if op in ARITHMETIC and arrow and (bools or op == "mod"):
            # an ArrowDtype operand's arithmetic is pyarrow's: it has no % (pandas' NotImplementedError)
            # and no kernels over bools, of any dtype (its TypeError naming the dtypes): pandas' own errors
            return call_method(self, f"__{'r' if reflected else ''}{op}__", (other,), {},
                               f"{_OP_SYMBOL[op]} of an ArrowDtype operand pandas refuses")
        if op in ARITHMETIC and (self._family in OBJECT_FAMILIES or isinstance(other, Series) and other._family in OBJECT_FAMILIES) \
                and not all(t is not None and (is_numeric(t) or is_string(t)) for t in (
                    expr_type(lexpr, plan.schema.dtype_of), expr_type(rexpr, plan.schema.dtype_of))):
            # Python objects with times: pandas applies the operator to each value (``Timedelta / 2``
            # is a Timedelta in an object column, not numbers)
            return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                               "Python objects with times: pandas' operator per value")
        l, r = (rexpr, lexpr) if reflected else (lexpr, rexpr)
        if aligned_logical:
            # pandas' logical_op, not Kleene logic: the right side's missing values count as False,
            # a missing value on the left gives False
            check_binop(BinOp(op, l, r), plan.schema.dtype_of, op, other, self._dtype_arrow)
            out: Expr = func("where", BinOp(op, l, func("fillna", r, Lit(False))), func("notna", l), Lit(False))
            return Series._over(plan, out, name)
        expr = BinOp(op, l, r)
        if op in ARITHMETIC and op != "truediv" and self._dtype_arrow is None and self._family == NUMPY \
                and isinstance(other, (int, np.integer)) and not isinstance(other, (bool, np.bool_)) \
                and not 0 <= int(other) <= 127:
            # a type the data decides (a group sum of narrow ints) may be an int type that cannot hold
            # the Python int (NEP 50: uint16 - -2 raises OverflowError); read it, then check as for a
            # known type (an int every int type holds needs no look)
            known = self.dtype
            if isinstance(known, np.dtype) and known.kind in "iu":
                check_binop(expr, plan.schema.dtype_of, op, other, pa.from_numpy_dtype(known))
        try:
            check_binop(expr, plan.schema.dtype_of, op, other, self._dtype_arrow)
        except TypeError:
            # numpy's refusals; an ArrowDtype operand's arithmetic is pyarrow's (decimal // float is
            # double[pyarrow]): pandas decides, and raises its own where it refuses too
            if op in ARITHMETIC and (self._family in ARROW_FAMILIES or isinstance(other, Series) and other._family in ARROW_FAMILIES):
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "arithmetic of an ArrowDtype operand pyarrow decides")
            if op in COMPARISON and any(is_string(expr_type(x, plan.schema.dtype_of)) for x in (l, r)):
                # strings ordered against another kind: pandas refuses per value (TypeError where
                # a string is there; over no rows, or only missing ones, an answer)
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "strings compared with another kind: pandas decides by the values")
            if answers or self._family in OBJECT_FAMILIES or isinstance(other, Series) and other._family in OBJECT_FAMILIES:
                # pandas answers for these dtypes where gframe's rules refuse, or Python objects (pandas
                # applies the operator to each value: its result, or its error for the values)
                return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                                   "an operation gframe's dtype rules refuse and pandas answers")
            raise
        result = Series._over(plan, cross_kind_equality(expr, plan.schema.dtype_of, plan.schema.family_of) or expr, name)
        if answers and not agrees(op, self, other, reflected, result):
            # a dtype rule gframe lacks (its result's dtype is not pandas'): pandas' result
            return call_method(self, flex or f"__{'r' if reflected else ''}{op}__", (other,), {},
                               "the native result's dtype is not pandas' for these operands")
        return result

    def _bool_family(self) -> str | None:
        """The family of this Series' bool dtype (NUMPY: numpy's bool, MASKED: "boolean"); None if not bool."""
        t = self._dtype_arrow
        if t is None or not pa.types.is_boolean(t):
            return None
        return expr_family(self._expr, self._plan.schema.family_of, self._plan.schema.dtype_of)

    def divmod(self, other: Any, level: Any = None, fill_value: Any = None, axis: Any = 0) -> tuple["Series", "Series"]:
        """pandas' ``Series.divmod``: unlike the ``divmod`` operator it is numpy's ``divmod`` of the
        aligned values (``1 // 0`` is 0 for ints, not inf): pandas' own."""
        return call_method(self, "divmod", (other,), {"level": level, "fill_value": fill_value, "axis": axis})

    def rdivmod(self, other: Any, level: Any = None, fill_value: Any = None, axis: Any = 0) -> tuple["Series", "Series"]:
        """pandas' ``Series.rdivmod`` (numpy's ``divmod``, as ``divmod`` says)."""
        return call_method(self, "rdivmod", (other,), {"level": level, "fill_value": fill_value, "axis": axis})

    def __rand__(self, o: Any) -> "Series": return self._binary("and", o, True)
    def __ror__(self, o: Any) -> "Series": return self._binary("or", o, True)
    def __xor__(self, o: Any) -> "Series": return self._binary("xor", o)
    def __rxor__(self, o: Any) -> "Series": return self._binary("xor", o, True)

    def _python_objects(self) -> bool:
        """Whether the values are Python objects in an object column (``astype(object)``, a fillna
        pandas made object, bools a merge left missing): pandas applies Python's unary operators to
        each - ``~True`` is -2, ``-True`` -1, ``abs(True)`` 1, ``-None`` a TypeError, the result an
        object column - not numpy's typed ones."""
        return self._family in OBJECT_FAMILIES

    @objects_via_pandas
    def __invert__(self) -> "Series":
        if self._python_objects():
            return call_method(self, "__invert__", (), {}, "Python's ~ of each object")
        t = self._dtype_arrow
        if t is not None and not (pa.types.is_boolean(t) or pa.types.is_integer(t)):
            raise TypeError(f"bad operand type for unary ~: '{pandas_dtype(t)}'")
        return self._with(func("invert", self._expr))

    @objects_via_pandas
    def __neg__(self) -> "Series":
        if self._python_objects():
            return call_method(self, "__neg__", (), {}, "Python's - of each object")
        t = self._dtype_arrow
        if t is not None and is_string(t):
            raise TypeError("bad operand type for unary -: 'str'")
        if t is not None and pa.types.is_boolean(t):
            return self._with(func("invert", self._expr))  # numpy's negative of a bool is its inverse
        if t is not None and pa.types.is_unsigned_integer(t):
            # numpy wraps: -x == ~x + 1 in the same unsigned type
            return self._with(BinOp("add", func("invert", self._expr), Lit(1)))
        return self._with(func("neg", self._expr))

    def __abs__(self) -> "Series":
        return self.abs()

    def _flex(self, name: str, op: str, other: Any, axis: Any, level: Any, fill_value: Any, reflected: bool) -> Any:
        """``Series.<name>(other, level, fill_value, axis)``: natively without ``level``, with a
        scalar ``fill_value`` filling one side's missing values where the other side has a value
        (pandas' ``fill_binop``); anything else through pandas."""
        pd.Series._get_axis_number(axis)  # pandas' ValueError for a bad axis
        if fill_value is None and level is None:
            return self._binary(op, other, reflected, flex=name)
        native = level is None and is_scalar(fill_value) and not pd.isna(fill_value) \
            and (is_scalar(other) or isinstance(other, Series)) and PYOBJECT not in self._value_types()
        if not native:
            return call_method(self, name, (other,), {"level": level, "fill_value": fill_value, "axis": axis})
        if is_scalar(other):
            if pd.isna(other):
                return self._binary(op, fill_value, reflected)
            return self.fillna(fill_value)._binary(op, other, reflected)
        if other._plan == self._plan:
            plan, lexpr, rexpr = self._plan, self._expr, other._expr
        else:
            pair = _align_pair(self, other, "outer")
            if pair is None:
                return call_method(self, name, (other,), {"level": level, "fill_value": fill_value, "axis": axis},
                                   "indexes not alignable natively")
            (plan, rexpr), lexpr = pair
        fv = literal(fill_value)

        def filled(x: Expr, y: Expr) -> Expr:  # x's missing values filled where y has one
            return func("where", func("fillna", x, fv), func("notna", y), x)

        lf, rf = filled(lexpr, rexpr), filled(rexpr, lexpr)
        l, r = (rf, lf) if reflected else (lf, rf)
        expr = BinOp(op, l, r)
        check_binop(expr, plan.schema.dtype_of, op, other, self._dtype_arrow)
        return Series._over(plan, expr, _maybe_match_name(self, other))

    # ------------------------------------------------------------------ elementwise
    @objects_via_pandas
    def abs(self) -> "Series":
        if self._python_objects():
            return call_method(self, "abs", (), {}, "Python's abs of each object")
        t = self._dtype_arrow
        native = t is None or is_numeric(t) or pa.types.is_duration(t) or pa.types.is_decimal(t)
        if (not native or t is not None and pa.types.is_boolean(t)) and self._family in ARROW_FAMILIES:
            return call_method(self, "abs", (), {}, "abs of this Arrow dtype is not native")  # pyarrow's abs
        if not native:
            raise TypeError(f"bad operand type for abs(): '{pandas_dtype(t)}'")
        return self._with(func("abs", self._expr))

    @pickled_via_pandas
    def isna(self) -> "Series":
        return self._with(func("isna", self._expr))

    isnull = isna

    @pickled_via_pandas
    def notna(self) -> "Series":
        return self._with(func("notna", self._expr))

    notnull = notna

    @objects_via_pandas
    def fillna(self, value: Any = None, *, axis: Any = None, inplace: bool = False, limit: Any = None) -> "Series | None":
        if value is None or limit is not None or not (is_scalar(value) or isinstance(value, Series)) \
                or is_scalar(value) and not fill_fits(self._dtype_arrow, value,
                                                      expr_family(self._expr, self._plan.schema.family_of, self._plan.schema.dtype_of)):
            return call_method(self, "fillna", (value,), {"axis": axis, "inplace": inplace, "limit": limit})
        if isinstance(value, Series):
            al = _align_expr(self._plan, value)
            if al is None or al[0] is not self._plan:
                return call_method(self, "fillna", (value,), {"inplace": inplace})
            new = self._with(func("fillna", self._expr, al[1]))
        else:
            if fill_makes_objects(self._dtype_arrow, literal_type(value), self._family):  # pandas' object column: pandas computes it
                return call_method(self, "fillna", (value,), {"axis": axis, "inplace": inplace})
            new = self._with(func("fillna", self._expr, literal(value)))
        return self._inplace(new, inplace)

    @pickled_via_pandas  # (moves / counts values: interval and period ones too)
    def dropna(self, *, axis: Any = 0, inplace: bool = False, how: Any = None, ignore_index: bool = False) -> "Series | None":
        new = Series._back(self._frame().dropna(ignore_index=ignore_index))
        return self._inplace(new, inplace)

    @objects_via_pandas
    def isin(self, values: Any) -> "Series":
        if not _is_listlike(values) and not isinstance(values, dict):
            if isinstance(values, Iterator):
                values = list(values)  # pandas takes an iterator's values (``isin(x for x in ...)``)
            elif isinstance(values, pd.api.extensions.ExtensionArray):  # pandas' own matching rules for it
                return call_method(self, "isin", (values,), {}, f"isin of a {type(values).__name__}")
            else:
                raise TypeError("only list-like objects are allowed to be passed to isin(), you passed a "
                                f"`{type(values).__name__}`")
        t = self._dtype_arrow
        if (self.dtype == object or isinstance(values, Series) and values.dtype == object) and _has_missing(values):
            # an object column holds None and NaN apart, and pandas matches each only with itself;
            # the engines hold both as one missing value
            return call_method(self, "isin", (values,), {}, "missing values among isin values of an object column")
        if isinstance(values, Series) and _same_exact_type(t, values._dtype_arrow):
            # the value set stays where the engine holds it (on the GPU, in device memory)
            nulls_match = not (self._family == MASKED and not is_string(t))
            vals = engines.column_values(values._frame_plan(), nulls_match)
            return self._with(func("isin", self._expr, values=vals))
        if isinstance(values, (Series, Index)) and t is not None and not pa.types.is_dictionary(t):
            arr = _isin_array(values, t, self._family not in ARROW_FAMILIES)
            if arr is not None and self._family == MASKED and not is_string(t):
                arr = arr.drop_null()  # pandas: a nullable number's NA matches no value of a Series
            if arr is not None:
                return self._with(func("isin", self._expr, values=Opaque(arr, "isin values")))
        if self._family in ARROW_FAMILIES and not isinstance(values, (Series, Index)) \
                and not _arrow_value_set_native(_values_of(values), t):
            return call_method(self, "isin", (values,), {}, "isin values of another type than the Arrow column")
        listed = _isin_missing(_values_of(values), t, self._family)
        if self._family not in ARROW_FAMILIES and t is not None and (pa.types.is_float32(t) or pa.types.is_float16(t)):
            listed = [v for v in listed if not _inexact_in(v, t)]
        vals = tuple(scalar_value(v) for v in listed)
        if t is not None and pa.types.is_dictionary(t):
            # a categorical's membership is its values' membership (engines cannot test codes against values)
            return self._with(func("isin", func("cast", self._expr, dtype=t.value_type), values=vals))
        return self._with(func("isin", self._expr, values=vals))

    @objects_via_pandas
    def between(self, left: Any, right: Any, inclusive: str = "both") -> "Series":
        if inclusive not in ("both", "neither", "left", "right"):
            raise ValueError("Inclusive has to be either string of 'both','left', 'right', or 'neither'.")
        lo = "ge" if inclusive in ("both", "left") else "gt"
        hi = "le" if inclusive in ("both", "right") else "lt"
        return (self._binary(lo, left)) & (self._binary(hi, right))

    @objects_via_pandas
    def where(self, cond: Any, other: Any = np.nan, *, inplace: bool = False, axis: Any = None, level: Any = None) -> "Series | None":
        if callable(cond):
            cond = cond(self)
        if callable(other):
            other = other(self)
        if other is pd.NA and self._family not in OBJECT_FAMILIES:
            other = None  # NA is missing there, as NaN is (an object column holds the NA object itself)
        if not isinstance(cond, Series) or not (is_scalar(other) or isinstance(other, Series)):
            return call_method(self, "where", (cond, other), {"inplace": inplace, "axis": axis})
        al = _align_expr(self._plan, cond)
        if al is None or al[0] is not self._plan:
            return call_method(self, "where", (cond, other), {"inplace": inplace})
        c = al[1]
        if isinstance(other, Series):
            al = _align_expr(self._plan, other)
            if al is None or al[0] is not self._plan:
                return call_method(self, "where", (cond, other), {"inplace": inplace})
            o = al[1]
        else:
            o = literal(other)
        t = self._dtype_arrow
        new = self._with(func("where", self._expr, c, o))
        # (numpy ints and bools where a missing value goes: float64 / object by the data, as pandas;
        # an NA family keeps the type, ``family_type``)
        missing = isinstance(o, Lit) and o.value is None
        if new._dtype_arrow is None and not (t is not None and (pa.types.is_boolean(t) or pa.types.is_integer(t) and missing)) \
                and not (self._family in NA_FAMILIES and missing):
            return call_method(self, "where", (cond, other), {"inplace": inplace})
        return self._inplace(new, inplace)

    @objects_via_pandas
    def mask(self, cond: Any, other: Any = np.nan, *, inplace: bool = False, axis: Any = None, level: Any = None) -> "Series | None":
        if callable(cond):
            cond = cond(self)
        if isinstance(cond, Series):
            return self.where(~cond.fillna(False) if cond._dtype_arrow is not None else ~cond, other, inplace=inplace)
        return call_method(self, "mask", (cond, other), {"inplace": inplace})

    @objects_via_pandas
    def clip(self, lower: Any = None, upper: Any = None, axis: Any = None, inplace: bool = False) -> "Series | None":
        if not (is_scalar(lower) and is_scalar(upper)):
            return call_method(self, "clip", (lower, upper), {"axis": axis, "inplace": inplace})
        lo, hi = scalar_value(lower), scalar_value(upper)
        if not clip_native(self._dtype_arrow, self._family, lo, hi):
            # pandas' result depends on the data (a bound of another kind, a bool column)
            return call_method(self, "clip", (lower, upper), {"axis": axis, "inplace": inplace})
        return self._inplace(self._with(func("clip", self._expr, lower=lo, upper=hi)), inplace)

    @objects_via_pandas
    def round(self, decimals: int = 0) -> "Series":
        t = self._dtype_arrow
        if t is not None and not is_numeric(t) and self._family in ARROW_FAMILIES:
            # pandas rounds an Arrow column with pyarrow (decimals in their own type; other types as they are)
            return call_method(self, "round", (decimals,), {}, "round of this Arrow dtype is not native")
        if self._family in OBJECT_FAMILIES or t is not None and (pa.types.is_timestamp(t) or pa.types.is_duration(t)):
            # object values: Python's round of each (or its TypeError); datetimes: pandas' warning
            return call_method(self, "round", (decimals,), {}, "round of objects / datetimes")
        if t is not None and (pa.types.is_boolean(t) or not is_numeric(t)):
            return self.copy()  # pandas 3.1: round of bools, strings, categories is a no-op
        return self._with(func("round", self._expr, decimals=int(decimals)))

    @objects_via_pandas
    def astype(self, dtype: Any, copy: Any = None, errors: str = "raise") -> "Series":
        f = Field(self._name, self._dtype_arrow, self._family)
        try:
            if errors != "raise":
                raise NotImplementedError("astype(errors=...)")
            return self._with(cast_expr(self._expr, f, dtype, self._plan))
        except NotImplementedError:
            return call_method(self, "astype", (dtype,), {"errors": errors})
        except pd.errors.IntCastingNaNError:  # pandas names the column of a frame only
            raise pd.errors.IntCastingNaNError(
                "Cannot convert non-finite values (NA or inf) to integer. Replace or remove non-finite values or "
                "cast to an integer type that supports these values (e.g. 'Int64')") from None

    def reindex(self, index: Any = None, **kwargs: Any) -> "Series":
        # native: new labels with or without a fill value (reshape.reindex_series); the rest is pandas'
        fill = kwargs.get("fill_value")
        if index is not None and set(kwargs) - {"fill_value"} <= {"method", "limit"} and kwargs.get("method") \
                and fill is None and not callable(index):
            from gframe.frontend.reshape import reindex_filled

            out = reindex_filled(self, index, kwargs["method"], kwargs.get("limit"))
            if out is not None:
                return out
        if index is not None and set(kwargs) <= {"fill_value"} and not callable(index):
            from gframe.frontend.reshape import reindex_series

            out = reindex_series(self, index, fill)
            if out is not None:
                return out
        return call_method(self, "reindex", (index,), kwargs)

    def convert_dtypes(self, infer_objects: Any = NO_DEFAULT, convert_string: Any = NO_DEFAULT,
                       convert_integer: Any = NO_DEFAULT, convert_boolean: Any = NO_DEFAULT,
                       convert_floating: Any = NO_DEFAULT, dtype_backend: str = "numpy_nullable") -> "Series":
        options = switches((infer_objects, convert_string, convert_integer, convert_boolean, convert_floating))
        dtype = self.dtype
        target = converted_dtype(dtype, self._plan, self._expr, options, dtype_backend)
        return self.copy() if target is dtype or target == dtype else self.astype(target)

    def rename(self, index: Any = None, *, axis: Any = None, copy: Any = None, inplace: bool = False, level: Any = None,
               errors: str = "ignore") -> "Series | None":
        if index is None or is_scalar(index) or isinstance(index, tuple):
            return self._inplace(Series._over(self._plan, self._expr, index), inplace)
        return call_method(self, "rename", (index,), {"inplace": inplace})

    def reset_index(self, level: Any = None, *, drop: bool = False, name: Any = ..., inplace: bool = False,
                    allow_duplicates: bool = False) -> Any:
        if level is not None:
            return call_method(self, "reset_index", (level,), {"drop": drop, "inplace": inplace})
        if drop:
            return self._inplace(Series._back(self._frame().reset_index(drop=True)), inplace)
        label = self._name if name is ... else name
        if label is None:
            label = 0
        return DataFrame._from_plan(L.Select(((label, self._expr),), self._plan)).reset_index()

    # ------------------------------------------------------------------ reductions
    def _reduce(self, fn: str, skipna: bool = True, min_count: int = 0, **params: Any) -> Any:
        t = self._dtype_arrow
        frame_plan = self._frame()._plan if t is None else None
        if not arrow_reduction_native(fn, t, self._family) or frame_plan is not None \
                and frame_plan.schema.columns[0].name in L.undecided_bool_sources(frame_plan):
            # pyarrow's result types (a duration's mean...); a merge's bools, object where it left rows
            # missing: pandas reduces the objects (Python scalars)
            return call_method(self, fn, (), {"skipna": skipna, **({"min_count": min_count} if min_count else {}),
                                              **params})
        if t is not None and pa.types.is_temporal(t) and (self._family in OBJECT_FAMILIES or t == OBJECT_DATE) \
                and fn not in ("count", "nunique"):
            # Timestamps / Timedeltas / dates in an object column (``dt.date``'s too, of the numpy family):
            # numpy's object reduction by Python's rules (no value at all: NaN, a sum 0; a mean of
            # Timestamps a TypeError; a min a ``datetime.date``) - pandas'
            return call_method(self, fn, (), {"skipna": skipna, **({"min_count": min_count} if min_count else {}),
                                              **params})
        if t is not None and fn not in ("count", "nunique", "min", "max", "first", "last") \
                and (is_string(t) and self._family in OBJECT_FAMILIES
                     or (pa.types.is_binary(t) or pa.types.is_large_binary(t)) and self._family not in ARROW_FAMILIES):
            # strings / bytes in an object column (bytes are pandas' objects whatever their family
            # but Arrow's): pandas converts the objects to numbers first, and a statistic raises at
            # the first value ("Could not convert '1' to numeric"); it sums / multiplies them as
            # Python objects (concatenation, Python's TypeError)
            if fn in ("mean", "median", "var", "std"):
                first = Series._from_frame_plan(L.Slice(0, 1, L.Select((("v", self._expr),), L.Filter(
                    func("notna", self._expr), self._plan)))).tolist()
                if first:
                    raise TypeError(f"Could not convert {first[0]!r} to numeric")
            return call_method(self, fn, (), {"skipna": skipna, **({"min_count": min_count} if min_count else {}),
                                              **params})
        if t is not None and (is_string(t) or pa.types.is_dictionary(t)) and fn not in ("count", "nunique", "min", "max", "first", "last"):
            if fn == "sum" and is_string(t):  # pandas concatenates the strings
                return call_method(self, fn, (), {"skipna": skipna, "min_count": min_count, **params})
            if fn == "prod" and is_string(t) and self._family in OBJECT_FAMILIES:
                # numpy's object product: one string is itself, two raise Python's TypeError
                return call_method(self, fn, (), {"skipna": skipna, "min_count": min_count, **params})
            if fn in ("sum", "mean", "median", "std", "var", "prod"):
                raise TypeError(f"Cannot perform reduction '{fn}' with string dtype")
            return call_method(self, fn, (), {"skipna": skipna, **params})
        if t is not None and pa.types.is_duration(t) and self._family not in ARROW_FAMILIES | OBJECT_FAMILIES:
            if fn in ("var", "prod"):  # (a variance would be in squared time)
                raise TypeError(f"'TimedeltaArray' with dtype {pandas_dtype(t)} does not support operation '{fn}'")
            if fn in ("std", "any", "all"):  # pandas: a Timedelta; whether a duration is not zero
                return call_method(self, fn, (), {"skipna": skipna, **params})
        if t is not None and pa.types.is_timestamp(t) and fn == "std":  # pandas: a Timedelta
            return call_method(self, fn, (), {"skipna": skipna, **params})
        if t is not None and pa.types.is_timestamp(t) and fn in ("sum", "prod", "std", "var"):
            raise TypeError(f"datetime64 type does not support operation '{fn}'")
        if t is not None and pa.types.is_timestamp(t) and fn in ("any", "all") and self._family not in OBJECT_FAMILIES:
            raise TypeError(f"'{fn}' with datetime64 dtypes is not supported. Use (obj != pd.Timestamp(0)).{fn}() instead.")
        if not skipna and fn in ("any", "all") and t is not None and is_numeric(t) and self._family in (NUMPY, MASKED) \
                and not (pa.types.is_boolean(t) and self._family == NUMPY and self._reduce("count") < len(self)):
            # (numpy bools with missing values are pandas' objects: None false, NaN true - pandas decides)
            return self._any_all_keeping_missing(fn)
        if t is not None and pa.types.is_dictionary(t) and fn in ("min", "max") or not skipna and fn in ("any", "all"):
            return call_method(self, fn, (), {"skipna": skipna, **params})
        result = reduce_columns(self._plan, [(self._expr, t)], fn, skipna, min_count, params)[0]
        if fn in ("sum", "prod") and not skipna and self._family == OBJECT_NA and isinstance(result, (float, np.floating)) \
                and np.isnan(result):
            return pd.NA  # (pd.NA + 1 is pd.NA: the object column's own missing value propagates)
        if self._family in OBJECT_FAMILIES and fn in ("sum", "prod", "min", "max") and isinstance(result, np.generic):
            # pandas reduces an object column's values with Python's arithmetic (``values.sum()`` of
            # objects): a Python scalar (a missing min / max: NaN, a Python float); no values at all
            # give the start value, the int 0 (1 for prod)
            if isinstance(result, np.floating) and np.isnan(result):
                return float("nan")
            if fn in ("sum", "prod") and result == (0 if fn == "sum" else 1) and t is not None and pa.types.is_floating(t) \
                    and reduce_columns(self._plan, [(self._expr, t)], "count")[0] == 0:
                return 0 if fn == "sum" else 1
            return result.item()
        return result

    def _any_all_keeping_missing(self, fn: str) -> Any:
        """``any`` / ``all`` with ``skipna=False`` of numbers: numpy's NaN is a true value; a nullable
        dtype's NA follows Kleene's logic (NA where the values present do not decide)."""
        decided = self._reduce(fn, True)  # over the values present
        if not self.isna().any():
            return decided
        if self._family == NUMPY:
            return np.bool_(True) if fn == "any" else decided
        return decided if bool(decided) == (fn == "any") else pd.NA

    @objects_via_pandas
    def sum(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, min_count: int = 0, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("sum", skipna, min_count)

    def corr(self, other: Any, method: Any = "pearson", min_periods: int | None = None) -> Any:
        return self._bivariate("corr", other, method == "pearson" and min_periods is None, {},
                               {"method": method, "min_periods": min_periods})

    def cov(self, other: Any, min_periods: int | None = None, ddof: int | None = 1) -> Any:
        return self._bivariate("cov", other, min_periods is None and isinstance(ddof, int), {"ddof": ddof},
                               {"min_periods": min_periods, "ddof": ddof})

    def _bivariate(self, fn: str, other: Any, plain: bool, params: dict[str, Any], kwargs: dict[str, Any]) -> Any:
        """Pearson correlation / covariance over the rows where both are present: one aggregation
        when both Series are columns of the same frame (no alignment to do), else pandas."""
        numeric = all(t is not None and is_numeric(t) and not pa.types.is_boolean(t)
                      for t in (self._dtype_arrow, getattr(other, "_dtype_arrow", None)))
        if not (plain and numeric and isinstance(other, Series) and other._plan is self._plan):
            return call_method(self, fn, (other,), kwargs)
        agg = Agg(fn, tuple(sorted(params.items())), self._expr, other._expr)
        table = engines.materialize(L.Aggregate((), (), ((fn, agg),), False, True, False, self._plan)).to_arrow()
        value = table.column(0)[0].as_py()
        return float("nan") if value is None else np.float64(value)

    @objects_via_pandas
    def prod(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, min_count: int = 0, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("prod", skipna, min_count)

    product = prod

    @objects_via_pandas
    def mean(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("mean", skipna)

    @objects_via_pandas
    def median(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("median", skipna)

    @objects_via_pandas
    def min(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("min", skipna)

    @objects_via_pandas
    def max(self, axis: Any = None, skipna: bool = True, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("max", skipna)

    @objects_via_pandas
    def std(self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("std", skipna, ddof=ddof)

    @objects_via_pandas
    def var(self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        _series_axis(axis)
        return self._reduce("var", skipna, ddof=ddof)

    @objects_via_pandas
    def count(self) -> Any:
        return self._reduce("count")

    @objects_via_pandas
    def nunique(self, dropna: bool = True) -> int:
        return int(self._reduce("nunique", dropna=dropna))

    @objects_via_pandas
    def any(self, *, axis: Any = 0, bool_only: bool = False, skipna: bool = True, **kw: Any) -> Any:
        if kw:  # numpy's keywords, validated by pandas (others raise TypeError)
            return call_method(self, "any", (), {"axis": axis, "bool_only": bool_only, "skipna": skipna, **kw})
        return self._reduce("any", skipna)

    @objects_via_pandas
    def all(self, *, axis: Any = 0, bool_only: bool = False, skipna: bool = True, **kw: Any) -> Any:
        if kw:  # numpy's keywords, validated by pandas (others raise TypeError)
            return call_method(self, "all", (), {"axis": axis, "bool_only": bool_only, "skipna": skipna, **kw})
        return self._reduce("all", skipna)

    @objects_via_pandas
    def quantile(self, q: Any = 0.5, interpolation: str = "linear") -> Any:
        t = self._dtype_arrow
        if not isinstance(q, (float, int)) or isinstance(q, bool) or t is None or not is_numeric(t) \
                or pa.types.is_boolean(t) or interpolation not in ("linear", "lower", "higher", "midpoint"):
            return call_method(self, "quantile", (q,), {"interpolation": interpolation})
        if not 0 <= q <= 1:
            raise ValueError("percentiles should all be in the interval [0, 1]")
        return self._reduce("quantile", q=float(q), interpolation=interpolation)

    def _arg_extreme(self, largest: bool, skipna: bool) -> Any:
        """idxmax / idxmin: the label of the first extreme value (a top-1 of the column)."""
        t = self._dtype_arrow
        if not skipna or t is None or not (is_numeric(t) or pa.types.is_timestamp(t)):
            return call_method(self, "idxmax" if largest else "idxmin", (), {"skipna": skipna})
        frame = self._frame()
        f = frame._plan.schema.columns[0]
        base = L.Filter(func("notna", Col(f.name)), _positions(frame._plan))
        top = DataFrame._from_plan(L.TopK((f.name,), (largest,), True, 1, False, base))
        labels = top.index.to_pandas()
        if not len(labels):
            if len(self):  # values, all missing
                raise ValueError("Encountered all NA values")
            raise ValueError(f"attempt to get {'argmax' if largest else 'argmin'} of an empty sequence")
        return labels[0]

    @objects_via_pandas
    def idxmax(self, axis: Any = 0, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._arg_extreme(True, skipna)

    @objects_via_pandas
    def idxmin(self, axis: Any = 0, skipna: bool = True, *args: Any, **kwargs: Any) -> Any:
        return self._arg_extreme(False, skipna)

    # ------------------------------------------------------------------ ordering and sets
    @objects_via_pandas
    def sort_values(self, *, axis: Any = 0, ascending: Any = True, inplace: bool = False, kind: Any = None,
                    na_position: str = "last", ignore_index: bool = False, key: Any = None) -> "Series | None":
        if key is not None:
            return call_method(self, "sort_values", (), {"ascending": ascending, "inplace": inplace, "kind": kind,
                                                            "na_position": na_position, "ignore_index": ignore_index, "key": key})
        from gframe.frontend.frame import DataFrame, _descending, _positions, _sort_values_plan

        if na_position not in ("first", "last"):
            raise ValueError(f"invalid na_position: {na_position}")
        # by the values' own column, not by its label: the label may also name an index level
        # (``s.value_counts().reset_index()["count"].value_counts()``), which a frame's sort refuses
        frame = self._frame()
        plan = _sort_values_plan(_positions(frame._plan), [frame._plan.schema.columns[0].name],
                                 _descending(ascending, 1), na_position == "last")
        out = DataFrame._from_plan(plan)
        if ignore_index:
            out = out.reset_index(drop=True)
        return self._inplace(Series._back(out), inplace)

    def sort_index(self, *, axis: Any = 0, level: Any = None, ascending: Any = True, inplace: bool = False, kind: Any = None,
                   na_position: str = "last", sort_remaining: bool = True, ignore_index: bool = False, key: Any = None) -> "Series | None":
        new = self._frame().sort_index(level=level, ascending=ascending, na_position=na_position, ignore_index=ignore_index, key=key)
        return self._inplace(Series._back(new), inplace)

    def repeat(self, repeats: Any, axis: None = None) -> "Series":
        """Each value ``repeats`` times in a row, its index label with it: an int, or one int per
        value (numpy's rules: a count list of one is every value's count). Counts that are not
        integers (floats, strings, nullable arrays) run through pandas, which converts or raises."""
        if axis is not None:
            raise ValueError("the 'axis' parameter is not supported in the pandas implementation of repeat()")
        counts = _repeat_counts(repeats)
        if counts is None:
            return call_method(self, "repeat", (repeats,), {"axis": axis}, "repeat counts that are not integers")
        if isinstance(counts, tuple) and len(counts) == 1:
            counts = counts[0]  # numpy broadcasts a single count
        if isinstance(counts, int):
            if counts < 0:
                raise ValueError("negative dimensions are not allowed")
        else:
            n = len(self)
            if len(counts) != n:
                raise ValueError(f"operands could not be broadcast together with shape ({n},) ({len(counts)},)")
            if any(c < 0 for c in counts):
                raise ValueError("repeats may not contain negative values.")
        return Series._from_frame_plan(L.Repeat(counts, _positions(self._frame_plan())))

    @objects_via_pandas
    def nlargest(self, n: int = 5, keep: str = "first") -> "Series":
        frame = self._frame()
        return Series._back(frame.nlargest(n, [frame._plan.schema.columns[0].label], keep=keep))

    @objects_via_pandas
    def nsmallest(self, n: int = 5, keep: str = "first") -> "Series":
        frame = self._frame()
        return Series._back(frame.nsmallest(n, [frame._plan.schema.columns[0].label], keep=keep))

    @objects_via_pandas
    def drop_duplicates(self, *, keep: Any = "first", inplace: bool = False, ignore_index: bool = False) -> "Series | None":
        new = Series._back(self._frame().drop_duplicates(keep=keep, ignore_index=ignore_index))
        return self._inplace(new, inplace)

    def rank(self, axis: Any = 0, method: str = "average", numeric_only: bool = False, na_option: str = "keep",
             ascending: bool = True, pct: bool = False) -> "Series":
        """Ranks (float64, as pandas); other arguments or value types run through pandas."""
        kwargs = {"axis": axis, "method": method, "numeric_only": numeric_only, "na_option": na_option,
                  "ascending": ascending, "pct": pct}
        expr = _rank_expr(self._expr, self._dtype_arrow, kwargs, self._frame()._plan.schema.columns[0].family)
        if expr is None:
            return call_method(self, "rank", (), kwargs)
        return self._with(expr)

    @objects_via_pandas
    def duplicated(self, keep: Any = "first") -> "Series":
        if keep not in ("first", "last", False):
            raise ValueError('keep must be either "first", "last" or False')
        plan = self._frame()._plan
        widen = {"float_when_missing": True} if L.floats_where_missing(plan, plan.schema.columns[0].name) else {}
        return self._with(func("duplicated", self._expr, keep="none" if keep is False else keep, **widen))

    @pickled_via_pandas  # (moves / counts values: interval and period ones too)
    def unique(self) -> Any:
        frame = self._frame()
        plan = L.Distinct((), "first", frame._plan)
        res = Series._from_frame_plan(plan).to_pandas()
        return pd.unique(res) if not isinstance(res.dtype, np.dtype) else res.values if res.dtype != object else pd.unique(res)

    def mode(self, dropna: bool = True) -> "Series":
        """The most frequent values, sorted (missing last), as a Series of this dtype and name over a
        RangeIndex: the counts of each value (``value_counts``), those equal to the largest. Values
        pandas sorts by its own rules (objects, categoricals, Arrow dtypes) run through pandas."""
        t = self._dtype_arrow
        if t is None or self._family not in (NUMPY, MASKED) \
                or not (is_numeric(t) or is_string(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t)):
            return call_method(self, "mode", (), {"dropna": dropna}, "not native")
        counts = self.rename("v").value_counts(dropna=dropna, sort=False).reset_index()
        top = counts[counts["count"] == counts["count"].max()]
        # (pandas sorts a time's NaT first: its int64 is the smallest; NaN and NA last)
        na_position = "first" if pa.types.is_timestamp(t) or pa.types.is_duration(t) else "last"
        return top.sort_values("v", na_position=na_position)["v"].reset_index(drop=True).rename(self._name)

    @objects_via_pandas
    def sem(self, axis: Any = None, skipna: bool = True, ddof: int = 1, numeric_only: bool = False, **kw: Any) -> Any:
        """The standard error of the mean: the standard deviation over the root of the count of
        values (pandas' ``nansem``: NaN where the count is not above ``ddof``)."""
        _series_axis(axis)
        t = self._dtype_arrow
        if kw or t is None or self._family != NUMPY or not is_numeric(t) or pa.types.is_boolean(t) \
                or not isinstance(ddof, int) or isinstance(ddof, bool):
            return call_method(self, "sem", (), {"axis": axis, "skipna": skipna, "ddof": ddof,
                                                 "numeric_only": numeric_only, **kw}, "not native")
        std = self._reduce("std", skipna, ddof=ddof)
        n = self._reduce("count")
        if not isinstance(std, np.floating):  # (no values: NaN)
            std = np.float64(std)
        if n <= ddof:
            return std.dtype.type(np.nan)
        return std / np.sqrt(std.dtype.type(n))

    @pickled_via_pandas  # (moves / counts values: interval and period ones too)
    def value_counts(self, normalize: bool = False, sort: bool = True, ascending: bool = False, bins: Any = None,
                     dropna: bool = True) -> "Series":
        t = self._dtype_arrow
        frame = self._frame()
        # a merge's bools a side may miss are object where it did (the index of their counts too): the data's
        undecided = t is None and frame._plan.schema.columns[0].name in L.undecided_bool_sources(frame._plan)
        # (a type the data decides over a categorical - a merge's key of two of one dtype - may be one)
        if bins is not None or t is not None and pa.types.is_dictionary(t) or undecided \
                or t is None and _over_categoricals(frame._plan):
            # a categorical counts every category, observed or not, in the dtype's order (sort=False)
            return call_method(self, "value_counts", (), {"normalize": normalize, "sort": sort, "ascending": ascending,
                                                             "bins": bins, "dropna": dropna})
        label = frame._plan.schema.columns[0].label
        name = "proportion" if normalize else "count"
        # (the counts under a name of their own where the values' label is theirs - a column named
        # "proportion" - so the keys and the counts stay two columns; the Series is renamed at the end)
        cname = name if label != name else "__gf_counts"
        key = frame._plan.schema.columns[0].name
        # pandas counts ``string`` (NA) values as int64[pyarrow], other nullable values as Int64
        # (``string[python]``'s are Int64)
        fam0 = frame._plan.schema.columns[0].family
        fam = ((("family", MASKED if string_storage(fam0) else ARROW),) if fam0 == MASKED and t is not None and is_string(t)
               else ())
        count = ((cname, Agg("size", fam, Col(key))),)
        fam0 = frame._plan.schema.columns[0].family
        # pyarrow counts an Arrow float's -0.0 apart from 0.0: a hidden key tells them apart
        plan, (key,), hidden = L.signed_zero_keys(frame._plan, (key,))
        dates = t == OBJECT_DATE  # (dates in an object column: a group-by labels the missing key NaN, value_counts NaT)
        if fam0 in OBJECT_FAMILIES or hidden or dates:
            # group keys are inferred (``Aggregate``), but pandas' value_counts keeps an object column's
            # dtype for its index: the keys as a column, cast back to the object family, then the index
            flat = L.Aggregate((key, *hidden), (label, *hidden), count, False, dropna, False, plan)
            k, c = flat.schema.columns[0], flat.schema.columns[-1]
            t0 = frame._plan.schema.columns[0].dtype  # (the key's type in the result is the data's)
            kexpr = func("cast", Col(k.name), dtype=t0, family=fam0) if fam0 in OBJECT_FAMILIES or dates else Col(k.name)
            agg = L.SetIndex((k.name,), True, False, False, L.Select(((label, kexpr), (cname, Col(c.name))), flat))
        elif fam0 == MASKED and not dropna and not (t is not None and is_string(t)):
            # a nullable array's value_counts counts the values, then appends the NA count: the
            # missing key's group comes last, before the counts are sorted (stably) - not where it appeared
            flat = L.Aggregate((key,), (label,), count, False, dropna, False, plan)
            k, c = flat.schema.columns[0], flat.schema.columns[-1]
            na = "__gf_na_last"
            with_na = L.Select(((label, Col(k.name)), (cname, Col(c.name)), (na, func("isna", Col(k.name)))), flat)
            ordered = L.Sort((internal_name(na),), (False,), True, with_na)
            agg = L.SetIndex((k.name,), True, False, False, L.Select(((label, Col(k.name)), (cname, Col(c.name))), ordered))
        else:
            agg = L.Aggregate((key,), (label,), count, False, dropna, True, plan)
        out = Series._from_frame_plan(agg)
        if cname != name:
            out = out.rename(name)
        if normalize:
            out = (out / out.sum()).rename(name)
        if sort:
            out = out.sort_values(ascending=ascending)
        return out

    # ------------------------------------------------------------------ accessors, grouping
    @property
    def str(self) -> Any:
        return StringMethods(self)

    @property
    def cat(self) -> Any:
        return CategoricalMethods(self)

    @property
    def dt(self) -> Any:
        if self._dtype_arrow == PYOBJECT or host_dtype(self._family) is not None:
            # values held as Python objects (times in [s] past [ms]'s range, zones the engines cannot
            # name: ``interop``): pandas' accessor, which refuses an object column as the native one would
            return get_attribute(self, "dt")
        return DatetimeMethods(self)

    def groupby(self, by: Any = None, axis: Any = 0, level: Any = None, as_index: bool = True, sort: bool = True,
                group_keys: bool = True, observed: bool = True, dropna: bool = True) -> Any:
        return SeriesGroupBy(self, by, level=level, as_index=as_index, sort=sort, observed=observed, dropna=dropna,
                             group_keys=group_keys)

    def resample(self, rule: Any, *args: Any, on: Any = None, **kwargs: Any) -> Any:
        """pandas' resample: the common frequencies natively (``frontend/resample.py``)."""
        from gframe.frontend.resample import Resampler

        if args:
            return get_attribute(self, "resample")(rule, *args, on=on, **kwargs)
        return Resampler(self, rule, on, kwargs)

    def map(self, arg: Any, na_action: Any = None) -> "Series":
        out, reason = map_series(self, arg, na_action=na_action)
        if out is not None:
            return out
        return via_pandas("Series.map", pd.Series.map, (self, arg), {"na_action": na_action}, reason)

    def apply(self, func_: Any, convert_dtype: Any = None, args: tuple = (), *, by_row: Any = "compat", **kwargs: Any) -> Any:
        if args or kwargs:
            return self.map(lambda v: func_(v, *args, **kwargs))
        return self.map(func_)

    def pipe(self, func: Callable[..., Any] | tuple[Callable[..., Any], str], *args: Any, **kwargs: Any) -> Any:
        from pandas.core.common import pipe as pandas_pipe

        return pandas_pipe(self, func, *args, **kwargs)  # pandas' own: a (callable, keyword) tuple too

    def to_csv(self, *args: Any, **kwargs: Any) -> Any:
        return call_method(self, "to_csv", args, kwargs)


# numpy's ufuncs: gframe/frontend/numpy_protocols.py (the NumpyProtocols base class)


def _align_pair(left: Series, right: Series, join: str) -> tuple[tuple[L.Plan, Expr], Expr] | None:
    """Both sides over one plan, aligned on the index by the rule ``join`` ("outer": the sorted
    union, "exact": equal labels or pandas' ValueError): ((plan, right expr), left expr); None where
    pandas must align them (``frame.aligned``)."""
    lt, rt = "__gf_left", "__gf_right"
    lp = L.Select(((lt, left._expr),), left._plan)
    rp = L.Select(((rt, right._expr),), right._plan)
    both = aligned(join, lp, rp)
    if both is None:
        return None
    return (both, Col(internal_name(rt))), Col(internal_name(lt))


def _arrow_value_set_native(values: Any, t: Any) -> bool:
    """Whether ``isin(values)`` on an Arrow-backed column of type ``t`` matches the engines' isin.
    pandas tests an ArrowDtype column with ``pyarrow.compute.is_in`` against the values as pyarrow
    infers them (``Decimal('2.25')`` is decimal128(3, 2), which cannot rescale to every value of the
    column: ArrowInvalid; an int is not cast to a date): native where the values are the column's
    own type, pandas' to do otherwise."""
    values = list(values)
    present = [v for v in values if not (is_scalar(v) and pd.isna(v))]
    if t is None or not present:  # only missing values: pyarrow's null type (is_in with strings raises)
        return t is not None and not values
    try:
        inferred = pa.array(present, from_pandas=True).type
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, TypeError, ValueError):
        return False
    if pa.types.is_integer(inferred) and pa.types.is_integer(t):
        # Python ints against any integer column (``p_size.isin([49, 14])`` on int32, TPC-H q16):
        # pyarrow casts the value set to the column's type, which holds them where they fit
        info = np.iinfo(t.to_pandas_dtype())
        return all(info.min <= int(v) <= info.max for v in present)
    if pa.types.is_decimal(t) and not all(isinstance(v, decimal.Decimal) for v in present):
        return False  # ints among Decimals: pyarrow's decimal value set, not the engines' mixed literals
    return inferred == t or is_string(inferred) and is_string(t)


def _has_missing(values: Any) -> bool:
    """Whether ``isin``'s values hold a missing value (a gframe Series asks its engine)."""
    if isinstance(values, Series):
        return bool(values.isna().any())
    if isinstance(values, dict):
        return False
    return any(is_scalar(v) and pd.isna(v) for v in _values_of(values))


def _same_exact_type(t: Any, other: Any) -> bool:
    """Whether ``isin`` can test a column of type ``t`` against another Series' values of type
    ``other`` without pandas' value-by-value rules: the same type, one without NaN (floats: NaN and
    missing are one value in pandas, not in the engines' hash sets) and not a categorical."""
    if t is None or other is None or not (t == other or is_string(t) and is_string(other)):
        return False
    return (pa.types.is_integer(t) or is_string(t) or pa.types.is_temporal(t) or pa.types.is_boolean(t)
            or pa.types.is_decimal(t))


def _inexact_in(v: Any, t: Any) -> bool:
    """Whether the number ``v`` has no exact value of the narrow float type ``t``: numpy's and the
    masked arrays' ``isin`` compare a float32 column with such values in float64 (``0.1`` matches no
    float32 value, ``np.float32(0.1)`` does); the engines would cast ``v`` to ``t`` and match it."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)) or v != v:
        return False
    try:
        with np.errstate(over="ignore"):
            narrow = t.to_pandas_dtype()(v)
    except OverflowError:  # (a Python int past any float)
        return True
    if not np.isfinite(narrow):  # inf is exact; a finite value past the type matches nothing
        return isinstance(v, (int, np.integer)) or bool(np.isfinite(v))
    return int(narrow) != int(v) if isinstance(v, (int, np.integer)) else float(narrow) != float(v)


def _isin_array(values: Any, t: Any, widen: bool = False) -> pa.Array | None:
    """The distinct values of a gframe Series / Index as one Arrow array of the column type ``t``
    (nulls kept: they match missing values), for ``isin`` (TPC-H q4, q16, q20, q22:
    ``df[c].isin(other[c])``). An array instead of a tuple of Python scalars in the plan: a
    million keys were a million Python objects hashed with the plan. None where the kinds differ
    or values would not fit ``t`` (the tuple path applies pandas' rules value by value)."""
    import pyarrow.compute as pc

    pser = values.to_pandas()
    try:
        arr = pc.unique(pa.array(pser, from_pandas=True))
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        return None
    src = arr.type
    if pa.types.is_integer(t) and pa.types.is_integer(src):
        if len(arr) > arr.null_count:
            lo, hi = pc.min_max(arr).values()
            info = np.iinfo(t.to_pandas_dtype())
            if lo.as_py() < info.min or hi.as_py() > info.max:
                return None
    elif pa.types.is_floating(t) and (pa.types.is_floating(src) or pa.types.is_integer(src)):
        if widen and src != t and (pa.types.is_float32(t) or pa.types.is_float16(t)):
            # (``widen``: pandas compares in float64 - ``_inexact_in`` - so values without an exact
            # value of ``t`` match nothing; NaN and nulls stay)
            wide = arr.cast(pa.float64())
            exact = pc.equal(arr.cast(t, safe=False).cast(pa.float64()), wide)
            arr = arr.filter(pc.fill_null(pc.or_(exact, pc.is_nan(wide)), True))
    elif is_string(t) and is_string(src) or pa.types.is_boolean(t) and pa.types.is_boolean(src) or src == t:
        pass
    else:
        return None
    try:
        return arr.cast(t)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _keep_derived(plan: L.Plan) -> None:
    """Compute and keep a frame made by a join or a group-by before a scalar reduction over it.

    Why: pandas computed such a frame once, when the user made it, and code asks several questions
    of it - ``promo.sum() / revenue.sum()`` over one merge (TPC-H q14), ``t[t == t.max()]`` over a
    group-by (q15). Reduced lazily, each question would run the join or group-by again; kept, the
    later plans start from its result (``engines.prepare`` substitutes it), for as long as the
    user's frame lives. Plans of scans, filters and column expressions only are reduced directly
    (their columns pruned to what the reduction reads)."""
    if engines.cached(plan) is None and any(isinstance(n, (L.Join, L.Aggregate)) for n in plan.walk()):
        engines.materialize(plan)


def reduce_columns(plan: L.Plan, cols: list[tuple[Expr, Any]], fn: str, skipna: bool = True, min_count: int = 0,
                   params: dict[str, Any] | None = None) -> list[Any]:
    """pandas' reduction ``fn`` of each (expression, type) over ``plan``, in one aggregation.

    Returns the scalars pandas gives (numpy scalars, NaN / NaT when missing). ``skipna=False``: a
    column holding a missing value gives NaN; ``min_count``: fewer valid values give NaN.
    """
    params = dict(params or {})
    _keep_derived(plan)
    if any(t is None and not isinstance(e, Col) for e, t in cols):
        # a dtype the data decides (dt.year over NaT is float64): computed as a column first
        plan = L.Select(tuple((f"__gf_r{i}", e) for i, (e, _) in enumerate(cols)), plan)
        cols = [(Col(internal_name(f"__gf_r{i}")), plan.schema.columns[i].dtype) for i in range(len(cols))]
    aggs: list[tuple[Hashable, Agg]] = []
    for i, (e, t) in enumerate(cols):
        x = e
        if t is not None and pa.types.is_boolean(t) and fn in ("mean", "std", "var", "median"):
            # as float, in the column's family (``boolean.mean()`` of no values is NA, a numpy bool's NaN)
            x = func("cast", e, dtype=pa.float64(), family=expr_family(e, plan.schema.family_of, plan.schema.dtype_of))
        if t is not None and pa.types.is_decimal(t) and fn == "mean" \
                and expr_family(e, plan.schema.family_of, plan.schema.dtype_of) not in ARROW_FAMILIES:
            # Decimals (pandas' objects but in an ArrowDtype): pandas converts them to float64 for
            # a mean (2.75, not the decimal's Decimal('3') at the column's scale)
            x = func("cast", e, dtype=pa.float64())
        if fn == "nunique" and t is not None and pa.types.is_floating(t) \
                and expr_family(e, plan.schema.family_of, plan.schema.dtype_of) in ARROW_FAMILIES:
            # pyarrow hashes an Arrow float's -0.0 apart from 0.0 (two values); their texts differ
            # as the floats do (shortest round-trip digits), and -0.0's keeps its sign
            x = func("cast", e, dtype=pa.large_string())
        aggs.append((f"v{i}", Agg(fn, tuple(sorted(params.items())), x)))
        if not skipna and fn not in ("count", "nunique", "size"):
            aggs.append((f"n{i}", Agg("any", (), func("isna", e))))
        if min_count or fn in _NAN_MADE and t is not None and pa.types.is_floating(t):
            # a float sum's, product's, mean's... missing result is NaN made by the values (inf * 0,
            # inf - inf): the engines hold it as null, like the result of no values - the count of
            # values tells them apart
            aggs.append((f"c{i}", Agg("count", (), e)))
    # pandas' NaN of a float reduction (or of an int's std/var over one row) is a numpy scalar over
    # rows, a Python float over none; a type the data decides (a merge's ints, float64 where rows
    # went missing) may be a float's
    narrow_float = any(t is None or pa.types.is_floating(t) for _, t in cols) or fn in ("std", "var")
    if narrow_float:
        aggs.append(("rows", Agg("size", (), cols[0][0])))
    agg_plan = L.Aggregate((), (), tuple(aggs), False, True, False, plan)
    table = engines.materialize(agg_plan).to_arrow()
    row = {f.label: (table.column(f.name)[0] if table.num_rows else None, f.dtype) for f in agg_plan.schema.columns}
    fams = {f.label: f.family for f in agg_plan.schema.columns}
    has_rows = narrow_float and row["rows"][0] is not None and (row["rows"][0].as_py() or 0) > 0
    out = []
    for i, (e, t) in enumerate(cols):
        value, out_t = row[f"v{i}"]
        result = _scalar(value, fn, t, out_t)
        made_nan = value is not None and not value.is_valid and fn in _NAN_MADE and f"c{i}" in row \
            and row[f"c{i}"][0] is not None \
            and (row[f"c{i}"][0].as_py() or 0) > (int(params.get("ddof", 1)) if fn in ("std", "var") else 0)
        if made_nan:
            result = _nan(out_t)  # numpy's scalar (np.float32(nan) for float32)
        if isinstance(result, float) and np.isnan(result) and has_rows and fn != "mean":
            result = _nan(out_t if out_t is not None else getattr(value, "type", None))  # (the data's type)
        missing = not skipna and f"n{i}" in row and row[f"n{i}"][0] is not None and row[f"n{i}"][0].as_py()
        if min_count and (row[f"c{i}"][0] is None or (row[f"c{i}"][0].as_py() or 0) < min_count):
            missing = True
        if missing:
            temporal = out_t is not None and (pa.types.is_timestamp(out_t) or pa.types.is_duration(out_t))
            # numpy's NaN scalar over rows (a mean's too), and for a float column's min_count over none
            float_in = t is not None and pa.types.is_floating(t)
            result = pd.NaT if temporal else (_nan(out_t) if has_rows or (min_count and float_in) else np.nan)
        fam = fams[f"v{i}"]
        # pyarrow's NaN made by the values is a NaN (a Python float), not NA; masked dtypes give NA
        out.append(float("nan") if made_nan and not missing and fam in ARROW_FAMILIES else family_scalar(result, fam))
    return out


def _series_axis(axis: Any) -> None:
    """A Series reduction's ``axis``: pandas' ValueError for any but the index (0, "index", "rows")."""
    if axis is not None and not (isinstance(axis, (int, str)) and not isinstance(axis, bool) and axis in (0, "index", "rows")):
        raise ValueError(f"No axis named {axis} for object type Series")


_NAN_MADE = ("sum", "prod", "mean", "median", "std", "var")
"""Float reductions whose result may be NaN made by valid values (pandas: NaN, not "no result")."""


def _nan(t: Any) -> Any:
    """A missing reduction result: NaN of the result's float type (pandas: np.float32(nan) for float32)."""
    if t is not None and pa.types.is_floating(t):
        return t.to_pandas_dtype()(np.nan)
    return np.nan


def _scalar(value: pa.Scalar | None, fn: str, in_type: Any, out_type: Any) -> Any:
    """pandas' scalar for a reduction: numpy scalars of the result dtype; NaN/NaT when missing."""
    py = None if value is None else value.as_py()
    if out_type is None and value is not None:
        out_type = value.type  # decided by the data
    if fn == "nunique":
        return int(py or 0)
    if fn in ("count", "size"):
        return np.int64(py or 0)
    if fn in ("any", "all"):
        return np.bool_(bool(py)) if py is not None else np.bool_(fn == "all")
    if out_type is not None and pa.types.is_timestamp(out_type):
        if py is None:
            return pd.NaT
        # the value in the unit the engine holds it in (Polars has no [s]: it keeps [ms]), then pandas' unit
        ts = pd.Timestamp(np.datetime64(_in_unit(value, out_type), out_type.unit))
        return ts.tz_localize("UTC").tz_convert(out_type.tz) if out_type.tz else ts
    if out_type is not None and pa.types.is_duration(out_type):
        return pd.NaT if py is None else pd.Timedelta(np.timedelta64(_in_unit(value, out_type), out_type.unit))
    if py is None:
        if fn in ("sum",):
            return np.int64(0) if out_type is not None and pa.types.is_integer(out_type) else np.float64(0.0)
        if fn == "prod":
            return np.int64(1) if out_type is not None and pa.types.is_integer(out_type) else np.float64(1.0)
        return np.nan
    if out_type is not None and (pa.types.is_large_string(out_type) or pa.types.is_string(out_type)):
        return py
    if out_type is not None and pa.types.is_boolean(out_type):
        return np.bool_(py)
    if out_type is not None and (pa.types.is_integer(out_type) or pa.types.is_floating(out_type)):
        return np.dtype(out_type.to_pandas_dtype()).type(py)
    return py


def _unit_of(value: pa.Scalar, out_type: Any) -> str:
    t = value.type
    return t.unit if pa.types.is_timestamp(t) or pa.types.is_duration(t) else out_type.unit


_PER_SECOND = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}


def _in_unit(value: pa.Scalar, out_type: Any) -> int:
    """A time's count in ``out_type``'s unit from the unit the engine holds it in (Polars has no
    [s]: it keeps [ms]): a finer one truncated toward zero, as pandas' float mean / median of
    datetimes is cast to int64 (between two seconds, a fraction of one)."""
    v, have = int(value.value), _PER_SECOND[_unit_of(value, out_type)]
    want = _PER_SECOND[out_type.unit]
    if have <= want:
        return v * (want // have)
    f = have // want
    return v // f if v >= 0 else -((-v) // f)


def _series_repr(s: Series) -> str:
    return _repr_frame(s._frame(), html=False, as_series=True)

def _repeat_counts(repeats: Any) -> int | tuple[int, ...] | None:
    """``Series.repeat``'s counts as ints (one, or one per value), None where numpy would convert
    them by its own rules or refuse them (pandas decides then): only integers numpy casts to its
    index type safely (bools count 0 / 1; uint64 it refuses)."""
    if isinstance(repeats, (bool, int, np.integer, np.bool_)):
        return int(repeats) if np.can_cast(np.asarray(repeats).dtype, np.intp, "safe") else None
    if not _is_listlike(repeats) or isinstance(repeats, (str, bytes, dict, set)):
        return None
    values = np.asarray(repeats.to_numpy() if isinstance(repeats, Series) else repeats)
    if values.ndim != 1 or values.size and not np.can_cast(values.dtype, np.intp, "safe"):
        return None  # (an empty list is float64 to numpy, and no counts)
    return tuple(values.astype(np.intp).tolist())


from gframe.frontend.groupby import SeriesGroupBy  # noqa: E402
from gframe.frontend.indexing import ILocIndexer, LocIndexer, series_setitem  # noqa: E402
