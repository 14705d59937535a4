"""Series and DataFrame reductions."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

SERIES = {
    "int": ([3, 1, 4, 1, 5, 9, 2, 6], "int64"),
    "float_nan": ([1.5, NaN, -2.0, 4.25, NaN, 0.0], "float64"),
    "all_nan": ([NaN, NaN, NaN], "float64"),
    "empty_float": ([], "float64"),
    "empty_int": ([], "int64"),
    "one": ([7.5], "float64"),
    "bool": ([True, False, True, True], "bool"),
}

NUMERIC_REDUCTIONS = ["sum", "mean", "min", "max", "count", "std", "var", "median", "prod", "nunique"]


@pytest.mark.parametrize("name", sorted(SERIES))
@pytest.mark.parametrize("how", NUMERIC_REDUCTIONS)
def test_series_reduction(name, how):
    values, dtype = SERIES[name]
    assert_matches_pandas(lambda pd: getattr(pd.Series(values, dtype=dtype), how)())


@pytest.mark.parametrize("name", sorted(SERIES))
@pytest.mark.parametrize("how", ["any", "all"])
def test_series_any_all(name, how):
    values, dtype = SERIES[name]
    assert_matches_pandas(lambda pd: getattr(pd.Series(values, dtype=dtype), how)())


def test_bool_mean():
    assert_matches_pandas(lambda pd: pd.Series([True, False, True, True]).mean())


@pytest.mark.parametrize("how", ["sum", "mean", "min", "max", "std", "var", "median", "prod"])
def test_series_reduction_skipna_false(how):
    assert_matches_pandas(lambda pd: getattr(pd.Series([1.0, NaN, 3.0]), how)(skipna=False))


def test_std_ddof0():
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, 4.0, NaN]).std(ddof=0))
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, 4.0, NaN]).var(ddof=0))


@pytest.mark.parametrize("how", ["min", "max", "count", "nunique"])
def test_string_reductions(how):
    assert_matches_pandas(lambda pd: getattr(pd.Series(["pear", None, "apple", "zoo", "apple"]), how)())


def test_nunique_dropna_false():
    assert_matches_pandas(lambda pd: pd.Series([1.0, NaN, 1.0, 2.0, NaN]).nunique(dropna=False))
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "a"]).nunique(dropna=False))


@pytest.mark.parametrize("how", ["min", "max", "count"])
def test_datetime_reductions(how):
    assert_matches_pandas(lambda pd: getattr(pd.Series(pd.to_datetime(["2020-05-01", None, "2019-01-01"])), how)())


def test_datetime_min_all_nat():
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime([None, None])).min())


def test_sum_after_filter():
    assert_matches_pandas(lambda pd: (lambda s: s[s > 2].sum())(pd.Series([1, 2, 3, 4])))


def test_sum_after_filter_to_empty():
    assert_matches_pandas(lambda pd: (lambda s: s[s > 100].sum())(pd.Series([1, 2, 3, 4])))
    assert_matches_pandas(lambda pd: (lambda s: s[s > 100].mean())(pd.Series([1.0, 2.0])))


FRAME = {
    "i": [1, 2, 3, 4],
    "f": [1.5, NaN, 2.5, NaN],
    "b": [True, False, True, True],
    "s": ["b", None, "a", "c"],
}


@pytest.mark.parametrize("how", ["sum", "mean", "std", "var", "median", "prod"])
def test_frame_reduction_numeric_only(how):
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame(FRAME), how)(numeric_only=True))


@pytest.mark.parametrize("how", ["sum", "mean", "min", "max", "count", "std", "var", "median", "prod", "nunique"])
def test_frame_reduction_numeric_columns(how):
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame(FRAME)[["i", "f"]], how)())


@pytest.mark.parametrize("how", ["count", "nunique", "min", "max"])
def test_frame_reduction_with_strings(how):
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame(FRAME)[["i", "s"]], how)())


@pytest.mark.parametrize("how", ["any", "all"])
def test_frame_any_all(how):
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame(FRAME)[["i", "b"]], how)())


@pytest.mark.parametrize("how", ["sum", "mean", "min", "max", "count"])
def test_frame_reduction_empty(how):
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame({"a": [], "b": []}, dtype="float64"), how)())


def test_frame_reduction_all_nan_column():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [NaN, NaN], "b": [1.0, 2.0]}).mean())
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [NaN, NaN], "b": [1.0, 2.0]}).sum())


def test_frame_sum_axis1():
    assert_matches_pandas(lambda pd: pd.DataFrame(FRAME)[["i", "f"]].sum(axis=1))


def test_frame_mean_axis1():
    assert_matches_pandas(lambda pd: pd.DataFrame(FRAME)[["i", "f"]].mean(axis=1))


def test_sum_min_count():
    assert_matches_pandas(lambda pd: pd.Series([NaN, NaN]).sum(min_count=1))


def test_idxmax_idxmin():
    assert_matches_pandas(lambda pd: pd.Series([3.0, NaN, 7.0, 1.0], index=list("abcd")).idxmax())
    assert_matches_pandas(lambda pd: pd.Series([3.0, NaN, 7.0, 1.0], index=list("abcd")).idxmin())


def test_quantile():
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, NaN, 4.0, 10.0]).quantile(0.25))


def test_tz_aware_max_is_in_its_zone():
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime(["2024-01-01 10:00", "2024-01-02 00:00"])).dt.tz_localize("Europe/Paris").max())
