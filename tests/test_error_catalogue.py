"""A catalogue of bad inputs, each run on pandas and on gframe: gframe must raise an instance of the
exception type pandas raises (at the call or when the result is computed), and give pandas' result
where pandas gives one (issue 9, class 12 and Build item 4).

The expected type is never written here: it is what pandas raises on the same input. Engine
exceptions (Polars, pylibcudf) must never escape; ``gframe/errors.py`` maps what reaches the
evaluator, and the dtype rules decide most cases before any engine runs.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas
import pytest

import gframe

NAN = float("nan")


def _frames() -> dict[str, pandas.DataFrame]:
    return {
        "u8": pandas.DataFrame({"c": [1, 0, 200]}).astype({"c": "uint8"}),
        "u64": pandas.DataFrame({"c": [0, 5]}).astype({"c": "uint64"}),
        "b": pandas.DataFrame({"c": [True, False]}),
        "i": pandas.DataFrame({"c": [1000, -3]}),
        "f": pandas.DataFrame({"c": [1.5, NAN]}),
        "s": pandas.DataFrame({"c": ["a", None]}),
        "dt": pandas.DataFrame({"c": ["2020-01-01", None]}).astype({"c": "datetime64[ns]"}),
        "dtms": pandas.DataFrame({"c": ["2020-01-01"]}).astype({"c": "datetime64[ms]"}),
        "td": pandas.DataFrame({"c": pandas.to_timedelta(["1D", "2h"])}),
        "cat": pandas.DataFrame({"c": ["d", "e"]}).astype({"c": pandas.CategoricalDtype(["d", "e"])}),
        "ocat": pandas.DataFrame({"c": ["d", "e"]}).astype({"c": pandas.CategoricalDtype(["e", "d"], ordered=True)}),
        "ncat": pandas.DataFrame({"c": [1, 2]}).astype({"c": "category"}),
        "F64": pandas.DataFrame({"c": pandas.array([NAN, 1.0], dtype="Float64")}),
        "none": pandas.DataFrame(index=pandas.RangeIndex(3)),
        "kv": pandas.DataFrame({"k": [1, 2], "v": ["x", "y"]}),
    }


# (frame, code with df and pd): each is run with pd = pandas and pd = gframe
CATALOGUE: list[Any] = [
    # wrong-type operations
    ("dt", "df[df['c'] > 5]"),
    ("dt", "df.assign(n=df['c'] != 5)"),
    ("s", "df.assign(n=df['c'] == 1.5)"),
    ("s", "df == 1"),
    ("dt", "df[5 <= df['c']]"),
    ("dt", "df.assign(n=df['c'] == 5)"),
    ("s", "df[df['c'] > 1]"),
    ("s", "df.assign(n=df['c'] != 1)"),
    ("dt", "df.assign(n=df['c'] + df['c'])"),
    ("dt", "df.assign(n=df['c'] * 2)"),
    ("s", "df.assign(n=df['c'] + 1)"),
    ("s", "df.assign(n=df['c'] - 'a')"),
    ("td", "df[df['c'] > 1]"),
    ("b", "df.assign(n=df['c'] - df['c'])"),
    ("b", "df.assign(n=df['c'] - 1)"),
    ("b", "df.assign(n=-df['c'])"),
    ("u8", "df.assign(n=-df['c'])"),
    ("u64", "df.assign(n=-df['c'])"),
    ("i", "df.assign(n=-df['c'])"),
    ("s", "df.assign(n=-df['c'])"),
    ("f", "df.assign(n=~df['c'])"),
    ("f", "df[df['c'] & True]"),
    ("s", "df[df['c'] | False]"),
    ("dt", "df[df['c'] & True]"),
    ("i", "df.assign(n=df['c'] & 3)"),
    ("cat", "df[df['c'] < 'e']"),
    ("ocat", "df[df['c'] < 'd']"),
    ("cat", "df.assign(n=df['c'] + 'x')"),
    ("s", "df['c'].mean()"),
    ("dt", "df['c'].sum()"),
    # casts
    ("dt", "df.astype({'c': 'int32'})"),
    ("dt", "df.astype({'c': 'int64'})"),
    ("dtms", "df.astype({'c': 'float64'})"),
    ("dtms", "df.astype({'c': 'Float64'})"),
    ("dtms", "df.astype({'c': 'float32'})"),
    ("dtms", "df.astype({'c': 'bool'})"),
    ("td", "df.astype({'c': 'int16'})"),
    ("F64", "df.astype({'c': 'bool'})"),
    ("f", "df.astype({'c': 'bool'})"),
    ("f", "df.astype({'c': 'int64'})"),
    ("cat", "df.astype({'c': 'float64'})"),
    ("ncat", "df.astype({'c': 'float64'})"),
    ("s", "df.dropna().astype({'c': 'int64'})"),
    ("s", "df.astype({'c': 'float64'})"),
    ("s", "df.astype({'zz': 'float64'})"),
    ("i", "df.astype({'c': 'int8'})"),          # overflow: numpy wraps
    ("i", "df.astype({'c': 'uint16'})"),
    ("i", "df.astype('no such dtype')"),
    ("dt", "df.astype({'c': 'Int64'})"),
    ("f", "df.astype({'c': 'Int64'})"),                                         # NaN becomes NA
    ("f", "df.fillna(2.0).astype({'c': 'Int64'})"),                             # 1.5: TypeError
    ("f", "df.assign(c=df['c'].fillna(float('inf'))).astype({'c': 'Int64'})"),  # OverflowError
    # fillna across kinds
    ("dt", "df.fillna(-1)"),
    ("dt", "df.fillna('x')"),
    ("s", "df.fillna(0)"),
    ("u8", "df.fillna('z')"),
    ("cat", "df.fillna('zz')"),
    # joins
    ("kv", "df.merge(pd.DataFrame({'z': [1]}), on='k')"),
    ("kv", "pd.DataFrame({'z': [1]}).merge(df, on='k')"),
    ("kv", "df.merge(df, left_on='k', right_on='nope')"),
    ("kv", "df.merge(df, on='k', how='sideways')"),
    ("kv", "df.merge(pd.DataFrame({'k': ['1']}), on='k')"),
    ("kv", "df.merge(df, on='k', validate='nonsense')"),
    ("kv", "df.merge(df, left_on='k')"),
    ("kv", "df.groupby('v').agg({'k': ['first']}).merge(df, on='k')"),  # column levels differ: MergeError
    # labels and arguments
    ("kv", "df['zz']"),
    ("kv", "df[['k', 'zz']]"),
    ("kv", "df.sort_values('zz')"),
    ("kv", "df.sort_values('k', na_position='middle')"),
    ("kv", "df.drop(columns=['zz'])"),
    ("kv", "df.groupby('zz').sum()"),
    ("kv", "df.drop_duplicates(keep='middle')"),
    ("kv", "df.drop_duplicates(subset=['zz'])"),
    ("none", "df.drop_duplicates()"),
    ("kv", "df.head('a')"),
    ("kv", "df.rename(columns={'k': 'v'})"),
    ("kv", "df.set_index('zz')"),
    ("kv", "df.nlargest(1, 'zz')"),
    ("kv", "df['k'].isin(1)"),
    ("kv", "df.query('zz > 1')"),
    ("kv", "df.query('k >')"),
    ("kv", "df.groupby('k').agg({'v': 'nosuchfunc'})"),
]


PLAIN = [tuple(c.values) if hasattr(c, "values") else c for c in CATALOGUE]  # without the xfail marks
IDS = [f"{f}:{c}" for f, c in PLAIN]


def _run(lib: Any, frame: pandas.DataFrame, code: str) -> tuple[str, Any]:
    df = frame.copy() if lib is pandas else gframe.DataFrame(frame)
    try:
        out = eval(code, {"pd": lib, "df": df, "np": np})
        if hasattr(out, "to_pandas"):
            out = out.to_pandas()
    except Exception as exc:  # noqa: BLE001 - the type is the point of the test
        return "raise", exc
    return "ok", out


def _compare(want: tuple[str, Any], got: tuple[str, Any]) -> None:
    if want[0] == "raise":
        assert got[0] == "raise", f"pandas raises {type(want[1]).__name__}: {want[1]}; gframe gives {got[1]!r}"
        assert isinstance(got[1], type(want[1])), (
            f"pandas raises {type(want[1]).__module__}.{type(want[1]).__name__}; gframe raises "
            f"{type(got[1]).__module__}.{type(got[1]).__name__}: {got[1]}")
        return
    assert got[0] == "ok", f"pandas gives a result; gframe raises {type(got[1]).__name__}: {got[1]}"
    w, g = want[1], got[1]
    if isinstance(w, pandas.DataFrame):
        pandas.testing.assert_frame_equal(g, w)
    elif isinstance(w, pandas.Series):
        pandas.testing.assert_series_equal(g, w)
    else:
        assert (g == w) or (pandas.isna(g) and pandas.isna(w)), (g, w)


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("frame,code", CATALOGUE, ids=IDS)
def test_catalogue_matches_pandas(frame: str, code: str) -> None:
    inputs = _frames()[frame]
    _compare(_run(pandas, inputs, code), _run(gframe, inputs, code))


def _engine_error(exc: BaseException) -> bool:
    return any((k.__module__ or "").split(".")[0] in ("polars", "pyo3_runtime", "pylibcudf") for k in type(exc).__mro__)


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("frame,code", PLAIN, ids=IDS)
def test_no_engine_exception_escapes(frame: str, code: str) -> None:
    status, value = _run(gframe, _frames()[frame], code)
    assert not (status == "raise" and _engine_error(value)), f"{type(value).__module__}.{type(value).__name__}: {value}"


# ---------------------------------------------------------------------------- files

def _files(tmp: Path) -> dict[str, Callable[[Any], Any]]:
    corrupt = tmp / "corrupt.parquet"
    corrupt.write_bytes(b"PAR1 this is not a parquet file PAR1")
    truncated = tmp / "truncated.parquet"
    pandas.DataFrame({"a": range(100)}).to_parquet(truncated)
    truncated.write_bytes(truncated.read_bytes()[:-30])
    short = tmp / "short.csv"
    short.write_text("a,b,c\n1,2,3\n4,5\n6\n")
    long_row = tmp / "long.csv"
    long_row.write_text("a,b\n1,2\n3,4,5,6\n")
    empty = tmp / "empty.csv"
    empty.write_text("")
    return {
        "missing parquet": lambda pd: pd.read_parquet(tmp / "nope.parquet"),
        "missing csv": lambda pd: pd.read_csv(tmp / "nope.csv"),
        "corrupt parquet": lambda pd: pd.read_parquet(corrupt),
        "truncated parquet": lambda pd: pd.read_parquet(truncated),
        "short csv rows": lambda pd: pd.read_csv(short),
        "long csv row": lambda pd: pd.read_csv(long_row),
        "empty csv": lambda pd: pd.read_csv(empty),
        "missing usecols": lambda pd: pd.read_csv(short, usecols=["zz"]),
        "missing parquet column": lambda pd: pd.read_parquet(truncated.with_name("ok.parquet"), columns=["zz"]),
    }


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("name", ["missing parquet", "missing csv", "corrupt parquet", "truncated parquet",
                                  "short csv rows",
                                  "long csv row", "empty csv", "missing usecols",
                                  "missing parquet column"])
def test_file_errors_match_pandas(tmp_path: Path, name: str) -> None:
    pandas.DataFrame({"a": [1, 2]}).to_parquet(tmp_path / "ok.parquet")
    read = _files(tmp_path)[name]

    def run(lib: Any) -> tuple[str, Any]:
        try:
            out = read(lib)
            return "ok", out.to_pandas() if hasattr(out, "to_pandas") else out
        except Exception as exc:  # noqa: BLE001 - the type is the point of the test
            return "raise", exc

    want, got = run(pandas), run(gframe)
    assert not (got[0] == "raise" and _engine_error(got[1]))
    _compare(want, got)
