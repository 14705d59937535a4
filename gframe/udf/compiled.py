"""Numba-compiled scalar UDFs: ``Series.map(f)`` / ``Series.apply(f)`` and ``DataFrame.apply(f, axis=1)``
as a ``udf`` expression of the plan, for functions tracing cannot turn into native expressions
(branches on the value, ``math.*``, loops).

The plan carries ``Func("udf", (("udf", Udf),), *inputs)``; its type is known when it is built
(Numba's type inference of the function on the values' dtype), so nothing runs before the result is
needed. The CPU engine runs it as one jitted loop over the columns' numpy arrays
(``udf/numba_cpu.py``), the GPU engine as one numba-cuda kernel over the columns' device memory
(``udf/numba_gpu.py``; placed on the CPU where numba-cuda cannot build it).

pandas' semantics, kept:

- ``map`` passes Python numbers (pandas converts the values to objects first): the function is
  compiled for int64 (every int dtype but uint64), float64 (every float dtype) or bool, and its
  results become int64, float64 or bool as pandas' inference makes them.
- Missing values: with ``na_action=None`` pandas calls the function on NaN. gframe calls the Python
  function itself on NaN, once, and gives that result (or raises its error: ``math.floor(nan)``
  raises ValueError in pandas too) to every missing value; with ``na_action="ignore"`` they stay
  missing (an int result then becomes float64, as in pandas; a bool result, object in pandas, is
  left to pandas). A NaN result is missing.
- ``apply(axis=1)`` passes a row whose values all have the frame's common dtype (ints and floats:
  every field is a float): the function is compiled for a record of those fields, read as
  ``row["a"]`` or ``row.a``. Compiled where that dtype is int64 or float64; the result has the
  frame's index, no name, and the dtype of the values returned.

Errors: a map function raises what Python raises on the same numbers where Numba checks it
(``ZeroDivisionError``, a ``raise``); a function that may raise runs on the CPU engine under the GPU
engine, as a kernel cannot raise.

Known differences: Python ints do not overflow, int64 does; where Python raises for a value the
compiled code may not (``math.sqrt(-1)`` is NaN, ``int(nan)`` of a row's missing field is a number);
only the function itself is checked for what Numba computes differently from Python (``~`` of a
bool, integer powers, bools mixed with numbers), not the jitted functions it calls; an input whose
emptiness the plan does not know (it is not in memory) and that turns out empty gives the compiled
result dtype, where pandas keeps the input's dtype (``map``) or gives float64 (``apply``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pyarrow as pa

from gframe.plan.expr import Col, Func
from gframe.udf import numba_gpu
from gframe.udf.base import NotCompilable, known_rows
from gframe.udf.numba_cpu import Compiled, compile_udf


@dataclass(frozen=True)
class Udf:
    """What a ``udf`` expression carries: the compiled function and how missing values are treated.

    Equal where the compiled function is the same object (``numba_cpu.compile_udf`` caches it per
    function): the same ``s.map(f)`` twice is one common subexpression.
    """

    compiled: Compiled
    skip_missing: bool  # na_action="ignore": missing stays missing, the function is not called
    dtype: pa.DataType | None  # the expression's Arrow type in the plan (None: decided by the data)

    @property
    def name(self) -> str:
        return self.compiled.name

    @property
    def result_type(self) -> pa.DataType:
        """The Arrow type of the values computed (before a missing value promotes it)."""
        return pa.from_numpy_dtype(self.compiled.result)

    def missing_value(self) -> tuple[Any, bool]:
        """What a missing value maps to where the function is called on it: Python's ``func(nan)``
        (and its error), computed once per execution, as (value in the result dtype, valid)."""
        r = self.compiled.func(np.nan)
        if r is None or isinstance(r, (float, np.floating)) and r != r:
            return self.compiled.result.type(0), False
        return np.asarray(r).astype(self.compiled.result)[()], True

    def run_host(self, columns: Sequence[pa.Array]) -> pa.Array:
        """The CPU engine's kernel: the function of each row of ``columns`` (the expression's inputs)."""
        c = self.compiled
        if c.kind == "map":
            col = columns[0].cast(pa.from_numpy_dtype(c.arg))
            missing = col.is_null().to_numpy(zero_copy_only=False)
            # missing slots hold no value: any will do, the loop does not read them
            x = col.fill_null(c.arg.type(0).item()).to_numpy(zero_copy_only=False)
            fill, fill_valid = (c.result.type(0), False)
            if col.null_count and not self.skip_missing:
                fill, fill_valid = self.missing_value()
            out, valid = c.run_map(x, missing, fill, fill_valid)
        else:
            # the row's fields side by side: the memory of a structured array of records (a
            # missing float is NaN, as in pandas' row; int rows have no missing values)
            matrix = np.empty((len(columns[0]), len(columns)), c.row_dtype)
            for j, col in enumerate(columns):
                matrix[:, j] = col.cast(pa.from_numpy_dtype(c.row_dtype)).to_numpy(zero_copy_only=False)
            out, valid = c.run_rows(matrix.view(c.arg)[:, 0])
        return pa.array(out, mask=None if valid.all() else ~valid)

    # The GPU engine's side: the expression carries its device runner, so the engines never import
    # ``gframe.udf`` (they see only the parameter's methods).
    def device_reason(self) -> str | None:
        """Why the GPU engine cannot run this function as a numba-cuda kernel (None: it can)."""
        return numba_gpu.kernel_reason(self)

    def run_device(self, columns: list[Any]) -> Any:
        """The GPU engine's kernel: the function of each row of ``columns`` (pylibcudf columns)."""
        return numba_gpu.run(self, columns)


def _udf_expr(udf: Udf, *inputs: Any) -> Func:
    return Func("udf", (("udf", udf),), *inputs)


def _compile(func: Callable[..., Any], kind: str, arg: np.dtype) -> Compiled:
    try:
        hash(func)
    except TypeError:
        raise NotCompilable(f"an unhashable callable {type(func).__name__}") from None
    out = compile_udf(func, kind, arg)
    if isinstance(out, str):
        raise NotCompilable(out)
    return out


def _argument(dtype: Any) -> np.dtype:
    """The numpy type of the Python number pandas passes for a value of ``dtype``."""
    if isinstance(dtype, np.dtype):
        if dtype.kind == "b":
            return np.dtype(np.bool_)
        if dtype.kind == "i" or dtype.kind == "u" and dtype.itemsize < 8:
            return np.dtype(np.int64)
        if dtype.kind == "f":
            return np.dtype(np.float64)
    raise NotCompilable(f"values of dtype {dtype} are not compiled")


def map_series(series: Any, func: Callable[..., Any], na_action: Any = None) -> Any:
    """``Series.map(func)``: the compiled function of every value, with the Series' index and name."""
    if na_action not in (None, "ignore"):
        raise NotCompilable(f"na_action={na_action!r}")  # pandas raises its ValueError
    arg = _argument(series.dtype)
    if known_rows(series._plan) == 0:
        return series._with(series._expr)  # pandas returns an empty input as it is
    compiled = _compile(func, "map", arg)
    dtype: pa.DataType | None = pa.from_numpy_dtype(compiled.result)
    if na_action == "ignore" and arg.kind == "f" and compiled.result.kind in "bi":
        if compiled.result.kind == "b":
            raise NotCompilable("na_action='ignore' with a bool result (pandas gives object where values are missing)")
        dtype = None  # int results with missing values are float64 in pandas
    return series._with(_udf_expr(Udf(compiled, na_action == "ignore", dtype), series._expr))


def apply_rows(df: Any, func: Callable[..., Any]) -> Any:
    """``DataFrame.apply(func, axis=1)``: the compiled function of every row (a record of the
    frame's columns in their common dtype), with the frame's index and no name."""
    from pandas.core.dtypes.cast import find_common_type

    fields = df._plan.schema.columns
    labels = [f.label for f in fields]
    if not labels or not all(isinstance(label, str) for label in labels) or len(set(labels)) != len(labels):
        raise NotCompilable("a row's fields are compiled for unique string column labels")
    common = find_common_type(list(df.dtypes))
    if common not in (np.dtype(np.int64), np.dtype(np.float64)):
        # narrower numpy scalars compute in their own dtype (int8 + 1 is int8), which Numba widens
        raise NotCompilable(f"a row of dtype {common}")
    if known_rows(df._plan) == 0:
        raise NotCompilable("an empty frame (pandas calls the function on a row of NaN)")
    compiled = _compile(func, "rows", np.dtype([(label, common) for label in labels]))
    udf = Udf(compiled, False, pa.from_numpy_dtype(compiled.result))
    # a Series of the frontend's class, made from one of the frame's columns (no frontend import)
    return df[labels[0]]._with(_udf_expr(udf, *(Col(f.name) for f in fields)), None)


__all__ = ["Udf", "apply_rows", "map_series"]
