"""What the GPU engine lowers: one decision per plan node, made from the plan alone (types and
parameters), before anything runs. A node the GPU engine does not lower runs on the CPU engine
(``placement.py`` puts explicit transfer nodes around it). No GPU library is imported here.

Every function returns ``None`` when the GPU engine lowers the thing, else the reason it does not
(a short phrase that ends up in ``explain()`` and in the fallback report).

Types are the plan's Arrow types. A column typed ``None`` ("decided by the data": an int column
that may have gained missing values) is taken to be numeric here; the engine checks that against
the data before it runs the node (``runtime_reason``, the one check that reads data).

A function's check is part of its declaration (``functions.py``: the lowering and its check,
together, per family); nodes are checked by ``_NODES`` below, host-only ones listed with a reason.
"""
from __future__ import annotations

from typing import Any, Callable

import pyarrow as pa

# the function declarations, by family (each registers its lowering and its check in FUNCTIONS)
from gframe.engines.gpu import datetimes, rowwise, strings, window  # noqa: F401
from gframe.engines.gpu import ops
from gframe.engines.gpu.functions import FUNCTIONS, HOST_ONLY
from gframe.engines.gpu.kinds import INTLIKE, NUMERIC, kind, literal_ok, regex_ok, storable  # noqa: F401
from gframe.plan import logical as L
from gframe.plan.expr import ARITHMETIC, BIVARIATE, COMPARISON, LOGICAL, Agg, BinOp, Col, Expr, Func, Lit, columns_used
from gframe.plan.schema import STRING, Schema, is_string
from gframe.plan.dtypes import expr_type

Lookup = Callable[[str], "pa.DataType | None"]


def schema_reason(schema: Schema) -> str | None:
    for f in list(schema.columns) + list(schema.index or ()):
        if not storable(f.dtype):
            return f"column {f.label!r} of type {f.dtype} is not stored on the GPU"
    return None


# --------------------------------------------------------------------------------- expressions

def expr_reason(e: Expr, look: Lookup) -> str | None:
    """None when the GPU engine evaluates ``e`` over columns typed by ``look``."""
    if isinstance(e, Col):
        return None if storable(look(e.name)) else f"column {e.name!r} is not stored on the GPU"
    if isinstance(e, Lit):
        if e.dtype is not None and not storable(e.dtype):
            return f"literal of type {e.dtype}"
        return None if literal_ok(e.value) else f"literal {e.value!r}"
    if isinstance(e, Agg):
        return "an aggregation inside an element-wise expression"
    for c in e.children:
        r = expr_reason(c, look)  # type: ignore[arg-type]
        if r is not None:
            return r
    if isinstance(e, BinOp):
        return _binop_reason(e, look)
    if isinstance(e, Func):
        return _func_reason(e, look)
    return f"expression {type(e).__name__}"


def _binop_reason(e: BinOp, look: Lookup) -> str | None:
    lt, rt = expr_type(e.left, look), expr_type(e.right, look)
    if isinstance(e.left, Lit) and e.left.value is None or isinstance(e.right, Lit) and e.right.value is None:
        return f"{e.op} with a missing literal"
    lk, rk = kind(lt), kind(rt)
    op = e.op
    if op in ARITHMETIC:
        if lk in NUMERIC and rk in NUMERIC:
            if "num?" in (lk, rk):
                return None if op in ("add", "sub", "mul", "truediv") else f"{op} of a column typed by its data"
            if op in ("floordiv", "mod"):
                if "bool" in (lk, rk):  # numpy's bool % False is 0, an undefined integer modulo in libcudf
                    return f"{op} of a bool"
                if lk in INTLIKE and rk in INTLIKE and expr_type(e, look) is not None:
                    return None
                return f"{op} that is not an integer division by a nonzero literal"
            if op == "pow" and lk in INTLIKE and rk in INTLIKE:
                return "integer power"
            if "uint" in (lk, rk) and lk != rk:
                return "mixed signed/unsigned arithmetic"
            return None
        if op == "add" and lk == rk == "str":
            return None
        if lk in ("ts", "dur") and rk in ("ts", "dur") and lt.unit == rt.unit:  # type: ignore[union-attr]
            if (lk, rk, op) in (("ts", "ts", "sub"), ("ts", "dur", "add"), ("ts", "dur", "sub"),
                                ("dur", "ts", "add"), ("dur", "dur", "add"), ("dur", "dur", "sub")):
                return None
        return f"{op} of {lt} and {rt}"
    if op in COMPARISON:
        if lk in NUMERIC and rk in NUMERIC:
            if ("bool" in (lk, rk)) and lk != rk:
                return "comparison of bool with a number"
            if "uint" in (lk, rk) and lk != rk and (lt == pa.uint64() or rt == pa.uint64()):
                return "comparison of uint64 with a signed number"
            return None
        if lk == rk and lk in ("ts", "dur") and lt.unit != rt.unit:  # type: ignore[union-attr]
            # libcudf compares in the finer unit: a [s] value past the [ns] range (year 3000) overflows
            return f"comparison of {lt} and {rt} (units differ)"
        if lk == rk and lk in ("str", "ts", "dur", "date"):
            return None
        if "dec" in (lk, rk):
            return _decimal_comparison_reason(e, lt, rt)
        return f"comparison of {lt} and {rt}"
    assert op in LOGICAL
    if lk == rk == "bool" or lk in ("int", "uint") and rk in ("int", "uint") and lk == rk:
        return None
    return f"logical {op} of {lt} and {rt}"


def _decimal_comparison_reason(e: BinOp, lt: pa.DataType, rt: pa.DataType) -> str | None:
    """Decimals compare on the device with decimals of their scale, and with integer literals (made
    decimals of the column's scale); libcudf compares fixed-point with fixed-point only."""
    if kind(lt) == kind(rt) == "dec":
        return None if lt.scale == rt.scale else f"comparison of {lt} and {rt} (scales differ)"
    lit = e.right if kind(lt) == "dec" else e.left
    if isinstance(lit, Lit) and isinstance(lit.value, int) and not isinstance(lit.value, bool):
        dec = lt if kind(lt) == "dec" else rt
        if abs(lit.value) < 10 ** (38 - dec.scale):
            return None
    return f"comparison of {lt} and {rt}"


def _func_reason(e: Func, look: Lookup) -> str | None:
    """The reason of the function's own GPU declaration (``functions.py``), or: not declared."""
    decl = FUNCTIONS.get(e.fn)
    if decl is None:
        return f"function {e.fn!r} has no GPU lowering ({HOST_ONLY.get(e.fn, 'not declared')})"
    return decl.reason(e, [expr_type(c, look) for c in e.children], expr_type(e, look))


def agg_reason(a: Agg, look: Lookup) -> str | None:
    if a.fn not in ops.AGGREGATIONS:
        return f"aggregation {a.fn!r}"
    if a.fn == "size":
        return None
    for child in a.children:
        r = expr_reason(child, look)
        if r is not None:
            return r
    k = kind(expr_type(a.child, look))
    if a.fn in BIVARIATE:
        kinds = {kind(expr_type(c, look)) for c in a.children}
        return None if kinds <= NUMERIC - {"bool"} else f"{a.fn} of {kinds}"
    if a.fn in ("std", "var") and not (isinstance(a.param("ddof", 1), int) and a.param("ddof", 1) >= 0):
        return f"{a.fn} ddof={a.param('ddof')!r}"
    if k in NUMERIC:
        return None
    if k in ("str", "ts", "dur", "date", "dec") and a.fn in ops.ORDER_AGGS:
        return None
    if k == "dec" and a.fn == "sum":  # (DECIMAL128 sums of the input's scale: pandas' decimal128(38, s))
        return None
    return f"{a.fn} of {expr_type(a.child, look)}"


# ---------------------------------------------------------------------------------------- nodes

def node_reason(node: L.Plan) -> str | None:
    """None when the GPU engine lowers ``node`` itself (its children are decided separately)."""
    handler = _NODES.get(type(node))
    if handler is None:
        return f"{type(node).__name__} has no GPU lowering ({HOST_ONLY_NODES.get(type(node), 'not declared')})"
    for s in [node.schema] + [c.schema for c in node.children]:  # type: ignore[attr-defined]
        r = schema_reason(s)
        if r is not None:
            return r
    return handler(node)


def _ok(node: L.Plan) -> str | None:
    return None


def _in_memory(node: L.InMemoryScan) -> str | None:
    table = node.table.value
    if not isinstance(table, pa.Table) or table.num_columns == 0:
        return "an in-memory table without columns"
    for f in table.schema:
        t = f.type
        if pa.types.is_string(t) or pa.types.is_string_view(t):
            t = STRING
        if not storable(t):
            return f"column {f.name!r} of type {f.type} is not stored on the GPU"
    return None


# read_csv options the GPU reader takes (others, and parse_dates, parse on the CPU)
CSV_OPTIONS = frozenset({"sep", "delimiter", "usecols"})


def _csv(node: L.CsvScan) -> str | None:
    other = sorted(k for k, _ in node.options if not k.startswith("__gf_") and k not in CSV_OPTIONS)
    if other:
        return f"read_csv option(s) {other} (parsed on the CPU)"
    for f in node.schema.columns:
        if f.dtype is None or not (is_string(f.dtype) or pa.types.is_boolean(f.dtype)
                                   or pa.types.is_integer(f.dtype) or pa.types.is_floating(f.dtype)):
            return f"CSV column {f.label!r} of type {f.dtype} (parsed on the CPU)"
    return None


def _parquet(node: L.ParquetScan) -> str | None:
    if node.predicate is not None:
        return expr_reason(node.predicate, node.file_schema.dtype_of)
    return None


def _select(node: L.Select) -> str | None:
    look = node.child.schema.dtype_of
    for _, e in node.outputs:
        r = expr_reason(e, look)
        if r is not None:
            return r
    if not node.outputs and not node.schema.index_names:
        return "a selection of no columns"
    return None


def _filter(node: L.Filter) -> str | None:
    look = node.child.schema.dtype_of
    r = expr_reason(node.predicate, look)
    if r is None and kind(expr_type(node.predicate, look)) not in ("bool", "num?"):
        return "a filter whose predicate is not bool"
    return r


def _sort(node: L.Sort | L.TopK) -> str | None:
    for b in node.by:
        if kind(node.child.schema.dtype_of(b)) == "other":
            return f"sort by {b!r}"
    return None


def _aggregate(node: L.Aggregate) -> str | None:
    look = node.child.schema.dtype_of
    if not node.aggs and not node.keys:
        return "an aggregation of nothing"
    if not node.keys and any(a.fn in BIVARIATE for _, a in node.aggs):
        return "corr / cov of a whole column (libcudf reduces these only per group)"
    for _, a in node.aggs:
        r = agg_reason(a, look)
        if r is not None:
            return r
        if node.keys and a.fn in ("sum", "mean", "var") and expr_type(a.child, look) == pa.float32():
            # pandas' float32 group kernels (float32 Kahan / Welford, or reduceat on rows in group
            # order, mean float64 there): the CPU engine models them, libcudf accumulates otherwise
            return f"group {a.fn} of float32"
    return None


def _join(node: L.Join) -> str | None:
    if node.how not in ops.JOINS:
        return f"join how={node.how!r}"
    if node.index_from not in ("none", "left", "right", "both"):
        return f"join index_from={node.index_from!r}"
    lt, rt = node.left.schema, node.right.schema
    for a, b in zip(node.left_on, node.right_on):
        ka, kb = kind(lt.dtype_of(a)), kind(rt.dtype_of(b))
        if lt.dtype_of(a) != rt.dtype_of(b) and not (ka in NUMERIC and kb in NUMERIC and "bool" not in (ka, kb)):
            return f"join keys of types {lt.dtype_of(a)} and {rt.dtype_of(b)}"
    return None


def _union(node: L.Union) -> str | None:
    for f in node.schema.columns:
        present = [c.schema.field(f.label).dtype for c in node.children if c.schema.has(f.label)]
        if len(set(present)) > 1 and not all(kind(t) in ("int", "uint", "float") for t in present):
            return f"concat of column {f.label!r} with types {sorted(map(str, set(present)))}"
        if len(set(present)) > 1 and f.dtype is None:
            return f"concat of column {f.label!r} whose type is decided by the data"
    if not node.ignore_index:
        idx = [c.schema.index for c in node.children]
        if any(i is None for i in idx) or len({len(i) for i in idx}) != 1:  # type: ignore[arg-type]
            return "concat of indexes of different depths"
        for lvl in range(len(idx[0])):  # type: ignore[arg-type]
            ts = {i[lvl].dtype for i in idx}  # type: ignore[index]
            if len(ts) != 1:
                return "concat of indexes of different types"
    return None


def _materialized(node: L.Materialized) -> str | None:
    return None  # a device result, or a host one the kernel moves to the device


# A plan that is nothing but a small in-memory table (a literal frame, a UDF's result) is not sent
# to the device just to be copied back: its result stays on the host, and a later GPU plan that
# reads it moves it to the device then.
SMALL_HOST_ROWS = 1024


def stays_on_host(plan: L.Plan) -> bool:
    return isinstance(plan, L.InMemoryScan) and isinstance(plan.table.value, pa.Table) \
        and plan.table.value.num_rows <= SMALL_HOST_ROWS


def _take(node: L.Take) -> str | None:
    return "take by label" if node.by_label else None


def _hconcat(node: L.HConcat) -> str | None:
    names = [n for c in node.children for n in c.schema.names]
    if len(set(names)) != len(names):
        return "concat(axis=1) of frames sharing column names"
    idx = [c.schema.index for c in node.children]
    if idx[0] is not None:  # (without one, children are aligned by position, as the CPU engine does)
        if any(i is None for i in idx):
            return "concat(axis=1) of default and labelled indexes"
        if len({len(i) for i in idx}) != 1 or any(len({i[lvl].dtype for i in idx}) != 1 for lvl in range(len(idx[0]))):
            return "concat(axis=1) of indexes of different types"
    return None


def _group_window(node: L.GroupWindow) -> str | None:
    look = node.child.schema.dtype_of
    for _, a in node.outputs:
        if a.param("cumulative", False):
            if a.fn != "size":
                return f"cumulative {a.fn}"
            continue
        if a.fn in BIVARIATE:
            return f"{a.fn} broadcast to rows"
        r = agg_reason(a, look)
        if r is not None:
            return r
    return None


# Plan nodes that run on the CPU engine, and why (``tests/test_registry.py`` checks that every plan
# node is here or in _NODES, and that each node in _NODES has a GPU kernel).
HOST_ONLY_NODES: dict[type, str] = {
    L.CompleteGroups: "observed=False groups are completed on the host",
    L.MergeIndicator: "the indicator is a categorical column, built on the host",
}

_NODES: dict[type, Callable[[Any], str | None]] = {
    L.InMemoryScan: _in_memory, L.ParquetScan: _parquet, L.CsvScan: _csv, L.Select: _select, L.Filter: _filter,
    L.RowIndex: _ok, L.Sort: _sort, L.TopK: _sort, L.Slice: _ok, L.Distinct: _ok, L.Aggregate: _aggregate,
    L.GroupHead: _ok, L.Join: _join, L.Union: _union, L.SetIndex: _ok, L.ResetIndex: _ok,
    L.RenameIndex: _ok, L.Cache: _ok, L.Materialized: _materialized, L.Take: _take, L.HConcat: _hconcat,
    L.GroupWindow: _group_window,
}


# ----------------------------------------------------------------------- checks against the data

_NUMERIC_KINDS = ("int", "uint", "float", "bool")


def runtime_reason(node: L.Plan, inputs: list[Any]) -> str | None:
    """What the plan could not know: the data's own type of a column the plan types None (asked by
    the engine once the node's inputs are on the device; ``inputs`` are ``GpuTable``s)."""
    from gframe.engines.gpu.convert import col_type  # imports pylibcudf: only once on the device

    if isinstance(node, (L.Select, L.Filter, L.Aggregate)):
        schema = node.child.schema
        (t,) = inputs
        if isinstance(node, L.Select):
            exprs = [e for _, e in node.outputs if not isinstance(e, Col)]
        elif isinstance(node, L.Filter):
            exprs = [node.predicate]
        else:
            exprs = [a.child for _, a in node.aggs if a.fn != "size"]
        names = set().union(*(columns_used(e) for e in exprs)) if exprs else set()
        for n in names:
            if schema.dtype_of(n) is None and t.has(n) and kind(col_type(t.column(n))) not in _NUMERIC_KINDS:
                return f"column {n!r} holds {col_type(t.column(n))}, not numbers"
    elif isinstance(node, L.Join) and node.how != "cross":
        left, right = inputs
        for a, b in zip(node.left_on, node.right_on):
            ta, tb = col_type(left.column(a)), col_type(right.column(b))
            ka, kb = kind(ta), kind(tb)
            if ta != tb and not (ka in _NUMERIC_KINDS and kb in _NUMERIC_KINDS and "bool" not in (ka, kb)):
                return f"join keys of types {ta} and {tb}"
    elif isinstance(node, L.Union):
        for f in node.schema.columns:
            if f.dtype is None:
                types = {col_type(t.column(f.name)) for t in inputs if t.has(f.name)}
                if len(types) > 1 and not all(kind(x) in ("int", "uint", "float") for x in types):
                    return f"concat of column {f.label!r} with types {sorted(map(str, types))}"
    return None
