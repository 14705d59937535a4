"""Frames with duplicate column labels (``gframe/frontend/hostframe.py``): gframe DataFrames holding
pandas' frame, every call through pandas, with pandas' answers; in-place idioms move a frame between
the two kinds (plan / pandas frame) keeping its identity."""
from __future__ import annotations

import numpy as np
import pandas
import pytest

import gframe as gpd
from gframe.frontend.bridge import NotNative
from gframe.frontend.hostframe import HostFrame, HostOnly

tm = pandas.testing


def _pair(columns=("a", "a", "b")):
    values = np.arange(6).reshape(2, 3)
    return gpd.DataFrame(values, columns=list(columns)), pandas.DataFrame(values, columns=list(columns))


def _same(got, want) -> None:
    if isinstance(want, pandas.DataFrame):
        assert isinstance(got, gpd.DataFrame), type(got)
        tm.assert_frame_equal(got.to_pandas(), want, check_exact=True)
    elif isinstance(want, pandas.Series):
        assert isinstance(got, gpd.Series), type(got)
        tm.assert_series_equal(got.to_pandas(), want, check_exact=True)
    else:
        assert got == want


def test_constructor_and_reads() -> None:
    g, p = _pair()
    assert isinstance(g, gpd.DataFrame) and isinstance(g, HostFrame)
    tm.assert_index_equal(g.columns, p.columns)
    tm.assert_series_equal(g.dtypes, p.dtypes)
    assert g.shape == p.shape and len(g) == len(p) and list(g) == list(p) and ("a" in g) is ("a" in p)
    assert repr(g) == repr(p)
    tm.assert_frame_equal(g.to_pandas(), p)


@pytest.mark.parametrize("op", [
    lambda d: d["a"], lambda d: d["b"], lambda d: d + 1, lambda d: d.sum(), lambda d: d.T, lambda d: d.loc[0],
    lambda d: d.iloc[:, 0], lambda d: d.iloc[0, 1], lambda d: d.drop_duplicates(), lambda d: d.head(1),
    lambda d: d.rename(columns={"b": "c"}), lambda d: d.a, lambda d: np.sqrt(d), lambda d: d.isin([1, 4]),
    lambda d: d.to_csv(), lambda d: d.astype("float64"), lambda d: d.fillna(0), lambda d: d.values.tolist(),
])
def test_calls_answer_as_pandas(op) -> None:
    g, p = _pair()
    got, want = op(g), op(p)
    if isinstance(want, list):
        assert got == want
    else:
        _same(got, want)


def test_results_with_unique_labels_are_plain_frames() -> None:
    g, p = _pair()
    out = g.iloc[:, 1:]
    assert type(out) is gpd.DataFrame
    _same(out, p.iloc[:, 1:])


def test_errors_are_pandas() -> None:
    g, p = _pair()
    with pytest.raises(KeyError):
        p["zz"]
    with pytest.raises(KeyError):
        g["zz"]
    with pytest.raises(AttributeError, match="no attribute 'zz'"):
        g.zz


def test_inplace_idioms_move_between_kinds() -> None:
    g = gpd.DataFrame({"a": [1, 2], "b": [3, 4]})
    p = pandas.DataFrame({"a": [1, 2], "b": [3, 4]})
    ident = id(g)
    for d in (g, p):
        d.columns = ["x", "x"]
    assert isinstance(g, HostFrame) and id(g) == ident
    _same(g, p)
    for d in (g, p):
        d["y"] = [5, 6]
        d.loc[0, "y"] = 50
    _same(g, p)
    for d in (g, p):
        d.columns = ["x", "z", "y"]
    assert type(g) is gpd.DataFrame and id(g) == ident
    _same(g, p)
    _same(g.x + g.z, p.x + p.z)  # native again
    for d in (g, p):
        d.columns = ["q", "q", "q"]
        d.fillna(0, inplace=True)
        d += 1
    assert isinstance(g, HostFrame)
    _same(g, p)


def test_index_assignment_and_delitem() -> None:
    g, p = _pair()
    for d in (g, p):
        d.index = ["r", "s"]
        del d["b"]
    _same(g, p)


def test_with_other_functions() -> None:
    g, p = _pair()
    _same(gpd.concat([g, g]), pandas.concat([p, p]))
    _same(gpd.concat([g, g], axis=1), pandas.concat([p, p], axis=1))
    _same(gpd.DataFrame(g), pandas.DataFrame(p))
    other = gpd.DataFrame({"a": [1, 1]})
    po = pandas.DataFrame({"a": [1, 1]})
    _same(other.add(g), po.add(p))  # a native method meeting a host frame: the call goes to pandas


def test_no_plan() -> None:
    g, _ = _pair()
    assert not hasattr(g, "_plan")
    with pytest.raises(NotNative):
        g._plan
    assert issubclass(HostOnly, AttributeError)


def test_fallback_recorded() -> None:
    g, _ = _pair()
    gpd.fallback_report(clear=True)
    g.sum()
    events = gpd.fallback_report(clear=True)
    assert "duplicate column labels" in str(events)


def test_strict_mode_raises() -> None:
    g, _ = _pair()
    with gpd.option_context("gframe.fallback", "raise"):
        with pytest.raises(gpd.FallbackError):
            g.sum()
