"""Order-deterministic group aggregations over few, large groups, without sorting the rows.

The GPU engine's float group sums, means and variances must give the same bits every run (issue
9), so they do not use libcudf's hash group-by (atomic adds, in whatever order threads arrive):
``kernels.SortedGroups`` puts the rows in runs of one group (a radix sort of a hash of the keys)
and reduces each run in a fixed order. For TPC-H q1 - 4 groups of 15 million rows - that layout
is most of the cost: the sort and the gathers of every value column into run order took ~110 of
q1's ~140 ms group-by at sf10 on the H100 (``benchmarks/profiles/tpch_nodes.py --every-plan``).

With few groups there is a cheaper fixed order: one device-wide reduction per group and column,
over the whole column with the other groups' rows replaced by the operation's identity
(``copy_if_else(x, 0.0, in_group)``). libcudf's reduction is CUB's, whose tree is fixed by the
column's length alone, so each group's sum has the same bits every run; nothing is sorted or
gathered. Each group is found as the rows whose 64-bit key hash equals its first row's hash,
where the keys have as many distinct rows as distinct hashes (two keys sharing a hash, or a NaN
key, send the group-by to the sorted layout). The groups come out in the order the
key-sorted hash group-by gives them (``kernels.sort_table`` over the groups' keys), the layout the
Aggregate kernel's generic path expects of ``SortedGroups`` with ``hashed=False``.

Cost: per group and value column, two passes over the column (select, reduce), instead of a
sort of all rows and a random gather per column: chosen for at most ``MAX_GROUPS`` groups over at
least ``MIN_ROWS`` rows. A different order than ``SortedGroups``' chunked sums gives other last
bits (within 1e-12 relative of each other and of pandas), and which path runs depends on the data
alone (the number of distinct keys and rows), so a query's result is the same every run.
"""
from __future__ import annotations

import os
from typing import Any, Sequence

import pyarrow as pa

from gframe.engines.gpu import groupcodes
from gframe.engines.gpu.convert import plc_type, scalar
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.table import GpuTable

BOOL, I32, I64, F64 = pa.bool_(), pa.int32(), pa.int64(), pa.float64()
MAX_GROUPS = 8
MIN_ROWS = 1 << 20
ENV = "GFRAME_GPU_FEWGROUPS"
# what ``MaskedGroups.aggregate`` computes (the others - medians - need the sorted runs)
AGGREGATIONS = frozenset({"sum", "mean", "var", "std", "prod"})


def enabled() -> bool:
    """Whether few large groups reduce by masked reductions (default), read at each use so one
    process can time both ways (``GFRAME_GPU_FEWGROUPS=0``: always the sorted runs)."""
    return os.environ.get(ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def hashes(keys: Sequence[Any], n: int) -> Any:
    """The rows' key hashes (``groupcodes.row_hashes``) where ``find`` will look at them, else None:
    computed once, for ``find`` and, where it declines, the sorted runs (``SortedGroups``)."""
    if n < MIN_ROWS or not keys or not enabled() or not groupcodes.enabled():
        return None
    return groupcodes.row_hashes(keys, n)


def find(keys: Sequence[Any], n: int, sort_keys: Any, h: Any) -> "MaskedGroups | None":
    """The groups of ``n`` rows by ``keys`` as masks, where there are at most ``MAX_GROUPS`` of
    them over at least ``MIN_ROWS`` rows and the key hash tells them apart; else None.

    ``sort_keys(table, keys)``: the Aggregate kernel's sort of its output groups by their keys,
    applied to the groups' first rows so the masks come in that order. ``h``: ``hashes(keys, n)``
    (None: not considered)."""
    if h is None:
        return None
    nulls, nans = plc.types.NullPolicy.INCLUDE, plc.types.NanPolicy.NAN_IS_VALID
    count = int(plc.reduce.distinct_count(h, nulls, nans))  # a host int: this kernel's bookkeeping
    if count > MAX_GROUPS:
        return None
    # each distinct hash's first row (KEEP_FIRST: the smallest row position, the same every run)
    firsts = plc.stream_compaction.distinct_indices(
        plc.Table([h]), plc.stream_compaction.DuplicateKeepOption.KEEP_FIRST,
        plc.types.NullEquality.EQUAL, plc.types.NanEquality.ALL_EQUAL)
    first_keys = plc.copying.gather(plc.Table(list(keys)), firsts, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()
    t = sort_keys(GpuTable(["__gf_first"] + [f"k{i}" for i in range(len(keys))], [firsts, *first_keys], count),
                  first_keys)
    firsts = t.column("__gf_first")
    first_keys = [t.column(f"k{i}") for i in range(len(keys))]
    if _has_nan(keys) or _distinct_keys(keys) != count:
        return None  # two keys share a hash, or keys the hash tells apart that compare equal: the sorted runs
    ev = E.Evaluator(GpuTable([], [], n), lambda name: None)
    first_hashes = plc.copying.gather(plc.Table([h]), firsts, plc.copying.OutOfBoundsPolicy.DONT_CHECK).columns()[0]
    masks = [ev.binary("EQUAL", h, plc.copying.get_element(first_hashes, g), BOOL) for g in range(count)]
    return MaskedGroups(masks, firsts, first_keys, n)


def _has_nan(keys: Sequence[Any]) -> bool:
    """Whether a float key holds NaN (pandas' missing key): the sorted runs decide those groups."""
    for k in keys:
        if k.type().id() in (plc.types.TypeId.FLOAT32, plc.types.TypeId.FLOAT64):
            if plc.reduce.reduce(plc.unary.is_nan(k), plc.aggregation.any(), plc_type(BOOL)).to_py():
                return True
    return False


def _distinct_keys(keys: Sequence[Any]) -> int:
    """The number of distinct key rows (nulls equal). Equal keys always hash alike, so where there
    are as many distinct keys as distinct hashes, the hash tells the groups apart exactly: one
    counting pass over the keys instead of comparing every row with its group's keys (string
    keys made that check most of the masks' cost). A NaN key, or -0.0 next to 0.0, can only make
    the counts differ, which sends the group-by to the sorted runs."""
    return int(plc.reduce.distinct_count_table(plc.Table(list(keys)), plc.types.NullEquality.EQUAL))


class MaskedGroups:
    """Few groups as one row mask each, in key order: the ``SortedGroups`` interface the Aggregate
    kernel's generic path reads (``groups``, ``first_rows``, ``group_keys``, ``aggregate``)."""

    hashed = False  # groups in key order, as the sorted hash group-by's

    def __init__(self, masks: list[Any], first_rows: Any, first_keys: list[Any], n: int) -> None:
        self.masks = masks
        self.groups = len(masks)
        self.first_rows = first_rows
        self.first_keys = first_keys
        self.n = n
        self._sizes: Any = None

    def group_keys(self, keys: Sequence[Any]) -> list[Any]:
        return list(self.first_keys)

    def _sums(self, x: Any) -> Any:
        """Each group's sum of ``x`` (float64, no missing values): one reduction of the whole
        column per group, the other rows zero."""
        zero = scalar(0.0, F64)
        parts = [plc.Column.from_scalar(plc.reduce.reduce(plc.copying.copy_if_else(x, zero, m),
                                                          plc.aggregation.sum(), plc_type(F64)), 1)
                 for m in self.masks]
        return plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0]

    def _products(self, x: Any) -> Any:
        one = scalar(1.0, F64)
        parts = [plc.Column.from_scalar(plc.reduce.reduce(plc.copying.copy_if_else(x, one, m),
                                                          plc.aggregation.product(), plc_type(F64)), 1)
                 for m in self.masks]
        return plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0]

    def _count(self, present: Any | None) -> Any:
        """Each group's number of rows with a value (``present``; None: every row), as FLOAT64:
        integer sums, exact. The groups' sizes are counted once."""
        if present is None and self._sizes is not None:
            return self._sizes
        ev = E.Evaluator(GpuTable([], [], self.n), lambda name: None)
        parts = []
        for m in self.masks:
            sel = m if present is None else ev.binary("LOGICAL_AND", m, present, BOOL)
            parts.append(plc.Column.from_scalar(plc.reduce.reduce(plc.unary.cast(sel, plc_type(I64)),
                                                                  plc.aggregation.sum(), plc_type(I64)), 1))
        counts = E.cast(plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0], F64)
        if present is None:
            self._sizes = counts
        return counts

    def aggregate(self, ap: Any, ev: E.Evaluator) -> Any:
        """``ap`` (sum, prod, mean, var, std) per group in float64, the same bits every run, with
        ``SortedGroups.aggregate``'s conventions: a group without values gives 0 (sum), 1 (prod)
        or a missing value (0 / 0, NaN, made missing by the caller's ``fix``)."""
        x = E.cast(ap.values(ev), F64)
        fn = ap.fn
        if fn == "prod":
            return self._products(E.fill_null(x, 1.0))
        if fn == "sum":
            return self._sums(E.fill_null(x, 0.0))
        if x.null_count():
            present = plc.unary.is_valid(x)
            x0 = E.fill_null(x, 0.0)
            count = self._count(present)
        else:
            present, x0, count = None, x, self._count(None)
        gev = E.Evaluator(GpuTable([], [], self.groups), lambda name: None)
        total = self._sums(x0)
        mean = gev.binary("TRUE_DIV", total, count, F64)
        if fn == "mean":
            return mean
        # two passes, as SortedGroups: the squared deviations from each group's mean
        rev = E.Evaluator(GpuTable([], [], self.n), lambda name: None)
        zero = scalar(0.0, F64)
        parts = []
        for g, m in enumerate(self.masks):
            dev = rev.binary("SUB", x0, plc.copying.get_element(mean, g), F64)
            sq = rev.binary("MUL", dev, dev, F64)
            sel = m if present is None else rev.binary("LOGICAL_AND", m, present, BOOL)
            parts.append(plc.Column.from_scalar(plc.reduce.reduce(plc.copying.copy_if_else(sq, zero, sel),
                                                                  plc.aggregation.sum(), plc_type(F64)), 1))
        ssd = plc.concatenate.concatenate(parts) if len(parts) > 1 else parts[0]
        ddof = int(ap.a.param("ddof", 1))
        var = gev.binary("TRUE_DIV", ssd, gev.binary("SUB", count, E.Const(float(ddof), F64), F64), F64)
        few = gev.binary("LESS_EQUAL", count, E.Const(float(ddof), F64), BOOL)  # pandas: NaN
        var = plc.copying.copy_if_else(scalar(None, F64), var, few)
        return var if fn == "var" else plc.unary.unary_operation(var, plc.unary.UnaryOperator.SQRT)
