"""DataFrame / Series methods: assign, rename, drop, astype, fillna, where, setitem, ..."""
import numpy as np
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "a": [1, 2, 3, 4, 5],
    "f": [1.26, NaN, -3.5, 0.0, 2.75],
    "s": ["x", None, "y", "x", "z"],
    "b": [True, False, True, False, False],
}


def frame(pd):
    return pd.DataFrame(DATA)


# --- assign ---------------------------------------------------------------------------------

def test_assign_value():
    assert_matches_pandas(lambda pd: frame(pd).assign(c=frame(pd).a * 2))


def test_assign_lambda():
    assert_matches_pandas(lambda pd: frame(pd).assign(c=lambda d: d.a + d.f))


def test_assign_scalar():
    assert_matches_pandas(lambda pd: frame(pd).assign(c=1.5, d="lit"))


def test_assign_chained_lambdas_see_previous():
    assert_matches_pandas(lambda pd: frame(pd).assign(c=lambda d: d.a * 10, e=lambda d: d.c + 1))


def test_assign_overwrite():
    assert_matches_pandas(lambda pd: frame(pd).assign(a=lambda d: d.a.astype("float64") / 2))


def test_assign_list():
    assert_matches_pandas(lambda pd: frame(pd).assign(c=[5, 4, 3, 2, 1]))


# --- rename / drop --------------------------------------------------------------------------

def test_rename_columns():
    assert_matches_pandas(lambda pd: frame(pd).rename(columns={"a": "A", "s": "S"}))


def test_rename_missing_key_ignored():
    assert_matches_pandas(lambda pd: frame(pd).rename(columns={"nope": "X", "f": "F"}))


@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")  # PDEP-8, pandas 3.1
def test_rename_inplace():
    def fn(pd):
        df = frame(pd)
        df.rename(columns={"a": "alpha"}, inplace=True)
        return df

    assert_matches_pandas(fn)


def test_series_rename():
    assert_matches_pandas(lambda pd: frame(pd).a.rename("new"))


@pytest.mark.parametrize("cols", [["a"], ["s", "b"], "f", []])
def test_drop_columns(cols):
    assert_matches_pandas(lambda pd: frame(pd).drop(columns=cols))


@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")  # PDEP-8, pandas 3.1
def test_drop_inplace():
    def fn(pd):
        df = frame(pd)
        df.drop(columns=["f"], inplace=True)
        return df

    assert_matches_pandas(fn)


def test_drop_rows_by_label():
    assert_matches_pandas(lambda pd: frame(pd).drop(index=[0, 3]))


# --- astype ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "col,dtype",
    [
        ("a", "float64"),
        ("a", "str"),
        ("a", "int32"),
        ("b", "int64"),
        ("a", "bool"),
        ("s", "category"),
        ("a", "category"),
        ("f", "str"),
    ],
)
def test_astype(col, dtype):
    assert_matches_pandas(lambda pd: frame(pd)[col].astype(dtype))


def test_astype_float_to_int():
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.9, -3.7]).astype("int64"))


def test_astype_frame_dict():
    assert_matches_pandas(lambda pd: frame(pd).astype({"a": "float64", "b": "int8"}))


def test_astype_float_with_nan_to_int_raises():
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: frame(pd).f.astype("int64"))


# --- isna / fillna / dropna -----------------------------------------------------------------

def test_isna_notna_frame():
    assert_matches_pandas(lambda pd: frame(pd).isna())
    assert_matches_pandas(lambda pd: frame(pd).notna())


@pytest.mark.parametrize("col", ["a", "f", "s", "b"])
def test_isna_notna_series(col):
    assert_matches_pandas(lambda pd: frame(pd)[col].isna())
    assert_matches_pandas(lambda pd: frame(pd)[col].notnull())


def test_isna_datetime():
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime(["2020-01-01", None])).isna())


def test_fillna_scalar_series():
    assert_matches_pandas(lambda pd: frame(pd).f.fillna(0.0))
    assert_matches_pandas(lambda pd: frame(pd).s.fillna("missing"))


def test_fillna_dict_frame():
    assert_matches_pandas(lambda pd: frame(pd).fillna({"f": -1.0, "s": "?"}))


def test_fillna_scalar_frame_numeric():
    assert_matches_pandas(lambda pd: frame(pd)[["a", "f"]].fillna(0))


def test_fillna_with_series():
    assert_matches_pandas(lambda pd: (lambda df: df.f.fillna(df.a.astype("float64")))(frame(pd)))


def test_fillna_datetime():
    assert_matches_pandas(
        lambda pd: pd.Series(pd.to_datetime(["2020-01-01", None])).fillna(pd.Timestamp("1999-09-09"))
    )


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"how": "any"}, {"how": "all"}, {"subset": ["f"]}, {"subset": ["s", "a"]}, {"thresh": 4}],
    ids=["default", "any", "all", "subset_f", "subset_s_a", "thresh"],
)
def test_dropna_frame(kwargs):
    assert_matches_pandas(lambda pd: frame(pd).dropna(**kwargs))


def test_dropna_how_all_rows():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"x": [NaN, 1.0, NaN], "y": [None, "a", "b"]}).dropna(how="all")
    )


def test_dropna_series():
    assert_matches_pandas(lambda pd: frame(pd).s.dropna())


def test_dropna_empty_result():
    assert_matches_pandas(lambda pd: pd.DataFrame({"x": [NaN, NaN]}).dropna())


# --- isin / between / where / mask / clip / abs / round -----------------------------------

@pytest.mark.parametrize("col,values", [("a", [1, 3, 99]), ("s", ["x", "z"]), ("f", [0.0, 2.75]), ("a", [])])
def test_isin(col, values):
    assert_matches_pandas(lambda pd: frame(pd)[col].isin(values))


def test_isin_filter():
    assert_matches_pandas(lambda pd: (lambda df: df[df.s.isin(["x", "y"])])(frame(pd)))


@pytest.mark.parametrize("inclusive", ["both", "neither", "left", "right"])
def test_between(inclusive):
    assert_matches_pandas(lambda pd: frame(pd).a.between(2, 4, inclusive=inclusive))
    assert_matches_pandas(lambda pd: frame(pd).f.between(0.0, 2.75, inclusive=inclusive))


def test_where_series_cond():
    assert_matches_pandas(lambda pd: (lambda df: df.f.where(df.a > 2))(frame(pd)))


def test_where_other():
    assert_matches_pandas(lambda pd: (lambda df: df.a.where(df.b, -1))(frame(pd)))


def test_where_other_series():
    assert_matches_pandas(lambda pd: (lambda df: df.f.where(df.f > 0, df.a * 1.0))(frame(pd)))


def test_mask_series_cond():
    assert_matches_pandas(lambda pd: (lambda df: df.f.mask(df.a > 2))(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda df: df.a.mask(df.a > 2, 0))(frame(pd)))


def test_where_strings():
    assert_matches_pandas(lambda pd: (lambda df: df.s.where(df.b, "other"))(frame(pd)))


@pytest.mark.parametrize("lower,upper", [(0, None), (None, 2.0), (-1.0, 1.0)])
def test_clip(lower, upper):
    assert_matches_pandas(lambda pd: frame(pd).f.clip(lower=lower, upper=upper))


def test_clip_int():
    assert_matches_pandas(lambda pd: frame(pd).a.clip(2, 4))


def test_abs():
    assert_matches_pandas(lambda pd: frame(pd).f.abs())
    assert_matches_pandas(lambda pd: pd.Series([-3, 0, 2]).abs())


def test_abs_frame():
    assert_matches_pandas(lambda pd: frame(pd)[["a", "f"]].abs())


@pytest.mark.parametrize("decimals", [0, 1, 2])
def test_round(decimals):
    assert_matches_pandas(lambda pd: frame(pd).f.round(decimals))


def test_round_frame():
    assert_matches_pandas(lambda pd: frame(pd)[["a", "f"]].round(1))


# --- setitem ----------------------------------------------------------------------------------

def test_setitem_new_column():
    def fn(pd):
        df = frame(pd)
        df["c"] = df.a * df.f
        return df

    assert_matches_pandas(fn)


def test_setitem_overwrite_column():
    def fn(pd):
        df = frame(pd)
        df["a"] = df.a + 100
        return df

    assert_matches_pandas(fn)


def test_setitem_scalar():
    def fn(pd):
        df = frame(pd)
        df["c"] = 0
        df["d"] = "const"
        return df

    assert_matches_pandas(fn)


def test_setitem_list():
    def fn(pd):
        df = frame(pd)
        df["c"] = [9.0, 8.0, NaN, 6.0, 5.0]
        return df

    assert_matches_pandas(fn)


def test_loc_mask_setitem():
    def fn(pd):
        df = frame(pd)
        df.loc[df.a > 2, "f"] = 99.0
        return df

    assert_matches_pandas(fn)


def test_loc_mask_setitem_new_column():
    def fn(pd):
        df = frame(pd)
        df.loc[df.b, "new"] = 1.0
        return df

    assert_matches_pandas(fn)


def test_loc_mask_setitem_string():
    def fn(pd):
        df = frame(pd)
        df.loc[df.s.isna(), "s"] = "filled"
        return df

    assert_matches_pandas(fn)


def test_setitem_then_groupby():
    def fn(pd):
        df = frame(pd)
        df["k"] = df.a % 2
        return df.groupby("k").f.sum()

    assert_matches_pandas(fn)


@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")  # PDEP-8, pandas 3.1
def test_fillna_inplace():
    def fn(pd):
        df = frame(pd)
        df.fillna({"f": 0.0}, inplace=True)
        return df

    assert_matches_pandas(fn)


@pytest.mark.filterwarnings("ignore:The inplace keyword:DeprecationWarning")  # PDEP-8, pandas 3.1
def test_dropna_inplace():
    def fn(pd):
        df = frame(pd)
        df.dropna(inplace=True)
        return df

    assert_matches_pandas(fn)


def test_copy_is_independent():
    def fn(pd):
        df = frame(pd)
        df2 = df.copy()
        df2["a"] = 0
        return df

    assert_matches_pandas(fn)


# --- attributes / conversion / iteration ------------------------------------------------------

def test_len():
    assert_matches_pandas(lambda pd: len(frame(pd)))
    assert_matches_pandas(lambda pd: len(frame(pd).s))
    assert_matches_pandas(lambda pd: (lambda df: len(df[df.a > 2]))(frame(pd)))


def test_len_empty():
    assert_matches_pandas(lambda pd: len(pd.DataFrame({"a": []})))


def test_shape():
    assert_matches_pandas(lambda pd: frame(pd).shape)
    assert_matches_pandas(lambda pd: (lambda df: df[df.f > 0].shape)(frame(pd)))
    assert_matches_pandas(lambda pd: frame(pd).f.shape)


def test_columns():
    assert_matches_pandas(lambda pd: frame(pd).columns)
    assert_matches_pandas(lambda pd: list(frame(pd).assign(z=1).columns))


def test_index_attr():
    assert_matches_pandas(lambda pd: (lambda df: df[df.a > 2].index)(frame(pd)))


def test_dtypes():
    assert_matches_pandas(lambda pd: frame(pd).dtypes)
    assert_matches_pandas(lambda pd: frame(pd).f.dtype)


def test_dtypes_datetime():
    assert_matches_pandas(lambda pd: pd.DataFrame({"t": pd.to_datetime(["2020-01-01", None])}).dtypes)


def test_values_numeric():
    assert_matches_pandas(lambda pd: frame(pd)[["a", "f"]].values)
    assert_matches_pandas(lambda pd: frame(pd).f.values)


def test_to_numpy():
    assert_matches_pandas(lambda pd: frame(pd).a.to_numpy())
    assert_matches_pandas(lambda pd: frame(pd)[["a", "b"]].to_numpy())
    # (object arrays holding NaN do not compare equal in the helper, so drop the nulls)
    assert_matches_pandas(lambda pd: frame(pd).s.dropna().to_numpy())


def test_to_numpy_dtype():
    assert_matches_pandas(lambda pd: frame(pd).a.to_numpy(dtype="float32"))


def test_tolist():
    assert_matches_pandas(lambda pd: frame(pd).a.tolist())


def test_iter_frame_gives_column_labels():
    assert_matches_pandas(lambda pd: list(frame(pd)))
    assert_matches_pandas(lambda pd: [c for c in frame(pd)[["s", "a"]]])


def test_iter_series():
    assert_matches_pandas(lambda pd: list(frame(pd).a))
    assert_matches_pandas(lambda pd: [x for x in pd.Series(["p", "q"])])


def test_iloc_scalar():
    assert_matches_pandas(lambda pd: frame(pd).a.iloc[0])
    assert_matches_pandas(lambda pd: frame(pd).f.iloc[1])
    assert_matches_pandas(lambda pd: frame(pd).s.iloc[2])
    assert_matches_pandas(lambda pd: frame(pd).iloc[3, 2])


def test_item():
    assert_matches_pandas(lambda pd: (lambda df: df[df.a == 3].f.item())(frame(pd)))
    assert_matches_pandas(lambda pd: pd.Series(["only"]).item())


def test_item_raises_on_many():
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: frame(pd).a.item())


def test_empty_attr():
    assert_matches_pandas(lambda pd: frame(pd).empty)
    assert_matches_pandas(lambda pd: (lambda df: df[df.a > 100].empty)(frame(pd)))


def test_map_dict():
    assert_matches_pandas(lambda pd: frame(pd).s.map({"x": 1, "y": 2}))


def test_cumsum():
    assert_matches_pandas(lambda pd: frame(pd).f.cumsum())
    assert_matches_pandas(lambda pd: frame(pd).a.cumsum())


def test_shift():
    assert_matches_pandas(lambda pd: frame(pd).a.shift(1))
    assert_matches_pandas(lambda pd: frame(pd).f.shift(-2))


def test_numpy_ufunc_on_series():
    assert_matches_pandas(lambda pd: np.sqrt(frame(pd).a))


@pytest.mark.parametrize("values, values_list", [
    ([1, 2, 3], [1, "a", 2.5]),
    ([1, 2, 3], [1.0, 3]),
    ([1.5, 2.0, 3.0], [1.5, "x"]),
    (["a", "b", None], ["a", 1, None]),
    ([True, False], [True]),
])
def test_isin_values_of_other_types(values, values_list):
    assert_matches_pandas(lambda pd: pd.Series(values).isin(values_list))


@pytest.mark.parametrize("value", [np.array(np.nan, dtype="float16"), np.array(np.nan, dtype="float32"),
                                   np.array(np.nan), np.array(3, dtype="uint8"), np.float16("nan"),
                                   np.array("a", dtype=object)])
def test_setitem_zero_dim_array_and_numpy_nan(value):
    # pandas broadcasts a 0-d array as its scalar, of the array's dtype; a numpy float's NaN keeps its dtype
    import gframe

    def fn(pd):
        df = frame(pd)
        df["c"] = value
        return df

    with gframe.option_context(fallback="raise"):
        assert_matches_pandas(fn)


@pytest.mark.parametrize("labels,kw", [
    ([3, 5, 1, 3], {}), ([3, 5, 1], {"fill_value": 1}), ([3, 1], {}), ([3, 1], {"fill_value": 7}),
])
def test_series_reindex_native(labels, kw):
    # new labels left-joined to the index: the index name kept, missing labels NaN (ints float64) or the fill
    import gframe

    with gframe.option_context(fallback="raise"):
        assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=pd.Index([2, 3, 1], name="k"), name="c")
                              .reindex(np.array(labels), **kw))
        assert_matches_pandas(lambda pd: pd.Series([1.5, NaN, 3.0], index=list("abc")).reindex(["c", "b", "z"], **kw))
        assert_matches_pandas(lambda pd: pd.Series(["x", "y", None], index=[1.0, NaN, 3.0]).reindex([NaN, 3.0, 7.0]))
        assert_matches_pandas(lambda pd: pd.Series([True, False]).reindex([0, 1, 2]))


def test_series_reindex_through_pandas():
    # duplicate labels (pandas' ValueError), a fill value the ints cannot hold, methods: pandas' answers
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: pd.Series([1, 2], index=[1, 1]).reindex([1, 0]),
                              match="cannot reindex on an axis with duplicate labels")
    with pytest.warns(Warning):
        assert_matches_pandas(lambda pd: pd.Series([1, 2]).reindex([1, 0, 5], fill_value=1.5))
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0], index=[0, 2]).reindex([0, 1, 2], method="ffill"))


def test_astype_int_of_numbers_the_data_decides():
    # an int Series aligned with missing rows then filled (float64 or int64 by the data) casts to int
    # natively; NaN left raises pandas' error (no column named for a Series)
    import gframe
    from gframe.testing import assert_raises_like_pandas

    def counts(pd):
        left = pd.Series([2, 3, 2]).value_counts()
        return left, pd.Series([2, 3, 1]).value_counts()

    with gframe.option_context(fallback="raise"):
        assert_matches_pandas(lambda pd: counts(pd)[0].mul(counts(pd)[1], fill_value=1).astype(np.intp))
        assert_raises_like_pandas(lambda pd: (counts(pd)[0] + counts(pd)[1]).astype("int32"),
                                  match=r"to integer\. Replace")
