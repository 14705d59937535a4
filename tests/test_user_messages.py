"""What the user sees: fallback warnings point at the user's line; ``explain()`` shows once."""
from __future__ import annotations

import inspect
import sys
import warnings

import gframe


def _warnings_of(fn):
    gframe.fallback_report(clear=True)  # warn mode warns once per API
    with gframe.option_context(fallback="warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [w for w in caught if "runs through pandas" in str(w.message)]


def test_fallback_warning_points_at_the_users_line():
    df = gframe.DataFrame({"a": [1, 2, 3], "b": [1.0, 2.0, 3.0]})

    def user_code():
        df.cumprod()  # the warning's line
        df.groupby("a").rolling(2).sum()  # a fallback object's method, one level deeper in gframe

    caught = _warnings_of(user_code)
    assert len(caught) >= 2
    first_line = inspect.getsourcelines(user_code)[1] + 1
    for w in caught:
        assert w.filename == __file__, w.filename
    assert caught[0].lineno == first_line
    assert all(w.lineno in (first_line, first_line + 1) for w in caught)
    assert any(w.lineno == first_line + 1 for w in caught)


def test_top_level_fallback_warning_points_at_the_user():
    caught = _warnings_of(lambda: gframe.json_normalize([{"a": 1}]))
    assert caught and caught[0].filename == __file__


def test_explain_prints_once_in_scripts_and_returns_the_text(capsys):
    df = gframe.DataFrame({"a": [1, 2, 3]})
    text = df[df.a > 1].explain()
    out = capsys.readouterr().out
    assert out.count("== logical plan ==") == 1
    assert isinstance(text, str) and out.strip() == str(text).strip()
    assert repr(text) == str(text)  # a shell that displays it shows the text, not a quoted string


def test_explain_in_an_interactive_shell_only_returns(capsys, monkeypatch):
    monkeypatch.setattr(sys, "ps1", ">>> ", raising=False)
    df = gframe.DataFrame({"a": [1, 2, 3]})
    text = df.explain()
    assert capsys.readouterr().out == ""  # the shell's display of the value is the one showing
    assert "== logical plan ==" in text and repr(text) == str(text)
    assert "== logical plan ==" in gframe.Series([1, 2]).explain()


def test_explain_pretty_printer_for_ipython():
    text = gframe.DataFrame({"a": [1]}).explain()

    class Printer:
        def __init__(self):
            self.parts = []

        def text(self, s):
            self.parts.append(s)

    p = Printer()
    text._repr_pretty_(p, False)
    assert p.parts == [str(text)]
