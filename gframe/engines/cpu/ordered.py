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


# --------------------------------------------------------------------------- cpuperf: cheaper passes
# The kernels below give the same bits as ``group_pass`` / ``factorize`` (the same arithmetic, in
# the same row order, or the same numbering), for less work: a pass computes only the moments its
# aggregations read, and many groups are numbered through cache-sized partitions.


@numba.njit(nogil=True, cache=True)
def sum_pass(code: Any, groups: int, x: Any) -> Any:
    # ``group_pass``' count and Kahan sum alone (sums, means, counts): its arithmetic, line by line
    nobs = np.zeros(groups, dtype=np.int64)
    total = np.zeros(groups)
    comp = np.zeros(groups)
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            nobs[g] += 1
            y = v - comp[g]
            t = total[g] + y
            c = t - total[g] - y
            comp[g] = c if c == c else 0.0
            total[g] = t
    return nobs, total


@numba.njit(nogil=True, cache=True)
def var_pass(code: Any, groups: int, x: Any) -> Any:
    # ``group_pass``' count and Welford variance alone (variances, standard deviations, counts)
    nobs = np.zeros(groups, dtype=np.int64)
    mean = np.zeros(groups)
    m2 = np.zeros(groups)
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            nobs[g] += 1
            old = mean[g]
            mean[g] = old + (v - old) / nobs[g]
            m2[g] += (v - mean[g]) * (v - old)
    return nobs, m2


@numba.njit(nogil=True, cache=True)
def factorize_small(k: Any, limit: int) -> Any:
    # ``factorize`` while the groups stay at most ``limit`` (its table in cache); (codes, -1) past it
    n = len(k)
    mult = np.uint64(0x9E3779B97F4A7C15)
    shift = np.uint64(40)
    cap = 1024
    while cap < 2 * limit:
        cap *= 2
    table = np.full(2 * cap, -1, np.int64)
    out = np.empty(n, np.int64)
    groups = 0
    for i in range(n):
        x = k[i]
        xi = np.int64(x)
        j = np.int64((x * mult) >> shift) & (cap - 1)
        while True:
            s = table[2 * j + 1]
            if s < 0:
                if groups == limit:
                    return out, -1
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
def factorize_partitioned(k: Any, bits: int) -> Any:
    # ``factorize``'s numbering (first appearance) for many groups: the rows are split by the top
    # ``bits`` bits of their hash into partitions (stably: each keeps row order), each partition
    # numbered with a table that fits in cache, then the groups renumbered in order of their first
    # row - a linear scan, no sort. ~5x faster than one table of 1e7 groups (a cache miss a row).
    n = len(k)
    mult = np.uint64(0x9E3779B97F4A7C15)
    top = np.uint64(64 - bits)
    parts = 1 << bits
    start = np.zeros(parts + 1, np.int64)
    for i in range(n):
        start[np.int64((k[i] * mult) >> top) + 1] += 1
    most = 0
    for p in range(parts):
        most = max(most, start[p + 1])
        start[p + 1] += start[p]
    perm = np.empty(n, np.int64)
    fill = start[:parts].copy()
    for i in range(n):
        p = np.int64((k[i] * mult) >> top)
        perm[fill[p]] = i
        fill[p] += 1
    cap = 16
    while cap < 2 * most:
        cap *= 2
    table = np.full(2 * cap, -1, np.int64)
    local = np.empty(n, np.int64)  # each row's group, in partition order
    first = np.empty(n, np.int64)  # each group's first row
    groups = 0
    up = np.uint64(bits)
    for p in range(parts):
        a, b = start[p], start[p + 1]
        pcap, pbits = 16, 4
        while pcap < 2 * (b - a):
            pcap *= 2
            pbits += 1
        down = np.uint64(64 - pbits)  # the hash's bits just below the partition's
        for j in range(2 * pcap):
            table[j] = -1
        for r in range(a, b):
            x = k[perm[r]]
            xi = np.int64(x)
            j = np.int64(((x * mult) << up) >> down)
            while True:
                s = table[2 * j + 1]
                if s < 0:
                    table[2 * j] = xi
                    table[2 * j + 1] = groups
                    first[groups] = perm[r]
                    local[r] = groups
                    groups += 1
                    break
                if table[2 * j] == xi:
                    local[r] = s
                    break
                j = (j + 1) & (pcap - 1)
    mark = np.full(n, -1, np.int64)
    for g in range(groups):
        mark[first[g]] = g
    number = np.empty(groups, np.int64)
    seen = 0
    for i in range(n):
        if mark[i] >= 0:
            number[mark[i]] = seen
            seen += 1
    out = np.empty(n, np.int64)
    for r in range(n):
        out[perm[r]] = number[local[r]]
    return out, groups


@numba.njit(nogil=True, cache=True)
def count_values(code: Any, groups: int, x: Any) -> Any:
    # each group's number of values (NaN, the missing value, not counted)
    nobs = np.zeros(groups, dtype=np.int64)
    for i in range(len(code)):
        if x[i] == x[i]:
            nobs[code[i]] += 1
    return nobs


@numba.njit(nogil=True, cache=True)
def bucket_values(code: Any, groups: int, x: Any, nobs: Any) -> Any:
    # each group's values side by side in row order (missing ones left out): group g's are
    # buf[start[g]:start[g + 1]], given the groups' value counts ``nobs``
    start = np.zeros(groups + 1, dtype=np.int64)
    for g in range(groups):
        start[g + 1] = start[g] + nobs[g]
    buf = np.empty(start[groups])
    fill = start[:groups].copy()
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            buf[fill[g]] = v
            fill[g] += 1
    return start, buf


@numba.njit(nogil=True, cache=True)
def group_median(code: Any, groups: int, x: Any, rows: Any, complete: bool) -> Any:
    # pandas' group median (``median_linear``): missing values skipped, the middle value, or for an
    # even count (upper middle + lower middle) / 2; each group's values bucketed by a counting
    # pass (none where ``complete``: no value missing, so the groups' row counts ``rows``), then
    # selected in linear time (``kth_smallest``, no sort). NaN for a group without values.
    nobs = rows.copy() if complete else count_values(code, groups, x)  # (a writable array either way)
    start, buf = bucket_values(code, groups, x, nobs)
    out = np.empty(groups)
    for g in range(groups):
        m = nobs[g]
        if m == 0:
            out[g] = np.nan
            continue
        a = start[g]
        h = a + m // 2
        kth_smallest(buf, a, a + m, h)  # in place: buf[h] the middle value, smaller ones before it
        upper = buf[h]
        if m % 2:
            out[g] = upper
        else:
            lower = buf[a]
            for q in range(a + 1, h):
                lower = max(lower, buf[q])
            out[g] = (upper + lower) / 2
    return out


@numba.njit(nogil=True, cache=True)
def kth_smallest(a: Any, lo: int, hi: int, k: int) -> None:
    # a[lo:hi] rearranged in place so that a[k] is its (k - lo)-th smallest value, those before it
    # no larger (no NaN here). Branchless Lomuto partitions (the swap unconditional, the count
    # advanced by the comparison: 3x faster than np.partition's branches on random values) around
    # a median of three; a second pass splits off the values equal to the pivot, so duplicates end
    # the search. Past ~2 log2(n) rounds (inputs built against the pivot rule) a stable sort ends it.
    rounds = 0
    limit = 2 * int(np.log2(hi - lo + 1)) + 8
    while hi - lo > 16:
        rounds += 1
        if rounds > limit:
            order = np.argsort(a[lo:hi], kind="mergesort")
            a[lo:hi] = a[lo:hi][order]
            return
        mid = (lo + hi) >> 1
        x0, x1, x2 = a[lo], a[mid], a[hi - 1]
        p = max(min(x0, x1), min(max(x0, x1), x2))
        s = lo
        for i in range(lo, hi):  # [lo, s): < p
            x = a[i]
            a[i] = a[s]
            a[s] = x
            s += x < p
        if k < s:
            hi = s
            continue
        e = s
        for i in range(s, hi):  # [s, e): == p (p itself among them, so e > s)
            x = a[i]
            a[i] = a[e]
            a[e] = x
            e += x <= p
        if k < e:
            return
        lo = e
    for i in range(lo + 1, hi):  # a few left: insertion sort
        x = a[i]
        j = i - 1
        while j >= lo and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


# --------------------------------------------------------------------------- extremes
@numba.njit(nogil=True, cache=True)
def group_extreme(code: Any, groups: int, x: Any, largest: bool) -> Any:
    # pandas' group_min / group_max: missing values (NaN) skipped, a value replaces the one kept only
    # when strictly smaller (larger) - so of -0.0 and 0.0 the first seen stays, as in pandas. Returns
    # the values (in x's type) and which groups had one (the caller puts NaN where none).
    seen = np.zeros(groups, dtype=np.bool_)
    out = np.empty(groups, dtype=x.dtype)
    for i in range(len(code)):
        v = x[i]
        if v == v:
            g = code[i]
            if not seen[g]:
                seen[g] = True
                out[g] = v
            elif (v > out[g]) if largest else (v < out[g]):
                out[g] = v
    return out, seen
