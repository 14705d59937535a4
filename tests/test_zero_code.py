"""Zero-code-change mode (``python -m gframe script.py``, ``%load_ext gframe``) and ``--lint``,
run as a user would: unmodified pandas scripts in subprocesses."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import gframe
from gframe import zerocode
from gframe.lint import lint_source

ROOT = Path(__file__).resolve().parents[1]


def _run(tmp_path: Path, source: str, *args: str, lint: bool = False) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "user_script.py"
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    env.pop("GFRAME_FALLBACK", None)
    argv = [*(["--lint"] if lint else []), str(script), *args]
    cmd = [sys.executable, "-m", "gframe", *argv]
    stand_in = sys.modules.get("pylibcudf")
    if stand_in is not None and getattr(stand_in, "__host_stand_in__", False):
        # the suite runs over the in-memory pylibcudf stand-in (.ci/run): the child process too
        boot = ("import sys; from gframe.testing import fake_pylibcudf; fake_pylibcudf.install(); "
                "from gframe.__main__ import main; sys.exit(main(sys.argv[1:]))")
        cmd = [sys.executable, "-c", boot, *argv]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False)


SCRIPT = """
    import sys
    import pandas as pd
    from pandas import DataFrame, Series
    from pandas.api.types import is_numeric_dtype
    import pyarrow as pa

    df = pd.DataFrame({"k": ["a", "b", "a", "c"], "v": [1.0, 2.0, 3.0, None]})
    print("frame", type(df).__module__)
    print("same", DataFrame is pd.DataFrame, Series is pd.Series)
    print("numeric", is_numeric_dtype(df["v"].dtype))
    out = df[df.v > 1].groupby("k", as_index=False).agg(s=("v", "sum")).sort_values("k")
    print(out.to_pandas().to_dict("list"))
    # a library importing pandas itself gets real pandas: pyarrow's to_pandas
    print("library", type(pa.table({"a": [1]}).to_pandas()).__module__)
    print("pivot", df.pivot_table(index="k", values="v", aggfunc="sum").to_pandas()["v"].to_dict())
    print("args", sys.argv[1:])
"""


def test_python_m_gframe_runs_an_unmodified_pandas_script(tmp_path):
    proc = _run(tmp_path, SCRIPT, "x", "--flag")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "frame gframe.frontend.frame"
    assert lines[1] == "same True True"
    assert lines[2] == "numeric True"
    want = pd.DataFrame({"k": ["a", "b", "a", "c"], "v": [1.0, 2.0, 3.0, None]})
    want = want[want.v > 1].groupby("k", as_index=False).agg(s=("v", "sum")).sort_values("k")
    assert lines[3] == str(want.to_dict("list"))
    assert lines[4] == "library pandas"  # pandas 3 reports its classes as pandas.DataFrame
    src = pd.DataFrame({"k": ["a", "b", "a", "c"], "v": [1.0, 2.0, 3.0, None]})
    assert lines[5] == f"pivot {src.pivot_table(index='k', values='v', aggfunc='sum')['v'].to_dict()}"
    assert lines[6] == "args ['x', '--flag']"
    # the one-line fallback summary, on stderr
    # (a query that takes longer than progress_after on a busy machine also draws a "gframe:" progress bar)
    summary = [ln for ln in proc.stderr.splitlines() if ln.startswith("gframe:") and "node/s" not in ln]
    assert len(summary) == 1 and "ran through pandas" in summary[0] and "DataFrame.pivot_table" in summary[0]


def test_summary_when_nothing_falls_back_and_exit_status(tmp_path):
    proc = _run(tmp_path, """
        import pandas as pd
        df = pd.DataFrame({"a": [1, 2, 3]})
        print(int(df.a.sum()))
        raise SystemExit(3)
    """)
    assert proc.returncode == 3
    assert proc.stdout.strip() == "6"
    assert proc.stderr.strip().splitlines()[-1] == "gframe: every call ran natively (no pandas fallbacks)"


def test_script_error_propagates(tmp_path):
    proc = _run(tmp_path, """
        import pandas as pd
        pd.DataFrame({"a": [1]})["missing"]
    """)
    assert proc.returncode != 0
    assert "KeyError" in proc.stderr


def test_user_modules_next_to_the_script_get_gframe(tmp_path):
    (tmp_path / "helpers.py").write_text("import pandas as pd\ndef make():\n    return pd.DataFrame({'a': [1]})\n")
    proc = _run(tmp_path, """
        import helpers
        print(type(helpers.make()).__module__)
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "gframe.frontend.frame"


def test_is_user_code_by_file():
    zerocode.install()
    try:
        assert zerocode.is_user_code({"__name__": "__main__"})  # a notebook cell, python -c
        assert zerocode.is_user_code({"__name__": "mine", "__file__": str(ROOT / "tests" / "x.py")})
        assert not zerocode.is_user_code({"__name__": "gframe.x", "__file__": gframe.__file__})
        assert not zerocode.is_user_code({"__name__": "pyarrow", "__file__": __import__("pyarrow").__file__})
        assert not zerocode.is_user_code({"__name__": "json", "__file__": __import__("json").__file__})
        assert not zerocode.is_user_code(None)
        # a library on PYTHONPATH outside site-packages (pip --target) is not user code
        assert not zerocode.is_user_code({"__name__": "pandas.core.frame", "__file__": "/tmp/pd31/pandas/core/frame.py"})
        ns: dict = {"__name__": "__main__"}
        exec("import pandas as pd\nfrom pandas import DataFrame", ns)
        assert ns["pd"] is gframe and ns["DataFrame"] is gframe.DataFrame
    finally:
        zerocode.uninstall()
    ns = {"__name__": "__main__"}
    exec("import pandas as pd", ns)
    assert ns["pd"] is pd


def test_ipython_extension_hooks():
    gframe.load_ipython_extension(None)
    try:
        ns: dict = {"__name__": "__main__"}
        exec("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})", ns)
        assert isinstance(ns["df"], gframe.DataFrame)
    finally:
        gframe.unload_ipython_extension(None)
    ns = {"__name__": "__main__"}
    exec("import pandas as pd", ns)
    assert ns["pd"] is pd


# ------------------------------------------------------------------------------------ --lint

LINT_SCRIPT = """
import pandas as pd
from pandas import DataFrame, pivot_table

df = pd.read_csv("x.csv")
d = {}
d.update(a=1)                                  # a dict: not reported
df.update(df)                                  # line 8
t = df.groupby("k").agg(s=("v", "sum"))        # native
p = df.pivot_table(index="k")                  # line 10
s = df["v"].str.wrap(3)                        # line 11
for name, g in df.groupby("k"):
    g.to_xarray()                              # line 13
w = pivot_table(df, index="k")                 # line 14
q = pd.json_normalize([])                      # line 15
m = pd.merge(df, df)                           # native
"""


def test_lint_lists_calls_that_fall_back_without_running():
    findings = lint_source(LINT_SCRIPT, "s.py")
    by_line = {f.line: f.name for f in findings}
    assert by_line.get(8) == "update"
    assert by_line.get(10) == "pivot_table"
    assert by_line.get(11) == "Series.str.wrap"
    assert by_line.get(13) == "to_xarray"
    assert by_line.get(14) == "pandas.pivot_table"
    assert by_line.get(15) == "pandas.json_normalize"
    assert 7 not in by_line and 9 not in by_line and 16 not in by_line and 5 not in by_line
    # every reported name really is missing from gframe's classes (the static table is the frontend)
    for f in findings:
        last = f.name.rsplit(".", 1)[-1]
        if f.name.startswith("pandas."):  # not native: runs through pandas, or calls a method that does
            from gframe import namespace

            assert last in namespace.VIA_PANDAS or last in namespace.METHOD_FORMS
        else:
            assert not hasattr(gframe.DataFrame, last) or not hasattr(gframe.Series, last)


def test_lint_cli(tmp_path):
    proc = _run(tmp_path, LINT_SCRIPT, lint=True)
    assert proc.returncode == 1
    assert "user_script.py:10:5: pivot_table runs through pandas" in proc.stdout
    assert "would run through pandas" in proc.stderr
    clean = _run(tmp_path, "import pandas as pd\nprint(pd.DataFrame({'a': [1]}).a.sum())\n", lint=True)
    assert clean.returncode == 0 and clean.stdout == ""


@pytest.mark.parametrize("argv", [["--help"], ["--lint", "--help"]])
def test_usage(argv, capsys):
    from gframe.__main__ import main

    assert main(argv) == 0
    assert "usage" in capsys.readouterr().out


def test_lint_also_reads_gframe_scripts():
    findings = lint_source("import gframe as pd\ndf = pd.DataFrame({'a': [1]})\ndf.to_xarray()\nx = pd.json_normalize([])\n")
    assert [(f.line, f.name) for f in findings] == [(3, "to_xarray"), (4, "pandas.json_normalize")]
