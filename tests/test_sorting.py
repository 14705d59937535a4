"""sort_values, sort_index, nlargest/nsmallest, drop_duplicates, unique, value_counts."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "k": [2, 1, 3, 1, 2, 3, 1, 2],
    "f": [0.5, NaN, 2.5, -1.0, NaN, 2.5, 7.0, 0.5],
    "s": ["pear", "apple", None, "fig", "apple", "kiwi", None, "banana"],
    "u": [80, 10, 30, 70, 20, 60, 40, 50],  # unique
}


def frame(pd):
    return pd.DataFrame(DATA)


@pytest.mark.parametrize("col", ["k", "f", "s", "u"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sort_values_single_key_stable(col, ascending, na_position):
    assert_matches_pandas(
        lambda pd: frame(pd).sort_values(col, ascending=ascending, na_position=na_position, kind="stable")
    )


@pytest.mark.parametrize("ascending", [True, False])
def test_sort_values_unique_key_default_kind(ascending):
    assert_matches_pandas(lambda pd: frame(pd).sort_values("u", ascending=ascending))


@pytest.mark.parametrize(
    "by,ascending",
    [
        (["k", "f"], True),
        (["k", "f"], False),
        (["k", "f"], [True, False]),
        (["k", "s"], [False, True]),
        (["s", "k"], True),
        (["f", "s", "k"], [False, True, False]),
    ],
)
def test_sort_values_many_keys(by, ascending):
    assert_matches_pandas(lambda pd: frame(pd).sort_values(by, ascending=ascending))


def test_sort_values_many_keys_na_first():
    assert_matches_pandas(lambda pd: frame(pd).sort_values(["f", "s"], na_position="first"))


def test_sort_values_ignore_index():
    assert_matches_pandas(lambda pd: frame(pd).sort_values("u", ignore_index=True))


def test_sort_values_series():
    assert_matches_pandas(lambda pd: frame(pd).f.sort_values(kind="stable"))
    assert_matches_pandas(lambda pd: frame(pd).s.sort_values(ascending=False, kind="stable"))


def test_sort_values_datetimes():
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {"t": pd.to_datetime(["2021-01-01", None, "2020-06-01", "2022-02-02"]), "v": [1, 2, 3, 4]}
        ).sort_values("t", kind="stable")
    )


def test_sort_values_datetimes_desc_na_first():
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {"t": pd.to_datetime(["2021-01-01", None, "2020-06-01", "2022-02-02"]), "v": [1, 2, 3, 4]}
        ).sort_values("t", ascending=False, na_position="first", kind="stable")
    )


def test_sort_values_bool():
    assert_matches_pandas(lambda pd: pd.DataFrame({"b": [True, False, True, False], "v": [1, 2, 3, 4]}).sort_values(["b", "v"]))


def test_sort_values_empty_and_one_row():
    assert_matches_pandas(lambda pd: frame(pd).head(0).sort_values("k", kind="stable"))
    assert_matches_pandas(lambda pd: frame(pd).head(1).sort_values(["k", "s"]))


@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")  # PDEP-8, pandas 3.1
def test_sort_values_inplace():
    def fn(pd):
        df = frame(pd)
        df.sort_values("u", inplace=True)
        return df

    assert_matches_pandas(fn)


def test_sort_then_head():
    assert_matches_pandas(lambda pd: frame(pd).sort_values("u", ascending=False).head(3))


@pytest.mark.parametrize("ascending", [True, False])
def test_sort_index(ascending):
    assert_matches_pandas(lambda pd: frame(pd).sort_values("u").sort_index(ascending=ascending))


def test_sort_index_string_index():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=["c", "a", "b"]).sort_index())


def test_sort_index_after_groupby_sort_false():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k", sort=False).u.sum().sort_index())


@pytest.mark.parametrize("n", [0, 1, 3, 10])
@pytest.mark.parametrize("how", ["nlargest", "nsmallest"])
def test_nlargest_nsmallest_frame(n, how):
    assert_matches_pandas(lambda pd: getattr(frame(pd), how)(n, "u"))


@pytest.mark.parametrize("how", ["nlargest", "nsmallest"])
def test_nlargest_nsmallest_series_nan(how):
    assert_matches_pandas(lambda pd: getattr(pd.Series([3.0, NaN, 1.0, 7.0, -2.0]), how)(2))


@pytest.mark.parametrize("keep", ["first", "last"])
@pytest.mark.parametrize("how", ["nlargest", "nsmallest"])
def test_nlargest_ties_keep(keep, how):
    assert_matches_pandas(lambda pd: getattr(frame(pd), how)(2, "k", keep=keep))


@pytest.mark.parametrize("keep", ["first", "last", False])
@pytest.mark.parametrize("subset", [None, ["k"], ["s"], ["k", "f"]])
def test_drop_duplicates(keep, subset):
    assert_matches_pandas(lambda pd: frame(pd)[["k", "f", "s"]].drop_duplicates(subset=subset, keep=keep))


def test_drop_duplicates_ignore_index():
    assert_matches_pandas(lambda pd: frame(pd).drop_duplicates(subset=["k"], ignore_index=True))


def test_drop_duplicates_series():
    assert_matches_pandas(lambda pd: frame(pd).s.drop_duplicates())


def test_duplicated():
    assert_matches_pandas(lambda pd: frame(pd).duplicated(subset=["k"]))


# unique() returns an ndarray or an ExtensionArray depending on the dtype: compare as numpy.
@pytest.mark.parametrize(
    "values,dtype",
    [([3, 1, 3, 2, 1], "int64"), ([1.5, NaN, 1.5, 0.0, NaN], "float64"), ([True, True, False], "bool")],
)
def test_unique_numeric(values, dtype):
    assert_matches_pandas(lambda pd: pd.Series(values, dtype=dtype).unique())


def test_unique_strings():
    assert_matches_pandas(lambda pd: list(pd.Series(["b", "a", "b", "c"]).unique()))


def test_unique_strings_with_none():
    # first-appearance order; the null comes back as NaN for the default string dtype
    assert_matches_pandas(lambda pd: pd.Series(pd.Series(["b", None, "a", "b", None]).unique()))


def test_unique_datetimes():
    assert_matches_pandas(
        lambda pd: pd.Series(pd.Series(pd.to_datetime(["2020-01-01", None, "2020-01-01", "2019-01-01"])).unique())
    )


def test_unique_len():
    assert_matches_pandas(lambda pd: len(frame(pd).k.unique()))


@pytest.mark.parametrize("col", ["k", "s", "f"])
def test_value_counts(col):
    # ties in counts are ordered by first appearance in pandas >= 2 (stable sort)
    assert_matches_pandas(lambda pd: frame(pd)[col].value_counts())


@pytest.mark.parametrize("col", ["k", "s", "f"])
def test_value_counts_dropna_false(col):
    assert_matches_pandas(lambda pd: frame(pd)[col].value_counts(dropna=False))


@pytest.mark.parametrize("col", ["k", "s"])
def test_value_counts_normalize(col):
    assert_matches_pandas(lambda pd: frame(pd)[col].value_counts(normalize=True))


@pytest.mark.parametrize("col", ["k", "s"])
def test_value_counts_sort_false(col):
    assert_matches_pandas(lambda pd: frame(pd)[col].value_counts(sort=False))


def test_value_counts_ascending():
    assert_matches_pandas(lambda pd: frame(pd).k.value_counts(ascending=True))


def test_value_counts_empty():
    assert_matches_pandas(lambda pd: pd.Series([], dtype="int64").value_counts())


def test_value_counts_frame():
    assert_matches_pandas(lambda pd: frame(pd)[["k", "s"]].value_counts())


def test_frame_value_counts_one_column_has_a_multiindex():
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": ["b", "a", "b", None]}).value_counts(["k"]))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": ["b", "a", "b", None], "j": [1, 1, 1, 2]}).value_counts(["k", "j"]))
