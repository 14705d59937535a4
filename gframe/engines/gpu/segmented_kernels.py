"""The numba-cuda kernels of ``segmented`` (the fixed order is described there). A module of its
own so that numba is imported only at the first GPU group sum, and so that numba's CUDA simulator
(``NUMBA_ENABLE_CUDASIM=1``, the tests' way to run these without a GPU) finds ``cuda`` among the
kernels' globals, where it swaps in its own."""
from __future__ import annotations

from numba import cuda

from gframe.engines.gpu.segmented import FAN_IN


# explicit signatures: compiled once, when this module is imported (``segmented.unavailable_reason``),
# and a launch only checks its arguments against them (no type inference per call)
@cuda.jit("void(float64[::1], float64[::1], int32[::1], int32[::1], int32[::1], int64, int64)")
def level(src, dst, rank, group_of, bounds, n, stride):  # type: ignore[no-untyped-def]
    """One level: each head (rank a multiple of ``stride * FAN_IN``) adds up to ``FAN_IN`` values
    of its group, ``stride`` apart from its own position on, in order from 0.0, into ``dst`` at its
    position."""
    p = cuda.grid(1)
    if p >= n:
        return
    width = stride * FAN_IN
    r = rank[p]
    if r % width != 0:
        return
    g = group_of[p]
    left = bounds[g + 1] - bounds[g] - r  # rows of the group from this one on
    stop = p + (left if left < width else width)
    acc = 0.0
    q = p
    while q < stop:  # one value after another: the fixed order
        acc += src[q]
        q += stride
    dst[p] = acc


@cuda.jit("void(float64[::1], int32[::1], float64[::1])")
def pick(sums, bounds, out):  # type: ignore[no-untyped-def]
    """Each group's sum, at its first position (an empty group: 0.0)."""
    g = cuda.grid(1)
    if g < out.shape[0]:
        out[g] = sums[bounds[g]] if bounds[g + 1] > bounds[g] else 0.0
