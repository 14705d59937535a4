"""TPC-H, 22 queries, side by side, in the users' pattern: gframe, pandas, Polars (CPU and GPU
engine), duckdb on the same parquet files.

    python benchmarks/tpch/generate.py --sf 1 --out data/tpch/sf1
    python benchmarks/tpch/run.py --data data/tpch/sf1 \\
        --systems gframe-gpu polars-gpu polars duckdb pandas --variant arrow \\
        --repeat 3 --pandas-repeat 1 --markdown tpch.md --json tpch.json

The pattern (issue 11, item 5):
- IO included: every query reads its parquet files itself (``read_parquet`` / ``scan_parquet`` /
  duckdb's ``read_parquet`` views) inside the timed call.
- Each query runs ``--repeat`` times, ``gc.collect()`` before each run (not timed).
- Every result is consumed inside the timed call: brought to the host as a pandas frame (gframe's
  ``to_pandas()``, Polars' ``collect().to_pandas()``, duckdb's ``.df()``) and a checksum of all its
  columns computed (row count, sums of numbers, lengths of strings, counts of dates).
- The device is synchronized (``cupy.cuda.runtime.deviceSynchronize``) before the clock is read,
  where cupy sees a GPU.
- Each system runs in its own subprocess with a time limit (``--timeout`` seconds for all its
  queries); a system that is not installed is skipped with the reason. What a worker printed before
  its limit is kept.

The table gives the best time of each query per system (seconds), the total over the queries every
system answered, and each answer's checksum against the reference system's (pandas when run, else
duckdb): ``!`` marks a mismatch. gframe's own answers are checked exactly against pandas by
``tests/test_tpch.py``.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
QUERIES = [f"q{i}" for i in range(1, 23)]
SYSTEMS = ("gframe-gpu", "gframe-cpu", "pandas", "polars", "polars-gpu", "duckdb")


# ------------------------------------------------------------------------------ worker side
def checksum(df: Any) -> dict[str, Any]:
    """Row count and one number per column (pandas frame): sum of numbers and bools, total length
    of strings, count of dates/timestamps (their representation differs between systems)."""
    import numpy as np
    import pandas as pd

    out: dict[str, Any] = {"rows": int(len(df))}
    sums = []
    for c in df.columns:
        s = df[c]
        kind = str(s.dtype)
        if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
            sums.append(float(np.nansum(s.astype("float64").to_numpy(dtype="float64", na_value=np.nan))))
        elif pd.api.types.is_datetime64_any_dtype(s.dtype) or "date" in kind or "timestamp" in kind:
            sums.append(float(s.notna().sum()))
        elif s.dtype == object and len(s) and not isinstance(s.iloc[0], str):
            sums.append(float(s.notna().sum()))  # datetime.date objects (duckdb's / Polars' dates)
        else:
            sums.append(float(s.astype("str").str.len().sum()))
    out["sums"] = sums
    return out


def _sync() -> Any:
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy.cuda.runtime.deviceSynchronize
    except Exception:  # no cupy or no device: nothing to wait for
        pass
    return lambda: None


def _runner(system: str, data: str, variant: str) -> tuple[Any, dict[str, Any]]:
    """(run(query) -> pandas frame, info) for one system."""
    sys.path.insert(0, ROOT)
    if system.startswith("gframe"):
        os.environ["GFRAME_ENGINE"] = system.split("-", 1)[1]
        import gframe
        from benchmarks.tpch.queries_pandas import QUERIES as QP, VARIANTS

        v = VARIANTS[variant](gframe, data)
        info = {"version": getattr(gframe, "__version__", "?"), "engine": os.environ["GFRAME_ENGINE"]}
        if system == "gframe-gpu":
            from gframe import engines

            reason = engines.gpu_unavailable_reason()
            if reason:
                raise RuntimeError(f"GPU engine unavailable: {reason}")
        return (lambda q: QP[q](v).to_pandas()), info
    if system == "pandas":
        import pandas
        from benchmarks.tpch.queries_pandas import QUERIES as QP, VARIANTS

        v = VARIANTS[variant](pandas, data)
        return (lambda q: QP[q](v)), {"version": pandas.__version__}
    if system in ("polars", "polars-gpu"):
        import polars as pl
        from benchmarks.tpch.queries_polars import QUERIES as QL

        info = {"version": pl.__version__}
        if system == "polars-gpu":
            import cudf_polars  # noqa: F401  (the GPU engine: skipped with the reason where missing)

            engine: Any = pl.GPUEngine(raise_on_fail=False)
            info["cudf_polars"] = getattr(cudf_polars, "__version__", "?")
        else:
            engine = "auto"
        return (lambda q: QL[q](data).collect(engine=engine).to_pandas()), info
    if system == "duckdb":
        import duckdb
        from benchmarks.tpch import queries_sql

        con = duckdb.connect()
        queries_sql.views(con, data)
        return (lambda q: con.execute(queries_sql.QUERIES[q]).df()), {"version": duckdb.__version__}
    raise ValueError(f"unknown system {system}")


def _polars_gpu_fallbacks(data: str, queries: list[str]) -> dict[str, str]:
    """Which queries the Polars GPU engine cannot run (it would fall back to its CPU engine)."""
    import polars as pl
    from benchmarks.tpch.queries_polars import QUERIES as QL

    out = {}
    for q in queries:
        try:
            QL[q](data).collect(engine=pl.GPUEngine(raise_on_fail=True))
        except Exception as exc:
            out[q] = f"{type(exc).__name__}: {str(exc)[:200]}"
    return out


def worker(args: argparse.Namespace) -> None:
    """Run one system's queries; one JSON line per query on stdout."""
    def emit(rec: dict[str, Any]) -> None:
        print(json.dumps(rec), flush=True)

    try:
        run, info = _runner(args.worker, args.data, args.variant)
    except Exception as exc:
        emit({"skip": f"{type(exc).__name__}: {exc}"})
        return
    emit({"info": info})
    if args.worker == "polars-gpu":
        emit({"polars_gpu_fallbacks": _polars_gpu_fallbacks(args.data, args.queries)})
    sync = _sync()
    for q in args.queries:
        times: list[float] = []
        rec: dict[str, Any] = {"query": q}
        try:
            for _ in range(args.repeat):
                gc.collect()
                t0 = time.perf_counter()
                result = run(q)
                check = checksum(result)
                sync()
                times.append(time.perf_counter() - t0)
                del result
            rec.update(times=times, check=check)
        except Exception as exc:
            rec.update(times=times, error=f"{type(exc).__name__}: {str(exc)[:300]}")
        if args.worker.startswith("gframe"):
            import gframe

            report = gframe.fallback_report(clear=True)
            rec["fallbacks"] = sorted({f"{e.kind} {e.api}: {e.reason}"[:160] for e in report})
        emit(rec)


# ------------------------------------------------------------------------------ driver side
def _run_system(system: str, args: argparse.Namespace, log_dir: str) -> dict[str, Any]:
    repeat = args.pandas_repeat if system == "pandas" and args.pandas_repeat else args.repeat
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", system, "--data", args.data, "--variant",
           args.variant, "--repeat", str(repeat), "--queries", *args.queries]
    log = os.path.join(log_dir, f"{system}.jsonl")
    limit = args.timeout
    t0 = time.perf_counter()
    with open(log, "w") as fh:
        try:
            subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT if args.verbose else subprocess.DEVNULL,
                           timeout=limit, check=False, env={**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")})
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
    out: dict[str, Any] = {"queries": {}, "wall_s": time.perf_counter() - t0}
    with open(log) as fh:
        for line in fh:
            line = line.strip()
            if not line.startswith("{"):
                continue
            rec = json.loads(line)
            if "skip" in rec:
                out["skip"] = rec["skip"]
            elif "info" in rec:
                out["info"] = rec["info"]
            elif "polars_gpu_fallbacks" in rec:
                out["polars_gpu_fallbacks"] = rec["polars_gpu_fallbacks"]
            elif "query" in rec:
                out["queries"][rec["query"]] = rec
    if timed_out:
        out["timed_out"] = f"limit {limit}s"
        for q in args.queries:
            out["queries"].setdefault(q, {"query": q, "times": [], "error": f"timeout ({limit}s for the system)"})
    return out


def _same(a: dict[str, Any] | None, b: dict[str, Any] | None, rtol: float = 1e-6) -> bool | None:
    if not a or not b:
        return None
    if a["rows"] != b["rows"] or len(a["sums"]) != len(b["sums"]):
        return False
    return all(math.isclose(x, y, rel_tol=rtol, abs_tol=1e-6) or (math.isnan(x) and math.isnan(y))
               for x, y in zip(a["sums"], b["sums"]))


def _machine() -> dict[str, Any]:
    out = {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
           "cores": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    try:
        out["gpu"] = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader"],
                                    capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:
        out["gpu"] = None
    return out


def markdown(results: dict[str, Any], args: argparse.Namespace, machine: dict[str, Any]) -> str:
    systems = [s for s in args.systems if s in results and "skip" not in results[s]]
    ref = "pandas" if "pandas" in systems else ("duckdb" if "duckdb" in systems else None)
    lines = [f"### TPC-H {os.path.basename(os.path.normpath(args.data))}, {args.variant}-backed pandas, IO included "
             f"(best of {args.repeat}{f', pandas {args.pandas_repeat}' if args.pandas_repeat else ''}; seconds)", "",
             f"machine: {machine.get('gpu') or 'no GPU'}, {machine['cores']} cores; {machine['date']}; "
             + ", ".join(f"{s} {results[s].get('info', {}).get('version', '?')}" for s in systems), ""]
    lines.append("| query | " + " | ".join(systems) + " |")
    lines.append("|---|" + "---:|" * len(systems))
    best: dict[str, dict[str, float]] = {s: {} for s in systems}
    for q in args.queries:
        cells = []
        for s in systems:
            rec = results[s]["queries"].get(q)
            if rec is None:
                cells.append("-")
                continue
            if rec.get("error"):
                cells.append("error" if "timeout" not in rec["error"] else "timeout")
                continue
            t = min(rec["times"])
            best[s][q] = t
            ok = _same(rec.get("check"), results[ref]["queries"].get(q, {}).get("check")) if ref and s != ref else None
            cells.append(f"{t:.3f}{' !' if ok is False else ''}")
        lines.append(f"| {q} | " + " | ".join(cells) + " |")
    common = [q for q in args.queries if all(q in best[s] for s in systems)]
    lines.append(f"| total ({len(common)} answered by all) | "
                 + " | ".join(f"{sum(best[s][q] for q in common):.2f}" for s in systems) + " |")
    lines.append("| total (own answers) | " + " | ".join(f"{sum(best[s].values()):.2f} ({len(best[s])})" for s in systems) + " |")
    lines.append("")
    for g in [s for s in systems if s.startswith("gframe")]:
        tg = sum(best[g][q] for q in common)
        if tg > 0:
            lines.append(f"{g}'s speedup on the common total (the other's time / {g}'s): " + ", ".join(
                f"{s} {sum(best[s][q] for q in common) / tg:.2f}x" for s in systems if s != g))
    for s in args.systems:
        if s in results and "skip" in results[s]:
            lines.append(f"- {s}: skipped ({results[s]['skip']})")
        elif s in results and results[s].get("timed_out"):
            lines.append(f"- {s}: stopped at its time limit ({results[s]['timed_out']})")
    if ref:
        lines.append(f"- `!`: checksum differs from {ref}'s answer")
    fb = results.get("polars-gpu", {}).get("polars_gpu_fallbacks")
    if fb:
        lines.append("- Polars GPU engine fell back to its CPU engine on: " + ", ".join(sorted(fb, key=lambda q: int(q[1:]))))
    for g in [s for s in systems if s.startswith("gframe")]:
        places = {q: r.get("fallbacks") for q, r in results[g]["queries"].items() if r.get("fallbacks")}
        if places:
            lines.append(f"- {g} fallbacks (kind api: reason), per query:")
            for q, items in places.items():
                lines.append(f"  - {q}: " + "; ".join(items[:6]) + (f"; ... ({len(items)})" if len(items) > 6 else ""))
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="folder of <table>.parquet (benchmarks/tpch/generate.py)")
    ap.add_argument("--systems", nargs="+", default=["gframe-cpu", "pandas", "polars", "duckdb"], choices=SYSTEMS)
    ap.add_argument("--variant", default="arrow", choices=["arrow", "numpy"], help="the pandas code's reads")
    ap.add_argument("--queries", nargs="+", default=QUERIES)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pandas-repeat", type=int, default=0, help="pandas' own repeat count (0: --repeat)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per system (all its queries)")
    ap.add_argument("--markdown", default=None, help="append the table to this file")
    ap.add_argument("--json", default=None, help="write every time and checksum here")
    ap.add_argument("--verbose", action="store_true", help="show the workers' stderr")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args)
        return
    machine = _machine()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as log_dir:
        for s in args.systems:
            print(f"[tpch] {s} ...", file=sys.stderr, flush=True)
            results[s] = _run_system(s, args, log_dir)
            note = results[s].get("skip") or results[s].get("timed_out") or f"{results[s]['wall_s']:.1f}s"
            print(f"[tpch] {s}: {note}", file=sys.stderr, flush=True)
    table = markdown(results, args, machine)
    print(table)
    if args.markdown:
        with open(args.markdown, "a") as fh:
            fh.write(table + "\n")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"machine": machine, "args": {k: v for k, v in vars(args).items() if k != "worker"},
                       "results": results}, fh, indent=1)


if __name__ == "__main__":
    main()
