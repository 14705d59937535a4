"""The host stand-in for pylibcudf (``gframe.testing.fake_pylibcudf``) against the real pylibcudf.

Every function the fake provides is called with the same small inputs - ints and floats with nulls
and NaN, bools, strings, timestamps, one row, no rows - through the fake and through real pylibcudf,
and the results are compared as Arrow values (types and values, NaN equal to NaN). Row order is
ignored where libcudf promises none (hash group-by, hash joins, ``distinct_indices``): those cases
say ``order="rows"`` (compare the multiset of rows) or ``order="pairs"`` (join gather maps as a
multiset of (left, right) pairs). A case may instead say that both must raise (``raises=True``):
the fake raises where libcudf raises.

The comparisons need a GPU with pylibcudf 26.10 (marked ``gpu``; skipped elsewhere, and skipped
when the fake itself is installed as ``pylibcudf``). The fake is built by ``fake_pylibcudf.module()``
without being installed, so both live in one process. ``test_every_fake_callable_is_covered`` and
``test_cases_only_use_modelled_arguments`` run everywhere: the first fails when the fake grows a
function that no case calls; the second runs every case on the fake alone, so a case that the fake
does not model (it raises NotImplementedError) is caught without a GPU.
"""
from __future__ import annotations

import warnings

import datetime as dt
import enum
import inspect
import math
import types
from dataclasses import dataclass
from typing import Any, Callable

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gframe.testing import fake_pylibcudf

FAKE = fake_pylibcudf.module()


def _real() -> tuple[Any, str | None]:
    try:
        import pylibcudf
    except Exception as exc:  # noqa: BLE001 - any import failure means "nothing to compare with"
        return None, f"pylibcudf is not importable ({type(exc).__name__}: {exc})"
    if getattr(pylibcudf, "__host_stand_in__", False):
        return None, "pylibcudf is the host stand-in here (fake_pylibcudf.install() ran)"
    return pylibcudf, None


REAL, NO_REAL = _real()


def needs_real(fn: Callable) -> Callable:
    return pytest.mark.gpu(pytest.mark.skipif(REAL is None, reason=f"no real pylibcudf: {NO_REAL}")(fn))

NaN = float("nan")
T0 = dt.datetime(2021, 3, 1, 10, 15, 30, 250000)

# ------------------------------------------------------------------------------------------ inputs
# Each dataset is a dict of Arrow arrays; "rows" has nulls, NaN, duplicates; "one" and "empty" are its edges.

_ROWS = {
    "i": pa.array([3, None, -1, 7, 3, 0], pa.int64()),
    "j": pa.array([2, 5, None, -3, 2, 1], pa.int64()),
    "i32": pa.array([1, 0, 3, 2, 1, 5], pa.int32()),
    "f": pa.array([1.5, None, NaN, -2.25, 1.5, 0.0], pa.float64()),
    "g": pa.array([0.5, 2.0, None, -1.75, 2.5, 3.0], pa.float64()),  # no NaN
    "b": pa.array([True, None, False, True, False, True], pa.bool_()),
    "s": pa.array(["apple", None, "Banana", "", "apple", " cherry pie "], pa.string()),
    "t": pa.array([T0, None, dt.datetime(2020, 12, 31, 23, 59, 59), dt.datetime(2021, 1, 15),
                   T0, dt.datetime(2019, 2, 28, 6, 7, 8, 9)], pa.timestamp("ns")),
    "k": pa.array([1, 2, 1, None, 2, 1], pa.int64()),  # a group/join key
    "dd": pa.array([dt.date(1995, 3, 1), None, dt.date(1992, 1, 2), dt.date(1998, 12, 31), dt.date(1995, 3, 1),
                    dt.date(1969, 12, 31)], pa.date32()),  # dates (TIMESTAMP_DAYS), with one before the epoch
    "m": pa.array([True, False, None, True, True, False], pa.bool_()),  # a mask
}
DATASETS = {
    "rows": _ROWS,
    "one": {k: v.slice(0, 1) for k, v in _ROWS.items()},
    "empty": {k: v.slice(0, 0) for k, v in _ROWS.items()},
}
_RIGHT = {"k": pa.array([2, None, 1, 9, 1], pa.int64()), "r": pa.array([10, 20, 30, 40, 50], pa.int64())}


def C(plc: Any, arr: pa.Array) -> Any:
    return plc.Column.from_arrow(arr)


def S(plc: Any, value: Any, t: pa.DataType) -> Any:
    return plc.Scalar.from_arrow(pa.scalar(value, type=t))


def T(plc: Any, *arrs: pa.Array) -> Any:
    return plc.Table([C(plc, a) for a in arrs])


def n_of(d: dict[str, pa.Array]) -> int:
    return len(d["i"])


# ------------------------------------------------------------------------------------------ cases

@dataclass(frozen=True)
class Case:
    name: str
    covers: tuple[str, ...]  # the fake's callables this case calls, as "module.function"
    run: Callable[[Any, dict[str, pa.Array]], Any]
    order: str = "exact"  # "exact" | "rows" (a Table or (keys, [Tables]) as a multiset of rows) | "pairs"
    raises: bool = False  # both must raise
    datasets: tuple[str, ...] = ("rows", "one", "empty")


CASES: list[Case] = []


def case(name: str, covers: str | tuple[str, ...], **kw: Any) -> Callable[[Callable], Callable]:
    def register(fn: Callable) -> Callable:
        CASES.append(Case(name, (covers,) if isinstance(covers, str) else covers, fn, **kw))
        return fn
    return register


# containers and interop
case("column_roundtrip", ("Column.from_arrow", "Column.to_arrow", "Column.type", "Column.size", "Column.null_count",
                          "Column.offset", "DataType.id"))(
    lambda plc, d: [(C(plc, a).to_arrow(), C(plc, a).type().id().name, C(plc, a).size(), C(plc, a).null_count(),
                     C(plc, a).offset()) for a in d.values()])
case("column_device_buffer_size", "Column.device_buffer_size")(
    lambda plc, d: C(plc, d["i"]).device_buffer_size() >= 0)
case("table_roundtrip", ("Table", "Table.from_arrow", "Table.to_arrow", "Table.columns", "Table.num_columns",
                         "Table.num_rows"))(
    lambda plc, d: (plc.Table.from_arrow(pa.table(d)).to_arrow(metadata=list(d)),
                    T(plc, d["i"], d["s"]).num_columns(), T(plc, d["i"], d["s"]).num_rows(),
                    [c.to_arrow() for c in T(plc, d["f"], d["t"]).columns()]))
case("table_num_rows_given", "Table")(lambda plc, d: plc.Table([], n_of(d)).num_rows())
case("scalar_roundtrip", ("Scalar.from_arrow", "Scalar.is_valid", "Scalar.type", "Scalar.to_py"))(
    lambda plc, d: [(s.is_valid(), s.type().id().name, s.to_py()) for s in
                    (S(plc, 3, pa.int64()), S(plc, None, pa.int32()), S(plc, 2.5, pa.float64()),
                     S(plc, "x", pa.string()), S(plc, None, pa.string()), S(plc, True, pa.bool_()))])
case("column_from_scalar", "Column.from_scalar")(
    lambda plc, d: [plc.Column.from_scalar(S(plc, v, t), n_of(d)) for v, t in
                    ((7, pa.int32()), (None, pa.float64()), ("ab", pa.string()), (T0, pa.timestamp("ns")))])
case("column_struct", ("Column", "Column.struct_from_children"))(
    lambda plc, d: (plc.Column(plc.DataType(plc.TypeId.STRUCT), n_of(d), None, None, 0, 0,
                               [C(plc, d["g"]), C(plc, d["j"])]).size(),
                    plc.Column.struct_from_children([C(plc, d["g"]), C(plc, d["j"])]).size()))
case("datatype", ("DataType", "DataType.from_arrow", "DataType.to_arrow", "DataType.id"))(
    lambda plc, d: [(plc.DataType.from_arrow(t).id().name, plc.DataType(plc.DataType.from_arrow(t).id()).to_arrow(),
                     plc.DataType.from_arrow(t) == plc.DataType(plc.DataType.from_arrow(t).id()))
                    for t in (pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32(),
                              pa.uint64(), pa.float32(), pa.float64(), pa.bool_(), pa.timestamp("s"),
                              pa.timestamp("ms"), pa.timestamp("us"), pa.timestamp("ns"), pa.duration("s"),
                              pa.duration("ms"), pa.duration("us"), pa.duration("ns"), pa.date32())])
case("types_datatype", ("types.DataType", "DataType.id"))(
    lambda plc, d: [plc.types.DataType(getattr(plc.types.TypeId, n)).id().name for n in ("INT64", "STRING", "BOOL8")])
case("datatype_string", "DataType.from_arrow")(lambda plc, d: plc.DataType.from_arrow(pa.large_string()).id().name)

# binary operations
_BIN = {
    "ADD": ("i", "j", pa.int64()), "SUB": ("i", "j", pa.int64()), "MUL": ("i", "j", pa.int64()),
    "TRUE_DIV": ("i", "j", pa.float64()), "POW": ("g", "g", pa.float64()),
    "BITWISE_AND": ("i", "j", pa.int64()), "BITWISE_OR": ("i", "j", pa.int64()), "BITWISE_XOR": ("i", "j", pa.int64()),
    "LOGICAL_AND": ("b", "m", pa.bool_()), "LOGICAL_OR": ("b", "m", pa.bool_()),
    "EQUAL": ("f", "g", pa.bool_()), "NOT_EQUAL": ("i", "j", pa.bool_()), "LESS": ("f", "g", pa.bool_()),
    "GREATER": ("i", "j", pa.bool_()), "LESS_EQUAL": ("s", "s", pa.bool_()), "GREATER_EQUAL": ("t", "t", pa.bool_()),
    "NULL_EQUALS": ("i", "j", pa.bool_()), "NULL_NOT_EQUALS": ("s", "s", pa.bool_()),
}
for _op, (_a, _b, _t) in _BIN.items():
    case(f"binary_{_op}", "binaryop.binary_operation")(
        lambda plc, d, op=_op, a=_a, b=_b, t=_t: plc.binaryop.binary_operation(
            C(plc, d[a]), C(plc, d[b]), getattr(plc.binaryop.BinaryOperator, op), plc.DataType.from_arrow(t)))
case("binary_float_mix", "binaryop.binary_operation")(
    lambda plc, d: [plc.binaryop.binary_operation(C(plc, d["f"]), C(plc, d["g"]), getattr(plc.binaryop.BinaryOperator, op),
                                                  plc.DataType.from_arrow(pa.float64()))
                    for op in ("ADD", "SUB", "MUL", "TRUE_DIV", "FLOOR_DIV", "PYMOD")])
case("binary_int_by_scalar", "binaryop.binary_operation")(
    lambda plc, d: [plc.binaryop.binary_operation(C(plc, d["i"]), S(plc, v, pa.int64()),
                                                  getattr(plc.binaryop.BinaryOperator, op),
                                                  plc.DataType.from_arrow(pa.int64()))
                    for op, v in (("FLOOR_DIV", 2), ("FLOOR_DIV", -3), ("PYMOD", 2), ("PYMOD", -3), ("ADD", None))])
case("binary_scalar_lhs", "binaryop.binary_operation")(
    lambda plc, d: plc.binaryop.binary_operation(S(plc, 10.0, pa.float64()), C(plc, d["g"]),
                                                 plc.binaryop.BinaryOperator.SUB, plc.DataType.from_arrow(pa.float64())))
case("binary_int_to_int32", "binaryop.binary_operation")(
    lambda plc, d: plc.binaryop.binary_operation(C(plc, d["i32"]), S(plc, 1, pa.int32()),
                                                 plc.binaryop.BinaryOperator.ADD, plc.DataType.from_arrow(pa.int32())))
case("binary_timestamp_minus_duration", "binaryop.binary_operation")(
    lambda plc, d: plc.binaryop.binary_operation(C(plc, d["t"]), S(plc, dt.timedelta(hours=1), pa.duration("ns")),
                                                 plc.binaryop.BinaryOperator.SUB,
                                                 plc.DataType.from_arrow(pa.timestamp("ns"))))
case("binary_timestamp_difference", "binaryop.binary_operation")(
    lambda plc, d: plc.binaryop.binary_operation(C(plc, d["t"]), S(plc, T0, pa.timestamp("ns")),
                                                 plc.binaryop.BinaryOperator.SUB,
                                                 plc.DataType.from_arrow(pa.duration("ns"))))
case("binary_string_compare_scalar", "binaryop.binary_operation")(
    lambda plc, d: plc.binaryop.binary_operation(C(plc, d["s"]), S(plc, "apple", pa.string()),
                                                 plc.binaryop.BinaryOperator.EQUAL, plc.DataType.from_arrow(pa.bool_())))

# unary operations
_UNARY = {"SIN": "g", "COS": "g", "TAN": "g", "ARCSIN": "g", "ARCCOS": "g", "ARCTAN": "g", "SINH": "g", "COSH": "g",
          "TANH": "g", "ARCSINH": "g", "ARCCOSH": "g", "ARCTANH": "g", "EXP": "g", "LOG": "g", "SQRT": "g",
          "CBRT": "g", "CEIL": "f", "FLOOR": "f", "RINT": "f", "ABS": "f", "NEGATE": "f", "BIT_INVERT": "i",
          "NOT": "b"}
for _op, _col in _UNARY.items():
    case(f"unary_{_op}", "unary.unary_operation")(
        lambda plc, d, op=_op, c=_col: plc.unary.unary_operation(C(plc, d[c]), getattr(plc.unary.UnaryOperator, op)))
case("unary_int_abs_negate", "unary.unary_operation")(
    lambda plc, d: [plc.unary.unary_operation(C(plc, d["i"]), getattr(plc.unary.UnaryOperator, op))
                    for op in ("ABS", "NEGATE")])
case("unary_not_int", "unary.unary_operation")(
    lambda plc, d: plc.unary.unary_operation(C(plc, d["i"]), plc.unary.UnaryOperator.NOT))
case("cast_numbers", "unary.cast")(
    lambda plc, d: [plc.unary.cast(C(plc, d[c]), plc.DataType.from_arrow(t)) for c, t in
                    (("i", pa.float64()), ("i", pa.int32()), ("i", pa.int8()), ("i", pa.bool_()), ("b", pa.int64()),
                     ("b", pa.int8()), ("g", pa.int64()), ("g", pa.float32()), ("g", pa.bool_()),
                     ("i32", pa.uint8()))])
case("cast_timestamps", "unary.cast")(
    lambda plc, d: [plc.unary.cast(C(plc, d["t"]), plc.DataType.from_arrow(t)) for t in
                    (pa.timestamp("us"), pa.timestamp("ms"), pa.timestamp("s"))])
case("cast_string_raises", "unary.cast", raises=True)(
    lambda plc, d: plc.unary.cast(C(plc, d["s"]), plc.DataType.from_arrow(pa.int64())))
case("bit_cast", "unary.bit_cast")(
    lambda plc, d: (plc.unary.bit_cast(C(plc, d["t"]), plc.DataType.from_arrow(pa.int64())),
                    plc.unary.bit_cast(C(plc, d["i"]), plc.DataType.from_arrow(pa.timestamp("ns")))))
case("is_null_valid", ("unary.is_null", "unary.is_valid"))(
    lambda plc, d: [(plc.unary.is_null(C(plc, a)), plc.unary.is_valid(C(plc, a))) for a in d.values()])
case("is_nan", "unary.is_nan")(lambda plc, d: plc.unary.is_nan(C(plc, d["f"])))
case("is_nan_int_raises", "unary.is_nan", raises=True)(lambda plc, d: plc.unary.is_nan(C(plc, d["i"])))

# reductions and scans
_REDUCE = [("sum", "i", pa.int64()), ("sum", "f", pa.float64()), ("sum", "b", pa.int64()),
           ("product", "j", pa.int64()), ("product", "g", pa.float64()), ("min", "i", pa.int64()),
           ("max", "g", pa.float64()), ("min", "s", pa.string()), ("max", "t", pa.timestamp("ns")),
           ("mean", "i", pa.float64()), ("mean", "f", pa.float64()), ("median", "g", pa.float64()),
           ("any", "b", pa.bool_()), ("all", "b", pa.bool_()), ("std", "g", pa.float64()),
           ("variance", "i", pa.float64())]
for _agg, _col, _t in _REDUCE:
    case(f"reduce_{_agg}_{_col}", ("reduce.reduce", f"aggregation.{_agg}"))(
        lambda plc, d, agg=_agg, c=_col, t=_t: plc.reduce.reduce(C(plc, d[c]), getattr(plc.aggregation, agg)(),
                                                                 plc.DataType.from_arrow(t)))
case("reduce_std_ddof0", ("reduce.reduce", "aggregation.std", "aggregation.variance"))(
    lambda plc, d: (plc.reduce.reduce(C(plc, d["g"]), plc.aggregation.std(ddof=0), plc.DataType.from_arrow(pa.float64())),
                    plc.reduce.reduce(C(plc, d["g"]), plc.aggregation.variance(ddof=0),
                                      plc.DataType.from_arrow(pa.float64()))))
# infinities, where libcudf and pandas part ways (the GPU engine computes these itself: kernels.py
# ``_column_variance``, ``_column_median``, ``SortedGroups.median``): the variance reduction merges
# (sum, squared deviations) pairs, so [inf, 1e20] has variance inf; the LINEAR median is
# (1 - f) * lower + f * upper also at f = 0, so an infinite middle value gives NaN (a group of one: as it is)
_INF = float("inf")
case("reduce_infinite_moments", ("reduce.reduce", "aggregation.std", "aggregation.variance", "aggregation.median"),
     datasets=("rows",))(
    lambda plc, d: [plc.reduce.reduce(C(plc, a), agg(), plc.DataType.from_arrow(pa.float64()))
                    for a in (pa.array([_INF, 1e20]), pa.array([1.0, _INF, None, _INF]), pa.array([_INF]))
                    for agg in (plc.aggregation.variance, plc.aggregation.std, plc.aggregation.median)])
case("groupby_median_infinite", ("groupby.GroupBy", "GroupBy.aggregate", "aggregation.median"), order="rows",
     datasets=("rows",))(
    lambda plc, d: plc.groupby.GroupBy(T(plc, pa.array([1, 1, 1, 2, 3, 3], pa.int64()))).aggregate(
        [plc.groupby.GroupByRequest(C(plc, pa.array([1.0, _INF, _INF, _INF, -_INF, 2.0])), [plc.aggregation.median()])]))
# int64 sums and products past the width wrap around in libcudf's accumulator, as numpy's do
_MAX64 = 2 ** 63 - 1
case("reduce_scan_groupby_int_sums_wrap", ("reduce.reduce", "reduce.scan", "aggregation.sum", "aggregation.product",
                                           "groupby.GroupBy", "GroupBy.aggregate"), datasets=("rows",))(
    lambda plc, d: [plc.reduce.reduce(C(plc, pa.array([_MAX64, 3])), plc.aggregation.sum(), plc.DataType.from_arrow(pa.int64())),
                    plc.reduce.reduce(C(plc, pa.array([2 ** 40, 2 ** 40])), plc.aggregation.product(),
                                      plc.DataType.from_arrow(pa.int64())),
                    plc.reduce.scan(C(plc, pa.array([_MAX64, 3])), plc.aggregation.sum(), plc.reduce.ScanType.INCLUSIVE),
                    plc.groupby.GroupBy(T(plc, pa.array([1, 1]))).aggregate(
                        [plc.groupby.GroupByRequest(C(plc, pa.array([_MAX64, 3])), [plc.aggregation.sum()])])[1]])
# the group-by's MEAN of ints is a compound aggregation, its int64 / uint64 SUM (wrapping) over its
# COUNT_VALID, divided in double: [2**63 - 2, 5] has mean -4.6e18 (seen on the H100, seed 803616)
case("groupby_int_mean_wraps", ("groupby.GroupBy", "GroupBy.aggregate", "aggregation.mean"), order="rows",
     datasets=("rows",))(
    lambda plc, d: plc.groupby.GroupBy(T(plc, pa.array([1, 1, 2, 2, 3], pa.int64()))).aggregate(
        [plc.groupby.GroupByRequest(C(plc, pa.array([_MAX64 - 1, 5, 7, None, -_MAX64], pa.int64())),
                                    [plc.aggregation.mean()]),
         plc.groupby.GroupByRequest(C(plc, pa.array([2 ** 64 - 1, 2, 1, 1, 4], pa.uint64())),
                                    [plc.aggregation.mean()])]))
# ... where the whole-column reduction's MEAN casts each value to the result type (double) before
# summing (reduction_operators.cuh ``mean``: ``cast_fn<ResultType>``): no wrap there
case("reduce_int_mean_in_double", ("reduce.reduce", "aggregation.mean"), datasets=("rows",))(
    lambda plc, d: [plc.reduce.reduce(C(plc, pa.array(v, t)), plc.aggregation.mean(), plc.DataType.from_arrow(pa.float64()))
                    for v, t in (([_MAX64 - 1, 5], pa.int64()), ([2 ** 64 - 1, 2], pa.uint64()))])
# a float64 product is correctly rounded on the device (the engine squares x ** 2 with MUL: CUDA's
# pow is up to 2 ulp off, seed 803410: POW(99999999.99, 2.0) was 9999999998000000.0 on the H100)
case("binaryop_float64_square_correctly_rounded", "binaryop.binary_operation", datasets=("rows",))(
    lambda plc, d: plc.binaryop.binary_operation(
        C(plc, pa.array([99999999.99, None, -3.0, 1e-300, 1.5e154, 0.1], pa.float64())),
        C(plc, pa.array([99999999.99, None, -3.0, 1e-300, 1.5e154, 0.1], pa.float64())),
        plc.binaryop.BinaryOperator.MUL, plc.DataType.from_arrow(pa.float64())))
# sort keys past a Python datetime's range (year 9999): libcudf compares the stored ticks
case("sort_timestamps_past_year_9999", ("sorting.stable_sorted_order", "sorting.segmented_sort_by_key"),
     datasets=("rows",))(
    lambda plc, d: [plc.sorting.stable_sorted_order(T(plc, pa.array([2 ** 63 - 1, None, 5, -5], pa.timestamp("us"))),
                                                    [plc.types.Order.DESCENDING], [plc.types.NullOrder.BEFORE]),
                    plc.sorting.segmented_sort_by_key(
                        T(plc, pa.array([0, 1, 2, 3], pa.int64())),
                        T(plc, pa.array([2 ** 63 - 1, -5, 7, 5], pa.duration("ns"))),
                        C(plc, pa.array([0, 2, 4], pa.int32())), [plc.types.Order.ASCENDING], [plc.types.NullOrder.AFTER])])
case("reduce_nunique_nth", ("reduce.reduce", "aggregation.nunique", "aggregation.nth_element"))(
    lambda plc, d: [plc.reduce.reduce(C(plc, d["i"]), a, plc.DataType.from_arrow(t)) for a, t in
                    ((plc.aggregation.nunique(plc.types.NullPolicy.EXCLUDE), pa.int32()),
                     (plc.aggregation.nunique(plc.types.NullPolicy.INCLUDE), pa.int32()),
                     (plc.aggregation.nth_element(0, plc.types.NullPolicy.EXCLUDE), pa.int64()),
                     (plc.aggregation.nth_element(-1, plc.types.NullPolicy.INCLUDE), pa.int64()))])
for _agg, _col in [("sum", "i"), ("sum", "g"), ("product", "j"), ("min", "i"), ("max", "i"), ("min", "g"),
                   ("max", "g"), ("max", "i32")]:
    case(f"scan_{_agg}_{_col}", ("reduce.scan", f"aggregation.{_agg}"))(
        lambda plc, d, agg=_agg, c=_col: plc.reduce.scan(C(plc, d[c]), getattr(plc.aggregation, agg)(),
                                                         plc.reduce.ScanType.INCLUSIVE))
case("distinct_count", "reduce.distinct_count")(
    lambda plc, d: [plc.reduce.distinct_count(C(plc, d[c]), getattr(plc.types.NullPolicy, nl),
                                              getattr(plc.types.NanPolicy, nan))
                    for c in ("i", "f", "s") for nl in ("EXCLUDE", "INCLUDE") for nan in ("NAN_IS_VALID", "NAN_IS_NULL")])


# group-by
def _groupby(plc: Any, d: dict[str, pa.Array], aggs: list[tuple[str, Any]], include: bool = True) -> Any:
    nulls = plc.types.NullPolicy.INCLUDE if include else plc.types.NullPolicy.EXCLUDE
    gb = plc.groupby.GroupBy(T(plc, d["k"]), null_handling=nulls)
    return gb.aggregate([plc.groupby.GroupByRequest(C(plc, d[c]), [a(plc) for a in fns]) for c, fns in aggs])


_GROUP_AGGS = [
    ("i", [lambda p: p.aggregation.sum(), lambda p: p.aggregation.min(), lambda p: p.aggregation.max(),
           lambda p: p.aggregation.mean(), lambda p: p.aggregation.product(),
           lambda p: p.aggregation.count(p.types.NullPolicy.EXCLUDE),
           lambda p: p.aggregation.count(p.types.NullPolicy.INCLUDE),
           lambda p: p.aggregation.nunique(p.types.NullPolicy.EXCLUDE),
           lambda p: p.aggregation.nunique(p.types.NullPolicy.INCLUDE),
           lambda p: p.aggregation.nth_element(0, p.types.NullPolicy.EXCLUDE),
           lambda p: p.aggregation.nth_element(-1, p.types.NullPolicy.EXCLUDE)]),
    ("g", [lambda p: p.aggregation.sum(), lambda p: p.aggregation.median(), lambda p: p.aggregation.std(),
           lambda p: p.aggregation.variance(ddof=0), lambda p: p.aggregation.min()]),
    ("f", [lambda p: p.aggregation.sum(), lambda p: p.aggregation.mean(),
           lambda p: p.aggregation.count(p.types.NullPolicy.EXCLUDE)]),
    ("s", [lambda p: p.aggregation.min(), lambda p: p.aggregation.max(),
           lambda p: p.aggregation.count(p.types.NullPolicy.INCLUDE)]),
    ("t", [lambda p: p.aggregation.min(), lambda p: p.aggregation.max()]),
    ("b", [lambda p: p.aggregation.min(), lambda p: p.aggregation.max()]),
]
case("groupby_aggregate", ("groupby.GroupBy", "groupby.GroupByRequest", "GroupBy.aggregate", "aggregation.sum",
                           "aggregation.min", "aggregation.max", "aggregation.mean", "aggregation.product",
                           "aggregation.count", "aggregation.nunique", "aggregation.nth_element",
                           "aggregation.median", "aggregation.std", "aggregation.variance"), order="rows")(
    lambda plc, d: _groupby(plc, d, _GROUP_AGGS))
case("groupby_drop_null_keys", ("groupby.GroupBy", "GroupBy.aggregate"), order="rows")(
    lambda plc, d: _groupby(plc, d, _GROUP_AGGS[:1], include=False))



def _presorted(plc: Any, d: dict[str, pa.Array]) -> Any:
    """libcudf's sort-based group-by over keys already in ascending order (no nulls)."""
    n = n_of(d)
    keys = pa.array(sorted(d["i32"].to_pylist()), pa.int32())
    gb = plc.groupby.GroupBy(T(plc, keys), null_handling=plc.types.NullPolicy.INCLUDE,
                             keys_are_sorted=plc.types.Sorted.YES)
    return gb.aggregate([
        plc.groupby.GroupByRequest(C(plc, d["i"]), [plc.aggregation.sum(), plc.aggregation.min(),
                                                    plc.aggregation.nth_element(0, plc.types.NullPolicy.EXCLUDE),
                                                    plc.aggregation.nth_element(-1, plc.types.NullPolicy.EXCLUDE),
                                                    plc.aggregation.nunique(plc.types.NullPolicy.EXCLUDE)]),
        plc.groupby.GroupByRequest(C(plc, d["g"]), [plc.aggregation.median(), plc.aggregation.max()]),
        plc.groupby.GroupByRequest(C(plc, d["s"]), [plc.aggregation.min()]),
        plc.groupby.GroupByRequest(C(plc, keys), [plc.aggregation.count(plc.types.NullPolicy.INCLUDE)]),
    ]) if n else gb.aggregate([plc.groupby.GroupByRequest(C(plc, d["i"]), [plc.aggregation.sum()])])


case("groupby_keys_are_sorted", ("groupby.GroupBy", "GroupBy.aggregate"))(_presorted)




def _segmented(plc: Any, d: dict[str, pa.Array], fn: str) -> Any:
    """Each segment of rows sorted on its own (segments: [0, n // 2), [n // 2, n // 2), [n // 2, n))."""
    n = n_of(d)
    offsets = C(plc, pa.array([0, n // 2, n // 2, n], pa.int32()))
    asc, desc = plc.types.Order.ASCENDING, plc.types.Order.DESCENDING
    after, before = plc.types.NullOrder.AFTER, plc.types.NullOrder.BEFORE
    sort = getattr(plc.sorting, fn)
    return [sort(T(plc, d["g"], d["i"]), T(plc, d["g"]), offsets, [asc], [after]),
            sort(T(plc, d["i"], d["s"]), T(plc, d["i"]), offsets, [desc], [before]),
            sort(T(plc, d["i32"], d["s"]), T(plc, d["j"], d["i32"]), offsets, [asc, desc], [after, after])]


case("segmented_sort_by_key", "sorting.segmented_sort_by_key")(
    lambda plc, d: [t.columns()[0] for t in _segmented(plc, d, "segmented_sort_by_key")])  # (ties: any order)
case("stable_segmented_sort_by_key", "sorting.stable_segmented_sort_by_key")(
    lambda plc, d: _segmented(plc, d, "stable_segmented_sort_by_key"))


# libcudf's row hash, bit for bit: XXH64 of each element's bytes, each column seeded with the
# previous column's hash, a null element 2**64 - 1; NaN made one, -0.0 kept apart from 0.0
# one column each: the stand-in's bits of a multi-column row hash differ from libcudf 26.10's (seen on
# the H100; the engine relies only on equal rows hashing equal, and checks the keys: groupcodes.py)
_HASHED = (["i"], ["g"], ["f"], ["s"], ["b"], ["t"], ["dd"], ["i32"])
case("hashing_xxhash_64", "hashing.xxhash_64")(
    lambda plc, d: [plc.hashing.xxhash_64(T(plc, *[d[c] for c in cols])) for cols in _HASHED]
    + [plc.hashing.xxhash_64(T(plc, _dec(d)))]
    + [plc.hashing.xxhash_64(T(plc, pa.array([0.0, -0.0, NaN, -NaN, 1e300], pa.float64()))),
       plc.hashing.xxhash_64(T(plc, pa.array([0.0, -0.0, NaN], pa.float32()))),
       plc.hashing.xxhash_64(T(plc, pa.array(["x" * 40, "abc" * 11, "", "0123456789abcdef" * 4 + "z", None]))),
       plc.hashing.xxhash_64(T(plc, pa.array([1, 2**40, -1], pa.int64())), 12345)])


def _pair_struct(plc: Any, d: dict[str, pa.Array]) -> Any:
    return plc.Column(plc.DataType(plc.TypeId.STRUCT), n_of(d), None, None, 0, 0, [C(plc, d["g"]),
                      plc.unary.cast(C(plc, d["j"]), plc.DataType.from_arrow(pa.float64()))])


case("groupby_corr_cov", ("GroupBy.aggregate", "aggregation.correlation", "aggregation.covariance",
                          "aggregation.CorrelationType"), order="rows")(
    lambda plc, d: plc.groupby.GroupBy(T(plc, pa.array([1] * n_of(d), pa.int64())),
                                       null_handling=plc.types.NullPolicy.INCLUDE).aggregate(
        [plc.groupby.GroupByRequest(_pair_struct(plc, d), [
            plc.aggregation.correlation(plc.aggregation.CorrelationType.PEARSON, 1),
            plc.aggregation.covariance(1, 1), plc.aggregation.covariance(2, 0)])]))


# sorting
def _orders(plc: Any, spec: str) -> tuple[list[Any], list[Any]]:
    """'a<' = ascending, nulls before; 'd>' = descending, nulls after; one pair per key column."""
    o = {"a": plc.types.Order.ASCENDING, "d": plc.types.Order.DESCENDING}
    nl = {"<": plc.types.NullOrder.BEFORE, ">": plc.types.NullOrder.AFTER}
    pairs = [spec[i:i + 2] for i in range(0, len(spec), 2)]
    return [o[p[0]] for p in pairs], [nl[p[1]] for p in pairs]


for _keys, _spec in [(("i",), "a<"), (("i",), "d>"), (("f",), "a>"), (("f",), "d<"), (("s",), "a<"),
                     (("t",), "d>"), (("k", "g"), "a>d<"), (("b", "s"), "d>a>")]:
    case(f"stable_sorted_order_{'_'.join(_keys)}_{_spec}", ("sorting.stable_sorted_order", "sorting.stable_sort"))(
        lambda plc, d, keys=_keys, spec=_spec: (
            plc.sorting.stable_sorted_order(T(plc, *[d[k] for k in keys]), *_orders(plc, spec)),
            plc.sorting.stable_sort(T(plc, *[d[k] for k in keys], d["j"]), *_orders(plc, spec + "a<"))))
# unstable sorts: only keys without ties, so every valid order is the same
case("sorted_order_unique_keys", ("sorting.sorted_order", "sorting.sort"))(
    lambda plc, d: (plc.sorting.sorted_order(T(plc, d["g"]), *_orders(plc, "d<")),
                    plc.sorting.sort(T(plc, d["g"], d["s"]), *_orders(plc, "a>a>"))))

# rank: every method, both orders, over ints with ties and nulls, floats without NaN, timestamps
for _col in ("i", "g", "t"):
    for _method in ("FIRST", "AVERAGE", "MIN", "MAX", "DENSE"):
        case(f"rank_{_col}_{_method.lower()}", ("sorting.rank", "aggregation.RankMethod"))(
            lambda plc, d, col=_col, method=_method: [
                plc.sorting.rank(C(plc, d[col]), getattr(plc.aggregation.RankMethod, method), order,
                                 plc.types.NullPolicy.EXCLUDE, nulls, False)
                for order in (plc.types.Order.ASCENDING, plc.types.Order.DESCENDING)
                for nulls in (plc.types.NullOrder.AFTER, plc.types.NullOrder.BEFORE)])

# copying
case("gather", ("copying.gather", "copying.OutOfBoundsPolicy"))(
    lambda plc, d: (plc.copying.gather(T(plc, d["i"], d["s"], d["t"]),
                                       C(plc, pa.array([n_of(d) - 1, 0] if n_of(d) else [], pa.int32())),
                                       plc.copying.OutOfBoundsPolicy.DONT_CHECK),
                    plc.copying.gather(T(plc, d["f"], d["s"]), C(plc, pa.array([0, -(2**31), 99, -1], pa.int32())),
                                       plc.copying.OutOfBoundsPolicy.NULLIFY)))
case("slice", "copying.slice")(
    lambda plc, d: ([t.to_arrow() for t in plc.copying.slice(T(plc, d["i"], d["s"]), [0, n_of(d), 0, n_of(d) // 2])],
                    plc.copying.slice(C(plc, d["f"]), [n_of(d) // 2, n_of(d)])))
case("shift", "copying.shift")(
    lambda plc, d: [plc.copying.shift(C(plc, d[c]), k, S(plc, v, d[c].type)) for c, k, v in
                    (("i", 1, None), ("i", -2, 0), ("s", 2, "z"), ("t", 1, None), ("f", 0, None), ("g", 9, 1.0))])
case("shift_type_mismatch_raises", "copying.shift", raises=True, datasets=("rows",))(
    lambda plc, d: plc.copying.shift(C(plc, d["i"]), 1, S(plc, 1, pa.int32())))
case("copy_if_else", "copying.copy_if_else")(
    lambda plc, d: (plc.copying.copy_if_else(C(plc, d["i"]), C(plc, d["j"]), C(plc, d["m"])),
                    plc.copying.copy_if_else(S(plc, "x", pa.string()), C(plc, d["s"]), C(plc, d["m"])),
                    plc.copying.copy_if_else(C(plc, d["f"]), S(plc, None, pa.float64()), C(plc, d["m"])),
                    plc.copying.copy_if_else(S(plc, True, pa.bool_()), S(plc, False, pa.bool_()), C(plc, d["m"]))))
case("copy_if_else_type_mismatch_raises", "copying.copy_if_else", raises=True)(
    lambda plc, d: plc.copying.copy_if_else(C(plc, d["i"]), C(plc, d["g"]), C(plc, d["m"])))
case("distinct_count_table", "reduce.distinct_count_table", datasets=("rows",))(
    lambda plc, d: [plc.reduce.distinct_count_table(T(plc, *cols), plc.types.NullEquality.EQUAL)
                    for cols in ((d["s"],), (d["i"], d["s"]),
                                 (pa.array([1, 1, None, None, 2]), pa.array(["a", "a", None, None, None])))])
case("scatter", "copying.scatter", datasets=("rows",))(
    lambda plc, d: (plc.copying.scatter(T(plc, pa.array([100, None], pa.int64()), pa.array(["p", "q"], pa.string())),
                                        C(plc, pa.array([4, -1], pa.int32())), T(plc, d["i"], d["s"])),
                    plc.copying.scatter([S(plc, None, pa.float64())], C(plc, pa.array([0, 2], pa.int32())),
                                        T(plc, d["f"]))))

# filling, concatenation, replace, round, search, transform
case("sequence", "filling.sequence")(
    lambda plc, d: (plc.filling.sequence(n_of(d), S(plc, 0, pa.int32()), S(plc, 1, pa.int32())),
                    plc.filling.sequence(n_of(d), S(plc, 5, pa.int64()), S(plc, -2, pa.int64())),
                    plc.filling.sequence(n_of(d), S(plc, 0.5, pa.float64()), S(plc, 0.25, pa.float64()))))
case("repeat", "filling.repeat")(
    lambda plc, d: (plc.filling.repeat(T(plc, d["i"], d["f"], d["s"], d["t"], d["b"]), 2),
                    plc.filling.repeat(T(plc, d["s"], d["f"]), 0),
                    plc.filling.repeat(T(plc, d["i"], d["s"]), C(plc, d["i32"])),
                    plc.filling.repeat(T(plc, d["f"]), C(plc, d["i32"].cast(pa.int64())))))
case("repeat_negative_raises", "filling.repeat", raises=True, datasets=("rows", "one"))(
    lambda plc, d: plc.filling.repeat(T(plc, d["i"]), -1))
case("repeat_negative_of_no_rows", "filling.repeat", datasets=("empty",))(  # no rows: no error (seen on the H100)
    lambda plc, d: plc.filling.repeat(T(plc, d["i"]), -1))
case("repeat_count_size_mismatch_raises", "filling.repeat", raises=True, datasets=("rows",))(
    lambda plc, d: plc.filling.repeat(T(plc, d["i"]), C(plc, d["i32"].slice(0, 2))))
case("rolling_sum_column_windows", "rolling.rolling_window")(
    lambda plc, d: [plc.rolling.rolling_window(
        C(plc, src), C(plc, pa.array([i % 3 + 1 for i in range(n_of(d))], pa.int32())),  # in bounds (see the fake)
        C(plc, pa.array([0] * n_of(d), pa.int32())),
        1, plc.aggregation.sum()) for src in (d["g"].fill_null(0.25), d["i"].fill_null(0), d["i32"])])
case("rolling_sum_int_windows", "rolling.rolling_window")(
    lambda plc, d: plc.rolling.rolling_window(C(plc, d["g"].fill_null(-1.0)), 3, 0, 2, plc.aggregation.sum()))
case("concatenate", "concatenate.concatenate")(
    lambda plc, d: [plc.concatenate.concatenate([C(plc, d[c]), C(plc, d[c].slice(0, 2))]) for c in d])
case("replace_nulls", "replace.replace_nulls")(
    lambda plc, d: (plc.replace.replace_nulls(C(plc, d["i"]), S(plc, -9, pa.int64())),
                    plc.replace.replace_nulls(C(plc, d["i"]), C(plc, d["j"])),
                    plc.replace.replace_nulls(C(plc, d["s"]), S(plc, "?", pa.string())),
                    plc.replace.replace_nulls(C(plc, d["f"]), S(plc, 0.0, pa.float64()))))
case("replace_nulls_type_mismatch_raises", "replace.replace_nulls", raises=True, datasets=("rows",))(
    lambda plc, d: plc.replace.replace_nulls(C(plc, d["i"]), S(plc, 0.5, pa.float64())))
case("clamp", "replace.clamp")(
    lambda plc, d: (plc.replace.clamp(C(plc, d["i"]), S(plc, 0, pa.int64()), S(plc, 5, pa.int64())),
                    plc.replace.clamp(C(plc, d["g"]), S(plc, None, pa.float64()), S(plc, 2.0, pa.float64()))))
case("round", ("round.round", "round.RoundingMethod"))(
    lambda plc, d: [plc.round.round(C(plc, pa.array([0.5, 1.5, 2.5, -0.5, -1.5, 1.25, 1.35, None, NaN][:n_of(d) + 3])),
                                    k, m) for k in (0, 1)
                    for m in (plc.round.RoundingMethod.HALF_UP, plc.round.RoundingMethod.HALF_EVEN)])
case("search_contains", "search.contains")(
    lambda plc, d: (plc.search.contains(C(plc, pa.array([3, 7, 9], pa.int64())), C(plc, d["i"])),
                    plc.search.contains(C(plc, pa.array(["apple", None, ""], pa.string())), C(plc, d["s"]))))
case("column_nans_to_nulls", "transform.column_nans_to_nulls")(
    lambda plc, d: plc.transform.column_nans_to_nulls(C(plc, d["f"])))


def _nans_to_nulls_mask(plc: Any, d: dict[str, pa.Array]) -> Any:
    col = C(plc, d["f"])
    mask, nulls = plc.transform.nans_to_nulls(col)
    return nulls, col.with_mask(mask, nulls)  # NaN and missing both missing, the values shared


case("nans_to_nulls_with_mask", ("transform.nans_to_nulls", "Column.with_mask"))(_nans_to_nulls_mask)
# the memory the device interop shares (engines/gpu/exchange.py): a span of at least size x width
# bytes for fixed-width columns; a null mask moved onto another column; a deep copy
case("column_memory", ("Column.data", "Column.null_mask", "Column.with_mask", "Column.copy"))(
    lambda plc, d: ([C(plc, d[k]).data() is None and len(d[k]) == 0
                     or C(plc, d[k]).data().size >= len(d[k]) * w for k, w in (("i", 8), ("i32", 4), ("f", 8),
                                                                               ("b", 1), ("t", 8))],
                    C(plc, d["i32"]).with_mask(C(plc, d["i"]).null_mask(), C(plc, d["i"]).null_count()),
                    C(plc, d["i32"]).with_mask(None, 0), [C(plc, d[k]).copy() for k in ("i", "f", "b", "t")]))

# stream compaction
def _boolean_mask_deprecated(plc: Any, d: dict[str, pa.Array]) -> Any:
    # both warn that the name is deprecated (FutureWarning, seen on the device): compare the results
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return plc.stream_compaction.apply_boolean_mask(T(plc, d["i"], d["s"]), C(plc, d["m"]))


case("apply_boolean_mask", ("stream_compaction.apply_boolean_mask", "stream_compaction.apply_retention_mask"))(
    lambda plc, d: (_boolean_mask_deprecated(plc, d),
                    plc.stream_compaction.apply_retention_mask(T(plc, d["f"], d["t"]), C(plc, d["m"]))))
case("drop_nulls", "stream_compaction.drop_nulls")(
    lambda plc, d: [plc.stream_compaction.drop_nulls(T(plc, d["i"], d["j"], d["s"]), keys, th)
                    for keys, th in (([0], 1), ([0, 1], 2), ([0, 1, 2], 1))])
case("stable_distinct", ("stream_compaction.stable_distinct", "stream_compaction.DuplicateKeepOption"))(
    lambda plc, d: [plc.stream_compaction.stable_distinct(
        T(plc, d["k"], d["f"], d["i"]), keys, getattr(plc.stream_compaction.DuplicateKeepOption, keep),
        plc.types.NullEquality.EQUAL, plc.types.NanEquality.ALL_EQUAL)
        for keys in ([0], [1], [0, 1]) for keep in ("KEEP_FIRST", "KEEP_LAST", "KEEP_NONE")])
case("distinct_indices", "stream_compaction.distinct_indices", order="rows")(
    lambda plc, d: plc.stream_compaction.distinct_indices(
        T(plc, d["k"], d["s"]), plc.stream_compaction.DuplicateKeepOption.KEEP_FIRST, plc.types.NullEquality.EQUAL,
        plc.types.NanEquality.ALL_EQUAL))


# joins
def _keys(plc: Any, d: dict[str, pa.Array]) -> tuple[Any, Any]:
    return T(plc, d["k"]), T(plc, _RIGHT["k"])


for _how in ("inner_join", "left_join", "full_join"):
    for _eq in ("EQUAL", "UNEQUAL"):
        case(f"{_how}_{_eq}", f"join.{_how}", order="pairs")(
            lambda plc, d, how=_how, eq=_eq: getattr(plc.join, how)(*_keys(plc, d), getattr(plc.types.NullEquality, eq)))
case("join_two_keys", "join.inner_join", order="pairs")(
    lambda plc, d: plc.join.inner_join(T(plc, d["k"], d["s"]), T(plc, pa.array([1, 2, 1]), pa.array(["apple", None, ""])),
                                       plc.types.NullEquality.EQUAL))
case("join_key_type_mismatch_raises", "join.inner_join", raises=True, datasets=("rows",))(
    lambda plc, d: plc.join.inner_join(T(plc, d["k"]), T(plc, d["g"]), plc.types.NullEquality.EQUAL))
case("cross_join", "join.cross_join")(
    lambda plc, d: plc.join.cross_join(T(plc, d["i"], d["s"]), T(plc, _RIGHT["r"])))

# strings
case("strings_attributes_case", ("strings.attributes.count_characters", "strings.case.to_lower",
                                  "strings.case.to_upper"))(
    lambda plc, d: (plc.strings.attributes.count_characters(C(plc, d["s"])),
                    plc.strings.case.to_lower(C(plc, d["s"])), plc.strings.case.to_upper(C(plc, d["s"]))))
case("strings_strip", ("strings.strip.strip", "strings.side_type.SideType"))(
    lambda plc, d: [plc.strings.strip.strip(C(plc, d["s"]), getattr(plc.strings.side_type.SideType, side), chars)
                    for side in ("LEFT", "RIGHT", "BOTH") for chars in (None, S(plc, "ae ", pa.string()))])
case("strings_slice", "strings.slice.slice_strings")(
    lambda plc, d: [plc.strings.slice.slice_strings(C(plc, d["s"]), a, b) for a, b in
                    ((S(plc, 1, pa.int32()), S(plc, 3, pa.int32())), (S(plc, 0, pa.int32()), S(plc, -1, pa.int32())),
                     (S(plc, None, pa.int32()), S(plc, 2, pa.int32())), (S(plc, -3, pa.int32()), S(plc, None, pa.int32())),
                     (S(plc, -4, pa.int32()), S(plc, -1, pa.int32())), (S(plc, 2, pa.int32()), S(plc, 1, pa.int32())))])
case("strings_replace", "strings.replace.replace")(
    lambda plc, d: [plc.strings.replace.replace(C(plc, d["s"]), S(plc, "p", pa.string()), S(plc, r, pa.string()), k)
                    for r in ("P", "") for k in (-1, 1)])
case("strings_contains_re", ("strings.contains.contains_re", "strings.regex_program.RegexProgram",
                             "RegexProgram.create", "strings.regex_flags.RegexFlags"))(
    lambda plc, d: [plc.strings.contains.contains_re(C(plc, d["s"]), plc.strings.regex_program.RegexProgram.create(
        pat, getattr(plc.strings.regex_flags.RegexFlags, fl))) for pat in ("^a", "an+", "e$", "[0-9]")
        for fl in ("DEFAULT", "IGNORECASE")])
case("strings_find", ("strings.find.contains", "strings.find.starts_with", "strings.find.ends_with"))(
    lambda plc, d: [getattr(plc.strings.find, fn)(C(plc, d["s"]), S(plc, t, pa.string()))
                    for fn in ("contains", "starts_with", "ends_with") for t in ("ap", "e", "")])
case("strings_concatenate", "strings.combine.concatenate")(
    lambda plc, d: plc.strings.combine.concatenate(T(plc, d["s"], d["s"]), S(plc, "-", pa.string()),
                                                   narep=S(plc, None, pa.string())))
case("strings_from_integers", "strings.convert.convert_integers.from_integers")(
    lambda plc, d: (plc.strings.convert.convert_integers.from_integers(C(plc, d["i"])),
                    plc.strings.convert.convert_integers.from_integers(C(plc, d["i32"]))))

# datetimes
case("datetime_components", ("datetime.extract_datetime_component", "datetime.DatetimeComponent"))(
    lambda plc, d: [plc.datetime.extract_datetime_component(C(plc, d["t"]), comp)
                    for comp in plc.datetime.DatetimeComponent.__members__.values()
                    if comp.name in FAKE.datetime.DatetimeComponent.__members__])
case("datetime_quarter_day_of_year", ("datetime.extract_quarter", "datetime.day_of_year"))(
    lambda plc, d: (plc.datetime.extract_quarter(C(plc, d["t"])), plc.datetime.day_of_year(C(plc, d["t"]))))


# dates (date32 <-> TIMESTAMP_DAYS): what the engine does with a date32[pyarrow] column
D0 = dt.date(1995, 3, 1)
case("date32_scalar_roundtrip", ("Scalar.from_arrow", "Scalar.type", "Column.from_scalar"))(
    lambda plc, d: [(s.type().id().name, plc.Column.from_scalar(s, n_of(d)))
                    for s in (S(plc, D0, pa.date32()), S(plc, None, pa.date32()))])
case("date32_compare", "binaryop.binary_operation")(
    lambda plc, d: [plc.binaryop.binary_operation(C(plc, d["dd"]), rhs, getattr(plc.binaryop.BinaryOperator, op),
                                                  plc.DataType.from_arrow(pa.bool_()))
                    for op in ("EQUAL", "NOT_EQUAL", "LESS", "GREATER_EQUAL")
                    for rhs in (S(plc, D0, pa.date32()), C(plc, d["dd"].fill_null(D0)))])
case("date32_components", ("datetime.extract_datetime_component", "datetime.extract_quarter",
                           "datetime.day_of_year"))(
    lambda plc, d: [plc.datetime.extract_datetime_component(C(plc, d["dd"]), getattr(plc.datetime.DatetimeComponent, c))
                    for c in ("YEAR", "MONTH", "DAY", "WEEKDAY")]
    + [plc.datetime.extract_quarter(C(plc, d["dd"])), plc.datetime.day_of_year(C(plc, d["dd"]))])
case("date32_cast_to_int32", "unary.cast")(
    lambda plc, d: plc.unary.cast(plc.datetime.extract_datetime_component(
        C(plc, d["dd"]), plc.datetime.DatetimeComponent.YEAR), plc.DataType.from_arrow(pa.int32())))
case("date32_arithmetic_via_timestamps", ("unary.cast", "binaryop.binary_operation"))(
    # issue 11: a date as the timestamp of the result's unit, then ts +- duration and ts - ts of one unit
    lambda plc, d: (lambda us, s: [
        plc.binaryop.binary_operation(us, S(plc, dt.timedelta(days=3, hours=1), pa.duration("us")),
                                      plc.binaryop.BinaryOperator.ADD, plc.DataType.from_arrow(pa.timestamp("us"))),
        plc.binaryop.binary_operation(us, S(plc, dt.timedelta(days=3), pa.duration("us")),
                                      plc.binaryop.BinaryOperator.SUB, plc.DataType.from_arrow(pa.timestamp("us"))),
        plc.binaryop.binary_operation(s, plc.unary.cast(C(plc, d["dd"].fill_null(D0)),
                                                        plc.DataType.from_arrow(pa.timestamp("s"))),
                                      plc.binaryop.BinaryOperator.SUB, plc.DataType.from_arrow(pa.duration("s"))),
        plc.binaryop.binary_operation(S(plc, dt.datetime(1995, 1, 1), pa.timestamp("us")), us,
                                      plc.binaryop.BinaryOperator.SUB, plc.DataType.from_arrow(pa.duration("us")))])(
        plc.unary.cast(C(plc, d["dd"]), plc.DataType.from_arrow(pa.timestamp("us"))),
        plc.unary.cast(C(plc, d["dd"]), plc.DataType.from_arrow(pa.timestamp("s")))))
case("date32_min_max", ("reduce.reduce", "aggregation.min", "aggregation.max"))(
    lambda plc, d: [plc.reduce.reduce(C(plc, d["dd"]), getattr(plc.aggregation, a)(), plc.DataType.from_arrow(pa.date32()))
                    for a in ("min", "max")])
case("date32_group_key_and_value", ("groupby.GroupBy", "GroupBy.aggregate"), order="rows")(
    lambda plc, d: plc.groupby.GroupBy(T(plc, d["dd"]), null_handling=plc.types.NullPolicy.INCLUDE).aggregate(
        [plc.groupby.GroupByRequest(C(plc, d["i"]), [plc.aggregation.sum()]),
         plc.groupby.GroupByRequest(C(plc, d["dd"]), [plc.aggregation.min(), plc.aggregation.max(),
                                                      plc.aggregation.nunique(plc.types.NullPolicy.EXCLUDE)])]))
case("date32_sort", "sorting.stable_sorted_order")(
    lambda plc, d: [plc.sorting.stable_sorted_order(T(plc, d["dd"], d["i"]), *_orders(plc, spec))
                    for spec in ("a>a>", "d<a>")])
case("date32_join", "join.inner_join", order="pairs")(
    lambda plc, d: plc.join.inner_join(T(plc, d["dd"]), T(plc, pa.array([D0, None, dt.date(1969, 12, 31)], pa.date32())),
                                       plc.types.NullEquality.EQUAL))
case("date32_contains", "search.contains")(
    lambda plc, d: plc.search.contains(C(plc, pa.array([D0, dt.date(1998, 12, 31)], pa.date32())), C(plc, d["dd"])))
case("date32_distinct", "stream_compaction.stable_distinct")(
    lambda plc, d: plc.stream_compaction.stable_distinct(
        T(plc, d["dd"], d["i"]), [0], plc.stream_compaction.DuplicateKeepOption.KEEP_FIRST,
        plc.types.NullEquality.EQUAL, plc.types.NanEquality.ALL_EQUAL))


# decimals: DECIMAL128 of the Arrow scale (negated), no precision on the device
def _dec(d: dict[str, pa.Array]) -> pa.Array:
    import decimal

    vals = [decimal.Decimal("12.34"), None, decimal.Decimal("-0.05"), decimal.Decimal("99999999.99"),
            decimal.Decimal("12.34"), decimal.Decimal("0.00")][:n_of(d)]
    return pa.array(vals, pa.decimal128(12, 2))


case("decimal_roundtrip", ("Column.from_arrow", "Column.to_arrow", "Column.type", "DataType.id", "DataType.scale"))(
    lambda plc, d: (C(plc, _dec(d)).to_arrow(), C(plc, _dec(d)).type().id().name, C(plc, _dec(d)).type().scale(),
                    plc.DataType(plc.TypeId.DECIMAL128, -2) == C(plc, _dec(d)).type()))
case("decimal_scalar", ("Scalar.from_arrow", "Scalar.type", "Column.from_scalar"))(
    lambda plc, d: [(s.type().id().name, s.type().scale(), plc.Column.from_scalar(s, n_of(d))) for s in
                    (plc.Scalar.from_arrow(pa.scalar(1234, pa.int64()).cast(pa.decimal128(38, 2))),
                     plc.Scalar.from_arrow(pa.scalar(None, pa.decimal128(38, 2))))])
case("decimal_compare", "binaryop.binary_operation")(
    lambda plc, d: [plc.binaryop.binary_operation(
        C(plc, _dec(d)), rhs, getattr(plc.binaryop.BinaryOperator, op), plc.DataType.from_arrow(pa.bool_()))
        for op in ("EQUAL", "LESS", "GREATER_EQUAL", "NULL_EQUALS")
        for rhs in (plc.Scalar.from_arrow(pa.scalar(1234, pa.int64()).cast(pa.decimal128(38, 2))), C(plc, _dec(d)))])
case("decimal_casts", "unary.cast")(
    lambda plc, d: (plc.unary.cast(C(plc, _dec(d)), plc.DataType(plc.TypeId.FLOAT64)),
                    plc.unary.cast(C(plc, _dec(d).cast(pa.decimal64(18, 2))), plc.DataType(plc.TypeId.DECIMAL128, -2))))
case("decimal_group_sum_min_max", ("groupby.GroupBy", "GroupBy.aggregate"), order="rows")(
    lambda plc, d: plc.groupby.GroupBy(T(plc, d["k"]), null_handling=plc.types.NullPolicy.INCLUDE).aggregate(
        [plc.groupby.GroupByRequest(C(plc, _dec(d)), [plc.aggregation.sum(), plc.aggregation.min(), plc.aggregation.max(),
                                                      plc.aggregation.count(plc.types.NullPolicy.EXCLUDE)])]))
case("decimal_reduce_sum", "reduce.reduce")(
    lambda plc, d: plc.reduce.reduce(C(plc, _dec(d)), plc.aggregation.sum(), plc.DataType(plc.TypeId.DECIMAL128, -2)))
case("decimal_sort_key", "sorting.stable_sorted_order")(
    lambda plc, d: plc.sorting.stable_sorted_order(T(plc, _dec(d), d["i"]), *_orders(plc, "d>a>")))
# decimal arithmetic (issue 10): libcudf's fixed-point scales (ADD/SUB the finer, MUL the sum, DIV lhs'
# minus rhs', truncated), the engine's rescaling casts (upward, and ints to scale 0), and neg/abs as
# 0 - x with copy_if_else
def _dec_by(d: dict[str, pa.Array]) -> pa.Array:
    import decimal

    vals = [decimal.Decimal("3.0000"), decimal.Decimal("-7.0000"), None, decimal.Decimal("0.0001"),
            decimal.Decimal("1.5000"), decimal.Decimal("9.9999")][:n_of(d)]
    return pa.array(vals, pa.decimal128(15, 4))


case("decimal_add_sub_mul", "binaryop.binary_operation")(
    lambda plc, d: [plc.binaryop.binary_operation(C(plc, _dec(d)), rhs, getattr(plc.binaryop.BinaryOperator, op),
                                                  plc.DataType(plc.TypeId.DECIMAL128, scale))
                    for rhs, rs in ((C(plc, _dec_by(d)), -4), (S(plc, 7, pa.decimal128(38, 0)), 0))
                    for op, scale in (("ADD", min(-2, rs)), ("SUB", min(-2, rs)), ("MUL", -2 + rs))]
    + [plc.binaryop.binary_operation(S(plc, 1, pa.decimal128(38, 0)), C(plc, _dec(d)),
                                     plc.binaryop.BinaryOperator.SUB, plc.DataType(plc.TypeId.DECIMAL128, -2))])
case("decimal_div_rescaled", ("binaryop.binary_operation", "unary.cast"))(
    lambda plc, d: [plc.binaryop.binary_operation(
        plc.unary.cast(C(plc, _dec(d)), plc.DataType(plc.TypeId.DECIMAL128, -18)), rhs,
        plc.binaryop.BinaryOperator.DIV, plc.DataType(plc.TypeId.DECIMAL128, scale))
        for rhs, scale in ((C(plc, _dec_by(d)), -14), (S(plc, 2, pa.decimal128(38, 0)), -18))])
case("decimal_rescale_and_int_casts", "unary.cast")(
    lambda plc, d: (plc.unary.cast(C(plc, _dec(d)), plc.DataType(plc.TypeId.DECIMAL128, -6)),
                    plc.unary.cast(C(plc, _dec(d)), plc.DataType(plc.TypeId.DECIMAL128, -2)),
                    plc.unary.cast(C(plc, d["i"]), plc.DataType(plc.TypeId.DECIMAL128, 0)),
                    plc.unary.cast(C(plc, d["i"]), plc.DataType(plc.TypeId.DECIMAL128, -4))))
case("decimal_neg_abs", ("binaryop.binary_operation", "copying.copy_if_else"))(
    lambda plc, d: (lambda x, neg: (neg, plc.copying.copy_if_else(neg, x, plc.binaryop.binary_operation(
        x, S(plc, 0, pa.decimal128(38, 2)), plc.binaryop.BinaryOperator.LESS, plc.DataType.from_arrow(pa.bool_())))))(
        C(plc, _dec(d).cast(pa.decimal128(38, 2))),
        plc.binaryop.binary_operation(S(plc, 0, pa.decimal128(38, 2)), C(plc, _dec(d).cast(pa.decimal128(38, 2))),
                                      plc.binaryop.BinaryOperator.SUB, plc.DataType(plc.TypeId.DECIMAL128, -2))))


# IO (files written by pyarrow in a temporary folder: the ``files`` fixture, passed as ``tmp``)
def _parquet(plc: Any, d: dict[str, pa.Array], path: str) -> Any:
    E = plc.expressions
    out = []
    for filt, nrows, groups in ((None, None, None), ("k>=2", None, None), (None, 2, None), (None, None, [[1]])):
        opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([path])).column_names(["k", "s"]) \
            .use_pandas_metadata(False).build()
        expr = None
        if filt:
            expr = E.Operation(E.ASTOperator.LOGICAL_AND,
                               E.Operation(E.ASTOperator.GREATER_EQUAL, E.ColumnNameReference("k"),
                                           E.Literal(S(plc, 2, pa.int64()))),
                               E.Operation(E.ASTOperator.LESS, E.ColumnNameReference("k"),
                                           E.Literal(S(plc, 9, pa.int64()))))
            opts.set_filter(expr)
        if nrows is not None:
            opts.set_num_rows(nrows)
        if groups is not None:
            opts.set_row_groups(groups)
        res = plc.io.parquet.read_parquet(opts)
        out.append((res.column_names(), res.tbl.to_arrow(metadata=res.column_names())))
    return out


case("read_parquet", ("io.SourceInfo", "io.parquet.ParquetReaderOptions.builder", "io.parquet.read_parquet",
                      "expressions.Operation", "expressions.Literal", "expressions.ColumnNameReference",
                      "expressions.ASTOperator"), datasets=("rows",))(
    lambda plc, d, tmp: _parquet(plc, d, tmp["parquet"]))


def _parquet_dates(plc: Any, path: str) -> Any:
    """A date column read by libcudf: TIMESTAMP_DAYS, date32 in Arrow; a zoned timestamp column: its
    UTC instants, without the zone; decimals of precision 12 and 30: the type ids libcudf picks
    (all row groups, and one)."""
    out = []
    for groups in (None, [[1]]):
        opts = plc.io.parquet.ParquetReaderOptions.builder(plc.io.SourceInfo([path])).column_names(["dd", "k", "tz", "dec", "wide"]) \
            .use_pandas_metadata(False).build()
        if groups is not None:
            opts.set_row_groups(groups)
        res = plc.io.parquet.read_parquet(opts)
        out.append((res.column_names(), [c.type().id().name for c in res.tbl.columns()],
                    res.tbl.to_arrow(metadata=res.column_names())))
    return out


case("read_parquet_dates", ("io.parquet.read_parquet", "Column.type"), datasets=("rows",))(
    lambda plc, d, tmp: _parquet_dates(plc, tmp["parquet"]))


def _csv(plc: Any, path: str) -> Any:
    opts = plc.io.csv.CsvReaderOptions.builder(plc.io.SourceInfo([path])).delimiter(",").nrows(4).build()
    opts.set_use_cols_names(["a", "b", "c", "d"])
    opts.set_dtypes({"c": plc.DataType.from_arrow(pa.float64())})
    opts.set_true_values(["yes"])
    opts.set_false_values(["no"])
    res = plc.io.csv.read_csv(opts)
    return res.column_names(), res.tbl.to_arrow(metadata=res.column_names())


case("read_csv", ("io.csv.CsvReaderOptions.builder", "io.csv.read_csv"), datasets=("rows",))(
    lambda plc, d, tmp: _csv(plc, tmp["csv"]))
case("prefetch_enable", "prefetch.enable", datasets=("rows",))(lambda plc, d: plc.prefetch.enable())


# ------------------------------------------------------------------------------------------ comparing

def _norm_type(t: pa.DataType) -> str:
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    return str(t)


def _value(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    return v


def to_plain(obj: Any, plc: Any) -> Any:
    """A result as plain Python (types as normalized strings, NaN as "NaN"), comparable across libraries."""
    if isinstance(obj, plc.Column):
        arr = obj.to_arrow()
        if pa.types.is_struct(arr.type):
            return ("column", "struct", [_value(v) for v in arr.to_pylist()])
        return ("column", _norm_type(arr.type), [_value(v) for v in arr.to_pylist()])
    if isinstance(obj, plc.Table):
        return ("table", obj.num_rows(), [to_plain(c, plc) for c in obj.columns()])
    if isinstance(obj, plc.Scalar):  # compared through Arrow: a one-row column
        return ("scalar", obj.is_valid(), to_plain(plc.Column.from_scalar(obj, 1), plc))
    if isinstance(obj, pa.Table):
        return ("arrow", [(n, _norm_type(c.type), [_value(v) for v in c.to_pylist()])
                          for n, c in zip(obj.column_names, obj.columns)])
    if isinstance(obj, pa.Array):
        return ("column", _norm_type(obj.type), [_value(v) for v in obj.to_pylist()])
    if isinstance(obj, (list, tuple)):
        return [to_plain(x, plc) for x in obj]
    if isinstance(obj, float):
        return _value(obj)
    if obj is None or isinstance(obj, (int, str, bool, dt.date, dt.datetime, dt.timedelta)):
        return obj
    if isinstance(obj, pa.DataType):
        return ("type", _norm_type(obj))
    if isinstance(obj, enum.Enum):
        return obj.name
    raise TypeError(f"cannot compare a {type(obj).__name__}")


def _sort_key(v: Any) -> tuple:
    return (v is None, str(type(v)), v if isinstance(v, (int, float, str, bool, dt.date, dt.timedelta)) else str(v))


def _rows(plain: Any) -> Any:
    """``order="rows"``: a Table, a Column or (keys Table, [Tables]) as a sorted multiset of rows."""
    if isinstance(plain, list) and len(plain) == 2 and plain[0][0] == "table" and isinstance(plain[1], list):
        cols = plain[0][2] + [c for t in plain[1] for c in t[2]]
    elif plain[0] == "table":
        cols = plain[2]
    elif plain[0] == "column":
        cols = [plain]
    else:
        raise TypeError(f"order='rows' needs a table or column result, got {plain!r}")
    types_ = [c[1] for c in cols]
    rows = sorted(zip(*[c[2] for c in cols]), key=lambda r: tuple(_sort_key(v) for v in r))
    return types_, rows


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


def comparable(result: Any, plc: Any, order: str) -> Any:
    plain = to_plain(result, plc)
    if order == "rows":
        return _rows(plain)
    if order == "pairs":
        left, right = plain
        return sorted(zip(left[2], right[2])), (left[1], right[1])
    return plain


def run_case(c: Case, plc: Any, data: str, tmp: dict[str, str]) -> Any:
    d = DATASETS[data]
    if "tmp" in inspect.signature(c.run).parameters:
        return c.run(plc, d, tmp)
    return c.run(plc, d)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("fidelity")
    t = pa.table({"k": _ROWS["k"], "s": _ROWS["s"], "f": _ROWS["f"], "dd": _ROWS["dd"],
                  "tz": _ROWS["t"].cast(pa.timestamp("ns", tz="America/New_York")),
                  "dec": _dec(_ROWS), "wide": _dec(_ROWS).cast(pa.decimal128(30, 2))})
    pq.write_table(t, root / "t.parquet", row_group_size=2)
    (root / "t.csv").write_text("a,b,c,d\n1,x,1.5,yes\n2,,2,no\n,y,,yes\n4,z w,3.25,\n5,q,7,no\n")
    return {"parquet": str(root / "t.parquet"), "csv": str(root / "t.csv")}


PARAMS = [pytest.param(c, ds, id=f"{c.name}[{ds}]") for c in CASES for ds in c.datasets]


@needs_real
@pytest.mark.parametrize(("c", "data"), PARAMS)
def test_fake_matches_pylibcudf(c: Case, data: str, files: dict[str, str]) -> None:
    try:
        want = run_case(c, REAL, data, files)
        real_error = None
    except Exception as exc:  # noqa: BLE001 - compared with the fake's behaviour below
        real_error = exc
    try:
        got = run_case(c, FAKE, data, files)
        fake_error = None
    except Exception as exc:  # noqa: BLE001
        fake_error = exc
    if c.raises:
        assert real_error is not None and fake_error is not None, (
            f"{c.name}[{data}]: both should raise; real raised {real_error!r}, fake raised {fake_error!r}")
        assert not isinstance(fake_error, NotImplementedError), f"{c.name}[{data}]: fake does not model it: {fake_error}"
        return
    assert real_error is None, f"{c.name}[{data}]: real pylibcudf raised {real_error!r} (fake raised {fake_error!r})"
    assert fake_error is None, f"{c.name}[{data}]: the fake raised {fake_error!r}; real pylibcudf did not"
    w, g = comparable(want, REAL, c.order), comparable(got, FAKE, c.order)
    assert _close(g, w), f"{c.name}[{data}] (order={c.order}) differs:\n  real: {w!r}\n  fake: {g!r}"


@needs_real
def test_enums_match_pylibcudf() -> None:
    """Every enum member the fake defines exists in real pylibcudf (TypeId with the same value)."""
    missing = []
    for path, cls in _fake_enums():
        real = REAL
        for part in path.split("."):
            real = getattr(real, part, None)
        if real is None:
            missing.append(path)
            continue
        for name, member in cls.__members__.items():
            other = getattr(real, name, None)
            if other is None or path.endswith("TypeId") and int(other) != int(member):
                missing.append(f"{path}.{name}")
    assert not missing, f"not in real pylibcudf (or another value): {missing}"


# ------------------------------------------------------------------------------------------ coverage (everywhere)

def _walk(obj: Any, prefix: str, seen: set[int]) -> list[tuple[str, Any]]:
    out = []
    for name in sorted(vars(obj)):
        if name.startswith("_"):
            continue
        val = getattr(obj, name)
        path = f"{prefix}{name}"
        if id(val) in seen and isinstance(val, types.SimpleNamespace):
            continue
        if isinstance(val, types.SimpleNamespace):
            seen.add(id(val))
            out += _walk(val, path + ".", seen)
        elif isinstance(val, type) and issubclass(val, enum.Enum):
            out.append((path, val))
        elif callable(val):
            out.append((path, val))
    return out


def _fake_enums() -> list[tuple[str, type]]:
    return [(p, v) for p, v in _walk(FAKE, "", set()) if isinstance(v, type) and issubclass(v, enum.Enum)]


def fake_callables() -> set[str]:
    """The fake's public functions and classes, by path, plus the public methods of its classes."""
    names = set()
    for path, val in _walk(FAKE, "", set()):
        if isinstance(val, type) and issubclass(val, enum.Enum):
            continue
        names.add(path)
        if isinstance(val, type):
            for m, attr in vars(val).items():
                if not m.startswith("_") and (callable(attr) or isinstance(attr, staticmethod)):
                    names.add(f"{val.__name__}.{m}")
    return names


# callables no case calls, each with its reason (keep this short)
NOT_CALLED = {
    "Scalar": "pylibcudf builds scalars through Scalar.from_arrow (covered); the class is used as a type only",
}


def test_every_fake_callable_is_covered() -> None:
    covered = {name for c in CASES for name in c.covers} | set(NOT_CALLED)
    # short paths ("Column.size") and long ones ("strings.regex_program.RegexProgram") both name callables
    uncovered = sorted(n for n in fake_callables() if n not in covered)
    assert not uncovered, f"fake pylibcudf callables no fidelity case calls: {uncovered}"
    unknown = sorted(n for n in covered if n not in fake_callables() and not _is_enum_path(n))
    assert not unknown, f"fidelity cases name callables the fake does not have: {unknown}"


def _is_enum_path(path: str) -> bool:
    return any(p == path or p.endswith("." + path) for p, _ in _fake_enums())


@pytest.mark.parametrize(("c", "data"), PARAMS)
def test_cases_only_use_modelled_arguments(c: Case, data: str, files: dict[str, str]) -> None:
    """Each case runs on the fake alone: a case the fake cannot model would make the GPU run meaningless.

    It runs twice and the two results are compared the way the GPU test compares the fake with the
    real library: the fake shuffles hash outputs differently each time, so this checks that every
    case's ``order`` normalizes what libcudf leaves unordered, and that results are comparable."""
    if c.raises:
        with pytest.raises(Exception) as info:  # noqa: PT011 - the type is what real pylibcudf raises
            run_case(c, FAKE, data, files)
        assert not isinstance(info.value, NotImplementedError), f"the fake does not model {c.name}: {info.value}"
    else:
        first = comparable(run_case(c, FAKE, data, files), FAKE, c.order)
        second = comparable(run_case(c, FAKE, data, files), FAKE, c.order)
        assert _close(first, second), f"{c.name}[{data}]: two runs of the fake differ after order={c.order!r}"
