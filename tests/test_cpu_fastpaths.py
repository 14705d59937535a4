"""The CPU engine's fast paths give pandas' answers: the direct-address join, the prefix order of
sort=False group-bys and the fused sort + groupby.head. Their size thresholds are lowered here so
that small frames take them; each test also checks that the path it is about was taken."""
import numpy as np
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")


@pytest.fixture
def taken(monkeypatch):
    """Lowered thresholds; counts how often each fast path answered (cpu engine only)."""
    import gframe
    from gframe.engines.cpu import kernels as K

    if gframe.engines.get_engine().name != "cpu":
        pytest.skip("cpu engine kernels")
    counts = {"direct": 0, "prefix": 0, "candidates": 0, "dense": 0, "ordered": 0}
    monkeypatch.setattr(K, "_DIRECT_MIN_ROWS", 1)
    monkeypatch.setattr(K, "_DENSE_MIN_GROUPS", 1)
    monkeypatch.setattr(K, "_SAMPLES", ((16, 2, 4), (64, 2, 4)))

    def spy(name, fn, hit):
        def wrapper(*args, **kw):
            out = fn(*args, **kw)
            if hit(out, *args):
                counts[name] += 1
            return out
        monkeypatch.setattr(K, fn.__name__, wrapper)

    spy("direct", K._direct_join, lambda out, *a: out is not None)
    spy("dense", K._dense_aggregate, lambda out, *a: out is not None)
    spy("ordered", K._ordered_aggregate, lambda out, *a: out is not None)
    spy("prefix", K._distinct, lambda out, *a: True)
    spy("candidates", K._head_candidates, lambda out, df, *a: out.height < df.height)
    return counts


# ------------------------------------------------------------------------------ direct join
def left_frame(pd, n=40):
    rng = np.random.default_rng(1)
    return pd.DataFrame({"id": rng.integers(-3, 30, n), "a": np.arange(n) * 1.5,
                         "s": [f"s{i % 7}" for i in range(n)]})


def right_frame(pd, keys=None):
    keys = list(range(25, -1, -1)) if keys is None else keys
    m = len(keys)
    return pd.DataFrame({"id": keys, "b": np.arange(m, dtype="int64") * 10, "t": [f"r{i}" for i in range(m)],
                         "c": pd.Categorical([f"c{i % 3}" for i in range(m)])})


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_unique_dense_keys(taken, how):
    assert_matches_pandas(lambda pd: left_frame(pd).merge(right_frame(pd), on="id", how=how))
    assert taken["direct"] >= 1


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_every_left_row_matches(taken, how):
    assert_matches_pandas(lambda pd: pd.DataFrame({"id": [3, 1, 2, 1, 0], "a": [1, 2, 3, 4, 5]}).merge(
        right_frame(pd, [0, 1, 2, 3]), on="id", how=how))
    assert taken["direct"] >= 1


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_suffixes_and_left_on(taken, how):
    assert_matches_pandas(lambda pd: left_frame(pd).rename(columns={"id": "k"}).assign(b=1).merge(
        right_frame(pd), left_on="k", right_on="id", how=how))
    assert taken["direct"] >= 1


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_duplicate_right_keys_fall_back(taken, how):
    # a right key twice: each left row meets both, in right order - the hash join's business
    assert_matches_pandas(lambda pd: left_frame(pd).merge(right_frame(pd, [5, 3, 5, 1, 2]), on="id", how=how))
    assert taken["direct"] == 0


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_null_keys_fall_back(taken, how):
    assert_matches_pandas(lambda pd: pd.DataFrame({"id": [1.0, NaN, 2.0, 7.0], "a": [1, 2, 3, 4]}).merge(
        pd.DataFrame({"id": [2.0, 1.0, NaN], "b": ["x", "y", "z"]}), on="id", how=how))
    assert taken["direct"] == 0


@pytest.mark.parametrize("how", ["inner", "left"])
def test_direct_join_sparse_keys_fall_back(taken, how):
    assert_matches_pandas(lambda pd: left_frame(pd).merge(right_frame(pd, [1, 10**9, 7]), on="id", how=how))
    assert taken["direct"] == 0


def test_direct_join_key_types_differ(taken):
    # int32 against int64: joined on a cast key, so through the hash join
    assert_matches_pandas(lambda pd: left_frame(pd).astype({"id": "int32"}).merge(right_frame(pd), on="id"))


def test_direct_join_unsigned_and_index_from_right(taken):
    assert_matches_pandas(lambda pd: left_frame(pd).astype({"id": "int16"}).merge(
        right_frame(pd).astype({"id": "int16"}).set_index("id"), left_on="id", right_index=True, how="left"))


def test_direct_join_no_right_columns(taken):
    assert_matches_pandas(lambda pd: left_frame(pd).merge(pd.DataFrame({"id": [4, 2, 3]}), on="id"))
    assert taken["direct"] >= 1


def test_merge_null_keys_on_one_side_only(taken):
    # pandas matches missing keys with each other; with none on one side the plain join runs
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": ["a", None, "b", None], "v": [1, 2, 3, 4]}).merge(
        pd.DataFrame({"k": ["b", "a", "c"], "w": [1.5, 2.5, 3.5]}), on="k", how="left"))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": ["a", None, "b", None], "v": [1, 2, 3, 4]}).merge(
        pd.DataFrame({"k": [None, "b", "a"], "w": [1.5, 2.5, 3.5]}), on="k", how="outer"))


# ------------------------------------------------------------------------------ group-by order
def keyed(pd, n=300, late=True, nulls=False, **extra):
    """Few groups, most seen early; with ``late`` one group first appears near the end."""
    keys = [["x", "y", "z"][i % 3] for i in range(n)]
    if late:
        keys[n - 5] = "late"
    if nulls:
        keys = [None if i % 5 == 1 else k for i, k in enumerate(keys)]
    return pd.DataFrame({"g": keys, "i": [i % 4 for i in range(n)], "v": np.arange(n, dtype="float64"),
                         "w": np.arange(n) % 7, **extra})


GB = dict(as_index=False, sort=False, observed=True, dropna=False)


@pytest.mark.parametrize("late", [False, True])
def test_sort_false_prefix_order(taken, late):
    # a "first" keeps the group-by in Polars (float sums, means and medians alone take the ordered pass)
    assert_matches_pandas(lambda pd: keyed(pd, late=late).groupby("g", **GB).agg({"v": "sum", "w": "first"}))
    assert taken["prefix"] >= 1


def test_sort_false_prefix_many_keys(taken):
    # a "first" keeps it in Polars (with sums, min and max take the ordered pass)
    assert_matches_pandas(lambda pd: keyed(pd).groupby(["g", "i"], sort=False).agg({"v": "sum", "w": "first"}))
    assert taken["prefix"] >= 1


@pytest.mark.parametrize("dropna", [True, False])
def test_sort_false_prefix_null_keys(taken, monkeypatch, dropna):
    # an int sum: float sums take the ordered pass (kernels._ordered_aggregate, tests/test_determinism.py);
    # and no codes kept on the source, with which a string key takes that pass too (tests/test_cpu_held_codes.py)
    from gframe.engines.cpu import kernels as K

    monkeypatch.setattr(K, "_held_codes", lambda *a: None)
    assert_matches_pandas(lambda pd: keyed(pd, late=False, nulls=True).groupby("g", sort=False, dropna=dropna).w.sum())
    assert taken["prefix"] >= 1


def test_sort_false_prefix_categorical_and_int_keys(taken):
    assert_matches_pandas(lambda pd: keyed(pd).astype({"g": "category"}).groupby(
        ["g", "i"], sort=False, observed=True).w.sum())
    assert_matches_pandas(lambda pd: keyed(pd).groupby(["w", "i"], sort=False).size())
    assert taken["prefix"] >= 2


def test_sort_false_many_groups_and_float_keys(taken):
    # many groups: first positions instead; float keys never take the prefix path
    assert_matches_pandas(lambda pd: keyed(pd).groupby("v", sort=False).w.sum())
    assert_matches_pandas(lambda pd: keyed(pd).assign(f=lambda d: d.w * 0.5).groupby("f", sort=False).v.sum())


def test_reduction_nan_becomes_missing():
    # inf - inf in a float aggregation: pandas' NaN, through the engine's null
    assert_matches_pandas(lambda pd: pd.DataFrame({"g": [1, 1, 2], "v": [np.inf, -np.inf, 1.0]}).groupby("g").v.sum())
    assert_matches_pandas(lambda pd: pd.DataFrame({"v": [1, 2, 3]}).agg(["sum", "mean"]))


# ------------------------------------------------------------------------------ sort + head
def scores(pd, n=200, nan_values=False, nan_keys=False):
    rng = np.random.default_rng(7)
    g = rng.integers(0, 6, n).astype("float64" if nan_keys else "int64")
    v = rng.integers(0, 12, n).astype("float64")
    if nan_values:
        v[::7] = NaN
    if nan_keys:
        g[::4] = NaN
    return pd.DataFrame({"g": g, "v": v, "s": [f"k{i % 9}" for i in range(n)], "i": np.arange(n)})


@pytest.mark.parametrize("ascending", [False, True])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_sort_then_group_head_with_ties(taken, ascending, n):
    assert_matches_pandas(lambda pd: scores(pd).sort_values("v", ascending=ascending, kind="stable").groupby(
        "g", sort=False).head(n))
    assert taken["candidates"] >= 1


def test_sort_then_group_head_db_benchmark_q8(taken):
    assert_matches_pandas(lambda pd: scores(pd)[["g", "v"]].sort_values("v", ascending=False, kind="stable").groupby(
        "g", as_index=False, sort=False, observed=True, dropna=False).head(2).reset_index(drop=True))
    assert taken["candidates"] >= 1


@pytest.mark.parametrize("na_position", ["last", "first"])
def test_sort_then_group_head_missing_values(taken, na_position):
    assert_matches_pandas(lambda pd: scores(pd, nan_values=True).sort_values(
        "v", na_position=na_position, kind="stable").groupby("g").head(2))


def test_sort_then_group_head_null_group_keys(taken):
    assert_matches_pandas(lambda pd: scores(pd, nan_keys=True).sort_values("i", ascending=False).groupby(
        "g", dropna=False).head(3))
    assert_matches_pandas(lambda pd: scores(pd, nan_keys=True).sort_values("i", ascending=False).groupby("g").head(3))
    assert taken["candidates"] >= 1


def test_sort_then_group_head_other_sorts(taken):
    # string sort key and two sort keys: the full sort
    assert_matches_pandas(lambda pd: scores(pd).sort_values("s", kind="stable").groupby("g").head(2))
    assert_matches_pandas(lambda pd: scores(pd).sort_values(["v", "s"], ascending=[False, True]).groupby("g").head(2))


# ------------------------------------------------------------------------------ packed int keys
def ints(pd, n=120):
    rng = np.random.default_rng(3)
    return pd.DataFrame({"a": rng.integers(-5, 3, n), "b": rng.integers(0, 4, n).astype("uint8"),
                         "c": rng.integers(-(2**40), 2**40, n) // 2**38, "v": rng.random(n), "w": rng.integers(0, 9, n)})


@pytest.mark.parametrize("sort", [True, False])
def test_packed_int_keys(taken, sort):
    assert_matches_pandas(lambda pd: ints(pd).groupby(["a", "b"], sort=sort).agg({"v": ["sum", "median"], "w": "max"}))
    assert_matches_pandas(lambda pd: ints(pd).groupby(["b", "c", "a"], sort=sort, as_index=False).w.sum())
    assert_matches_pandas(lambda pd: ints(pd).groupby(["a", "b"], sort=sort).size())


def test_packed_int_keys_with_missing_values():
    # ints with missing values inside the engine (pandas' own would be floats): digit 0 is missing
    import polars as pl

    from gframe.engines.cpu import kernels as K

    df = pl.DataFrame({"a": [3, None, -2, 3, None, 7, -2], "b": pl.Series([1, 1, None, 1, 1, 0, None], dtype=pl.UInt8),
                       "v": [1, 2, 3, 4, 5, 6, 7]})
    g = K.Grouping(df, ["a", "b"], ["ka", "kb"], "auto")
    assert g.unpacked is not None
    got = g.first_appearance([pl.col("v").sum()])
    want = df.group_by(pl.col("a").alias("ka"), pl.col("b").alias("kb"), maintain_order=True).agg(pl.col("v").sum())
    assert got.equals(want), (got, want)
    assert g.unpack(g.aggregate([pl.col("v").sum()])).sort("ka", "kb").equals(want.sort("ka", "kb"))


# ------------------------------------------------------------------------------ dense int key
@pytest.mark.parametrize("sort", [True, False])
def test_dense_key_sums_means_counts(taken, monkeypatch, sort):
    from gframe.engines.cpu import kernels as K

    monkeypatch.setattr(K, "_SAMPLES", ())  # no prefix order: these few groups go to the dense path
    assert_matches_pandas(lambda pd: ints(pd).groupby("a", sort=sort).agg(
        {"v": ["sum", "mean", "count"], "w": ["sum", "mean", "size"]}))
    assert_matches_pandas(lambda pd: ints(pd).groupby(
        "b", sort=sort, as_index=False).agg({"w": "sum", "v": "mean"}))
    assert_matches_pandas(lambda pd: ints(pd).groupby("a", sort=sort).size())
    assert_matches_pandas(lambda pd: ints(pd).groupby("c", sort=sort).w.sum())  # negative keys
    # float sums and means take the ordered pass (kernels._ordered_aggregate: the same bits every run)
    assert taken["dense"] >= 2 and taken["dense"] + taken["ordered"] >= 4


@pytest.mark.parametrize("sort", [True, False])
def test_dense_key_falls_back(taken, monkeypatch, sort):
    from gframe.engines.cpu import kernels as K

    monkeypatch.setattr(K, "_SAMPLES", ())
    # values with missing entries, a missing key, min/max, huge int values, a sparse key
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [3, 1, 3, 2], "v": [1.0, NaN, 2.0, 3.0]}).groupby(
        "k", sort=sort).v.agg(["sum", "mean", "count"]))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [3.0, NaN, 3.0, 2.0], "v": [1, 2, 3, 4]}).groupby(
        "k", sort=sort, dropna=False).v.sum())
    assert_matches_pandas(lambda pd: ints(pd).groupby("a", sort=sort).w.agg(["min", "max"]))
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [1, 2, 1], "v": [2**61, 2**61, -5]}).groupby(
        "k", sort=sort).v.sum())
    assert_matches_pandas(lambda pd: pd.DataFrame({"k": [10**12, 1, 10**12], "v": [1, 2, 3]}).groupby(
        "k", sort=sort).v.sum())
    assert taken["dense"] == 0


# ------------------------------------------------------------------------------ ordered pass kernels
@pytest.mark.parametrize("bits", [1, 3, 8])
def test_partitioned_factorize_numbers_like_one_table(bits):
    """Partitioned by hash, the groups still get the numbers of the one-table kernel (first
    appearance), for few and for many distinct values, and for values that differ in high bits only."""
    pytest.importorskip("numba")
    from gframe.engines.cpu import ordered

    rng = np.random.default_rng(bits)
    for k in (rng.integers(0, 5, 3000), rng.integers(-2**62, 2**62, 3000), rng.integers(0, 2000, 3000),
              np.arange(3000) << 40, np.zeros(1, dtype=np.int64), np.array([-1, 0, -1, 7, 0])):
        k = k.astype(np.int64).view(np.uint64)
        want, groups = ordered.factorize(k)
        got, got_groups = ordered.factorize_partitioned(k, bits)
        assert got_groups == groups
        np.testing.assert_array_equal(got, want)
        small, small_groups = ordered.factorize_small(k, groups)
        assert small_groups == groups
        np.testing.assert_array_equal(small, want)
        if groups > 1:
            assert ordered.factorize_small(k, groups - 1)[1] == -1


def test_sum_and_var_passes_give_the_full_pass_bits():
    """The passes that compute only sums or only variances give ``group_pass``' bits: the same
    arithmetic in the same row order (NaN skipped, infinities without compensation)."""
    pytest.importorskip("numba")
    from gframe.engines.cpu import ordered

    rng = np.random.default_rng(5)
    code = rng.integers(0, 50, 20000)
    x = rng.normal(0, 1e6, 20000) * rng.choice([1e-9, 1.0, 1e9], 20000)
    x[rng.integers(0, 20000, 300)] = NaN
    x[[3, 99]] = [np.inf, -np.inf]
    nobs, total, m2, _ = ordered.group_pass(code, 50, x)
    s_nobs, s_total = ordered.sum_pass(code, 50, x)
    v_nobs, v_m2 = ordered.var_pass(code, 50, x)
    np.testing.assert_array_equal(s_nobs, nobs)
    np.testing.assert_array_equal(v_nobs, nobs)
    assert s_total.tobytes() == total.tobytes()
    assert v_m2.tobytes() == m2.tobytes()


@pytest.mark.parametrize("sort", [True, False])
def test_many_groups_take_the_partitioned_numbering(taken, monkeypatch, sort):
    """Past ``_FACTORIZE_SMALL`` groups the hashed keys are numbered partition by partition: pandas'
    answers (order, values to the bit) for string, float and several keys, missing ones included."""
    from gframe.engines.cpu import kernels as K

    monkeypatch.setattr(K, "_FACTORIZE_SMALL", 3)
    n = 400

    def frame(pd):
        rng = np.random.default_rng(7)
        return pd.DataFrame({"s": [f"k{i}" for i in rng.integers(0, 60, n)],
                             "f": rng.integers(0, 40, n) / 4,
                             "t": pd.array([None if i % 17 == 0 else f"t{i % 5}" for i in range(n)], dtype="str"),
                             "i": rng.integers(0, 9, n), "v": rng.normal(0, 1e3, n), "w": rng.integers(0, 9, n)})

    for by in ("s", "f", ["t", "i"], ["s", "f", "i"]):
        assert_matches_pandas(lambda pd: frame(pd).groupby(by, sort=sort, dropna=False).agg(
            {"v": ["sum", "mean", "std", "median"], "w": ["sum", "var", "count", "median"]}), check_exact=True)
    assert taken["ordered"] >= 4


@pytest.mark.parametrize("sort", [True, False])
def test_group_median_in_the_ordered_pass(taken, sort):
    """Medians by the ordered pass: odd and even counts, missing values skipped, a group of missing
    values only (NaN), ints (float64 results), infinities; with other aggregations beside them."""
    def frame(pd):
        rng = np.random.default_rng(3)
        v = rng.normal(0, 10, 300)
        v[rng.integers(0, 300, 40)] = NaN
        v[[5, 17]] = [np.inf, -np.inf]
        k = rng.integers(0, 12, 300)
        v[k == 11] = NaN
        return pd.DataFrame({"k": k, "s": [f"s{i % 7}" for i in range(300)], "v": v,
                             "i": rng.integers(-50, 50, 300)})

    assert_matches_pandas(lambda pd: frame(pd).groupby("k", sort=sort).agg(
        {"v": ["median", "std"], "i": ["median", "sum"]}), check_exact=True)
    assert_matches_pandas(lambda pd: frame(pd).groupby(["s", "k"], sort=sort).v.median(), check_exact=True)
    assert_matches_pandas(lambda pd: frame(pd).groupby("s", sort=sort, as_index=False).agg(
        {"v": ["median", "mean"]}), check_exact=True)
    assert taken["ordered"] >= 3
