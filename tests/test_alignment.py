"""Combining two plans whose index differs, against pandas (issue 9, "new Q").

Every such combination goes through one rule declared on ``HConcat`` (``plan/logical.ALIGN_JOINS``):
assignment reindexes the value to the frame ("left"), a Series operation aligns on the sorted union
("outer"), an operator comparison needs identical labels ("exact"); equal labels are always taken as
they are. Each case is checked for values, dtypes, index (name, type), names and row order, on the
engine the suite runs on (CPU, or the GPU engine over the stand-in).
"""
from __future__ import annotations

import numpy as np
import pandas
import pytest

from gframe.testing import assert_matches_pandas, assert_raises_like_pandas


def frame(pd, index=None, **extra):
    data = {"a": [3, 1, 4, 1, 5], "b": [10.0, np.nan, 30.0, 40.0, 50.0], "s": ["x", None, "z", "w", "v"]}
    data.update(extra)
    return pd.DataFrame(data, index=index)


INDEXES = {
    "default": None,
    "int_unsorted": [7, 2, 9, 0, 4],
    "str": ["e", "b", "d", "a", "c"],
    "datetime": pandas.to_datetime(["2020-01-05", "2020-01-02", "2020-01-04", "2020-01-01", "2020-01-03"]),
    "range_step": pandas.RangeIndex(0, 15, 3),
    "named": pandas.Index([7, 2, 9, 0, 4], name="k"),
}


@pytest.fixture(params=list(INDEXES))
def index(request):
    return INDEXES[request.param]


def union(fn, index):
    """``fn`` against pandas; a sorted union of datetimes gets a ``freq`` pandas infers, which gframe
    (like every gframe result) does not carry: the labels, type and name are compared."""
    kw = {"check_freq": False} if isinstance(index, pandas.DatetimeIndex) else {}
    assert_matches_pandas(fn, **kw)


# --------------------------------------------------------------------------- Series op Series: sorted union
def test_add_filtered_to_whole(index):
    union(lambda pd: (lambda d: d.a + d[d.a > 1].b)(frame(pd, index)), index)


def test_add_sorted_head_to_whole(index):
    union(lambda pd: (lambda d: d.a + d.sort_values("b").b.head(3))(frame(pd, index)), index)


def test_sub_whole_from_sorted_values(index):
    union(lambda pd: (lambda d: d.sort_values("a", kind="stable").a - d.a.head(2))(frame(pd, index)), index)


def test_equal_labels_keep_order_and_dtype():
    # two plans holding the same labels in the same order: side by side, no sorting, ints stay ints
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[5, 0, 2]) + pd.Series([10, 20, 30], index=[5, 0, 2]))
    assert_matches_pandas(lambda pd: (lambda d: d.a * d.sort_values("a", kind="stable").sort_index().a)(
        frame(pd, [0, 1, 2, 3, 4])))


def test_default_and_labelled_index():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[2, 0, 5]) + pd.Series([10, 20]))
    assert_matches_pandas(lambda pd: pd.Series([10, 20]) + pd.Series([1, 2, 3], index=[2, 0, 5]))


def test_two_default_indexes_of_different_lengths():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3]) + pd.Series([10, 20]))
    assert_matches_pandas(lambda pd: pd.Series([1.5]) * pd.Series([10, 20, 30], name="x"))


def test_duplicate_labels_every_pair_sorted():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[2, 0, 2]) + pd.Series([10, 20], index=[0, 2]))
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[5, 0, 5]) + pd.Series([10, 20], index=[3, 1]))
    assert_matches_pandas(lambda pd: pd.Series([1, 2], index=["b", "b"]) + pd.Series([10, 20], index=["b", "a"]))


def test_missing_values_and_nullable_dtypes():
    assert_matches_pandas(lambda pd: pd.Series([1, None, 3], index=[2, 0, 5], dtype="Int64") + pd.Series([10, 20], index=[0, 9]))
    assert_matches_pandas(lambda pd: pd.Series([1.0, np.nan], index=[1, 0]) + pd.Series([np.nan], index=[0]))
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0], index=[np.nan, 1.0]) + pd.Series([3.0], index=[0.5]))


def test_strings_and_datetimes_values():
    assert_matches_pandas(lambda pd: pd.Series(["a", "b"], index=[1, 0]) + pd.Series(["x"], index=[1]))
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime(["2020-01-02", "2020-01-05"]), index=["q", "p"])
                          - pd.Series(pd.to_datetime(["2020-01-01"]), index=["q"]))


def test_empty_and_one_row():
    assert_matches_pandas(lambda pd: pd.Series([1, 2], index=[3, 1]) + pd.Series([], dtype="int64"))
    assert_matches_pandas(lambda pd: (lambda d: d.a + d[d.a > 100].a)(frame(pd, [7, 2, 9, 0, 4])))
    assert_matches_pandas(lambda pd: pd.Series([1], index=[4]) + pd.Series([2], index=[3]))


def test_names_of_result_and_index():
    assert_matches_pandas(lambda pd: pd.Series([1, 2], index=pd.Index([1, 0], name="i"), name="v")
                          + pd.Series([5], index=pd.Index([0], name="j"), name="v"))
    assert_matches_pandas(lambda pd: pd.Series([1, 2], index=pd.Index([1, 0]), name="v")
                          + pd.Series([5], index=pd.Index([0], name="j"), name="w"))


def test_flex_methods_align():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[2, 0, 5]).add(pd.Series([10, 20], index=[0, 9])))
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[2, 0, 5]).add(pd.Series([10, 20], index=[0, 9]), fill_value=0))
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[2, 0, 5]).eq(pd.Series([2, 1], index=[0, 2])))


def test_logical_ops_align():
    # pandas' logical_op, not Kleene logic: missing on the right counts as False, missing on the left gives False
    assert_matches_pandas(lambda pd: pd.Series([True, False], index=[1, 0]) & pd.Series([True], index=[1]))
    assert_matches_pandas(lambda pd: pd.Series([True, False], index=[1, 0]) | pd.Series([True], index=[3]))
    for op in ("__and__", "__or__", "__xor__"):
        assert_matches_pandas(lambda pd: getattr(pd.Series([True, False], index=[1, 0]), op)(pd.Series([True, True], index=[3, 0])))
        assert_matches_pandas(lambda pd: getattr(pd.Series([True, True], index=[3, 0]), op)(pd.Series([True, False], index=[1, 0])))
    # nullable booleans: missing labels are NA, Kleene logic
    assert_matches_pandas(lambda pd: pd.Series([True, False], index=[1, 0], dtype="boolean")
                          | pd.Series([True, None], index=[3, 0], dtype="boolean"))
    assert_matches_pandas(lambda pd: pd.Series([True, False], index=[1, 0], dtype="boolean")
                          & pd.Series([False, None], index=[3, 0], dtype="boolean"))
    # other types go to pandas (ints: a missing label makes a float, which & refuses)
    assert_raises_like_pandas(lambda pd: pd.Series([1, 2], index=[1, 0]) & pd.Series([3], index=[1]), match="unsupported operand")


# ------------------------------------------------------------------- comparisons: identical labels only
def test_comparison_of_differently_labelled_raises(index):
    msg = "Can only compare identically-labeled Series objects"
    assert_raises_like_pandas(lambda pd: (lambda d: d.a == d[d.a > 1].a)(frame(pd, index)), match=msg)
    assert_raises_like_pandas(lambda pd: (lambda d: d.sort_values("b").a < d.a)(frame(pd, index)), match=msg)


def test_comparison_of_identically_labelled_plans():
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3], index=[5, 0, 2]) == pd.Series([1, 0, 3], index=[5, 0, 2]))
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3]) >= pd.Series([3, 2, 1]))


# ------------------------------------------------------------------------ assignment: reindex to the frame
def test_assign_to_filtered_frame(index):
    assert_matches_pandas(lambda pd: (lambda d: d[d.a > 1].assign(v=d.b * 2, w=d.a))(frame(pd, index)))


def test_assign_filtered_series_to_frame(index):
    assert_matches_pandas(lambda pd: (lambda d: d.assign(v=d[d.a > 1].a, t=d[d.a > 1].s))(frame(pd, index)))


def test_setitem_sorted_series(index):
    def f(pd):
        d = frame(pd, index)
        d["v"] = d.sort_values("b").a * 10  # every label found: ints stay ints, values by label
        d["w"] = d.a.sort_values().head(2)
        return d
    assert_matches_pandas(f)


def test_setitem_from_labelled_series_onto_default_index():
    def f(pd):
        d = pd.DataFrame({"a": [1, 2, 3]})
        d["v"] = pd.Series([7, 8], index=[2, 1])
        d["n"] = pd.Series([1, 2], index=[2, 1], dtype="Int64")
        d["t"] = pd.Series([True, False], index=[2, 1])
        d["s"] = pd.Series(["x", "y"], index=[2, 1])
        return d
    assert_matches_pandas(f)


def test_setitem_duplicates():
    def right_dups(pd):
        d = pd.DataFrame({"a": [1, 2, 3]})
        d["v"] = pd.Series([1, 2], index=[0, 0])
        return d
    assert_raises_like_pandas(right_dups, match="cannot reindex on an axis with duplicate labels")

    def left_dups(pd):
        d = pd.DataFrame({"a": [1, 2, 3]}, index=[0, 0, 1])
        d["v"] = pd.Series([7, 8], index=[1, 0])
        return d
    assert_matches_pandas(left_dups)


def test_setitem_datetime_index_value():
    def f(pd):
        idx = pd.to_datetime(["2021-03-01", "2021-01-01", "2021-02-01"])
        d = pd.DataFrame({"a": [1, 2, 3]}, index=idx)
        d["v"] = pd.Series([1.5, 2.5], index=pd.to_datetime(["2021-02-01", "2021-05-01"]))
        return d
    assert_matches_pandas(f)


def test_frame_op_series_along_index():
    assert_matches_pandas(lambda pd: (lambda d: d[["a", "b"]].sub(d[d.a > 1].a, axis=0))(frame(pd, [7, 2, 9, 0, 4])))


def test_mask_of_another_plan_with_the_same_labels():
    assert_matches_pandas(lambda pd: (lambda d: d[d.sort_values("a", kind="stable").sort_index().a > 1])(
        frame(pd, [0, 1, 2, 3, 4])))


def test_assign_to_frame_without_rows_takes_the_value_rows():
    # pandas' _ensure_valid_index: ``df = pd.DataFrame(); df["a"] = s`` gives df s's rows and index
    def series_then_derived(pd):
        d = pd.DataFrame()
        d["v"] = pd.Series([1, 2], index=pd.Index([3, 1], name="q"), name="zz")
        d["w"] = pd.Series([5], index=[1])
        return d
    assert_matches_pandas(series_then_derived)

    def list_then_derived(pd):
        d = pd.DataFrame()
        d["v"] = [1, 2, 3]
        d["w"] = d.v * 2
        return d
    assert_matches_pandas(list_then_derived)

    def with_columns(pd):
        d = pd.DataFrame({"a": []})
        d["v"] = pd.Series([1, 2])
        return d
    assert_matches_pandas(with_columns)

    def scalar(pd):
        d = pd.DataFrame()
        d["v"] = 5
        return d
    assert_matches_pandas(scalar)
    assert_matches_pandas(lambda pd: pd.DataFrame().assign(v=pd.Series([], dtype="float32")))


def test_mask_of_another_plan_reindexed_to_the_frame():
    # the mask's labels in another order: reindexed to the frame (pandas also warns; gframe, lazy, does not)
    def reordered(pd):
        d = frame(pd, [7, 2, 9, 0, 4])
        return d[(d.a > 1).sort_values(kind="stable")]
    with pytest.warns(UserWarning, match="Boolean Series key will be reindexed"):
        expected = reordered(pandas)
    import gframe
    got = reordered(gframe).to_pandas()
    pandas.testing.assert_frame_equal(got, expected)


@pytest.mark.filterwarnings("ignore:Boolean Series key will be reindexed")
def test_mask_missing_labels_raises(index):
    assert_raises_like_pandas(lambda pd: (lambda d: d[d[d.a > 1].a > 3])(frame(pd, index)), match="Unalignable boolean Series")
    assert_raises_like_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 3]})[pd.Series([True, False])], match="Unalignable")


def test_loc_setitem_of_a_series_of_another_plan():
    def new_column(pd):
        d = pd.DataFrame({"a": [1, 2, 3]}, index=[5, 1, 3])
        d.loc[:, "v"] = pd.Series([7, 8], index=[3, 5])
        return d
    assert_matches_pandas(new_column)

    def existing_column(pd):
        d = pd.DataFrame({"a": [1.0, 2.0, 3.0]}, index=[5, 1, 3])
        d.loc[:, "a"] = pd.Series([7.0, 8.0], index=[3, 5])
        return d
    assert_matches_pandas(existing_column)

    def int_column_missing_label(pd):  # pandas sets in place: NaN cannot go into int64
        d = pd.DataFrame({"a": [1, 2, 3]}, index=[5, 1, 3])
        d.loc[:, "a"] = pd.Series([7, 8], index=[3, 5])
        return d
    assert_raises_like_pandas(int_column_missing_label, match="Invalid value")


def test_multiindex_assignment_and_comparison():
    def mi(pd, t):
        return pd.MultiIndex.from_tuples(t, names=["k", "j"])

    def assign(pd):
        d = pd.DataFrame({"a": [1, 2, 3]}, index=mi(pd, [(0, "x"), (1, "y"), (0, "z")]))
        d["v"] = pd.Series([7, 8], index=mi(pd, [(0, "z"), (1, "y")]))
        return d
    assert_matches_pandas(assign)

    def assign_duplicates(pd):
        d = pd.DataFrame({"a": [1, 2, 3]}, index=mi(pd, [(0, "x"), (1, "y"), (0, "z")]))
        d["v"] = pd.Series([7, 8], index=mi(pd, [(0, "z"), (0, "z")]))
        return d
    assert_raises_like_pandas(assign_duplicates, match="non-unique multi-index")
    assert_raises_like_pandas(lambda pd: (lambda d: d.a == d.sort_index().a)(
        pd.DataFrame({"a": [1, 2, 3]}, index=mi(pd, [(0, "x"), (1, "y"), (0, "z")]))), match="identically-labeled")
    assert_matches_pandas(lambda pd: (lambda d: d.a + d.sort_index().a)(
        pd.DataFrame({"a": [1, 2, 3]}, index=mi(pd, [(0, "x"), (1, "y"), (0, "z")]))))
