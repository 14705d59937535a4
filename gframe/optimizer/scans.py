"""Scan rewrites: let the reader number the rows.

``df[df.x > t]`` on a parquet file keeps the rows' positions as its index, so the plan is
``Filter(RowIndex(ParquetScan))`` and a filter must not cross ``RowIndex`` (positions would change).
Polars' reader can number the file's rows itself, before its own filter, so
``RowIndex(ParquetScan)`` becomes ``ParquetScan(row_index=True)`` and the filter can then move into
the reader (row-group skipping) with positions still exact.
"""
from __future__ import annotations

from gframe.optimizer._util import with_fields
from gframe.plan import logical as L
from gframe.plan.traversal import transform


def _rewrite(out: L.Plan) -> L.Plan:
    if isinstance(out, L.RowIndex) and isinstance(out.child, L.ParquetScan):
        scan = out.child
        if not scan.row_index and scan.predicate is None and scan.n_rows is None and scan.file_schema.index is None:
            out = with_fields(scan, row_index=True)
    return out


def scan_row_index(plan: L.Plan) -> L.Plan:
    """Fold ``RowIndex`` into the parquet scan below it."""
    return transform(plan, _rewrite)
