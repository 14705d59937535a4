"""The fixed-seed slice of the differential fuzzer (gframe/testing/fuzz.py), and tests of the fuzzer itself.

Each seed draws two frames and a pipeline of 1-6 native operations, runs it on pandas and on gframe's
CPU engine with the optimizer on and off, and compares values, dtypes, index, names, order (floats to
1e-9 relative) and exception types. Long campaigns: ``python -m gframe.testing.fuzz`` (docs/fuzzing.md).

Known failures are listed in ``KNOWN_FAILING`` below - one place, each seed with the root-cause class
its shrunk repro was triaged to (issue 9's numbering). They run as ``xfail(strict=True)``: fixing a root
cause makes its seeds pass, which fails the run until the seed is removed from the list. A seed can fail
for more than one reason; the class named is the one its shrunk repro shows first.
"""
from __future__ import annotations

import argparse

import numpy as np
import pandas
import pytest

from gframe.testing import fuzz

SLICE = range(250)

# seed -> root-cause class (see docs/fuzzing.md and tests/test_fuzz_regressions.py for the shrunk repros)
KNOWN_FAILING: dict[int, str] = {}
# slice seeds that hit a known pandas bug (``fuzz.PANDAS_BUGS``): reported as pandas', not compared
PANDAS_BUG_SEEDS: dict[int, str] = {
    240: "NY",  # multi-key sort of double[pyarrow] with 0.0 and -0.0 raises in pandas
}


def _params():
    for seed in SLICE:
        reason = KNOWN_FAILING.get(seed)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        yield pytest.param(seed, marks=marks, id=f"seed{seed}")


@pytest.mark.parametrize("seed", list(_params()))
def test_fuzz_slice(seed: int) -> None:
    case = fuzz.generate(seed)
    res = fuzz.run_case(case, engine="cpu")
    if seed in PANDAS_BUG_SEEDS:
        assert res.status == "pandas-bug" and f"[{PANDAS_BUG_SEEDS[seed]}:" in res.pandas_error, res
    assert not res.failures, (
        f"seed {seed}: {res.failures[0].mode} {res.failures[0].category}: {res.failures[0].detail}\n"
        f"repro (python -m gframe.testing.fuzz --case {seed} --shrink 1):\n{case.code()}")


# --- the fuzzer itself ------------------------------------------------------------------------------


def test_self_check_finds_nothing_with_pandas_on_both_sides() -> None:
    """With pandas as the target, every difference would be a fuzzer bug (a false positive)."""
    for seed in range(60):
        res = fuzz.run_case(fuzz.generate(seed), target=pandas)
        assert not res.failures, (seed, res.failures)


def test_pandas_runs_on_the_frames_as_the_case_builds_them() -> None:
    """The pandas side must not consolidate the inputs' blocks (a deep copy does): some pandas
    results depend on them (seed 1048280: a group sum of int8 columns narrows block by block)."""
    frame = pandas.DataFrame({'c0': [1, 2], 'c1': [100, 67], 'k': ['a', 'a']}).astype({'c0': 'int8', 'c1': 'int8'})
    got = fuzz._run_pandas_steps({"df": frame}, "df = df.groupby('k').sum()")
    assert got.dtypes.tolist() == [np.dtype('int8'), np.dtype('int64')]
    assert frame._mgr.nblocks == 3  # (the input itself untouched)


def test_unused_level_values_are_not_compared_used_ones_are() -> None:
    """pandas keeps level values no row uses; only their inferred type leaked into the comparison
    (seed 1034471). The values in use are still compared, their inferred type too."""
    import datetime

    mi = pandas.MultiIndex(levels=[[1.0], [datetime.date(2020, 1, 1), "2020-01-01"]], codes=[[0], [1]])
    expected = pandas.DataFrame({"a": [1.0]}, index=mi)
    got = pandas.DataFrame({"a": [1.0]}, index=pandas.MultiIndex.from_arrays([[1.0], pandas.Index(["2020-01-01"], dtype=object)]))
    assert fuzz._assert_equal(expected, got) is None
    assert fuzz._assert_equal(expected["a"], got["a"]) is None
    other = pandas.DataFrame({"a": [1.0]}, index=pandas.MultiIndex.from_arrays([[1.0], [datetime.date(2020, 1, 1)]]))
    assert fuzz._assert_equal(expected, other) is not None


def test_arrow_dates_past_pythons_range_are_compared() -> None:
    """A date32 Python's ``date`` cannot hold made pandas' assert raise OverflowError (seed 997923, a
    skipped case); such columns are compared as Arrow's integers."""
    import pyarrow as pa

    def frame(days: list[int]) -> pandas.DataFrame:
        arr = pa.array(days, pa.int32()).cast(pa.date32())
        return pandas.DataFrame({"d": pandas.arrays.ArrowExtensionArray(arr), "x": [1.0, 2.0]})

    assert fuzz._assert_equal(frame([2147483646, 1]), frame([2147483646, 1])) is None
    assert fuzz._assert_equal(frame([2147483646, 1])["d"], frame([2147483646, 1])["d"]) is None
    assert fuzz._assert_equal(frame([2147483646, 1]), frame([2147483645, 1])) is not None
    # (seed 1066205: in the index, a timestamp past Python's datetime)
    far = pa.array([2**62, 0], pa.int64()).cast(pa.timestamp("us"))
    idx = pandas.Index(pandas.arrays.ArrowExtensionArray(far))
    x = pandas.DataFrame({"x": [1.0, 2.0]}, index=idx)
    assert fuzz._assert_equal(x, x.copy()) is None
    assert fuzz._assert_equal(x, x.set_axis(idx[::-1])) is not None


def test_integers_are_compared_exactly() -> None:
    """pandas' asserts with an rtol compare ints within it (10**12 + 1 passed for 10**12): an int
    rounded through float64 would have gone unseen."""
    for dtype in ("int64", "Int64", "uint64"):
        a = pandas.DataFrame({"a": pandas.array([10**12, 1], dtype=dtype)})
        b = pandas.DataFrame({"a": pandas.array([10**12 + 1, 1], dtype=dtype)})
        assert fuzz._assert_equal(a, b) is not None
        assert fuzz._assert_equal(a["a"], b["a"]) is not None
        assert fuzz._assert_equal(a, a.copy()) is None
    assert fuzz._assert_equal(pandas.Index([10**12]), pandas.Index([10**12 + 1])) is not None
    assert fuzz._assert_equal(pandas.Series([1.0], index=[10**12]), pandas.Series([1.0], index=[10**12 + 1])) is not None


def test_generation_is_deterministic_and_code_is_runnable_pandas() -> None:
    for seed in (0, 1, 7, 123):
        a, b = fuzz.generate(seed), fuzz.generate(seed)
        assert a.code() == b.code() and a.ops() == b.ops()
        ns: dict = {}
        try:
            exec(a.code(), ns)  # noqa: S102 - the printed snippet is standalone pandas
        except Exception as exc:  # noqa: BLE001 - a case may end on a step where pandas raises
            assert fuzz.run_case(a, target=pandas).pandas_error is not None, exc
        else:
            direct = fuzz._run_pandas_steps(fuzz._build_frames(a), a.pipeline_code())
            assert fuzz._assert_equal(direct, ns["result"]) is None


def test_draws_every_arrow_kind_and_exclude_arrow_draws_none() -> None:
    """Issue 9: every dtype gframe claims is drawn, the ArrowDtype ones included (as input columns, and as
    pandas builds them); ``exclude=["arrow"]`` (the CLI's ``--exclude arrow``) draws none of them."""
    drawn: set[str] = set()
    for seed in range(150):
        case = fuzz.generate(seed)
        drawn |= {c.dtype for f in case.frames for c in f.columns}
        if any(c.dtype in fuzz.ARROW_TYPES for f in case.frames for c in f.columns):
            built = fuzz._build_frames(case)["df"]
            arrow_cols = [c.name for c in case.frames[0].columns if c.dtype in fuzz.ARROW_TYPES]
            assert all(isinstance(built[c].dtype, pandas.ArrowDtype) for c in arrow_cols), case.code()
    assert set(fuzz.ARROW_KINDS) <= drawn, set(fuzz.ARROW_KINDS) - drawn
    for seed in range(60):
        case = fuzz.generate(seed, exclude=["arrow"])
        assert not [c.dtype for f in case.frames for c in f.columns if c.dtype in fuzz.ARROW_TYPES]
        assert "ArrowDtype" not in case.code()


def test_comparison_is_strict() -> None:
    """The comparer reports dtype, value (1e-9 relative), order and scalar-type differences."""
    df = pandas.DataFrame({"a": [1.0, 2.0]})
    assert fuzz._assert_equal(df, df.copy()) is None
    assert fuzz._assert_equal(df, df * (1 + 1e-12)) is None
    assert fuzz._assert_equal(df, df * (1 + 1e-7))[0] == "values"
    assert fuzz._assert_equal(df, df.astype("float32"))[0] == "dtype"
    assert fuzz._assert_equal(df, df.iloc[::-1])[0] in ("index", "values")
    assert fuzz._assert_equal(df["a"].sum(), 3.0) is None  # np.float64 is a float
    assert fuzz._assert_equal(pandas.Series([1, 2]).sum(), 3) is None
    assert fuzz._assert_equal(pandas.Series([1, 2], dtype="int32").sum(), pandas.Series([1, 2], dtype="int64").sum()) is None
    assert fuzz._assert_equal(float("nan"), None) is not None


def test_exception_contract_is_pandas_type_or_builtin_base_of_a_pyarrow_one() -> None:
    """pandas' own exception types are compared exactly; a pyarrow or numpy exception pandas lets
    through (``ArrowInvalid``, ``UFuncTypeError``) is compared by the builtin it subclasses, the type
    gframe maps engine errors to."""
    import pyarrow as pa

    assert fuzz._expected_exception(pa.ArrowInvalid("x")) is ValueError
    assert fuzz._expected_exception(pa.ArrowTypeError("x")) is TypeError
    with pytest.raises(TypeError) as info:  # numpy's own, which pandas lets through (Float64 > "a")
        _ = pandas.Series([7.5], dtype="Float64") > "a"
    assert type(info.value) is not TypeError and fuzz._expected_exception(info.value) is TypeError
    assert fuzz._expected_exception(pandas.errors.IntCastingNaNError("x")) is pandas.errors.IntCastingNaNError
    assert fuzz._expected_exception(KeyError("x")) is KeyError


def test_known_pandas_bug_is_labelled_not_compared() -> None:
    """Class NY (a pandas bug): a multi-key sort over a double[pyarrow] key holding 0.0 and -0.0
    raises in pandas' ``lexsort_indexer``; the fuzzer reports it as pandas', with the label. The same
    message raised elsewhere by pandas' rules (``astype('category')`` of Arrow floats holding both
    zeros) is no pandas bug: still compared."""
    import pyarrow as pa

    df = pandas.DataFrame({"k": [0, 3], "c2": pandas.array([0.0, -0.0], dtype=pandas.ArrowDtype(pa.float64()))})
    with pytest.raises(ValueError, match="categories must be unique") as sort_err:
        df.sort_values(["k", "c2"])
    assert fuzz.known_pandas_bug(sort_err.value).startswith("NY: pandas bug")
    with pytest.raises(ValueError, match="categories must be unique") as cat_err:
        df["c2"].astype("category")
    assert fuzz.known_pandas_bug(cat_err.value) is None
    assert fuzz.known_pandas_bug(None) is None
    res = fuzz.run_case(fuzz.generate(240))
    assert res.status == "pandas-bug" and not res.failures and res.pandas_error.startswith("[NY: pandas bug")


def test_shrinker_reduces_a_failure_and_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shrink a failing slice seed: the result is smaller and fails the same way.

    (Seed 240 hits a known pandas bug: with the bug list emptied it is a raise-missing failure again.)"""
    monkeypatch.setattr(fuzz, "PANDAS_BUGS", ())
    seed = min(KNOWN_FAILING) if KNOWN_FAILING else min(PANDAS_BUG_SEEDS)
    case = fuzz.generate(seed)
    res = fuzz.run_case(case)
    assert res.failures
    small, sres = fuzz.shrink(case, res, budget=200)
    assert sres.failures and sres.failures[0].category == res.failures[0].category
    assert fuzz._size(small) < fuzz._size(case)
    with pytest.raises(AssertionError):
        fuzz.check_code(small.code())


def test_worker_crash_is_attributed_to_its_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies mid-case (here: os.abort via a test hook) is charged to that one case only."""
    monkeypatch.setenv("GFRAME_FUZZ_TEST_CRASH", "3")
    args = argparse.Namespace(engine="cpu", optimizer="on", fake_gpu=False, exclude="", jobs=1, timeout=60.0)
    results = fuzz.run_many([2, 3, 4], args, lambda msg: None)
    by_seed = {r["seed"]: r for r in results}
    assert sorted(by_seed) == [2, 3, 4]
    assert by_seed[3]["failures"][0]["category"] == "crash"
    assert by_seed[2]["failures"] == [] or by_seed[2]["failures"][0]["category"] != "crash"
    assert by_seed[4]["status"] != "fail" or by_seed[4]["failures"][0]["category"] != "crash"
