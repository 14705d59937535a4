"""Optimizer passes, one at a time, on plans built by hand: the structure each pass produces."""
from __future__ import annotations

import os
import sys

import pandas
import pyarrow as pa
import pytest

from gframe.interop import scan_pandas
from gframe.optimizer import PASS_NAMES, optimize
from gframe.optimizer.cse import common_subplans
from gframe.optimizer.groupby import groupby_rewrites
from gframe.optimizer.limits import limit_pushdown
from gframe.optimizer.predicates import predicate_pushdown
from gframe.optimizer.projection import projection_pushdown
from gframe.optimizer.simplify import simplify
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Col, Lit, func
from gframe.plan.schema import Schema, index_name

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

I64, F64, STR = pa.int64(), pa.float64(), pa.large_string()


def parquet(*cols: str, types=None, path="/data/t.parquet") -> L.ParquetScan:
    types = types or {}
    schema = Schema.make([(c, types.get(c, F64)) for c in cols])
    return L.ParquetScan(path, schema, tuple((c, c) for c in cols))


def mem(**cols) -> L.Plan:
    return scan_pandas(pandas.DataFrame(cols), "test")


def gt(name: str, value) -> BinOp:
    return BinOp("gt", Col(name), Lit(value))


def select(child: L.Plan, *names: str) -> L.Select:
    return L.Select(tuple((n, Col(n)) for n in names), child)


def shape(plan: L.Plan) -> list[str]:
    """Node types from the root down the first child."""
    out = []
    node: L.Plan | None = plan
    while node is not None:
        out.append(type(node).__name__)
        node = node.children[0] if node.children else None  # type: ignore[assignment]
    return out


def find(plan: L.Plan, kind: type) -> list[L.Plan]:
    return [n for n in plan.walk() if isinstance(n, kind)]


# ------------------------------------------------------------------------------ projection pushdown

def test_projection_reads_only_used_columns_from_parquet():
    plan = select(parquet("a", "b", "c", "d"), "b", "a")
    out = projection_pushdown(plan)
    (scan,) = find(out, L.ParquetScan)
    assert scan.columns == ("a", "b")
    assert out.schema == plan.schema


def test_projection_through_filter_and_sort_keeps_filter_and_sort_columns():
    plan = select(L.Sort(("c",), (False,), True, L.Filter(gt("d", 0), parquet("a", "b", "c", "d"))), "a")
    (scan,) = find(projection_pushdown(plan), L.ParquetScan)
    assert scan.columns == ("a", "c", "d")


def test_projection_drops_columns_after_a_join():
    left = mem(k=[1, 2], x=[1.0, 2.0], unused_l=[0, 0])
    right = mem(k=[1, 2], y=[3.0, 4.0], unused_r=["a", "b"])
    join = L.Join("inner", ("k",), ("k",), (("k", "key", "k"), ("x", "left", "x"), ("unused_l", "left", "unused_l"),
                                             ("y", "right", "y"), ("unused_r", "right", "unused_r")), "none", False, left, right)
    plan = select(join, "x", "y")
    out = projection_pushdown(plan)
    (j,) = find(out, L.Join)
    assert [o[0] for o in j.outputs] == ["x", "y"]
    # each side carries only its key and the column used above
    assert set(j.left.schema.names) == {"k", "x"}
    assert set(j.right.schema.names) == {"k", "y"}
    assert out.schema == plan.schema


def test_projection_removes_unused_positions():
    scan = parquet("k", "v", "w")
    agg = L.Aggregate(("k",), ("k",), (("v", Agg("sum", (), Col("v"))),), True, True, True,
                      L.Filter(gt("w", 0), L.RowIndex(scan)))
    out = projection_pushdown(agg)
    assert not find(out, L.RowIndex)
    # the root's own positions are kept
    root = L.Filter(gt("w", 0), L.RowIndex(scan))
    assert find(projection_pushdown(root), L.RowIndex)


def test_projection_keeps_one_column_for_the_row_count():
    scan = parquet("a", "b")
    count = L.Aggregate((), (), (("n", Agg("size", (), Lit(1))),), False, True, False, scan)
    (new,) = find(projection_pushdown(count), L.ParquetScan)
    assert new.columns == ("a",)


def test_projection_shared_scan_reads_the_union_once():
    scan = parquet("a", "b", "c")
    plan = L.HConcat("concat", select(scan, "a"), select(scan, "b"))
    out = projection_pushdown(plan)
    scans = find(out, L.ParquetScan)
    assert len(scans) == 1 and scans[0].columns == ("a", "b")


def test_projection_prunes_unused_aggregations():
    agg = L.Aggregate(("k",), ("k",), (("s", Agg("sum", (), Col("v"))), ("m", Agg("max", (), Col("w")))),
                      True, True, True, parquet("k", "v", "w"))
    out = projection_pushdown(select(agg, "s"))
    (a,) = find(out, L.Aggregate)
    assert [lab for lab, _ in a.aggs] == ["s"]
    assert find(out, L.ParquetScan)[0].columns == ("k", "v")


# ------------------------------------------------------------------------------ predicate pushdown

def test_filter_moves_below_projection_and_sort_into_the_scan():
    plan = L.Filter(gt("a", 1), select(L.Sort(("b",), (False,), True, parquet("a", "b")), "a", "b"))
    out = predicate_pushdown(plan)
    assert shape(out) == ["Select", "Sort", "ParquetScan"]
    assert find(out, L.ParquetScan)[0].predicate == gt("a", 1)


def test_filter_splits_conjunctions_and_keeps_what_cannot_move():
    scan = mem(a=[1, 2], b=[3.0, 4.0])
    assigned = L.Select((("a", Col("a")), ("b", Col("b")), ("c", BinOp("add", Col("a"), Col("b")))), scan)
    pred = BinOp("and", gt("a", 1), gt("c", 2.0))
    out = predicate_pushdown(L.Filter(pred, assigned))
    # the predicate on the assigned column stays above; the one on "a" goes below the assign
    assert isinstance(out, L.Filter) and out.predicate == gt("c", 2.0)
    assert shape(out) == ["Filter", "Select", "Filter", "InMemoryScan"]
    assert out.child.child.predicate == gt("a", 1)


@pytest.mark.parametrize("barrier", ["rowindex", "slice", "topk", "distinct_other", "window"])
def test_filter_does_not_cross_barriers(barrier):
    scan = mem(a=[1, 2, 3], b=[1, 1, 2])
    below = {
        "rowindex": lambda: L.RowIndex(scan),
        "slice": lambda: L.Slice(0, 2, scan),
        "topk": lambda: L.TopK(("a",), (False,), True, 2, False, scan),
        "distinct_other": lambda: L.Distinct(("b",), "first", scan),
        "window": lambda: L.Select((("a", func("shift", Col("a"), periods=1)), ("b", Col("b"))), scan),
    }[barrier]()
    plan = L.Filter(gt("a", 1), below)
    assert predicate_pushdown(plan) == plan


def test_filter_stays_above_a_column_whose_dtype_its_values_decide():
    scan = mem(a=[1, 2, 3], b=[1, 0, 2])
    assigned = L.Select((("a", Col("a")), ("q", BinOp("floordiv", Col("a"), Col("b")))), scan)
    assert assigned.schema.dtype_of("q") is None  # int // 0 makes it float: all rows decide
    plan = L.Filter(gt("a", 1), assigned)
    assert predicate_pushdown(plan) == plan
    assert limit_pushdown(L.Slice(0, 1, assigned)) == L.Slice(0, 1, assigned)


def test_window_predicate_is_not_pushed():
    scan = mem(a=[1, 2, 3], b=[1, 1, 2])
    plan = L.Filter(func("invert", func("duplicated", Col("b"))), L.Sort(("a",), (False,), True, scan))
    assert predicate_pushdown(plan) == plan


def test_filter_on_keys_goes_below_distinct_and_aggregate():
    scan = mem(k=[1, 2, 2], v=[1.0, 2.0, 3.0])
    dist = L.Filter(gt("k", 1), L.Distinct(("k",), "first", scan))
    assert shape(predicate_pushdown(dist)) == ["Distinct", "Filter", "InMemoryScan"]
    agg = L.Aggregate(("k",), ("k",), (("v", Agg("sum", (), Col("v"))),), True, True, True, scan)
    on_key = L.Filter(BinOp("gt", Col(index_name(0)), Lit(1)), agg)
    assert shape(predicate_pushdown(on_key)) == ["Aggregate", "Filter", "InMemoryScan"]
    on_value = L.Filter(gt("v", 1.0), agg)
    assert predicate_pushdown(on_value) == on_value


def _join(how: str, right_v=None) -> L.Join:
    left = mem(k=[1, 2], x=[1.0, 2.0])
    right = mem(k=[1, 3], y=right_v if right_v is not None else [3.0, 4.0])
    return L.Join(how, ("k",), ("k",), (("k", "key", "k"), ("x", "left", "x"), ("y", "right", "y")), "none", False,
                  left, right)


def test_filter_goes_into_the_join_side_that_owns_its_columns():
    out = predicate_pushdown(L.Filter(BinOp("and", gt("x", 1.0), gt("y", 3.5)), _join("inner")))
    assert isinstance(out, L.Join)
    assert isinstance(out.left, L.Filter) and out.left.predicate == gt("x", 1.0)
    assert isinstance(out.right, L.Filter) and out.right.predicate == gt("y", 3.5)


def test_filter_on_the_right_of_a_left_join_stays_above():
    plan = L.Filter(gt("y", 3.5), _join("left"))
    assert predicate_pushdown(plan) == plan
    out = predicate_pushdown(L.Filter(gt("x", 1.0), _join("left")))
    assert isinstance(out, L.Join) and isinstance(out.left, L.Filter)


def test_filter_left_join_with_int_right_column_is_not_pushed():
    # whether y becomes float64 depends on unmatched rows: the filter must not change them
    plan = L.Filter(gt("x", 1.0), _join("left", right_v=[3, 4]))
    assert predicate_pushdown(plan) == plan


def test_filter_not_pushed_into_shared_subplan():
    scan = mem(a=[1, 2, 3])
    shared = L.Sort(("a",), (False,), True, scan)
    plan = L.HConcat("concat", L.Filter(gt("a", 1), shared), shared)
    out = predicate_pushdown(plan)
    assert out.children[1] is out.children[0].child  # still one subplan


# ------------------------------------------------------------------------------ simplify

def test_filters_merge_and_true_disappears():
    scan = mem(a=[1, 2], b=[True, False])
    plan = L.Filter(Lit(True), L.Filter(gt("a", 1), L.Filter(Col("b"), scan)))
    out = simplify(plan)
    assert shape(out) == ["Filter", "InMemoryScan"]
    assert out.predicate == BinOp("and", Col("b"), gt("a", 1))


def test_constant_folding_and_noop_cast():
    scan = mem(a=[1, 2])
    e = BinOp("gt", func("cast", Col("a"), dtype=I64), BinOp("add", Lit(1), Lit(2)))
    out = simplify(L.Filter(e, scan))
    assert out.predicate == BinOp("gt", Col("a"), Lit(3, I64))
    # a float cast also turns NaN into missing: kept
    f = func("cast", Col("b"), dtype=F64)
    plan = L.Select((("b", f),), mem(b=[1.0]))
    assert simplify(plan) == plan


def test_identity_projection_and_noop_index_rename_removed():
    scan = mem(a=[1, 2], b=[3, 4])
    assert simplify(select(scan, "a", "b")) is scan
    ri = L.RowIndex(scan)
    assert simplify(L.RenameIndex((None,), ri)) is ri


def test_projections_merge():
    scan = mem(a=[1, 2], b=[3, 4])
    inner = L.Select((("a", Col("a")), ("c", BinOp("add", Col("a"), Col("b")))), scan)
    outer = L.Select((("c", Col("c")), ("d", BinOp("mul", Col("a"), Lit(2)))), inner)
    out = simplify(outer)
    assert shape(out) == ["Select", "InMemoryScan"]
    assert out.schema == outer.schema
    # a computed column used twice is not computed twice
    twice = L.Select((("e", BinOp("add", Col("c"), Col("c"))),), inner)
    assert shape(simplify(twice)) == ["Select", "Select", "InMemoryScan"]


def test_sort_before_order_insensitive_groupby_removed():
    scan = mem(k=[1, 2], v=[1.0, 2.0], i=[3, 4])
    sort = L.Sort(("v",), (True,), True, L.RowIndex(scan))
    agg = L.Aggregate(("k",), ("k",), (("i", Agg("sum", (), Col("i"))), ("m", Agg("max", (), Col("v")))), True, True,
                      True, L.Filter(gt("v", 0.0), sort))
    assert not find(simplify(agg), L.Sort)
    # a float sum adds in row order (its last bits depend on it, as pandas'): the sort stays
    fsum = L.Aggregate(("k",), ("k",), (("v", Agg("sum", (), Col("v"))),), True, True, True, sort)
    assert find(simplify(fsum), L.Sort)
    # first() sees the order; sort=False groups come in order of appearance
    first = L.Aggregate(("k",), ("k",), (("v", Agg("first", (), Col("v"))),), True, True, True, sort)
    assert find(simplify(first), L.Sort)
    unsorted = L.Aggregate(("k",), ("k",), (("v", Agg("sum", (), Col("v"))),), False, True, True, sort)
    assert find(simplify(unsorted), L.Sort)


# ------------------------------------------------------------------------------ limits

def test_sort_head_becomes_topk():
    scan = mem(a=[3, 1, 2])
    plan = L.Slice(0, 2, L.Sort(("a",), (True,), False, L.RowIndex(scan)))
    out = limit_pushdown(plan)
    assert isinstance(out, L.TopK) and (out.k, out.by, out.descending, out.nulls_last) == (2, ("a",), (True,), False)
    offset = limit_pushdown(L.Slice(1, 2, L.Sort(("a",), (False,), True, scan)))
    assert shape(offset) == ["Slice", "TopK", "InMemoryScan"] and offset.child.k == 3


def test_head_goes_below_projection_and_into_scan():
    plan = L.Slice(0, 5, select(parquet("a", "b"), "a"))
    out = limit_pushdown(plan)
    assert shape(out) == ["Select", "ParquetScan"]
    assert out.child.n_rows == 5


def test_head_of_head_and_head_through_rowindex():
    scan = mem(a=[1, 2, 3, 4])
    out = limit_pushdown(L.Slice(0, 2, L.Slice(1, 10, scan)))
    assert out == L.Slice(1, 2, scan)
    assert limit_pushdown(L.Slice(0, 2, L.RowIndex(scan))) == L.RowIndex(L.Slice(0, 2, scan))
    tail = L.Slice(-2, None, L.RowIndex(scan))
    assert limit_pushdown(tail) == tail


def test_head_of_topk_narrows_it():
    scan = mem(a=[1, 2, 3])
    out = limit_pushdown(L.Slice(0, 1, L.TopK(("a",), (False,), True, 3, False, scan)))
    assert out == L.TopK(("a",), (False,), True, 1, False, scan)


# ------------------------------------------------------------------------------ cse, groupby

def test_equal_subplans_become_one_cached_node():
    a = L.Filter(gt("a", 1.0), parquet("a", "b"))
    b = L.Filter(gt("a", 1.0), parquet("a", "b"))  # built separately, equal by structure
    plan = L.Union(False, L.RowIndex(a), L.RowIndex(b))
    out = common_subplans(plan)
    caches = find(out, L.Cache)
    assert len(caches) == 1
    assert out.children[0] is out.children[1]


def test_aggregations_on_same_keys_share_one_groupby():
    scan = mem(k=[1, 2, 1], a=[1.0, 2.0, 3.0], b=[4.0, 5.0, 6.0])

    def agg(label, fn, col):
        return L.Aggregate(("k",), ("k",), ((label, Agg(fn, (), Col(col))),), True, True, True, scan)

    plan = L.HConcat("concat", agg("a", "sum", "a"), L.Select((("__tmp", Col("b")),), agg("b", "mean", "b")))
    out = groupby_rewrites(plan)
    aggs = find(out, L.Aggregate)
    assert len(aggs) == 1 and len(aggs[0].aggs) == 2
    assert out.schema.all_names == plan.schema.all_names


def test_duplicate_aggregations_computed_once():
    scan = mem(k=[1, 2, 1], a=[1.0, 2.0, 3.0])
    s = Agg("sum", (), Col("a"))
    plan = L.Aggregate(("k",), ("k",), (("x", s), ("y", s)), True, True, True, scan)
    out = groupby_rewrites(plan)
    assert len(find(out, L.Aggregate)[0].aggs) == 1
    assert out.schema == plan.schema


# ------------------------------------------------------------------------------ the driver

def test_optimize_whole_pipeline_and_disabling_passes():
    scan = parquet("a", "b", "c", "id", types={"id": I64})
    plan = L.Aggregate((), (), (("s", Agg("sum", (), Col("b"))),), False, True, False,
                       L.Filter(BinOp("lt", Col("id"), Lit(10)), L.RowIndex(scan)))
    out = optimize(plan)
    assert shape(out) == ["Aggregate", "ParquetScan"]
    (s,) = find(out, L.ParquetScan)
    assert s.columns == ("b",) and s.predicate == BinOp("lt", Col("id"), Lit(10))
    assert not find(optimize(plan, disabled=["predicate_pushdown"]), L.ParquetScan)[0].predicate
    assert optimize(plan, disabled=PASS_NAMES) == plan
    with pytest.raises(ValueError, match="unknown optimizer pass"):
        optimize(plan, disabled=["nope"])


def _generated_plan(n_nodes: int) -> L.Plan:
    """A realistic plan of ``n_nodes`` nodes: assigns, filters, sorts, joins, group-bys, unions."""
    cols = [f"c{i}" for i in range(8)]
    plan: L.Plan = parquet(*cols, "k", types={"k": I64})
    count = 1
    i = 0
    while count < n_nodes:
        step = i % 6
        if step == 0:
            outs = tuple((c, Col(c)) for c in plan.schema.names) + ((f"x{i}", BinOp("add", Col("c0"), Lit(i))),)
            plan = L.Select(outs, plan)
        elif step == 1:
            plan = L.Filter(BinOp("gt", Col("c1"), Lit(float(i))), L.RowIndex(plan) if plan.schema.index is None else plan)
            count += 1
        elif step == 2:
            plan = L.Sort(("c2",), (False,), True, plan)
        elif step == 3:
            other = L.Filter(BinOp("lt", Col("k"), Lit(i)), parquet("k", "z", types={"k": I64}, path=f"/data/{i}.parquet"))
            outs = tuple((f.label, "left", f.name) for f in plan.schema.columns) + ((f"z{i}", "right", "z"),)
            plan = L.Join("inner", ("k",), ("k",), outs, "left" if plan.schema.index is not None else "none", False,
                          plan, other)
            count += 2
        elif step == 4:
            plan = select(plan, *cols, "k")
        else:
            union = i % 12 == 5 and plan.schema.index is not None
            plan = L.Union(False, plan, plan) if union else L.Slice(0, 1000, plan)
        count += 1
        i += 1
    return plan


def test_optimizer_work_grows_linearly_with_plan_size():
    """The optimizer's cost per node stays flat as plans grow (no pass re-walks the plan per node).

    Counted in Python calls, not seconds: a call count is the same on every machine and every run,
    where a timing assertion fails on a busy CI machine (speed is measured in benchmarks/optimizer_bench.py).
    """
    per_node = {}
    for size in (100, 400):
        plan = _generated_plan(size)
        n = sum(1 for _ in plan.walk())
        assert n >= 0.8 * size
        per_node[size] = _calls(lambda: optimize(plan)) / n
    assert per_node[400] < 1.25 * per_node[100], per_node
    assert per_node[400] < 2000, per_node  # about 770 today; a pass that re-hashes whole subtrees is far above


def _calls(fn) -> int:
    """How many Python function calls ``fn()`` makes."""
    count = 0

    def profile(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return count
