"""Laziness, caching, in-place idioms, fallback reporting, strict mode, explain, configuration and
import hygiene: the properties of gframe itself (the pandas-parity tests are in the other files)."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pandas
import pandas.testing as pdt
import pytest

import gframe
import gframe as gpd
from gframe import engines

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")


@pytest.fixture
def executions(monkeypatch):
    """Counts engine executions (plans actually run)."""
    calls: list[object] = []
    engine = engines.get_engine()
    original = type(engine).execute

    def counting(self, plan, stats=None):
        calls.append(plan)
        return original(self, plan, stats)

    monkeypatch.setattr(type(engine), "execute", counting)
    return calls


def frame():
    return gpd.DataFrame({"a": [3, 1, 2, None], "s": ["x", "y", None, "x"],
                          "t": pandas.to_datetime(["2024-01-01", None, "2024-03-01", "2024-01-02"])})


def test_building_plans_computes_nothing(executions):
    df = frame()
    out = df[df.a > 1].assign(b=lambda d: d.a * 2).sort_values("b").groupby("s").b.sum()
    assert executions == []
    assert out.name == "b"
    assert executions == []


def test_schema_questions_need_no_execution(executions):
    df = frame()
    q = df[df.a > 1][["s", "a"]]
    assert list(q.columns) == ["s", "a"]
    assert q.ndim == 2
    pdt.assert_series_equal(q.dtypes, pandas.Series([pandas.StringDtype(na_value=np.nan), np.dtype("float64")],
                                                    index=pandas.Index(["s", "a"]), dtype=object))
    with pytest.raises(KeyError, match="nope"):
        q["nope"]
    with pytest.raises(KeyError):
        q.sort_values("nope")
    assert executions == []


def test_result_is_cached_and_reused(executions):
    df = frame()
    q = df[df.a > 1]
    assert len(q) == 2
    assert len(executions) == 1
    q.to_pandas()
    assert len(q) == 2 and q.shape == (2, 3)
    assert len(executions) == 1  # computed once
    # a later plan over q starts from q's result: the filter is not run again
    r = q.assign(c=1)
    r.to_pandas()
    assert len(executions) == 2
    assert not any(type(n).__name__ == "Filter" for n in executions[-1].walk())


def test_inplace_idioms_swap_the_plan():
    df = frame()
    before = df._plan
    df["b"] = df.a + 1
    assert df._plan is not before
    df.loc[df.a > 2, "b"] = 0.0
    with pytest.warns(pandas.errors.Pandas4Warning, match="inplace keyword"):  # (pandas 3.1, PDEP-8)
        assert df.rename(columns={"b": "c"}, inplace=True) is None
    expected = pandas.DataFrame({"a": [3, 1, 2, None], "s": ["x", "y", None, "x"],
                                 "t": pandas.to_datetime(["2024-01-01", None, "2024-03-01", "2024-01-02"])})
    expected["b"] = expected.a + 1
    expected.loc[expected.a > 2, "b"] = 0.0
    expected = expected.rename(columns={"b": "c"})
    pdt.assert_frame_equal(df.to_pandas(), expected)


def test_repr_matches_pandas_and_copies_only_shown_rows(monkeypatch):
    n = 1000
    data = {"a": np.arange(n), "b": np.arange(n) * 0.5}
    df = gpd.DataFrame(data)
    assert repr(df) == repr(pandas.DataFrame(data))
    assert repr(df.a) == repr(pandas.DataFrame(data).a)
    assert df._repr_html_() == pandas.DataFrame(data)._repr_html_()
    copied: list[tuple[int, object]] = []
    original = engines.Result.to_arrow

    def spy(self, offset=0, length=None):
        copied.append((offset, length))
        return original(self, offset, length)

    monkeypatch.setattr(engines.Result, "to_arrow", spy)
    text = repr(gpd.DataFrame(data)[lambda d: d.a >= 0] if False else gpd.DataFrame(data))
    assert "[1000 rows x 2 columns]" in text
    assert copied and all(length is not None and length <= 5 for _, length in copied)


def test_small_repr_and_html_match_pandas():
    p = pandas.DataFrame({"a": [1, 2], "s": ["x", None]})
    g = gpd.DataFrame(p)
    assert repr(g) == repr(p)
    assert g._repr_html_() == p._repr_html_()
    assert repr(g.s) == repr(p.s)


def test_fallback_runs_through_pandas_and_is_reported():
    gframe.fallback_report(clear=True)
    df = gpd.DataFrame({"a": [1, 2, 3], "b": [4, 5, 6]})
    out = df.cumsum()  # not native: runs through pandas
    pdt.assert_frame_equal(out.to_pandas(), pandas.DataFrame({"a": [1, 3, 6], "b": [4, 9, 15]}))
    report = [e for e in gframe.fallback_report() if e.kind == "pandas"]  # not the GPU engine's CPU nodes
    assert [e.api for e in report] == ["DataFrame.cumsum"]
    assert report[0].rows == 3 and report[0].reason
    assert "DataFrame.cumsum" in str(report)
    # the result is a gframe object: native operations continue on it
    assert isinstance(out, gpd.DataFrame)
    assert int(out.a.sum()) == 10


def test_top_level_pandas_function_falls_back():
    gframe.fallback_report(clear=True)
    # to_numeric is not native (to_datetime of a string Series now is)
    out = gpd.to_numeric(gpd.Series(["1", "2.5"]))
    pdt.assert_series_equal(out.to_pandas(), pandas.to_numeric(pandas.Series(["1", "2.5"])))
    assert [e.api for e in gframe.fallback_report() if e.kind == "pandas"] == ["to_numeric"]


def test_strict_mode_raises_naming_the_call():
    df = gpd.DataFrame({"a": [1, 2, 3]})
    with gframe.option_context(fallback="raise"):
        with pytest.raises(gframe.FallbackError, match="DataFrame.cumsum"):
            df.cumsum()
        # native operations are fine in strict mode
        assert int(df[df.a > 1].a.sum()) == 5


def test_warn_mode_warns_once_per_api():
    gframe.fallback_report(clear=True)
    df = gpd.DataFrame({"a": [1, 2, 3]})
    with gframe.option_context(fallback="warn"):
        with pytest.warns(UserWarning, match="cumprod"):
            df.cumprod()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            df.cumprod()


def test_explain_shows_logical_and_optimized_plans_with_engines(capsys):
    df = frame()
    q = df[df.a > 1][["a"]]
    text = q.explain()
    assert "== logical plan ==" in text and "== optimized plan" in text
    assert "Filter" in text and f"[{engines.get_engine().name}]" in text
    logical_only = q.explain(optimized=False)
    assert "optimized" not in logical_only
    assert capsys.readouterr().out.strip()


def test_options_validate_and_restore():
    assert gframe.options.fallback in ("silent", "warn", "raise")
    with pytest.raises(ValueError, match="engine"):
        gframe.options.engine = "tpu"
    with pytest.raises(AttributeError):
        gframe.options.nonexistent = 1
    before = gframe.options.optimize
    with gframe.option_context(optimize=not before):
        assert gframe.options.optimize is (not before)
    assert gframe.options.optimize is before


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=120)


def test_import_loads_no_gpu_library():
    code = ("import sys, gframe as pd\n"
            "df = pd.DataFrame({'a': [1, 2]}); q = df[df.a > 1].groupby('a').a.sum()\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('pylibcudf', 'cupy', 'rmm') or m.startswith('numba.cuda')]\n"
            "print(bad)")
    out = _run(code, GFRAME_ENGINE="cpu")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_environment_sets_defaults():
    out = _run("import gframe; print(gframe.options.fallback, gframe.options.optimize)",
               GFRAME_FALLBACK="raise", GFRAME_OPTIMIZE="0")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["raise", "False"]


@pytest.mark.skipif(engines.gpu_unavailable_reason() is None, reason="a GPU is present here")
def test_gpu_engine_without_gpu_fails_at_first_execution_not_import():
    code = ("import gframe as pd\n"
            "df = pd.DataFrame({'a': [1, 2]})\n"
            "print('built')\n"
            "try:\n    len(df)\nexcept pd.GPUUnavailableError as e:\n    print('error:', e)\n")
    out = _run(code, GFRAME_ENGINE="gpu")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "built"
    assert lines[1].startswith("error:") and "GPU" in lines[1]


def test_failed_write_leaves_no_file(tmp_path):
    df = gpd.DataFrame({"a": [1, 2]})
    target = tmp_path / "missing_dir" / "out.parquet"
    with pytest.raises(OSError):
        df.to_parquet(target)
    assert not target.exists()
    # a write that fails half-way (an unwritable type) leaves neither the file nor a temporary one
    bad = gpd.DataFrame(pandas.DataFrame({"a": [1, 2]})).assign(b=lambda d: d.a)
    good_path = tmp_path / "ok.parquet"
    bad.to_parquet(good_path)
    assert good_path.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["ok.parquet"]
