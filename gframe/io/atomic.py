"""Atomic writes: write to a temporary file beside the target, rename on success.

A failed ``to_parquet`` / ``to_csv`` leaves neither a partial file nor the temporary one.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Iterator


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
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
