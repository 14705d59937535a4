"""pandas' own docstrings on gframe's classes, with gframe's notes appended.

gframe mirrors pandas' API, so the best description of ``gframe.DataFrame.merge`` is pandas' own:
``help()``, IPython's ``?`` and the API reference (mkdocstrings, which inspects the live objects)
show pandas' text followed by a short "gframe" section - the method's own docstring where gframe
has one (it says what differs or why), else a general note on laziness and fallback.

Called once per class from ``bridge.wraps_pandas``, at class creation: no cost per call, and a
method gframe adds or changes keeps its own text under pandas'.
"""
from __future__ import annotations

import inspect
import types
from typing import Any

import pandas as pd

_MARK = "__gframe_pandas_doc__"  # set on a function whose __doc__ this module already rewrote

GENERAL_NOTE = (
    "Runs on gframe's active engine where a native kernel exists, else through pandas (recorded in "
    "``gframe.fallback_report()``); see the API coverage table and 'Known differences from pandas' "
    "in gframe's documentation."
)


def _gframe_section(own: str | None) -> str:
    body = inspect.cleandoc(own) if own else GENERAL_NOTE
    # a plain "Notes"-like paragraph (not a numpydoc section header, which pandas' text already
    # uses): docstring parsers keep it as prose at the end
    return f"\n\n**gframe:**\n\n{body}\n"


def combine(pandas_doc: str | None, own: str | None) -> str | None:
    """pandas' docstring, then gframe's note (gframe's own text where it has one)."""
    if not pandas_doc:
        return own
    return inspect.cleandoc(pandas_doc) + _gframe_section(own)


def _pandas_attr(pandas_types: tuple[type, ...], name: str) -> Any:
    for t in pandas_types:
        found = inspect.getattr_static(t, name, None)
        if found is not None:
            return found
    return None


def _doc_of(obj: Any) -> str | None:
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    return getattr(obj, "__doc__", None)


def inherit_pandas_docs(cls: type, pandas_type: type) -> None:
    """Give ``cls`` and its public members (own and from gframe base classes) pandas' docstrings.

    A member defined on ``cls`` takes the doc of ``pandas_type``'s member of that name; one defined on a
    gframe base class (shared by DataFrame and Series) takes pandas' shared ``NDFrame`` text where
    pandas has one, so it reads right for both. Where pandas documents it per class only
    (``DataFrame.to_numpy`` vs ``Series.to_numpy``), ``cls`` gets its own copy of the function
    (same code, no extra call) carrying ``pandas_type``'s text.
    """
    cls.__doc__ = combine(pandas_type.__doc__, cls.__doc__)
    for klass in cls.__mro__:
        if klass is object or not klass.__module__.startswith("gframe"):
            continue
        for name, member in list(vars(klass).items()):
            if name.startswith("_") or (klass is not cls and name in vars(cls)):
                continue
            if klass is cls:
                _set_doc(cls, name, member, _doc_of(_pandas_attr((pandas_type,), name)))
                continue
            shared = _doc_of(_pandas_attr((pd.core.generic.NDFrame,), name))
            if shared:
                _set_doc(klass, name, member, shared)
            elif inspect.isfunction(member) and _doc_of(_pandas_attr((pandas_type,), name)):
                setattr(cls, name, _clone(member))
                _set_doc(cls, name, vars(cls)[name], _doc_of(_pandas_attr((pandas_type,), name)))


def _clone(fn: Any) -> Any:
    """A copy of ``fn`` that can carry its own ``__doc__`` (code, globals, defaults and closure shared)."""
    out = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
    out.__kwdefaults__ = fn.__kwdefaults__
    out.__dict__.update({k: v for k, v in fn.__dict__.items() if k != _MARK})
    out.__qualname__, out.__module__, out.__annotations__ = fn.__qualname__, fn.__module__, fn.__annotations__
    out.__doc__ = getattr(fn, "__gframe_own_doc__", fn.__doc__)
    return out


def _set_doc(klass: type, name: str, member: Any, pandas_doc: str | None) -> None:
    if not pandas_doc:
        return
    target = member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
    if getattr(target, _MARK, False):
        return
    if isinstance(target, property):
        # a property's doc is fixed at construction: rebuild it with the combined text
        setattr(klass, name, property(target.fget, target.fset, target.fdel, combine(pandas_doc, target.__doc__)))
        return
    if not inspect.isfunction(target):
        return  # accessors, constants: keep gframe's own
    target.__gframe_own_doc__ = target.__doc__  # type: ignore[attr-defined]
    target.__doc__ = combine(pandas_doc, target.__doc__)
    setattr(target, _MARK, True)
