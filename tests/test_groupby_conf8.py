"""groupby: causes found by pandas' own groupby tests (conformance, session 8): native rank,
head(0), keys given as arrays, a Series grouped by its index level, numba functions, warnings."""
import itertools
import warnings

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas

NaN = float("nan")
INF = float("inf")


def rank_frame(pd):
    vals = [-INF, -INF, NaN, 1.0, NaN, INF, INF]
    return pd.DataFrame({
        "key": ["a"] * 3 + [None] + ["a"] * 3 + ["b"] * 7,
        "val": vals + vals[::-1],
        "i": np.array([3, 1, 2, 2, 5, 1, 1, 0, 4, 4, 2, 9, 9, 1], dtype="uint8"),
        "t": pandas.to_datetime(["2020-01-02", "2020-01-01", None, "2020-01-01"] * 3 + ["2020-01-05"] * 2),
        "d": pandas.to_timedelta([1, 2, 2, None, 7, 1, 3] * 2, unit="s"),
        "b": [True, False] * 7,
    })




@pytest.mark.parametrize("method,ascending,na_option,pct",
                         list(itertools.product(["average", "min", "max", "first", "dense"], [True, False],
                                                ["keep", "top", "bottom"], [False, True])))
@pytest.mark.parametrize("dropna", [True, False])
def test_groupby_rank_matches_pandas(native, method, ascending, na_option, pct, dropna):
    def q(pd):
        return rank_frame(pd).groupby("key", dropna=dropna).rank(method=method, ascending=ascending,
                                                                 na_option=na_option, pct=pct)

    got = assert_matches_pandas(q)
    assert list(got.dtypes) == [np.float64] * 5


@pytest.mark.parametrize("col", ["val", "i", "t", "d", "b"])
def test_series_groupby_rank_keeps_name_and_index(native, col):
    got = assert_matches_pandas(lambda pd: rank_frame(pd).set_index("i", drop=False).groupby("key")[col]
                                .rank(method="dense", pct=True, na_option="bottom"))
    assert got.name == col


def test_groupby_rank_of_empty_frame(native):
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [], "v": []}).groupby("k").rank())


def test_groupby_rank_bad_na_option_is_pandas_value_error(native):
    for mod in (pandas, gframe):
        with pytest.raises(ValueError, match="na_option must be one of 'keep', 'top', or 'bottom'"):
            mod.DataFrame({"k": [1], "v": [1.0]}).groupby("k").rank(na_option="bad")


def test_groupby_rank_of_nullable_and_strings_goes_to_pandas():
    """Int64 gives Float64 ranks, strings rank by pandas' rules: pandas' answers (fallback)."""
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "I": pd.array([2, None, 1], dtype="Int64"),
                                                   "s": ["b", "a", "c"]}).groupby("k").rank())
    with pytest.raises(KeyError):
        gframe.DataFrame({"k": [1], "v": [1.0]}).groupby("k").rank(method="bad")


@pytest.mark.parametrize("op", ["head", "tail"])
@pytest.mark.parametrize("columns", [None, [], ["B"]])
def test_groupby_head_zero_is_no_rows(op, columns):
    def q(pd):
        g = pd.DataFrame([[1, 2], [1, 4], [5, 6]], columns=["A", "B"]).groupby("A")
        return getattr(g if columns is None else g[columns], op)(0)

    got = assert_matches_pandas(q)
    assert got.shape[0] == 0


@pytest.mark.parametrize("key", [np.array([0, 1, 0]), lambda pd: pd.Index([0, 1, 0], name="x"),
                                 lambda pd: pd.array([0, 1, 0])])
def test_groupby_by_array_values(key):
    """An array (an Index, an ExtensionArray) as the key is values, not a column label."""
    assert_matches_pandas(lambda pd: pd.DataFrame({"v": [1.0, 2.0, 4.0]}).groupby(
        key(pd) if callable(key) else key).agg(lambda s: s.mean()))


def test_groupby_by_array_of_wrong_length_raises_like_pandas():
    for mod in (pandas, gframe):
        with pytest.raises(ValueError, match="Grouper and axis must be same length"):
            mod.DataFrame({"v": [1.0, 2.0, 4.0]}).groupby(np.array([0, 1])).sum()


@pytest.mark.parametrize("how", ["first", "last", "sum", "max"])
def test_series_grouped_by_index_level_gives_series(how):
    idx = list(range(10)) + [9]
    got = assert_matches_pandas(lambda pd: getattr(pd.Series(range(11), index=idx, name="IntCol")
                                                   .groupby(level=0), how)())
    assert got.dtype == "int64" and got.name == "IntCol"
    assert_matches_pandas(lambda pd: pd.Series(range(11), index=idx, name="s").groupby(level=0).agg(["sum", "max"]))
    assert_matches_pandas(lambda pd: pd.Series(range(11), index=idx, name="s").groupby(level=0).agg(x="sum"))


def test_numba_function_reaches_pandas_unwrapped():
    """``engine="numba"``: pandas compiles the user's function as written (a wrapper taking
    ``**kwargs`` is not numba-compilable)."""
    pytest.importorskip("numba")

    def f(values, index):
        return values.sum() * 2

    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": [1.0, 2.0, 4.0]}).groupby("k").agg(
        f, engine="numba"))


def test_nth_indexer_warning_points_at_the_caller():
    df = gframe.DataFrame({"a": [1, 1, 2], "b": [1, 2, 3]})
    g = df.groupby("a")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = g.nth[0]
    deprecations = [w for w in caught if "nth[...] is deprecated" in str(w.message)]
    assert deprecations and deprecations[0].filename == __file__
    pandas.testing.assert_frame_equal(got.to_pandas(), df.to_pandas().iloc[[0, 2]])


@pytest.mark.parametrize("method", [lambda pd: pd.Series.value_counts, lambda pd: pd.Series.sum])
def test_apply_of_gframe_unbound_method_runs_pandas_method(method):
    """``gb.apply(gframe.Series.value_counts)`` through pandas: pandas calls its own method on its
    groups (gframe's unbound method cannot take a pandas Series)."""
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": [1, 1, 3]}).groupby("k")["v"].apply(
        method(pd)))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "v": [1, 1, 3]}).groupby("k").apply(
        pd.DataFrame.sum))


def quantile_frame(pd):
    rng = np.random.default_rng(3)
    n = 40
    f = rng.normal(size=n).round(1)
    f[rng.random(n) < 0.3] = NaN
    k = rng.integers(0, 4, n).astype(float)
    k[3] = NaN
    return pd.DataFrame({"k": k, "f": f, "i": rng.integers(-5, 5, n),
                         "u": rng.integers(0, 5, n).astype("u1"), "f32": rng.normal(size=n).astype("f4")})


@pytest.mark.parametrize("q", [0, 0.1, 0.25, 0.5, 0.9, 1])
@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint"])
@pytest.mark.parametrize("options", [{}, {"as_index": False}, {"sort": False}, {"dropna": False}])
def test_groupby_quantile_native(native, q, interpolation, options):
    def q_(pd):
        return quantile_frame(pd).groupby("k", **options).quantile(q, interpolation=interpolation)

    assert_matches_pandas(q_)
    assert_matches_pandas(lambda pd: quantile_frame(pd).groupby("k")["i"].quantile(q, interpolation=interpolation))


def test_groupby_quantile_of_empty_frame_and_bad_q(native):
    assert_matches_pandas(lambda pd: quantile_frame(pd).iloc[:0].groupby("k").quantile())
    for mod in (pandas, gframe):
        with pytest.raises(ValueError, match="Each 'q' must be between 0 and 1. Got '1.5' instead"):
            mod.DataFrame({"k": [1], "v": [1.0]}).groupby("k").quantile(1.5)


def test_groupby_quantile_list_nearest_and_times_go_to_pandas():
    assert_matches_pandas(lambda pd: quantile_frame(pd).groupby("k").quantile([0.25, 0.5]))
    assert_matches_pandas(lambda pd: quantile_frame(pd).groupby("k").quantile(0.3, interpolation="nearest"))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 1, 2], "t": pd.date_range("2020", periods=3)})
                          .groupby("k").quantile(0.5))


@pytest.mark.parametrize("cls,name", [("DataFrame", "max"), ("DataFrame", "rank"), ("Series", "quantile"),
                                      ("DataFrame", "groupby"), ("Series", "sum")])
def test_methods_show_pandas_full_signature(cls, name):
    """Every method takes pandas' full signature (``full_signatures``): ``inspect.signature`` shows it
    (pandas' own tests compare the group-by methods' parameters with the frame's)."""
    import inspect

    assert inspect.signature(getattr(getattr(gframe, cls), name)) == inspect.signature(
        getattr(getattr(pandas, cls), name))


@pytest.mark.parametrize("group_keys", [True, False])
def test_series_groupby_keeps_group_keys(group_keys):
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[1, 1, 2]).groupby(level=0, group_keys=group_keys)
                          .apply(lambda x: x.cumsum()))


def cumulative_frame(pd, null_keys):
    rng = np.random.default_rng(1)
    n = 30
    f = rng.normal(size=n)
    f[rng.random(n) < .3] = NaN
    k = rng.integers(0, 3, n).astype(float)
    if null_keys:
        k[[2, 7]] = NaN
    return pd.DataFrame({"k": k, "i": rng.integers(-9, 9, n), "b": rng.random(n) < .5, "f": f,
                         "t": pandas.date_range("2020", periods=n)[rng.permutation(n)],
                         "u": rng.integers(0, 9, n).astype("u1")})


@pytest.mark.parametrize("op,cols", [("cummin", ["i", "f", "t", "u"]), ("cummax", ["i", "f", "t", "u"]),
                                     ("cumsum", ["i", "b"]), ("cumprod", ["f"])])
@pytest.mark.parametrize("null_keys", [False, True])
@pytest.mark.parametrize("dropna", [True, False])
def test_groupby_cumulative_native(native, op, cols, null_keys, dropna):
    assert_matches_pandas(lambda pd: getattr(cumulative_frame(pd, null_keys).groupby("k", dropna=dropna)[cols], op)(),
                          check_exact=True)
    assert_matches_pandas(lambda pd: getattr(cumulative_frame(pd, null_keys).groupby("k", dropna=dropna)[cols[0]], op)(),
                          check_exact=True)


@pytest.mark.parametrize("op,col", [("cumsum", "f"), ("cumsum", "u"), ("cumprod", "i"), ("cummax", "b")])
def test_groupby_cumulative_pandas_typed_goes_to_pandas(op, col):
    """float sums (pandas adds with Kahan's compensation), narrow ints (widened on overflow), bools
    with missing keys (float64): pandas' answers."""
    assert_matches_pandas(lambda pd: getattr(cumulative_frame(pd, True).groupby("k")[col], op)(), check_exact=True)


@pytest.mark.parametrize("by,labels", [(lambda i: i % 2, [1, 22, 333]), ([lambda i: i % 2, "v"], [1, 22, 333]),
                                       (len, ["a", "bb", "cc"])])
def test_groupby_function_of_labels(by, labels):
    """pandas calls the function on each index label when the group-by is made; the key is named as
    the index."""
    def q(pd):
        return pd.DataFrame({"v": [1, 2, 3]}, index=pd.Index(labels, name="x")).groupby(by).sum()

    assert_matches_pandas(q)
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=labels).groupby(
        by if not isinstance(by, list) else by[0]).sum())


def test_groupby_function_error_raises_when_grouping():
    for mod in (pandas, gframe):
        with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for \+: 'int' and 'str'"):
            mod.DataFrame([0]).groupby(lambda x: x + "foo")


@pytest.mark.parametrize("attr,value", [("level", "a"), ("as_index", False), ("sort", False), ("group_keys", False),
                                        ("observed", True), ("dropna", False)])
def test_groupby_attributes_kept_by_selection(attr, value):
    df = gframe.DataFrame({"a": [1], "b": [2], "c": [3]}).set_index("a")
    gb = df.groupby(**{attr: value}) if attr == "level" else df.groupby("a", **{attr: value})
    assert getattr(gb, attr) == value
    assert getattr(gb[["b"]], attr) == value and getattr(gb["b"], attr) == value


@pytest.mark.parametrize("dtype", ["UInt8", "Int8", "Int16", "UInt32", "Int32", "Int64"])
@pytest.mark.parametrize("fn", ["sum", "prod"])
@pytest.mark.parametrize("vals", [[1, 2, None], [100, 100, None], [None, None, None]])
def test_groupby_masked_narrow_int_sum_type(native, dtype, fn, vals):
    """pandas keeps a nullable narrow int's group sum / product in its type where every result fits
    (UInt8 1 + 2 is UInt8), Int64 / UInt64 where one does not: decided by the data, as for numpy ints."""
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame({"a": [1, 1, 2], "b": vals}, dtype=dtype).groupby("a"), fn)())
    assert_matches_pandas(lambda pd: getattr(pd.DataFrame({"a": [1, 1, 2], "b": vals}, dtype=dtype).groupby("a").b, fn)())


@pytest.mark.parametrize("labels", [[], ["a"]])
def test_frame_columns_given_as_gframe_index_keep_dtype(labels):
    assert_matches_pandas(lambda pd: pd.DataFrame([] if not labels else [[1]], columns=pd.Index(labels, dtype="str")))


def selection_frame(pd):
    return pd.DataFrame({"A": ["f", "b", "f"], "C": [1.0, 2, 3], "D": [4.0, 5, 6]})


@pytest.mark.parametrize("key", [lambda pd: selection_frame(pd).columns[1:3], lambda pd: np.array(["C"]),
                                 lambda pd: ["C", "D"], lambda pd: "C"])
def test_groupby_column_selection_list_likes(native, key):
    assert_matches_pandas(lambda pd: selection_frame(pd).groupby("A")[key(pd)].sum())


@pytest.mark.parametrize("key,exc,match", [(("C", "D"), ValueError, "Cannot subset columns with a tuple"),
                                           (["C", "X"], KeyError, "Columns not found: 'X'"),
                                           ("X", KeyError, "Column not found: X")])
def test_groupby_column_selection_errors_are_pandas(key, exc, match):
    for mod in (pandas, gframe):
        with pytest.raises(exc, match=match):
            selection_frame(mod).groupby("A")[key]


def test_groupby_private_property_reads_through_pandas():
    got = gframe.DataFrame({"A": [1, 2, 1], "C": [1, 2, 3]}).groupby("A")._positional_selector[0]
    pandas.testing.assert_frame_equal(got.to_pandas(), pandas.DataFrame({"A": [1, 2], "C": [1, 2]}))


def test_named_agg_with_numba_engine_and_bad_spec():
    pytest.importorskip("numba")

    def frame(pd):
        return pd.DataFrame({0: ["a", "a", "b"], 1: [1.0, 2.0, 3.0]}, columns=[0, 1])

    assert_matches_pandas(lambda pd: frame(pd).groupby(0).agg(bmin=pd.NamedAgg(column=1, aggfunc="min"),
                                                              engine="numba"))
    for mod in (pandas, gframe):
        with pytest.raises(TypeError, match="Must provide 'func' or tuples of"):
            frame(mod).groupby(0).agg(x=1)
    assert_matches_pandas(lambda pd: pd.Series(range(3), index=[1, 2, 1], name="foo").groupby(level=0).sum(
        engine="numba"))


def raises_frame(pd):
    return pd.DataFrame({"a": [1, 1, 1, 2, 2], "c": range(5), "d": list("xyzwt"),
                         "t": pandas.to_datetime(["2020", "2021", "2022", "2023", "2024"])})


def test_warning_of_a_trip_that_raises_is_kept():
    """pandas warns (a deprecation) and then raises: the warning still reaches the caller."""
    for mod in (pandas, gframe):
        df = raises_frame(mod)[["a", "c", "d"]]
        with pytest.warns(pandas.errors.Pandas4Warning, match="DataFrameGroupBy.corrwith is deprecated"):
            with pytest.raises(TypeError):
                df.groupby("a").transform("corrwith", df)


@pytest.mark.parametrize("how", ["method", "agg", "transform"])
@pytest.mark.parametrize("fn", ["any", "all"])
def test_any_all_of_timestamps_is_pandas_type_error(how, fn):
    for mod in (pandas, gframe):
        gb = raises_frame(mod).groupby("a")["t"]
        with pytest.raises(TypeError, match=f"'{fn}' with datetime64 dtypes is not supported"):
            getattr(gb, fn)() if how == "method" else getattr(gb, how)(fn)


def test_agg_of_numpy_function_keeps_pandas_message():
    for mod in (pandas, gframe):
        with pytest.raises(TypeError, match="Cannot perform reduction 'mean' with string dtype"):
            raises_frame(mod)[["a", "d"]].groupby("a").agg(np.mean)


@pytest.mark.parametrize("fn", ["all", "max", "count", "sum", "first"])
@pytest.mark.parametrize("dtype", [None, "string"])
def test_groupby_own_column_series_is_the_label(fn, dtype):
    """``df.groupby(df["a"])``: pandas groups by its own column and leaves it out of the result; a
    renamed Series is another key (kept)."""
    def frame(pd):
        return pd.DataFrame({"a": ["x", "y", "x"], "b": ["p", None, "q"], "c": [1, 2, 3]}, dtype=dtype)

    assert_matches_pandas(lambda pd: getattr((lambda d: d.groupby(d["a"]))(frame(pd)), fn)())
    assert_matches_pandas(lambda pd: (lambda d: d.groupby([d["a"], "c"]).count())(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda d: d.groupby(d["a"].rename("z")).count())(frame(pd)))


def test_function_without_module_reaches_pandas():
    """A function whose ``__module__`` is None (made by ``exec``) is a user function like any other."""
    scope: dict = {}
    exec("f = lambda c: str(c) * 2", scope)
    assert scope["f"].__module__ is None
    assert_matches_pandas(lambda pd: pd.Series(["a", "b"], dtype="category").cat.rename_categories(scope["f"]))


@pytest.mark.parametrize("how", [lambda g: g.transform(["sum", "min"]), lambda g: g.transform({"val": "sum"}),
                                 lambda g: g.transform(x=("val", "sum"))])
def test_transform_of_lists_dicts_named_goes_to_pandas(how):
    assert_matches_pandas(lambda pd: how(pd.DataFrame({"col": list("aab"), "val": range(3), "another": range(3)})
                                         .groupby("col")))


def test_groupby_obj_attribute():
    df = gframe.DataFrame({"col": list("aab"), "val": range(3)})
    pandas.testing.assert_frame_equal(df.groupby("col").obj.to_pandas(), df.to_pandas())
    pandas.testing.assert_series_equal(df.groupby("col")["val"].obj.to_pandas(), df.to_pandas()["val"])


@pytest.mark.parametrize("func", ["cumsum", "cumprod"])
def test_cumulative_numpy_arguments_are_pandas_error(func):
    from pandas.errors import UnsupportedFunctionCall

    for mod in (pandas, gframe):
        g = mod.DataFrame({"A": [1, 2, 1], "B": [1, 2, 3]}).groupby("A")
        with pytest.raises(UnsupportedFunctionCall, match="numpy operations are not valid with groupby"):
            getattr(g, func)(1, 2, 3)
        with pytest.raises(UnsupportedFunctionCall, match="numpy operations are not valid with groupby"):
            getattr(g, func)(foo=1)


def test_named_agg_object_is_native(native):
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 1, 2], "v": [1, 2, 3]}).groupby("a").agg(
        x=pd.NamedAgg("v", "sum"), y=pd.NamedAgg(column="v", aggfunc="max")))


def test_quantile_bad_q_message_is_pandas():
    for mod in (pandas, gframe):
        with pytest.raises(ValueError, match="Got '50.0' instead"):
            mod.DataFrame({"k": [1], "v": [1.0]}).groupby("k").quantile(50)


def test_groupby_key_given_twice_goes_to_pandas():
    assert_matches_pandas(lambda pd: pd.DataFrame({"col1": [2, 1, 1, 0], "col2": [4, 5, 36, 7]}).groupby(
        by=["col1", "col1", "col2"], as_index=False).agg(new_col=pd.NamedAgg(column="col1", aggfunc="min"),
                                                         n=pd.NamedAgg(column="col2", aggfunc="count")))
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 1, 2], "v": [1, 2, 3]}).groupby(["a", "a"]).sum())
