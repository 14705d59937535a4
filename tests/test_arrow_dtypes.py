"""pandas' ArrowDtype columns (``int64[pyarrow]``, ``date32[pyarrow]``, ``timestamp[us, tz][pyarrow]``,
``string[pyarrow]``, ``decimal128``, ``duration``, ``bool[pyarrow]``, ``double[pyarrow]``) through
gframe's plans, and the readers' ``dtype_backend``.

The schema's dtype family (``plan/schema.py``) keeps a column ArrowDtype after any operation; an
Arrow operand makes the result Arrow (pandas' rule); missing values are NA and comparisons with NA
are NA. Runs natively (``fallback="raise"``) against pandas: values, dtypes, index.
"""
from __future__ import annotations

import datetime as dt
import decimal

import pandas
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import gframe
from gframe.testing import assert_matches_pandas


def _arrow_frame(n=None):
    A = pandas.ArrowDtype
    df = pandas.DataFrame({
        "k": pandas.array([1, 2, 1, 3], dtype=A(pa.int64())),
        "i": pandas.array([1, None, 3, 4], dtype=A(pa.int64())),
        "f": pandas.array([1.5, None, -2.0, 0.25], dtype=A(pa.float64())),
        "s": pandas.array(["a", None, "bc", "a"], dtype=A(pa.string())),
        "d": pandas.array([dt.date(2020, 1, 2), None, dt.date(2021, 6, 30), dt.date(2020, 12, 31)], dtype=A(pa.date32())),
        "ts": pandas.array([pandas.Timestamp("2020-01-01 10:00", tz="UTC"), None,
                            pandas.Timestamp("2021-03-04", tz="UTC"), pandas.Timestamp("2022-05-06", tz="UTC")],
                           dtype=A(pa.timestamp("us", "UTC"))),
        "b": pandas.array([True, None, False, True], dtype=A(pa.bool_())),
        "dec": pandas.array([decimal.Decimal("1.20"), None, decimal.Decimal("3.40"), decimal.Decimal("0.05")],
                            dtype=A(pa.decimal128(5, 2))),
        "du": pandas.array([pandas.Timedelta(1, "s"), None, pandas.Timedelta(3, "min"), pandas.Timedelta(0)],
                           dtype=A(pa.duration("us"))),
        "x": [1.0, 2.0, float("nan"), 4.0],  # a numpy column beside them
    })
    return df if n is None else df.head(n)


def frame(pd, n=None):
    return pd.DataFrame(_arrow_frame(n))


@pytest.fixture(autouse=True)
def strict():
    with gframe.option_context(fallback="raise"):
        yield


ROWS = [None, 0, 1]


@pytest.mark.parametrize("n", ROWS)
def test_round_trip_and_selection(n):
    assert_matches_pandas(lambda pd: frame(pd, n))
    assert_matches_pandas(lambda pd: frame(pd, n)[["i", "d", "s"]])
    assert_matches_pandas(lambda pd: (lambda d: d[d.k > 1])(frame(pd, n)))


@pytest.mark.parametrize("n", ROWS)
def test_arrow_operand_makes_an_arrow_result(n):
    assert_matches_pandas(lambda pd: (lambda d: d.i + d.x)(frame(pd, n)))
    assert_matches_pandas(lambda pd: (lambda d: d.f * (1 - d.f))(frame(pd, n)))
    assert_matches_pandas(lambda pd: (lambda d: d.i > d.k)(frame(pd, n)))  # bool[pyarrow] with NA
    assert_matches_pandas(lambda pd: (lambda d: d.i / 2)(frame(pd, n)))
    assert_matches_pandas(lambda pd: (lambda d: d.ts - d.ts)(frame(pd, n)))


def test_NA_semantics():
    assert_matches_pandas(lambda pd: (lambda d: d[d.i != d.k])(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda d: (d.i > 1) | d.b)(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda d: d[(d.i > 1) & d.b])(frame(pd)))
    assert_matches_pandas(lambda pd: frame(pd).i.isna())
    assert_matches_pandas(lambda pd: frame(pd).i.isin([1, 3]))


def test_dates_and_timestamps():
    for field in ("year", "month", "day"):
        assert_matches_pandas(lambda pd, field=field: getattr(frame(pd).d.dt, field))
        assert_matches_pandas(lambda pd, field=field: getattr(frame(pd).ts.dt, field))
    assert_matches_pandas(lambda pd: (lambda d: d[d.d >= dt.date(2020, 6, 1)])(frame(pd)))
    assert_matches_pandas(lambda pd: frame(pd).sort_values("d", kind="stable"))
    assert_matches_pandas(lambda pd: frame(pd).d.max())


def test_strings():
    assert_matches_pandas(lambda pd: frame(pd).s.str.upper())
    assert_matches_pandas(lambda pd: frame(pd).s.str.len())  # int32[pyarrow]
    assert_matches_pandas(lambda pd: frame(pd).s.str.contains("a"))
    assert_matches_pandas(lambda pd: frame(pd).s == "a")


def test_reductions_and_groupby():
    assert_matches_pandas(lambda pd: frame(pd).i.sum())  # a Python int, as pandas gives
    assert_matches_pandas(lambda pd: frame(pd).f.mean())
    assert_matches_pandas(lambda pd: frame(pd).head(0).i.max())  # pd.NA
    assert_matches_pandas(lambda pd: frame(pd).groupby("s").agg({"i": "sum", "f": "mean", "dec": "sum"}))
    assert_matches_pandas(lambda pd: frame(pd).groupby("k", as_index=False).i.max())
    assert_matches_pandas(lambda pd: frame(pd).set_index("d"))


def test_merge_and_concat():
    assert_matches_pandas(lambda pd: frame(pd)[["k", "i", "s"]].merge(frame(pd)[["k", "d"]].head(2), on="k", how="left"))
    assert_matches_pandas(lambda pd: pd.concat([frame(pd)[["i", "s"]], frame(pd)[["i"]]]))


def test_astype_to_arrow():
    assert_matches_pandas(lambda pd: frame(pd).x.astype("double[pyarrow]"))
    assert_matches_pandas(lambda pd: frame(pd).i.astype("float64[pyarrow]"))


@pytest.fixture
def parquet_file(tmp_path):
    path = str(tmp_path / "x.parquet")
    pq.write_table(pa.Table.from_pandas(_arrow_frame(), preserve_index=False), path)
    return path


@pytest.mark.parametrize("backend", ["pyarrow", "numpy_nullable"])
def test_read_parquet_dtype_backend(parquet_file, backend):
    assert_matches_pandas(lambda pd: pd.read_parquet(parquet_file, dtype_backend=backend))
    assert_matches_pandas(lambda pd: (lambda d: d[d.i != d.k])(pd.read_parquet(parquet_file, dtype_backend=backend)))
    assert_matches_pandas(lambda pd: pd.read_parquet(parquet_file, dtype_backend=backend).groupby("s").i.sum())
    assert_matches_pandas(lambda pd: pd.read_parquet(parquet_file, columns=["i", "s"], dtype_backend=backend))


def test_read_parquet_pyarrow_date_fields(parquet_file):
    # TPC-H's shape: .dt.year of a date32[pyarrow] column read with the pyarrow backend
    assert_matches_pandas(lambda pd: pd.read_parquet(parquet_file, dtype_backend="pyarrow").d.dt.year)
    assert_matches_pandas(lambda pd: (lambda d: d[d.d.dt.month == 1])(pd.read_parquet(parquet_file, dtype_backend="pyarrow")))


def test_read_parquet_nullable_metadata(tmp_path):
    path = str(tmp_path / "n.parquet")
    pandas.DataFrame({"i": pandas.array([1, None], dtype="Int64"), "s": pandas.array(["a", None], dtype="string"),
                      "b": pandas.array([True, None], dtype="boolean")}).to_parquet(path)
    assert_matches_pandas(lambda pd: pd.read_parquet(path))
    assert_matches_pandas(lambda pd: pd.read_parquet(path, dtype_backend="pyarrow"))


@pytest.mark.parametrize("backend", ["pyarrow", "numpy_nullable"])
def test_read_csv_dtype_backend(tmp_path, backend):
    path = str(tmp_path / "x.csv")
    with open(path, "w") as fh:
        fh.write("i,f,s,b,d\n1,1.5,a,True,2020-01-01\n,,,,\n3,2.0,c,False,2021-02-03\n")
    assert_matches_pandas(lambda pd: pd.read_csv(path, dtype_backend=backend))
    assert_matches_pandas(lambda pd: pd.read_csv(path, dtype_backend=backend, parse_dates=["d"]))
    assert_matches_pandas(lambda pd: pd.read_csv(path, dtype_backend=backend, usecols=["i", "s"]))
    assert_matches_pandas(lambda pd: (lambda d: d[d.i != 1])(pd.read_csv(path, dtype_backend=backend)))


def test_read_parquet_rejects_an_unknown_backend(parquet_file):
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: pd.read_parquet(parquet_file, dtype_backend="numpy"))
