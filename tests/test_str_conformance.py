"""``.str`` as pandas' (issue 10, ``pandas/tests/strings``): the accessor's type and validation, the
dtypes of its results over object and categorical columns. Each case is checked against pandas."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pandas.testing as tm
import pytest
from pandas.core.strings.accessor import StringMethods

import gframe as gf


def _same(got, expected) -> None:
    if isinstance(expected, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), expected)
    elif isinstance(expected, pd.Series):
        tm.assert_series_equal(got.to_pandas(), expected)
    else:
        tm.assert_index_equal(got.to_pandas(), expected)


# ---------------------------------------------------------------- a categorical's dtype holds its categories

@pytest.mark.parametrize("dtype", [object, "str", "string"])
def test_categorical_series_dtype_has_categories(dtype):
    data = ["b b", "a a", "b b", None]
    ps = pd.Series(data, dtype=dtype).astype("category")
    gs = gf.Series(data, dtype=dtype).astype("category")
    assert gs.dtype == ps.dtype
    tm.assert_index_equal(gs.dtype.categories, ps.dtype.categories)
    # categories as objects (pandas' test_api_for_categorical): the dtype round-trips
    pobj = ps.astype(pd.CategoricalDtype(ps.dtype.categories.astype("object")))
    gobj = gs.astype(gf.CategoricalDtype(gs.dtype.categories.astype("object")))
    assert gobj.dtype == pobj.dtype
    _same(gobj, pobj)


def test_categorical_frame_dtypes_have_categories():
    pdf = pd.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 3]}).astype({"a": "category"})
    gdf = gf.DataFrame({"a": ["x", "y", "x"], "b": [1, 2, 3]}).astype({"a": "category"})
    tm.assert_series_equal(gdf.dtypes, pdf.dtypes)
    tm.assert_index_equal(gdf.dtypes["a"].categories, pdf.dtypes["a"].categories)


# ---------------------------------------------------------------- the accessor's type

@pytest.mark.parametrize("dtype", [object, "str", "string", "category"])
def test_str_accessor_is_pandas_string_methods(dtype):
    gs = gf.Series(["a", "b", None], dtype=dtype)
    assert isinstance(gs.str, StringMethods)
    assert isinstance(gf.Index(["a", "b"]).str, StringMethods)


def test_str_accessor_takes_no_new_attributes():
    acc = gf.Series(["a", "b"]).str
    with pytest.raises(AttributeError, match="You cannot add any new attribute 'xlabel'"):
        acc.xlabel = "a"
    with pytest.raises(AttributeError, match="You cannot add any new attribute 'xlabel'"):
        pd.Series(["a", "b"]).str.xlabel = "a"


# ---------------------------------------------------------------- validation by the values

@pytest.mark.parametrize("values", [[1.5, np.nan], [1, 2], [True, False]])
@pytest.mark.parametrize("dtype", [object, "category"])
def test_str_accessor_refuses_non_string_values(values, dtype):
    ps = pd.Series(values, dtype=dtype)
    with pytest.raises(AttributeError) as expected:
        ps.str
    gs = gf.Series(values, dtype=dtype)
    with pytest.raises(AttributeError, match="Can only use .str accessor with string values") as got:
        gs.str
    assert str(got.value) == str(expected.value)
    assert not hasattr(gs, "str")


@pytest.mark.parametrize("values,dtype", [
    *[(v, d) for v in ([b"a", b"b", np.nan], [np.nan, np.nan]) for d in (object, "category")],
    (["a", 1, np.nan], object), (["a", 1, np.nan], "category"), (["a", 1.5, np.nan], "category")])
def test_str_accessor_of_objects_and_other_categoricals(values, dtype):
    """bytes, no values at all and mixes are pandas' allowed kinds: the methods answer as pandas'."""
    ps = pd.Series(np.array(values, dtype=object), dtype=dtype)
    gs = gf.Series(np.array(values, dtype=object), dtype=dtype)
    _same(gs.str.len(), ps.str.len())
    _same(gs.str.get(0), ps.str.get(0))
    if dtype == "category":
        tm.assert_index_equal(gs.dtype.categories, ps.dtype.categories)


# ---------------------------------------------------------------- object columns keep object

@pytest.mark.parametrize("missing", [np.nan, pd.NA, None])
@pytest.mark.parametrize("method,args", [("upper", ()), ("strip", ()), ("get", (0,)), ("slice", (0, 1)),
                                         ("replace", ("a", "b")), ("title", ())])
def test_object_string_results_stay_object(method, args, missing):
    data = ["a b", " ab", missing] if missing is not None else ["a b", " ab"]
    ps = pd.Series(data, dtype=object)
    gs = gf.Series(data, dtype=object)
    expected = getattr(ps.str, method)(*args)
    got = getattr(gs.str, method)(*args)
    assert got.dtype == expected.dtype == object
    _same(got, expected)


@pytest.mark.parametrize("missing", [np.nan, pd.NA])
@pytest.mark.parametrize("method,args", [("contains", ("a",)), ("startswith", ("a",)), ("endswith", ("b",)),
                                         ("isalpha", ()), ("isdigit", ())])
def test_object_predicates_keep_missing(method, args, missing):
    ps = pd.Series(["ab", "1", missing], dtype=object)
    gs = gf.Series(["ab", "1", missing], dtype=object)
    _same(getattr(gs.str, method)(*args), getattr(ps.str, method)(*args))


def test_categorical_str_matches_object_str():
    """pandas' test_api_for_categorical: a categorical's ``.str`` answers as its values' object column."""
    data = ["a a", "a a", "b b", "b b"]
    gc = gf.Series(data).astype("category")
    gc = gc.astype(gf.CategoricalDtype(gc.dtype.categories.astype("object")))
    gobj = gf.Series(data).astype("object")
    pobj = pd.Series(data).astype("object")
    for method, args in [("upper", ()), ("contains", ("a",)), ("len", ()), ("replace", ("a", "c"))]:
        _same(getattr(gc.str, method)(*args), getattr(pobj.str, method)(*args))
        _same(getattr(gobj.str, method)(*args), getattr(pobj.str, method)(*args))


# ---------------------------------------------------------------- regexes mean what Python's ``re`` means

_WS_DATA = ["a\x0bb", "a\x1cb", "a\x1fb", "a b", "a,b", "a1b", "a]b", "a^b", "a[b", "a&b", r"a\sb", "ab", "\x0b", "x", ""]


@pytest.mark.parametrize("dtype", [object, "str", "string"])
@pytest.mark.parametrize("pat", [r"\s", r"\S", r"a\s+b", r"[\s,]", r"[^\s]", r"[\S\d]", r"[^\S,]", r"[]\s]",
                                 r"[^]\S]", r"\\s", r"[[]", r"[a&&b]", r"[~]"])
def test_regex_whitespace_and_classes_as_python(pat, dtype):
    ps = pd.Series(_WS_DATA, dtype=dtype)
    gs = gf.Series(_WS_DATA, dtype=dtype)
    warns = "&&" in pat or pat == "[[]"  # Python's "Possible nested set": the user sees it on both
    for method, args in [("contains", ()), ("replace", ("_",))]:
        re.purge()  # (Python warns where it compiles: not from its cache)
        with pytest.warns(FutureWarning) if warns else _nothing():
            expected = getattr(ps.str, method)(pat, *args, regex=True)
        re.purge()
        with pytest.warns(FutureWarning) if warns else _nothing():
            got = getattr(gs.str, method)(pat, *args, regex=True)
        _same(got, expected)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("dtype", ["str", "string"])
def test_regex_end_of_string_before_final_newline(dtype):
    data = ["ab", "ab\n", "ab\nc", "a"]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    _same(gs.str.contains("b$"), ps.str.contains("b$"))
    _same(gs.str.replace("b$", "X", regex=True), ps.str.replace("b$", "X", regex=True))


@pytest.mark.parametrize("dtype", ["str", "string"])
def test_regex_named_character(dtype):
    data = ["\u20ac1", "1", None]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    _same(gs.str.contains(r"\N{EURO SIGN}"), ps.str.contains(r"\N{EURO SIGN}"))


@pytest.mark.parametrize("dtype", [object, "str", "string"])
@pytest.mark.parametrize("repl", [r"\g<20>", r"\20", r"\4", r"\g<four>"])
def test_replace_reference_to_missing_group_is_pandas(repl, dtype):
    data = ["One Two Three", "Foo Bar Baz"]
    pat = r"(?P<one>\w+) (?P<two>\w+) (?P<three>\w+)"
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    try:
        expected = ps.str.replace(pat, repl, regex=True)
    except Exception as exc:  # pandas raises (re.error, or pyarrow's ArrowInvalid): the same here
        with pytest.raises(type(exc)):
            gs.str.replace(pat, repl, regex=True)
    else:
        _same(gs.str.replace(pat, repl, regex=True), expected)


def test_replace_existing_group_references_native():
    data = ["One Two Three", "Foo Bar Baz"]
    pat = r"(?P<one>\w+) (?P<two>\w+) (?P<three>\w+)"
    ps, gs = pd.Series(data), gf.Series(data)
    for repl in [r"\g<three> \g<two> \g<one>", r"\3 \2 \1", r"\g<2>0"]:
        with gf.option_context("gframe.fallback", "raise"):
            got = gs.str.replace(pat, repl, regex=True)
        _same(got, ps.str.replace(pat, repl, regex=True))


# ---------------------------------------------------------------- split: a Series of lists, as pandas'

def test_split_result_is_the_series_of_lists():
    data = ["a b", "c d e", None]
    ps, gs = pd.Series(data), gf.Series(data)
    expected, got = ps.str.split(), gs.str.split()
    assert isinstance(got, gf.Series)
    _same(got, expected)
    assert got[1] == expected[1] == ["c", "d", "e"]  # a label lookup, not the parts' column
    assert len(got) == len(expected)
    assert got.get(0) == expected.get(0)
    _same(got == got, expected == expected)
    _same(got.str.join("-"), expected.str.join("-"))
    _same(got.str.len(), expected.str.len())
    with gf.option_context("gframe.fallback", "raise"):  # one part: native
        first, last = got.str[0], got.str.get(-1)
    _same(first, expected.str[0])
    _same(last, expected.str.get(-1))
    _same(gf.concat([got, got]), pd.concat([expected, expected]))


# ---------------------------------------------------------------- match / fullmatch: native, anchored

@pytest.mark.parametrize("dtype", ["str", "string", "string[pyarrow]"])
@pytest.mark.parametrize("method,args,kwargs", [
    ("match", ("ab",), {}), ("fullmatch", ("ab",), {}), ("fullmatch", ("(ab)+",), {}), ("match", ("a|b",), {}),
    ("match", ("ab",), {"case": False}), ("fullmatch", ("ab",), {"na": True}), ("match", ("(?i)ab",), {}),
    ("fullmatch", (r"a\sb",), {})])
def test_match_fullmatch_native(method, args, kwargs, dtype):
    data = ["ab", "ab\n", "xab", "AB", None, "abab", "b", "a\x1cb"]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    with gf.option_context("gframe.fallback", "raise"):
        got = getattr(gs.str, method)(*args, **kwargs)
    _same(got, getattr(ps.str, method)(*args, **kwargs))


@pytest.mark.parametrize("kwargs", [{"flags": re.IGNORECASE, "case": True}, {"flags": re.MULTILINE, "case": False},
                                    {"flags": re.IGNORECASE}])
def test_match_flags_and_case_as_pandas(kwargs):
    data = ["AB", "cd"]
    ps, gs = pd.Series(data), gf.Series(data)
    try:
        expected = ps.str.match("^ab", **kwargs)
    except ValueError as exc:
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            gs.str.match("^ab", **kwargs)
    else:
        _same(gs.str.match("^ab", **kwargs), expected)
    compiled = re.compile("ab", re.IGNORECASE)
    with pytest.raises(ValueError, match="conflicting case-sensitivity"):
        ps.str.match(compiled, case=True)
    with pytest.raises(ValueError, match="conflicting case-sensitivity"):
        gs.str.match(compiled, case=True)


def test_proxy_of_a_series_gframe_cannot_hold_stays_a_proxy():
    """A pandas Series gframe cannot hold (Sparse) comes back as a proxy that does not claim to be
    ``pd.Series`` (gframe would try to convert it): pandas' concat of it gives pandas' answer."""
    got = gf.concat([gf.Series([], dtype="float64").astype("Sparse"), gf.Series([], dtype="float64").astype("Sparse")])
    expected = pd.concat([pd.Series([], dtype="float64").astype("Sparse")] * 2)
    assert got.dtype == expected.dtype == "Sparse[float64]"


def test_split_result_takes_assignment():
    data = ["a b", None, "c"]
    ps, gs = pd.Series(data).str.split(), gf.Series(data).str.split()
    ps[ps.isna()] = "x"
    gs[gs.isna()] = "x"
    _same(gs, ps)


# ---------------------------------------------------------------- categoricals of categories of several kinds

def test_categorical_of_mixed_categories_is_held_exactly():
    """Categories Arrow cannot type (``["a", 1]``): the column is held as its objects with the
    categorical's dtype, every category and their order kept (unused ones too)."""
    dtype = pd.CategoricalDtype(["z", 3, "a", 1], ordered=True)
    ps = pd.Series(["a", 1, None, "a"], dtype=dtype, index=[5, 6, 7, 8])
    gs = gf.Series(["a", 1, None, "a"], dtype=dtype, index=[5, 6, 7, 8])
    assert gs.dtype == ps.dtype
    _same(gs, ps)
    _same(gs.iloc[[3, 0]], ps.iloc[[3, 0]])
    _same(gs.sort_index(ascending=False), ps.sort_index(ascending=False))
    tm.assert_index_equal(gs.cat.categories.to_pandas(), ps.cat.categories)
    _same(gs.cat.codes, ps.cat.codes)
    _same(gs.str.upper(), ps.str.upper())
    pdf = pd.DataFrame({"c": ps, "v": [1, 2, 3, 4]})
    gdf = gf.DataFrame({"c": gs, "v": [1, 2, 3, 4]})
    _same(gdf[gdf.v > 1], pdf[pdf.v > 1])


# ---------------------------------------------------------------- str.extract, native

_EXTRACT_DTYPES = ["str", "string[pyarrow]", "string[python]", pd.StringDtype("python", na_value=np.nan), "category"]


@pytest.mark.parametrize("dtype", _EXTRACT_DTYPES, ids=str)
@pytest.mark.parametrize("pat,kwargs", [
    (r"([a-z])(\d)?", {}),                      # an optional group that takes no part: missing
    (r"(?P<letter>[a-z])(\d)?", {}),            # named and numbered labels together
    (r"([a-z])\d", {"expand": False}),         # one group, expand=False: a Series named as the column
    (r"(?P<q>[a-z])\d", {"expand": False}),    # ... named by the group
    (r"([a-z])(\d)", {"expand": False}),       # two groups: a frame all the same
    (r"([a-z])", {"flags": re.IGNORECASE}),
    (r"(\w+)\s(\d)", {}),                       # \s as Python's whitespace
])
def test_extract_native_as_pandas(dtype, pat, kwargs):
    data = ["a1", "b2", None, "c", "A3", "xy 7"]
    ps = pd.Series(data, name="x", index=[3, 4, 5, 6, 7, 8], dtype=dtype)
    gs = gf.Series(data, name="x", index=[3, 4, 5, 6, 7, 8], dtype=dtype)
    expected = ps.str.extract(pat, **kwargs)
    with gf.option_context("fallback", "raise"):
        got = gs.str.extract(pat, **kwargs)
    _same(got, expected)
    got = got.to_pandas()
    assert repr(getattr(got, "dtypes", None) if isinstance(got, pd.DataFrame) else got.dtype) == \
        repr(getattr(expected, "dtypes", None) if isinstance(expected, pd.DataFrame) else expected.dtype)


@pytest.mark.parametrize("pat,kwargs", [(r"[a-z]", {}), (r"(a)", {"expand": "yes"}), (r"(", {})])
def test_extract_errors_as_pandas(pat, kwargs):
    ps = pd.Series(["a1"])
    gs = gf.Series(["a1"])
    with pytest.raises(Exception) as expected:
        ps.str.extract(pat, **kwargs)
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        gs.str.extract(pat, **kwargs)


def test_extract_of_objects_and_lookarounds_is_pandas():
    # object columns keep each missing value as it was, lookarounds are Python's: pandas' answers
    ps = pd.Series(["a1", None, np.nan], dtype=object)
    gs = gf.Series(["a1", None, np.nan], dtype=object)
    _same(gs.str.extract(r"([a-z])", expand=False), ps.str.extract(r"([a-z])", expand=False))
    _same(gf.Series(["a1", "b"]).str.extract(r"([a-z])(?=\d)"), pd.Series(["a1", "b"]).str.extract(r"([a-z])(?=\d)"))


# ---------------------------------------------------------------- a string times an int repeats it

@pytest.mark.parametrize("dtype", [*_EXTRACT_DTYPES[:4], object], ids=str)
@pytest.mark.parametrize("op", [lambda s: s * 2, lambda s: 3 * s, lambda s: s * 0, lambda s: s * -1,
                                lambda s: s * np.int64(2), lambda s: s.to_frame() * 2])
def test_string_times_int_repeats(dtype, op):
    data = ["ab", None, "c", ""]
    _same(op(gf.Series(data, dtype=dtype)), op(pd.Series(data, dtype=dtype)))


@pytest.mark.parametrize("dtype", _EXTRACT_DTYPES[:4], ids=str)
def test_string_times_int_column_and_refusals(dtype):
    ps, gs = pd.Series(["ab", None, "c"], dtype=dtype), gf.Series(["ab", None, "c"], dtype=dtype)
    _same(gs * gf.Series([1, 2, 3]), ps * pd.Series([1, 2, 3]))
    _same(gf.Series([2, 0, 1]) * gs, pd.Series([2, 0, 1]) * ps)
    for bad in (2.5, True):  # pandas refuses floats and bools
        with pytest.raises(TypeError):
            ps * bad
        with pytest.raises(TypeError):
            gs * bad


# ---------------------------------------------------------------- regex flags, na, count and replace natively

_FLAG_DATA = ["abcab", "ABC", "a\nbc", None, "xab", "ab\nc", ""]


@pytest.mark.parametrize("dtype", _EXTRACT_DTYPES[:4], ids=str)
@pytest.mark.parametrize("method", ["match", "fullmatch", "contains"])
@pytest.mark.parametrize("pat", ["abc", "a.c", "^bc", "ab.*"])
@pytest.mark.parametrize("kwargs", [{"flags": re.I}, {"flags": re.M}, {"flags": re.S}, {"flags": re.M | re.S | re.I},
                                    {"case": False, "flags": re.S}, {"na": None}, {"na": np.nan}, {"na": pd.NA}])
def test_predicates_with_flags_and_missing_na_native(dtype, method, pat, kwargs):
    """MULTILINE / DOTALL as a scoped inline group, IGNORECASE as ``case``; a missing ``na`` is the
    string dtypes' default (NA kept for ``string``, False for ``str``)."""
    ps, gs = pd.Series(_FLAG_DATA, dtype=dtype), gf.Series(_FLAG_DATA, dtype=dtype)
    expected = getattr(ps.str, method)(pat, **kwargs)
    with gf.option_context("fallback", "raise"):
        got = getattr(gs.str, method)(pat, **kwargs)
    _same(got, expected)


def test_match_case_and_flags_conflict_as_pandas():
    ps, gs = pd.Series(["a"]), gf.Series(["a"])
    with pytest.raises(ValueError) as expected:
        ps.str.match("a", case=True, flags=re.I)
    with pytest.raises(ValueError, match=re.escape(str(expected.value))):
        gs.str.match("a", case=True, flags=re.I)
    _same(gs.str.fullmatch("A", case=True, flags=re.I), ps.str.fullmatch("A", case=True, flags=re.I))


@pytest.mark.parametrize("dtype", _EXTRACT_DTYPES, ids=str)
@pytest.mark.parametrize("pat", ["abc", "a.c", "^bc", "b", "[a-c]+", r"\s", r"\w", "(a|b)"])
@pytest.mark.parametrize("flags", [0, re.I, re.M, re.S])
def test_count_native(dtype, pat, flags):
    data = [*_FLAG_DATA, "ééa"]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    expected = ps.str.count(pat, flags=flags)
    with gf.option_context("fallback", "raise"):
        got = gs.str.count(pat, flags=flags)
    _same(got, expected)


@pytest.mark.parametrize("pat", ["", "x*", r"\b", "a?"])
def test_count_of_patterns_matching_empty_is_pandas(pat):
    # Python's findall counts an empty match right after a match; the engines' regex does not
    data = ["xab", "", None, "aa"]
    _same(gf.Series(data).str.count(pat), pd.Series(data).str.count(pat))


@pytest.mark.parametrize("dtype", [*_EXTRACT_DTYPES, object], ids=str)
@pytest.mark.parametrize("args,kwargs", [
    (("A", "Z"), {"flags": re.I, "regex": True}), (("^b", "Z"), {"flags": re.M, "regex": True}),
    (("a.b", "Z"), {"flags": re.S, "regex": True}), (({"a": "b", "b": "c"},), {}),
    (("(a)", r"<\1>"), {"regex": True, "flags": re.I})])
def test_replace_flags_and_dict(dtype, args, kwargs):
    data = ["abcab", "ABC", "a\nbc", "xab"]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    _same(gs.str.replace(*args, **kwargs), ps.str.replace(*args, **kwargs))
    if dtype != object:
        with gf.option_context("fallback", "raise"):
            gs.str.replace(*args, **kwargs)


@pytest.mark.parametrize("args", [("a", None), ("a", 3), ("a", {"a": "b"}), ({"a": "b"}, "x")])
def test_replace_refusals_as_pandas(args):
    ps, gs = pd.Series(["a", None], dtype="string"), gf.Series(["a", None], dtype="string")
    with pytest.raises(Exception) as expected:
        ps.str.replace(*args)
    with gf.option_context("fallback", "raise"):
        with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
            gs.str.replace(*args)


# ---------------------------------------------------------------- zfill, pad, affixes, repeat natively

@pytest.mark.parametrize("dtype", _EXTRACT_DTYPES, ids=str)
@pytest.mark.parametrize("method,args,kwargs", [
    ("zfill", (4,), {}), ("zfill", (-2,), {}), ("pad", (4,), {}), ("pad", (4,), {"side": "right", "fillchar": "*"}),
    ("rjust", (3, "x"), {}), ("ljust", (3,), {}), ("removeprefix", ("-",), {}), ("removesuffix", ("b",), {}),
    ("repeat", (2,), {}), ("repeat", (0,), {})])
def test_padding_affixes_repeat_native(dtype, method, args, kwargs):
    data = ["-1", "+1", "ab", None, "ééé", "", "--1", "-"]
    ps, gs = pd.Series(data, dtype=dtype), gf.Series(data, dtype=dtype)
    expected = getattr(ps.str, method)(*args, **kwargs)
    native = not (method == "repeat" and dtype == "category")  # (a categorical's repeat is pandas')
    with gf.option_context("fallback", "raise" if native else "silent"):
        got = getattr(gs.str, method)(*args, **kwargs)
    _same(got, expected)
    assert repr(got.to_pandas().dtype) == repr(expected.dtype)


@pytest.mark.parametrize("method,args,kwargs", [("zfill", (4.0,), {}), ("pad", (4,), {"fillchar": "ab"}),
                                                ("pad", (4,), {"side": "middle"})])
def test_padding_refusals_are_pandas(method, args, kwargs):
    ps, gs = pd.Series(["a"]), gf.Series(["a"])
    with pytest.raises(Exception) as expected:
        getattr(ps.str, method)(*args, **kwargs)
    with pytest.raises(type(expected.value), match=re.escape(str(expected.value))):
        getattr(gs.str, method)(*args, **kwargs)


@pytest.mark.parametrize("data", [["abc", None, "xab"], ["abc", np.nan], ["a", pd.NA]])
@pytest.mark.parametrize("method,args,na", [("contains", ("a",), False), ("match", ("a",), True),
                                            ("fullmatch", ("abc",), False), ("startswith", ("a",), True),
                                            ("endswith", (("c", "b"),), False)])
def test_object_predicates_with_a_bool_na_native(data, method, args, na):
    """A bool ``na`` fills every missing value: a bool result, native for strings in an object column
    (with the default pandas keeps each missing value as it was: pandas')."""
    ps, gs = pd.Series(data, dtype=object), gf.Series(data, dtype=object)
    with gf.option_context("fallback", "raise"):
        got = getattr(gs.str, method)(*args, na=na)
    _same(got, getattr(ps.str, method)(*args, na=na))
    _same(getattr(gs.str, method)(*args), getattr(ps.str, method)(*args))


# ---------------------------------------------------------------- character classes as pandas' strings compute them

_CLASS_DATA = ["A", "3", "³", "¼", "★", "፸", "３", "four", None, "", " \x1c", "ǅ", "aB", "ab", "ª"]


@pytest.mark.parametrize("dtype", [*_EXTRACT_DTYPES, object], ids=str)
@pytest.mark.parametrize("method", ["isdigit", "isalpha", "isalnum", "isspace", "islower", "isupper"])
def test_character_classes_as_pandas(dtype, method):
    """pyarrow's Unicode classes for pyarrow-backed strings (native); Python's for Python storage,
    categoricals and objects (pandas'): they differ for hundreds of characters (``³``, ``¼``, ``ª``)."""
    ps, gs = pd.Series(_CLASS_DATA, dtype=dtype), gf.Series(_CLASS_DATA, dtype=dtype)
    _same(getattr(gs.str, method)(), getattr(ps.str, method)())
    if isinstance(dtype, str) and dtype in ("str", "string[pyarrow]"):  # (a StringDtype equals "str" whatever its storage)
        with gf.option_context("fallback", "raise"):
            getattr(gs.str, method)()


def test_contains_with_match_groups_warns_as_pandas():
    with pytest.warns(UserWarning, match="has match groups") as record:
        gf.Series(["ab"], dtype="str").str.contains("(a)b")
    assert record[0].filename == __file__
