"""Assignment through ``loc`` / ``iloc`` / ``at`` / ``iat`` / ``ser[key]`` / ``df[mask]`` against pandas:
values, dtype, index, names, or the exception's type and message (``frontend/setitem.py``). The
common cases run natively (no trip to pandas: the ``native`` fixture)."""
from __future__ import annotations

import warnings

import numpy as np
import pandas
import pandas.testing as pdt
import pytest

import gframe as gpd

COLUMNS = {
    "int": lambda: [1, 2, 3, 4],
    "float": lambda: [1.5, np.nan, 3.5, 4.5],
    "Int64": lambda: pandas.array([1, None, 3, 4], dtype="Int64"),
    "bool": lambda: [True, False, True, False],
    "str": lambda: pandas.array(["w", "x", None, "z"], dtype="str"),
    "dt": lambda: pandas.to_datetime(["2020-01-01", "2020-01-02", None, "2020-01-04"]),
    "cat": lambda: pandas.Categorical(["a", "b", "a", "b"]),
}

VALUES = {  # per column kind: values that fit, and values pandas refuses or upcasts for
    "int": [7, 2.0, np.nan, None, 1.5, "q", True],
    "float": [7, 0.25, np.nan, None, "q", True],
    "Int64": [7, None, pandas.NA, 1.5, "q"],
    "bool": [True, False, np.nan, 1],
    "str": ["q", None, np.nan, 1],
    "dt": [pandas.Timestamp("2021-05-05"), "2021-06-06", pandas.NaT, None, 1],
    "cat": ["a", "c", np.nan],
}


def _frame(lib, index=None):
    data = {k: make() for k, make in COLUMNS.items()}
    return lib.DataFrame(data, index=index)


def _series(lib, kind, index=None):
    return lib.Series(COLUMNS[kind](), index=index, name=kind)


def _outcome(obj, op):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            op(obj)
    except Exception as exc:  # noqa: BLE001 - the comparison is the point
        return type(exc), str(exc)
    return "ok", obj.to_pandas() if hasattr(obj, "to_pandas") else obj


def _same(make, op):
    want = _outcome(make(pandas), op)
    got = _outcome(make(gpd), op)
    assert got[0] is want[0], (got, want)
    if want[0] != "ok":
        assert got[1] == want[1]
    elif isinstance(want[1], pandas.DataFrame):
        pdt.assert_frame_equal(got[1], want[1])
    else:
        pdt.assert_series_equal(got[1], want[1])


INDEXES = {"range": None, "labels": [10, 20, 30, 40], "strings": list("pqrs")}


def _loc_label(index, pos):
    return pos if index is None else index[pos]


SERIES_OPS = {
    "iloc scalar": lambda ix, v: lambda s: s.iloc.__setitem__(1, v),
    "iloc negative": lambda ix, v: lambda s: s.iloc.__setitem__(-1, v),
    "iloc list": lambda ix, v: lambda s: s.iloc.__setitem__([2, 0], v),
    "iloc slice": lambda ix, v: lambda s: s.iloc.__setitem__(slice(1, 3), v),
    "iloc step": lambda ix, v: lambda s: s.iloc.__setitem__(slice(None, None, 2), v),
    "iloc all": lambda ix, v: lambda s: s.iloc.__setitem__(slice(None), v),
    "iloc bools": lambda ix, v: lambda s: s.iloc.__setitem__([True, False, False, True], v),
    "loc scalar": lambda ix, v: lambda s: s.loc.__setitem__(_loc_label(ix, 2), v),
    "loc list": lambda ix, v: lambda s: s.loc.__setitem__([_loc_label(ix, 3), _loc_label(ix, 1)], v),
    "loc mask": lambda ix, v: lambda s: s.loc.__setitem__(s.isna(), v),
    "loc slice": lambda ix, v: lambda s: s.loc.__setitem__(slice(_loc_label(ix, 1), _loc_label(ix, 2)), v),
    "at": lambda ix, v: lambda s: s.at.__setitem__(_loc_label(ix, 0), v),
    "iat": lambda ix, v: lambda s: s.iat.__setitem__(3, v),
    "getitem label": lambda ix, v: lambda s: s.__setitem__(_loc_label(ix, 1), v),
    "getitem mask": lambda ix, v: lambda s: s.__setitem__(s.notna(), v),
    "getitem slice": lambda ix, v: lambda s: s.__setitem__(slice(0, 2), v),
}


@pytest.mark.parametrize("index", list(INDEXES))
@pytest.mark.parametrize("op", list(SERIES_OPS))
@pytest.mark.parametrize("kind", list(COLUMNS))
def test_series_scalar_assignment_is_pandas(kind, op, index):
    ix = INDEXES[index]
    for v in VALUES[kind]:
        _same(lambda lib: _series(lib, kind, ix), SERIES_OPS[op](ix, v))


FRAME_OPS = {
    "loc cell": lambda ix, c, v: lambda d: d.loc.__setitem__((_loc_label(ix, 1), c), v),
    "loc rows list": lambda ix, c, v: lambda d: d.loc.__setitem__(([_loc_label(ix, 0), _loc_label(ix, 3)], c), v),
    "loc mask": lambda ix, c, v: lambda d: d.loc.__setitem__((d["int"] > 2, c), v),
    "loc slice": lambda ix, c, v: lambda d: d.loc.__setitem__((slice(_loc_label(ix, 1), None), c), v),
    "loc all rows": lambda ix, c, v: lambda d: d.loc.__setitem__((slice(None), c), v),
    "loc columns": lambda ix, c, v: lambda d: d.loc.__setitem__((_loc_label(ix, 2), [c, "float"]), v),
    "iloc cell": lambda ix, c, v: lambda d: d.iloc.__setitem__((2, list(COLUMNS).index(c)), v),
    "iloc rows": lambda ix, c, v: lambda d: d.iloc.__setitem__(([1, 2], list(COLUMNS).index(c)), v),
    "iloc slice": lambda ix, c, v: lambda d: d.iloc.__setitem__((slice(0, 2), list(COLUMNS).index(c)), v),
    "at": lambda ix, c, v: lambda d: d.at.__setitem__((_loc_label(ix, 3), c), v),
    "iat": lambda ix, c, v: lambda d: d.iat.__setitem__((0, list(COLUMNS).index(c)), v),
    "mask all columns": lambda ix, c, v: lambda d: d.__setitem__(d[c].isna(), v),
}


@pytest.mark.parametrize("index", list(INDEXES))
@pytest.mark.parametrize("op", list(FRAME_OPS))
@pytest.mark.parametrize("kind", list(COLUMNS))
def test_frame_scalar_assignment_is_pandas(kind, op, index):
    ix = INDEXES[index]
    for v in VALUES[kind]:
        _same(lambda lib: _frame(lib, ix), FRAME_OPS[op](ix, kind, v))


@pytest.mark.parametrize("op", [
    lambda d: d.loc.__setitem__(1, [9, 9.5, 9, False, "n", pandas.Timestamp("2000-01-01"), "a"]),
    lambda d: d.iloc.__setitem__(0, [9, 9.5, 9, False, "n", pandas.Timestamp("2000-01-01"), "a"]),
    lambda d: d.iloc.__setitem__((slice(None), 0), [5, 6, 7, 8]),
    lambda d: d.iloc.__setitem__((slice(None), 0), np.array([5.0, 6, 7, 8])),
    lambda d: d.loc.__setitem__((slice(None), "float"), np.array([5.0, 6, 7, 8])),
    lambda d: d.loc.__setitem__((slice(None), "str"), ["a", "b", "c", "d"]),
    lambda d: d.loc.__setitem__(([3, 0], "int"), [30, 0]),
    lambda d: d.loc.__setitem__(([3, 0], "int"), [30, 0, 1]),
    lambda d: d.iloc.__setitem__(([0, 0], 1), [0.5, 0.25]),
    lambda d: d.loc.__setitem__((d["bool"], "dt"), ["2001-01-01", "2002-02-02"]),
    lambda d: d.loc.__setitem__((d["bool"], "float"), d["int"] * 10),
    lambda d: d.loc.__setitem__((d["bool"], "float"), gpd_or_pandas_series(d, [0.5, 0.25], [2, 3])),
    lambda d: d.loc.__setitem__((slice(None), "Int64"), d["Int64"] + 1),
    lambda d: d.iloc.__setitem__((5, 0), 1),
    lambda d: d.iloc.__setitem__(([0, 5], 0), 1),
    lambda d: d.iloc.__setitem__((0, 9), 1),
    lambda d: d.loc.__setitem__(([0, 9], "int"), 1),
    lambda d: d.loc.__setitem__((9, "int"), 1),
    lambda d: d.loc.__setitem__(9, 1.5),
    lambda d: d.loc.__setitem__((0, "new"), 1),
    lambda d: d.iloc.__setitem__(slice(1, 3), np.nan),
    lambda d: d.loc.__setitem__((d["int"] > 10, "int"), 1.5),
    lambda d: d.iloc.__setitem__(([2, 0], [0, 1]), np.array([[10, 11], [12, 13]])),
    lambda d: d.iloc.__setitem__((slice(None), [0, 1]), np.arange(8).reshape(4, 2)),
    lambda d: d.iloc.__setitem__((slice(None, None, -1), [1, 0]), np.arange(8).reshape(4, 2) / 2),
    lambda d: d.iloc.__setitem__(([0, 1], [0, 1]), np.arange(6).reshape(3, 2)),
    lambda d: d.iloc.__setitem__((slice(None), 2), [4, None, 6, 7]),
    lambda d: d.loc.__setitem__((slice(None), "str"), np.array(["a", "b", "c", "d"], dtype=object)),
])
def test_frame_assignment_cases_are_pandas(op):
    _same(_frame, op)


def gpd_or_pandas_series(like, values, index):
    lib = gpd if isinstance(like, gpd.DataFrame) else pandas
    return lib.Series(values, index=index)


@pytest.mark.parametrize("make", [
    lambda lib: lib.DataFrame({"a": pandas.Series([], dtype="int64"), "b": pandas.Series([], dtype="str")}),
    lambda lib: lib.DataFrame({"a": [1], "b": ["x"]}),
    lambda lib: lib.DataFrame({"a": [1, 2], "b": ["x", "y"]}, index=pandas.Index([5, 5], name="k")),
    lambda lib: lib.DataFrame({"a": [1, 2], "b": ["x", "y"]}, index=pandas.date_range("2020", periods=2, name="t")),
    lambda lib: lib.DataFrame({"a": [1, 2], "b": ["x", "y"]}, index=pandas.CategoricalIndex(["p", "q"])),
    lambda lib: lib.DataFrame({"a": [1, 2], "b": ["x", "y"]}, index=pandas.CategoricalIndex([1.5, 2.5], ordered=True)),
    lambda lib: lib.DataFrame({"a": [1, 2], "b": ["x", "y"]}, index=pandas.Index(["p", 1], dtype=object)),
])
@pytest.mark.parametrize("op", [
    lambda d: d.loc.__setitem__((d["a"] > 0, "a"), 0),
    lambda d: d.iloc.__setitem__((slice(None), 0), 3),
    lambda d: d.iloc.__setitem__((0, 1), "z"),
    lambda d: d.iloc.__setitem__(-1, np.nan),
    lambda d: d.loc.__setitem__((slice(None), "b"), "u"),
    lambda d: d.loc.__setitem__(d.index[-1:].tolist()[0] if len(d) > 0 else 0, 3),
    lambda d: d.loc.__setitem__((d.index[:1].tolist()[0] if len(d) > 0 else 0, ["b"]), ["w"]),
    lambda d: d.iloc.__setitem__((0, [0]), [9]),
])
def test_empty_one_row_and_other_indexes(make, op):
    _same(make, op)


def test_copy_on_write_nothing_else_changes():
    df = gpd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]})
    col = df["a"]
    view = df.iloc[:2]
    df.loc[0, "a"] = 10
    df.iloc[1] = 0
    assert col.tolist() == [1, 2, 3]
    assert view.to_pandas()["a"].tolist() == [1, 2]
    assert df.to_pandas()["a"].tolist() == [10, 0, 3]
    s = df["b"]
    s.iloc[2] = 9.0
    assert df.to_pandas()["b"].tolist() == [0.5, 0.0, 2.5]
    assert s.tolist() == [0.5, 0.0, 9.0]


NATIVE = [
    lambda d, s: d.loc.__setitem__((1, "int"), 5),
    lambda d, s: d.loc.__setitem__((1, "int"), np.nan),
    lambda d, s: d.iloc.__setitem__((2, 1), 0.5),
    lambda d, s: d.loc.__setitem__((d["int"] > 2, "str"), "m"),
    lambda d, s: d.loc.__setitem__(([0, 2], ["int", "float"]), 0),
    lambda d, s: d.iloc.__setitem__((slice(1, None), 2), None),
    lambda d, s: d.at.__setitem__((3, "dt"), "2030-01-01"),
    lambda d, s: d.iat.__setitem__((0, 3), False),
    lambda d, s: d.loc.__setitem__(2, [9, 9.5, 9, False, "n", pandas.Timestamp("2000-01-01"), "a"]),
    lambda d, s: d.loc.__setitem__((d["float"].isna(), ["int", "Int64"]), 0),
    lambda d, s: d.iloc.__setitem__((slice(None), 1), np.array([5.0, 6, 7, 8])),
    lambda d, s: d.loc.__setitem__(([3, 0], "int"), [30, 0]),
    lambda d, s: s.iloc.__setitem__(0, 100),
    lambda d, s: s.__setitem__(s > 2, 0),
    lambda d, s: s.__setitem__(1, np.nan),
    lambda d, s: s.loc.__setitem__(slice(1, 2), -1),
]


@pytest.mark.parametrize("index", [None, [10, 20, 30, 40]])
@pytest.mark.parametrize("case", range(len(NATIVE)))
def test_common_assignments_run_natively(case, index):
    op = NATIVE[case]
    if index is not None and case in (0, 1, 4, 6, 8, 11, 14, 15):
        return  # (label keys of the range index; the labelled index is covered by the comparisons)
    want_d, want_s = _frame(pandas, index), pandas.Series([1, 2, 3, 4], index=index, name="s")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        op(want_d, want_s)
    got_d, got_s = _frame(gpd, index).drop(columns="cat"), gpd.Series([1, 2, 3, 4], index=index, name="s")
    want_d = want_d.drop(columns="cat")
    if case == 8:
        want_d, got_d = _frame(pandas, index).drop(columns="cat"), _frame(gpd, index).drop(columns="cat")
        want_d.loc[2] = [9, 9.5, 9, False, "n", pandas.Timestamp("2000-01-01")]
        op = lambda d, s: d.loc.__setitem__(2, [9, 9.5, 9, False, "n", pandas.Timestamp("2000-01-01")])  # noqa: E731
    old = gpd.options.fallback
    gpd.options.fallback = "raise"
    try:
        op(got_d, got_s)
    finally:
        gpd.options.fallback = old
    pdt.assert_frame_equal(got_d.to_pandas(), want_d)
    pdt.assert_series_equal(got_s.to_pandas(), want_s)


ENLARGE_OPS = {
    "series loc": lambda new, c, v: lambda s: s.loc.__setitem__(new, v),
    "series getitem": lambda new, c, v: lambda s: s.__setitem__(new, v),
    "series at": lambda new, c, v: lambda s: s.at.__setitem__(new, v),
}

FRAME_ENLARGE_OPS = {
    "frame row": lambda new, c, v: lambda d: d.loc.__setitem__(new, v),
    "frame cell": lambda new, c, v: lambda d: d.loc.__setitem__((new, c), v),
    "frame cells": lambda new, c, v: lambda d: d.loc.__setitem__((new, [c, "int"]), v),
    "frame at": lambda new, c, v: lambda d: d.at.__setitem__((new, c), v),
}

NEW_LABELS = {"range": 4, "labels": 50, "strings": "kapow"}


@pytest.mark.parametrize("index", list(INDEXES))
@pytest.mark.parametrize("kind", list(COLUMNS))
def test_a_new_label_adds_the_row_as_pandas(kind, index):
    ix = INDEXES[index]
    for v in VALUES[kind]:
        for op in ENLARGE_OPS.values():
            _same(lambda lib: _series(lib, kind, ix), op(NEW_LABELS[index], kind, v))
            _same(lambda lib: _series(lib, kind, ix), op(7, kind, v))
        for op in FRAME_ENLARGE_OPS.values():
            _same(lambda lib: _frame(lib, ix), op(NEW_LABELS[index], kind, v))


@pytest.mark.parametrize("op", [
    lambda s, d: s.loc.__setitem__(4, 5),
    lambda s, d: s.__setitem__(9, np.nan),
    lambda s, d: d.loc.__setitem__(4, [5, 0.5, "z"]),
    lambda s, d: d.loc.__setitem__((4, "a"), 5),
    lambda s, d: d.loc.__setitem__((4, "c"), "q"),
])
def test_a_new_row_is_native(op):
    want_s, want_d = pandas.Series([1, 2, 3, 4]), pandas.DataFrame({"a": [1, 2, 3, 4], "b": 0.25, "c": "x"})
    op(want_s, want_d)
    got_s, got_d = gpd.Series([1, 2, 3, 4]), gpd.DataFrame({"a": [1, 2, 3, 4], "b": 0.25, "c": "x"})
    old = gpd.options.fallback
    gpd.options.fallback = "raise"
    try:
        op(got_s, got_d)
    finally:
        gpd.options.fallback = old
    pdt.assert_series_equal(got_s.to_pandas(), want_s)
    pdt.assert_frame_equal(got_d.to_pandas(), want_d)
