"""Few groups of many rows (TPC-H q1: 4 groups of 15 million rows): each row's group number from a
hash of its keys, and the groups' float sums read straight from the rows in a fixed order - no
sort, no gather of the values into runs.

Why: the order-deterministic group-by (``kernels.SortedGroups``) puts the rows in runs of one group
each (a radix sort of 60 million key hashes, then a gather of every value column) and sums each run
level by level: 130-140 ms of q1's Aggregate at sf10 on the H100, for 4 groups. A pass that reads
each value once and adds it into its group's accumulator costs a few milliseconds - but libcudf's
hash group-by adds with atomics, in whatever order threads arrive, so its float sums change in their
last bits run to run (issue 9). Here the order is fixed by the row positions alone:

- ``partial``: thread t of P = ``PARTS`` adds rows t, t + P, t + 2P, ... (row order) into its own
  accumulator of their group, with Neumaier's compensation;
- ``combine``: per group, thread j of ``COMBINE`` folds partials j, j + COMBINE, ... in order, then a
  fixed tree folds the threads' pairs; the sum is s + c.

The same bits every run, and compensated: the result is within a few ulps of the exact sum (pandas'
group sums are Kahan-compensated too), closer to pandas than an uncompensated order. It is not the
runs' order (``segmented``), so a group-by that takes this path and one that does not may differ in
the last bits; which one runs depends on the data alone (the number of groups and rows).

The group numbers: the keys' row hash (``groupcodes.row_hashes``), its distinct values (at most
``MAX_GROUPS``, found by ``distinct_indices``, which also gives each group's first row), sorted; a
row's number is its hash's position among them. Two keys sharing a hash would merge two groups:
as in ``groupcodes``, the distinct key rows are counted and must equal the distinct hashes, and a
NaN key (hashed as one, unequal to itself) declines the path.

On the device the two steps are numba-cuda kernels (``coded_kernels``); without numba-cuda or a
device, and over the host stand-in for pylibcudf, ``model_sums`` computes the same order with numpy,
which is also the kernels' specification (tests compare the two bit for bit in numba's simulator).
``GFRAME_GPU_CODED=0`` turns the path off (for A/B timings)."""
from __future__ import annotations

import functools
import os
from typing import Any, Sequence

import numpy as np
import pyarrow as pa

ENV = "GFRAME_GPU_CODED"
MAX_GROUPS = 32  # accumulators per thread (a local array): more groups take the runs
MIN_ROWS = 1 << 17  # fewer rows: the runs are cheap, and the well-trodden path
SAMPLE = 1 << 16  # rows whose distinct hashes are counted first: more than MAX_GROUPS there ends it
BLOCKS, THREADS = 1024, 128
PARTS = BLOCKS * THREADS  # threads of ``partial``: its partial sums per group
COMBINE = 1024  # threads per group in ``combine``


def enabled() -> bool:
    """Whether few-group float sums take this path (default), read at each use so one process can
    time both ways."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _device() -> bool:
    from gframe.engines.gpu.lib import plc

    return not getattr(plc, "__host_stand_in__", False) and unavailable_reason() is None


@functools.cache
def unavailable_reason() -> str | None:
    """None where the kernels build on a device, else why not (the host model runs instead)."""
    from gframe.engines.gpu.numba_cuda import device_reason

    reason = device_reason()
    if reason is not None:
        return reason
    try:
        from gframe.engines.gpu import coded_kernels  # noqa: F401 - compiles the kernels
    except Exception as exc:  # noqa: BLE001 - numba-cuda's compiler / driver fails in many types
        return f"numba-cuda cannot build the coded sums ({type(exc).__name__}: {' '.join(str(exc).split())[:200]})"
    return None


# ----------------------------------------------------------------------------- the host model

def _two_sum(a: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(a + v, the rounding error of that addition), elementwise, as the kernels (Neumaier)."""
    b = a + v
    return b, np.where(np.abs(a) >= np.abs(v), (a - b) + v, (v - b) + a)


def model_partial(codes: np.ndarray, x: np.ndarray, groups: int, parts: int = PARTS) -> tuple[np.ndarray, np.ndarray]:
    """``coded_kernels.partial`` on the host: (sums, comps), each ``groups * parts`` long."""
    n = len(x)
    rows = -(-n // parts)
    pad = rows * parts - n
    cs = np.concatenate([np.asarray(codes, np.int64), np.full(pad, -1, np.int64)]).reshape(rows, parts)
    xs = np.concatenate([np.asarray(x, np.float64), np.zeros(pad)]).reshape(rows, parts)
    s = np.zeros((groups, parts))
    c = np.zeros((groups, parts))
    with np.errstate(invalid="ignore", over="ignore"):
        for r in range(rows):  # (the kernel's threads, one row of each at a time)
            for g in range(groups):
                m = cs[r] == g
                b, e = _two_sum(s[g], xs[r])
                s[g] = np.where(m, b, s[g])
                c[g] = np.where(m, c[g] + e, c[g])
    return s.reshape(-1), c.reshape(-1)


def model_combine(sums: np.ndarray, comps: np.ndarray, groups: int, parts: int = PARTS) -> np.ndarray:
    """``coded_kernels.combine`` on the host: each group's sum."""
    out = np.zeros(groups)
    with np.errstate(invalid="ignore", over="ignore"):
        for g in range(groups):
            ps, pc = sums[g * parts:(g + 1) * parts], comps[g * parts:(g + 1) * parts]
            acc, comp = np.zeros(COMBINE), np.zeros(COMBINE)
            for k in range(0, parts, COMBINE):  # thread j: partials j, j + COMBINE, ... in order
                live = min(COMBINE, parts - k)
                b, e = _two_sum(acc[:live], ps[k:k + live])
                comp[:live] = (comp[:live] + pc[k:k + live]) + e
                acc[:live] = b
            stride = COMBINE // 2
            while stride > 0:  # the fixed tree
                b, e = _two_sum(acc[:stride], acc[stride:2 * stride])
                comp[:stride] = (comp[:stride] + comp[stride:2 * stride]) + e
                acc[:stride] = b
                stride //= 2
            out[g] = acc[0] + comp[0] if np.isfinite(acc[0]) else acc[0]
    return out


def model_sums(codes: np.ndarray, x: np.ndarray, groups: int, parts: int = PARTS) -> np.ndarray:
    """Each group's sum of ``x`` (float64, no missing values) in the kernels' order, on the host."""
    s, c = model_partial(codes, x, groups, parts)
    return model_combine(s, c, groups, parts)


# ----------------------------------------------------------------------------- group numbers and sums

def find(keys: Sequence[Any], n: int) -> tuple[Any, Any, int] | None:
    """(each row's group number (INT32), each group's first row (INT32), groups) for ``n`` rows
    grouped by ``keys``, the groups in the order of their key hashes; None where the path does not
    apply: off, too few rows, more than ``MAX_GROUPS`` groups (a sample of ``SAMPLE`` rows tells
    most such inputs apart cheaply), a NaN key, two keys with one hash, or no kernels."""
    from gframe.engines.gpu import groupcodes
    from gframe.engines.gpu.lib import plc

    stand_in = getattr(plc, "__host_stand_in__", False)
    if not enabled() or n < MIN_ROWS or not (stand_in or _device()):
        return None
    h = groupcodes.row_hashes(keys, n)
    head = plc.copying.slice(h, [0, min(n, SAMPLE)])[0]
    if plc.reduce.distinct_count(head, plc.types.NullPolicy.INCLUDE, plc.types.NanPolicy.NAN_IS_VALID) > MAX_GROUPS:
        return None
    first = plc.stream_compaction.distinct_indices(
        plc.Table([h]), plc.stream_compaction.DuplicateKeepOption.KEEP_FIRST, plc.types.NullEquality.EQUAL,
        plc.types.NanEquality.ALL_EQUAL)
    groups = first.size()
    if groups > MAX_GROUPS or groupcodes._has_nan(keys) or groupcodes._distinct_rows(keys) != groups:
        return None
    dont = plc.copying.OutOfBoundsPolicy.DONT_CHECK
    uniques = plc.copying.gather(plc.Table([h]), first, dont).columns()[0]
    order = plc.sorting.sorted_order(plc.Table([uniques]), [plc.types.Order.ASCENDING], [plc.types.NullOrder.AFTER])
    uniques, first = plc.copying.gather(plc.Table([uniques, first]), order, dont).columns()
    codes = _codes(h, uniques, n)
    return codes, first, groups


def _codes(h: Any, uniques: Any, n: int) -> Any:
    """Each row's position of its hash among ``uniques`` (sorted, all of the hashes), INT32."""
    from gframe.engines.gpu.convert import plc_type
    from gframe.engines.gpu.lib import plc

    if getattr(plc, "__host_stand_in__", False):
        pos = np.searchsorted(uniques.to_arrow().to_numpy(), h.to_arrow().to_numpy()).astype(np.int32)
        return plc.Column.from_arrow(pa.array(pos, pa.int32()))
    from gframe.engines.gpu import coded_kernels as K
    from gframe.engines.gpu.numba_cuda import array, launch

    out = plc.column_factories.make_fixed_width_column(plc_type(pa.int32()), n, plc.types.MaskState.UNALLOCATED)
    launch(K.codes, n, array(h, np.uint64), array(uniques, np.uint64), array(out, np.int32), n)
    return out


def group_sums(codes: Any, cols: list[Any], groups: int) -> list[Any]:
    """Each group's sum of each column (no missing values; any number type, added as float64 -
    exact for counts) in the module's fixed order, as FLOAT64 columns of ``groups`` rows."""
    from gframe.engines.gpu.convert import plc_type
    from gframe.engines.gpu.lib import plc

    f64 = plc_type(pa.float64())
    if getattr(plc, "__host_stand_in__", False):
        cs = codes.to_arrow().to_numpy()
        return [plc.Column.from_arrow(pa.array(model_sums(cs, c.to_arrow().to_numpy(zero_copy_only=False).astype(np.float64),
                                                          groups), pa.float64())) for c in cols]
    from gframe.engines.gpu import coded_kernels as K
    from gframe.engines.gpu.numba_cuda import array, launch_grid

    state = plc.types.MaskState.UNALLOCATED
    n = codes.size()
    sums = plc.column_factories.make_fixed_width_column(f64, groups * PARTS, state)
    comps = plc.column_factories.make_fixed_width_column(f64, groups * PARTS, state)
    cv, sv, pv = array(codes, np.int32), array(sums, np.float64), array(comps, np.float64)
    out = []
    for c in cols:
        c = c if c.type() == f64 else plc.unary.cast(c, f64)
        res = plc.column_factories.make_fixed_width_column(f64, groups, state)
        launch_grid(K.partial, BLOCKS, THREADS, cv, array(c, np.float64), sv, pv, n, groups)
        launch_grid(K.combine, groups, COMBINE, sv, pv, array(res, np.float64), PARTS)
        out.append(res)
    return out
