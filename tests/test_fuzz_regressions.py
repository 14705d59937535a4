"""Shrunk repros of the differential fuzzer's findings (docs/fuzzing.md), one per root cause.

Each case is a pandas snippet as the shrinker printed it: the lines before ``# --- pipeline`` build the
inputs with pandas (handed to ``gframe.DataFrame``), the lines after it run on pandas and on gframe
with the optimizer on and off (``gframe.testing.fuzz.check_code``); ``df`` at the end is compared.
Unfixed ones are ``xfail(strict=True, reason=<class>)``: when a fix lands, its test passes, the run
fails, and the mark comes off - the repro then guards the fix. Classes are issue 9's numbers; "new X"
are root causes the fuzzer found beyond the issue's list.
"""
from __future__ import annotations

import os
import sys

import pytest

from gframe.testing.fuzz import PIPELINE_MARK, check_code

C1 = "1 integer overflow: sums in the input's narrow int type"
C3 = "3 nullable dtypes: Int64/Float64/boolean/string come back as numpy dtypes"
C4 = "4 missing bools after merge/concat"
C6 = "6 fillna(scalar) dtype rules"
C7 = "7 clip with a fractional bound on an int column"
C8 = "8 datetime64 units"
C9 = "9 float edge cases differ from numpy"
C10 = "10 agg dict-of-lists columns flat after reset_index"
C12 = "12 errors leak engine types / no raise where pandas raises"
C13 = "13 query/eval @x resolved in the wrong frame"
NA_ = "new A: labels of empty results (columns/index Index type)"
NB = "new B: NaN computed by arithmetic is not a missing value"
NC = "new C: DataFrame reductions over mixed int dtypes give object"
ND = "new D: a NaN scalar reduction of float32 is a Python float, not np.float32"
NE = "new E: where(cond, scalar) widens uint to int64"
NF = "new F: astype(object) not kept"
NG = "new G: round(negative decimals) on narrow ints raises OverflowError"
NH = "new H: str Series.sum raises"
NI = "new I: DataFrame.all/any passes numeric_only to pandas' fallback"
NJ = "new J: float32 aggregations accumulate in float32 (pandas: float64, then cast)"
NK = "new K: concat fills a missing int column without widening to float64"
NL = "new L: bool % bool gives int64 (pandas: int8)"
NM = "new M: Series.std on datetime64 raises (pandas: a Timedelta)"
NN = "new N: concat with an empty frame drops the index name"
NP = "new P: set_index of a narrow signed int range gives pandas' RangeIndex (int64)"
NO = "new O: an object column's None comes back as NaN (the missing marker is not kept)"
NY = "new Y: pandas bug: a multi-key sort of double[pyarrow] holding 0.0 and -0.0 raises ValueError"



def case(setup: str, pipeline: str) -> str:
    return f"import pandas as pd\nnan, inf = float('nan'), float('inf')\n{setup}\n{PIPELINE_MARK}\n{pipeline}\nresult = df\n"


def arrow_case(setup: str, pipeline: str) -> str:
    """A repro over ArrowDtype columns (``pa`` types, ``Decimal`` and ``datetime.date`` scalars)."""
    return ("import datetime\nfrom decimal import Decimal\n\nimport pyarrow as pa\n" + case(setup, pipeline))


DEC = "pd.ArrowDtype(pa.decimal128(10, 2))"


# id -> (class, snippet); class None = fixed (the test must pass)
CASES: dict[str, tuple[str | None, str]] = {
    # --- 1 integer overflow
    "uint32_sum_wraps": (None, case("df = pd.DataFrame({'c3': [4294967294, 5]}).astype({'c3': 'uint32'})",
                                  "df = df['c3'].sum()")),
    "int32_sum_wraps": (None, case("df = pd.DataFrame({'a': [2000000000, 1000000000]}).astype({'a': 'int32'})",
                                 "df = df['a'].sum()")),
    "groupby_agg_int32_sum_dtype": (None, case(
        "df = pd.DataFrame({'c0': [-7], 'c1': [1]}).astype({'c0': 'int32', 'c1': 'int8'})",
        "df = df.groupby('c1', dropna=False, as_index=False).agg({'c0': ['last', 'sum']})")),
    "groupby_sum_int16_keeps_int16": (None, case(
        "df = pd.DataFrame({'k': ['2020-01-01'], 'c4': [100]}).astype({'k': 'datetime64[ns]', 'c4': 'int16'})",
        "df = df.groupby('k').sum(numeric_only=True)")),
    # --- 3 nullable dtypes
    "boolean_lost_on_filter": (None, case(
        "df = pd.DataFrame({'c3': [7], 'c4': pd.array([None], dtype='boolean')}).astype({'c3': 'uint16'})",
        "df = df[(df['c3'] != 1)]")),
    "string_lost_on_concat": (None, case("df = pd.DataFrame({'c0': pd.array(['a'], dtype='string')})",
                                       "df = pd.concat([df, df.head(2)], ignore_index=False)")),
    "Int64_lost_on_fillna_empty": (None, case("df = pd.DataFrame({'c1': pd.array([], dtype='Int64')})",
                                            "df = df.fillna({'c1': 2})")),
    "Float64_lost_on_filter": (None, case(
        "df = pd.DataFrame({'c1': pd.array([-1.5], dtype='Float64'), 'c2': [1e+20]}).astype({'c2': 'float32'})",
        "df = df[(df['c2'] > 1.0)]")),
    "Int64_groupby_key_index_dtype": (None, case(
        "df = pd.DataFrame({'k': [2.0], 'c1': pd.array([None], dtype='Int64')})",
        "df = df.groupby('c1')['k'].count()")),
    "Int64_ne_keeps_NA_rows": (None, case(
        "df = pd.DataFrame({'i': pd.array([1, 2, 3], dtype='Int64'), 'n': pd.array([1, None, 4], dtype='Int64')})",
        "df = df[df.i != df.n]")),
    # --- 4 missing bools after merge
    "bool_after_left_merge_astype_bool": (None, case(
        "df = pd.DataFrame({'k': [1, 2]})\ndf2 = pd.DataFrame({'k': [1], 'b': [False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.assign(b=df['b'].astype(bool))")),
    "merge_outer_bool_none": (None, case(
        "df = pd.DataFrame({'k': ['2021-06-15 08:00:01'], 'c0': [False]}).astype({'k': 'datetime64[ns]'})\n"
        "df2 = pd.DataFrame({'k': ['2020-01-01 12:30:00']}).astype({'k': 'datetime64[ns]'})",
        "df = df.merge(df2, on='k', how='outer')")),
    "merge_outer_empty_bool_none": (None, case(
        "df = pd.DataFrame({'k': [], 'c4': []}).astype({'k': 'int32', 'c4': 'bool'})\n"
        "df2 = pd.DataFrame({'k': [2]}).astype({'k': 'int32'})",
        "df = df.merge(df2, on='k', how='outer')")),
    # --- 5 categoricals
    "empty_result_categories": (None, case(
        "df = pd.DataFrame({'k': [None], 'c0': [1]}).astype({'k': pd.CategoricalDtype(['d', 'c', 'b', 'e'], ordered=False), 'c0': 'uint32'})",
        "df = df[df['c0'].isin([])]\ndf = df.nsmallest(1, 'c0', keep='last')\ndf = df.drop_duplicates(keep='last')")),
    "value_counts_unobserved": (None, case(
        "df = pd.DataFrame({'c0': [None]}).astype({'c0': pd.CategoricalDtype(['d', 'b', 'e', 'c', 'a'], ordered=False)})",
        "df = df['c0'].value_counts(sort=False)")),
    "value_counts_sort_false_order": (None, case(
        "df = pd.DataFrame({'c0': ['e', 'a']}).astype({'c0': pd.CategoricalDtype(['a', 'e'], ordered=False)})",
        "df = df['c0'].value_counts(sort=False)")),
    "merge_categorical_keys_of_different_dtypes": (None, case(
        "df = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['e', 'c', 'd', 'b'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['e', 'c', 'd', 'b'], ordered=False)})",
        "df = df.merge(df2, on='k', how='inner')")),
    "merge_unordered_categorical_becomes_ordered": (None, case(
        "df = pd.DataFrame({'k': ['c']}).astype({'k': pd.CategoricalDtype(['c', 'a', 'b', 'e'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['b']}).astype({'k': pd.CategoricalDtype(['c', 'a', 'b', 'e'], ordered=False)})",
        "df = df.merge(df2, on='k', how='inner')")),
    "fillna_unordered_categorical_becomes_ordered": (None, case(
        "df = pd.DataFrame({'c2': ['d']}).astype({'c2': pd.CategoricalDtype(['c', 'b', 'a', 'd'], ordered=False)})",
        "df = df.assign(c2=df['c2'].fillna('z'))")),
    "filter_below_astype_category": (None, case(
        "df = pd.DataFrame({'c1': ['1970-01-01'], 'c4': ['2020-01-02']}).astype({'c1': 'datetime64[s]', 'c4': 'datetime64[us]'})",
        "df = df.astype({'c1': 'category'})\ndf = df[(df['c4'] < pd.Timestamp('1970-01-01'))]")),
    "cat_accessor_missing": (None, case(
        "df = pd.DataFrame({'c1': ['b']}).astype({'c1': pd.CategoricalDtype(['b', 'a'], ordered=True)})",
        "df = df.assign(n=df['c1'].cat.codes)")),
    "str_accessor_on_categorical": (None, case(
        "df = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d', 'c'], ordered=False)})",
        "df = df.assign(n=df['k'].str.isupper())")),
    # --- 6 fillna
    "fillna_float_on_int_column": (None, case("df = pd.DataFrame({'c4': [-9223372036854775807]})", "df = df.fillna(1.5)")),
    "fillna_str_on_uint_column": (None, case("df = pd.DataFrame({'c0': [1]}).astype({'c0': 'uint64'})",
                                           "df = df.fillna('z')")),
    # --- 7 clip
    "clip_fractional_bound_int32": (None, case("df = pd.DataFrame({'c3': [-1]}).astype({'c3': 'int32'})",
                                             "df = df.assign(c3=df['c3'].clip(lower=0, upper=2.5))")),
    # --- 8 datetime units
    "datetime64s_max": (None, case("df = pd.DataFrame({'c0': ['2020-01-02']}).astype({'c0': 'datetime64[s]'})",
                                 "df = df['c0'].max()")),
    "datetime64ms_minus_timedelta_unit": (None, case(
        "df = pd.DataFrame({'c4': ['2020-01-01 12:30:00']}).astype({'c4': 'datetime64[ms]'})",
        "df = df.assign(n=df['c4'] - pd.Timedelta(seconds=1))")),
    "datetime64s_plus_timedelta_hours_unit": (None, case(
        "df = pd.DataFrame({'c0': [None, '2020-01-01']}).astype({'c0': 'datetime64[s]'})",
        "df = df.assign(n=df['c0'] + pd.Timedelta(hours=-3))")),
    # --- 9 float edge cases
    "inf_floordiv": (None, case("df = pd.DataFrame({'a': [inf, -inf, 7.0]})", "df = df.assign(n=df['a'] // 3)")),
    "mod_inf": (None, case("df = pd.DataFrame({'a': [5.0, -5.0, 0.0]})", "df = df.assign(n=df['a'] % inf)")),
    "nan_pow_0": (None, case("df = pd.DataFrame({'a': [nan, 1.0]})", "df = df.assign(n=df['a'] ** 0)")),
    "big_mod": (None, case("df = pd.DataFrame({'a': [1e20, -1e20]})", "df = df.assign(n=df['a'] % 3)")),
    # --- 10 agg dict-of-lists labels
    "agg_dict_of_lists_reset_index": (None, case(
        "df = pd.DataFrame({'k': [3], 'c0': [682491]}).astype({'k': 'int32', 'c0': 'uint64'})",
        "df = df.groupby('k', sort=True).agg({'c0': ['median']})\ndf = df.reset_index(drop=False)")),
    # --- 12 exceptions
    "neg_uint8_polars_error": (None, case("df = pd.DataFrame({'c2': [1]}).astype({'c2': 'uint8'})",
                                         "df = df.assign(c2=df['c2'].__neg__())")),
    "datetime_astype_int32_polars_error": (None, case(
        "df = pd.DataFrame({'c0': ['2020-01-01 12:30:00']}).astype({'c0': 'datetime64[ns]'})",
        "df = df.astype({'c0': 'int32'})")),
    "datetime_astype_float64_no_raise": (None, case(
        "df = pd.DataFrame({'c0': ['2021-06-15 08:00:01']}).astype({'c0': 'datetime64[ms]'})",
        "df = df.astype({'c0': 'float64'})")),
    "merge_missing_key_mergeerror": (None, case(
        "df = pd.DataFrame({'k': [True], 'c0': [True]})\ndf2 = pd.DataFrame({}, index=pd.RangeIndex(0))",
        "df = df.groupby('c0').agg({'k': ['first']})\ndf = df.merge(df2, on='k', how='outer', sort=True)")),
    "clip_negative_bound_uint16_polars_error": (None, case(
        "df = pd.DataFrame({'c3': [100]}).astype({'c3': 'uint16'})",
        "df = df.assign(c3=df['c3'].clip(lower=-2, upper=3))")),
    "fillna_int_on_datetime_polars_error": (None, case(
        "df = pd.DataFrame({'c3': ['2021-06-15 08:00:01']}).astype({'c3': 'datetime64[ns]'})", "df = df.fillna(-1)")),
    "categorical_astype_float_polars_error": (None, case(
        "df = pd.DataFrame({'c0': ['d']}).astype({'c0': pd.CategoricalDtype(['d'], ordered=False)})",
        "df = df.astype({'c0': 'float64'})")),
    "Float64_nan_astype_bool_no_raise": (None, case("df = pd.DataFrame({'c0': pd.array([nan], dtype='Float64')})",
                                                   "df = df.astype({'c0': 'bool'})")),
    # --- 13 query @x
    "query_at_variable": (None, case("df = pd.DataFrame({'c0': [1, 2, 3]})", "x = 1\ndf = df.query('c0 > @x')")),
    # --- new root causes
    "empty_groupby_columns_label_type": (None, case("df = pd.DataFrame({'k': [1.0], 'c0': ['']})",
                                                  "df = df.groupby('c0').mean()\ndf = df.groupby('k').first()")),
    "empty_sort_index_type": (None, case(
        "df = pd.DataFrame({'c0': []}, index=pd.Index([], name='idx')).astype({'c0': 'uint16'})",
        "df = df.sort_values(['c0'], kind='stable')")),
    "nan_from_floordiv_counted": (None, case("df = pd.DataFrame({'k': [0]})",
                                           "df = df.assign(m=df['k'] // df['k'])\ndf = df['m'].value_counts()")),
    "frame_prod_object": (None, case("df = pd.DataFrame({'c0': [-2], 'c2': [0]}).astype({'c0': 'int32', 'c2': 'uint32'})",
                                   "df = df.prod(numeric_only=True)")),
    "float32_std_scalar_type": (None, case("df = pd.DataFrame({'c2': [12.0]}).astype({'c2': 'float32'})",
                                         "df = df['c2'].std()")),
    "where_uint16_scalar": (None, case("df = pd.DataFrame({'c0': [3]}).astype({'c0': 'uint16'})",
                                     "df = df.assign(c0=df['c0'].where(df['c0'] > 2, 0))")),
    "astype_object_lost": (None, case("df = pd.DataFrame({'k': [1], 'c0': [False]})",
                                    "df = df.astype({'k': 'object'})\ndf = df[(df['c0'] < False)]")),
    "round_negative_int16": (None, case("df = pd.DataFrame({'c3': [1]}).astype({'c3': 'int16'})",
                                      "df = df.assign(c3=df['c3'].round(-1))")),
    "round_negative_Float64_na": (None, case("df = pd.DataFrame({'c1': pd.array([None], dtype='Float64')})",
                                           "df = df.assign(c1=df['c1'].round(-1))")),
    "float32_groupby_var_precision": (None, case(
        "df = pd.DataFrame({'c0': [78.19, -0.0, -0.0], 'c4': [-7, -7, -7]}).astype({'c0': 'float32'})",
        "df = df.groupby('c4')['c0'].var()")),
    "concat_missing_uint64_column": (None, case(
        "df = pd.DataFrame({}, index=pd.Index(['r1', 'r0'], name='idx'))\ndf2 = pd.DataFrame({'x1': [2]}).astype({'x1': 'uint64'})",
        "df = pd.concat([df, df2], ignore_index=True)")),
    "bool_mod_bool_int8": (None, case("df = pd.DataFrame({'c3': [True]})", "df = df.assign(c3=df['c3'] % df['c3'])")),
    "datetime_std": (None, case("df = pd.DataFrame({'c4': ['2020-01-01 12:30:00', '2020-01-02']}).astype({'c4': 'datetime64[ms]'})",
                              "df = df['c4'].std()")),
    "round_negative_int64": (None, case("df = pd.DataFrame({'k': [2, 15]})", "df = df.assign(k=df['k'].round(-1))")),
    "where_fractional_other_on_empty_int": (None, case("df = pd.DataFrame({'c1': []}).astype({'c1': 'int64'})",
                                               "df = df.assign(c1=df['c1'].where(df['c1'] > 2, -1.5))")),
    "concat_empty_drops_index_name": (None, case(
        "df = pd.DataFrame({}, index=pd.Index(['r1', 'r1', 'r1'], name='idx'))\ndf2 = pd.DataFrame({}, index=pd.RangeIndex(0))",
        "df = pd.concat([df, df2], ignore_index=False)")),
    "value_counts_string_dtype_count_type": (None, case("df = pd.DataFrame({'c4': pd.array(['', 'a', ''], dtype='string')})",
                                                      "df = df['c4'].value_counts(dropna=False)")),
    "str_sum": (None, case("df = pd.DataFrame({'k': ['ab', 'c']})", "df = df['k'].sum()")),
    "frame_all_numeric_only": (None, case("df = pd.DataFrame({'k': [False], 'c0': [1e+20]})",
                                        "df = df.assign(n=df['c0'].diff())\ndf = df.all()")),
    # --- fuzz9 session: found on seeds 20000-20599 and 7-406
    "empty_object_index_kept_after_op": (None, case(
        "df = pd.DataFrame({'c1': []}, index=pd.Index([], name=None)).astype({'c1': 'int8'})",
        "df = df.assign(c1=df['c1'].fillna(2))")),
    "empty_object_column_kept": (None, case("df = pd.DataFrame({'a': pd.Series([], dtype=object), 'b': []})",
                                            "df = df[df['b'] > 1]")),
    # stored as float64 nulls of the object family whose missing value is None (fz8cpu, 916889)
    "all_none_object_column_keeps_None": (None, case("df = pd.DataFrame({'a': pd.Series([None, None], dtype=object), 'b': [1, 2]})",
                                                   "df = df[df['b'] > 1]")),
    "frame_var_Float64_family": (None, case("df = pd.DataFrame({'c4': pd.array([None], dtype='Float64')})",
                                            "df = df.var(numeric_only=True)")),
    "frame_sum_boolean_is_Int64": (None, case("df = pd.DataFrame({'c3': pd.array([], dtype='boolean')})",
                                              "df = df.sum(numeric_only=True)")),
    "frame_max_Int64_and_float_is_Float64": (None, case(
        "df = pd.DataFrame({'a': pd.array([1, None], dtype='Int64'), 'b': [1.5, nan]})", "df = df.max()")),
    "frame_any_no_columns": (None, case("df = pd.DataFrame({}, index=pd.RangeIndex(0))", "df = df.any()")),
    "frame_std_no_columns_index": (None, case("df = pd.DataFrame({}, index=pd.RangeIndex(0))", "df = df.std(numeric_only=True)")),
    "boolean_mean_of_none_is_NA": (None, case("df = pd.DataFrame({'e': pd.array([None, None], dtype='boolean')})",
                                              "df = df['e'].mean()")),
    "groupby_Int64_key_frame_size_int64": (None, case(
        "df = pd.DataFrame({'k': pd.array([1, None, 1], dtype='Int64'), 'v': [1.0, 2.0, 3.0]})",
        "df = df.groupby('k', dropna=False).size()")),
    "groupby_string_key_series_size_follows_series": (None, case(
        "df = pd.DataFrame({'k': ['d'], 'c0': pd.array([None], dtype='string')}).astype({'k': pd.CategoricalDtype(['d', 'b'], ordered=True)})",
        "df = df.groupby('c0')['k'].size()")),
    "groupby_size_of_string_series_Int64": (None, case(
        "df = pd.DataFrame({'k': [True], 'c1': pd.array([' x '], dtype='string')})",
        "df = df.groupby('k', sort=True)['c1'].size()")),
    "groupby_count_of_string_int64": (None, case(
        "df = pd.DataFrame({'k': ['a'], 'c1': ['2021-06-15 08:00:01'], 'c2': pd.array(['B'], dtype='string')}).astype({'c1': 'datetime64[ns]'})",
        "df = df.groupby(['k', 'c1'])['c2'].count()")),
    "frame_prod_inf_times_zero_is_nan": (None, case("df = pd.DataFrame({'c3': pd.array([inf, -0.0], dtype='Float64'), 'f': [inf, -0.0]})",
                                                    "df = df.prod()")),
    "series_prod_inf_times_zero_is_nan": (None, case("df = pd.DataFrame({'f': [inf, 0.0]})", "df = df['f'].prod()")),
    "frame_sum_numeric_only_data_typed_column": (None, case(
        "df = pd.DataFrame({'k': [], 'c3': pd.array([], dtype='boolean')}).astype({'k': 'int64'})",
        "df = df.assign(k=df['k'].clip(lower=1.5, upper=2.5))\ndf = df.sum(numeric_only=True)")),
    "concat_empty_frame_missing_column_int_to_float": (None, case(
        "df = pd.DataFrame({'c3': [7]}).astype({'c3': 'uint64'})\ndf2 = pd.DataFrame({'c0': []}).astype({'c0': 'int32'})",
        "df = pd.concat([df, df2], ignore_index=False)")),
    "concat_empty_frame_no_columns_keeps_int": (None, case(
        "df = pd.DataFrame({'c2': [10]})\ndf2 = pd.DataFrame({}, index=pd.RangeIndex(0))",
        "df = pd.concat([df, df2], ignore_index=True)")),
    "Int64_near_max_with_missing_exact": (None, case(
        "df = pd.DataFrame({'c0': pd.array([1, None, 9223372036854775806, 9007199254740993], dtype='Int64')})",
        "df = df.tail(-1)")),
    "Int64_near_max_merge_outer": (None, case(
        "df = pd.DataFrame({'k': [3], 'c2': pd.array([9223372036854775807], dtype='Int64')})\ndf2 = pd.DataFrame({'k': [0]})",
        "df = df.merge(df2, on='k', how='outer')")),
    "int_mod_bool_divisor_is_zero_not_nan": (None, case("df = pd.DataFrame({'k': [False, True], 'i': [3, 4]})",
                                                        "df = df.assign(k=0 % df['k'], m=df['i'] % df['k'])")),
    "set_index_last_column_keeps_str_columns": (None, case("df = pd.DataFrame({'c0': [2, 5, 1]}).astype({'c0': 'uint32'})",
                                                           "df = df.set_index('c0')")),
    "reset_index_drop_no_columns_keeps_rows": (None, case("df = pd.DataFrame({'k': [0], 'c0': [1e-300]})",
                                                          "df = df.groupby(['k', 'c0'], sort=True).nunique()\ndf = df.reset_index(drop=True)")),
    # pandas 3.1: a signed int column forming an arithmetic range becomes a RangeIndex (int64) - value-dependent
    "set_index_int32_range_becomes_RangeIndex": (None, case("df = pd.DataFrame({'c3': [-7, 2]}).astype({'c3': 'int32'})",
                                                          "df = df.set_index('c3')")),
    "uint32_plus_negative_python_int_overflows": (None, case("df = pd.DataFrame({'c0': [0]}).astype({'c0': 'uint32'})",
                                                             "df = df.assign(n=df['c0'] + -2)")),
    "empty_uint32_floordiv_negative_overflows": (None, case("df = pd.DataFrame({'c2': []}).astype({'c2': 'uint32'})",
                                                            "df = df.assign(n=df['c2'] // -2)")),
    "bool_pow_bool_not_implemented": (None, case("df = pd.DataFrame({'c0': [False]})", "df = df.assign(m=df['c0'] ** df['c0'])")),
    "bool_floordiv_bool_not_implemented": (None, case("df = pd.DataFrame({'c2': [True]})", "df = df.assign(m=df['c2'] // df['c2'])")),
    "fillna_number_on_all_nat_datetime_is_object": (None, case("df = pd.DataFrame({'k': [None]}).astype({'k': 'datetime64[ns]'})",
                                                                "df = df.assign(k=df['k'].fillna(1.5))")),
    "object_of_numbers_groupby_first_keeps_object": (None, case(
        "df = pd.DataFrame({'c0': [1], 'c2': [None]}).astype({'c0': 'uint16', 'c2': 'datetime64[ms]'})",
        "df = df.fillna(1.5)\ndf = df.groupby('c0').first()")),
    "Float64_astype_Int64_truncates": (None, case("df = pd.DataFrame({'c1': pd.array([-3.13, None], dtype='Float64')})",
                                                  "df = df.astype({'c1': 'Int64'})")),
    "Float64_astype_int8_out_of_range_as_numpy": (None, case("df = pd.DataFrame({'c3': pd.array([-1e+20], dtype='Float64')})",
                                                             "df = df.astype({'c3': 'int8'})")),
    "merge_right_Int64_keys_stay_Int64": (None, case(
        "df = pd.DataFrame({'k': pd.array([0], dtype='Int64')})\ndf2 = pd.DataFrame({'k': pd.array([None], dtype='Int64')})",
        "df = df.merge(df2, on='k', how='right')")),
    "int_pow_negative_valueerror": (None, case("df = pd.DataFrame({'c1': [False, True]})", "df = df.assign(c1=df['c1'] ** -1)")),
    "empty_int_pow_negative_no_raise": (None, case("df = pd.DataFrame({'k': [0]})", "df = df.head(0)\ndf = df.assign(k=df['k'] ** -1)")),
    "Int64_floordiv_zero_is_zero": (None, case("df = pd.DataFrame({'k': [0], 'c4': pd.array([829922], dtype='Int64')})",
                                               "df = df.assign(n=df['c4'] // df['k'])")),
    "Int64_mod_zero_is_zero": (None, case("df = pd.DataFrame({'k': pd.array([0, None], dtype='Int64')})",
                                          "df = df.assign(k=df['k'] % 0)")),
    "empty_int_floordiv_zero_stays_int": (None, case(
        "df = pd.DataFrame({'k': ['2020-01-01'], 'c1': [-9223372036854775808], 'c2': ['2020-01-01 12:30:00']}).astype({'k': 'datetime64[ns]', 'c2': 'datetime64[s]'})",
        "df = df[(df['c2'] <= df['k'])]\ndf = df.assign(m=df['c1'] // 0)")),
    "empty_int_mod_zero_is_float64": (None, case("df = pd.DataFrame({'c1': []}).astype({'c1': 'uint8'})",
                                                 "df = df.assign(m=df['c1'] % 0)")),
    "uint8_plus_bool_wraps_in_uint8": (None, case("df = pd.DataFrame({'k': [True], 'c0': [255]}).astype({'c0': 'uint8'})",
                                                  "df = df.assign(n=df['c0'] + df['k'])")),
    "int_compared_with_timestamp_typeerror": (None, case("df = pd.DataFrame({'c1': [10]}).astype({'c1': 'int32'})",
                                                         "df = df[(df['c1'] > pd.Timestamp('2020-01-01'))]")),
    "str_ne_timestamp_all_true": (None, case("df = pd.DataFrame({'c2': ['']})", "df = df[(df['c2'] != pd.Timestamp('2020-01-01'))]")),
    # Series arithmetic across two plans: pandas aligns on the sorted union of differing indexes
    # (HConcat's "outer" rule); a default RangeIndex on one side aligns its positions as labels
    "align_two_plans_sorted_union": (None, case("df = pd.DataFrame({'a': [1, 2, 3]}, index=[2, 0, 5])",
                                              "df = df['a'] + df.sort_index()['a'].head(2)")),
    "align_default_and_labelled_index": (None, case("df = pd.DataFrame({'a': [1, 2, 3]}, index=[2, 0, 5])",
                                                  "df = df['a'] + df['a'].reset_index(drop=True)")),
    "merge_categorical_different_orderedness_empty_side_keeps_category": (None, case(
        "df = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['a', 'e'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['a']}).astype({'k': pd.CategoricalDtype(['a', 'e'], ordered=True)})",
        "df = df.merge(df2, on='k', how='inner')")),
    "astype_category_of_all_missing_str_has_str_categories": (None, case("df = pd.DataFrame({'k': [None]}).astype({'k': 'str'})",
                                                                         "df = df.astype({'k': 'category'})")),
    "Int64_fillna_fraction_typeerror": (None, case("df = pd.DataFrame({'a': pd.array([1, None], dtype='Int64')})",
                                                   "df = df.fillna(1.5)")),
    "Int64_fillna_fraction_nothing_missing_kept": (None, case("df = pd.DataFrame({'a': pd.array([1, 2], dtype='Int64')})",
                                                              "df = df.assign(a=df['a'].fillna(1.5))")),
    "boolean_fillna_int_typeerror": (None, case("df = pd.DataFrame({'a': pd.array([True, None], dtype='boolean')})",
                                                "df = df.fillna({'a': 2})")),
    "int16_var_of_one_row_is_numpy_nan": (None, case("df = pd.DataFrame({'c2': [10]}).astype({'c2': 'int16'})",
                                                     "df = df['c2'].var()")),
    "merge_outer_nat_key_sorts_first": (None, case(
        "df = pd.DataFrame({'k': []}).astype({'k': 'datetime64[ns]'})\ndf2 = pd.DataFrame({'k': ['2020-01-01 12:30:00', None]}).astype({'k': 'datetime64[ns]'})",
        "df = df.merge(df2, on='k', how='outer')")),
    "merge_left_sort_nat_key_first": (None, case(
        "df = pd.DataFrame({'k': [None, '2020-01-01']}).astype({'k': 'datetime64[ns]'})\ndf2 = pd.DataFrame({'k': ['2020-01-01']}).astype({'k': 'datetime64[ns]'})",
        "df = df.merge(df2, on='k', how='left', sort=True)")),
    "concat_empty_frame_missing_key_float_under_projection": (None, case(
        "df = pd.DataFrame({'c1': [3], 'c2': [False]}).astype({'c1': 'int8'})\n"
        "df2 = pd.DataFrame({'c0': []}, index=pd.Index([], name='idx')).astype({'c0': 'bool'})",
        "df = df.assign(n=df['c2'] - -0.0)\ndf = pd.concat([df, df2], ignore_index=True)\ndf = df.groupby('c1')['n'].count()")),
    "str_astype_Int64_valueerror_as_pandas_arrowinvalid": (None, case("df = pd.DataFrame({'k': ['ab']})",
                                                                      "df = df.astype({'k': 'Int64'})")),
    # --- session fuzzarrow: ArrowDtype columns (docs/fuzzing.md, rows S-Z)
    # S: numeric_only takes pandas' numeric blocks (ArrowDtype._is_numeric: not bool[pyarrow], decimals in)
    "frame_std_numeric_only_decimal_is_arrow_double": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array([None], dtype={DEC})}})", "df = df.std(numeric_only=True)")),
    "frame_min_numeric_only_takes_decimal_not_arrow_bool": (None, arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['99999999.99'], dtype={DEC}), 'c3': pd.array([-2], dtype='Int64'), "
        "'c4': pd.array([False], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df.min(numeric_only=True)")),
    "frame_median_numeric_only_after_merge_skips_arrow_bool": (None, arrow_case(
        "df = pd.DataFrame({'k': [2]}).astype({'k': 'int32'})\n"
        "df2 = pd.DataFrame({'k': [2], 'x1': pd.array([-1], dtype=pd.ArrowDtype(pa.int64())), "
        "'c0': pd.array([None], dtype=pd.ArrowDtype(pa.bool_()))}).astype({'k': 'int32'})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.median(numeric_only=True)")),
    "frame_var_numeric_only_of_arrow_bool_is_empty": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([False], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df.var(numeric_only=True)")),
    "groupby_sum_numeric_only_skips_arrow_bool": (None, arrow_case(
        "df = pd.DataFrame({'k': [1, 1], 'c2': pd.array([False, True], dtype=pd.ArrowDtype(pa.bool_())), 'x': [1.0, 2.0]})",
        "df = df.groupby('k').sum(numeric_only=True)")),
    "frame_all_of_arrow_int_is_numpy_bool": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array([2], dtype=pd.ArrowDtype(pa.int64()))})", "df = df.all()")),
    "frame_all_of_arrow_int_and_Float64_is_numpy_bool": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array([0], dtype=pd.ArrowDtype(pa.int64())), 'c1': pd.array([None], dtype='Float64')})",
        "df = df.all()")),
    # T: a scalar pandas takes and gframe has no literal for (Decimal) goes to pandas; Arrow isin by pyarrow's is_in
    "decimal_le_Decimal_scalar": (None, arrow_case(
        f"df = pd.DataFrame({{'c2': pd.array(['0', '1.5', None], dtype={DEC})}})", "df = df[(df['c2'] <= Decimal('0.01'))]")),
    "decimal_not_eq_Decimal_scalar": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['1.50', None], dtype={DEC})}})", "df = df[~((df['c1'] == Decimal('100')))]")),
    "decimal_isin_int_and_Decimal": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['2.25', '2'], dtype={DEC})}})", "df = df[df['c1'].isin([-2, Decimal('2.25')])]")),
    "decimal_isin_int_arrowinvalid": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['2.25', '2'], dtype={DEC})}})", "df = df[df['c1'].isin([2])]")),
    "arrow_string_isin_only_none_arrowtypeerror": (None, arrow_case(
        "df = pd.DataFrame({'c1': pd.array(['a', None], dtype=pd.ArrowDtype(pa.string()))})",
        "df = df[df['c1'].isin([None])]")),
    # U/W: casts from and to ArrowDtype follow pyarrow / to_numpy, not the numpy table
    "arrow_double_astype_large_string_formats_as_pyarrow": (None, arrow_case(
        "df = pd.DataFrame({'c2': pd.array([-0.0, 1.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.astype({'c2': pd.ArrowDtype(pa.large_string())})")),
    "bool_astype_arrow_string_is_lowercase": (None, arrow_case(
        "df = pd.DataFrame({'c2': [True, False]})", "df = df.astype({'c2': pd.ArrowDtype(pa.string())})")),
    "int_astype_decimal_precision_arrowinvalid": (None, arrow_case(
        "df = pd.DataFrame({'k': [2]})", "df = df.astype({'k': pd.ArrowDtype(pa.decimal128(10, 2))})")),
    "arrow_timestamp_astype_float64": (None, arrow_case(
        "df = pd.DataFrame({'c2': pd.array(['2020-01-01', None], dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.astype({'c2': 'float64'})")),
    "arrow_duration_astype_arrow_double_not_implemented": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([1500], dtype=pd.ArrowDtype(pa.duration('us')))})",
        "df = df.astype({'c0': pd.ArrowDtype(pa.float64())})")),
    "arrow_tz_timestamp_astype_boolean_over_no_rows": (None, arrow_case(
        "df = pd.DataFrame({'c2': pd.array([], dtype=pd.ArrowDtype(pa.timestamp('us', tz='UTC')))})",
        "df = df.astype({'c2': 'boolean'})")),
    "arrow_int_with_na_astype_int64_typeerror": (None, arrow_case(
        "df = pd.DataFrame({'c2': pd.array([1, None], dtype=pd.ArrowDtype(pa.int64()))})", "df = df.astype({'c2': 'int64'})")),
    "arrow_date_astype_object_keeps_dates": (None, arrow_case(
        "df = pd.DataFrame({'c2': pd.array(['2020-01-01', None], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.astype({'c2': 'object'})")),
    "str_with_missing_astype_Int64_is_NA": (None, case(
        "df = pd.DataFrame({'x0': [None, '1']}).astype({'x0': 'str'})", "df = df.astype({'x0': 'Int64'})")),
    # decimals: numeric to pandas, not sorted/rounded by the engines
    "decimal_nsmallest_n_covers_the_column": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['0.01'], dtype={DEC})}})", "df = df.nsmallest(5, 'c1', keep='all')")),
    "decimal_nlargest_typeerror_where_pandas_kernels_refuse": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['0.01', '2', '3'], dtype={DEC})}})", "df = df.nlargest(1, 'c1')")),
    "decimal_round": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['100', '2.25', None], dtype={DEC})}})", "df = df.assign(c1=df['c1'].round(1))")),
    # R: reductions pyarrow types differently from the engines go to pandas (a duration's mean is one)
    "arrow_duration_mean_is_timedelta": (None, arrow_case(
        "df = pd.DataFrame({'c1': pd.array([1, None, 3], dtype=pd.ArrowDtype(pa.duration('us')))})", "df = df['c1'].mean()")),
    "arrow_date_mean_is_date": (None, arrow_case(
        "df = pd.DataFrame({'c1': pd.array(['2020-01-01', None, '2020-01-02'], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df['c1'].mean()")),
    "arrow_bool_std_typeerror": (None, arrow_case(
        "df = pd.DataFrame({'c1': pd.array([None], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df['c1'].std()")),
    "groupby_decimal_mean_is_decimal": (None, arrow_case(
        f"df = pd.DataFrame({{'k': [1, 1, 2], 'v': pd.array(['1', None, '2'], dtype={DEC})}})",
        "df = df.groupby('k').agg({'v': 'mean'})")),
    "groupby_arrow_duration_std": (None, arrow_case(
        "df = pd.DataFrame({'k': [1, 1, 2], 'c1': pd.array([1, 5, 3], dtype=pd.ArrowDtype(pa.duration('us')))})",
        "df = df.groupby('k', sort=False)['c1'].std()")),
    "decimal_abs": (None, arrow_case(
        f"df = pd.DataFrame({{'c3': pd.array(['-99999999.99', None], dtype={DEC})}})", "df = df.assign(c3=df['c3'].abs())")),
    # astype of a column whose type the data decides (a merge key of categoricals) raised AttributeError
    "astype_float_of_data_typed_merge_key": (None, case(
        "df = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['a'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['a']}).astype({'k': pd.CategoricalDtype(['a'], ordered=True)})",
        "df = df.merge(df2, on='k', how='inner')\ndf = df.astype({'k': 'float64'})")),
    "arrow_int_astype_arrow_double_beyond_2_53_arrowinvalid": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([9223372036854775807, 1], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.astype({'c0': pd.ArrowDtype(pa.float64())})")),
    "groupby_mean_numeric_only_with_decimal_via_pandas_keeps_numeric_only": (None, arrow_case(
        f"df = pd.DataFrame({{'k': ['a'], 'c0': pd.array(['99999999.99'], dtype={DEC}), "
        "'c1': pd.array([None], dtype=pd.ArrowDtype(pa.string()))}).astype({'k': pd.CategoricalDtype(['a', 'd', 'c'], ordered=False)})",
        "df = df.groupby('c1', dropna=False).mean(numeric_only=True)")),
    # the pandas fallback of DataFrame.count/nunique passed skipna (and numeric_only to nunique)
    "frame_count_after_merge_left_via_pandas": (None, case(
        "df = pd.DataFrame({'k': ['a']})\ndf2 = pd.DataFrame({'k': ['b'], 'x1': [126]}).astype({'x1': 'int8'})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.count()")),
    # a float column's isin of mixed ints and floats matched nothing on the CPU engine (no Polars Series of both)
    # the optimizer dropped a sort below a float32 group sum: pandas adds in row order (seed 213060, device campaign)
    "sort_then_float32_group_sum_keeps_row_order": (None, case(
        "df = pd.DataFrame({'k': [3, 3, 3], 'c2': [0.1, 12.0, 0.1], 'c3': [-7, 100, 5]}).astype({'c2': 'float32', 'c3': 'int8'})",
        "df = df.sort_values(['c3', 'c2'], ascending=[False, False], na_position='first', kind='stable')\n"
        "df = df.groupby('k')['c2'].sum()")),
    "float_isin_mixed_int_and_float_values": (None, case(
        "df = pd.DataFrame({'k': [2.0, 1.5]})", "df = df[df['k'].isin([2, 2.0, inf])]")),
    # Z: merge sort puts a missing ArrowDtype timestamp key last (numpy NaT first, R16)
    "merge_outer_sort_arrow_timestamp_null_key_last": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2020-01-01 12:30:00'], dtype=pd.ArrowDtype(pa.timestamp('us')))})\n"
        "df2 = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.merge(df2, on='k', how='outer', sort=True)")),
    # left as they are
    "arrow_bool_astype_category_categories_keep_arrow_dtype": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype=pd.ArrowDtype(pa.bool_()))})",
        "df = df.astype({'c0': 'category'})\ndf = df.tail(5)")),
    "Int64_astype_category_value_counts_index_Int64_categories": (None, case(
        "df = pd.DataFrame({'c1': pd.array([-1], dtype='Int64')})",
        "df = df.astype({'c1': 'category'})\ndf = df['c1'].value_counts()")),
    "pandas_bug_sort_arrow_double_signed_zeros": (NY, arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2020-01-01', '2020-01-01'], dtype=pd.ArrowDtype(pa.timestamp('us'))), "
        "'c0': pd.array([0.0, -0.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.sort_values(['c0', 'k'], ascending=[False, False], na_position='last', kind='stable')")),
    # fixed by the decimal and date32 arithmetic (arith branch)
    "date32_minus_timedelta": (None, arrow_case(
        "df = pd.DataFrame({'c1': pd.array(['1970-01-01'], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.assign(n=df['c1'] - pd.Timedelta(seconds=1))")),
    "int_minus_decimal": (None, arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array(['2.25'], dtype={DEC})}})", "df = df.assign(m=3 - df['c1'])")),
    "decimal_truediv_zero": (None, arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['2.25'], dtype={DEC})}})", "df = df.assign(m=df['c0'] / 0)")),
    # fuzznum
    # nlargest/nsmallest(keep="last"): pandas sorts the whole column stably when n covers it (seed 311259)
    "nsmallest_keep_last_n_covers_rows_is_stable": (None, case(
        "df = pd.DataFrame({'k': [0, 0]}).astype({'k': 'int32'})", "df = df.nsmallest(5, 'k', keep='last')")),
    "nlargest_keep_last_cut_reverses_ties_missing_in_order": (None, case(
        "df = pd.DataFrame({'k': [nan, 1.0, nan, 1.0, 0.0]}, index=[9, 8, 7, 6, 5])",
        "df = df.nlargest(4, 'k', keep='last')")),
    "nlargest_keep_last_uint64_labelled_index": (None, case(
        "df = pd.DataFrame({'a': [18446744073709551615, 0, 18446744073709551615, 9223372036854775808]}, "
        "index=['a', 'b', 'c', 'd']).astype({'a': 'uint64'})", "df = df.nlargest(3, 'a', keep='last')")),
    "nlargest_keep_last_then_head_not_recut": (None, case(
        "df = pd.DataFrame({'k': [1, 1, 1]})", "df = df.nlargest(5, 'k', keep='last').head(2)")),
    # round by numpy's algorithm in the column's type; a scalar divisor divided exactly (Polars multiplies
    # by the reciprocal: last-bit differences); int64 past its range as numpy's cast gives it
    "float32_round_2_near_tie_in_float32": (None, case(
        "df = pd.DataFrame({'a': [2.675, 1e20, -1e20]}).astype({'a': 'float32'})", "df = df.assign(a=df['a'].round(2))")),
    "float_round_overflow_is_inf": (None, case(
        "df = pd.DataFrame({'a': [1e300, 1.5]})", "df = df.assign(a=df['a'].round(10))")),
    "int64_round_negative_past_max": (None, case(
        "df = pd.DataFrame({'a': [9223372036854775807, 15]})", "df = df.assign(a=df['a'].round(-2))")),
    # Int64.clip with a bound it cannot hold: pandas' setitem (TypeError where replaced, else Int64 kept)
    "Int64_clip_fractional_bound_replacing_typeerror": (None, case(
        "df = pd.DataFrame({'c2': pd.array([9223372036854775807], dtype='Int64')})",
        "df = df.assign(c2=df['c2'].clip(lower=0, upper=2.5))")),
    "Int64_clip_fractional_bound_nothing_replaced_keeps_Int64": (None, case(
        "df = pd.DataFrame({'c4': pd.array([None, 1], dtype='Int64')})",
        "df = df.assign(c4=df['c4'].clip(lower=-0.5, upper=3))")),
    "Int64_frame_clip_fractional_bound": (None, case(
        "df = pd.DataFrame({'a': pd.array([2, 5, None], dtype='Int64'), 'b': [1.0, 2.0, 3.0]})", "df = df.clip(lower=1.5)")),
    # pandas' masked pow: 1 ** NA and NA ** 0 are 1
    "Int64_pow_masks_one_and_zero_exponent": (None, case(
        "df = pd.DataFrame({'a': pd.array([1, None, 0], dtype='Int64'), 'b': pd.array([None, 0, None], dtype='Int64')})",
        "df = df.assign(c=df['a'] ** df['b'], d=1 ** df['b'], e=df['a'] ** 0)")),
    # integer power with a 64-bit exponent past 2**32 (Polars' limit), wrapping as numpy (seeds 311311, 312423)
    "uint64_pow_huge_exponent_wraps": (None, case(
        "df = pd.DataFrame({'c0': [18446744073709551614, 3]}).astype({'c0': 'uint64'})",
        "df = df.assign(m=0 ** df['c0'], n=df['c0'] ** df['c0'])")),
    # numpy's types: bool // uint32 is uint32 where no divisor is 0 (seed 311954), boolean // Int32 Int32
    # (seed 312440), bool ** 2 int8
    "bool_floordiv_uint32_is_uint32": (None, case(
        "df = pd.DataFrame({'k': [True], 'c1': [2]}).astype({'c1': 'uint32'})", "df = df.assign(m=df['k'] // df['c1'])")),
    "boolean_floordiv_Int32_is_Int32": (None, case(
        "df = pd.DataFrame({'k': pd.array([2, 3], dtype='Int32'), 'c0': pd.array([True, None], dtype='boolean')})",
        "df = df.assign(c0=df['c0'] // df['k'])")),
    "bool_pow_python_int_is_int8": (None, case("df = pd.DataFrame({'k': [True, False]})", "df = df.assign(m=df['k'] ** 2)")),
    "bool_pow_zero_is_int64": (None, case("df = pd.DataFrame({'c3': [True]})", "df = df.assign(m=df['c3'] ** 0, n=df['c3'] ** 3)")),
    # decimal // and %: pandas' own (pyarrow's floor of a division; NotImplementedError for %; ArrowInvalid
    # for a zero divisor) - seeds 311671, 311767, 314344
    "decimal_floordiv_int": (None, arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array([None, '2.25'], dtype={DEC})}})", "df = df.assign(m=df['c0'] // 1)")),
    "decimal_mod_int_not_implemented": (None, arrow_case(
        f"df = pd.DataFrame({{'c4': pd.array(['99999999.99'], dtype={DEC})}})", "df = df.assign(m=df['c4'] % -2)")),
    "decimal_floordiv_decimal_zero_arrowinvalid": (None, arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['0'], dtype={DEC})}})", "df = df.assign(n=df['c0'] // df['c0'])")),
    "frame_floordiv_decimal": (None, arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['2.25', None], dtype={DEC})}})", "df = df // 2")),
    # isin on datetime64 compares exactly (a nanosecond Timestamp; finer than the unit: no match; None no match)
    "datetime_ns_isin_nanosecond_timestamp": (None, case(
        "df = pd.DataFrame({'c': ['2020-01-01 00:00:00.000000001', '2020-01-01 00:00:00.000000000']}).astype({'c': 'datetime64[ns]'})",
        "df = df[df['c'].isin([pd.Timestamp('2020-01-01 00:00:00.000000001')])]")),
    "datetime_us_isin_finer_timestamp_matches_nothing": (None, case(
        "df = pd.DataFrame({'c': ['2020-01-01', None]}).astype({'c': 'datetime64[us]'})",
        "df = df[df['c'].isin([pd.Timestamp('2020-01-01 00:00:00.000000001'), None])]")),
    "datetime_isin_nat_matches_missing": (None, case(
        "df = pd.DataFrame({'c': ['2020-01-01', None]}).astype({'c': 'datetime64[s]'})", "df = df[df['c'].isin([pd.NaT])]")),
    # which missing marker in isin's values matches the missing rows: NaN for numpy floats (not None), pd.NA
    # for nullable columns (not NaN/None), any for strings
    "float_isin_none_matches_no_nan": (None, case("df = pd.DataFrame({'c': [1.0, nan]})", "df = df[df['c'].isin([1, None])]")),
    "Int64_isin_nan_matches_no_na": (None, case(
        "df = pd.DataFrame({'c': pd.array([1, None], dtype='Int64')})", "df = df[df['c'].isin([1, nan])]")),
    "Float64_isin_pd_NA_matches_na": (None, case(
        "df = pd.DataFrame({'c': pd.array([1.5, None], dtype='Float64')})", "df = df[df['c'].isin([pd.NA])]")),
    "str_isin_pd_NA_matches_missing": (None, case(
        "df = pd.DataFrame({'c': ['a', None]}).astype({'c': 'str'})", "df = df[df['c'].isin([pd.NA])]")),
    # pandas' mask_zero_div_zero: float32 // 0 of a number is float64 (seeds 311853, 312904); int64 // uint64
    # is float division (3 // 0 inf, seed 314914)
    "float32_floordiv_zero_is_float64": (None, case(
        "df = pd.DataFrame({'c0': [0.0, 1.0]}).astype({'c0': 'float32'})", "df = df.assign(n=df['c0'] // df['c0'])")),
    "float32_floordiv_nonzero_stays_float32": (None, case(
        "df = pd.DataFrame({'c0': [2.0, 1.0]}).astype({'c0': 'float32'})", "df = df.assign(n=df['c0'] // df['c0'])")),
    "Float32_floordiv_zero_is_Float64": (None, case(
        "df = pd.DataFrame({'c0': pd.array([2.0, None], dtype='Float32')})", "df = df.assign(n=df['c0'] // 0)")),
    "int64_floordiv_uint64_zero_is_inf": (None, case(
        "df = pd.DataFrame({'k': [3], 'c2': [0]}).astype({'c2': 'uint64'})", "df = df.assign(n=df['k'] // df['c2'])")),
}

# fuzznum: -0.0 isin([0.0]) matched nothing on the GPU engine (the stand-in's search hashes the bits)
GPU_CASES_FUZZNUM: dict[str, tuple[str | None, str]] = {
    "gpu_Float64_negative_zero_isin_zero": (None, case(
        "df = pd.DataFrame({'c': pd.array([-0.0, 0.0, None], dtype='Float64'), 'd': [-0.0, 1.0, 0.0]})",
        "df = df[df['c'].isin([0.0]) | df['d'].isin([0.0])]")),
}


# found on the GPU engine (host stand-in for pylibcudf); run where GFRAME_ENGINE=gpu (.ci/run's last line,
# the device), as the CPU engine gets them right
GPU_CASES: dict[str, tuple[str | None, str]] = {
    # catfix (seed 503657): a merge on categorical keys (the CPU engine; the key's type is the data's)
    # feeding a device node came back as int32 codes
    "gpu_data_typed_categorical_merge_key_keeps_categories": (None, case(
        "df = pd.DataFrame({'k': ['e', None], 'c1': [1.0, 3.0]}).astype({'k': pd.CategoricalDtype(['e', 'c'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['e', 'c'], ordered=False)})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.assign(c1=df['c1'].where(df['c1'] > 2.0, -1.5))\n"
        "df = df['k'].cat.categories")),
    "gpu_compare_datetime64s_out_of_ns_range_with_ns": (None, case(
        "df = pd.DataFrame({'k': [3], 'c0': ['2020-01-02'], 'c1': ['3000-01-01']}).astype({'c0': 'datetime64[ns]', 'c1': 'datetime64[s]'})",
        "df = df[~((df['c1'] > df['c0']) | (df['k'] <= -1))]")),
    # fuzzgpu (session 5): libcudf's variance and median with infinities (docs/fuzzing.md, "helper fuzzgpu");
    # the stand-in models libcudf's pairwise variance and LINEAR median, the engine computes pandas' own
    "gpu_std_with_inf_is_nan": (None, case(  # seed 501006
        "df = pd.DataFrame({'c1': [inf, 1e+20]})", "df = df['c1'].std()")),
    "gpu_var_float32_with_inf_is_nan": (None, case(  # seed 500421
        "df = pd.DataFrame({'c1': [38.5, inf, nan, 1e+20]}).astype({'c1': 'float32'})",
        "df = df.var(numeric_only=True)")),
    "gpu_median_of_inf_is_inf": (None, arrow_case(  # seed 500508
        "df = pd.DataFrame({'c1': pd.array([inf], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.median(numeric_only=True)")),
    "gpu_frame_sum_int64_wraps": (None, case(  # seed 732836: the stand-in raised OverflowError (libcudf wraps)
        "df = pd.DataFrame({'c3': [9223372036854775807, 3]})", "df = df.sum(numeric_only=True)")),
    "gpu_sort_timestamp_past_year_9999": (None, arrow_case(  # seed 734317: the stand-in raised OverflowError
        "df = pd.DataFrame({'c1': pd.array([9223372036854775807, None, 5], dtype='Int64')})",
        "df = df.astype({'c1': pd.ArrowDtype(pa.timestamp('us'))})\n"
        "df = df.sort_values(['c1'], ascending=False, na_position='first', kind='stable')")),
    "gpu_groupby_median_infinite_middle": (None, case(
        "df = pd.DataFrame({'k': [1, 1, 1, 2, 2], 'v': [1.0, inf, inf, None, -inf]})",
        "df = df.groupby('k')['v'].median()")),
}


@pytest.mark.parametrize(
    "code",
    [pytest.param(code, id=name, marks=[pytest.mark.xfail(strict=True, reason=cls)] if cls else [])
     for name, (cls, code) in {**GPU_CASES, **GPU_CASES_FUZZNUM}.items()],
)
def test_fuzz_regression_gpu(code: str) -> None:
    import os

    if os.environ.get("GFRAME_ENGINE", "").lower() != "gpu":
        pytest.skip("GPU-engine regression: runs with GFRAME_ENGINE=gpu (stand-in in CI, or the device)")
    check_code(code, engine="gpu")
    check_code(code, engine="cpu")


@pytest.mark.parametrize(
    "code",
    [pytest.param(code, id=name, marks=[pytest.mark.xfail(strict=True, reason=cls)] if cls else [])
     for name, (cls, code) in CASES.items()],
)
def test_fuzz_regression(code: str) -> None:
    check_code(code, engine="cpu")


# fuzzcat: concat / merge dtype rules (docs/fuzzing.md, "Session fuzzcat")
FC_CAT = "fuzzcat open: a right merge's key over two categoricals of one dtype loses the unobserved categories"
FC_BOOL = "fuzzcat open: a bool column a concat's frame lacks is object in pandas whatever the rows; reductions take it as bool"

FUZZCAT_CASES: dict[str, tuple[str | None, str]] = {
    # concat casts each frame's column to pandas' common dtype (find_common_type), object via pandas
    "concat_Int64_with_bool_is_object": (None, case(
        "df = pd.DataFrame({'k': pd.array([1, None], dtype='Int64')})\ndf2 = pd.DataFrame({'k': [True, False]})",
        "df = pd.concat([df, df2], ignore_index=True)")),
    "concat_arrow_int_with_Int64_is_object": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array([1, None], dtype=pd.ArrowDtype(pa.int64()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([2, None], dtype='Int64')})",
        "df = pd.concat([df, df2], ignore_index=True)")),
    "concat_arrow_string_with_str_is_object": (None, arrow_case(
        "df = pd.DataFrame({'k': ['a']})\ndf2 = pd.DataFrame({'k': [3.0]})",
        "df = df.astype({'k': pd.ArrowDtype(pa.large_string())})\ndf = pd.concat([df, df2], ignore_index=True)")),
    "concat_decimal_with_float64_is_arrow_double": (None, arrow_case(
        "df = pd.DataFrame({'k': [1.0]})\ndf2 = pd.DataFrame({'k': []}).astype({'k': 'float64'})",
        "df = df.astype({'k': pd.ArrowDtype(pa.decimal128(10, 2))})\ndf = pd.concat([df, df2], ignore_index=True)")),
    "concat_boolean_with_arrow_bool_is_object": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([False], dtype=pd.ArrowDtype(pa.bool_()))})\n"
        "df2 = pd.DataFrame({'c0': pd.array([False], dtype=pd.ArrowDtype(pa.bool_()))})",
        "df = df.astype({'c0': 'boolean'})\ndf = pd.concat([df, df2], ignore_index=False)")),
    "concat_datetime_units_take_the_finer": (None, case(
        "df = pd.DataFrame({'k': ['2020-01-01']}).astype({'k': 'datetime64[ms]'})\n"
        "df2 = pd.DataFrame({'k': ['2020-01-02']}).astype({'k': 'datetime64[ns]'})",
        "df = pd.concat([df, df2], ignore_index=True)")),
    "concat_categoricals_ordered_and_unordered_give_str": (None, case(
        "df = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d'], ordered=False)})",
        "df = pd.concat([df, df2], ignore_index=True)")),
    # the appended index: strings with ints (or timestamps with positions) are an object Index
    "concat_str_index_with_int_index_is_object": (None, case(
        "df = pd.DataFrame({}, index=pd.Index(['r2', 'r1', 'r2'], name=None))\n"
        "df2 = pd.DataFrame({}, index=pd.Index([12, 14], name=None))",
        "df = pd.concat([df, df2], ignore_index=False)")),
    "concat_timestamp_index_with_range_index_is_object": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array(['2024-02-29'], dtype=pd.ArrowDtype(pa.timestamp('us', tz='UTC')))})\n"
        "df2 = pd.DataFrame({'x1': [-2.5]}).astype({'x1': 'float32'})",
        "df = df.set_index('c0')\ndf = pd.concat([df, df2], ignore_index=False)")),
    "concat_timestamp_index_with_positions_then_sort_keeps_the_ints": (None, arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype=pd.ArrowDtype(pa.large_string())), 'c3': ['2024-02-29']})"
        ".astype({'c3': 'datetime64[ns]'})\ndf2 = pd.DataFrame({'x0': pd.array([None], dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.set_index('c3')\ndf = pd.concat([df, df2], ignore_index=False)\n"
        "df = df.sort_values(['c0'], ascending=False, na_position='last', kind='stable')")),
    # MultiIndex columns, then flat labels: MultiIndex.union's NotImplementedError
    "concat_multiindex_columns_then_flat_raises": (None, arrow_case(
        "df = pd.DataFrame({'k': [1], 'c1': [-0.0]}).astype({'k': 'int32'})\n"
        "df2 = pd.DataFrame({'x0': pd.array([28.3], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.groupby('k', sort=True, dropna=False).agg({'c1': ['median']})\ndf = pd.concat([df, df2], ignore_index=False)")),
    # a column a frame (with columns, even without rows) lacks: the data's ints become float64
    "concat_missing_column_after_outer_merge_is_float64": (None, case(
        "df = pd.DataFrame({'k': [False], 'c0': [1]}).astype({'c0': 'int8'})\ndf2 = pd.DataFrame({'k': []}).astype({'k': 'bool'})",
        "df = df.merge(df2, on='k', how='outer')\ndf = pd.concat([df, df2], ignore_index=True)")),
    "concat_of_frames_without_columns_keeps_str_columns": (None, case(
        "df = pd.DataFrame({'k': [False]})",
        "df = df.groupby('k').nunique()\ndf = pd.concat([df, df.head(1)], ignore_index=True)\ndf = df.median(numeric_only=True)")),
    # merge keys of different dtypes: pandas' coercion reads the data
    "merge_float_key_with_bool_key": (None, case(
        "df = pd.DataFrame({'k': [False]})\ndf2 = pd.DataFrame({'k': [False]})",
        "df = df.assign(k=df['k'] / 0.0)\ndf = df.merge(df2, on='k', how='inner')")),
    "merge_int8_key_with_bool_key": (None, case(
        "df = pd.DataFrame({'k': [False]})\ndf2 = pd.DataFrame({'k': [True]})",
        "df = df.astype({'k': 'int8'})\ndf = df.merge(df2, on='k', how='left')")),
    "merge_arrow_timestamp_with_date_key_empty_side_not_checked": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array([], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.astype({'k': pd.ArrowDtype(pa.timestamp('us'))})\ndf = df.merge(df2, on='k', how='left')")),
    "merge_right_uint8_with_float64_key_keeps_left_dtype": (None, case(
        "df = pd.DataFrame({'k': [2.0]})\ndf2 = pd.DataFrame({'k': [2.0]})",
        "df = df.astype({'k': 'uint8'})\ndf = df.merge(df2, on='k', how='right')")),
    "merge_arrow_large_string_with_str_key_is_object": (None, arrow_case(
        "df = pd.DataFrame({'k': ['a']})\ndf2 = pd.DataFrame({'k': ['ab']})",
        "df = df.astype({'k': pd.ArrowDtype(pa.large_string())})\ndf = df.merge(df2, on='k', how='inner')")),
    "merge_str_with_arrow_date_key": (None, arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.astype({'k': 'str'})\ndf = df.merge(df2, on='k', how='left')")),
    "merge_outer_Int64_with_float64_key": (None, case(
        "df = pd.DataFrame({'k': [2.0]})\ndf2 = pd.DataFrame({'k': [3.0]})",
        "df = df.astype({'k': 'Int64'})\ndf = df.merge(df2, on='k', how='outer')")),
    "merge_categoricals_ordered_and_unordered_empty_side": (None, case(
        "df = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d', 'b', 'a', 'e'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['d', 'b', 'a', 'e'], ordered=False)})",
        "df = df.merge(df2, on='k', how='inner')")),
    # left as they are
    "merge_right_ordered_categorical_key_stays_ordered": (None, case(
        "df = pd.DataFrame({'k': ['e']}).astype({'k': pd.CategoricalDtype(['a', 'c', 'e', 'd', 'b'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['a', 'c', 'e', 'd', 'b'], ordered=True)})",
        "df = df.merge(df2, on='k', how='right')")),
    "merge_inner_ordered_categorical_missing_keys_stay_ordered": (None, case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['d', 'e', 'c', 'a'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['d', 'e', 'c', 'a'], ordered=True)})",
        "df = df.merge(df2, on='k', how='inner')")),
    "merge_left_ordered_categorical_key_then_fillna_raises_typeerror": (None, case(
        "df = pd.DataFrame({'k': ['a']}).astype({'k': pd.CategoricalDtype(['e', 'd', 'a'], ordered=True)})\n"
        "df2 = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['e', 'd', 'a'], ordered=True)})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.fillna({'k': 1.5})")),
    "merge_outer_categorical_missing_key_sorts_first": (None, case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['e', 'a', 'd', 'c', 'b'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['e', 'a', 'd', 'c', 'b'], ordered=False)})",
        "df = df.merge(df2, on='k', how='outer')")),
    "merge_right_categorical_key_keeps_unobserved_categories": (None, case(  # fixed by fz8cpu (value_counts of a key the data types over categoricals: pandas)
        "df = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['e', 'd', 'a', 'b', 'c'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['e', 'd', 'a', 'b', 'c'], ordered=False)})",
        "df = df.merge(df2, on='k', how='right')\ndf = df['k'].value_counts(ascending=True).reset_index()")),
    "concat_rows_without_columns": (None, case(
        "df = pd.DataFrame({'k': ['ab']})",
        "df = df.groupby('k', sort=True).sum(numeric_only=True)\ndf = pd.concat([df, df.head(2)], ignore_index=True)")),
    "concat_bool_column_missing_from_a_frame_is_object": (None, case(
        "df = pd.DataFrame({'c1': [True]})\ndf2 = pd.DataFrame({'c0': [None]}).astype({'c0': 'datetime64[us]'})",
        "df = pd.concat([df, df2], ignore_index=False)\ndf = df.drop_duplicates(subset=['c0'], keep=False)\n"
        "df = df.var(numeric_only=True)")),
}


@pytest.mark.parametrize(
    "code",
    [pytest.param(code, id=name, marks=[pytest.mark.xfail(strict=True, reason=cls)] if cls else [])
     for name, (cls, code) in FUZZCAT_CASES.items()],
)
def test_fuzz_regression_fuzzcat(code: str) -> None:
    check_code(code, engine="cpu")


# fuzzexc: exceptions where pandas raises none or another, or none where it raises (triage seeds
# 320000-324999), and the device campaign's optimizer on/off differences (seeds 206478, 217805)
FUZZEXC_CASES: dict[str, str] = {
    # the optimizer pushed an isin below a join onto the scan's Enum; the values were a Categorical
    "isin_string_categorical_pushed_below_join": case(
        "df = pd.DataFrame({'k': ['a']}).astype({'k': pd.CategoricalDtype(['a'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['a']}).astype({'k': pd.CategoricalDtype(['a'], ordered=False)})",
        "df = df.merge(df2, on='k', how='inner')\ndf = df[df['k'].isin(['a'])]\n"
        "df = df.merge(df2, on='k', how='outer', sort=True)"),
    # uint64 ** uint64: the negative-exponent check cast to Int64; Polars takes a u32 exponent only
    "uint64_pow_uint64_past_u32": case(
        "df = pd.DataFrame({'c2': [18446744073709551615, 3]}).astype({'c2': 'uint64'})",
        "df = df.assign(c2=df['c2'] ** df['c2'])"),
    "int64_pow_past_u32": case(
        "df = pd.DataFrame({'c0': [9223372036854775806, 1, 2]})", "df = df.assign(m=1 ** df['c0'], n=3 ** df['c0'])"),
    # merge keys of different kinds: pandas raises only where both sides have rows, merges others as object
    "merge_int_with_empty_arrow_timestamp": arrow_case(
        "df = pd.DataFrame({'k': pd.array([1], dtype='int8')})\n"
        "df2 = pd.DataFrame({'k': pd.array([], dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.merge(df2, on='k', how='outer')"),
    "merge_int_with_bool_key_as_object": case(
        "df = pd.DataFrame({'k': [0]})\ndf2 = pd.DataFrame({'k': [False]})",
        "df = df.merge(df2, on='k', how='right', sort=True)"),
    "merge_datetime_with_str_key_raises": case(
        "df = pd.DataFrame({'k': ['2020-01-01']}).astype({'k': 'datetime64[us]'})\ndf2 = pd.DataFrame({'k': ['a']})",
        "df = df.merge(df2, on='k', how='inner', sort=True)"),
    "merge_arrow_date_with_arrow_string": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array(['ab'], dtype=pd.ArrowDtype(pa.string()))})",
        "df = df.merge(df2, on='k', how='left')"),
    # pyarrow's own rules: fillna of a value pyarrow does not take as the column's type
    "arrow_bool_fillna_int_arrowinvalid": arrow_case(
        "df = pd.DataFrame({'a': pd.array([True, None], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df.fillna(-1)"),
    "arrow_int_fillna_bool_typeerror": arrow_case(
        "df = pd.DataFrame({'a': pd.array([1, None], dtype=pd.ArrowDtype(pa.int64()))})", "df = df.fillna({'a': True})"),
    # Int64.clip with a fractional bound: TypeError only where a value is replaced
    "Int64_clip_fractional_bound_replacing": case(
        "df = pd.DataFrame({'c0': pd.array([-7], dtype='Int64')})", "df = df.assign(c0=df['c0'].clip(lower=-0.5, upper=2.5))"),
    "Int64_clip_fractional_bound_not_replacing": case(
        "df = pd.DataFrame({'c0': pd.array([1, None], dtype='Int64')})", "df = df.clip(upper=2.5)"),
    "arrow_int_clip_fractional_bound_keeps_int": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([3, None], dtype=pd.ArrowDtype(pa.int64()))})", "df = df.assign(c0=df['c0'].clip(upper=2.5))"),
    "int_clip_bool_bound_object": case("df = pd.DataFrame({'c0': [3, -1]})", "df = df.assign(c0=df['c0'].clip(upper=True))"),
    # astype('boolean') of numpy numbers other than 0/1; datetimes to boolean over no rows
    "uint_astype_boolean_not_bool_like": case(
        "df = pd.DataFrame({'c1': [100]}).astype({'c1': 'uint32'})", "df = df.astype({'c1': 'boolean'})"),
    "datetime_astype_boolean_over_no_rows": case(
        "df = pd.DataFrame({'c1': []}).astype({'c1': 'datetime64[ns]'})", "df = df.astype({'c1': 'boolean'})"),
    # missing values into numpy int: each source array's own exception
    "string_na_astype_uint8_typeerror": case(
        "df = pd.DataFrame({'c2': pd.array([None], dtype='string')})", "df = df.astype({'c2': 'uint8'})"),
    "boolean_na_astype_int64_valueerror": case(
        "df = pd.DataFrame({'c2': pd.array([None], dtype='boolean')})", "df = df.astype({'c2': 'int64'})"),
    # strings never match a datetime column's isin (a float parse raised ValueError)
    "datetime_isin_strings_matches_nothing": case(
        "df = pd.DataFrame({'c1': ['2020-01-01', None]}).astype({'c1': 'datetime64[ns]'})",
        "df = df[df['c1'].isin(['ab', '2020-01-01'])]"),
    # MultiIndex columns concatenated with flat ones: pandas' NotImplementedError
    "concat_multiindex_columns_with_flat": case(
        "df = pd.DataFrame({'k': [0], 'c2': [-1]})\ndf2 = pd.DataFrame({'x0': [1.5]})",
        "df = df.groupby('c2').agg({'k': ['max']})\ndf = pd.concat([df, df2], ignore_index=False)"),
    # unary minus of a uint column whose type the data decides (aligned fallback result)
    "neg_of_aligned_uint_fallback_result": case(
        "df = pd.DataFrame({'c0': [89365, 3]}).astype({'c0': 'uint32'})",
        "df = df.assign(n=df['c0'].cummin())\ndf = df.assign(n=df['n'].__neg__())"),
    # drop_duplicates of an empty frame does not look its subset up
    "drop_duplicates_missing_subset_of_empty_frame": case(
        "df = pd.DataFrame({'k': pd.array([None], dtype='Int64')})",
        "df = df.groupby('k').mean(numeric_only=True)\ndf = df.drop_duplicates(subset=['c0', 'n'], keep='last')"),
    # group-by keys of Python objects of kinds that do not compare: pandas' sort raises TypeError
    "groupby_object_keys_not_comparable": case(
        "df = pd.DataFrame({'c0': [5, 1], 'c1': [None, '2020-01-01 12:30:00']}).astype({'c1': 'datetime64[ms]'})",
        "df = df.fillna(-1)\ndf = df.groupby('c1')['c0'].size()"),
    # comparisons with a scalar of another kind: pyarrow's answers, categoricals all False
    "arrow_duration_lt_int": arrow_case(
        "df = pd.DataFrame({'a': pd.array([1, None], dtype=pd.ArrowDtype(pa.duration('us')))})", "df = df[(df['a'] < 5).fillna(False)]"),
    "arrow_duration_eq_true": arrow_case(
        "df = pd.DataFrame({'a': pd.array([1, None], dtype=pd.ArrowDtype(pa.duration('us')))})", "df = df['a'] == True"),
    "string_upper_eq_int_is_arrow_bool": case(
        "df = pd.DataFrame({'a': pd.array(['x', None], dtype='string')})", "df = df['a'].str.upper() == 1"),
    "categorical_eq_int_all_false": case(
        "df = pd.DataFrame({'a': ['x', None]}).astype({'a': 'category'})", "df = df[df['a'] != 1]"),
    # reductions: pyarrow refuses bool var over no rows too; any/all take no numeric_only
    "frame_var_of_empty_arrow_bool_typeerror": arrow_case(
        "df = pd.DataFrame({'a': pd.array([], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df.var()"),
    "frame_any_numeric_only_typeerror": case("df = pd.DataFrame({'a': [1]})", "df = df.any(numeric_only=True)"),
    "frame_nunique_without_columns_is_float": case("df = pd.DataFrame(index=[1, 2])", "df = df.nunique()"),
    # an object column of timestamps and ints (pandas' datetime.fillna(-1)) came back from pandas as
    # timestamps (-1 as 1969-12-31 23:59:59.999999): values of several kinds are kept as Python objects
    "datetime_fillna_int_keeps_the_int": case(
        "df = pd.DataFrame({'c0': [5, -7], 'c1': ['1999-12-31 23:59:59', None]}).astype({'c1': 'datetime64[ms]'})",
        "df = df.fillna(-1)\ndf = df.groupby('c1')['c0'].size()"),
    # pandas does not parse a string for an Arrow timestamp: == is False (gframe parsed it: True)
    "arrow_timestamp_eq_date_string_is_false": arrow_case(
        "df = pd.DataFrame({'t': pd.array(['2021-03-14 10:00', None], dtype=pd.ArrowDtype(pa.timestamp('us', tz='UTC')))})",
        "df = df.assign(e=df['t'] == '2021-03-14 10:00', n=df['t'] != '2021-03-14 10:00')"),
    # an ArrowDtype operand's arithmetic is pyarrow's: numpy's TypeError is not pandas' answer
    "decimal_floordiv_int": arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['-3', None], dtype={DEC})}})", "df = df.assign(c0=df['c0'] // 7)"),
    "decimal_floordiv_Float64": arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['-99.99'], dtype={DEC}), 'c2': pd.array([None], dtype='Float64')}})",
        "df = df.assign(c0=df['c0'] // df['c2'])"),
    "arrow_timestamp_mod_int_not_implemented": arrow_case(
        "df = pd.DataFrame({'t': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.timestamp('us')))})", "df = df.assign(m=df['t'] % 7)"),
    "datetime_fillna_int_values": case(
        "df = pd.DataFrame({'c1': ['1999-12-31 23:59:59', None]}).astype({'c1': 'datetime64[ms]'})", "df = df.fillna(-1)"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FUZZEXC_CASES.items()])
def test_fuzz_regression_fuzzexc(code: str) -> None:
    check_code(code, engine="cpu")


# fuzzb (session 5): values / raise-extra / raise-missing of the device campaign's CPU seeds
# 600000-619999 that involve no categorical; one shrunk repro per root cause (docs/fuzzing.md)
FUZZB_CASES: dict[str, str] = {
    # an object column keeps the missing value of the array it came from (pd.NA, NaT)
    "arrow_int_astype_object_keeps_na": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None, None, 3], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.astype({'k': 'object'})\ndf = df.drop_duplicates(subset=['k'], keep='first')"),
    "datetime_astype_object_keeps_nat": case(
        "df = pd.DataFrame({'c0': ['2020-01-01', None, None]}).astype({'c0': 'datetime64[us]'})",
        "df = df.astype({'c0': 'object'})\ndf = df.tail(2)"),
    "arrow_date_astype_object_fillna_other_column": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None, '2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), 'c0': [2, 3]})",
        "df = df.astype({'k': 'object'})\ndf = df.assign(c0=df['c0'].fillna('z'))"),
    "boolean_astype_object_keeps_na": case(
        "df = pd.DataFrame({'c3': pd.array([True, None], dtype='boolean')})", "df = df.astype({'c3': 'object'})"),
    # an object block is not numeric (datetime.fillna(1.5) holds floats, pandas leaves it out)
    "object_of_floats_not_numeric_only": case(
        "df = pd.DataFrame({'k': [None], 'c0': [1.5]}).astype({'k': 'datetime64[ns]'})",
        "df = df.fillna(1.5)\ndf = df.median(numeric_only=True)"),
    # any / all of times: pandas' TypeError (numpy and Arrow timestamps, Arrow dates)
    "datetime_any_typeerror": case(
        "df = pd.DataFrame({'c2': [None]}).astype({'c2': 'datetime64[s]'})", "df = df['c2'].any()"),
    "arrow_date_all_typeerror": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})", "df = df['c0'].all()"),
    # Arrow date sum in a group-by: pandas' TypeError
    "arrow_date_group_sum_typeerror": arrow_case(
        "df = pd.DataFrame({'k': ['a'], 'c0': pd.array(['1900-03-01'], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.groupby('k', dropna=False).agg({'c0': 'sum'})"),
    # groupby numeric_only kept out a column whose type the data decides
    "groupby_std_numeric_only_data_typed_column": case(
        "df = pd.DataFrame({'c0': [1], 'c1': [100]}).astype({'c0': 'uint16', 'c1': 'uint32'})",
        "df = df.assign(c1=df['c1'].where(df['c1'] > 0, -1.5))\ndf = df.groupby('c0').std(numeric_only=True)"),
    # .str of Python objects (datetime.fillna(True)): pandas decides by the values
    "str_accessor_of_mixed_objects": case(
        "df = pd.DataFrame({'c0': ['1800-05-05 01:02:03', None]}).astype({'c0': 'datetime64[s]'})",
        "df = df.fillna(True)\ndf = df.assign(n=df['c0'].str.lower())"),
    # numpy floats out of the target int's range: numpy's cast (pandas does not check)
    "float32_astype_int64_out_of_range": case(
        "df = pd.DataFrame({'c0': [-1e+20, 2.0]}).astype({'c0': 'float32'})", "df = df.astype({'c0': 'int64'})"),
    "float64_astype_int8_out_of_range": case(
        "df = pd.DataFrame({'c2': [1.6237e15, 3.0]})", "df = df.astype({'c2': 'int8'})"),
    # float32 std: the float64 variance narrowed to float32 (inf), then its root
    "float32_std_past_float32_range": case(
        "df = pd.DataFrame({'c0': [-0.0, -1e+20]}).astype({'c0': 'float32'})", "df = df.std(numeric_only=True)"),
    # whole-column sums and means: numpy's pairwise sum in the column's type
    "int64_mean_of_cancelling_extremes": case(
        "df = pd.DataFrame({'c3': [1, 5, -1, 264139, 0, 9223372036854775806, -9223372036854775807, 3]})",
        "df = df.mean(numeric_only=True)"),
    "float32_mean_in_float32": case(
        "df = pd.DataFrame({'c3': [1e+20, 0.1, nan, 50.0, -1e+20, 51.400204, 0.1, 7.5]}).astype({'c3': 'float32'})",
        "df = df.mean(numeric_only=True)"),
    "float32_sum_in_float32": case(
        "df = pd.DataFrame({'c2': [nan, -51.7, -57.7, -0.0, 8.93835, 1e-300, 39.47, -0.0]}).astype({'c2': 'float32'})",
        "df = df.sum(numeric_only=True)"),
    # float32 ** int: numpy's power
    "float32_pow_int": case(
        "df = pd.DataFrame({'c1': [-92.077402, -56.86]}).astype({'c1': 'float32'})", "df = df.assign(c1=df['c1'] ** 3)"),
    # Arrow floats: pyarrow counts -0.0 apart from 0.0
    "arrow_float_value_counts_signed_zero": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([0.0, -0.0, 1.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df['c0'].value_counts(dropna=False).reset_index()"),
    "arrow_float_drop_duplicates_two_columns_signed_zero": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['a', 'a'], dtype=pd.ArrowDtype(pa.string())), "
        "'c1': pd.array([0.0, -0.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.drop_duplicates(subset=['c1', 'k'], keep=False)"),
    "arrow_float_nunique_signed_zero": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([0.0, -0.0], dtype=pd.ArrowDtype(pa.float64()))})", "df = df.nunique()"),
    # concat of frames with rows but no columns (ignore_index) kept no rows
    "concat_of_columnless_group_results": case(
        "df = pd.DataFrame({'k': [True], 'c0': [0]}).astype({'c0': 'uint8'})",
        "df = df.groupby(['c0', 'k'], dropna=False).last()\ndf = pd.concat([df, df.head(1)], ignore_index=True)"),
    # [s] times between two seconds (Polars holds [ms]): truncated toward zero as pandas
    "datetime_s_group_median_between_seconds": case(
        "df = pd.DataFrame({'c1': ['2024-02-29', '1800-05-05 01:02:03'], 'c2': ['2020-01-01', '2020-01-01']})"
        ".astype({'c1': 'datetime64[s]', 'c2': 'datetime64[us]'})",
        "df = df.groupby('c2', sort=True)['c1'].median()"),
    "datetime_s_median_between_seconds": case(
        "df = pd.DataFrame({'c1': ['2024-02-29', '1800-05-05 01:02:03']}).astype({'c1': 'datetime64[s]'})",
        "df = df['c1'].median()"),
    "timedelta_mean_is_timedelta": case(
        "df = pd.DataFrame({'d': [1500, 2000, -4000]}).astype({'d': 'timedelta64[ms]'})", "df = df['d'].mean()"),
    # comparisons pandas decides by the values
    "str_all_missing_le_int": case("df = pd.DataFrame({'k': [None]}).astype({'k': 'str'})", "df = df[(df['k'] <= 5)]"),
    "empty_arrow_string_lt_float_column": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([], dtype=pd.ArrowDtype(pa.string()))}, index=pd.Index([], name=None))",
        "df = df.reset_index(drop=False)\ndf = df[(df['c0'] < df['index'])]"),
    "empty_object_le_str": arrow_case(
        "df = pd.DataFrame({'k': pd.array([], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.astype({'k': 'object'})\ndf = df[(df['k'] <= 'a')]"),
    "data_typed_column_ne_str": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([], dtype=pd.ArrowDtype(pa.date32())), 'x1': []}).astype({'x1': 'uint64'})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df[(df['x1'] != 'a')]"),
    # a missing boolean to str stays missing
    "boolean_na_astype_str": case(
        "df = pd.DataFrame({'c0': pd.array([None, True], dtype='boolean')})", "df = df.astype({'c0': 'str'})"),
    # Python objects a concat's missing side adds: NaN, not None
    "mixed_objects_concat_missing_side_nan": case(
        "df = pd.DataFrame({'k': ['ab'], 'c3': ['2021-06-15 08:00:01']}).astype({'c3': 'datetime64[us]'})\n"
        "df2 = pd.DataFrame({'k': ['a', 'ab']})",
        "df = df.merge(df2, on='k', how='right', sort=True)\ndf = df.fillna('z')\ndf = pd.concat([df, df2])"),
    # boolean NA % False: NA (the bool divisor's x % False = 0 rule took the missing rows too)
    "boolean_na_mod_false": case(
        "df = pd.DataFrame({'c2': pd.array([None, True], dtype='boolean'), 'c3': pd.array([False, False], dtype='boolean')})",
        "df = df.assign(c2=df['c2'] % df['c3'])"),
    # an object column of ints past int64 (Arrow's inference overflowed): kept as Python objects
    "uint64_astype_object_past_int64": case(
        "df = pd.DataFrame({'c0': ['ab', None], 'c1': [2, 18446744073709551614]}).astype({'c0': 'str', 'c1': 'uint64'})",
        "df = df.fillna({'c0': 0})\ndf = df.astype({'c1': 'object'})"),
    # isin of a decimal column with ints among the Decimals: pyarrow's value set (the row matched)
    "decimal_isin_ints_and_decimals": arrow_case(
        f"df = pd.DataFrame({{'c0': pd.array(['99999999.99', '1.50'], dtype={DEC})}})",
        "df = df[df['c0'].isin([-2, Decimal('100.00'), Decimal('99999999.99')])]"),
    # float32 NaN // NaN (a type the data decides): numpy's NaN is missing (fillna fills it)
    "float32_nan_floordiv_then_fillna": case(
        "df = pd.DataFrame({'c0': [nan, 4.0]}).astype({'c0': 'float32'})",
        "df = df.assign(c0=df['c0'] // df['c0'])\ndf = df.fillna({'c0': 1.0})"),
    # an index of Python objects (str and int after a concat): pandas sorts (TypeError here)
    "sort_index_of_mixed_objects_typeerror": case(
        "df = pd.DataFrame({}, index=pd.Index(['r0', 'r1'], name='idx'))\n"
        "df2 = pd.DataFrame({'x0': [3.0]}).astype({'x0': 'float32'})",
        "df = pd.concat([df, df2], ignore_index=False)\ndf = df.sort_index(ascending=True, kind='stable')"),
    # pyarrow's one-to-one case mapping for pyarrow-backed strings
    "arrow_string_upper_sharp_s": arrow_case(
        "df = pd.DataFrame({'c1': pd.array(['ß', 'ǆ'], dtype=pd.ArrowDtype(pa.large_string())), 'c2': ['ß', 'ǆ']})",
        "df = df.assign(n=df['c1'].str.upper(), m=df['c2'].str.title())"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FUZZB_CASES.items()])
def test_fuzz_regression_fuzzb(code: str) -> None:
    check_code(code, engine="cpu")


# catfix: categoricals (issue 9 class 5; docs/fuzzing.md, "Session 5, helper catfix"), one per cause
CATFIX_CASES: dict[str, str] = {
    # the CPU engine held a categorical of numbers (bools, temporal values) as its values: unused
    # categories and the category order were lost (now an Enum of the categories' encodings)
    "int_categorical_keeps_unused_categories_and_their_order": case(
        "df = pd.DataFrame({'k': [3, 1, None], 'x': [1, 5, 0]}).astype({'k': pd.CategoricalDtype([3, 1, 2, 9], ordered=True)})",
        "df = df[df['x'] > 0].sort_values('k')"),
    # (and a Timestamp compared with a timestamp categorical raised AttributeError in the frontend)
    "timestamp_categorical_compared_by_category_order": case(
        "df = pd.DataFrame({'k': ['2024-01-02', '2023-05-01', None]}).astype({'k': 'datetime64[us]'})\n"
        "df = df.astype({'k': pd.CategoricalDtype(pd.to_datetime(['2024-01-02', '2023-05-01']).as_unit('us'), ordered=True)})",
        "df = df[df['k'] > pd.Timestamp('2024-01-02')]"),
    # the categories' pandas dtype (Int64, string, ArrowDtype) was lost: a categorical's family is its categories'
    "Int64_astype_category_keeps_Int64_categories": case(
        "df = pd.DataFrame({'k': pd.array([3, None, 1], dtype='Int64')})", "df = df.astype({'k': 'category'})"),
    "string_astype_category_keeps_string_categories": case(
        "df = pd.DataFrame({'k': pd.array(['b', None], dtype='string'), 'x': [1, 2]})",
        "df = df.astype({'k': 'category'})\ndf = df[df['k'] == 'b']"),
    # the optimizer moved a filter / a limit below astype('category'): categories of the rows left only
    "filter_not_pushed_below_astype_category": case(
        "df = pd.DataFrame({'k': [1.5, 0.25, 2.0], 'x': [1, 0, 1]})",
        "df = df.astype({'k': 'category'})\ndf = df[df['x'] > 0].head(1)"),
    # no categories: their Arrow type was null (ArrowDtype categories) or float64 (str categories)
    "empty_arrow_categories_keep_their_type": arrow_case(
        "df = pd.DataFrame({'k': pd.array([2], dtype='Int64'), 'c2': pd.array([datetime.date(2020, 1, 1)], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([], dtype='Int64')})",
        "df = df.merge(df2, on='k', how='inner')\ndf = df.astype({'c2': 'category'})\ndf = df.merge(df2, on='k', how='inner')"),
    "empty_str_categories_stay_str": case(
        "df = pd.DataFrame({'c': [], 'x': []}).astype({'c': pd.CategoricalDtype(['e', 'a'], ordered=True)})",
        "df = df.assign(n=df['c'].cat.remove_unused_categories())\ndf = df.sort_values(['x'])"),
    # fillna with a value that is not a category: pandas' TypeError where something is missing
    "fillna_categorical_with_a_new_category_raises": case(
        "df = pd.DataFrame({'k': [None, 'c']}).astype({'k': pd.CategoricalDtype(['c'], ordered=False)})",
        "df = df.fillna({'k': 'ab'})"),
    # a sorted merge whose key stays categorical sorts a missing key first (its code -1)
    "merge_outer_stays_categorical_missing_key_first": case(
        "df = pd.DataFrame({'k': ['b', None]}).astype({'k': pd.CategoricalDtype(['b'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['b'], ordered=False)})",
        "df = df.merge(df2, on='k', how='outer')"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in CATFIX_CASES.items()])
def test_fuzz_regression_catfix(code: str) -> None:
    check_code(code, engine="cpu")
# fuzza (session 5): dtype / index / columns kinds of the device campaign's CPU failures (600000-619999)
FUZZA_CASES: dict[str, str] = {
    # a bool column missing from a child with other columns: pandas 3 makes it object (NaN), rows or not
    "concat_missing_bool_empty_child_is_object": case(
        "df = pd.DataFrame({'c1': [True]})\ndf2 = pd.DataFrame({'x1': []}).astype({'x1': 'float64'})",
        "df = pd.concat([df, df2], ignore_index=True)"),
    "concat_missing_bool_object_after_dropping_missing_rows": case(
        "df = pd.DataFrame({'c1': [True, False]})\ndf2 = pd.DataFrame({'x1': [-10.08]})",
        "df = pd.concat([df, df2], ignore_index=True)\ndf = df.dropna()"),
    "concat_missing_bool_object_after_filter": case(
        "df = pd.DataFrame({'c1': [True, False]})\ndf2 = pd.DataFrame({'x1': [-10.08]})",
        "df = pd.concat([df, df2], ignore_index=True)\ndf = df[df['c1'] == True]"),
    "concat_two_empty_bool_frames_are_object": case(
        "df = pd.DataFrame({'c1': []}).astype({'c1': 'bool'})\ndf2 = pd.DataFrame({'c0': []}).astype({'c0': 'bool'})",
        "df = pd.concat([df, df2], ignore_index=True)"),
    # an object column's missing bool stays missing through astype(str) (was "False")
    "object_bool_with_nan_astype_str_keeps_nan": case(
        "df = pd.DataFrame({'c1': pd.Series([True, nan, False], dtype=object)})", "df = df.astype({'c1': 'str'})"),
    # pandas 3.1's set_index: a signed int column forming a range (or empty) is a RangeIndex (int64),
    # decided by the rows at set_index (a later filter keeps int64; a filter before it decides)
    "set_index_empty_int8_is_range": case("df = pd.DataFrame({'c0': []}).astype({'c0': 'int8'})", "df = df.set_index('c0')"),
    "set_index_int16_not_a_range_kept": case("df = pd.DataFrame({'c0': [1, 2, 4]}).astype({'c0': 'int16'})",
                                             "df = df.set_index('c0')"),
    "set_index_int8_one_row_kept": case("df = pd.DataFrame({'c0': [5]}).astype({'c0': 'int8'})", "df = df.set_index('c0')"),
    "set_index_range_then_filter_stays_int64": case(
        "df = pd.DataFrame({'c': [0, 2, 4, 6], 'x': [1.0, 2.0, 0.0, 4.0]}).astype({'c': 'int8'})",
        "df = df.set_index('c')\ndf = df[df['x'] > 0.5]"),
    "filter_then_set_index_range_decided_after": case(
        "df = pd.DataFrame({'c': [1, 2, 3, 5], 'x': [1.0, 2.0, 3.0, 4.0]}).astype({'c': 'int32'})",
        "df = df[df['x'] < 3.5]\ndf = df.set_index('c')"),
    "sort_then_set_index_range": case(
        "df = pd.DataFrame({'c': [3, 1, 2], 'x': [1.0, 2.0, 3.0]}).astype({'c': 'int16'})",
        "df = df.sort_values('c')\ndf = df.set_index('c')\ndf = df.head(2)"),
    # pyarrow's length of large strings is int64 (of strings int32)
    "large_string_len_is_int64_pyarrow": arrow_case(
        "df = pd.DataFrame({'c0': pd.array(['ab', None], dtype=pd.ArrowDtype(pa.large_string()))})",
        "df = df.assign(n=df['c0'].str.len())"),
    # NaN made by the values (inf - inf) is not "no values": numpy's NaN scalar of the column's type;
    # pyarrow's reductions give a NaN (a Python float), not NA
    "float32_mean_of_inf_and_minus_inf_is_float32_nan": case(
        "df = pd.DataFrame({'c2': [-inf, inf]}).astype({'c2': 'float32'})", "df = df['c2'].mean()"),
    "float64_mean_skipna_false_is_numpy_nan": case("df = pd.DataFrame({'c2': [1.0, nan]})", "df = df['c2'].mean(skipna=False)"),
    "float32_empty_sum_min_count_is_float32_nan": case(
        "df = pd.DataFrame({'c2': []}).astype({'c2': 'float32'})", "df = df['c2'].sum(min_count=1)"),
    "arrow_double_sum_of_inf_and_minus_inf_is_nan": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([inf, -inf], dtype=pd.ArrowDtype(pa.float64()))})", "df = df['c0'].sum()"),
    "arrow_double_var_with_inf_is_nan": arrow_case(
        "df = pd.DataFrame({'c2': pd.array([98.0, inf], dtype=pd.ArrowDtype(pa.float64()))})", "df = df['c2'].var()"),
    "arrow_double_var_of_one_value_is_na": arrow_case(
        "df = pd.DataFrame({'c2': pd.array([98.0], dtype=pd.ArrowDtype(pa.float64()))})", "df = df['c2'].var()"),
    # // and % keep ints only with a masked int on the left (numpy's x % 0 == 0); a numpy or boolean
    # left operand follows pandas' numpy rules: Float64 where a divisor is 0, the int type where none is
    "int32_mod_Int64_zero_is_Float64": case(
        "df = pd.DataFrame({'c0': pd.array([0], dtype='Int64'), 'c1': [0]}).astype({'c1': 'int32'})",
        "df = df.assign(n=df['c1'] % df['c0'])"),
    "python_int_mod_Int64_zero_is_Float64": case("df = pd.DataFrame({'k': pd.array([0], dtype='Int64')})",
                                                 "df = df.assign(m=3 % df['k'])"),
    "int16_floordiv_boolean_false_is_Float64": case(
        "df = pd.DataFrame({'c1': pd.array([False], dtype='boolean'), 'c2': [0]}).astype({'c2': 'int16'})",
        "df = df.assign(m=df['c2'] // df['c1'])"),
    "boolean_floordiv_int16_zero_is_Float64": case(
        "df = pd.DataFrame({'f': pd.array([False, True], dtype='boolean'), 'c': pd.array([0, 7], dtype='int16')})",
        "df = df.assign(m=df.f // df.c, r=df.f % df.c)"),
    "int32_floordiv_Int64_with_na_no_zero_stays_Int64": case(
        "df = pd.DataFrame({'a': pd.array([1, 5, 0], dtype='int32'), 'k': pd.array([1, 2, None], dtype='Int64')})",
        "df = df.assign(m=df.a // df.k, r=df.a % df.k)"),
    "Int64_mod_boolean_keeps_na": case(
        "df = pd.DataFrame({'k': pd.array([0, 2, None], dtype='Int64'), 'b': pd.array([None, True, False], dtype='boolean')})",
        "df = df.assign(m=df.k % df.b)"),
    "dayofyear_plus_boolean_na_is_Int32": case(
        "df = pd.DataFrame({'c0': ['2020-01-01 12:30:00'], 'c2': pd.array([None], dtype='boolean')}).astype({'c0': 'datetime64[s]'})",
        "df = df.assign(n=df['c0'].dt.dayofyear)\ndf = df.assign(m=df['n'] + df['c2'])"),
    # a float32 group mean over no groups is float32 (pandas' Cython kernel; reduceat's float64 needs rows)
    "float32_group_mean_no_groups_is_float32": case(
        "df = pd.DataFrame({'k': [nan], 'c': [1.5]}).astype({'c': 'float32'})", "df = df.groupby('k').agg(o=('c', 'mean'))"),
    # a DataFrame reduction's dtype is the common type of the columns' results (int32, float32: float64)
    "frame_max_int32_and_float32_is_float64": case(
        "df = pd.DataFrame({'k': [3], 'c0': [2.25]}).astype({'k': 'int32', 'c0': 'float32'})", "df = df.max(numeric_only=True)"),
    # a uint8 group sum past uint8 is uint64 (the ordered pass's exact sums are int64)
    "uint8_group_sum_not_fitting_is_uint64": case(
        "df = pd.DataFrame({'c1': [-2.0, -34.7], 'c2': [7, 254], 'c3': [1.0, 1.0]}).astype({'c2': 'uint8'})",
        "df = df.groupby('c3', as_index=False).sum(numeric_only=True)"),
    # concat(ignore_index=True) of frames without columns kept no rows (pandas: their rows), so a
    # later concat's missing values were not there to make its ints float64
    "concat_no_column_frames_ignore_index_keeps_rows": case(
        "df = pd.DataFrame({'k': [1, 2], 'c0': ['ab', 'c']})", "df = pd.concat([df[[]], df[[]]], ignore_index=True)"),
    "concat_groupby_var_no_columns_then_int_frame_is_float64": case(
        "df = pd.DataFrame({'k': [1], 'c0': ['ab']})\ndf2 = pd.DataFrame({'k': [0]})",
        "df = df.groupby(['c0', 'k']).var(numeric_only=True)\ndf = pd.concat([df, df.head(1)], ignore_index=True)\n"
        "df = pd.concat([df, df2], ignore_index=True)"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FUZZA_CASES.items()])
def test_fuzz_regression_fuzza(code: str) -> None:
    check_code(code)


# session 6, fz6gpu
# GPU engine classes (docs/fuzzing.md, "Session 6, helper fz6gpu"); each case fails on the GPU engine
# over the stand-in (or, where noted, on the device) without its fix, and runs on both engines
FZ6GPU_CASES: dict[str, str] = {
    # a Python number compared with float32 is weak (NEP 50): numpy compares in float32
    "gpu_float32_gt_python_float_in_float32": case(  # seed 802851
        "df = pd.DataFrame({'c4': [0.1, 0.2]}).astype({'c4': 'float32'})",
        "df = df.assign(c4=df['c4'].where(df['c4'] > 0.1, -1.5), e=df['c4'] == 0.1, i=df['c4'] == 16777217)"),
    # float32 std: the float64 variance narrowed to float32 (inf past its range), then its root
    "gpu_float32_std_past_float32_range": case(  # seed 802338
        "df = pd.DataFrame({'c2': [1e+20, 7.5], 'c3': [2.5, 7.5]}).astype({'c2': 'float32', 'c3': 'float32'})",
        "df = df.std(numeric_only=True)"),
    # an outer merge of categorical keys types its key None (decided by the data): its device column
    # (the codes) is not numbers - the median was the codes' (0.0, or NaN of none), pandas' TypeError
    "gpu_merged_categorical_median_typeerror": case(  # seed 803656
        "df = pd.DataFrame({'k': ['d', 'e', 'e']}).astype({'k': pd.CategoricalDtype(['d', 'e'], ordered=False)})",
        "df = df.merge(df.head(2), on='k', how='outer')\ndf = df['k'].median()"),
    "gpu_merged_empty_categorical_median_typeerror": case(  # seed 803656
        "df = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['d'], ordered=False)})",
        "df = df.merge(df, on='k', how='outer')\ndf = df['k'].median()"),
    # a group mean of ints is pandas' float64 sum of the values as float64: libcudf's MEAN is an int64
    # SUM over the count, which wraps past 2**63 (on the device; the stand-in now models it) and
    # rounds otherwise past 2**53
    "gpu_group_mean_int64_past_2_63": case(  # seed 803616
        "df = pd.DataFrame({'c0': [3, 3, 1], 'c3': pd.array([9223372036854775806, 5, 1], dtype='Int64'), "
        "'c4': [9007199254740993, 1, 2], 'c5': [18446744073709551615, 1, 2]}).astype({'c0': 'int16', 'c5': 'uint64'})",
        "df = df.groupby('c0').mean(numeric_only=True)"),
    # x ** 2 of float64 is the correctly rounded square (CUDA's pow is up to 2 ulp off: the device;
    # the stand-in's numpy power is glibc's)
    "gpu_float64_pow_2_correctly_rounded": arrow_case(  # seed 803410
        f"df = pd.DataFrame({{'c0': pd.array([Decimal('99999999.99'), None, Decimal('-3')], dtype={DEC}), "
        "'c1': [2, 2, 3], 'f': [99999999.99, nan, -3.0]}).astype({'c1': 'uint16'})",
        "df = df.assign(m=df['c0'] ** df['c1'], n=df['f'] ** df['c1'], o=df['f'] ** 2, p=df['f'] ** 2.0)\n"
        "df = df.astype({'m': 'string'})"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ6GPU_CASES.items()])
def test_fuzz_regression_fz6gpu(code: str) -> None:
    check_code(code)
# session 6, fz6cpu2
FZ6CPU2_CASES = {
    # the engine holds datetime64[s] / timedelta64[s] as [ms] (Polars has no [s]): their integers are
    # pandas' seconds both ways (seeds 821577, 823384, 823606, 825430, 837218)
    "datetime_s_astype_int64_is_seconds": case(
        "df = pd.DataFrame({'c0': ['2024-02-29', None]}).astype({'c0': 'datetime64[s]'})",
        "df = df.astype({'c0': 'int64'})"),
    "datetime_s_floor_astype_int64_then_int8_wraps_seconds": case(
        "df = pd.DataFrame({'c3': ['1999-12-31 23:59:59', '2020-01-01 12:30:00']}).astype({'c3': 'datetime64[s]'})",
        "df = df.assign(n=df['c3'].dt.floor('D'))\ndf = df.astype({'n': 'int64', 'c3': 'int64'})\ndf = df.astype({'c3': 'int8'})"),
    "int_astype_datetime_s_and_timedelta_s_are_seconds": case(
        "df = pd.DataFrame({'a': [1709164800, 2, -200], 'b': [5, 0, 86400]})",
        "df = df.astype({'a': 'datetime64[s]', 'b': 'timedelta64[s]'})\n"
        "df = df.assign(ai=df['a'].astype('int64'), bi=df['b'].astype('int64'))"),
    # the ordered group pass' min / max of ints set NaN on the codes of no rows (keys 7 and 1 leave
    # codes 1..5 empty): ValueError on an int array (seeds 820476, 824576, 834873, 838635)
    "int_group_max_with_gapped_int_keys": case(
        "df = pd.DataFrame({'c1': [3, -32767], 'c4': [7, 1]}).astype({'c1': 'int16', 'c4': 'uint16'})",
        "df = df.groupby('c4', sort=False).agg(o0=('c1', 'max'), o1=('c1', 'median'))"),
    "int_group_min_std_count_with_gapped_int_keys": case(
        "df = pd.DataFrame({'k': [3, 3], 'c1': [1, 7], 'c2': [1, -7]}).astype({'k': 'int32', 'c1': 'uint8', 'c2': 'int32'})",
        "df = df.groupby('c2', sort=True).agg(o0=('c1', 'std'), o1=('k', 'min'), o2=('k', 'count'))"),
    # a nullable column compared with a scalar of another kind keeps NA where it is missing (827967)
    "Float64_group_std_ne_str_keeps_na": arrow_case(
        "df = pd.DataFrame({'k': pd.array([3, 4, 4], dtype='Int64'), 'c2': pd.array(['1.50', '2', '2'], dtype=" + DEC + ")})",
        "df = df.groupby('c2', dropna=False).agg(o2=('k', 'std'))\ndf = df[(df['o2'] != 'a')]"),
    "Int64_frame_eq_ne_str_keeps_na": case(
        "df = pd.DataFrame({'a': pd.array([1, None], dtype='Int64'), 'b': [1.0, None], 'c': pd.array([1.5, None], dtype='Float64')})",
        "df = pd.concat([df != 'a', df == 'a', ('a' != df['a']).to_frame('n')], axis=1)"),
    # a float32 group mean of only NaN (the type the data decides) came back NaN, not the engine's
    # null: Polars' NaN > inf is True, so a filter kept the row (822063)
    "float32_group_mean_of_nan_gt_inf_filter": case(
        "df = pd.DataFrame({'c1': [nan, 1.0], 'k': [0, 1]}).astype({'c1': 'float32'})",
        "df = df.groupby('k').agg(o1=('c1', 'mean'))\ndf = df[df['o1'] > inf]"),
    # ``.str`` of a column pandas holds as object is decided by its values: no values or only missing
    # ones are taken, bools raise AttributeError (820312, 822747, 826869, 833630)
    "str_of_empty_object_uint16": case(
        "df = pd.DataFrame({'c0': []}).astype({'c0': 'uint16'})",
        "df = df.astype({'c0': 'object'})\ndf = df.assign(n=df['c0'].str.upper())"),
    "str_of_no_rows_of_dates": case(
        "df = pd.DataFrame({'k': ['2021-06-15 08:00:01'], 'c0': [10]}).astype({'k': 'datetime64[ns]', 'c0': 'int32'})",
        "df = df.assign(n=df['k'].dt.date)\ndf = df.query('c0 == 0')\ndf = df.assign(n=df['n'].str.title())"),
    "str_len_of_all_missing_bools_after_outer_merge": case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': 'datetime64[ns]'})\n"
        "df2 = pd.DataFrame({'k': [], 'x0': []}).astype({'k': 'datetime64[ns]', 'x0': 'bool'})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.assign(n=df['x0'].str.len())"),
    "str_of_object_bools_attributeerror": case(
        "df = pd.DataFrame({'k': ['a', None]}).astype({'k': 'str'})",
        "df = df.fillna(pd.Timestamp('2020-01-01'))\ndf = df.assign(n=df['k'].str.endswith('b'))\n"
        "df = df.assign(n=df['n'].str.replace('a', 'X'))"),
    # numpy rounds an int32 in float64 and converts back with the platform's 32-bit conversion: past
    # int32 it is int32's min, not a wrap (824563, 824587; fuzzb's open 603102)
    "int32_round_minus_one_past_int32_is_int32_min": case(
        "df = pd.DataFrame({'c1': [-2147483647, 2147483647, 2147483644, -15]}).astype({'c1': 'int32'})",
        "df = df.assign(c1=df['c1'].round(-1))\ndf = df.assign(m=df['c1'] // 3)"),
    # group aggregations of Python objects (a str column's fillna(0)) are pandas': the engines raised
    # UnsupportedError while running the plan (823904, 826784)
    "group_first_nunique_of_python_objects": case(
        "df = pd.DataFrame({'k': [None, 'a'], 'c0': [0, -53]}).astype({'k': 'str', 'c0': 'int8'})",
        "df = df.fillna(0)\ndf = df.groupby('c0', sort=False).agg(o0=('k', 'first'), o1=('k', 'nunique'))"),
    "group_max_of_python_objects": case(
        "df = pd.DataFrame({'c0': pd.array([None, ' x '], dtype='string'), 'c1': [-1.5, 77.7]})",
        "df = df.fillna(True)\ndf = df.groupby('c1').max()"),
    # pandas' nullable float / int sums and means are numpy's ``where`` the values are: each run of
    # present values pairwise, the runs in sequence (a missing value moves 1e20 and -1e20 apart) (839932)
    "Float64_mean_runs_between_missing": case(
        "df = pd.DataFrame({'c1': pd.array([1e-300, -0.0, 0.1, -1e+20, 1e+20, nan, -1.5, 59.835981], dtype='Float64')})",
        "df = pd.concat([df.mean(numeric_only=True), df.sum(numeric_only=True)])"),
    # a DataFrame reduction of one double[pyarrow] column keeps pyarrow's NaN made by the values (its
    # row is the block's result as it is); over several columns pandas sets the row value by value: NA
    "arrow_double_frame_sum_of_inf_and_minus_inf_is_nan": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([-inf, inf], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.sum(numeric_only=True)"),
    "arrow_double_frame_sum_two_columns_is_na": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([-inf, inf], dtype=pd.ArrowDtype(pa.float64())), "
        "'c3': pd.array([1.5, None], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.mean()"),
    # a datetime mean is pandas' nanmean: the ticks summed as float64 by numpy, / count, truncated
    # (Polars' mean was 256 ns apart) (831729)
    "datetime_ns_mean_is_float64_sum_of_ticks": case(
        "df = pd.DataFrame({'k': ['2020-01-01 12:30:00', '2021-06-15 08:00:01', '2020-01-01 12:30:00', '2020-01-01', None, "
        "'2020-01-01 12:30:00', '2021-06-15 08:00:01', '2021-06-15 08:00:01']}).astype({'k': 'datetime64[ns]'})",
        "df = df['k'].mean()"),
    "datetime_s_frame_mean_and_timedelta_mean": case(
        "df = pd.DataFrame({'k': ['2020-01-01 12:30:00', '2021-06-15 08:00:01', None, '2020-01-01 12:30:01']}).astype({'k': 'datetime64[s]'})",
        "df = df.assign(d=df['k'] - pd.Timestamp('2019-01-01'))\ndf = df.mean()"),
    # an object column of Timestamps with nanoseconds (here pandas' result of nlargest, which the
    # mixed objects send to pandas) lost them in pyarrow's conversion to [us] (839364)
    "object_timestamps_keep_nanoseconds_through_pandas": case(
        "df = pd.DataFrame({'k': [1.0, 3.0], 'c0': [2, 1]}).astype({'c0': 'uint8'})\ndf2 = pd.DataFrame({'k': [1.0], 'x0': ['ba']})",
        "df = df.astype({'k': 'datetime64[ns]'})\ndf = pd.concat([df, df2], ignore_index=True)\n"
        "df = df.nlargest(2, 'c0', keep='last')\ndf = df.sort_values(['x0'], ascending=False, na_position='first', kind='stable')"),
    # numpy uint64 to an Arrow string: pandas boxes the values through pyarrow's inference of Python
    # ints, OverflowError past int64 (839914)
    "uint64_past_int64_astype_arrow_string_overflowerror": arrow_case(
        "df = pd.DataFrame({'c1': [18446744073709551614]}).astype({'c1': 'uint64'})",
        "df = df.astype({'c1': pd.ArrowDtype(pa.large_string())})"),
    "uint64_astype_arrow_string": arrow_case(
        "df = pd.DataFrame({'c1': [5, 7]}).astype({'c1': 'uint64'})", "df = df.astype({'c1': pd.ArrowDtype(pa.string())})"),
    # found by the check campaign (seeds 845000-845399): a Timestamp literal lost its nanoseconds in
    # the CPU lowering (a Python datetime): x < Timestamp(38 ns) was x < 0 (845128)
    "datetime_ns_lt_timestamp_with_nanoseconds": case(
        "df = pd.DataFrame({'c1': [1e-300, 5.0, 38.0]})",
        "df = df.astype({'c1': 'datetime64[ns]'})\ndf = df[(df['c1'] < pd.Timestamp('1970-01-01 00:00:00.000000038'))]"),
    # a whole column's median is numpy's: the middle pair averaged as (a + b) / 2 (-inf with a
    # number is -inf; Polars' interpolation gave NaN) (845108)
    "median_of_minus_inf_middle_is_minus_inf": case(
        "df = pd.DataFrame({'c2': [-inf, -inf, 2.25, 39.0], 'i': [1, 2**60 + 1, 3, 2**62]})", "df = df.median(numeric_only=True)"),
    # concat fills a child's missing object column with NaN, whatever marker the column's own missing
    # values have (None for decimals' objects, NA for a nullable dtype's): the column's marker is NaN's
    # (831826, 839908; a column holding both markers is not representable - new O)
    "decimal_objects_concat_missing_side_nan": arrow_case(
        "df = pd.DataFrame({'c2': pd.array(['-0.01'], dtype=" + DEC + ")})\ndf2 = pd.DataFrame({'x1': [5]}).astype({'x1': 'int32'})",
        "df = df.astype({'c2': 'object'})\ndf = pd.concat([df, df2], ignore_index=True)"),
    "boolean_objects_concat_missing_side_nan": case(
        "df = pd.DataFrame({'c2': pd.array([None, True], dtype='boolean')})\ndf2 = pd.DataFrame({'x0': [1]}).astype({'x0': 'int8'})",
        "df = df.astype({'c2': 'object'})\ndf = df.dropna()\ndf = pd.concat([df, df2], ignore_index=False)"),
    "dates_concat_missing_side_nan": case(
        "df = pd.DataFrame({'t': ['2020-01-01']}).astype({'t': 'datetime64[ns]'})\ndf2 = pd.DataFrame({'x': [1]})",
        "df = df.assign(t=df['t'].dt.date)\ndf = pd.concat([df2, df])"),
    # a group's first / last of an object column with no value in the group is None (pandas' object
    # kernels), whatever marker the column's missing values had (833093)
    "object_group_last_of_only_missing_is_none": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), "
        "'c0': pd.array([False], dtype=pd.ArrowDtype(pa.bool_())), 'c3': [3]}).astype({'c3': 'uint32'})\n"
        "df2 = pd.DataFrame({'k': pd.array(['2021-06-15'], dtype=pd.ArrowDtype(pa.date32())), 'x0': [True]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.astype({'c0': 'str'})\ndf = df.groupby('c3', sort=True).last()"),
    "object_families_group_first_last_of_only_missing_is_none": case(
        "df = pd.DataFrame({'k': [1, 1, 2], 'f': [nan, nan, 1.5], 'b': pd.array([None, None, True], dtype='boolean'), "
        "'t': pd.to_datetime([None, None, '2020-01-01']), 's': pd.Series([None, None, 'a'], dtype=object)})",
        "df = df.astype({'f': object, 'b': object, 't': object})\n"
        "df = pd.concat([df.groupby('k').last(), df.groupby('k').agg(x=('f', 'first'), y=('s', 'first'))], axis=1)"),
    # a merge's missing side of an object column is NaN too (dates from .dt.date showed NaT) (847257,
    # found by the check campaign 846000-847499)
    "dates_merge_outer_missing_side_nan": case(
        "df = pd.DataFrame({'k': ['a'], 'c0': ['1970-01-01'], 'c4': [-0.0]}).astype({'c0': 'datetime64[ms]'})\n"
        "df2 = pd.DataFrame({'k': ['b']})",
        "df = df[df['c4'].isin([])]\ndf = df.assign(n=df['c0'].dt.date)\ndf = df.merge(df2, on='k', how='outer')"),
    "boolean_objects_merge_left_missing_side_nan": case(
        "df = pd.DataFrame({'k': [1, 2], 'b': pd.array([True, False], dtype='boolean')})\ndf2 = pd.DataFrame({'k': [3, 1]})",
        "df = df.assign(b=df['b'].astype(object))\ndf = df2.merge(df, on='k', how='left')"),
}


# open on the device's GPU engine only (none now: "Float64_mean_runs_between_missing" was, where the
# whole-column float sum was CUB's tree; session 7 sums in numpy's order, engines/gpu/pairwise.py)
_ON_DEVICE = os.environ.get("GFRAME_ENGINE") == "gpu" and not getattr(sys.modules.get("pylibcudf"), "__host_stand_in__", False)
_FZ6CPU2_DEVICE_OPEN: dict[str, str] = {}


@pytest.mark.parametrize("code", [
    pytest.param(code, id=name, marks=[pytest.mark.xfail(strict=True, reason=_FZ6CPU2_DEVICE_OPEN[name])]
                 if _ON_DEVICE and name in _FZ6CPU2_DEVICE_OPEN else [])
    for name, code in FZ6CPU2_CASES.items()])
def test_fuzz_regression_fz6cpu2(code: str) -> None:
    check_code(code)


def test_fz6cpu2_seconds_past_ms_range_refused_not_wrapped() -> None:
    """CPU [s] times past its [ms] range are never wrapped (836136).

    The CPU engine holds datetime64[s] as [ms] (Polars has no [s]); seconds past int64 / 1000 wrapped
    silently (year -292277022657 became 1970-01-01 00:00:01). They were refused; since fz8cpu a
    frame holding them keeps them as host objects of their dtype (``interop._past_seconds_range``),
    so they come back as pandas has them, both when a frame holds them and when an int column is
    cast to them. (The GPU engine holds [s] as it is.)
    """
    import os

    if os.environ.get("GFRAME_ENGINE", "").lower() == "gpu":
        pytest.skip("CPU-engine representation: the GPU engine holds [s] natively")
    import numpy as np
    import pandas

    import gframe as gpd

    secs = pandas.Series(np.array([-9223372036854775807, 5], dtype=np.int64))
    want = pandas.DataFrame({"c0": secs.astype("datetime64[s]")}).head(1)
    pandas.testing.assert_frame_equal(gpd.DataFrame({"c0": secs.astype("datetime64[s]")}).head(1).to_pandas(), want)
    want = pandas.DataFrame({"c0": secs, "c1": [1, 2]}).astype({"c0": "datetime64[s]"}).head(1)
    got = gpd.DataFrame({"c0": secs, "c1": [1, 2]}).astype({"c0": "datetime64[s]"}).head(1).to_pandas()
    pandas.testing.assert_frame_equal(got, want)
    got = gpd.DataFrame({"c0": secs, "c1": [1, 2]}).assign(c0=lambda d: d.c0 * 1).astype({"c0": "datetime64[s]"})
    pandas.testing.assert_frame_equal(got.to_pandas(), pandas.DataFrame({"c0": secs, "c1": [1, 2]}).astype({"c0": "datetime64[s]"}))
    ok = gpd.DataFrame({"c0": [1709164800, 5]}).astype({"c0": "datetime64[s]"}).head(2).to_pandas()
    assert ok["c0"].tolist() == [pandas.Timestamp("2024-02-29"), pandas.Timestamp(5, unit="s")]
# session 6, fz6cpu1
FZ6CPU1_CASES: dict[str, str] = {
    # B1: a decimal's group median is typed by the data (pandas goes through object numpy and back to
    # Arrow): the decimal type with no groups, null[pyarrow] where every median is missing, else double
    "decimal_group_median_no_groups_keeps_decimal": arrow_case(
        f"df = pd.DataFrame({{'c2': [], 'c3': pd.array([], dtype={DEC})}}).astype({{'c2': 'float32'}})",
        "df = df.groupby('c2').median()"),
    "decimal_group_median_all_missing_is_null_type": arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array([None, None], dtype={DEC}), 'c2': [265691, 3]}}).astype({{'c2': 'uint64'}})",
        "df = df.groupby('c2')['c1'].median()"),
    "decimal_group_median_named_agg_all_missing": arrow_case(
        f"df = pd.DataFrame({{'k': [3], 'c0': [inf], 'c3': pd.array([None], dtype={DEC})}}).astype({{'c0': 'float32'}})",
        "df = df.groupby('k').agg(o0=('c3', 'median'), o1=('c0', 'median'))"),
    "decimal_group_median_values_is_double": arrow_case(
        f"df = pd.DataFrame({{'k': [1, 1, 2, 3], 'v': pd.array([Decimal('1.5'), Decimal('2.25'), None, Decimal('-3')], dtype={DEC})}})",
        "df = df.groupby('k').agg(a=('v', 'median'), b=('v', 'mean'))"),
    # B2: set_index of a narrow signed int column whose type the data decides (a merge's key, a side
    # that may miss rows) forms pandas' RangeIndex (int64) as a typed one does
    "merge_outer_key_int32_set_index_empty_is_range": case(
        "df = pd.DataFrame({'k': []}).astype({'k': 'int32'})\ndf2 = pd.DataFrame({'k': []}).astype({'k': 'int32'})",
        "df = df.merge(df2, on='k', how='outer', sort=True)\ndf = df.set_index('k')"),
    "merge_outer_int32_side_set_index_range_is_int64": case(
        "df = pd.DataFrame({'k': ['ab', 'b'], 'c1': [-462668, 3]}).astype({'c1': 'int32'})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': 'str'})",
        "df = df.merge(df2, on='k', how='outer', sort=True)\ndf = df.set_index('c1')"),
    "merge_left_int16_side_missing_set_index_is_float": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [1, 3], 'x': [4, 8]}).astype({'x': 'int16'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.set_index('x')"),
    "merge_left_int16_side_not_range_kept": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [1, 2, 3], 'x': [4, 8, 9]}).astype({'x': 'int16'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.set_index('x')"),
    # B3: pandas 3.1's multi-key sort_values with na_position='first' fills a numpy float key's NaN
    # with -inf (+inf descending): NaN ties with it, the tie kept in order / ordered by the next key
    "sort_values_two_keys_nan_first_ties_minus_inf": case(
        "df = pd.DataFrame({'k': [3, 3], 'c1': [-inf, nan]})",
        "df = df.sort_values(['c1', 'k'], ascending=[True, True], na_position='first', kind='stable')"),
    "sort_values_two_keys_nan_first_float32_categorical": case(
        "df = pd.DataFrame({'k': ['b', 'b'], 'c0': [-inf, nan]}).astype({'k': pd.CategoricalDtype(['b', 'd'], ordered=True), "
        "'c0': 'float32'})",
        "df = df.sort_values(['c0', 'k'], ascending=[True, True], na_position='first', kind='stable')"),
    "sort_values_two_keys_nan_first_descending_ties_inf": case(
        "df = pd.DataFrame({'c1': [-inf, nan, 2.0, -inf, inf, nan], 'k': [3, 1, 2, 0, 5, 0]})",
        "df = df.sort_values(['c1', 'k'], ascending=[False, True], na_position='first')"),
    "sort_values_two_keys_nan_first_second_key": case(
        "df = pd.DataFrame({'c1': [-inf, nan, 2.0, -inf, inf, nan], 'k': [3, 1, 3, 0, 3, 3]})",
        "df = df.sort_values(['k', 'c1'], na_position='first')"),
    # B4: fillna of a column whose type the data decides (a merge's side that may miss rows) with a
    # value other than a number: pandas' object column where something is missing (pandas computes it)
    "merge_left_missing_uint16_fillna_str_is_object": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['ab'], dtype=pd.ArrowDtype(pa.string()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.string())), 'x0': [7]}).astype({'x0': 'uint16'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.assign(x0=df['x0'].fillna('z'))"),
    "merge_left_missing_ints_frame_fillna_true_is_object": case(
        "df = pd.DataFrame({'k': ['a'], 'c0': [7]}).astype({'c0': 'uint16'})\n"
        "df2 = pd.DataFrame({'k': ['b'], 'x0': [2], 'x1': [4294967295], 'c0': [3]}).astype({'x0': 'int8', 'x1': 'uint32', 'c0': 'uint16'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df[['x0', 'x1', 'c0_x', 'c0_y']]\ndf = df.fillna(True)"),
    "merge_outer_missing_bool_fillna_str_then_groupby": case(
        "df = pd.DataFrame({'k': [None], 'c0': ['3000-01-01']}).astype({'k': 'str', 'c0': 'datetime64[s]'})\n"
        "df2 = pd.DataFrame({'k': ['b'], 'x0': [True]})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.assign(x0=df['x0'].fillna('b'))\n"
        "df = df.groupby('x0', sort=True).agg(o0=('c0', 'last'))\ndf = df[df['o0'].isna()]"),
    "merge_left_nothing_missing_int8_fillna_str_kept": case(
        "df = pd.DataFrame({'k': ['a']})\ndf2 = pd.DataFrame({'k': ['a'], 'x0': [2]}).astype({'x0': 'int8'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.assign(x0=df['x0'].fillna('z'))"),
    "merge_left_missing_int8_fillna_number_native": case(
        "df = pd.DataFrame({'k': ['a', 'b']})\ndf2 = pd.DataFrame({'k': ['a'], 'x0': [2]}).astype({'x0': 'int8'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.fillna(0)"),
    # B5: an object column's group keys: pandas infers the Index from the values (ints int64, floats
    # float64) and, with no groups, has nothing to infer from (object)
    "object_int32_group_key_level_is_int64": case(
        "df = pd.DataFrame({'c0': [-2147483647, 5], 'c1': [100, 7]}).astype({'c0': 'int32', 'c1': 'uint64'})",
        "df = df.astype({'c0': 'object'})\ndf = df.assign(n=df['c1'] * 2)\ndf = df.groupby(['n', 'c0']).max()"),
    "object_int_group_key_no_groups_is_object": case(
        "df = pd.DataFrame({'k': [0], 'c1': [1.0]})",
        "df = df[df['c1'].between(inf, 0.1, inclusive='both')]\ndf = df.astype({'k': 'object'})\ndf = df.groupby('k').max()"),
    "object_key_shifted_multiindex_no_groups_level_is_object": case(
        "df = pd.DataFrame({'c0': [-2147483647], 'c1': [100]}).astype({'c0': 'int32', 'c1': 'uint64'})",
        "df = df.astype({'c0': 'object'})\ndf = df.assign(n=df['c1'].shift(1))\ndf = df.groupby(['n', 'c0']).max()"),
    "object_float32_group_key_as_column_is_float64": case(
        "df = pd.DataFrame({'k': [1.5, 2.0, 1.5], 'v': [1, 2, 3]}).astype({'k': 'float32'})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('k', as_index=False).sum()"),
    "object_uint64_group_key_past_int64_is_uint64": case(
        "df = pd.DataFrame({'k': [2**63 + 1, 2], 'v': [1, 2]}).astype({'k': 'uint64'})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('k').v.sum()"),
    "object_int_value_counts_keeps_object": case(
        "df = pd.DataFrame({'k': [3, 3, 1]}).astype({'k': 'int16'})", "df = df.astype({'k': 'object'})\ndf = df['k'].value_counts()"),
    # B6: a group-by with observed=False whose only columns are its keys keeps the grouped frame's
    # column labels' Index type (str) for its empty columns (CompleteGroups dropped it: RangeIndex)
    "observed_false_count_no_columns_then_max_index_is_str": case(
        "df = pd.DataFrame({'k': [None], 'c0': pd.array([True], dtype='boolean')})"
        ".astype({'k': pd.CategoricalDtype(['b', 'd', 'a', 'c'], ordered=False)})",
        "df = df.groupby(['c0', 'k'], sort=True, observed=False).count()\ndf = df.max(numeric_only=True)"),
    "observed_false_nunique_keys_only_columns_are_str": case(
        "df = pd.DataFrame({'k': ['a', 'b'], 'c0': ['d', 'a']}).astype({'c0': pd.CategoricalDtype(['d', 'a', 'e'], ordered=True)})",
        "df = df[['c0']]\ndf = df.groupby('c0', sort=False, observed=False).nunique()"),
    # B7: a nullable (masked) array's value_counts(dropna=False) appends the NA count after the values'
    # counts: NA's group is last before the (stable) sort by count, wherever it appeared
    "Float64_value_counts_dropna_false_na_last_in_ties": case(
        "df = pd.DataFrame({'c1': pd.array([None, 49.59], dtype='Float64')})", "df = df['c1'].value_counts(dropna=False)"),
    "Int64_value_counts_dropna_false_unsorted_na_last": case(
        "df = pd.DataFrame({'c1': pd.array([None, 3, 1, None, 3, 1, 2], dtype='Int64')})",
        "df = df['c1'].value_counts(dropna=False, sort=False)"),
    "boolean_value_counts_dropna_false_ascending": case(
        "df = pd.DataFrame({'c1': pd.array([None, True, False, None, True], dtype='boolean')})",
        "df = df['c1'].value_counts(dropna=False, ascending=True)"),
    "string_value_counts_dropna_false_na_where_it_appears": case(
        "df = pd.DataFrame({'c1': pd.array([None, 'b', 'a'], dtype='string')})", "df = df['c1'].value_counts(dropna=False)"),
    # B8: an object column's sum / prod / min / max are Python's (values.sum() of objects): Python
    # scalars, the int 0 (1) over no values, NaN (a Python float) for a missing min / max
    "object_datetime_fillna_int_then_empty_sum_is_int_zero": case(
        "df = pd.DataFrame({'c0': ['b'], 'c2': [None]}).astype({'c0': pd.CategoricalDtype(['b'], ordered=True), 'c2': 'datetime64[us]'})",
        "df = df.fillna(0)\ndf = df[df['c0'].isna()]\ndf = df.fillna(True)\ndf = df['c2'].sum()"),
    "object_int_sum_is_python_int": case("df = pd.DataFrame({'c': [1, 2]}).astype({'c': 'object'})", "df = df['c'].sum()"),
    "object_float_empty_prod_is_int_one": case(
        "df = pd.DataFrame({'c': [0.0, 1.5]}).astype({'c': 'object'})", "df = df[df['c'] > 5]\ndf = df['c'].prod()"),
    "object_float_zero_sum_is_python_float": case("df = pd.DataFrame({'c': [0.0]}).astype({'c': 'object'})", "df = df['c'].sum()"),
    "object_bool_max_is_python_bool": case("df = pd.DataFrame({'c': [True, False]}).astype({'c': 'object'})", "df = df['c'].max()"),
    "object_missing_min_is_python_nan": case("df = pd.DataFrame({'c': [None]}).astype({'c': 'object'})", "df = df['c'].min()"),
    # B9: the sum / product of ints whose type the data decides (7 // uint32) is uint64 for unsigned
    # ints, int64 for signed ones (Polars' product of unsigned ints is Int64, its sum keeps the width)
    "python_int_floordiv_uint32_prod_is_uint64": case(
        "df = pd.DataFrame({'c1': [1]}).astype({'c1': 'uint32'})", "df = df.assign(c1=7 // df['c1'])\ndf = df['c1'].prod()"),
    "python_int_floordiv_uint32_sum_is_uint64": case(
        "df = pd.DataFrame({'c1': [1, 2]}).astype({'c1': 'uint32'})", "df = df.assign(c1=7 // df['c1'])\ndf = df['c1'].sum()"),
    "python_int_floordiv_int8_prod_is_int64": case(
        "df = pd.DataFrame({'c1': [1, 2]}).astype({'c1': 'int8'})", "df = df.assign(c1=7 // df['c1'])\ndf = df['c1'].prod()"),
    "python_int_floordiv_uint8_zero_sum_is_float": case(
        "df = pd.DataFrame({'c1': [0, 2]}).astype({'c1': 'uint8'})", "df = df.assign(c1=7 // df['c1'])\ndf = df['c1'].sum()"),
    # B10: pandas 3.1 takes numpy's reduceat (a float32 group mean in float64) only where its group
    # codes are monotonic - the -1 of a row a missing key drops included: such rows must come first
    "float32_group_mean_missing_key_after_rows_is_float32": case(
        "df = pd.DataFrame({'c0': pd.array([1, None], dtype='Int64'), 'c1': [-71.0, 51.0], 'c3': [1, 5]})"
        ".astype({'c1': 'float32', 'c3': 'uint16'})",
        "df = df.groupby(['c0', 'c3']).agg(o0=('c1', 'std'), o1=('c1', 'sum'), o2=('c1', 'mean'))"),
    "float32_group_mean_missing_keys_first_is_float64": case(
        "df = pd.DataFrame({'c0': pd.array([None, None, 1, 2], dtype='Int64'), 'c1': [0.1, 1.1, 2.1, 3.1]}).astype({'c1': 'float32'})",
        "df = df.groupby('c0').agg(o=('c1', 'mean'))"),
    "float32_group_mean_missing_key_between_is_float32": case(
        "df = pd.DataFrame({'c0': pd.array([1, None, 2], dtype='Int64'), 'c1': [0.1, 1.1, 2.1]}).astype({'c1': 'float32'})",
        "df = df.groupby('c0', sort=False).agg(o=('c1', 'mean'))"),
    # B11: reset_index moving an object index level into a column: pandas infers the column's dtype
    # from the values (Timedeltas timedelta64, ints int64, strs str) - pandas computes it
    "object_duration_value_counts_reset_index_is_timedelta": arrow_case(
        "df = pd.DataFrame({'c2': pd.array([1000000000000000], dtype=pd.ArrowDtype(pa.duration('us')))})",
        "df = df.astype({'c2': 'object'})\ndf = df['c2'].value_counts().reset_index()"),
    "object_int32_value_counts_reset_index_is_int64": case(
        "df = pd.DataFrame({'c': [3, 1, 3]}).astype({'c': 'int32'})", "df = df.astype({'c': 'object'})\ndf = df['c'].value_counts().reset_index()"),
    "object_str_value_counts_reset_index_is_str": case(
        "df = pd.DataFrame({'c': ['a', 'b', 'a']})", "df = df.astype({'c': 'object'})\ndf = df['c'].value_counts().reset_index()"),
    # B12: a merge's numpy bool column on a side that may miss rows is object exactly where the merge
    # left a row missing, and stays object when a later operation drops those rows (head, dropna, a
    # filter); its counts' index is object; a concat missing it from a child makes it object
    "merge_left_missing_bool_then_head_stays_object": case(
        "df = pd.DataFrame({'k': [3.0, 2.0, 1.0]})\ndf2 = pd.DataFrame({'k': [2.0, 3.0, 3.0, 2.0, 2.0], 'x0': [True, True, False, False, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.head(5)"),
    "merge_outer_missing_bool_then_dropna_stays_object": case(
        "df = pd.DataFrame({'k': ['2020-01-01'], 'c0': [True]}).astype({'k': 'datetime64[ns]'})\n"
        "df2 = pd.DataFrame({'k': ['2021-06-15 08:00:01']}).astype({'k': 'datetime64[ns]'})",
        "df = df.merge(df2, on='k', how='outer', sort=True)\ndf = df.dropna()"),
    "merge_outer_missing_bool_then_filter_stays_object": case(
        "df = pd.DataFrame({'k': ['ab'], 'c0': [0], 'c3': [False]}).astype({'c0': 'uint8'})\ndf2 = pd.DataFrame({'k': ['b']})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df[df['c0'].between(1.0, 1.5, inclusive='both')]"),
    "merge_right_categorical_keys_missing_bool_dropna_subset": case(
        "df = pd.DataFrame({'k': ['a'], 'c2': ['1970-01-01'], 'c3': [False]}).astype({'k': pd.CategoricalDtype(['d', 'a'], ordered=False), "
        "'c2': 'datetime64[ms]'})\ndf2 = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d', 'a'], ordered=False)})",
        "df = df.merge(df2, on='k', how='right')\ndf = df.dropna(subset=['c2'])"),
    "merge_left_all_missing_bool_value_counts_index_object": case(
        "df = pd.DataFrame({'k': [1]})\ndf2 = pd.DataFrame({'k': [3], 'x0': [True]})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df['x0'].value_counts(ascending=True)"),
    "merge_right_empty_then_concat_missing_bool_is_object": case(
        "df = pd.DataFrame({'k': [2.0], 'c2': [True]})\ndf2 = pd.DataFrame({'k': []}).astype({'k': 'float64'})",
        "df = df.merge(df2, on='k', how='right')\ndf = pd.concat([df, df2], ignore_index=True)"),
    "merge_left_nothing_missing_bool_then_head_stays_bool": case(
        "df = pd.DataFrame({'k': [3.0, 2.0]})\ndf2 = pd.DataFrame({'k': [2.0, 3.0], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.head(1)"),
    "merge_left_missing_bool_selected_renamed_then_sliced": case(
        "df = pd.DataFrame({'k': [3.0, 2.0, 1.0]})\ndf2 = pd.DataFrame({'k': [2.0, 3.0], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df[['x0']].rename(columns={'x0': 'y'})\ndf = df.iloc[:1]"),
    # B13 (fresh seed 840511): a merge's bools the merge left all missing as a group key: a level of
    # no values (object), or NaN's group (float64) with dropna=False; object keys of no values alike
    "merge_left_all_missing_bool_group_key_level_is_object": case(
        "df = pd.DataFrame({'k': pd.array([None], dtype='Int64')})\ndf2 = pd.DataFrame({'k': pd.array([1], dtype='Int64'), 'x0': [False]})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.groupby(['k', 'x0']).first()"),
    "merge_left_all_missing_bool_group_key_dropna_false_is_float": case(
        "df = pd.DataFrame({'k': pd.array([None], dtype='Int64')})\ndf2 = pd.DataFrame({'k': pd.array([1], dtype='Int64'), 'x0': [False]})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.groupby('x0', dropna=False).size()"),
    "merge_left_nothing_missing_bool_group_key_is_bool": case(
        "df = pd.DataFrame({'k': pd.array([1], dtype='Int64')})\ndf2 = pd.DataFrame({'k': pd.array([1], dtype='Int64'), 'x0': [False]})",
        "df = df.merge(df2, on='k', how='left', sort=True)\ndf = df.groupby(['k', 'x0']).first()"),
    "object_all_missing_group_key_dropna_false_is_float": case(
        "df = pd.DataFrame({'k': [nan, nan], 'v': [1, 2]})", "df = df.astype({'k': 'object'})\ndf = df.groupby('k', dropna=False).v.sum()"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ6CPU1_CASES.items()])
def test_fuzz_regression_fz6cpu1(code: str) -> None:
    check_code(code)


# session 7, fz7cpu
FZ7CPU_CASES = {
    # 876501, 882797: pandas tells one ArrowDtype 64-bit column's duplicates apart as float64 where a
    # value is missing (ArrowExtensionArray.duplicated: to_numpy(na_value=0)); over several columns exactly
    "arrow_int64_drop_duplicates_with_missing_compares_as_float": arrow_case(
        "df = pd.DataFrame({'c2': pd.array([-9223372036854775807, -9223372036854775808, None], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.drop_duplicates(subset=['c2'], keep=False)"),
    "arrow_int64_drop_duplicates_keep_last_with_missing": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None, 9223372036854775807, 9223372036854775806], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.drop_duplicates(subset=['c0'], keep='last')"),
    "arrow_int64_drop_duplicates_without_missing_is_exact": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([1, 9223372036854775807, 9223372036854775806], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.drop_duplicates(subset=['c0'], keep='last')"),
    "arrow_uint64_series_duplicated_with_missing": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None, 18446744073709551615, 18446744073709551614], dtype=pd.ArrowDtype(pa.uint64()))})",
        "df = df['c0'].duplicated()"),
    "arrow_int64_two_column_drop_duplicates_is_exact": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None, 9223372036854775807, 9223372036854775806], dtype=pd.ArrowDtype(pa.int64())), 'c1': [1, 1, 1]})",
        "df = df.drop_duplicates(keep=False)"),
    # 874990: an ArrowDtype column's mean / float sum is pyarrow's (its summation order), not numpy's
    "arrow_int64_mean_is_pyarrows": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([5, -9223372036854775807, 9223372036854775807, 1, 0, 3, 3, 1], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df['c0'].mean()"),
    "arrow_float64_sum_with_missing_is_pyarrows": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([1e20, None, -1e20, 3.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df['c0'].sum()"),
    "arrow_float32_mean_is_pyarrows": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([1e8, 1.0, -1e8, 3.5] * 10, dtype=pd.ArrowDtype(pa.float32()))})",
        "df = df['c0'].mean()"),
    # 889709: pandas' boolean + and * are missing where an operand is (not Kleene's True | NA = True)
    "bool_plus_boolean_missing_is_missing": case(
        "df = pd.DataFrame({'k': [True, False], 'c0': pd.array([None, None], dtype='boolean')})",
        "df = df.assign(k=df['k'] + df['c0'], m=df['c0'] * df['k'])"),
    # 877794: appended rows of an object column keep each frame's missing value (pd.NA beside NaN)
    "concat_object_na_with_frame_lacking_column": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([None], dtype=pd.ArrowDtype(pa.int64()))})\n"
        "df2 = pd.DataFrame({'x1': pd.array([1.0], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.astype({'c1': 'object'})\ndf = pd.concat([df, df2], ignore_index=False)"),
    "concat_object_na_with_object_nan": case(
        "df = pd.DataFrame({'c1': pd.array([None, 1], dtype='Int64')})\ndf2 = pd.DataFrame({'c1': [None, 1.0]}).astype(object)",
        "df = df.astype({'c1': 'object'})\ndf = pd.concat([df, df2], join='inner')"),
    # 874901: an object column of tz-aware and naive Timestamps (pandas' concat of the two) keeps each
    # as it is when it comes back to gframe (pyarrow made them all UTC)
    "concat_tz_aware_with_naive_then_assign_keeps_each": arrow_case(
        "df = pd.DataFrame({'k': ['2020-01-01'], 'c1': [-7]}).astype({'k': 'datetime64[ns]', 'c1': 'int32'})\n"
        "df2 = pd.DataFrame({'k': ['2020-01-01 12:30:00']}).astype({'k': 'datetime64[ns]'})",
        "df = df.astype({'k': pd.ArrowDtype(pa.timestamp('us', tz='UTC'))})\ndf = pd.concat([df, df2], ignore_index=True)\n"
        "df = df.assign(c1=df['c1'].round(-1))"),
    # 872113, 873001, 873043, 879644, 880043: a merge's bools the merge left missing stay object through a
    # concat's rows, an aligned mask (a filter pandas computed), and a later merge's non-key column
    "merge_outer_missing_bool_dropna_concat_self_is_object": case(
        "df = pd.DataFrame({'k': [1]})\ndf2 = pd.DataFrame({'k': [3], 'c0': [True]})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.dropna()\ndf = pd.concat([df, df.head(2)], ignore_index=False)"),
    "merge_outer_empty_bool_filter_with_str_is_object": case(
        "df = pd.DataFrame({'k': [3]}).astype({'k': 'int32'})\ndf2 = pd.DataFrame({'k': [], 'x0': []}).astype({'k': 'int32', 'x0': 'bool'})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df[(df['x0'] <= 'b')]"),
    "merge_outer_missing_bool_isin_then_str_replace_is_object": case(
        "df = pd.DataFrame({'k': [2.0], 'c1': [True]})\ndf2 = pd.DataFrame({'k': [1.0]})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df[df['c1'].isin(['Ab'])]\ndf = df.assign(n=df['c1'].str.replace('a', 'X'))"),
    "merge_outer_missing_bool_dropna_then_merge_left_is_object": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2021-06-15'], dtype=pd.ArrowDtype(pa.date32())), 'c0': pd.array(['ba'], dtype='string'), "
        "'c2': [True]})\ndf2 = pd.DataFrame({'k': pd.array(['1999-12-31'], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.dropna(subset=['c0'])\ndf = df.merge(df2, on='k', how='left')"),
    "merge_left_nothing_missing_bool_then_merge_left_missing_is_object": case(
        "df = pd.DataFrame({'k': [1, 2]})\ndf2 = pd.DataFrame({'k': [1, 2], 'b': [True, False]})\ndf3 = pd.DataFrame({'j': [5]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df3.merge(df, left_on='j', right_on='k', how='left')"),
    "merge_left_nothing_missing_bool_then_merge_inner_stays_bool": case(
        "df = pd.DataFrame({'k': [1, 2]})\ndf2 = pd.DataFrame({'k': [1, 2], 'b': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.merge(df2[['k']], on='k', how='inner')"),
    "str_endswith_merge_right_missing_then_filter_with_str_is_object": case(
        "df = pd.DataFrame({'k': [3.0], 'c0': ['abc']})\ndf2 = pd.DataFrame({'k': [2.0]})",
        "df = df.assign(n=df['c0'].str.endswith('b'))\ndf = df.merge(df2, on='k', how='right', sort=True)\ndf = df[(df['n'] >= 'Ab')]"),
    # 878175 (optimizer on only): an aligned assign over a frame the optimizer pruned to its index (no
    # data column) - the CPU HConcat's hstack refused Polars' zero-height empty frame
    "where_set_index_cummax_astype_int32_pruned_to_index": arrow_case(
        "df = pd.DataFrame({'k': ['a'], 'c0': [2], 'c1': pd.array(['2020-01-02'], dtype=pd.ArrowDtype(pa.date32()))}).astype({'c0': 'uint16'})",
        "df = df.assign(c0=df['c0'].where(df['c0'] > 5, None))\ndf = df.set_index('c1')\ndf = df.assign(n=df['c0'].cummax())\n"
        "df = df.astype({'n': 'int32'})"),
    # 871145, 885627: astype('category') of numpy floats holding -0.0 and 0.0 makes one category, the
    # first zero's, and every zero shows as it (pyarrow's two zeros stay an ArrowDtype's: pandas raises)
    "float32_signed_zeros_astype_category_one_category": case(
        "df = pd.DataFrame({'c1': [-0.0, 0.0]}).astype({'c1': 'float32'})", "df = df.astype({'c1': 'category'})"),
    "float64_zero_then_negative_zero_astype_category": case(
        "df = pd.DataFrame({'c1': [None, 0.0, 2.0, -0.0]})", "df = df.astype({'c1': 'category'})\ndf = df.assign(s=df['c1'].astype('float64'))"),
    # 877116: a missing max / min of a column the data types (a merge's ints, float64 where rows went
    # missing) is numpy's NaN scalar over rows; a merge's bools left missing reduce as objects
    "merge_right_missing_uint16_max_is_numpy_nan": case(
        "df = pd.DataFrame({'k': [0], 'c1': [3]}).astype({'c1': 'uint16'})\ndf2 = pd.DataFrame({'k': [1]})",
        "df = df.merge(df2, on='k', how='right', sort=True)\ndf = df['c1'].max()"),
    "merge_outer_missing_bool_sum_is_python_int": case(
        "df = pd.DataFrame({'k': [0, 2], 'c1': [True, True]})\ndf2 = pd.DataFrame({'k': [1, 0]})",
        "df = df.merge(df2, on='k', how='outer', sort=True)\ndf = df['c1'].sum()"),
    # 883162: pandas 3.1's group mean / median / var / sum / prod of an object column of numbers are object
    "object_group_var_named_agg_is_object": case(
        "df = pd.DataFrame({'k': [0], 'c1': [1]}).astype({'c1': 'uint8'})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('c1', sort=True).agg(o0=('k', 'var'), o1=('k', 'first'))"),
    "object_group_mean_sum_std_of_floats": case(
        "df = pd.DataFrame({'k': [0.5, None, 2.0], 'c1': [1, 1, 2]})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('c1').agg(m=('k', 'mean'), s=('k', 'sum'), d=('k', 'std'), p=('k', 'prod'))"),
    # 887999: a categorical of times cast to a number raises pandas' ValueError (TypeError for Int64)
    "datetime_categorical_astype_int64_raises": case(
        "df = pd.DataFrame({'c0': ['2020-01-01']}).astype({'c0': 'datetime64[s]'})",
        "df = df.astype({'c0': 'category'})\ndf = df.astype({'c0': 'int64'})"),
    "timedelta_categorical_astype_Int64_raises": case(
        "df = pd.DataFrame({'c0': [1]}).astype({'c0': 'timedelta64[ns]'})",
        "df = df.astype({'c0': 'category'})\ndf = df.astype({'c0': 'Int64'})"),
    # 880846: a categorical of numbers cast to a type that cannot hold them all is pandas' cast of the
    # categories (numpy wraps uint16 to uint8; NaN to an int raises; a nullable target refuses fractions)
    "uint16_categorical_astype_uint8_wraps": case(
        "df = pd.DataFrame({'c2': [65534, 4198, 3]}).astype({'c2': 'uint16'})",
        "df = df.astype({'c2': 'category'})\ndf = df.astype({'c2': 'uint8'})"),
    "float_categorical_with_missing_astype_int8_raises": case(
        "df = pd.DataFrame({'c2': [300.0, None]})", "df = df.astype({'c2': 'category'})\ndf = df.astype({'c2': 'int8'})"),
    "float_categorical_astype_Int64_fractions_raise": case(
        "df = pd.DataFrame({'c2': [1.5, 2.0]})", "df = df.astype({'c2': 'category'})\ndf = df.astype({'c2': 'Int64'})"),
    "uint16_categorical_astype_int64_native": case(
        "df = pd.DataFrame({'c2': [3, 4]}).astype({'c2': 'uint16'})", "df = df.astype({'c2': 'category'})\ndf = df.astype({'c2': 'int64'})"),
    # 876174, 879077, 886466: dt.date of a column with rows but no value is datetime64[s] (pandas infers
    # its object array of NaT back), decided at the dt.date (a later head keeps object); ArrowDtype: date32
    "dt_date_of_all_missing_is_datetime64_s": case(
        "df = pd.DataFrame({'c0': [None]}).astype({'c0': 'datetime64[us]'})", "df = df.assign(n=df['c0'].dt.date)"),
    "dt_date_with_a_date_then_head_to_missing_stays_object": case(
        "df = pd.DataFrame({'c0': [None, '2020-01-01']}).astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df.head(1)"),
    "dt_date_all_missing_head_merge_left": case(
        "df = pd.DataFrame({'k': [1, 2], 'c0': [None, None]}).astype({'c0': 'datetime64[s]'})\ndf2 = pd.DataFrame({'k': [2]})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df.head(1)\ndf = df.merge(df2, on='k', how='left')"),
    "arrow_timestamp_dt_date_is_date32": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None, datetime.datetime(2020, 1, 1, 10)], dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.assign(n=df['c0'].dt.date)"),
    # fresh seed 901233: dt.date as a group key keeping the missing key (dropna=False): pandas labels
    # that group NaN (value_counts keeps NaT)
    "dt_date_group_key_dropna_false_missing_label_is_nan": case(
        "df = pd.DataFrame({'c0': ['2020-01-01', None]}).astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df.groupby('n', dropna=False)['c0'].max()"),
    "dt_date_value_counts_dropna_false_keeps_nat": case(
        "df = pd.DataFrame({'c0': ['2020-01-01', None, None]}).astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df['n'].value_counts(dropna=False)"),
    # fresh seed 901011: groupby(observed=False) by a left merge's key over two categoricals of one
    # dtype (its type the data's): pandas adds the unobserved categories' groups
    "merge_left_categorical_key_groupby_observed_false": case(
        "df = pd.DataFrame({'k': ['e'], 'c3': [-1]}).astype({'k': pd.CategoricalDtype(['a', 'd', 'e', 'c', 'b'], ordered=False), "
        "'c3': 'int16'})\ndf2 = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['a', 'd', 'e', 'c', 'b'], ordered=False)})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.groupby('k', observed=False).agg(o0=('c3', 'min'))\n"
        "df = df.groupby('o0', dropna=True).max()"),
    # found on the way: an ArrowDtype operand's arithmetic is pyarrow's - no % (NotImplementedError) and
    # no kernel with a bool operand of any dtype (TypeError naming the dtypes)
    "arrow_bool_plus_arrow_bool_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([True, False], dtype=pd.ArrowDtype(pa.bool_()))})", "df = df['a'] + df['a']"),
    "arrow_int_times_numpy_bool_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([5, 7], dtype=pd.ArrowDtype(pa.int64())), 'b': [True, False]})", "df = df['a'] * df['b']"),
    "python_bool_minus_arrow_double_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([5.5, 7.0], dtype=pd.ArrowDtype(pa.float64()))})", "df = True - df['a']"),
    "arrow_int_mod_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([5, 7], dtype=pd.ArrowDtype(pa.int64()))})", "df = df['a'] % 2"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ7CPU_CASES.items()])
def test_fuzz_regression_fz7cpu(code: str) -> None:
    check_code(code, engine="cpu")  # the CPU engine's residue (fz7gpu has the GPU engine's)
# session 7, fz7gpu
FZ7GPU_CASES = {
    # a whole column's float sum / mean in numpy's pairwise order (8 accumulators per block of up
    # to 128, halves above), from 0, per run of present values for nullable Float64: the GPU engine
    # added in CUB's tree (the device) or row order (the stand-in), and 1e20 - 1e20 cancels with
    # the small values in between differently (class 9; device xfail Float64_mean_runs_between_missing)
    "float64_sum_mean_pairwise_blocks": case(
        "df = pd.DataFrame({'c': [1e20, 1.5, 0.1, nan, 3.3, -0.0, 7.0, 59.835981, -1e20, 2.5, 1e-300, 4.0, 0.25, nan, 8.0, 1.0]})",
        "df = pd.concat([df.sum(), df.mean()])"),
    "float32_sum_mean_pairwise_blocks": case(
        "df = pd.DataFrame({'c': [1e20, 1.5, 0.1, 3.3, 7.0, 59.835981, -0.0, 2.5, -1e20, 1.25] * 30}).astype({'c': 'float32'})",
        "df = pd.concat([df.sum(), df.mean()])"),
    "Float64_sum_mean_runs_of_blocks": case(
        "df = pd.DataFrame({'c': pd.array([1e20, 1.5, 0.1, 3.3, 7.0, 59.8, -0.0, 2.5, -1e20, 4.0, None, 2.0] * 20, dtype='Float64')})",
        "df = pd.concat([df.sum(), df.mean()])"),
    # an int column's mean sums it as float64 in numpy's 8192-value buffers (a casting reduction);
    # libcudf's int64 sum wrapped past 2**63, and rounded past 2**53 in another order
    "int64_mean_in_8192_value_buffers": case(
        "import numpy as np\ndf = pd.DataFrame({'c': np.tile(np.array([2**62, 1000, -2**62, 3, 2**55, 1], dtype='int64'), 1500)})",
        "df = df.mean().to_frame()"),
    "Int64_mean_runs_cut_at_8192": case(
        "import numpy as np\nv = np.zeros(9000, dtype='int64')\nv[0] = 2**62\nv[8189:8195] = 200\n"
        "df = pd.DataFrame({'c': pd.array(v, dtype='Int64')})\ndf.loc[(v == 0), 'c'] = None",
        "df = df.mean().to_frame()"),
    # a group std of float32 is float64 unless every std is within 5e-4 of its float32 rounding
    # (pandas' maybe_downcast_to_dtype after its float64 kernel): the data decides (seed 861648)
    "float32_group_std_float64_when_not_close": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['1999-12-31', '1999-12-31'], dtype=pd.ArrowDtype(pa.date32())), "
        "'c0': [-1e+20, -14.961535]}).astype({'c0': 'float32'})",
        "df = df.groupby('k').agg(o0=('c0', 'std'))\ndf = df.groupby('o0').nunique()"),
    "float32_group_std_kinds_by_the_data": case(
        "df = pd.DataFrame({'k': [1, 1, 2, 2, 3], 'a': [1.5, 2.5, 3e4, 7e4 + 0.7, 3.0], 'b': [1.5, 2.5, 1e4, 2e4, None]})"
        ".astype({'a': 'float32', 'b': 'Float32'})",
        "df = df.groupby('k', sort=False).agg(sa=('a', 'std'), sb=('b', 'std'))"),
    # astype(int64 / int32) of a finite float past the type's range is its minimum, numpy's x86 cast
    # (the CPU engine raised Polars' strict-cast error, libcudf saturated to 2**63 - 1; seed 864910)
    "float_astype_int64_past_range_is_min": case(
        "df = pd.DataFrame({'k': [1.0], 'c0': [-9223372036854775808]})",
        "df = df.assign(n=df['k'] - df['c0'])\ndf = df.astype({'n': 'int64'})"),
    "float_astype_int32_int64_past_range_is_min": case(
        "df = pd.DataFrame({'a': [9.3e18, -9.3e18, 1.9, -2.7, 3e9, -2147483648.5, -2147483649.0, 2147483647.9]})",
        "df = df.assign(b=df['a'].astype('float32'))\ndf = df.astype({'a': 'int64', 'b': 'int32'})"),
    # a group std of a timedelta column is pandas' (a timedelta truncated to the unit, NaT for one
    # row): Polars has no std of a duration, the CPU engine raised (seed 862963; the device gave float NaN)
    "timedelta_group_std_after_datetime_std": case(
        "df = pd.DataFrame({'k': [False], 'c0': ['2020-01-01 12:30:00']}).astype({'c0': 'datetime64[s]'})",
        "df = df.groupby('k', dropna=True).agg(o0=('c0', 'max'), o1=('c0', 'std'))\n"
        "df = df.groupby('o0', sort=True).agg(o0=('o1', 'count'), o1=('o1', 'std'), o2=('o1', 'last'))\ndf = df.set_index('o1')"),
    "timedelta_group_std_and_sum": case(
        "df = pd.DataFrame({'k': [1, 1, 2, 2, 2], 't': pd.to_timedelta([1, 4, 2, 7, 30], unit='s')})",
        "df = df.groupby('k').agg(s=('t', 'std'), m=('t', 'sum'), c=('t', 'count'))"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ7GPU_CASES.items()])
def test_fuzz_regression_fz7gpu(code: str) -> None:
    check_code(code)


@pytest.mark.parametrize("op", ["row_sum", "row_mean", "median", "series_add_zero", "zero_add_series", "sum", "mean"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "Float64", "double[pyarrow]"])
def test_fz7gpu_sign_of_zero_matches_pandas(op: str, dtype: str) -> None:
    """-0.0 where pandas gives -0.0, 0.0 where it gives 0.0 (the fuzzer's comparison ignores the
    sign of a zero). numpy's reductions start from 0 (a row sum of -0.0 is 0.0, so is numpy's
    median, a ``mean`` of the middle values); Polars folded ``x + 0`` to ``x`` (the CPU engine's
    row sums were -0.0); pyarrow's median keeps the middle value (-0.0)."""
    import numpy as np
    import pandas

    import gframe as gpd

    data = pandas.DataFrame({"x": [-0.0, -0.0, -0.0, 1.5, None], "y": [-0.0, -0.0, None, -1.5, None]}).astype(dtype)
    ops = {
        "row_sum": lambda d: d.sum(axis=1), "row_mean": lambda d: d.mean(axis=1),
        "median": lambda d: d.head(3).median(), "series_add_zero": lambda d: d["x"] + 0,
        "zero_add_series": lambda d: 0.0 + d["y"], "sum": lambda d: d.head(3).sum(), "mean": lambda d: d.head(2).mean(),
    }
    want = ops[op](data)
    got = ops[op](gpd.DataFrame(data)).to_pandas()
    w, g = want.to_numpy(dtype=float, na_value=np.nan), got.to_numpy(dtype=float, na_value=np.nan)
    assert np.array_equal(w, g, equal_nan=True)
    assert np.signbit(w).tolist() == np.signbit(g).tolist(), (want, got)


_GPU_ENGINE = os.environ.get("GFRAME_ENGINE", "").lower() == "gpu"


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.xfail(_GPU_ENGINE, strict=True, reason="9 float semantics: the GPU engine's group sums are its fixed "
                   "chunked order from 0, not numpy's reduceat (docs/fuzzing.md, session 7 fz7gpu)")
def test_fz7gpu_float64_group_sums_in_group_order_are_reduceat(sort: bool) -> None:
    """pandas 3.1 sums a float64 group by numpy's ``add.reduceat`` where its rows are in group order
    and the column holds no NaN: the group's first value plus the rest's pairwise sum - a group of
    -0.0 sums to -0.0 (the Cython kernel's Kahan sum from 0 gives 0.0, and so did gframe), and a
    group where 1e20 - 1e20 cancels gets numpy's bits."""
    import numpy as np
    import pandas

    import gframe as gpd

    vals = [-0.0, -0.0, -0.0, 1e20, 1.5, 0.1, 3.3, 7.0, 59.8, 2.5, 4.0, -1e20, 0.25, 8.0, 1.0, -0.0, 0.0]
    data = pandas.DataFrame({"k": [1, 1, 2] + [3] * 12 + [4, 4], "v": vals, "w": vals[::-1]})
    for op in (lambda d: d.groupby("k", sort=sort).sum(), lambda d: d.groupby("k", sort=sort).mean(),
               lambda d: d.groupby("k", sort=sort).agg(s=("v", "sum"), m=("w", "mean"), c=("v", "count"))):
        want = op(data)
        got = op(gpd.DataFrame(data)).to_pandas()
        pandas.testing.assert_frame_equal(got, want)
        assert want.to_numpy().tobytes() == got.to_numpy().tobytes()  # the bits, the sign of zero too
        assert np.signbit(want.to_numpy()).any()
    # not in group order: pandas' Cython kernel, from 0
    shuffled = data.iloc[[3, 0, 4, 1, 2] + list(range(5, 17))]
    want, got = shuffled.groupby("k").sum(), gpd.DataFrame(shuffled).groupby("k").sum().to_pandas()
    assert np.signbit(want.to_numpy()).tolist() == np.signbit(got.to_numpy()).tolist()


# session 8, lead: the device's GPU-engine check campaign (seeds 920000-922999), each also on the CPU engine
S8_LEAD_CASES = {
    # 920241: an Int64 where(cond, None) was computed through float64 (numpy's promotion of a missing
    # value), which rounds 2**63 - 2 to 2**63 and fails the cast back; an NA family keeps its type
    "int64_nullable_where_none_keeps_large_ints": case(
        "df = pd.DataFrame({'c3': pd.array([-739438, 9223372036854775806], dtype='Int64')})",
        "df = df.assign(c3=df['c3'].where(df['c3'] > -1, None))"),
    # 921032: an object column holding pd.NA (astype(object) of an Arrow timestamp) beside NaN (rows
    # a concat added) was held in one object family, which shows one marker: pandas keeps each
    "object_column_of_na_and_nan_keeps_each_marker": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([None], dtype=pd.ArrowDtype(pa.timestamp('us', tz='UTC')))})\n"
        "df2 = pd.DataFrame({}, index=pd.Index([-1, 0, -2], name='idx'))",
        "df = df.astype({'c1': 'object'})\ndf = pd.concat([df, df2], ignore_index=False)\n"
        "df = df.sort_index(ascending=False, kind='stable')"),
    # 922273: dates (dt.date) ordered against a column of strings: pandas raises TypeError only
    # where there are rows; a filter before it left none, and the engine refused the types anyway
    "dates_le_string_column_over_no_rows_does_not_raise": arrow_case(
        "df = pd.DataFrame({'k': ['2020-01-01 12:30:00'], 'c0': [3], 'c1': pd.array(['AÉ'], dtype=pd.ArrowDtype(pa.string())), "
        "'c2': [10]}).astype({'k': 'datetime64[ns]', 'c0': 'int8', 'c2': 'uint64'})",
        "df = df.assign(n=df['k'].dt.date)\ndf = df[~((df['c2'] > df['c0']))]\ndf = df[(df['c1'] <= df['n'])]"),
    "dates_le_string_column_with_rows_raises_pandas_type_error": arrow_case(
        "df = pd.DataFrame({'k': ['2020-01-01 12:30:00'], 'c1': pd.array(['AÉ'], dtype=pd.ArrowDtype(pa.string()))})"
        ".astype({'k': 'datetime64[ns]'})",
        "df = df.assign(n=df['k'].dt.date)\ndf = df[(df['c1'] <= df['n'])]"),
    # 945191 and 8 more of the final device campaign (after the merges): a Series' sort_values went
    # through its frame's by its label, which a frame refuses where the label also names an index
    # level ("count" of value_counts().reset_index(), counted again)
    "value_counts_of_a_count_column_named_as_its_index": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df['c0'].value_counts().reset_index()\ndf = df['count'].value_counts()"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in S8_LEAD_CASES.items()])
def test_fuzz_regression_s8_lead(code: str) -> None:
    check_code(code)
# session 8, fz8cpu
FZ8CPU_CASES = {
    # 840348, 903151, 864197: a group mean / median of an all-missing date32[pyarrow] column is
    # null[pyarrow] in pandas (its fallback's result); gframe held Arrow's null type as double
    "arrow_date32_group_median_all_missing_is_null_type": arrow_case(
        "df = pd.DataFrame({'k': [0], 'c0': pd.array([None], dtype=pd.ArrowDtype(pa.date32()))})",
        "df = df.groupby('k', as_index=False).agg({'c0': ['median']})\ndf = df.dropna()"),
    "arrow_date32_group_median_all_missing_reset_index": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None], dtype=pd.ArrowDtype(pa.date32())), "
        "'c0': pd.array([None], dtype=pd.ArrowDtype(pa.timestamp('us', tz='UTC'))), 'c1': [10]}).astype({'c1': 'int8'})",
        "df = df.groupby('c1', dropna=False).agg({'k': 'median', 'c0': ['count']})\ndf = df.reset_index(drop=False)"),
    "arrow_date32_group_mean_all_missing_fillna_raises": arrow_case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype=pd.ArrowDtype(pa.date32())), 'c1': [-1e+20], "
        "'c2': pd.array(['Ab'], dtype='string')})",
        "df = df.groupby('c1', as_index=False).agg(o0=('c0', 'mean'), o1=('c2', 'nunique'))\ndf = df.fillna(-1)"),
    # the engines' own decimal group median (its type the data's): null[pyarrow] where no group has one
    "arrow_decimal_group_median_all_missing_fillna_raises": arrow_case(
        "df = pd.DataFrame({'k': [0, 1], 'd': pd.array([None, None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))})",
        "df = df.groupby('k', as_index=False).agg({'d': ['median']})\ndf = df.fillna(-1)"),
    "arrow_decimal_group_median_all_missing_series_fillna_raises": arrow_case(
        "df = pd.DataFrame({'k': [0, 1], 'd': pd.array([None, None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))})",
        "df = df.groupby('k').d.median().fillna(0).to_frame()"),
    "arrow_decimal_group_median_some_present_fillna": arrow_case(
        "df = pd.DataFrame({'k': [0, 1], 'd': pd.array([Decimal('1.25'), None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))})",
        "df = df.groupby('k', as_index=False).agg({'d': ['median']})\ndf = df.fillna(-1)"),
    "arrow_decimal_group_median_all_missing_concat_then_ops": arrow_case(
        "df = pd.DataFrame({'k': [0, 1], 'd': pd.array([None, None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))})",
        "df = df.groupby('k', as_index=False).agg(m=('d', 'median'))\ndf = pd.concat([df, df], ignore_index=True)"
        "\ndf = df.assign(p=df.m + 1, a=df.m.abs())"),
    "arrow_decimal_group_median_all_missing_merge_fillna_raises": arrow_case(
        "df = pd.DataFrame({'k': [0, 1], 'd': pd.array([None, None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))})",
        "df = df.groupby('k', as_index=False).agg(m=('d', 'median')).merge(df, on='k', how='left')\ndf = df.fillna(0)"),
    # a null[pyarrow] column of the user's: kept through moves, its value methods pandas'
    "arrow_null_column_filter_keeps_null_type": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, None, None], dtype='null[pyarrow]'), 'b': [3, 1, 2]})",
        "df = df[df.b > 1].sort_values('b')"),
    "arrow_null_column_fillna_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, None], dtype='null[pyarrow]'), 'b': [1, 2]})",
        "df = df.fillna(0)"),
    "arrow_null_column_plus_scalar_is_int64": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, None], dtype='null[pyarrow]'), 'b': [1, 2]})",
        "df = df + 1"),
    "arrow_null_column_frame_equals_itself_false": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, None], dtype='null[pyarrow]'), 'b': [1, 2]})",
        "df = df == df"),
    "arrow_null_column_group_sum_is_int64_mean_null": arrow_case(
        "df = pd.DataFrame({'k': [0, 1, 0], 'a': pd.array([None, None, None], dtype='null[pyarrow]')})",
        "df = df.groupby('k').agg(s=('a', 'sum'), m=('a', 'mean'), c=('a', 'count'))"),
    # 863891: a merge's bools the merge left missing are pandas' object column: fillna(0) puts 0 there
    "merge_left_missing_bool_fillna_dict_int": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['1999-12-31'], dtype=pd.ArrowDtype(pa.date32()))})\n"
        "df2 = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), 'x0': [True]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.fillna({'x0': 0})"),
    "merge_left_missing_bool_fillna_scalar_float": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False], 'y': [1.5, 2.5]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.fillna(1.5)"),
    "merge_left_missing_bool_series_fillna_then_filter": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df[df.k > 1].fillna({'x0': 0})"),
    "merge_left_missing_bool_times_int_is_object": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = (df.x0 * df.k).to_frame()"),
    "merge_left_missing_bool_abs_is_object": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.x0.abs().to_frame()"),
    "merge_left_missing_bool_group_key_dropna_false": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.groupby('x0', dropna=False).k.sum().to_frame()"),
    # 912102 (fresh): value_counts of a merge's key over two categoricals of one dtype (a type the data
    # decides) counted the observed values only; pandas keeps the categorical and counts every category
    "merge_outer_categorical_key_value_counts_counts_every_category": case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': pd.CategoricalDtype(['d', 'c', 'a'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': pd.CategoricalDtype(['d', 'c', 'a'], ordered=False)})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df['k'].value_counts().to_frame()"),
    "merge_left_categorical_key_value_counts_observed_only_present": case(
        "df = pd.DataFrame({'k': ['a', 'c', 'a']}).astype({'k': pd.CategoricalDtype(['d', 'c', 'a'])})\n"
        "df2 = pd.DataFrame({'k': ['a'], 'v': [1]}).astype({'k': pd.CategoricalDtype(['d', 'c', 'a'])})",
        "df = df.merge(df2, on='k', how='left')\ndf = df['k'].value_counts(sort=False).to_frame()"),
    # 881459, 901288: times in [s] past [ms]'s range (the CPU engine holds [s] as [ms]) were refused
    # (UnsupportedError) by the step after them; kept as host objects of their dtype, moved by the engines
    "datetime_s_past_ms_range_then_merge_left": case(
        "df = pd.DataFrame({'k': [1], 'c2': pd.array([9223372036854775806], dtype='Int64')}).astype({'k': 'int32'})\n"
        "df2 = pd.DataFrame({'k': [3]}).astype({'k': 'int32'})",
        "df = df.astype({'c2': 'datetime64[s]'})\ndf = df.merge(df2, on='k', how='left')"),
    "datetime_s_past_ms_range_then_concat": case(
        "df = pd.DataFrame({'c0': pd.array([9223372036854775807], dtype='Int64')})\n"
        "df2 = pd.DataFrame({}, index=pd.RangeIndex(0))",
        "df = df.astype({'c0': 'datetime64[s]'})\ndf = pd.concat([df, df2], ignore_index=True)"),
    "datetime_s_past_ms_range_compare_sort_group": case(
        "df = pd.DataFrame({'k': [1, 2, 3], 'c': pd.array([9223372036854775806, None, 5], dtype='Int64')})",
        "df = df.astype({'c': 'datetime64[s]'})\ndf = df.assign(b=df.c > pd.Timestamp('2000-01-01'))"
        "\ndf = df.sort_values('c').groupby('b').c.max().to_frame()"),
    "timedelta_s_past_ms_range_filter_shift": case(
        "import numpy as np\ndf = pd.DataFrame({'k': [1, 2, 3], 'td': np.array([9223372036854775806, 4, 7], dtype='timedelta64[s]')})",
        "df = df[df.k > 1].shift(1)"),
    # 916976 (fresh): the product of an object column of strings is numpy's object product (one
    # string is itself; two raise Python's TypeError); gframe raised its string-dtype TypeError
    "object_string_prod_of_one_is_itself": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['a'], dtype=pd.ArrowDtype(pa.string()))})",
        "df = df.astype({'k': 'object'})\ndf = df['k'].prod()"),
    "object_string_prod_of_two_raises": case(
        "df = pd.DataFrame({'k': ['a', 'b']})", "df = df.astype({'k': 'object'})\ndf = df['k'].prod()"),
    # 916889 (fresh): an object column whose missing values are all None (pandas' group first of no
    # value) came back into gframe as the NaN object family: kept as None now (``_object_marker``)
    "merge_left_empty_bool_group_first_none_str_lower": case(
        "df = pd.DataFrame({'k': ['ab', 'ab']})\ndf2 = pd.DataFrame({'k': [], 'x0': []}).astype({'k': 'str', 'x0': 'bool'})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.groupby(['c0', 'k'], dropna=False).first()"
        "\ndf = df.assign(n=df['x0'].str.lower())"),
    "object_none_column_filter_shift_keeps_none": case(
        "df = pd.DataFrame({'a': pd.Series(['x', None, 'y'], dtype=object), 'b': [1, 2, 3]})",
        "df = df[df['b'] > 1]"),
    # (found on the way) Python bools in an object column take Python's unary operators (~True is -2,
    # -True -1, abs(True) 1); a numpy bool's abs is itself (Polars has none); pyarrow has no abs of bool
    "object_bool_invert_neg_abs_are_pythons": case(
        "df = pd.DataFrame({'a': pd.Series([True, False], dtype=object), 'b': [1, 2]})",
        "df = df.assign(i=~df['a'], n=-df['a'], x=df['a'].abs())"),
    "merge_left_missing_bool_fillna_false_invert_is_object": case(
        "df = pd.DataFrame({'k': [1, 2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = (~df.x0.fillna(False)).to_frame()"),
    "object_bool_frame_invert_and_abs": case(
        "df = pd.DataFrame({'a': pd.Series([True, False], dtype=object)})", "df = (~df).abs()"),
    "bool_frame_abs_is_itself": case("df = pd.DataFrame({'a': [True, False], 'b': [-1, 2]})", "df = df.abs()"),
    "arrow_bool_abs_raises": arrow_case(
        "df = pd.DataFrame({'a': pd.array([True, None], dtype='bool[pyarrow]')})", "df = df.abs()"),
    # 914559 (fresh): numpy floats into a nullable int: pandas' safe cast refuses values past the int
    # type's range (2.0**63 is no int64: TypeError), as it refuses fractions
    "shift_int64_extremes_astype_Int64_raises": case(
        "df = pd.DataFrame({'c0': [9223372036854775807, -9223372036854775808]})",
        "df = df.assign(n=df['c0'].shift(1))\ndf = df.astype({'n': 'Int64'})"),
    "float_past_int32_astype_Int32_raises": case(
        "df = pd.DataFrame({'a': [2.0**31, 1.0]})", "df = df.astype({'a': 'Int32'})"),
    "float_int32_min_astype_Int32_is_exact": case(
        "df = pd.DataFrame({'a': [-2.0**31, 1.0, None]})", "df = df.astype({'a': 'Int32'})"),
    # 914739 (fresh): an object column of decimals (astype(object) of decimal[pyarrow]) missing as pd.NA
    # lost its marker (NaN); and a merge whose side that may miss rows holds an object column missing
    # as NA / NaT / None puts NaN in the rows it adds beside the column's own: through pandas
    "arrow_decimal_astype_object_then_merge_right_keeps_na": arrow_case(
        "df = pd.DataFrame({'k': [2]}).astype({'k': 'int32'})\ndf2 = pd.DataFrame({'k': [2, 1], "
        "'x0': pd.array(['99999999.99', None], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))}).astype({'k': 'int32'})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.astype({'x0': 'object'})\ndf = df.merge(df2, on='k', how='right')"),
    "object_na_column_merge_left_missing_rows_nan": case(
        "df = pd.DataFrame({'k': [1, 2], 'v': pd.Series([pd.NA, 1], dtype=object)})\ndf2 = pd.DataFrame({'k': [2, 3], 'w': [5, 6]})",
        "df = df2.merge(df, on='k', how='left')"),
    # 864419, 917315: numpy's round of uint32 to negative decimals casts float64 back as its SIMD loop
    # (blocks of 4: 4294967300 -> 0) or its scalar loop (the rest: -> 4) does: numpy itself, whole column
    "uint32_round_negative_decimals_in_simd_blocks": case(
        "df = pd.DataFrame({'c1': [4294967295, 1, 1, 4294967295]}).astype({'c1': 'uint32'})",
        "df = df.assign(c1=df['c1'].round(-1))"),
    "uint32_round_negative_decimals_blocks_and_tail": case(
        "df = pd.DataFrame({'c1': [880594, 4294967295, 5, 1, 4294967295, 4294967295]}).astype({'c1': 'uint32'})",
        "df = df.assign(c1=df['c1'].round(-1), c2=df['c1'].round(-3))"),
    "uint32_round_negative_decimals_after_filter": case(
        "df = pd.DataFrame({'c1': [4294967295, 7, 4294967295, 1, 4294967295]}).astype({'c1': 'uint32'})",
        "df = df[df['c1'] > 5]\ndf = df.assign(c1=df['c1'].round(-1))"),
    # 917217 (fresh): a reduction of Timestamps in an object column (astype(object) of datetimes) is
    # numpy's object reduction: all NaT gives NaN (gframe: NaT), a mean of Timestamps a TypeError
    "datetime_astype_object_median_of_nat_is_nan": case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': 'datetime64[ns]'})",
        "df = df.astype({'k': 'object'})\ndf = df['k'].median()"),
    "datetime_astype_object_min_and_sum": case(
        "df = pd.DataFrame({'k': [None, '2020-01-01']}).astype({'k': 'datetime64[ns]'})",
        "df = df.astype({'k': 'object'})\ndf = df['k'].min()"),
    "datetime_astype_object_mean_raises": case(
        "df = pd.DataFrame({'k': [None, '2020-01-01']}).astype({'k': 'datetime64[ns]'})",
        "df = df.astype({'k': 'object'})\ndf = df['k'].mean()"),
    # 915832 (fresh): reset_index of an index of values of several kinds (pickled objects) infers the
    # column's dtype from what is left (ints: int64), as pandas does for an object index
    "mixed_index_filtered_to_ints_reset_index_is_int64": arrow_case(
        "df = pd.DataFrame({'c3': pd.array(['2020-01-01 12:30:00'], dtype=pd.ArrowDtype(pa.timestamp('us')))}, "
        "index=pd.Index(['r10'], name='idx'))\ndf2 = pd.DataFrame({}, index=pd.Index([12, 10, 11], name=None))",
        "df = pd.concat([df, df2], ignore_index=False)\ndf = df[df['c3'].isna()]\ndf = df.reset_index(drop=False)"
        "\ndf = df.median(numeric_only=True)"),
    "merge_left_nothing_missing_bool_fillna_stays_bool": case(
        "df = pd.DataFrame({'k': [2, 3]})\ndf2 = pd.DataFrame({'k': [2, 3], 'x0': [True, False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.fillna({'x0': 0})"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ8CPU_CASES.items()])
def test_fuzz_regression_fz8cpu(code: str) -> None:
    check_code(code)


FZ8CPU_GPU_CASES = {
    # 910486: a decimal key whose type the data decides (a group median over no groups: the input's
    # decimal128(10, 2)) lost its precision on the device (libcudf keeps none): decimal128(38, 2)
    "decimal_median_no_groups_as_gpu_group_key_keeps_precision": arrow_case(
        "df = pd.DataFrame({'k': pd.array([0], dtype='Int64'), 'c1': [None], "
        "'c2': pd.array(['100'], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))}).astype({'c1': 'datetime64[ns]'})",
        "df = df.groupby(['c1', 'k'], sort=False).agg(o0=('c2', 'median'))\ndf = df.groupby('o0').first()"),
    "decimal_median_no_groups_filtered_on_gpu_keeps_precision": arrow_case(
        "df = pd.DataFrame({'k': pd.array([0, 1], dtype='Int64'), 'c1': [None, None], "
        "'c2': pd.array(['100', '2.5'], dtype=pd.ArrowDtype(pa.decimal128(10, 2)))}).astype({'c1': 'datetime64[ns]'})",
        "df = df.groupby(['c1', 'k'], sort=False).agg(o0=('c2', 'median')).reset_index()\ndf = df.sort_values('k')"),
    # (found on the way) the stand-in's join keyed rows by Python objects: a [s] timestamp past
    # datetime's range (year 36812, inside [ms]) raised OverflowError there; libcudf compares ticks
    "datetime_s_past_python_range_merge_on_gpu": case(
        "df = pd.DataFrame({'x': [2**40, 1]}).astype('datetime64[s]')\n"
        "df2 = pd.DataFrame({'x': pd.to_datetime([1], unit='s').astype('datetime64[s]'), 'y': [5]})",
        "df = df.merge(df2, how='left')"),
    # 862297: numpy's float32 power is its SIMD kernel, 1 ulp from libcudf's correctly rounded powf:
    # the GPU engine hands a float32 power to the CPU engine, which calls numpy
    "int16_pow_float32_is_numpys_kernel": case(
        "df = pd.DataFrame({'c0': [5, 3, 7, 2, 9], 'c1': [-52.0, 1.5, -3.25, 30.0, 0.5]}).astype({'c0': 'int16', 'c1': 'float32'})",
        "df = df.assign(c1=df['c0'] ** df['c1'], c2=df['c1'] ** 3)"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ8CPU_GPU_CASES.items()])
def test_fuzz_regression_fz8cpu_gpu(code: str) -> None:
    if os.environ.get("GFRAME_ENGINE", "").lower() != "gpu":
        pytest.skip("GPU-engine regression: runs with GFRAME_ENGINE=gpu (stand-in in CI, or the device)")
    check_code(code, engine="gpu")
    check_code(code, engine="cpu")
# session 9, fz9gpu
FZ9GPU_CASES = {
    # 931221: an object column the engines hold typed ([nan, False] a bool column with a null, after a
    # merge's missing rows went through pandas' sort) filled with a value of another type: pandas puts
    # the value itself there (mixed objects); the engines kept the column's type (NaN, or 1.5 cut to 1)
    "object_bools_with_nan_fillna_float_after_merge_sort": arrow_case(
        "df = pd.DataFrame({'k': pd.array([2, 1], dtype=pd.ArrowDtype(pa.int64())), "
        "'c1': pd.array([True, False], dtype=pd.ArrowDtype(pa.bool_()))})\n"
        "df2 = pd.DataFrame({'k': pd.array([2], dtype=pd.ArrowDtype(pa.int64())), 'x0': [False]})",
        "df = df.merge(df2, on='k', how='left')\n"
        "df = df.sort_values(['c1'], ascending=True, na_position='first', kind='stable')\n"
        "df = df.assign(x0=df['x0'].fillna(1.5))"),
    "object_columns_fillna_value_of_another_type": case(
        "import numpy as np\n"
        "df = pd.DataFrame({'b': np.array([nan, False], dtype=object), 'i': np.array([nan, 1], dtype=object), "
        "'f': np.array([nan, 2.5], dtype=object), 'n': np.array([None, 3], dtype=object)})",
        "df = df.assign(b=df['b'].fillna(1.5), i=df['i'].fillna(1.5), f=df['f'].fillna(2), n=df['n'].fillna(True), "
        "i2=df['i'].fillna(True), b2=df['b'].fillna(2))"),
    "object_frame_fillna_value_of_another_type": case(
        "import numpy as np\n"
        "df = pd.DataFrame({'b': np.array([nan, False], dtype=object), 'i': np.array([nan, 1], dtype=object)})",
        "df = df.fillna({'b': 1.5, 'i': 0.5})"),
    # 932479: a right / outer merge's key column over keys of two number types the data decided (a
    # clip's fractional bound: int64 or float64): pandas gives the left key's type where no left row
    # is missing, the right one's where all are, else their common type; the engines took the right
    # keys' type (right) or cast the right keys to the left type (outer: 2.5 became 2)
    "merge_right_key_of_data_decided_float_keeps_left_type": case(
        "df = pd.DataFrame({'k': [3, 1]})\ndf2 = pd.DataFrame({'k': [1]})",
        "df = df.assign(k=df['k'].clip(lower=-0.5, upper=2.5))\ndf = df.merge(df2, on='k', how='right')"),
    "merge_outer_key_of_int_and_data_decided_float": case(
        "df = pd.DataFrame({'k': [1, 5]})\ndf2 = pd.DataFrame({'k': [1, 4], 'v': [10, 20]})",
        "df2 = df2.assign(k=df2['k'].clip(upper=2.5))\ndf = df.merge(df2, on='k', how='outer')"),
    "merge_right_key_of_int_and_data_decided_float_some_missing": case(
        "df = pd.DataFrame({'k': [1, 7]})\ndf2 = pd.DataFrame({'k': [1, 4, 2], 'v': [10, 20, 30]})",
        "df2 = df2.assign(k=df2['k'].clip(upper=2.5))\ndf = df.merge(df2, on='k', how='right')"),
    "merge_right_key_all_left_rows_missing_is_right_type": case(
        "df = pd.DataFrame({'k': [1.5, 3.0]})\ndf2 = pd.DataFrame({'k': [7, 8], 'v': [10, 20]})",
        "df = df.assign(k=df['k'].clip(upper=2.5))\ndf = df.merge(df2, on='k', how='right')"),
    # 933286: a group min / max of an object column of strings through a SeriesGroupBy (a selected
    # column, agg of a list / dict / named) is str in pandas 3 (its Python fallback's Series infers
    # the strings); a frame's own max() keeps object
    "object_strings_series_groupby_max_is_str": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['a'], dtype=pd.ArrowDtype(pa.string())), 'c0': ['c']})"
        ".astype({'c0': pd.CategoricalDtype(['d', 'a', 'e', 'b', 'c'], ordered=False)})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('c0', sort=True, dropna=False, observed=False)['k'].max()"),
    "object_strings_group_min_max_paths": case(
        "import numpy as np\n"
        "df = pd.DataFrame({'k': np.array(['a', 'b', 'c'], dtype=object), 'g': [1, 1, 2], "
        "'n': np.array(['x', None, 'z'], dtype=object)})",
        "a = df.groupby('g').agg(o=('k', 'max'), p=('n', 'min'))\nb = df.groupby('g').agg({'k': ['min', 'max']})\n"
        "c = df.groupby('g').max()\nd = df.groupby('g')[['k']].min()\n"
        "e = df.groupby('g')['n'].transform('max')\nf = df.groupby('g').agg(['max'])\n"
        "df = pd.concat([a, c, d], axis=1).reset_index()\n"
        "df = pd.concat([df, b.droplevel(0, axis=1).reset_index(drop=True), f.droplevel(0, axis=1).reset_index(drop=True), "
        "e.to_frame().iloc[:2].reset_index(drop=True)], axis=1)"),
    # 931509: arithmetic of times of two units brings the coarser operand to the finer unit, and
    # pandas raises OutOfBoundsDatetime / OutOfBoundsTimedelta for a value that does not fit there
    # (year 3000 in [ns]), whatever the other operand holds (NaT here); Polars' strict cast raised
    # its own error (TypeError). The GPU engine hands mixed units to the CPU engine.
    "datetime_s_minus_ns_past_ns_range_raises_out_of_bounds": case(
        "df = pd.DataFrame({'c0': ['3000-01-01'], 'c1': [None]}).astype({'c0': 'datetime64[s]', 'c1': 'datetime64[ns]'})",
        "df = df.assign(n=df['c1'] - df['c0'])"),
    "timedelta_s_plus_ns_past_ns_range_raises_out_of_bounds": case(
        "df = pd.DataFrame({'a': pd.to_timedelta([1, 10**12], unit='s').astype('timedelta64[s]'), "
        "'b': pd.to_timedelta([1, 2]).astype('timedelta64[ns]')})",
        "df = df.assign(n=df['b'] - df['a'])"),
    "datetime_ms_plus_timedelta_ns_past_ns_range_raises_out_of_bounds": case(
        "df = pd.DataFrame({'a': pd.to_datetime(['2000-01-01 00:00:00', '3000-01-01 00:00:01.5'], format='ISO8601').astype('datetime64[ms]'), "
        "'b': pd.to_timedelta([1, 2]).astype('timedelta64[ns]')})",
        "df = df.assign(n=df['a'] + df['b'])"),
    # 930935: Arrow's decimal division raises "Divide by zero" only where a zero divisor meets a
    # present dividend; the GPU engine raised for any zero divisor (a missing dividend, no rows)
    "decimal_missing_divided_by_zero_is_missing": arrow_case(
        f"df = pd.DataFrame({{'c1': pd.array([None], dtype={DEC})}})",
        "df = df.assign(n=df['c1'] / 0)"),
    "decimal_divided_by_zero_column_where_missing": arrow_case(
        f"df = pd.DataFrame({{'a': pd.array([None, '1', '2'], dtype={DEC}), 'b': pd.array(['0', '1', None], dtype={DEC})}})",
        "df = df.assign(n=df['a'] / df['b'], m=df['a'].iloc[:0] / 0)"),
    "decimal_divided_by_zero_raises_where_present": arrow_case(
        f"df = pd.DataFrame({{'a': pd.array([None, '1'], dtype={DEC}), 'b': pd.array(['0', '0'], dtype={DEC})}})",
        "df = df.assign(n=df['a'] / df['b'])"),
    # (fresh) 983815: a merge's bools left missing are pandas' object column, kept when a later
    # filter drops the missing rows; a reset_index in between lost the column's merge origin
    # (``L.undecided_bool_sources`` did not follow ResetIndex), so the rows left came back bool
    "merge_left_missing_bools_reset_index_then_filtered_stay_object": case(
        "df = pd.DataFrame({'k': [None]}).astype({'k': 'str'})\ndf2 = pd.DataFrame({'k': ['a'], 'x1': [False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.reset_index(drop=False)\ndf = df[df['x1'].notna()]"),
    "merge_left_missing_bools_reset_index_drop_then_fillna": case(
        "df = pd.DataFrame({'k': ['a', 'b']}, index=[5, 6])\ndf2 = pd.DataFrame({'k': ['a'], 'x1': [False]})",
        "df = df.merge(df2, on='k', how='left')\ndf = df.reset_index(drop=True)\ndf = df.assign(y=df['x1'].fillna(0))"),
    # (fresh) 987324: a column whose type the data decides (a cummin of ints) compared with a
    # Timestamp: the literal's unit was read from the column's type (None: AttributeError); a
    # number against a time is pandas' to compare (== all False, != all True)
    "data_typed_column_compared_with_timestamp": case(
        "df = pd.DataFrame({'c2': [-1, 3]})",
        "df = df.assign(n=df['c2'].cummin())\ndf = df[(df['n'] != pd.Timestamp('2020-01-01'))]\n"
        "df = df.assign(e=df['n'] == pd.Timedelta(1))"),
    # (fresh) 988139, a regression of the fillna rule above while it also sent numpy bools to
    # pandas: the bools pandas filled came back aligned (their type left to the data), and a
    # second outer merge lost them as a merge's bools left missing (object where the filter drops them)
    "bool_fillna_int_then_two_outer_merges_filtered_stays_object": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2021-06-15'], dtype=pd.ArrowDtype(pa.date32())), 'c0': ['2020-01-01'], "
        "'c1': [False]}).astype({'c0': 'datetime64[ns]'})\n"
        "df2 = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), 'c0': ['1970-01-01']})"
        ".astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(c1=df['c1'].fillna(0))\ndf = df.merge(df2, on='k', how='outer')\n"
        "df = df.merge(df2, on='k', how='outer')\ndf = df[df['c0'].isna()]"),
    # (fresh) 986000: concat of index levels of numpy numbers of several types is numpy's common type
    # of them all, empty pieces too (uint64 with int64: float64); the plan left it to the data and
    # Polars' supertype Int128 leaked (ArrowInvalid '_pli128')
    "concat_uint64_index_with_int64_index_is_float64": case(
        "df = pd.DataFrame({'c3': [], 'c4': []}).astype({'c3': 'uint16', 'c4': 'uint64'})\n"
        "df2 = pd.DataFrame({'x1': pd.array([], dtype='boolean')})",
        "df = df.set_index('c4')\ndf = pd.concat([df, df2], ignore_index=False)"),
    "concat_index_levels_of_number_types": case(
        "import numpy as np\n"
        "df = pd.DataFrame({'y': [1, 2]}, index=pd.Index([1, 2], dtype='int8'))\n"
        "df2 = pd.DataFrame({'y': [3]}, index=pd.Index([200], dtype='uint8'))\n"
        "df3 = pd.DataFrame({'y': [4]}, index=pd.Index([2**63], dtype='uint64'))",
        "a = pd.concat([df, df2])\nb = pd.concat([df2, df3, df2.iloc[:0]])\ndf = pd.concat([a.reset_index(), b.reset_index()], axis=1)"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ9GPU_CASES.items()])
def test_fuzz_regression_fz9gpu(code: str) -> None:
    check_code(code)


# session 9, fz9cpu
FZ9CPU_CASES = {
    # 958521: a whole ArrowDtype column's median is pyarrow's quantile(0.5), interpolated as
    # (1 - f) * a + f * b: [98.61, -inf] is -inf there, NaN in Polars' a + (b - a) / 2
    "arrow_float_median_of_finite_and_inf": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([98.61, -inf], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df['c1'].median()"),
    "arrow_frame_median_of_inf_pair_and_ints": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([-inf, -inf, 2.25, 39.0], dtype=pd.ArrowDtype(pa.float64())), "
        "'c2': pd.array([1, None, 4, 7], dtype=pd.ArrowDtype(pa.int64())), "
        "'c3': pd.array([inf, -inf, 1.0, None], dtype=pd.ArrowDtype(pa.float32()))})",
        "df = pd.concat([df, df], ignore_index=True)\ndf = df.median()"),
    # 949400, 957997: pandas divides by a nullable bool's data, False under NA: int // boolean(NA) is
    # Float64 (a zero divisor); the engine counted only the present False values
    "int_floordiv_nullable_bool_na_is_a_zero_divisor": case(
        "df = pd.DataFrame({'k': [1], 'c0': pd.array([None], dtype='boolean')})",
        "df = df.assign(k=df['k'] // df['c0'], m=3 // df['c0'])"),
    "int_floordiv_nullable_bool_without_false_stays_int": case(
        "df = pd.DataFrame({'k': [1, 5], 'c0': pd.array([True, True], dtype='boolean'), "
        "'c1': pd.array([None, True], dtype='boolean')})",
        "df = df.assign(a=df['k'] // df['c0'], b=df['k'] // df['c1'], c=df['k'] % df['c1'])"),
    # 943885: a nullable column whose type the data decides (boolean % int16: Int16, Float64 where a
    # divisor is 0) beside a frame without it kept Int16 in pandas; the engine widened its ints to
    # float as for numpy ints (``Union.widened`` now says no for an NA family)
    "nullable_bool_mod_int16_concat_frame_without_it_stays_int16": case(
        "df = pd.DataFrame({'c1': [5], 'c3': pd.array([True], dtype='boolean')}).astype({'c1': 'int16'})\n"
        "df2 = pd.DataFrame({'c0': ['c']}).astype({'c0': pd.CategoricalDtype(['a', 'b', 'c'], ordered=False)})",
        "df = df.assign(c1=df['c3'] % df['c1'])\ndf = pd.concat([df, df2], ignore_index=True)"),
    # 942988, 944530: a frame without columns but with rows concatenated with a bool column leaves it
    # missing there: object in pandas, kept when a filter or a merge drops those rows (a concat is
    # an undecided-bool source, as a merge: ``Union.undecided_bools``); a merge key either side of
    # which is object is object
    "concat_no_columns_frame_bools_notna_stay_object": case(
        "df = pd.DataFrame({'c1': [1.5, 2.5, 1.5]})\ndf2 = pd.DataFrame({'k': [True, False]})",
        "df = df.groupby('c1').last()\ndf = pd.concat([df, df2], ignore_index=False)\ndf = df[df['k'].notna()]"),
    "concat_no_columns_frame_bools_merge_right_key_is_object": case(
        "df = pd.DataFrame({'k': [True], 'c0': [2]}).astype({'c0': 'uint8'})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': 'bool'})",
        "df = df.groupby('c0', sort=True, dropna=False).agg(o0=('k', 'nunique'))\n"
        "df = df.groupby('o0', sort=False).mean()\ndf = pd.concat([df, df2], ignore_index=False)\n"
        "df = df.merge(df2, on='k', how='right')"),
    "concat_empty_no_columns_frame_bools_stay_bool": case(
        "df = pd.DataFrame({'c1': [1.5]})\ndf2 = pd.DataFrame({'k': [True, False]})",
        "df = df[df['c1'] > 2].groupby('c1').last()\ndf = pd.concat([df, df2], ignore_index=True)\n"
        "df = df.merge(df2, on='k', how='inner')"),
    # 950861: a bool's min / max / first / last over an unobserved category's empty group is float64
    # (NaN) in pandas' group kernels, as an int's; the engine's bools with a missing value were object
    "observed_false_bool_min_of_empty_groups_is_float64": case(
        "df = pd.DataFrame({'k': [None], 'c0': [True]}).astype({'k': pd.CategoricalDtype(['a', 'c', 'b'], ordered=False)})",
        "df = df.groupby('k', sort=True, dropna=True, observed=False).agg({'c0': 'min'})"),
    "observed_false_bool_first_last_max_two_keys": case(
        "df = pd.DataFrame({'k': ['a', 'a'], 'k2': [1, 2], 'c0': [True, False]})"
        ".astype({'k': pd.CategoricalDtype(['a', 'c'])})",
        "df = df.groupby(['k', 'k2'], observed=False).agg(a=('c0', 'first'), b=('c0', 'last'), c=('c0', 'max'), "
        "d=('c0', 'any'))"),
    # 947137: group keys of an object column of Timestamps are inferred as pandas infers an Index:
    # a DatetimeIndex where there are groups, object with none (NaN, float64, for a missing key's
    # only group) - the plan kept the times' type; it is the data's now (not for [s], see the doc)
    "object_times_group_keys_of_no_rows_are_object": case(
        "df = pd.DataFrame({'k': ['2020-01-01'], 'c0': ['b']}).astype({'k': 'datetime64[ns]'})",
        "df = df[(df['k'] < pd.Timestamp('2020-01-01'))]\ndf = df.astype({'k': 'object'})\n"
        "df = df.set_index('c0')\ndf = df.groupby('k').mean()"),
    "object_times_group_keys_only_missing_dropna_false": case(
        "df = pd.DataFrame({'k': [None, '2020-01-01'], 'v': [1.5, 2.5]}).astype({'k': 'datetime64[us]'})",
        "df = df.iloc[:1].astype({'k': 'object'})\ndf = df.groupby('k', dropna=False).v.sum()"),
    "object_timedeltas_group_keys_two_keys_and_rows": case(
        "df = pd.DataFrame({'k': pd.to_timedelta([1, None, 1], unit='D'), 'g': ['a', 'b', 'a'], 'v': [1.5, 2.5, 3.5]})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby(['g', 'k'], as_index=False).v.sum()"),
    # 952013: astype of a column of Python objects (fillna(0) of datetimes: 0 beside Timestamps) is
    # pandas' (its TypeError for Int64); the engine refused the cast with UnsupportedError
    "python_objects_astype_int64_raises_pandas_typeerror": case(
        "df = pd.DataFrame({'k': [None, '2020-01-01']}).astype({'k': 'datetime64[ns]'})",
        "df = df.fillna(0)\ndf = df.astype({'k': 'Int64'})"),
    "python_objects_astype_str_and_bool": case(
        "df = pd.DataFrame({'k': [None, '2020-01-01'], 'j': [None, '2021-01-01']}).astype({'k': 'datetime64[ns]', "
        "'j': 'datetime64[ns]'})",
        "df = df.fillna(0)\ndf = df.astype({'k': 'str', 'j': 'bool'})"),
    # 956309: an object column of ints with a missing value (``astype(object)`` of int64[pyarrow] /
    # Int64: ``[3, <NA>]``) came back as floats beside the marker where the engine computed it (a
    # value_counts index: inferred_type "mixed", pandas "mixed-integer"); Python ints now
    "object_ints_with_na_value_counts_index_keeps_ints": arrow_case(
        "df = pd.DataFrame({'k': pd.array([3, None], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.astype({'k': 'object'})\ndf = df['k'].value_counts(dropna=False)"),
    "object_big_ints_with_na_value_counts_index_exact": case(
        "df = pd.DataFrame({'i': pd.array([2**62 + 1, None, 5], dtype='Int64'), "
        "'u': pd.array([2**64 - 1, None, 5], dtype='UInt64')})",
        "df = df.astype('object')\ndf = df.set_index('u')['i'].value_counts(dropna=False)"),
    # 971421 (fresh): a merge's bools it left missing (object) stay object through reset_index,
    # which moves the data columns as they are (an undecided-bool source carried, as set_index does)
    "merge_outer_bools_filtered_reset_index_stay_object": case(
        "df = pd.DataFrame({'k': [3.0], 'c0': ['1999-12-31 23:59:59'], 'c2': [True]}).astype({'c0': 'datetime64[ns]'})\n"
        "df2 = pd.DataFrame({'k': [1.0]})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df[df['c0'].isin([pd.Timestamp('1999-12-31 23:59:59')])]\n"
        "df = df.reset_index(drop=False)"),
    # 971286 (fresh): a column whose type the data decides (an int clipped to a fraction: int64 or
    # float64) concatenated with datetimes is object in pandas; the engine's relaxed concat made
    # ints of the times. Such a concat is pandas' (``reshape._common_dtype_casts``)
    "int_clipped_to_fraction_concat_datetimes_is_object": case(
        "df = pd.DataFrame({'x1': [1, 2]})\ndf2 = pd.DataFrame({'x1': ['2020-01-01']}).astype({'x1': 'datetime64[ns]'})",
        "df = df.assign(x1=df['x1'].clip(lower=0, upper=2.5))\ndf = pd.concat([df, df2], ignore_index=False)"),
    "int_clipped_to_fraction_concat_datetimes_no_rows": case(
        "df = pd.DataFrame({}, index=pd.RangeIndex(0))\ndf2 = pd.DataFrame({'x1': []}).astype({'x1': 'datetime64[ns]'})",
        "df = pd.concat([df, df2], ignore_index=False)\ndf = df['x1'].value_counts().reset_index()\n"
        "df = df.groupby('count').count()\ndf = df.assign(x1=df['x1'].clip(lower=0, upper=2.5))\n"
        "df = pd.concat([df, df2], ignore_index=False)"),
    # 966702 (fresh): reset_index of MultiIndex columns that hold ('index', '') already: pandas'
    # ``"index" in df`` finds the first level's label, so the new column is ('level_0', '')
    "reset_index_twice_multiindex_columns_level_0": arrow_case(
        "df = pd.DataFrame({'k': pd.array([], dtype=pd.ArrowDtype(pa.date32())), 'c1': [], 'c2': []})"
        ".astype({'c1': 'uint32', 'c2': 'int16'})",
        "df = df.groupby('k', sort=False, as_index=False).agg({'c2': ['min'], 'c1': 'nunique'})\n"
        "df = df.reset_index(drop=False)\ndf = df.reset_index(drop=False)"),
    # 976621 (fresh): value_counts of an object column whose type the data decides (str.startswith
    # of strings beside -1: bools with NaN) casts its keys back to the object family with no type;
    # the CPU engine's cast read the missing type (AttributeError) - it keeps the data's type
    "value_counts_of_object_bools_typed_by_the_data": case(
        "df = pd.DataFrame({'k': [None, 'ab', 'b', 'ab']}).astype({'k': 'str'})",
        "df = df.fillna(-1)\ndf = df.assign(n=df['k'].str.startswith('a'))\n"
        "df = df['n'].value_counts(ascending=True, dropna=False).reset_index()"),
    # 979894 (fresh): a categorical of Arrow timestamps compared with Python's datetime: pandas looks
    # the value up in the categories, which an Arrow timestamp Index answers False for a datetime
    # (True for a Timestamp), so != is all True there; gframe compared the values. pandas computes it
    "arrow_timestamp_categories_ne_python_datetime": arrow_case(
        "df = pd.DataFrame({'c0': pd.array(['1999-12-31 23:59:59', '2000-01-01 00:00:00'], "
        "dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.astype({'c0': 'category'})\ndf = df[(df['c0'] != datetime.datetime(1999, 12, 31, 23, 59, 59))]"),
    "arrow_timestamp_categories_eq_timestamp_compares_values": arrow_case(
        "df = pd.DataFrame({'c0': pd.array(['1999-12-31 23:59:59', '2000-01-01 00:00:00'], "
        "dtype=pd.ArrowDtype(pa.timestamp('us')))})",
        "df = df.astype({'c0': 'category'})\ndf = df[(df['c0'] == pd.Timestamp('1999-12-31 23:59:59'))]"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ9CPU_CASES.items()])
def test_fuzz_regression_fz9cpu(code: str) -> None:
    check_code(code)


# session 9, fz10: the device campaign's failures (CPU seeds 1000000-1019999, GPU 990000-994999)
FZ10_CASES: dict[str, str] = {
    # 1013409: a masked (or Arrow) column compared with a scalar of another kind (Int64 != Timestamp):
    # pandas' masked / Arrow comparison is NA where the value is missing (``invalid_comparison`` on
    # the valid values only), so the filter drops that row; gframe gave True (numpy's rule)
    "masked_ne_timestamp_is_missing_where_missing": case(
        "df = pd.DataFrame({'c3': pd.array([None, 4], dtype='Int64')})",
        "df = df[(df['c3'] != pd.Timestamp('2020-01-01'))]"),
    "masked_eq_timestamp_keeps_na_dtype": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, 4], dtype='Int64'), "
        "'b': pd.array([1.5, None], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.assign(e=df['a'] == pd.Timestamp('2020-01-01'), n=df['b'] != pd.Timestamp('2020-01-01'))"),
    "frame_masked_ne_timestamp": case(
        "df = pd.DataFrame({'a': pd.array([None, 4], dtype='Int64'), 'b': [1.5, nan]})",
        "df = df != pd.Timestamp('2020-01-01')"),
    # 1008333: a group median beside an infinity: pandas' (lower + upper middle) / 2 is -inf for
    # [-inf, -60.2]; Polars' interpolation (lower + (upper - lower) / 2) made NaN
    "groupby_median_beside_infinity": case(
        "df = pd.DataFrame({'c0': [1, 1, 2, 2, 2, 3], 'c4': [-inf, -60.2, inf, -inf, 1.0, inf]})"
        ".astype({'c4': 'float32'})",
        "df = df.groupby('c0', sort=False).median(numeric_only=True)"),
    # 992835 (GPU campaign, CPU too): min/max of an object column's group of missing values only
    # is NaN in pandas (``group_min``), whatever the column's missing marker (pd.NA, None)
    "groupby_min_of_object_na_group_is_nan": arrow_case(
        "df = pd.DataFrame({'k': pd.array([None, 3], dtype=pd.ArrowDtype(pa.int64())), "
        "'c2': pd.array([-30.2, 1.0], dtype='Float64')})",
        "df = df.astype({'k': 'object'})\ndf = df.groupby('c2').min()"),
    "groupby_max_of_object_none_group_is_nan": case(
        "df = pd.DataFrame({'k': pd.array([None, 'a'], dtype=object), 'c2': [1.0, 2.0]})",
        "df = df.groupby('c2').agg({'k': ['max', 'min']})"),
    # 992281 (GPU): int16 % uint64 is numpy's float64 (5 % (2**64 - 1): 5.0); libcudf's integer
    # PYMOD of the operands read the uint64 as -1 (0). Mixed signed / unsigned // and % stay on the CPU
    "int16_mod_uint64_is_float": case(
        "df = pd.DataFrame({'c0': [5, -5], 'c1': [18446744073709551615, 3]}).astype({'c0': 'int16', 'c1': 'uint64'})",
        "df = df.assign(n=df['c0'] % df['c1'], f=df['c0'] // df['c1'])"),
    # 1005588, 991995 (5 categoricals): astype('category') of an object column holding missing values
    # only: pandas' categories are an empty object Index; the engines' dictionary held the column's
    # type (float64). Such a cast is pandas', and empty object categories are the OBJECT family
    "category_of_missing_objects_has_object_categories": case(
        "df = pd.DataFrame({'c1': ['d']})\n"
        "df2 = pd.DataFrame({'x0': []}, index=pd.Index([], name='idx')).astype({'x0': 'bool'})",
        "df = pd.concat([df, df2], ignore_index=False)\ndf = df.astype({'x0': 'category'})"),
    "category_of_none_objects_series": case(
        "df = pd.DataFrame({'a': pd.array([None, None], dtype=object), 'b': [1, 2]})",
        "df = df.assign(c=df['a'].astype('category'))\ndf = df.assign(d=df['c'].isna())"),
    # 1017408: value_counts of an object column named like its counts ("proportion"): the object
    # index (pandas keeps the column's dtype) was skipped where the label and the counts' name met
    "value_counts_of_objects_named_proportion": arrow_case(
        "df = pd.DataFrame({'c1': pd.array([100, 100, 7], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df['c1'].value_counts(normalize=True).reset_index()\n"
        "df = df.astype({'proportion': 'object'})\ndf = df['proportion'].value_counts(normalize=True)"),
    "value_counts_of_masked_named_count_dropna_false": case(
        "df = pd.DataFrame({'count': pd.array([1, None, 1], dtype='Int64')})",
        "df = df['count'].value_counts(dropna=False)"),
    # 994964 (GPU campaign, CPU too; 7 clip): a float32 column's isin of Python floats: numpy's and the
    # masked arrays' isin compare in float64, so 0.1 matches no float32 value; the engines cast the
    # values to float32 and matched it (the row kept, clip of an Int64 by 2.5 then raised)
    "float32_isin_python_float_compares_in_float64": case(
        "df = pd.DataFrame({'c1': pd.array([5, 1], dtype='Int64'), 'c2': [0.1, 0.5]}).astype({'c2': 'float32'})",
        "df = df[df['c2'].isin([0.1, 2])]\ndf = df.assign(c1=df['c1'].clip(lower=-0.5, upper=2.5))"),
    "float32_isin_values_exact_or_not": case(
        "df = pd.DataFrame({'a': [0.1, 2.0, 0.5, nan, 16777216.0], 'b': pd.array([0.1, 2.0, 0.5, None, 1.0], "
        "dtype='Float32')}).astype({'a': 'float32'})",
        "df = df.assign(x=df['a'].isin([0.1, 2, 16777217, nan]), y=df['b'].isin([0.1, 0.5, 1e300]), "
        "z=df['a'].isin(pd.Series([0.1, 0.5])))"),
    # 1017276 (12 raise parity): a group sum of uint16 (a type the data decides in the plan) minus -2:
    # NEP 50's OverflowError was checked for known int types only; the type is now read for a
    # Python int that some int type cannot hold
    "undecided_uint16_minus_negative_int_overflows": case(
        "df = pd.DataFrame({'k': [1], 'c0': [100]}).astype({'c0': 'uint16'})",
        "df = df.groupby('k', dropna=True, as_index=False)['c0'].sum()\ndf = df.assign(c0=df['c0'] - -2)"),
    "undecided_uint16_plus_int_in_range": case(
        "df = pd.DataFrame({'k': [1, 1, 2], 'c0': [100, 7, 3]}).astype({'c0': 'uint16'})",
        "df = df.groupby('k', as_index=False)['c0'].sum()\ndf = df.assign(c0=df['c0'] + 300, d=df['c0'] * 3)"),
    # 1007073 (12 raise parity): a merge key whose type the data decides (0 // bools: int64) against
    # bools: pandas merges them as object keys; the CPU engine raised its own ValueError. Such keys
    # beside bools, strings or times are pandas' (``reshape._keys_native``)
    "merge_data_typed_key_against_bools": case(
        "df = pd.DataFrame({'k': [True, False, True], 'c0': [True, False, False]})\n"
        "df2 = pd.DataFrame({'k': [True, False]})",
        "df = df.set_index('c0')\ndf = df.assign(k=1 // df['k'])\ndf = df.merge(df2, on='k', how='outer')"),
    "merge_empty_data_typed_key_against_bools": case(
        "df = pd.DataFrame({'k': [], 'c0': []}).astype({'k': 'bool', 'c0': 'bool'})\n"
        "df2 = pd.DataFrame({'k': []}).astype({'k': 'bool'})",
        "df = df.set_index('c0')\ndf = df.assign(k=0 // df['k'])\ndf = df.merge(df2, on='k', how='outer')"),
    # 992806 (GPU campaign, CPU too): a group-by's MultiIndex with dropna=False holds the missing key
    # in its levels, so sort_index orders it as the largest value (descending: first) whatever
    # na_position; a MultiIndex from set_index sorts it by na_position
    "groupby_dropna_false_multiindex_sort_index_nat_largest": case(
        "df = pd.DataFrame({'k': ['2020-01-01', '2020-01-01 12:30:00'], 'c0': ['2021-06-15 08:00:01', None], "
        "'c3': [2.25, 32.390387], 'c4': [-32768, -7]}).astype({'k': 'datetime64[ns]', 'c0': 'datetime64[us]', "
        "'c4': 'int16'})",
        "df = df.groupby(['c0', 'k'], sort=True, dropna=False).agg({'c3': ['last', 'first'], 'c4': ['std', 'first']})\n"
        "df = df.sort_index(ascending=False, kind='stable')"),
    "groupby_dropna_false_multiindex_sort_index_na_first_ignored": case(
        "df = pd.DataFrame({'a': [1.0, nan, 2.0, nan], 'b': [1, 2, 3, None], 'v': [1, 2, 3, 4]})",
        "df = df.groupby(['a', 'b'], dropna=False)['v'].sum()\n"
        "df = df.sort_index(ascending=[False, True], na_position='first')"),
    "set_index_multiindex_sort_index_na_position_kept": case(
        "df = pd.DataFrame({'a': [1.0, nan, 2.0, nan], 'b': [1, 2, 3, None], 'v': [1, 2, 3, 4]})",
        "df = df.groupby(['a', 'b'], dropna=False)['v'].sum().reset_index()\n"
        "df = df.set_index(['a', 'b']).sort_index(ascending=False)"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ10_CASES.items()])
def test_fuzz_regression_fz10(code: str) -> None:
    check_code(code)


# session 9, lead: the final-code CPU campaign (seeds 1030000-1049999)
S9_LEAD_CASES = {
    # 1035044: astype to a numpy int of a column whose type the data decides (a merge's categorical
    # key) took the float checks for granted; the engines hold a categorical there: pandas casts it
    "astype_int8_of_a_merge_categorical_key": case(
        "df = pd.DataFrame({'k': ['d']}).astype({'k': pd.CategoricalDtype(['d', 'e', 'c'], ordered=False)})\n"
        "df2 = pd.DataFrame({'k': ['d'], 'x0': pd.array([None], dtype='boolean')})"
        ".astype({'k': pd.CategoricalDtype(['d', 'e', 'c'], ordered=False)})",
        "df = df.merge(df2, on='k', how='left')\ndf = df[df['x0'].notna()]\ndf = df.astype({'k': 'int8'})"),
    # 1042224: the same for bools of a [s] column's dt.is_month_start (decided by the data)
    "astype_uint8_of_data_typed_bools": case(
        "df = pd.DataFrame({'c1': ['1800-05-05 01:02:03']}).astype({'c1': 'datetime64[s]'})",
        "df = df.assign(n=df['c1'].dt.is_month_start)\ndf = df.astype({'n': 'uint8'})"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in S9_LEAD_CASES.items()])
def test_fuzz_regression_s9_lead(code: str) -> None:
    check_code(code)


# session 10, fz11
FZ11_CASES = {
    # 1040838: a right / outer merge's bool keys (a type the data decides in the plan): pandas' sum of
    # bools is int64; Polars' sum of the engine's bools is UInt32
    "sum_of_right_merge_bool_keys_is_int64": case(
        "df = pd.DataFrame({'k': [True, False]})\ndf2 = pd.DataFrame({'k': [True, True]})",
        "df = df.merge(df2, on='k', how='right')\ndf = df['k'].sum()"),
    "frame_sum_of_outer_merge_bool_keys_is_int64": case(
        "df = pd.DataFrame({'k': [True, False], 'a': [1, 2]})\ndf2 = pd.DataFrame({'k': [True, True]})",
        "df = df.merge(df2, on='k', how='outer')\ndf = df.sum()"),
    # 1038560 (12 exception type): a concat's missing bools are pandas' object column of NaN, so a
    # cast to a numpy int raises int(nan)'s ValueError (the frame names the column); gframe named
    # NoneType (TypeError), the marker of another object family
    "astype_int8_of_concat_missing_bools_is_nan_value_error": case(
        "df = pd.DataFrame({'c0': [False]})\ndf2 = pd.DataFrame({'x0': [1]}).astype({'x0': 'uint8'})",
        "df = pd.concat([df, df2], ignore_index=True)\ndf = df.astype({'c0': 'int8'})"),
    "series_astype_int_of_concat_missing_bools": case(
        "df = pd.DataFrame({'c0': [True, False]})\ndf2 = pd.DataFrame({'x0': [1]})",
        "df = pd.concat([df, df2], ignore_index=True)\ndf = df['c0'].astype('int64')"),
    # 1046561 (12 raise parity): a group-by key naming both a column and an index level (a named
    # aggregation's label equal to the key: ``groupby('o0').agg(o0=...)``): pandas' ValueError
    # ("... is both an index level and a column label, which is ambiguous"); gframe took the column
    "groupby_key_both_column_and_index_level_is_ambiguous": case(
        "df = pd.DataFrame({'k': [1, 2, 2], 'c0': [3, 4, 5]})",
        "df = df.groupby('k').agg(o0=('c0', 'max'))\ndf = df.groupby('o0').agg(o0=('o0', 'std'))\n"
        "df = df.groupby('o0', sort=True).size()"),
    "groupby_list_key_both_column_and_index_level": case(
        "df = pd.DataFrame({'o0': [1, 2, 2], 'v': [1, 2, 3]}, index=pd.Index([5, 6, 6], name='o0'))",
        "df = df.groupby(['v', 'o0']).sum()"),
    # 1048280 (harness): pandas narrows a group sum of int8 columns back to int8 block by block, where
    # every sum of the block fits; the harness's deep copy of the inputs consolidated the two int8
    # columns that the case's ``astype`` leaves in blocks of their own, so its pandas answer (int64
    # for both) was not the printed repro's (int8 where the column's sums fit: gframe's)
    "groupby_sum_int8_narrows_by_column_as_built": case(
        "df = pd.DataFrame({'c0': [1, 2], 'c1': [100, 67], 'c2': ['a', 'a']}).astype({'c0': 'int8', 'c1': 'int8'})",
        "df = df.dropna()\ndf = df.groupby('c2').sum(numeric_only=True)\ndf = df.assign(n=df['c0'] // 7)"),
    # 1034471 (harness): a group-by's MultiIndex level keeps, in pandas, the key value of a group
    # ``dropna`` dropped by another key (a date beside the string kept); pandas' assert compared the
    # levels' inferred type over the unused value too ("mixed" vs gframe's "string")
    "groupby_multiindex_unused_level_value_not_compared": arrow_case(
        "df = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), 'c0': [-2]})"
        ".astype({'c0': 'int32'})\n"
        "df2 = pd.DataFrame({'k': pd.array(['2020-01-01'], dtype=pd.ArrowDtype(pa.date32())), "
        "'x0': ['2021-06-15 08:00:01']}).astype({'x0': 'datetime64[s]'})",
        "df = df.astype({'k': pd.ArrowDtype(pa.large_string())})\ndf = df.merge(df2, on='k', how='outer')\n"
        "df = df.groupby(['c0', 'k']).agg({'x0': ['std', 'nunique']})\ndf = df.tail(1)"),
    # 1054959 (9 float semantics): a whole ArrowDtype column's std / var is pyarrow's kernel in pandas,
    # whose blockwise sums give seven 39.6 between nulls a std of 7.7e-15; Polars' (and libcudf's)
    # gave 0.0, which no relative tolerance accepts
    "arrow_float_std_of_equal_values_is_pyarrows": arrow_case(
        "df = pd.DataFrame({'k': ['e'] * 7})\n"
        "df2 = pd.DataFrame({'k': ['e', 'e'], 'x0': pd.array([None, 39.6], dtype=pd.ArrowDtype(pa.float64()))})",
        "df = df.merge(df2, on='k', how='inner')\ndf = df.std(numeric_only=True)"),
    "arrow_var_and_int_std_are_pyarrows": arrow_case(
        "df = pd.DataFrame({'a': pd.array([None, 39.6] * 7, dtype=pd.ArrowDtype(pa.float64())), "
        "'b': pd.array([1, 2, None, 4] * 3 + [None, 5], dtype=pd.ArrowDtype(pa.int64()))})",
        "df = df.assign(v=df['a'].var(), w=df['a'].std(ddof=0), x=df['b'].std())"),
    # known gap (fz10): an object column of bools and None was held as the numpy family's bools with
    # nulls, so fillna(0) left None and astype(int8) gave floats (pandas: int(None)'s TypeError); it is
    # the OBJECT_NONE family now. astype(bool) of objects is numpy's bool() of each: None False, NaN
    # and NaT True
    "object_bools_with_none_fillna_fills": case(
        "df = pd.DataFrame({'a': pd.array([True, None, False], dtype=object), 'b': [1, 2, 3]})",
        "df = df.assign(f=df['a'].fillna(0), g=df['a'].astype(bool), h=df['a'].isna())"),
    "object_bools_with_none_astype_int_raises_type_error": case(
        "df = pd.DataFrame({'a': pd.array([True, None], dtype=object)})",
        "df = df.astype({'a': 'int8'})"),
    "object_missing_astype_bool_by_marker": case(
        "df = pd.DataFrame({'a': pd.array([1.5, None], dtype=object), 'b': pd.array([0.0, nan], dtype=object), "
        "'t': pd.array([pd.Timestamp('2020-01-01'), pd.NaT], dtype=object)})",
        "df = df.assign(c=df['a'].astype(bool), d=df['b'].astype(bool), e=df['t'].astype(bool))"),
    # 1056583 (12 raise parity): fillna of a categorical (of bools, from a nullable column) with a value
    # none of its categories where something is missing: pandas' TypeError; the CPU engine skipped the
    # fill as for a numpy column of another kind, and a categorical made by astype in the same node
    # (its categories the values present) was not checked at all
    "fillna_categorical_of_bools_new_category_raises": case(
        "df = pd.DataFrame({'c0': pd.array([None], dtype='boolean')})",
        "df = df.astype({'c0': 'category'})\ndf = df.fillna({'c0': 1.5})"),
    "fillna_categorical_of_floats_made_here_new_category_raises": case(
        "df = pd.DataFrame({'c0': [nan, 1.0]})",
        "df = df.assign(c0=df['c0'].astype('category').fillna(1.5))"),
    "fillna_categorical_of_floats_own_category_fills": case(
        "df = pd.DataFrame({'c0': [nan, 1.0, 2.0]})",
        "df = df.assign(c0=df['c0'].astype('category').fillna(2.0))"),
    # 1057086 (12 raise parity, and silent): reductions of dt.date (datetime.date objects, held as
    # date64 in the numpy family): pandas reduces the objects (std of none: NaN; a mean raises
    # TypeError, a min is a date); the engines raised Polars' error, gave a mean in ms and a datetime min
    "std_of_no_dates_is_nan": case(
        "df = pd.DataFrame({'k': [], 'c0': []}).astype({'k': 'str', 'c0': 'datetime64[ns]'})",
        "df = df[df['k'].isna()]\ndf = df.assign(n=df['c0'].dt.date)\ndf = df['n'].std()"),
    "mean_of_dates_raises": case(
        "df = pd.DataFrame({'c0': ['2020-01-01', None]}).astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df['n'].mean()"),
    "min_of_dates_is_a_date": case(
        "df = pd.DataFrame({'c0': ['2020-01-01', None, '2019-05-01']}).astype({'c0': 'datetime64[ns]'})",
        "df = df.assign(n=df['c0'].dt.date)\ndf = df['n'].min()"),
    # known gap (fz10): isin of bools on a number column: numpy compares in the common type, True is
    # 1 (the CPU engine dropped bools from a float column's values); and a fraction matches no int
    # (the cast to the int column's type truncated np.float32(0.1) to 0, a silent match)
    "float32_isin_float32_and_bool": case(
        "df = pd.DataFrame({'a': [0.1, 1.0, 2.0, 0.0], 'b': [0, 1, 2, 3]}).astype({'a': 'float32'})",
        "df = df.assign(x=df['a'].isin([np.float32(0.1), True]), y=df['a'].isin([False, 2]), "
        "z=df['b'].isin([np.float32(0.1), True]), w=df['b'].isin([2.0, 2.5]))"),
    "masked_isin_bools": case(
        "df = pd.DataFrame({'a': pd.array([0.0, 1.0, None], dtype='Float64'), 'b': pd.array([0, 1, None], dtype='Int64')})",
        "df = df.assign(x=df['a'].isin([True]), y=df['b'].isin([False, 0.5]))"),
    # seen beside 1040838: a frame reduction over an object column (a concat's missing bools, an
    # object column of numbers) is object in pandas (the object block's result, the int 1 for the
    # bools' sum); gframe made float64 of all the columns' results
    "frame_sum_with_concat_missing_bools_is_object": case(
        "df = pd.DataFrame({'k': [True]})\ndf2 = pd.DataFrame({'x': [1]})",
        "df = pd.concat([df, df2])\ndf = df.sum()"),
    "frame_reductions_with_object_numbers_are_object": case(
        "df = pd.DataFrame({'o': pd.array([1, 2], dtype=object), 'x': [1.5, 2.0], 'i': [1, 2]})",
        "df = pd.concat([df.sum(), df.max(), df.mean(), df.std()], axis=1)"),
    # 997958 (GPU): a float32 column's product: numpy multiplies in float32 one value after another;
    # libcudf's tree order rounds otherwise (whole column: left to the CPU engine). And pandas'
    # group_prod of float32 multiplies in float32 too, where the CPU engine multiplied in float64
    "float32_prod_in_numpys_order": case(
        "df = pd.DataFrame({'c1': [-81.41, 3.0, 2.25, -55.9]}).astype({'c1': 'float32'})",
        "df = df.prod(numeric_only=True)"),
    "float32_group_prod_in_float32": case(
        "df = pd.DataFrame({'k': [1, 2, 1, 2, 1, 3, 1, 2, 1], 'x': [1.1, -2.3, 3.7, nan, 0.31, nan, -7.9, 1.01, 2.2]})"
        ".astype({'x': 'float32'})",
        "df = df.groupby('k').agg(p=('x', 'prod'), s=('x', 'sum'), c=('x', 'count'))"),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in FZ11_CASES.items()])
def test_fuzz_regression_fz11(code: str) -> None:
    check_code(code)
