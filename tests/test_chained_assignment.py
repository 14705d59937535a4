"""Chained assignment warns as on pandas (copy-on-write): an assignment into a temporary - ``df["a"][0] = 1``,
``df["a"].loc[0] = 1``, ``df[["a"]]["a"] = 1`` - can change nothing the caller holds, and pandas says so
with ``ChainedAssignmentError`` (a warning). An assignment into an object a name holds does not warn."""
from __future__ import annotations

import warnings

import pandas as pd
import pandas.testing as tm
import pytest
from pandas.errors import ChainedAssignmentError

import gframe as gf


def _chains(mod):
    df = mod.DataFrame({"A": [1, 2], "B": [3.0, 4.0]})
    out = []
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df["A"][0] = -5
        out.append(sum(issubclass(x.category, ChainedAssignmentError) for x in w))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df["A"].loc[0] = -5
        out.append(sum(issubclass(x.category, ChainedAssignmentError) for x in w))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df["A"].iloc[0] = -5
        out.append(sum(issubclass(x.category, ChainedAssignmentError) for x in w))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        df[["A"]]["A"] = 1
        out.append(sum(issubclass(x.category, ChainedAssignmentError) for x in w))
    return df, out


def test_chained_assignments_warn_as_pandas():
    gdf, got = _chains(gf)
    pdf, expected = _chains(pd)
    assert got == expected == [1, 1, 1, 1]
    tm.assert_frame_equal(gdf.to_pandas(), pdf)  # (and change nothing)


def test_assignments_into_held_objects_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", ChainedAssignmentError)
        df = gf.DataFrame({"A": [1, 2], "B": [3.0, 4.0]})
        s = df["A"]
        s[0] = -5
        s.loc[1] = 3
        s.iloc[0] = 7
        assert s.tolist() == [7, 3]
        sub = df[["A"]]
        sub["C"] = 1
        sub.loc[0, "A"] = 9
        df["C"] = 2
        df.loc[0, "A"] = 10
        df.iloc[1, 0] = 11
        df.at[0, "B"] = 1.5

        def change(x):
            x[1] = 9.0
            return x

        assert change(df["B"]).tolist() == [1.5, 9.0]
    expected = pd.DataFrame({"A": [10, 11], "B": [1.5, 4.0], "C": [2, 2]})
    tm.assert_frame_equal(df.to_pandas(), expected)


@pytest.mark.parametrize("make", [lambda: gf.Series([1, 2]), lambda: gf.DataFrame({"a": [1]})])
def test_a_fresh_object_bound_to_a_name_does_not_warn(make):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ChainedAssignmentError)
        obj = make()
        obj[0] = 5


def test_explicit_setitem_call_on_a_parameter_does_not_warn():
    # ``f.__setitem__(k, v)`` (a call, not the subscript syntax) into an object a name holds: no
    # warning, as on pandas (its check reads the caller's opcode and locals)
    def put(f, value):
        f.__setitem__("z", value)
        return f

    with warnings.catch_warnings():
        warnings.simplefilter("error", ChainedAssignmentError)
        for mod in (gf, pd):
            d = mod.DataFrame({"a": [2, 3], "b": [1.5, 2.0]})
            out = (lambda f: (f.__setitem__("z", d.b), f)[1])(d[d.a > 2])
            assert list(out.columns) == ["a", "b", "z"]
            assert list(put(mod.Series([1, 2], index=["x", "y"]), 5)) == [1, 2, 5]
