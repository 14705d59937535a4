"""Each group's float64 sum over ``kernels.SortedGroups``' layout in a fixed order: a numba-cuda
kernel, the same bits every run, for the GPU engine's order-deterministic group-by aggregations.

Why a kernel of our own: libcudf's hash group-by adds each row into its group with an atomic add,
so a float sum's last bits change with thread timing (issue 9: gframe gives the same bits every
run). The previous path built a fixed order out of libcudf calls - a rolling sum over chunks of 32
rows, the chunk ends compacted, repeated per level (``SortedGroups._pairwise``) - a dozen kernels
and n-row temporaries per level: 9-39 ms of a 1e7-row db-benchmark question on the H100, where
the reading of the values takes well under one.

The order. Rows are gathered so each group is a run (``starts``: each group's first position;
``rank``: each row's position in its group; ``group_of``: its group's number). Level 1: every row
whose rank is a multiple of ``FAN_IN`` (32) is a *head*; its thread adds its own value and the
next ones of its group, up to 32, one after another from 0.0, and writes the sum at its own
position. Level k: the heads of rank multiple of 32**k add the level-(k-1) sums at positions
32**(k-1) apart in the same way, in place. After ceil(log32(largest group)) levels (at least one)
each group's sum sits at its first position. Which values are added, and in which order, depends
on the group's size alone - not on where its run lies, on the other groups or on timing - so the
hash-ordered runs and the key-sorted runs (``GFRAME_GPU_GROUPCODES``) give the same bits, and so
does every run. It is also the order of the previous path's chunked rolling sums (chunk sums in
row order, 32 to a chunk, level after level), so the two agree to the last bits wherever libcudf's
rolling sum adds a window from 0.0 in row order.

In place is safe: a head reads only its own position (before writing it) and positions of its
group whose rank is not a multiple of 32**k - no other thread of that level writes those.

The cost: one launch of n threads per level (a thread that is no head reads one int and returns),
each head reading at most 32 values; the previous level's sums are n / 32 positions. Two new
columns: the level sums (n) and the result (one per group).

Kernels launch on the default stream, the one pylibcudf's calls use, so they are ordered with the
libcudf work around them (as ``udf/numba_gpu.py``). Inputs are zero-copy views of the columns'
device memory (``__cuda_array_interface__``); the outputs are libcudf columns (RMM memory).

``GFRAME_GPU_SEGSUM=0`` keeps the previous path (for A/B timings); so does a machine where
numba-cuda is missing or sees no device, and the host stand-in for pylibcudf. Nothing here imports
numba before a group-by runs on the GPU.
"""
from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from gframe.engines.gpu.numba_cuda import array, device_reason, launch

ENV = "GFRAME_GPU_SEGSUM"
FAN_IN = 32  # values one head adds per level (the previous path's CHUNK: same order, same bits)


def enabled() -> bool:
    """Whether group sums use the kernel here (default), read at each use so that one process can
    time both ways (``GFRAME_GPU_SEGSUM=0``: the previous chunked rolling sums)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def usable() -> bool:
    """Whether group sums take the kernel: switched on, real pylibcudf (the host stand-in's
    columns hold host memory), and numba-cuda with a device that builds the kernels."""
    from gframe.engines.gpu.lib import plc

    return enabled() and not getattr(plc, "__host_stand_in__", False) and unavailable_reason() is None


@functools.cache
def unavailable_reason() -> str | None:
    """None where numba-cuda imports, sees a device and builds the kernels, else why not (the
    caller then takes the previous path: the result is the same to ~1e-16 relative)."""
    reason = device_reason()
    if reason is not None:
        return reason
    from numba import cuda

    try:
        level, pick = _kernels()
        empty_f, empty_i = cuda.device_array(0, np.float64), cuda.device_array(0, np.int32)
        launch(level, 0, empty_f, empty_f, empty_i, empty_i, cuda.to_device(np.zeros(1, np.int32)), 0, 1)
        launch(pick, 0, empty_f, cuda.to_device(np.zeros(1, np.int32)), empty_f)
        cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - numba-cuda's compiler / driver fails in many types
        return f"numba-cuda cannot build the segmented sum ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    return None


def _kernels() -> tuple[Any, Any]:
    """(level, pick), compiled when their module is first imported (it imports numba)."""
    from gframe.engines.gpu import segmented_kernels as K

    return K.level, K.pick


def levels(largest: int) -> list[int]:
    """The strides of the levels for groups of at most ``largest`` rows: 1, 32, 32**2, ... while
    the previous level's sums cover fewer rows than the largest group (always the first)."""
    out = [1]
    while out[-1] * FAN_IN < largest:
        out.append(out[-1] * FAN_IN)
    return out


def segment_sums(x: Any, rank: Any, group_of: Any, bounds: Any, largest: int, work: Any, out: Any) -> Any:
    """Each group's sum of ``x`` into ``out`` (float64, one per group), in the module's fixed order.

    Device arrays (numba's, or anything with ``__cuda_array_interface__``): ``x`` (float64, n, no
    missing values; read only), ``rank`` and ``group_of`` (int32, n: each row's position in its
    group and its group's number), ``bounds`` (int32, groups + 1: each group's first position,
    then n), ``largest`` (the largest group's size, from the host), ``work`` (float64, n:
    scratch, the level sums)."""
    level, pick = _kernels()
    n = x.shape[0]
    if n:
        src = x
        for stride in levels(largest):
            launch(level, n, src, work, rank, group_of, bounds, n, stride)
            src = work
    launch(pick, out.shape[0], work, bounds, out)
    return out


def group_sums(cols: list[Any], rank: Any, group_of: Any, bounds: Any, largest: int) -> list[Any]:
    """Each group's sum of each column (pylibcudf columns of the sorted rows, no missing values;
    any number type, summed as float64 - exact for counts), as new FLOAT64 columns of
    ``bounds.size() - 1`` rows. ``rank``, ``group_of``, ``bounds``: INT32 columns as in
    ``segment_sums``."""
    import pyarrow as pa
    import pylibcudf as plc

    from gframe.engines.gpu.convert import plc_type, scalar

    f64 = plc_type(pa.float64())
    state = plc.types.MaskState.UNALLOCATED
    n, groups = rank.size(), bounds.size() - 1
    if not n or not groups:  # nothing to read: every group (if any) is empty, its sum 0
        return [plc.Column.from_scalar(scalar(0.0, pa.float64()), groups) for _ in cols]
    views = [array(rank, np.int32), array(group_of, np.int32), array(bounds, np.int32)]
    out = []
    for c in cols:
        c = c if c.type() == f64 else plc.unary.cast(c, f64)
        work = plc.column_factories.make_fixed_width_column(f64, n, state)
        res = plc.column_factories.make_fixed_width_column(f64, groups, state)
        segment_sums(array(c, np.float64), *views, largest, array(work, np.float64), array(res, np.float64))
        out.append(res)
    return out
