"""Arithmetic, comparison and logical operators."""
import operator

import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")

DATA = {
    "i": [1, -2, 3, 0, 5, 7],
    "j": [2, 3, -1, 4, 0, 2],
    "f": [1.5, NaN, -0.5, 2.0, 0.0, 4.0],
    "g": [0.5, 2.0, NaN, -2.0, 1.0, 0.0],
    "b": [True, False, True, False, True, False],
    "c": [False, False, True, True, True, False],
}

ARITH = {
    "add": operator.add,
    "sub": operator.sub,
    "mul": operator.mul,
    "truediv": operator.truediv,
    "floordiv": operator.floordiv,
    "mod": operator.mod,
}

COMPARE = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}


def frame(pd):
    return pd.DataFrame(DATA)


@pytest.mark.parametrize("op", sorted(ARITH))
@pytest.mark.parametrize("cols", [("i", "j"), ("f", "g"), ("i", "f"), ("f", "i")])
def test_series_series_arith(op, cols):
    fn, (x, y) = ARITH[op], cols
    assert_matches_pandas(lambda pd: (lambda df: fn(df[x], df[y]))(frame(pd)))


@pytest.mark.parametrize("op", sorted(ARITH))
@pytest.mark.parametrize("scalar", [3, 2.5, -1])
def test_series_scalar_arith(op, scalar):
    fn = ARITH[op]
    assert_matches_pandas(lambda pd: fn(frame(pd).i, scalar))
    assert_matches_pandas(lambda pd: fn(frame(pd).f, scalar))


@pytest.mark.parametrize("op", sorted(ARITH))
def test_scalar_series_arith(op):
    # radd, rsub, rmul, rtruediv, rfloordiv, rmod
    fn = ARITH[op]
    assert_matches_pandas(lambda pd: fn(10, frame(pd).j))
    assert_matches_pandas(lambda pd: fn(2.5, frame(pd).g))


def test_pow_int():
    assert_matches_pandas(lambda pd: frame(pd).j.abs() ** 2)


def test_pow_float():
    assert_matches_pandas(lambda pd: frame(pd).f ** 2)


def test_rpow():
    assert_matches_pandas(lambda pd: 2 ** frame(pd).f)


def test_pow_series_series():
    assert_matches_pandas(lambda pd: (lambda df: df.f ** df.g)(frame(pd)))


def test_neg():
    assert_matches_pandas(lambda pd: -frame(pd).f)
    assert_matches_pandas(lambda pd: -frame(pd).i)


@pytest.mark.parametrize("op", ["add", "mul", "sub"])
def test_bool_int_mixing(op):
    fn = ARITH[op]
    assert_matches_pandas(lambda pd: (lambda df: fn(df.b, df.i))(frame(pd)))


def test_bool_plus_bool():
    assert_matches_pandas(lambda pd: (lambda df: df.b + df.c)(frame(pd)))


def test_bool_times_float():
    assert_matches_pandas(lambda pd: (lambda df: df.b * df.f)(frame(pd)))


@pytest.mark.parametrize("op", ["truediv", "floordiv", "mod"])
def test_division_by_zero_int(op):
    fn = ARITH[op]
    assert_matches_pandas(lambda pd: fn(pd.Series([1, -1, 0, 5]), pd.Series([0, 0, 0, 2])))


@pytest.mark.parametrize("op", ["truediv", "floordiv", "mod"])
def test_division_by_zero_float(op):
    fn = ARITH[op]
    assert_matches_pandas(lambda pd: fn(pd.Series([1.0, -1.0, 0.0, NaN, 5.5]), pd.Series([0.0, 0.0, 0.0, 0.0, 2.0])))


def test_division_by_scalar_zero():
    assert_matches_pandas(lambda pd: frame(pd).i / 0)
    assert_matches_pandas(lambda pd: frame(pd).f / 0)


@pytest.mark.parametrize("op", sorted(COMPARE))
def test_compare_with_nulls(op):
    fn = COMPARE[op]
    assert_matches_pandas(lambda pd: (lambda df: fn(df.f, df.g))(frame(pd)))
    assert_matches_pandas(lambda pd: fn(frame(pd).f, 1.0))
    assert_matches_pandas(lambda pd: fn(frame(pd).i, frame(pd).j))


@pytest.mark.parametrize("op", sorted(COMPARE))
def test_compare_strings(op):
    fn = COMPARE[op]
    assert_matches_pandas(lambda pd: fn(pd.Series(["a", "b", None, "d"]), "b"))


def test_string_equality_series():
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "c", "d"]) == pd.Series(["a", None, "x", "d"]))


def test_string_not_equal_none():
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "c"]) != "a")


def test_logical_and_or_not():
    assert_matches_pandas(lambda pd: (lambda df: df.b & df.c)(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda df: df.b | df.c)(frame(pd)))
    assert_matches_pandas(lambda pd: (lambda df: df.b ^ df.c)(frame(pd)))
    assert_matches_pandas(lambda pd: ~frame(pd).b)


def test_logical_on_comparisons():
    assert_matches_pandas(lambda pd: (lambda df: (df.f > 0) & ~(df.i < 2) | df.g.isna())(frame(pd)))


def test_logical_with_scalar():
    assert_matches_pandas(lambda pd: frame(pd).b & True)
    assert_matches_pandas(lambda pd: frame(pd).b | False)


def test_string_concat():
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "c"]) + pd.Series(["x", "y", None]))


def test_string_concat_scalar():
    assert_matches_pandas(lambda pd: pd.Series(["a", None, "c"]) + "_suffix")
    assert_matches_pandas(lambda pd: "prefix_" + pd.Series(["a", None, "c"]))


def test_datetime_minus_datetime():
    assert_matches_pandas(
        lambda pd: (lambda df: df.t1 - df.t0)(
            pd.DataFrame(
                {
                    "t0": pd.to_datetime(["2020-01-01", "2020-02-01", None, "2021-01-01"]),
                    "t1": pd.to_datetime(["2020-01-02", None, "2020-01-01", "2020-12-31"]),
                }
            )
        )
    )


def test_datetime_minus_timestamp():
    assert_matches_pandas(
        lambda pd: pd.Series(pd.to_datetime(["2020-01-01", None, "2020-03-01"])) - pd.Timestamp("2020-01-01")
    )


def test_datetime_plus_timedelta():
    assert_matches_pandas(
        lambda pd: pd.Series(pd.to_datetime(["2020-01-01", None, "2020-03-01"])) + pd.Timedelta(days=1, hours=2)
    )


@pytest.mark.parametrize("op", sorted(COMPARE))
def test_datetime_compare_timestamp(op):
    fn = COMPARE[op]
    assert_matches_pandas(
        lambda pd: fn(pd.Series(pd.to_datetime(["2020-01-01", None, "2020-03-01", "2019-05-05"])), pd.Timestamp("2020-01-01"))
    )


def test_datetime_compare_columns():
    assert_matches_pandas(
        lambda pd: pd.Series(pd.to_datetime(["2020-01-01", None, "2020-03-01"]))
        < pd.Series(pd.to_datetime(["2020-01-02", "2020-01-01", None]))
    )


def test_arith_on_empty():
    assert_matches_pandas(lambda pd: pd.Series([], dtype="float64") + 1)
    assert_matches_pandas(lambda pd: (lambda df: df.a * df.b)(pd.DataFrame({"a": [], "b": []}, dtype="int64")))


def test_arith_one_row():
    assert_matches_pandas(lambda pd: (lambda df: df.a / df.b)(pd.DataFrame({"a": [1], "b": [3]})))


def test_arith_keeps_name_of_same_named():
    assert_matches_pandas(lambda pd: (lambda df: df.i + df.i)(frame(pd)))


def test_arith_then_filter():
    assert_matches_pandas(lambda pd: (lambda df: df[(df.i * 2 + df.f) > 1])(frame(pd)))
