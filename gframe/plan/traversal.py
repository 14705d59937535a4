"""The one traversal of plans: a memoized bottom-up fold, and the rewrites built on it.

Every pass over a plan is "compute something for each node from its children's results, once per
shared node": the optimizer's hash-consing and rewrites, the engines' substitution of cached
results, the GPU placement, the evaluator. ``fold`` is that loop, written once, without recursion
(a plan of a few thousand nodes - a loop of ``concat`` - does not reach Python's recursion limit).

Expression helpers that recurse over the small expression trees (``optimizer/_util``: ``used``,
``substitute``, ``is_rowwise``) keep plain recursion: it is cheaper than the memo here, and
expressions are trees, not DAGs.
"""
from __future__ import annotations

from typing import Any, Callable, Hashable, Sequence, TypeVar

from gframe.plan.node import Node

N = TypeVar("N", bound=Node)
R = TypeVar("R")


def _identity(node: Node) -> Hashable:
    return id(node)


def fold(root: N, combine: Callable[[N, list[R]], R], *, shortcut: Callable[[N], R | None] | None = None,
         key: Callable[[N], Hashable] = _identity) -> R:  # type: ignore[assignment]
    """``combine(node, [result of each child])`` for every node, children first, once per ``key``.

    ``key`` decides what counts as the same node: ``id`` (default; the object) or the node itself
    (structural equality: equal subplans computed once). ``shortcut(node)``, where given, is asked
    before a node's children are visited: a result other than None is the node's result and its
    subtree is not visited (a cached result).
    """
    memo: dict[Hashable, R] = {}
    stack: list[tuple[N, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        k = key(node)
        if k in memo:
            continue
        if expanded:
            memo[k] = combine(node, [memo[key(c)] for c in node.children])  # type: ignore[arg-type]
            continue
        if shortcut is not None:
            hit = shortcut(node)
            if hit is not None:
                memo[k] = hit
                continue
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(node.children))  # type: ignore[misc]
    return memo[key(root)]


def rebuild(node: N, children: Sequence[Any]) -> N:
    """``node`` over new children (itself where they are the same objects)."""
    return node.reconstruct(children) if children else node


def transform(root: N, fn: Callable[[N], N], *, shortcut: Callable[[N], N | None] | None = None) -> N:
    """Rebuild ``root`` from the leaves up, ``fn`` applied once to each node (shared nodes once),
    over its already rebuilt children; ``shortcut`` replaces a whole subtree (see ``fold``)."""
    return fold(root, lambda node, kids: fn(rebuild(node, kids)), shortcut=shortcut)
