"""``loc`` and ``iloc``: label and position indexing, native for masks, column lists and slices.

Row selection by a boolean Series is a ``Filter``; by a position slice a ``Slice``; label slices on a
default RangeIndex are position slices. Anything else (label lists on a real index, single rows of a
frame) runs through pandas, recorded.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from gframe.fallback import call_pandas
from gframe.frontend.coerce import is_scalar
from gframe.plan import logical as L


def _is_frame(obj: Any) -> bool:
    from gframe.frontend.frame import DataFrame

    return isinstance(obj, DataFrame)


def _as_frame(obj: Any) -> Any:
    return obj if _is_frame(obj) else obj._frame()


def _back(obj: Any, frame: Any) -> Any:
    if _is_frame(obj):
        return frame
    from gframe.frontend.series import Series

    return Series._back(frame)


def _split(key: Any) -> tuple[Any, Any]:
    if isinstance(key, tuple) and len(key) == 2:
        return key
    return key, slice(None)


def _is_full(s: Any) -> bool:
    return isinstance(s, slice) and s.start is None and s.stop is None and s.step is None


class _Indexer:
    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def _fallback(self, name: str, key: Any, value: Any = None, setting: bool = False) -> Any:
        obj = self.obj
        cls = pd.DataFrame if _is_frame(obj) else pd.Series

        def get(pobj: Any, k: Any) -> Any:
            return getattr(pobj, name)[k]

        def put(pobj: Any, k: Any, v: Any) -> Any:
            pobj = pobj.copy()
            getattr(pobj, name)[k] = v
            return pobj

        if setting:
            out = call_pandas(f"{cls.__name__}.{name}.__setitem__", put, (obj, key, value), {}, "indexer assignment not native")
            obj._replace(out._plan) if _is_frame(obj) else obj._replace_from(out)
            return None
        return call_pandas(f"{cls.__name__}.{name}", get, (obj, key), {}, "indexer key not native")


class LocIndexer(_Indexer):
    def __getitem__(self, key: Any) -> Any:
        from gframe.frontend.series import Series

        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, slice(None))
        if callable(rows):
            rows = rows(obj)
        frame = _as_frame(obj)
        if not _is_full(cols):
            if is_scalar(cols) and _is_full(rows):
                return frame[cols]
            if isinstance(cols, list) or isinstance(cols, pd.Index):
                frame = frame[list(cols)]
            elif is_scalar(cols) and isinstance(rows, Series):
                return frame._filter(rows)[cols]
            else:
                return self._fallback("loc", key)
        if _is_full(rows):
            return _back(obj, frame)
        if isinstance(rows, Series) and rows._dtype_arrow is not None and str(rows._dtype_arrow) == "bool":
            return _back(obj, frame._filter(rows))
        if isinstance(rows, (list, np.ndarray)) and len(rows) and all(isinstance(r, (bool, np.bool_)) for r in rows):
            return _back(obj, frame._filter(Series(list(rows), index=frame.index.to_pandas() if frame._schema.index is not None else None)))
        if isinstance(rows, slice) and frame._schema.index is None and rows.step in (None, 1) and \
                all(v is None or isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (rows.start, rows.stop)):
            start = 0 if rows.start is None else max(int(rows.start), 0)
            length = None if rows.stop is None else max(int(rows.stop) - start + 1, 0)
            return _back(obj, type(frame)._from_plan(L.Slice(start, length, L.RowIndex(frame._plan))))
        return self._fallback("loc", key)

    def __setitem__(self, key: Any, value: Any) -> None:
        from gframe.frontend.series import Series

        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, None)
        if isinstance(rows, Series) and (is_scalar(value) or isinstance(value, Series)):
            if _is_frame(obj) and (is_scalar(cols) or isinstance(cols, list)) and not _is_full(cols):
                for c in ([cols] if is_scalar(cols) else cols):
                    if c in obj._plan.schema.labels:
                        new_col = obj[c].where(~rows.fillna(False), value)
                    else:
                        new_col = Series(np.nan, index=None).__class__  # placeholder never used
                        return self._fallback("loc", key, value, setting=True)
                    if isinstance(new_col, Series) and new_col._plan == obj._plan:
                        obj[c] = new_col
                    else:
                        return self._fallback("loc", key, value, setting=True)
                return
            if not _is_frame(obj):
                obj._replace_from(obj.mask(rows, value))
                return
        if _is_frame(obj) and _is_full(rows) and is_scalar(cols):
            obj[cols] = value
            return
        self._fallback("loc", key, value, setting=True)


class ILocIndexer(_Indexer):
    def __getitem__(self, key: Any) -> Any:
        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, slice(None))
        frame = _as_frame(obj)
        if not _is_full(cols):
            labels = frame._plan.schema.labels
            if isinstance(cols, (int, np.integer)) and _is_full(rows):
                return frame[labels[cols]]
            if isinstance(cols, slice):
                frame = frame[labels[cols]]
            elif isinstance(cols, list) and all(isinstance(c, (int, np.integer)) for c in cols):
                frame = frame[[labels[c] for c in cols]]
            else:
                return self._fallback("iloc", key)
        if isinstance(rows, slice) and rows.step in (None, 1):
            start, stop = rows.start, rows.stop
            if (start is None or start >= 0) and (stop is None or stop >= 0):
                start = start or 0
                length = None if stop is None else max(stop - start, 0)
                plan = frame._plan if start == 0 else L.RowIndex(frame._plan) if frame._schema.index is None else frame._plan
                return _back(obj, type(frame)._from_plan(L.Slice(start, length, plan)))
        if isinstance(rows, (int, np.integer)) and not _is_frame(obj):
            n = len(frame)
            i = int(rows)
            if i < -n or i >= n:
                raise IndexError("single positional indexer is out-of-bounds")
            i = i % n if n else i
            one = type(frame)._from_plan(L.Slice(i, 1, frame._plan))
            return one.to_pandas().iloc[0, 0]
        return self._fallback("iloc", key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._fallback("iloc", key, value, setting=True)
