"""The whole pandas namespace on gframe, and pandas.testing's asserts on gframe objects."""
from __future__ import annotations

import types

import numpy as np
import pandas
import pytest

import gframe
from gframe import namespace
from gframe.testing import assert_matches_pandas

PUBLIC = namespace.pandas_public_names()


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_pandas_name_is_on_gframe(name):
    assert hasattr(gframe, name), name
    assert name in dir(gframe)
    assert namespace.classified(name), f"pandas.{name} is not classed in gframe.namespace"


def test_tables_are_disjoint_and_name_only_pandas_names():
    tables = [namespace.NATIVE, set(namespace.METHOD_FORMS), namespace.CONSTRUCTORS, namespace.VIA_PANDAS, namespace.SHARED,
              namespace.OWN_MODULES]
    seen: set[str] = set()
    for table in tables:
        assert not (seen & set(table)), seen & set(table)
        seen |= set(table)
    assert seen <= set(PUBLIC), seen - set(PUBLIC)


@pytest.mark.parametrize("name", sorted(namespace.NATIVE - {"options", "option_context"}))
def test_native_names_are_gframes_own(name):
    assert getattr(gframe, name) is not getattr(pandas, name)
    assert getattr(gframe, name).__module__.startswith("gframe.")


@pytest.mark.parametrize("name", sorted(namespace.SHARED - {"pandas"}))
def test_shared_names_are_pandas_objects(name):
    assert getattr(gframe, name) is getattr(pandas, name)


def test_types_scalars_and_submodules():
    assert gframe.NA is pandas.NA and gframe.NaT is pandas.NaT
    assert gframe.Timestamp("2024-01-01") == pandas.Timestamp("2024-01-01")
    assert isinstance(gframe.ArrowDtype(__import__("pyarrow").int64()), pandas.ArrowDtype)
    assert gframe.IndexSlice[1:2] == pandas.IndexSlice[1:2]
    assert gframe.Grouper(key="a").key == "a"
    assert isinstance(gframe.DatetimeIndex(["2024-01-01"]), pandas.DatetimeIndex)
    assert gframe.Interval(0, 1) == pandas.Interval(0, 1)
    assert gframe.pandas is gframe  # as pandas.pandas is pandas
    for mod in ("api", "errors", "testing", "offsets", "tseries", "plotting", "io", "arrays"):
        assert isinstance(getattr(gframe, mod), types.ModuleType), mod
    assert gframe.offsets.MonthEnd is pandas.offsets.MonthEnd
    assert gframe.tseries.offsets.Day is pandas.tseries.offsets.Day
    assert gframe.api.types.is_integer_dtype is pandas.api.types.is_integer_dtype
    assert gframe.io.formats is pandas.io.formats and gframe.io.json.read_json is pandas.io.json.read_json
    with gframe.option_context(fallback="raise"):
        assert gframe.isna(None) is True and gframe.notna(3.0) is True  # scalars: nothing falls back


@pytest.mark.parametrize("name", sorted(pandas.errors.__all__))
def test_errors_module_has_pandas_errors(name):
    assert getattr(gframe.errors, name) is getattr(pandas.errors, name)


def test_errors_module_keeps_gframes_own():
    assert issubclass(gframe.errors.FallbackError, NotImplementedError)
    assert gframe.FallbackError is gframe.errors.FallbackError


@pytest.mark.parametrize("name", sorted(n for n in dir(pandas.plotting) if not n.startswith("_")))
def test_plotting_module_has_pandas_names(name):
    assert hasattr(gframe.plotting, name)


def test_plotting_accepts_gframe_objects():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    gframe.fallback_report(clear=True)
    ax = gframe.plotting.lag_plot(gframe.Series([1.0, 2.0, 3.0, 2.5]))
    assert ax is not None
    assert any(e.api == "plotting.lag_plot" for e in gframe.fallback_report())


# ------------------------------------------------------------------ functions: gframe in, gframe out
def test_via_pandas_functions_take_and_return_gframe_objects():
    gframe.fallback_report(clear=True)
    s = gframe.Series([1.0, 5.0, 9.0, 3.0])
    out = gframe.cut(s, 2)
    assert isinstance(out, gframe.Series)
    pandas.testing.assert_series_equal(out.to_pandas(), pandas.cut(pandas.Series([1.0, 5.0, 9.0, 3.0]), 2))
    assert any(e.api == "cut" for e in gframe.fallback_report())


@pytest.mark.parametrize("fn", [
    lambda pd: pd.melt(pd.DataFrame({"a": [1, 2], "b": [3, 4]}), id_vars="a"),
    lambda pd: pd.pivot_table(pd.DataFrame({"a": [1, 1, 2], "b": [3, 4, 5]}), index="a", values="b", aggfunc="sum"),
    lambda pd: pd.isna(pd.Series([1.0, None])),
    lambda pd: pd.notnull(pd.DataFrame({"a": [1.0, None]})),
    lambda pd: pd.isna(3.0),
    lambda pd: pd.isna(None),
    lambda pd: pd.cut(pd.Series([1.0, 5.0, 9.0]), bins=[0, 4, 10]),
    lambda pd: pd.qcut(pd.Series(range(10)), 3, labels=False),
    lambda pd: pd.to_numeric(pd.Series(["1", "2.5"])),
    lambda pd: pd.to_timedelta(pd.Series(["1D", "2h"])),
    lambda pd: pd.get_dummies(pd.DataFrame({"k": ["x", "y", "x"]})),
    lambda pd: pd.crosstab(pd.Series([1, 1, 2]), pd.Series(["a", "b", "a"])),
    lambda pd: pd.merge_asof(pd.DataFrame({"t": [1, 5], "x": [1, 2]}), pd.DataFrame({"t": [2, 3], "y": [3, 4]}), on="t"),
    lambda pd: pd.merge_ordered(pd.DataFrame({"k": [1, 3], "x": [1, 2]}), pd.DataFrame({"k": [2, 3], "y": [3, 4]}), on="k"),
    lambda pd: pd.factorize(pd.Series(["b", "a", "b"]))[0],
    lambda pd: pd.unique(pd.Series([3, 1, 3])),
    lambda pd: pd.date_range("2024-01-01", periods=3, freq="D").to_series().reset_index(drop=True),
    lambda pd: pd.wide_to_long(pd.DataFrame({"id": [1, 2], "x1": [1, 2], "x2": [3, 4]}), "x", i="id", j="n"),
    lambda pd: pd.json_normalize([{"a": 1, "b": {"c": 2}}]),
    lambda pd: pd.DataFrame({"k": [1, 1], "a": [1, 2]}).groupby("k").agg(total=pd.NamedAgg(column="a", aggfunc="sum")),
])
def test_top_level_functions_match_pandas(fn):
    assert_matches_pandas(fn)


def test_gframe_namespace_never_returns_pandas_frames():
    df = gframe.DataFrame({"k": ["x", "y"], "v": [1, 2]})
    assert isinstance(gframe.get_dummies(df), gframe.DataFrame)
    assert isinstance(gframe.melt(df, id_vars="k"), gframe.DataFrame)
    assert isinstance(gframe.to_numeric(df.v), gframe.Series)


def test_new_pandas_name_resolves_by_kind(monkeypatch):
    # a name a newer pandas adds: callables run through pandas (recorded), other values are shared
    monkeypatch.setattr(pandas, "brand_new_function", lambda obj: obj * 2, raising=False)
    monkeypatch.setattr(pandas, "BRAND_NEW_CONSTANT", 42, raising=False)
    out = gframe.brand_new_function(gframe.Series([1, 2]))
    assert isinstance(out, gframe.Series) and out.tolist() == [2, 4]
    assert gframe.BRAND_NEW_CONSTANT == 42
    with pytest.raises(AttributeError):
        gframe.no_such_name_in_pandas


# ------------------------------------------------------------------ pandas.testing accepts gframe objects
def test_gframe_testing_asserts_accept_gframe_objects():
    g = gframe.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    p = pandas.DataFrame({"a": [1, 2], "b": ["x", "y"]})
    gframe.testing.assert_frame_equal(g, g)
    gframe.testing.assert_frame_equal(g, p)
    gframe.testing.assert_series_equal(g.a, p.a)
    gframe.testing.assert_index_equal(g.columns, p.columns)
    gframe.testing.assert_extension_array_equal(pandas.array([1, 2]), pandas.array([1, 2]))
    with pytest.raises(AssertionError, match="DataFrame.iloc\\[:, 0\\]"):
        gframe.testing.assert_frame_equal(g, p.assign(a=[1, 3]))
    with pytest.raises(AssertionError):
        gframe.testing.assert_series_equal(g.a, g.a + 1)
    # the test suite's helper is still there
    assert_matches_pandas(lambda pd: pd.Series([1, 2]).sum())


def test_patch_pandas_testing_makes_pandas_asserts_accept_gframe():
    import pandas._testing as tm

    g = gframe.DataFrame({"a": [1.0, 2.0]})
    with pytest.raises(AssertionError):
        tm.assert_frame_equal(g, g)  # pandas' own refuses a non-pandas object
    undo = gframe.testing.patch_pandas_testing()
    try:
        tm.assert_frame_equal(g, g)
        tm.assert_series_equal(g.a, pandas.Series([1.0, 2.0], name="a"))
        tm.assert_index_equal(g.index, pandas.RangeIndex(2))
        tm.assert_equal(g, g.to_pandas())
        tm.assert_almost_equal(g.a, g.a.to_pandas())
        pandas.testing.assert_frame_equal(g, g)
        with pytest.raises(AssertionError):
            tm.assert_frame_equal(g, g + 1)
    finally:
        undo()
    with pytest.raises(AssertionError):
        tm.assert_frame_equal(g, g)
    assert np.asarray(g).shape == (2, 1)


def test_pandas_testing_accepts_gframe_context_manager():
    import pandas._testing as tm

    g = gframe.DataFrame({"a": [1, 2]})
    with gframe.testing.pandas_testing_accepts_gframe():
        tm.assert_frame_equal(g, g.to_pandas())
        assert tm.assert_frame_equal.__gframe_accepting__
    assert not getattr(tm.assert_frame_equal, "__gframe_accepting__", False)


def test_label_constructors_build_gframe_labels_unrecorded():
    """``date_range``/``period_range``/``array`` build labels from Python values (gframe's labels layer,
    as ``gframe.Index(data)``): no trip recorded, a gframe Index returned; with gframe data as
    input they are a recorded trip."""
    with gframe.option_context(fallback="raise"):
        idx = gframe.date_range("2020-01-01", periods=3, freq="D")
        assert isinstance(idx, gframe.Index)
        pandas.testing.assert_index_equal(idx.to_pandas(), pandas.date_range("2020-01-01", periods=3, freq="D"))
        pandas.testing.assert_index_equal(gframe.period_range("2020", periods=2, freq="M").to_pandas(),
                                          pandas.period_range("2020", periods=2, freq="M"))
        pandas.testing.assert_extension_array_equal(gframe.array([1, None], dtype="Int64"),
                                                    pandas.array([1, None], dtype="Int64"))
        with pytest.raises(gframe.FallbackError):
            gframe.array(gframe.Series([1, 2]))
    for name in namespace.CONSTRUCTORS:
        assert name not in namespace.VIA_PANDAS
