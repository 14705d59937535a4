"""What DataFrame and Series share (pandas' ``NDFrame``): one body for the methods both spell alike.

A subclass provides ``to_pandas()`` (compute to pandas) and ``_binary(op, other, reflected=False)``
(an element-wise operator as a plan or an expression); the operators, the numpy protocol and the
pandas-only accessors (``at``/``iat``) are written once here on top of those two.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from gframe.frontend.arrow import PANDAS_CONSTRUCTOR_MESSAGE, ArrowInterop, called_by_pandas_constructor
from gframe.frontend.device import DeviceInterop


_DEFAULT = object()
# ``make(obj, kind, params)``: pandas' window objects (``rolling`` / ``expanding`` / ``ewm``), registered by
# ``frontend/window.py``, which builds on DataFrame and Series (this module is below them)
WINDOWS: dict[str, Any] = {}


def _flex_method(name: str, op: str, reflected: bool = False, comparison: bool = False) -> Any:
    """pandas' ``name(other, axis=..., level=None, fill_value=None)`` (DataFrame: axis first and,
    for comparisons, no fill_value; Series: ``(other, level, fill_value, axis)``)."""

    def method(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        if self.ndim == 2:
            params = ("axis", "level") if comparison else ("axis", "level", "fill_value")
            defaults = {"axis": "columns", "level": None, "fill_value": None}
        else:
            params = ("level", "fill_value", "axis")
            defaults = {"level": None, "fill_value": None, "axis": 0}
        if len(args) > len(params):
            raise TypeError(f"{name}() takes from 2 to {len(params) + 2} positional arguments but {len(args) + 2} were given")
        bound = dict(zip(params, args))
        for k, v in kwargs.items():
            if k not in params:
                raise TypeError(f"{type(self).__name__}.{name}() got an unexpected keyword argument '{k}'")
            if k in bound:
                raise TypeError(f"{type(self).__name__}.{name}() got multiple values for argument '{k}'")
            bound[k] = v
        a = {**defaults, **bound}
        return self._flex(name, op, other, a["axis"], a["level"], a["fill_value"], reflected)

    method.__name__ = name
    method.__qualname__ = f"NDFrame.{name}"
    return method


def _inplace_operator(name: str, op: str) -> Any:
    """pandas' ``__iadd__``...: the operator's result becomes the object's contents, and the object is
    returned (also when called by name, ``s.__iadd__(1)``). With a scalar, the native operator (same
    rows, columns and name); with another object, pandas' own in-place operator, which aligns the
    result back to the object's labels (``reindex_like``)."""

    def method(self: Any, o: Any) -> Any:
        from gframe.frontend.bridge import via_pandas
        from gframe.frontend.coerce import is_scalar

        if is_scalar(o):
            new = self._binary(op, o)
        else:
            cls = self.__gframe_pandas_type__
            new = via_pandas(f"{cls.__name__}.{name}", _on_copy(getattr(cls, name)), (self, o), {},
                             "in-place operator with another object")
        self._replace_from(new)
        return self

    method.__name__ = name
    return method


def _on_copy(fn: Any) -> Any:
    def run(pobj: Any, o: Any) -> Any:
        return fn(pobj.copy(), o)

    return run


class NDFrame(ArrowInterop, DeviceInterop):
    """The base of ``DataFrame`` and ``Series`` (with the Arrow protocols of ``frontend/arrow.py`` and
    the GPU interop of ``frontend/device.py``)."""

    __slots__ = ()
    # above pandas' DataFrame (4000): ``pandas_obj * gframe_obj`` defers to gframe's reflected
    # operator (pandas' ``_unpack_zerodim_and_defer``), which converts the pandas operand, instead of
    # pandas computing on the gframe object as a list-like and then building a pandas object from
    # gframe's result (refused: ``called_by_pandas_constructor``)
    __pandas_priority__ = 5000

    @property
    def values(self) -> np.ndarray:
        return self.to_pandas().values

    def to_numpy(self, *args: Any, **kwargs: Any) -> np.ndarray:
        return self.to_pandas().to_numpy(*args, **kwargs)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # pandas.DataFrame(gdf) would read this as a bare 2-D array (labels, index and dtypes lost)
        if called_by_pandas_constructor():
            raise TypeError(PANDAS_CONSTRUCTOR_MESSAGE.format(kind=type(self).__name__))
        return np.asarray(self.to_pandas(), dtype=dtype)

    def __round__(self, decimals: int = 0) -> Any:
        """``round(obj, n)``: pandas' ``round``, as ``NDFrame.__round__``."""
        return self.round(decimals)

    @property
    def at(self) -> Any:
        from gframe.frontend.indexing import AtIndexer

        return AtIndexer(self)

    @property
    def iat(self) -> Any:
        from gframe.frontend.indexing import IAtIndexer

        return IAtIndexer(self)

    def __add__(self, o: Any) -> Any: return self._binary("add", o)
    def __radd__(self, o: Any) -> Any: return self._binary("add", o, True)
    def __sub__(self, o: Any) -> Any: return self._binary("sub", o)
    def __rsub__(self, o: Any) -> Any: return self._binary("sub", o, True)
    def __mul__(self, o: Any) -> Any: return self._binary("mul", o)
    def __rmul__(self, o: Any) -> Any: return self._binary("mul", o, True)
    def __truediv__(self, o: Any) -> Any: return self._binary("truediv", o)
    def __rtruediv__(self, o: Any) -> Any: return self._binary("truediv", o, True)
    def __floordiv__(self, o: Any) -> Any: return self._binary("floordiv", o)
    def __rfloordiv__(self, o: Any) -> Any: return self._binary("floordiv", o, True)
    def __mod__(self, o: Any) -> Any: return self._binary("mod", o)
    def __rmod__(self, o: Any) -> Any: return self._binary("mod", o, True)
    def __pow__(self, o: Any) -> Any: return self._binary("pow", o)
    def __rpow__(self, o: Any) -> Any: return self._binary("pow", o, True)
    def __eq__(self, o: Any) -> Any: return self._binary("eq", o)  # type: ignore[override]
    def __ne__(self, o: Any) -> Any: return self._binary("ne", o)  # type: ignore[override]
    def __lt__(self, o: Any) -> Any: return self._binary("lt", o)
    def __le__(self, o: Any) -> Any: return self._binary("le", o)
    def __gt__(self, o: Any) -> Any: return self._binary("gt", o)
    def __ge__(self, o: Any) -> Any: return self._binary("ge", o)
    def __and__(self, o: Any) -> Any: return self._binary("and", o)
    def __or__(self, o: Any) -> Any: return self._binary("or", o)

    def __divmod__(self, o: Any) -> Any:
        return self._divmod(o, False)

    def __rdivmod__(self, o: Any) -> Any:
        return self._divmod(o, True)

    def _divmod(self, o: Any, reflected: bool) -> Any:
        """pandas' ``divmod``: the pair ``(self // o, self % o)``, each with pandas' rules of its
        operator (``1 // 0`` is inf); pandas' own exception where it refuses ``divmod`` for the dtypes."""
        from gframe.frontend.verdict import verdict

        verdict("divmod", self, o, reflected)
        div = self._binary("floordiv", o, reflected)
        if div is NotImplemented:
            return NotImplemented
        return div, self._binary("mod", o, reflected)

    # pandas' flexible operators (``add(other, axis, level, fill_value)``...): a subclass's
    # ``_flex(name, op, other, axis, level, fill_value, reflected)`` runs the common cases natively
    # and hands the others to pandas (recorded)
    add = _flex_method("add", "add")
    sub = subtract = _flex_method("sub", "sub")
    mul = multiply = _flex_method("mul", "mul")
    truediv = div = divide = _flex_method("truediv", "truediv")
    floordiv = _flex_method("floordiv", "floordiv")
    mod = _flex_method("mod", "mod")
    pow = _flex_method("pow", "pow")
    radd = _flex_method("radd", "add", True)
    rsub = _flex_method("rsub", "sub", True)
    rmul = _flex_method("rmul", "mul", True)
    rtruediv = rdiv = _flex_method("rtruediv", "truediv", True)
    rfloordiv = _flex_method("rfloordiv", "floordiv", True)
    rmod = _flex_method("rmod", "mod", True)
    rpow = _flex_method("rpow", "pow", True)
    eq = _flex_method("eq", "eq", comparison=True)
    ne = _flex_method("ne", "ne", comparison=True)
    lt = _flex_method("lt", "lt", comparison=True)
    le = _flex_method("le", "le", comparison=True)
    gt = _flex_method("gt", "gt", comparison=True)
    ge = _flex_method("ge", "ge", comparison=True)

    # pandas' window objects (``frontend/window.py``): native aggregations, the rest through pandas
    def rolling(self, window: Any, min_periods: Any = None, center: bool = False, win_type: Any = None,
                on: Any = None, closed: Any = None, step: Any = None, method: str = "single") -> Any:
        return WINDOWS["make"](self, "rolling", {"window": window, "min_periods": min_periods, "center": center,
                                             "win_type": win_type, "on": on, "closed": closed, "step": step,
                                             "method": method})

    def expanding(self, min_periods: int = 1, method: str = "single") -> Any:
        return WINDOWS["make"](self, "expanding", {"min_periods": min_periods, "method": method})

    def ewm(self, com: Any = None, span: Any = None, halflife: Any = None, alpha: Any = None, min_periods: Any = 0,
            adjust: bool = True, ignore_na: bool = False, times: Any = None, method: str = "single") -> Any:
        return WINDOWS["make"](self, "ewm", {"com": com, "span": span, "halflife": halflife, "alpha": alpha,
                                         "min_periods": min_periods, "adjust": adjust, "ignore_na": ignore_na,
                                         "times": times, "method": method})

    __iadd__ = _inplace_operator("__iadd__", "add")
    __isub__ = _inplace_operator("__isub__", "sub")
    __imul__ = _inplace_operator("__imul__", "mul")
    __itruediv__ = _inplace_operator("__itruediv__", "truediv")
    __ifloordiv__ = _inplace_operator("__ifloordiv__", "floordiv")
    __imod__ = _inplace_operator("__imod__", "mod")
    __ipow__ = _inplace_operator("__ipow__", "pow")
    __iand__ = _inplace_operator("__iand__", "and")
    __ior__ = _inplace_operator("__ior__", "or")
