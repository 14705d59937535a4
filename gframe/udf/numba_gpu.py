"""numba-cuda on the GPU engine: a compiled UDF as one kernel over pylibcudf columns' device memory.

One thread per row calls the function - a numba-cuda device function compiled from the same Python
function as on the CPU (``numba_cpu.Compiled.pyfunc``) - and writes its value and validity. Inputs
are zero-copy typed views of the columns (``__cuda_array_interface__`` over ``Column.data()``; a
row's fields are interleaved by libcudf into the memory of an array of records); outputs are new
libcudf columns (RMM memory) the kernel writes in place, the validity becoming a null mask through
``bools_to_mask``. Kernels launch on the default stream, the one pylibcudf's calls use, so they are
ordered with the libcudf work around them.

``kernel_reason`` (asked by ``engines/gpu/support.py`` while placing nodes) builds the kernel and
launches it over no rows, once per compiled function: a function numba-cuda cannot compile, one
that raises errors in Python (a division by a value that may be 0, a ``raise``: a kernel cannot
raise them), or a machine without numba-cuda, runs that node on the CPU engine, decided before
anything runs.
Nothing here is imported before a GPU plan holds a UDF.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from gframe.udf.numba_cpu import Compiled


@functools.cache
def unavailable_reason() -> str | None:
    """None where numba-cuda imports and sees a device, else why not."""
    from gframe.engines.gpu.numba_cuda import device_reason  # (the GPU package, at the first use)

    return device_reason()


def kernel_reason(udf: Any) -> str | None:
    """None where the GPU engine runs this ``udf`` expression (a ``compiled.Udf``), else why not."""
    if udf.compiled.raises is not None:  # pandas raises the error: the CPU engine's loop does too
        return f"{udf.name}: {udf.compiled.raises}, which a GPU kernel cannot raise"
    reason = unavailable_reason()
    if reason is None:
        built = _kernel(udf.compiled)
        reason = built if isinstance(built, str) else None
    return reason


@functools.lru_cache(maxsize=64)
def _kernel(compiled: Compiled) -> Any:
    """The kernel for ``compiled`` - compiled by launching it once over no rows (none of the user's
    code runs), with the argument types of every later launch - or why numba-cuda cannot build it."""
    from numba import cuda

    from gframe.engines.gpu.numba_cuda import launch

    f = cuda.jit(device=True)(compiled.pyfunc)
    if compiled.kind == "map":
        @cuda.jit
        def kernel(x, missing, out, valid, fill, fill_valid):  # type: ignore[no-untyped-def]
            i = cuda.grid(1)
            if i < x.shape[0]:
                if missing[i]:
                    out[i] = fill
                    valid[i] = fill_valid
                else:
                    r = f(x[i])
                    out[i] = r
                    valid[i] = r == r  # False for NaN only: a NaN result is missing

        probe = (_empty(compiled.arg), _empty(np.bool_), _empty(compiled.result), _empty(np.bool_),
                 compiled.result.type(0), False)
    else:
        @cuda.jit
        def kernel(rows, out, valid):  # type: ignore[no-untyped-def]
            i = cuda.grid(1)
            if i < rows.shape[0]:
                r = f(rows[i])
                out[i] = r
                valid[i] = r == r

        probe = (_empty(compiled.arg), _empty(compiled.result), _empty(np.bool_))
    try:
        launch(kernel, 1, *probe)
        cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - numba-cuda's compiler fails with NumbaError and with
        # plain exceptions from its passes (as Numba's does, see numba_cpu.compile_udf); no row runs
        # the user's code, so a failure here means "not on the GPU"
        return f"numba-cuda cannot compile {compiled.name} ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    return kernel


def _empty(dtype: Any) -> Any:
    from numba import cuda

    return cuda.device_array(0, np.dtype(dtype))


def run(udf: Any, columns: list[Any]) -> Any:
    """The ``udf`` expression (a ``compiled.Udf``) over its input columns (``pylibcudf.Column``s of
    one length): a column of its result type, missing where the function gave NaN or was not called."""
    import pyarrow as pa
    import pylibcudf as plc

    from gframe.engines.gpu.convert import plc_type, scalar
    from gframe.engines.gpu.numba_cuda import array, launch

    c: Compiled = udf.compiled
    n = columns[0].size()
    state = plc.types.MaskState.UNALLOCATED
    out = plc.column_factories.make_fixed_width_column(plc_type(pa.from_numpy_dtype(c.result)), n, state)
    if n == 0:
        return out
    valid = plc.column_factories.make_fixed_width_column(plc_type(pa.bool_()), n, state)
    kernel = _kernel(c)  # built (and checked) while the plan was placed on the GPU

    def typed(col: Any, dtype: np.dtype) -> Any:
        t = pa.from_numpy_dtype(dtype)
        return col if col.type() == plc_type(t) else plc.unary.cast(col, plc_type(t))

    if c.kind == "map":
        x = typed(columns[0], c.arg)
        missing = plc.unary.is_null(x)
        fill, fill_valid = c.result.type(0), False
        if x.null_count() and not udf.skip_missing:
            fill, fill_valid = udf.missing_value()
        launch(kernel, n, array(x, c.arg), array(missing, np.bool_), array(out, c.result),
                array(valid, np.bool_), fill, fill_valid)
    else:
        fields = []
        for col in columns:
            col = typed(col, c.row_dtype)
            if col.null_count():  # a missing float is NaN in pandas' row (int rows have none)
                col = plc.replace.replace_nulls(col, scalar(float("nan"), pa.float64()))
            fields.append(col)
        # row-major: the fields of row i side by side, the memory of an array of n records
        rows = plc.reshape.interleave_columns(plc.Table(fields))
        launch(kernel, n, array(rows, c.row_dtype).view(c.arg), array(out, c.result), array(valid, np.bool_))
    mask, nulls = plc.transform.bools_to_mask(valid)
    return out.with_mask(mask, nulls) if nulls else out
