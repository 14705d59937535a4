"""How many host threads libcudf's readers use to copy a file's bytes to the device.

libcudf reads files through KvikIO, whose thread pool it sets up at its first read from
``KVIKIO_NTHREADS`` (4 when unset). A parquet file in the page cache then reaches the device at the
speed a few threads copy it: 85-100 ms for TPC-H's ``lineitem`` columns at sf10 on the H100, most of
a query there. The Polars GPU engine raises the pool to 256 threads at its start (cudf-polars,
NVIDIA/cudf#23634) for the same reason; gframe sets ``GFRAME_GPU_IO_THREADS`` threads (default
``DEFAULT``) at the GPU engine's start - unless the user set ``KVIKIO_NTHREADS``, which then stands.
It sets both ``KVIKIO_NTHREADS`` (libcudf reads it when it sets KvikIO up at its first read, which
would undo an earlier setting: NVIDIA/cudf#23683) and, where pylibcudf has it, the pool's size
through libcudf's KvikIO manager (for a process that read files before the engine started)."""
from __future__ import annotations

import os

ENV = "GFRAME_GPU_IO_THREADS"
DEFAULT = 32


def setup() -> int | None:
    """Set the pool's size once (the engine's start); returns what was set, None where nothing was
    (the user's ``KVIKIO_NTHREADS`` stands, or ``GFRAME_GPU_IO_THREADS=0``)."""
    if "KVIKIO_NTHREADS" in os.environ and ENV not in os.environ:
        return None
    threads = int(os.environ.get(ENV, DEFAULT))
    if threads <= 0:
        return None
    os.environ["KVIKIO_NTHREADS"] = str(threads)
    from gframe.engines.gpu.lib import plc

    setter = getattr(plc.io, "set_num_io_threads", None) \
        or getattr(getattr(plc.io, "kvikio_manager", None), "set_num_io_threads", None)
    if setter is not None:
        setter(threads)
    return threads
