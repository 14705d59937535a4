"""Strings in Python storage (``string[python]``, ``StringDtype("python", na_value=nan)``) keep their
storage through native operations, as on pandas (issue 10, ``pandas/tests/strings``: every test
parametrized by ``any_string_dtype`` runs them). Each case is checked against pandas."""
from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pandas.testing as tm
import pytest

import gframe as gf
from gframe.plan.schema import MASKED, MASKED_PYTHON, NUMPY, NUMPY_PYTHON, Field, string_storage

PY_NA = "string[python]"
PY_NAN = pd.StringDtype("python", na_value=np.nan)
DTYPES = [PY_NA, PY_NAN, "string[pyarrow]", "str"]
DATA = ["a", None, "bB", " c ", "a"]


def _same(got, expected) -> None:
    if isinstance(expected, pd.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), expected)
    elif isinstance(expected, pd.Index):
        tm.assert_index_equal(got.to_pandas() if hasattr(got, "to_pandas") else got, expected)
    else:
        got = got.to_pandas()
        tm.assert_series_equal(got, expected)
        # assert_series_equal compares StringDtype by equality, which holds across storages
        assert repr(got.dtype) == repr(expected.dtype)


OPS = {
    "itself": lambda s: s,
    "upper": lambda s: s.str.upper(),
    "lower": lambda s: s.str.lower(),
    "title": lambda s: s.str.title(),
    "strip": lambda s: s.str.strip(),
    "slice": lambda s: s.str.slice(0, 1),
    "get": lambda s: s.str.get(0),
    "replace": lambda s: s.str.replace("a", "z"),
    "len": lambda s: s.str.len(),
    "contains": lambda s: s.str.contains("a"),
    "startswith": lambda s: s.str.startswith("a"),
    "eq_scalar": lambda s: s == "a",
    "eq_self": lambda s: s == s,
    "add": lambda s: s + s,
    "add_scalar": lambda s: s + "x",
    "radd_scalar": lambda s: "x" + s,
    "fillna": lambda s: s.fillna("z"),
    "where": lambda s: s.where(s.notna(), "q"),
    "shift": lambda s: s.shift(1),
    "sort_values": lambda s: s.sort_values(),
    "take": lambda s: s.iloc[[2, 0]],
    "drop_duplicates": lambda s: s.drop_duplicates(),
    "value_counts": lambda s: s.value_counts(),
    "isin": lambda s: s.isin(["a"]),
    "astype_str": lambda s: s.astype(str),
    "astype_string_python": lambda s: s.astype("string[python]"),
    "astype_string_pyarrow": lambda s: s.astype("string[pyarrow]"),
    "astype_category": lambda s: s.astype("category"),
    "groupby_first": lambda s: s.groupby([1, 1, 2, 2, 2]).first(),
    "groupby_min": lambda s: s.groupby([1, 1, 2, 2, 2]).min(),
    "groupby_size": lambda s: s.groupby([1, 1, 2, 2, 2]).size(),
    "groupby_count": lambda s: s.groupby([1, 1, 2, 2, 2]).count(),
}


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_series_ops_keep_storage(dtype, op):
    f = OPS[op]
    _same(f(gf.Series(DATA, dtype=dtype)), f(pd.Series(DATA, dtype=dtype)))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_frame_column_and_index_keep_storage(dtype):
    pdf = pd.DataFrame({"k": DATA, "v": range(5)}, dtype=None).astype({"k": dtype})
    gdf = gf.DataFrame({"k": DATA, "v": range(5)}).astype({"k": dtype})
    _same(gdf, pdf)
    _same(gdf.assign(u=lambda d: d.k.str.upper()), pdf.assign(u=lambda d: d.k.str.upper()))
    # the strings as the index, kept through a sort and a reset
    _same(gdf.set_index("k").sort_index(), pdf.set_index("k").sort_index())
    _same(gdf.set_index("k").reset_index(), pdf.set_index("k").reset_index())
    _same(gdf.groupby("k").v.sum(), pdf.groupby("k").v.sum())


@pytest.mark.parametrize("dtype", [PY_NA, PY_NAN], ids=str)
def test_storage_of_dtype_and_categories(dtype):
    gs = gf.Series(DATA, dtype=dtype)
    ps = pd.Series(DATA, dtype=dtype)
    assert gs.dtype.storage == "python"
    assert gs.str.upper().dtype == ps.str.upper().dtype and gs.str.upper().dtype.storage == "python"
    cat = gs.astype("category")
    assert cat.dtype == ps.astype("category").dtype
    assert cat.dtype.categories.dtype.storage == "python"


def test_python_family_is_its_base_family_for_every_rule():
    # the family compares (and hashes) as its base, so the dtype rules read it as MASKED / NUMPY
    assert MASKED_PYTHON == MASKED and hash(MASKED_PYTHON) == hash(MASKED)
    assert NUMPY_PYTHON == NUMPY and MASKED_PYTHON in {MASKED}
    assert string_storage(MASKED_PYTHON) == "python" and string_storage(MASKED) is None
    # pickled (a plan sent to a worker) it stays a Python-storage family
    assert string_storage(pickle.loads(pickle.dumps(Field("a", None, MASKED_PYTHON))).family) == "python"
    # plans that differ by the storage alone are different plans (no shared cached result)
    a = gf.Series(DATA, dtype="str")
    to_python, to_pyarrow = a.astype(PY_NA), a.astype("string[pyarrow]")
    assert to_python._frame_plan() != to_pyarrow._frame_plan()
    _same(to_pyarrow, pd.Series(DATA, dtype="str").astype("string[pyarrow]"))
    _same(to_python, pd.Series(DATA, dtype="str").astype(PY_NA))


def test_python_storage_through_a_fallback_is_pandas_answer():
    # a call that runs through pandas gets the column in its own storage: pandas' answer
    gs = gf.Series(DATA, dtype=PY_NA)
    ps = pd.Series(DATA, dtype=PY_NA)
    with gf.option_context("fallback", "silent"):
        _same(gs.str.zfill(3), ps.str.zfill(3))
        _same(gs.str.pad(4), ps.str.pad(4))
