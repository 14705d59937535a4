"""Placement: decide where each node runs and make the host/device transfers explicit plan nodes.

``lower(plan)`` walks the optimized plan once, asks ``node_reason`` about every node and returns
the physical plan: the same nodes, with a ``DeviceToHost`` wherever a node placed on the CPU reads a
GPU result and a ``HostToDevice`` wherever a GPU node reads a CPU result. The rest of the plan stays
on the GPU; only the unsupported subtrees cross over. ``node_reason`` reads each node's check from
its kernel's declaration (``kernels.NODES``; ``kernels.HOST_ONLY_NODES``). No GPU library is
imported here (nor by ``kernels.py``), so ``explain()`` can show the placement anywhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from gframe.engines.gpu import categorical
from gframe.engines.gpu.kernels import HOST_ONLY_NODES, NODES
from gframe.engines.gpu.support import schema_reason
from gframe.plan import logical as L
from gframe.plan.schema import Schema
from gframe.plan.traversal import fold, rebuild


def node_reason(node: L.Plan) -> str | None:
    """None when the GPU engine lowers ``node`` itself (its children are decided separately)."""
    check = NODES.get(type(node))
    if check is None:
        return f"{type(node).__name__} has no GPU lowering ({HOST_ONLY_NODES.get(type(node), 'not declared')})"
    for s in [node.schema] + [c.schema for c in node.children]:  # type: ignore[attr-defined]
        r = schema_reason(s)
        if r is not None:
            return r
    r = categorical.node_reason(node)  # (a categorical is its codes: where those are right)
    return r if r is not None else check(node)


class DeviceToHost(L.Plan):
    """Copy the child's device table to host memory (a CPU engine frame)."""

    __slots__ = ()

    def __init__(self, child: L.Plan) -> None:
        self._init((child,))

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        return "DeviceToHost"


class HostToDevice(L.Plan):
    """Copy the child's host frame (computed on the CPU engine, for ``reason``) to the device."""

    __slots__ = ("reason",)
    _non_child = ("reason",)

    def __init__(self, reason: str, child: L.Plan) -> None:
        self._init((child,), reason)

    def _compute_schema(self) -> Schema:
        return self.child.schema

    def describe(self) -> str:
        return f"HostToDevice (cpu: {self.reason})"


@dataclass
class Lowered:
    """The physical plan and where its nodes run (by ``id`` of the physical node)."""

    plan: L.Plan
    cpu: dict[int, str] = field(default_factory=dict)  # id -> reason, nodes placed on the CPU
    placement: dict[int, str] = field(default_factory=dict)  # id of each *input* node -> "gpu" / "cpu"


def lower(plan: L.Plan) -> Lowered:
    """The physical plan for ``plan``: transfers inserted where placement changes."""
    out = Lowered(plan)

    def place(node: L.Plan, kids: list[tuple[L.Plan, str | None]]) -> tuple[L.Plan, str | None]:
        reason = node_reason(node)
        new_children = []
        for child, child_reason in kids:
            if reason is None and child_reason is not None:
                child = HostToDevice(child_reason, child)
            elif reason is not None and child_reason is None:
                child = DeviceToHost(child)
            new_children.append(child)
        phys = rebuild(node, new_children)
        if reason is not None:
            out.cpu[id(phys)] = reason
        out.placement[id(node)] = "gpu" if reason is None else f"cpu: {reason}"
        return phys, reason

    out.plan, _ = fold(plan, place)
    return out


def placement(plan: L.Plan) -> dict[int, str]:
    """Node id -> "gpu", or "cpu: <reason>" (with the transfers each side), for ``explain()``."""
    from gframe.engines.gpu.support import stays_on_host

    if stays_on_host(plan):
        return {id(plan): "cpu: a small in-memory table stays on the host"}
    lowered = lower(plan)
    tags = dict(lowered.placement)
    for node in plan.walk():
        for child in node.children:
            here, there = tags.get(id(node), "gpu"), tags.get(id(child), "gpu")
            if here.startswith("gpu") and there.startswith("cpu") and "->" not in there:
                tags[id(child)] = there + " -> device"
            elif here.startswith("cpu") and there == "gpu":
                tags[id(child)] = "gpu -> host"
    return tags
