"""pandas' full signatures (issue 10): the flexible operators with axis/level/fill_value,
DataFrame.from_dict / from_records, read_csv's short rows, the constructors' arguments. Each is
checked against pandas; the common cases run natively, the others through the recorded fallback."""
import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

NaN = float("nan")


@pytest.fixture(autouse=True)
def _clear_report():
    gframe.fallback_report(clear=True)
    yield
    gframe.fallback_report(clear=True)


def _pandas_trips() -> list[str]:
    return [e.api for e in gframe.fallback_report() if e.kind == "pandas"]


def frame(pd):
    return pd.DataFrame({"a": [1.0, None, 3.0, 4.0], "b": [10, 20, 30, 40]})


def series(pd):
    return pd.Series([2.0, None, None, 8.0], name="s")


# ------------------------------------------------------------------ flexible operators

ARITH = ["add", "sub", "mul", "truediv", "div", "floordiv", "mod", "pow",
         "radd", "rsub", "rmul", "rtruediv", "rdiv", "rfloordiv", "rmod"]


@pytest.mark.parametrize("name", ARITH)
@pytest.mark.parametrize("axis", ["index", 0, "rows"])
def test_frame_op_series_along_the_index_is_native(name, axis):
    assert_matches_pandas(lambda pd: getattr(frame(pd), name)(frame(pd).b, axis=axis))
    assert _pandas_trips() == []


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_frame_comparison_along_the_index_is_native(name):
    assert_matches_pandas(lambda pd: getattr(frame(pd), name)(frame(pd).b, axis="index"))
    assert _pandas_trips() == []


def test_frame_op_row_means_along_the_index():
    assert_matches_pandas(lambda pd: frame(pd).sub(frame(pd).mean(axis=1), axis=0))
    assert _pandas_trips() == []


def test_frame_op_other_series_along_the_index():
    assert_matches_pandas(lambda pd: frame(pd).add(series(pd), axis="index"))
    assert _pandas_trips() == []


@pytest.mark.parametrize("name", ["add", "sub", "mul", "truediv", "radd", "rsub", "pow"])
@pytest.mark.parametrize("fill_value", [0, -3])
def test_frame_op_scalar_with_fill_value_is_native(name, fill_value):
    assert_matches_pandas(lambda pd: getattr(frame(pd), name)(2, fill_value=fill_value))
    assert _pandas_trips() == []


def test_frame_op_scalar_with_float_fill_value_on_floats():
    assert_matches_pandas(lambda pd: frame(pd)[["a"]].rsub(2, fill_value=1.5))
    assert _pandas_trips() == []


def test_frame_op_scalar_with_float_fill_value_keeps_int_columns():
    assert_matches_pandas(lambda pd: frame(pd).add(2, fill_value=1.5))


def test_frame_rpow_large_exponent():
    assert_matches_pandas(lambda pd: frame(pd).rpow(2, fill_value=0))


def test_frame_op_frame_with_fill_value_falls_back_with_pandas_answer():
    def f(pd):
        other = pd.DataFrame({"a": [None, None, 1.0, 2.0], "c": [1.0, 2.0, 3.0, 4.0]})
        return frame(pd).sub(other, fill_value=0)

    assert_matches_pandas(f)
    assert _pandas_trips() == ["DataFrame.sub"]


def test_frame_op_series_along_columns():
    assert_matches_pandas(lambda pd: frame(pd).mul(pd.Series({"a": 2, "b": 3}), axis="columns"))
    assert_matches_pandas(lambda pd: frame(pd).mul([2, 3], axis=1))


def test_frame_op_with_level_falls_back_with_pandas_answer():
    def f(pd):
        idx = pandas.MultiIndex.from_tuples([("x", 1), ("x", 2), ("y", 1), ("y", 2)])
        df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]}, index=idx)
        return df.add(pd.Series([10.0, 20.0], index=["x", "y"]), axis=0, level=0)

    assert_matches_pandas(f)
    assert _pandas_trips() == ["DataFrame.add"]


def test_frame_series_with_fill_value_falls_back_with_pandas_answer():
    assert_matches_pandas(lambda pd: frame(pd).add(series(pd), axis=0, fill_value=0))
    assert _pandas_trips() == ["DataFrame.add"]


def test_bad_axis_and_arguments_raise_as_pandas():
    assert_raises_like_pandas(lambda pd: frame(pd).add(1, axis="nope"), match="No axis named")
    assert_raises_like_pandas(lambda pd: frame(pd).eq(1, fill_value=0))
    assert_raises_like_pandas(lambda pd: series(pd).add(1, axis=1))


def test_positional_arguments_follow_pandas_order():
    # DataFrame: (other, axis, level, fill_value); Series: (other, level, fill_value, axis)
    assert_matches_pandas(lambda pd: frame(pd).add(frame(pd).b, "index"))
    assert_matches_pandas(lambda pd: frame(pd).add(1, "columns", None, 100))
    assert_matches_pandas(lambda pd: series(pd).add(1, None, 100))


@pytest.mark.parametrize("name", ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow",
                                  "radd", "rsub", "rmul", "rtruediv", "rfloordiv", "rmod", "rpow"])
def test_series_fill_value_with_series_is_native(name):
    def f(pd):
        left = pd.Series([1.0, None, 3.0, None], name="s")
        return getattr(left, name)(series(pd), fill_value=2)

    assert_matches_pandas(f)
    assert _pandas_trips() == []


@pytest.mark.parametrize("other", [5, NaN, None])
def test_series_fill_value_with_scalar_is_native(other):
    assert_matches_pandas(lambda pd: series(pd).add(other, fill_value=7))
    assert_matches_pandas(lambda pd: series(pd).rsub(other, fill_value=7))
    assert _pandas_trips() == []


@pytest.mark.parametrize("name", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_series_comparison_with_fill_value(name):
    assert_matches_pandas(lambda pd: getattr(series(pd), name)(pd.Series([2.0, 1.0, None, 9.0]), fill_value=1.0))
    assert _pandas_trips() == []


def test_series_ops_on_empty_and_one_row():
    assert_matches_pandas(lambda pd: series(pd).iloc[:0].add(series(pd).iloc[:0], fill_value=0))
    assert_matches_pandas(lambda pd: series(pd).iloc[1:2].radd(1, fill_value=0))
    assert_matches_pandas(lambda pd: frame(pd).iloc[:0].sub(frame(pd).b.iloc[:0], axis=0))


def test_series_op_with_level_falls_back_with_pandas_answer():
    def f(pd):
        idx = pandas.MultiIndex.from_tuples([("x", 1), ("x", 2), ("y", 1)])
        return pd.Series([1.0, 2.0, 3.0], index=idx).mul(pd.Series([10.0, 20.0], index=["x", "y"]), level=0)

    assert_matches_pandas(f)
    assert _pandas_trips() == ["Series.mul"]


# ------------------------------------------------------------------ alternate constructors

@pytest.mark.parametrize("make", [
    lambda pd: pd.DataFrame.from_dict({"a": [1, 2], "b": ["x", None]}),
    lambda pd: pd.DataFrame.from_dict({"r1": {"a": 1, "b": 2.5}, "r2": {"a": 3, "b": None}}, orient="index"),
    lambda pd: pd.DataFrame.from_dict({"r1": [1, 2], "r2": [3, 4]}, orient="index", columns=["p", "q"]),
    lambda pd: pd.DataFrame.from_dict({"index": [0, 1], "columns": ["a"], "data": [[1], [2]],
                                       "index_names": [None], "column_names": [None]}, orient="tight"),
    lambda pd: pd.DataFrame.from_dict({"a": [1, 2]}, dtype="float32"),
    lambda pd: pd.DataFrame.from_dict({}),
    lambda pd: pd.DataFrame.from_dict({"a": pd.Series([1, 2], index=["x", "y"])}),
    lambda pd: pd.DataFrame.from_records([(1, "a"), (2, "b")], columns=["x", "y"]),
    lambda pd: pd.DataFrame.from_records([{"x": 1, "y": 2.0}, {"x": 3}], index="x"),
    lambda pd: pd.DataFrame.from_records(np.array([(1, 2.0), (3, 4.0)], dtype=[("a", "i4"), ("b", "f8")]),
                                         exclude=["b"]),
    lambda pd: pd.DataFrame.from_records([(1, 2), (3, 4), (5, 6)], nrows=2),
    lambda pd: pd.DataFrame.from_records([(1.5, "x")], columns=["a", "b"], coerce_float=True),
])
def test_from_dict_and_from_records(make):
    assert_matches_pandas(make)
    assert _pandas_trips() == []


def test_from_dict_bad_orient_raises_as_pandas():
    assert_raises_like_pandas(lambda pd: pd.DataFrame.from_dict({"a": [1]}, orient="nope"))


def test_from_records_refuses_a_frame_as_pandas():
    assert_raises_like_pandas(lambda pd: pd.DataFrame.from_records(pd.DataFrame({"a": [1]})))


# ------------------------------------------------------------------ constructors

@pytest.mark.parametrize("make", [
    lambda pd: pd.Series({"a": 1, "b": 2, "c": 3}, index=["c", "a", "z"], dtype="float64", name="s"),
    lambda pd: pd.Series(5, index=[1, 2, 3], name="k"),
    lambda pd: pd.Series([1, 2], dtype="int32", copy=True),
    lambda pd: pd.Series(pd.Series([1, 2, 3], index=["a", "b", "c"]), index=["c", "a"]),
    lambda pd: pd.Series([], dtype="float64"),
    lambda pd: pd.DataFrame({"a": [1, 2], "b": [3, 4]}, columns=["b", "z"]),
    lambda pd: pd.DataFrame([[1, 2], [3, 4]], columns=["a", "b"], index=["x", "y"], dtype="float32"),
    lambda pd: pd.DataFrame(pd.DataFrame({"a": [1, 2, 3]}), index=[2, 0]),
    lambda pd: pd.DataFrame(pd.DataFrame({"a": [1, 2, 3], "b": 1}), columns=["b"]),
    lambda pd: pd.DataFrame({"a": pd.Series([1, 2], index=[1, 0]), "b": pd.Series([3], index=[1])}),
    lambda pd: pd.DataFrame(index=[1, 2], columns=["a"]),
])
def test_constructor_arguments(make):
    assert_matches_pandas(make)


# ------------------------------------------------------------------ read_csv: short rows

@pytest.mark.parametrize("text", [
    "a,b,c\n1,2,3\n4\n",
    "a,b,c\n1,x,3\n4,y\n",
    "a,b,c\n1,2,2020-01-01\n4,5\n",
    "a,b,c\n1,2,3\n4,5\n6,7,8\n",
    'a,b,c\n"1,5",2,3\n4,5\n\n6,7,8\n',
    "a,b,c\n1,2\n",
])
def test_read_csv_short_rows_fill_missing(tmp_path, text):
    path = tmp_path / "short.csv"
    path.write_text(text)
    assert_matches_pandas(lambda pd: pd.read_csv(path))
    assert _pandas_trips() == []


def test_read_csv_short_rows_with_options(tmp_path):
    path = tmp_path / "short.csv"
    path.write_text("a,b,c\n1,2,3\n4,5\n")
    assert_matches_pandas(lambda pd: pd.read_csv(path, usecols=["a", "c"]))
    assert_matches_pandas(lambda pd: pd.read_csv(path, index_col="a"))
    assert_matches_pandas(lambda pd: pd.read_csv(path, dtype={"b": "float64"}))


def test_read_csv_a_longer_row_raises_as_pandas(tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("a,b,c\n1,2\n4,5,6,7\n")
    assert_raises_like_pandas(lambda pd: pd.read_csv(path), match="Expected 3 fields in line 3, saw 4")
