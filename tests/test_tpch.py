"""The 22 TPC-H queries (benchmarks/tpch/queries_pandas.py), written once in pandas, give pandas'
answer on gframe: values, dtypes, index, column names and row order, for the arrow-backed and the
numpy-backed reads.

The data is TPC-H at scale factor 0.01, written by ``tpchgen-cli`` into a temporary folder once per
session (skipped, with the reason, where tpchgen-cli is not installed: ``pip install tpchgen-cli``).
"""
from __future__ import annotations

import pandas
import pandas.testing as pdt
import pytest

from benchmarks.tpch import generate
from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS
from tests.conftest import module_under_test

SF = 0.01


@pytest.fixture(scope="session")
def tpch_root(tmp_path_factory):
    if generate.tpchgen_cli() is None:
        pytest.skip("tpchgen-cli is not installed (pip install tpchgen-cli, or set $TPCHGEN)")
    root = tmp_path_factory.mktemp("tpch") / f"sf{SF:g}"
    generate.generate(SF, str(root))
    return str(root)


@pytest.fixture(scope="session")
def pandas_answers(tpch_root):
    """pandas' answer to each (variant, query), computed once."""
    cache: dict[tuple[str, str], pandas.DataFrame] = {}

    def answer(variant: str, query: str) -> pandas.DataFrame:
        if (variant, query) not in cache:
            cache[variant, query] = QUERIES[query](VARIANTS[variant](pandas, tpch_root))
        return cache[variant, query]

    return answer


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("query", list(QUERIES))
def test_query_matches_pandas(query, variant, tpch_root, pandas_answers):
    expected = pandas_answers(variant, query)
    assert len(expected) > 0  # every query has rows at this scale (a vacuous compare proves nothing)
    result = QUERIES[query](VARIANTS[variant](module_under_test(), tpch_root))
    if not isinstance(result, pandas.DataFrame):
        result = result.to_pandas()
    pdt.assert_frame_equal(result, expected, check_exact=False, rtol=1e-9)



@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("query", list(QUERIES))
def test_query_places_every_node_on_the_engine(query, variant, tpch_root):
    """Issue 11: the TPC-H queries run with every node on the engine: no trip through pandas on
    either engine, and on the GPU engine (the device, or the stand-in) no node on the CPU engine."""
    import gframe
    from gframe import engines

    gframe.fallback_report(clear=True)
    QUERIES[query](VARIANTS[variant](gframe, tpch_root)).to_pandas()
    kinds = ("pandas", "cpu") if engines.get_engine().name == "gpu" else ("pandas",)
    off = [f"{e.kind} {e.api}: {e.reason}" for e in gframe.fallback_report(clear=True) if e.kind in kinds]
    assert not off, "\n".join(off)

# ---------------------------------------------------------------- the idioms the queries rely on
# (small frames, no tpchgen-cli needed: each was a pandas fallback or a wrong dtype before)

def test_two_columns_from_one_mask_need_no_alignment():
    """q12: ``high = df[c].isin(...)``, then two columns set from it; the second Series comes from
    the frame before the first assignment, and must not go through an index alignment (which left
    the dtypes to the data and sent the later groupby.agg to pandas)."""
    import gframe
    from gframe.testing import assert_matches_pandas

    def q(pd):
        df = pd.DataFrame({"p": ["a", "b", "c", "a"], "x": [1, 2, 3, 4]}, index=[3, 1, 2, 0])
        df = df[df["x"] > 1]
        high = df["p"].isin(["a", "b"])
        df["h"] = high.astype("int64")
        df["l"] = (~high).astype("int64")
        return df.groupby("p", as_index=False).agg(h=("h", "sum"), l=("l", "sum"))

    def replaced(pd):  # the Series' column was replaced since: aligned on the index, pandas' answer
        df = pd.DataFrame({"p": ["a", "b", "c", "a"], "x": [1, 2, 3, 4]}, index=[3, 1, 2, 0])
        high = df["p"].isin(["a", "b"])
        df["p"] = df["p"] + "!"
        df["y"] = high
        return df

    gframe.fallback_report(clear=True)
    assert_matches_pandas(q)
    assert not gframe.fallback_report(), gframe.fallback_report()
    assert_matches_pandas(replaced)


def test_count_of_a_left_merged_column_is_native():
    """q13: ``count`` of a column a left merge filled with missing values (int64 or float64 by the
    data) is a count either way."""
    import gframe
    from gframe.testing import assert_matches_pandas

    def q(pd):
        a = pd.DataFrame({"k": [1, 2, 3, 4]})
        b = pd.DataFrame({"k": [1, 1, 3], "v": [10, 11, 12]})
        df = a.merge(b, on="k", how="left")
        return df.groupby("k", as_index=False).agg(c=("v", "count"), n=("v", "size"))

    gframe.fallback_report(clear=True)
    assert_matches_pandas(q)
    assert not gframe.fallback_report(), gframe.fallback_report()


def test_read_parquet_dates_as_datetime(tmp_path):
    """The numpy-backed variant: ``to_pandas_kwargs={"date_as_object": False}`` reads date32 as
    datetime64[ms], natively."""
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    import gframe
    from gframe.testing import assert_matches_pandas

    path = str(tmp_path / "d.parquet")
    pq.write_table(pa.table({"d": pa.array([datetime.date(1995, 1, 2), None, datetime.date(1996, 3, 4)]),
                             "x": [1.5, 2.5, 3.5]}), path)
    gframe.fallback_report(clear=True)
    assert_matches_pandas(lambda pd: pd.read_parquet(path, columns=["x", "d"], to_pandas_kwargs={"date_as_object": False}))
    assert_matches_pandas(lambda pd: (lambda df: df[df["d"] >= pd.Timestamp("1996-01-01")])(
        pd.read_parquet(path, to_pandas_kwargs={"date_as_object": False})))
    # no trip through pandas (date32 on the GPU engine's device is another matter: kind "cpu")
    assert not [e for e in gframe.fallback_report() if e.kind == "pandas"], gframe.fallback_report()


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "string", "str"])
@pytest.mark.parametrize("fn", ["startswith", "endswith"])
def test_affix_of_nullable_strings_keeps_na_natively(fn, dtype):
    """q2, q14, q16, q20 (arrow-backed): ``str.startswith`` / ``endswith`` of Arrow or nullable
    strings keep NA (``na=None`` inside); the GPU engine ran them on the CPU before."""
    import gframe
    from gframe.testing import assert_matches_pandas

    gframe.fallback_report(clear=True)
    assert_matches_pandas(lambda pd: getattr(pd.Series(["PROMO x", None, "y PROMO", "BRASS"], dtype=dtype).str, fn)("PROMO"))
    assert_matches_pandas(lambda pd: getattr(pd.Series(["PROMO x", None, "y PROMO", "BRASS"], dtype=dtype).str, fn)(("PROMO", "BRASS")))
    assert not [e for e in gframe.fallback_report() if fn in e.reason], gframe.fallback_report()


_ISIN_CASES = {
    "int": (lambda pd: pd.Series([1, 2, 3, 4, 2]), lambda pd: pd.Series([2, 4, 4, 9])),
    "int32-vs-wide": (lambda pd: pd.Series([1, 2, 3], dtype="int32"), lambda pd: pd.Series([2, 2**40])),
    "float-nan": (lambda pd: pd.Series([1.5, float("nan"), 3.0]), lambda pd: pd.Series([float("nan"), 3.0])),
    "float-vs-int": (lambda pd: pd.Series([1.5, float("nan"), 3.0]), lambda pd: pd.Series([3, 1])),
    "str-none": (lambda pd: pd.Series(["a", None, "c"]), lambda pd: pd.Series(["c", None])),
    "string-pyarrow": (lambda pd: pd.Series(["a", None, "c"], dtype="string[pyarrow]"),
                       lambda pd: pd.Series(["c", "z"], dtype="string[pyarrow]")),
    "int64-pyarrow": (lambda pd: pd.Series([1, 2, 3], dtype="int64[pyarrow]"), lambda pd: pd.Series([3, 5], dtype="int64[pyarrow]")),
    "int-vs-str": (lambda pd: pd.Series([1, 2, 3]), lambda pd: pd.Series(["1", "2"])),
    "bool": (lambda pd: pd.Series([True, False]), lambda pd: pd.Series([True])),
    "datetime": (lambda pd: pd.Series(pd.to_datetime(["2020-01-01", "2021-01-01"])),
                 lambda pd: pd.Series(pd.to_datetime(["2021-01-01"]))),
    "index": (lambda pd: pd.Series([1, 2, 3]), lambda pd: pd.Index([3, 7])),
    "Int64-na": (lambda pd: pd.Series([1, 2, None], dtype="Int64"), lambda pd: pd.Series([3, None], dtype="Int64")),
}

_ISIN_CASES.update({
    "int64-pyarrow-na": (lambda pd: pd.Series([1, 2, None], dtype="int64[pyarrow]"), lambda pd: pd.Series([3, None], dtype="int64[pyarrow]")),
    "Float64-na": (lambda pd: pd.Series([1, None], dtype="Float64"), lambda pd: pd.Series([3, None], dtype="Float64")),
    "double-pyarrow-vs-nan": (lambda pd: pd.Series([1, None], dtype="double[pyarrow]"), lambda pd: pd.Series([3, None], dtype="float64")),
    "str-na-both": (lambda pd: pd.Series(["a", None], dtype="str"), lambda pd: pd.Series(["b", None], dtype="str")),
})


@pytest.mark.parametrize("case", list(_ISIN_CASES))
def test_isin_another_series(case):
    """q4, q16, q20, q22: ``df[c].isin(other[c])``. The other column's distinct values travel as one
    Arrow array in the plan (a tuple of Python scalars before: q4 at sf 1 took 20 s); pandas' answer
    for every pairing of kinds, missing values included."""
    from gframe.testing import assert_matches_pandas

    column, values = _ISIN_CASES[case]
    assert_matches_pandas(lambda pd: column(pd).isin(values(pd)))
    assert_matches_pandas(lambda pd: (lambda s: s[s.isin(values(pd))])(column(pd)))
