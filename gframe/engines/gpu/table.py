"""The GPU engine's native table: pylibcudf columns named by gframe's internal names.

A ``GpuTable`` is what a GPU kernel returns and what the result cache holds: device memory that
stays on the device between operators and between queries. It knows its row count even without
columns. This module imports no GPU library at import (the columns are held here; a deferred
column is gathered here when first read); ``convert.py`` moves tables between host and device.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence


class LazyGather:
    """Columns of a table gathered by one map when first read: a join's output columns.

    Why: a join's answer is often held and then read a few columns at a time - its length, the
    value columns a checksum or a later query reads - while its gather of every column (strings
    among them) was most of a db-benchmark join question on the device. A column read alone is
    gathered alone; ``GpuTable.columns`` gathers all those still pending in one call. The map and the
    source columns are kept until then (the sources are the join's inputs: resident frames or results).
    """

    __slots__ = ("sources", "gather_map", "nullify", "done")

    def __init__(self, sources: Sequence[Any], gather_map: Any, nullify: bool) -> None:
        self.sources = list(sources)
        self.gather_map = gather_map
        self.nullify = nullify
        self.done: dict[int, Any] = {}

    def get(self, indices: Sequence[int]) -> list[Any]:
        from gframe.engines.gpu.lib import plc

        todo = [i for i in dict.fromkeys(indices) if i not in self.done]
        if todo:
            policy = plc.copying.OutOfBoundsPolicy.NULLIFY if self.nullify else plc.copying.OutOfBoundsPolicy.DONT_CHECK
            out = plc.copying.gather(plc.Table([self.sources[i] for i in todo]), self.gather_map, policy).columns()
            self.done.update(zip(todo, out))
            if len(self.done) == len(self.sources):  # nothing left to gather: let the map and sources go
                self.sources, self.gather_map = [], None
        return [self.done[i] for i in indices]


class Deferred:
    """A column of a ``LazyGather`` not read yet (its ``index`` among the gather's sources)."""

    __slots__ = ("lazy", "index")

    def __init__(self, lazy: LazyGather, index: int) -> None:
        self.lazy, self.index = lazy, index

    def get(self) -> Any:
        return self.lazy.get([self.index])[0]


class GpuTable:
    """Device columns (``pylibcudf.Column``) with their internal names, in order. A column may be
    ``Deferred`` (a join's, gathered when first read): ``column`` and ``columns`` always give
    computed columns; ``select`` and the other derived tables pass deferred ones on as they are."""

    __slots__ = ("names", "_cols", "num_rows", "_pos", "logical", "categories", "__weakref__")

    def __init__(self, names: Sequence[str], columns: Sequence[Any], num_rows: int | None = None) -> None:
        # name -> the Arrow type a column stands for where its libcudf type cannot say it (a
        # timestamp's time zone: libcudf stores the UTC instants). Set by ``typed`` (the engine,
        # from the plan's schema, on every node's result; ``upload``, from the host table) and read
        # where a column leaves the device (``convert.download``).
        self.logical: dict[str, Any] = {}
        # name -> the categories (a host Arrow array) of a categorical column, whose device column
        # holds the int32 codes (``categorical.py``). Data, not plan: set by ``upload`` and, on every
        # node's result, from the node's inputs (``categorical.carry``).
        self.categories: dict[str, Any] = {}
        self.names = list(names)
        self._cols = list(columns)
        if len(self.names) != len(self._cols):
            raise ValueError(f"{len(self.names)} names for {len(self._cols)} columns")
        self._pos = {n: i for i, n in enumerate(self.names)}
        if num_rows is None:
            if not self._cols:
                raise ValueError("a table without columns needs its row count")
            num_rows = self.column(self.names[0]).size()
        self.num_rows = int(num_rows)

    @property
    def columns(self) -> list[Any]:
        """Every column, computed (the deferred ones gathered now, one call per gather)."""
        pending: dict[int, list[tuple[int, Deferred]]] = {}
        for i, c in enumerate(self._cols):
            if isinstance(c, Deferred):
                pending.setdefault(id(c.lazy), []).append((i, c))
        for group in pending.values():
            got = group[0][1].lazy.get([d.index for _, d in group])
            for (i, _), col in zip(group, got):
                self._cols[i] = col
        return list(self._cols)

    def column(self, name: str) -> Any:
        i = self._pos[name]
        c = self._cols[i]
        if isinstance(c, Deferred):
            c = self._cols[i] = c.get()
        return c

    def entry(self, name: str) -> Any:
        """The column of ``name`` as held: computed, or ``Deferred`` (to pass on to another table)."""
        return self._cols[self._pos[name]]

    def has(self, name: str) -> bool:
        return name in self._pos

    def select(self, names: Iterable[str], rename: Iterable[str] | None = None) -> "GpuTable":
        names = list(names)
        out = GpuTable(list(rename) if rename is not None else names, [self.entry(n) for n in names], self.num_rows)
        if self.categories and rename is None:
            out.categories = {n: c for n, c in self.categories.items() if n in out._pos}
        return out

    def with_columns(self, pairs: Iterable[tuple[str, Any]]) -> "GpuTable":
        names, cols = list(self.names), list(self._cols)
        pairs = list(pairs)
        for name, col in pairs:
            if name in self._pos:
                cols[self._pos[name]] = col
            else:
                names.append(name)
                cols.append(col)
        out = GpuTable(names, cols, self.num_rows)
        if self.categories:
            replaced = {name for name, _ in pairs}
            out.categories = {n: c for n, c in self.categories.items() if n not in replaced}
        return out

    def with_categories(self, categories: dict[str, Any]) -> "GpuTable":
        """This table, the named categorical columns with these categories (a new table when that
        changes anything)."""
        if all(self.categories.get(n) is c for n, c in categories.items()):
            return self
        out = GpuTable(self.names, self._cols, self.num_rows)
        out.logical = self.logical
        out.categories = {**self.categories, **categories}
        return out

    def typed(self, types: dict[str, Any]) -> "GpuTable":
        """This table, its columns standing for ``types`` (name -> Arrow type; see ``logical``); a
        new table when that changes anything (a kernel may return a table another result holds)."""
        logical = {n: t for n, t in types.items() if n in self._pos}
        # a categorical the plan leaves to the data (``categorical.carry``) keeps its type
        logical.update({n: self.logical[n] for n in self.categories if n in self.logical and n not in types})
        if logical == self.logical:
            return self
        out = GpuTable(self.names, self._cols, self.num_rows)
        out.logical = logical
        out.categories = self.categories
        return out

    def nbytes(self) -> int:
        """Device bytes held by the columns (data, masks, children)."""
        total = 0
        for c in self._cols:
            if isinstance(c, Deferred):
                continue  # (not gathered: no memory of its own yet)
            try:
                total += int(c.device_buffer_size())
            except Exception:  # noqa: BLE001 - a view without owned buffers: estimate nothing
                pass
        return total

    def __repr__(self) -> str:
        return f"<GpuTable {self.num_rows} rows x {len(self.names)} cols: {', '.join(self.names)}>"
