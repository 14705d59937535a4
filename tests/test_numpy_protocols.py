"""numpy's protocols on gframe frames and series as on pandas', and dir() for tab completion."""
from __future__ import annotations

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas


def frame(pd):
    return pd.DataFrame({"a": [1.0, 4.0, 9.0], "b": [16, 25, 36]}, index=["x", "y", "z"])


def series(pd):
    return pd.Series([1.0, 4.0, -9.0, None], name="s")


UNARY = [np.sqrt, np.exp, np.log, np.log1p, np.sin, np.floor, np.ceil, np.sign, np.abs, np.negative, np.positive,
         np.isnan, np.isfinite, np.square, np.cbrt, np.rint, np.expm1]


@pytest.mark.parametrize("ufunc", UNARY, ids=lambda u: u.__name__)
def test_unary_ufunc_on_frame_is_a_frame(ufunc):
    out = assert_matches_pandas(lambda pd: ufunc(frame(pd)))
    assert isinstance(out, pandas.DataFrame)
    assert isinstance(ufunc(frame(gframe)), gframe.DataFrame)


@pytest.mark.parametrize("ufunc", UNARY, ids=lambda u: u.__name__)
def test_unary_ufunc_on_series_is_a_series(ufunc):
    assert_matches_pandas(lambda pd: ufunc(series(pd)))
    assert isinstance(ufunc(series(gframe)), gframe.Series)


@pytest.mark.parametrize("ufunc", [np.sqrt, np.exp, np.floor, np.abs, np.negative], ids=lambda u: u.__name__)
def test_elementwise_ufuncs_are_native(ufunc):
    with gframe.option_context(fallback="raise"):
        out = ufunc(frame(gframe))
        assert isinstance(out, gframe.DataFrame)
        gframe.testing.assert_frame_equal(out, ufunc(frame(pandas)))
        gframe.testing.assert_series_equal(ufunc(series(gframe)), ufunc(series(pandas)))


BINARY = [np.add, np.subtract, np.multiply, np.true_divide, np.floor_divide, np.power, np.remainder, np.equal,
          np.less, np.greater_equal, np.maximum, np.minimum, np.arctan2, np.hypot]


@pytest.mark.parametrize("ufunc", BINARY, ids=lambda u: u.__name__)
def test_binary_ufuncs_with_scalars_and_self(ufunc):
    assert_matches_pandas(lambda pd: ufunc(frame(pd), 2))
    assert_matches_pandas(lambda pd: ufunc(3, frame(pd).astype("float64")))
    assert_matches_pandas(lambda pd: ufunc(series(pd), 2))
    assert_matches_pandas(lambda pd: ufunc(2, series(pd)))
    assert_matches_pandas(lambda pd: (lambda s: ufunc(s, s * 2))(series(pd)))


@pytest.mark.parametrize("ufunc", [np.add, np.less, np.subtract], ids=lambda u: u.__name__)
def test_operator_ufuncs_are_native(ufunc):
    with gframe.option_context(fallback="raise"):
        gframe.testing.assert_frame_equal(ufunc(frame(gframe), 2), ufunc(frame(pandas), 2))
        gframe.testing.assert_series_equal(ufunc(1, series(gframe)), ufunc(1, series(pandas)))


def test_ufunc_with_numpy_array_and_aligned_series():
    arr = np.array([1.0, 2.0, 3.0, 4.0])
    assert_matches_pandas(lambda pd: np.add(series(pd), arr))
    assert_matches_pandas(lambda pd: np.add(arr, series(pd)))
    assert_matches_pandas(lambda pd: np.multiply(pd.Series([1, 2, 3], index=["a", "b", "c"]),
                                                 pd.Series([4, 5, 6], index=["a", "b", "c"])))


@pytest.mark.parametrize("left_index", [["c", "b", "a"], [2, 1, 0]])
def test_ufunc_aligns_differently_ordered_indexes(left_index):
    right_index = sorted(left_index)
    assert_matches_pandas(lambda pd: np.multiply(pd.Series([1, 2, 3], index=left_index),
                                                 pd.Series([1, 2, 3], index=right_index)))


def test_reflected_integer_power():
    assert_matches_pandas(lambda pd: np.power(3, frame(pd)))


def test_ufunc_series_with_frame_as_pandas():
    assert_matches_pandas(lambda pd: np.add(frame(pd), pd.Series([1.0, 2.0], index=["a", "b"])))


def test_ufunc_methods_and_multiple_outputs():
    assert_matches_pandas(lambda pd: np.add.reduce(series(pd).fillna(0)))
    assert_matches_pandas(lambda pd: np.add.accumulate(series(pd).fillna(0)))
    assert_matches_pandas(lambda pd: np.modf(series(pd)))
    assert_matches_pandas(lambda pd: np.divmod(frame(pd), 3))
    out = np.modf(series(gframe))
    assert isinstance(out, tuple) and all(isinstance(o, gframe.Series) for o in out)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint64", "float32",
                                   "float64", "bool"])
@pytest.mark.parametrize("ufunc", [np.sqrt, np.log, np.floor, np.sign, np.abs, np.negative, np.invert, np.positive],
                         ids=lambda u: u.__name__)
def test_unary_ufuncs_keep_numpy_dtype_rules(dtype, ufunc):
    # numpy computes 8/16-bit math in float16/float32, wraps -uint, refuses ~float: pandas' answers
    data = [1, 4, 9]
    try:
        ufunc(pandas.Series(data, dtype=dtype))
    except TypeError:
        assert_raises_like_pandas(lambda pd: ufunc(pd.Series(data, dtype=dtype)))
        return
    assert_matches_pandas(lambda pd: ufunc(pd.Series(data, dtype=dtype)))
    assert_matches_pandas(lambda pd: ufunc(pd.DataFrame({"a": pd.Series(data, dtype=dtype)})))


def test_ufunc_errors_as_pandas():
    assert_raises_like_pandas(lambda pd: np.sqrt(pd.DataFrame({"a": ["x", "y"]})))
    assert_raises_like_pandas(lambda pd: np.invert(pd.Series([1.5, 2.0])))
    assert_matches_pandas(lambda pd: np.invert(pd.Series([True, False])))
    assert_matches_pandas(lambda pd: np.invert(pd.Series([1, 2])))


def test_non_ufunc_numpy_functions_as_pandas():
    # pandas has no __array_function__: np.where gives an ndarray, reductions call the method
    assert_matches_pandas(lambda pd: np.where(frame(pd) > 5, frame(pd), 0))
    assert_matches_pandas(lambda pd: np.where(series(pd) > 0, 1, 0))
    for fn in (np.sum, np.mean, np.max, np.min, np.prod, np.std, np.var, np.median):
        assert_matches_pandas(lambda pd, fn=fn: fn(frame(pd)))
        assert_matches_pandas(lambda pd, fn=fn: fn(series(pd).fillna(1)))
    assert_matches_pandas(lambda pd: np.cumsum(series(pd)))
    assert_matches_pandas(lambda pd: np.asarray(frame(pd)))
    assert_matches_pandas(lambda pd: np.concatenate([series(pd), series(pd)]))


@pytest.mark.parametrize("call", [lambda pd: np.round(frame(pd) / 7, 2), lambda pd: np.round(series(pd) / 7, 2),
                                  lambda pd: np.clip(frame(pd), 2, 20), lambda pd: np.any(frame(pd) > 5)])
def test_numpy_functions_calling_methods_with_out(call):
    assert_matches_pandas(call)


def test_array_protocol_dtype_and_copy():
    assert_matches_pandas(lambda pd: np.asarray(frame(pd), dtype="float32"))
    assert_matches_pandas(lambda pd: np.array(series(pd).fillna(0), dtype=object))
    assert_matches_pandas(lambda pd: np.array(series(pd), copy=True))
    # copy=False: pandas' rule (a single block can be viewed; mixed dtypes cannot be, ValueError)
    assert_matches_pandas(lambda pd: np.array(pd.DataFrame({"a": [1.0], "b": [2.0]}), copy=False))
    assert_raises_like_pandas(lambda pd: np.array(pd.DataFrame({"a": [1], "b": ["x"]}), copy=False))
    arr = np.asarray(frame(gframe))
    # a view must not let numpy write into gframe's data
    if not arr.flags.writeable:
        with pytest.raises(ValueError):
            arr[0, 0] = 100.0
    else:
        arr[0, 0] = 100.0
    assert frame(gframe)["a"].tolist()[0] == 1.0


# ------------------------------------------------------------------ dir(): pandas' names plus column names
def _public(names):
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("make", [
    lambda pd: pd.DataFrame({"alpha": [1], "beta two": [2.0], "3": [3], "text": ["x"]}),
    lambda pd: pd.DataFrame({0: [1], "ok": [2]}),
])
def test_dir_frame_is_pandas_plus_own(make):
    expected = dir(make(pandas))
    result = dir(make(gframe))
    assert result == sorted(result)
    assert _public(expected) <= _public(result), _public(expected) - _public(result)
    # beyond pandas' names, only gframe's own real attributes
    extra = _public(result) - _public(expected)
    assert extra <= {"explain", "to_pandas", "to_arrow", "dtypes_arrow", "to_cupy", "to_cudf"}, extra


@pytest.mark.parametrize("make", [
    lambda pd: pd.Series([1.0, 2.0], name="f"),
    lambda pd: pd.Series(["x", "y"], index=["first", "second label"]),
    lambda pd: pd.Series(pd.to_datetime(["2024-01-01"])),
    lambda pd: pd.Series(["a", "b"], dtype="category"),
    lambda pd: pd.Series([1, 2], index=["alpha", "beta"]),
])
def test_dir_series_is_pandas_plus_own(make):
    expected = _public(dir(make(pandas)))
    result = _public(dir(make(gframe)))
    assert expected <= result, expected - result
    assert result - expected <= {"explain", "to_pandas", "to_arrow", "to_cupy", "to_cudf"}, result - expected


def test_dir_lists_columns_for_tab_completion():
    g = gframe.DataFrame({"price": [1], "qty": [2], "not an identifier": [3]})
    names = dir(g)
    assert "price" in names and "qty" in names and "not an identifier" not in names
    assert len(_public(names)) >= len(_public(dir(pandas.DataFrame())))
