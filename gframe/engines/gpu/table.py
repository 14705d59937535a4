"""The GPU engine's native table: pylibcudf columns named by gframe's internal names.

A ``GpuTable`` is what a GPU kernel returns and what the result cache holds: device memory that
stays on the device between operators and between queries. It knows its row count even without
columns. This module imports no GPU library (the columns are only held here); ``convert.py``
moves tables between host and device.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence


class GpuTable:
    """Device columns (``pylibcudf.Column``) with their internal names, in order."""

    __slots__ = ("names", "columns", "num_rows", "_pos", "logical", "categories", "__weakref__")

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
        self.columns = list(columns)
        if len(self.names) != len(self.columns):
            raise ValueError(f"{len(self.names)} names for {len(self.columns)} columns")
        if num_rows is None:
            if not self.columns:
                raise ValueError("a table without columns needs its row count")
            num_rows = self.columns[0].size()
        self.num_rows = int(num_rows)
        self._pos = {n: i for i, n in enumerate(self.names)}

    def column(self, name: str) -> Any:
        return self.columns[self._pos[name]]

    def has(self, name: str) -> bool:
        return name in self._pos

    def select(self, names: Iterable[str], rename: Iterable[str] | None = None) -> "GpuTable":
        names = list(names)
        out = GpuTable(list(rename) if rename is not None else names, [self.column(n) for n in names], self.num_rows)
        if self.categories and rename is None:
            out.categories = {n: c for n, c in self.categories.items() if n in out._pos}
        return out

    def with_columns(self, pairs: Iterable[tuple[str, Any]]) -> "GpuTable":
        names, cols = list(self.names), list(self.columns)
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
        out = GpuTable(self.names, self.columns, self.num_rows)
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
        out = GpuTable(self.names, self.columns, self.num_rows)
        out.logical = logical
        out.categories = self.categories
        return out

    def nbytes(self) -> int:
        """Device bytes held by the columns (data, masks, children)."""
        total = 0
        for c in self.columns:
            try:
                total += int(c.device_buffer_size())
            except Exception:  # noqa: BLE001 - a view without owned buffers: estimate nothing
                pass
        return total

    def __repr__(self) -> str:
        return f"<GpuTable {self.num_rows} rows x {len(self.names)} cols: {', '.join(self.names)}>"
