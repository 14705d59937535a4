"""The conformance ratchet: tests on the committed baseline must keep passing.

``conformance/baseline/{fallback,strict}.txt`` list the pandas tests (node ids relative to the pandas
package) that passed on gframe when the baseline was written (``run.py --write-baseline``).
``conformance/baseline/ci_modules.txt`` names the test files CI checks: a fast subset, because the whole
selection takes hours. For each mode, one pytest subprocess runs exactly the baseline's tests of those
files (the plugin deselects the rest) and every one of them must pass.

    PYTHONPATH=$PWD python conformance/ratchet.py            # both modes, prints regressions
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BASELINE = HERE / "baseline"


def ci_modules() -> list[str]:
    return [line.strip() for line in (BASELINE / "ci_modules.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def baseline_ids(mode: str, modules: list[str]) -> list[str]:
    prefixes = tuple(f"tests/{m}::" for m in modules)
    return [line.strip() for line in (BASELINE / f"{mode}.txt").read_text().splitlines()
            if line.strip().startswith(prefixes)]


def pandas_version() -> str:
    return (BASELINE / "pandas_version.txt").read_text().strip()


def run(mode: str, test_timeout: float = 20.0, timeout: float = 600.0) -> tuple[list[str], list[str]]:
    """Run the CI subset's baseline tests in ``mode``; return (ids checked, regressions with causes)."""
    import pandas

    modules = ci_modules()
    ids = baseline_ids(mode, modules)
    base = Path(pandas.__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        select, out = Path(tmp, "select.txt"), Path(tmp, "out.jsonl")
        select.write_text("".join(i + "\n" for i in ids))
        env = dict(os.environ)
        for var in ("GFRAME_FALLBACK", "GFRAME_ENGINE", "GFRAME_VERIFY_OPTIMIZER"):
            env.pop(var, None)  # the baseline was measured on the default engine and settings
        env.update(GFRAME_CONFORMANCE_MODE=mode, GFRAME_CONFORMANCE_OUT=str(out),
                   GFRAME_CONFORMANCE_SELECT=str(select), GFRAME_CONFORMANCE_TIMEOUT=str(test_timeout),
                   PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        cmd = [sys.executable, "-m", "pytest", "-p", "conformance.plugin", "-p", "no:cacheprovider", "-q",
               "-o", "addopts=", "--no-header", "--tb=no", "-W", "ignore::DeprecationWarning",
               f"--rootdir={base.parent}", *(str(base / "tests" / m) for m in modules)]
        proc = subprocess.run(cmd, env=env, cwd=str(ROOT), capture_output=True, text=True, timeout=timeout,
                              check=False)  # outcomes are read per test below
        seen: dict[str, dict] = {}
        if out.exists():
            for line in out.read_text().splitlines():
                rec = json.loads(line)
                i = rec["nodeid"].find("pandas/tests/")
                seen[rec["nodeid"][i + len("pandas/"):]] = rec
    bad = []
    for i in ids:
        rec = seen.get(i)
        if rec is None:
            bad.append(f"{i}: not collected or not run (pytest rc={proc.returncode}: {proc.stdout[-300:]!r})")
        elif rec["outcome"] != "passed":
            bad.append(f"{i}: {rec['outcome']} {rec.get('exc', '')}: {rec.get('msg', '')[:200]}")
    return ids, bad


def main() -> int:
    status = 0
    for mode in ("fallback", "strict"):
        ids, bad = run(mode)
        print(f"{mode}: {len(ids) - len(bad)}/{len(ids)} baseline tests still pass")
        for b in bad:
            print("  REGRESSION", b)
        status |= bool(bad)
    return status


if __name__ == "__main__":
    sys.exit(main())
