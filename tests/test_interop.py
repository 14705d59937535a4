"""Arrow interop against the real libraries: pyarrow, Polars, DuckDB, pandas' from_arrow/interchange.

The spec for everything that leaves gframe is what the same library makes of ``gdf.to_pandas()``
(pandas' own ``__arrow_c_stream__`` is ``pyarrow.Table.from_pandas``); for what comes in, it is
``pandas.DataFrame.from_arrow`` of the same object.
"""
from __future__ import annotations

import datetime as dt
import sys
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import gframe
from gframe.frontend.arrow import from_arrow

pl = pytest.importorskip("polars")


def _frames() -> dict[str, pd.DataFrame]:
    return {
        "mixed": pd.DataFrame({
            "i": [1, 2, 3, 4],
            "f": [1.5, np.nan, 3.0, -0.0],
            "s": ["a", None, "ccc", ""],
            "b": [True, False, True, True],
            "t": pd.to_datetime(["2021-01-01", None, "2021-03-01 12:00:00", "1999-12-31 00:00:00"], format="ISO8601"),
            "c": pd.Categorical(["x", "y", None, "x"]),
            "n": pd.array([1, None, 3, 4], dtype="Int64"),
        }),
        "index": pd.DataFrame({"v": [10.0, 20.0, np.nan]}, index=pd.Index(["p", "q", "r"], name="key")),
        "multiindex": pd.DataFrame({"v": [1, 2, 3]},
                                   index=pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1)], names=["k1", "k2"])),
        "range_offset": pd.DataFrame({"v": [1, 2]}, index=pd.RangeIndex(5, 7)),
        "one_row": pd.DataFrame({"a": [1], "s": ["z"]}),
        "empty": pd.DataFrame({"a": pd.Series([], dtype="int64"), "s": pd.Series([], dtype="str")}),
        "int_nulls": pd.DataFrame({"a": [1, None, 3]}),
        "tz": pd.DataFrame({"t": pd.date_range("2024-01-01", periods=3, freq="h", tz="UTC")}),
    }


FRAMES = _frames()


@pytest.fixture(params=sorted(FRAMES))
def pair(request):
    pdf = FRAMES[request.param]
    return pdf, gframe.DataFrame(pdf)


# ------------------------------------------------------------------------------------ pyarrow

def test_to_arrow_is_pyarrow_from_pandas(pair):
    pdf, gdf = pair
    got = gdf.to_arrow()
    want = pa.Table.from_pandas(pdf)
    assert got.equals(want)
    assert got.schema.equals(want.schema, check_metadata=True)


def test_to_arrow_round_trip_gives_the_same_frame(pair):
    pdf, gdf = pair
    pd.testing.assert_frame_equal(gdf.to_arrow().to_pandas(), pdf)
    pd.testing.assert_frame_equal(gframe.DataFrame(gdf.to_arrow()).to_pandas(), pdf)


def test_pyarrow_table_reads_the_capsule(pair):
    pdf, gdf = pair
    assert pa.table(gdf).equals(pa.table(pdf))
    assert pa.RecordBatchReader.from_stream(gdf).read_all().equals(pa.table(pdf))


def test_arrow_c_schema_matches_the_stream(pair):
    pdf, gdf = pair
    assert pa.schema(gdf).equals(pa.Table.from_pandas(pdf).schema)


def test_requested_schema_casts():
    gdf = gframe.DataFrame({"a": [1, 2]})
    target = pa.schema([("a", pa.float32())])
    reader = pa.RecordBatchReader.from_stream(gdf, schema=target)
    assert reader.read_all().column("a").type == pa.float32()


def test_table_from_pandas_of_gframe_is_fast_and_correct():
    def frame(n: int) -> pd.DataFrame:
        return pd.DataFrame({"a": np.arange(n), "s": np.arange(n).astype(str), "f": np.linspace(0, 1, n)})

    def calls_to_convert(gdf) -> tuple[int, pa.Table]:
        calls = 0

        def profile(frame, event, arg):
            nonlocal calls
            calls += event == "call"

        sys.setprofile(profile)
        try:
            table = pa.Table.from_pandas(gdf)
        finally:
            sys.setprofile(None)
        return calls, table

    calls_to_convert(gframe.DataFrame(frame(10)))  # pyarrow's first call imports its pandas shim
    small, _ = calls_to_convert(gframe.DataFrame(frame(2_000)))
    pdf = frame(200_000)
    large, table = calls_to_convert(gframe.DataFrame(pdf))
    # Column-wise, not element by element through the Index (which took minutes): the Python calls
    # made do not grow with the rows. Calls are counted rather than seconds, the same on any machine.
    assert large < small + 1_000, (small, large)
    pd.testing.assert_frame_equal(table.to_pandas(), pdf, check_index_type=False)
    assert table.select(["a", "s", "f"]).equals(pa.Table.from_pandas(pdf, preserve_index=False))


def test_series_to_arrow_and_pa_array():
    ps = pd.Series(["a", None, "c"], name="s")
    gs = gframe.Series(ps)
    assert gs.to_arrow().equals(pa.Array.from_pandas(ps))
    assert pa.array(gs).equals(pa.array(ps))
    assert pa.chunked_array(gs).equals(pa.chunked_array(ps))
    assert pa.array(gs, type=pa.large_string()).type == pa.large_string()
    cat = gframe.Series(pd.Categorical(["x", "y", "x"]))
    assert pa.array(cat).equals(pa.array(pd.Series(pd.Categorical(["x", "y", "x"]))))


def test_series_arrow_stream_matches_pandas():
    ps = pd.Series([1.0, np.nan, 3.0], index=[7, 8, 9], name="v")
    gs = gframe.Series(ps)
    assert pa.chunked_array(gs).equals(pa.chunked_array(ps))
    assert pd.Series.from_arrow(gs).equals(pd.Series.from_arrow(ps))


def test_from_arrow_plain_tables_match_pandas_from_arrow():
    table = pa.table({
        "i": pa.array([1, None, 3], pa.int32()),
        "f": pa.array([1.0, float("nan"), None]),
        "s": pa.array(["x", None, "z"], pa.string()),
        "v": pa.array(["p", "q", None], pa.string_view()),
        "b": pa.array([True, None, False]),
        "t": pa.array([dt.datetime(2020, 1, 1), None, dt.datetime(2021, 5, 6)], pa.timestamp("us")),
        "d": pa.array([1, 2, None], pa.duration("ms")),
        "c": pa.array(["u", "w", "u"]).dictionary_encode(),
    })
    want = pd.DataFrame.from_arrow(table)
    got = gframe.from_arrow(table) if hasattr(gframe, "from_arrow") else from_arrow(table)
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    pd.testing.assert_frame_equal(gframe.DataFrame(table).to_pandas(), want)
    # NaN from Arrow is missing in gframe (one missing value), as in pandas
    assert got["f"].isna().tolist() == [False, True, True]
    # computing on it works natively
    assert got["i"].sum() == 4


def test_from_arrow_non_native_types_go_through_pandas():
    table = pa.table({"l": pa.array([[1, 2], None, [3]]), "a": [1, 2, 3]})
    want = pd.DataFrame.from_arrow(table)
    got = from_arrow(table).to_pandas()
    assert got["a"].tolist() == want["a"].tolist()
    assert [None if x is None else list(x) for x in got["l"]] == [None if x is None else list(x) for x in want["l"]]


def test_from_arrow_record_batch_and_reader():
    batch = pa.record_batch({"a": [1, 2], "b": ["x", "y"]})
    pd.testing.assert_frame_equal(gframe.DataFrame(batch).to_pandas(), pd.DataFrame.from_arrow(batch))
    reader = pa.RecordBatchReader.from_batches(batch.schema, [batch, batch])
    pd.testing.assert_frame_equal(from_arrow(reader).to_pandas(),
                                  pd.DataFrame({"a": [1, 2, 1, 2], "b": ["x", "y", "x", "y"]}))


# ------------------------------------------------------------------------------------ Polars

def test_polars_dataframe_of_gframe(pair):
    pdf, gdf = pair
    got = pl.DataFrame(gdf)
    want = pl.DataFrame(pa.Table.from_pandas(pdf))
    assert got.equals(want, null_equal=True) if "null_equal" in pl.DataFrame.equals.__code__.co_varnames \
        else got.equals(want)
    assert got.schema == want.schema


def test_gframe_dataframe_of_polars():
    pdf_src = pl.DataFrame({
        "a": [1, None, 3],
        "x": [1.0, float("nan"), None],
        "s": ["p", None, "r"],
        "t": [dt.datetime(2020, 1, 1), None, dt.datetime(2020, 1, 3)],
        "c": pl.Series(["u", "v", "u"], dtype=pl.Categorical),
    })
    want = pd.DataFrame.from_arrow(pdf_src)
    got = gframe.DataFrame(pdf_src)
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    assert got.columns.tolist() == ["a", "x", "s", "t", "c"]
    pd.testing.assert_frame_equal(got[got.a > 1].to_pandas(), want[want.a > 1])


def test_polars_series_of_gframe_series():
    gs = gframe.Series([1, 2, None], name="v")
    out = pl.Series(gs)
    assert out.to_list() == [1.0, 2.0, None]
    assert out.dtype == pl.Float64


def test_from_arrow_does_not_copy_native_numeric_columns():
    values = pa.array(np.arange(1000, dtype="int64"))
    table = pa.table({"a": values})
    gdf = gframe.DataFrame(table)
    scanned = gdf._plan.table.value  # the InMemoryScan's Arrow table
    assert scanned.column(0).chunk(0).buffers()[1].address == values.buffers()[1].address
    assert gdf["a"].sum() == int(np.arange(1000).sum())


# ------------------------------------------------------------------------------------ DuckDB

def test_duckdb_queries_a_gframe_frame():
    duckdb = pytest.importorskip("duckdb")
    pdf = pd.DataFrame({"k": ["a", "b", "a", None], "v": [1.0, 2.0, np.nan, 4.0]})
    gdf = gframe.DataFrame(pdf)  # noqa: F841 - DuckDB finds it by name
    got = duckdb.sql("select k, sum(v) as s, count(*) as n from gdf group by k order by k nulls last").df()
    want = duckdb.sql("select k, sum(v) as s, count(*) as n from pdf group by k order by k nulls last").df()
    pd.testing.assert_frame_equal(got, want)


def test_gframe_from_a_duckdb_result():
    duckdb = pytest.importorskip("duckdb")
    rel = duckdb.sql("select range as i, range * 1.5 as f, 'x' || range as s from range(4)")
    got = gframe.DataFrame(rel.arrow())
    want = pd.DataFrame.from_arrow(rel.arrow())
    pd.testing.assert_frame_equal(got.to_pandas(), want)


# ------------------------------------------------------------------------------------ pandas

def test_pandas_from_arrow_and_from_dataframe_give_to_pandas(pair):
    pdf, gdf = pair
    pd.testing.assert_frame_equal(pd.DataFrame.from_arrow(gdf), pd.DataFrame.from_arrow(pdf))
    pd.testing.assert_frame_equal(pd.api.interchange.from_dataframe(gdf), pdf)


def test_pandas_constructor_refuses_instead_of_scrambling():
    gdf = gframe.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    with pytest.raises(TypeError, match="to_pandas"):
        pd.DataFrame(gdf)
    with pytest.raises(TypeError, match="to_pandas"):
        pd.Series(gdf["a"])
    # numpy conversion elsewhere is unchanged
    assert np.asarray(gdf["a"]).tolist() == [1, 2]
    assert np.asarray(gdf).shape == (2, 2)


def test_interchange_protocol_delegates_to_pyarrow():
    pdf = pd.DataFrame({"a": [1, 2, 3], "s": ["x", None, "z"]})
    gdf = gframe.DataFrame(pdf)
    xchg = gdf.__dataframe__()
    assert list(xchg.column_names()) == ["a", "s"]
    assert xchg.num_rows() == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3 deprecates the protocol itself
        from pandas.core.interchange.from_dataframe import _from_dataframe

        out = _from_dataframe(xchg)
    assert out["a"].tolist() == [1, 2, 3]
    assert out["s"].tolist()[0] == "x" and out["s"].isna().tolist() == [False, True, False]
    assert gframe.Series(pdf["a"]).__dataframe__().num_rows() == 3


def test_interop_runs_no_pandas_fallback():
    gframe.fallback_report(clear=True)
    gdf = gframe.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    gdf.to_arrow()
    pa.table(gdf)
    pl.DataFrame(gdf)
    gframe.DataFrame(pa.table({"a": [1]}))
    assert [e.api for e in gframe.fallback_report() if "attrs" not in e.api and "get_level_values" not in e.api] == []


def test_from_arrow_classmethods_as_in_pandas():
    table = pa.table({"a": [1, 2], "s": ["x", None]})
    pd.testing.assert_frame_equal(gframe.DataFrame.from_arrow(table).to_pandas(), pd.DataFrame.from_arrow(table))
    arr = pa.array([1.5, None])
    pd.testing.assert_series_equal(gframe.Series.from_arrow(arr).to_pandas(), pd.Series.from_arrow(arr))


def test_table_from_pandas_runs_no_fallback_even_in_raise_mode():
    pdf = pd.DataFrame({"a": [1, 2, 3], "s": ["x", None, "z"]}, index=pd.Index([3, 1, 2], name="k"))
    gdf = gframe.DataFrame(pdf)
    with gframe.option_context(fallback="raise"):
        table = pa.Table.from_pandas(gdf)
    pd.testing.assert_frame_equal(table.to_pandas(), pdf)


def test_attrs_of_the_source_frame_and_assignable():
    pdf = pd.DataFrame({"a": [1]})
    pdf.attrs["unit"] = "m"
    gdf = gframe.DataFrame(pdf)
    assert gdf.attrs == {"unit": "m"}
    gdf.attrs = {"unit": "km"}
    assert gdf.attrs == {"unit": "km"} and pdf.attrs == {"unit": "m"}
