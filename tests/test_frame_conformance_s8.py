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
