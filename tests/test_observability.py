"""explain(analyze=True) and the progress bar (issue 12, Observability)."""
from __future__ import annotations

import sys

import numpy as np
import pandas
import pytest

import gframe
from gframe import engines
from gframe.frontend import explain as explain_mod


def _query():
    rng = np.random.default_rng(0)
    data = {"k": np.arange(20_000) % 7, "v": rng.random(20_000), "s": ["a", "bb"] * 10_000}
    df = gframe.DataFrame(data)
    want = pandas.DataFrame(data)
    want = want[want.v > 0.3].groupby("k", as_index=False).v.sum().sort_values("k")
    return df[df.v > 0.3].groupby("k", as_index=False).v.sum().sort_values("k"), want


def test_analyze_runs_the_query_and_reports_each_node(capsys):
    q, want = _query()
    report = q.explain(analyze=True)
    assert isinstance(report, explain_mod.Analysis)
    runs = report.profile.runs
    assert runs, "every executed node is reported"
    assert all(r.engine in ("cpu", "gpu", "transfer") for r in runs)
    assert all(r.seconds >= 0 and r.rows is not None and r.nbytes is not None for r in runs)
    assert runs[-1].rows == len(want)  # the root: the query's result
    assert max(r.rows for r in runs) == 20_000  # the scan
    assert report.profile.seconds >= sum(r.seconds for r in runs) * 0.5
    # the query ran: its result is cached, and it is pandas' answer
    assert engines.cached(q._plan) is not None
    pandas.testing.assert_frame_equal(q.to_pandas(), want)
    # the text names every node with its columns
    text = str(report)
    assert text.splitlines()[1].split() == ["node", "engine", "time", "rows", "bytes", "moved"]
    assert "Filter" in text and "Aggregate" in text
    # a script prints it once
    assert capsys.readouterr().out == text + "\n"


def test_analyze_is_shown_once_in_a_notebook(monkeypatch, capsys):
    monkeypatch.setattr(explain_mod, "interactive", lambda: True)
    q, _ = _query()
    report = q.explain(analyze=True)
    assert capsys.readouterr().out == ""  # the shell displays the value: nothing printed besides
    assert repr(report) == str(report)
    html = report._repr_html_()
    assert html.count("<tr>") == len(report.profile.runs) + 1  # header + one row per node
    assert "<th>engine</th>" in html and "Filter" in html


def test_series_analyze():
    s = gframe.Series(np.arange(1000)) * 2
    report = s.explain(analyze=True)
    assert report.profile.runs[-1].rows == 1000


def _run_slow_enough(after: float) -> None:
    q, want = _query()
    with gframe.option_context(progress=True, progress_after=after):
        pandas.testing.assert_frame_equal(q.to_pandas(), want)


def test_progress_bar_for_long_runs(capsys):
    pytest.importorskip("tqdm")
    _run_slow_enough(0.0)  # every run counts as long
    err = capsys.readouterr().err
    assert "gframe" in err and "node" in err


def test_progress_without_tqdm_is_a_status_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import fails
    _run_slow_enough(0.0)
    err = capsys.readouterr().err
    assert err.startswith("\rgframe: ") and " nodes, " in err and err.endswith("\n")


def test_quick_runs_and_the_switch_show_nothing(capsys):
    _run_slow_enough(60.0)  # a run under a minute: no bar
    q, _ = _query()
    with gframe.option_context(progress=False, progress_after=0.0):
        q.to_pandas()
    assert capsys.readouterr().err == ""


def test_progress_option_is_validated():
    with pytest.raises(AttributeError):
        gframe.options.progres = True  # typo: no such option
    assert isinstance(gframe.options.progress, bool)


def test_progress_appears_during_a_long_node(monkeypatch):
    # a single long read: the bar shows while the node still runs, not only when the next one ends
    import io
    import time

    from gframe.engines.progress import Bar

    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    out = io.StringIO()
    bar = Bar(after=0.05, file=out)
    bar.start(3)
    deadline = time.monotonic() + 5
    while not out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert out.getvalue().startswith("\rgframe: 0/3 nodes")
    bar.close()
    assert out.getvalue().endswith("\n")


def test_analyze_shows_placement_and_transfers_on_the_gpu():
    # on the GPU engine (a device, or the stand-in of .ci/run's last line): a node without a GPU
    # kernel runs on the CPU, between two transfers whose bytes are reported
    if engines.get_engine().name != "gpu":
        pytest.skip("GPU engine only")
    df = gframe.DataFrame({"k": np.arange(3000) % 7, "v": np.arange(3000) % 5})
    q = df.assign(p=df.v ** df.k).groupby("k").p.sum()  # integer power: CPU-placed on the GPU
    runs = q.explain(analyze=True).profile.runs
    kinds = [(type(r.node).__name__, r.engine) for r in runs]
    assert ("Select", "cpu") in kinds and ("Aggregate", "gpu") in kinds
    moved = [r.transfer_bytes for r in runs if r.engine == "transfer"]
    assert len(moved) == 2 and all(b >= 3000 * 8 for b in moved)
    want = pandas.DataFrame({"k": np.arange(3000) % 7, "v": np.arange(3000) % 5})
    pandas.testing.assert_series_equal(q.to_pandas(), (want.v ** want.k).groupby(want.k).sum().rename("p"))
