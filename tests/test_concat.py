"""concat along rows and columns."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")


def two(pd):
    return (
        pd.DataFrame({"a": [1, 2], "b": ["x", None]}),
        pd.DataFrame({"a": [3, 4, 5], "b": ["y", "z", None]}),
    )


@pytest.mark.parametrize("ignore_index", [False, True])
def test_concat_rows(ignore_index):
    assert_matches_pandas(lambda pd: pd.concat(two(pd), ignore_index=ignore_index))


@pytest.mark.parametrize("ignore_index", [False, True])
def test_concat_rows_differing_columns(ignore_index):
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2], "b": [1.5, 2.5]}), pd.DataFrame({"b": [3.5], "c": ["new"]})],
            ignore_index=ignore_index,
        )
    )


def test_concat_rows_int_becomes_float_when_missing():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"b": [3]})], ignore_index=True)
    )


def test_concat_int_and_float():
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"a": [0.5]})]))


def test_concat_three_frames():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [i, i + 1]}) for i in range(3)], ignore_index=True)
    )


def test_concat_series():
    assert_matches_pandas(lambda pd: pd.concat([pd.Series([1.0, NaN]), pd.Series([3.0])]))


def test_concat_with_empty():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"a": [9]}).head(0)], ignore_index=True)
    )


def test_concat_one_frame():
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"a": [1], "s": ["q"]})]))


def test_concat_filtered_frames():
    def fn(pd):
        df = pd.DataFrame({"k": [1, 2, 3, 4], "v": [0.5, NaN, 1.5, 2.5]})
        return pd.concat([df[df.k > 2], df[df.k <= 2]])

    assert_matches_pandas(fn)


def test_concat_datetimes():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [
                pd.DataFrame({"t": pd.to_datetime(["2020-01-01", None])}),
                pd.DataFrame({"t": pd.to_datetime(["2021-01-01"])}),
            ],
            ignore_index=True,
        )
    )


def test_concat_axis1_aligned():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}), pd.DataFrame({"b": ["x", "y", "z"]})], axis=1
        )
    )


def test_concat_axis1_misaligned_index():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}, index=[0, 1, 2]), pd.DataFrame({"b": [4.0, 5.0]}, index=[2, 5])], axis=1
        )
    )


def test_concat_axis1_inner():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}, index=[0, 1, 2]), pd.DataFrame({"b": [4.0, 5.0]}, index=[2, 5])],
            axis=1,
            join="inner",
        )
    )


def test_concat_axis1_series():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.Series([1, 2], name="x"), pd.Series([3.0, NaN], name="y")], axis=1)
    )


def test_concat_axis1_columns_of_same_frame():
    def fn(pd):
        df = pd.DataFrame({"a": [1, 2, 3], "b": [1.5, NaN, 3.5]})
        return pd.concat([df.a * 2, df.b.rename("bb")], axis=1)

    assert_matches_pandas(fn)


def test_concat_keys():
    assert_matches_pandas(lambda pd: pd.concat(two(pd), keys=["first", "second"]))
