"""A whole column's float sum in numpy's order, on the device: the GPU engine's ``sum`` / ``mean``
of a float column (and ``mean`` of an int column) as pandas computes it, bit for bit.

Why: libcudf's reduction adds in CUB's tree, pandas in numpy's pairwise order, and where values
cancel (1e20 and -1e20 beside small ones) the two differ in far more than the last bits (issue 9,
class 9: a nullable Float64 mean on the H100). numpy's order (``pairwise_sum`` in
numpy/_core/src/umath/loops_utils.h.src, each claim below checked against numpy 2.4 in
``tests/test_gpu_pairwise.py``):

- a block of fewer than 8 values is added one after another from 0 (numpy starts from -0.0, which
  keeps a sum of -0.0 negative - ``np.add.reduceat``'s concern; a reduction from 0 loses that sign
  either way, so the kernels start from 0); a block of 8..128 values
  (``BLOCK``) in 8 accumulators, accumulator j taking values j, j + 8, ..., combined as
  ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the values past the last multiple
  of 8 one after another; a larger block is split at half its length rounded down to a multiple
  of 8 and the two halves' sums added. The tree depends on the block's length alone.
- a reduction starts from 0.0 (the identity, not the first value) and adds each inner loop's
  pairwise sum into it, one after another. Without a cast the inner loop is the whole column; a
  ``where=`` reduction (pandas' nullable Float64: ``np.sum(values, where=~mask)``) runs the loop
  once per run of present values; a reduction that casts (an int column's mean: ``dtype=float64``)
  is buffered, a loop per 8192 values (``BUFSIZE``), runs also split there.

So a sum is: segments (the whole column; 8192-value pieces; runs), each segment's pairwise sum,
the segments' sums added in order from 0. The kernels (``pairwise_kernels``): one thread per leaf
block (the thread at its first position walks the segment's tree from its length, which is
metadata: no value goes to the host), which then climbs the tree in the same launch, the second
of each block's halves to finish adding them into the left half's slot (``tree``); then the runs'
sums gathered in a row, and one block staging the segments' sums in shared memory for one thread to add.

``GFRAME_GPU_PAIRWISE=0`` keeps libcudf's reduction (for A/B timings), as does a machine where
numba-cuda is missing or sees no device. Over the host stand-in for pylibcudf the segments are
built the same way (the same pylibcudf calls) and each is summed by numpy itself
(``_host_segment_sums``), so the stand-in's bits are the device kernel's.
"""
from __future__ import annotations

import functools
import itertools
import os
from typing import Any

import numpy as np
import pyarrow as pa

ENV = "GFRAME_GPU_PAIRWISE"
BLOCK = 128  # numpy's PW_BLOCKSIZE: the largest block summed without splitting
UNROLL = 8  # numpy's accumulators per block; splits fall on multiples of it
BUFSIZE = 8192  # numpy's default buffer size: a casting reduction's inner loop, in elements (a power of 2)

F64, F32, I32, I64, BOOL = pa.float64(), pa.float32(), pa.int32(), pa.int64(), pa.bool_()


def enabled() -> bool:
    """Whether whole-column float sums take numpy's order (default), read at each use."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def stand_in() -> bool:
    from gframe.engines.gpu.lib import plc

    return bool(getattr(plc, "__host_stand_in__", False))


def usable() -> bool:
    """Whether sums take numpy's order here: switched on, and the host stand-in for pylibcudf or
    numba-cuda with a device that builds the kernels."""
    return enabled() and (stand_in() or unavailable_reason() is None)


@functools.cache
def unavailable_reason() -> str | None:
    """None where numba-cuda imports, sees a device and builds the kernels, else why not (the
    caller then takes libcudf's reduction: the same to ~1e-16 relative, except under cancellation)."""
    from gframe.engines.gpu.numba_cuda import device_reason

    reason = device_reason()
    if reason is not None:
        return reason
    from numba import cuda

    try:
        for t in (np.float64, np.float32):
            for m in (8, SMALL + 8):  # the one-thread kernel, then the tree and the fold
                x = cuda.to_device(np.zeros(m, t))
                out = cuda.device_array(1, t)
                segment_sums(x, cuda.device_array(scratch_length(m, m, 1), t), out, None, None, 1, m)
        cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - numba-cuda's compiler / driver fails in many types
        return f"numba-cuda cannot build the pairwise sum ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    return None


def half(length: int) -> int:
    """Where numpy splits a block of more than BLOCK values: half, down to a multiple of UNROLL."""
    h = length // 2
    return h - h % UNROLL


@functools.cache
def depth(length: int) -> int:
    """Levels of blocks above the leaves in numpy's tree for ``length`` values (0: one leaf)."""
    if length <= BLOCK:
        return 0
    h = half(length)
    return 1 + max(depth(h), depth(length - h))


def segment_sums(x: Any, work: Any, out: Any, bounds: Any, group_of: Any, nseg: int, chunk: int,
                 arrived: Any = None, sums: Any = None, nan_zero: bool = False) -> Any:
    """The sum of ``x``'s values (a 1-D device array, float64 or float32, no missing values) into
    ``out[0]`` (the same type): each segment's pairwise sum, added one after another from 0.

    Segments: ``chunk > 0``: pieces of ``chunk`` values (the last one shorter; ``nseg`` of them);
    ``chunk == 0``: ``nseg`` runs, ``bounds`` (int64, nseg + 1: each run's first position, then
    the length of ``x``) and ``group_of`` (int32, each value's run). ``work``: scratch of ``x``'s type, as long as
    ``x`` (or an eighth of it, plus one, where every segment starts at a multiple of 8);
    ``arrived``: int32 zeros as long as ``work``; ``sums`` (runs only): ``nseg`` values of ``x``'s
    type (both allocated here where not given); ``nan_zero``: NaN values added as 0 (``nansum``).

    Three launches whatever the length (the tree's levels are climbed inside one: ``tree``), where
    a launch per level cost ~3 ms on 1e7 values (numba-cuda's launch overhead, H100)."""
    from numba import cuda

    from gframe.engines.gpu import pairwise_kernels as K
    from gframe.engines.gpu.numba_cuda import launch, launch_grid

    m = x.shape[0]
    zero = x.dtype.type(0)
    ninf = x.dtype.type(-np.inf)
    if small(m, chunk, nseg):  # one launch, no scratch
        launch_grid(K.SMALLS[x.dtype.name], 1, 1, x, out, m, zero, int(nan_zero))
        return out
    if bounds is None:
        bounds = _unused(np.int64)
    if group_of is None:
        group_of = _unused(np.int32)
    aligned = chunk > 0 and (chunk % UNROLL == 0 or nseg <= 1)
    step, shift = (UNROLL, 3) if aligned else (1, 0)
    if m:
        if arrived is None:
            arrived = cuda.to_device(np.zeros(work.shape[0], np.int32))
        threads = (m + step - 1) // step
        launch(K.tree, threads, x, work, arrived, bounds, group_of, m, chunk, step, shift, zero, ninf, int(nan_zero))
    count = nseg if m else 0
    if chunk == 0 and count:
        if sums is None:
            sums = cuda.device_array(count, x.dtype)
        launch(K.firsts, count, work, bounds, count, shift, sums)
        work = sums
    launch_grid(K.FOLDS[x.dtype.name], 1, K.FOLD_THREADS, work, count, chunk, shift, zero, out)
    return out


@functools.cache
def _unused(dtype: type) -> Any:
    """A one-value device array standing for ``bounds`` / ``group_of`` where the segments are
    pieces (the kernels read neither then). Made once: ``cuda.to_device`` is a synchronous
    allocation and copy through numba's own allocator, twice per sum before."""
    from numba import cuda

    return cuda.to_device(np.zeros(1, dtype))


def small(m: int, chunk: int, nseg: int) -> bool:
    """Whether ``segment_sums`` takes the one-thread kernel (``pairwise_kernels.small``): one
    segment of at most ``SMALL`` values (16384; mirrored here so that deciding imports no numba)."""
    return chunk > 0 and nseg <= 1 and m <= SMALL


SMALL = 1 << 14


def scratch_length(m: int, chunk: int, nseg: int) -> int:
    """``work``'s length for ``segment_sums``."""
    return m // UNROLL + 1 if chunk > 0 and (chunk % UNROLL == 0 or nseg <= 1) else max(m, 1)


# ------------------------------------------------------------------------- pylibcudf columns

def column_sum(x: Any, *, masked: bool, counted: bool = True) -> tuple[Any, int | None]:
    """The sum of ``x``'s values in numpy's order as a 1-row column, and the count of values it adds
    (None where not ``counted``: a plain float column's sum then reads NaN as 0 in the kernel, with
    no ``nans_to_nulls`` pass and its null count, a device sync, before it).

    As pandas computes it:

    - a float column (numpy's float64 / float32, float[pyarrow]): missing values and NaN as 0,
      one segment, in the column's type (``nanops.nansum``: the mask's values filled with 0);
      the count leaves them out;
    - ``masked`` (pandas' nullable Float64 / Int64: ``np.sum(values, where=~mask)``): the runs of
      present values; NaN among them is a value (the sum is NaN);
    - an int column (its mean: ``sum(dtype=float64)``): the values as float64, in 8192-value
      buffers (and, masked, runs split at their ends).
    """
    from gframe.engines.gpu.convert import col_type, plc_type, scalar
    from gframe.engines.gpu.lib import expressions as E
    from gframe.engines.gpu.lib import plc
    from gframe.engines.gpu.table import GpuTable

    t = col_type(x)
    ints = not pa.types.is_floating(t)
    n = x.size()
    if ints:
        x = E.cast(x, F64)
    acc = col_type(x)
    chunk = BUFSIZE if ints else 0
    if not masked and not ints and not counted:
        if x.null_count():
            x = plc.replace.replace_nulls(x, scalar(0.0, acc))
        return _sum(x, None, None, 1, max(n, 1), nan_zero=True), None
    if not masked:
        if not ints:
            x = E.nan_to_null(x)
        count = n - x.null_count()
        if x.null_count():
            x = plc.replace.replace_nulls(x, scalar(0.0, acc))
        return _sum(x, None, None, (n + chunk - 1) // chunk if chunk else 1, chunk or max(n, 1)), count
    count = n - x.null_count()
    if x.null_count() == 0:
        return _sum(x, None, None, (n + chunk - 1) // chunk if chunk else 1, chunk or max(n, 1)), count
    # runs of present values: a run starts at a present value after a missing one (or at the top,
    # or, buffered, at a multiple of 8192); positions are the present values' (``vals``)
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    valid = plc.unary.is_valid(x)
    prev = plc.copying.shift(valid, 1, scalar(False, BOOL))
    begins = plc.unary.unary_operation(prev, plc.unary.UnaryOperator.NOT)
    if chunk:
        pos = plc.filling.sequence(n, scalar(0, I32), scalar(1, I32))
        at_buffer = ev.binary("EQUAL", ev.binary("BITWISE_AND", pos, E.Const(chunk - 1, I32), I32), E.Const(0, I32), BOOL)
        begins = ev.binary("LOGICAL_OR", begins, at_buffer, BOOL)
    start = ev.binary("LOGICAL_AND", valid, begins, BOOL)
    run_no = plc.reduce.scan(plc.unary.cast(start, plc_type(I32)),
                             plc.aggregation.sum(), plc.reduce.ScanType.INCLUSIVE)
    at = plc.reduce.scan(plc.unary.cast(valid, plc_type(I32)),
                         plc.aggregation.sum(), plc.reduce.ScanType.INCLUSIVE)
    retain = getattr(plc.stream_compaction, "apply_retention_mask", None) or plc.stream_compaction.apply_boolean_mask
    vals, group_of = retain(plc.Table([x, ev.binary("SUB", run_no, E.Const(1, I32), I32)]), valid).columns()
    firsts = retain(plc.Table([ev.binary("SUB", at, E.Const(1, I32), I32)]), start).columns()[0]
    nseg, m = firsts.size(), vals.size()
    bounds = E.cast(plc.concatenate.concatenate([firsts, plc.Column.from_scalar(scalar(m, I32), 1)]), I64)
    return _sum(vals, bounds, group_of, nseg, 0), count


def _sum(vals: Any, bounds: Any, group_of: Any, nseg: int, chunk: int, nan_zero: bool = False) -> Any:
    """The segments' sum of ``vals`` (pylibcudf columns, as ``segment_sums`` takes them), a 1-row
    column of ``vals``' type: the kernels on the device, numpy's own sums over the stand-in."""
    return (_host_sums if stand_in() else _device_sums)(vals, bounds, group_of, nseg, chunk, nan_zero)


def _device_sums(vals: Any, bounds: Any, group_of: Any, nseg: int, chunk: int, nan_zero: bool = False) -> Any:
    """``segment_sums`` over zero-copy views of the columns' device memory; the scratch and the
    result are libcudf columns (RMM memory)."""
    from gframe.engines.gpu.convert import col_type, plc_type, scalar
    from gframe.engines.gpu.lib import plc
    from gframe.engines.gpu.numba_cuda import array

    t = col_type(vals)
    dtype = np.float64 if t == F64 else np.float32
    m = vals.size()
    state = plc.types.MaskState.UNALLOCATED
    out = plc.column_factories.make_fixed_width_column(plc_type(t), 1, state)
    if small(m, chunk, nseg):
        segment_sums(array(vals, dtype) if m else _empty(dtype), None, array(out, dtype), None, None,
                     nseg, chunk, nan_zero=nan_zero)
        return out
    length = scratch_length(m, chunk, nseg)
    work = plc.column_factories.make_fixed_width_column(plc_type(t), length, state)
    arrived = plc.Column.from_scalar(scalar(0, I32), length)
    sums = plc.column_factories.make_fixed_width_column(plc_type(t), max(nseg, 1), state) if chunk == 0 else None
    views = [array(bounds, np.int64) if bounds is not None else None,
             array(group_of, np.int32) if group_of is not None else None]
    segment_sums(array(vals, dtype) if m else _empty(dtype), array(work, dtype), array(out, dtype), *views,
                 nseg, chunk, array(arrived, np.int32), array(sums, dtype) if sums is not None else None, nan_zero)
    return out


def _empty(dtype: Any) -> Any:
    from numba import cuda

    return cuda.device_array(0, dtype)


def _host_sums(vals: Any, bounds: Any, group_of: Any, nseg: int, chunk: int, nan_zero: bool = False) -> Any:
    """Over the host stand-in: each segment's ``np.add.reduce`` (0 + its pairwise sum: numpy's own),
    added one after another from 0 in the values' type (NaN as 0 first where ``nan_zero``)."""
    from gframe.engines.gpu.convert import col_type
    from gframe.engines.gpu.lib import plc

    x = vals.to_arrow().to_numpy(zero_copy_only=False)
    if nan_zero:
        x = np.where(np.isnan(x), x.dtype.type(0), x)
    edges = bounds.to_arrow().to_numpy(zero_copy_only=False) if bounds is not None else \
        np.append(np.arange(0, len(x), chunk), len(x))
    res = x.dtype.type(0)
    for a, b in itertools.pairwise(edges):
        res = res + np.add.reduce(x[a:b])
    return plc.Column.from_arrow(pa.array([res], type=col_type(vals)))
