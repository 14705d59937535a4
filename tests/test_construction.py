"""DataFrame / Series construction."""
import numpy as np
import pandas
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DICTS = {
    "ints": {"a": [1, 2, 3], "b": [4, 5, 6]},
    "floats_nan": {"a": [1.0, NaN, 3.5], "b": [NaN, NaN, NaN]},
    "strings_none": {"s": ["x", None, "z"], "n": [1, 2, 3]},
    "bools": {"b": [True, False, True]},
    "one_row": {"a": [1], "s": ["only"], "f": [0.5]},
    "empty_cols": {"a": [], "b": []},
    "mixed": {"i": [1, 2], "f": [1.5, NaN], "s": ["a", None], "b": [False, True]},
}


@pytest.mark.parametrize("name", sorted(DICTS))
def test_from_dict(name):
    data = DICTS[name]
    assert_matches_pandas(lambda pd: pd.DataFrame(data))


def test_from_dict_empty():
    assert_matches_pandas(lambda pd: pd.DataFrame({}))


def test_from_dict_with_index():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 3]}, index=[10, 20, 30]))


def test_from_dict_with_string_index():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1.0, NaN]}, index=["r1", "r2"]))


def test_from_dict_column_subset_order():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2], "b": [3, 4], "c": [5, 6]}, columns=["c", "a"]))


def test_from_dict_scalar_broadcast():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 3], "b": 7}))


def test_from_dict_datetimes():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"t": pd.to_datetime(["2020-01-01 00:00", None, "2021-06-30 12:00"]), "v": [1, 2, 3]})
    )


def test_from_list_of_dicts():
    rows = [{"a": 1, "b": "x"}, {"a": 2, "b": None}, {"a": 3, "b": "z"}]
    assert_matches_pandas(lambda pd: pd.DataFrame(rows))


def test_from_list_of_dicts_missing_keys():
    rows = [{"a": 1, "b": 2.0}, {"a": 2}, {"b": 3.5, "c": "new"}]
    assert_matches_pandas(lambda pd: pd.DataFrame(rows))


def test_from_list_of_dicts_one_row():
    assert_matches_pandas(lambda pd: pd.DataFrame([{"x": 1.5, "y": True}]))


@pytest.mark.parametrize(
    "arr",
    [
        np.arange(12, dtype=np.int64).reshape(4, 3),
        np.array([[1.0, NaN, 3.0], [NaN, 5.0, 6.0]]),
        np.zeros((0, 3)),
        np.array([[True, False, True]]),
    ],
    ids=["int", "float_nan", "empty", "bool_one_row"],
)
def test_from_numpy_2d(arr):
    assert_matches_pandas(lambda pd: pd.DataFrame(arr, columns=["a", "b", "c"]))


def test_from_numpy_2d_no_columns():
    arr = np.arange(6, dtype=np.float64).reshape(3, 2)
    assert_matches_pandas(lambda pd: pd.DataFrame(arr))


def test_from_pandas_dataframe():
    src = pandas.DataFrame({"a": [1, 2, 3], "s": ["x", None, "z"], "f": [NaN, 1.0, 2.0]})
    assert_matches_pandas(lambda pd: pd.DataFrame(src))


def test_from_pandas_dataframe_with_index():
    src = pandas.DataFrame({"a": [1.0, 2.0]}, index=pandas.Index(["p", "q"], name="idx"))
    assert_matches_pandas(lambda pd: pd.DataFrame(src))


def test_from_pandas_dataframe_datetimes():
    src = pandas.DataFrame({"t": pandas.to_datetime(["2020-01-01", None]), "v": [1, 2]})
    assert_matches_pandas(lambda pd: pd.DataFrame(src))


@pytest.mark.parametrize(
    "values",
    [[1, 2, 3], [1.0, NaN, 3.0], ["a", None, "c"], [True, False], [], [42]],
    ids=["int", "float_nan", "str_none", "bool", "empty_list", "one"],
)
def test_series_from_list(values):
    assert_matches_pandas(lambda pd: pd.Series(values, dtype="float64" if values == [] else None))


def test_series_with_index_and_name():
    assert_matches_pandas(lambda pd: pd.Series([1.5, NaN, 3.0], index=["a", "b", "c"], name="vals"))


def test_series_with_int_index():
    assert_matches_pandas(lambda pd: pd.Series(["x", "y"], index=[5, 7], name="s"))


def test_series_with_dtype():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], dtype="float64", name="f"))


def test_series_from_numpy():
    arr = np.array([3, 1, 2], dtype=np.int32)
    assert_matches_pandas(lambda pd: pd.Series(arr))


def test_series_from_pandas_series():
    src = pandas.Series([1.0, None, 3.0], index=[2, 4, 6], name="z")
    assert_matches_pandas(lambda pd: pd.Series(src))


def test_series_from_dict():
    assert_matches_pandas(lambda pd: pd.Series({"a": 1, "b": 2, "c": 3}))


def test_to_datetime_series():
    assert_matches_pandas(lambda pd: pd.to_datetime(pd.Series(["2020-01-01 00:00:00", None, "2020-03-04 05:06:07"])))


def test_to_datetime_list_index():
    assert_matches_pandas(lambda pd: pd.to_datetime(["2020-01-01", "2021-02-02"]))


def test_frame_column_from_series():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": pd.Series([1, 2, 3]), "b": [4.0, 5.0, 6.0]}))
