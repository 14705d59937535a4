"""The numba-cuda kernels of ``coded`` (the order they add in is described there, and modelled on
the host by ``coded.model_sums``). A module of its own so that numba is imported only at the first
coded group sum, and so that numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) finds ``cuda``
among the kernels' globals."""
from __future__ import annotations

import math

from numba import cuda, float64

from gframe.engines.gpu.coded import COMBINE, MAX_GROUPS


@cuda.jit(device=True)
def _two_sum(a, v):  # type: ignore[no-untyped-def]
    """a + v and its rounding error (Neumaier's step: the error from the larger operand's side)."""
    b = a + v
    if abs(a) >= abs(v):
        return b, (a - b) + v
    return b, (v - b) + a


@cuda.jit("void(uint64[::1], uint64[::1], int32[::1], int64)")
def codes(hashes, uniques, out, n):  # type: ignore[no-untyped-def]
    """Each row's group number: the position of its key hash among the groups' (at most
    ``MAX_GROUPS``, every row's hash is one of them)."""
    i = cuda.grid(1)
    if i < n:
        h = hashes[i]
        g = 0
        for k in range(uniques.shape[0]):
            if uniques[k] == h:
                g = k
        out[i] = g


@cuda.jit("void(int32[::1], float64[::1], float64[::1], float64[::1], int64, int64)")
def partial(codes, x, sums, comps, n, groups):  # type: ignore[no-untyped-def]
    """Thread t adds rows t, t + P, t + 2P, ... (P: the grid's threads) into its own accumulator of
    their group, compensated (Neumaier): sums[g * P + t] and comps[g * P + t]."""
    t = cuda.grid(1)
    parts = cuda.gridsize(1)
    s = cuda.local.array(MAX_GROUPS, float64)
    c = cuda.local.array(MAX_GROUPS, float64)
    for g in range(groups):
        s[g] = 0.0
        c[g] = 0.0
    i = t
    while i < n:
        g = codes[i]
        b, e = _two_sum(s[g], x[i])
        c[g] += e
        s[g] = b
        i += parts
    for g in range(groups):
        sums[g * parts + t] = s[g]
        comps[g * parts + t] = c[g]


@cuda.jit("void(float64[::1], float64[::1], float64[::1], int64)")
def combine(sums, comps, out, parts):  # type: ignore[no-untyped-def]
    """One block of ``COMBINE`` threads per group: thread j folds partials j, j + COMBINE, ... in
    order, then the block folds its threads' pairs in a fixed tree (stride COMBINE / 2 down to 1);
    the group's sum is s + c (s alone once it is not finite: inf and NaN absorb)."""
    g = cuda.blockIdx.x
    j = cuda.threadIdx.x
    ss = cuda.shared.array(COMBINE, float64)
    sc = cuda.shared.array(COMBINE, float64)
    acc = 0.0
    comp = 0.0
    k = j
    base = g * parts
    while k < parts:
        b, e = _two_sum(acc, sums[base + k])
        comp = (comp + comps[base + k]) + e
        acc = b
        k += COMBINE
    ss[j] = acc
    sc[j] = comp
    cuda.syncthreads()
    stride = COMBINE // 2
    while stride > 0:
        if j < stride:
            b, e = _two_sum(ss[j], ss[j + stride])
            sc[j] = (sc[j] + sc[j + stride]) + e
            ss[j] = b
        cuda.syncthreads()
        stride //= 2
    if j == 0:
        total = ss[0]
        out[g] = total + sc[0] if math.isfinite(total) else total
