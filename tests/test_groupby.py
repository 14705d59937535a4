"""groupby: keys, options, aggregations."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "k": [1, 2, 1, 3, 2, 1, 3, 2, 1],
    "g": ["b", "a", "b", None, "a", "c", "b", None, "a"],
    "v": [1.0, NaN, 3.0, 4.0, 5.0, NaN, 7.0, 8.0, 9.0],
    "w": [10, 20, 30, 40, 50, 60, 70, 80, 90],
}


def frame(pd):
    return pd.DataFrame(DATA)


AGGS = ["sum", "mean", "min", "max", "count", "size", "std", "var", "median", "first", "last", "nunique"]


@pytest.mark.parametrize("how", AGGS)
@pytest.mark.parametrize("key", ["k", "g"])
def test_groupby_series_agg(how, key):
    assert_matches_pandas(lambda pd: getattr(frame(pd).groupby(key)["v"], how)())


@pytest.mark.parametrize("how", AGGS)
def test_groupby_int_values(how):
    assert_matches_pandas(lambda pd: getattr(frame(pd).groupby("g").w, how)())


@pytest.mark.parametrize("how", ["sum", "mean", "min", "max", "count", "size", "first", "last", "nunique"])
def test_groupby_frame_agg(how):
    assert_matches_pandas(lambda pd: getattr(frame(pd)[["k", "v", "w"]].groupby("k"), how)())


@pytest.mark.parametrize("how", ["min", "max", "count", "first", "last", "nunique"])
def test_groupby_string_values(how):
    assert_matches_pandas(lambda pd: getattr(frame(pd).groupby("k").g, how)())


def test_groupby_many_keys():
    assert_matches_pandas(lambda pd: frame(pd).groupby(["k", "g"]).v.sum())


def test_groupby_many_keys_frame():
    assert_matches_pandas(lambda pd: frame(pd).groupby(["g", "k"])[["v", "w"]].mean())


@pytest.mark.parametrize("how", ["sum", "mean", "count", "size", "max"])
def test_groupby_as_index_false(how):
    assert_matches_pandas(lambda pd: getattr(frame(pd).groupby("k", as_index=False)[["v", "w"]], how)())


def test_groupby_as_index_false_many_keys():
    assert_matches_pandas(lambda pd: frame(pd).groupby(["k", "g"], as_index=False).v.sum())


def test_groupby_as_index_false_size():
    assert_matches_pandas(lambda pd: frame(pd).groupby("g", as_index=False).size())


@pytest.mark.parametrize("key", ["k", "g", ["g", "k"]])
def test_groupby_sort_false(key):
    # groups in order of first appearance
    assert_matches_pandas(lambda pd: frame(pd).groupby(key, sort=False).w.sum())


@pytest.mark.parametrize("key", ["g", ["g", "k"]])
@pytest.mark.parametrize("how", ["sum", "size", "mean"])
def test_groupby_dropna_false(key, how):
    assert_matches_pandas(lambda pd: getattr(frame(pd).groupby(key, dropna=False).w, how)())


def test_groupby_dropna_false_sort_false():
    assert_matches_pandas(lambda pd: frame(pd).groupby("g", dropna=False, sort=False).v.sum())


def test_groupby_float_key_with_nan():
    assert_matches_pandas(lambda pd: frame(pd).groupby("v").w.sum())
    assert_matches_pandas(lambda pd: frame(pd).groupby("v", dropna=False).w.sum())


def test_groupby_bool_key():
    assert_matches_pandas(lambda pd: frame(pd).assign(b=lambda d: d.w > 40).groupby("b").v.mean())


def test_groupby_datetime_key():
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {
                "t": pd.to_datetime(["2020-01-02", "2020-01-01", None, "2020-01-02", "2020-01-01"]),
                "v": [1.0, 2.0, 3.0, 4.0, NaN],
            }
        ).groupby("t").v.agg(["sum", "count"])
    )


def test_groupby_datetime_key_dropna_false():
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {"t": pd.to_datetime(["2020-01-02", None, "2020-01-01"]), "v": [1, 2, 3]}
        ).groupby("t", dropna=False).v.sum()
    )


def test_groupby_datetime_values():
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {"k": [1, 1, 2, 2], "t": pd.to_datetime(["2020-01-02", None, "2021-01-01", "2019-05-05"])}
        ).groupby("k").t.agg(["min", "max", "count"])
    )


@pytest.mark.parametrize("observed", [True, False])
def test_groupby_categorical_observed(observed):
    assert_matches_pandas(
        lambda pd: pd.DataFrame(
            {
                "c": pd.Categorical(["x", "y", "x", None], categories=["z", "y", "x"]),
                "v": [1.0, 2.0, 3.0, 4.0],
            }
        ).groupby("c", observed=observed).v.sum()
    )


@pytest.mark.parametrize("observed", [True, False])
def test_groupby_categorical_count(observed):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"c": ["b", "a", "b"], "v": [1, 2, 3]})
        .astype({"c": "category"})
        .groupby("c", observed=observed)
        .v.count()
    )


def test_groupby_agg_list():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").v.agg(["sum", "mean"]))


def test_groupby_frame_agg_list():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k")[["v", "w"]].agg(["sum", "mean"]))


def test_groupby_agg_dict():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").agg({"v": "sum", "w": ["min", "max"]}))


def test_groupby_agg_dict_strings():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").agg({"g": "first", "v": "max"}))


def test_groupby_named_agg():
    assert_matches_pandas(lambda pd: frame(pd).groupby("g").agg(n=("v", "size"), m=("w", "mean")))


def test_groupby_named_agg_as_index_false():
    assert_matches_pandas(
        lambda pd: frame(pd).groupby("k", as_index=False).agg(total=("w", "sum"), nv=("v", "count"), u=("g", "nunique"))
    )


def test_groupby_named_agg_pd_namedagg():
    assert_matches_pandas(
        lambda pd: frame(pd).groupby("k").agg(lo=pd.NamedAgg(column="v", aggfunc="min"))
    )


def test_groupby_size():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").size())
    assert_matches_pandas(lambda pd: frame(pd).groupby(["k", "g"]).size())


@pytest.mark.parametrize("n", [1, 2, 10])
def test_groupby_head(n):
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").head(n))


def test_groupby_head_null_keys_dropped():
    assert_matches_pandas(lambda pd: frame(pd).groupby("g").head(1))


def test_groupby_std_ddof0():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").v.std(ddof=0))


def test_groupby_all_nan_group():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": ["a", "a", "b"], "v": [NaN, NaN, 1.0]}).groupby("k").v.agg(
            ["sum", "mean", "min", "count", "first"]
        )
    )


def test_groupby_sum_nulls():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": ["a", None, "a", "b"], "v": [1.0, None, 3.0, 4.0]}).groupby("k").v.sum()
    )


@pytest.mark.parametrize("how", ["sum", "mean", "count", "size", "max"])
def test_groupby_empty_frame(how):
    assert_matches_pandas(
        lambda pd: getattr(pd.DataFrame({"k": [], "v": []}).astype({"k": "int64", "v": "float64"}).groupby("k").v, how)()
    )


def test_groupby_one_row():
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": ["a"], "v": [2.5]}).groupby("k").v.agg(["sum", "std", "count"]))


def test_groupby_then_reset_index():
    assert_matches_pandas(lambda pd: frame(pd).groupby(["k", "g"]).w.sum().reset_index())


def test_groupby_after_filter():
    assert_matches_pandas(lambda pd: (lambda df: df[df.w > 20].groupby("k").v.mean())(frame(pd)))


def test_groupby_sales(sales_data):
    assert_matches_pandas(
        lambda pd: pd.DataFrame(sales_data)
        .assign(revenue=lambda d: d.qty * d.price)
        .groupby(["store", "item"])
        .agg(qty=("qty", "sum"), revenue=("revenue", "sum"))
    )


def test_groupby_transform_sum():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").w.transform("sum"))


def test_groupby_cumcount():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").cumcount())


def test_groupby_bool_values_sum():
    assert_matches_pandas(lambda pd: frame(pd).assign(b=lambda d: d.v > 3).groupby("k").b.sum())


def test_agg_dict_of_lists_not_as_index_gives_multiindex_columns():
    d = {"id4": [1, 1, 2, 2], "id5": [1, 1, 1, 2], "v3": [1.0, 2.0, 3.0, None]}

    def q(pd):
        return pd.DataFrame(d).groupby(["id4", "id5"], as_index=False, sort=False, dropna=False).agg(
            {"v3": ["median", "std"]})

    assert_matches_pandas(q)
    assert_matches_pandas(lambda pd: q(pd)["v3"])
    assert_matches_pandas(lambda pd: q(pd)["v3"]["median"])


@pytest.mark.parametrize("by", [
    lambda pd: 4 * [pd.Timestamp("2020-01-31")],   # not labels, as long as the rows: one key of values
    lambda pd: ["x", "y", "x", "k"],              # "k" is a label, the others not: still values
])
def test_groupby_list_as_long_as_the_rows_is_one_key(by):
    """pandas' "index replacement": a list of scalars as long as the rows, not all of them column
    labels or index names, groups by those values (no KeyError)."""
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 2, 1, 2], "v": [1.0, NaN, 3.0, 4.0]}).groupby(by(pd)).sum())
    with pytest.raises(KeyError):
        import gframe

        gframe.DataFrame({"k": [1, 2, 1, 2]}).groupby(["k", "zz"])
