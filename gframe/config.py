"""Configuration in one place: pandas' own options tree, with gframe's settings under ``gframe.``.

There is one configuration object, pandas' registry (``pandas._config``): gframe registers its
settings there, so ``pd.options.gframe.engine``, ``pd.set_option("gframe.fallback", "raise")``,
``pd.options.display.max_rows = 20`` and ``pd.options.mode.copy_on_write = True`` all read and write
the same values, with pandas' validation and pandas' errors (``OptionError``, a ``KeyError`` and
``AttributeError``, for an unknown key; ``ValueError`` for a bad value). Why not a tree of our own:
pandas code sets pandas' options (``display.*`` changes the repr, ``mode.*`` changes semantics), and a
second tree would drift from the first.

``gframe.options`` is pandas' options tree with one convenience: gframe's own keys are also reachable
without the ``gframe.`` prefix (``options.engine`` is ``get_option("gframe.engine")``), which is how
the engines, optimizer and fallback read them.

Defaults come from ``GFRAME_*`` environment variables, read once at import. Nothing else in gframe
reads ``os.environ``: kernels and passes receive the values they need from here.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Callable, Iterable, Iterator

from pandas._config import config as _cfg
from pandas._config.config import (
    DictWrapper,
    OptionError,
    describe_option,
    get_option,
    reset_option,
    set_option,
)

__all__ = ["options", "option_context", "get_option", "set_option", "reset_option", "describe_option",
           "OptionError", "GFRAME_KEYS"]

_PREFIX = "gframe"


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


def _one_of(key: str, choices: tuple[str, ...]) -> Callable[[Any], None]:
    def validate(value: Any) -> None:
        if value not in choices:
            raise ValueError(f"gframe option {key!r} must be one of {choices}, got {value!r}")

    return validate


def _is_bool(key: str) -> Callable[[Any], None]:
    def validate(value: Any) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"gframe option {key!r} must be a bool, got {value!r}")

    return validate


def _non_negative(key: str) -> Callable[[Any], None]:
    def validate(value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"gframe option {key!r} must be a number of seconds >= 0, got {value!r}")

    return validate


def _names(key: str) -> Callable[[Any], None]:
    def validate(value: Any) -> None:
        if isinstance(value, str) or not isinstance(value, Iterable) or not all(isinstance(v, str) for v in value):
            raise ValueError(f"gframe option {key!r} must be a collection of pass names, got {value!r}")

    return validate


def _freeze(key: str) -> None:
    """Callback after a set: store pass names as a frozenset, whatever collection was given."""
    root, k = _cfg._get_root(key)
    root[k] = frozenset(root[k])


# name -> (default read once from the environment, doc, validator, callback)
_SPEC: dict[str, tuple[Any, str, Callable[[Any], None], Callable[[str], None] | None]] = {
    "engine": (os.environ.get("GFRAME_ENGINE", "auto").lower(),
               ": str\n    'auto' (GPU when pylibcudf and a device are present, else CPU), 'cpu' or 'gpu'.\n"
               "    [default from GFRAME_ENGINE]",
               _one_of("engine", ("auto", "cpu", "gpu")), None),
    "fallback": (os.environ.get("GFRAME_FALLBACK", "silent").lower(),
                 ": str\n    What a call that runs through pandas does: 'silent' (record only), 'warn' or\n"
                 "    'raise' (FallbackError). [default from GFRAME_FALLBACK]",
                 _one_of("fallback", ("silent", "warn", "raise")), None),
    "optimize": (_env_bool("GFRAME_OPTIMIZE", True),
                 ": bool\n    Run the optimizer's passes before execution. [default from GFRAME_OPTIMIZE]",
                 _is_bool("optimize"), None),
    "disabled_passes": (frozenset(p.strip() for p in os.environ.get("GFRAME_DISABLED_PASSES", "").split(",")
                                  if p.strip()),
                        ": frozenset of str\n    Names of optimizer passes to skip.\n"
                        "    [default from GFRAME_DISABLED_PASSES, comma-separated]",
                        _names("disabled_passes"), _freeze),
    "verify_optimizer": (_env_bool("GFRAME_VERIFY_OPTIMIZER", False),
                         ": bool\n    Execute every plan with and without the optimizer and assert equal results.\n"
                         "    [default from GFRAME_VERIFY_OPTIMIZER]",
                         _is_bool("verify_optimizer"), None),
    "gpu_memory": (os.environ.get("GFRAME_GPU_MEMORY", "async").lower(),
                   ": str\n    RMM allocator set up at the first GPU execution: 'async' (default), 'managed', 'pool' or 'cuda'.\n"
                   "    [default from GFRAME_GPU_MEMORY]",
                   _one_of("gpu_memory", ("managed", "pool", "async", "cuda")), None),
    "oom": (os.environ.get("GFRAME_OOM", "raise").lower(),
            ": str\n    On a GPU out-of-memory error, 'raise' a MemoryError or re-run the subtree on the 'cpu'.\n"
            "    [default from GFRAME_OOM]",
            _one_of("oom", ("raise", "cpu")), None),
    "progress": (_env_bool("GFRAME_PROGRESS", True),
                 ": bool\n    Show a progress bar for reads and queries that run longer than progress_after.\n"
                 "    [default from GFRAME_PROGRESS]",
                 _is_bool("progress"), None),
    "progress_after": (float(os.environ.get("GFRAME_PROGRESS_AFTER", "2")),
                       ": float\n    Seconds a run lasts before its progress bar appears.\n"
                       "    [default from GFRAME_PROGRESS_AFTER]",
                       _non_negative("progress_after"), None),
}

GFRAME_KEYS: tuple[str, ...] = tuple(_SPEC)

if f"{_PREFIX}.engine" not in _cfg._registered_options:  # a re-import must not register twice
    with _cfg.config_prefix(_PREFIX):
        for _key, (_default, _doc, _validator, _cb) in _SPEC.items():
            _cfg.register_option(_key, _default, _doc, validator=_validator, cb=_cb)

_GFRAME_TREE: dict[str, Any] = _cfg._global_config[_PREFIX]


def _alias(key: str) -> property:
    """``options.<key>`` as ``gframe.<key>``: a property (a data descriptor), so that tools which
    save and restore attributes (pytest's ``monkeypatch.setattr``) restore it through ``set_option``."""

    def get(self: Options) -> Any:
        return _GFRAME_TREE[key]  # the registry's own dict: the one place the value lives

    def put(self: Options, val: Any) -> None:
        set_option(f"{_PREFIX}.{key}", val)

    return property(get, put, doc=_SPEC[key][1])


class Options(DictWrapper):
    """pandas' options tree (``pd.options``), plus gframe's keys without their ``gframe.`` prefix.

    Reads of gframe's keys go straight to the registry's dict: engines read ``options.engine`` on
    every execution.
    """

    def __setattr__(self, key: str, val: Any) -> None:
        if key in _GFRAME_TREE and key not in _cfg._global_config:
            object.__setattr__(self, key, val)  # the alias property: set_option, validated
        else:
            super().__setattr__(key, val)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(_GFRAME_TREE))

    def __repr__(self) -> str:
        return f"<gframe options: pandas' options tree + {', '.join(f'{k}={v!r}' for k, v in _GFRAME_TREE.items())}>"


for _key in _SPEC:
    setattr(Options, _key, _alias(_key))

options = Options(_cfg._global_config)
object.__setattr__(options, "__module__", "gframe")


@contextlib.contextmanager
def option_context(*args: Any, **kwargs: Any) -> Iterator[Options]:
    """Set options for the duration of a ``with`` block: ``pandas.option_context``'s signature
    (``"display.max_rows", 10, "gframe.fallback", "raise"`` pairs, or one dict), plus gframe's short
    keyword form (``option_context(fallback="raise")`` sets ``gframe.fallback``).

    >>> import gframe
    >>> with gframe.option_context("display.max_rows", 5, fallback="raise"):
    ...     pass
    """
    if len(args) == 1 and isinstance(args[0], dict):
        args = tuple(x for kv in args[0].items() for x in kv)
    pairs = list(args)
    for k, v in kwargs.items():
        if k not in _GFRAME_TREE:
            raise OptionError(f"No such gframe option: {k!r}")
        pairs += [f"{_PREFIX}.{k}", v]
    with _cfg.option_context(*pairs):
        yield options
