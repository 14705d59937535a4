"""frame/methods conformance fixes of session 8 (conf8frm), each checked against pandas."""
from __future__ import annotations

import warnings

import numpy as np
import pandas
import pytest

import gframe as gpd

tm = pandas.testing


def _frame(pd):
    return pd.DataFrame({
        "i": [1, 2], "f": [1.5, 2.5], "I": pd.array([1, None], dtype="Int64"),
        "F": pd.array([1.5, None], dtype="Float64"), "b": pd.array([True, None], dtype="boolean"),
        "ai": pd.array([1, 2], dtype="int64[pyarrow]"), "s": ["x", "y"], "S": pd.array(["x", None], dtype="string"),
        "c": pd.Categorical(["u", "v"]), "t": pd.to_datetime(["2024-01-01", "2024-01-02"]),
        "tz": pd.to_datetime(["2024-01-01", "2024-01-02"]).tz_localize("UTC"),
    })


@pytest.mark.parametrize("include,exclude", [
    ("number", None), ("Int64", None), (pandas.Int64Dtype, None), ("int64[pyarrow]", None), ("category", None),
    ("boolean", None), (None, "number"), (["string"], None), ("str", None), (np.number, "Int64"),
    ("datetimetz", None), ("datetime64", None), (pandas.api.extensions.ExtensionDtype, None),
])
def test_select_dtypes_reads_exact_dtypes(include, exclude) -> None:
    """nullable, Arrow and categorical columns match only their own specifications, as in pandas."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _frame(pandas).select_dtypes(include=include, exclude=exclude)
        got = _frame(gpd).select_dtypes(include=include, exclude=exclude)
    tm.assert_frame_equal(got.to_pandas(), want)


def test_select_dtypes_warnings_point_at_the_caller() -> None:
    df = gpd.DataFrame({"a": [1], "b": ["x"]})
    with pytest.warns(Warning) as record:
        df.select_dtypes(include=[None, "number"])
    assert record[0].filename == __file__


@pytest.mark.parametrize("columns", [pandas.Index([], dtype="str"), pandas.Index(["a", "b"], dtype=object),
                                     pandas.Index([1, 2], dtype="int8")])
def test_constructor_keeps_the_dtype_of_a_gframe_column_index(columns) -> None:
    want = pandas.DataFrame(columns=columns, index=[0.5])
    got = gpd.DataFrame(columns=gpd.Index(columns), index=[0.5])
    tm.assert_frame_equal(got.to_pandas(), want)
    assert got.columns.inferred_type == want.columns.inferred_type


def _levels(pd):
    df = pd.DataFrame({"outer": ["a", "a", "b", "b", None], "inner": [3.0, 1.0, np.nan, 2.0, 1.0],
                       "A": [5, 4, 3, 2, 1], "B": [1, 2, 3, 4, 5]})
    return df.set_index(["outer", "inner"])


@pytest.mark.parametrize("by,ascending,na_position", [
    ("outer", True, "last"), (["outer", "A"], [True, False], "last"), ("inner", False, "first"),
    (["A", "inner"], True, "first"), (["inner", "B"], False, "last"),
])
def test_sort_values_by_index_levels(by, ascending, na_position) -> None:
    want = _levels(pandas).sort_values(by, ascending=ascending, na_position=na_position)
    got = _levels(gpd).sort_values(by, ascending=ascending, na_position=na_position)
    tm.assert_frame_equal(got.to_pandas(), want)


def test_sort_values_missing_key_is_keyerror() -> None:
    with pytest.raises(KeyError):
        _levels(pandas).sort_values("zz")
    with pytest.raises(KeyError):
        _levels(gpd).sort_values("zz")


@pytest.mark.parametrize("call", [
    lambda d: d.filter(["A", "zz", "B"]), lambda d: d.filter(items=["B"]), lambda d: d.filter(like="A"),
    lambda d: d.filter(regex="^B"), lambda d: d.filter(lambda x: x["A"] > 1),
    lambda d: d.filter([True, False, True], axis=0), lambda d: d.filter(cond=d["A"] > 1),
    lambda d: d.filter(["x", "z"], axis="index"),
])
def test_filter_takes_pandas_31_signature(call) -> None:
    def make(pd):
        return pd.DataFrame({"A": [1, 2, 3], "B": [4, 5, 6], "AB": [7, 8, 9]}, index=["x", "y", "z"])

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = call(make(pandas))
        got = call(make(gpd))
    tm.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("kwargs", [{"arg": ["A"], "items": ["A"]}, {"items": ["A"], "like": "A"}, {}])
def test_filter_errors_are_pandas(kwargs) -> None:
    arg = kwargs.pop("arg", None)
    args = () if arg is None else (arg,)
    frames = [pd.DataFrame({"A": [1]}) for pd in (pandas, gpd)]
    with pytest.raises(TypeError) as want:
        frames[0].filter(*args, **kwargs)
    with pytest.raises(TypeError) as got:
        frames[1].filter(*args, **kwargs)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("op", ["__iadd__", "__isub__", "__imul__", "__ipow__", "__itruediv__", "__ifloordiv__",
                                "__imod__"])
def test_inplace_operators_by_name(op) -> None:
    out = {}
    for pd in (pandas, gpd):
        df = pd.DataFrame({"x": range(5)})
        df["y"] = range(1, 6)
        y = df["y"]
        df = df.drop("y", axis=1)
        assert getattr(y, op)(2) is y
        out[pd] = (y, df)
    tm.assert_series_equal(out[gpd][0].to_pandas(), out[pandas][0])
    tm.assert_frame_equal(out[gpd][1].to_pandas(), out[pandas][1])


def test_inplace_operator_with_another_object_keeps_the_labels() -> None:
    res = []
    for pd in (pandas, gpd):
        s = pd.Series([1, 2, 3], name="a")
        t = pd.Series([10, 20], index=[1, 2], name="b")
        same = s
        s += t
        assert s is same
        d = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
        d *= pd.DataFrame({"a": [2, 2], "c": [1, 1]})
        res.append((s, d))
    tm.assert_series_equal(res[1][0].to_pandas(), res[0][0])
    tm.assert_frame_equal(res[1][1].to_pandas(), res[0][1])


@pytest.mark.parametrize("kwargs,exc", [
    ({"index": "b", "axis": 1}, ValueError), ({}, ValueError), ({"labels": "a", "columns": "a"}, ValueError),
])
def test_drop_argument_errors(kwargs, exc) -> None:
    frames = [pd.DataFrame({"a": [1], "b": [2]}, index=["b"]) for pd in (pandas, gpd)]
    with pytest.raises(exc) as want:
        frames[0].drop(**kwargs)
    with pytest.raises(exc) as got:
        frames[1].drop(**kwargs)
    assert str(got.value) == str(want.value)


def test_drop_of_multiindex_columns_by_first_level_and_by_level() -> None:
    def make(pd):
        cols = pandas.MultiIndex.from_tuples(sorted([("a", "", ""), ("top", "OD", "wx"), ("top", "OD", "wy"),
                                                     ("r", "x", "")]))
        return pd.DataFrame(np.arange(8).reshape(2, 4), columns=cols)

    tm.assert_frame_equal(make(gpd).drop("a", axis=1).to_pandas(), make(pandas).drop("a", axis=1))
    tm.assert_frame_equal(make(gpd).drop(["top"], axis=1).to_pandas(), make(pandas).drop(["top"], axis=1))
    tm.assert_frame_equal(make(gpd).drop(columns="OD", level=1).to_pandas(), make(pandas).drop(columns="OD", level=1))


def test_index_names_compare_as_pandas() -> None:
    def make(pd):
        idx = pd.MultiIndex.from_arrays([[0, 0, 1], [1, 2, 1]], names=["one", "two"])
        return pd.DataFrame({"v": [1.0, 2.0, 3.0]}, index=idx)

    got, want = make(gpd).drop([(0, 2)]).index.names, make(pandas).drop([(0, 2)]).index.names
    assert got == ("one", "two") and want == ("one", "two") and got == ["one", "two"]
    assert type(got) is type(want)
