"""The pandas bridge: native setters are reachable, and every trip to pandas is recorded."""
import pandas
import pytest

import gframe
from gframe.errors import FallbackError
from gframe.testing import assert_matches_pandas


@pytest.fixture(autouse=True)
def _clear_report():
    gframe.fallback_report(clear=True)
    yield
    gframe.fallback_report(clear=True)


def _apis() -> list[str]:
    return [e.api for e in gframe.fallback_report()]


def _set_columns(pd, labels):
    df = pd.DataFrame({"a": [1, 2, 3], "b": ["x", "y", None]})
    df.columns = labels
    return df


def test_setting_columns_is_native():
    assert_matches_pandas(lambda pd: _set_columns(pd, ["p", "q"]))
    df = _set_columns(gframe, ["b", "a"])  # a swap is one rename
    pandas.testing.assert_frame_equal(df.to_pandas(), _set_columns(pandas, ["b", "a"]))
    assert _apis() == []


def test_setting_columns_of_the_wrong_length_raises_like_pandas():
    with pytest.raises(ValueError, match="Length mismatch"):
        _set_columns(gframe, ["p"])
    with pytest.raises(ValueError, match="Length mismatch"):
        _set_columns(pandas, ["p"])


def _set_index(pd):
    df = pd.DataFrame({"a": [1, 2, 3]})
    df.index = ["x", "y", "z"]
    return df


def test_setting_the_index_is_native():
    """New labels are a scan joined to the rows by position; a frame without columns (no rows to
    join) still goes through pandas, recorded."""
    assert_matches_pandas(_set_index)
    assert _apis() == []

    def no_columns(pd):
        df = pd.DataFrame(index=[1, 2, 3])
        df.index = ["x", "y", "z"]
        return df

    assert_matches_pandas(no_columns)
    assert _apis() == ["DataFrame.index = ..."]


def test_series_assignments_are_recorded():
    def set_index(pd):
        s = pd.Series([1, 2, 3], name="s")
        s.index = ["x", "y", "z"]
        return s

    def set_item(pd):
        s = pd.Series([1, 2, 3], index=["x", "y", "z"])
        s["y"] = 20  # (native: ``frontend/setitem.py``)
        s[["x", "z"]] = [10, 30]  # a list of labels: pandas assigns
        return s

    assert_matches_pandas(set_index)
    assert_matches_pandas(set_item)
    assert _apis() == ["Series.__setitem__"]  # the index setter is native


def test_strict_mode_refuses_a_setter_that_would_run_pandas():
    df = gframe.DataFrame({"a": [1, 2, 3]})
    with gframe.option_context(fallback="raise"):
        with pytest.raises(FallbackError):
            df.columns = pandas.MultiIndex.from_tuples([("x", "y")])
        df.index = ["x", "y", "z"]  # native: allowed in strict mode
        df.columns = ["b"]
    assert list(df.columns) == ["b"] and list(df.index) == ["x", "y", "z"]


def test_a_pandas_property_read_is_recorded_with_the_rows_moved():
    df = gframe.DataFrame({"a": [1, 2, 3]})
    assert df.axes[1].tolist() == ["a"]
    (event,) = gframe.fallback_report()
    assert event.api == "DataFrame.axes" and event.rows == 3


def test_pandas_private_methods_and_properties_read_through_pandas():
    """pandas' testing helpers and programs written against pandas read ``_values``, ``_ixs``,
    ``_with_freq``: they read through pandas (recorded); ``_typ`` stays pandas' own, so a gframe
    object never passes pandas' isinstance checks (``ABCDataFrame``)."""
    import numpy as np
    import pandas

    import gframe

    df = gframe.DataFrame({"a": [1, 2], "b": [3.0, 4.0]})
    pdf = pandas.DataFrame({"a": [1, 2], "b": [3.0, 4.0]})
    np.testing.assert_array_equal(df._values, pdf._values)
    np.testing.assert_array_equal(df["a"]._values, pdf["a"]._values)
    col = df._ixs(0, axis=1)
    assert isinstance(col, gframe.Series)
    pandas.testing.assert_series_equal(col.to_pandas(), pdf._ixs(0, axis=1))
    idx = gframe.date_range("2020", periods=3, freq="D")
    assert idx._with_freq(None).freq is None
    assert not hasattr(df, "_typ") and not hasattr(df, "_mgr")
    assert not isinstance(df, pandas.core.dtypes.generic.ABCDataFrame)


def test_resample_checks_its_options_at_the_call_and_warns_at_the_users_line():
    """pandas validates ``resample``'s options when it is called, and its deprecation warnings point
    at the caller (``assert_produces_warning`` checks the file)."""
    import pandas._testing as tm

    s = gframe.Series(range(14), index=gframe.date_range("2000", periods=14, freq="D"))
    with pytest.raises(ValueError, match="Unsupported value righttt for `label`"):
        s.resample("W", label="righttt")
    with tm.assert_produces_warning(pandas.errors.Pandas4Warning, match="deprecated"):
        out = s.resample("w-sun").sum()
    pandas.testing.assert_series_equal(out.to_pandas(), s.to_pandas().resample("W-SUN").sum(), check_freq=False)


def test_storing_a_deprecated_dtype_warns_nothing_more():
    """A business-day PeriodIndex result of a trip: pandas warns ``PeriodDtype[B]`` once, at the
    user's line; gframe storing the result in Arrow (which makes the dtype again) adds no warning."""
    import warnings

    def run(pd):
        ts = pd.Series(range(2), index=pd.period_range("1990", periods=2, freq="Y-JAN"))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = ts.resample("B", convention="start").ffill()
            labels = out.index
            labels = labels.to_pandas() if hasattr(labels, "to_pandas") else labels
        return caught, labels

    caught, labels = run(gframe)
    want, want_labels = run(pandas)
    assert caught and all(w.filename == __file__ for w in caught)
    assert {str(w.message) for w in caught} == {str(w.message) for w in want}  # kinds and files, as pandas checks
    pandas.testing.assert_index_equal(labels, want_labels)


def test_groupby_properties_read_through_pandas():
    df = gframe.DataFrame({"k": [1, 1, 2], "v": [1.0, 2.0, 3.0]})
    pdf = df.to_pandas()
    assert df.groupby("k").ngroups == pdf.groupby("k").ngroups == 2
    assert df.groupby("k")["v"].ngroups == 2
