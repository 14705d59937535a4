"""Frames a plan cannot hold: pandas' frames with duplicate column labels, kept as the pandas frame.

gframe's plans address columns by label (``Schema.field``, ``internal_name``), one column per label,
so a frame with two columns ``"a"`` has no plan. pandas programs make such frames routinely
(``pd.DataFrame(values, columns=["a", "a"])``, ``df.columns = list("AA")``, ``concat(axis=1)`` of frames
sharing names), and the fallback must stay transparent for them: a ``HostFrame`` is a gframe
``DataFrame`` (``isinstance`` holds) that holds the pandas frame itself, and every call on it, method,
attribute, operator or indexer, runs through pandas, recorded (``bridge.via_pandas``). The result of
such a call is a plain gframe object again as soon as its column labels are unique.

In-place idioms (``df[k] = v``, ``df.columns = ...``, ``inplace=True``, ``df.loc[k] = v``) run on a
pandas copy and swap the object's contents (``DataFrame._replace_from``): a frame moves between the
two kinds as its labels gain or lose duplicates, keeping its identity.

Native code that reaches for a host frame's plan (``other._plan`` of an argument) gets
``HostOnly``, a ``NotNative``: a full-signature method then runs the whole call through pandas.
"""
from __future__ import annotations

import inspect
import types
from typing import Any

import pandas as pd

from gframe.frontend.bridge import NotNative, call_method, via_pandas
from gframe.frontend.frame import DataFrame

REASON = "duplicate column labels"


class HostOnly(NotNative, AttributeError):
    """A host frame has no plan: native code declines (``NotNative``); ``hasattr(obj, "_plan")`` is False."""


# the attributes a host frame answers itself; every other name is pandas'
_OWN = frozenset({"_host", "__class__", "__dict__", "to_pandas", "_replace_from", "_replace", "_inplace",
                  "__gframe_pandas_type__", "__gframe_full_signature__", "__module__", "__doc__", "loc",
                  "iloc", "at", "iat", "_indexer", "__array_priority__", "__weakref__", "explain"})
# reads a plain DataFrame answers with pandas' objects and Python values (``columns`` is a pandas Index,
# ``dtypes`` a pandas Series): the held frame's, unrecorded (no rows move)
_PLAIN = frozenset({"columns", "dtypes", "shape", "size", "empty", "ndim", "flags", "attrs"})
# in-place operators: pandas changes its frame and returns it
_INPLACE_OPS = frozenset(f"__i{op}__" for op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and",
                                                 "or", "xor", "matmul"))
# the special methods Python looks up on the type (never through ``__getattribute__``)
_SPECIAL = ("__getitem__", "__len__", "__iter__", "__contains__", "__repr__", "__str__", "_repr_html_",
            "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
            "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__divmod__",
            "__rdivmod__", "__matmul__", "__rmatmul__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
            "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__invert__", "__neg__", "__pos__",
            "__abs__", "__round__", "__bool__", "__array__", "__array_ufunc__", "__copy__", "__deepcopy__",
            "__nonzero__", "__dir__", "__sizeof__", "__finalize__")


def hold(obj: DataFrame, pdf: pd.DataFrame) -> None:
    """Make ``obj`` a host frame of ``pdf`` (a shallow copy: later changes to ``pdf`` do not reach it)."""
    obj.__dict__.pop("_plan", None)
    object.__setattr__(obj, "__class__", HostFrame)
    object.__setattr__(obj, "_host", pdf.copy(deep=False))


def host_frame(pdf: pd.DataFrame) -> "HostFrame":
    obj = HostFrame.__new__(HostFrame)
    object.__setattr__(obj, "_host", pdf.copy(deep=False))
    return obj


def _pandas_call(self: Any, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
    return call_method(self, name, args, kwargs, REASON)


def _special(name: str) -> Any:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if name in ("__repr__", "__str__", "_repr_html_", "__len__", "__iter__", "__contains__", "__bool__",
                    "__sizeof__", "__dir__"):
            # reads of the frame itself: nothing is computed, no frame comes back
            return getattr(self._host, name)(*args, **kwargs)
        if name == "__array_ufunc__":
            return via_pandas(f"DataFrame.{name}", getattr(pd.DataFrame, name), (self, *args), kwargs, REASON)
        return _pandas_call(self, name, args, kwargs)

    method.__name__ = name
    return method


def _inplace_op(name: str) -> Any:
    def method(self: Any, other: Any) -> Any:
        def run(pobj: pd.DataFrame, o: Any) -> pd.DataFrame:
            out = pobj.copy(deep=False)
            return getattr(out, name)(o)

        self._replace_from(via_pandas(f"DataFrame.{name}", run, (self, other), {}, REASON))
        return self

    method.__name__ = name
    return method


class _HostIndexer:
    """``loc``/``iloc``/``at``/``iat`` of a host frame: pandas' indexer on the held frame."""

    def __init__(self, frame: "HostFrame", name: str, axis: Any = None) -> None:
        self.frame, self.name, self.axis = frame, name, axis

    def _indexer(self, pobj: pd.DataFrame) -> Any:
        ix = getattr(pobj, self.name)
        return ix if self.axis is None else ix(axis=self.axis)

    def __call__(self, axis: Any = None) -> "_HostIndexer":
        return _HostIndexer(self.frame, self.name, axis)

    def __getitem__(self, key: Any) -> Any:
        return via_pandas(f"DataFrame.{self.name}", lambda p, k: self._indexer(p)[k], (self.frame, key), {}, REASON)

    def __setitem__(self, key: Any, value: Any) -> None:
        def put(pobj: pd.DataFrame, k: Any, v: Any) -> pd.DataFrame:
            pobj = pobj.copy()
            self._indexer(pobj)[k] = v
            return pobj

        self.frame._replace_from(via_pandas(f"DataFrame.{self.name}.__setitem__", put, (self.frame, key, value), {},
                                            REASON))


class HostFrame(DataFrame):
    """A gframe DataFrame held as a pandas frame gframe's plans cannot hold (see the module's text)."""

    _host: pd.DataFrame

    def __getattribute__(self, name: str) -> Any:
        if name in _OWN:
            return object.__getattribute__(self, name)
        if name == "_plan":
            raise HostOnly(REASON)
        if name in _PLAIN:
            return getattr(object.__getattribute__(self, "_host"), name)
        static = inspect.getattr_static(pd.DataFrame, name, None)
        if isinstance(static, (types.FunctionType, staticmethod, classmethod)) or name in _SPECIAL:
            if isinstance(static, (staticmethod, classmethod)):
                fn = getattr(pd.DataFrame, name)
                return lambda *a, **k: via_pandas(f"DataFrame.{name}", fn, a, k, REASON)
            if name in _INPLACE_OPS:
                return types.MethodType(_inplace_op(name), self)
            return lambda *a, **k: _pandas_call(self, name, a, k)
        if static is None and name not in self._host.columns:
            if name.startswith("_"):
                raise AttributeError(name)
            raise AttributeError(f"'DataFrame' object has no attribute {name!r}")
        return via_pandas(f"DataFrame.{name}", getattr, (self, name), {}, REASON)

    def __getattr__(self, name: str) -> Any:
        # Python calls this after ``__getattribute__`` raised AttributeError: keep its verdict
        if name == "_plan":
            raise HostOnly(REASON)
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"'DataFrame' object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _OWN:
            object.__setattr__(self, name, value)
            return
        self._replace_from(via_pandas(f"DataFrame.{name} = ...", _set_on_copy, (self, name, value), {}, REASON))

    def __delitem__(self, key: Any) -> None:
        self._replace_from(via_pandas("DataFrame.__delitem__", _del_on_copy, (self, key), {}, REASON))

    def __setitem__(self, key: Any, value: Any) -> None:
        self._replace_from(via_pandas("DataFrame.__setitem__", _setitem_on_copy, (self, key, value), {}, REASON))

    def to_pandas(self) -> pd.DataFrame:
        """The held pandas frame (a copy-on-write copy): nothing is computed."""
        return self._host.copy(deep=False)

    def explain(self, optimized: bool = True, analyze: bool = False) -> str:
        return f"HostFrame: a pandas frame with {REASON} (every call runs through pandas)"

    # the indexers: pandas' own, over the held frame (``_HostIndexer``)
    loc = property(lambda self: _HostIndexer(self, "loc"))
    iloc = property(lambda self: _HostIndexer(self, "iloc"))
    at = property(lambda self: _HostIndexer(self, "at"))
    iat = property(lambda self: _HostIndexer(self, "iat"))


def _set_on_copy(pobj: pd.DataFrame, name: str, value: Any) -> pd.DataFrame:
    out = pobj.copy(deep=False)
    setattr(out, name, value)
    return out


def _del_on_copy(pobj: pd.DataFrame, key: Any) -> pd.DataFrame:
    out = pobj.copy(deep=False)
    del out[key]
    return out


def _setitem_on_copy(pobj: pd.DataFrame, key: Any, value: Any) -> pd.DataFrame:
    out = pobj.copy(deep=False)
    out[key] = value
    return out


for _name in _SPECIAL:
    if hasattr(pd.DataFrame, _name):
        setattr(HostFrame, _name, _special(_name))
for _name in _INPLACE_OPS:
    if hasattr(pd.DataFrame, _name):
        setattr(HostFrame, _name, _inplace_op(_name))
HostFrame.__hash__ = None  # type: ignore[assignment]
