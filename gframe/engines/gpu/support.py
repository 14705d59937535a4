"""What the GPU engine lowers, as the plan's nodes ask it: expressions, aggregations and schemas,
decided from the plan alone (types and parameters), before anything runs. A node's own check is
declared beside its kernel (``kernels.py``, ``@kernel``) and uses these; ``placement.node_reason``
asks it. A node the GPU engine does not lower runs on the CPU engine (``placement.py`` puts explicit
transfer nodes around it). No GPU library is imported here.

Every function returns ``None`` when the GPU engine lowers the thing, else the reason it does not
(a short phrase that ends up in ``explain()`` and in the fallback report).

Types are the plan's Arrow types. A column typed ``None`` ("decided by the data": an int column
that may have gained missing values) is taken to be numeric here; the engine checks that against
the data before it runs the node (a kernel's ``data_reason``, in ``kernels.py``: the checks that
read data).

A function's check is part of its declaration (``functions.py``: the lowering and its check,
together, per family), and so is a node's (``kernels.py``, host-only nodes listed there with a reason).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
import pyarrow as pa

# the function declarations, by family (each registers its lowering and its check in FUNCTIONS)
from gframe.engines.gpu import datetimes, rowwise, strings, window  # noqa: F401
from gframe.engines.gpu import categorical, ops
from gframe.engines.gpu.functions import FUNCTIONS, HOST_ONLY
from gframe.engines.gpu.kinds import INTLIKE, NUMERIC, kind, literal_ok, regex_ok, storable  # noqa: F401
from gframe.plan import logical as L
from gframe.plan.expr import ARITHMETIC, BIVARIATE, COMPARISON, LOGICAL, Agg, BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import Schema
from gframe.plan.dtypes import expr_type

Lookup = Callable[[str], "pa.DataType | None"]


def schema_reason(schema: Schema) -> str | None:
    for f in list(schema.columns) + list(schema.index or ()):
        if not storable(f.dtype):
            return f"column {f.label!r} of type {f.dtype} is not stored on the GPU"
    return None


# --------------------------------------------------------------------------------- expressions

def expr_reason(e: Expr, look: Lookup) -> str | None:
    """None when the GPU engine evaluates ``e`` over columns typed by ``look``."""
    if isinstance(e, Col):
        return None if storable(look(e.name)) else f"column {e.name!r} is not stored on the GPU"
    if isinstance(e, Lit):
        if e.dtype is not None and not storable(e.dtype):
            return f"literal of type {e.dtype}"
        return None if literal_ok(e.value) else f"literal {e.value!r}"
    if isinstance(e, Agg):
        return "an aggregation inside an element-wise expression"
    for c in e.children:
        r = expr_reason(c, look)  # type: ignore[arg-type]
        if r is not None:
            return r
    if categorical.reads_categorical(e, look):  # codes, compared by the codes of values
        return categorical.expr_reason(e, look)
    if isinstance(e, BinOp):
        return _binop_reason(e, look)
    if isinstance(e, Func):
        return _func_reason(e, look)
    return f"expression {type(e).__name__}"


def _binop_reason(e: BinOp, look: Lookup) -> str | None:
    lt, rt = expr_type(e.left, look), expr_type(e.right, look)
    if isinstance(e.left, Lit) and e.left.value is None or isinstance(e.right, Lit) and e.right.value is None:
        return f"{e.op} with a missing literal"
    lk, rk = kind(lt), kind(rt)
    op = e.op
    if op in ARITHMETIC:
        if lk in NUMERIC and rk in NUMERIC:
            if "num?" in (lk, rk):
                return None if op in ("add", "sub", "mul", "truediv") else f"{op} of a column typed by its data"
            if "uint" in (lk, rk) and lk != rk:
                # numpy's promotion (int % uint64 is float64: 5 % (2**64 - 1) is 5.0), not libcudf's
                # integer operators on the operands as they are (PYMOD read uint64(2**64 - 1) as -1)
                return "mixed signed/unsigned arithmetic"
            if op in ("floordiv", "mod"):
                if "bool" in (lk, rk):  # numpy's bool % False is 0, an undefined integer modulo in libcudf
                    return f"{op} of a bool"
                if lk in INTLIKE and rk in INTLIKE and expr_type(e, look) is not None:
                    return None
                return f"{op} that is not an integer division by a nonzero literal"
            if op == "pow" and lk in INTLIKE and rk in INTLIKE:
                return "integer power"
            if op == "pow" and expr_type(e, look) == pa.float32():
                # numpy's float32 power is its SIMD kernel (and ``arr ** 2`` its square), ulps from the
                # correctly rounded powf libcudf computes (5 ** -52.0: 4.5035993e-37, not ...97e-37):
                # the CPU engine calls numpy itself
                return "float32 power (numpy's own kernel)"
            return None
        if op == "add" and lk == rk == "str":
            return None
        if "dec" in (lk, rk):
            return _decimal_arithmetic_reason(e, lt, rt, expr_type(e, look))
        if "date" in (lk, rk) and lk in ("date", "ts", "dur") and rk in ("date", "ts", "dur"):
            # the dates cast to timestamps of the result's unit (TIMESTAMP_DAYS to a finer unit: exact),
            # then a timestamp +- duration or timestamp - timestamp of one unit
            t = expr_type(e, look)
            return None if t is not None and all(x.unit == t.unit for x in (lt, rt) if kind(x) != "date") \
                else f"{op} of {lt} and {rt}"
        if lk in ("ts", "dur") and rk in ("ts", "dur") and lt.unit == rt.unit:  # type: ignore[union-attr]
            if (lk, rk, op) in (("ts", "ts", "sub"), ("ts", "dur", "add"), ("ts", "dur", "sub"),
                                ("dur", "ts", "add"), ("dur", "dur", "add"), ("dur", "dur", "sub")):
                return None
        return f"{op} of {lt} and {rt}"
    if op in COMPARISON:
        if lk in NUMERIC and rk in NUMERIC:
            if ("bool" in (lk, rk)) and lk != rk:
                return "comparison of bool with a number"
            if "uint" in (lk, rk) and lk != rk and (lt == pa.uint64() or rt == pa.uint64()):
                return "comparison of uint64 with a signed number"
            return None
        if lk == rk and lk in ("ts", "dur") and lt.unit != rt.unit:  # type: ignore[union-attr]
            # libcudf compares in the finer unit: a [s] value past the [ns] range (year 3000) overflows
            return f"comparison of {lt} and {rt} (units differ)"
        if lk == rk and lk in ("str", "ts", "dur", "date"):
            return None
        if "dec" in (lk, rk):
            return _decimal_comparison_reason(e, lt, rt)
        return f"comparison of {lt} and {rt}"
    assert op in LOGICAL
    if lk == rk == "bool" or lk in ("int", "uint") and rk in ("int", "uint") and lk == rk:
        return None
    return f"logical {op} of {lt} and {rt}"


def _decimal_arithmetic_reason(e: BinOp, lt: pa.DataType, rt: pa.DataType, t: pa.DataType | None) -> str | None:
    """+ - * / of decimals with decimals or integers (``Evaluator._decimal``: libcudf's fixed-point
    binops, the operands rescaled to Arrow's scales) or with floats (in float64); the device's
    decimals are DECIMAL128. An integer literal goes in as a decimal of scale 0."""
    if t is None:
        return f"{e.op} of {lt} and {rt}"
    if pa.types.is_floating(t):
        return None
    if not pa.types.is_decimal(t) or t.bit_width > 128:
        return f"{e.op} of {lt} and {rt}"
    for side, st in ((e.left, lt), (e.right, rt)):
        if kind(st) not in ("dec", "int", "uint"):
            return f"{e.op} of {lt} and {rt}"
        if isinstance(side, Lit) and not (isinstance(side.value, (int, np.integer)) and abs(int(side.value)) < 10 ** 19):
            return f"{e.op} with the literal {side.value!r}"
    return None


def _decimal_comparison_reason(e: BinOp, lt: pa.DataType, rt: pa.DataType) -> str | None:
    """Decimals compare on the device with decimals of their scale, and with integer literals (made
    decimals of the column's scale); libcudf compares fixed-point with fixed-point only."""
    if kind(lt) == kind(rt) == "dec":
        return None if lt.scale == rt.scale else f"comparison of {lt} and {rt} (scales differ)"
    lit = e.right if kind(lt) == "dec" else e.left
    if isinstance(lit, Lit) and isinstance(lit.value, int) and not isinstance(lit.value, bool):
        dec = lt if kind(lt) == "dec" else rt
        if abs(lit.value) < 10 ** (38 - dec.scale):
            return None
    return f"comparison of {lt} and {rt}"


def _func_reason(e: Func, look: Lookup) -> str | None:
    """The reason of the function's own GPU declaration (``functions.py``), or: not declared."""
    decl = FUNCTIONS.get(e.fn)
    if decl is None:
        return f"function {e.fn!r} has no GPU lowering ({HOST_ONLY.get(e.fn, 'not declared')})"
    return decl.reason(e, [expr_type(c, look) for c in e.children], expr_type(e, look))


def agg_reason(a: Agg, look: Lookup) -> str | None:
    if a.fn not in ops.AGGREGATIONS:
        return f"aggregation {a.fn!r}"
    if a.fn == "size":
        return None
    for child in a.children:
        r = expr_reason(child, look)
        if r is not None:
            return r
    k = kind(expr_type(a.child, look))
    if a.fn in BIVARIATE:
        kinds = {kind(expr_type(c, look)) for c in a.children}
        return None if kinds <= NUMERIC - {"bool"} else f"{a.fn} of {kinds}"
    if a.fn in ("std", "var") and not (isinstance(a.param("ddof", 1), int) and a.param("ddof", 1) >= 0):
        return f"{a.fn} ddof={a.param('ddof')!r}"
    if k in NUMERIC:
        return None
    if k in ("str", "ts", "dur", "date", "dec") and a.fn in ops.ORDER_AGGS:
        return None
    if k == "dec" and a.fn == "sum":  # (DECIMAL128 sums of the input's scale: pandas' decimal128(38, s))
        return None
    return f"{a.fn} of {expr_type(a.child, look)}"


# ---------------------------------------------------------------------------------------- nodes

# A plan that is nothing but a small in-memory table (a literal frame, a UDF's result) is not sent
# to the device just to be copied back: its result stays on the host, and a later GPU plan that
# reads it moves it to the device then.
SMALL_HOST_ROWS = 1024


def stays_on_host(plan: L.Plan) -> bool:
    return isinstance(plan, L.InMemoryScan) and isinstance(plan.table.value, pa.Table) \
        and plan.table.value.num_rows <= SMALL_HOST_ROWS
