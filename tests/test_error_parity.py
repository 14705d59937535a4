"""Exception parity with pandas over small grids of dtypes x arguments (issue 9: no silent wrong answers).

Each cell runs the call on pandas and on gframe: where pandas raises, gframe must raise an instance of
pandas' type (pyarrow's and numpy's own exceptions compared by the builtin type they subclass, as the
differential fuzzer does); where pandas gives a result, gframe must give the same one (dtype included).
The grids are the families the fuzzer found differing (``docs/fuzzing.md``, session fuzzexc): pandas'
answer there depends on pyarrow's rules, on the data (whether a value is replaced, whether a side has
rows) or on the source array's own conversion.
"""
from __future__ import annotations

import datetime
import operator
import warnings
from decimal import Decimal
from typing import Any, Callable

import pandas
import pyarrow as pa
import pytest

import gframe


def _outcome(module: Any, build: Callable[[Any], Any]) -> tuple[str, Any]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = build(module)
            if module is gframe and hasattr(out, "to_pandas"):
                out = out.to_pandas()
        return "ok", out
    except Exception as exc:  # noqa: BLE001 - the exception is what is compared
        return "raise", exc


def _expected_type(exc: BaseException) -> type[BaseException]:
    """pandas' contract for ``exc``: pyarrow's and numpy's exceptions by the builtin type they subclass."""
    t = type(exc)
    if t.__module__.split(".")[0] in ("pyarrow", "numpy"):
        return next(b for b in t.__mro__ if b.__module__ == "builtins")
    return t


def assert_same(build: Callable[[Any], Any]) -> None:
    expected, got = _outcome(pandas, build), _outcome(gframe, build)
    if expected[0] == "raise":
        assert got[0] == "raise", f"pandas raised {expected[1]!r}, gframe gave {got[1]!r}"
        assert isinstance(got[1], _expected_type(expected[1])), f"pandas raised {expected[1]!r}, gframe {got[1]!r}"
        return
    assert got[0] == "ok", f"gframe raised {got[1]!r}, pandas gave {expected[1]!r}"
    if isinstance(expected[1], pandas.DataFrame):
        pandas.testing.assert_frame_equal(got[1], expected[1])
    else:
        pandas.testing.assert_series_equal(got[1], expected[1])


ARROW = {
    "int64": (pa.int64(), [1, None]), "double": (pa.float64(), [1.5, None]), "bool": (pa.bool_(), [True, None]),
    "string": (pa.string(), ["a", None]), "date32": (pa.date32(), [datetime.date(2020, 1, 1), None]),
    "timestamp": (pa.timestamp("us"), [pandas.Timestamp("2020-01-01"), None]),
    "timestamp_tz": (pa.timestamp("us", tz="UTC"), [pandas.Timestamp("2020-01-01", tz="UTC"), None]),
    "duration": (pa.duration("us"), [pandas.Timedelta(1, "us"), None]), "decimal": (pa.decimal128(10, 2), [Decimal("1.5"), None]),
}
SCALARS = [5, 1.5, True, "a", "2020-01-01", pandas.Timestamp("2020-01-02"), pandas.Timedelta(seconds=1), datetime.date(2020, 1, 2),
           pandas.Timestamp("2020-01-02", tz="UTC")]


def _arrow_series(module: Any, kind: str, values: list[Any] | None = None) -> Any:
    t, default = ARROW[kind]
    return module.Series(pandas.Series(default if values is None else values, dtype=pandas.ArrowDtype(t), name="a"))


@pytest.mark.parametrize("kind", list(ARROW))
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
def test_arrow_column_compared_with_scalars(kind: str, op: str) -> None:
    """pandas compares with pyarrow's kernels (the scalar cast: ``duration < 5``), then per value, then
    takes the values as different (``==`` False and missing where the column is; ``<`` TypeError)."""
    for scalar in SCALARS:
        assert_same(lambda m: getattr(operator, op)(_arrow_series(m, kind), scalar))


@pytest.mark.parametrize("dtype", ["str", "string", "category", "object"])
def test_strings_compared_with_other_kinds(dtype: str) -> None:
    for scalar in (1, 1.5, True, None, pandas.Timestamp("2020-01-01")):
        for op in (operator.eq, operator.ne, operator.lt):
            assert_same(lambda m: op(m.Series(pandas.Series(["x", None], dtype=dtype, name="a")), scalar))


@pytest.mark.parametrize("kind", list(ARROW))
@pytest.mark.parametrize("missing", [True, False], ids=["missing", "complete"])
def test_arrow_fillna_follows_pyarrow(kind: str, missing: bool) -> None:
    """A value pyarrow does not take as the column's type raises (where something is missing)."""
    values = ARROW[kind][1] if missing else ARROW[kind][1][:1]
    for value in (-1, 0, 1.5, True, "z", pandas.Timestamp("2020-01-02"), pandas.Timedelta(seconds=1), Decimal("2.5")):
        assert_same(lambda m: m.DataFrame({"a": _arrow_series(m, kind, values)}).fillna(value))


CLIP_DTYPES = ["Int64", "UInt8", "boolean", "Float64", "int64", "uint8", "float32", "bool",
               pandas.ArrowDtype(pa.int64()), pandas.ArrowDtype(pa.bool_()), pandas.ArrowDtype(pa.float64())]


@pytest.mark.parametrize("dtype", CLIP_DTYPES, ids=str)
def test_clip_bounds_of_another_kind(dtype: Any) -> None:
    """A nullable column refuses a bound it cannot hold where a value is replaced (TypeError); an Arrow
    one casts it; a numpy one becomes float or object; bools clip as pandas does."""
    for values in ([1], [3], [None, 3], [-7, 100], []):
        for bounds in ({"upper": 2.5}, {"lower": -0.5, "upper": 2.5}, {"lower": True}, {"upper": True}, {"lower": -2, "upper": 2}):
            def build(m: Any, values: list[Any] = values, bounds: dict[str, Any] = bounds) -> Any:
                if None in values and dtype in ("int64", "uint8", "float32", "bool"):
                    return m.Series(pandas.Series([1.0], name="a"))  # (numpy ints hold no missing value)
                return m.Series(pandas.Series(pandas.array(values, dtype=dtype), name="a")).clip(**bounds)
            assert_same(build)


@pytest.mark.parametrize("source", ["string", "str", "object", "boolean", "Int64", "Float64"])
def test_astype_missing_values_into_numpy_ints_and_bools(source: str) -> None:
    """Each source array refuses a missing value its own way: int() of NA/None (TypeError), a masked
    number's to_numpy (ValueError), numpy's float NaN (ValueError)."""
    values = ["1", None] if source in ("string", "str", "object") else [1, None]
    for target in ("int64", "uint8", "int32", "bool", "float64", "Int64", "boolean"):
        for rows in (values, values[:1]):
            assert_same(lambda m: m.Series(pandas.Series(rows, dtype=source, name="a")).astype(target))


@pytest.mark.parametrize("source", ["int64", "uint32", "float64", "float32", "datetime64[ns]", "timedelta64[ns]"])
def test_astype_boolean_takes_bool_like_values_only(source: str) -> None:
    for values in ([], [0, 1], [2], [-1], [0.5]):
        def build(m: Any, values: list[Any] = values) -> Any:
            s = pandas.Series(values, dtype="float64")
            s = s.astype("int64").astype(source) if source.startswith(("datetime", "timedelta")) else s.astype(source)
            return m.Series(s.rename("a")).astype("boolean")
        assert_same(build)


MERGE_KEYS = {
    "int8": pandas.array([1], dtype="int8"), "int64": pandas.array([1], dtype="int64"), "bool": pandas.array([True]),
    "float64": pandas.array([1.0]), "str": pandas.array(["1"], dtype="str"), "datetime": pandas.array(pandas.to_datetime(["2020-01-01"])),
    "datetime_s": pandas.array(pandas.to_datetime(["2020-01-01"]).astype("datetime64[s]")),
    "arrow_date": pandas.array([datetime.date(2020, 1, 1)], dtype=pandas.ArrowDtype(pa.date32())),
    "arrow_string": pandas.array(["a"], dtype=pandas.ArrowDtype(pa.string())),
    "arrow_timestamp": pandas.array([pandas.Timestamp("2020-01-01")], dtype=pandas.ArrowDtype(pa.timestamp("us"))),
}


@pytest.mark.parametrize("left", list(MERGE_KEYS))
def test_merge_keys_of_different_kinds(left: str) -> None:
    """pandas raises ValueError for some key pairs, only where both sides have rows; it merges the
    others (bool with ints, datetimes of different units, dates with strings) as object."""
    for rvalues in MERGE_KEYS.values():
        for empty_right in (False, True):
            def build(m: Any, right_values: Any = rvalues[:0] if empty_right else rvalues) -> Any:
                a = m.DataFrame({"k": MERGE_KEYS[left], "x": [1]})
                b = m.DataFrame({"k": right_values, "y": pandas.array([2] * len(right_values), dtype="int64")})
                return a.merge(b, on="k", how="outer")
            assert_same(build)


def test_any_all_take_no_numeric_only() -> None:
    for method in ("any", "all"):
        assert_same(lambda m: getattr(m.DataFrame({"a": [1, 0]}), method)(numeric_only=True))
        assert_same(lambda m: getattr(m.Series([1, 0], name="a"), method)(numeric_only=True))
