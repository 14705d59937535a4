"""Rows put in runs of one group each by a 64-bit hash of their keys, not by the keys themselves:
the layout of the GPU engine's order-deterministic group-bys (``kernels.SortedGroups``), found
without sorting by the keys.

``SortedGroups`` reduces the float aggregations (sums, means, variances, products) over a stable
order of the rows in which each group is a run, in an order fixed by each row's position in its
group (``kernels.SortedGroups._pairwise``). It used to sort the rows by the keys: libcudf's
comparison sort, which for a string key or several keys was most of the group-by's time (52 of
q3's 87 ms at 1e7 rows on the H100, ``benchmarks/profiles/gpu_groupby_phases.py``). But any stable
order in which each group is one run gives the same bits: within a run the rows keep their row
order (the sort is stable), and the chunked sums see only the rows' values and their positions
in the group, never where the run lies. So the rows are sorted by one UINT64 column, a hash of
their keys (libcudf's radix sort), and the runs are the hash's runs - checked against the keys
before use: two adjacent rows of one run must hold equal keys. Where they do not (two keys with
one hash; a NaN key, unequal to itself), ``hash_runs`` says so and the caller sorts by the keys
as before, which gives the same bits. Every step is a hash, a sort, a gather, an element-wise
operation, a stream compaction or a reduction of booleans: the same result every run.

``GFRAME_GPU_GROUPCODES=0`` turns the hashing off (the key sort everywhere), for A/B timings.
"""
from __future__ import annotations

import os
from typing import Any, Sequence

import pyarrow as pa

from gframe.engines.gpu.convert import col_type, plc_type, scalar
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.table import GpuTable

BOOL, I32, U64 = pa.bool_(), pa.int32(), pa.uint64()
ENV = "GFRAME_GPU_GROUPCODES"


def enabled() -> bool:
    """Whether group-bys find their runs by hashing the keys (the default), read at each use so
    that one process can time both ways (``GFRAME_GPU_GROUPCODES=0``: sort by the keys)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _sequence(n: int) -> Any:
    return plc.filling.sequence(n, scalar(0, I32), scalar(1, I32))


def _take(col: Any, gather_map: Any) -> Any:
    return plc.copying.gather(plc.Table([col]), gather_map, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]


def _where(mask: Any, n: int) -> Any:
    """The positions (INT32) where ``mask`` is true."""
    return plc.stream_compaction.apply_retention_mask(plc.Table([_sequence(n)]), mask).columns()[0]


def _hashable(col: Any, ev: Any) -> Any:
    """The column as its hash must see it: libcudf's xxhash_64 hashes a float's bits with NaNs made
    one but -0.0 apart from 0.0, which group together (pandas, libcudf's group-by): x + 0.0 is
    +0.0 for both, and every other value unchanged."""
    t = col_type(col)
    if pa.types.is_floating(t):
        return ev.binary("ADD", col, E.Const(0.0, t), t)
    return col


def row_hashes(keys: Sequence[Any], n: int) -> Any:
    """One UINT64 per row, equal for rows with equal keys (missing equal to missing)."""
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    cols = [_hashable(k, ev) for k in keys]
    if len(cols) > 1 and any(c.null_count() for c in cols):
        # libcudf's row hash starts over at a null element (its hash is 2**64 - 1, whatever came
        # before), so ("a", null) and ("b", null) would share one: hash each column alone, then
        # the row of those hashes (no nulls)
        cols = [plc.hashing.xxhash_64(plc.Table([c])) for c in cols]
    return plc.hashing.xxhash_64(plc.Table(cols))


def hash_runs(keys: Sequence[Any], n: int) -> tuple[Any, Any, Any] | None:
    """(order, start, starts) for the ``n`` rows (n >= 1) grouped by ``keys``: ``order`` the stable
    order of the rows by the hash of their keys (sorted position -> row), ``start`` whether each
    sorted position begins a group (BOOL8), ``starts`` those positions (INT32, one per group).
    None where two different keys share a hash (the caller then sorts by the keys)."""
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    h = row_hashes(keys, n)
    asc, last = plc.types.Order.ASCENDING, plc.types.NullOrder.AFTER
    order = plc.sorting.stable_sorted_order(plc.Table([h]), [asc], [last])
    hs = _take(h, order)
    same = ev.binary("NULL_EQUALS", hs, plc.copying.shift(hs, 1, scalar(None, U64)), BOOL)  # position 0: false
    start = plc.unary.unary_operation(same, plc.unary.UnaryOperator.NOT)
    starts = _where(start, n)
    if starts.size() < n and not _keys_agree(keys, order, same, n - starts.size(), n, ev):
        return None
    return order, start, starts


def _keys_agree(keys: Sequence[Any], order: Any, same: Any, pairs: int, n: int, ev: Any) -> bool:
    """Whether each two adjacent sorted rows with one hash (``same``; ``pairs`` of them) hold equal
    keys. Few such pairs (most groups one row, q10's six keys): only those rows' keys are gathered
    and compared. Many (q3: 100 rows a group; TPC-H q1: 4 groups of 15M rows): equal keys always
    hash alike, so the hash runs are the key groups exactly where the keys have as many distinct
    rows as there are runs (``n - pairs``): one counting pass over the keys, where gathering them
    into sorted order (strings most of all) cost several times more (q1 at 6e7 rows on the H100:
    22.5 ms, the count 6.8 ms). A NaN key (NaN hashes as one, compares unequal) sends the
    group-by to the sort by keys, as the comparison did, and so does any other way for the counts
    to differ."""
    if 2 * pairs >= n:
        return not _has_nan(keys) and _distinct_rows(keys) == n - pairs
    right = _where(same, n)
    lrows = _take(order, ev.binary("SUB", right, E.Const(1, I32), I32))
    rrows = _take(order, right)
    equal = None
    for k in keys:
        eq = ev.binary("NULL_EQUALS", _take(k, lrows), _take(k, rrows), BOOL)
        equal = eq if equal is None else ev.binary("LOGICAL_AND", equal, eq, BOOL)
    return bool(plc.reduce.reduce(equal, plc.aggregation.all(), plc_type(BOOL)).to_py())


def _has_nan(keys: Sequence[Any]) -> bool:
    """Whether a float key holds NaN."""
    return any(pa.types.is_floating(col_type(k))
               and plc.reduce.reduce(plc.unary.is_nan(k), plc.aggregation.any(), plc_type(BOOL)).to_py()
               for k in keys)


def _distinct_rows(keys: Sequence[Any]) -> int:
    """The number of distinct key rows, missing equal to missing."""
    return int(plc.reduce.distinct_count_table(plc.Table(list(keys)), plc.types.NullEquality.EQUAL))
