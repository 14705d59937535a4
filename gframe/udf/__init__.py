"""User-defined functions: ``Series.map`` / ``Series.apply``, ``DataFrame.apply(axis=1)`` and
``GroupBy.apply``.

Three strategies, tried in order (``dispatch.py``):

1. **Tracing** (``trace.py``): call the function once on symbolic stand-ins for a value, a row or a
   group. If it only does arithmetic, comparisons and reductions, the trace *is* a gframe
   expression or aggregation plan, which runs natively on either engine like any other.
2. **Compiling** (``compiled.py``): Numba compiles the scalar function; the plan carries it as a
   ``udf`` expression, run by a Numba loop on the CPU and a numba-cuda kernel on the GPU.
3. **pandas**: anything else runs through pandas for that call, recorded in the fallback report
   with both reasons.
"""
from __future__ import annotations

from gframe.udf.dispatch import apply_frame, groupby_apply, map_series

__all__ = ["apply_frame", "groupby_apply", "map_series"]
