"""The registry of expression functions: every ``Func`` name, declared once.

A declaration says what the plan layer must know about a function: its name, how many inputs it
takes, its result type (pandas' dtype rule) and whether a row's value depends on that row alone
(what lets the optimizer move a filter or a limit across it). ``Func`` validates its name and arity
against this registry when it is built, so a misspelled name fails where the plan is made, not in
an engine.

The declarations themselves live beside the other type rules in ``plan/dtypes.py`` (each rule
infers its inputs' types with ``expr_type``); this module imports nothing from the plan so that
``plan/expr.py`` can validate against it. Engines declare their lowering of each function once
per engine (``engines/cpu/functions.py``, ``engines/gpu/functions.py``); ``tests/test_registry.py``
checks that every function declared here is lowered by each engine or listed there as host-only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

# (the Func being typed, a function giving the Arrow type of any expression) -> its Arrow type
# or None ("decided by the data")
DtypeRule = Callable[[Any, Callable[[Any], Any]], Any]


@dataclass(frozen=True)
class Function:
    """What the plan knows about one expression function."""

    name: str
    min_args: int
    max_args: int | None  # None: any number of inputs from ``min_args`` on
    dtype: DtypeRule
    rowwise: bool = True  # False: a row's value depends on other rows (shift, rank, duplicated)

    def check_arity(self, n: int) -> None:
        if n < self.min_args or (self.max_args is not None and n > self.max_args):
            want = str(self.min_args) if self.max_args == self.min_args else \
                f"{self.min_args}..{'' if self.max_args is None else self.max_args}"
            raise TypeError(f"function {self.name!r} takes {want} input(s), got {n}")


FUNCTIONS: dict[str, Function] = {}


def declare(*names: str, args: int | tuple[int, int | None] = 1, rowwise: bool = True) -> Callable[[DtypeRule], DtypeRule]:
    """Declare the functions ``names`` sharing one dtype rule (the decorated function)."""
    lo, hi = (args, args) if isinstance(args, int) else args

    def register(rule: DtypeRule) -> DtypeRule:
        for name in names:
            if name in FUNCTIONS:
                raise ValueError(f"function {name!r} declared twice")
            FUNCTIONS[name] = Function(name, lo, hi, rule, rowwise)
        return rule

    return register


def lookup(name: str) -> Function:
    """The declaration of ``name``; ValueError for a name nobody declared."""
    try:
        return FUNCTIONS[name]
    except KeyError:
        raise ValueError(f"unknown function {name!r}") from None
