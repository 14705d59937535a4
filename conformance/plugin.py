"""pytest plugin: run pandas' own test modules with gframe as the ``pandas`` under test.

Loaded with ``-p conformance.plugin``. The mode comes from ``GFRAME_CONFORMANCE_MODE``:

- ``pandas``: nothing is rebound; the run tells which tests pass on pandas itself (the denominator).
- ``fallback``: module globals of ``pandas.tests.*`` and ``pandas.conftest`` that are pandas objects
  (``pd``, ``DataFrame``, ``concat``, ...) are rebound to gframe's; calls gframe does not run natively go
  through pandas (``gframe.options.fallback = "silent"``).
- ``strict``: the same rebinding with ``gframe.options.fallback = "raise"``: a call that would run through
  pandas raises ``gframe.FallbackError``, so a pass means gframe ran the test natively.

Why rebinding after import rather than an import hook that returns gframe for ``import pandas``: the
test modules also import pandas internals (``pandas.core...``, ``pandas._libs``) which must stay pandas',
and pandas' own ``_testing`` helpers must keep comparing pandas objects. Rebinding touches only the names
a test module took from pandas' public namespace. Objects built at import time (parametrize lists of
frames, ``pandas.conftest``'s index dictionary) stay pandas objects; parametrized *classes* and
*functions* (``[DataFrame, Series]``) are swapped in the collected items' call specs.

``pandas._testing``'s ``assert_*`` functions are wrapped for the run only, to convert gframe objects
to pandas (``.to_pandas()``) before comparing, so a comparison judges values, dtypes and labels only.

Every test's outcome is appended, one JSON object a line, to ``GFRAME_CONFORMANCE_OUT`` (when set) as
soon as it is known, so a module killed by the runner's timeout still leaves the outcomes it reached.
A per-test timeout (``GFRAME_CONFORMANCE_TIMEOUT`` seconds, SIGALRM; default 30) fails a hanging test.
``GFRAME_CONFORMANCE_SELECT`` names a file of node ids (relative to the pandas package, as in
``conformance/baseline/*.txt``): only those tests run, the others are deselected (the CI ratchet).
"""
from __future__ import annotations

import functools
import json
import os
import signal
import sys
import traceback
from typing import Any

import pytest

MODE = os.environ.get("GFRAME_CONFORMANCE_MODE", "fallback")
OUT = os.environ.get("GFRAME_CONFORMANCE_OUT")
TIMEOUT = float(os.environ.get("GFRAME_CONFORMANCE_TIMEOUT", "30"))
SELECT = os.environ.get("GFRAME_CONFORMANCE_SELECT")

if MODE not in ("pandas", "fallback", "strict"):
    raise ValueError(f"GFRAME_CONFORMANCE_MODE must be pandas, fallback or strict, got {MODE!r}")


class ConformanceTimeout(Exception):
    """A test ran past the per-test timeout."""


# ---------------------------------------------------------------- conversion of gframe objects

def _is_gframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("gframe.") and hasattr(obj, "to_pandas")


def _to_pandas(obj: Any) -> Any:
    """gframe frames/series/indexes -> pandas; containers walked one level deep (lists, tuples, dicts)."""
    if _is_gframe(obj):
        return obj.to_pandas()
    if type(obj) in (list, tuple):
        return type(obj)(_to_pandas(o) if _is_gframe(o) else o for o in obj)
    if type(obj) is dict:
        return {k: _to_pandas(v) if _is_gframe(v) else v for k, v in obj.items()}
    return obj


def _accepting_gframe(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*(_to_pandas(a) for a in args), **{k: _to_pandas(v) for k, v in kwargs.items()})

    wrapper.__conformance_wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


# ---------------------------------------------------------------- the substitution table

_SUBST: dict[int, tuple[Any, Any]] = {}  # id(pandas object) -> (pandas object kept alive, gframe's)


def _build_substitutions() -> None:
    import pandas
    import pandas._testing as tm
    import pandas.testing
    from pandas._testing import asserters

    import gframe

    _SUBST[id(pandas)] = (pandas, gframe)
    for name in dir(pandas):
        if name.startswith("_"):
            continue
        pobj = getattr(pandas, name)
        try:
            gobj = getattr(gframe, name)
        except AttributeError:
            continue
        if gobj is not pobj and not isinstance(pobj, type(sys)):
            _SUBST[id(pobj)] = (pobj, gobj)
    # assert_* accept gframe objects: wrap once, install in every module that exposes them
    wrapped: dict[int, Any] = {}
    for mod in (asserters, tm, pandas.testing):
        for name in dir(mod):
            fn = getattr(mod, name)
            # (``get_dtype`` too: it reads ``dtypes`` of what passes pandas' ``isinstance(obj, DataFrame)``)
            if (name.startswith("assert_") or name == "get_dtype") and callable(fn) \
                    and not hasattr(fn, "__conformance_wrapped__"):
                if id(fn) not in wrapped:
                    wrapped[id(fn)] = _accepting_gframe(fn)
                    _SUBST[id(fn)] = (fn, wrapped[id(fn)])
                setattr(mod, name, wrapped[id(fn)])


    # ``tm.box_expected(values, box)`` builds a test's input and expected values in the box under test
    # (``box_with_array``: Index, Series, DataFrame, array): given gframe's class, the box pandas' own
    # helper makes of the values, as gframe's object (gframe's ``array`` is pandas' arrays, kept so)
    if not hasattr(tm.box_expected, "__conformance_wrapped__"):
        boxed = _boxing_in_gframe(tm.box_expected)
        _SUBST[id(tm.box_expected)] = (tm.box_expected, boxed)
        tm.box_expected = boxed


def _boxing_in_gframe(fn: Any) -> Any:
    import pandas

    import gframe

    pandas_of = {id(getattr(gframe, name)): getattr(pandas, name) for name in ("Index", "Series", "DataFrame", "array")}
    gframe_of = {pandas.Index: gframe.Index, pandas.Series: gframe.Series, pandas.DataFrame: gframe.DataFrame}

    @functools.wraps(fn)
    def wrapper(expected: Any, box_cls: Any, *args: Any, **kwargs: Any) -> Any:
        pbox = pandas_of.get(id(box_cls), box_cls)
        out = fn(_to_pandas(expected), pbox, *args, **kwargs)
        return gframe_of[pbox](out) if pbox is not box_cls and pbox in gframe_of else out

    wrapper.__conformance_wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def _rebind_module(mod: Any) -> int:
    """Replace the module's globals that are pandas objects gframe also has; return how many."""
    n = 0
    for name, value in list(vars(mod).items()):
        hit = _SUBST.get(id(value))
        if hit is not None and hit[0] is value:
            setattr(mod, name, hit[1])
            n += 1
    return n


def _rebind_test_modules() -> None:
    for modname, mod in list(sys.modules.items()):
        if mod is not None and (modname.startswith("pandas.tests") or modname == "pandas.conftest"):
            _rebind_module(mod)
            _wrap_internal_helpers(mod)


_INTERNAL_WRAPPED: dict[int, Any] = {}


def _wrap_internal_helpers(mod: Any) -> None:
    """Functions of pandas' internals a test module imported by name (``from pandas.core.resample
    import _asfreq_compat``) build the test's expected values, like ``assert_*`` judge them: they get
    pandas objects (gframe arguments converted), and their results stay pandas'."""
    import types

    for name, value in list(vars(mod).items()):
        if not isinstance(value, (types.FunctionType, types.BuiltinFunctionType)) or id(value) in _SUBST:
            continue
        module = getattr(value, "__module__", None) or ""
        if not module.startswith(("pandas.core", "pandas.io", "pandas.tseries", "pandas._libs")):
            continue
        if id(value) not in _INTERNAL_WRAPPED:
            _INTERNAL_WRAPPED[id(value)] = (value, _accepting_gframe(value))
        setattr(mod, name, _INTERNAL_WRAPPED[id(value)][1])


# ---------------------------------------------------------------- hooks

def pytest_configure(config: pytest.Config) -> None:
    if MODE == "pandas":
        return
    import gframe

    gframe.options.fallback = "raise" if MODE == "strict" else "silent"
    _build_substitutions()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if SELECT:
        with open(SELECT) as fh:
            wanted = {line.strip() for line in fh if line.strip()}
        keep = [it for it in items if _relative(it.nodeid) in wanted]
        config.hook.pytest_deselected(items=[it for it in items if _relative(it.nodeid) not in wanted])
        items[:] = keep
    if MODE == "pandas":
        return
    _rebind_test_modules()
    for item in items:
        spec = getattr(item, "callspec", None)
        if spec is None:
            continue
        for key, value in list(spec.params.items()):
            hit = _SUBST.get(id(value))
            if hit is not None and hit[0] is value:
                spec.params[key] = hit[1]
            elif type(value) in (list, tuple):
                spec.params[key] = type(value)(
                    _SUBST[id(v)][1] if id(v) in _SUBST and _SUBST[id(v)][0] is v else v for v in value
                )


def _relative(nodeid: str) -> str:
    """``.../pandas/tests/x.py::t`` -> ``tests/x.py::t`` (the baseline files' form)."""
    i = nodeid.find("pandas/tests/")
    return nodeid[i + len("pandas/"):] if i >= 0 else nodeid


def _on_alarm(signum: int, frame: Any) -> None:
    raise ConformanceTimeout(f"test ran past {TIMEOUT:g} s")


def _time_limited() -> Any:
    """A hook wrapper that bounds one test phase (setup, call) by ``TIMEOUT`` seconds."""
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    yield from _time_limited()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    yield from _time_limited()


_STATE: dict[str, dict[str, Any]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    outcome = yield
    report = outcome.get_result()
    rec = _STATE.setdefault(item.nodeid, {"outcome": "passed"})
    if report.skipped:
        rec["outcome"] = "xfailed" if hasattr(report, "wasxfail") else "skipped"
    elif report.failed and rec["outcome"] == "passed":
        rec["outcome"] = "failed"
        exc = call.excinfo
        if exc is not None:
            rec["when"] = call.when
            rec["exc"] = exc.type.__name__
            # first lines: assert_*_equal puts the kind of difference on the second ("Attribute "dtype" ...")
            rec["msg"] = " | ".join([x for x in str(exc.value).splitlines() if x.strip()][:3])[:400]
            tb = traceback.extract_tb(exc.tb)
            # the innermost frame outside pytest/pluggy: where the error was raised
            where = [f"{os.path.basename(f.filename)}:{f.name}" for f in tb
                     if "_pytest" not in f.filename and "pluggy" not in f.filename]
            rec["where"] = where[-1] if where else ""
            rec["text"] = "".join(f"{f.filename} {f.name} {f.line}\n" for f in tb[-8:])[-2000:]
    if report.passed and hasattr(report, "wasxfail"):
        rec["xpassed"] = True
    if report.when == "teardown":  # pytest tears down every item, also after a failed setup
        _emit(item.nodeid, rec)


def _emit(nodeid: str, rec: dict[str, Any]) -> None:
    if OUT is None or rec.get("emitted"):
        return
    rec["emitted"] = True
    line = {"nodeid": nodeid, **{k: v for k, v in rec.items() if k != "emitted"}}
    with open(OUT, "a") as fh:
        fh.write(json.dumps(line) + "\n")
