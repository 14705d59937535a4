"""``.str`` and ``.dt``: each method is one ``Func`` expression named ``str.<name>`` / ``dt.<name>``."""
from __future__ import annotations

from typing import Any

import pandas as pd
import pyarrow as pa

from gframe.plan.expr import func
from gframe.plan.schema import is_string


class _Accessor:
    _kind = ""
    _pandas_cls: Any = None

    def __init__(self, series: Any) -> None:
        self._s = series

    def _fn(self, name: str, **params: Any) -> Any:
        return self._s._with(func(f"{self._kind}.{name}", self._s._expr, **params))

    def _fallback(self, name: str, *args: Any, **kwargs: Any) -> Any:
        from gframe.fallback import call_pandas

        kind = self._kind

        def run(ps: Any, *a: Any, **k: Any) -> Any:
            return getattr(getattr(ps, kind), name)(*a, **k)

        return call_pandas(f"Series.{kind}.{name}", run, (self._s, *args), kwargs, "not native")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self._pandas_cls, name, None)
        if attr is None:
            raise AttributeError(f"'{self._pandas_cls.__name__}' object has no attribute {name!r}")
        if isinstance(attr, property):
            return self._fallback_property(name)
        return lambda *a, **k: self._fallback(name, *a, **k)

    def _fallback_property(self, name: str) -> Any:
        from gframe.fallback import call_pandas

        kind = self._kind
        return call_pandas(f"Series.{kind}.{name}", lambda ps: getattr(getattr(ps, kind), name), (self._s,), {}, "not native")


class StringMethods(_Accessor):
    _kind = "str"
    _pandas_cls = pd.core.strings.accessor.StringMethods

    def __init__(self, series: Any) -> None:
        t = series._dtype_arrow
        if t is not None and not is_string(t):
            raise AttributeError("Can only use .str accessor with string values!")
        super().__init__(series)

    def contains(self, pat: str, case: bool = True, flags: int = 0, na: Any = None, regex: bool = True) -> Any:
        if flags or na is not None or not isinstance(pat, str):
            return self._fallback("contains", pat, case=case, flags=flags, na=na, regex=regex)
        return self._fn("contains", pat=pat, case=case, regex=regex)

    def startswith(self, pat: Any, na: Any = None) -> Any:
        if na is not None or not isinstance(pat, str):
            return self._fallback("startswith", pat, na=na)
        return self._fn("startswith", pat=pat)

    def endswith(self, pat: Any, na: Any = None) -> Any:
        if na is not None or not isinstance(pat, str):
            return self._fallback("endswith", pat, na=na)
        return self._fn("endswith", pat=pat)

    def len(self) -> Any:
        return self._fn("len")

    def lower(self) -> Any:
        return self._fn("lower")

    def upper(self) -> Any:
        return self._fn("upper")

    def strip(self, to_strip: Any = None) -> Any:
        return self._fn("strip", to_strip=to_strip)

    def lstrip(self, to_strip: Any = None) -> Any:
        return self._fn("lstrip", to_strip=to_strip)

    def rstrip(self, to_strip: Any = None) -> Any:
        return self._fn("rstrip", to_strip=to_strip)

    def slice(self, start: Any = None, stop: Any = None, step: Any = None) -> Any:
        if step not in (None, 1) or (start is not None and start < 0) or (stop is not None and stop < 0):
            return self._fallback("slice", start, stop, step)
        return self._fn("slice", start=start, stop=stop, step=step)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.slice(key.start, key.stop, key.step)
        return self._fallback("get", key)

    def replace(self, pat: Any, repl: Any, n: int = -1, case: Any = None, flags: int = 0, regex: bool = False) -> Any:
        if not isinstance(pat, str) or not isinstance(repl, str) or case is not None or flags or n not in (-1, 1) or (regex and "$" in repl):
            return self._fallback("replace", pat, repl, n=n, case=case, flags=flags, regex=regex)
        return self._fn("replace", pat=pat, repl=repl, n=n, regex=regex)

    def split(self, pat: Any = None, *, n: int = -1, expand: bool = False, regex: Any = None) -> Any:
        if pat is None or expand or n != -1 or regex:
            return self._fallback("split", pat, n=n, expand=expand, regex=regex)
        return _SplitResult(self._s, pat)


class _SplitResult:
    """``s.str.split(sep)``: lazy until ``.str.get(i)`` / ``.str[i]`` picks one part (then one native op)."""

    def __init__(self, series: Any, pat: str) -> None:
        self._series = series
        self._pat = pat

    @property
    def str(self) -> "_SplitResult":
        return self

    def get(self, i: int) -> Any:
        return self._series._with(func("str.split_get", self._series._expr, pat=self._pat, i=i))

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int):
            return self.get(i)
        return getattr(self._materialize(), "__getitem__")(i)

    def _materialize(self) -> Any:
        from gframe.fallback import call_pandas

        return call_pandas("Series.str.split", lambda ps, p: ps.str.split(p), (self._series, self._pat), {}, "list column")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._materialize(), name)

    def to_pandas(self) -> Any:
        return self._materialize().to_pandas()

    def __repr__(self) -> str:
        return repr(self._materialize())


class DatetimeMethods(_Accessor):
    _kind = "dt"
    _pandas_cls = pd.core.indexes.accessors.CombinedDatetimelikeProperties

    def __init__(self, series: Any) -> None:
        t = series._dtype_arrow
        if t is not None and not (pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t)):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        super().__init__(series)

    def _field(self, name: str) -> Any:
        t = self._s._dtype_arrow
        if t is not None and pa.types.is_duration(t):
            return self._fallback_property(name)
        return self._fn(name)

    year = property(lambda self: self._field("year"))
    month = property(lambda self: self._field("month"))
    day = property(lambda self: self._field("day"))
    hour = property(lambda self: self._field("hour"))
    minute = property(lambda self: self._field("minute"))
    second = property(lambda self: self._field("second"))
    microsecond = property(lambda self: self._field("microsecond"))
    dayofweek = property(lambda self: self._field("dayofweek"))
    day_of_week = dayofweek
    weekday = dayofweek
    quarter = property(lambda self: self._field("quarter"))
    dayofyear = property(lambda self: self._field("dayofyear"))
    day_of_year = dayofyear
    date = property(lambda self: self._field("date"))

    def floor(self, freq: str, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("floor", freq, args, kwargs)

    def ceil(self, freq: str, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("ceil", freq, args, kwargs)

    def round(self, freq: str, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("round", freq, args, kwargs)

    def _rounding(self, name: str, freq: Any, args: Any, kwargs: Any) -> Any:
        from gframe.engines.cpu.expressions import freq_duration
        from gframe.errors import UnsupportedError

        t = self._s._dtype_arrow
        try:
            if args or kwargs or not isinstance(freq, str) or t is None or not pa.types.is_timestamp(t) or t.tz is not None or name == "round":
                raise UnsupportedError(name)
            freq_duration(freq)
        except UnsupportedError:
            return self._fallback(name, freq, *args, **kwargs)
        return self._fn(name, freq=freq)
