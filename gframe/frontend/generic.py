"""What DataFrame and Series share (pandas' ``NDFrame``): one body for the methods both spell alike.

A subclass provides ``to_pandas()`` (compute to pandas) and ``_binary(op, other, reflected=False)``
(an element-wise operator as a plan or an expression); the operators, the numpy protocol and the
pandas-only accessors (``at``/``iat``) are written once here on top of those two.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from gframe.frontend.arrow import PANDAS_CONSTRUCTOR_MESSAGE, ArrowInterop, called_by_pandas_constructor
from gframe.frontend.bridge import get_attribute


class NDFrame(ArrowInterop):
    """The base of ``DataFrame`` and ``Series`` (with the Arrow protocols of ``frontend/arrow.py``)."""

    __slots__ = ()

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

    @property
    def at(self) -> Any:
        return get_attribute(self, "at")

    @property
    def iat(self) -> Any:
        return get_attribute(self, "iat")

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

    floordiv = __floordiv__
    mod = __mod__
    pow = __pow__
    eq = __eq__
    ne = __ne__
    lt = __lt__
    le = __le__
    gt = __gt__
    ge = __ge__
