"""What an engine is: a contract both the CPU and GPU engines implement (a Protocol, no base class)."""
from __future__ import annotations

from typing import Any, Protocol

import pyarrow as pa

from gframe.plan.logical import Plan


class Engine(Protocol):
    name: str

    def supports(self, plan: Plan) -> str | None:
        """None if the engine lowers ``plan``'s own node (not its children), else the reason it can't."""

    def execute(self, plan: Plan) -> Any:
        """Evaluate an optimized plan; returns the engine-native table (internal column names)."""

    def num_rows(self, native: Any) -> int: ...

    def to_arrow(self, native: Any, offset: int = 0, length: int | None = None) -> pa.Table:
        """Copy rows [offset, offset+length) to host Arrow memory (the only host copy an engine makes)."""

    def from_arrow(self, table: pa.Table) -> Any: ...
