"""The numba kernels of the CPU engine's ordered group-by pass (``kernels._ordered_aggregate``).

Their own module, imported at the first group-by that needs them (numba costs ~0.3 s to import),
and compiled with ``cache=True``: the machine code is kept on disk (beside this file, or in numba's
per-user cache directory where this one is read-only), so only the first process on a machine pays
the ~1 s compilation, not every script's first group-by.
"""
from __future__ import annotations

from typing import Any

import numba
import numpy as np


@numba.njit(nogil=True, cache=True)
def first_and_size(code: Any, groups: int) -> Any:
    n = len(code)
    first = np.full(groups, n, dtype=np.int64)
    size = np.zeros(groups, dtype=np.int64)
    for i in range(n):
        g = code[i]
        if size[g] == 0:
            first[g] = i
        size[g] += 1
    return first, size


@numba.njit(nogil=True, cache=True)
def group_pass(code: Any, groups: int, x: Any) -> Any:
    # pandas' group_sum / group_mean (Kahan), group_var (Welford), group_prod, in float64, row order
    nobs = np.zeros(groups, dtype=np.int64)
    total = np.zeros(groups)
    comp = np.zeros(groups)
    mean = np.zeros(groups)
    m2 = np.zeros(groups)
    prod = np.ones(groups)
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            nobs[g] += 1
            prod[g] *= v
            y = v - comp[g]
            t = total[g] + y
            c = t - total[g] - y
            comp[g] = c if c == c else 0.0  # an infinite value: no compensation (pandas)
            total[g] = t
            old = mean[g]
            mean[g] = old + (v - old) / nobs[g]
            m2[g] += (v - mean[g]) * (v - old)
    return nobs, total, m2, prod


@numba.njit(nogil=True, cache=True)
def int_sum(code: Any, groups: int, x: Any) -> Any:
    out = np.zeros(groups, dtype=np.int64)
    for i in range(len(code)):
        out[code[i]] += x[i]
    return out


@numba.njit(nogil=True, cache=True)
def factorize(k: Any) -> Any:
    # exact: an open-addressing table of the 64-bit values themselves (value and number side
    # by side: one cache line a probe), numbered by first row; it starts small and doubles,
    # so it stays in cache while the groups are few
    n = len(k)
    mult = np.uint64(0x9E3779B97F4A7C15)
    shift = np.uint64(40)
    cap = 1024
    table = np.full(2 * cap, -1, np.int64)  # [2j]: the value's bits, [2j + 1]: its number
    out = np.empty(n, np.int64)
    groups = 0
    for i in range(n):
        x = k[i]
        xi = np.int64(x)
        j = np.int64((x * mult) >> shift) & (cap - 1)
        while True:
            s = table[2 * j + 1]
            if s < 0:
                if 2 * (groups + 1) > cap:  # grow (at half full): into a table twice as large
                    ncap = cap * 2
                    new = np.full(2 * ncap, -1, np.int64)
                    for q in range(cap):
                        if table[2 * q + 1] >= 0:
                            jj = np.int64((np.uint64(table[2 * q]) * mult) >> shift) & (ncap - 1)
                            while new[2 * jj + 1] >= 0:
                                jj = (jj + 1) & (ncap - 1)
                            new[2 * jj] = table[2 * q]
                            new[2 * jj + 1] = table[2 * q + 1]
                    table, cap = new, ncap
                    j = np.int64((x * mult) >> shift) & (cap - 1)
                    continue
                table[2 * j] = xi
                table[2 * j + 1] = groups
                out[i] = groups
                groups += 1
                break
            if table[2 * j] == xi:
                out[i] = s
                break
            j = (j + 1) & (cap - 1)
    return out, groups


@numba.njit(nogil=True, cache=True)
def group_pass32(code: Any, groups: int, x: Any) -> Any:
    # pandas' float32 group_sum (Kahan) and group_var (Welford) in float32 accumulators, row order;
    # the mean is that sum / count in float32 (``kernels._ordered_aggregate``)
    f32 = np.float32
    nobs = np.zeros(groups, dtype=np.int64)
    total = np.zeros(groups, dtype=np.float32)
    comp = np.zeros(groups, dtype=np.float32)
    mean = np.zeros(groups, dtype=np.float32)
    m2 = np.zeros(groups, dtype=np.float32)
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            nobs[g] += 1
            y = f32(v - comp[g])
            t = f32(total[g] + y)
            c = f32(f32(t - total[g]) - y)
            comp[g] = c if c == c else f32(0.0)  # an infinite value: no compensation (pandas)
            total[g] = t
            old = mean[g]
            mean[g] = f32(old + f32(f32(v - old) / f32(nobs[g])))
            m2[g] = f32(m2[g] + f32(f32(v - mean[g]) * f32(v - old)))
    return nobs, total, m2
