"""Errors raised like pandas: same exception type."""
import pytest

from gframe.testing import assert_raises_like_pandas

NaN = float("nan")

DATA = {"a": [1, 2, 3], "b": [1.5, NaN, 3.5], "s": ["x", None, "z"]}


def frame(pd):
    return pd.DataFrame(DATA)


MISSING_COLUMN = {
    "getitem": lambda df: df["nope"],
    "getitem_list": lambda df: df[["a", "nope"]],
    "groupby": lambda df: df.groupby("nope"),
    "groupby_list": lambda df: df.groupby(["a", "nope"]).b.sum(),
    "groupby_select": lambda df: df.groupby("a")["nope"],
    "sort_values": lambda df: df.sort_values("nope"),
    "sort_values_list": lambda df: df.sort_values(["a", "nope"]),
    "drop": lambda df: df.drop(columns=["nope"]),
    "loc_columns": lambda df: df.loc[:, ["a", "nope"]],
    "set_index": lambda df: df.set_index("nope"),
    "dropna_subset": lambda df: df.dropna(subset=["nope"]),
    "drop_duplicates_subset": lambda df: df.drop_duplicates(subset=["nope"]),
    "agg_dict": lambda df: df.groupby("a").agg({"nope": "sum"}),
    "named_agg": lambda df: df.groupby("a").agg(x=("nope", "sum")),
    "merge_on": lambda df: df.merge(df, on="nope"),
}


@pytest.mark.parametrize("case", sorted(MISSING_COLUMN))
def test_missing_column_raises(case):
    fn = MISSING_COLUMN[case]
    exc = assert_raises_like_pandas(lambda pd: fn(frame(pd)))
    assert issubclass(exc, KeyError)


def test_attribute_missing_raises_attribute_error():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).nope)
    assert issubclass(exc, AttributeError)


def test_string_minus_int_raises_type_error():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).s - 1)
    assert issubclass(exc, TypeError)


def test_string_times_string_raises():
    assert_raises_like_pandas(lambda pd: frame(pd).s * frame(pd).s)


def test_string_plus_int_raises():
    assert_raises_like_pandas(lambda pd: frame(pd).s + frame(pd).a)


def test_mean_of_strings_raises():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).s.mean())
    assert issubclass(exc, TypeError)


def test_frame_sum_with_strings_numeric_error():
    assert_raises_like_pandas(lambda pd: frame(pd).mean())


def test_groupby_mean_of_strings_raises():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).groupby("a").s.mean())
    assert issubclass(exc, TypeError)


def test_merge_bogus_how():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).merge(frame(pd), on="a", how="bogus"))
    assert issubclass(exc, ValueError)


def test_merge_on_and_left_on():
    assert_raises_like_pandas(lambda pd: frame(pd).merge(frame(pd), on="a", left_on="a", right_on="a"))


def test_merge_incompatible_key_dtypes():
    exc = assert_raises_like_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2]}).merge(pd.DataFrame({"k": ["1", "2"]}), on="k")
    )
    assert issubclass(exc, ValueError)


def test_sort_values_ascending_length_mismatch():
    assert_raises_like_pandas(lambda pd: frame(pd).sort_values(["a", "b"], ascending=[True]))


def test_dropna_bad_how():
    assert_raises_like_pandas(lambda pd: frame(pd).dropna(how="some"))


def test_drop_duplicates_bad_keep():
    assert_raises_like_pandas(lambda pd: frame(pd).drop_duplicates(keep="middle"))


def test_astype_bad_string_to_int():
    exc = assert_raises_like_pandas(lambda pd: pd.Series(["1", "x"]).astype("int64"))
    assert issubclass(exc, ValueError)


def test_astype_nan_to_int():
    assert_raises_like_pandas(lambda pd: frame(pd).b.astype("int64"))


def test_iloc_out_of_bounds():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).a.iloc[10])
    assert issubclass(exc, IndexError)


def test_loc_missing_label():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).loc[[0, 99]])
    assert issubclass(exc, KeyError)


def test_loc_missing_scalar_label():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).a.loc[99])
    assert issubclass(exc, KeyError)


def test_item_on_empty():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).a.head(0).item())
    assert issubclass(exc, ValueError)


def test_setitem_wrong_length():
    def fn(pd):
        df = frame(pd)
        df["c"] = [1, 2]
        return df

    exc = assert_raises_like_pandas(fn)
    assert issubclass(exc, ValueError)


def test_bool_of_series_ambiguous():
    exc = assert_raises_like_pandas(lambda pd: bool(frame(pd).a > 1))
    assert issubclass(exc, ValueError)


def test_and_python_keyword_ambiguous():
    assert_raises_like_pandas(lambda pd: (frame(pd).a > 1) and (frame(pd).b > 1))


def test_concat_empty_list():
    exc = assert_raises_like_pandas(lambda pd: pd.concat([]))
    assert issubclass(exc, ValueError)


def test_groupby_agg_unknown_function():
    assert_raises_like_pandas(lambda pd: frame(pd).groupby("a").b.agg("bogus"))


def test_str_accessor_on_numbers():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).a.str.upper())
    assert issubclass(exc, AttributeError)


def test_dt_accessor_on_strings():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).s.dt.year)
    assert issubclass(exc, AttributeError)


def test_rename_errors_raise():
    exc = assert_raises_like_pandas(lambda pd: frame(pd).rename(columns={"nope": "x"}, errors="raise"))
    assert issubclass(exc, KeyError)


def test_to_datetime_garbage():
    assert_raises_like_pandas(lambda pd: pd.to_datetime(pd.Series(["2020-01-01", "not a date"])))


def test_dataframe_from_ragged_dict():
    exc = assert_raises_like_pandas(lambda pd: pd.DataFrame({"a": [1, 2], "b": [1]}))
    assert issubclass(exc, ValueError)


def test_read_csv_usecols_missing(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("a,b\n1,2\n")
    exc = assert_raises_like_pandas(lambda pd: pd.read_csv(str(p), usecols=["a", "nope"]))
    assert issubclass(exc, ValueError)
