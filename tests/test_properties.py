"""Property tests: random small frames through filter / groupby-agg / merge / sort_values.

Floats are multiples of 1/4 in [-250, 250] (exact in binary) so sums do not depend on the order
of additions.
"""
from hypothesis import given, settings, strategies as st

from gframe.testing import assert_matches_pandas

NaN = float("nan")

SETTINGS = settings(max_examples=50, deadline=None, database=None)

keys = st.integers(min_value=0, max_value=3)
floats = st.one_of(st.integers(min_value=-1000, max_value=1000).map(lambda x: x / 4), st.just(NaN))
strings = st.sampled_from(["a", "b", "cc", "", None])


@st.composite
def frames(draw, min_rows=0, max_rows=30):
    n = draw(st.integers(min_value=min_rows, max_value=max_rows))
    return {
        "k": draw(st.lists(keys, min_size=n, max_size=n)),
        "v": draw(st.lists(floats, min_size=n, max_size=n)),
        "s": draw(st.lists(strings, min_size=n, max_size=n)),
        "i": draw(st.lists(st.integers(min_value=-50, max_value=50), min_size=n, max_size=n)),
    }


def build(pd, data):
    # explicit dtypes so empty frames are typed too
    return pd.DataFrame(
        {
            "k": pd.Series(data["k"], dtype="int64"),
            "v": pd.Series(data["v"], dtype="float64"),
            "s": pd.Series(data["s"], dtype="str"),
            "i": pd.Series(data["i"], dtype="int64"),
        }
    )


@SETTINGS
@given(data=frames(), threshold=st.integers(min_value=-300, max_value=300))
def test_filter_numeric(data, threshold):
    assert_matches_pandas(lambda pd: (lambda df: df[df.v > threshold])(build(pd, data)))


@SETTINGS
@given(data=frames(), key=keys, word=strings.filter(lambda x: x is not None))
def test_filter_combined(data, key, word):
    assert_matches_pandas(
        lambda pd: (lambda df: df.loc[((df.k == key) | df.s.isna()) & ~(df.s == word), ["s", "v"]])(build(pd, data))
    )


@SETTINGS
@given(data=frames())
def test_filter_isna_then_project(data):
    assert_matches_pandas(lambda pd: (lambda df: df[df.v.notna() & (df.i >= 0)].i)(build(pd, data)))


@SETTINGS
@given(
    data=frames(),
    how=st.sampled_from(["sum", "mean", "min", "max", "count", "size", "first", "last", "nunique"]),
    col=st.sampled_from(["v", "i"]),
)
def test_groupby_agg_one(data, how, col):
    assert_matches_pandas(lambda pd: getattr(build(pd, data).groupby("k")[col], how)())


@SETTINGS
@given(data=frames(), sort=st.booleans(), dropna=st.booleans())
def test_groupby_string_key_options(data, sort, dropna):
    assert_matches_pandas(
        lambda pd: build(pd, data).groupby("s", sort=sort, dropna=dropna).agg(
            total=("v", "sum"), n=("i", "size"), c=("v", "count")
        )
    )


@SETTINGS
@given(data=frames())
def test_groupby_many_keys_agg_list(data):
    assert_matches_pandas(lambda pd: build(pd, data).groupby(["k", "s"])[["v", "i"]].agg(["sum", "max"]))


@SETTINGS
@given(data=frames(), dropna=st.booleans())
def test_groupby_many_keys_as_index_false(data, dropna):
    assert_matches_pandas(
        lambda pd: build(pd, data).groupby(["k", "s"], as_index=False, dropna=dropna)[["v", "i"]].sum()
    )


@SETTINGS
@given(left=frames(max_rows=15), right=frames(max_rows=15), how=st.sampled_from(["inner", "left", "right", "outer"]))
def test_merge_int_key(left, right, how):
    assert_matches_pandas(
        lambda pd: build(pd, left)[["k", "v", "s"]].merge(build(pd, right)[["k", "i"]], on="k", how=how)
    )


@SETTINGS
@given(left=frames(max_rows=15), right=frames(max_rows=15), how=st.sampled_from(["inner", "left", "right", "outer"]))
def test_merge_string_key_with_nulls(left, right, how):
    assert_matches_pandas(
        lambda pd: build(pd, left)[["s", "v"]].merge(build(pd, right)[["s", "k", "v"]], on="s", how=how)
    )


@SETTINGS
@given(left=frames(max_rows=15), right=frames(max_rows=15), how=st.sampled_from(["inner", "left", "right", "outer"]))
def test_merge_two_keys(left, right, how):
    assert_matches_pandas(lambda pd: build(pd, left).merge(build(pd, right), on=["k", "s"], how=how))


@SETTINGS
@given(
    data=frames(),
    col=st.sampled_from(["k", "v", "s", "i"]),
    ascending=st.booleans(),
    na_position=st.sampled_from(["first", "last"]),
)
def test_sort_values_single(data, col, ascending, na_position):
    assert_matches_pandas(
        lambda pd: build(pd, data).sort_values(col, ascending=ascending, na_position=na_position, kind="stable")
    )


@SETTINGS
@given(
    data=frames(),
    by=st.permutations(["k", "v", "s", "i"]).map(lambda p: p[:3]),
    ascending=st.lists(st.booleans(), min_size=3, max_size=3),
    na_position=st.sampled_from(["first", "last"]),
)
def test_sort_values_many(data, by, ascending, na_position):
    assert_matches_pandas(
        lambda pd: build(pd, data).sort_values(list(by), ascending=ascending, na_position=na_position, kind="stable")
    )


@SETTINGS
@given(data=frames(), n=st.integers(min_value=0, max_value=35))
def test_sort_then_head(data, n):
    assert_matches_pandas(lambda pd: build(pd, data).sort_values(["i", "k"], kind="stable").head(n))
