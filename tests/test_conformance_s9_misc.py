"""Session 9 (conf9misc): causes found by pandas' own tests in reductions/, tools/, io/test_parquet.py
and window/ - each checked against pandas here (values, dtypes, exception types and messages,
warnings and where they point)."""
from __future__ import annotations

import datetime
import os
import uuid
import warnings
from decimal import Decimal

import numpy as np
import pandas
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas


# ----------------------------------------------------------------------------- to_datetime's warnings
@pytest.mark.parametrize("values, category", [
    (["2000Q4", "2001Q1"], pandas.errors.Pandas4Warning),  # a quarter string (deprecated)
    (["13/02/2000", "14/02/2000"], UserWarning),  # day first, dayfirst=False
])
def test_to_datetime_host_data_warns_at_the_callers_line(values, category):
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        expected = pandas.to_datetime(values)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = gframe.to_datetime(values)
    assert [(w.category, str(w.message)) for w in caught] == [(w.category, str(w.message)) for w in theirs]
    pandas.testing.assert_index_equal(got.to_pandas(), expected)
    mine = [w for w in caught if issubclass(w.category, category)]
    assert mine, [str(w.message) for w in caught]
    assert all(w.filename == __file__ for w in mine), [w.filename for w in mine]


# ----------------------------------------------------------------------------- Series reductions
OBJECT_STATS = ["mean", "median", "var", "std", "sum", "prod", "min"]


@pytest.mark.parametrize("how", OBJECT_STATS)
@pytest.mark.parametrize("data", [["1", "2", "3"], ["a", "b", "c"], [b"1", b"2", b"3"]], ids=["digits", "letters", "bytes"])
def test_object_strings_and_bytes_reduce_as_pandas(how, data):
    try:
        getattr(pandas.Series(data, dtype=object), how)()
    except TypeError as exc:  # pandas: "Could not convert '1' to numeric" and the like
        assert_raises_like_pandas(lambda pd: getattr(pd.Series(data, dtype=object), how)(), match=_escaped(str(exc)))
    else:
        assert_matches_pandas(lambda pd: getattr(pd.Series(data, dtype=object), how)())


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


@pytest.mark.parametrize("data", [[Decimal(1), Decimal(2), Decimal(3), Decimal(5)], [Decimal("1.5"), None, Decimal("2.25")]])
def test_object_decimal_mean_is_a_float(data):
    got = assert_matches_pandas(lambda pd: pd.Series(data, dtype=object).mean())
    assert isinstance(got, np.float64)
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": data}).mean())


@pytest.mark.parametrize("how", ["sum", "prod", "mean", "median", "min", "max", "std", "var"])
@pytest.mark.parametrize("axis", [1, "columns", True])
def test_series_reduction_axis_is_checked(how, axis):
    assert_raises_like_pandas(lambda pd: getattr(pd.Series([1.0, 2.0]), how)(axis=axis),
                              match=f"No axis named {axis} for object type Series")


@pytest.mark.parametrize("axis", [0, "index", "rows", None])
def test_series_reduction_axis_accepted(axis):
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, 4.0]).sum(axis=axis))


@pytest.mark.parametrize("how", ["std", "any", "all", "mean", "median", "sum"])
@pytest.mark.parametrize("days", [[1, 2, 3], [0, 0], []], ids=["values", "zeros", "empty"])
def test_timedelta_reductions(how, days):
    assert_matches_pandas(lambda pd: getattr(pd.Series(pandas.to_timedelta(days, unit="D")), how)())


@pytest.mark.parametrize("how", ["var", "prod"])
@pytest.mark.parametrize("unit", ["ns", "us"])
def test_timedelta_var_prod_raise(how, unit):
    values = pandas.to_timedelta([1, 2, 3], unit="D").as_unit(unit)
    assert_raises_like_pandas(lambda pd: getattr(pd.Series(values), how)(),
                              match=f"'TimedeltaArray' with dtype timedelta64\\[{unit}\\] does not support operation '{how}'")


@pytest.mark.parametrize("dtype", ["Int64", "Float64", "boolean"])
@pytest.mark.parametrize("data", [[], [pandas.NA]], ids=["empty", "all_na"])
def test_nullable_mean_of_no_values_is_na_without_warning(dtype, data):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # numpy's "Mean of empty slice"
        got = assert_matches_pandas(lambda pd: pd.Series(data, dtype=dtype).mean())
    assert got is pandas.NA


@pytest.mark.parametrize("how", ["idxmin", "idxmax"])
@pytest.mark.parametrize("data, dtype", [([np.nan, np.nan], "float64"), ([None, None], object)])
def test_idxmin_all_missing_message(how, data, dtype):
    assert_raises_like_pandas(lambda pd: getattr(pd.Series(data, dtype=dtype), how)(), match="Encountered all NA values")


@pytest.mark.parametrize("how", ["idxmin", "idxmax"])
def test_idxmin_empty_message(how):
    word = "argmin" if how == "idxmin" else "argmax"
    assert_raises_like_pandas(lambda pd: getattr(pd.Series([], dtype="float64"), how)(),
                              match=f"attempt to get {word} of an empty sequence")


@pytest.mark.parametrize("how", ["sum", "prod"])
def test_object_na_propagates_with_skipna_false(how):
    got = assert_matches_pandas(lambda pd: getattr(pd.Series([1, pandas.NA, 3], dtype=object), how)(skipna=False))
    assert got is pandas.NA
    # None / NaN in an object column: NaN, as pandas
    assert_matches_pandas(lambda pd: getattr(pd.Series([2, None], dtype=object), how)(skipna=False))
    assert_matches_pandas(lambda pd: getattr(pd.Series([2, pandas.NA], dtype=object), how)())


# ----------------------------------------------------------------------------- read_parquet / to_parquet
@pytest.fixture
def parquet_path(tmp_path):
    return str(tmp_path / "f.parquet")


def _roundtrip_frames() -> dict[str, pandas.DataFrame]:
    attrs = pandas.DataFrame({"a": [1, 2]})
    attrs.attrs = {"test_attribute": 1}
    offset = datetime.timezone(datetime.timedelta(hours=2, minutes=15))
    return {
        "categorical": pandas.DataFrame({"b": pandas.Categorical(["bar", "foo", None], categories=["foo", "bar", "baz"])}),
        "empty": pandas.DataFrame(index=[], columns=[]),
        "int_labels": pandas.DataFrame({1: [1, 2], 2: [3, 4]}),
        "column_multiindex": pandas.DataFrame([[1, 2]], columns=pandas.MultiIndex.from_tuples([("a", "1"), ("a", "2")])),
        "timestamp_labels": pandas.DataFrame({pandas.Timestamp("1970-01-01"): [1]}),
        "named_columns": pandas.DataFrame({"a": [1]}).rename_axis(columns="name"),
        "uuid": pandas.DataFrame({"id": [uuid.UUID(int=1), uuid.UUID(int=2)]}),
        "fixed_offset": pandas.DataFrame({"t": [datetime.datetime(2020, 1, 1, tzinfo=offset)] * 2}),
        "attrs": attrs,
        "plain": pandas.DataFrame({"a": [1, 2], "s": ["x", None]}),
        "nullable": pandas.DataFrame({"a": pandas.Series([1, None], dtype="Int64"), "b": pandas.Series([None, 3], dtype="UInt32"),
                                      "c": pandas.Series(["a", None], dtype="string"),
                                      "d": pandas.Series([1, None], dtype="int64[pyarrow]")}),
    }


@pytest.mark.parametrize("name", sorted(_roundtrip_frames()))
def test_read_parquet_rebuilds_pandas_metadata(name, parquet_path):
    """What pandas rebuilds from its metadata (column labels of other types, several levels,
    categories, attrs, extension types, fixed offsets) reads as pandas reads it."""
    frame = _roundtrip_frames()[name]
    frame.to_parquet(parquet_path)
    got = assert_matches_pandas(lambda pd: pd.read_parquet(parquet_path))
    assert got.attrs == pandas.read_parquet(parquet_path).attrs


@pytest.mark.parametrize("name", ["plain", "uuid", "int_labels", "nullable"])
def test_to_parquet_then_read_matches_pandas(name, parquet_path):
    frame = _roundtrip_frames()[name]

    def run(pd):
        pd.DataFrame(frame).to_parquet(parquet_path)
        return pd.read_parquet(parquet_path)

    assert_matches_pandas(run)


def test_read_parquet_plain_file_stays_native(parquet_path):
    pandas.DataFrame({"a": [1, 2], "s": ["x", None]}).to_parquet(parquet_path)
    with gframe.option_context("gframe.fallback", "raise"):
        got = gframe.read_parquet(parquet_path)
        assert got["a"].sum() == 3


def test_parquet_engine_auto_warns(parquet_path):
    msg = "engine='auto' is deprecated"
    for mod in (pandas, gframe):
        df = mod.DataFrame({"a": [1, 2]})
        with pandas._testing.assert_produces_warning(pandas.errors.Pandas4Warning, match=msg):
            df.to_parquet(parquet_path, engine="auto")
        with pandas._testing.assert_produces_warning(pandas.errors.Pandas4Warning, match=msg):
            mod.read_parquet(parquet_path, engine="auto")
        with warnings.catch_warnings():
            warnings.simplefilter("error", pandas.errors.Pandas4Warning)
            df.to_parquet(parquet_path)
            mod.read_parquet(parquet_path)
            mod.read_parquet(parquet_path, engine="pyarrow")


def test_parquet_paths_expand_user(monkeypatch):
    monkeypatch.setenv("HOME", "TestingUser")
    monkeypatch.setenv("USERPROFILE", "TestingUser")
    assert_raises_like_pandas(lambda pd: pd.read_parquet("~/file.parquet"), match="TestingUser")
    assert_raises_like_pandas(lambda pd: pd.DataFrame({"a": [1]}).to_parquet("~/file.parquet"), match="TestingUser")


def test_read_parquet_pyarrow_written_ints_with_nulls(parquet_path):
    pq.write_table(pa.table({"a": pa.array([1, 2, None], "int64"), "e": pa.array([1, 2, 3], "int64")}), parquet_path)
    assert_matches_pandas(lambda pd: pd.read_parquet(parquet_path))
    assert os.path.exists(parquet_path)


# ----------------------------------------------------------------------------- to_numeric / to_timedelta
NUMERIC_SERIES = {
    "int": ([1, 2, 3], "int64"),
    "float_nan": ([1.5, None], "float64"),
    "bool": ([True, False], "bool"),
    "uint8": ([1, 2], "uint8"),
    "float32": ([1.0, 2.0], "float32"),
    "Int64": ([1, None], "Int64"),
    "boolean": ([True, None], "boolean"),
    "int_pyarrow": ([1, None], "int64[pyarrow]"),
}


@pytest.mark.parametrize("name", sorted(NUMERIC_SERIES))
@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_to_numeric_of_numbers_is_native(name, errors):
    data, dtype = NUMERIC_SERIES[name]
    with gframe.option_context("gframe.fallback", "raise"):
        assert_matches_pandas(lambda pd: pd.to_numeric(pd.Series(data, dtype=dtype, name="x", index=[7, 3][: len(data)] + [9] * (len(data) - 2)),
                                                       errors=errors))


@pytest.mark.parametrize("kwargs", [{"downcast": "integer"}, {"downcast": "float"}, {"dtype_backend": "numpy_nullable"}])
def test_to_numeric_of_numbers_with_options(kwargs):
    assert_matches_pandas(lambda pd: pd.to_numeric(pd.Series([1, 2, 300]), **kwargs))


@pytest.mark.parametrize("data", [["1", "2"], ["1.5", None], ["1", "apple"]])
def test_to_numeric_of_strings(data):
    assert_matches_pandas(lambda pd: pd.to_numeric(pd.Series(data), errors="coerce"))
    if "apple" in data:
        assert_raises_like_pandas(lambda pd: pd.to_numeric(pd.Series(data)), match="Unable to parse string 'apple'")


@pytest.mark.parametrize("arg", [[1, "2", 3.5], np.array(["1", "2"]), "1.5", 7, []])
def test_to_numeric_of_host_data_as_pandas(arg):
    with gframe.option_context("gframe.fallback", "raise"):
        got = gframe.to_numeric(arg)
    expected = pandas.to_numeric(arg)
    if isinstance(expected, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected and type(got) is type(expected)


def test_to_numeric_host_errors_as_pandas():
    assert_raises_like_pandas(lambda pd: pd.to_numeric(["1", "apple"]), match="Unable to parse string 'apple' at position 1")
    assert_raises_like_pandas(lambda pd: pd.to_numeric([1], errors="bogus"), match="invalid error value specified")


@pytest.mark.parametrize("arg, kwargs", [("1D", {}), (["1 days", "2h"], {}), ([1, 2], {"unit": "s"}), (np.array([1, 2]), {"unit": "D"})])
def test_to_timedelta_of_host_data(arg, kwargs):
    with gframe.option_context("gframe.fallback", "raise"):
        got = gframe.to_timedelta(arg, **kwargs)
    expected = pandas.to_timedelta(arg, **kwargs)
    if isinstance(expected, pandas.Index):
        pandas.testing.assert_index_equal(got.to_pandas(), expected)
    else:
        assert got == expected and type(got) is type(expected)


def test_to_timedelta_of_a_series():
    assert_matches_pandas(lambda pd: pd.to_timedelta(pd.Series([1, 2], name="s"), unit="h"))


# ----------------------------------------------------------------------------- Series.mode / Series.sem
MODE_CASES = {
    "int8": ([1, 1, 1, 2, 3, 3, 3], "int8"),
    "uint64": ([1, 2], "uint64"),
    "float_nan": ([1, 1, 2, np.nan, np.nan], "float64"),
    "empty": ([], "float64"),
    "str_nan": (["foo", "bar", "bar", np.nan, np.nan, np.nan], "str"),
    "string": (["a", "a", "b", None], "string"),
    "bool": ([True, True, False], "bool"),
    "Int64": ([1, None, None], "Int64"),
    "Float64": ([1.5, None, None, 1.5], "Float64"),
    "datetime": (pandas.to_datetime(["2020", "2021", "2021", None]), None),
    "timedelta": (pandas.to_timedelta([1, 1, None], unit="D"), None),
    "datetime_nat_first": (pandas.to_datetime(["2011-01-03", "2013-01-02", "1900-05-03", "2011-01-03", "2013-01-02", None, None]), None),
    "timedelta_nat_first": (pandas.to_timedelta(["1 day", "2 min", "2 min", "1 day", None, None]), None),
    "Int64_na_last": ([1, 1, None, None, 2], "Int64"),
    "object": (["a", "a", None, None], object),
    "category": (["a", "b", "b"], "category"),
    "int_pyarrow": ([1, 1, 2], "int64[pyarrow]"),
}


@pytest.mark.parametrize("name", sorted(MODE_CASES))
@pytest.mark.parametrize("dropna", [True, False])
def test_series_mode(name, dropna):
    data, dtype = MODE_CASES[name]
    assert_matches_pandas(lambda pd: pd.Series(data, dtype=dtype, name="n").mode(dropna))


@pytest.mark.parametrize("dtype", ["int64", "float64", "str"])
def test_series_mode_native(dtype):
    data = {"int64": [3, 1, 3, 1, 2], "float64": [0.5, np.nan, 0.5, np.nan], "str": ["b", "a", "b", "a", None]}[dtype]
    with gframe.option_context("gframe.fallback", "raise"):
        assert_matches_pandas(lambda pd: pd.Series(data, dtype=dtype).mode())
        assert_matches_pandas(lambda pd: pd.Series(data, dtype=dtype).mode(dropna=False))


@pytest.mark.parametrize("data, dtype", [([1.0, 2, 4, np.nan], "float64"), ([1, 2, 3], "int64"), ([1.0], "float64"),
                                         ([], "float64"), ([1.0, 2.0], "float32"), ([1, 2, None], "Int64")])
@pytest.mark.parametrize("kwargs", [{}, {"ddof": 0}, {"skipna": False}, {"ddof": 2}])
def test_series_sem(data, dtype, kwargs):
    got = assert_matches_pandas(lambda pd: pd.Series(data, dtype=dtype).sem(**kwargs), rtol=1e-12)
    assert type(got) is type(pandas.Series(data, dtype=dtype).sem(**kwargs))


def test_series_sem_is_a_class_attribute_and_native():
    assert callable(gframe.Series.sem)
    with gframe.option_context("gframe.fallback", "raise"):
        assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, 4.0, 8.0]).sem())
    assert_raises_like_pandas(lambda pd: pd.Series([1.0]).sem(axis=1), match="No axis named 1")


@pytest.mark.parametrize("dtype", ["boolean", "Int64", "UInt64", "Float64", "float64", "int64", "bool"])
@pytest.mark.parametrize("data", [[0, 0], [1, 1], [None, None], [1, None], [0, None], [1, None, 0], []])
@pytest.mark.parametrize("how", ["any", "all"])
def test_any_all_skipna_false_native(dtype, data, how):
    """numpy's NaN is true; a nullable dtype's NA follows Kleene's logic (pandas' GH-37506)."""
    if dtype in ("int64", "bool") and None in data:
        pytest.skip("no missing values in this dtype")
    with gframe.option_context("gframe.fallback", "raise"):
        got = assert_matches_pandas(lambda pd: getattr(pd.Series(data, dtype=dtype), how)(skipna=False))
    expected = getattr(pandas.Series(data, dtype=dtype), how)(skipna=False)
    assert got is expected if expected is pandas.NA else type(got) is type(expected)


# ----------------------------------------------------------------------------- to_datetime of a Series
@pytest.mark.parametrize("kwargs", [{}, {"cache": False}, {"cache": True}, {"errors": "coerce"}])
@pytest.mark.parametrize("values", [pandas.date_range("2020", periods=3, unit="ns"), [pandas.Timestamp("2020"), pandas.NaT],
                                    pandas.date_range("2020", periods=2, tz="America/New_York")], ids=["ns", "nat", "tz"])
def test_to_datetime_of_timestamps_is_themselves(values, kwargs):
    assert_matches_pandas(lambda pd: pd.to_datetime(pd.Series(values, name="x"), **kwargs))


@pytest.mark.parametrize("cache", [True, False])
def test_to_datetime_cache_keyword_stays_native(cache):
    with gframe.option_context("gframe.fallback", "raise"):
        assert_matches_pandas(lambda pd: pd.to_datetime(pd.Series(["2020-01-01", "2020-01-03"]), cache=cache))
        assert_matches_pandas(lambda pd: pd.to_datetime(pd.Series(pandas.date_range("2020", periods=2)), cache=cache))


@pytest.mark.parametrize("how", ["mean", "median", "var", "std"])
@pytest.mark.parametrize("data", [["1", "2"], [None, "a"], [b"x", None], [None, None, "q"], ["a'b", "c"]])
def test_object_statistics_of_text_raise_natively(how, data):
    with gframe.option_context("gframe.fallback", "raise"):
        first = next(v for v in data if v is not None)
        assert_raises_like_pandas(lambda pd: getattr(pd.Series(data, dtype=object), how)(),
                                  match=_escaped(f"Could not convert {first!r} to numeric"))


# ----------------------------------------------------------------------------- pandas operand, gframe operand
@pytest.mark.parametrize("op", ["mul", "add", "truediv", "eq"])
def test_pandas_series_op_gframe_series_defers_to_gframe(op):
    """pandas' operators defer to an operand of higher ``__pandas_priority__``: gframe's reflected
    operator converts the pandas operand (pandas would compute on gframe's object as a list-like and
    then refuse to build a pandas object from gframe's result)."""
    import operator

    left = pandas.Series([np.nan, 1.0, np.nan, 2.0, 3.0])
    right = [1.0, 2.0, 3.0, 4.0, 5.0]
    expected = getattr(operator, op)(left, pandas.Series(right))
    for got in (getattr(operator, op)(left, gframe.Series(right)),
                getattr(left, op)(gframe.Series(right)) if op != "eq" else left.eq(gframe.Series(right))):
        assert isinstance(got, gframe.Series)
        pandas.testing.assert_series_equal(got.to_pandas(), expected)


def test_pandas_frame_op_gframe_frame_defers_to_gframe():
    left = pandas.DataFrame({"a": [1.0, 2.0], "b": [3.0, np.nan]})
    right = {"a": [10.0, 20.0], "b": [1.0, 2.0]}
    got = left * gframe.DataFrame(right)
    assert isinstance(got, gframe.DataFrame)
    pandas.testing.assert_frame_equal(got.to_pandas(), left * pandas.DataFrame(right))


@pytest.mark.parametrize("data", [[False, None], [None, False], [False, np.nan], [np.nan, False], [True, None]])
@pytest.mark.parametrize("how", ["any", "all"])
def test_any_all_skipna_false_of_object_bools(data, how):
    """pandas' object column of bools: None is false, NaN true (GH#27709)."""
    assert_matches_pandas(lambda pd: getattr(pd.Series(data), how)(skipna=False))
