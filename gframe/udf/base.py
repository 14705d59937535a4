"""What every UDF strategy shares: the signal that a function cannot take that route."""
from __future__ import annotations


class NotCompilable(Exception):
    """A strategy (tracing, Numba) cannot run this function natively; the message says why.

    Raised by ``udf.trace`` and ``udf.compiled``; ``udf.dispatch`` tries the next strategy and, when
    none is left, runs the function through pandas with the collected reasons in the fallback report.
    """
