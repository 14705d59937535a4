"""Categoricals on the GPU engine: their int32 codes on the device, the categories on the host
(``gframe/engines/gpu/categorical.py``).

- **Against pandas**: every operation the device runs on a categorical - row moves (filter, take,
  slice, head/tail, sort, drop_duplicates, join payloads, concat of equal categories), comparisons
  with scalars, ``isin``, ``isna``, group keys, ``sort_values``/``value_counts``, ``astype`` to the
  categories' type - on string and int categories, ordered or not, with unused categories, missing
  values, one row and no rows. They run on whatever engine the suite runs on (CPU, the GPU
  stand-in, a GPU); on the GPU engine each also asserts that nothing ran on the CPU engine or in
  pandas (``assert_native_on_gpu``).
- **Placement** (no GPU library needed): what stays on the CPU engine says why.
"""
from __future__ import annotations

import pandas
import pytest

import gframe
from gframe.engines.gpu import placement as lowering
from gframe.testing import assert_matches_pandas, assert_native_on_gpu as native_on_gpu, assert_raises_like_pandas

STR_CATS = ["lo", "mid", "hi", "unused"]
INT_CATS = [30, 10, 20, 99]  # not sorted: category order is not value order


def _frame(pd, n: int, cats: list, ordered: bool):
    vals = [cats[(i * 7) % 3] if i % 5 != 2 else None for i in range(n)]
    return pd.DataFrame({
        "c": pandas.Categorical(vals, categories=cats, ordered=ordered),
        "x": [float(i) * 1.5 for i in range(n)],
        "k": [i % 4 for i in range(n)],
        "s": [["a", "b", "c"][i % 3] for i in range(n)],
    }, index=pandas.Index([100 + i for i in range(n)], name="r"))


SIZES = {"rows": 23, "one": 1, "empty": 0}
CATS = {"str": STR_CATS, "int": INT_CATS}


@pytest.fixture(params=[(s, c, o) for s in SIZES for c in CATS for o in (False, True)],
                ids=lambda p: f"{p[0]}-{p[1]}-{'ordered' if p[2] else 'unordered'}")
def spec(request):
    return request.param


def frame(pd, spec):
    size, cats, ordered = spec
    return _frame(pd, SIZES[size], CATS[cats], ordered)


def first(spec):
    return CATS[spec[1]][1]  # a used category


def unused(spec):
    return CATS[spec[1]][3]


def _concat(d):
    return pandas.concat if isinstance(d, pandas.DataFrame) else gframe.concat


QUERIES = {
    "identity": lambda d, s: d,
    "filter_by_other": lambda d, s: d[d.x > 4],
    "column": lambda d, s: d.c,
    "select": lambda d, s: d[["c", "k"]],
    "head": lambda d, s: d.head(3),
    "tail": lambda d, s: d.tail(2),
    "slice": lambda d, s: d.iloc[1:5],
    "take": lambda d, s: d.iloc[[2, 0]] if len(d) > 2 else d.iloc[[0] * len(d)],
    "sort_values": lambda d, s: d.sort_values(["c", "x"]),  # (x breaks ties: pandas quicksorts)
    "sort_values_desc_first": lambda d, s: d.sort_values(["c", "x"], ascending=[False, True], na_position="first"),
    "series_sort": lambda d, s: d.c.sort_values(kind="stable"),
    "drop_duplicates": lambda d, s: d.drop_duplicates("c"),
    "eq": lambda d, s: d.c == first(s),
    "ne": lambda d, s: d.c != first(s),
    "eq_unused": lambda d, s: d.c == unused(s),
    "eq_not_a_category": lambda d, s: d.c == ("nope" if s[1] == "str" else 12345),
    "filter_eq": lambda d, s: d[d.c == first(s)],
    "filter_ne_and": lambda d, s: d[(d.c != first(s)) & (d.x > 1)],
    "isin": lambda d, s: d.c.isin([first(s), unused(s)]),
    "isin_missing": lambda d, s: d.c.isin([first(s), None]),
    "isin_none_found": lambda d, s: d[d.c.isin(["zz"] if s[1] == "str" else [-7])],
    "isna": lambda d, s: d.c.isna(),
    "notna_filter": lambda d, s: d[d.c.notna()],
    "group_key": lambda d, s: d.groupby("c").x.sum(),
    "group_key_agg": lambda d, s: d.groupby("c").agg(m=("x", "max"), n=("k", "count")),
    "group_key_unsorted": lambda d, s: d.groupby("c", sort=False).x.sum(),
    "group_keys_two": lambda d, s: d.groupby(["s", "c"]).x.sum(),
    "group_key_dropna_false": lambda d, s: d.groupby("c", dropna=False).k.sum(),
    "group_key_as_column": lambda d, s: d.groupby("c", as_index=False).x.sum(),
    "group_size": lambda d, s: d.groupby("c").size(),
    "group_nunique_of_categorical": lambda d, s: d.groupby("k").c.nunique(),
    "group_observed_false_key": lambda d, s: d.groupby(["c"], observed=False).x.sum(),
    "value_counts": lambda d, s: d.c.value_counts(),
    "merge_payload": lambda d, s: d[["k", "c"]].merge(d[["k", "x"]].drop_duplicates("k"), on="k", how="left"),
    "concat_same": lambda d, s: _concat(d)([d.iloc[:3], d.iloc[3:6]]),
    "concat_ignore_index": lambda d, s: _concat(d)([d.iloc[2:], d.iloc[:2]], ignore_index=True),
    "set_index": lambda d, s: d.set_index("c"),
    "reset_index": lambda d, s: d.set_index("c").reset_index(),
}

# observed=False: the unobserved categories' groups are added on the host (CompleteGroups); the
# group-by under it runs on the device. value_counts and groupby().nunique() of a categorical: the
# frontend asks pandas (categories with no rows are listed: pandas' rule, not the engines')
NOT_NATIVE = {"group_observed_false_key", "value_counts", "group_nunique_of_categorical"}


@pytest.mark.parametrize("name", list(QUERIES))
def test_categorical_matches_pandas(name, spec):
    q = QUERIES[name]
    check = assert_matches_pandas if name in NOT_NATIVE else native_on_gpu
    check(lambda pd: q(frame(pd, spec), spec))


ORDERINGS = {
    "lt": lambda c, v: c < v,
    "le": lambda c, v: c <= v,
    "gt": lambda c, v: c > v,
    "ge": lambda c, v: c >= v,
    "reflected": lambda c, v: v > c,
}


@pytest.mark.parametrize("op", list(ORDERINGS))
def test_ordered_comparisons_by_category_order(op, spec):
    if not spec[2]:
        pytest.skip("orderings of an unordered categorical raise (test_unordered_ordering_raises)")
    f = ORDERINGS[op]
    native_on_gpu(lambda pd: f(frame(pd, spec).c, first(spec)))
    native_on_gpu(lambda pd: (lambda d: d[f(d.c, unused(spec))])(frame(pd, spec)))


def test_unordered_ordering_raises():
    assert_raises_like_pandas(lambda pd: _frame(pd, 5, STR_CATS, False).c < "mid")


def test_dtype_round_trip_keeps_unused_categories_and_order():
    got = native_on_gpu(lambda pd: _frame(pd, 9, STR_CATS, True)[lambda d: d.x > 100])
    assert list(got.c.cat.categories) == STR_CATS and got.c.cat.ordered and len(got) == 0


# ------------------------------------------------------------------------------------ placement

def _reason(fn):
    df = fn(gframe)
    from gframe.optimizer import optimize

    lowered = lowering.lower(optimize(df._plan))
    return list(lowered.cpu.values())


@pytest.mark.parametrize("fn,phrase", [
    (lambda pd: (lambda d: d.merge(d[["c", "k"]], on="c"))(_frame(pd, 9, STR_CATS, False)), "categorical key"),
    (lambda pd: (lambda d: d.assign(z=d.c.fillna("lo")))(_frame(pd, 9, STR_CATS, False)), "made by fillna"),
    (lambda pd: (lambda d: d[d.c == d.c])(_frame(pd, 9, STR_CATS, False)), "two categoricals"),
], ids=["merge_key", "fillna", "column_vs_column"])
def test_what_stays_on_the_cpu_says_why(fn, phrase):
    reasons = _reason(fn)
    assert any(phrase in r for r in reasons), reasons
    assert_matches_pandas(fn)


def test_ordering_with_a_value_that_is_not_a_category_raises():
    assert_raises_like_pandas(lambda pd: _frame(pd, 5, STR_CATS, True).c < "nope")


def test_every_value_missing():
    native_on_gpu(lambda pd: (lambda d: d[d.c != "a"])(
        pd.DataFrame({"c": pandas.Categorical([None, None], categories=["a", "b"]), "x": [1.0, 2.0]})))


@pytest.mark.parametrize("cats", [[2.5, 0.5, 1.5], [pandas.Timestamp("2024-01-02"), pandas.Timestamp("2023-05-01")]],
                         ids=["float", "timestamp"])
def test_other_category_types(cats):
    def q(pd):
        d = pd.DataFrame({"c": pandas.Categorical([cats[1], None, cats[0], cats[1]], categories=cats, ordered=True),
                          "x": [1.0, 2.0, 3.0, 4.0]})
        return d[d.x > 1].sort_values(["c", "x"])

    native_on_gpu(q)


def test_join_payload_keeps_categories_of_its_side():
    def q(pd):
        left = _frame(pd, 12, STR_CATS, True)[["k", "c"]]
        right = pd.DataFrame({"k": [0, 1, 2], "c": pandas.Categorical(["b", "a", None], categories=["a", "b", "z"])})
        return left.merge(right, on="k", how="left", suffixes=("_l", "_r"))

    native_on_gpu(q)
