"""Evaluation of gframe expressions on the device, with pandas' semantics (the CPU engine's).

``Evaluator(table, lookup).eval(expr)`` returns a ``pylibcudf.Column`` or a ``Const`` (a literal
not yet on the device, broadcast or turned into a ``plc.Scalar`` where an operation needs it).
Every computed expression is cast to the type ``plan.dtypes`` infers and a NaN produced by float
arithmetic becomes null, exactly as ``engines/cpu/expressions.Lowering.lower`` does. Operators are
looked up in ``ops.py``'s tables, functions in their declarations (``functions.py``: ``rowwise.py``,
``strings.py``, ``datetimes.py``, ``window.py``); ``support.py`` has already checked that each applies.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pyarrow as pa

from gframe.engines.gpu import categorical, ops
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.convert import col_type, device_type, plc_type, scalar
from gframe.engines.gpu.functions import FUNCTIONS
from gframe.engines.gpu.kinds import kind
from gframe.engines.gpu.table import GpuTable
from gframe.errors import UnsupportedError
from gframe.plan.expr import ARITHMETIC, COMPARISON, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import STRING
from gframe.plan.dtypes import decimal_operand, expr_type, family_lookup, keeps_missing, literal_type

BOOL, I16, I32, I64, U64, F64 = pa.bool_(), pa.int16(), pa.int32(), pa.int64(), pa.uint64(), pa.float64()
_UNITS = ["s", "ms", "us", "ns"]


class Const:
    """A literal: a Python value and its Arrow type (None: a missing value of that type)."""

    __slots__ = ("value", "type")

    def __init__(self, value: Any, t: pa.DataType | None) -> None:
        self.value = value
        self.type = t

    def __repr__(self) -> str:
        return f"Const({self.value!r}, {self.type})"


Value = Any  # plc.Column | Const


def _binop_enum(name: str) -> Any:
    return getattr(plc.binaryop.BinaryOperator, name)


def vtype(v: Value) -> pa.DataType | None:
    return v.type if isinstance(v, Const) else col_type(v)


def cast(v: Value, t: pa.DataType) -> Value:
    """``v`` as type ``t`` (numbers, bools, timestamps; ints to their decimal text)."""
    if isinstance(v, Const):
        value = v.value
        if value is not None and t == STRING and not isinstance(value, str):
            value = str(value)
        if isinstance(value, float) and value != value:
            value = None
        return Const(value, t)
    src = col_type(v)
    if src == device_type(t):  # (a timestamp's time zone is not the device column's)
        return v
    if t == STRING:
        if src == STRING:
            return v
        if pa.types.is_integer(src):
            return plc.strings.convert.convert_integers.from_integers(v)
        raise UnsupportedError(f"cast of {src} to strings on the GPU")
    return plc.unary.cast(v, plc_type(t))


def nan_to_null(v: Value) -> Value:
    if isinstance(v, Const):
        return Const(None, v.type) if isinstance(v.value, float) and v.value != v.value else v
    if pa.types.is_floating(col_type(v)):
        return plc.transform.column_nans_to_nulls(v)
    return v


def as_column(v: Value, n: int) -> Any:
    if isinstance(v, Const):
        t = v.type if v.type is not None else F64
        return plc.Column.from_scalar(scalar(v.value, t), n)
    return v


def operand(v: Value) -> Any:
    if isinstance(v, Const):
        return scalar(v.value, v.type if v.type is not None else F64)
    return v


def fill_null(v: Value, value: Any) -> Value:
    """Missing values replaced by ``value`` (of the column's type)."""
    if isinstance(v, Const):
        return Const(value, v.type) if v.value is None else v
    if v.null_count() == 0:
        return v
    return plc.replace.replace_nulls(v, scalar(value, col_type(v)))


def member_of(ev: Any, col: Any, values: list[Any], t: pa.DataType, nulls_match: bool) -> Any:
    """Whether each row of ``col`` is one of ``values`` (host scalars of Arrow type ``t``, none
    missing); a missing row counts as one when ``nulls_match``. ``isin`` of plain columns
    (``rowwise.py``) and of a categorical's codes (``categorical.py``) alike."""
    if values:
        hay = plc.Column.from_arrow(pa.array(values, type=t))
        res = fill_null(plc.search.contains(hay, col), False)
    else:
        res = as_column(Const(False, BOOL), ev.n)
    if nulls_match:
        res = ev.binary("LOGICAL_OR", res, plc.unary.is_null(col), BOOL)
    return res


def _finer(a: pa.DataType, b: pa.DataType) -> pa.DataType:
    if a == b:
        return a
    unit = max(a.unit, b.unit, key=_UNITS.index)
    return pa.timestamp(unit) if pa.types.is_timestamp(a) else pa.duration(unit)


def comparison_type(lt: pa.DataType, rt: pa.DataType, left: Expr | None = None, right: Expr | None = None) -> pa.DataType:
    """The type both sides of a comparison are cast to (Polars' / numpy's supertype). A Python
    number compared with a float32 operand is weak (NEP 50): numpy compares in float32, so
    ``float32(0.1) > 0.1`` is False there, where float64 would see 0.10000000149 > 0.1."""
    if lt == rt:
        return lt
    lk, rk = kind(lt), kind(rt)
    if lk in ("ts", "dur"):
        return _finer(lt, rt)
    if "dec" in (lk, rk):  # a decimal with an integer literal: the literal as a decimal of the column's scale
        return lt if lk == "dec" else rt
    if (lt == pa.float32() and _weak_number(right)) or (rt == pa.float32() and _weak_number(left)):
        return pa.float32()
    if "float" in (lk, rk):
        return F64
    if lk == rk == "uint":
        return U64
    return I64


def _weak_number(e: Expr | None) -> bool:
    """A Python int or float literal (not bool): numpy's weak scalar, which takes the array's type."""
    return isinstance(e, Lit) and e.dtype is None and type(e.value) in (int, float)


class Evaluator:
    """Evaluates expressions over one device table (``lookup`` gives the plan's column types)."""

    def __init__(self, table: GpuTable, lookup: Callable[[str], pa.DataType | None]) -> None:
        self.table = table
        self.n = table.num_rows
        self.family = family_lookup(lookup)  # pandas dtype families: NA semantics of comparisons

        def look(name: str) -> pa.DataType | None:
            t = lookup(name)
            if t is None and table.has(name):  # decided by the data: the column's own type
                return col_type(table.column(name))
            return t

        self.look = look

    def type_of(self, e: Expr) -> pa.DataType | None:
        return expr_type(e, self.look)

    # ----------------------------------------------------------------------------- entry points
    def eval(self, e: Expr) -> Value:
        v = self._eval(e)
        if not isinstance(e, (Col, Lit)):
            t = self.type_of(e)
            if t is not None:
                v = nan_to_null(cast(v, t)) if pa.types.is_floating(t) else cast(v, t)
        return v

    def column(self, e: Expr, t: pa.DataType | None = None) -> Any:
        """``e`` as a device column of the table's length (literals broadcast), optionally cast."""
        v = self.eval(e)
        if t is not None:
            v = cast(v, t)
        return as_column(v, self.n)

    def mask(self, e: Expr) -> Any:
        """A predicate as a bool column where missing is False."""
        return as_column(fill_null(cast(self.eval(e), BOOL), False), self.n)

    # ------------------------------------------------------------------------------ dispatch
    def _eval(self, e: Expr) -> Value:
        if isinstance(e, Col):
            return self.table.column(e.name)
        if isinstance(e, Lit):
            t = e.dtype if e.dtype is not None else literal_type(e.value)
            value = e.value
            if isinstance(value, np.generic):
                value = value.item()
            return Const(value, t)
        if categorical.reads_categorical(e, self.look):
            return categorical.lower(self, e)
        if isinstance(e, BinOp):
            return self._binop(e)
        if isinstance(e, Func):
            return self._func(e)
        if isinstance(e, Agg):
            raise UnsupportedError("an aggregation inside an element-wise expression")
        raise UnsupportedError(f"gpu engine cannot evaluate {type(e).__name__}")

    def categories(self, e: Expr) -> pa.Array:
        """The categories of a categorical column ``e`` (its device column holds the codes)."""
        if not isinstance(e, Col):
            raise UnsupportedError("a categorical that is not a column")
        return self.table.categories[e.name]

    def binary(self, op: str, a: Value, b: Value, out: pa.DataType) -> Any:
        if isinstance(a, Const) and isinstance(b, Const):
            a = as_column(a, self.n)
        return plc.binaryop.binary_operation(operand(a), operand(b), _binop_enum(op), plc_type(out))

    # ------------------------------------------------------------------------------ operators
    def _binop(self, e: BinOp) -> Value:
        op = e.op
        lt, rt, t = self.type_of(e.left), self.type_of(e.right), self.type_of(e)
        a, b = self.eval(e.left), self.eval(e.right)
        lk, rk = kind(lt), kind(rt)
        if op in ARITHMETIC:
            if "dec" in (lk, rk):
                return self._decimal(op, e, a, b, lt, rt, t)
            if op == "truediv":  # in the result's float type, as numpy (float32 / 0.1 divides in float32)
                ft = t if t is not None and pa.types.is_float32(t) else F64
                return self.binary("TRUE_DIV", cast(a, ft), cast(b, ft), ft)
            if lk == rk == "bool" and op in ("add", "mul"):
                return self.binary("LOGICAL_OR" if op == "add" else "LOGICAL_AND", a, b, BOOL)
            if lk == rk == "str":
                return self._concat(a, b)
            if "date" in (lk, rk):  # each date as the timestamp of the result's unit (plan.dtypes.date_result)
                ts = pa.timestamp(t.unit)
                a, b = (cast(a, ts) if lk == "date" else a), (cast(b, ts) if rk == "date" else b)
                return self.binary(ops.ARITHMETIC[op], a, b, t)
            if lk in ("ts", "dur") or rk in ("ts", "dur"):
                return self.binary(ops.ARITHMETIC[op], a, b, t)
            if t is None:
                raise UnsupportedError(f"{op} of {lt} and {rt}")
            if op == "pow" and (pa.types.is_floating(t) or pa.types.is_integer(t)):
                return self._float_pow(cast(a, t), cast(b, t), t)
            return self.binary(ops.ARITHMETIC[op], cast(a, t), cast(b, t), t)
        na = keeps_missing(e, self.family, self.look)  # nullable / Arrow dtypes: NA stays NA
        if op in COMPARISON:
            ct = comparison_type(lt, rt, e.left, e.right)
            res = self.binary(ops.COMPARISON[op], cast(a, ct), cast(b, ct), BOOL)
            return res if na else fill_null(res, op == "ne")
        if na and op in ("and", "or") and (lk == "bool" or rk == "bool"):  # Kleene logic
            return self.binary("NULL_LOGICAL_AND" if op == "and" else "NULL_LOGICAL_OR", cast(a, BOOL), cast(b, BOOL), BOOL)
        if lk == "bool" or rk == "bool":
            a, b = fill_null(cast(a, BOOL), False), fill_null(cast(b, BOOL), False)
            return self.binary(ops.LOGICAL_BOOL[op], a, b, BOOL)
        return self.binary(ops.LOGICAL_INT[op], cast(a, t), cast(b, t), t)

    def _decimal(self, op: str, e: BinOp, a: Value, b: Value, lt: pa.DataType, rt: pa.DataType, t: pa.DataType) -> Any:
        """Decimal arithmetic by pandas' (Arrow's) rules (``plan.dtypes.decimal_result``) on libcudf's
        fixed-point binops, whose scales are libcudf's own: ADD/SUB at the finer input scale and MUL
        at the sum of the scales, both Arrow's too; DIV at lhs' scale minus rhs', so the dividend is
        first rescaled (exactly, upward) to the result's scale plus the divisor's, and the quotient of
        the stored integers is truncated as Arrow's. Integers go in as decimals of scale 0; with a
        float, both sides are float64 (Arrow's cast). The precision is the plan's (DECIMAL128)."""
        if pa.types.is_floating(t) and op == "pow":
            return self._pow(cast(a, F64), cast(b, F64), F64)
        if pa.types.is_floating(t):
            return self.binary(ops.ARITHMETIC[op] if op != "truediv" else "TRUE_DIV", cast(a, F64), cast(b, F64), F64)
        ld, rd = decimal_operand(lt, e.left), decimal_operand(rt, e.right)
        a, b = cast(a, pa.decimal128(38, ld.scale)), cast(b, pa.decimal128(38, rd.scale))
        if op == "truediv":
            a = cast(a, pa.decimal128(38, t.scale + rd.scale))
            if self._divides_by_zero(a, b, pa.decimal128(38, rd.scale)):
                raise pa.ArrowInvalid("Divide by zero")  # pandas' (Arrow's) error; libcudf's is undefined
            return self.binary("DIV", a, b, pa.decimal128(38, t.scale))
        return self.binary(ops.ARITHMETIC[op], a, b, pa.decimal128(38, t.scale))

    def _divides_by_zero(self, a: Value, b: Value, bt: pa.DataType) -> bool:
        """Whether Arrow's decimal division raises: a zero divisor in a row where the dividend is
        present too (a missing operand gives a missing quotient, checked by no one: ``[None] / 0``
        is ``[None]``); no rows, no error. One flag read back."""
        if self.n == 0 or isinstance(a, Const) and a.value is None:
            return False
        if isinstance(b, Const):
            return b.value is not None and b.value == 0 and (isinstance(a, Const) or a.null_count() < a.size())
        zero = self.binary("EQUAL", b, Const(0, bt), BOOL)  # (missing where the divisor is)
        if not isinstance(a, Const):
            zero = self.binary("LOGICAL_AND", zero, plc.unary.is_valid(a), BOOL)
        return bool(plc.reduce.reduce(zero, plc.aggregation.any(), plc_type(BOOL)).to_py())

    def _pow(self, a: Value, b: Value, t: pa.DataType) -> Any:
        """libcudf's POW, but ``x ** 2`` of float64 as ``x * x``. CUDA's ``pow`` is not correctly
        rounded (up to 2 ulp, CUDA math API accuracy tables) where glibc's, which pyarrow and
        numpy call, is (and numpy squares ``arr ** 2``): ``99999999.99 ** 2`` was 9999999998000000.0
        on the H100, pandas 9999999997999998.0 (seed 803410). A product is correctly rounded on
        the device too. Other exponents stay CUDA's pow: repeated products round more than once."""
        res = self.binary("POW", a, b, t)
        if t != F64 or (isinstance(b, Const) and b.value != 2):
            return res
        square = self.binary("MUL", a, a, t)
        if isinstance(b, Const):
            return square
        two = fill_null(self.binary("EQUAL", b, Const(2.0, t), BOOL), False)
        return plc.copying.copy_if_else(as_column(square, self.n), as_column(res, self.n), two)

    def _float_pow(self, a: Value, b: Value, t: pa.DataType) -> Any:
        """numpy's float power: ``x ** 0`` and ``1 ** x`` are 1 even for NaN, which is gframe's
        missing value here (libcudf's POW of a missing value is missing); pandas' nullable ints mask
        ``1 ** NA`` and ``NA ** 0`` as 1 the same way."""
        z, o = (0.0, 1.0) if pa.types.is_floating(t) else (0, 1)
        res = self._pow(a, b, t)
        zero = fill_null(self.binary("EQUAL", b, Const(z, t), BOOL), False)
        one = fill_null(self.binary("EQUAL", a, Const(o, t), BOOL), False)
        either = self.binary("LOGICAL_OR", zero, one, BOOL)
        return plc.copying.copy_if_else(operand(Const(o, t)), as_column(res, self.n), either)

    def _concat(self, a: Value, b: Value) -> Any:
        cols = [as_column(a, self.n), as_column(b, self.n)]
        return plc.strings.combine.concatenate(plc.Table(cols), scalar("", STRING), narep=scalar(None, STRING))

    # ------------------------------------------------------------------------------ functions
    def _func(self, e: Func) -> Value:
        """The function's GPU declaration (``functions.py``; placement has checked its reason)."""
        decl = FUNCTIONS.get(e.fn)
        if decl is None:
            raise UnsupportedError(f"gpu engine has no function {e.fn!r}")
        return decl.lower(self, e)
