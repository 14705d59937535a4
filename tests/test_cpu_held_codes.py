"""Group-bys on a string key whose codes the in-memory source keeps (``kernels._held_codes``), the
min / max of the ordered pass, and its median selection (``ordered.kth_smallest``): pandas' answers,
to the bit, on the first group-by (which numbers the key) and on later ones (which read the kept
codes) alike. Where a test is about the path taken, it checks it (CPU engine only)."""
import gc

import numpy as np
import pandas
import pandas.testing as pdt
import pytest

import gframe
from gframe.testing import assert_matches_pandas, to_pandas

NaN = float("nan")


def _cpu() -> bool:
    return gframe.engines.get_engine().name == "cpu"


@pytest.fixture
def numbered(monkeypatch):
    """How often a key was numbered (``_group_codes``) and how often the ordered pass answered."""
    if not _cpu():
        pytest.skip("cpu engine kernels")
    from gframe.engines.cpu import kernels as K

    counts = {"numbered": 0, "ordered": 0}
    codes, ordered = K._group_codes, K._ordered_aggregate

    def spy_codes(*a, **kw):
        counts["numbered"] += 1
        return codes(*a, **kw)

    def spy_ordered(*a, **kw):
        out = ordered(*a, **kw)
        counts["ordered"] += out is not None
        return out

    monkeypatch.setattr(K, "_group_codes", spy_codes)
    monkeypatch.setattr(K, "_ordered_aggregate", spy_ordered)
    return counts


def frame(n=400, seed=0, nulls=True):
    rng = np.random.default_rng(seed)
    keys = np.array([f"k{i:03d}" for i in range(40)], dtype=object)[rng.integers(0, 40, n)]
    if nulls:
        keys[rng.integers(0, n, n // 20)] = None
    f = rng.normal(0, 100, n)
    f[rng.integers(0, n, n // 10)] = NaN
    f[[3, 7]] = [np.inf, -np.inf]
    return pandas.DataFrame({
        "k": pandas.array(keys, dtype="str"),
        "i": rng.integers(-50, 50, n),
        "i8": rng.integers(-100, 100, n).astype("int8"),
        "u": rng.integers(0, 2**31, n).astype("uint32"),
        "f": f,
        "z": rng.choice([0.0, -0.0], n),
    })


def check(got, want):
    got = to_pandas(got)
    if isinstance(want, pandas.DataFrame):
        pdt.assert_frame_equal(got, want, check_exact=True)
    else:
        pdt.assert_series_equal(got, want, check_exact=True)


AGGS = [
    {"i": ["min", "max"], "f": ["min", "max"]},
    {"i": ["sum", "mean", "max"], "f": ["sum", "mean", "std", "median", "min"], "i8": ["min", "max", "sum"]},
    {"u": ["max", "min"], "i": "count"},
]


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("dropna", [True, False])
def test_repeated_group_bys_read_the_kept_codes(numbered, sort, dropna):
    """The first group-by numbers the key; the later ones (other aggregations, the other sort, as
    index or not) read the codes the source keeps - pandas' answers every time."""
    x = frame()
    g = gframe.DataFrame(x)
    for agg in AGGS:
        for as_index in (True, False):
            want = x.groupby("k", sort=sort, dropna=dropna, as_index=as_index).agg(agg)
            check(g.groupby("k", sort=sort, dropna=dropna, as_index=as_index).agg(agg), want)
    check(g.groupby("k", sort=not sort, dropna=dropna).i.max(), x.groupby("k", sort=not sort, dropna=dropna).i.max())
    check(g.groupby("k", sort=sort, dropna=dropna).size(), x.groupby("k", sort=sort, dropna=dropna).size())
    assert numbered["numbered"] == 1  # once for this source (and dropna)
    assert numbered["ordered"] >= 2 * len(AGGS) + 2  # (each twice under GFRAME_VERIFY_OPTIMIZER)


def test_codes_are_kept_per_source_and_leave_with_it(numbered):
    from gframe.engines.cpu import kernels as K

    x = frame(seed=1)
    g, h = gframe.DataFrame(x), gframe.DataFrame(x)
    want = x.groupby("k").agg({"i": "max", "f": "sum"})
    for _ in range(2):
        check(g.groupby("k").agg({"i": "max", "f": "sum"}), want)
        check(h.groupby("k").agg({"i": "max", "f": "sum"}), want)
    assert numbered["numbered"] == 2  # one numbering per source
    held = len(K._HELD)
    del g, h
    gc.collect()
    assert len(K._HELD) <= held - 2


def test_materialized_frames_keep_codes(numbered):
    """A frame the engine already holds (``len(df)`` computed it: a ``Materialized`` leaf, wrapped
    anew by each query) keeps its codes as an in-memory source does - a filtered one its own."""
    from gframe.engines.cpu import kernels as K

    x = frame(seed=7)
    g = gframe.DataFrame(x)
    assert len(g) == len(x)
    h = g[g.i > -10]
    assert len(h) == int((x.i > -10).sum())
    agg = {"i": "max", "f": ["min", "sum"]}
    for _ in range(3):
        check(g.groupby("k").agg(agg), x.groupby("k").agg(agg))
        check(h.groupby("k", sort=False).agg(agg), x[x.i > -10].groupby("k", sort=False).agg(agg))
    assert numbered["numbered"] == 2  # once for g, once for h
    held = len(K._HELD)
    del g, h
    gc.collect()
    assert len(K._HELD) <= held - 2


def test_renamed_and_projected_key_reads_the_source_codes(numbered):
    x = frame(seed=2)
    g = gframe.DataFrame(x)
    check(g.groupby("k").f.median(), x.groupby("k").f.median())
    check(g[["f", "k", "i"]].rename(columns={"k": "key"}).groupby("key", sort=False).agg({"i": "min", "f": "max"}),
          x[["f", "k", "i"]].rename(columns={"k": "key"}).groupby("key", sort=False).agg({"i": "min", "f": "max"}))
    assert numbered["numbered"] == 1


def test_computed_or_filtered_keys_are_not_kept(numbered):
    """A key that is not the source's column as it is (computed, or after a filter) is numbered
    each time - and still gives pandas' answers."""
    x = frame(seed=3)
    g = gframe.DataFrame(x)
    for _ in range(2):
        check(g[g.i > 0].groupby("k").f.sum(), x[x.i > 0].groupby("k").f.sum())
        check(g.assign(k2=g.k + "_").groupby("k2").f.mean(), x.assign(k2=x.k + "_").groupby("k2").f.mean())
    # float sums and means take the ordered pass, which numbers these keys every time
    assert numbered["numbered"] == numbered["ordered"] >= 4


def test_near_unique_keys_are_not_kept(numbered):
    x = pandas.DataFrame({"k": pandas.array([f"u{i}" for i in range(200)], dtype="str"),
                          "v": np.arange(200, dtype="float64")})
    g = gframe.DataFrame(x)
    for _ in range(2):
        check(g.groupby("k", sort=False).v.sum(), x.groupby("k", sort=False).v.sum())
    assert numbered["numbered"] == numbered["ordered"] >= 2


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("observed", [True, False])
def test_categorical_key(sort, observed):
    def fn(pd):
        x = frame(seed=4, nulls=False)
        x = pd.DataFrame(x).astype({"k": pd.CategoricalDtype([f"k{i:03d}" for i in range(42)][::-1])})
        return x.groupby("k", sort=sort, observed=observed).agg({"i": ["max", "sum"], "f": "min"})

    assert_matches_pandas(fn, check_exact=True)


@pytest.mark.parametrize("n", [0, 1])
def test_empty_and_one_row(n):
    def fn(pd):
        x = pd.DataFrame(frame(n=20, seed=5).head(n))
        return x.groupby("k", dropna=False).agg({"i": ["min", "max"], "f": ["max", "median"]})

    assert_matches_pandas(fn, check_exact=True)


def test_all_missing_keys_and_values():
    def fn(pd):
        x = pd.DataFrame({"k": pd.array([None, None, "a"], dtype="str"), "f": [NaN, NaN, NaN], "i": [1, 2, 3]})
        return x.groupby("k", dropna=False).agg({"f": ["min", "max", "median"], "i": ["min", "max"]})

    assert_matches_pandas(fn, check_exact=True)


@pytest.mark.parametrize("key", ["i", "k"])
def test_min_max_signed_zero_and_types(key):
    """Of -0.0 and 0.0 the first seen is kept (pandas' strict comparison: the ordered pass, which a
    string key kept by its source takes); int8 and uint32 keep their types; a group of missing
    values only gives NaN."""
    def fn(pd):
        x = pd.DataFrame(frame(seed=6))
        x.loc[x.i == 0, "f"] = NaN
        return x.groupby(key, sort=False, dropna=False).agg({"z": ["min", "max"], "i8": ["min", "max"],
                                                              "u": ["min", "max"], "f": ["min", "max"]})

    got = assert_matches_pandas(fn, check_exact=True)
    if key != "k" or not _cpu():  # (an int key's min / max stay with Polars, whose zeros' signs differ)
        return
    want = fn(pandas)
    for c in [("z", "min"), ("z", "max")]:
        np.testing.assert_array_equal(np.signbit(got[c].to_numpy()), np.signbit(want[c].to_numpy()))


# ------------------------------------------------------------------------------ median selection
@pytest.mark.parametrize("size", [1, 2, 17, 18, 257, 1000, 1001])
def test_group_median_selects_the_middle(size):
    """``group_median`` (branchless partitions, insertion sort for the last few) against numpy's
    median, on groups large enough to partition: random, many duplicates, all equal, sorted both
    ways, organ pipe, with infinities and missing values."""
    pytest.importorskip("numba")
    from gframe.engines.cpu import ordered

    rng = np.random.default_rng(size)
    asc = np.arange(size, dtype="float64")
    with_inf = rng.normal(size=size)
    with_inf[: max(size // 10, 1)] = np.inf
    cases = [rng.normal(size=size), rng.integers(0, 3, size).astype("float64"), np.full(size, 2.5), asc, asc[::-1],
             np.concatenate([asc[: size // 2], asc[size // 2:][::-1]]), with_inf]
    for v in cases:
        groups = 3
        code = np.repeat(np.arange(groups), size)
        x = np.concatenate([v, rng.permutation(v), v[::-1]])
        x_nan = x.copy()
        x_nan[rng.integers(0, len(x), len(x) // 7)] = NaN
        for values in (x, x_nan):
            rows = np.bincount(code, minlength=groups)
            got = ordered.group_median(code, groups, values, rows, False)
            if values is x:  # nothing missing: the row counts are the value counts
                np.testing.assert_array_equal(ordered.group_median(code, groups, values, rows, True), got)
            want = [np.median(g[~np.isnan(g)]) if (~np.isnan(g)).any() else NaN for g in values.reshape(groups, size)]
            np.testing.assert_array_equal(got, np.array(want))


def test_kth_smallest_against_sort():
    """Every rank of a range with many duplicates, and the fallback past its rounds limit."""
    pytest.importorskip("numba")
    from gframe.engines.cpu import ordered

    rng = np.random.default_rng(9)
    base = rng.integers(0, 20, 300).astype("float64")
    want = np.sort(base)
    for k in range(0, 300, 7):
        a = np.concatenate([[99.0], base, [-99.0]])
        ordered.kth_smallest(a, 1, 301, 1 + k)
        assert a[1 + k] == want[k]
        assert (a[1:1 + k] <= want[k]).all() and a[0] == 99.0 and a[-1] == -99.0


def test_median_in_the_ordered_pass_large_groups(numbered):
    # (the CPU engine's pass: pandas' std to the bit; other engines' std may differ in the last bits)
    def fn(pd):
        rng = np.random.default_rng(11)
        n = 5000
        v = np.round(rng.uniform(0, 100, n), 1)
        v[rng.integers(0, n, 100)] = NaN
        return pd.DataFrame({"a": rng.integers(0, 3, n), "b": rng.integers(0, 2, n), "v": v}).groupby(
            ["a", "b"], sort=False, as_index=False).agg({"v": ["median", "std"]})

    assert_matches_pandas(fn, check_exact=True)
    assert numbered["ordered"] >= 1
