"""read_parquet / read_csv / to_parquet / to_csv round trips."""
import os

import pandas
import pytest

from gframe.testing import assert_matches_pandas, assert_raises_like_pandas

NaN = float("nan")

FRAMES = {
    "numeric": {"a": [1, 2, 3, 4], "f": [1.5, NaN, -2.0, 0.0], "b": [True, False, True, False]},
    "strings": {"s": ["x", None, "hello world", ""], "n": [1, 2, 3, 4]},
    "one_row": {"a": [7], "s": ["z"]},
}


def _path(tmp_path, pd, ext):
    # one file per module so the pandas run and the gframe run never share a file
    return str(tmp_path / f"{pd.__name__}.{ext}")


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_parquet_round_trip(tmp_path, name):
    data = FRAMES[name]

    def fn(pd):
        p = _path(tmp_path, pd, "parquet")
        pd.DataFrame(data).to_parquet(p)
        return pd.read_parquet(p)

    assert_matches_pandas(fn)


def test_parquet_round_trip_datetimes(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "parquet")
        pd.DataFrame({"t": pd.to_datetime(["2020-01-01", None, "2021-05-06"]), "v": [1.0, 2.0, NaN]}).to_parquet(p)
        return pd.read_parquet(p)

    assert_matches_pandas(fn)


def test_parquet_round_trip_index_false(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "parquet")
        pd.DataFrame({"a": [1, 2, 3]}, index=[5, 6, 7]).to_parquet(p, index=False)
        return pd.read_parquet(p)

    assert_matches_pandas(fn)


def test_parquet_round_trip_empty(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "parquet")
        pd.DataFrame({"a": [1, 2], "s": ["x", "y"]}).head(0).to_parquet(p)
        return pd.read_parquet(p)

    assert_matches_pandas(fn)


def test_read_parquet_columns(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "parquet")
        pd.DataFrame({"a": [1, 2], "b": [3.0, NaN], "c": ["x", None]}).to_parquet(p)
        return pd.read_parquet(p, columns=["c", "a"])

    assert_matches_pandas(fn)


def test_read_parquet_written_by_pandas(tmp_path):
    p = str(tmp_path / "src.parquet")
    pandas.DataFrame({"k": [1, 1, 2], "v": [0.5, NaN, 2.5], "s": ["a", None, "c"]}).to_parquet(p)
    assert_matches_pandas(lambda pd: pd.read_parquet(p))
    assert_matches_pandas(lambda pd: pd.read_parquet(p).groupby("k").v.sum())


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_csv_round_trip(tmp_path, name):
    data = FRAMES[name]

    def fn(pd):
        p = _path(tmp_path, pd, "csv")
        pd.DataFrame(data).to_csv(p, index=False)
        return pd.read_csv(p)

    assert_matches_pandas(fn)


def test_csv_round_trip_with_index(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "csv")
        pd.DataFrame({"a": [1.0, NaN, 3.0]}, index=[10, 20, 30]).to_csv(p)
        return pd.read_csv(p, index_col=0)

    assert_matches_pandas(fn)


def test_to_csv_text_matches(tmp_path):
    def fn(pd):
        p = _path(tmp_path, pd, "csv")
        pd.DataFrame({"a": [1, 2], "f": [NaN, 2.5], "s": ["x", None]}).to_csv(p, index=False)
        with open(p) as fh:
            return fh.read()

    assert_matches_pandas(fn)


def test_to_csv_returns_string_without_path():
    assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2], "s": ["x", None]}).to_csv(index=False))


@pytest.fixture
def csv_file(tmp_path):
    p = tmp_path / "data.csv"
    p.write_text(
        "id,name,score,when\n"
        "1,alice,3.5,2021-01-02\n"
        "2,,4.0,2021-02-03\n"
        "3,carol,,\n"
        "4,dave,1.25,2022-12-31\n"
    )
    return str(p)


def test_read_csv_plain(csv_file):
    assert_matches_pandas(lambda pd: pd.read_csv(csv_file))


@pytest.mark.parametrize("usecols", [["id", "score"], ["name"], ["score", "id"]])
def test_read_csv_usecols(csv_file, usecols):
    assert_matches_pandas(lambda pd: pd.read_csv(csv_file, usecols=usecols))


@pytest.mark.parametrize(
    "dtype",
    [{"id": "float64"}, {"score": "float32"}, {"id": "str"}],
    ids=["id_float", "score_float32", "id_str"],
)
def test_read_csv_dtype(csv_file, dtype):
    assert_matches_pandas(lambda pd: pd.read_csv(csv_file, dtype=dtype))


def test_read_csv_parse_dates(csv_file):
    assert_matches_pandas(lambda pd: pd.read_csv(csv_file, parse_dates=["when"]))


def test_read_csv_parse_dates_then_dt(csv_file):
    assert_matches_pandas(lambda pd: pd.read_csv(csv_file, parse_dates=["when"])["when"].dt.year)


def test_read_csv_then_filter(csv_file):
    assert_matches_pandas(lambda pd: (lambda df: df[df.score > 2])(pd.read_csv(csv_file)))


def test_read_csv_empty_rows(tmp_path):
    p = tmp_path / "empty.csv"
    p.write_text("a,b\n")
    assert_matches_pandas(lambda pd: pd.read_csv(str(p)))


def test_read_csv_malformed_raises_parser_error(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("a,b\n1,2\n3,4,5,6\n7,8\n")
    exc = assert_raises_like_pandas(lambda pd: pd.read_csv(str(p)))
    assert issubclass(exc, pandas.errors.ParserError)


def test_read_csv_missing_file_raises(tmp_path):
    exc = assert_raises_like_pandas(lambda pd: pd.read_csv(str(tmp_path / "nope.csv")))
    assert issubclass(exc, FileNotFoundError)


def test_read_parquet_missing_file_raises(tmp_path):
    assert_raises_like_pandas(lambda pd: pd.read_parquet(str(tmp_path / "nope.parquet")))


def _failing_writes(tmp_path):
    return {
        "mixed_objects": (
            str(tmp_path / "mixed.parquet"),
            lambda pd, p: pd.DataFrame({"a": [1, "x", 2.5]}).to_parquet(p),
        ),
        "missing_dir": (
            str(tmp_path / "no_such_dir" / "out.parquet"),
            lambda pd, p: pd.DataFrame({"a": [1, 2]}).to_parquet(p),
        ),
    }


@pytest.mark.parametrize("case", ["mixed_objects", "missing_dir"])
@pytest.mark.parametrize("which", ["pandas", "gframe"])
def test_failed_to_parquet_leaves_no_file(tmp_path, gf, case, which):
    mod = pandas if which == "pandas" else gf
    path, write = _failing_writes(tmp_path)[case]
    with pytest.raises(Exception):
        write(mod, path)
    assert not os.path.exists(path)


@pytest.mark.parametrize("case", ["mixed_objects", "missing_dir"])
def test_failed_to_parquet_raises_like_pandas(tmp_path, case):
    path, write = _failing_writes(tmp_path)[case]
    assert_raises_like_pandas(lambda pd: write(pd, path))
