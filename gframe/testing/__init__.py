"""Test helpers: run the same code with pandas and with gframe and compare.

The one rule of the test suite is that pandas code gives pandas' answer. ``assert_matches_pandas``
runs a function once with the real ``pandas`` module and once with ``gframe`` (on the engine
selected by ``gframe.options``) and compares values, dtypes, index, names and row order with
pandas' own ``assert_frame_equal`` / ``assert_series_equal``.

Example
-------
>>> from gframe.testing import assert_matches_pandas
>>> _ = assert_matches_pandas(lambda pd: pd.DataFrame({"a": [1, 2, 2]}).groupby("a").size())
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pandas
import pandas.testing as pdt

import gframe

__all__ = ["assert_matches_pandas", "assert_native_on_gpu", "assert_raises_like_pandas", "to_pandas", "assert_frame_equal",
           "assert_series_equal", "assert_index_equal", "assert_extension_array_equal", "accepting_gframe",
           "pandas_testing_accepts_gframe", "patch_pandas_testing"]


def to_pandas(obj: Any) -> Any:
    """Materialize a gframe object (or pass a pandas object / scalar through)."""
    if isinstance(obj, (pandas.DataFrame, pandas.Series, pandas.Index)):
        return obj
    if isinstance(obj, (gframe.DataFrame, gframe.Series, gframe.Index)):
        return obj.to_pandas()
    if isinstance(obj, tuple):
        return tuple(to_pandas(o) for o in obj)
    if isinstance(obj, list):
        return [to_pandas(o) for o in obj]
    return obj


def _compare(expected: Any, result: Any, **kw: Any) -> None:
    if isinstance(expected, pandas.DataFrame):
        assert isinstance(result, pandas.DataFrame), f"expected a DataFrame, got {type(result)}"
        pdt.assert_frame_equal(result, expected, **kw)
    elif isinstance(expected, pandas.Series):
        assert isinstance(result, pandas.Series), f"expected a Series, got {type(result)}"
        pdt.assert_series_equal(result, expected, **kw)
    elif isinstance(expected, pandas.Index):
        assert isinstance(result, pandas.Index), f"expected an Index, got {type(result)}"
        kw = {"exact": "equiv", **{k: v for k, v in kw.items() if k in ("exact", "check_names", "check_exact", "rtol", "atol")}}
        pdt.assert_index_equal(result, expected, **kw)
    elif isinstance(expected, np.ndarray):
        assert isinstance(result, np.ndarray), f"expected an ndarray, got {type(result)}"
        np.testing.assert_array_equal(result, expected)
        assert result.dtype == expected.dtype, (result.dtype, expected.dtype)
    elif isinstance(expected, (tuple, list)):
        assert type(result) is type(expected) and len(result) == len(expected), (result, expected)
        for e, r in zip(expected, result):
            _compare(e, r, **kw)
    elif isinstance(expected, float) and np.isnan(expected):
        assert isinstance(result, float) and np.isnan(result), f"expected NaN, got {result!r}"
    elif expected is pandas.NaT or expected is None or expected is pandas.NA:
        assert result is expected, f"expected {expected!r}, got {result!r}"
    elif isinstance(expected, (float, np.floating)):
        assert isinstance(result, (float, np.floating)), f"expected a float, got {type(result)}: {result!r}"
        np.testing.assert_allclose(result, expected, rtol=kw.get("rtol", 1e-5))
    else:
        assert result == expected, f"expected {expected!r}, got {result!r}"
        assert type(result) is type(expected) or (
            isinstance(result, (int, np.integer)) and isinstance(expected, (int, np.integer))
            or isinstance(result, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_))
        ), f"expected type {type(expected).__name__}, got {type(result).__name__}"


def _gframe_module() -> Any:
    """The module under test: gframe, or pandas itself when GFRAME_TEST_SELFCHECK=1.

    The self-check mode runs the test suite with pandas on both sides, which proves each test is
    valid pandas code before gframe implements what it tests.
    """
    import os

    if os.environ.get("GFRAME_TEST_SELFCHECK") == "1":
        return pandas
    return gframe


def assert_matches_pandas(fn: Callable[[Any], Any], **kw: Any) -> Any:
    """Run ``fn(pandas)`` and ``fn(gframe)`` and assert the results are equal.

    Keyword arguments go to ``pandas.testing.assert_frame_equal`` / ``assert_series_equal``
    (``check_dtype``, ``check_index_type``, ``check_exact``, ``rtol``, ...). Returns the gframe
    result (materialized) so a test can check more.
    """
    expected = fn(pandas)
    result = to_pandas(fn(_gframe_module()))
    _compare(expected, result, **kw)
    return result


def assert_native_on_gpu(fn: Callable[[Any], Any], **kw: Any) -> Any:
    """``assert_matches_pandas(fn)``, and on the GPU engine also that no part of it ran on the CPU
    engine or in pandas (the fallback report of that call has no ``cpu`` or ``pandas`` row)."""
    import os

    gpu = os.environ.get("GFRAME_TEST_SELFCHECK") != "1" and gframe.options.engine == "gpu"
    if gpu:
        gframe.fallback_report(clear=True)
    got = assert_matches_pandas(fn, **kw)
    if gpu:
        handed = [e for e in gframe.fallback_report() if e.kind in ("cpu", "pandas")]
        assert not handed, f"ran off the GPU: {handed}"
    return got


def assert_raises_like_pandas(fn: Callable[[Any], Any], match: str | None = None) -> type[BaseException]:
    """Assert that gframe raises the same exception type as pandas for ``fn``.

    gframe objects are lazy: the function's result is materialized so errors raised at execution
    time count too (though gframe should raise at build time where pandas does).
    """
    import re

    gframe = _gframe_module()
    try:
        fn(pandas)
    except Exception as exc:  # noqa: BLE001 - we capture pandas' type to compare
        expected_type = type(exc)
    else:
        raise AssertionError("pandas did not raise")
    try:
        to_pandas(fn(gframe))
    except Exception as exc:  # noqa: BLE001
        assert isinstance(exc, expected_type), f"pandas raised {expected_type.__name__}, gframe raised {type(exc).__name__}: {exc}"
        if match is not None:
            assert re.search(match, str(exc)), f"message {str(exc)!r} does not match {match!r}"
        return expected_type
    raise AssertionError(f"pandas raised {expected_type.__name__}, gframe did not raise")


# ----------------------------------------------------------------------------- pandas.testing's names
def accepting_gframe(assert_fn: Callable[..., Any]) -> Callable[..., Any]:
    """``assert_fn`` (one of pandas' ``assert_*``) taking gframe objects too: every gframe argument is
    materialized to pandas first, so the comparison is pandas' own, with pandas' messages."""
    import functools

    if getattr(assert_fn, "__gframe_accepting__", False):
        return assert_fn

    @functools.wraps(assert_fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return assert_fn(*(_materialize(a) for a in args), **{k: _materialize(v) for k, v in kwargs.items()})

    wrapper.__gframe_accepting__ = True  # type: ignore[attr-defined]
    wrapper.__wrapped_pandas__ = assert_fn  # type: ignore[attr-defined]
    return wrapper


def _materialize(obj: Any) -> Any:
    """A gframe frame, series or index (or a fallback's pandas proxy) as pandas; anything else as is."""
    if type(obj).__module__.startswith("gframe.") and hasattr(obj, "to_pandas"):
        return obj.to_pandas()
    return obj


assert_frame_equal = accepting_gframe(pdt.assert_frame_equal)
assert_series_equal = accepting_gframe(pdt.assert_series_equal)
assert_index_equal = accepting_gframe(pdt.assert_index_equal)
assert_extension_array_equal = accepting_gframe(pdt.assert_extension_array_equal)


def _is_comparison(name: str) -> bool:
    return name.startswith("assert_") and (name.endswith("_equal") or name == "assert_equal")


def patch_pandas_testing() -> Callable[[], None]:
    """Make pandas' own ``pandas._testing.assert_*_equal`` (and ``pandas.testing``'s) accept gframe
    objects, for running pandas' test suite against gframe. Returns a function that undoes it.

    Only the module attributes are replaced: pandas' asserters call each other inside
    ``pandas._testing.asserters`` with pandas objects, which are unchanged. A test module that did
    ``from pandas._testing import assert_frame_equal`` before the patch keeps the original: patch
    first, then import the tests (or use :func:`pandas_testing_accepts_gframe` around the run).
    """
    import pandas._testing as tm

    saved: list[tuple[Any, str, Any]] = []
    for module in (tm, pdt):
        for name in dir(module):
            fn = getattr(module, name)
            if _is_comparison(name) and callable(fn) and not getattr(fn, "__gframe_accepting__", False):
                saved.append((module, name, fn))
                setattr(module, name, accepting_gframe(fn))

    def undo() -> None:
        for module, name, fn in reversed(saved):
            setattr(module, name, fn)

    return undo


def pandas_testing_accepts_gframe() -> Any:
    """:func:`patch_pandas_testing` as a context manager (undone on exit).

    >>> import gframe, pandas._testing as tm
    >>> with pandas_testing_accepts_gframe():
    ...     tm.assert_frame_equal(gframe.DataFrame({"a": [1]}), gframe.DataFrame({"a": [1]}))
    """
    import contextlib

    @contextlib.contextmanager
    def patched() -> Any:
        undo = patch_pandas_testing()
        try:
            yield
        finally:
            undo()

    return patched()
