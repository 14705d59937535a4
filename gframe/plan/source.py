"""Sources the user holds: converted to an engine's form once, kept for as long as the user's object.

A frame built from in-memory data (``InMemoryScan``) or read from a file (``ParquetScan`` with a
``FileSnapshot``) is asked the same questions again and again. Converting or uploading it per query
costs more than the query (150 ms to upload 1e7 rows against a 20 ms group-by), so each engine
keeps its converted form *on the source object itself* (``Resident.resident``). The plan node holds
the source, the user's frame holds the plan: the converted form lives exactly as long as something
the user holds can still scan it, and dies with it. No weak cache that a garbage collection or an
unrelated query can empty.

Files add snapshot semantics: a frame read with ``read_parquet`` shows what the file held at read
time. Before gframe itself overwrites a file that live frames still scan, ``preserve(path)`` reads
what the file holds into host memory for them; a change made by someone else is detected (size,
mtime) when a column not yet resident is read, and raises ``SourceChangedError``: never new data
silently.

This module is in the plan layer: it holds engine data opaquely (``node.Resident``), imports no
engine and reads no file format: ``io/parquet.py`` makes a snapshot with the file's footer and its
reader (``FileSnapshot(path, footer, reader)``), and the snapshot calls that reader. What it does to
the file itself is ``os.stat``, to tell a changed file.
"""
from __future__ import annotations

import datetime as _dt
import os
import threading
import weakref
from typing import Any, Callable

import pyarrow as pa

from gframe.errors import SourceChangedError
from gframe.plan.expr import BinOp, Col, Lit
from gframe.plan.node import Resident


# (path, file column names or None: all, row groups or None: all) -> an Arrow table
Reader = Callable[[str, "list[str] | None", "list[int] | None"], pa.Table]


def _stamp(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return (st.st_mtime_ns, st.st_size)


class FileSnapshot(Resident):
    """A file as the user read it: its path, version (mtime, size), footer, and what engines hold of it.

    Engines keep the file's columns here, per row group (``columns(engine)``: file column name ->
    {row group: engine column}, or {WHOLE: column} when all row groups were read at once), read on
    first use: a filter whose statistics rule out row groups still reads only the others, and a
    later query reads nothing it already has. ``read(names, groups)`` gives file columns as Arrow
    through ``reader(path, names or None, row groups or None)`` (from ``io/``: None means all);
    after ``preserve`` it serves them from the host copy instead of the file. ``metadata``: the
    file's footer as read (pyarrow ``FileMetaData``: row groups, sizes, statistics). Hashed by
    identity: two ``read_parquet`` calls are two sources.
    """

    __slots__ = ("path", "stamp", "metadata", "sizes", "starts", "_reader", "_host", "_resident", "_lock",
                 "__weakref__")

    def __init__(self, path: str, metadata: Any, reader: Reader) -> None:
        set_ = object.__setattr__
        set_(self, "path", os.path.abspath(path))
        set_(self, "stamp", _stamp(path))
        set_(self, "metadata", metadata)  # the footer as read: statistics, sizes
        sizes = [metadata.row_group(g).num_rows for g in range(metadata.num_row_groups)]
        set_(self, "sizes", sizes)
        set_(self, "starts", [sum(sizes[:g]) for g in range(len(sizes))])
        set_(self, "_reader", reader)
        set_(self, "_host", None)
        set_(self, "_resident", None)
        set_(self, "_lock", threading.Lock())
        _live.setdefault(self.path, weakref.WeakSet()).add(self)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("FileSnapshot is immutable")

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        return f"<FileSnapshot {self.path!r}>"

    # ---------------------------------------------------------------- what an engine holds
    def columns(self, engine: str) -> dict[str, dict[Any, Any]]:
        """The engine's resident file columns: name -> {row group or WHOLE: engine column}."""
        return self.resident(engine, dict)

    def missing(self, engine: str, names: list[str], groups: list[int]) -> tuple[list[str], list[int]]:
        """The columns and row groups to read so that ``names`` x ``groups`` are all resident."""
        held = self.columns(engine)
        cols = [n for n in names if not _holds(held.get(n), groups)]
        todo = sorted({g for n in cols for g in groups if not _holds(held.get(n), [g])})
        return cols, todo

    def store(self, engine: str, columns: dict[str, Any], groups: list[int],
              split: Callable[[Any, int, int], Any]) -> None:
        """Keep engine columns read for ``groups`` (``split(column, offset, length)`` cuts one group)."""
        held = self.columns(engine)
        whole = groups == list(range(len(self.sizes)))
        for name, col in columns.items():
            entry = held.setdefault(name, {})
            if whole:
                entry.clear()
                entry[WHOLE] = col
                continue
            offset = 0
            for g in groups:
                entry[g] = split(col, offset, self.sizes[g])
                offset += self.sizes[g]

    def assemble(self, engine: str, name: str, groups: list[int], split: Callable[[Any, int, int], Any],
                 concat: Callable[[list[Any]], Any]) -> Any:
        """Row groups ``groups`` of a resident column, in order, as one engine column."""
        entry = self.columns(engine)[name]
        whole = entry.get(WHOLE)
        if whole is not None:
            if groups == list(range(len(self.sizes))):
                return whole
            parts = [split(whole, self.starts[g], self.sizes[g]) for g in groups]
        else:
            parts = [entry[g] for g in groups]
        return parts[0] if len(parts) == 1 else concat(parts)

    def row_groups(self, predicate: Any, dtype_of: Callable[[str], Any], file_name: dict[str, str],
                   n_rows: int | None) -> list[int]:
        """The row groups a scan must read: those whose statistics (as read) let ``predicate`` keep a
        row, or the first ones that hold ``n_rows`` rows. ``file_name``: internal -> file column."""
        groups = list(range(len(self.sizes)))
        if predicate is not None:
            conj = _conjuncts(predicate, dtype_of)
            if conj:
                groups = [g for g in groups if not _excluded(self.metadata.row_group(g), conj, file_name)]
        elif n_rows is not None:
            keep, got = [], 0
            for g in groups:
                if got >= n_rows:
                    break
                keep.append(g)
                got += self.sizes[g]
            groups = keep
        return groups

    # ---------------------------------------------------------------- the file itself
    def check(self) -> None:
        """Raise if the file changed since it was read and no host copy keeps the old contents."""
        if self._host is not None:
            return
        try:
            now = _stamp(self.path)
        except FileNotFoundError:
            now = None
        if now != self.stamp:
            what = "was deleted" if now is None else "was changed by another program"
            raise SourceChangedError(
                f"{self.path!r} {what} after it was read: this frame needs data it had not loaded yet "
                f"and cannot show the file as it was. Read the file again to see its new contents.")

    def read(self, names: list[str], groups: list[int]) -> Any:
        """File columns ``names`` of row groups ``groups`` as an Arrow table, as the file was when read."""
        with self._lock:
            host = self._host
            if host is None:
                self.check()
                whole = groups == list(range(len(self.sizes)))
                return self._reader(self.path, names, None if whole else groups)
        parts = [host.select(names).slice(self.starts[g], self.sizes[g]) for g in groups]
        return pa.concat_tables(parts) if parts else host.select(names).slice(0, 0)

    @property
    def preserved(self) -> bool:
        return self._host is not None

    def preserve(self) -> None:
        """Keep the file's current contents in host memory (the file is about to be overwritten)."""
        with self._lock:
            if self._host is None:
                try:
                    self.check()
                except SourceChangedError:  # already stale: its next read raises, the write goes on
                    return
                object.__setattr__(self, "_host", self._reader(self.path, None, None))


WHOLE = "whole"  # key of a column read with all its row groups at once


def _conjuncts(pred: Any, dtype_of: Callable[[str], Any]) -> list[tuple[str, str, Any]]:
    """(column, op, value) for the ``column <op> literal`` conjuncts of a filter over numbers,
    strings or dates: each is implied by the filter, so a row group none of whose rows can satisfy one holds
    no row the filter keeps (comparisons with missing values are False)."""
    out: list[tuple[str, str, Any]] = []
    stack = [pred]
    flip = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq"}
    while stack:
        e = stack.pop()
        if isinstance(e, BinOp) and e.op == "and":
            stack.extend((e.left, e.right))
            continue
        if not (isinstance(e, BinOp) and e.op in flip):
            continue
        col, lit, op = e.left, e.right, e.op
        if isinstance(col, Lit) and isinstance(lit, Col):
            col, lit, op = lit, col, flip[op]
        if not (isinstance(col, Col) and isinstance(lit, Lit)) or lit.value is None or isinstance(lit.value, bool):
            continue
        t, v = dtype_of(col.name), lit.value
        if t is None:
            continue
        if (pa.types.is_integer(t) or pa.types.is_floating(t)) and isinstance(v, (int, float)) and v == v:
            out.append((col.name, op, v))
        elif (pa.types.is_string(t) or pa.types.is_large_string(t)) and isinstance(v, str):
            out.append((col.name, op, v))
        elif pa.types.is_date32(t) and isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
            out.append((col.name, op, v))  # (a date column's statistics are dates: exact)
    return out


def _excluded(rg: Any, conj: list[tuple[str, str, Any]], file_name: dict[str, str]) -> bool:
    """Whether a row group's statistics prove that no row satisfies every conjunct."""
    cols = {rg.column(j).path_in_schema: rg.column(j) for j in range(rg.num_columns)}
    for name, op, v in conj:
        c = cols.get(file_name.get(name, name))
        st = c.statistics if c is not None else None
        if st is None:
            continue
        if st.null_count == rg.num_rows:
            return True  # only missing values: no comparison holds
        if not st.has_min_max:
            continue
        lo, hi = st.min, st.max
        if isinstance(v, str) != isinstance(lo, str) or isinstance(v, _dt.date) != isinstance(lo, _dt.date):
            continue
        try:
            if op == "eq" and (v < lo or v > hi) or op == "lt" and lo >= v or op == "le" and lo > v \
                    or op == "gt" and hi <= v or op == "ge" and hi < v:
                return True
        except TypeError:
            continue
    return False


def _holds(entry: dict[Any, Any] | None, groups: list[int]) -> bool:
    return entry is not None and (WHOLE in entry or all(g in entry for g in groups))


# live snapshots by absolute path: a writer about to replace a file preserves them first
_live: dict[str, "weakref.WeakSet[FileSnapshot]"] = {}


def preserve(path: str | os.PathLike[str]) -> int:
    """Before overwriting ``path``: give every live snapshot of it a host copy. Returns how many."""
    snaps = _live.get(os.path.abspath(os.fspath(path)))
    if not snaps:
        return 0
    done = 0
    for snap in list(snaps):
        snap.preserve()
        done += 1
    return done
