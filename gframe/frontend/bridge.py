"""The pandas bridge: everything the frontend runs through pandas goes through ``via_pandas``.

``via_pandas(api, fn, args, kwargs, reason)`` checks strict mode, converts gframe inputs to pandas,
runs the pandas callable, wraps the result back into gframe objects and records a
``FallbackEvent`` (``gframe.fallback``, the report below the engines). Method calls, attribute
reads and attribute/item assignment all come here, so every trip to pandas shows in
``fallback_report()``. Which gframe class wraps which pandas result is declared at each class
(``@wraps_pandas(pd.DataFrame)``), so this module imports no frontend class.

Every public method of a frontend class takes pandas' full signature (``full_signatures``, applied
once per class at its creation): a call the native method does not take, or one it declines with
``NotNative``, runs through pandas for that call. The fallback is transparent: arguments reach
pandas as given, and a wrapped result converts back to pandas' object exactly (its host copy).
"""
from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import os
import re
import sys
import time
import types
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd

from gframe.fallback import FallbackEvent, check, record, user_stacklevel
from gframe.plan.schema import PYOBJECT, is_opaque

# pandas type -> function(pandas object, api) -> gframe object (DataFrame, Series, Index)
_WRAPPERS: dict[type, Callable[[Any, str], Any]] = {}
_GFRAME_TYPES: list[type] = []


def wraps_pandas(pandas_type: type, wrap: Callable[[type, Any, str], Any] | None = None) -> Callable[[type], type]:
    """Class decorator: results of ``pandas_type`` from pandas come back as this class.

    ``wrap(cls, obj, api)`` builds the gframe object; the default is ``cls._from_pandas(obj, origin=...)``.
    The class's methods also take ``pandas_type``'s full signatures (``full_signatures``).
    """

    def register(cls: type) -> type:
        make = wrap or (lambda c, obj, api: c._from_pandas(obj, origin=f"pandas {api}"))
        _WRAPPERS[pandas_type] = functools.partial(make, cls)
        _GFRAME_TYPES.append(cls)
        from gframe.frontend.docstrings import inherit_pandas_docs

        inherit_pandas_docs(cls, pandas_type)  # help(gframe.DataFrame.merge) shows pandas' text
        run = call_method if pandas_type in (pd.DataFrame, pd.Series) else _call_dynamic(pandas_type.__name__)
        return full_signatures(pandas_type, run)(cls)

    return register


def as_pandas(obj: Any, counter: list[int] | None = None, wrap_functions: bool = True) -> Any:
    """``obj`` with every gframe object in it (also inside lists, tuples, dicts) computed to pandas;
    ``counter[0]`` counts the rows moved.

    Anything without a gframe object in it reaches pandas unchanged (the same object: a
    ``defaultdict`` keeps its ``__missing__``, a namedtuple its type, ``np.sum`` its identity, which
    pandas tests). A user's Python function is wrapped so its gframe results become pandas; the
    wrapper keeps the function's ``__name__`` (pandas labels ``agg([f])`` results with it); not with
    ``wrap_functions=False`` (a function pandas compiles with numba must reach it as written)."""
    counter = counter if counter is not None else [0]
    if isinstance(obj, tuple(_GFRAME_TYPES)):
        out = obj.to_pandas()
        counter[0] += len(out)
        return out
    if isinstance(obj, PandasProxy):
        return obj._obj
    if isinstance(obj, (list, tuple)):
        items = [as_pandas(o, counter, wrap_functions) for o in obj]
        if all(a is b for a, b in zip(items, obj)):
            return obj
        if isinstance(obj, tuple) and hasattr(obj, "_fields"):
            return type(obj)(*items)  # a namedtuple
        return type(obj)(items)
    if isinstance(obj, dict):
        values = {k: as_pandas(v, counter, wrap_functions) for k, v in obj.items()}
        if all(values[k] is v for k, v in obj.items()):
            return obj
        out = copy.copy(obj)  # keeps a dict subclass (defaultdict, OrderedDict) and its attributes
        out.update(values)
        return out
    if isinstance(obj, types.FunctionType) and (obj.__module__ or "").startswith("gframe."):
        counterpart = _pandas_method(obj)
        if counterpart is not None:  # ``gb.apply(pd.Series.value_counts)``: pandas' method for pandas' groups
            return counterpart
    if wrap_functions and isinstance(obj, (types.FunctionType, types.MethodType, functools.partial)) \
            and not _is_pandas_or_numpy(obj):
        return _wrap_callable(obj)
    return obj


def _pandas_method(fn: Callable[..., Any]) -> Callable[..., Any] | None:
    """pandas' method for a gframe class's unbound method (``gframe.Series.value_counts`` ->
    ``pandas.Series.value_counts``), or None: pandas calls it on its own objects."""
    name = fn.__name__
    for cls in _GFRAME_TYPES:
        if cls.__dict__.get(name) is fn or getattr(cls, name, None) is fn:
            return getattr(getattr(cls, "__gframe_pandas_type__", None), name, None)
    return None


def _is_pandas_or_numpy(fn: Any) -> bool:
    module = getattr(fn, "__module__", None) or getattr(getattr(fn, "func", None), "__module__", None) or ""
    if module.startswith("pandas.tests"):  # pandas' own tests run on gframe (conformance/): user code there
        return False
    return module.split(".")[0] in ("pandas", "numpy", "builtins")


def _wrap_callable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A user function given to a pandas method may return gframe objects: hand pandas pandas."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return as_pandas(fn(*args, **kwargs))

    try:
        functools.update_wrapper(call, fn)
    except (AttributeError, TypeError):  # a partial has no __name__
        pass
    return call


def _is_gframe(obj: Any) -> bool:
    return type(obj).__module__.startswith("gframe.")


def from_pandas_result(obj: Any, api: str) -> Any:
    """Wrap a pandas result as a gframe object (frames, series, indexes, also inside a tuple or a list);
    pandas' handles (Rolling, GroupBy, accessors, Styler...) become a ``PandasProxy`` whose calls keep
    falling back; values (scalars, ``NA``, dtypes, arrays, offsets) pass through as pandas returned them.

    A wrapped frame keeps the pandas frame it came from (``interop.host_copy``), so converting it back
    gives pandas' answer exactly: dtypes, labels, index and names."""
    for ptype in (pd.DataFrame, pd.Series):
        if isinstance(obj, ptype) and ptype in _WRAPPERS:
            try:
                return _WRAPPERS[ptype](obj, api)
            except (TypeError, ValueError):
                return PandasProxy(obj, api)
    if isinstance(obj, pd.Index) and pd.Index in _WRAPPERS:
        return _WRAPPERS[pd.Index](obj, api)
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(from_pandas_result(o, api) for o in obj)
    if isinstance(obj, list) and obj and all(isinstance(o, (pd.DataFrame, pd.Series)) for o in obj):
        return [from_pandas_result(o, api) for o in obj]
    if _is_pandas_handle(obj):
        return PandasProxy(obj, api)
    return obj


# pandas objects that are values, not handles to compute on: returned as pandas returns them
_PANDAS_VALUES: tuple[type, ...] = (type(pd.NA), type(pd.NaT), pd.Timestamp, pd.Timedelta, pd.Period, pd.Interval,
                                    pd.offsets.BaseOffset, pd.api.extensions.ExtensionDtype,
                                    pd.api.extensions.ExtensionArray, pd.Flags)


def _is_pandas_handle(obj: Any) -> bool:
    module = type(obj).__module__
    return (module.startswith("pandas.") and not module.startswith("pandas._libs")
            and not isinstance(obj, _PANDAS_VALUES) and not isinstance(obj, type))


def via_pandas(api: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], reason: str) -> Any:
    """Run ``fn`` (a pandas callable) on pandas versions of ``args``; record it; wrap the result."""
    check(api, reason)
    t0 = time.perf_counter()
    counter = [0]
    # ``engine="numba"``: pandas compiles the user's function, which cannot return gframe objects
    wrap = kwargs.get("engine") != "numba"
    pargs = as_pandas(args, counter, wrap)
    pkwargs = as_pandas(kwargs, counter, wrap)
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:  # the filters in force stay as they are
            out = fn(*pargs, **pkwargs)
    finally:  # pandas' warnings also where it then raises (a deprecation warned before the error)
        _reissue(caught)
    res = from_pandas_result(out, api)
    record(FallbackEvent(api, reason, counter[0], time.perf_counter() - t0))
    return res


_GFRAME_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_PANDAS_DIR = os.path.dirname(os.path.abspath(pd.__file__)) + os.sep
_PANDAS_TESTS_DIR = _PANDAS_DIR + "tests" + os.sep


_CONTEXTLIB = os.path.abspath(contextlib.__file__)


def _library_file(filename: str) -> bool:
    return filename.startswith(_GFRAME_DIR) or (filename.startswith(_PANDAS_DIR) and not filename.startswith(
        _PANDAS_TESTS_DIR)) or filename == _CONTEXTLIB


def _reissue(caught: list[warnings.WarningMessage]) -> None:
    """Warn again what pandas warned during a trip, pointing at the user's line.

    pandas aims its warnings (``find_stack_level``) at the first frame outside pandas, which on a
    trip through the bridge is a gframe frame; pandas programs (and pandas' ``assert_produces_warning``,
    which checks the file) expect the caller's line, as a direct pandas call gives. A warning aimed
    elsewhere (inside pandas or numpy, a user function's) is issued again where it was aimed."""
    if not caught:
        return
    frame = sys._getframe(1)
    while frame is not None and _library_file(frame.f_code.co_filename):
        frame = frame.f_back
    for w in caught:
        # aimed at a gframe frame: pandas' ``find_stack_level`` stopped there; one aimed inside pandas
        # (numpy's floating-point warnings) stays there, as on a direct pandas call
        if frame is not None and (w.filename.startswith(_GFRAME_DIR) or w.filename == _CONTEXTLIB):
            g = frame.f_globals
            warnings.warn_explicit(w.message, w.category, frame.f_code.co_filename, frame.f_lineno,
                                   module=g.get("__name__"), registry=g.setdefault("__warningregistry__", {}))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


@contextlib.contextmanager
def user_warnings() -> Any:
    """Run pandas code in the block with its warnings aimed at the user's line (``_reissue``)."""
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            yield
    finally:
        _reissue(caught)


def holds_gframe(obj: Any) -> bool:
    """Whether ``obj`` (arguments: tuples, lists, dicts walked) holds a gframe object or a user
    function (which may return one): what a trip to pandas would convert."""
    return as_pandas(obj) is not obj


def build_with_pandas(api: str, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``fn`` (a pandas constructor of labels or arrays: ``date_range``, ``array``) on Python values,
    unrecorded: like ``gframe.Index(data)``, it builds host labels and moves no frame data. The
    caller checks ``holds_gframe`` first (gframe data as input is a trip, ``via_pandas``). pandas'
    warnings point at the user's line, as on a trip."""
    with warnings.catch_warnings(record=True) as caught:
        out = fn(*args, **kwargs)
    _reissue(caught)
    return from_pandas_result(out, api)


# ------------------------------------------------------------------ the shapes of a trip to pandas

def _pandas_class(obj: Any) -> type:
    return pd.DataFrame if getattr(obj, "ndim", 1) == 2 else pd.Series


def call_method(obj: Any, name: str, args: tuple, kwargs: dict[str, Any], reason: str = "argument combination not native") -> Any:
    """``obj.name(*args, **kwargs)`` through pandas, the arguments as given; ``inplace=True`` runs
    pandas' own in-place call on a copy and swaps ``obj``'s data for the result."""
    cls = _pandas_class(obj)
    api = f"{cls.__name__}.{name}"
    if kwargs.get("inplace") is True or name in _MUTATORS:
        returned_self = []

        def run_inplace(pobj: Any, *a: Any, **k: Any) -> Any:
            target = pobj.copy(deep=False)
            out = getattr(target, name)(*a, **k)
            returned_self.append(out is target)
            return target if out is None or out is target else out

        new = via_pandas(api, run_inplace, (obj, *args), kwargs, reason)
        _swap(obj, new)
        # pandas 3.1 returns the object itself from ``fillna``/``replace``/``where``... in place (PDEP-8)
        return obj if returned_self and returned_self[0] else None
    return via_pandas(api, getattr(cls, name), (obj, *args), kwargs, reason)


# pandas methods that change the object itself and return None, without an ``inplace`` argument
_MUTATORS = frozenset({"update"})


def _call_dynamic(kind: str) -> Callable[..., Any]:
    """The fallback of a class whose pandas counterpart has subclasses (an Index may be a
    MultiIndex): the method is looked up on the pandas object itself."""

    def run(obj: Any, name: str, args: tuple, kwargs: dict[str, Any], reason: str = "not native") -> Any:
        def call(pobj: Any, *a: Any, **k: Any) -> Any:
            return getattr(pobj, name)(*a, **k)

        return via_pandas(f"{kind}.{name}", call, (obj, *args), kwargs, reason)

    return run


def _swap(obj: Any, new: Any) -> None:
    """Make ``obj`` (a gframe DataFrame or Series) hold ``new``'s data: pandas' in-place idioms."""
    if hasattr(type(obj), "_replace_from"):
        obj._replace_from(new)
    else:
        obj._replace(new._plan)


def _is_method(pandas_cls: type, name: str) -> bool:
    """Whether pandas' ``name`` is called (a function) rather than read (a property, an accessor
    such as ``.cat``/``.sparse``/``.plot``, a cached attribute)."""
    try:
        attr = inspect.getattr_static(pandas_cls, name)
    except AttributeError:
        return False
    return isinstance(attr, (types.FunctionType, staticmethod, classmethod, types.BuiltinFunctionType,
                             types.MethodDescriptorType, types.WrapperDescriptorType))


_PRIVATE_KINDS: tuple[type, ...] = (types.FunctionType, property, functools.cached_property,
                                    type(inspect.getattr_static(pd.Index, "_can_hold_na")))


def pandas_private(pandas_cls: type, name: str) -> bool:
    """Whether ``name`` is one of pandas' private methods or properties (``_values``, ``_ixs``,
    ``_with_freq``...), which pandas' testing helpers and programs written against pandas read:
    those read through pandas like any attribute gframe lacks. Dunders, IPython's display probes
    and class data are not: ``_typ`` would make a gframe object pass pandas' ``isinstance`` checks
    (``ABCDataFrame``), and pandas would then reach for its block manager."""
    if name.startswith(("__", "_repr_", "_ipython")) or name == "_typ":
        return False
    return isinstance(inspect.getattr_static(pandas_cls, name, None), _PRIVATE_KINDS)


def pandas_private_method(pandas_cls: type, name: str) -> bool:
    """``pandas_private`` for handles whose fallback calls methods (group-bys, resamplers)."""
    return pandas_private(pandas_cls, name) and isinstance(inspect.getattr_static(pandas_cls, name), types.FunctionType)


def get_attribute(obj: Any, name: str) -> Any:
    """A pandas attribute gframe does not implement: a method (called through pandas when called)
    or a property or accessor (read through pandas now)."""
    cls = _pandas_class(obj)
    if isinstance(inspect.getattr_static(cls, name, None), (classmethod, staticmethod)):
        fn = getattr(cls, name)  # ``df.from_dict(...)``: pandas' constructor, no instance passed

        def constructor(*args: Any, **kwargs: Any) -> Any:
            return via_pandas(f"{cls.__name__}.{name}", fn, args, kwargs, "not native")

        constructor.__name__ = name
        return constructor
    if _is_method(cls, name):
        def method(*args: Any, **kwargs: Any) -> Any:
            return call_method(obj, name, args, kwargs, "not native")

        method.__name__ = name
        method.__doc__ = getattr(getattr(cls, name), "__doc__", None)
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


def objects_via_pandas(method: Callable[..., Any], routed: Callable[[Any], bool] = is_opaque) -> Callable[..., Any]:
    """Decorator for a method that computes on values: over columns of mixed Python objects
    (``PYOBJECT``) or of pandas' Arrow extension types (interval, period), which engines only move
    (``is_opaque``), it runs through pandas, as pandas applies its own operations to each value."""
    name = method.__name__

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if any(routed(t) for t in self._value_types()):
            return call_method(self, name, args, kwargs)
        return method(self, *args, **kwargs)

    wrapper.__gframe_falls_back_when__ = "columns of Python objects"  # read by gframe.testing.api_coverage
    return wrapper


def pickled_via_pandas(method: Callable[..., Any]) -> Callable[..., Any]:
    """``objects_via_pandas`` for a method that reads only which values are missing (``isna``): the
    engines know that of pandas' extension types (their missing values are nulls), not of pickled
    objects (each one pickled, NaN and None too)."""
    return objects_via_pandas(method, lambda t: t == PYOBJECT)


class PandasProxy:
    """A pandas object without a gframe counterpart (Rolling, Styler...): calls keep falling back."""

    def __init__(self, obj: Any, api: str) -> None:
        object.__setattr__(self, "_obj", obj)
        object.__setattr__(self, "_api", api)

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        """The pandas object's class, so that ``isinstance(idx.str, StringMethods)`` holds as on pandas;
        not for a frame, series or index gframe cannot hold (``Sparse``): gframe's own type checks
        (``isinstance(o, pd.Series)`` -> convert it) must still see the proxy."""
        if isinstance(self._obj, (pd.DataFrame, pd.Series, pd.Index)):
            return PandasProxy
        return type(self._obj)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._obj, name)
        api = f"{self._api}.{name}"
        if callable(attr):
            return lambda *a, **k: via_pandas(api, attr, a, k, "no native equivalent")
        return from_pandas_result(attr, api)

    def __getitem__(self, key: Any) -> Any:
        with user_warnings():  # pandas' warning (``gb.nth[...]`` is deprecated) at the user's line
            out = self._obj[as_pandas(key)]
        return from_pandas_result(out, f"{self._api}[]")

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


# ------------------------------------------------------------------ full signatures, one mechanism

class NotNative(Exception):
    """Raised by a native method for an argument value it does not implement: the method's
    full-signature wrapper (``full_signatures``) catches it and runs the call through pandas."""


_FULL = "__gframe_full_signature__"


@functools.cache
def _signature(fn: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _binds(sig: inspect.Signature | None, args: tuple, kwargs: dict[str, Any]) -> bool:
    if sig is None:
        return True
    try:
        sig.bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def _unexpected(sig: inspect.Signature | None, args: tuple, kwargs: dict[str, Any]) -> str | None:
    """Why ``sig`` does not take this call (too many positionals, an unknown keyword), or None.
    A missing required argument is not reported: Python's own TypeError says it, as pandas'."""
    if sig is None:
        return None
    params = list(sig.parameters.values())
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
        extra = [k for k in kwargs if k not in names]
        if extra:
            return f"keyword {extra[0]!r} not native"
    if not any(p.kind is p.VAR_POSITIONAL for p in params):
        n = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        if len(args) > n:
            return f"{len(args) - 1} positional arguments not native"
    return None


def full_signatures(pandas_type: type, fallback: Callable[..., Any] | None = None) -> Callable[[type], type]:
    """Class decorator: every public method of the class accepts ``pandas_type``'s full signature.

    Each public method the class (or a gframe base) defines that pandas also defines is wrapped
    once here: a call its own signature does not take (an unexpected keyword, more positionals)
    where pandas' signature does, or a call during which the method raises ``NotNative``, runs
    through pandas for that call, recorded, via ``fallback(obj, name, args, kwargs, reason)``
    (``call_method`` by default). Names the class lacks resolve through its ``__getattr__``.
    Methods stay unwrapped when pandas has no such name (gframe's own: ``explain``...)."""

    def decorate(cls: type) -> type:
        run = fallback or call_method
        for name in dir(cls):
            if name.startswith("_") or not hasattr(pandas_type, name):
                continue
            owner = next((k for k in cls.__mro__ if name in k.__dict__), None)
            if owner is None or not owner.__module__.startswith("gframe."):
                continue
            raw = owner.__dict__[name]
            if isinstance(raw, types.FunctionType):
                fn = getattr(raw, "__wrapped__", raw) if getattr(raw, _FULL, False) else raw
                setattr(cls, name, _full_method(fn, name, pandas_type, run))
        cls.__gframe_pandas_type__ = pandas_type
        return cls

    return decorate


def _full_method(fn: Callable[..., Any], name: str, pandas_type: type, run: Callable[..., Any]) -> Callable[..., Any]:
    own = _signature(fn)
    theirs = getattr(pandas_type, name, None)
    deprecated = _deprecated_keywords(pandas_type, name)
    returns_self = pandas_type in (pd.DataFrame, pd.Series) and name in _INPLACE_RETURNS_SELF

    def call(self: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
        why = _unexpected(own, (self, *args), kwargs)
        if why is not None and callable(theirs) and _binds(_signature(theirs), (self, *args), kwargs):
            return run(self, name, args, kwargs, why)
        try:
            out = fn(self, *args, **kwargs)
        except NotNative as e:
            return run(self, name, args, kwargs, str(e) or "argument value not native")
        if out is None and returns_self and kwargs.get("inplace") is True:
            return self
        return out

    @functools.wraps(fn)
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not deprecated:
            return call(self, args, kwargs)
        # pandas' deprecation warnings of keywords the caller passed, at the caller's line, once; those
        # pandas would give for the keywords gframe passes on a trip of its own are not the caller's
        for keyword in _passed(_signature(theirs), (self, *args), kwargs):
            if keyword in deprecated:
                warnings.warn(deprecated[keyword], pd.errors.Pandas4Warning, stacklevel=user_stacklevel())
        with warnings.catch_warnings():
            for message in deprecated.values():
                warnings.filterwarnings("ignore", message=re.escape(message), category=pd.errors.Pandas4Warning)
            return call(self, args, kwargs)

    setattr(method, _FULL, True)
    full = _signature(theirs) if callable(theirs) else None
    if full is not None:  # the method takes pandas' full signature: ``inspect.signature`` says so
        method.__signature__ = full  # type: ignore[attr-defined]
    return method


# pandas 3.1 (PDEP-8): these methods return the object itself when called with ``inplace=True``
_INPLACE_RETURNS_SELF = frozenset({"fillna", "replace", "clip", "where", "mask", "interpolate", "ffill", "bfill"})

# pandas 3.1's keyword deprecations: a keyword whose default is pandas' ``no_default`` warns whenever
# it is passed (``NDFrame._check_inplace_deprecation`` / ``_check_copy_deprecation``)
_DEPRECATION_MESSAGES = {
    "inplace": "The inplace keyword in {cls}.{name} is deprecated and will be removed in a future version (PDEP-8)."
               "\nSee https://pandas.pydata.org/docs/dev/whatsnew/v3.1.0.html#deprecation-inplace for more details.",
    "copy": "The copy keyword is deprecated and will be removed in a future version. Copy-on-Write is active in "
            "pandas since 3.0 which utilizes a lazy copy mechanism that defers copies until necessary. Use "
            ".copy() to make an eager copy if necessary.",
}
_CONVERT_DTYPES_KEYWORDS = ("infer_objects", "convert_string", "convert_integer", "convert_boolean", "convert_floating")


@functools.cache
def _deprecated_keywords(pandas_type: type, name: str) -> dict[str, str]:
    """keyword -> pandas' deprecation message, for ``pandas_type.name`` (read from pandas' signature)."""
    if pandas_type not in (pd.DataFrame, pd.Series) or name == "eval":  # (eval words its own message)
        return {}
    sig = _signature(getattr(pandas_type, name, None))
    if sig is None:
        return {}
    out = {}
    for keyword, param in sig.parameters.items():
        if param.default is not pd.api.extensions.no_default:
            continue
        if keyword in _DEPRECATION_MESSAGES:
            out[keyword] = _DEPRECATION_MESSAGES[keyword].format(cls=pandas_type.__name__, name=name)
        elif name == "set_index" and keyword == "verify_integrity":
            out[keyword] = ("The 'verify_integrity' keyword in DataFrame.set_index is deprecated and will be removed "
                            "in a future version. Directly check the result.index.is_unique instead.")
        elif name == "convert_dtypes" and keyword in _CONVERT_DTYPES_KEYWORDS:
            out[keyword] = (f"The {keyword} keyword in {pandas_type.__name__}.convert_dtypes is deprecated and "
                            "will be removed in a future version.")
    return out


def _passed(sig: inspect.Signature | None, args: tuple, kwargs: dict[str, Any]) -> list[str]:
    """The parameters of ``sig`` this call gives, in the signature's order (pandas warns in that order)."""
    if sig is None:
        return list(kwargs)
    try:
        return list(sig.bind_partial(*args, **kwargs).arguments)
    except TypeError:
        return list(kwargs)
