"""``Series.repeat``, a plan node (``Repeat``) native on both engines: each value ``repeats`` times in
a row with its index label - an int, or one count per value. Values, dtype, index (a default
RangeIndex repeats its positions as int64 labels), name and order against pandas, over nulls, NaN,
strings, datetimes, categoricals, nullable dtypes, empty and one-row inputs; pandas' exceptions for
bad counts; counts that are not integers run through pandas, recorded."""
import os

import numpy as np
import pandas
import pytest

import gframe
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

NaN = float("nan")


INPUTS = {  # name -> a Series of that kind, built with the module under test
    "floats_nan_null": lambda pd: pd.Series([1.5, NaN, None, -2.0], name="f"),
    "ints": lambda pd: pd.Series([3, 1, 2], index=["x", "y", "z"], name="i"),
    "bools": lambda pd: pd.Series([True, False, True]),
    "strings": lambda pd: pd.Series(["a", None, "", "b"], name="s"),
    "datetimes": lambda pd: pd.Series(pd.to_datetime(["2024-01-03", None, "2023-12-31"]), name="t"),
    "durations": lambda pd: pd.Series(np.array([1, "NaT", 3], dtype="timedelta64[h]")),
    "categorical": lambda pd: pd.Series(pd.Categorical(["b", "a", None, "b"], categories=["b", "a"]), name="c"),
    "nullable_int": lambda pd: pd.Series([1, None, 3], dtype="Int64", name="n"),
    "nullable_bool": lambda pd: pd.Series([True, None, False], dtype="boolean"),
    "nullable_str": lambda pd: pd.Series(["p", None, "q"], dtype="string"),
    "int_index": lambda pd: pd.Series([10.0, 20.0, 30.0], index=pd.Index([7, 5, 7], name="k")),
    "datetime_index": lambda pd: pd.Series([1, 2], index=pd.to_datetime(["2024-01-01", "2024-02-01"])),
    "multiindex": lambda pd: pd.Series([1, 2, 3], index=pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1)],
                                                                                  names=["l0", "l1"])),
    "one_row": lambda pd: pd.Series([4.25], name="one"),
    "empty": lambda pd: pd.Series([], dtype="float64", name="e"),
    "empty_strings": lambda pd: pd.Series([], dtype="str"),
}
KINDS = sorted(INPUTS)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("repeats", [0, 1, 3])
def test_repeat_by_an_int(kind, repeats):
    with gframe.option_context(fallback="raise"):  # native: no call runs through pandas
        assert_matches_pandas(lambda pd: INPUTS[kind](pd).repeat(repeats))


@pytest.mark.parametrize("kind", [k for k in KINDS if not k.startswith("empty") and k != "one_row"])
def test_repeat_per_value(kind):
    def fn(pd):
        s = INPUTS[kind](pd)
        counts = [(i * 2 + 1) % 3 for i in range(len(s))]  # 1, 0, 2, 1, ...: some values dropped
        return s.repeat(counts)

    with gframe.option_context(fallback="raise"):
        assert_matches_pandas(fn)


@pytest.mark.parametrize("counts", [
    [2, 0, 1], (0, 0, 0), np.array([1, 2, 3], dtype=np.int8), np.array([3, 0, 1], dtype=np.uint16),
    [True, False, True], [2],  # bools count 0 / 1; a single count applies to every value (numpy broadcasts)
])
def test_repeat_count_forms(counts):
    assert_matches_pandas(lambda pd: pd.Series([1.0, None, 3.0], index=list("abc"), name="v").repeat(counts))


def test_repeat_counts_from_a_series_are_positional():
    # pandas reads the counts' values in order, ignoring their index
    assert_matches_pandas(lambda pd: pd.Series(["a", "b", "c"]).repeat(pd.Series([1, 2, 0], index=[9, 8, 7])))


def test_repeat_scalar_forms():
    for r in (np.int64(2), np.uint8(2), True, np.True_):
        assert_matches_pandas(lambda pd: pd.Series([1, 2], name="x").repeat(r))


def test_repeat_of_empty_per_value():
    assert_matches_pandas(lambda pd: pd.Series([], dtype="int64").repeat([]))
    assert_matches_pandas(lambda pd: pd.Series(["z"], index=[5]).repeat([3]))


def test_repeat_then_more_work():
    """The node inside bigger plans: filters, arithmetic and limits above it, a sort below it."""
    def fn(pd):
        s = pd.Series([5, 1, None, 4], name="v")
        r = s.sort_values().repeat(2)
        return (r[r > 1] * 10).head(5)

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.Series([3, 1, 2]).repeat([1, 0, 2]).reset_index())
    assert_matches_pandas(lambda pd: pd.Series(list("abc")).repeat(2).tail(3))
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0]).repeat(3).sum())
    assert_matches_pandas(lambda pd: pd.Series([1.0, 2.0, None]).repeat(2).value_counts(dropna=False))


def test_repeat_is_native_and_placed_on_the_gpu():
    gframe.fallback_report(clear=True)
    with gframe.option_context(fallback="raise"):
        s = gframe.Series([1.0, None, 3.0], name="v")
        for r in (2, [1, 0, 2]):
            pandas.testing.assert_series_equal(s.repeat(r).to_pandas(), s.to_pandas().repeat(r))
    assert not [e for e in gframe.fallback_report() if e.kind != "cpu"]

    from gframe.engines.gpu.placement import node_reason, placement
    from gframe.plan import logical as L

    for r in (2, [1, 0, 2]):
        plan = s.repeat(r)._plan
        assert isinstance(plan, L.Repeat) and node_reason(plan) is None
        assert placement(plan)[id(plan)] == "gpu"  # (placement is decided without a GPU library)
    assert "Repeat 2" in s.repeat(2).explain()


def test_repeat_beyond_libcudf_rows_is_placed_on_the_cpu():
    from gframe.engines.gpu.placement import node_reason
    from gframe.plan import logical as L

    plan = gframe.Series([1, 2])._plan
    assert "row limit" in node_reason(L.Repeat(2**31, plan))
    assert "row limit" in node_reason(L.Repeat((2**30, 2**30), plan))


@pytest.mark.parametrize("counts", [[2.0, 1.0, 0.0], 1.5, "2"])
def test_counts_that_are_not_integers_run_through_pandas(counts):
    gframe.fallback_report(clear=True)
    assert_matches_pandas(lambda pd: pd.Series([1, 2, 3]).repeat(counts))
    if os.environ.get("GFRAME_TEST_SELFCHECK") != "1":  # (pandas on both sides records nothing)
        assert any(e.api == "Series.repeat" for e in gframe.fallback_report())


@pytest.mark.parametrize("counts,match", [
    (-1, "negative dimensions"),
    ([1, -1, 1], "negative values"),
    ([-1], "negative dimensions"),
    ([1, 2], "could not be broadcast"),
    ([], "could not be broadcast"),
    ([1, None, 1], None),  # pandas: TypeError from int(None)
    (np.array([1, 2, 3], dtype=np.uint64), None),  # numpy refuses to cast uint64 counts
    (np.array([[1, 2, 3]]), None),
])
def test_bad_counts_raise_as_pandas(counts, match):
    assert_raises_like_pandas(lambda pd: pd.Series([1, 2, 3]).repeat(counts), match=match)


@pytest.mark.parametrize("axis", [0, 1, "index"])
def test_axis_raises_as_pandas(axis):
    assert_raises_like_pandas(lambda pd: pd.Series([1, 2]).repeat(2, axis=axis), match="axis")
