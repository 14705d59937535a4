"""DataFrame.query / DataFrame.eval against pandas: ``@x`` in the caller's scope (issue 9 class 13),
backticks, ``in``/``not in``, ``not``, chained comparisons, assignments; native where the plan
expresses the expression, through pandas (with the caller's scope) otherwise."""
from __future__ import annotations

import pandas
import pytest

import gframe as gf
from gframe.fallback import fallback_report


def frames() -> tuple[pandas.DataFrame, gf.DataFrame]:
    pdf = pandas.DataFrame({"a": [1, 2, 3, 4, None], "b": [4.0, 3.0, 2.0, 1.0, 0.5],
                            "c d": ["x", "y", "x", "z", None]},
                           index=pandas.Index([10, 20, 30, 40, 50], name="idx"))
    return pdf, gf.DataFrame(pdf)


def check(got: object, want: object) -> None:
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        pandas.testing.assert_series_equal(got.to_pandas(), want)


NATIVE = [
    "a > @x",
    "a > @x and b < 3.5",
    "a > @x & b < 3.5 | a == 1",
    "`c d` in ['x', 'z']",
    "`c d` not in @names",
    "`c d` == ['x']",
    "`c d` != ['x', 'y']",
    "not (b < 2)",
    "~(b < 2)",
    "1 < a <= 3",
    "a * 2 + 1 > b",
    "b ** 2 > a - @x",
]


@pytest.mark.parametrize("expr", NATIVE)
def test_query_native(expr: str) -> None:
    pdf, gdf = frames()
    x = 1  # noqa: F841 - read by the expression through the caller's scope
    names = ["y"]  # noqa: F841
    want = pdf.query(expr)
    fallback_report(clear=True)
    got = gdf.query(expr)
    check(got, want)
    assert not fallback_report(), fallback_report()


def test_query_at_variable_in_nested_function() -> None:
    pdf, gdf = frames()

    def inner(df: object, x: int) -> object:
        return df.query("a > @x")

    check(inner(gdf, 2), inner(pdf, 2))


def test_query_level_reaches_outer_frame() -> None:
    pdf, gdf = frames()
    x = 3  # noqa: F841

    def helper(df: object) -> object:
        return df.query("a > @x", level=1)

    check(helper(gdf), helper(pdf))


def test_query_global_variable() -> None:
    pdf, gdf = frames()
    check(gdf.query("a > @GLOBAL_LIMIT"), pdf.query("a > @GLOBAL_LIMIT"))


GLOBAL_LIMIT = 2


def test_query_through_pandas_keeps_caller_scope() -> None:
    pdf, gdf = frames()
    x = 15  # noqa: F841
    expr = "index > @x and a > 1"  # the index by name is not native: through the bridge
    check(gdf.query(expr), pdf.query(expr))
    check(gdf.query("idx > @x"), pdf.query("idx > @x"))


@pytest.mark.parametrize("expr", ["a > @nope", "a > nope", "a >", ""])
def test_query_errors_match_pandas(expr: str) -> None:
    pdf, gdf = frames()
    with pytest.raises(Exception) as want:
        pdf.query(expr)
    with pytest.raises(type(want.value)):
        gdf.query(expr)


def test_eval_expressions_and_assignment() -> None:
    pdf, gdf = frames()
    x = 10  # noqa: F841
    check(gdf.eval("a * 2 + @x"), pdf.eval("a * 2 + @x"))
    check(gdf.eval("e = a + b * @x"), pdf.eval("e = a + b * @x"))
    check(gdf.eval("a = b - 1"), pdf.eval("a = b - 1"))
    check(gdf.eval("a > 1 and b < 3"), pdf.eval("a > 1 and b < 3"))
    multi = "e = a + 1\nf = e * 2"
    check(gdf.eval(multi), pdf.eval(multi))


def test_eval_inplace() -> None:
    pdf, gdf = frames()
    y = 2  # noqa: F841
    assert gdf.eval("e = a * @y", inplace=True) is None
    with pytest.warns(Warning):
        pdf.eval("e = a * @y", inplace=True)
    check(gdf, pdf)
