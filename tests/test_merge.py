"""merge / join: row order, suffixes, duplicate and null keys."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

HOWS = ["inner", "left", "right", "outer"]


@pytest.mark.parametrize("how", HOWS)
def test_merge_on_string_key(how, left_data, right_data):
    # duplicate keys on both sides (many-to-many) and None keys
    assert_matches_pandas(lambda pd: pd.DataFrame(left_data).merge(pd.DataFrame(right_data), on="key", how=how))


@pytest.mark.parametrize("how", HOWS)
def test_pd_merge_function(how, left_data, right_data):
    assert_matches_pandas(lambda pd: pd.merge(pd.DataFrame(left_data), pd.DataFrame(right_data), on="key", how=how))


@pytest.mark.parametrize("how", HOWS)
def test_merge_int_key(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"id": [3, 1, 2, 1], "a": ["x", "y", "z", "w"]}).merge(
            pd.DataFrame({"id": [1, 4, 3, 3], "b": [0.5, 1.5, 2.5, 3.5]}), on="id", how=how
        )
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_float_key_with_nan(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"f": [1.0, NaN, 2.0], "a": [1, 2, 3]}).merge(
            pd.DataFrame({"f": [NaN, 2.0, 3.0], "b": [4, 5, 6]}), on="f", how=how
        )
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_many_keys(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k1": [1, 1, 2, 2], "k2": ["a", "b", "a", None], "v": [1, 2, 3, 4]}).merge(
            pd.DataFrame({"k1": [1, 2, 2, 3], "k2": ["a", "a", None, "c"], "w": [10, 20, 30, 40]}),
            on=["k1", "k2"],
            how=how,
        )
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_left_on_right_on(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"lk": ["a", "b", "c"], "v": [1, 2, 3]}).merge(
            pd.DataFrame({"rk": ["c", "a", "d"], "w": [7.0, 8.0, 9.0]}), left_on="lk", right_on="rk", how=how
        )
    )


@pytest.mark.parametrize("suffixes", [("_x", "_y"), ("_left", "_right"), ("", "_r")])
def test_merge_suffixes(suffixes):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2], "v": [1, 2]}).merge(
            pd.DataFrame({"k": [2, 1], "v": [3, 4]}), on="k", suffixes=suffixes
        )
    )


def test_merge_default_suffixes():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2], "v": [1, 2], "s": ["a", "b"]}).merge(
            pd.DataFrame({"k": [2, 1, 2], "v": [3, 4, 5], "s": [None, "c", "d"]}), on="k", how="left"
        )
    )


def test_merge_no_on_uses_common_columns():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2, 3], "a": [1, 2, 3]}).merge(pd.DataFrame({"k": [3, 1], "b": [9, 8]}))
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_left_index_right_index(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"a": [1, 2, 3]}, index=["x", "y", "z"]).merge(
            pd.DataFrame({"b": [4.0, 5.0, 6.0]}, index=["z", "w", "x"]), left_index=True, right_index=True, how=how
        )
    )


def test_merge_left_on_right_index():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": ["b", "a", "b"], "v": [1, 2, 3]}).merge(
            pd.DataFrame({"w": [10, 20]}, index=["a", "b"]), left_on="k", right_index=True, how="left"
        )
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_with_empty(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2], "a": [1.0, 2.0]}).merge(
            pd.DataFrame({"k": [1], "b": [3.0]}).head(0), on="k", how=how
        )
    )


@pytest.mark.parametrize("how", HOWS)
def test_merge_no_matches(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": ["a", "b"], "a": [1.0, 2.0]}).merge(
            pd.DataFrame({"k": ["c"], "b": [3.0]}), on="k", how=how
        )
    )


def test_merge_cross():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"a": [1, 2]}).merge(pd.DataFrame({"b": ["x", "y", "z"]}), how="cross")
    )


def test_merge_indicator():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2, 3]}).merge(pd.DataFrame({"k": [2, 3, 4]}), on="k", how="outer", indicator=True)
    )


def test_merge_datetime_key():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2020-01-02", None]), "a": [1, 2, 3]}).merge(
            pd.DataFrame({"t": pd.to_datetime(["2020-01-02", None]), "b": [5, 6]}), on="t", how="left"
        )
    )


def test_merge_then_groupby(sales_data):
    assert_matches_pandas(
        lambda pd: pd.DataFrame(sales_data)
        .merge(pd.DataFrame({"store": ["s1", "s2", "s3"], "region": ["n", "s", "n"]}), on="store")
        .groupby("region")
        .qty.sum()
    )


@pytest.mark.parametrize("how", ["left", "inner", "outer", "right"])
def test_join_on_index(how):
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"a": [1, 2, 3]}, index=["x", "y", "z"]).join(
            pd.DataFrame({"b": ["p", None, "q"]}, index=["z", "x", "w"]), how=how
        )
    )


def test_join_suffixes():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"v": [1, 2]}, index=[0, 1]).join(
            pd.DataFrame({"v": [3, 4]}, index=[1, 2]), suffixes=("_l", "_r")
        )
    )


def test_join_on_column():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": ["b", "a", "c"], "v": [1, 2, 3]}).join(
            pd.DataFrame({"w": [10.0, 20.0]}, index=["a", "b"]), on="k"
        )
    )


def test_join_after_set_index():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"k": [1, 2, 3], "v": [1, 2, 3]}).set_index("k").join(
            pd.DataFrame({"k": [3, 1], "w": ["c", "a"]}).set_index("k")
        )
    )


# -------------------------------------------------------------- keys naming index levels (session 8)

def _levels_frames(pd, left_levels, right_levels):
    import numpy as np

    left = pd.DataFrame({"outer": [1, 1, 2, 2, 3, 4], "inner": [1, 2, 1, 3, 2, 1], "v1": np.linspace(0, 1, 6)})
    right = pd.DataFrame({"outer": [1, 1, 2, 3, 3, 5], "inner": [2, 1, 3, 1, 2, 1], "v2": np.linspace(10, 11, 6)})
    if left_levels:
        left = left.set_index(left_levels)
    if right_levels:
        right = right.set_index(right_levels)
    return left, right


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("left_levels,right_levels", [
    ([], ["outer"]), (["outer"], []), (["outer"], ["outer"]), (["outer", "inner"], ["inner"]),
    (["inner", "outer"], ["outer", "inner"]), (["outer"], ["inner"]),
])
@pytest.mark.parametrize("on", [["outer"], ["inner", "outer"], ["outer", "inner"]])
def test_merge_on_index_level_names(how, left_levels, right_levels, on):
    # pandas reads a key naming no column as an index level: one key column at the key's position,
    # the levels keyed on both sides restored as the index, other levels dropped - natively
    import gframe

    with gframe.option_context(fallback="raise"):
        assert_matches_pandas(lambda pd: pd.merge(*_levels_frames(pd, left_levels, right_levels), on=on, how=how))
        assert_matches_pandas(lambda pd: _levels_frames(pd, left_levels, right_levels)[0].merge(
            _levels_frames(pd, left_levels, right_levels)[1], left_on=on, right_on=on, how=how, sort=True))


def test_merge_index_level_keys_through_pandas():
    # level keys paired with keys of other names, keys naming a column and a level (pandas' ValueError),
    # level keys against the other side's index, and array keys: pandas' answers
    from gframe.testing import assert_raises_like_pandas

    def frames(pd):
        return (pd.DataFrame({"a": [1, 2]}, index=pd.Index([1, 2], name="c")),
                pd.DataFrame({"a": [1, 3]}, index=pd.Index([1, 5], name="d")))

    assert_matches_pandas(lambda pd: pd.merge(*frames(pd), left_on="c", right_on="d"))
    assert_matches_pandas(lambda pd: pd.merge(*frames(pd), left_on="c", right_index=True, how="outer"))
    assert_matches_pandas(lambda pd: pd.merge(*frames(pd), left_on=[pd.Series([1, 5]).to_numpy()],
                                              right_on="a"))
    assert_raises_like_pandas(lambda pd: pd.merge(frames(pd)[0].reset_index().set_index("c", drop=False),
                                                  frames(pd)[1], left_on="c", right_on="a"),
                              match="is both an index level and a column label")


@pytest.mark.parametrize("how", HOWS)
def test_merge_of_frames_without_columns_keeps_column_index_dtype(how):
    # two frames with only an index: pandas' column Index of the result is the two appended
    # (str labels stay str, two RangeIndexes one, a mix object)
    def run(pd, a, b):
        def frame(labels_str):
            f = pd.DataFrame({"key": [2, 3, 4]}).set_index("key")
            return f if labels_str else pd.DataFrame(index=pd.Index([2, 3, 4], name="key"))
        return pd.merge(frame(a), frame(b), how=how, left_index=True, right_index=True, sort=True)

    for a, b in [(True, True), (True, False), (False, False)]:
        got = assert_matches_pandas(lambda pd: run(pd, a, b))
        import pandas

        pandas.testing.assert_index_equal(got.columns, run(pandas, a, b).columns, exact=True)


def test_isin_numpy_scalars():
    # a set of numpy scalars (``set(ser.values)``) matches the values they equal
    import numpy as np

    assert_matches_pandas(lambda pd: pd.Series([2, 3, 4]).isin({np.int64(2), np.int64(4)}))
    assert_matches_pandas(lambda pd: pd.Series([2.0, 3.5]).isin([np.float32(3.5), np.int32(2)]))
    assert_matches_pandas(lambda pd: pd.Series([True, False]).isin([np.bool_(True)]))


@pytest.mark.parametrize("how", HOWS)
def test_join_multiindexes_of_other_level_names(how):
    # pandas joins two MultiIndexes of other level names on the levels they share
    def frames(pd):
        left = pd.DataFrame({"o": ["A", "A", "B", "C"], "d": ["A", "B", "A", "A"], "p": ["x", "y", "x", "z"],
                             "t": [1, 2, 3, 4]}).set_index(["o", "d", "p"])
        right = pd.DataFrame({"o": ["A", "B", "C", "E"], "d": ["A", "A", "A", "F"], "k": ["a", "b", "a", "c"],
                              "dist": [10, 20, 30, 40]}).set_index(["o", "d", "k"])
        return left, right

    assert_matches_pandas(lambda pd: frames(pd)[0].join(frames(pd)[1], how=how).sort_index())


def test_index_names_is_pandas_frozen_list():
    import gframe
    import pandas

    idx = gframe.DataFrame({"a": [1], "b": [2], "c": [3]}).set_index(["a", "b"]).index
    assert isinstance(idx.names, pandas.core.indexes.frozen.FrozenList)
    assert idx.names + ["c"] == ["a", "b", "c"] and idx.names.difference(["a"]) == ["b"]


@pytest.mark.parametrize("kwargs,match", [
    ({"left_index": True}, "Must pass right_on or right_index=True"),
    ({"right_index": True}, "Must pass left_on or left_index=True"),
    ({"how": "full", "on": "k"}, "'full' is not a valid Merge type: left, right, inner, outer, left_anti, right_anti, "
                                 "cross, asof"),
    ({"right_index": ["k"]}, "right_index parameter must be of type bool, not <class 'list'>"),
    ({"left_index": True, "right_index": True, "suffixes": {"a", "b"}}, "Passing 'suffixes' as a"),
    ({"on": "k", "suffixes": {"x": 1, "y": 2}}, "Passing 'suffixes' as a"),
    ({"left_on": "k"}, 'Must pass "right_on" OR "right_index".'),
    ({"on": "nope"}, "nope"),
])
def test_merge_argument_errors_are_pandas(kwargs, match):
    # argument errors: pandas' exception and message (its verdict on the same call)
    import gframe
    from gframe.testing import assert_raises_like_pandas

    def call(pd):
        return pd.merge(pd.DataFrame({"k": [1, 2], "v": [3, 4]}), pd.DataFrame({"k": [2, 3], "w": [5, 6]}), **kwargs)

    with gframe.option_context(fallback="raise"):
        assert_raises_like_pandas(call, match=match)


@pytest.mark.parametrize("reserved", ["_left_indicator", "_right_indicator"])
def test_merge_indicator_refuses_pandas_marker_columns(reserved):
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: pd.merge(pd.DataFrame({"k": [1, 2]}), pd.DataFrame({"k": [1], reserved: [2]}),
                                                  on="k", how="outer", indicator=True),
                              match=f"data contains a column named {reserved}")


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("left_dtype,right_dtype", [("Int64", "int64"), ("int64", "Int64"), ("Int8", "int8"),
                                                    ("UInt16", "uint16")])
@pytest.mark.parametrize("data", [([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [2, 3, 4]), ([1, None, 3], [1, 2, 3])])
def test_merge_nullable_and_numpy_int_keys(how, left_dtype, right_dtype, data):
    # pandas matches the values; the key keeps the left's dtype (inner/left) or the nullable one
    # where the left key is nullable - natively; a numpy left key in a right/outer merge is pandas'
    import gframe

    if data[0][1] is None and left_dtype[0] not in "IU":
        pytest.skip("numpy ints hold no missing value")

    def fn(pd):
        left = pd.DataFrame({"a": pd.Series(data[0], dtype=left_dtype), "b": 1})
        right = pd.DataFrame({"a": pd.Series(data[1], dtype=right_dtype), "c": 2})
        return pd.merge(left, right, on="a", how=how)

    native = how in ("inner", "left") or left_dtype[0] in "IU"
    with gframe.option_context(fallback="raise" if native else "silent"):
        assert_matches_pandas(fn)


# A side whose rows all come out once, in order (the other side's keys unique): the GPU engine reuses
# its columns instead of gathering them. Every kind of column on that side, and the cases around it.
_KEPT_LEFT = {"k": [3, 1, 2, 1, None, 3], "s": ["a", None, "ccc", "dd", "e", ""],
              "f": [1.5, NaN, -0.0, 2.0, 3.0, 4.0], "b": [True, False, None, True, False, True]}


@pytest.mark.parametrize(("how", "right_keys"), [
    ("inner", [1, 2, 3, None]),  # every left row matches one right row
    ("left", [1, 2]),  # every left row kept, some unmatched
    ("left", [1, 2, 3, None, 7]),
    ("inner", [1, 2]),  # some left rows dropped: gathered
    ("inner", [1, 1, 2, 3, None]),  # a repeated right key: a left row twice
    ("right", [3, 1, 2, None]),  # every right row matches one left row... or not (left keys repeat)
])
def test_merge_side_kept_in_order(how, right_keys):
    right = {"k": right_keys, "r": [float(i) for i in range(len(right_keys))]}

    def run(pd):
        left = pd.DataFrame(_KEPT_LEFT).astype({"k": "Int64", "b": "boolean"})
        return left.merge(pd.DataFrame(right).astype({"k": "Int64"}), on="k", how=how)

    assert_matches_pandas(run)


def test_merge_right_side_kept_in_order():
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 2, 3], "a": ["x", None, "z"]}).merge(
        pd.DataFrame({"k": [3, 3, 1, 2], "s": ["p", None, "r", "q"], "v": [0.5, NaN, 1.0, 2.0]}), on="k", how="right"))
