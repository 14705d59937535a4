"""pandas' verdict on a binary operator for the operands' dtypes, from no-row operands.

Whether pandas refuses ``left <op> right`` is, but for a few value-dependent cases, a property of the
operands' dtypes (and of a scalar operand itself): ``datetime64 + int``, ``timedelta * timedelta``,
``period - datetime``, ``<`` across kinds. pandas' dtype rules live in many places (numpy's ufunc
type resolution, each ExtensionArray's ``_arith_method``, ``ops.invalid_comparison``) and its
exceptions carry messages that programs and pandas' own tests match. Rather than copy each rule
and message into gframe's dtype rules, the binary operators ask pandas once per combination: the
operator runs on operands of the same dtypes without rows (a scalar operand as it is), and

- where pandas raises there, gframe raises that exception at the call (no row is computed, nothing
  goes to pandas: it is a rule of the dtypes, as ``check_binop``'s are);
- where pandas answers, gframe's native rules may still refuse a combination they do not know:
  the operators then hand the call to pandas (``answers``), so the result is pandas' result.

Verdicts are cached by the operands' types and dtypes (a scalar by its type and ``repr``, which tells
time zones and units apart). A dtype the data decides (ints where rows went missing, a categorical's
categories) is not known without computing: no verdict then (``None``).
"""
from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np
import pandas as pd

from gframe.frontend.coerce import is_date_offset, is_scalar

_OPERATORS: dict[str, Any] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "divmod": divmod,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
    "ge": operator.ge, "and": operator.and_, "or": operator.or_, "xor": operator.xor,
}
_CACHE: dict[Any, BaseException | None] = {}
_CACHE_SIZE = 4096
_UNKNOWN = object()


def known_dtype(obj: Any) -> Any:
    """The pandas dtype of a gframe Series read from its plan's schema, or None where the data
    decides it (no verdict without computing)."""
    return _field_dtype(obj._dtype_arrow, obj._family, obj._plan.schema.exact)


def _field_dtype(t: Any, family: str, exact: bool) -> Any:
    """pandas' dtype of a column of Arrow type ``t`` in ``family``; None where the values decide
    (ints or bools where rows may have gone missing, a categorical's categories, Python objects)."""
    import pyarrow as pa

    from gframe.plan.schema import pandas_dtype

    if t is None or pa.types.is_dictionary(t) or (pa.types.is_integer(t) or pa.types.is_boolean(t)) and not exact:
        return None
    try:
        dtype = pandas_dtype(t, family=family)
    except (TypeError, ValueError, NotImplementedError):
        return None
    if isinstance(dtype, pd.CategoricalDtype) or isinstance(dtype, np.dtype) and dtype == object:
        return None  # Python objects: pandas applies the operator to each value
    return dtype


def _frame_dtypes(frame: Any) -> tuple[Any, ...] | None:
    schema = frame._schema
    out = []
    for f in schema.columns:
        dtype = _field_dtype(f.dtype, f.family, schema.exact)
        if dtype is None:
            return None
        out.append(dtype)
    return tuple(out) if out else None


def _empty_operand(obj: Any) -> tuple[Any, Any]:
    """(cache key, a no-row stand-in of ``obj`` for pandas), or ``_UNKNOWN`` as the key where pandas'
    verdict on ``obj`` cannot be had without its values."""
    from gframe.frontend.frame import DataFrame
    from gframe.frontend.index import Index
    from gframe.frontend.series import Series

    if isinstance(obj, Series):
        dtype = known_dtype(obj)
        if dtype is None:
            return _UNKNOWN, None
        return ("Series", dtype), pd.Series([], dtype=dtype)
    if isinstance(obj, DataFrame):
        from gframe.frontend.hostframe import HostFrame

        # a host frame (pandas' frame held as it is: no schema) meets the native path's refusal
        # further on (``HostOnly``), which sends the whole call to pandas
        dtypes = None if isinstance(obj, HostFrame) else _frame_dtypes(obj)
        if dtypes is None:
            return _UNKNOWN, None
        return ("DataFrame", dtypes), pd.DataFrame({i: pd.Series([], dtype=d) for i, d in enumerate(dtypes)})
    if isinstance(obj, Index):
        obj = obj.to_pandas()
    if isinstance(obj, np.ndarray) and obj.ndim == 0:
        obj = obj[()]  # pandas' item_from_zerodim
    if isinstance(obj, (pd.Series, pd.Index, pd.api.extensions.ExtensionArray)) \
            or isinstance(obj, np.ndarray) and obj.ndim == 1:
        return (type(obj), obj.dtype), obj[:0]  # (a categorical's dtype holds its categories)
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return _UNKNOWN, None  # pandas infers a list's values (object, strings, dates): the data decides
    if is_scalar(obj) or is_date_offset(obj) or pd.api.types.is_scalar(obj):
        try:
            return (type(obj), repr(obj)), obj
        except Exception:  # noqa: BLE001 - a scalar whose repr fails: no verdict
            return _UNKNOWN, None
    return _UNKNOWN, None


def _judge(op: str, left: Any, right: Any, reflected: bool) -> tuple[BaseException | None, Any] | None:
    """(pandas' exception or None, its result's dtype(s) or None) for the operator on no-row
    operands of these dtypes; None where no verdict could be had (cached)."""
    fn = _OPERATORS.get(op)
    if fn is None:
        return None
    lkey, lempty = _empty_operand(left)
    if lkey is _UNKNOWN:
        return None
    rkey, rempty = _empty_operand(right)
    if rkey is _UNKNOWN:
        return None
    key = (op, reflected, lkey, rkey)
    try:
        return _CACHE[key]
    except KeyError:
        out = _run(fn, lempty, rempty, reflected)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[key] = out
        return out
    except TypeError:  # an unhashable key (a dtype holding a list): no cache
        return _run(fn, lempty, rempty, reflected)


def verdict(op: str, left: Any, right: Any, reflected: bool = False) -> bool:
    """Raise pandas' exception where pandas refuses ``left <op> right`` (``right <op> left`` when
    ``reflected``) for these operands' dtypes; True where pandas answers, False where no verdict
    could be had (a dtype the data decides, an operand of another kind)."""
    judged = _judge(op, left, right, reflected)
    if judged is None:
        return False
    err, _ = judged
    if err is not None:
        raise _copy(err)
    return True


def agrees(op: str, left: Any, right: Any, reflected: bool, result: Any) -> bool:
    """Whether the native ``result`` (a gframe Series or DataFrame) has the dtype(s) pandas' result
    has for these operands' dtypes. A dtype rule gframe lacks shows as a different dtype
    (``timedelta / int`` columns are float64 where pandas keeps timedelta64): the operator then
    gives pandas' result instead. True where either side's dtype is decided by the data."""
    judged = _judge(op, left, right, reflected)
    if judged is None or judged[0] is not None or judged[1] is None:
        return True
    expected = judged[1]
    from gframe.frontend.frame import DataFrame

    if isinstance(result, DataFrame):
        got = _frame_dtypes(result)
        if got is None or not isinstance(expected, tuple) or len(got) != len(expected):
            return True
        return all(_same(a, b) for a, b in zip(got, expected))
    if isinstance(expected, tuple):
        return True
    got = known_dtype(result)
    if got is None:
        # the data decides the native result's dtype (ints or floats where rows went missing,
        # Python objects): it can be pandas' where pandas' is numeric or objects, not a time,
        # period, interval or string dtype (``timedelta / int`` over aligned rows is float64)
        return pd.api.types.is_numeric_dtype(expected) or pd.api.types.is_object_dtype(expected) \
            or isinstance(expected, pd.CategoricalDtype)
    return _same(got, expected)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - dtypes that cannot compare: nothing to say
        return True


def _run(fn: Any, left: Any, right: Any, reflected: bool) -> tuple[BaseException | None, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            try:
                out = fn(right, left) if reflected else fn(left, right)
            except Exception as err:  # noqa: BLE001 - pandas' refusal, whatever its type, is the answer
                return err, None
    if isinstance(out, pd.Series):
        return None, out.dtype
    if isinstance(out, pd.DataFrame):
        return None, tuple(out.dtypes)
    return None, None


def _copy(err: BaseException) -> BaseException:
    """A fresh exception of pandas' type and arguments (a cached one is raised many times)."""
    try:
        new = type(err)(*err.args)
    except Exception:  # noqa: BLE001 - a type that cannot be rebuilt from its args: raise it as it is
        return err.with_traceback(None)
    return new
