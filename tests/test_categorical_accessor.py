"""``.cat``, ``.str`` on a categorical, ``isin`` and ``value_counts`` on categoricals, against pandas
(issue 9 class 5: unobserved categories, category order, the accessor)."""
from __future__ import annotations

import pandas
import pytest

import gframe as gf


def _series() -> dict[str, pandas.Series]:
    return {
        "unordered": pandas.Series(["b", "a", None, "b"], dtype=pandas.CategoricalDtype(["c", "b", "a"]), name="x"),
        "ordered": pandas.Series(["b", "a", "a"], dtype=pandas.CategoricalDtype(["b", "a", "z"], ordered=True), name="y"),
        "numeric": pandas.Series([3, 1, None, 3], dtype="category", name="n"),
        "empty": pandas.Series([], dtype=pandas.CategoricalDtype(["q", "p"])),
    }


EXPRESSIONS = [
    "s.cat.codes", "s.cat.categories", "s.cat.ordered", "s.cat.remove_unused_categories()",
    "s.cat.as_ordered()", "s.cat.as_unordered()", "s.cat.add_categories([99])",
    "s.cat.set_categories(list(s.cat.categories)[:1])", "s.cat.rename_categories(lambda c: str(c) * 2)",
    "s.isin([])", "s.value_counts()", "s.value_counts(sort=False)", "s.value_counts(dropna=False)",
    "s.value_counts(normalize=True)", "s.value_counts(ascending=True)",
]
STRINGS = ["s.str.upper()", "s.str.len()", "s.str.isupper()", "s.str.contains('a')", "s.str.startswith('b')",
           "s.str.replace('a', 'z')", "s.str.slice(0, 1)", "s.isin(['a', 'zz'])", "s.isin(['a', None])"]


def _check(expr: str, ps: pandas.Series) -> None:
    def run(s: object) -> object:
        out = eval(expr, {"s": s})
        return out.to_pandas() if hasattr(out, "to_pandas") else out

    want = run(ps)
    got = run(gf.Series(ps))
    if isinstance(want, pandas.Series):
        pandas.testing.assert_series_equal(got, want)
    elif isinstance(want, pandas.Index):
        pandas.testing.assert_index_equal(got, want)
    else:
        assert got == want and type(got) is type(want)


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("name", ["unordered", "ordered", "numeric", "empty"])
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_cat_accessor_and_counts(name: str, expr: str) -> None:
    _check(expr, _series()[name])


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.parametrize("name", ["unordered", "ordered", "empty"])
@pytest.mark.parametrize("expr", STRINGS)
def test_str_and_isin_on_categorical(name: str, expr: str) -> None:
    _check(expr, _series()[name])


def test_cat_accessor_refused_on_non_categorical() -> None:
    with pytest.raises(AttributeError):
        pandas.Series([1, 2]).cat  # noqa: B018
    with pytest.raises(AttributeError):
        gf.Series(pandas.Series([1, 2])).cat  # noqa: B018


def test_cat_codes_in_a_frame_pipeline() -> None:
    pdf = pandas.DataFrame({"c": pandas.Series(["b", "a", "b"], dtype=pandas.CategoricalDtype(["b", "a"], ordered=True)),
                            "v": [1, 2, 3]})
    gdf = gf.DataFrame(pdf)
    want = pdf.assign(n=pdf["c"].cat.codes)[lambda d: d.n > 0]
    got = gdf.assign(n=gdf["c"].cat.codes)
    got = got[got.n > 0].to_pandas()
    pandas.testing.assert_frame_equal(got, want)


def test_isin_categorical_is_native() -> None:
    ps = _series()["unordered"]
    gf.fallback_report(clear=True)
    out = gf.Series(ps).isin(["a"])
    pandas.testing.assert_series_equal(out.to_pandas(), ps.isin(["a"]))
    assert not [e for e in gf.fallback_report() if "isin" in e.api]  # no trip to pandas (GPU handoffs aside)
