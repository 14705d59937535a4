"""Object columns whose values Arrow stores typed: what pandas shows for them after an operation.

From pandas' own suite (conformance ratchet regressions of session 3): group keys are inferred from
the values (``DataFrame.value_counts`` over a string column holding ``Decimal('NaN')``/``NaT``), while
``Series.value_counts`` keeps object; bools that rows went missing from show NaN (a join's or a
reindex's), not None; ``drop`` of labels a datetime index cannot hold raises pandas' KeyError.
"""
from decimal import Decimal

import numpy as np
import pandas
import pytest

import gframe as gf
from gframe.testing import assert_matches_pandas


@pytest.mark.parametrize("null", [Decimal("NaN"), pandas.NaT, None, np.nan])
@pytest.mark.parametrize("dropna", [True, False])
def test_frame_value_counts_object_keys_inferred(null, dropna):
    def run(pd):
        df = pd.DataFrame({"first": ["John", "Anne", "John", "Beth"], "middle": ["Smith", null, null, "Louise"]})
        return df.value_counts(dropna=dropna)

    assert_matches_pandas(run)


@pytest.mark.parametrize("values", [["x", "y", "x"], [1, 2, 2], [True, False, True], [1.5, 2.5, 1.5]])
def test_groupby_object_keys_inferred_value_counts_object(values):
    def keys(pd):
        df = pd.DataFrame({"k": pd.Series(values, dtype=object), "v": [1, 2, 3]})
        return df.groupby("k").sum()

    def counts(pd):
        return pd.Series(values, dtype=object, name="k").value_counts()

    assert_matches_pandas(keys)
    assert assert_matches_pandas(counts).index.dtype == object


@pytest.mark.parametrize("how", ["outer", "right", "left", "inner"])
def test_join_missing_bools_are_nan(how):
    def run(pd):
        df1 = pd.DataFrame(index=np.arange(10))
        df1["bool"] = True
        df2 = pd.DataFrame(index=np.arange(5, 15))
        df2["int"] = 1
        joined = df1.join(df2, how=how)
        by_hand = df1.reindex(df1.index.join(df2.index, how=how))
        by_hand["int"] = df2.reindex(by_hand.index)["int"]
        return pd.concat([joined, by_hand.rename(columns=lambda c: c + "_2")], axis=1)

    assert_matches_pandas(run)


def test_object_bools_keep_their_missing_marker():
    """``[True, None]`` stays None, ``[True, nan]`` stays NaN, through a native operation."""
    def run(pd):
        df = pd.DataFrame({"n": pd.Series([True, None, False], dtype=object),
                           "f": pd.Series([True, np.nan, False], dtype=object)})
        return df.assign(x=1)

    got = assert_matches_pandas(run)
    assert got["n"][1] is None and got["f"][1] != got["f"][1]


def test_drop_missing_labels_of_datetime_index():
    df = gf.DataFrame(np.zeros((5, 3)), columns=["a", "b", "c"], index=gf.date_range("2012", freq="h", periods=5))
    df = df.iloc[[0, 2, 2, 3]].copy()
    with pytest.raises(KeyError, match="not found in axis"):
        df.drop(["a", "b"])
    assert_matches_pandas(lambda pd: pd.DataFrame({"x": range(3)}, index=pd.date_range("2012", freq="h", periods=3))
                          .drop(["2012-01-01 01:00:00"]))


def test_isin_strings_never_match_dates():
    assert_matches_pandas(lambda pd: pd.Series(pd.date_range("2012", freq="h", periods=3))
                          .isin(["2012-01-01 01:00:00", "a"]))
