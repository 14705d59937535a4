"""Column selection, boolean masks, loc / iloc, head / tail."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "a": [3, 1, 4, 1, 5, 9, 2, 6],
    "b": [2.5, NaN, 0.0, -1.5, 8.0, NaN, 3.25, 1.0],
    "s": ["p", "q", None, "r", "s", "t", None, "u"],
    "flag": [True, False, True, True, False, True, False, False],
}


def frame(pd):
    return pd.DataFrame(DATA)


def test_getitem_column():
    assert_matches_pandas(lambda pd: frame(pd)["a"])


def test_getitem_string_column():
    assert_matches_pandas(lambda pd: frame(pd)["s"])


@pytest.mark.parametrize("cols", [["a", "b"], ["s", "a"], ["b"], []])
def test_getitem_column_list(cols):
    assert_matches_pandas(lambda pd: frame(pd)[cols])


def test_attribute_access():
    assert_matches_pandas(lambda pd: frame(pd).b)


def test_column_then_index_access():
    assert_matches_pandas(lambda pd: frame(pd)["a"][frame(pd)["a"] > 2])


@pytest.mark.parametrize(
    "mask",
    [
        lambda df: df.a > 1,
        lambda df: df.b > 0,  # NaN compares False
        lambda df: df.b.isna(),
        lambda df: df.flag,
        lambda df: ~df.flag,
        lambda df: (df.a > 1) & (df.b < 5),
        lambda df: (df.a == 1) | df.s.isna(),
        lambda df: df.s == "r",
        lambda df: df.a > 100,  # nothing selected
    ],
    ids=["int_gt", "float_gt_nan", "isna", "bool_col", "not_bool", "and", "or", "str_eq", "none"],
)
def test_boolean_mask(mask):
    assert_matches_pandas(lambda pd: (lambda df: df[mask(df)])(frame(pd)))


def test_boolean_mask_series():
    assert_matches_pandas(lambda pd: (lambda s: s[s > 2])(frame(pd).a))


def test_boolean_mask_chained():
    assert_matches_pandas(lambda pd: (lambda df: (lambda d: d[d.b > 0])(df[df.a > 1]))(frame(pd)))


def test_loc_mask():
    assert_matches_pandas(lambda pd: (lambda df: df.loc[df.a >= 4])(frame(pd)))


def test_loc_mask_columns():
    assert_matches_pandas(lambda pd: (lambda df: df.loc[df.a >= 4, ["a"]])(frame(pd)))


def test_loc_mask_single_column():
    assert_matches_pandas(lambda pd: (lambda df: df.loc[df.a >= 4, "s"])(frame(pd)))


def test_loc_all_rows_columns():
    assert_matches_pandas(lambda pd: frame(pd).loc[:, ["b", "a"]])


@pytest.mark.parametrize("labels", [[0, 2, 4], [7, 0], [3], []])
def test_loc_label_list(labels):
    assert_matches_pandas(lambda pd: frame(pd).loc[labels])


def test_loc_label_list_string_index():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"v": [1, 2, 3]}, index=["x", "y", "z"]).loc[["z", "x"]]
    )


@pytest.mark.parametrize("sl", [slice(2, 5), slice(None, 3), slice(6, None), slice(5, 2)])
def test_loc_label_slice(sl):
    # label slices include both ends
    assert_matches_pandas(lambda pd: frame(pd).loc[sl])


def test_loc_label_slice_with_columns():
    assert_matches_pandas(lambda pd: frame(pd).loc[1:3, ["s", "b"]])


def test_loc_scalar():
    assert_matches_pandas(lambda pd: frame(pd).loc[2, "b"])


def test_loc_row_as_series():
    assert_matches_pandas(lambda pd: frame(pd)[["a", "b"]].loc[4])


@pytest.mark.parametrize("sl", [slice(1, 3), slice(None, 0), slice(-3, None), slice(None, None, 2), slice(5, 100)])
def test_iloc_slice(sl):
    assert_matches_pandas(lambda pd: frame(pd).iloc[sl])


@pytest.mark.parametrize("pos", [[0, 2], [7, 1, 3], [-1], []])
def test_iloc_list(pos):
    assert_matches_pandas(lambda pd: frame(pd).iloc[pos])


def test_iloc_rows_and_columns():
    assert_matches_pandas(lambda pd: frame(pd).iloc[1:4, [0, 2]])


def test_iloc_series_slice():
    assert_matches_pandas(lambda pd: frame(pd).b.iloc[2:6])


def test_iloc_after_filter_keeps_index():
    assert_matches_pandas(lambda pd: (lambda df: df[df.a > 1].iloc[[0, 2]])(frame(pd)))


@pytest.mark.parametrize("n", [0, 1, 3, 8, 20, -2, -8, -20])
def test_head(n):
    assert_matches_pandas(lambda pd: frame(pd).head(n))


@pytest.mark.parametrize("n", [0, 1, 3, 20, -2])
def test_tail(n):
    assert_matches_pandas(lambda pd: frame(pd).tail(n))


def test_head_default():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": list(range(12))}).head())


def test_series_head_tail():
    assert_matches_pandas(lambda pd: frame(pd).s.head(3))
    assert_matches_pandas(lambda pd: frame(pd).s.tail(3))


def test_head_empty_frame():
    assert_matches_pandas(lambda pd: frame(pd).head(0).head(5))


def test_one_row_selection():
    assert_matches_pandas(lambda pd: (lambda df: df[df.a > 0][["a"]])(pd.DataFrame({"a": [1], "b": ["x"]})))


def test_series_getitem_label():
    assert_matches_pandas(lambda pd: pd.Series([1.5, 2.5, 3.5], index=["a", "b", "c"])["b"])


def test_series_loc_labels():
    assert_matches_pandas(lambda pd: pd.Series([1.5, 2.5, 3.5], index=["a", "b", "c"]).loc[["c", "a"]])
