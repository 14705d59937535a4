"""TPC-H tables as parquet, one file per table, written by ``tpchgen-cli`` (a wheel on PyPI).

    python benchmarks/tpch/generate.py --sf 1 --out data/tpch/sf1 [--tpchgen /path/to/tpchgen-cli]

tpchgen-cli writes the spec's types: DECIMAL(15,2) as decimal128, text as string_view, dates as
date32. The files are then rewritten once with two changes, so that the pandas code reads them the
way users' data usually looks:

- decimal128 -> float64. pandas reads decimals without the pyarrow backend as an object column of
  Python ``Decimal``; a user of numpy-backed pandas works in float64 (the public pandas/Polars TPC-H
  ports do the same).
- string_view -> string. pandas reads string_view with the pyarrow backend as ``string_view[pyarrow]``,
  a dtype few pandas operations support.

Dates stay date32 (the spec's DATE): the arrow-backed variant reads ``date32[day][pyarrow]`` and the
numpy-backed one asks pyarrow for datetime64 (see ``queries_pandas.Numpy``).

The binary comes from ``--tpchgen``, ``$TPCHGEN``, ``tpchgen-cli`` on PATH, or the wheel unpacked
under ``$TPCHGEN_WHEEL_DIR`` (``pip download tpchgen-cli`` puts it there; ``tpchgen_cli()`` installs
it with ``pip install --no-index --target``, so a machine without a package index can use it).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TABLES = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")


def tpchgen_cli(explicit: str | None = None) -> str | None:
    """The tpchgen-cli binary, or None when none can be found (callers skip with that reason)."""
    for cand in (explicit, os.environ.get("TPCHGEN"), shutil.which("tpchgen-cli")):
        if cand and os.path.exists(cand):
            return cand
    wheel_dir = os.environ.get("TPCHGEN_WHEEL_DIR", str(Path("~/.cache/gframe/tpchgen").expanduser()))
    binary = os.path.join(wheel_dir, "pkg", "bin", "tpchgen-cli")
    if os.path.exists(binary):
        return binary
    wheels = sorted(str(p) for p in Path(wheel_dir).glob("tpchgen_cli-*.whl"))
    if wheels:  # unpack the downloaded wheel (a binary in its data scripts) without an index
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                        "--target", os.path.join(wheel_dir, "pkg"), wheels[-1]], check=True)
        if os.path.exists(binary):
            return binary
    return None


def _normalize(path: str) -> None:
    """Rewrite one table: decimals as float64, string_view as string (the module docstring says why)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = pq.ParquetFile(path)
    fields = []
    for f in src.schema_arrow:
        t = f.type
        if pa.types.is_decimal(t):
            t = pa.float64()
        elif pa.types.is_string_view(t) or pa.types.is_large_string(t):
            t = pa.string()
        fields.append(pa.field(f.name, t, nullable=f.nullable))
    schema = pa.schema(fields)
    tmp = path + ".tmp"
    with pq.ParquetWriter(tmp, schema) as writer:  # streamed: sf10's lineitem never whole in memory
        for batch in src.iter_batches(batch_size=1 << 20):
            writer.write_table(pa.Table.from_batches([batch]).cast(schema), row_group_size=1 << 20)
    os.replace(tmp, path)


def generate(sf: float, out: str, binary: str | None = None, tables: tuple[str, ...] = TABLES,
             normalize: bool = True) -> dict[str, float]:
    """Write ``out/<table>.parquet`` for each table at scale factor ``sf``; the seconds each step took.
    Existing files are kept (a second call is free)."""
    exe = tpchgen_cli(binary)
    if exe is None:
        raise FileNotFoundError("tpchgen-cli not found: pip install tpchgen-cli (or pip download it "
                                "into $TPCHGEN_WHEEL_DIR)")
    os.makedirs(out, exist_ok=True)
    todo = [t for t in tables if not os.path.exists(os.path.join(out, f"{t}.parquet"))]
    times: dict[str, float] = {}
    if not todo:
        return times
    t0 = time.perf_counter()
    subprocess.run([exe, "parquet", "-s", f"{sf:g}", "-o", out + ".partial", "--overwrite",
                    "-T", ",".join(todo)], check=True)
    times["tpchgen"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    srcs = [os.path.join(out + ".partial", f"{t}.parquet") for t in todo]
    if normalize:  # one thread per table (Arrow's reads and casts release the GIL), lineitem first
        with ThreadPoolExecutor(min(len(srcs), os.cpu_count() or 1)) as pool:
            list(pool.map(_normalize, sorted(srcs, key=os.path.getsize, reverse=True)))
    for t, src in zip(todo, srcs):
        os.replace(src, os.path.join(out, f"{t}.parquet"))
    shutil.rmtree(out + ".partial", ignore_errors=True)
    times["normalize"] = time.perf_counter() - t0
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sf", type=float, default=1.0)
    ap.add_argument("--out", default=None, help="folder (default data/tpch/sf<SF>)")
    ap.add_argument("--tpchgen", default=None, help="the tpchgen-cli binary")
    ap.add_argument("--raw", action="store_true", help="keep tpchgen-cli's types (decimals, string_view)")
    args = ap.parse_args()
    out = args.out or os.path.join("data", "tpch", f"sf{args.sf:g}")
    t0 = time.perf_counter()
    times = generate(args.sf, out, args.tpchgen, normalize=not args.raw)
    print(f"sf{args.sf:g} -> {out}: " + ", ".join(f"{k} {v:.1f}s" for k, v in times.items())
          + f", total {time.perf_counter() - t0:.1f}s")


if __name__ == "__main__":
    main()
