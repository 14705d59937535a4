"""Numba-compiled UDFs: ``Series.map`` / ``Series.apply`` and ``DataFrame.apply(axis=1)`` with
functions tracing cannot turn into expressions (branches on the value, ``math.*``, loops) give
pandas' answer - values, dtypes, missing values, index, name - computed by Numba (no pandas
fallback), and functions Numba cannot compile still give pandas' answer, through a recorded fallback.

The GPU tests (marked ``gpu``) run the same functions as numba-cuda kernels and check that nothing
ran on the CPU engine; elsewhere the placement tests check that a UDF runs on the CPU engine where
numba-cuda is missing.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest

import gframe
from gframe import engines
from gframe.testing import assert_matches_pandas, assert_raises_like_pandas, to_pandas

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

NaN = float("nan")


def _no_gpu_kernels() -> str | None:
    """Why UDF kernels cannot run here: no GPU engine (the host stand-in for pylibcudf counts as
    one), or no numba-cuda."""
    reason = engines.gpu_unavailable_reason()
    if reason is None:
        from gframe.udf.numba_gpu import unavailable_reason

        reason = unavailable_reason()
    return reason


NO_GPU = _no_gpu_kernels()


def needs_gpu(fn):
    return pytest.mark.gpu(pytest.mark.skipif(NO_GPU is not None, reason=f"no GPU here: {NO_GPU}")(fn))


def native(fn, **kw):
    """``fn`` matches pandas, and gframe ran no pandas fallback for it (strict mode)."""
    gframe.fallback_report(clear=True)
    with gframe.option_context(fallback="raise"):
        out = assert_matches_pandas(fn, **kw)
    assert not [e for e in gframe.fallback_report() if e.kind == "pandas"]
    return out


def compiled_plan(obj) -> str:
    """The plan text of a gframe result, showing the ``udf[...]`` expression when it was compiled."""
    from gframe.plan.printer import render

    return render(obj._frame()._plan)


# functions tracing refuses: a branch on the value, math on Python numbers, a loop
def sign_double(v):
    return v * 2 if v > 0 else -v


def clamp_label(v):
    if v < 0:
        return -1
    elif v == 0:
        return 0
    return 1


def triangle(v):
    total = 0
    for i in range(v):
        total += i
    return total


def safe_sqrt(v):
    return math.sqrt(v) if v >= 0 else 0.0


# --------------------------------------------------------------------------------- Series.map
FLOATS = [1.5, NaN, -2.25, 0.0, 3.0, NaN, 10.5, -1.0]
INTS = [5, -3, 0, 7, 2, 2, -8, 4]
BOOLS = [True, False, True, True, False]


@pytest.mark.parametrize("func, data, dtype", [
    (sign_double, FLOATS, "float64"),
    (sign_double, INTS, "int64"),
    (sign_double, INTS, "int8"),  # pandas passes Python ints: no int8 overflow, an int64 result
    (sign_double, FLOATS, "float32"),
    (clamp_label, FLOATS, "float64"),  # NaN < 0 and NaN == 0 are False: 1, as pandas
    (clamp_label, [5, 0, 7, 2], "uint16"),
    (triangle, [0, 1, 5, 10], "int64"),
    (safe_sqrt, FLOATS, "float64"),
    (math.sqrt, [0.0, 4.0, 2.0, NaN], "float64"),
    (math.floor, [1.5, -2.5, 3.0], "float64"),  # an int64 result
    (lambda v: v > 1 if v == v else False, FLOATS, "float64"),  # a bool result
    (lambda v: 1 if v else 2, BOOLS, "bool"),
    (lambda v: v + v if v else 0, BOOLS, "bool"),  # True + True is 2 in Python
    (lambda v: not v, BOOLS, "bool"),
    (lambda v: 1.0 if v > 1 else 0, INTS, "int64"),  # float and int results: float64
    (lambda v: NaN if v > 2 else v, INTS, "int64"),  # a NaN result is missing
])
def test_map_compiled(func, data, dtype):
    out = native(lambda pd: pd.Series(data, dtype=dtype, name="x").map(func))
    assert out.name == "x"


def test_map_result_comes_from_numba_and_shows_in_the_plan():
    s = gframe.Series(FLOATS, name="x").map(sign_double)
    assert "udf[sign_double](x)" in compiled_plan(s)
    assert s.dtype == np.float64  # known at build time


def test_map_function_raising_on_nan_raises_like_pandas():
    assert_raises_like_pandas(lambda pd: pd.Series([1.5, NaN]).map(math.floor))
    assert_raises_like_pandas(lambda pd: pd.Series([1, 0]).map(lambda v: 10 // v if v < 5 else v))


@pytest.mark.parametrize("func, data", [
    (math.floor, [1.5, NaN, -2.5]),  # int results with missing values: float64
    (math.floor, [1.5, 2.5, -2.5]),  # without: int64 (decided by the data, as pandas)
    (sign_double, FLOATS),
    (clamp_label, INTS),
])
def test_map_na_action_ignore(func, data):
    native(lambda pd: pd.Series(data, name="x").map(func, na_action="ignore"))


def test_map_na_action_ignore_does_not_call_the_function():
    native(lambda pd: pd.Series([4.0, NaN]).map(lambda v: math.sqrt(v) if v > 0 else math.floor(v), na_action="ignore"))


@pytest.mark.parametrize("dtype", ["float64", "int64", "bool", "float32"])
def test_map_empty_and_one_row(dtype):
    native(lambda pd: pd.Series([], dtype=dtype).map(clamp_label))
    native(lambda pd: pd.Series([1], dtype=dtype, name="v").map(clamp_label))


def test_map_keeps_the_index_and_follows_filters():
    native(lambda pd: pd.Series(FLOATS, index=list("abcdefgh"), name="x").map(sign_double))
    native(lambda pd: (lambda s: s[s.notna()].map(clamp_label) + 1)(pd.Series(FLOATS, name="x")))
    native(lambda pd: pd.DataFrame({"a": INTS, "k": [1, 2] * 4}).groupby("k").a.sum().map(triangle))


def test_series_apply():
    native(lambda pd: pd.Series(FLOATS).apply(sign_double))
    native(lambda pd: pd.Series(INTS, name="n").apply(clamp_label))


def test_map_same_function_twice_compiles_once():
    s = gframe.Series(FLOATS)
    a, b = s.map(sign_double), s.map(sign_double)
    assert a._expr == b._expr  # one common subexpression
    native(lambda pd: (lambda s: s.map(sign_double) + s.map(sign_double))(pd.Series(FLOATS)))


# ------------------------------------------------------------------------ DataFrame.apply(axis=1)
def frame(pd):
    return pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": [0.5, NaN, 2.0, -1.0, 3.5], "c": [3, 1, 4, 1, 5]},
                        index=[10, 20, 30, 40, 50])


@pytest.mark.parametrize("func", [
    lambda r: r["a"] if r["b"] > 1 else -r.a,  # int and float columns: every field is a float
    lambda r: r.a * 2 if r.c > 2 else r.c,
    lambda r: r.b != r.b,  # a missing field is NaN
    lambda r: math.sqrt(r.c) if r.c > 1 else 0.0,
    lambda r: int(r.a) + r.c if r.a > 2 else 0,  # Python int and numpy float64: float64
])
def test_apply_rows_compiled(func):
    out = native(lambda pd: frame(pd).apply(func, axis=1))
    assert out.name is None


def test_apply_rows_of_ints_only():
    native(lambda pd: frame(pd)[["a", "c"]].apply(lambda r: r.a * 2 if r.c > 2 else r.c - r.a, axis=1))
    native(lambda pd: frame(pd)[["a", "c"]].apply(lambda r: r["a"] > r["c"] if r.a > 1 else False, axis=1))


def test_apply_rows_after_a_filter_and_in_the_plan():
    native(lambda pd: (lambda d: d[d.c > 1].apply(lambda r: r.a if r.b > 0 else r.c, axis=1))(frame(pd)))
    out = frame(gframe).apply(lambda r: r.a if r.b > 0 else r.c, axis=1)
    assert "udf[<lambda>](a, b, c)" in compiled_plan(out)


# ---------------------------------------------------------------------------- left to pandas
@pytest.mark.filterwarnings("ignore:Bitwise inversion:DeprecationWarning")  # pandas runs ~True
@pytest.mark.parametrize("fn", [
    lambda pd: pd.Series(INTS).map(lambda v: "pos" if v > 0 else "neg"),  # strings
    lambda pd: pd.Series(INTS).map(lambda v: True if v > 0 else 0),  # bools and ints: object
    lambda pd: pd.Series(BOOLS).map(lambda v: ~v if v else v),  # ~True is -2 in Python
    lambda pd: pd.Series(INTS).map(lambda v: v ** -1 if v else 0),  # a float in Python
    lambda pd: pd.Series(["a", "bb"]).map(lambda v: len(v) if v else 0),
    lambda pd: pd.Series(FLOATS).map(lambda v: v > 0 if v < 0 else True, na_action="ignore"),  # object
    lambda pd: frame(pd).rename(columns={"c": "name"}).apply(lambda r: r.a if r.a > 2 else r.name, axis=1),
    lambda pd: frame(pd).assign(s=["x", "y", "x", "y", "z"]).apply(lambda r: r.a if r.a > 2 else 0, axis=1),
    lambda pd: frame(pd)[["a", "c"]].astype("int8").apply(lambda r: r.a + 1 if r.c else 0, axis=1),
    lambda pd: pd.DataFrame({"a": pd.Series([], dtype="int64"), "b": pd.Series([], dtype="float64")}).apply(
        lambda r: r.a if r.a > 2 else 0, axis=1),  # empty: pandas calls the function on a row of NaN
    lambda pd: pd.Series(INTS).apply(lambda v, k: v * k if v > 0 else k, args=(3,)),  # calls a Python function
])
def test_not_compilable_runs_through_pandas_and_is_recorded(fn):
    gframe.fallback_report(clear=True)
    assert_matches_pandas(fn)
    events = [e for e in gframe.fallback_report() if e.kind == "pandas"]
    assert events and events[-1].api in ("Series.map", "DataFrame.apply")


def test_fallback_reason_names_numba():
    gframe.fallback_report(clear=True)
    to_pandas(gframe.Series(INTS).map(lambda v: "pos" if v > 0 else "neg"))
    (event,) = [e for e in gframe.fallback_report() if e.kind == "pandas"]
    assert "numba:" in event.reason and "unicode_type" in event.reason


def test_strict_mode_raises_for_what_numba_cannot_compile():
    with gframe.option_context(fallback="raise"), pytest.raises(gframe.FallbackError):
        gframe.Series(INTS).map(lambda v: "pos" if v > 0 else "neg")


def test_bad_na_action_raises_like_pandas():
    assert_raises_like_pandas(lambda pd: pd.Series(FLOATS).map(sign_double, na_action="all"))


def test_importing_and_building_plans_loads_no_numba():
    code = ("import sys, gframe as pd\n"
            "s = pd.Series([1.5, 2.5]); s.map(lambda v: v * 2).to_pandas(); (s[s > 2] + 1).to_pandas()\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "GFRAME_ENGINE": "cpu"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------------------------------- the GPU
def _udf_expr():
    s = gframe.Series(FLOATS, name="x").map(sign_double)
    return s._expr, s._plan.schema.dtype_of


def test_gpu_support_places_a_udf_on_the_cpu_without_numba_cuda():
    from gframe.engines.gpu import support
    from gframe.udf import numba_gpu

    reason = numba_gpu.unavailable_reason()
    if reason is None:
        pytest.skip("numba-cuda is usable here")
    expr, look = _udf_expr()
    assert support.expr_reason(expr, look) == reason


def test_gpu_support_places_a_udf_that_may_raise_on_the_cpu():
    from gframe.engines.gpu import support

    s = gframe.Series(INTS, name="n").map(lambda v: 10 // v if v < 5 else v)
    assert "ZeroDivisionError" in support.expr_reason(s._expr, s._plan.schema.dtype_of)
    s = gframe.Series(INTS, name="n").map(lambda v: v // 2 if v < 5 else v)
    assert "ZeroDivisionError" not in (support.expr_reason(s._expr, s._plan.schema.dtype_of) or "")


@needs_gpu
@pytest.mark.parametrize("fn", [
    lambda pd: pd.Series(FLOATS * 100, name="x").map(sign_double),
    lambda pd: pd.Series(FLOATS * 100).map(math.floor, na_action="ignore"),
    lambda pd: pd.Series(FLOATS * 100).map(clamp_label),
    lambda pd: pd.Series(INTS * 100, dtype="int32").map(triangle),
    lambda pd: pd.Series(BOOLS * 100).map(lambda v: 1 if v else 2),
    lambda pd: pd.Series(FLOATS * 100).map(lambda v: v > 1 if v == v else False),
    lambda pd: frame(pd).apply(lambda r: r["a"] if r["b"] > 1 else -r.a, axis=1),
    lambda pd: frame(pd)[["a", "c"]].apply(lambda r: r.a * 2 if r.c > 2 else r.c, axis=1),
    lambda pd: (lambda d: d[d.c > 1].apply(lambda r: r.b != r.b, axis=1))(frame(pd)),
])
def test_gpu_runs_the_udf_as_a_numba_cuda_kernel(fn):
    gframe.fallback_report(clear=True)
    with gframe.option_context(engine="gpu"):
        native(fn)
    handed = [e for e in gframe.fallback_report() if e.kind == "cpu" and "numba" in e.reason]
    assert not handed, handed


@needs_gpu
def test_gpu_udf_over_a_sliced_column_and_missing_values():
    # a slice is a view with an offset: the kernel reads from the column's first row
    with gframe.option_context(engine="gpu"):
        native(lambda pd: pd.Series(FLOATS * 300, name="x").iloc[7:900].map(sign_double))
        native(lambda pd: pd.Series(FLOATS * 300).iloc[3:].map(math.floor, na_action="ignore"))
