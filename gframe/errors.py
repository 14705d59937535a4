"""Exceptions of gframe's own. Everything else raises pandas' exception types."""
from __future__ import annotations

# pandas' exception and warning types, so ``gframe.errors`` is ``pandas.errors`` plus gframe's own
from pandas.errors import *
from pandas.errors import __all__ as _pandas_errors


class FallbackError(NotImplementedError):
    """Raised in strict mode (``fallback="raise"``) when a call would run through pandas."""


class GPUUnavailableError(RuntimeError):
    """``engine="gpu"`` was requested but no usable GPU / pylibcudf is present."""


class UnsupportedError(NotImplementedError):
    """An engine cannot lower a node or expression; raised while lowering, never while running."""


class SourceChangedError(OSError):
    """A file a live frame was read from changed (size or mtime) before the frame loaded what it needs.

    A frame read from a file shows the file as it was at read time; when gframe itself overwrites
    the file it keeps a copy first, but a change made by another program can only be detected."""


_TIME_UNITS = ("s", "ms", "us", "ns")
_TIME_UNIT_NAMES = {"s": "second", "ms": "millisecond", "us": "microsecond", "ns": "nanosecond"}


def finer_unit_limit(unit: str, target: str) -> int | None:
    """The largest magnitude of a time value in ``unit`` that ``target`` holds (int64 ticks), None
    where ``target`` is not finer (nothing can overflow)."""
    steps = _TIME_UNITS.index(target) - _TIME_UNITS.index(unit)
    return (2**63 - 1) // 10 ** (3 * steps) if steps > 0 else None


def unit_overflow(value: int, unit: str, target: str, timestamp: bool) -> Exception:
    """pandas' error where arithmetic brings a time value (``value`` ticks of ``unit``) to a finer
    ``target`` unit that cannot hold it (``as_unit`` on the operand of the coarser unit): the
    timestamp shown to the second, a duration as its ticks."""
    import numpy as np

    if timestamp:
        seconds = value // 10 ** (3 * _TIME_UNITS.index(unit))
        shown = str(np.datetime64(seconds, "s")).replace("T", " ")
        return OutOfBoundsDatetime(f"Out of bounds {_TIME_UNIT_NAMES[target]} timestamp: {shown}")  # noqa: F405
    return OutOfBoundsTimedelta(f"Cannot convert {value} {_TIME_UNIT_NAMES[unit]}s to timedelta64[{target}] "  # noqa: F405
                                "without overflow")


# ---------------------------------------------------------------------------- engine errors -> pandas' types
# The one mapping layer: an engine's own exception (Polars, pylibcudf) never reaches the user; it
# becomes the builtin type pandas raises for the same kind of failure, with a message naming the plan
# node (operation and columns) it came from. pyarrow's errors already subclass the builtin types
# pandas raises (ArrowInvalid is a ValueError, ArrowTypeError a TypeError) and pandas itself lets
# them through (its parquet reader is pyarrow), so they pass unchanged, with the operation as a note.
# Keyed by class name, looked up along the MRO, so this module imports no engine library.
_POLARS_ERRORS: dict[str, type[Exception]] = {
    "InvalidOperationError": TypeError,     # an operation the column's dtype does not support
    "SchemaError": TypeError,               # mismatched dtypes between inputs
    "StringCacheMismatchError": TypeError,
    "ComputeError": ValueError,             # values an operation cannot take
    "ShapeError": ValueError,               # lengths do not match
    "DuplicateError": ValueError,           # duplicate labels
    "NoDataError": ValueError,              # pandas' EmptyDataError is a ValueError
    "ColumnNotFoundError": KeyError,        # pandas: KeyError for a missing label
    "SchemaFieldNotFoundError": KeyError,
    "StructFieldNotFoundError": KeyError,
    "OutOfBoundsError": IndexError,
    "PanicException": ValueError,           # a Rust panic (pyo3's PanicException is a BaseException)
    "PolarsError": ValueError,
}
_ENGINE_MODULES = ("polars", "pyo3_runtime", "pylibcudf", "cudf", "rmm")
_BUILTIN_ERRORS = (TypeError, ValueError, KeyError, IndexError, OverflowError, ZeroDivisionError, MemoryError,
                   NotImplementedError, OSError)


def _engine_error(exc: BaseException) -> bool:
    return any((k.__module__ or "").split(".")[0] in _ENGINE_MODULES for k in type(exc).__mro__)


def pandas_error(exc: BaseException, operation: str) -> BaseException | None:
    """The exception to raise instead of an engine's ``exc`` (None: ``exc`` is already pandas' kind).

    ``operation`` names what was running (a plan node: its operation and columns)."""
    if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return None
    if not _engine_error(exc):
        if type(exc).__module__.startswith("pyarrow") and hasattr(exc, "add_note"):
            exc.add_note(f"in gframe operation: {operation}")
        return None
    message = str(exc).split("\n\nThis error occurred", 1)[0].strip()
    for klass in type(exc).__mro__:
        target = _POLARS_ERRORS.get(klass.__name__) if klass.__module__.split(".")[0] in ("polars", "pyo3_runtime") else None
        if target is not None:
            break
    else:  # pylibcudf / cudf: keep a builtin base it already has; a bare RuntimeError by what it says
        builtin = next((b for b in _BUILTIN_ERRORS if isinstance(exc, b)), None)
        if builtin is not None:
            target = builtin
        else:
            target = TypeError if any(w in message.lower() for w in ("type", "unsupported", "not supported")) else ValueError
    if target is KeyError:
        return KeyError(f"{message} (in {operation})")
    return target(f"{message} (in {operation})")


__all__ = [*_pandas_errors, "FallbackError", "GPUUnavailableError", "UnsupportedError", "SourceChangedError", "pandas_error",
           "finer_unit_limit", "unit_overflow"]
