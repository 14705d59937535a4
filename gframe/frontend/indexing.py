"""``loc`` and ``iloc``: label and position indexing, native for masks, lists, slices and scalars.

Row selection by a boolean Series is a ``Filter``; by a position slice a ``Slice``; by a list of
positions or labels a ``Take`` (labels of one index level; on pandas' default RangeIndex a label is
its position). pandas raises at the call for a missing label or an out-of-range position, so
gframe checks those now (a row count or one small distinct over the matching labels). Anything
else (label slices on a real index, MultiIndex keys) runs through pandas, recorded.
"""
from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.errors import ChainedAssignmentError
from pandas.errors.cow import _chained_assignment_msg
from gframe.frontend.bridge import as_pandas, from_pandas_result, via_pandas
from gframe.frontend.coerce import is_scalar, literal, scalar_value
from gframe.frontend.frame import DataFrame
from gframe.frontend.index import Index
from gframe.frontend.series import Series
from gframe.frontend.setitem import NO_COLUMNS, assign, label_rows, position_rows, settable
from gframe.plan import logical as L
from gframe.plan.expr import Col, Lit, func
from gframe.plan.schema import PYOBJECT, index_name


def _is_frame(obj: Any) -> bool:
    return isinstance(obj, DataFrame)


def _as_frame(obj: Any) -> Any:
    return obj if _is_frame(obj) else obj._frame()


def _back(obj: Any, frame: Any) -> Any:
    if _is_frame(obj):
        return frame
    return Series._back(frame)


def _split(key: Any) -> tuple[Any, Any]:
    if isinstance(key, tuple) and len(key) == 2:
        return key
    return key, slice(None)


def _is_full(s: Any) -> bool:
    return isinstance(s, slice) and s.start is None and s.stop is None and s.step is None


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_label(v: Any) -> bool:
    """A hashable scalar label gframe can match natively."""
    return is_scalar(v) and v is not None and not (isinstance(v, float) and v != v)


def _key_list(key: Any) -> list[Any] | None:
    if isinstance(key, np.ndarray) and key.ndim != 1:
        return None  # a 0-d array is a scalar, a 2-d one pandas' error
    if isinstance(key, pd.arrays.BooleanArray):
        return list(key.fillna(False))  # a missing mask value selects nothing (pandas' getitem)
    if isinstance(key, (list, np.ndarray, pd.Index, pd.api.extensions.ExtensionArray)):
        return list(key)
    if isinstance(key, Index):
        return key.tolist()
    return None


def _is_bool_list(values: list[Any]) -> bool:
    return bool(values) and all(isinstance(v, (bool, np.bool_)) for v in values)


def take_positions(frame: Any, positions: list[Any]) -> Any:
    """Rows at ``positions`` (negative count from the end); pandas' IndexError when out of range."""
    n = len(frame)
    norm = []
    for p in positions:
        p = int(p)
        if p < -n or p >= n:
            raise IndexError("positional indexers are out-of-bounds")
        norm.append(p + n if p < 0 else p)
    plan = L.RowIndex(frame._plan) if frame._schema.index is None else frame._plan
    return type(frame)._from_plan(L.Take(tuple(norm), False, plan))


def _plain_labels(t: Any) -> bool:
    """Index labels the engines match by value as pandas does: numbers, strings, bools, times
    (and categories of strings: the CPU engine's Enum holds them as their strings)."""
    if t is None or t == PYOBJECT or isinstance(t, pa.ExtensionType):
        return False
    if pa.types.is_dictionary(t):
        return pa.types.is_string(t.value_type) or pa.types.is_large_string(t.value_type)
    return (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_string(t) or pa.types.is_large_string(t)
            or pa.types.is_boolean(t) or pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t))


def take_labels(frame: Any, labels: list[Any]) -> Any | None:
    """Rows whose index label is in ``labels``, in that order; KeyError for a missing label.
    None where not native (a MultiIndex, labels of odd types)."""
    schema = frame._schema
    values = [scalar_value(v) for v in labels]
    if not all(_is_label(v) for v in values):
        return None
    if schema.index is None:  # default RangeIndex: the label is the position
        n = len(frame)
        missing = [lab for lab, v in zip(labels, values) if not (_is_int(v) and 0 <= v < n)]
        if missing:
            raise KeyError(f"{missing} not in index")
        return take_positions(frame, [int(v) for v in values])
    if len(schema.index) != 1:
        return None
    if not _plain_labels(schema.index[0].dtype):
        return None  # intervals (a point finds one), categories of numbers, mixed objects: pandas' lookup
    if not pa.types.is_boolean(schema.index[0].dtype) and any(isinstance(v, (bool, np.bool_)) for v in values):
        # True == 1 to Arrow's isin, but a bool is no label of another index to pandas
        raise KeyError(f"{[v for v in values if isinstance(v, (bool, np.bool_))]} not in index")
    if values:
        hit = func("isin", Col(index_name(0)), values=tuple(values))
        found = type(frame)._from_plan(L.Distinct((index_name(0),), "first", L.Filter(hit, frame._plan)))
        seen = set(found.index.to_pandas().tolist())
        missing = [lab for lab, v in zip(labels, values) if v not in seen]
        if missing:
            raise KeyError(f"{missing} not in index")
    return type(frame)._from_plan(L.Take(tuple(values), True, frame._plan))


def _one_row(obj: Any, frame: Any, label: Any) -> Any:
    """``loc[label]``: a scalar for a Series, a row Series for a frame; repeated labels keep a frame."""
    rows = take_labels(frame, [label])
    if rows is None:
        return None
    pdf = rows.to_pandas()
    if len(pdf) != 1:
        return _back(obj, rows)
    if not _is_frame(obj):
        return pdf.iloc[0, 0]
    return from_pandas_result(pdf.iloc[0], "DataFrame.loc")  # one row, transposed at the edge


# ------------------------------------------------------------------ any row key: the labels looked up on the host
#
# A row key the label paths above do not take (a label slice, labels of a MultiIndex, an interval's
# point, repeated labels, an index of categories or of mixed Python objects) is looked up by pandas
# on the index labels alone (``Index`` keeps them on the host: a frame's index is computed to
# pandas' Index, never its values): a Series of positions over those labels answers ``loc`` with
# pandas' rules, errors and result labels. The engine then takes the rows at those positions; the
# result's index is pandas' (a MultiIndex key drops levels) where it differs from the taken labels.


def _same_labels(a: pd.Index, b: pd.Index) -> bool:
    return type(a) is type(b) and a.dtype == b.dtype and list(a.names) == list(b.names) and a.equals(b)


def _relabel(frame: Any, labels: pd.Index) -> Any:
    """``frame`` (rows already taken: ``len(labels)`` of them) with ``labels`` as its index."""
    from gframe.interop import scan_pandas
    from gframe.plan.schema import internal_name

    plan, pos = frame._plan, "__gf_pos"
    left = scan_pandas(pd.DataFrame({pos: np.arange(len(labels), dtype=np.int64)}, index=labels), "index labels")
    right = L.RowIndex(L.ResetIndex(True, (), plan))
    outputs = tuple((f.label, "right", f.name) for f in plan.schema.columns)
    return type(frame)._from_plan(L.Join("inner", (internal_name(pos),), (right.schema.index_names[0],), outputs,
                                         "left", False, left, right))


def label_lookup(obj: Any, frame: Any, rows: Any, as_given: bool = False) -> Any:
    """``loc[rows]`` by pandas' lookup on the index labels, the rows taken by the engine; pandas'
    exception where the key is wrong. NotImplemented where the result is not rows of ``frame``
    (a frame without columns, whose index alone pandas answers)."""
    from gframe.frontend.bridge import _reissue

    if not frame._schema.columns:
        return NotImplemented
    if rows is Ellipsis:
        return _back(obj, frame)
    try:
        n = len(frame)
        pidx = frame.index.to_pandas() if frame._schema.index is not None else pd.RangeIndex(n)
    except Exception:  # noqa: BLE001 - rows the engine cannot hold or labels it cannot bring to the host
        return NotImplemented
    # the probe is of the caller's kind: a frame's row lookup and a Series' differ (a partial
    # MultiIndex key that finds no rows is a frame's KeyError and a Series' empty answer)
    pos = "__gf_pos"
    positions_of = np.arange(len(pidx), dtype=np.int64)
    probe = pd.DataFrame({pos: positions_of}, index=pidx) if _is_frame(obj) else pd.Series(positions_of, index=pidx)
    # a frame's rows split from ``loc[rows, cols]`` are looked up as ``loc[rows, :]``; a key that was
    # not a pair (``loc["x", :, "z"]`` of a MultiIndex) as given
    key = (as_pandas(rows), slice(None)) if _is_frame(obj) and not as_given else as_pandas(rows)
    with warnings.catch_warnings(record=True) as caught:  # the filters in force stay as they are
        hit = probe.loc[key]
    _reissue(caught)
    if isinstance(hit, pd.DataFrame):
        hit = hit[pos]
    elif _is_frame(obj) and isinstance(hit, pd.Series):  # a frame's one row
        hit = hit[pos]
    if not isinstance(hit, pd.Series):  # one label, one row: iloc's answer for that position
        return ILocIndexer(obj)._rows(obj, frame, int(hit))
    positions = hit.to_numpy().tolist()
    taken = take_positions(frame, positions)
    if not _same_labels(hit.index, pidx.take(positions)):
        if isinstance(hit.index, pd.MultiIndex):
            return NotImplemented  # levels pandas keeps unused: pandas' answer
        taken = _relabel(taken, hit.index)
    if isinstance(hit.index, (pd.DatetimeIndex, pd.TimedeltaIndex)):
        from gframe.frontend.index import _with_freq

        taken = type(taken)._from_plan(_with_freq(taken._plan, hit.index.freq))  # pandas' freq, or none
    return _back(obj, taken)


# ------------------------------------------------------------------ partial strings on a DatetimeIndex
#
# pandas reads ``loc["2024-03"]`` on a DatetimeIndex as the rows inside that month when the string
# is coarser than the index's resolution (the finest unit its values need: day for midnights), and
# as one exact label otherwise; a slice with string bounds runs from the start of the first
# string's period to the end of the last's. Both become a native range filter here. pandas' own
# parser decides the period (``DatetimeIndex._parse_with_reso`` / ``_parsed_string_to_bounds``).

# index resolution -> the step (ns) a value must sit on to need no finer resolution
_RESO_STEPS = (("RESO_NS", 1_000), ("RESO_US", 1_000_000), ("RESO_MS", 1_000_000_000),
               ("RESO_SEC", 60_000_000_000), ("RESO_MIN", 3_600_000_000_000), ("RESO_HR", 86_400_000_000_000))
_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def _datetime_index(frame: Any) -> Any:
    """The Arrow timestamp type of ``frame``'s one index level, or None."""
    import pyarrow as pa

    idx = frame._schema.index
    if idx is None or len(idx) != 1 or not isinstance(idx[0].dtype, pa.TimestampType):
        return None
    return idx[0].dtype


def _index_facts(frame: Any, t: Any, resolution: bool) -> dict[str, Any]:
    """One aggregation over the index: rows, min, max, whether it is monotonic increasing (no NaT,
    never decreasing), sorted either way and, where asked, pandas' resolution of its values (tz-naive only)."""
    from pandas._libs.tslibs import Resolution

    from gframe import engines
    from gframe.plan.expr import Agg, BinOp
    from gframe.plan.schema import internal_name

    x = Col(index_name(0))
    prev = func("shift", x, periods=1)
    sel = [("x", x), ("down", BinOp("lt", x, prev)), ("up", BinOp("gt", x, prev))]
    steps = [(name, step) for name, step in _RESO_STEPS if step > _UNIT_NS[t.unit]] if resolution else []
    for i, (_, step) in enumerate(steps):
        sel.append((f"r{i}", BinOp("ne", x, func("dt.floor", x, freq=step))))
    plan = L.Select(tuple(sel), frame._plan)
    c = {lab: Col(internal_name(lab)) for lab, _ in sel}
    aggs = [("n", Agg("size", (), c["x"])), ("min", Agg("min", (), c["x"])), ("max", Agg("max", (), c["x"])),
            ("down", Agg("any", (), c["down"])), ("up", Agg("any", (), c["up"])),
            ("nat", Agg("any", (), func("isna", c["x"])))]
    aggs += [(f"r{i}", Agg("any", (), c[f"r{i}"])) for i in range(len(steps))]
    table = engines.materialize(L.Aggregate((), (), tuple(aggs), False, True, False, plan)).to_arrow()
    row = {f.label: table.column(f.name)[0].as_py() for f in
           L.Aggregate((), (), tuple(aggs), False, True, False, plan).schema.columns} if table.num_rows else {}
    n = int(row.get("n") or 0)
    reso = Resolution.RESO_DAY
    for i, (name, _) in enumerate(steps):
        if row.get(f"r{i}"):
            reso = getattr(Resolution, name)
            break
    lo, hi = row.get("min"), row.get("max")
    nat = bool(row.get("nat"))
    return {"n": n, "reso": reso, "monotonic": not row.get("down") and not nat,
            "sorted": not nat and not (row.get("down") and row.get("up")),
            "min": None if lo is None else pd.Timestamp(lo), "max": None if hi is None else pd.Timestamp(hi)}


def _range_filter(obj: Any, frame: Any, t: Any, start: Any, end: Any) -> Any:
    """The rows with ``start <= index <= end`` (either bound None: open), in index order."""
    from gframe.frontend.coerce import scalar_operand
    from gframe.plan.expr import BinOp

    x = Col(index_name(0))
    preds = []
    for op, bound in (("ge", start), ("le", end)):
        if bound is not None:
            op_, lit = scalar_operand(op, bound, t)
            preds.append(BinOp(op_, x, lit))
    if not preds:
        return _back(obj, frame)
    pred = preds[0] if len(preds) == 1 else BinOp("and", preds[0], preds[1])
    return _back(obj, frame._filter(Series._over(frame._plan, pred, None)))


def _pandas_index(t: Any) -> pd.DatetimeIndex:
    from gframe.plan.schema import pandas_dtype

    return pd.DatetimeIndex([], dtype=pandas_dtype(t))


def partial_string(obj: Any, frame: Any, key: str) -> Any:
    """``loc[key]`` for a string ``key`` on a DatetimeIndex, or NotImplemented (pandas decides)."""
    from pandas._libs.tslibs import Resolution

    t = _datetime_index(frame)
    if t is None:
        return NotImplemented
    pidx = _pandas_index(t)
    try:
        parsed, reso = pidx._parse_with_reso(key)
    except (ValueError, TypeError, OverflowError):
        return NotImplemented  # not a date: pandas' KeyError
    coarse = reso > Resolution.RESO_DAY  # coarser than any index resolution: no need to compute it
    if not coarse and t.tz is not None:
        return NotImplemented  # the resolution of local wall times: pandas decides
    facts = _index_facts(frame, t, resolution=not coarse)
    start, end = pidx._parsed_string_to_bounds(reso, parsed)
    if coarse or reso > facts["reso"]:
        if facts["n"] and facts["sorted"] and (end < facts["min"] or start > facts["max"]):
            raise KeyError(key)  # pandas: a sorted index (either way) out of the period's range
        return _range_filter(obj, frame, t, start, end)
    rows = _range_filter(frame, frame, t, start, start)  # an exact label: index == start
    pdf = rows.to_pandas()
    if len(pdf) != 1:
        if len(pdf) == 0:
            raise KeyError(key)
        return _back(obj, rows)
    if not _is_frame(obj):
        return pdf.iloc[0, 0]
    if frame is not obj and len(frame._schema.columns) == 1:
        return pdf.iloc[0, 0]
    return from_pandas_result(pdf.iloc[0], "DataFrame.loc")


def _is_datetime_bound(v: Any) -> bool:
    import datetime as _dt

    return v is None or isinstance(v, (str, _dt.datetime, np.datetime64))


def datetime_slice(obj: Any, frame: Any, key: slice) -> Any:
    """``loc[start:stop]`` on a sorted DatetimeIndex (strings: their periods' bounds, as pandas'
    ``_maybe_cast_slice_bound``), or NotImplemented (unsorted, with a step: pandas decides)."""
    t = _datetime_index(frame)
    if t is None or key.step is not None or not (_is_datetime_bound(key.start) and _is_datetime_bound(key.stop)):
        return NotImplemented
    pidx = _pandas_index(t)
    bounds = []
    for v, side in ((key.start, 0), (key.stop, 1)):
        if isinstance(v, str):
            try:
                parsed, reso = pidx._parse_with_reso(v)
            except (ValueError, TypeError, OverflowError):
                return NotImplemented
            v = pidx._parsed_string_to_bounds(reso, parsed)[side]
        elif v is not None:
            v = pd.Timestamp(v)
            if (v.tz is None) != (t.tz is None):
                return NotImplemented  # pandas' TypeError
        bounds.append(v)
    if not _index_facts(frame, t, resolution=False)["monotonic"]:
        return NotImplemented
    return _range_filter(obj, frame, t, bounds[0], bounds[1])


# the exceptions native indexing raises for a call it finds wrong (pandas' types): before one
# reaches the user, pandas gives its verdict on the same call (``pandas_verdict``)
NATIVE_ERRORS = (KeyError, IndexError, TypeError, ValueError, pd.errors.IndexingError)


def pandas_verdict(obj: Any, op: Any, exc: BaseException) -> Any:
    """Native code found ``op(obj)`` an error (``exc``): pandas' own exception for the same call, or
    NotImplemented where pandas does not raise (the caller then falls back for pandas' answer).

    Why: pandas' lookup errors carry messages that depend on the index's type and the key's
    (``KeyError: 3.0``, ``"None of [Index([...])] are in the [index]"``, ``"True: boolean label can
    not be used without a boolean index"``, "cannot do slice indexing on DatetimeIndex with these
    indexers"), which programs and tests match; and a key that native code refuses (a float label on
    an int index, an interval's point, a 3-d array) may be one pandas reads another way. Only the
    error path pays: the object is converted (a frame from pandas is its host copy) and pandas runs
    the call on it, on a copy where the call assigns. Nothing is recorded for an error: no answer
    was computed by pandas; an answer pandas gives is the caller's recorded fallback."""
    try:
        pobj = as_pandas(obj)
    except Exception:  # noqa: BLE001 - the object cannot be converted: the native error stands
        raise exc from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the fallback that follows warns where pandas warns
            op(pobj)
    except Exception as pexc:  # noqa: BLE001 - pandas' verdict, whatever its type
        raise pexc from None
    return NotImplemented


class _Indexer:
    name = ""  # pandas' indexer: "loc", "iloc", "at", "iat"
    _as_given = True  # (loc: whether the row key is the whole key, not a pair's first part)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def _expand(self, key: Any) -> Any:
        """pandas' reading of ``...`` (every row/column where it stands; one only) and of a 0-d array
        (its scalar)."""
        ndim = 2 if _is_frame(self.obj) else 1
        if key is Ellipsis:
            return slice(None) if ndim == 1 else (slice(None), slice(None))
        if isinstance(key, np.ndarray) and key.ndim == 0:
            return key.item()
        if isinstance(key, tuple) and any(k is Ellipsis for k in key):
            if sum(k is Ellipsis for k in key) > 1:
                raise pd.errors.IndexingError("indexer may only contain one '...' entry")
            if len(key) <= ndim:
                i = key.index(Ellipsis)
                key = key[:i] + (slice(None),) * (ndim - len(key) + 1) + key[i + 1:]
                return key[0] if ndim == 1 else key
            if len(key) == ndim + 1 and key[0] is Ellipsis:  # pandas drops a leading ``...`` too many
                return key[1] if ndim == 1 else key[1:]
        return key

    def __getitem__(self, key: Any) -> Any:
        try:
            out = self._get(self._expand(key))
        except NATIVE_ERRORS as exc:
            pkey = as_pandas(key)
            out = pandas_verdict(self.obj, lambda p: getattr(p, self.name)[pkey], exc)
        return self._fallback(self.name, key) if out is NotImplemented else out

    def _get(self, key: Any) -> Any:
        return NotImplemented

    def __call__(self, axis: Any = None) -> "_Indexer":
        """``df.loc(axis=1)[...]``: pandas' indexer along that axis (the default axis: this one)."""
        if axis is None:
            return self
        return _AxisIndexer(self.obj, self.name, axis)

    def __setitem__(self, key: Any, value: Any) -> None:
        if sys.getrefcount(self.obj) <= 2:
            # pandas' check (``REF_COUNT_IDX``): only this indexer holds the object - a temporary, as
            # ``df["a"].loc[0] = 1`` makes - so the assignment can change nothing the caller sees
            warnings.warn(_chained_assignment_msg, ChainedAssignmentError, stacklevel=2)
        try:
            out = self._set(self._expand(key), value)
        except NATIVE_ERRORS as exc:
            pkey, pvalue = as_pandas(key), as_pandas(value)

            def put(p: Any) -> None:
                getattr(p.copy(), self.name)[pkey] = pvalue

            out = pandas_verdict(self.obj, put, exc)
        if out is NotImplemented:
            self._fallback(self.name, key, value, setting=True)

    def _set(self, key: Any, value: Any) -> Any:
        """Native assignment: None when done, NotImplemented where pandas assigns."""
        return NotImplemented

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
            out = via_pandas(f"{cls.__name__}.{name}.__setitem__", put, (obj, key, value), {}, "indexer assignment not native")
            obj._replace_from(out)
            return None
        return via_pandas(f"{cls.__name__}.{name}", get, (obj, key), {}, "indexer key not native")


class _AxisIndexer(_Indexer):
    """``loc(axis=...)`` / ``iloc(axis=...)``: pandas indexes (recorded)."""

    def __init__(self, obj: Any, name: str, axis: Any) -> None:
        super().__init__(obj)
        self.name, self.axis = name, axis

    def _fallback(self, name: str, key: Any, value: Any = None, setting: bool = False) -> Any:
        obj, axis = self.obj, self.axis
        cls = pd.DataFrame if _is_frame(obj) else pd.Series

        def get(pobj: Any, k: Any) -> Any:
            return getattr(pobj, name)(axis=axis)[k]

        def put(pobj: Any, k: Any, v: Any) -> Any:
            pobj = pobj.copy()
            getattr(pobj, name)(axis=axis)[k] = v
            return pobj

        api = f"{cls.__name__}.{name}(axis=...)"
        if setting:
            out = via_pandas(f"{api}.__setitem__", put, (obj, key, value), {}, "indexer along an axis")
            obj._replace_from(out)
            return None
        return via_pandas(api, get, (obj, key), {}, "indexer along an axis")


class LocIndexer(_Indexer):
    name = "loc"
    enlarges = True  # (``at`` adds a row with pandas' deprecation warning: pandas)

    def _get(self, key: Any) -> Any:

        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, slice(None))
        self._as_given = not _is_frame(obj) or not (isinstance(key, tuple) and len(key) == 2)
        if callable(rows):
            rows = rows(obj)
        frame = _as_frame(obj)
        scalar_col = None
        if not _is_full(cols):
            col_list = _key_list(cols)
            if is_scalar(cols):
                if not frame._schema.has(cols):
                    if isinstance(key, tuple) and frame._schema.index is not None and len(frame._schema.index) > 1:
                        return label_lookup(obj, frame, key, False)  # pandas: a tuple is a MultiIndex row key first
                    raise KeyError(cols)
                scalar_col = cols
                frame = frame[[cols]]
            elif col_list is not None and not _is_bool_list(col_list):
                frame = frame[col_list]
            else:
                return NotImplemented
        out = self._rows(obj, frame, rows)
        if scalar_col is not None and _is_frame(out):
            return out[scalar_col]
        return out  # NotImplemented, a Series, or the one value of loc[label, column]

    def _rows(self, obj: Any, frame: Any, rows: Any) -> Any:
        try:
            return self._label_rows(obj, frame, rows)
        except KeyError:
            # a label the engine did not find: pandas' lookup on the labels decides (its KeyError,
            # or the rows it finds: a float for an int label, a string pandas parses as a time)
            out = label_lookup(obj, frame, rows, self._as_given)
            if out is NotImplemented:  # (a frame without columns: pandas' verdict on the KeyError)
                raise
            return out

    def _label_rows(self, obj: Any, frame: Any, rows: Any) -> Any:
        if _is_full(rows):
            return _back(obj, frame)
        if isinstance(rows, Series):
            t = rows._dtype_arrow
            if t is not None and str(t) == "bool":
                return _back(obj, frame._filter(rows))
            rows = rows.tolist()
        row_list = _key_list(rows)
        if row_list is not None:
            if _is_bool_list(row_list):
                if len(row_list) != len(frame):
                    raise IndexError(f"Boolean index has wrong length: {len(row_list)} instead of {len(frame)}")
                idx = frame.index.to_pandas() if frame._schema.index is not None else None
                return _back(obj, frame._filter(Series(row_list, index=idx)))
            taken = take_labels(frame, row_list)
            return label_lookup(obj, frame, rows, self._as_given) if taken is None else _back(obj, taken)
        if isinstance(rows, slice):
            if frame._schema.index is None and rows.step in (None, 1) and \
                    all(v is None or _is_int(v) for v in (rows.start, rows.stop)):
                start = 0 if rows.start is None else max(int(rows.start), 0)
                length = None if rows.stop is None else max(int(rows.stop) - start + 1, 0)
                return _back(obj, type(frame)._from_plan(L.Slice(start, length, L.RowIndex(frame._plan))))
            out = datetime_slice(obj, frame, rows)
            return label_lookup(obj, frame, rows, self._as_given) if out is NotImplemented else out
        if isinstance(rows, str) and _datetime_index(frame) is not None:
            out = partial_string(obj, frame, rows)
            return label_lookup(obj, frame, rows, self._as_given) if out is NotImplemented else out
        if _is_label(rows):
            if _is_frame(obj) and len(frame._schema.columns) == 1 and frame is not obj:
                # loc[label, column]: the one value
                rows_frame = take_labels(frame, [rows])
                if rows_frame is None:
                    out = label_lookup(frame, frame, rows, self._as_given)
                    if out is NotImplemented or _is_frame(out):  # repeated labels: the column's rows
                        return out if out is NotImplemented else out.iloc[:, 0]
                    return out.to_pandas().iloc[0]  # the one row's one value
                pdf = rows_frame.to_pandas()
                return pdf.iloc[0, 0] if len(pdf) == 1 else rows_frame.iloc[:, 0]
            out = _one_row(obj, frame, rows)
            return label_lookup(obj, frame, rows, self._as_given) if out is None else out
        if isinstance(rows, (tuple, type(Ellipsis))):
            return label_lookup(obj, frame, rows, self._as_given)
        return NotImplemented

    def _set(self, key: Any, value: Any) -> Any:
        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, None)
        out = _assign(obj, rows, _loc_columns(obj, cols), value, label_rows,
                      cols if isinstance(key, tuple) and len(key) == 2 else NO_COLUMNS, self.enlarges)
        if out is not NotImplemented:
            return out
        if isinstance(rows, Series) and (is_scalar(value) or isinstance(value, Series)):
            if _is_frame(obj) and (is_scalar(cols) or isinstance(cols, list)) and not _is_full(cols):
                updates = {}
                for c in ([cols] if is_scalar(cols) else cols):
                    if c in obj._plan.schema.labels:
                        return NotImplemented  # (an existing column ``assign`` left: pandas' setitem rules)
                    if is_scalar(value):
                        # a new column: the value where the mask holds, missing elsewhere
                        cond = rows.fillna(False)
                        if cond._plan != obj._plan:
                            return NotImplemented
                        new_col = Series._over(obj._plan, func("where", literal(value), cond._expr, Lit(None)), c)
                        if new_col._dtype_arrow is None:
                            return NotImplemented
                    else:
                        return NotImplemented
                    if not (isinstance(new_col, Series) and new_col._plan == obj._plan):
                        return NotImplemented
                    updates[c] = new_col
                for c, new_col in updates.items():
                    obj[c] = new_col
                return None
        if _is_frame(obj) and _is_full(rows) and is_scalar(cols):
            if cols in obj._plan.schema.labels and not _same_rows_and_dtype(obj, cols, value):
                # an existing column keeps its dtype (pandas sets in place: a value it cannot hold,
                # a missing label's NaN in an int column, raises TypeError): pandas decides
                return NotImplemented
            obj[cols] = value
            return None
        return NotImplemented


def _loc_columns(obj: Any, cols: Any) -> list[Any] | None:
    """The existing columns ``loc`` assigns to (None: a Series; NotImplemented: a new column, a key
    pandas reads another way)."""
    if not _is_frame(obj):
        return None
    labels = obj._schema.labels
    if _is_full(cols):
        return list(labels)
    if is_scalar(cols) and not isinstance(cols, tuple):
        return [cols] if obj._schema.has(cols) else NotImplemented
    col_list = _key_list(cols)
    if col_list and not _is_bool_list(col_list) and all(is_scalar(c) and not isinstance(c, tuple) and obj._schema.has(c)
                                                        for c in col_list) and len(set(col_list)) == len(col_list):
        return col_list
    return NotImplemented


def _iloc_columns(obj: Any, cols: Any) -> list[Any] | None:
    """The columns ``iloc`` assigns to, by position (pandas' IndexError for one out of range)."""
    if not _is_frame(obj):
        return None
    labels = list(obj._schema.labels)
    if _is_full(cols):
        return labels
    if _is_int(cols):
        if not -len(labels) <= cols < len(labels):
            raise IndexError("iloc cannot enlarge its target object")
        return [labels[cols]]
    if isinstance(cols, slice) and all(v is None or _is_int(v) for v in (cols.start, cols.stop, cols.step)):
        return labels[cols] or NotImplemented
    col_list = _key_list(cols)
    if col_list and all(_is_int(c) for c in col_list):
        if any(not -len(labels) <= c < len(labels) for c in col_list):
            raise IndexError("positional indexers are out-of-bounds")
        picked = [labels[c] for c in col_list]
        return picked if len(set(picked)) == len(picked) else NotImplemented
    return NotImplemented


def _assign(obj: Any, rows: Any, labels: Any, value: Any, rows_of: Any, columns_key: Any = None,
            enlarges: bool = False) -> Any:
    """Native assignment of ``value`` to ``rows`` (read by ``rows_of``: ``label_rows`` or
    ``position_rows``) x ``labels`` of ``obj`` (``setitem.assign``); NotImplemented where pandas assigns."""
    if labels is NotImplemented or isinstance(rows, tuple) or not settable(obj):
        return NotImplemented
    if callable(rows) and not isinstance(rows, Series):
        rows = rows(obj)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    sel = rows_of(_as_frame(obj), rows)
    if sel is None:
        return NotImplemented
    return assign(obj, sel, labels, value, columns_key, enlarges)


def series_setitem(obj: Any, key: Any, value: Any) -> Any:
    """``ser[key] = value``: a boolean Series or a label as ``loc``, a slice of positions as ``iloc``
    (pandas 3 reads a scalar key as a label always); natively where ``setitem.assign`` can, with
    pandas' verdict on an error (None: done; NotImplemented: pandas assigns)."""
    if isinstance(key, slice) and all(v is None or _is_int(v) for v in (key.start, key.stop, key.step)):
        rows_of = position_rows
    elif isinstance(key, Series) or (is_scalar(key) and not isinstance(key, tuple)) \
            or isinstance(key, np.ndarray) and key.ndim > 1:
        rows_of = label_rows
    else:
        return NotImplemented
    try:
        return _assign(obj, key, None, value, rows_of, None, True)
    except NATIVE_ERRORS as exc:
        pkey, pvalue = as_pandas(key), as_pandas(value)

        def put(p: Any) -> None:
            p.copy()[pkey] = pvalue

        return pandas_verdict(obj, put, exc)


def _same_rows_and_dtype(frame: Any, label: Any, value: Any) -> bool:
    """Whether ``value`` is a Series over ``frame``'s own rows (no alignment) of the column's dtype."""
    if not isinstance(value, Series) or value._plan != frame._plan:
        return False
    col = frame[label]
    return isinstance(col, Series) and col._dtype_arrow is not None and value._dtype_arrow == col._dtype_arrow \
        and value.dtype == col.dtype


class ILocIndexer(_Indexer):
    name = "iloc"

    def _get(self, key: Any) -> Any:
        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, slice(None))
        rows, cols = (rows(obj) if callable(rows) else rows), (cols(obj) if callable(cols) else cols)
        frame = _as_frame(obj)
        scalar_col = False
        if not _is_full(cols):
            labels = frame._plan.schema.labels
            col_list = _key_list(cols)
            if _is_int(cols):
                if not -len(labels) <= cols < len(labels):
                    raise IndexError("single positional indexer is out-of-bounds")
                frame = frame[[labels[cols]]]
                scalar_col = True
            elif isinstance(cols, slice):
                frame = frame[labels[cols]]
            elif col_list is not None and all(_is_int(c) for c in col_list):
                if any(not -len(labels) <= c < len(labels) for c in col_list):
                    raise IndexError("positional indexers are out-of-bounds")
                frame = frame[[labels[c] for c in col_list]]
            else:
                return NotImplemented
        out = self._rows(obj, frame, rows)
        if scalar_col and _is_frame(out):
            return out[out._schema.labels[0]]
        return out

    def _set(self, key: Any, value: Any) -> Any:
        obj = self.obj
        rows, cols = _split(key) if _is_frame(obj) else (key, None)
        if callable(cols):
            cols = cols(obj)
        if isinstance(rows, Series):
            return NotImplemented  # (pandas' iloc refuses a Series mask: its verdict)
        return _assign(obj, rows, _iloc_columns(obj, cols), value, position_rows, cols)

    def _rows(self, obj: Any, frame: Any, rows: Any) -> Any:
        if _is_full(rows):
            return _back(obj, frame)
        if isinstance(rows, slice):
            start, stop, step = rows.start, rows.stop, rows.step
            if not all(v is None or _is_int(v) for v in (start, stop, step)):
                raise TypeError(f"cannot do positional indexing with these indexers [{start}] of type "
                                f"{type(start).__name__}")
            if step in (None, 1) and (start is None or start >= 0) and (stop is None or stop >= 0):
                start = start or 0
                length = None if stop is None else max(stop - start, 0)
                plan = L.RowIndex(frame._plan) if frame._schema.index is None and start else frame._plan
                return _back(obj, type(frame)._from_plan(L.Slice(start, length, plan)))
            if step in (None, 1) and (start is None or start < 0) and stop is None:
                plan = L.RowIndex(frame._plan) if frame._schema.index is None else frame._plan
                return _back(obj, type(frame)._from_plan(L.Slice(start or 0, None, plan)))
            if step == 0:
                raise ValueError("slice step cannot be zero")
            positions = list(range(len(frame)))[rows]
            return _back(obj, take_positions(frame, positions))
        row_list = _key_list(rows)
        if row_list is not None:
            if _is_bool_list(row_list):
                if len(row_list) != len(frame):
                    raise IndexError(f"Boolean index has wrong length: {len(row_list)} instead of {len(frame)}")
                row_list = [i for i, b in enumerate(row_list) if b]
            if not all(_is_int(p) for p in row_list):
                raise IndexError(".iloc requires numeric indexers, got " + repr(row_list))
            return _back(obj, take_positions(frame, row_list))
        if _is_int(rows):
            n = len(frame)
            i = int(rows)
            if i < -n or i >= n:
                raise IndexError("single positional indexer is out-of-bounds")
            i = i % n
            one = type(frame)._from_plan(L.Slice(i, 1, L.RowIndex(frame._plan) if frame._schema.index is None else frame._plan))
            pdf = one.to_pandas()
            if not _is_frame(obj) or len(pdf.columns) == 1 and frame is not obj:
                return pdf.iloc[0, 0]
            return from_pandas_result(pdf.iloc[0], "DataFrame.iloc")  # one row, transposed at the edge
        if is_scalar(rows):
            raise TypeError("Cannot index by location index with a non-integer key")  # pandas' verdict follows
        return NotImplemented



def _scalar_answer(out: Any) -> Any:
    """``at``/``iat`` answer one value: a native lookup that found several rows is pandas' call."""
    return NotImplemented if isinstance(out, (DataFrame, Series)) else out


class _ScalarIndexer(_Indexer):
    """``at`` / ``iat``: one value, natively the lookup of the indexer they narrow (``inner``), for
    keys of one scalar per axis (``is_key``); anything else (a non-scalar key, repeated labels,
    assignment) is pandas'."""

    inner: type[_Indexer]
    is_key: staticmethod

    def _get(self, key: Any) -> Any:
        keys = key if _is_frame(self.obj) and isinstance(key, tuple) and len(key) == 2 else (key,)
        if len(keys) != (2 if _is_frame(self.obj) else 1) or not all(self.is_key(k) for k in keys):
            return NotImplemented
        return _scalar_answer(self.inner(self.obj)._get(key))

    def _set(self, key: Any, value: Any) -> Any:
        keys = key if _is_frame(self.obj) and isinstance(key, tuple) and len(key) == 2 else (key,)
        if len(keys) != (2 if _is_frame(self.obj) else 1) or not all(self.is_key(k) for k in keys) or not is_scalar(value):
            return NotImplemented
        inner = self.inner(self.obj)
        inner.enlarges = False
        return inner._set(key, value)


class AtIndexer(_ScalarIndexer):
    """``at[row, column]`` (``at[label]`` of a Series): one value by labels, as ``loc``."""

    name = "at"
    inner = LocIndexer
    is_key = staticmethod(_is_label)


class IAtIndexer(_ScalarIndexer):
    """``iat[i, j]`` (``iat[i]`` of a Series): one value by positions, as ``iloc``."""

    name = "iat"
    inner = ILocIndexer
    is_key = staticmethod(_is_int)
