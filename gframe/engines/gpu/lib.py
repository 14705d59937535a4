"""pylibcudf and the device-side expression helpers, loaded on first use.

The function declarations (``rowwise.py``, ``strings.py``, ...) hold both the placement check, read
where no GPU library is installed (``explain()``, the CPU suite), and the lowering, which runs only
on the device. They reach pylibcudf and ``expressions.py`` (which imports it) through these lazy
modules, so importing a declaration imports no GPU library.
"""
from __future__ import annotations

import importlib
import sys
from typing import Any


class LazyModule:
    """A module imported at its first attribute access (each access goes to ``sys.modules``, so a
    stand-in installed later, ``gframe.testing.fake_pylibcudf``, is the one used)."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> Any:
        module = sys.modules.get(self._name)
        if module is None:
            module = importlib.import_module(self._name)
        return getattr(module, attr)


plc: Any = LazyModule("pylibcudf")
expressions: Any = LazyModule("gframe.engines.gpu.expressions")
