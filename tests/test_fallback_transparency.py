"""The fallback is transparent: when pandas runs a call, the answer is pandas' answer.

The bridge (``gframe/frontend/bridge.py``) hands pandas the arguments as given, wraps pandas'
results so that converting them back gives pandas' object exactly (dtypes, labels, index, names),
applies pandas' in-place idioms to the gframe object, and accepts pandas' full signature on every
native method (a call the native method does not take runs through pandas, recorded).
"""
from __future__ import annotations

import collections
import datetime as dt

import numpy as np
import pandas
import pytest

import gframe as gpd
from gframe.frontend.bridge import (
    NotNative,
    PandasProxy,
    as_pandas,
    from_pandas_result,
    full_signatures,
    via_pandas,
)

tm = pandas.testing


def _same(got, want) -> None:
    """``got`` (gframe or plain) is exactly ``want`` (pandas or plain)."""
    if isinstance(want, pandas.DataFrame):
        assert isinstance(got, gpd.DataFrame), type(got)
        tm.assert_frame_equal(got.to_pandas(), want, check_exact=True, check_freq=True, check_flags=True)
    elif isinstance(want, pandas.Series):
        assert isinstance(got, gpd.Series), type(got)
        tm.assert_series_equal(got.to_pandas(), want, check_exact=True, check_freq=True)
    elif isinstance(want, pandas.Index):
        assert isinstance(got, gpd.Index), type(got)
        tm.assert_index_equal(got.to_pandas(), want, exact=True, check_exact=True)
    elif isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, float) and np.isnan(want):
        assert np.isnan(got) and type(got) is type(want)
    else:
        assert type(got) is type(want) and (got is want or got == want), (got, want)


def _pandas_trips() -> list[str]:
    return [e.api for e in gpd.fallback_report() if e.kind == "pandas"]


# ------------------------------------------------------------------ shapes that must round-trip exactly

FRAMES = {
    "multiindex_columns": lambda: pandas.DataFrame(
        np.arange(6).reshape(2, 3), columns=pandas.MultiIndex.from_tuples([("a", "x"), ("a", "y"), ("b", "x")],
                                                                           names=["l0", "l1"])),
    "object_columns": lambda: pandas.DataFrame({"o": [1, "a", None], "s": ["a", "b", None],
                                               "d": [dt.date(2024, 1, 1), None, dt.date(2024, 1, 3)]}),
    "nullable": lambda: pandas.DataFrame({
        "i": pandas.array([1, None, 3], dtype="Int64"), "u": pandas.array([1, None, 3], dtype="UInt8"),
        "f": pandas.array([1.5, None, 2], dtype="Float32"), "b": pandas.array([True, None, False], dtype="boolean"),
        "st": pandas.array(["a", None, "c"], dtype="string")}),
    "categorical": lambda: pandas.DataFrame({"c": pandas.Categorical(["a", "b", "a"], categories=["b", "a", "z"],
                                                                     ordered=True),
                                            "u": pandas.Categorical([1, None, 1])}),
    "tz_aware": lambda: pandas.DataFrame({"t": pandas.date_range("2024-03-30", periods=3, tz="Europe/Paris", unit="s"),
                                         "n": pandas.date_range("2024-01-01", periods=3, unit="ms")}),
    "timedelta_narrow": lambda: pandas.DataFrame({"td": pandas.to_timedelta([1, 2, None], unit="s"),
                                                 "u8": np.array([1, 2, 3], dtype="uint8"),
                                                 "f4": np.array([1, 2, 3], dtype="float32")}),
    "multiindex_rows": lambda: pandas.DataFrame({"v": [1, 2]}, index=pandas.MultiIndex.from_tuples(
        [(1, "a"), (2, "b")], names=["k", None])),
    "datetime_index_freq": lambda: pandas.DataFrame({"a": [1, 2]}, index=pandas.date_range("2024-01-01", periods=2,
                                                                                          freq="D", name="d")),
    "int_and_named_columns": lambda: pandas.DataFrame({0: [1], 1: [2]}).rename_axis(columns="cols"),
    "duplicate_columns": lambda: pandas.DataFrame([[1, 2.0]], columns=["a", "a"]),
    "empty": lambda: pandas.DataFrame(),
    "empty_typed": lambda: pandas.DataFrame({"a": pandas.Series([], dtype="int32")}, index=pandas.Index([], name="i")),
    "arrow": lambda: pandas.DataFrame({"d": pandas.array([dt.date(2024, 1, 1), None], dtype="date32[pyarrow]"),
                                      "x": pandas.array([1, None], dtype="int64[pyarrow]"),
                                      "s": pandas.array(["a", None], dtype="large_string[pyarrow]")}),
    "sparse_period_interval": lambda: pandas.DataFrame({"s": pandas.arrays.SparseArray([0, 1]),
                                                       "p": pandas.period_range("2024", periods=2, freq="M"),
                                                       "iv": pandas.interval_range(0, 2)}),
    "string_index": lambda: pandas.DataFrame({"a": [1, 2]}, index=pandas.Index(["x", "y"], name="k")),
}

INDEXES = {
    "named": lambda: pandas.Index([1, 2], name="x"),
    "multi": lambda: pandas.MultiIndex.from_tuples([(1, "a"), (2, "b")], names=["a", "b"]),
    "tz": lambda: pandas.DatetimeIndex(["2024-01-01"], tz="UTC", name="t"),
    "categorical": lambda: pandas.CategoricalIndex(["a", "b"], categories=["b", "a", "c"]),
    "range": lambda: pandas.RangeIndex(1, 7, 2, name="r"),
    "nullable_string": lambda: pandas.Index(["a", None], dtype="string"),
    "object": lambda: pandas.Index([1, "a"], dtype=object),
}


# frames gframe cannot hold as a plan (duplicate labels) come back as host frames (``frontend/hostframe.py``):
# gframe DataFrames holding pandas' frame. Sparse, complex and bytes columns are held as pickled objects
# showing their dtype (``host_family``)
STORABLE = FRAMES


@pytest.mark.parametrize("make", STORABLE.values(), ids=STORABLE.keys())
def test_pandas_result_round_trips_exactly(make) -> None:
    pdf = make()
    _same(from_pandas_result(pdf, "test"), pdf)
    for i in range(pdf.shape[1]):
        ps = pdf.iloc[:, i]
        _same(from_pandas_result(ps, "test"), ps)
    _same(from_pandas_result((pdf, pdf.index), "test"), (pdf, pdf.index))


@pytest.mark.parametrize("make", INDEXES.values(), ids=INDEXES.keys())
def test_pandas_index_round_trips_exactly(make) -> None:
    pidx = make()
    _same(from_pandas_result(pidx, "test"), pidx)


@pytest.mark.parametrize("make", STORABLE.values(), ids=STORABLE.keys())
def test_fallback_call_answers_as_pandas(make) -> None:
    """A method gframe does not define runs through pandas, on any frame, with pandas' answer."""
    pdf = make()
    g = gpd.DataFrame(pdf)
    gpd.fallback_report(clear=True)
    _same(g.T.T if pdf.columns.is_unique else g, pdf.T.T if pdf.columns.is_unique else pdf)
    _same(g.truncate(), pdf.truncate())
    if pdf.columns.nlevels > 1:
        _same(g.swaplevel(axis=1), pdf.swaplevel(axis=1))
    _same(g.memory_usage(deep=True), pdf.memory_usage(deep=True))
    assert "DataFrame.memory_usage" in _pandas_trips()


# ------------------------------------------------------------------ results of every kind

def test_results_of_every_kind_are_pandas_answers() -> None:
    pdf = pandas.DataFrame({"a": [1.0, 2.0, 4.0], "b": pandas.array([1, None, 3], dtype="Int64"),
                            "c": pandas.Categorical(["x", "y", "x"])}, index=pandas.Index([10, 20, 30], name="k"))
    g = gpd.DataFrame(pdf)
    # columns as pandas holds them (a native column selection is the dtype layer's business, not the bridge's)
    gb, gc = gpd.Series(pdf["b"]), gpd.Series(pdf["c"])
    with gpd.option_context(fallback="silent"):
        _same(g.align(gpd.DataFrame(pdf.iloc[:2])), pdf.align(pdf.iloc[:2]))                       # a tuple of frames
        _same(g["a"].autocorr(), pdf["a"].autocorr())                             # a numpy scalar
        _same(gb.at[20], pdf["b"].at[20])                                     # pd.NA, not a proxy
        _same(gc.cat.categories, pdf["c"].cat.categories)                     # an Index
        _same(gc.cat.codes, pdf["c"].cat.codes)                               # a Series with pandas' dtype
        _same(gb.array.dtype, pdf["b"].array.dtype)
        assert isinstance(gc.array, pandas.Categorical)                       # arrays pass through
        _same(g.first_valid_index(), pdf.first_valid_index())
        _same(gpd.DataFrame(pdf[["a", "b"]]).cummax(), pdf[["a", "b"]].cummax())
        assert g.to_dict() == pdf.to_dict()
        _same(g["a"].pct_change(), pdf["a"].pct_change())
        _same(gpd.DataFrame(pdf[["a", "b"]]).rolling(2).sum(), pdf[["a", "b"]].rolling(2).sum())
        assert isinstance(g.groupby("c", observed=True).rolling(2), PandasProxy)  # (a window gframe leaves to pandas)
        _same(g["a"].index.to_series(), pdf["a"].index.to_series())


# ------------------------------------------------------------------ arguments reach pandas unchanged

def test_arguments_reach_pandas_unchanged() -> None:
    seen = {}

    def spy(*args, **kwargs):
        seen["args"], seen["kwargs"] = args, kwargs

    Point = collections.namedtuple("Point", "x y")
    mapping = collections.defaultdict(lambda: "other", {1: "one"})
    nested = [1, (2, 3), {"k": [4]}]

    def user_fn(x):
        return x

    via_pandas("spy", spy, (mapping, Point(1, 2), nested, np.sum, sum, np.sqrt, "mean"), {"f": user_fn, "m": mapping},
               "test")
    args, kwargs = seen["args"], seen["kwargs"]
    assert args[0] is mapping and args[1] == Point(1, 2) and type(args[1]) is Point and args[2] is nested
    assert args[3] is np.sum and args[4] is sum and args[5] is np.sqrt and args[6] == "mean"
    assert kwargs["m"] is mapping
    assert kwargs["f"].__name__ == "user_fn"

    g = gpd.Series([1.0, 2.0], name="s")
    out = as_pandas([g, Point(g, 1), {"k": g}, collections.OrderedDict(a=g)])
    assert isinstance(out[0], pandas.Series) and type(out[1]) is Point and isinstance(out[1].x, pandas.Series)
    assert isinstance(out[2]["k"], pandas.Series) and type(out[3]) is collections.OrderedDict


def test_pandas_sees_function_names_and_mappings() -> None:
    pdf = pandas.DataFrame({"a": [1, 2, 3], "b": [1, 1, 2]})
    g = gpd.DataFrame(pdf)

    def spread(x):
        return x.max() - x.min()

    with gpd.option_context(fallback="silent"):
        _same(g.agg([np.sum, spread, "mean"]), pdf.agg([np.sum, spread, "mean"]))
        _same(g.groupby("b").agg([np.sum, spread]), pdf.groupby("b").agg([np.sum, spread]))
        mapping = collections.defaultdict(lambda: "missing", {1: "one"})
        _same(g["a"].map(mapping), pdf["a"].map(mapping))
        _same(g.transform(np.sqrt), pdf.transform(np.sqrt))


# ------------------------------------------------------------------ in-place idioms

def test_inplace_through_pandas() -> None:
    pdf = pandas.DataFrame({"a": [1.0, None, 3.0], "b": [1, 2, 3]})
    g = gpd.DataFrame(pdf)
    gpd.fallback_report(clear=True)
    want = pdf.copy()
    # pandas 3.1 (PDEP-8) returns the object itself from interpolate/replace/fillna... in place
    assert want.interpolate(inplace=True) is want
    assert g.interpolate(inplace=True) is g
    _same(g, want)
    assert "DataFrame.interpolate" in _pandas_trips()

    s = gpd.Series([1, 2, 3], name="v")
    ps = s.to_pandas()
    assert s.replace(2, 20, inplace=True) is s
    assert ps.replace(2, 20, inplace=True) is ps
    _same(s, ps)
    assert s.interpolate(inplace=True) is s


def test_inplace_return_and_deprecation_warnings_match_pandas() -> None:
    """pandas 3.1: fillna/clip/where/mask... in place return the object, native or not; the
    deprecated keywords (``inplace`` of sort_values/dropna..., ``copy``) warn once, at the caller's
    line, only when the caller passes them (not for the keywords a trip of gframe's own passes)."""
    import warnings

    pdf = pandas.DataFrame({"a": [3.0, None, 1.0]})
    for make in (lambda o: o["a"], lambda o: o):
        for call in (lambda o: o.fillna(0.0, inplace=True), lambda o: o.clip(0.0, 2.0, inplace=True),
                     lambda o: o.where(o > 1.0, inplace=True), lambda o: o.mask(o > 1.0, inplace=True)):
            want, got = make(pdf.copy()), make(gpd.DataFrame(pdf.copy()))
            assert (call(want) is want) and (call(got) is got)
            _same(got, want)
    s = gpd.Series([3.0, None, 1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert s.sort_values(inplace=True) is None
        s.dropna(inplace=False)
        s.astype("float32", copy=False)
        s.sort_values()
        s.dropna()
        s.astype("float32")
    got = [(w.category, str(w.message).split(" is ")[0], w.filename) for w in caught]
    assert got == [(pandas.errors.Pandas4Warning, "The inplace keyword in Series.sort_values", __file__),
                   (pandas.errors.Pandas4Warning, "The inplace keyword in Series.dropna", __file__),
                   (pandas.errors.Pandas4Warning, "The copy keyword", __file__)]
    _same(s, pandas.Series([1.0, 3.0, None], index=[2, 0, 1]))


def test_update_mutates_in_place() -> None:
    pdf = pandas.DataFrame({"a": [1.0, 2.0, 3.0]})
    other = pandas.DataFrame({"a": [10.0, None]})
    g = gpd.DataFrame(pdf)
    assert g.update(gpd.DataFrame(other)) is None
    pdf.update(other)
    _same(g, pdf)

    ps = pandas.Series([1.0, 2.0], name="s")
    s = gpd.Series(ps)
    assert s.update(gpd.Series([None, 5.0])) is None
    ps.update(pandas.Series([None, 5.0]))
    _same(s, ps)


# ------------------------------------------------------------------ full signatures

def test_unexpected_pandas_keyword_falls_back() -> None:
    pdf = pandas.DataFrame({"a": [1, 2, 3], "b": [4.0, 5.0, 6.0]}, index=pandas.Index([3, 1, 2], name="i"))
    g = gpd.DataFrame(pdf)
    gpd.fallback_report(clear=True)
    # (a Series along the index is native now; with a fill_value it is not)
    _same(g.add(g["a"], axis="index", fill_value=0), pdf.add(pdf["a"], axis="index", fill_value=0))
    _same(g.sub(1, fill_value=0), pdf.sub(1, fill_value=0))
    assert _pandas_trips()[:1] == ["DataFrame.add"]
    with gpd.option_context(fallback="raise"):
        with pytest.raises(gpd.FallbackError):
            g.add(g["a"], axis="index", fill_value=0)
        _same(g.head(2), pdf.head(2))  # the native call itself is not refused


def test_keyword_pandas_refuses_raises_as_pandas() -> None:
    pdf = pandas.DataFrame({"a": [1, 2]})
    g = gpd.DataFrame(pdf)
    with pytest.raises(TypeError) as theirs:
        pdf.head(n=1, bogus=1)
    with pytest.raises(TypeError) as mine:
        g.head(n=1, bogus=1)
    assert "unexpected keyword argument 'bogus'" in str(mine.value) and "bogus" in str(theirs.value)


def test_full_signatures_on_groupby_index_and_accessors() -> None:
    pdf = pandas.DataFrame({"k": [1, 1, 2], "v": [1.0, 2.0, 4.0], "s": ["ab", "cd", "ef"]})
    g = gpd.DataFrame(pdf)
    with gpd.option_context(fallback="silent"):
        _same(g.groupby("k")["v"].sum(min_count=2), pdf.groupby("k")["v"].sum(min_count=2))
        _same(g.groupby("k")[["v"]].mean(engine=None), pdf.groupby("k")[["v"]].mean(engine=None))
        _same(g["s"].str.upper(), pdf["s"].str.upper())
        _same(g["s"].str.startswith(("a", "c")), pdf["s"].str.startswith(("a", "c")))
        _same(g["s"].str.contains("A", case=False, flags=0, regex=True), pdf["s"].str.contains("A", case=False,
                                                                                                 flags=0, regex=True))
        mi = g.set_index(["k", "s"]).index
        pmi = pdf.set_index(["k", "s"]).index
        _same(mi.levels[1], pmi.levels[1])
        _same(mi.swaplevel(), pmi.swaplevel())
        _same(mi.droplevel(0), pmi.droplevel(0))
        ser = gpd.Series(pandas.Series(pandas.arrays.SparseArray([0, 1, 0])))
        assert ser.sparse.density == pandas.Series(pandas.arrays.SparseArray([0, 1, 0])).sparse.density


def test_not_native_value_falls_back_once_for_the_call() -> None:
    """A native method that raises ``NotNative`` for a value runs that call through the fallback."""
    calls = []

    class PandasLike:
        def scale(self, x, factor=2):
            return x * factor

    def run(obj, name, args, kwargs, why):
        calls.append((name, args, kwargs, why))
        return "pandas"

    @full_signatures(PandasLike, run)
    class Native:
        __module__ = "gframe.test"  # full_signatures wraps gframe's own methods

        def scale(self, x):
            if x < 0:
                raise NotNative("negative x")
            return "native"

    assert Native().scale(1) == "native"
    assert Native().scale(-1) == "pandas"
    assert Native().scale(1, factor=3) == "pandas"
    assert [c[3] for c in calls] == ["negative x", "keyword 'factor' not native"]
    with pytest.raises(TypeError):
        Native().scale(1, nope=3)  # neither signature takes it: Python's TypeError, as pandas


def test_pandas_classmethods_through_an_instance() -> None:
    g = gpd.DataFrame({"a": [1]})
    data = {"r1": {"x": 1, "y": 2}, "r2": {"x": 3, "y": 4}}
    with gpd.option_context(fallback="silent"):
        _same(g.from_dict(data, orient="index"), pandas.DataFrame.from_dict(data, orient="index"))


# ------------------------------------------------------------------ pandas' Arrow extension types

@pytest.mark.parametrize("values", [pandas.arrays.IntervalArray.from_breaks([0, 1, 5, 7]),
                                    pandas.period_range("2011-01", periods=3, freq="M").array])
def test_interval_and_period_columns_show_pandas_dtype(values) -> None:
    """Intervals and periods are held as pandas' Arrow extension types, which the engines only move:
    the dtype shown is pandas' (interval / period, not object), and computing on the values is pandas'."""
    p = pandas.Series(values, name="x")
    g = gpd.Series(p)
    assert g.dtype == p.dtype
    tm.assert_series_equal(gpd.DataFrame({"x": p}).dtypes, pandas.DataFrame({"x": p}).dtypes)
    got, want = g.convert_dtypes(), p.convert_dtypes()
    assert got.dtype == want.dtype
    _same(got, want)
    _same(g == g.iloc[0], p == p.iloc[0])
    _same(g.where(g != g.iloc[0]), p.where(p != p.iloc[0]))
    _same(g.iloc[[2, 0]], p.iloc[[2, 0]])


def test_interval_setitem_of_missing_raises_as_pandas() -> None:
    p = pandas.Series(pandas.arrays.IntervalArray.from_breaks([0, 1, 5]))
    g = gpd.Series(p)
    with pytest.raises(TypeError, match="Invalid value"):
        p[p.notna()] = np.nan
    with pytest.raises(TypeError, match="Invalid value"):
        g[g.notna()] = np.nan
    _same(g, p)


# ------------------------------------------------------------------ dtypes Arrow cannot hold

@pytest.mark.parametrize("values", [np.array([1 + 1j, 2, 1 + 1j, np.nan]), np.array([1 + 1j, 2, 1 + 1j], dtype="complex64"),
                                    np.array([b"a", b"bc", b"a"]), pandas.arrays.SparseArray([1, 0, 1, 0])])
def test_complex_bytes_sparse_columns_keep_their_dtype(values) -> None:
    """Complex numbers, numpy bytes and sparse values are held as the objects they are (engines move
    the rows, pandas computes on the values) and show their dtype, native or through pandas."""
    p = pandas.Series(values, name="x", index=list("abcd")[:len(values)])
    g = gpd.Series(p)
    assert g.dtype == p.dtype
    _same(g, p)
    _same(g.drop_duplicates(), p.drop_duplicates())
    _same(g.drop_duplicates(keep=False), p.drop_duplicates(keep=False))
    _same(g.iloc[[2, 0]], p.iloc[[2, 0]])
    _same(g[g.index > "a"], p[p.index > "a"])
    _same(g.isna(), p.isna())
    _same(g.sort_index(ascending=False), p.sort_index(ascending=False))
    _same(g.isin([values[1]]), p.isin([values[1]]))
    _same(g.duplicated(), p.duplicated())


def test_complex_frame_columns() -> None:
    pdf = pandas.DataFrame({"a": np.array([1 + 1j, 2, 3j]), "b": [1, 2, 3]})
    g = gpd.DataFrame(pdf)
    tm.assert_series_equal(g.dtypes, pdf.dtypes)
    _same(g[g.b > 1], pdf[pdf.b > 1])
    _same(g.sort_values("b", ascending=False), pdf.sort_values("b", ascending=False))
    _same(g["a"] * 2, pdf["a"] * 2)
    _same(g.value_counts(), pdf.value_counts())


def test_isin_takes_iterators_and_extension_arrays_and_round_builtin() -> None:
    p = pandas.Series([1, 2, 3])
    g = gpd.Series(p)
    _same(g.isin(x for x in [1, 2]), p.isin(x for x in [1, 2]))
    arr = pandas.array(pandas.date_range("2000", periods=2))
    _same(g.isin(arr), p.isin(arr))
    with pytest.raises(TypeError, match="only list-like objects"):
        g.isin(1)
    pf = pandas.DataFrame({"a": [1.234, 2.345]})
    _same(round(gpd.DataFrame(pf), 1), round(pf, 1))
    _same(round(gpd.Series(pf["a"]), 2), round(pf["a"], 2))
    _same(round(gpd.Series(pf["a"])), round(pf["a"]))


@pytest.mark.parametrize("dtype,values", [("bool", [True, False]), ("boolean", [True, None]), ("str", ["a", "b"]),
                                          ("string", ["a", None]), ("category", ["a", "b"]), ("object", [1.25, 2]),
                                          ("datetime64[ns]", [0, 1]), ("float64", [1.25, None]), ("Int64", [1, None])])
def test_series_round_of_every_dtype_as_pandas(dtype, values) -> None:
    """pandas 3.1: round of bools, strings and categories is a no-op, of objects each value's round,
    of datetimes a no-op with pandas' UserWarning."""
    import warnings

    p = pandas.Series(values, dtype=dtype)
    with warnings.catch_warnings(record=True) as want_warnings:
        warnings.simplefilter("always")
        want = p.round(1)
    with warnings.catch_warnings(record=True) as got_warnings:
        warnings.simplefilter("always")
        got = gpd.Series(p).round(1)
    _same(got, want)
    assert [w.category for w in got_warnings] == [w.category for w in want_warnings]


def test_interval_column_back_from_its_storage_type() -> None:
    """Polars 1.x (imported before gframe) hands pandas' interval columns back as their storage
    struct: the plan's extension type is restored on the way to pandas."""
    import pyarrow as pa

    from gframe.interop import arrow_to_pandas, pandas_to_table

    p = pandas.DataFrame({"x": pandas.arrays.IntervalArray.from_breaks([0, 1, 5, 7])})
    table, schema = pandas_to_table(p)
    ext = table.column(0).type
    assert isinstance(ext, pa.ExtensionType)
    storage = pa.table([pa.chunked_array([c.storage for c in table.column(0).chunks], ext.storage_type)],
                       names=table.column_names)
    tm.assert_frame_equal(arrow_to_pandas(storage, schema), p)
