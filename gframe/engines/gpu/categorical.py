"""Categoricals on the device: a column's int32 codes, its categories a small host Arrow array.

pandas' ``category`` (the plan's ``pa.dictionary(int32, value, ordered)``) is stored on the device
as its codes - an INT32 column, null where the value is missing - and the categories (all of them,
used or not, in their order) stay on the host in ``GpuTable.categories``, by column name. libcudf's
DICTIONARY32 columns are not used: few libcudf operations take them, while plain INT32 codes go
through every row-moving operation unchanged.

So what moves rows moves codes (filter, gather, slice, sort, join payloads, concat of columns of
equal categories), sorting by codes is pandas' category order (ordered or not), and grouping by
codes is grouping by category (output keys are codes, ``sort=True`` is category order). What
compares values looks the value's code up on the host, in the categories: ``==``/``!=`` with a
scalar, ordering with a scalar on an ordered categorical, ``isin`` of a list, ``isna``/``notna``.
A cast to the categories' own type (``isin`` casts the categorical to its values first) gathers
the uploaded categories by the codes.

The categories are data, not plan: a node's result gets them from its inputs (``carry``, by where
each output column comes from: ``sources``), and ``download`` rebuilds pandas' exact dtype with
``DictionaryArray.from_arrays(codes, categories, ordered)``. Everything else with a categorical
(merge keys, concat of columns whose categories differ, fillna/where, aggregations of categories,
category edits) runs on the CPU engine with the reason ``node_reason`` / ``data_reason`` / ``expr_reason``
gives. No GPU library is imported at module level (placement runs anywhere).
"""
from __future__ import annotations

from functools import singledispatch
from typing import Any, Callable

import numpy as np
import pyarrow as pa

from gframe.engines.gpu.kinds import storable
from gframe.interop import decode_categories
from gframe.plan import logical as L
from gframe.plan.expr import BinOp, Col, Expr, Func, Lit
from gframe.plan.schema import STRING, Schema, internal_name

CODES = pa.int32()  # the device's type of a categorical column (its codes)


def is_cat(t: pa.DataType | None) -> bool:
    return t is not None and pa.types.is_dictionary(t)


def value_type(t: pa.DataType) -> pa.DataType:
    """The plan's type of a categorical's values (strings: gframe's large_string)."""
    v = t.value_type
    return STRING if pa.types.is_string(v) or pa.types.is_large_string(v) else v


# -------------------------------------------------------------------------------- host <-> device

def split(col: pa.ChunkedArray | pa.Array) -> tuple[pa.Array, pa.Array]:
    """A host dictionary column as (int32 codes, null where missing; its categories)."""
    if isinstance(col, pa.ChunkedArray):
        if col.num_chunks == 0:
            return pa.array([], CODES), pa.array([], col.type.value_type)
        if col.num_chunks > 1:
            col = col.unify_dictionaries()
            dictionary = col.chunk(0).dictionary
            codes = pa.concat_arrays([c.indices.cast(CODES) for c in col.chunks])
            return codes, dictionary
        col = col.chunk(0)
    return col.indices.cast(CODES), col.dictionary


def join(codes: pa.Array, categories: pa.Array, t: pa.DataType) -> pa.Array:
    """pandas' categorical back from its codes: every category kept, ``t``'s orderedness."""
    cats = categories
    want = t.value_type
    if cats.type != want and (pa.types.is_string(cats.type) or pa.types.is_large_string(cats.type)) \
            and not (pa.types.is_string(want) or pa.types.is_large_string(want)):
        cats = decode_categories(cats, want)  # a CPU-engine result: its Enum's encodings of the categories
    elif cats.type != want:
        cats = cats.cast(want)
    if codes.type != CODES:
        codes = codes.cast(CODES)
    return pa.DictionaryArray.from_arrays(codes, cats, ordered=bool(t.ordered))


def code_of(categories: pa.Array, value: Any) -> int | None:
    """The code of ``value`` among ``categories`` (None: not a category): equal by value, as
    pandas' ``Categorical`` looks a scalar up (1 finds 1.0), a bool only a bool."""
    if isinstance(value, np.generic):
        value = value.item()
    for i, c in enumerate(categories.to_pylist()):
        if c is not None and c == value and isinstance(c, bool) == isinstance(value, bool):
            return i
    return None


# ------------------------------------------------------------------------------------ placement

def _cats_in(schema: Schema) -> list[str]:
    return [f.name for f in list(schema.columns) + list(schema.index or ()) if is_cat(f.dtype)]


def involved(node: L.Plan) -> bool:
    return any(_cats_in(s) for s in [node.schema] + [c.schema for c in node.children])


def node_reason(node: L.Plan) -> str | None:
    """None where the GPU kernel of ``node`` is right for its categorical columns (or it has none),
    else why the CPU engine runs it. The node's own check (``kernels.py``) is asked too."""
    if not involved(node):
        return None
    for s in [node.schema] + [c.schema for c in node.children]:
        for f in list(s.columns) + list(s.index or ()):
            if is_cat(f.dtype) and not storable(f.dtype):
                return f"categorical {f.label!r} of {f.dtype.value_type} categories"
    check = NODE_CHECKS.get(type(node))
    if check is None:
        return f"{type(node).__name__} with a categorical column ({HOST_ONLY.get(type(node), 'not lowered')})"
    return check(node)


def _moves_rows(node: L.Plan) -> str | None:
    return None


def _select(node: L.Select) -> str | None:
    for f, (_, e) in zip(node.schema.columns, node.outputs):
        if is_cat(f.dtype) and not isinstance(e, Col):
            how = e.fn if isinstance(e, Func) else type(e).__name__
            return f"a categorical made by {how} (its categories are computed on the host)"
    return None


def _join(node: L.Join) -> str | None:
    lt, rt = node.left.schema, node.right.schema
    for a, b in zip(node.left_on, node.right_on):
        if is_cat(lt.dtype_of(a)) or is_cat(rt.dtype_of(b)):
            return "merge on a categorical key (codes of different categories: matched by value on the host)"
    if node.index_from == "both" and any(is_cat(f.dtype) for f in lt.index or ()):
        return "join on a categorical index"
    return None


def _union(node: L.Union) -> str | None:
    fields = list(node.schema.columns) + ([] if node.ignore_index else list(node.schema.index or ()))
    for i, f in enumerate(fields):
        present = []
        for c in node.children:
            if i >= len(node.schema.columns):
                lvl = c.schema.index[i - len(node.schema.columns)] if c.schema.index else None
                present.append(None if lvl is None else lvl.dtype)
            else:
                present.append(c.schema.field(f.label).dtype if c.schema.has(f.label) else None)
        if any(is_cat(t) for t in present) and not all(t == f.dtype for t in present):
            return f"concat of categorical {f.label!r} with another type (pandas' result type is the data's)"
    return None


def _hconcat(node: L.HConcat) -> str | None:
    if any(is_cat(f.dtype) for c in node.children for f in c.schema.index or ()):
        return "concat(axis=1) aligned on a categorical index"
    return None


def _aggregate(node: L.Aggregate) -> str | None:
    look = node.child.schema.dtype_of
    for _, a in node.aggs:
        if a.fn != "size" and any(is_cat(_type(c, look)) for c in a.children):
            return f"{a.fn} of a categorical"
    return None


NODE_CHECKS: dict[type, Callable[[Any], "str | None"]] = {
    L.InMemoryScan: _moves_rows, L.Filter: _moves_rows, L.RowIndex: _moves_rows, L.Sort: _moves_rows,
    L.TopK: _moves_rows, L.Slice: _moves_rows, L.Take: _moves_rows, L.Distinct: _moves_rows,
    L.Repeat: _moves_rows, L.GroupHead: _moves_rows, L.Cache: _moves_rows, L.Materialized: _moves_rows,
    L.RenameIndex: _moves_rows, L.SetIndex: _moves_rows, L.ResetIndex: _moves_rows,
    L.Select: _select, L.Join: _join, L.Union: _union, L.HConcat: _hconcat, L.Aggregate: _aggregate,
}

# nodes with a categorical column that the CPU engine runs, and why
HOST_ONLY: dict[type, str] = {
    L.ParquetScan: "pandas' categories of a file are rebuilt on the host",
    L.CsvScan: "dtype='category' is parsed on the CPU",
    L.GroupWindow: "window functions over categoricals",
}


def data_reason(node: L.Plan, inputs: list[Any]) -> str | None:
    """What only the data tells: an input computed on the CPU engine whose categoricals came to the
    device without their categories (the CPU engine holds some as plain values), and a concat of
    categoricals, which keeps the categorical on the device only where every input has the same
    categories (pandas gives object/strings otherwise)."""
    for child, t in zip(node.children, inputs):
        for name in _cats_in(child.schema):
            if t.has(name) and name not in t.categories:
                return f"categorical {name!r} reached the device without its categories"
    if not isinstance(node, L.Union):
        return None
    fields = list(node.schema.columns) + ([] if node.ignore_index else list(node.schema.index or ()))
    for f in fields:
        if not is_cat(f.dtype):
            continue
        cats = [t.categories.get(f.name) for t in inputs if t.has(f.name)]
        if any(c is None for c in cats) or any(not c.equals(cats[0]) for c in cats[1:]):
            return f"concat of categorical {f.label!r} with different categories"
    return None


# ---------------------------------------------------------------------------- results' categories

@singledispatch
def sources(node: L.Plan) -> dict[str, tuple[int, str]]:
    """Output column name -> (input, its column name) for the categorical columns of ``node``'s
    result: by default the column of the same name in the first input that has it."""
    return {}


@sources.register
def _(node: L.Select) -> dict[str, tuple[int, str]]:
    return {f.name: (0, e.name) for f, (_, e) in zip(node.schema.columns, node.outputs) if isinstance(e, Col)}


@sources.register
def _(node: L.Join) -> dict[str, tuple[int, str]]:
    out = {f.name: (0 if side in ("left", "key") else 1, name)
           for f, (_, side, name) in zip(node.schema.columns, node.outputs)}
    if node.index_from in ("left", "right"):
        out.update({n: (0 if node.index_from == "left" else 1, n) for n in node.schema.index_names})
    return out


@sources.register
def _(node: L.Aggregate) -> dict[str, tuple[int, str]]:
    if node.keys_as_index and node.keys:
        names = node.schema.index_names
    else:
        names = [f.name for f in node.schema.columns[:len(node.keys)]]
    return {n: (0, k) for n, k in zip(names, node.keys)}


@sources.register
def _(node: L.SetIndex) -> dict[str, tuple[int, str]]:
    s = node.child.schema
    first = len(s.index or ()) if node.append else 0
    return {n: (0, k) for n, k in zip(node.schema.index_names[first:], node.keys)}


@sources.register
def _(node: L.ResetIndex) -> dict[str, tuple[int, str]]:
    if node.drop:
        return {}
    return {internal_name(lab): (0, n) for lab, n in zip(node.labels, node.child.schema.index_names)}


def carry(node: L.Plan, inputs: list[Any], out: Any) -> Any:
    """``out`` (a kernel's result) with the categories of its categorical columns, from the inputs
    they come from (``sources``); ``out`` itself where it has none."""
    from gframe.engines.gpu.table import GpuTable

    if not isinstance(out, GpuTable):
        return out
    # the plan's categoricals, and the columns whose type the data decides (a merge key of
    # categoricals, run on the host): a categorical where the column they come from is one
    fields = [f for f in list(node.schema.columns) + list(node.schema.index or ())
              if (is_cat(f.dtype) or f.dtype is None) and out.has(f.name)]
    if not fields:
        return out
    where = sources(node)
    computes = isinstance(node, (L.Select, L.Aggregate))  # outputs ``sources`` leaves out are computed
    cats, logical = {}, {}
    for f in fields:
        hit = where.get(f.name)
        if f.dtype is None and hit is None and computes:
            continue  # computed by the node (a Select's expression of a categorical's name): not one
        src = None
        if hit is not None:
            src = inputs[hit[0]] if hit[0] < len(inputs) and inputs[hit[0]].has(hit[1]) else None
            c = src.categories.get(hit[1]) if src is not None else None
        else:
            src = next((t for t in inputs if f.name in t.categories), None)
            c = src.categories[f.name] if src is not None else None
            if c is None and isinstance(node, L.InMemoryScan | L.Materialized):
                c = out.categories.get(f.name)
        if c is None and f.dtype is None:
            continue  # data-typed and not a categorical
        if c is None:
            raise RuntimeError(f"gpu engine: no categories for the categorical column {f.name!r} of {node.describe()}")
        cats[f.name] = c
        if f.dtype is None and src is not None:
            t = src.logical.get(hit[1] if hit is not None else f.name)
            if t is not None and pa.types.is_dictionary(t):
                logical[f.name] = t  # (kept by ``GpuTable.typed``: the plan has no type for it)
    out = out.with_categories(cats)
    return out.typed({**out.logical, **logical}) if logical else out


# ----------------------------------------------------------------------------------- expressions

Lookup = Callable[[str], "pa.DataType | None"]


def _type(e: Expr, look: Lookup) -> pa.DataType | None:
    from gframe.plan.dtypes import expr_type

    return expr_type(e, look)


def reads_categorical(e: Expr, look: Lookup) -> bool:
    """Whether an operator or function ``e`` has a categorical input (it then has to be one
    ``expr_reason`` knows: a generic lowering would read the codes as the values)."""
    return isinstance(e, (BinOp, Func)) and any(is_cat(_type(c, look)) for c in e.children)  # type: ignore[arg-type]


_EQ = frozenset({"eq", "ne"})
_ORDER = frozenset({"lt", "le", "gt", "ge"})
_FUNCS = frozenset({"isna", "notna", "isin", "cast"})


def _scalar_ok(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool, np.generic)) or v is None


def expr_reason(e: Expr, look: Lookup) -> str | None:
    """None where ``lower`` evaluates ``e`` (which reads a categorical) on the device."""
    if isinstance(e, BinOp):
        lt, rt = _type(e.left, look), _type(e.right, look)
        if is_cat(lt) and is_cat(rt):
            return f"{e.op} of two categoricals (their categories are the data's)"
        cat, other = (e.left, e.right) if is_cat(lt) else (e.right, e.left)
        if e.op not in _EQ | _ORDER:
            return f"{e.op} of a categorical"
        if not isinstance(other, Lit) or not _scalar_ok(other.value) or other.value is None:
            return f"{e.op} of a categorical with {type(other).__name__}"
        if e.op in _ORDER and not _type(cat, look).ordered:  # type: ignore[union-attr]
            return f"{e.op} of an unordered categorical"
        return None
    assert isinstance(e, Func)
    if e.fn not in _FUNCS:
        return f"{e.fn} of a categorical"
    if e.fn == "isin":
        values = e.param("values")
        if not isinstance(values, (tuple, list)) or not all(_scalar_ok(v) for v in values):
            return "isin of a categorical with values that are not a list of scalars"
    if e.fn == "cast":
        src, dst = _type(e.children[0], look), e.param("dtype")
        if e.param("strict", True) is False or dst != value_type(src):  # type: ignore[arg-type]
            return f"cast of a categorical to {dst}"
    return None


def lower(ev: Any, e: Expr) -> Any:
    """``e`` (``expr_reason`` is None) on the device: codes compared with the codes of values."""
    from gframe.engines.gpu import expressions as E
    from gframe.engines.gpu.convert import upload
    from gframe.engines.gpu.lib import plc

    BOOL = pa.bool_()
    if isinstance(e, BinOp):
        lt = ev.type_of(e.left)
        cat, lit, op = (e.left, e.right, e.op) if is_cat(lt) else (e.right, e.left, _FLIP[e.op])
        codes = E.as_column(ev.eval(cat), ev.n)
        code = code_of(ev.categories(cat), lit.value)  # type: ignore[union-attr]
        if code is None:  # not a category: never equal; an ordering is pandas' TypeError
            if op in _ORDER:
                raise TypeError(f"Cannot compare a Categorical for op __{op}__ with a scalar, which is not a category.")
            return E.as_column(E.Const(op == "ne", BOOL), ev.n)
        res = ev.binary(_BINOPS[op], codes, E.Const(code, CODES), BOOL)
        return E.fill_null(res, op == "ne")  # pandas: a missing category compares False (!= True)
    if e.fn in ("isna", "notna"):
        codes = E.as_column(ev.eval(e.children[0]), ev.n)
        res = plc.unary.is_null(codes) if e.fn == "isna" else plc.unary.is_valid(codes)
        return res
    codes = E.as_column(ev.eval(e.children[0]), ev.n)
    cats = ev.categories(e.children[0])
    if e.fn == "isin":
        values = e.param("values") or ()
        has_null = any(v is None or isinstance(v, float) and v != v for v in values)
        found = sorted({c for c in (code_of(cats, v.item() if isinstance(v, np.generic) else v) for v in values
                                    if not (v is None or isinstance(v, float) and v != v)) if c is not None})
        return E.member_of(ev, codes, found, CODES, has_null)
    # cast to the categories' own type (``astype``; ``isin`` of a categorical is one of its values):
    # the categories, uploaded, gathered by the codes
    values = upload(pa.table({"v": cats.cast(e.param("dtype"))})).columns[0]
    if codes.null_count():  # a missing value's code: one past the categories, gathered as missing
        codes = plc.replace.replace_nulls(codes, E.scalar(len(cats), CODES))
    return plc.copying.gather(plc.Table([values]), codes, plc.copying.OutOfBoundsPolicy.NULLIFY).columns()[0]


_FLIP = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
_BINOPS = {"eq": "EQUAL", "ne": "NOT_EQUAL", "lt": "LESS", "le": "LESS_EQUAL", "gt": "GREATER", "ge": "GREATER_EQUAL"}
