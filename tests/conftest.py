"""Shared fixtures for the gframe test suite.

Every test builds its input *inside* the lambda given to ``assert_matches_pandas`` so the same
code runs once with ``pandas`` and once with ``gframe``. The fixtures here only hold plain python
data (dicts of lists) and paths.
"""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

NaN = float("nan")


def module_under_test():
    """gframe, or pandas itself in self-check mode (mirrors gframe.testing)."""
    if os.environ.get("GFRAME_TEST_SELFCHECK") == "1":
        import pandas

        return pandas
    import gframe

    return gframe


@pytest.fixture
def gf():
    """The module under test (gframe, or pandas when GFRAME_TEST_SELFCHECK=1)."""
    return module_under_test()


@pytest.fixture
def num_data():
    """Numeric columns with NaN; ``k`` is a small-cardinality int key."""
    return {
        "k": [1, 2, 1, 3, 2, 1, 3, 2],
        "i": [5, -3, 0, 7, 2, 2, -8, 4],
        "f": [1.5, NaN, -2.25, 0.0, 3.0, NaN, 10.5, -1.0],
        "b": [True, False, True, True, False, False, True, False],
    }


@pytest.fixture
def mixed_data():
    """Strings with None, floats with NaN, ints and datetimes with NaT."""
    return {
        "s": ["apple", None, "Banana", "cherry", "apple", "date"],
        "g": ["x", "y", "x", None, "y", "x"],
        "v": [1.0, 2.0, NaN, 4.0, 5.0, 6.0],
        "n": [10, 20, 30, 40, 50, 60],
        "t": ["2021-03-01 10:15:30", None, "2020-12-31 23:59:59", "2021-01-15 00:00:00",
              "2021-03-01 08:00:00", "2022-07-04 12:30:45"],
    }


@pytest.fixture
def sales_data():
    """A small 'sales' table used by groupby / merge tests."""
    return {
        "store": ["s1", "s2", "s1", "s3", "s2", "s1", None, "s3", "s2"],
        "item": ["a", "b", "a", "c", "a", "b", "a", None, "b"],
        "qty": [3, 1, 4, 1, 5, 9, 2, 6, 5],
        "price": [2.5, 10.0, NaN, 3.0, 2.5, 10.0, 2.5, 3.0, NaN],
    }


@pytest.fixture
def left_data():
    return {"key": ["a", "b", "b", "c", None, "e"], "lv": [1, 2, 3, 4, 5, 6]}


@pytest.fixture
def right_data():
    return {"key": ["b", "c", "c", "d", None, "a"], "rv": [10.0, 20.0, 30.0, NaN, 50.0, 60.0]}


def isnan(x):
    return isinstance(x, float) and math.isnan(x)


__all__ = ["NaN", "module_under_test", "isnan", "np"]


@pytest.fixture(autouse=True)
def _selfcheck_passthrough(monkeypatch):
    """In self-check mode both sides are pandas, so ``to_pandas`` must not need gframe's classes.

    (``gframe.testing.to_pandas`` imports gframe for non-pandas results such as scalars, strings
    and numpy arrays; while gframe is incomplete that import could fail.)
    """
    if os.environ.get("GFRAME_TEST_SELFCHECK") == "1":
        import gframe.testing as gt

        def passthrough(obj):
            if isinstance(obj, tuple):
                return tuple(passthrough(o) for o in obj)
            if isinstance(obj, list):
                return [passthrough(o) for o in obj]
            return obj

        monkeypatch.setattr(gt, "to_pandas", passthrough)
    yield


# ------------------------------------------------------------------ optimizer verification mode
# ``pytest --verify-optimizer`` (or GFRAME_VERIFY_OPTIMIZER=1) runs every query of every test with
# the optimizer on and off and asserts equal results (``gframe.engines._verify``).

def pytest_addoption(parser):
    parser.addoption("--verify-optimizer", action="store_true", default=False,
                     help="run every gframe query optimized and unoptimized and assert equal results")


# fixtures that count engine executions: verification runs each plan a second time
_COUNTS_EXECUTIONS = ("executions",)


@pytest.fixture(autouse=True)
def _optimizer_verification(request):
    if os.environ.get("GFRAME_TEST_SELFCHECK") == "1":
        yield
        return
    import gframe

    on = request.config.getoption("--verify-optimizer") or gframe.options.verify_optimizer
    if any(name in request.fixturenames for name in _COUNTS_EXECUTIONS):
        on = False
    with gframe.option_context(verify_optimizer=on):
        yield


@pytest.fixture
def native():
    """The calls in the test run natively (a trip to pandas raises FallbackError)."""
    import gframe

    old = gframe.options.fallback
    gframe.options.fallback = "raise"
    yield
    gframe.options.fallback = old
