"""pandas' private helpers that gframe mirrors, across the pandas releases it supports (>= 3.0).

pandas 3.1 reads the caller's frame to decide whether ``obj[key] = v`` is a chained assignment
(``is_local_in_caller_frame``, ``is_setitem_syntax_in_caller_frame``: the reference count alone
misleads on Python 3.14); pandas 3.0 has neither and warns on the reference count alone. Imported
by name where they exist (they inspect the frame of their caller's caller, so they must not be
wrapped); otherwise stand-ins that give pandas 3.0's verdict."""
from __future__ import annotations

from typing import Any

try:
    from pandas.core.common import is_local_in_caller_frame, is_setitem_syntax_in_caller_frame
except ImportError:  # pandas 3.0
    def is_local_in_caller_frame(obj: Any) -> bool:  # noqa: ARG001 - pandas 3.0 does not look
        return False

    def is_setitem_syntax_in_caller_frame() -> bool:
        return True

__all__ = ["is_local_in_caller_frame", "is_setitem_syntax_in_caller_frame"]
