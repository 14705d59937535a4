"""Configuration in one place: ``gframe.options`` and ``gframe.option_context``.

Defaults come from ``GFRAME_*`` environment variables, read once at import. Nothing else in gframe
reads ``os.environ``: kernels and passes receive the values they need from here.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field, fields
from typing import Any, Iterator

_CHOICES: dict[str, tuple[str, ...]] = {
    "engine": ("auto", "cpu", "gpu"),
    "fallback": ("silent", "warn", "raise"),
    "gpu_memory": ("managed", "pool", "cuda"),
    "oom": ("raise", "cpu"),
}


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


@dataclass
class Options:
    """gframe's settings. Set attributes directly or use :func:`option_context`.

    engine : "auto" (GPU when pylibcudf and a device are present, else CPU), "cpu" or "gpu".
    fallback : what a call that runs through pandas does: "silent" (record only), "warn", "raise".
    optimize : run the optimizer's passes before execution.
    disabled_passes : names of optimizer passes to skip.
    verify_optimizer : execute every plan with and without the optimizer and assert equal results.
    gpu_memory : RMM allocator set up at the first GPU execution.
    oom : on a GPU out-of-memory error, "raise" a MemoryError or re-run the subtree on the "cpu".
    progress : show a progress bar for reads and queries that run longer than ``progress_after`` seconds.
    progress_after : seconds a run lasts before its progress bar appears.
    """

    engine: str = field(default_factory=lambda: os.environ.get("GFRAME_ENGINE", "auto").lower())
    fallback: str = field(default_factory=lambda: os.environ.get("GFRAME_FALLBACK", "silent").lower())
    optimize: bool = field(default_factory=lambda: _env_bool("GFRAME_OPTIMIZE", True))
    disabled_passes: frozenset[str] = field(
        default_factory=lambda: frozenset(
            p.strip() for p in os.environ.get("GFRAME_DISABLED_PASSES", "").split(",") if p.strip()
        )
    )
    verify_optimizer: bool = field(default_factory=lambda: _env_bool("GFRAME_VERIFY_OPTIMIZER", False))
    gpu_memory: str = field(default_factory=lambda: os.environ.get("GFRAME_GPU_MEMORY", "managed").lower())
    oom: str = field(default_factory=lambda: os.environ.get("GFRAME_OOM", "raise").lower())
    progress: bool = field(default_factory=lambda: _env_bool("GFRAME_PROGRESS", True))
    progress_after: float = field(default_factory=lambda: float(os.environ.get("GFRAME_PROGRESS_AFTER", "2")))

    def __post_init__(self) -> None:
        for f in fields(self):
            self._check(f.name, getattr(self, f.name))

    def _check(self, name: str, value: Any) -> None:
        choices = _CHOICES.get(name)
        if choices is not None and value not in choices:
            raise ValueError(f"gframe option {name!r} must be one of {choices}, got {value!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in {f.name for f in fields(self)}:
            raise AttributeError(f"gframe has no option {name!r}")
        if name == "disabled_passes":
            value = frozenset(value)
        self._check(name, value)
        object.__setattr__(self, name, value)


options = Options()


@contextlib.contextmanager
def option_context(**kwargs: Any) -> Iterator[Options]:
    """Set options for the duration of a ``with`` block, like ``pandas.option_context``.

    >>> import gframe
    >>> with gframe.option_context(fallback="raise"):
    ...     pass
    """
    saved = {k: getattr(options, k) for k in kwargs}
    try:
        for k, v in kwargs.items():
            setattr(options, k, v)
        yield options
    finally:
        for k, v in saved.items():
            setattr(options, k, v)
