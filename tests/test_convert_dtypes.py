"""``convert_dtypes`` (Series and DataFrame): native where pandas' answer follows from the dtype
and, for floats, whether the values are whole numbers within int64; object columns (whose values
pandas infers one by one) run through pandas, recorded. Every switch combination and both
``dtype_backend``s are checked against pandas: values, dtypes, index, names."""
import itertools
import warnings

import numpy as np
import pandas
import pytest

import gframe

SWITCHES = list(itertools.product([True, False], repeat=5))
NATIVE = {
    "int32": ([1, 2, 3], "int32"),
    "uint8": ([4, 5, 6], "uint8"),
    "float_whole_with_nan": ([10, np.nan, 20], "float64"),
    "float_fraction": ([np.nan, 100.5, 200], "float64"),
    "float32": ([1.2, 1.3], "float32"),
    "float_past_int64": ([1.0, 2.0 ** 63], "float64"),
    "float_inf": ([1.0, np.inf], "float64"),
    "float_all_missing": ([np.nan, np.nan], "float64"),
    "float_empty": ([], "float64"),
    "bool": ([True, False, True], "bool"),
    "Int8": ([3, None, 5], "Int8"),
    "str": (["a", None, "c"], "str"),
    "category": (["a", "b", "a"], "category"),
    "datetime": (pandas.to_datetime(["2020-01-14", "2020-01-15"]), None),
    "datetime_tz": (pandas.to_datetime(["2020-01-14", "2020-01-15"]).tz_localize("UTC"), None),
    "period": (pandas.period_range("2011-01", periods=3, freq="M"), None),
    "int64_pyarrow": ([1, 2], "int64[pyarrow]"),
}


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pandas.errors.Pandas4Warning)
        return fn()


@pytest.mark.parametrize("backend", ["numpy_nullable", "pyarrow"])
@pytest.mark.parametrize("name", sorted(NATIVE))
def test_series_convert_dtypes_matches_pandas(name, backend):
    data, dtype = NATIVE[name]
    p = pandas.Series(data, dtype=dtype, name="s", index=list("xyz")[:len(data)] or None)
    g = gframe.Series(p)
    for switches in SWITCHES:
        want = _quiet(lambda: p.convert_dtypes(*switches, dtype_backend=backend))
        got = _quiet(lambda: g.convert_dtypes(*switches, dtype_backend=backend))
        assert isinstance(got, gframe.Series)
        pandas.testing.assert_series_equal(got.to_pandas(), want, check_exact=True)


@pytest.mark.parametrize("name", ["int32", "float_whole_with_nan", "float_fraction", "float_past_int64", "bool", "Int8",
                                  "str", "datetime", "period"])
def test_series_convert_dtypes_is_native(name):
    data, dtype = NATIVE[name]
    p = pandas.Series(data, dtype=dtype)
    with gframe.option_context(fallback="raise"):
        got = gframe.Series(p).convert_dtypes()
        pandas.testing.assert_series_equal(got.to_pandas(), p.convert_dtypes())


def test_frame_convert_dtypes_native_and_through_pandas():
    pdf = pandas.DataFrame({"i": np.array([1, 2, 3], dtype="int32"), "f": [1.0, np.nan, 3.0], "g": [0.5, 1.0, 2.0],
                            "b": [True, False, True], "s": pandas.array(["a", None, "c"], dtype="str")})
    g = gframe.DataFrame(pdf)
    with gframe.option_context(fallback="raise"):
        pandas.testing.assert_frame_equal(g.convert_dtypes().to_pandas(), pdf.convert_dtypes())
        for switches in SWITCHES:
            want = _quiet(lambda: pdf.convert_dtypes(*switches))
            pandas.testing.assert_frame_equal(_quiet(lambda: g.convert_dtypes(*switches)).to_pandas(), want)
    mixed = pandas.DataFrame({"o": pandas.Series([1, 2.5, None], dtype=object), "i": [1, 2, 3]})
    gframe.fallback_report(clear=True)
    pandas.testing.assert_frame_equal(gframe.DataFrame(mixed).convert_dtypes().to_pandas(), mixed.convert_dtypes())
    assert any(e.api == "DataFrame.convert_dtypes" for e in gframe.fallback_report())


def test_convert_dtypes_deprecated_switches_warn_at_the_caller():
    g = gframe.Series([1.0, 2.0])
    with pytest.warns(pandas.errors.Pandas4Warning, match="convert_integer keyword in Series.convert_dtypes") as rec:
        g.convert_dtypes(convert_integer=False)
    assert [w.filename for w in rec] == [__file__]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.convert_dtypes()  # no switch given: no warning


def test_convert_dtypes_keeps_nan_apart_from_na_through_pandas():
    """Where pandas tells NaN from NA (``future.distinguish_nan_and_na``), a float column's NaN stays
    a value of Float64: pandas' to compute (the engines hold missing values as nulls)."""
    p = pandas.Series([1.5, np.nan])
    with pandas.option_context("future.distinguish_nan_and_na", True):
        want = p.convert_dtypes()
        got = gframe.Series(p).convert_dtypes()
        pandas.testing.assert_series_equal(got.to_pandas(), want)


@pytest.mark.parametrize("values", [[1.0, np.nan, 3.0], [1.5], [-1.0, 2.0], [2.0 ** 63], [np.inf], [], [-128.0, 127.0],
                                    [-129.0]])
@pytest.mark.parametrize("dtype", ["int64[pyarrow]", "uint64[pyarrow]", "int8[pyarrow]"])
def test_astype_floats_to_arrow_ints_as_pyarrow(values, dtype):
    """numpy floats to an Arrow int: pyarrow's safe cast (NaN is missing); native where every value
    casts exactly, pandas' ``ArrowInvalid`` otherwise."""
    p = pandas.Series(values, dtype="float64")
    try:
        want = p.astype(dtype)
    except Exception as e:  # noqa: BLE001 - pandas' exception, whatever it is, is the spec
        with pytest.raises(type(e)):
            gframe.Series(p).astype(dtype)
        return
    with gframe.option_context(fallback="raise"):
        pandas.testing.assert_series_equal(gframe.Series(p).astype(dtype).to_pandas(), want)
        pandas.testing.assert_frame_equal(gframe.DataFrame({"a": p}).astype({"a": dtype}).to_pandas(),
                                          pandas.DataFrame({"a": want}))
