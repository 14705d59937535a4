"""Evaluation of gframe expressions on the device, with pandas' semantics (the CPU engine's).

``Evaluator(table, lookup).eval(expr)`` returns a ``pylibcudf.Column`` or a ``Const`` (a literal
not yet on the device, broadcast or turned into a ``plc.Scalar`` where an operation needs it).
Every computed expression is cast to the type ``plan.dtypes`` infers and a NaN produced by float
arithmetic becomes null, exactly as ``engines/cpu/expressions.Lowering.lower`` does. Operators are
looked up in ``ops.py``'s tables; ``support.py`` has already checked that each one applies.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pyarrow as pa
import pylibcudf as plc

from gframe.engines.gpu import ops
from gframe.engines.gpu.convert import col_type, plc_type, scalar
from gframe.engines.gpu.support import kind
from gframe.engines.gpu.table import GpuTable
from gframe.errors import UnsupportedError
from gframe.plan.expr import ARITHMETIC, COMPARISON, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import STRING
from gframe.plan.dtypes import expr_type, literal_type

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
    if src == t:
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


def _finer(a: pa.DataType, b: pa.DataType) -> pa.DataType:
    if a == b:
        return a
    unit = max(a.unit, b.unit, key=_UNITS.index)
    return pa.timestamp(unit) if pa.types.is_timestamp(a) else pa.duration(unit)


def comparison_type(lt: pa.DataType, rt: pa.DataType) -> pa.DataType:
    """The type both sides of a comparison are cast to (Polars' / numpy's supertype)."""
    if lt == rt:
        return lt
    lk, rk = kind(lt), kind(rt)
    if lk in ("ts", "dur"):
        return _finer(lt, rt)
    if "float" in (lk, rk):
        return F64
    if lk == rk == "uint":
        return U64
    return I64


class Evaluator:
    """Evaluates expressions over one device table (``lookup`` gives the plan's column types)."""

    def __init__(self, table: GpuTable, lookup: Callable[[str], pa.DataType | None]) -> None:
        self.table = table
        self.n = table.num_rows

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
        if isinstance(e, BinOp):
            return self._binop(e)
        if isinstance(e, Func):
            return self._func(e)
        if isinstance(e, Agg):
            raise UnsupportedError("an aggregation inside an element-wise expression")
        raise UnsupportedError(f"gpu engine cannot evaluate {type(e).__name__}")

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
            if op == "truediv":
                return self.binary("TRUE_DIV", cast(a, F64), cast(b, F64), F64)
            if lk == rk == "bool" and op in ("add", "mul"):
                return self.binary("LOGICAL_OR" if op == "add" else "LOGICAL_AND", a, b, BOOL)
            if lk == rk == "str":
                return self._concat(a, b)
            if lk in ("ts", "dur") or rk in ("ts", "dur"):
                return self.binary(ops.ARITHMETIC[op], a, b, t)
            if t is None:
                raise UnsupportedError(f"{op} of {lt} and {rt}")
            return self.binary(ops.ARITHMETIC[op], cast(a, t), cast(b, t), t)
        if op in COMPARISON:
            ct = comparison_type(lt, rt)
            res = self.binary(ops.COMPARISON[op], cast(a, ct), cast(b, ct), BOOL)
            return fill_null(res, op == "ne")
        if lk == "bool" or rk == "bool":
            a, b = fill_null(cast(a, BOOL), False), fill_null(cast(b, BOOL), False)
            return self.binary(ops.LOGICAL_BOOL[op], a, b, BOOL)
        return self.binary(ops.LOGICAL_INT[op], cast(a, t), cast(b, t), t)

    def _concat(self, a: Value, b: Value) -> Any:
        cols = [as_column(a, self.n), as_column(b, self.n)]
        return plc.strings.combine.concatenate(plc.Table(cols), scalar("", STRING), narep=scalar(None, STRING))

    # ------------------------------------------------------------------------------ functions
    def _func(self, e: Func) -> Value:
        fn, p = e.fn, e.param
        t = self.type_of(e)
        if fn in ("fillna", "coalesce", "where", "clip"):
            return getattr(self, "_" + fn)(e, t)
        if fn == "duplicated":
            return self._duplicated(e)
        if fn == "udf":  # a Numba-compiled function: one numba-cuda kernel over the inputs (gframe/udf)
            from gframe.udf.numba_gpu import run

            return run(e.param("udf"), [as_column(self.eval(c), self.n) for c in e.children])
        x = self.eval(e.children[0])
        xt = self.type_of(e.children[0])
        if fn == "neg":
            return Const(-x.value if x.value is not None else None, x.type) if isinstance(x, Const) else \
                plc.unary.unary_operation(x, plc.unary.UnaryOperator.NEGATE)
        if fn == "abs":
            return plc.unary.unary_operation(as_column(x, self.n), plc.unary.UnaryOperator.ABS)
        if fn == "invert":
            op = "NOT" if kind(xt) == "bool" else "BIT_INVERT"
            return plc.unary.unary_operation(as_column(x, self.n), getattr(plc.unary.UnaryOperator, op))
        if fn in ("isna", "notna"):
            res = self._isna(x)
            return res if fn == "isna" else plc.unary.unary_operation(res, plc.unary.UnaryOperator.NOT)
        if fn == "round":
            if kind(xt) != "float":
                return x
            return plc.round.round(as_column(x, self.n), p("decimals", 0), plc.round.RoundingMethod.HALF_EVEN)
        if fn == "isin":
            return self._isin(x, xt, p("values") or ())
        if fn == "cast":
            return cast(x, p("dtype"))
        if fn == "shift":
            col = as_column(x, self.n)
            return plc.copying.shift(col, int(p("periods", 1)), scalar(None, col_type(col)))
        if fn == "ufunc":
            col = as_column(cast(x, t), self.n)
            return plc.unary.unary_operation(col, getattr(plc.unary.UnaryOperator, ops.UFUNCS[p("name")]))
        if fn.startswith("str."):
            return self._str(e, as_column(x, self.n))
        if fn.startswith("dt."):
            return self._dt(e, as_column(x, self.n), xt)
        raise UnsupportedError(f"gpu engine has no function {fn!r}")

    def _duplicated(self, e: Func) -> Any:
        """Rows equal to an earlier (keep="first") / later ("last") / any other ("none") row, missing
        equal to missing: every row True but those ``distinct_indices`` keeps."""
        cols = [as_column(self.eval(c), self.n) for c in e.children]
        keep = {"first": "KEEP_FIRST", "last": "KEEP_LAST"}.get(e.param("keep", "first"), "KEEP_NONE")
        out = as_column(Const(True, BOOL), self.n)
        if self.n == 0:
            return out
        kept = plc.stream_compaction.distinct_indices(
            plc.Table(cols), getattr(plc.stream_compaction.DuplicateKeepOption, keep), plc.types.NullEquality.EQUAL,
            plc.types.NanEquality.ALL_EQUAL)
        return plc.copying.scatter([scalar(False, BOOL)], kept, plc.Table([out])).columns()[0]

    def _isna(self, x: Value) -> Any:
        if isinstance(x, Const):
            return as_column(Const(x.value is None, BOOL), self.n)
        res = plc.unary.is_null(x)
        if pa.types.is_floating(col_type(x)):
            nan = fill_null(plc.unary.is_nan(x), False)
            res = self.binary("LOGICAL_OR", res, nan, BOOL)
        return res

    def _fillna(self, e: Func, t: pa.DataType) -> Value:
        x = cast(self.eval(e.children[0]), t)
        value = cast(self.eval(e.children[1]), t)
        return plc.replace.replace_nulls(as_column(x, self.n), operand(value))

    def _coalesce(self, e: Func, t: pa.DataType) -> Value:
        out = as_column(cast(self.eval(e.children[0]), t), self.n)
        for c in e.children[1:]:
            if out.null_count() == 0:
                break
            out = plc.replace.replace_nulls(out, operand(cast(self.eval(c), t)))
        return out

    def _where(self, e: Func, t: pa.DataType) -> Value:
        x = cast(self.eval(e.children[0]), t)
        cond = self.mask(e.children[1])
        other = cast(self.eval(e.children[2]), t)
        if isinstance(x, Const) and isinstance(other, Const):
            x = as_column(x, self.n)
        return plc.copying.copy_if_else(operand(x), operand(other), cond)

    def _clip(self, e: Func, t: pa.DataType) -> Value:
        x = as_column(cast(self.eval(e.children[0]), t), self.n)
        lo, hi = e.param("lower"), e.param("upper")
        return plc.replace.clamp(x, scalar(lo, t), scalar(hi, t))

    def _isin(self, x: Value, xt: pa.DataType, values: Any) -> Any:
        has_null = any(v is None or isinstance(v, float) and v != v for v in values)
        values = [v.item() if isinstance(v, np.generic) else v for v in values
                  if not (v is None or isinstance(v, float) and v != v)]
        col = as_column(x, self.n)
        if values:
            hay = plc.Column.from_arrow(pa.array(values, type=xt if xt != STRING else pa.string()))
            res = fill_null(plc.search.contains(hay, col), False)
        else:
            res = as_column(Const(False, BOOL), self.n)
        if has_null:
            res = self.binary("LOGICAL_OR", res, plc.unary.is_null(col), BOOL)
        return res

    # -------------------------------------------------------------------------------- strings
    def _str(self, e: Func, x: Any) -> Value:
        fn, p = e.fn, e.param
        S = plc.strings
        if fn == "str.len":
            return plc.unary.cast(S.attributes.count_characters(x), plc_type(I64))
        if fn in ops.STR_TRANSFORMS:
            module, name = ops.STR_TRANSFORMS[fn]
            return getattr(getattr(S, module), name)(x)
        if fn in ops.STR_STRIP_SIDES:
            ts = p("to_strip")
            side = getattr(S.side_type.SideType, ops.STR_STRIP_SIDES[fn])
            return S.strip.strip(x, side, scalar(ts, STRING) if ts is not None else None)
        if fn == "str.slice":
            start, stop = p("start"), p("stop")
            return S.slice.slice_strings(x, scalar(start, I32), scalar(stop, I32))
        if fn == "str.replace":
            n = p("n", -1)
            if n == 0:
                return x
            return S.replace.replace(x, scalar(p("pat"), STRING), scalar(p("repl"), STRING), n if n > 0 else -1)
        if fn == "str.contains":
            pat, case, regex = p("pat"), p("case", True), p("regex", True)
            if regex:
                flags = S.regex_flags.RegexFlags.DEFAULT if case else S.regex_flags.RegexFlags.IGNORECASE
                prog = S.regex_program.RegexProgram.create(pat, flags)
                res = S.contains.contains_re(x, prog)
            elif case:
                res = S.find.contains(x, scalar(pat, STRING))
            else:
                res = S.find.contains(S.case.to_lower(x), scalar(pat.lower(), STRING))
            return fill_null(res, p("na"))
        if fn in ops.STR_AFFIX:
            pats, na = p("pat"), p("na")
            if not pats:
                isnull = plc.unary.is_null(x)
                return plc.copying.copy_if_else(scalar(na, BOOL), scalar(False, BOOL), isnull)
            f = getattr(S.find, ops.STR_AFFIX[fn])
            res = f(x, scalar(pats[0], STRING))
            for pat in pats[1:]:
                res = self.binary("LOGICAL_OR", res, f(x, scalar(pat, STRING)), BOOL)
            return fill_null(res, na)
        raise UnsupportedError(f"gpu engine has no {fn}")

    # ------------------------------------------------------------------------------ datetimes
    def _dt(self, e: Func, x: Any, xt: pa.DataType) -> Value:
        fn = e.fn
        D = plc.datetime
        i32 = plc_type(I32)
        if fn in ops.DT_COMPONENTS:
            comp = getattr(D.DatetimeComponent, ops.DT_COMPONENTS[fn])
            out = plc.unary.cast(D.extract_datetime_component(x, comp), i32)
            if fn == "dt.dayofweek":
                out = self.binary("SUB", out, Const(1, I32), I32)
            return out
        if fn in ops.DT_FUNCTIONS:
            return plc.unary.cast(getattr(D, ops.DT_FUNCTIONS[fn])(x), i32)
        if fn == "dt.microsecond":
            ms = plc.unary.cast(D.extract_datetime_component(x, D.DatetimeComponent.MILLISECOND), i32)
            us = plc.unary.cast(D.extract_datetime_component(x, D.DatetimeComponent.MICROSECOND), i32)
            return self.binary("ADD", self.binary("MUL", ms, Const(1000, I32), I32), us, I32)
        if fn in ops.DT_ROUNDING:
            from gframe.plan.freq import freq_in_unit

            every = freq_in_unit(int(e.param("freq")), xt.unit)  # ticks of the column's unit
            return x if every == 1 else self._round_datetime(fn[3:], x, int(every), xt)
        raise UnsupportedError(f"gpu engine has no {fn}")

    def _round_datetime(self, how: str, x: Any, every: int, xt: pa.DataType) -> Any:
        """pandas' floor / ceil / round to ``every`` ticks, epoch-relative, on the int64 values
        (round: half to even), as the CPU engine computes it."""
        v = plc.unary.bit_cast(x, plc_type(I64))
        ev = Const(every, I64)
        q = self.binary("FLOOR_DIV", v, ev, I64)
        if how == "floor":
            out = self.binary("MUL", q, ev, I64)
        elif how == "ceil":
            neg = plc.unary.unary_operation(v, plc.unary.UnaryOperator.NEGATE)
            out = plc.unary.unary_operation(self.binary("FLOOR_DIV", neg, ev, I64), plc.unary.UnaryOperator.NEGATE)
            out = self.binary("MUL", out, ev, I64)
        else:
            r2 = self.binary("MUL", self.binary("SUB", v, self.binary("MUL", q, ev, I64), I64), Const(2, I64), I64)
            above = self.binary("GREATER", r2, ev, BOOL)
            tie = self.binary("EQUAL", r2, ev, BOOL)
            odd = self.binary("EQUAL", self.binary("PYMOD", q, Const(2, I64), I64), Const(1, I64), BOOL)
            up = self.binary("LOGICAL_OR", above, self.binary("LOGICAL_AND", tie, odd, BOOL), BOOL)
            out = self.binary("MUL", self.binary("ADD", q, plc.unary.cast(up, plc_type(I64)), I64), ev, I64)
        return plc.unary.bit_cast(out, plc_type(xt))
