"""Numba on the host: compile a scalar UDF, read its result type, run it in a jitted loop.

``compile_udf(func, kind, arg)`` compiles ``func`` with ``numba.njit`` for one argument type - a
value (``Series.map``) or a record of the row's fields (``DataFrame.apply(axis=1)``) - and returns a
``Compiled``, or the reason it cannot. Numba's type inference gives the result's dtype at plan
building, before any data is read. The typed IR is checked for what Numba computes differently from
the Python that pandas runs (``_audit``); those functions are left to pandas.

``Compiled.run_map`` / ``run_rows`` are the CPU engine's kernels: one jitted loop over numpy arrays
(no Python per row). ``udf/numba_gpu.py`` runs the same function as a numba-cuda kernel.
Numba is imported only here (and in ``numba_gpu``), when a UDF is first compiled.
"""
from __future__ import annotations

import functools
import operator
import types as pytypes
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd


@dataclass(frozen=True, eq=False)
class Compiled:
    """A scalar function Numba compiled for one argument type (equal and hashed by identity).

    ``kind`` is "map" (the argument is one value of dtype ``arg``) or "rows" (a record: ``arg`` is a
    structured dtype whose fields are the frame's columns, all of the row's common dtype).
    ``result`` is the numpy dtype of the values it returns, as pandas builds the result Series.
    """

    func: Callable[..., Any]  # the user's function, as given
    pyfunc: Callable[..., Any]  # what Numba compiles: ``func``, or a function calling it
    name: str
    kind: str
    arg: np.dtype
    result: np.dtype
    dispatcher: Any  # numba's CPUDispatcher for ``pyfunc``
    raises: str | None  # where it raises errors in Python (which the jitted loop raises too, a GPU kernel not)

    @property
    def row_dtype(self) -> np.dtype:
        """The common dtype of a row's fields ("rows" only)."""
        return self.arg.fields[self.arg.names[0]][0]

    @functools.cached_property
    def _loop(self) -> Callable[..., None]:
        """The jitted loop calling the function on every element (compiled at its first call)."""
        import numba

        f = self.dispatcher
        if self.kind == "map":
            @numba.njit
            def loop(x, missing, out, valid, fill, fill_valid):  # type: ignore[no-untyped-def]
                for i in range(x.shape[0]):
                    if missing[i]:
                        out[i] = fill
                        valid[i] = fill_valid
                    else:
                        r = f(x[i])
                        out[i] = r
                        valid[i] = r == r  # False for NaN only: a NaN result is missing
            return loop

        @numba.njit
        def rows_loop(rows, out, valid):  # type: ignore[no-untyped-def]
            for i in range(rows.shape[0]):
                r = f(rows[i])
                out[i] = r
                valid[i] = r == r
        return rows_loop

    def run_map(self, x: np.ndarray, missing: np.ndarray, fill: Any, fill_valid: bool) -> tuple[np.ndarray, np.ndarray]:
        """The function of each ``x[i]``; rows ``missing`` get ``fill`` (valid or not) instead.
        Returns the values and their validity."""
        out = np.empty(len(x), self.result)
        valid = np.empty(len(x), np.bool_)
        self._loop(x, missing, out, valid, self.result.type(fill), fill_valid)
        return out, valid

    def run_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The function of each record of ``rows`` (a structured array of dtype ``arg``)."""
        out = np.empty(len(rows), self.result)
        valid = np.empty(len(rows), np.bool_)
        self._loop(rows, out, valid)
        return out, valid


def _function_of(func: Callable[..., Any]) -> Callable[..., Any]:
    """What Numba compiles for ``func``: itself if it is a Python function, else (``math.floor``,
    ``np.sqrt``, a jitted function) a function that calls it, which Numba types as a global."""
    if isinstance(func, pytypes.FunctionType):
        return func

    def call(v):  # type: ignore[no-untyped-def]
        return func(v)

    return call


@functools.lru_cache(maxsize=64)
def compile_udf(func: Callable[..., Any], kind: str, arg: np.dtype) -> Compiled | str:
    """``func`` compiled for one argument of dtype ``arg``, or why it cannot be.

    "map" calls compile with Python's error model (``1 // 0`` raises ZeroDivisionError, as on the
    Python numbers pandas passes); "rows" with numpy's (a row holds numpy scalars: ``1 // 0`` is 0).
    Cached by function object (failures too), like cudf's UDF cache: a UDF used in a loop compiles once.
    """
    import numba
    from numba.core import types
    from numba.np.numpy_support import as_dtype

    name = getattr(func, "__name__", type(func).__name__)
    pyfunc = _function_of(func)
    dispatcher = numba.njit(error_model="python" if kind == "map" else "numpy")(pyfunc)
    try:
        dispatcher.compile((numba.from_dtype(arg),))
    except Exception as e:  # noqa: BLE001 - Numba rejects unsupported code with NumbaError, but also
        # with plain KeyError / TypeError / ... from inside its passes (``row.c`` of a record without
        # field c); compiling runs none of the user's code, so any failure means "not compilable"
        message = " ".join(str(e).split())
        return f"Numba cannot compile {name} ({type(e).__name__}: {message[:200]})"
    cres = dispatcher.overloads[dispatcher.signatures[0]]
    ret = types.unliteral(cres.signature.return_type)
    if not isinstance(ret, (types.Boolean, types.Integer, types.Float)):
        return f"{name} returns {ret}, not a number or bool"
    if isinstance(ret, types.Integer) and not ret.signed:
        return f"{name} returns {ret} (pandas picks int64 or uint64 by value)"
    divergence, raises = _audit(cres, kind)
    if divergence is not None:
        return f"{name}: {divergence}"
    result = as_dtype(ret)
    if kind == "map":  # pandas converts the Python objects returned: every int is int64, every float float64
        result = {"b": np.dtype(np.bool_), "i": np.dtype(np.int64), "f": np.dtype(np.float64)}[result.kind]
    return Compiled(func, pyfunc, name, kind, arg, result, dispatcher, raises)


def _audit(cres: Any, kind: str) -> tuple[str | None, str | None]:
    """Read the compiled function's typed IR: (where it computes something else than Python on the
    values pandas passes - Python numbers for map, numpy scalars for rows -, where it raises in
    Python: an error a GPU kernel cannot raise); None where there is nothing.

    Only the function itself is read, not the functions it calls.
    """
    from numba.core import ir, types

    annotation = getattr(cres, "type_annotation", None)
    if annotation is None:
        return "its typed code cannot be read", None
    typemap = annotation.typemap
    stmts = [stmt for block in annotation.blocks.values() for stmt in block.body]
    assigned: dict[str, list[Any]] = {}
    for stmt in stmts:
        if isinstance(stmt, ir.Assign):
            assigned.setdefault(stmt.target.name, []).append(stmt.value)

    def nonzero_constant(var: Any) -> bool:
        values = assigned.get(var.name, ())
        return bool(values) and all(isinstance(v, ir.Const) and v.value != 0 for v in values)

    raises = None
    for stmt in stmts:
        if isinstance(stmt, (ir.Raise, ir.StaticRaise, ir.DynamicRaise, ir.TryRaise, ir.StaticTryRaise, ir.DynamicTryRaise)):
            raises = "it raises"
        e = stmt.value if isinstance(stmt, ir.Assign) else None
        if not isinstance(e, ir.Expr):
            continue
        if e.op == "unary" and e.fn is operator.invert and kind == "map" \
                and isinstance(typemap[e.value.name], types.Boolean):
            return "~ of a bool (Python gives -2 for ~True, Numba False)", raises
        if e.op in ("binop", "inplace_binop") and e.fn in (operator.pow, operator.ipow):
            base, exp = typemap[e.lhs.name], typemap[e.rhs.name]
            if isinstance(base, (types.Integer, types.Boolean)) and isinstance(exp, (types.Integer, types.Boolean)) \
                    and not (isinstance(exp, types.IntegerLiteral) and exp.literal_value >= 0):
                return "an integer power with a negative or unknown exponent (a float or an error in Python)", raises
        if e.op in ("binop", "inplace_binop") and e.fn in _DIVISIONS and kind == "map" and not nonzero_constant(e.rhs):
            raises = "it divides by a value that may be 0 (ZeroDivisionError in Python)"
        if e.op == "getattr" and isinstance(typemap[e.value.name], types.Record) and hasattr(pd.Series, e.attr):
            return f"row.{e.attr} is the Series attribute in pandas, not the field", raises
    returns = [stmt.value.name for stmt in stmts if isinstance(stmt, ir.Return)]
    kinds = {_kind(t) for t in _sources(returns, assigned, typemap)}
    if "bool" in kinds and len(kinds) > 1:
        return "it returns bools and numbers (pandas gives object)", raises
    return None, raises


# division operators, which raise ZeroDivisionError on Python numbers
_DIVISIONS = (operator.truediv, operator.floordiv, operator.mod, operator.itruediv, operator.ifloordiv, operator.imod)


def _sources(names: list[str], assigned: dict[str, list[Any]], typemap: dict[str, Any]) -> list[Any]:
    """The types of the values that reach the given variables before Numba unifies them (a
    variable assigned in several branches, a cast at the return), followed through copies."""
    from numba.core import ir

    out, seen, todo = [], set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in assigned.get(name, ()):
            if isinstance(value, ir.Var):
                todo.append(value.name)
            elif isinstance(value, ir.Expr) and value.op == "cast":
                todo.append(value.value.name)
            else:
                out.append(typemap[name])
    return out


def _kind(t: Any) -> str:
    from numba.core import types

    if isinstance(t, types.Boolean):
        return "bool"
    return "number" if isinstance(t, (types.Integer, types.Float)) else "other"
