"""The registries agree: every expression function the plan declares and every plan node is
handled by each engine, or explicitly listed as host-only (with a reason) for the GPU engine.

Runs without a GPU: the GPU declarations (functions and node kernels alike) import no GPU library.
"""
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import gframe
from gframe import engines
from gframe.engines.cpu import functions as cpu_functions
from gframe.engines.cpu import kernels as cpu_kernels
from gframe.engines.gpu import functions as gpu_functions
from gframe.engines.gpu import kernels as gpu_kernels
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


@pytest.mark.parametrize("node", PLAN_NODES, ids=lambda c: c.__name__)
def test_every_plan_node_is_placed_by_the_gpu_engine_or_host_only(node):
    placed, host = node in gpu_kernels.NODES, node in gpu_kernels.HOST_ONLY_NODES
    assert placed != host, f"{node.__name__} must be in exactly one of the GPU kernels' NODES / HOST_ONLY_NODES"
    if placed:
        assert callable(gpu_kernels.NODES[node])
        handled = gpu_kernels.run.dispatch(node) is not gpu_kernels.run.dispatch(object)
        assert handled, f"{node.__name__} is placed on the GPU but has no GPU kernel"
    else:
        assert gpu_kernels.HOST_ONLY_NODES[node], "a host-only node says why"


def test_gpu_kernels_are_all_placed():
    kernels = {t for t in gpu_kernels.run.registry if t is not object}
    assert kernels == set(gpu_kernels.NODES)


def test_gpu_node_checks_sit_beside_their_kernels():
    """A node's placement check is declared in the kernels' module, with the kernel."""
    for node, check in gpu_kernels.NODES.items():
        assert check.__module__ == gpu_kernels.__name__, node.__name__
    # and so is its check against the data, where it has one
    assert set(gpu_kernels.DATA_CHECKS) <= set(gpu_kernels.NODES)
    for node, check in gpu_kernels.DATA_CHECKS.items():
        assert check.__module__ == gpu_kernels.__name__, node.__name__


def test_gpu_kernels_import_no_gpu_library():
    """Placement reads the kernels' declarations where no GPU library is installed (explain(), the
    CPU suite): importing them loads neither pylibcudf, cupy nor rmm (nor the device expressions)."""
    code = ("import sys, gframe.engines.gpu.kernels, gframe.engines.gpu.placement; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pylibcudf', 'cupy', 'rmm') "
            "or m == 'gframe.engines.gpu.expressions'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             [str(Path(gframe.__file__).parents[1]), os.environ.get("PYTHONPATH", "")])})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_host_only_node_reason_reaches_placement():
    from gframe.engines.gpu.placement import node_reason

    node = L.MergeIndicator.__new__(L.MergeIndicator)  # the check reads the node's type only
    reason = node_reason(node)
    assert "MergeIndicator" in reason and gpu_kernels.HOST_ONLY_NODES[L.MergeIndicator] in reason


def test_func_names_and_arity_are_validated():
    with pytest.raises(ValueError, match="unknown function 'str.nope'"):
        Func("str.nope", (), Col("a"))
    with pytest.raises(TypeError, match="'fillna' takes 2"):
        func("fillna", Col("a"))
    assert isinstance(func("coalesce", Col("a"), Col("b"), Col("c")), Func)


@pytest.mark.skipif(engines.gpu_unavailable_reason() is not None, reason="needs the GPU engine (or its stand-in)")
def test_gpu_data_checks_read_the_device_inputs():
    """A column the plan types None is taken to be numeric by placement; the kernel's data check
    sends the node to the CPU engine when the device column holds strings."""
    import pyarrow as pa

    from gframe.engines.gpu.convert import upload
    from gframe.plan.expr import BinOp, Lit
    from gframe.plan.node import Opaque
    from gframe.plan.schema import Schema

    table = pa.table({"a": pa.array(["x", "y"]), "b": pa.array([1, 2])})
    scan = L.InMemoryScan(Opaque(table), Schema.make([("a", None), ("b", pa.int64())]))
    device = [upload(table)]
    plus = L.Select((("c", BinOp("add", Col("a"), Lit(1))),), scan)
    assert "column 'a' holds" in gpu_kernels.data_reason(plus, device)
    assert "column 'a' holds" in gpu_kernels.data_reason(L.Filter(BinOp("gt", Col("a"), Lit(0)), scan), device)
    assert gpu_kernels.data_reason(L.Select((("c", BinOp("add", Col("b"), Lit(1))),), scan), device) is None
    assert gpu_kernels.data_reason(L.Repeat(2, scan), device) is None  # (no data check declared)
