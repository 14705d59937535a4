"""The one node base for plans and expressions.

Nodes are immutable. Every constructor argument that is not a child is listed in ``_non_child``;
from that one rule each node gets structural equality and hashing (so identical subplans are found
with ``==`` and can share a cached result), ``reconstruct`` (rebuild with new children, used by every
optimizer pass) and a readable ``repr``. Modelled on cudf_polars' ``dsl/nodebase.py``.
"""
from __future__ import annotations

import weakref
from typing import Any, Callable, ClassVar, Iterator, Self, Sequence


class Node:
    """Immutable tree node with structural hash/eq.

    Subclasses set ``_non_child`` (names of the non-child fields, in constructor order) and call
    ``super().__init__(children, *fields)`` - the values are stored as attributes of those names.
    Non-child values must be hashable; in-memory data is wrapped in an object hashed by identity.
    """

    __slots__ = ("children", "_hash", "__weakref__")
    _non_child: ClassVar[tuple[str, ...]] = ()
    children: tuple[Node, ...]

    def _setup(self, children: Sequence[Node], *values: Any) -> None:
        object.__setattr__(self, "children", tuple(children))
        for name, value in zip(self._non_child, values, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _ctor_arguments(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self._non_child)

    def reconstruct(self, children: Sequence[Node]) -> Self:
        """The same node over new children (each subclass's constructor takes fields then children)."""
        children = tuple(children)
        # identity only: ``==`` on children would compare whole subtrees (exponential on a DAG)
        if len(children) == len(self.children) and all(a is b for a, b in zip(children, self.children)):
            return self
        return type(self)(*self._ctor_arguments(), *children)

    def get_hashable(self) -> tuple[Any, ...]:
        return (type(self), self._ctor_arguments(), self.children)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self.get_hashable())
            object.__setattr__(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(self) is not type(other):
            return False
        assert isinstance(other, Node)
        if hash(self) != hash(other):
            return False
        return _typed(self._ctor_arguments()) == _typed(other._ctor_arguments()) and self.children == other.children

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (*self._ctor_arguments(), *self.children))

    def walk(self) -> Iterator[Node]:
        """Every node of the tree once (post-order, shared subtrees visited once)."""
        seen: set[int] = set()
        stack: list[tuple[Node, bool]] = [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if id(node) in seen:
                continue
            if expanded:
                seen.add(id(node))
                yield node
            else:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(node.children))

    def __repr__(self) -> str:
        args = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._non_child)
        kids = ", ".join(repr(c) for c in self.children)
        return f"{type(self).__name__}({args}{', ' if args and kids else ''}{kids})"


def _typed(value: Any) -> Any:
    """``value`` with the type of each scalar beside it: Python finds ``1 == 1.0 == True``, but
    ``df.a + 1`` and ``df.a + 1.0`` are different plans (int64 and float64 results)."""
    if isinstance(value, tuple):
        return tuple(_typed(v) for v in value)
    if isinstance(value, Node):
        return value
    return (type(value), value)


class Resident:
    """Per-engine converted forms of one source, kept on the source object itself.

    Converting or uploading a source per query costs more than the query; keeping the converted
    form on the object that the plan (and so the user's frame) holds ties its life to what the user
    holds, not to a weak cache (see ``plan/source.py``).
    """

    __slots__ = ()

    def resident(self, engine: str, build: Callable[[], Any]) -> Any:
        """The engine's form of this source, built by ``build()`` on first use and kept."""
        store: dict[str, Any] = self._store()
        hit = store.get(engine)
        if hit is None:
            hit = store[engine] = build()
        _touch(engine, self)
        return hit

    def release(self, engine: str) -> bool:
        """Forget the engine's form (the source itself, host data or a file snapshot, stays: the
        next use builds it again). Whether there was one."""
        return self._store().pop(engine, None) is not None

    def resident_on(self) -> list[str]:
        """The engines that hold a converted form (for ``explain()``)."""
        return sorted(self._store())

    def _store(self) -> dict[str, Any]:
        store = getattr(self, "_resident", None)
        if store is None:
            store = {}
            object.__setattr__(self, "_resident", store)
        return store


# per engine, the sources holding a converted form, by identity (two ``Opaque`` of one value are
# equal, yet each holds its own form); weak: a source the user dropped leaves with it
_holders: dict[str, "weakref.WeakValueDictionary[int, Resident]"] = {}


def _touch(engine: str, holder: Resident) -> None:
    _holders.setdefault(engine, weakref.WeakValueDictionary())[id(holder)] = holder


def release_resident(engine: str) -> int:
    """Drop every converted form ``engine`` holds: the spill policy of the GPU engine's device
    memory (``engines/gpu/memory.spill``), where a source's host data (or its file snapshot) is the
    copy kept. Returns how many sources let go of one."""
    holders = _holders.pop(engine, weakref.WeakValueDictionary())
    return sum(holder.release(engine) for holder in list(holders.values()))


class Opaque(Resident):
    """A value hashed and compared by identity: in-memory data, Python callables.

    Plans never hash data by content; two scans of the same in-memory table are equal because they
    hold the same ``Opaque``. In-memory data is converted to an engine's form once and kept here
    (``resident``) for as long as a plan holds it (``plan/source.py``).
    """

    __slots__ = ("value", "label", "_resident", "__weakref__")

    def __init__(self, value: Any, label: str = "") -> None:
        self.value = value
        self.label = label

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.value is self.value

    def __repr__(self) -> str:
        return f"<{self.label or type(self.value).__name__}@{id(self.value):x}>"
