"""The CPU engine: Polars kernels over Arrow memory (the default where no GPU is present)."""
from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow as pa

from gframe.engines.cpu.kernels import MISSING_BOOLS, one_run, physical, run
from gframe.engines.evaluate import RunStats, evaluate
from gframe.errors import UnsupportedError
from gframe.plan import logical as L


class CpuEngine:
    name = "cpu"

    def supports(self, plan: L.Plan) -> str | None:
        return None if run.dispatch(type(plan)) is not run.dispatch(object) else f"no cpu kernel for {type(plan).__name__}"

    # the output's merge bools the merge left missing, of the plan run last (``engines.materialize``)
    last_objects: frozenset[str] = frozenset()

    def execute(self, plan: L.Plan, stats: RunStats | None = None) -> pl.DataFrame:
        ran = physical(plan)
        with one_run(MISSING_BOOLS):
            out = evaluate(ran, self.kernel, {}, stats, self.measure)
            self.last_objects = L.missing_bool_columns(ran, self.missing_bools)
        if stats is not None:
            for r in stats.runs:
                r.engine = r.engine or "cpu"
        return out

    @staticmethod
    def measure(native: pl.DataFrame) -> tuple[int, int]:
        return native.height, int(native.estimated_size())

    @staticmethod
    def kernel(node: L.Plan, inputs: list[Any]) -> pl.DataFrame:
        if isinstance(node, L.Materialized):
            if node.engine == "gpu" and not isinstance(node.data.value, pl.DataFrame):
                # device data another GPU library handed in (``engines/gpu/exchange.py``), read while
                # the CPU engine is in effect: copied to the host
                from gframe.engines.gpu.convert import to_host_frame

                return to_host_frame(node.data.value)
            if node.engine != "cpu":
                raise UnsupportedError(f"a {node.engine} result on the cpu engine")
            return node.data.value
        return run(node, inputs)

    @staticmethod
    def missing_bools(join: L.Join) -> frozenset[str]:
        """The undecided bool columns (``Join.undecided_bools``) ``join`` left missing when it ran."""
        return MISSING_BOOLS.get(join, frozenset())

    def num_rows(self, native: pl.DataFrame) -> int:
        return native.height

    def to_arrow(self, native: pl.DataFrame, offset: int = 0, length: int | None = None) -> pa.Table:
        if offset or length is not None:
            native = native.slice(offset, length)
        return native.to_arrow()

    def from_arrow(self, table: pa.Table) -> pl.DataFrame:
        from gframe.engines.cpu.kernels import _from_table

        return _from_table(table)  # (categoricals as Enums: ``categorical.py``)
