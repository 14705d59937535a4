#!/usr/bin/env python
"""db-benchmark (h2oai / duckdblabs) groupby q1-q10 and join q1-q5 for gframe and friends.

    python benchmarks/db_benchmark.py --rows 1e6 1e7 --solutions pandas gframe polars duckdb \
        --task groupby join --repeat 2 --markdown out.md

Data is generated in-process (seeded numpy, see dbbench_data.py) and loaded once per solution
(untimed). Each question is timed end to end: the query plus db-benchmark's checksum (row count and
sums of the measure columns), which forces the full result; the best of --repeat runs is reported.
Afterwards every answer is compared with pandas' (rows sorted by the keys; gframe is also compared
exactly, in pandas' own row order and dtypes).

cudf.pandas must be installed before pandas is imported, so it runs in a subprocess of this script
(``--solutions cudf_pandas-worker``) that writes its timings and answers to a folder. ``--isolate``
runs gframe the same way (``gframe-worker``): each GPU solution then has the device to itself and
gives its memory back when it exits. Workers read the data from a parquet copy the parent writes
once per size and task, so large inputs are generated once; reading is not timed.
"""
from __future__ import annotations

import sys

if "cudf_pandas-worker" in sys.argv:  # must precede any pandas import
    import numpy

    if not hasattr(numpy, "row_stack"):
        numpy.row_stack = numpy.vstack  # removed in numpy 2.5, still referenced by numba-cuda (cudf)
    import cudf.pandas

    cudf.pandas.install()

import argparse
import datetime
import gc
import json
import math
import os
import pickle
import platform
import shutil
import subprocess
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))  # gframe from this checkout if not installed

import dbbench_data  # noqa: E402
import dbbench_questions as Q  # noqa: E402

ALL_QUESTIONS = {"groupby": list(Q.GROUPBY_TITLES), "join": list(Q.JOIN_TITLES)}
KNOWN = ("pandas", "gframe", "polars", "duckdb", "cudf.pandas")
ALIASES = {"cudf_pandas": "cudf.pandas", "cudf-pandas": "cudf.pandas", "cudf": "cudf.pandas"}


def noop() -> None:
    pass


# Per-solution sync hooks called before reading the clock, overriding --sync; a GPU wrapper can do
#   db_benchmark.SYNC_HOOKS["gframe"] = cupy.cuda.runtime.deviceSynchronize; db_benchmark.main([...])
SYNC_HOOKS: dict = {}


def cupy_sync():
    """cupy's deviceSynchronize when cupy and a GPU are present, else None."""
    try:
        import cupy

        if cupy.cuda.runtime.getDeviceCount() > 0:
            return cupy.cuda.runtime.deviceSynchronize
    except Exception:
        pass
    return None


def short_error(exc: BaseException, limit: int = 70) -> str:
    msg = f"{type(exc).__name__}: {exc}".replace("\n", " ").replace("|", "/")
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."


# ============================================================================ solutions
class Solution:
    name = "?"
    exact = False  # also compare with pandas without sorting and with dtypes

    def __init__(self, sync=None):
        self.sync = sync or noop

    def load(self, task, frames):
        raise NotImplementedError

    def run(self, task, q):
        raise NotImplementedError

    def checksum(self, task, q, ans):
        raise NotImplementedError

    def to_pandas(self, ans):
        return ans

    def unload(self):
        self.frames = None


class PandasAPI(Solution):
    """pandas, gframe and cudf.pandas: the pandas scripts' code run against module ``mod``."""

    def __init__(self, name, mod, convert=None, sync=None, exact=False):
        super().__init__(sync)
        self.name, self.mod, self.convert, self.exact = name, mod, convert, exact

    def load(self, task, frames):
        conv = self.convert or (lambda df: df)
        self.frames = {k: conv(v) for k, v in frames.items()}
        for df in self.frames.values():  # force resident
            len(df)
        self.sync()

    def run(self, task, q):
        return Q.PANDAS_API[task][q](self.mod, **self.frames)

    def checksum(self, task, q, ans):
        out = [len(ans)]
        for c in Q.CHK[task][q]:
            col = ans[c] if isinstance(c, str) else ans[c[0]][c[1]]
            out.append(float(col.sum()))
        return out

    def to_pandas(self, ans):
        if hasattr(ans, "to_pandas"):
            return ans.to_pandas()
        return ans


class Polars(Solution):
    name = "polars"

    def __init__(self, sync=None):
        super().__init__(sync)
        import polars as pl

        self.pl = pl

    def load(self, task, frames):
        self.frames = {k: self.pl.from_pandas(v) for k, v in frames.items()}
        self.qs = Q.polars_questions(self.pl, task)

    def run(self, task, q):
        return self.qs[q](**self.frames)

    def checksum(self, task, q, ans):
        return [ans.height] + [float(ans[c].sum()) for c in Q.flat_chk(Q.CHK[task][q])]

    def to_pandas(self, ans):
        return ans.to_pandas()


class DuckDB(Solution):
    name = "duckdb"

    def __init__(self, sync=None):
        super().__init__(sync)
        import duckdb

        self.duckdb = duckdb

    def load(self, task, frames):
        import pyarrow as pa

        self.con = self.duckdb.connect()
        for name, df in frames.items():  # native in-memory tables, like db-benchmark's duckdb
            self.con.register("src_tbl", pa.Table.from_pandas(df, preserve_index=False))
            self.con.execute(f"CREATE TABLE {name} AS SELECT * FROM src_tbl").fetchall()
            self.con.unregister("src_tbl")

    def run(self, task, q):
        self.con.execute(f"CREATE OR REPLACE TEMP TABLE ans AS {Q.SQL[task][q]}").fetchall()
        return "ans"

    def checksum(self, task, q, ans):
        sums = ", ".join(f"sum({c})::DOUBLE" for c in Q.flat_chk(Q.CHK[task][q]))
        return list(self.con.execute(f"SELECT count(*), {sums} FROM {ans}").fetchall()[0])

    def to_pandas(self, ans):
        return self.con.table(ans).df()

    def unload(self):
        self.con.close()
        self.con = None


def make_solution(name: str, sync_mode: str):
    """The solution object, or a string saying why it is skipped."""
    try:
        if name == "pandas":
            import pandas

            return PandasAPI("pandas", pandas, sync=SYNC_HOOKS.get("pandas"))
        if name == "gframe":
            try:
                import gframe
            except ImportError:
                raise
            except Exception as exc:  # a broken checkout
                return f"skipped: import gframe failed ({short_error(exc, 200)})"

            sync = SYNC_HOOKS.get("gframe") or (cupy_sync() if sync_mode in ("auto", "cupy") else None)
            if sync_mode == "cupy" and sync is None:
                return "skipped: --sync cupy but no cupy/GPU"
            return PandasAPI("gframe", gframe, convert=gframe.DataFrame, sync=sync, exact=True)
        if name == "polars":
            return Polars(SYNC_HOOKS.get("polars"))
        if name == "duckdb":
            return DuckDB(SYNC_HOOKS.get("duckdb"))
    except ImportError as exc:
        return f"skipped: not installed ({exc})"
    except Exception as exc:
        return f"skipped: setup failed ({short_error(exc, 200)})"
    return f"skipped: unknown solution {name!r}"


# ============================================================================ answers
def flatten(df):
    """RangeIndex, flat string column names (("v3", "median") -> "v3_median")."""
    import pandas as pd

    df = df.reset_index(drop=True)
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = ["_".join(str(p) for p in c if p != "") for c in df.columns]
    else:
        df.columns = [str(c) for c in df.columns]
    return df


# Questions whose pandas code sorts with pandas' default (unstable) quicksort: rows with equal sort keys
# may come in any order, so only the sorted comparison applies (the set of rows must still be equal).
UNSTABLE_ORDER = {("groupby", "q8")}


def compare(ref, other, keys, exact: bool) -> str:
    """'ok' or 'MISMATCH...' comparing ``other`` (a pandas frame) with pandas' answer ``ref``."""
    import pandas as pd
    from pandas.testing import assert_frame_equal

    if not isinstance(other, pd.DataFrame):
        return f"MISMATCH: answer is {type(other).__name__}, not a DataFrame"
    if exact:
        try:
            assert_frame_equal(other, ref, check_dtype=True, rtol=1e-6)
        except AssertionError as exc:
            return "MISMATCH(exact): " + " ".join(str(exc).split())[:300]
    a, b = flatten(ref), flatten(other)
    if sorted(a.columns) != sorted(b.columns):
        return f"MISMATCH(columns): {list(b.columns)} vs pandas {list(a.columns)}"
    b = b[list(a.columns)]
    for df in (a, b):  # nullable / arrow numerics (e.g. duckdb's Int64 with <NA>) -> float64 with NaN
        for c in df.columns:
            dt = df[c].dtype
            if isinstance(dt, pd.api.extensions.ExtensionDtype) and pd.api.types.is_numeric_dtype(dt) \
                    and not pd.api.types.is_bool_dtype(dt) and df[c].isna().any():
                df[c] = df[c].astype("float64")
    a = a.sort_values(keys, kind="stable").reset_index(drop=True)
    b = b.sort_values(keys, kind="stable").reset_index(drop=True)
    try:
        assert_frame_equal(b, a, check_dtype=False, rtol=1e-6, check_column_type=False,
                           check_index_type=False)
    except AssertionError as exc:
        return "MISMATCH: " + " ".join(str(exc).split())[:300]
    return "ok"


# ============================================================================ timing
def time_question(sol: Solution, task: str, q: str, repeat: int):
    """(best seconds, checksum, last answer) or raises."""
    best, ans, chk = math.inf, None, None
    for _ in range(repeat):
        ans = None
        gc.collect()
        sol.sync()
        t0 = time.perf_counter()
        ans = sol.run(task, q)
        chk = sol.checksum(task, q, ans)
        sol.sync()
        best = min(best, time.perf_counter() - t0)
    return best, chk, ans


def run_solution(sol: Solution, task, frames, questions, repeat, refdir, check, log):
    """Times every question; returns {q: {"time", "error", "check", "chk"}}."""
    res = {}
    t0 = time.perf_counter()
    sol.load(task, frames)
    log(f"  [{sol.name}] data loaded in {time.perf_counter() - t0:.1f}s")
    for q in questions:
        r = res[q] = {"time": None, "error": None, "check": "-", "chk": None}
        try:
            r["time"], r["chk"], ans = time_question(sol, task, q, repeat)
        except Exception as exc:
            r["error"] = short_error(exc)
            r["traceback"] = traceback.format_exc()
            log(f"  [{sol.name}] {task} {q}: error: {short_error(exc, 300)}")
            continue
        if check:
            refpath = refdir / f"{q}.pkl"
            try:
                if sol.name == "pandas":
                    with open(refpath, "wb") as f:
                        pickle.dump(ans, f, protocol=pickle.HIGHEST_PROTOCOL)
                    r["check"] = "ref"
                elif refpath.exists():
                    other = sol.to_pandas(ans)
                    del ans
                    with open(refpath, "rb") as f:
                        ref = pickle.load(f)
                    r["check"] = compare(ref, other, Q.SORT_KEYS[task][q], sol.exact and (task, q) not in UNSTABLE_ORDER)
                    del ref, other
            except Exception as exc:
                r["check"] = f"MISMATCH(check failed): {short_error(exc, 200)}"
        ans = None
        msg = "" if r["check"] in ("-", "ref", "ok") else f"  {r['check']}"
        log(f"  [{sol.name}] {task} {q}: {r['time']:.4f}s chk={r['chk']} {r['check'][:8]}{msg}")
    sol.unload()
    gc.collect()
    return res


WORKERS = {"cudf.pandas": "cudf_pandas-worker", "gframe": "gframe-worker"}


def write_data_dir(frames: dict, log) -> Path:
    """The generated frames as parquet files, for the worker processes (written once)."""
    t0 = time.perf_counter()
    out = Path(tempfile.mkdtemp(prefix="dbbench_data_"))
    for name, df in frames.items():
        df.to_parquet(out / f"{name}.parquet", index=False)
    log(f"  data written for the workers in {time.perf_counter() - t0:.1f}s: {out}")
    return out


def run_cudf_worker(args, n, task, questions, refdir, check, log, data_dir=None):
    return run_worker("cudf.pandas", args, n, task, questions, refdir, check, log, data_dir)


def run_worker(solution, args, n, task, questions, refdir, check, log, data_dir=None):
    """A GPU solution in a subprocess of its own (it has the device to itself and gives the memory
    back when it exits); its answers are compared here with pandas'."""
    out = Path(tempfile.mkdtemp(prefix="dbbench_worker_"))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--solutions", WORKERS[solution],
           "--rows", str(n), "--task", task, "--questions", *questions, "--repeat", str(args.repeat),
           "--k", str(args.k), "--seed", str(args.seed), "--worker-out", str(out), "--sync", args.sync]
    if data_dir is not None:
        cmd += ["--data-dir", str(data_dir)]
    if not check:
        cmd.append("--no-check")
    log(f"  [{solution}] subprocess: {' '.join(cmd)}")
    exact = solution == "gframe"
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in proc.stdout.splitlines():
            log("    | " + line)
        resfile = out / "results.json"
        if not resfile.exists():
            return f"skipped: worker failed (rc={proc.returncode})"
        res = json.loads(resfile.read_text())
        for q, r in res.items():
            refpath = refdir / f"{q}.pkl"
            if check and r["time"] is not None and refpath.exists() and r.get("check") in (None, "-"):
                try:
                    pkl, arrow = out / f"{q}.pkl", out / f"{q}.arrow"
                    if pkl.exists():
                        with open(pkl, "rb") as f:
                            other = pickle.load(f)
                    elif arrow.exists():
                        import pyarrow.feather as feather

                        other = feather.read_table(arrow).to_pandas()
                    else:
                        continue
                    with open(refpath, "rb") as f:
                        ref = pickle.load(f)
                    r["check"] = compare(ref, other, Q.SORT_KEYS[task][q],
                                         exact=exact and (task, q) not in UNSTABLE_ORDER)
                    del ref, other
                except Exception as exc:
                    r["check"] = f"MISMATCH(check failed): {short_error(exc, 200)}"
            if r["check"] not in ("-", "ok"):
                log(f"  [{solution}] {task} {q}: {r['check']}")
        return res
    finally:
        shutil.rmtree(out, ignore_errors=True)


def worker_main(args):
    """Runs inside a worker subprocess: cudf.pandas (installed before pandas) or gframe."""
    import pyarrow as pa
    import pyarrow.feather as feather

    kind = args.solutions[0]
    out = Path(args.worker_out)
    n, task = args.rows[0], args.task[0]
    sync = cupy_sync() or noop
    t0 = time.perf_counter()
    if kind == "gframe-worker":
        import pandas

        import gframe

        name, mod, convert, exact, reader = "gframe", gframe, gframe.DataFrame, True, pandas.read_parquet
    else:
        import pandas as pd  # the cudf.pandas proxy module

        name, mod, convert, exact, reader = "cudf.pandas", pd, None, False, pd.read_parquet
    if args.data_dir:
        names = ["x"] if task == "groupby" else ["x", "small", "medium", "big"]
        frames = {k: reader(Path(args.data_dir) / f"{k}.parquet") for k in names}
        how = "read"
    else:
        frames = dbbench_data.make_data(task, n, args.k, args.seed)
        how = "generated"
    print(f"{name} worker: {task} data {n:.0e} rows {how} in {time.perf_counter() - t0:.1f}s", flush=True)
    sol = PandasAPI(name, mod, convert=convert, sync=sync, exact=exact)
    t0 = time.perf_counter()
    sol.load(task, frames)
    del frames
    print(f"{name} worker: loaded in {time.perf_counter() - t0:.1f}s", flush=True)
    res = {}
    for q in args.questions or ALL_QUESTIONS[task]:
        r = res[q] = {"time": None, "error": None, "check": "-", "chk": None}
        try:
            r["time"], r["chk"], ans = time_question(sol, task, q, args.repeat)
        except Exception as exc:
            r["error"] = short_error(exc)
            print(f"{q}: error: {short_error(exc, 300)}", flush=True)
            traceback.print_exc()
            continue
        print(f"{q}: {r['time']:.4f}s chk={r['chk']}", flush=True)
        if not args.no_check:
            try:
                if kind == "gframe-worker":  # the exact pandas object: compared in row order, with dtypes
                    with open(out / f"{q}.pkl", "wb") as f:
                        pickle.dump(sol.to_pandas(ans), f, protocol=pickle.HIGHEST_PROTOCOL)
                else:
                    flat = flatten(ans)
                    try:
                        tbl = pa.Table.from_pandas(flat, preserve_index=False)
                    except Exception:
                        tbl = flat._fsproxy_fast.to_arrow(preserve_index=False)  # cudf.DataFrame
                    feather.write_feather(tbl, str(out / f"{q}.arrow"))
            except Exception as exc:
                r["check"] = f"MISMATCH(could not export answer): {short_error(exc, 200)}"
        ans = None
    if kind == "gframe-worker":
        report = gframe.fallback_report()
        print(f"gframe worker: engine {gframe.engines.get_engine().name}, {len(report)} fallbacks", flush=True)
        for e in report:
            print(f"  {e.kind} {e.api}: {e.reason} ({e.rows} rows, {e.seconds:.3f}s, {e.bytes_moved} bytes)",
                  flush=True)
    (out / "results.json").write_text(json.dumps(res))


# ============================================================================ reporting
def fmt_rows(n: int) -> str:
    e = int(round(math.log10(n))) if n > 0 else 0
    return f"1e{e}" if 10**e == n else f"{n:.2e}"


def build_table(task, questions, solutions, results):
    """Header and rows of cells (strings)."""
    has_ref = "pandas" in results and isinstance(results["pandas"], dict)
    header = ["question"]
    for s in solutions:
        header.append(s + " (s)")
        if has_ref and s != "pandas":
            header.append(f"{s} vs pandas")
    rows = []
    speedups = {s: [] for s in solutions}
    for q in questions:
        row = [f"{q} {Q.TITLES[task][q]}"]
        for s in solutions:
            res = results.get(s)
            if not isinstance(res, dict):
                row.append((res or "-").split(":")[0])
                if has_ref and s != "pandas":
                    row.append("-")
                continue
            r = res.get(q, {})
            if r.get("time") is None:
                row.append("error: " + (r.get("error") or "?"))
            else:
                chk = r.get("check", "-")
                tag = "" if chk in ("-", "ref") else (" ok" if chk == "ok" else " MISMATCH")
                if chk == "-" and has_ref and s != "pandas":  # answers not compared: the checksums are
                    ref_chk = results["pandas"].get(q, {}).get("chk")
                    if ref_chk and r.get("chk"):
                        tag = " chk" if checksums_agree(ref_chk, r["chk"]) else " CHK-MISMATCH"
                row.append(f"{r['time']:.4f}{tag}")
            if has_ref and s != "pandas":
                p = results["pandas"].get(q, {}).get("time")
                if p is not None and r.get("time"):
                    sp = p / r["time"]
                    speedups[s].append(sp)
                    row.append(f"{sp:.2f}x")
                else:
                    row.append("-")
        rows.append(row)
    totals = ["total (s), questions all solutions answered"]
    answered = [q for q in questions if all(isinstance(results.get(s), dict) and
                                            results[s].get(q, {}).get("time") is not None for s in solutions)]
    total = {s: sum(results[s][q]["time"] for q in answered) for s in solutions
             if isinstance(results.get(s), dict)}
    for s in solutions:
        totals.append(f"{total[s]:.3f} ({len(answered)}q)" if s in total else "-")
        if has_ref and s != "pandas":
            totals.append(f"{total['pandas'] / total[s]:.2f}x" if s in total and total.get(s) else "-")
    rows.append(totals)
    if "gframe" in total and "cudf.pandas" in total and total["cudf.pandas"]:
        ratio = ["gframe total / cudf.pandas total"] + [""] * (len(header) - 1)
        ratio[1] = f"{total['gframe'] / total['cudf.pandas']:.3f}"
        rows.append(ratio)
    if has_ref:
        geo = ["geomean speedup vs pandas"]
        for s in solutions:
            geo.append("")
            if s != "pandas":
                v = speedups[s]
                geo.append(f"{math.exp(sum(map(math.log, v)) / len(v)):.2f}x ({len(v)}q)" if v else "-")
        rows.append(geo)
    return header, rows


def checksums_agree(a, b) -> bool:
    """db-benchmark's checksum (row count, sums of the measures) equal up to float summation order."""
    return len(a) == len(b) and all(math.isclose(float(x), float(y), rel_tol=1e-6, abs_tol=1e-6) for x, y in zip(a, b))


def text_table(header, rows) -> str:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)  # noqa: E731
                               for i, (c, w) in enumerate(zip(r, widths)))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in rows])


def md_table(header, rows) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def machine_info() -> dict:
    info = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cpu": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
    }
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} logical cores"
                    break
    except OSError:
        pass
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        info["gpu"] = "; ".join(gpu.stdout.strip().splitlines()) or "none"
    except (OSError, subprocess.SubprocessError):
        info["gpu"] = "none (no nvidia-smi)"
    versions = []
    for mod in ("pandas", "numpy", "pyarrow", "polars", "duckdb", "gframe", "cudf"):
        try:
            m = __import__(mod)
            versions.append(f"{mod} {getattr(m, '__version__', '?')}")
        except Exception:
            pass
    info["versions"] = ", ".join(versions)
    info["GFRAME_ENGINE"] = os.environ.get("GFRAME_ENGINE", "(unset: auto)")
    return info


# ============================================================================ main
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", nargs="+", default=["1e6"], help="row counts, e.g. 1e6 1e7")
    p.add_argument("--solutions", nargs="+", default=["pandas", "gframe", "polars", "duckdb"],
                   help=f"any of {', '.join(KNOWN)} (cudf.pandas runs in a subprocess)")
    p.add_argument("--task", nargs="+", default=["groupby", "join"], choices=["groupby", "join"])
    p.add_argument("--questions", nargs="+", default=None, help="e.g. q1 q2 (default: all)")
    p.add_argument("--repeat", type=int, default=2, help="runs per question; the best is reported")
    p.add_argument("--k", type=int, default=100, help="groupby K (groups of id1/id2/id4/id5)")
    p.add_argument("--seed", type=int, default=dbbench_data.SEED)
    p.add_argument("--markdown", default=None, help="append the tables as markdown to this file")
    p.add_argument("--no-check", action="store_true", help="skip comparing answers with pandas")
    p.add_argument("--check-max-rows", type=float, default=None,
                   help="compare answers only up to this many rows (above: checksums only)")
    p.add_argument("--sync", choices=["auto", "none", "cupy"], default="auto",
                   help="gframe's sync before reading the clock: auto = cupy deviceSynchronize when a "
                        "GPU is present")
    p.add_argument("--isolate", action="store_true",
                   help="run gframe in a subprocess too, as cudf.pandas is (each GPU solution then has the "
                        "device to itself)")
    p.add_argument("--pandas-repeat", type=int, default=None,
                   help="runs per question for pandas (default: --repeat); pandas has no warm-up to amortize")
    p.add_argument("--worker-out", default=None, help=argparse.SUPPRESS)
    p.add_argument("--data-dir", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.rows = [int(float(r)) for r in args.rows]
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.solutions in (["cudf_pandas-worker"], ["gframe-worker"]):
        return worker_main(args)

    sols = []
    for s in args.solutions:
        s = ALIASES.get(s, s)
        if s not in sols:
            sols.append(s)
    if "pandas" in sols:  # the reference runs first
        sols.remove("pandas")
        sols.insert(0, "pandas")
    check = not args.no_check and "pandas" in sols

    info = machine_info()
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    for k, v in info.items():
        log(f"{k}: {v}")
    md = ["", f"# db-benchmark run {info['date']}", ""]
    md += [f"- {k}: {v}" for k, v in info.items() if k != "date"]
    md += [f"- command: `{' '.join([Path(sys.argv[0]).name] + sys.argv[1:])}`",
           f"- timing: best of {args.repeat} runs, seconds, query + checksum (forces the result); "
           f"'ok'/'MISMATCH' compares the answer with pandas'", ""]

    all_check = check
    for n in args.rows:
        check = all_check and (args.check_max_rows is None or n <= args.check_max_rows)
        for task in args.task:
            questions = [q for q in (args.questions or ALL_QUESTIONS[task]) if q in ALL_QUESTIONS[task]]
            if not questions:
                continue
            log(f"\n=== {task}, {fmt_rows(n)} rows ===")
            t0 = time.perf_counter()
            frames = dbbench_data.make_data(task, n, args.k, args.seed)
            sizes = ", ".join(f"{k}={len(v):,}" for k, v in frames.items())
            log(f"data generated in {time.perf_counter() - t0:.1f}s: {sizes}")
            refdir = Path(tempfile.mkdtemp(prefix="dbbench_ref_"))
            results = {}
            in_workers = [s for s in sols if s == "cudf.pandas" or s == "gframe" and args.isolate]
            data_dir = write_data_dir(frames, log) if in_workers else None
            try:
                for s in sols:
                    if s in in_workers:
                        results[s] = run_worker(s, args, n, task, questions, refdir, check, log, data_dir)
                        continue
                    sol = make_solution(s, args.sync)
                    if isinstance(sol, str):
                        log(f"  [{s}] {sol}")
                        results[s] = sol
                        continue
                    repeat = args.pandas_repeat if s == "pandas" and args.pandas_repeat else args.repeat
                    try:
                        results[s] = run_solution(sol, task, frames, questions, repeat, refdir,
                                                  check, log)
                    except Exception as exc:  # e.g. loading the data failed
                        log(f"  [{s}] failed: {short_error(exc, 300)}")
                        results[s] = "error: " + short_error(exc)
                    del sol
                    gc.collect()
            finally:
                shutil.rmtree(refdir, ignore_errors=True)
                if data_dir is not None:
                    shutil.rmtree(data_dir, ignore_errors=True)
            del frames
            gc.collect()

            header, rows = build_table(task, questions, sols, results)
            title = f"{task}, {fmt_rows(n)} rows" + (f", K={args.k}" if task == "groupby" else
                                                      " (small/medium/big = %d/%d/%d)" % dbbench_data.join_sizes(n))
            log(f"\n{title}\n" + text_table(header, rows))
            problems = [(s, q, r.get("check") if r.get("time") is not None else "error: " + r["error"])
                        for s, res in results.items() if isinstance(res, dict)
                        for q, r in res.items()
                        if r.get("time") is None or r.get("check") not in ("-", "ref", "ok")]
            for s, q, msg in problems:
                log(f"  {s} {q}: {msg}")
            for s, res in results.items():
                if not isinstance(res, dict):
                    log(f"  {s}: {res}")
                    problems.append((s, "all", res))
            md += [f"## {title}", "", md_table(header, rows), ""]
            if problems:
                md += ["<details><summary>errors and mismatches</summary>", ""]
                md += [f"- {s} {q}: `{msg}`" for s, q, msg in problems] + ["", "</details>", ""]

    if args.markdown:
        with open(args.markdown, "a") as f:
            f.write("\n".join(md) + "\n")
        log(f"\nmarkdown appended to {args.markdown}")


if __name__ == "__main__":
    main()
