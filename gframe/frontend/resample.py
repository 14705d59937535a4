"""``resample`` and ``groupby(pd.Grouper(key=..., freq=...))``: time bins, then a native group-by.

pandas puts each timestamp in a bin and labels the bin by one of its edges. For the common
frequencies the label is a function of the timestamp alone, so the bins become a key column:

- fixed frequencies that divide a day (``D``, ``h``, ``min``, ``s``, ``ms``...): closed and
  labelled left, origin ``start_day``; the label is the timestamp floored to the frequency
  (``dt.floor``: from the epoch, which is the same as from the first day's midnight);
- ``W`` (``W-SUN``), ``ME``, ``QE`` (``QE-DEC``), ``YE`` (``YE-DEC``): closed and labelled right,
  with pandas' end-of-day adjustment of the edges, so the label is the bin-ending day of the
  timestamp's date; ``MS``: closed and labelled left, the month's first day (``dt.bin``, declared
  on both engines).

The group-by then aggregates, and a left join onto every label from the first bin to the last adds
the empty bins pandas shows (sum, count and size 0; other aggregations missing). Other frequencies,
multiples of calendar frequencies, tz-aware timestamps and any non-default option (``closed``,
``label``, ``origin``, ``offset``...) run through pandas, recorded.
"""
from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import pyarrow as pa

from gframe import engines
from gframe.frontend.bridge import pandas_private_method, user_warnings, via_pandas
from gframe.frontend.frame import DataFrame
from gframe.interop import scan_pandas
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Col, Expr, Lit, func
from gframe.plan.schema import index_name

_DAY_NS = 86_400_000_000_000
# aggregations an empty bin gives a value to (pandas: 0, a product 1); the others leave it missing
_EMPTY_BIN = {"sum": 0, "count": 0, "size": 0, "nunique": 0, "prod": 1}


@dataclass(frozen=True)
class Binned:
    """A frame whose key column holds bin labels: what the group-by aggregates."""

    frame: Any
    key: str  # the key column's internal name
    label: Hashable
    offset: Any  # pandas' DateOffset of the bins
    unit: str
    labels: Any = None  # pandas' labels of every bin, where not the rule's dates from the first to the last


def bin_expr(x: Expr, offset: Any) -> Expr | None:
    """The bin label of timestamps ``x`` for pandas' default options of ``offset``, or None."""
    o = pd.offsets
    if offset.n != 1 and not isinstance(offset, pd.offsets.Tick):
        return None
    if isinstance(offset, o.Day):
        return func("dt.floor", x, freq=_DAY_NS)
    if isinstance(offset, pd.offsets.Tick):
        nanos = offset.nanos
        return func("dt.floor", x, freq=nanos) if nanos and _DAY_NS % nanos == 0 else None
    if isinstance(offset, o.Week) and offset.weekday == 6:
        return func("dt.bin", x, rule="W")
    if type(offset) is o.MonthEnd:
        return func("dt.bin", x, rule="ME")
    if type(offset) is o.MonthBegin:
        return func("dt.bin", x, rule="MS")
    if type(offset) is o.QuarterEnd and offset.startingMonth == 12:
        return func("dt.bin", x, rule="QE")
    if type(offset) is o.YearEnd and offset.month == 12:
        return func("dt.bin", x, rule="YE")
    return None


def _default_options(grouper: Any, offset: Any) -> bool:
    """Whether a TimeGrouper carries pandas' defaults for its frequency (what ``bin_expr`` assumes)."""
    right = isinstance(offset, (pd.offsets.Week, pd.offsets.MonthEnd, pd.offsets.QuarterEnd, pd.offsets.YearEnd))
    side = "right" if right else "left"
    return (getattr(grouper, "closed", side) == side and getattr(grouper, "label", side) == side
            and getattr(grouper, "origin", "start_day") == "start_day" and getattr(grouper, "offset", None) is None
            and getattr(grouper, "level", None) is None and getattr(grouper, "dropna", True)
            and getattr(grouper, "convention", "e") in ("e", "end"))


_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def _other_options(grouper: Any) -> bool:
    """Whether a TimeGrouper's options other than closed / label / origin / offset are pandas'
    defaults (``_anchored_bins`` handles those four)."""
    return (getattr(grouper, "level", None) is None and getattr(grouper, "dropna", True)
            and getattr(grouper, "convention", "e") in ("e", "end", "s", "start"))


def _anchored_bins(frame: Any, f: Any, grouper: Any, offset: Any) -> tuple[Expr, pd.DatetimeIndex] | None:
    """The bin label of timestamps of a fixed frequency (``h``, ``min``, ``s``... ; ``D`` without a
    zone), for any ``closed`` / ``label`` / ``origin`` / ``offset`` and zone: pandas' bins are then
    ``first + k * freq`` apart in time (``_get_timestamp_range_edges``: ``Tick``, or ``Day`` of
    naive timestamps, anchored to the origin), so a timestamp's bin is integer arithmetic on its
    int64 value. ``first`` is pandas' own edge from the column's first and last timestamps (one
    small aggregation: host scalars), which raises pandas' ValueError for an origin in another zone."""
    t = f.dtype
    tick = isinstance(offset, pd.offsets.Tick) or (isinstance(offset, pd.offsets.Day) and t.tz is None)
    if not tick or not _other_options(grouper):
        return None
    every_ns = offset.nanos if isinstance(offset, pd.offsets.Tick) else offset.n * _DAY_NS
    every, rest = divmod(every_ns, _UNIT_NS[t.unit])
    if rest or every <= 0:
        return None
    x = Col(f.name)
    ends = L.Aggregate((), (), (("lo", Agg("min", (), x)), ("hi", Agg("max", (), x))), False, True, False,
                       frame._plan)
    table = engines.materialize(ends).to_arrow()
    if not table.num_rows or table.column(0)[0].as_py() is None:
        return None  # no timestamps: pandas' empty result
    ends = pd.DatetimeIndex([pd.Timestamp(table.column(i).to_pandas().iloc[0]) for i in range(2)]).as_unit(t.unit)
    if t.tz is not None:
        zone = getattr(f.tz, "tz", f.tz)  # (a zone object, or the dtype holding it)
        ends = ends.tz_convert(zone if zone is not None else t.tz)
    closed, label = grouper.closed, grouper.label
    first, _ = pd.core.resample._get_timestamp_range_edges(ends[0], ends[1], offset, unit=t.unit, closed=closed,
                                                           origin=grouper.origin, offset=grouper.offset)
    # every bin pandas shows, empty ones at either end included (an origin at the end can add one)
    _, _, labels = grouper._get_time_bins(ends)
    base = int(first.as_unit(t.unit)._value)
    v = func("cast", x, dtype=pa.int64())
    if closed == "left":  # [edge, edge + freq): the edge at or before
        k = BinOp("floordiv", BinOp("sub", v, Lit(base)), Lit(every))
    else:  # (edge, edge + freq]: the edge before
        k = BinOp("sub", func("neg", BinOp("floordiv", BinOp("sub", Lit(base), v), Lit(every))), Lit(1))
    # pandas' bins hold the timestamps at the outer edges too (a timestamp on the first edge of bins
    # closed right is in the first bin: ``generate_bins_dt64``)
    last = len(labels) - 1
    k = func("where", k, BinOp("ge", k, Lit(0)), Lit(0))
    k = func("where", k, BinOp("le", k, Lit(last)), Lit(last))
    start = BinOp("add", Lit(base), BinOp("mul", k, Lit(every)))
    if label == "right":
        start = BinOp("add", start, Lit(every))
    return func("cast", start, dtype=t), labels


def grouper_bins(frame: Any, grouper: Any) -> Binned | None:
    """``frame`` with ``grouper.key``'s timestamps replaced by their bin labels, or None (pandas)."""
    key, freq = getattr(grouper, "key", None), getattr(grouper, "freq", None)
    if key is None or freq is None or not frame._schema.has(key):
        return None
    f = frame._schema.field(key)
    t = f.dtype
    if not isinstance(t, pa.TimestampType):
        return None
    offset = pd.tseries.frequencies.to_offset(freq)
    binned = bin_expr(Col(f.name), offset) if _default_options(grouper, offset) and t.tz is None else None
    labels = None
    if binned is None:
        anchored = _anchored_bins(frame, f, grouper, offset)
        if anchored is None:
            return None
        binned, labels = anchored
    outputs = tuple((c.label, binned if c.name == f.name else Col(c.name)) for c in frame._schema.columns)
    out = DataFrame._from_plan(L.Select(outputs, frame._plan))
    return Binned(out, out._schema.field(key).name, key, offset, t.unit, labels)


def complete_bins(plan: L.Aggregate, binned: Binned) -> L.Plan:
    """Every bin from the first to the last, in order: where some bin is empty, a left join of the
    labels (computed on the host from the two ends) with the aggregation; empty bins' counts and
    sums are 0.

    A count or sum of integers crosses the join as float64 and is cast back after the fill, so
    that every column keeps a type the plan knows (an integer column that may miss rows has a type
    only the data decides, which the GPU engine does not compute on); integer sums beyond 2**53
    would lose precision there."""
    x = Col(binned.key)
    ends = L.Aggregate((), (), (("lo", Agg("min", (), x)), ("hi", Agg("max", (), x)),
                                ("n", Agg("nunique", (("dropna", True),), x)), ("valid", Agg("count", (), x)),
                                ("rows", Agg("size", (), Lit(1)))), False, True, False, binned.frame._plan)
    table = engines.materialize(ends).to_arrow()
    row = [table.column(i)[0].as_py() if table.num_rows else None for i in range(5)]
    lo, hi, n, valid, rows = row

    def with_freq(p: L.Plan) -> L.Plan:
        """pandas labels the bins with a DatetimeIndex of the rule's frequency; with NaT among the
        timestamps its labels get a NaT bin inserted and dropped again, which loses the frequency."""
        return L.IndexFreq(tuple(f.label for f in p.schema.index), (binned.offset if valid == rows else None,), p)

    if lo is None or hi is None:
        return with_freq(plan)  # no bins at all
    labels = binned.labels.rename(binned.label) if binned.labels is not None else \
        pd.date_range(pd.Timestamp(lo), pd.Timestamp(hi), freq=binned.offset, unit=binned.unit, name=binned.label)
    if len(labels) == (n or 0):
        return with_freq(plan)  # no empty bin: the sorted aggregation is complete
    agg_fields = plan.schema.columns
    fills = {f.name: (a.fn, f.dtype) for f, (_, a) in zip(agg_fields, plan.aggs)}

    def crosses_as_float(name: str) -> bool:
        fn, t = fills[name]
        return fn in _EMPTY_BIN and t is not None and (pa.types.is_integer(t) or pa.types.is_boolean(t))

    right = L.Select(tuple((f.label, func("cast", Col(f.name), dtype=pa.float64()) if crosses_as_float(f.name)
                            else Col(f.name)) for f in agg_fields), plan)
    bins = scan_pandas(pd.DataFrame(index=labels), "resample bins")
    outputs = tuple((f.label, "right", f.name) for f in right.schema.columns)
    joined = L.Join("left", (index_name(0),), (right.schema.index_names[0],), outputs, "left", False, bins, right)
    cols = []
    for f, agg_f in zip(joined.schema.columns, agg_fields):
        e: Expr = Col(f.name)
        fn, t = fills[agg_f.name]
        if fn in _EMPTY_BIN:
            e = func("fillna", e, Lit(_EMPTY_BIN[fn]))
            if crosses_as_float(agg_f.name):
                e = func("cast", e, dtype=t)
        cols.append((f.label, e))
    return with_freq(L.Select(tuple(cols), joined))


# ------------------------------------------------------------------ Resampler

_RESAMPLE_DEFAULTS = {"axis": None, "closed": None, "label": None, "convention": None, "kind": None, "level": None,
                      "origin": "start_day", "offset": None, "group_keys": False}


def _timestamp_key(obj: Any, on: Any) -> bool:
    """Whether ``obj``'s resample key (its one index level, or the ``on`` column) holds timestamps."""
    schema = obj._plan.schema
    if on is None:
        fields = schema.index
        return fields is not None and len(fields) == 1 and isinstance(fields[0].dtype, pa.TimestampType)
    return getattr(obj, "ndim", 1) == 2 and schema.has(on) and isinstance(schema.field(on).dtype, pa.TimestampType)


_NATIVE_AGGS = frozenset({"sum", "mean", "min", "max", "count", "first", "last", "size", "median", "std", "var", "prod",
                          "nunique"})
_TIME_GROUPER_OPTIONS = frozenset({"closed", "label", "convention", "origin", "offset", "group_keys", "level"})


class Resampler:
    """``obj.resample(rule, on=...)``: the native aggregations as a group-by on the binned
    timestamps (index or ``on`` column); anything else through pandas' Resampler."""

    def __init__(self, obj: Any, rule: Any, on: Any, kwargs: dict[str, Any], validate: bool = True) -> None:
        self._obj, self._rule, self._on, self._kwargs = obj, rule, on, kwargs
        self._selection: Any = None
        self._offset: Any = None
        if validate:
            # pandas checks the rule and the options (and warns on deprecated aliases) at the call
            # (a timestamp grouper's rules; anything they refuse, such as a PeriodIndex's "M", is
            # judged by pandas' resample on the object itself, which raises or not as pandas does)
            grouper_kwargs = {k: v for k, v in kwargs.items() if k in _TIME_GROUPER_OPTIONS}
            try:
                if not _timestamp_key(obj, on):
                    raise TypeError("not a timestamp key")
                try:
                    with user_warnings():
                        self._offset = pd.core.resample.TimeGrouper(freq=rule, key=on, **grouper_kwargs).freq
                except ValueError as exc:
                    # pandas' own TimeGrouper refuses the rule or an option (``origin``, ``offset``,
                    # ``closed``...): the ValueError pandas' resample raises on timestamps
                    raise exc from None
            except TypeError:
                self._offset = None
                via_pandas("resample", lambda pobj: pobj.resample(rule, on=on, **kwargs), (obj,), {},
                           "resample arguments not native")

    def __getitem__(self, key: Any) -> Resampler:
        out = Resampler(self._obj, self._rule, self._on, self._kwargs, validate=False)
        out._offset = self._offset
        out._selection = key
        return out

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            if pandas_private_method(pd.core.resample.Resampler, name):
                return lambda *a, **k: self._fallback(name, a, k)
            raise AttributeError(name)
        if self._selection is None and getattr(self._obj, "ndim", 1) == 2 and self._obj._schema.has(name):
            return self[name]
        if not hasattr(pd.core.resample.Resampler, name):
            raise AttributeError(f"'Resampler' object has no attribute {name!r}")
        return lambda *a, **k: self._fallback(name, a, k)

    def _fallback(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        def run(pobj: Any, *a: Any, **k: Any) -> Any:
            r = pobj.resample(self._rule, on=self._on, **self._kwargs)
            if self._selection is not None:
                r = r[self._selection]
            return getattr(r, name)(*a, **k)

        return via_pandas(f"Resampler.{name}", run, (self._obj, *args), kwargs, "resample not native for this rule")

    def _grouped(self) -> Any:
        """(group-by over the binned timestamps, index name to restore, squeeze) or None."""
        binning = ("closed", "label", "origin", "offset")  # (the Grouper's: ``grouper_bins``)
        if any(self._kwargs.get(k, v) != v for k, v in _RESAMPLE_DEFAULTS.items() if k not in binning) \
                or set(self._kwargs) - set(_RESAMPLE_DEFAULTS):
            return None
        obj = self._obj
        frame = obj if getattr(obj, "ndim", 1) == 2 else obj.to_frame()
        if self._on is not None:
            if getattr(obj, "ndim", 1) != 2 or not frame._schema.has(self._on):
                return None
            key, restore = self._on, self._on
        else:
            idx = frame._schema.index
            if idx is None or len(idx) != 1:
                return None
            restore = idx[0].label
            key = "__gf_resample_key"
            if frame._schema.has(key):
                return None
            frame = frame.reset_index(names=key)
        offset = self._offset
        if offset is None:
            return None
        with warnings.catch_warnings():  # (the call warned already, at ``resample``)
            warnings.simplefilter("ignore")
            grouper = pd.Grouper(key=key, freq=offset, **{k: v for k, v in self._kwargs.items() if k in binning})
        if grouper_bins(frame, grouper) is None:
            return None
        gb = frame.groupby(grouper)
        sel = self._selection
        if getattr(obj, "ndim", 1) == 1:  # the series' one column
            sel = next(c for c in frame._schema.labels if c != key)
        if sel is not None:
            gb = gb[sel]
        return gb, restore, key

    def _run(self, name: str, args: tuple, kwargs: dict[str, Any], native_args: bool = False) -> Any:
        # a frame of timestamps only: pandas' frame result keeps the frame's (empty) column Index, which
        # the group-by over a key column types by the key's label (``size``, a Series, has no columns)
        bare = getattr(self._obj, "ndim", 1) == 2 and not self._obj._schema.columns and name != "size"
        grouped = self._grouped() if (native_args or not args) and not bare else None
        if grouped is None:
            return self._fallback(name, args, kwargs)
        gb, restore, key = grouped
        out = getattr(gb, name)(*args, **kwargs)
        if key != restore:  # the index's own name back (labels only)
            plan = L.RenameIndex((restore,), out._plan if out.ndim == 2 else out._frame_plan())
            out = DataFrame._from_plan(plan) if out.ndim == 2 else type(out)._from_frame_plan(plan)
        if getattr(self._obj, "ndim", 1) == 1 and out.ndim == 1:  # the series' own name (None stays None)
            out = out._with(out._expr, name=self._obj.name)
        return out

    def sum(self, *args: Any, **kwargs: Any) -> Any: return self._run("sum", args, kwargs)
    def mean(self, *args: Any, **kwargs: Any) -> Any: return self._run("mean", args, kwargs)
    def min(self, *args: Any, **kwargs: Any) -> Any: return self._run("min", args, kwargs)
    def max(self, *args: Any, **kwargs: Any) -> Any: return self._run("max", args, kwargs)
    def count(self, *args: Any, **kwargs: Any) -> Any: return self._run("count", args, kwargs)
    def median(self, *args: Any, **kwargs: Any) -> Any: return self._run("median", args, kwargs)
    def std(self, *args: Any, **kwargs: Any) -> Any: return self._numeric("std", args, kwargs)
    def var(self, *args: Any, **kwargs: Any) -> Any: return self._numeric("var", args, kwargs)

    def _numeric(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        """A product / moment: natively where every value column is numbers (pandas' TypeError for
        timestamps and others, or their own rules, are pandas')."""
        obj = self._obj if self._selection is None else self._obj[self._selection]
        frame = obj._frame() if getattr(obj, "ndim", 1) == 1 else obj
        fields = [f for f in frame._schema.columns if f.label != self._on]
        if not all(f.dtype is not None and (pa.types.is_integer(f.dtype) or pa.types.is_floating(f.dtype))
                   for f in fields):
            return self._fallback(name, args, kwargs)
        return self._run(name, args, kwargs)
    def prod(self, *args: Any, **kwargs: Any) -> Any: return self._numeric("prod", args, kwargs)
    def nunique(self, *args: Any, **kwargs: Any) -> Any: return self._run("nunique", args, kwargs)
    def first(self, *args: Any, **kwargs: Any) -> Any: return self._run("first", args, kwargs)
    def last(self, *args: Any, **kwargs: Any) -> Any: return self._run("last", args, kwargs)

    def _upsample(self, method: str, limit: Any = None, fill_value: Any = None) -> Any:
        """pandas' upsampling (``DatetimeIndexResampler._upsample``): the object reindexed on the bin
        edges (less the last, or the first where bins close right) with a fill method. The edges
        come from pandas' ``TimeGrouper`` given the index's first and last timestamps (host
        scalars: the edges depend on those only); the reindex is ``reshape.reindex_filled`` (or
        ``reindex_series`` for ``asfreq``), in the engines."""
        from gframe.frontend.reshape import reindex_filled, reindex_series

        call = {"limit": limit} if method != "asfreq" else {"fill_value": fill_value}
        obj = self._obj
        # (a column selected first: pandas' result is not a reindex on the bins - left to pandas)
        if self._offset is None or self._on is not None or self._selection is not None or "level" in self._kwargs or "axis" in self._kwargs \
                or "kind" in self._kwargs or (method == "asfreq" and getattr(obj, "ndim", 1) == 2) \
                or not len(obj):
            return self._fallback(method, (), call)
        ax = obj.index.to_pandas()
        if not isinstance(ax, pd.DatetimeIndex) or ax.hasnans:
            return self._fallback(method, (), call)
        grouper_kwargs = {k: v for k, v in self._kwargs.items() if k in _TIME_GROUPER_OPTIONS - {"level"}}
        with user_warnings():
            tg = pd.core.resample.TimeGrouper(freq=self._rule, **grouper_kwargs)
        ends = ax[[int(ax.argmin()), int(ax.argmax())]]
        binner, _, _ = tg._get_time_bins(ends)
        target = binner[1:] if tg.closed == "right" else binner[:-1]
        if method == "asfreq":
            out = reindex_series(obj, target, fill_value)
        else:
            out = reindex_filled(obj, target, method, limit)
        if out is None:
            return self._fallback(method, (), call)
        return out

    def ffill(self, limit: Any = None) -> Any: return self._upsample("ffill", limit)
    def bfill(self, limit: Any = None) -> Any: return self._upsample("bfill", limit)
    def nearest(self, limit: Any = None) -> Any: return self._upsample("nearest", limit)
    def asfreq(self, fill_value: Any = None) -> Any: return self._upsample("asfreq", fill_value=fill_value)

    def size(self) -> Any:
        out = self._run("size", (), {})
        if getattr(self._obj, "ndim", 1) == 1 and hasattr(out, "rename"):
            return out.rename(self._obj.name)
        return out

    def agg(self, func_: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(func_, str) and func_ in _NATIVE_AGGS and not args and not kwargs:
            return getattr(self, func_)()
        names = list(func_.values()) if isinstance(func_, dict) else func_
        if isinstance(func_, dict) and not (getattr(self._obj, "ndim", 1) == 2 and self._selection is None
                                            and all(self._obj._schema.has(c) for c in func_)):
            names = None  # (a column it does not have: pandas' KeyError / SpecificationError)
        if isinstance(names, list) and names and not args and not kwargs \
                and all(n in _NATIVE_AGGS and n != "size" if isinstance(n, str) else
                        isinstance(n, list) and n and all(isinstance(m, str) and m in _NATIVE_AGGS and m != "size"
                                                          for m in n) for n in names):
            # lists / dicts of names: the group-by's ``agg`` of them (its own result layout)
            return self._run("agg", (func_,), {}, native_args=True)
        return self._fallback("agg", (func_, *args), kwargs)

    aggregate = agg


def resample(obj: Any, rule: Any, on: Any = None, **kwargs: Any) -> Resampler:
    """``DataFrame.resample`` / ``Series.resample``."""
    return Resampler(obj, rule, on, kwargs)
