"""frame/methods conformance fixes of session 8 (conf8frm), each checked against pandas."""
from __future__ import annotations

import datetime as dt
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
    lambda d: d.filter(["x", "z"], axis="index"), lambda d: d.filter(("B", "A")), lambda d: d.filter((True, False)),
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


def test_index_of_a_series_takes_its_name_and_pandas_signature() -> None:
    for pd in (pandas, gpd):
        s = pd.Series([1, 2], name="B")
        assert pd.Index(s).name == "B"
        assert pd.Index(s, name="x").name == "x"
        assert pd.Index(pd.Index([1, 2], name="q"), name="z").name == "z"
        assert str(pd.Index([1, 2], "int8").dtype) == "int8"


@pytest.mark.parametrize("box", [pandas.Series, pandas.Index, np.array, list])
@pytest.mark.parametrize("append", [True, False])
def test_set_index_of_arrays_names_levels_as_pandas(box, append) -> None:
    out = []
    for pd in (pandas, gpd):
        df = pd.DataFrame({"A": [1, 2, 3], "B": ["x", "y", "z"], "C": [1.5, 2.5, 3.5]})
        b = box(df["B"]) if box in (list, np.array) else getattr(pd, box.__name__)(df["B"])
        out.append(df.set_index(["A", b], append=append))
    tm.assert_frame_equal(out[1].to_pandas(), out[0])


def test_set_index_verify_integrity_warns_once_at_the_caller() -> None:
    df = gpd.DataFrame({"A": [1, 2], "B": [3, 4]})
    with pytest.warns(pandas.errors.Pandas4Warning, match="verify_integrity") as record:
        df.set_index("A", verify_integrity=True)
    assert len(record) == 1 and record[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="Length mismatch"):
            df.set_index(pandas.Series([1, 2, 3]))  # gframe's trip passes no deprecated keyword


@pytest.mark.parametrize("call", [
    lambda d: d.dropna(), lambda d: d.dropna(how="all"), lambda d: d.dropna(thresh=2), lambda d: d.dropna(axis=1),
    lambda d: d.dropna(axis=1, how="all"), lambda d: d.dropna(subset="a"), lambda d: d.dropna(subset=["a", "b"]),
])
def test_dropna_as_pandas(call) -> None:
    def make(pd):
        return pd.DataFrame({"a": [1.0, None, 3.0], "b": [None, None, 6.0], "c": [np.nan, np.nan, np.nan]})

    tm.assert_frame_equal(call(make(gpd)).to_pandas(), call(make(pandas)))


@pytest.mark.parametrize("call,exc", [
    (lambda d: d.dropna(how="all", thresh=1), TypeError), (lambda d: d.dropna(axis=(0, 1)), TypeError),
    (lambda d: d.dropna(subset=["X"]), KeyError), (lambda d: d.drop_duplicates(subset="X"), KeyError),
    (lambda d: d.drop_duplicates(ignore_index=1), ValueError), (lambda d: d.duplicated(subset={"a", "X"}), KeyError),
])
def test_dropna_and_duplicates_errors_as_pandas(call, exc) -> None:
    frames = [pd.DataFrame({"a": [1.0, None], "b": [2.0, 2.0]}) for pd in (pandas, gpd)]
    with pytest.raises(exc) as want:
        call(frames[0])
    with pytest.raises(exc) as got:
        call(frames[1])
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("subset", [("AA", "AB"), {"AAA"}, "AAA", ["AAA", ("AA", "AB")]])
def test_duplicates_subset_forms(subset) -> None:
    def make(pd):
        return pd.DataFrame({("AA", "AB"): [1, 1, 2], "AAA": [3, 3, 3], "B": [1, 1, 1]})

    for method in ("drop_duplicates", "duplicated"):
        want = getattr(make(pandas), method)(subset)
        got = getattr(make(gpd), method)(subset).to_pandas()
        (tm.assert_frame_equal if method == "drop_duplicates" else tm.assert_series_equal)(got, want)


@pytest.mark.parametrize("tz", ["+01:15", "UTC-02:15", "dateutil/US/Pacific", "Etc/GMT+1",
                                dt.timezone(dt.timedelta(hours=1)), dt.timezone(dt.timedelta(hours=-1), "foo")])
def test_tz_aware_index_and_columns_keep_their_zone(tz) -> None:
    """Fixed offsets of minutes (no IANA name, which the CPU engine needs) are held as pandas'
    Timestamps; every other zone comes back as the tz object it came in as, also after reset_index."""
    def make(pd):
        idx = pd.date_range("2011-01-01", periods=3, tz=tz, name="idx")
        return pd.DataFrame({"a": range(3), "t": idx}, index=idx)

    for call in (lambda d: d, lambda d: d.reset_index(), lambda d: d.describe(), lambda d: d[d.a > 0],
                 lambda d: d.sort_values("a", ascending=False), lambda d: d.t.dt.hour):
        want, got = call(make(pandas)), call(make(gpd)).to_pandas()
        (tm.assert_frame_equal if isinstance(want, pandas.DataFrame) else tm.assert_series_equal)(got, want)


def test_pipe_with_a_target_keyword() -> None:
    def f(x, y):
        return int(np.asarray(y).sum()) + x

    for pd in (pandas, gpd):
        df = pd.DataFrame({"A": [1, 2]})
        assert df.pipe((f, "y"), x=1) == 4 and df["A"].pipe((f, "y"), x=1) == 4
        with pytest.raises(ValueError, match="y is both the pipe target and a keyword argument"):
            df.pipe((f, "y"), x=1, y=0)


@pytest.mark.parametrize("values", [
    lambda pd: pd.DataFrame({"A": [1, 3, 3, 9], "B": [1, 2, 9, 9]}), lambda pd: pd.Series([1, 2, 3, 4]),
    lambda pd: pd.Series([1, 2, 3, 4], index=[3, 2, 1, 0]), lambda pd: [1, 9],
    lambda pd: pd.DataFrame({"A": [1, 3]}, index=[1, 0]),
])
def test_isin_of_a_frame_or_series_aligns_on_labels(values) -> None:
    def make(pd):
        return pd.DataFrame({"A": [1, 2, 3, 4], "B": [1, 2, 9, 9], "C": [0, 0, 0, 0]})

    tm.assert_frame_equal(make(gpd).isin(values(gpd)).to_pandas(), make(pandas).isin(values(pandas)))


@pytest.mark.parametrize("call", [
    lambda d: d.rename(str.lower), lambda d: d.rename({"A": "z"}, axis=1), lambda d: d.rename(columns=str.lower),
    lambda d: d.rename(index={"X": "q"}), lambda d: d.rename({"A": "z"}, axis="columns", errors="raise"),
    lambda d: d.rename(columns={"A": "B"}),
])
def test_rename_as_pandas(call) -> None:
    def make(pd):
        return pd.DataFrame({"A": [1, 2], "B": [3, 4]}, index=["X", "Y"])

    want = call(make(pandas))
    got = call(make(gpd))
    tm.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("call", [
    lambda d: d.rename(), lambda d: d.rename(None, index=None), lambda d: d.rename(index=str.lower, axis=1),
    lambda d: d.rename(str.lower, index=str.lower, columns=str.lower), lambda d: d.rename(id, mapper=id),
])
def test_rename_errors_as_pandas(call) -> None:
    frames = [pd.DataFrame({"A": [1]}) for pd in (pandas, gpd)]
    with pytest.raises(TypeError) as want:
        call(frames[0])
    with pytest.raises(TypeError) as got:
        call(frames[1])
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("kwargs", [{"sort_remaining": False}, {"ascending": [False, True]},
                                    {"ascending": False, "na_position": "first"}])
def test_sort_index_of_levels_as_pandas(kwargs) -> None:
    def make(pd):
        idx = pandas.MultiIndex.from_tuples([("b", 2), ("a", 3), ("c", 1), ("b", 1), ("a", 0)])
        return pd.DataFrame({"v": range(5)}, index=idx)

    tm.assert_frame_equal(make(gpd).sort_index(**kwargs).to_pandas(), make(pandas).sort_index(**kwargs))


@pytest.mark.parametrize("ascending", [None, [True, None], [False, "True"]])
def test_sort_index_bad_ascending_as_pandas(ascending) -> None:
    frames = [pd.DataFrame({"v": [1, 2]}, index=[2, 1]) for pd in (pandas, gpd)]
    with pytest.raises(ValueError) as want:
        frames[0].sort_index(ascending=ascending)
    with pytest.raises(ValueError) as got:
        frames[1].sort_index(ascending=ascending)
    assert str(got.value) == str(want.value)


def test_drop_beside_a_tuple_label_is_native() -> None:
    def make(pd):
        return pd.DataFrame({"A": [1, 2], ("tuple", "as", "label"): [3, 4], "C": [5, 6]})

    with gpd.option_context("gframe.fallback", "raise"):
        for key in ("A", ("tuple", "as", "label"), [("tuple", "as", "label"), "C"]):
            got, want = make(gpd).drop(key, axis=1).to_pandas(), make(pandas).drop(key, axis=1)
            # (the column Index's dtype is left out: pandas keeps object for the labels left of a
            # mixed Index, gframe's schema infers it from them - a known gap, not this check's)
            tm.assert_frame_equal(got, want, check_column_type=False)
            assert list(got.columns) == list(want.columns)
