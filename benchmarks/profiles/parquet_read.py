"""How fast libcudf's parquet reader brings a table's columns to the device, by the reader's
settings, next to gframe's own scan and the Polars GPU engine's: which knob is worth a default.

    python benchmarks/profiles/parquet_read.py --path /tmp/tpch/sf10/lineitem.parquet \\
        --columns l_returnflag l_linestatus l_quantity l_extendedprice l_discount l_tax l_shipdate

Each variant runs 3 times after one warm run (the file in the page cache), the device synchronized
before each clock reading; the best time is printed.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def best(fn, sync, n: int = 3) -> float:
    fn()
    sync()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--path", required=True)
    ap.add_argument("--columns", nargs="+", required=True)
    args = ap.parse_args()
    import pylibcudf as plc

    from gframe.engines.gpu.exchange import synchronize as sync

    def read(threads: int | None = None, chunked: bool = False):
        def go():
            if threads is not None and hasattr(plc.io, "kvikio_manager"):
                plc.io.kvikio_manager.set_num_io_threads(threads)
            opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([args.path])) \
                .column_names(args.columns).use_pandas_metadata(False).build()
            if chunked:
                r = plc.io.parquet.ChunkedParquetReader(opts, chunk_read_limit=0, pass_read_limit=16 << 30)
                parts = [r.read_chunk().tbl]
                while r.has_next():
                    parts.append(r.read_chunk().tbl)
                return parts
            return plc.io.parquet.read_parquet(opts).tbl
        return go

    km = getattr(plc.io, "kvikio_manager", None)
    print("kvikio_manager:", km is not None, "default threads:",
          km.get_default_num_io_threads() if km and hasattr(km, "get_default_num_io_threads") else
          (km.default_num_io_threads() if km and hasattr(km, "default_num_io_threads") else "?"), flush=True)
    for threads in (None, 1, 4, 8, 16):
        try:
            print(f"plc.read_parquet threads={threads}: {best(read(threads), sync) * 1e3:.1f} ms", flush=True)
        except Exception as exc:  # noqa: BLE001 - a knob this version lacks
            print(f"plc.read_parquet threads={threads}: {type(exc).__name__} {exc}", flush=True)
    try:
        print(f"plc chunked reader: {best(read(None, True), sync) * 1e3:.1f} ms", flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"plc chunked reader: {type(exc).__name__} {exc}", flush=True)
    os.environ["GFRAME_ENGINE"] = "gpu"
    import gframe

    def gf():
        df = gframe.read_parquet(args.path, columns=args.columns, dtype_backend="pyarrow")
        return gframe.engines.materialize(df._plan)  # the table on the device (len() reads metadata only)
    print(f"gframe read_parquet, on the device: {best(gf, sync) * 1e3:.1f} ms", flush=True)
    try:
        import polars as pl

        def pg():
            return pl.scan_parquet(args.path).select(args.columns).select(pl.len()).collect(engine="gpu")

        def pg_all():
            return pl.scan_parquet(args.path).select(args.columns).collect(engine="gpu")
        print(f"polars-gpu scan+len: {best(pg, sync) * 1e3:.1f} ms; scan to host: {best(pg_all, sync) * 1e3:.1f} ms", flush=True)
    except Exception as exc:  # noqa: BLE001
        print(f"polars-gpu: {type(exc).__name__} {exc}", flush=True)


if __name__ == "__main__":
    main()
