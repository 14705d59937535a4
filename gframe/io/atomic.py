"""Atomic writes: write to a temporary file beside the target, rename on success.

A failed ``to_parquet`` / ``to_csv`` leaves neither a partial file nor the temporary one. Frames
read from the file being replaced keep their snapshot (``plan/source.py``).
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Iterator

from gframe.plan.source import preserve


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[str]:
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise OSError(f"Cannot save file into a non-existent directory: '{os.path.dirname(path) or directory}'")
    fd, tmp = tempfile.mkstemp(prefix=".gframe-", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        yield tmp
        preserve(path)  # frames the user holds that were read from ``path`` keep what it held
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
