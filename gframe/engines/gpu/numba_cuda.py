"""numba-cuda plumbing shared by the GPU engine's own kernels (``segmented.py``) and the compiled
UDFs (``udf/numba_gpu.py``): whether numba-cuda can run here, a launch with a thread per item, and
zero-copy Numba arrays over pylibcudf columns' device memory. Numba is imported at the first use,
never at gframe's import (it costs ~0.3 s)."""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np

THREADS = 256  # threads per block


def device_reason() -> str | None:
    """None where numba-cuda imports and sees a usable device, else why not."""
    try:
        from numba import cuda
    except Exception as exc:  # noqa: BLE001 - any import failure means "no numba-cuda here"
        return f"numba-cuda is not importable ({type(exc).__name__}: {exc})"
    if not cuda.is_available():
        return "numba-cuda finds no usable CUDA device"
    return None


def launch(kernel: Any, n: int, *args: Any) -> None:
    """``kernel`` over a thread per item, at least one block (numba-cuda's warning that a small grid
    leaves the GPU idle is silenced: small inputs are normal here)."""
    launch_grid(kernel, max((n + THREADS - 1) // THREADS, 1), THREADS, *args)


def launch_grid(kernel: Any, blocks: int, threads: int, *args: Any) -> None:
    """``kernel`` over ``blocks`` x ``threads``, numba-cuda's small-grid warning silenced (a kernel
    with a block per group over a few groups is small by design)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*under-utilization")
        kernel[blocks, threads](*args)


class DeviceView:
    """A typed ``__cuda_array_interface__`` over a pylibcudf column's data (zero-copy); holding the
    column keeps its memory alive as long as the Numba array made from this view."""

    def __init__(self, col: Any, dtype: np.dtype) -> None:
        self.col = col
        self.__cuda_array_interface__ = {
            "shape": (col.size(),), "typestr": dtype.str, "version": 3, "strides": None,
            "data": (col.data().ptr + col.offset() * dtype.itemsize, False),
        }


def array(col: Any, dtype: Any) -> Any:
    """A Numba device array of ``dtype`` over ``col``'s data, no copy."""
    from numba import cuda

    return cuda.as_cuda_array(DeviceView(col, np.dtype(dtype)))
