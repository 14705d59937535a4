"""groupby: causes found by pandas' own groupby tests (conformance, session 9), each run natively
(``native``: a trip to pandas raises FallbackError) and checked against pandas - pandas' dtype
refusals raised before any trip, ``agg(name)`` / ``transform(name)``, keys given as values,
``pd.Grouper(key=...)``, ``shift`` / ``ffill`` / ``bfill`` and ``groups``."""
import re
import warnings

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas

NaN = float("nan")




def _raises_like_pandas(fn):
    """pandas' exception, type and message, raised by gframe natively."""
    with pytest.raises(Exception) as want:
        fn(pandas)
    with pytest.raises(want.type, match=re.escape(str(want.value))):
        got = fn(gframe)
        got.to_pandas()


def mixed(pd):
    return pd.DataFrame({
        "a": [1, 1, 1, 1, 1, 2, 2, 2, 2],
        "b": [3, 3, 4, 4, 4, 4, 4, 3, 3],
        "s": list("xyzwtyuio"),
        "S": pandas.array(list("xyzwtyuio"), dtype="string"),
        "t": pandas.to_datetime(["2005-01-01"] * 8 + [None]),
        "td": pandas.to_timedelta(range(9), unit="s"),
        "c": pandas.Categorical(list("aaaabbbbc"), categories=list("abcd"), ordered=True),
        "u": pandas.Categorical(list("aaaabbbbc"), categories=list("abcd")),
    })


REFUSED = [("s", f) for f in ["mean", "median", "prod", "std", "var", "sem", "skew", "kurt", "cumsum", "cumprod",
                              "cummin", "cummax", "diff", "pct_change", "quantile"]] \
    + [("S", f) for f in ["mean", "cumsum", "cummax", "diff", "pct_change"]] \
    + [("t", f) for f in ["sum", "prod", "cumsum", "cumprod", "var", "skew", "kurt", "any", "all", "pct_change"]] \
    + [("td", f) for f in ["prod", "cumprod", "var", "skew", "kurt"]] \
    + [("c", f) for f in ["sum", "prod", "cumsum", "cummin", "mean", "median", "std", "var", "sem", "skew", "diff",
                          "pct_change", "quantile"]] \
    + [("u", f) for f in ["min", "max", "rank", "cumsum", "mean"]]


@pytest.mark.parametrize("how", ["method", "agg", "transform"])
@pytest.mark.parametrize("frame_groupby", [False, True])
@pytest.mark.parametrize("col,fn", REFUSED)
def test_dtype_refusal_is_pandas_exception(native, col, fn, how, frame_groupby):
    def q(pd):
        gb = mixed(pd)[["a", col]].groupby("a")
        if not frame_groupby:
            gb = gb[col]
        args = (0.5,) if fn == "quantile" else ()
        return getattr(gb, fn)(*args) if how == "method" else getattr(gb, how)(fn, *args)

    _raises_like_pandas(q)


def test_refusal_of_two_columns_alike_and_numeric_only(native):
    _raises_like_pandas(lambda pd: mixed(pd)[["a", "s", "b"]].assign(s2=lambda d: d["s"]).groupby("a").cumsum())
    assert_matches_pandas(lambda pd: mixed(pd)[["a", "b", "t"]].groupby("a").sum(numeric_only=True))


def test_refusals_of_two_kinds_are_pandas():
    # which column pandas refuses first is its own order (by blocks): pandas' exception, through pandas
    _raises_like_pandas(lambda pd: mixed(pd)[["a", "s", "b", "t"]].groupby("a").cumsum())


def test_transform_of_unknown_name_is_value_error(native):
    _raises_like_pandas(lambda pd: mixed(pd).groupby("a").transform("nope"))


@pytest.mark.parametrize("fn", ["sum", "max", "count", "cumsum", "cummax", "size", "first"])
def test_agg_and_transform_of_a_name_are_the_method(native, fn):
    assert_matches_pandas(lambda pd: mixed(pd)[["a", "b"]].groupby("a").agg(fn))
    assert_matches_pandas(lambda pd: mixed(pd)[["a", "b"]].groupby("a")["b"].agg(fn))
    if fn not in ("size", "first"):
        assert_matches_pandas(lambda pd: mixed(pd)[["a", "b"]].groupby("a").transform(fn))


KEYS = {
    "array": lambda pd: np.array([0, 0, 0, 1, 2, 2, 2, 3, 3]),
    "list": lambda pd: [0, 0, 0, 1, 2, 2, 2, 3, 3],
    "float_nan": lambda pd: np.array([0, NaN, 0, 1, 2, 2, NaN, 3, 3]),
    "function": lambda pd: (lambda x: x % 2),
    "dict": lambda pd: dict(zip(range(9), [0, 0, 0, 1, 2, 2, 2, 3, 3])),
    "series": lambda pd: pd.Series([1, 1, 1, 1, 1, 2, 2, 2, 2], name="k"),
    "pandas_series": lambda pd: pandas.Series([1, 1, 1, 1, 1, 2, 2, 2, 2]),
    "two_series": lambda pd: [pandas.Series([1, 1, 1, 1, 1, 2, 2, 2, 2]), pd.Series([3, 3, 4, 4, 4, 4, 4, 3, 3])],
    "index": lambda pd: pandas.Index([5, 5, 6, 6, 6, 6, 7, 7, 7], name="ix"),
    "categorical": lambda pd: pandas.Categorical(list("xxyyyzzzz"), categories=list("zyxw")),
    "strings": lambda pd: np.array(list("bbaaccbba")),
    "mixed": lambda pd: ["a", np.array([0, 0, 0, 1, 2, 2, 2, 3, 3])],
}


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("key", list(KEYS))
def test_keys_given_as_values(native, key, dropna, sort):
    def q(pd, fn, select):
        gb = mixed(pd)[["a", "b"]].groupby(KEYS[key](pd), dropna=dropna, sort=sort)
        if select:
            gb = gb["b"]
        return getattr(gb, fn)()

    for fn in ("sum", "max", "first", "size", "count", "cumcount"):
        for select in (False, True):
            assert_matches_pandas(lambda pd: q(pd, fn, select))


def test_series_key_aligns_on_the_index(native):
    def q(pd):
        df = pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]}, index=[3, 2, 1, 0])
        return df.groupby(pd.Series([1, 1, 2, 2], index=[0, 1, 2, 3], name="z")).sum()

    assert_matches_pandas(q)
    assert_matches_pandas(lambda pd: pd.DataFrame({"v": [1.0, 2.0, 3.0, 4.0]}, index=[3, 2, 1, 0])
                          .groupby(pandas.Series([1, 1, 2, 2])).sum())


def test_series_grouped_by_values(native):
    for key in ("array", "function", "series", "categorical"):
        assert_matches_pandas(lambda pd: pd.Series(np.arange(9.0), name="v").groupby(KEYS[key](pd)).sum())


def test_value_keys_head_keeps_the_columns(native):
    assert_matches_pandas(lambda pd: mixed(pd)[["a", "b"]].groupby(KEYS["array"](pd)).head(1))


def test_value_keys_not_native_stay_pandas():
    # a length that does not match: pandas' ValueError; as_index=False: pandas' frame
    with pytest.raises(ValueError, match="Grouper and axis must be same length"):
        gframe.DataFrame({"v": [1.0, 2.0]}).groupby(np.array([1, 2, 3])).sum()
    assert_matches_pandas(lambda pd: pd.DataFrame({"v": [1.0, 2.0, 3.0]})
                          .groupby(np.array([2, 1, 2]), as_index=False).sum())


@pytest.mark.parametrize("kw", [{}, {"sort": False}, {"dropna": False}, {"as_index": False}])
@pytest.mark.parametrize("grouper", [{}, {"dropna": False}])
def test_grouper_key_is_its_column(native, kw, grouper):
    def q(pd, fn):
        df = pd.DataFrame({"a": [2, 2, 1, None], "b": [1, 2, 3, 4]})
        return getattr(df.groupby(pandas.Grouper(key="a", **grouper), **kw), fn)()

    assert_matches_pandas(lambda pd: q(pd, "sum"))
    assert_matches_pandas(lambda pd: q(pd, "cumsum"))


def test_grouper_that_sorts_is_pandas():
    # pandas sorts the rows themselves (a transform's index comes out reordered)
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [2, 2, 1, None], "b": [1, 2, 3, 4]})
                          .groupby(pandas.Grouper(key="a", sort=True))["b"].cumsum())


def test_count_of_categoricals(native):
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 1, 2, 2], "c": pandas.Categorical(["x", None, None, None]),
                                                   "u": pandas.Categorical(["x", "y", "x", None], categories=list("xyz"))})
                          .groupby("a").count())
    assert_matches_pandas(lambda pd: mixed(pd).groupby("a")["u"].count())


WINDOW_COLUMNS = {
    "i": [1, 2, 3, 4, 5, 6, 7],
    "f": [1.0, NaN, 3, NaN, 5, NaN, NaN],
    "b": [True, False, True, True, False, True, False],
    "s": ["x", None, "y", "z", None, "w", None],
    "t": pandas.to_datetime(["2020", "2021", None, "2022", "2023", None, "2024"]),
    "td": pandas.to_timedelta([1, 2, None, 4, 5, 6, None], unit="s"),
    "I": pandas.array([1, None, 3, 4, None, 6, 7], dtype="Int64"),
    "S": pandas.array(["a", None, "b", "c", None, "d", None], dtype="string"),
    "B": pandas.array([True, None, False, True, None, True, None], dtype="boolean"),
}


@pytest.mark.parametrize("fn,args", [("shift", ()), ("shift", (-1,)), ("shift", (2,)), ("ffill", ()), ("bfill", ()),
                                     ("ffill", (1,)), ("bfill", (1,))])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("key", ["k", "kc"])
def test_shift_ffill_bfill(native, key, dropna, fn, args):
    keys = {"k": [1, 1, 2, 1, 2, NaN, 2],
            "kc": pandas.Categorical(list("aabab") + [None, "b"], categories=list("bac"))}

    def frame(pd):
        return pd.DataFrame({key: keys[key], **WINDOW_COLUMNS}, index=[10, 11, 12, 13, 14, 15, 16])

    got = assert_matches_pandas(lambda pd: getattr(frame(pd).groupby(key, dropna=dropna, observed=True), fn)(*args))
    assert list(got.columns) == list(WINDOW_COLUMNS)
    for col in ("i", "s", "I"):
        assert_matches_pandas(lambda pd: getattr(frame(pd).groupby(key, dropna=dropna, observed=True)[col], fn)(*args))


def test_shift_edges(native):
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [], "v": []}).groupby("k").shift())
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1], "v": [2]}).groupby("k").shift())
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1], "v": [2, 3]}, index=["x", "y"]).groupby("k").ffill())
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": [True, False, True]}).groupby("k").shift())


def test_shift_zero_and_fill_value_are_pandas():
    # shift(0) leaves even the rows of a missing key as they are: pandas'
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, None, 1], "v": [1, 2, 3]}).groupby("k").shift(0))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 2, 1], "v": [1, 2, 3]}).groupby("k").shift(1, fill_value=0))


def _same_groups(want, got):
    assert type(got) is type(want)
    assert list(got) == list(want)
    assert [type(k) for k in got] == [type(k) for k in want]
    for k in want:
        pandas.testing.assert_index_equal(got[k], want[k], exact=True)


@pytest.mark.parametrize("make", [
    lambda pd: pd.DataFrame({"a": pandas.Categorical(list("aab") + [None], categories=list("abcd")), "v": [1, 2, 3, 4]},
                            index=[10, 11, 12, 13]).groupby("a", observed=False),
    lambda pd: pd.DataFrame({"a": pandas.Categorical(list("aab") + [None], categories=list("abcd")), "v": [1, 2, 3, 4]},
                            index=[10, 11, 12, 13]).groupby("a", observed=True),
    lambda pd: pd.DataFrame({"a": [2, 1, 2, None], "v": [1, 2, 3, 4]}, index=list("wxyz")).groupby("a"),
    lambda pd: pd.DataFrame({"a": [2, 1, 2, None], "v": [1, 2, 3, 4]}, index=list("wxyz")).groupby("a")["v"],
    lambda pd: pd.DataFrame({"a": ["x", "y", "x"], "v": [1, 2, 3]}).groupby(np.array([3, 1, 3])),
    lambda pd: pd.DataFrame({"a": [], "v": []}).groupby("a"),
    lambda pd: pd.DataFrame({"a": pandas.to_datetime(["2020", "2019", "2020"]), "v": [1, 2, 3]}).groupby("a"),
    lambda pd: pd.DataFrame({"a": [1, 1, 2], "v": [1, 2, 3]}, index=pandas.Index([5, 6, 7], name="ix")).groupby("a"),
])
def test_groups(native, make):
    _same_groups(make(pandas).groups, make(gframe).groups)


def test_groups_not_native_are_pandas():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for make in (lambda pd: pd.DataFrame({"a": [1, 2, 1], "b": [3, 3, 4]}).groupby(["a", "b"]),
                     lambda pd: pd.DataFrame({"a": [2, 1, None], "b": [3, 3, 4]}).groupby("a", sort=False),
                     lambda pd: pd.DataFrame({"a": [2, 1, None], "b": [3, 3, 4]}).groupby("a", dropna=False)):
            want, got = make(pandas).groups, make(gframe).groups
            assert [(str(k), list(v)) for k, v in want.items()] == [(str(k), list(v)) for k, v in got.items()]
    with pytest.warns(pandas.errors.Pandas4Warning, match="keys of `groups` will be a tuple"):
        gframe.DataFrame({"a": [1, 2, 1]}).groupby(["a"]).groups


@pytest.mark.parametrize("ordered", [True, False])
@pytest.mark.parametrize("fn", ["shift", "ffill", "bfill", "first", "last", "min", "max", "nunique", "count"])
@pytest.mark.parametrize("dropna", [True, False])
def test_categorical_values_moved_and_picked(native, ordered, fn, dropna):
    cat = pandas.Categorical(["b", None, "a", None, None, "c", "b"], categories=list("dcba"), ordered=ordered)

    def q(pd):
        return getattr(pd.DataFrame({"a": [1, 1, 2, 2, 3, None, 1], "d": cat}).groupby("a", dropna=dropna)["d"], fn)()

    if fn in ("min", "max") and not ordered:
        _raises_like_pandas(q)
    else:
        assert_matches_pandas(q)


@pytest.mark.parametrize("fn", ["shift", "ffill", "first", "nunique", "max"])
@pytest.mark.parametrize("observed", [True, False])
def test_categorical_values_by_categorical_key(native, fn, observed):
    def q(pd):
        df = pd.DataFrame({"a": pandas.Categorical(list("aaaabbbbc"), categories=list("abcd"), ordered=True),
                           "d": pandas.Categorical(list("aaaabbbbc"), categories=list("abcd"), ordered=True)})
        return getattr(df.groupby("a", observed=observed), fn)()

    assert_matches_pandas(q)


def test_groups_of_a_list_of_one_key_warns_as_pandas(native):
    with pytest.warns(pandas.errors.Pandas4Warning, match=re.escape("e.g. (a,) , instead of a scalar")):
        got = gframe.DataFrame({"a": [1, 2, 1]}).groupby(["a"]).groups
    assert {k: list(v) for k, v in got.items()} == {1: [0, 2], 2: [1]}


NGROUP = {"a": [2, 1, 2, NaN, 3, 1], "b": ["x", "y", "x", "y", None, "x"],
          "c": pandas.Categorical(list("qpqp") + [None, "q"], categories=list("qpz")), "v": range(6)}


@pytest.mark.parametrize("by", ["a", "b", "c", ["a", "b"], ["b", "c"], "array"])
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("ascending", [True, False])
def test_ngroup(native, by, sort, ascending):
    key = np.array([5, 4, 5, 4, 4, 5]) if by == "array" else by
    assert_matches_pandas(lambda pd: pd.DataFrame(NGROUP).groupby(key, sort=sort, observed=True).ngroup(ascending))
    assert_matches_pandas(lambda pd: pd.DataFrame(NGROUP).groupby(key, sort=sort, observed=True)["v"].ngroup(ascending))


def test_ngroup_not_native_is_pandas():
    # missing keys kept, unobserved categories: pandas' numbering
    assert_matches_pandas(lambda pd: pd.DataFrame(NGROUP).groupby("a", dropna=False).ngroup())
    assert_matches_pandas(lambda pd: pd.DataFrame(NGROUP).groupby("c", observed=False).ngroup())
    assert_matches_pandas(lambda pd: pd.DataFrame(NGROUP).iloc[:0].groupby("a").ngroup())


@pytest.mark.parametrize("fn", ["any", "all"])
@pytest.mark.parametrize("how", ["method", "agg", "transform"])
@pytest.mark.parametrize("dropna", [True, False])
@pytest.mark.parametrize("select", [True, False])
def test_any_all_of_strings(native, fn, how, dropna, select):
    def q(pd):
        df = pd.DataFrame({"k": [1, 1, 2, 2, 3, 4, 4, None], "s": ["", "x", "", None, None, "a", "b", ""]})
        gb = df.groupby("k", dropna=dropna)
        if select:
            gb = gb["s"]
        return getattr(gb, fn)() if how == "method" else getattr(gb, how)(fn)

    assert_matches_pandas(q)


def test_any_all_not_native_are_pandas():
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1], "s": [NaN, 1.0]}).groupby("k").any(skipna=False))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "s": pandas.array(["", None, "x"], dtype="string")})
                          .groupby("k").all())


@pytest.mark.parametrize("method", ["average", "min", "max", "first", "dense"])
@pytest.mark.parametrize("ascending", [True, False])
@pytest.mark.parametrize("na_option", ["keep", "top", "bottom"])
@pytest.mark.parametrize("dropna", [True, False])
def test_rank_of_strings(native, method, ascending, na_option, dropna):
    d = {"k": [1, 1, 1, 2, 2, 2, 1, None, 2], "s": ["b", "a", None, "é", "B", "b", "a", "z", None]}
    for pct in (False, True):
        assert_matches_pandas(lambda pd: pd.DataFrame(d).groupby("k", dropna=dropna)["s"]
                              .rank(method=method, ascending=ascending, na_option=na_option, pct=pct))


@pytest.mark.parametrize("ordered", [True, False])
@pytest.mark.parametrize("fn", ["first", "last", "min", "max", "nunique", "count"])
@pytest.mark.parametrize("how", ["transform", "agg_list", "agg_dict"])
def test_categorical_aggregations_broadcast_and_listed(native, ordered, fn, how):
    cat = pandas.Categorical(["b", None, "a", None, None, "c", "b"], categories=list("dcba"), ordered=ordered)

    def q(pd):
        gb = pd.DataFrame({"a": [1, 1, 2, 2, 3, None, 1], "d": cat, "v": range(7)}).groupby("a")
        if how == "transform":
            return gb["d"].transform(fn)
        return gb.agg([fn]) if how == "agg_list" else gb.agg({"d": fn, "v": "sum"})

    if fn in ("min", "max") and not ordered:
        if how == "transform":
            _raises_like_pandas(q)
        return
    assert_matches_pandas(q)


VC_VALUES = {
    "s": ["b", "a", "a", "b", "c", "c", "a", None, "b"], "i": [3, 1, 1, 3, 2, 2, 1, 1, 3],
    "f": [1.5, NaN, 2, 1.5, NaN, 2, 2, 1.5, 3], "b": [True, False, True, True, False, False, True, True, True],
    "t": pandas.to_datetime(["2020", "2021", None, "2020", "2021", "2022", "2020", "2020", "2021"]),
}


@pytest.mark.parametrize("col", list(VC_VALUES))
@pytest.mark.parametrize("two_keys", [False, True])
@pytest.mark.parametrize("group_sort", [True, False])
@pytest.mark.parametrize("group_dropna", [True, False])
def test_series_groupby_value_counts(native, col, two_keys, group_sort, group_dropna):
    for normalize in (False, True):
        for sort, ascending in ((True, False), (True, True), (False, False)):
            for dropna in (True, False):
                if col == "t" and not dropna and not sort:
                    continue  # (pandas' own place for NaT: through pandas, below)

                def q(pd):
                    df = pd.DataFrame({"k": [2, 1, 2, 2, 1, 2, None, 1, 2], "k2": list("xyxyxyxyx"), "v": VC_VALUES[col]})
                    gb = df.groupby(["k", "k2"] if two_keys else "k", sort=group_sort, dropna=group_dropna)
                    return gb["v"].value_counts(normalize=normalize, sort=sort, ascending=ascending, dropna=dropna)

                assert_matches_pandas(q)


def test_value_counts_not_native_are_pandas():
    def q(pd, **kw):
        return pd.DataFrame({"k": [2, 1, 2], "v": pandas.to_datetime(["2020", None, "2020"])}) \
            .groupby("k")["v"].value_counts(**kw)

    assert_matches_pandas(lambda pd: q(pd, dropna=False, sort=False))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": [1.0, 2, 3]})
                          .groupby("k")["v"].value_counts(bins=2))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": pandas.Categorical(["a", "b", "a"])})
                          .groupby("k")["v"].value_counts())
