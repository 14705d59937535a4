"""numpy's protocols and ``dir()`` on gframe frames and series, as pandas has them.

- ``__array__(dtype, copy)``: pandas' own conversion of the materialized object, so numpy 2's
  ``copy=`` semantics (``copy=False`` raises where a copy cannot be avoided) are pandas'.
- ``__array_ufunc__``: ``np.sqrt(df)`` is a DataFrame, ``np.add(s, 1)`` a Series. pandas routes a
  plain ufunc call with an operator form to the operator (``np.add(a, b)`` is ``a + b``,
  ``np.less(1, s)`` is ``s > 1``); gframe does the same, so those are as native as the operators.
  Elementwise math with an expression of its own (sqrt, exp, log, trig, floor, ...) on numeric
  columns is native; anything else (other ufuncs, ``reduce``/``accumulate``/``outer``, ``out=``,
  non-numeric data) runs the ufunc on the pandas objects, recorded as a fallback, and wraps frames
  and series in the result.
- No ``__array_function__``: pandas does not define one, so ``np.where(df > 0, df, 0)`` is an
  ndarray for both, and ``np.sum(df)`` / ``np.mean(s)`` call the object's own ``sum`` / ``mean``.
- ``__dir__``: pandas' names for an object of this schema, gframe's own public names, and the column
  names (for a Series, the index labels) that are identifiers: what tab completion shows.

This is a mixin so that DataFrame and Series take it with one base-class line each.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from gframe.frontend.arrow import PANDAS_CONSTRUCTOR_MESSAGE, called_by_pandas_constructor
from gframe.frontend.bridge import via_pandas

# numpy ufunc name -> (operator, reflected operator): pandas' dispatch of ufuncs to dunder methods
_BINARY_DUNDERS: dict[str, tuple[str, str]] = {
    "add": ("__add__", "__radd__"),
    "subtract": ("__sub__", "__rsub__"),
    "multiply": ("__mul__", "__rmul__"),
    "true_divide": ("__truediv__", "__rtruediv__"),
    "divide": ("__truediv__", "__rtruediv__"),
    "floor_divide": ("__floordiv__", "__rfloordiv__"),
    "remainder": ("__mod__", "__rmod__"),
    "power": ("__pow__", "__rpow__"),
    "bitwise_and": ("__and__", "__rand__"),
    "bitwise_or": ("__or__", "__ror__"),
    "bitwise_xor": ("__xor__", "__rxor__"),
    "equal": ("__eq__", "__eq__"),
    "not_equal": ("__ne__", "__ne__"),
    "less": ("__lt__", "__gt__"),
    "less_equal": ("__le__", "__ge__"),
    "greater": ("__gt__", "__lt__"),
    "greater_equal": ("__ge__", "__le__"),
}
_UNARY_DUNDERS: dict[str, str] = {"negative": "__neg__", "positive": "__pos__", "absolute": "__abs__",
                                  "invert": "__invert__"}
# ufuncs with an elementwise expression of their own (``func("ufunc", e, name=...)``) in both engines
ELEMENTWISE_UFUNCS: frozenset[str] = frozenset({
    "sqrt", "exp", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
    "cosh", "tanh", "floor", "ceil", "rint", "sign"})

_ACCESSORS = ("str", "dt", "cat", "sparse", "list", "struct")


class NumpyProtocols:
    """numpy protocols and ``dir()`` for DataFrame and Series (see the module docstring)."""

    __array_priority__ = 1000  # as pandas: numpy defers binary operators to us

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        # pandas.DataFrame(gdf) would read this as a bare 2-D array (labels, index and dtypes lost)
        if called_by_pandas_constructor():
            raise TypeError(PANDAS_CONSTRUCTOR_MESSAGE.format(kind=type(self).__name__))
        return self.to_pandas().__array__(dtype, copy)  # type: ignore[attr-defined]

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        native = _native_ufunc(self, ufunc, method, inputs, kwargs)
        if native is not NotImplemented:
            return native
        def run(*args: Any, **kw: Any) -> Any:
            return getattr(ufunc, method)(*args, **kw)

        api = f"numpy.{ufunc.__name__}" + ("" if method == "__call__" else f".{method}")
        return via_pandas(api, run, inputs, kwargs, "numpy ufunc not native")

    def __dir__(self) -> list[str]:
        like = _pandas_like(self)
        # gframe's own names, less the accessors pandas hides where the dtype has none (``.str`` on floats)
        # and the names pandas keeps out of dir() (``Series.tolist``)
        hidden = set(getattr(type(like), "_accessors", ())) | set(getattr(type(like), "_hidden_attrs", ()))
        own = set(object.__dir__(self)) - hidden
        names = set(dir(like)) | own | _label_names(self)
        return sorted(names)


def _is_gframe(obj: Any) -> bool:
    return isinstance(obj, NumpyProtocols)


def _numeric_arrow(t: pa.DataType) -> bool:
    from gframe.plan.schema import is_numeric

    return is_numeric(t) and not pa.types.is_boolean(t)


def _native_ufunc(self: Any, ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The ufunc as gframe operators or expressions, or NotImplemented to run it through pandas."""
    if method != "__call__" or kwargs:
        return NotImplemented
    name = ufunc.__name__
    gframe_inputs = [x for x in inputs if _is_gframe(x)]
    if any(type(x) is not type(self) for x in gframe_inputs):
        return NotImplemented  # a Series with a DataFrame: pandas' own alignment rules
    if len(inputs) == 1:
        kinds = _UNARY_KINDS.get(name, "iuf" if name in ELEMENTWISE_UFUNCS else "")
        if not _plain_numpy(self, kinds):
            return NotImplemented
        if name in _UNARY_DUNDERS and hasattr(type(self), _UNARY_DUNDERS[name]):
            return getattr(self, _UNARY_DUNDERS[name])()
        if name == "absolute" and hasattr(type(self), "abs"):
            return self.abs()
        if name in ELEMENTWISE_UFUNCS:
            return _elementwise(self, name)
        return NotImplemented
    if len(inputs) == 2 and name in _BINARY_DUNDERS:
        forward, reflected = _BINARY_DUNDERS[name]
        if inputs[0] is self:
            op, other = forward, inputs[1]
        else:
            op, other = reflected, inputs[0]
        if not hasattr(type(self), op):
            return NotImplemented
        result = getattr(self, op)(other)
        return NotImplemented if result is NotImplemented else result
    return NotImplemented


# numpy dtype kinds each unary ufunc is native for (elementwise math: "iuf"); others go to pandas:
# ``~`` on floats raises pandas' TypeError, ``-`` on unsigned ints wraps around in numpy
_UNARY_KINDS: dict[str, str] = {"invert": "bi", "negative": "if", "positive": "iuf", "absolute": "iuf"}


def _plain_numpy(self: Any, kinds: str) -> bool:
    """Every column of a numpy dtype of these kinds, 32 or 64 bits (booleans aside). Nullable, Arrow
    and categorical dtypes, and numpy's 8/16-bit types (whose math numpy does in float16/float32),
    keep their exact dtype and values only through pandas for now."""
    from gframe.frontend.frame import DataFrame

    dtypes = list(self.dtypes) if isinstance(self, DataFrame) else [self.dtype]
    return bool(dtypes) and all(
        isinstance(d, np.dtype) and d.kind in kinds and (d.kind == "b" or d.itemsize >= 4) for d in dtypes)


def _all_dtypes(self: Any, test: Any) -> bool:
    from gframe.frontend.frame import DataFrame

    types = [f.dtype for f in self._schema.columns] if isinstance(self, DataFrame) else [self._dtype_arrow]
    return bool(types) and all(test(t) for t in types)


def _elementwise(self: Any, name: str) -> Any:
    from gframe.frontend.frame import DataFrame
    from gframe.plan.expr import func

    if isinstance(self, DataFrame):
        if not _all_dtypes(self, _numeric_arrow):
            return NotImplemented
        return self._map_columns(lambda f, e: func("ufunc", e, name=name))
    if not _numeric_arrow(self._dtype_arrow):
        return NotImplemented
    return self._with(func("ufunc", self._expr, name=name))


def _pandas_like(self: Any) -> Any:
    """An empty pandas object of this schema: its ``dir()`` is pandas' list for this object (which
    accessors apply depends on the dtypes), computed without running the plan."""
    from gframe.frontend.frame import DataFrame

    if isinstance(self, DataFrame):
        dtypes = self.dtypes
        return pd.DataFrame({i: pd.Series([], dtype=dt) for i, dt in enumerate(dtypes)})
    return pd.Series([], dtype=self.dtype, name=self.name)


def _label_names(self: Any) -> set[str]:
    """pandas' ``_dir_additions``: the first 100 distinct labels of the info axis (a frame's columns,
    a series' index) that are identifiers."""
    from gframe.frontend.frame import DataFrame

    if isinstance(self, DataFrame):
        labels = pd.Index(self.columns)
    else:
        labels = _materialized_index(self)
    if isinstance(labels, pd.MultiIndex):
        labels = labels.get_level_values(0)
    return {c for c in labels.unique()[:100] if isinstance(c, str) and c.isidentifier()}


def _materialized_index(self: Any) -> pd.Index:
    index = self.index
    return index.to_pandas() if hasattr(index, "to_pandas") else pd.Index(index)
