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


def test_shared_base_methods_read_right_for_each_class():
    # to_numpy() is written once (gframe's NDFrame) for DataFrame and Series, but pandas documents it per
    # class: each class gets its own text; the code is the same
    assert gframe.DataFrame.to_numpy.__doc__.startswith("Convert the DataFrame to a NumPy array")
    assert gframe.Series.to_numpy.__doc__.startswith(inspect.cleandoc(pandas.Series.to_numpy.__doc__)[:40])
    assert gframe.DataFrame.to_numpy.__code__ is gframe.Series.to_numpy.__code__
    assert "**gframe:**" in gframe.Series.to_numpy.__doc__
    assert gframe.Series([1, 2]).to_numpy().tolist() == [1, 2]


def test_properties_and_classes():
    assert gframe.DataFrame.columns.__doc__.startswith("The column labels of the DataFrame")
    assert inspect.cleandoc(pandas.Series.__doc__)[:60] in gframe.Series.__doc__


def test_help_renders(capsys):
    help(gframe.DataFrame.merge)
    out = capsys.readouterr().out
    assert "database-style join" in out and "gframe:" in out
