"""help(gframe.X.method) shows pandas' own docstring, then gframe's note (issue 12: API reference)."""
from __future__ import annotations

import inspect

import pandas

import gframe
from gframe.frontend.docstrings import GENERAL_NOTE


def test_merge_shows_pandas_text_and_a_gframe_note():
    doc = gframe.DataFrame.merge.__doc__
    assert inspect.cleandoc(pandas.DataFrame.merge.__doc__) in doc
    assert doc.rstrip().endswith(GENERAL_NOTE)


def test_own_docstring_is_kept_under_pandas_text():
    own = [name for name, f in vars(gframe.DataFrame).items()
           if inspect.isfunction(f) and not name.startswith("_") and hasattr(pandas.DataFrame, name)
           and f.__name__ == name]  # an alias (isnull = isna) carries its original's text
    assert own, "DataFrame defines pandas methods itself"
    for name in own:
        doc = getattr(gframe.DataFrame, name).__doc__
        assert doc.startswith(inspect.cleandoc(getattr(pandas.DataFrame, name).__doc__)[:40]), name
        assert "**gframe:**" in doc


def test_shared_base_methods_take_pandas_generic_text():
    # to_numpy() is defined once (gframe's NDFrame) for DataFrame and Series: one text for both,
    # pandas' own, with gframe's note
    assert gframe.DataFrame.to_numpy is gframe.Series.to_numpy
    doc = gframe.Series.to_numpy.__doc__
    assert "NumPy" in doc.split("\n")[0] and "**gframe:**" in doc


def test_properties_and_classes():
    assert gframe.DataFrame.columns.__doc__.startswith("The column labels of the DataFrame")
    assert inspect.cleandoc(pandas.Series.__doc__)[:60] in gframe.Series.__doc__


def test_help_renders(capsys):
    help(gframe.DataFrame.merge)
    out = capsys.readouterr().out
    assert "database-style join" in out and "gframe:" in out
