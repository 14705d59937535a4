"""The pandas bridge: everything the frontend runs through pandas goes through ``via_pandas``.

``via_pandas(api, fn, args, kwargs, reason)`` checks strict mode, converts gframe inputs to pandas,
runs the pandas callable, wraps the result back into gframe objects and records a
``FallbackEvent`` (``gframe.fallback``, the report below the engines). Method calls, attribute
reads and attribute/item assignment all come here, so every trip to pandas shows in
``fallback_report()``. Which gframe class wraps which pandas result is declared at each class
(``@wraps_pandas(pd.DataFrame)``), so this module imports no frontend class.
"""
from __future__ import annotations

import functools
import time
from typing import Any, Callable

import pandas as pd
from gframe.fallback import FallbackEvent, check, record
from gframe.plan.schema import PYOBJECT

# pandas type -> function(pandas object, api) -> gframe object (DataFrame, Series, Index)
_WRAPPERS: dict[type, Callable[[Any, str], Any]] = {}
_GFRAME_TYPES: list[type] = []


def wraps_pandas(pandas_type: type, wrap: Callable[[type, Any, str], Any] | None = None) -> Callable[[type], type]:
    """Class decorator: results of ``pandas_type`` from pandas come back as this class.

    ``wrap(cls, obj, api)`` builds the gframe object; the default is ``cls._from_pandas(obj, origin=...)``.
    """

    def register(cls: type) -> type:
        make = wrap or (lambda c, obj, api: c._from_pandas(obj, origin=f"pandas {api}"))
        _WRAPPERS[pandas_type] = functools.partial(make, cls)
        _GFRAME_TYPES.append(cls)
        from gframe.frontend.docstrings import inherit_pandas_docs

        inherit_pandas_docs(cls, pandas_type)  # help(gframe.DataFrame.merge) shows pandas' text
        return cls

    return register


def as_pandas(obj: Any, counter: list[int] | None = None) -> Any:
    """``obj`` with every gframe object in it (also inside lists, tuples, dicts) computed to pandas;
    ``counter[0]`` counts the rows moved. A callable is wrapped so its gframe results become pandas."""
    counter = counter if counter is not None else [0]
    if isinstance(obj, tuple(_GFRAME_TYPES)):
        out = obj.to_pandas()
        counter[0] += len(out)
        return out
    if isinstance(obj, PandasProxy):
        return obj._obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(as_pandas(o, counter) for o in obj)
    if isinstance(obj, dict):
        return {k: as_pandas(v, counter) for k, v in obj.items()}
    if callable(obj) and not isinstance(obj, type):
        return _wrap_callable(obj)
    return obj


def _wrap_callable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A user function given to a pandas method may return gframe objects: hand pandas pandas."""

    def call(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        return as_pandas(out) if _is_gframe(out) else out

    return call


def _is_gframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("gframe.")


def from_pandas_result(obj: Any, api: str) -> Any:
    """Wrap a pandas result as a gframe object (frames, series, indexes); other values pass through."""
    for ptype in (pd.DataFrame, pd.Series):
        if isinstance(obj, ptype) and ptype in _WRAPPERS:
            try:
                return _WRAPPERS[ptype](obj, api)
            except (TypeError, ValueError):
                return PandasProxy(obj, api)
    if isinstance(obj, pd.Index) and pd.Index in _WRAPPERS:
        return _WRAPPERS[pd.Index](obj, api)
    if isinstance(obj, tuple):
        return tuple(from_pandas_result(o, api) for o in obj)
    if type(obj).__module__.startswith("pandas.") and not isinstance(obj, (pd.Timestamp, pd.Timedelta, pd.Period, pd.Interval)) and obj is not pd.NaT:
        return PandasProxy(obj, api)
    return obj


def via_pandas(api: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], reason: str) -> Any:
    """Run ``fn`` (a pandas callable) on pandas versions of ``args``; record it; wrap the result."""
    check(api, reason)
    t0 = time.perf_counter()
    counter = [0]
    pargs = as_pandas(args, counter)
    pkwargs = as_pandas(kwargs, counter)
    out = fn(*pargs, **pkwargs)
    res = from_pandas_result(out, api)
    record(FallbackEvent(api, reason, counter[0], time.perf_counter() - t0))
    return res


# ------------------------------------------------------------------ the shapes of a trip to pandas

def _pandas_class(obj: Any) -> type:
    return pd.DataFrame if getattr(obj, "ndim", 1) == 2 else pd.Series


def call_method(obj: Any, name: str, args: tuple, kwargs: dict[str, Any], reason: str = "argument combination not native") -> Any:
    """``obj.name(*args, **kwargs)`` through pandas; ``inplace=True`` swaps ``obj``'s plan."""
    cls = _pandas_class(obj)
    fn = getattr(cls, name)
    inplace = kwargs.get("inplace", False)
    if inplace:
        kwargs = {**kwargs, "inplace": False}
    out = via_pandas(f"{cls.__name__}.{name}", fn, (obj, *args), kwargs, reason)
    if inplace:
        obj._replace(out._plan)
        return None
    return out


def get_attribute(obj: Any, name: str) -> Any:
    """A pandas attribute gframe does not implement: a method (called through pandas when called)
    or a property (read through pandas now)."""
    cls = _pandas_class(obj)
    attr = getattr(cls, name)
    if callable(attr) and not isinstance(attr, property):
        def method(*args: Any, **kwargs: Any) -> Any:
            return call_method(obj, name, args, kwargs)

        method.__name__ = name
        return method
    return via_pandas(f"{cls.__name__}.{name}", getattr, (obj, name), {}, "not native")


def _set_on_copy(pobj: Any, setter: Callable[[Any, Any, Any], None], key: Any, value: Any) -> Any:
    out = pobj.copy()
    setter(out, key, value)
    return out


def set_attribute(obj: Any, name: str, value: Any, reason: str = "not native") -> Any:
    """``obj.name = value`` on a pandas copy: the new gframe object (the caller swaps its plan)."""
    return via_pandas(f"{_pandas_class(obj).__name__}.{name} = ...", _set_on_copy, (obj, setattr, name, value), {},
                      reason)


def set_item(obj: Any, key: Any, value: Any, reason: str) -> Any:
    """``obj[key] = value`` on a pandas copy: the new gframe object (the caller swaps its plan)."""
    return via_pandas(f"{_pandas_class(obj).__name__}.__setitem__", _set_on_copy,
                      (obj, _setitem, key, value), {}, reason)


def _setitem(obj: Any, key: Any, value: Any) -> None:
    obj[key] = value


def objects_via_pandas(method: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for a method that computes on values: over columns of mixed Python objects
    (``PYOBJECT``, which engines only move) it runs through pandas, as pandas applies Python's
    operations to each value."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if PYOBJECT in self._value_types():
            return call_method(self, name, args, kwargs)
        return method(self, *args, **kwargs)

    return wrapper


class PandasProxy:
    """A pandas object without a gframe counterpart (Rolling, Styler...): calls keep falling back."""

    def __init__(self, obj: Any, api: str) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_api", api)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._obj, name)
        api = f"{self._api}.{name}"
        if callable(attr):
            return lambda *a, **k: via_pandas(api, attr, a, k, "no native equivalent")
        return from_pandas_result(attr, api)

    def __getitem__(self, key: Any) -> Any:
        return from_pandas_result(self._obj[as_pandas(key)], f"{self._api}[]")

    def __iter__(self) -> Any:
        return iter(self._obj)

    def __len__(self) -> int:
        return len(self._obj)

    def __repr__(self) -> str:
        return repr(self._obj)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return via_pandas(self._api, self._obj, args, kwargs, "no native equivalent")

    def to_pandas(self) -> Any:
        return self._obj
