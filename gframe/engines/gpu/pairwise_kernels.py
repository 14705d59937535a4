"""The numba-cuda kernels of ``pairwise`` (the order they add in is described there). A module of
its own so that numba is imported only at the first whole-column float sum on the GPU, and so that
numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, the tests' way to run these without a GPU)
finds ``cuda`` among the kernels' globals, where it swaps in its own.

Each kernel gets both value types (float64, float32: numpy adds a float32 column in float32), and
the accumulator's zero as an argument of that type, so that no float literal promotes a float32
sum to float64 under numba's typing. Segments are either ``chunk``-long pieces of the values
(``chunk > 0``: one whole-column segment, or numpy's 8192-element casting buffers) or the runs
``bounds`` / ``group_of`` describe (``chunk == 0``)."""
from __future__ import annotations

from numba import cuda, float32, float64, int64

from gframe.engines.gpu.pairwise import BLOCK, UNROLL

TILE = 4096  # segment sums ``fold`` stages in shared memory at a time (32 KiB of float64)
FOLD_THREADS = 256  # ``fold``'s one block
MAX_DEPTH = 64  # levels of a segment's tree above its leaves: ~log2(length / 128), far below this

_TREE_SIGS = [
    "void(float64[::1], float64[::1], int32[::1], int64[::1], int32[::1], int64, int64, int64, int64, float64, float64, int64)",
    "void(float32[::1], float32[::1], int32[::1], int64[::1], int32[::1], int64, int64, int64, int64, float32, float32, int64)",
]
_GATHER_SIGS = [
    "void(float64[::1], int64[::1], int64, int64, float64[::1])",
    "void(float32[::1], int64[::1], int64, int64, float32[::1])",
]


@cuda.jit(device=True)
def _segment(i, bounds, group_of, m, chunk):  # type: ignore[no-untyped-def]
    """(first, end) of the segment holding position ``i`` (int64 both ways: ``bounds`` is int64)."""
    if chunk > 0:
        first = (i // chunk) * chunk
        end = first + chunk
        return first, (end if end < m else m)
    g = group_of[i]
    return bounds[g], bounds[g + 1]


@cuda.jit(device=True)
def _half(length):  # type: ignore[no-untyped-def]
    """numpy's split of a block of more than BLOCK values: half, down to a multiple of UNROLL."""
    h = length // 2
    return h - h % UNROLL


@cuda.jit(device=True)
def _down(off, start, length):  # type: ignore[no-untyped-def]
    """One step down a block's tree toward position ``off``: the half of [start, start + length)
    that holds it, as (start, length)."""
    h = _half(length)
    if off < start + h:
        return start, h
    return start + h, length - h


@cuda.jit(device=True)
def _load(x, j, zero, nan_zero):  # type: ignore[no-untyped-def]
    """``x[j]``, or 0 for a NaN where ``nan_zero`` (pandas' ``nansum`` fills NaN with 0 first)."""
    v = x[j]
    if nan_zero != 0 and v != v:
        return zero
    return v


@cuda.jit(device=True)
def _leaf_sum(x, i, length, zero, nan_zero):  # type: ignore[no-untyped-def]
    """numpy's ``pairwise_sum`` of the leaf block x[i:i + length] (at most BLOCK values)."""
    if length < UNROLL:  # one after another, from 0
        res = zero
        for k in range(length):
            res += _load(x, i + k, zero, nan_zero)
        return res
    # eight accumulators, combined as a tree, then the rest one after another
    r0, r1 = _load(x, i, zero, nan_zero), _load(x, i + 1, zero, nan_zero)
    r2, r3 = _load(x, i + 2, zero, nan_zero), _load(x, i + 3, zero, nan_zero)
    r4, r5 = _load(x, i + 4, zero, nan_zero), _load(x, i + 5, zero, nan_zero)
    r6, r7 = _load(x, i + 6, zero, nan_zero), _load(x, i + 7, zero, nan_zero)
    k = UNROLL
    stop = length - length % UNROLL
    while k < stop:
        r0 += _load(x, i + k, zero, nan_zero)
        r1 += _load(x, i + k + 1, zero, nan_zero)
        r2 += _load(x, i + k + 2, zero, nan_zero)
        r3 += _load(x, i + k + 3, zero, nan_zero)
        r4 += _load(x, i + k + 4, zero, nan_zero)
        r5 += _load(x, i + k + 5, zero, nan_zero)
        r6 += _load(x, i + k + 6, zero, nan_zero)
        r7 += _load(x, i + k + 7, zero, nan_zero)
        k += UNROLL
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while k < length:
        res += _load(x, i + k, zero, nan_zero)
        k += 1
    return res


@cuda.jit(_TREE_SIGS)
def tree(x, work, arrived, bounds, group_of, m, chunk, step, shift, zero, ninf, nan_zero):  # type: ignore[no-untyped-def]
    """Each segment's pairwise sum into ``work`` at its first position (``>> shift``), in one launch.

    The thread at each leaf block's first position walks its segment's tree down from the
    segment's length (recording the blocks it passes), sums its leaf, then climbs: at each block
    above it counts itself in at the block's split position (``arrived``, zeroed before the
    launch; a split position belongs to one block only); the first of the two halves to arrive
    stops there, the second adds left half + right half into the left half's slot and climbs on.
    The additions are numpy's, whatever the order the threads finish in: the same bits every run.
    ``nan_zero`` (0 / 1): NaN read as 0 (a plain float column's sum: no ``nans_to_nulls`` pass first).
    The halves' sums are read by atomic max with -inf (``ninf``), whose returned value is the slot's
    bits as loaded from L2 - not a stale L1 line of another multiprocessor's write (no float
    arithmetic touches them; a NaN slot may become -inf, and no slot is read twice: the left one is
    overwritten with the sum, a split position is no segment's first); the fences order each write
    before the count that publishes it."""
    i = cuda.grid(1) * step
    if i >= m:
        return
    first, end = _segment(i, bounds, group_of, m, chunk)
    off = i - first
    if off % UNROLL != 0:
        return
    start, length = int64(0), end - first
    while length > BLOCK:  # down the tree to the leaf holding ``off``, in registers
        start, length = _down(off, start, length)
    if start != off:
        return  # not a leaf's first position (most threads): no path recorded
    # the leaf's thread walks down again, recording the blocks above it for the climb (local
    # memory: recorded by every thread, it was most of the launch's memory traffic)
    starts = cuda.local.array(MAX_DEPTH, int64)
    lengths = cuda.local.array(MAX_DEPTH, int64)
    start, length = int64(0), end - first
    d = 0
    while length > BLOCK:
        starts[d] = start
        lengths[d] = length
        start, length = _down(off, start, length)
        d += 1
    work[i >> shift] = _leaf_sum(x, i, length, zero, nan_zero)
    while d > 0:
        d -= 1
        left = first + starts[d]
        split = left + _half(lengths[d])
        cuda.threadfence()
        if cuda.atomic.add(arrived, split >> shift, 1) == 0:
            return  # the other half is not done: its thread climbs on
        cuda.threadfence()
        a = cuda.atomic.max(work, left >> shift, ninf)
        b = cuda.atomic.max(work, split >> shift, ninf)
        work[left >> shift] = a + b


@cuda.jit(_GATHER_SIGS)
def firsts(work, bounds, nseg, shift, sums):  # type: ignore[no-untyped-def]
    """Each run's sum (at its first slot of ``work``) into ``sums[g]``: one thread per run, so
    that ``fold`` reads them in a row."""
    g = cuda.grid(1)
    if g < nseg:
        sums[g] = work[bounds[g] >> shift]


def _make_fold(vtype, sig):  # type: ignore[no-untyped-def]
    """``fold`` for one value type (a shared array's type is a compile-time constant)."""

    @cuda.jit(sig)
    def fold(work, nseg, chunk, shift, zero, out):  # type: ignore[no-untyped-def]
        """The segments' sums added one after another from 0, in position order (numpy's reduction
        adds each inner loop's pairwise sum into its result), by thread 0 of one block. The sums are
        at ``work[(g * chunk) >> shift]`` (``chunk > 0``) or in a row (``chunk == 0``: ``firsts``
        gathered them). The block stages them in shared memory, ``TILE`` at a time, with coalesced
        loads, so the one adding thread reads shared memory instead of waiting on each global load:
        a million runs' sums (a nullable column with 10% missing) took 24 ms one load at a time."""
        buf = cuda.shared.array(TILE, vtype)
        t = cuda.threadIdx.x
        res = zero
        base = int64(0)
        while base < nseg:
            n = nseg - base
            if n > TILE:
                n = TILE
            k = t
            while k < n:
                g = base + k
                buf[k] = work[g] if chunk == 0 else work[(g * chunk) >> shift]
                k += cuda.blockDim.x
            cuda.syncthreads()
            if t == 0:
                j = 0
                while j + 8 <= n:
                    res += buf[j]
                    res += buf[j + 1]
                    res += buf[j + 2]
                    res += buf[j + 3]
                    res += buf[j + 4]
                    res += buf[j + 5]
                    res += buf[j + 6]
                    res += buf[j + 7]
                    j += 8
                while j < n:
                    res += buf[j]
                    j += 1
            cuda.syncthreads()
            base += TILE
        if t == 0:
            out[0] = res

    return fold


FOLDS = {
    "float64": _make_fold(float64, "void(float64[::1], int64, int64, int64, float64, float64[::1])"),
    "float32": _make_fold(float32, "void(float32[::1], int64, int64, int64, float32, float32[::1])"),
}


def _make_small(vtype, sig):  # type: ignore[no-untyped-def]
    """``small`` for one value type (a local array's type is a compile-time constant)."""

    @cuda.jit(sig)
    def small(x, out, m, zero, nan_zero):  # type: ignore[no-untyped-def]
        """The sum of a short column (one segment, ``pairwise.SMALL`` values at most) from 0 by one thread,
        in one launch and with no scratch: numpy's tree walked with a stack (a block is expanded
        into its halves, left first, then their sums added), its leaves summed by ``_leaf_sum``.
        The additions are ``tree``'s; what it saves is the second launch and the scratch columns,
        most of a small sum's cost (a checksum of a 100-row answer)."""
        if cuda.grid(1) != 0:
            return
        starts = cuda.local.array(STACK, int64)
        lengths = cuda.local.array(STACK, int64)  # -1: add the two sums on top of ``vals``
        vals = cuda.local.array(STACK, vtype)
        top = 0
        nv = 0
        starts[0] = 0
        lengths[0] = m
        top = 1
        while top > 0:
            top -= 1
            start, length = starts[top], lengths[top]
            if length < 0:
                nv -= 1
                vals[nv - 1] = vals[nv - 1] + vals[nv]
            elif length <= BLOCK:
                vals[nv] = _leaf_sum(x, start, length, zero, nan_zero)
                nv += 1
            else:
                h = _half(length)
                lengths[top] = -1  # after both halves
                starts[top + 1] = start + h
                lengths[top + 1] = length - h
                starts[top + 2] = start
                lengths[top + 2] = h
                top += 3
        out[0] = zero + vals[0] if m > 0 else zero

    return small


STACK = 64  # ``small``'s stack: 2 entries per level of its tree (~log2(pairwise.SMALL / 128) = 7) plus one
SMALLS = {
    "float64": _make_small(float64, "void(float64[::1], float64[::1], int64, float64, int64)"),
    "float32": _make_small(float32, "void(float32[::1], float32[::1], int64, float32, int64)"),
}
