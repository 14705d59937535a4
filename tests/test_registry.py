"""The registries agree: every expression function the plan declares and every plan node is
handled by each engine, or explicitly listed as host-only (with a reason) for the GPU engine.

Runs without a GPU: the GPU declarations import no GPU library, and the GPU kernels' node types
are read from ``engines/gpu/kernels.py``'s source (importing it needs pylibcudf).
"""
import ast
import inspect
from pathlib import Path

import pytest

from gframe.engines.cpu import functions as cpu_functions
from gframe.engines.cpu import kernels as cpu_kernels
from gframe.engines.gpu import functions as gpu_functions
from gframe.engines.gpu import support
from gframe.plan import logical as L
from gframe.plan.expr import Col, Func, func
from gframe.plan.functions import FUNCTIONS

PLAN_NODES = sorted((c for c in vars(L).values() if inspect.isclass(c) and issubclass(c, L.Plan) and c is not L.Plan),
                    key=lambda c: c.__name__)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_lowered_by_the_cpu_engine(name):
    assert name in cpu_functions.FUNCTIONS, f"{name!r} has no CPU declaration (engines/cpu/*.py)"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_is_declared_on_the_gpu_or_host_only(name):
    lowered, host = name in gpu_functions.FUNCTIONS, name in gpu_functions.HOST_ONLY
    assert lowered != host, f"{name!r} must be in exactly one of the GPU FUNCTIONS / HOST_ONLY"
    if host:
        assert gpu_functions.HOST_ONLY[name], "a host-only function says why"


def test_engines_declare_only_functions_the_plan_knows():
    assert set(cpu_functions.FUNCTIONS) <= set(FUNCTIONS)
    assert set(gpu_functions.FUNCTIONS) | set(gpu_functions.HOST_ONLY) <= set(FUNCTIONS)


def test_gpu_declarations_hold_their_lowering_and_check_together():
    for name, decl in gpu_functions.FUNCTIONS.items():
        assert decl.name == name and callable(decl.lower) and callable(decl.reason)
        # the lowering and its check are defined in the same family module
        assert decl.lower.__module__ == decl.reason.__module__ or decl.reason is gpu_functions.always, name


def test_host_only_function_reason_reaches_placement():
    reason = support.expr_reason(func("str.title", Col("s")), lambda n: None)
    assert "str.title" in reason and gpu_functions.HOST_ONLY["str.title"] in reason


@pytest.mark.parametrize("node", PLAN_NODES, ids=lambda c: c.__name__)
def test_every_plan_node_has_a_cpu_kernel(node):
    handled = cpu_kernels.run.dispatch(node) is not cpu_kernels.run.dispatch(object)
    assert handled or node is L.Materialized, f"{node.__name__} has no CPU kernel"  # (CpuEngine.kernel: Materialized)


def _gpu_kernel_types() -> set[str]:
    """Node class names of the ``@run.register`` functions in engines/gpu/kernels.py."""
    src = Path(support.__file__).with_name("kernels.py").read_text()
    names = set()
    for fn in ast.walk(ast.parse(src)):
        if isinstance(fn, ast.FunctionDef) and any(ast.unparse(d) == "run.register" for d in fn.decorator_list):
            ann = fn.args.args[0].annotation
            names.add(ast.unparse(ann).removeprefix("L."))
    return names


@pytest.mark.parametrize("node", PLAN_NODES, ids=lambda c: c.__name__)
def test_every_plan_node_is_placed_by_the_gpu_engine_or_host_only(node):
    placed, host = node in support._NODES, node in support.HOST_ONLY_NODES
    assert placed != host, f"{node.__name__} must be in exactly one of support._NODES / HOST_ONLY_NODES"
    if placed:
        assert node.__name__ in _gpu_kernel_types(), f"{node.__name__} is placed on the GPU but has no GPU kernel"


def test_gpu_kernels_are_all_placed():
    assert _gpu_kernel_types() <= {c.__name__ for c in support._NODES}


def test_func_names_and_arity_are_validated():
    with pytest.raises(ValueError, match="unknown function 'str.nope'"):
        Func("str.nope", (), Col("a"))
    with pytest.raises(TypeError, match="'fillna' takes 2"):
        func("fillna", Col("a"))
    assert isinstance(func("coalesce", Col("a"), Col("b"), Col("c")), Func)
