"""The .str accessor, with None values."""
import pytest

from gframe.testing import assert_matches_pandas

VALUES = ["Apple pie", None, "banana", "  Cherry  ", "apple", "", "grape-fruit.x", "APPLE"]


def s(pd):
    return pd.Series(VALUES, name="s")


@pytest.mark.parametrize(
    "pat,kwargs",
    [
        ("apple", {}),
        ("apple", {"case": False}),
        ("^a", {}),
        ("an+a", {}),
        (".", {"regex": False}),
        (".", {"regex": True}),
        ("PLE", {"case": False, "regex": False}),
        ("e$", {}),
    ],
)
def test_contains(pat, kwargs):
    assert_matches_pandas(lambda pd: s(pd).str.contains(pat, **kwargs))


def test_contains_na_false():
    assert_matches_pandas(lambda pd: s(pd).str.contains("a", na=False))


def test_contains_filter():
    assert_matches_pandas(
        lambda pd: (lambda df: df[df.s.str.contains("an", na=False)])(pd.DataFrame({"s": VALUES, "i": range(8)}))
    )


@pytest.mark.parametrize("pat", ["a", "Apple", "", ("b", "g")])
def test_startswith(pat):
    assert_matches_pandas(lambda pd: s(pd).str.startswith(pat))


@pytest.mark.parametrize("pat", ["e", "x", ""])
def test_endswith(pat):
    assert_matches_pandas(lambda pd: s(pd).str.endswith(pat))


@pytest.mark.parametrize("method", ["len", "lower", "upper", "strip", "lstrip", "rstrip", "title", "isdigit", "isalpha"])
def test_unary_methods(method):
    assert_matches_pandas(lambda pd: getattr(s(pd).str, method)())


def test_strip_chars():
    assert_matches_pandas(lambda pd: s(pd).str.strip(" ax"))


@pytest.mark.parametrize("start,stop", [(0, 3), (1, None), (None, -1), (-3, None), (10, 20)])
def test_slice(start, stop):
    assert_matches_pandas(lambda pd: s(pd).str.slice(start, stop))


def test_slice_getitem():
    assert_matches_pandas(lambda pd: s(pd).str[:2])


def test_get_char():
    assert_matches_pandas(lambda pd: s(pd).str.get(0))


@pytest.mark.parametrize(
    "pat,repl,regex",
    [
        ("a", "A", False),
        (".", "!", False),
        (".", "!", True),
        ("[aeiou]", "", True),
        (r"(\w+)-(\w+)", r"\2-\1", True),
        ("apple", "pear", False),
    ],
)
def test_replace(pat, repl, regex):
    assert_matches_pandas(lambda pd: s(pd).str.replace(pat, repl, regex=regex))


def test_replace_case_insensitive():
    assert_matches_pandas(lambda pd: s(pd).str.replace("apple", "X", case=False, regex=True))


SPLIT_VALUES = ["a,b,c", None, "d", "e,,f", "", "g,h"]


@pytest.mark.parametrize("i", [0, 1, 2, -1])
def test_split_get(i):
    assert_matches_pandas(lambda pd: pd.Series(SPLIT_VALUES).str.split(",").str.get(i))


@pytest.mark.parametrize("i", [0, 1, -1])
def test_split_getitem(i):
    assert_matches_pandas(lambda pd: pd.Series(SPLIT_VALUES).str.split(",").str[i])


def test_split_whitespace_default():
    assert_matches_pandas(lambda pd: pd.Series(["a b", None, " c  d "]).str.split().str.get(0))


def test_split_n():
    assert_matches_pandas(lambda pd: pd.Series(SPLIT_VALUES).str.split(",", n=1).str.get(1))


def test_split_expand():
    assert_matches_pandas(lambda pd: pd.Series(SPLIT_VALUES).str.split(",", expand=True))


def test_str_cat_with_column():
    assert_matches_pandas(
        lambda pd: (lambda df: df.a.str.cat(df.b, sep="-"))(pd.DataFrame({"a": ["x", None, "z"], "b": ["1", "2", None]}))
    )


def test_str_on_frame_column_assign():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"s": VALUES}).assign(u=lambda d: d.s.str.upper(), n=lambda d: d.s.str.len())
    )


def test_str_all_none():
    assert_matches_pandas(lambda pd: pd.Series([None, None], dtype="str").str.upper())


def test_str_empty():
    assert_matches_pandas(lambda pd: pd.Series([], dtype="str").str.contains("a"))


def test_str_pad_zfill():
    assert_matches_pandas(lambda pd: pd.Series(["7", None, "123"]).str.zfill(4))
    assert_matches_pandas(lambda pd: pd.Series(["7", None, "123"]).str.pad(5, side="left", fillchar="*"))


def test_str_count_find():
    assert_matches_pandas(lambda pd: s(pd).str.count("a"))
    assert_matches_pandas(lambda pd: s(pd).str.find("p"))


def test_str_extract():
    assert_matches_pandas(lambda pd: s(pd).str.extract(r"([a-z]+)", expand=False))
