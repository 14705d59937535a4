"""``Series.isin(another gframe Series)``: the value set stays in the engine's memory (on the GPU
engine, on the device; ``engines/values.py``), and the answer is pandas' for every dtype that takes
this path (the same type on both sides, no NaN), nulls and duplicates included."""
from __future__ import annotations

import datetime as dt
import decimal

import pandas as pd
import pyarrow as pa
import pytest

import gframe
from gframe.engines.values import ColumnValues

CASES = {
    "int64": ([3, 1, 2, 5, 1], [1, 5, 5, 9], "int64"),
    "int32": ([3, 1, 2, 5, 1], [1, 5, 5, 9], "int32"),
    "Int64": ([3, None, 2, 5, 1], [1, None, 5], "Int64"),
    "int64[pyarrow]": ([3, None, 2, 5, 1], [1, None, 5], "int64[pyarrow]"),
    "int64[pyarrow] no null": ([3, None, 2, 5, 1], [1, 5], "int64[pyarrow]"),
    "str": (["a", None, "c", "b", "a"], ["a", None, "z"], "str"),
    "string[pyarrow]": (["a", None, "c", "b", "a"], ["b", None], "string[pyarrow]"),
    "string": (["a", None, "c", "b"], ["b", None], "string"),
    "bool": ([True, False, True], [False], "bool"),
    "datetime64[ns]": ([pd.Timestamp("2024-01-01"), pd.NaT, pd.Timestamp("2024-01-03")],
                       [pd.Timestamp("2024-01-03"), pd.NaT], "datetime64[ns]"),
    "date32[pyarrow]": ([dt.date(2024, 1, 1), None, dt.date(2024, 1, 3)], [dt.date(2024, 1, 1)],
                        pd.ArrowDtype(pa.date32())),
    "decimal": ([decimal.Decimal("1.10"), decimal.Decimal("2.20"), None], [decimal.Decimal("2.20")],
                pd.ArrowDtype(pa.decimal128(10, 2))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_isin_another_series_matches_pandas(name):
    data, values, dtype = CASES[name]
    ps = pd.Series(data, dtype=dtype, name="x", index=[10 + i for i in range(len(data))])
    pv = pd.Series(values, dtype=dtype, name="v")
    gs, gv = gframe.Series(ps), gframe.Series(pv)
    gframe.fallback_report(clear=True)
    got = gs.isin(gv)
    assert not gframe.fallback_report(clear=True)
    pd.testing.assert_series_equal(got.to_pandas(), ps.isin(pv))


def test_isin_values_from_a_filtered_frame_keep_rows_and_index():
    """TPC-H q4's shape: a filter by membership in a filtered column of another frame."""
    orders = pd.DataFrame({"k": [5, 1, 2, 3, 4, 2], "p": list("abcabc")}, index=[9, 8, 7, 6, 5, 4])
    items = pd.DataFrame({"k": [1, 1, 3, 4, 7, 2], "late": [True, False, True, False, True, False]})
    go, gi = gframe.DataFrame(orders), gframe.DataFrame(items)
    want = orders[orders["k"].isin(items[items["late"]]["k"])]
    got = go[go["k"].isin(gi[gi["late"]]["k"])]
    pd.testing.assert_frame_equal(got.to_pandas(), want)
    # and negated (q22's ``~isin``)
    pd.testing.assert_frame_equal(go[~go["k"].isin(gi["k"])].to_pandas(), orders[~orders["k"].isin(items["k"])])


def test_isin_the_value_set_is_held_by_the_engine():
    """The value set is the engine's own table (no Arrow array or scalars built on the host)."""
    gs = gframe.Series([1, 2, 3])
    got = gs.isin(gframe.Series([2, 3, 3]))
    params = [p.value for p in _opaque_params(got._expr)]
    assert params and all(isinstance(p, ColumnValues) for p in params)
    assert got.tolist() == [False, True, True]


@pytest.mark.parametrize("values", [[], [None]])
def test_isin_empty_or_all_missing_values(values):
    ps = pd.Series([1, None, 3], dtype="Int64")
    pv = pd.Series(values, dtype="Int64")
    pd.testing.assert_series_equal(gframe.Series(ps).isin(gframe.Series(pv)).to_pandas(), ps.isin(pv))
    ps = pd.Series(["a", None], dtype="str")
    pv = pd.Series(values, dtype="str")
    pd.testing.assert_series_equal(gframe.Series(ps).isin(gframe.Series(pv)).to_pandas(), ps.isin(pv))


def test_isin_of_other_types_still_follows_pandas_value_rules():
    """Different types on each side (int32 against int64, floats) keep the value-by-value path."""
    ps = pd.Series([1.0, float("nan"), 3.5])
    pv = pd.Series([float("nan"), 3.5])
    pd.testing.assert_series_equal(gframe.Series(ps).isin(gframe.Series(pv)).to_pandas(), ps.isin(pv))
    ps = pd.Series([1, 2, 3], dtype="int32")
    pv = pd.Series([2, 2**40], dtype="int64")
    pd.testing.assert_series_equal(gframe.Series(ps).isin(gframe.Series(pv)).to_pandas(), ps.isin(pv))


def _opaque_params(expr):
    from gframe.plan.expr import Func
    from gframe.plan.node import Opaque

    out = []
    if isinstance(expr, Func):
        out += [v for _, v in expr.params if isinstance(v, Opaque)]
    for c in getattr(expr, "children", ()):
        out += _opaque_params(c)
    return out


@pytest.mark.parametrize("values", [["a", None], [None], [float("nan")], ["a"]])
@pytest.mark.parametrize("as_series", [False, True])
def test_isin_of_an_object_column_tells_none_from_nan(values, as_series):
    """An object column holds None and NaN apart, and pandas matches each only with itself (the
    engines hold both as one missing value: such calls go through pandas, recorded)."""
    ps = pd.Series(["a", None, "b", float("nan")], dtype=object)
    pv = pd.Series(values, dtype=object) if as_series else values
    gv = gframe.Series(pv) if as_series else values
    pd.testing.assert_series_equal(gframe.Series(ps).isin(gv).to_pandas(), ps.isin(pv))
