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


__all__ = [*_pandas_errors, "FallbackError", "GPUUnavailableError", "UnsupportedError", "SourceChangedError"]
