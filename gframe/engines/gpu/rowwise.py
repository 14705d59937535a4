"""GPU declarations of the row-wise functions of numbers, missing values and types: each one's
lowering and, beside it, the check that says when that lowering applies (``functions.py``)."""
from __future__ import annotations

import datetime as _dt

from typing import Any

import numpy as np
import pyarrow as pa

from gframe.engines.gpu.convert import from_host_frame, scalar
from gframe.engines.gpu.functions import declare
from gframe.engines.gpu.table import GpuTable
from gframe.engines.values import ColumnValues
from gframe.engines.gpu.kinds import NUMERIC, kind, storable
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.plan.expr import Func, Lit
from gframe.plan.node import Opaque
from gframe.plan.schema import STRING

Types = "list[pa.DataType | None]"
BOOL, F64 = pa.bool_(), pa.float64()

# numpy ufuncs (Func "ufunc", param name) -> UnaryOperator; the input is cast to the float result type
UFUNCS = {"sqrt": "SQRT", "exp": "EXP", "log": "LOG", "sin": "SIN", "cos": "COS", "tan": "TAN",
          "arcsin": "ARCSIN", "arccos": "ARCCOS", "arctan": "ARCTAN", "sinh": "SINH", "cosh": "COSH",
          "tanh": "TANH", "floor": "FLOOR", "ceil": "CEIL", "rint": "RINT"}


def _x(ev: Any, e: Func) -> tuple[Any, pa.DataType | None]:
    """The first input, evaluated, and its type."""
    return ev.eval(e.children[0]), ev.type_of(e.children[0])


# ------------------------------------------------------------------------------------ arithmetic

def _numeric(e: Func, args: Types, t: Any) -> str | None:
    return None if kind(args[0]) in ("int", "uint", "float", "num?") else f"{e.fn} of {args[0]}"


def _signed(e: Func, args: Types, t: Any) -> str | None:
    return None if kind(args[0]) == "dec" else _numeric(e, args, t)


def _decimal_neg(ev: Any, x: Any, xt: pa.DataType) -> Any:
    """``-x`` of a decimal as ``0 - x``: libcudf's fixed-point SUB of one scale (exact), which the
    decimal arithmetic uses already (no fixed-point unary operator needed)."""
    dev = pa.decimal128(38, xt.scale)
    return ev.binary("SUB", E.Const(0, dev), E.as_column(x, ev.n), dev)


@declare("neg", reason=_signed)
def _neg(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    if isinstance(x, E.Const):
        return E.Const(-x.value if x.value is not None else None, x.type)
    if kind(xt) == "dec":
        return _decimal_neg(ev, x, xt)
    return plc.unary.unary_operation(x, plc.unary.UnaryOperator.NEGATE)


@declare("abs", reason=_signed)
def _abs(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    if kind(xt) == "bool":
        return x  # numpy's absolute of a bool is the bool
    if kind(xt) == "dec":  # the negation where the value is below 0 (a missing value stays missing)
        col = E.as_column(x, ev.n)
        below = E.fill_null(ev.binary("LESS", col, E.Const(0, pa.decimal128(38, xt.scale)), pa.bool_()), False)
        return plc.copying.copy_if_else(_decimal_neg(ev, col, xt), col, below)
    return plc.unary.unary_operation(E.as_column(x, ev.n), plc.unary.UnaryOperator.ABS)


def _invert_reason(e: Func, args: Types, t: Any) -> str | None:
    return None if kind(args[0]) in ("bool", "int", "uint") else f"invert of {args[0]}"


@declare("invert", reason=_invert_reason)
def _invert(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    op = "NOT" if kind(xt) == "bool" else "BIT_INVERT"
    return plc.unary.unary_operation(E.as_column(x, ev.n), getattr(plc.unary.UnaryOperator, op))


def _round_reason(e: Func, args: Types, t: Any) -> str | None:
    x, d = kind(args[0]), e.param("decimals", 0)
    if x == "float" or x == "int" and isinstance(d, int) and d >= 0:
        return None
    return f"round of {args[0]} to {d} decimals"


@declare("round", reason=_round_reason)
def _round(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    if kind(xt) != "float":
        return x
    # numpy's algorithm, not libcudf's decimal rounding: scale by 10**d in the column's type, round
    # half to even, scale back (a binary float near a tie rounds as numpy rounds it: seen on the H100,
    # where plc.round gave 62.04 for numpy's 62.05)
    col = E.as_column(x, ev.n)
    d = int(e.param("decimals", 0))
    t = E.col_type(col)
    if d == 0:
        return plc.unary.unary_operation(col, plc.unary.UnaryOperator.RINT)
    op = plc.binaryop.BinaryOperator
    factor = E.scalar(10.0 ** abs(d), t)
    scale, unscale = (op.MUL, op.TRUE_DIV) if d > 0 else (op.TRUE_DIV, op.MUL)
    y = plc.binaryop.binary_operation(col, factor, scale, E.plc_type(t))
    r = plc.unary.unary_operation(y, plc.unary.UnaryOperator.RINT)
    return plc.binaryop.binary_operation(r, factor, unscale, E.plc_type(t))


def _clip_reason(e: Func, args: Types, t: Any) -> str | None:
    bounds = [e.param("lower"), e.param("upper")]
    if kind(args[0]) not in ("int", "float") or t is None or not all(
            b is None or isinstance(b, (int, float)) and not isinstance(b, bool) and b == b for b in bounds):
        return "clip with these bounds"
    return None


@declare("clip", reason=_clip_reason)
def _clip(ev: Any, e: Func) -> Any:
    t = ev.type_of(e)
    x = E.as_column(E.cast(ev.eval(e.children[0]), t), ev.n)
    return plc.replace.clamp(x, E.scalar(e.param("lower"), t), E.scalar(e.param("upper"), t))


def _ufunc_reason(e: Func, args: Types, t: Any) -> str | None:
    if e.param("name") not in UFUNCS or kind(args[0]) not in ("int", "uint", "float") or t is None \
            or not pa.types.is_floating(t) or pa.types.is_float16(t):
        return f"ufunc {e.param('name')!r} of {args[0]}"
    return None


@declare("ufunc", reason=_ufunc_reason)
def _ufunc(ev: Any, e: Func) -> Any:
    x, _ = _x(ev, e)
    col = E.as_column(E.cast(x, ev.type_of(e)), ev.n)
    return plc.unary.unary_operation(col, getattr(plc.unary.UnaryOperator, UFUNCS[e.param("name")]))


# -------------------------------------------------------------------------------- missing values

def _isna_column(ev: Any, x: Any) -> Any:
    if isinstance(x, E.Const):
        return E.as_column(E.Const(x.value is None, BOOL), ev.n)
    res = plc.unary.is_null(x)
    if pa.types.is_floating(E.col_type(x)):
        nan = E.fill_null(plc.unary.is_nan(x), False)
        res = ev.binary("LOGICAL_OR", res, nan, BOOL)
    return res


@declare("isna")
def _isna(ev: Any, e: Func) -> Any:
    return _isna_column(ev, ev.eval(e.children[0]))


@declare("notna")
def _notna(ev: Any, e: Func) -> Any:
    return plc.unary.unary_operation(_isna_column(ev, ev.eval(e.children[0])), plc.unary.UnaryOperator.NOT)


def _same_kind_reason(e: Func, args: Types, t: Any) -> str | None:
    """fillna / coalesce / where: every value input of the result's kind (or numbers of numbers)."""
    fn = e.fn
    if t is None:
        return f"{fn} whose type is decided by the data"
    ks = [kind(a) for a in args]
    if fn == "where" and ks[1] != "bool":
        return "where with a condition that is not bool"
    values = ks if fn != "where" else [ks[0], ks[2]]
    want = kind(t)
    for k, c in zip(values, e.children if fn != "where" else (e.children[0], e.children[2])):
        if isinstance(c, Lit) and c.value is None:
            continue
        if not (k == want or k in NUMERIC and want in NUMERIC and want != "bool" and k != "num?"):
            return f"{fn} mixing {k} and {want}"
    return None


@declare("fillna", reason=_same_kind_reason)
def _fillna(ev: Any, e: Func) -> Any:
    t = ev.type_of(e)
    x = E.cast(ev.eval(e.children[0]), t)
    value = E.cast(ev.eval(e.children[1]), t)
    return plc.replace.replace_nulls(E.as_column(x, ev.n), E.operand(value))


@declare("coalesce", reason=_same_kind_reason)
def _coalesce(ev: Any, e: Func) -> Any:
    t = ev.type_of(e)
    out = E.as_column(E.cast(ev.eval(e.children[0]), t), ev.n)
    for c in e.children[1:]:
        if out.null_count() == 0:
            break
        out = plc.replace.replace_nulls(out, E.operand(E.cast(ev.eval(c), t)))
    return out


@declare("where", reason=_same_kind_reason)
def _where(ev: Any, e: Func) -> Any:
    t = ev.type_of(e)
    x = E.cast(ev.eval(e.children[0]), t)
    cond = ev.mask(e.children[1])
    other = E.cast(ev.eval(e.children[2]), t)
    if isinstance(x, E.Const) and isinstance(other, E.Const):
        x = E.as_column(x, ev.n)
    return plc.copying.copy_if_else(E.operand(x), E.operand(other), cond)


# ------------------------------------------------------------------------------- isin and casts

def _fits(v: int, t: pa.DataType) -> bool:
    info = np.iinfo(t.to_pandas_dtype())
    return info.min <= v <= info.max


def _isin_reason(e: Func, args: Types, t: Any) -> str | None:
    x = kind(args[0])
    if isinstance(e.param("values"), Opaque):  # an Arrow array of the column's own type (the frontend made it so)
        return None
    values = [v for v in (e.param("values") or ()) if not (v is None or isinstance(v, float) and v != v)]
    if x == "str" and all(isinstance(v, str) for v in values):
        return None
    if x in ("int", "uint") and all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                    for v in values):
        if all(_fits(int(v), args[0]) for v in values):  # type: ignore[arg-type]
            return None
    if x == "float" and all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
                            for v in values):
        return None
    if x == "bool" and all(isinstance(v, (bool, np.bool_)) for v in values):
        return None
    if x == "date" and all(isinstance(v, _dt.date) and not isinstance(v, _dt.datetime) for v in values):
        return None
    return "isin with values of another type"


@declare("isin", reason=_isin_reason)
def _isin(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    if isinstance(e.param("values"), Opaque) and isinstance(e.param("values").value, ColumnValues):
        cv = e.param("values").value  # another Series' values, in device memory where the GPU engine made them
        col = E.as_column(x, ev.n)
        native = cv.result.native
        hay = (native if isinstance(native, GpuTable) else from_host_frame(native)).columns[0]
        nulls = hay.null_count()
        if nulls:
            hay = plc.stream_compaction.drop_nulls(plc.Table([hay]), [0], 1).columns()[0]
        res = E.fill_null(plc.search.contains(hay, col), False)
        return ev.binary("LOGICAL_OR", res, plc.unary.is_null(col), BOOL) if cv.nulls_match and nulls else res
    if isinstance(e.param("values"), Opaque):
        arr = e.param("values").value
        col = E.as_column(x, ev.n)
        hay = plc.Column.from_arrow(arr.drop_null().cast(xt if xt != STRING else pa.string()))
        res = E.fill_null(plc.search.contains(hay, col), False)
        return ev.binary("LOGICAL_OR", res, plc.unary.is_null(col), BOOL) if arr.null_count else res
    values = e.param("values") or ()
    has_null = any(v is None or isinstance(v, float) and v != v for v in values)
    values = [v.item() if isinstance(v, np.generic) else v for v in values
              if not (v is None or isinstance(v, float) and v != v)]
    col = E.as_column(x, ev.n)
    if kind(xt) == "float":
        # -0.0 equals 0.0 (pandas compares values): both sides plus 0.0 (IEEE: -0.0 + 0.0 is 0.0), so no
        # search that hashes or orders the bits (pyarrow's is_in, the stand-in's) tells them apart
        col = ev.binary("ADD", col, E.Const(0.0, xt), xt)
        values = [float(v) + 0.0 for v in values]
    return E.member_of(ev, col, values, xt if xt != STRING else pa.string(), has_null)


def _cast_reason(e: Func, args: Types, t: Any) -> str | None:
    src, dst = args[0], e.param("dtype")
    if e.param("strict", True) is False:
        return "non-strict cast"
    if not isinstance(dst, pa.DataType) or not storable(dst) or src is None:
        return f"cast to {dst}"
    sk, dk = kind(src), kind(dst)
    if sk in NUMERIC and dk in NUMERIC:
        return None
    if dk == "str" and sk in ("int", "uint"):
        return None
    if sk == "dec" and dst == pa.float64():
        return None
    if sk == dk and sk in ("ts", "dur", "str"):
        if sk == "ts" and src.tz != dst.tz:  # type: ignore[union-attr]
            return f"cast from {src} to {dst} (between time zones)"
        return None
    if (sk, dst) == ("ts", pa.int64()) or (src == pa.int64() and dk == "ts"):
        return None  # a timestamp's int64 ticks and back (its bits: ``_cast``)
    return f"cast from {src} to {dst}"


@declare("cast", reason=_cast_reason)
def _cast(ev: Any, e: Func) -> Any:
    x, xt = _x(ev, e)
    t = e.param("dtype")
    if (kind(xt), t) == ("ts", pa.int64()) or (xt == pa.int64() and kind(t) == "ts"):
        # the ticks since the epoch in the timestamp's unit, as Polars' cast (resample's bins compute on them)
        col = E.as_column(x, ev.n)
        if kind(xt) == "ts":  # (a column through Polars holds seconds as milliseconds: the plan's unit first)
            col = plc.unary.cast(col, E.plc_type(xt))
        return plc.unary.bit_cast(col, E.plc_type(t))
    if kind(xt) == "float" and t in (pa.int64(), pa.int32()) and not isinstance(x, E.Const):
        # numpy's cast on x86 (cvttsd2si): a finite value past the type's range is its minimum (pandas'
        # astype(int64) of 9.3e18 is -2**63); libcudf's cast saturates (2**63 - 1 on the H100, seed 864910)
        lo = -2 ** (t.bit_width - 1)
        f = E.cast(x, F64)
        above = ev.binary("GREATER_EQUAL", f, E.Const(-float(lo), F64), BOOL)
        below = ev.binary("LESS", f, E.Const(float(lo), F64), BOOL) if t.bit_width == 64 else \
            ev.binary("LESS_EQUAL", f, E.Const(float(lo - 1), F64), BOOL)
        past = E.fill_null(ev.binary("LOGICAL_OR", above, below, BOOL), False)
        return plc.copying.copy_if_else(scalar(lo, t), E.cast(x, t), past)
    return E.cast(x, t)


# ------------------------------------------------------------------------------ compiled functions

def _udf_reason(e: Func, args: Types, t: Any) -> str | None:
    """A Numba-compiled function: a numba-cuda kernel, where numba-cuda can build it (the ``Udf``
    carries its own device runner: the engines import nothing of ``gframe.udf``)."""
    return e.param("udf").device_reason()


@declare("udf", reason=_udf_reason)
def _udf(ev: Any, e: Func) -> Any:
    """One numba-cuda kernel over the inputs (gframe/udf)."""
    return e.param("udf").run_device([E.as_column(ev.eval(c), ev.n) for c in e.children])
