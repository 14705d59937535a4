"""set_index / reset_index."""
import pandas as pd
import pytest

import gframe as gf
from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "k": ["b", "a", "c", "a"],
    "n": [2, 1, 2, 3],
    "v": [1.5, NaN, 3.5, 4.5],
}


def frame(pd):
    return pd.DataFrame(DATA)


@pytest.mark.parametrize("keys", ["k", "n", ["k", "n"], ["n", "k"]])
@pytest.mark.parametrize("drop", [True, False])
def test_set_index(keys, drop):
    assert_matches_pandas(lambda pd: frame(pd).set_index(keys, drop=drop))


def test_set_index_then_loc():
    assert_matches_pandas(lambda pd: frame(pd).set_index("k").loc[["a", "c"]])


def test_set_index_then_loc_scalar_label():
    assert_matches_pandas(lambda pd: frame(pd).set_index("k").loc["c"])


def test_set_index_datetime():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"t": pd.to_datetime(["2020-01-02", "2020-01-01"]), "v": [1, 2]}).set_index("t")
    )


@pytest.mark.parametrize("drop", [True, False])
def test_reset_index(drop):
    assert_matches_pandas(lambda pd: frame(pd).set_index("k").reset_index(drop=drop))


@pytest.mark.parametrize("drop", [True, False])
def test_reset_index_after_filter(drop):
    assert_matches_pandas(lambda pd: (lambda df: df[df.n > 1].reset_index(drop=drop))(frame(pd)))


def test_reset_index_multi():
    assert_matches_pandas(lambda pd: frame(pd).set_index(["k", "n"]).reset_index())


def test_reset_index_level():
    assert_matches_pandas(lambda pd: frame(pd).set_index(["k", "n"]).reset_index(level="n"))


def test_reset_index_after_groupby():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").v.sum().reset_index())


def test_reset_index_after_groupby_many_keys():
    assert_matches_pandas(lambda pd: frame(pd).groupby(["k", "n"]).agg(s=("v", "sum")).reset_index())


def test_reset_index_series_name():
    assert_matches_pandas(lambda pd: frame(pd).groupby("k").size().reset_index(name="count"))


def test_reset_index_drop_series():
    assert_matches_pandas(lambda pd: frame(pd).v.sort_values(kind="stable").reset_index(drop=True))


def test_set_index_string_index_name():
    assert_matches_pandas(lambda pd: frame(pd).set_index("k").index)


def test_rename_axis_and_index_name():
    assert_matches_pandas(lambda pd: frame(pd).set_index("k").rename_axis("key").reset_index())


def test_set_index_one_row_and_empty():
    assert_matches_pandas(lambda pd: frame(pd).head(1).set_index("n"))
    assert_matches_pandas(lambda pd: frame(pd).head(0).set_index("n"))


def test_index_name_setter_renames_the_owner():
    """pandas' ``df.index.name = "x"`` renames the frame's index (the Index is the frame's own)."""
    df = gf.DataFrame({"a": [1, 2], "b": [3, 4]})
    df.index.name = "x"
    expected = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
    expected.index.name = "x"
    pd.testing.assert_frame_equal(df.to_pandas(), expected)
    s = df.reset_index().set_index(["a", "b"])["x"]
    s.index.names = ["p", "q"]
    assert list(s.to_pandas().index.names) == ["p", "q"]
    idx = gf.Index([1, 2])
    idx.name = "q"
    assert idx.to_pandas().name == "q"


def test_index_name_setter_errors_are_pandas():
    df = gf.DataFrame({"a": [1, 2]})
    with pytest.raises(TypeError, match="must be a hashable type"):
        df.index.name = ["p"]
    with pytest.raises(ValueError):
        df.set_index("a").index.names = ["p", "q"]


def test_index_operators_are_pandas():
    """``idx + Timedelta``, ``2 - idx``, ``idx < 2``, ``-idx``: pandas' index arithmetic and comparisons."""
    gi, pi = gf.date_range("2020", periods=3), pd.date_range("2020", periods=3)
    pd.testing.assert_index_equal((gi + pd.Timedelta("1D")).to_pandas(), pi + pd.Timedelta("1D"))
    pd.testing.assert_index_equal((gi - gi[0]).to_pandas(), pi - pi[0])
    gj, pj = gf.Index([1, 2, 3]), pd.Index([1, 2, 3])
    pd.testing.assert_index_equal((2 - gj).to_pandas(), 2 - pj)
    pd.testing.assert_index_equal((-gj).to_pandas(), -pj)
    assert list(gj < 2) == list(pj < 2)
    assert 2 in gj and 5 not in gj
    out = gj + gf.Series([1, 2, 3])
    assert isinstance(out, gf.Series)
    pd.testing.assert_series_equal(out.to_pandas(), pj + pd.Series([1, 2, 3]))
    with pytest.raises(TypeError):
        hash(gj)
