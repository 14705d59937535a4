"""concat and merge over pairs of column dtypes, each compared with pandas (``check_code``).

pandas' rules under test: ``concat`` casts each frame's column to ``find_common_type`` of the
frames' dtypes (``object`` where the kinds differ, the Arrow family where one side is ArrowDtype,
the masked one where one side is nullable, a categorical's categories' dtype where categoricals
differ); a column a frame lacks holds NA; ``merge`` coerces keys of different dtypes by reading the
data (``_maybe_coerce_merge_keys``: ValueError for numbers with strings or datetimes, object for
some pairs, the key dtype from the rows that are missing). gframe decides these in
``plan/dtypes.common_pandas_dtype`` / ``merge_keys_native`` and ``frontend/reshape.py``.
"""
from __future__ import annotations

import itertools

import pandas
import pytest

import gframe
from gframe.testing.fuzz import PIPELINE_MARK, check_code

# kind -> (values, dtype expression): one of each family the engines hold (numpy, masked, Arrow,
# str, categorical, temporal), with a missing value where the dtype holds one
KINDS = {
    "int8": ("[1, 2]", "'int8'"),
    "int64": ("[1, 2]", "'int64'"),
    "float64": ("[1.5, nan]", "'float64'"),
    "bool": ("[True, False]", "'bool'"),
    "str": ("['a', None]", "'str'"),
    "datetime64[ns]": ("['2020-01-01', None]", "'datetime64[ns]'"),
    "datetime64[ms]": ("['2020-01-01', None]", "'datetime64[ms]'"),
    "category": ("['a', 'b']", "'category'"),
    "Int64": ("[1, None]", "'Int64'"),
    "boolean": ("[True, None]", "'boolean'"),
    "string": ("['a', None]", "'string'"),
    "int64[pyarrow]": ("[1, None]", "pd.ArrowDtype(pa.int64())"),
    "double[pyarrow]": ("[1.5, None]", "pd.ArrowDtype(pa.float64())"),
    "bool[pyarrow]": ("[True, None]", "pd.ArrowDtype(pa.bool_())"),
    "large_string[pyarrow]": ("['a', None]", "pd.ArrowDtype(pa.large_string())"),
    "date32[pyarrow]": ("[datetime.date(2020, 1, 1), None]", "pd.ArrowDtype(pa.date32())"),
    "decimal[pyarrow]": ("[Decimal('1.5'), None]", "pd.ArrowDtype(pa.decimal128(10, 2))"),
}
HEAD = ("import datetime\nfrom decimal import Decimal\n\nimport pyarrow as pa\nimport pandas as pd\n"
        "nan, inf = float('nan'), float('inf')\n")
PAIRS = list(itertools.product(KINDS, repeat=2))


def frame(name: str, kind: str, other: str, rows: bool = True) -> str:
    values, dtype = KINDS[kind]
    values = values if rows else "[]"
    extra = "[1, 2]" if rows else "[]"
    return f"{name} = pd.DataFrame({{'k': pd.Series({values}, dtype=object).astype({dtype}), '{other}': {extra}}})"


def run(setup: str, pipeline: str) -> None:
    check_code(f"{HEAD}{setup}\n{PIPELINE_MARK}\n{pipeline}\nresult = df\n", modes=(True,))


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_concat_common_dtype(a: str, b: str) -> None:
    run(frame("df", a, "x") + "\n" + frame("df2", b, "x"), "df = pd.concat([df, df2], ignore_index=True)")


@pytest.mark.parametrize("a", list(KINDS))
def test_concat_column_missing_from_a_frame(a: str) -> None:
    run(frame("df", a, "x") + "\ndf2 = pd.DataFrame({'x': [3]})", "df = pd.concat([df, df2], ignore_index=True)")


@pytest.mark.parametrize("how", ["inner", "right", "outer"])
@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_merge_keys_of_two_dtypes(a: str, b: str, how: str) -> None:
    run(frame("df", a, "x") + "\n" + frame("df2", b, "y"), f"df = df.merge(df2, on='k', how='{how}')")


@pytest.mark.parametrize("a,b", [("datetime64[ns]", "date32[pyarrow]"), ("float64", "bool"), ("str", "int64"),
                                 ("category", "float64"), ("Int64", "large_string[pyarrow]")])
def test_merge_with_an_empty_side_skips_pandas_key_check(a: str, b: str) -> None:
    # pandas checks key dtypes only where both sides have rows
    run(frame("df", a, "x") + "\n" + frame("df2", b, "y", rows=False), "df = df.merge(df2, on='k', how='left')")


def test_concat_index_of_strings_and_positions_is_object() -> None:
    run("df = pd.DataFrame({'a': [1, 2]}, index=pd.Index(['r2', 'r1']))\ndf2 = pd.DataFrame({'a': [3]})",
        "df = pd.concat([df, df2])")


def test_concat_multiindex_columns_then_flat_labels_raises() -> None:
    run("df = pd.DataFrame({'k': [1], 'c': [2.0]})\ndf2 = pd.DataFrame({'x': [1.0]})",
        "df = df.groupby('k').agg({'c': ['median']})\ndf = pd.concat([df, df2])")


def test_concat_flat_labels_then_multiindex_columns_is_flat() -> None:
    run("df = pd.DataFrame({'k': [1], 'c': [2.0]})\ndf2 = pd.DataFrame({'x': [1.0]})",
        "df = df.groupby('k').agg({'c': ['median']})\ndf = pd.concat([df2, df])")


@pytest.mark.parametrize("a, b, kw", [
    ([1, 2], [3, 1], {}),                      # other int categories: int64 values
    ([1, None], [3, 1], {}),                   # ... with a missing value: float64
    (["x", None], ["z"], {}),                  # other str categories: str values
    (["x", "y"], ["y", "x"], {}),              # the same set (unordered): a categorical
    (["y"], ["x", "y"], {"categories": ["y", "x"]}),  # the same set in another order: the first's
    (["x", "y"], ["x"], {"ordered": True}),    # ordered with unordered: the values
])
def test_concat_categoricals_with_other_categories(a, b, kw) -> None:
    """Categoricals whose categories differ between the frames: pandas gives a categorical (the same
    set, unordered) or their values; the engines concatenate only equal categories (this raised
    Polars' "failed to determine supertype of enum and enum")."""
    left = pandas.DataFrame({"c": pandas.Categorical(a), "i": range(len(a))})
    right = pandas.DataFrame({"c": pandas.Categorical(b, **kw), "i": range(len(b))})
    for frames in ([left, right], [right, left], [left, left]):
        want = pandas.concat(frames)
        got = gframe.concat([gframe.DataFrame(f) for f in frames]).to_pandas()
        pandas.testing.assert_frame_equal(got, want)
