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

from numba import cuda

from gframe.engines.gpu.pairwise import BLOCK, UNROLL

_SIGS = [
    "void(float64[::1], float64[::1], int64[::1], int32[::1], int64, int64, int64, int64, float64)",
    "void(float32[::1], float32[::1], int64[::1], int32[::1], int64, int64, int64, int64, float32)",
]
_COMBINE_SIGS = [
    "void(float64[::1], int64[::1], int32[::1], int64, int64, int64, int64, int64)",
    "void(float32[::1], int64[::1], int32[::1], int64, int64, int64, int64, int64)",
]
_FOLD_SIGS = [
    "void(float64[::1], int64[::1], int64, int64, int64, int64, float64, float64[::1])",
    "void(float32[::1], int64[::1], int64, int64, int64, int64, float32, float32[::1])",
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


@cuda.jit(_SIGS)
def leaf(x, work, bounds, group_of, m, chunk, step, shift, zero):  # type: ignore[no-untyped-def]
    """Each leaf block's sum (numpy's ``pairwise_sum`` of at most BLOCK values), by the thread at
    its first position, into ``work`` at that position (``>> shift``)."""
    i = cuda.grid(1) * step
    if i >= m:
        return
    first, end = _segment(i, bounds, group_of, m, chunk)
    off = i - first
    if off % UNROLL != 0:
        return
    start, length = 0, end - first
    while length > BLOCK:  # down the tree to the leaf holding ``off``
        h = _half(length)
        if off < start + h:
            length = h
        else:
            start += h
            length -= h
    if start != off:
        return
    if length < UNROLL:  # one after another, from 0
        res = zero
        for k in range(length):
            res += x[i + k]
    else:  # eight accumulators, combined as a tree, then the rest one after another
        r0, r1, r2, r3 = x[i], x[i + 1], x[i + 2], x[i + 3]
        r4, r5, r6, r7 = x[i + 4], x[i + 5], x[i + 6], x[i + 7]
        k = UNROLL
        stop = length - length % UNROLL
        while k < stop:
            r0 += x[i + k]
            r1 += x[i + k + 1]
            r2 += x[i + k + 2]
            r3 += x[i + k + 3]
            r4 += x[i + k + 4]
            r5 += x[i + k + 5]
            r6 += x[i + k + 6]
            r7 += x[i + k + 7]
            k += UNROLL
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while k < length:
            res += x[i + k]
            k += 1
    work[i >> shift] = res


@cuda.jit(_COMBINE_SIGS)
def combine(work, bounds, group_of, m, chunk, step, shift, level):  # type: ignore[no-untyped-def]
    """The blocks of more than BLOCK values at depth ``level`` of their segment's tree: the left
    half's sum plus the right half's, into the left half's slot (the halves are done: they are
    leaves, or were combined at the level below)."""
    i = cuda.grid(1) * step
    if i >= m:
        return
    first, end = _segment(i, bounds, group_of, m, chunk)
    off = i - first
    if off % UNROLL != 0:
        return
    start, length = 0, end - first
    d = 0
    while d < level:
        if length <= BLOCK:
            return  # a leaf above this level
        h = _half(length)
        if off < start + h:
            length = h
        else:
            start += h
            length -= h
        d += 1
    if length <= BLOCK or start != off:
        return
    work[i >> shift] = work[i >> shift] + work[(i + _half(length)) >> shift]


@cuda.jit(_FOLD_SIGS)
def fold(work, bounds, nseg, m, chunk, shift, zero, out):  # type: ignore[no-untyped-def]
    """One thread: the segments' sums added one after another from 0, in position order (numpy's
    reduction adds each inner loop's pairwise sum into its result)."""
    if cuda.grid(1) != 0:
        return
    res = zero
    for g in range(nseg):
        first = g * chunk if chunk > 0 else bounds[g]
        res += work[first >> shift]
    out[0] = res
