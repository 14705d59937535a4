"""``DataFrame.query`` / ``DataFrame.eval``: pandas' expression language built into plan expressions.

The expression is pre-parsed by pandas' own tokenizer pass (``@x`` locals, backtick-quoted labels,
``&``/``|`` as ``and``/``or``), so it reads exactly as pandas reads it, then walked as a Python AST and
evaluated on gframe Series: ``a > @x`` becomes the same lazy comparison as ``df.a > x``. Names resolve
as pandas resolves them: a bare name among the columns only, ``@x`` among the caller's variables. The
caller's scope is captured here, at the call (pandas' ``level=`` semantics: ``level`` frames further
out), because a trip through the bridge would otherwise resolve ``@x`` in gframe's own frames.

What the walker does not express (function calls, attribute chains, the index by name, several
assignments) runs through pandas with the captured scope passed as ``local_dict``/``global_dict``.
"""
from __future__ import annotations

import ast
import operator
import os
import sys
from typing import Any

from pandas.core.computation.expr import LOCAL_TAG, PandasExprVisitor
from pandas.core.computation.parsing import create_valid_python_identifier
from pandas.errors import UndefinedVariableError

from gframe.frontend.bridge import call_method


class _NotNative(Exception):
    """The expression uses something the walker does not build natively: go through pandas."""


_BINOPS = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
}
_CMPOPS = {
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}


def caller_scope(level: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The locals and globals of the frame that called ``query``/``eval`` (``level`` frames further out).

    The caller is the first frame outside the gframe package (however many gframe wrappers - the
    signature check, the bridge - stand between), then ``level`` frames further out, as pandas counts."""
    frame = sys._getframe(1)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame = frame.f_back
    for _ in range(level):
        frame = frame.f_back if frame.f_back is not None else frame
    try:
        return dict(frame.f_locals), frame.f_globals
    finally:
        del frame


class _Evaluator:
    """Evaluates one pre-parsed expression tree on a gframe DataFrame's columns."""

    def __init__(self, frame: Any, local_dict: dict[str, Any], global_dict: dict[str, Any]) -> None:
        self.frame = frame
        self.locals = local_dict
        self.globals = global_dict
        self.columns = {}
        for label in frame.columns:
            if isinstance(label, str):
                self.columns.setdefault(label, label)
                self.columns.setdefault(create_valid_python_identifier(label), label)

    # ---------------------------------------------------------------- names
    def name(self, ident: str) -> Any:
        if ident.startswith(LOCAL_TAG):
            return self.variable(ident[len(LOCAL_TAG):])
        if ident in self.columns:
            return self.frame[self.columns[ident]]
        if ident == "index" or ident in (self.frame.index.names or []):
            raise _NotNative(ident)
        # pandas resolves a bare name among the frame's labels only: a variable needs @
        raise UndefinedVariableError(ident, is_local=False)

    def variable(self, ident: str) -> Any:
        if ident in self.locals:
            return self.locals[ident]
        if ident in self.globals:
            return self.globals[ident]
        raise UndefinedVariableError(ident, is_local=True)

    # ---------------------------------------------------------------- nodes
    def visit(self, node: ast.AST) -> Any:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise _NotNative(type(node).__name__)
        return method(node)

    def visit_Expression(self, node: ast.Expression) -> Any:
        return self.visit(node.body)

    def visit_Expr(self, node: ast.Expr) -> Any:
        return self.visit(node.value)

    def visit_Name(self, node: ast.Name) -> Any:
        return self.name(node.id)

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_List(self, node: ast.List) -> Any:
        return [self.visit(e) for e in node.elts]

    visit_Tuple = visit_List

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.visit(node.operand)
        if isinstance(node.op, (ast.Not, ast.Invert)):
            return not v if isinstance(v, bool) else ~v
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        raise _NotNative("unary")

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise _NotNative("binop")
        return op(self.visit(node.left), self.visit(node.right))

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        op = operator.and_ if isinstance(node.op, ast.And) else operator.or_
        out = self.visit(node.values[0])
        for v in node.values[1:]:
            out = op(out, self.visit(v))
        return out

    def visit_Compare(self, node: ast.Compare) -> Any:
        # chained comparisons: a < b < c is (a < b) & (b < c), as pandas evaluates them
        left = self.visit(node.left)
        out = None
        for op, right_node in zip(node.ops, node.comparators):
            right = self.visit(right_node)
            part = self.compare(op, left, right)
            out = part if out is None else out & part
            left = right
        return out

    def compare(self, op: ast.cmpop, left: Any, right: Any) -> Any:
        listlike = isinstance(right, (list, tuple, set)) or _is_gframe_series(right) and not _is_gframe_series(left)
        if isinstance(op, (ast.In, ast.NotIn)) or (isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, (list, tuple))):
            if not _is_gframe_series(left):
                raise _NotNative("in on a scalar")
            values = right if listlike else [right]
            res = left.isin(values)
            return ~res if isinstance(op, (ast.NotIn, ast.NotEq)) else res
        fn = _CMPOPS.get(type(op))
        if fn is None:
            raise _NotNative("comparison")
        return fn(left, right)


def _is_gframe_series(obj: Any) -> bool:
    return type(obj).__name__ == "Series" and type(obj).__module__.startswith("gframe.")


def _parse(expr: str) -> ast.Module:
    if not isinstance(expr, str):
        raise ValueError(f"expr must be a string to be evaluated, {type(expr)} given")  # noqa: TRY004 - pandas raises ValueError
    if not expr.strip():
        raise ValueError("expr cannot be an empty string")
    # pandas' own pre-parser for its 'pandas' parser: @ locals, backticks, & and | as and/or
    return ast.parse(PandasExprVisitor(None, 'python', 'pandas').preparser(expr))


def evaluate(frame: Any, expr: str, local_dict: dict[str, Any], global_dict: dict[str, Any]) -> Any:
    """``frame.eval(expr)``: a Series/scalar, or a new frame for ``c = ...`` assignments."""
    tree = _parse(expr)
    if len(tree.body) != 1:
        raise _NotNative("several statements")
    stmt = tree.body[0]
    ev = _Evaluator(frame, local_dict, global_dict)
    if isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            raise _NotNative("assignment target")
        target = stmt.targets[0].id
        label = ev.columns.get(target, target)
        return frame.assign(**{label: ev.visit(stmt.value)}) if isinstance(label, str) else _raise_not_native()
    if isinstance(stmt, ast.Expr):
        return ev.visit(stmt.value)
    raise _NotNative(type(stmt).__name__)


def _raise_not_native() -> Any:
    raise _NotNative("label")


def query(frame: Any, expr: str, inplace: bool, kwargs: dict[str, Any], local_dict: dict[str, Any],
          global_dict: dict[str, Any]) -> Any:
    """``frame.query(expr)``: the rows where the expression holds."""
    if not kwargs:
        try:
            tree = _parse(expr)
            if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
                mask = evaluate(frame, expr, local_dict, global_dict)
                if _is_gframe_series(mask):
                    out = frame[mask]
                    return frame._inplace(out, inplace)
        except _NotNative:
            pass
    return _through_pandas("query", frame, expr, inplace, kwargs, local_dict, global_dict)


def eval_(frame: Any, expr: str, inplace: bool, kwargs: dict[str, Any], local_dict: dict[str, Any],
          global_dict: dict[str, Any]) -> Any:
    """``frame.eval(expr)``: natively where the walker builds it, else through pandas with the caller's scope."""
    if not kwargs:
        try:
            out = evaluate(frame, expr, local_dict, global_dict)
            if type(out).__name__ == "DataFrame" and out is not frame:
                return frame._inplace(out, inplace)
            if not inplace:
                return out
        except _NotNative:
            pass
    return _through_pandas("eval", frame, expr, inplace, kwargs, local_dict, global_dict)


def _through_pandas(method: str, frame: Any, expr: str, inplace: bool, kwargs: dict[str, Any],
                    local_dict: dict[str, Any], global_dict: dict[str, Any]) -> Any:
    """``frame.query`` / ``frame.eval`` through pandas, recorded, with the caller's scope."""
    if inplace:  # pandas deprecates the keyword: pass it only when it is used
        kwargs = {**kwargs, "inplace": True}
    return call_method(frame, method, (expr,), {**kwargs, "local_dict": local_dict, "global_dict": global_dict},
                       reason=f"{method} expression not native")
