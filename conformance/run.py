"""Run pandas' own test modules on pandas, on gframe with fallback, and on gframe strict; tabulate.

    PYTHONPATH=$PWD python conformance/run.py --modules frame/methods series/methods --jobs 2

Each (test file, mode) pair is one pytest subprocess with ``conformance/plugin.py`` loaded; the plugin
appends one JSON line per test to ``conformance/out/<mode>/<module>.jsonl``. A pair whose output
already exists is not run again unless ``--force``, so an interrupted run resumes where it stopped and a
big folder can be measured in several sittings. The report is built from every output file present for
the selected modules: ``--report-only`` rebuilds it without running anything.

Denominator: tests that pass on pandas itself (xfail, skip and failures on pandas are left out; nothing
else is). A test counts as passing under gframe only with outcome ``passed``; tests a module never
reached (module timeout, crash at collection) count as failures of cause "not run".
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MODES = ("pandas", "fallback", "strict")

# the folders issue 10 names; "io/parquet" is one file in pandas' tree
DEFAULT_MODULES = [
    "frame/methods", "series/methods", "groupby", "reshape/merge", "reshape/concat", "strings", "indexing",
    "arithmetic", "reductions", "window", "resample", "io/parquet", "tools",
]
ALIASES = {"io/parquet": "io/test_parquet.py"}
# files with thousands of tests each: a batch of their own
BIG_FILES = {"arithmetic/test_datetime64.py", "groupby/test_raises.py", "arithmetic/test_numeric.py",
             "window/test_dtypes.py", "groupby/test_groupby.py", "groupby/test_categorical.py",
             "resample/test_datetime_index.py", "strings/test_api.py"}


def pandas_tests_dir() -> Path:
    import pandas

    return Path(pandas.__file__).resolve().parent / "tests"


def expand(selectors: list[str]) -> list[str]:
    """Folders and files under pandas/tests -> test files (relative paths), sorted; plotting left out."""
    base = pandas_tests_dir()
    files: list[str] = []
    for sel in selectors:
        sel = ALIASES.get(sel.rstrip("/"), sel.rstrip("/"))
        path = base / sel
        if path.is_dir():
            found = sorted(p for p in path.rglob("test_*.py") if "plot" not in p.name)
            files += [str(p.relative_to(base)) for p in found]
        elif path.is_file():
            files.append(sel)
        else:
            raise SystemExit(f"no such pandas test module or folder: {sel}")
    return list(dict.fromkeys(files))  # selector order: run what matters first


def out_path(outdir: Path, mode: str, module: str) -> Path:
    return outdir / mode / (module.replace("/", "__").removesuffix(".py") + ".jsonl")


def run_batch(modules: list[str], mode: str, outdir: Path, test_timeout: float, batch_timeout: float) -> tuple[list[str], str, float, int]:
    """One pytest subprocess over a few test files in one mode; outcomes split per file afterwards.

    Batching matters: pandas' conftest and hypothesis take seconds to import, times some 300 files and
    3 modes. Every file of the batch gets an output file, with no test records when the batch died
    before reaching it (the report counts its tests as "not run").
    """
    base = pandas_tests_dir()
    (outdir / mode).mkdir(parents=True, exist_ok=True)
    partial = outdir / mode / (modules[0].replace("/", "__").removesuffix(".py") + ".batch.partial")
    partial.unlink(missing_ok=True)
    env = dict(os.environ)
    env.update(GFRAME_CONFORMANCE_MODE=mode, GFRAME_CONFORMANCE_OUT=str(partial),
               GFRAME_CONFORMANCE_TIMEOUT=str(test_timeout),
               PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    env.pop("GFRAME_FALLBACK", None)  # the plugin sets the fallback mode
    cmd = [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q",
           "-o", "addopts=", "--no-header", "-rN", "--tb=no", "-W", "ignore::DeprecationWarning",
           f"--rootdir={base.parent.parent}", *(str(base / m) for m in modules)]
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(cmd, env=env, cwd=str(ROOT), capture_output=True, text=True, timeout=batch_timeout,
                              check=False)  # rc 1 = some tests failed: the normal case
        rc = proc.returncode
        tail = (proc.stdout + proc.stderr)[-3000:]
    except subprocess.TimeoutExpired:
        rc, tail = 124, f"batch timeout after {batch_timeout:g} s"
    elapsed = time.perf_counter() - t0
    if rc < 0:  # killed from outside (the run was interrupted): leave no output, a resumed run redoes it
        partial.unlink(missing_ok=True)
        return modules, mode, elapsed, 0
    lines = partial.read_text().splitlines() if partial.exists() else []
    by_module: dict[str, list[dict[str, Any]]] = {m: [] for m in modules}
    for line in lines:
        r = json.loads(line)
        mod = normalize_nodeid(r["nodeid"]).split("::")[0].removeprefix("tests/")
        by_module.setdefault(mod, []).append(r)
    date = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    for m in modules:
        meta = {"module": m, "mode": mode, "rc": rc, "batch_seconds": round(elapsed, 1), "batch": modules,
                "date": date, "tail": tail if rc not in (0, 1) else ""}  # rc 124: batch timeout
        with open(out_path(outdir, mode, m), "w") as fh:
            fh.write(json.dumps({"meta": meta}) + "\n")
            for r in by_module[m]:
                fh.write(json.dumps(r) + "\n")
    partial.unlink(missing_ok=True)
    return modules, mode, elapsed, len(lines)


def batches(modules: list[str], size: int) -> list[list[str]]:
    """Files of one folder together, at most ``size`` a batch; pandas' biggest files alone."""
    out: list[list[str]] = []
    for m in modules:
        alone = m in BIG_FILES
        if out and not alone and len(out[-1]) < size and os.path.dirname(out[-1][0]) == os.path.dirname(m) \
                and out[-1][0] not in BIG_FILES:
            out[-1].append(m)
        else:
            out.append([m])
    return out


def load(outdir: Path, mode: str, module: str) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    path = out_path(outdir, mode, module)
    if not path.exists():
        return None, {}
    meta, recs = None, {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        if "meta" in r:
            meta = r["meta"]
        else:
            recs[normalize_nodeid(r["nodeid"])] = r
    return meta, recs


def normalize_nodeid(nodeid: str) -> str:
    """Node ids relative to the pandas package: ``tests/frame/...::test_x[...]``."""
    i = nodeid.find("pandas/tests/")
    return nodeid[i + len("pandas/"):] if i >= 0 else nodeid


# ---------------------------------------------------------------- failure classes

_INTERNALS = re.compile(r"\b_mgr\b|\._data\b|\bblocks?\b|_block\b|BlockManager|\binternals\b|_get_numeric_data|\._values\b|_ndarray\b")


def classify(rec: dict[str, Any] | None, mode: str) -> str:
    """Rough cause of a failure, so the table says why."""
    if rec is None:
        return "not run (module timeout or crash)"
    if rec["outcome"] in ("skipped", "xfailed"):
        return f"{rec['outcome']} under gframe"
    exc, msg, text = rec.get("exc", ""), rec.get("msg", ""), rec.get("text", "")
    if exc == "FallbackError":
        return "strict: FallbackError (would run through pandas)"
    if exc == "ConformanceTimeout":
        return "timeout"
    test_lines = "\n".join(line for line in text.splitlines() if "/pandas/tests/" in line)
    if _INTERNALS.search(test_lines) or _INTERNALS.search(msg):
        return "pandas internals (_mgr, blocks, ._data, ._values)"
    if exc == "AttributeError" and re.search(r"^_\w+$|'_\w+'", msg):
        return "private pandas API (AttributeError on a _name)"
    if exc == "AttributeError":
        return "missing API (AttributeError)"
    if exc == "TypeError" and re.search(r"unexpected keyword|positional argument|required (keyword|positional)|takes \d+", msg):
        return "signature (TypeError: arguments)"
    if exc == "TypeError":
        return "TypeError (other)"
    if exc == "AssertionError":
        if "Regex pattern did not match" in msg:
            return "wrong exception message"
        if "Did not see expected warning" in msg or "stacklevel" in msg or "Caused unexpected warning" in msg or "expected warning" in msg:
            return "warnings differ"
        if "Expected type" in msg:
            return "wrong result type (AssertionError)"
        return "wrong result (AssertionError)"
    if exc == "Failed" and "DID NOT RAISE" in msg:
        return "exception expected, none raised"
    if exc == "NotImplementedError":
        return "NotImplementedError"
    if "polars" in text or exc.endswith(("ComputeError", "SchemaError", "InvalidOperationError", "ShapeError")):
        return f"engine error ({exc})"
    return f"other exception ({exc})"


def cause_key(rec: dict[str, Any] | None) -> str:
    """A finer key for the "top causes" list: exception type and normalized message."""
    if rec is None:
        return "not run"
    parts = rec.get("msg", "").split(" | ")
    # assert_*_equal: "X are different | Attribute "dtype" are different"; the values lines vary per test
    msg = " | ".join(parts[:2]) if "are different" in parts[0] else parts[0]
    if rec.get("exc") == "FallbackError":
        msg = msg.split(" and would run through pandas")[0].replace(" is not implemented natively by gframe", "")
    msg = re.sub(r"0x[0-9a-f]+", "0x…", msg)
    msg = re.sub(r"\d+(\.\d+)?", "N", msg)
    return f"{rec.get('exc', rec['outcome'])}: {msg[:140]}"


# ---------------------------------------------------------------- report

def report(modules: list[str], outdir: Path, selectors: list[str], command: str) -> dict[str, Any]:
    rows, folders = [], collections.OrderedDict()
    causes = {m: collections.Counter() for m in ("fallback", "strict")}
    classes = {m: collections.Counter() for m in ("fallback", "strict")}
    passing = {m: [] for m in ("fallback", "strict")}
    base_sel = [ALIASES.get(s.rstrip("/"), s.rstrip("/")) for s in selectors]
    missing = []
    for module in modules:
        meta_p, pd_recs = load(outdir, "pandas", module)
        if meta_p is None or any(load(outdir, m, module)[0] is None for m in ("fallback", "strict")):
            missing.append(module)
        if meta_p is None:
            continue
        denom = sorted(n for n, r in pd_recs.items() if r["outcome"] == "passed")
        row = {"module": module, "collected_on_pandas": len(pd_recs), "pass_on_pandas": len(denom)}
        for mode in ("fallback", "strict"):
            meta, recs = load(outdir, mode, module)
            if meta is None:
                row[mode] = None
                continue
            ok = [n for n in denom if recs.get(n, {}).get("outcome") == "passed"]
            row[mode] = len(ok)
            passing[mode] += ok
            for n in denom:
                r = recs.get(n)
                if r is None or r["outcome"] != "passed":
                    classes[mode][classify(r, mode)] += 1
                    causes[mode][cause_key(r)] += 1
        row["folder"] = next((s for s in base_sel if module == s or module.startswith(s + "/")), module)
        rows.append(row)
        agg = folders.setdefault(row["folder"], {"files": 0, "pass_on_pandas": 0, "fallback": 0, "strict": 0,
                                                 "complete": True})
        agg["files"] += 1
        agg["pass_on_pandas"] += row["pass_on_pandas"]
        for mode in ("fallback", "strict"):
            if row[mode] is None:
                agg["complete"] = False
            else:
                agg[mode] += row[mode]
    for module in missing:  # a folder with a file not (fully) measured is marked incomplete
        name = next((s for s in base_sel if module == s or module.startswith(s + "/")), module)
        agg = folders.setdefault(name, {"files": 0, "pass_on_pandas": 0, "fallback": 0, "strict": 0})
        agg["complete"] = False
        agg["files_not_measured"] = agg.get("files_not_measured", 0) + 1
    total = {"pass_on_pandas": sum(r["pass_on_pandas"] for r in rows),
             "fallback": sum(r["fallback"] or 0 for r in rows), "strict": sum(r["strict"] or 0 for r in rows)}
    result = {"date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
              "command": command, "not_measured": missing, "modules": rows, "folders": folders, "total": total,
              "failure_classes": {m: classes[m].most_common() for m in classes},
              "top_causes": {m: causes[m].most_common(40) for m in causes}}
    return result, passing


def pct(a: int | None, b: int) -> str:
    return "-" if a is None else (f"{100 * a / b:.1f}%" if b else "n/a")


def markdown(result: dict[str, Any]) -> str:
    t = result["total"]
    out = ["# pandas test-suite conformance", "",
           f"Measured {result['date']} with:", "", f"    {result['command']}", "",
           ("Denominator: tests that pass on pandas itself. *fallback*: gframe with calls it cannot run natively "
            "sent to pandas. *strict*: `gframe.options.fallback = \"raise\"`, so a pass ran natively."), "",
           (f"**Overall: {t['pass_on_pandas']} tests pass on pandas; with fallback {t['fallback']} "
            f"({pct(t['fallback'], t['pass_on_pandas'])}), strict {t['strict']} ({pct(t['strict'], t['pass_on_pandas'])}).**"),
           "", "## By folder", "", "| folder | files | pass on pandas | fallback | rate | strict | rate |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for name, f in result["folders"].items():
        mark = "" if f["complete"] else f" (incomplete: {f.get('files_not_measured', 0)} files not measured)"
        out.append(f"| {name}{mark} | {f['files']} | {f['pass_on_pandas']} | {f['fallback']} | "
                   f"{pct(f['fallback'], f['pass_on_pandas'])} | {f['strict']} | {pct(f['strict'], f['pass_on_pandas'])} |")
    for mode in ("fallback", "strict"):
        out += ["", f"## Failure classes ({mode})", "", "| class | tests |", "|---|---:|"]
        out += [f"| {k} | {v} |" for k, v in result["failure_classes"][mode]]
        out += ["", f"## Top failure causes ({mode})", "", "| cause | tests |", "|---|---:|"]
        out += [f"| `{k.replace('|', '/')}` | {v} |" for k, v in result["top_causes"][mode][:25]]
    if result["not_measured"]:
        out += ["", f"## Not measured ({len(result['not_measured'])} files; `run.py` resumes with them)", ""]
        out += [", ".join(f"`{m}`" for m in result["not_measured"])]
    out += ["", "## By module", "", "| module | pass on pandas | fallback | rate | strict | rate |",
            "|---|---:|---:|---:|---:|---:|"]
    for r in result["modules"]:
        out.append(f"| {r['module']} | {r['pass_on_pandas']} | {r['fallback'] if r['fallback'] is not None else '-'} | "
                   f"{pct(r['fallback'], r['pass_on_pandas'])} | {r['strict'] if r['strict'] is not None else '-'} | "
                   f"{pct(r['strict'], r['pass_on_pandas'])} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modules", nargs="+", default=DEFAULT_MODULES,
                    help="folders or files under pandas/tests (default: issue 10's set)")
    ap.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--test-timeout", type=float, default=20.0, help="seconds per test (SIGALRM)")
    ap.add_argument("--batch-timeout", type=float, default=3600.0, help="seconds per pytest subprocess")
    ap.add_argument("--batch-size", type=int, default=8, help="test files per pytest subprocess")
    ap.add_argument("--out", type=Path, default=HERE / "out", help="raw per-test outcomes (jsonl)")
    ap.add_argument("--force", action="store_true", help="re-run pairs that already have output")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--report", type=Path, default=HERE / "report", help="writes <report>.md and <report>.json")
    ap.add_argument("--write-baseline", action="store_true",
                    help="write conformance/baseline/{fallback,strict}.txt from the selected modules' outcomes")
    ap.add_argument("--update-baseline", action="store_true",
                    help="replace only the selected modules' entries in conformance/baseline/{fallback,strict}.txt "
                         "(other modules' entries kept); prints the baseline tests that no longer pass")
    args = ap.parse_args(argv)
    modules = expand(args.modules)
    command = "PYTHONPATH=$PWD python conformance/run.py " + " ".join(
        a if " " not in a else repr(a) for a in (argv if argv is not None else sys.argv[1:]))
    if not args.report_only:
        todo = [(m, mode) for m in modules for mode in args.modes
                if args.force or not out_path(args.out, mode, m).exists()]
        work = [(b, mode) for mode in args.modes
                for b in batches([m for m, md in todo if md == mode], args.batch_size)]
        work.sort(key=lambda w: (modules.index(w[0][0]), MODES.index(w[1])))  # folder by folder, all modes
        print(f"{len(modules)} test files, {len(todo)} (file, mode) pairs in {len(work)} batches, jobs={args.jobs}",
              flush=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futs = [pool.submit(run_batch, b, mode, args.out, args.test_timeout, args.batch_timeout) for b, mode in work]
            for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                b, mode, sec, n = fut.result()
                print(f"[{i}/{len(work)}] {mode:8s} {b[0]}{f' +{len(b) - 1}' if len(b) > 1 else ''}: "
                      f"{n} tests, {sec:.0f}s", flush=True)
    result, passing = report(modules, args.out, args.modules, command)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    args.report.with_suffix(".md").write_text(markdown(result))
    if args.write_baseline:
        (HERE / "baseline").mkdir(exist_ok=True)
        for mode, ids in passing.items():
            (HERE / "baseline" / f"{mode}.txt").write_text("".join(i + "\n" for i in sorted(ids)))
    elif args.update_baseline:
        measured = {"tests/" + m for m in modules}
        for mode, ids in passing.items():
            path = HERE / "baseline" / f"{mode}.txt"
            old = {line.strip() for line in path.read_text().splitlines() if line.strip()} if path.exists() else set()
            ours = {i for i in old if i.split("::")[0] in measured}
            lost = sorted(ours - set(ids))
            print(f"{mode}: baseline of the selected modules {len(ours)} -> {len(ids)}; {len(lost)} no longer pass"
                  + "".join(f"\n  - {i}" for i in lost[:50]))
            path.write_text("".join(i + "\n" for i in sorted((old - ours) | set(ids))))
    t = result["total"]
    print(f"pass on pandas {t['pass_on_pandas']}, fallback {t['fallback']} ({pct(t['fallback'], t['pass_on_pandas'])}), "
          f"strict {t['strict']} ({pct(t['strict'], t['pass_on_pandas'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
