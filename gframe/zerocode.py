"""Zero-code-change mode: unmodified ``import pandas as pd`` code runs on gframe.

``python -m gframe script.py`` and ``%load_ext gframe`` (IPython/Jupyter) install an import hook:
``import pandas`` (and ``from pandas import ...``) written in *user code* gives the ``gframe``
module, while every other importer keeps real pandas - gframe itself (its fallback runs pandas),
the standard library, and third-party libraries (scikit-learn, matplotlib, seaborn...), which then
receive gframe objects through the Arrow and array protocols.

Why ``builtins.__import__`` and not a ``sys.meta_path`` finder: a finder is only asked when the
module is not in ``sys.modules``, and real pandas is there as soon as gframe is imported; the
decision must be made per import statement, from the importing module's file. User code is code
outside site-packages, the standard library and the gframe package (a script, a notebook cell, the
user's own modules next to it). Submodules named explicitly (``from pandas.api.types import ...``)
stay pandas' own: gframe has no counterpart for them.
"""
from __future__ import annotations

import builtins
import os
import sys
import sysconfig
from typing import Any

_original_import = builtins.__import__
_installed = False


def _library_dirs() -> tuple[str, ...]:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            dirs.add(os.path.realpath(path))
    for path in sys.path:
        if path and os.path.basename(path) in ("site-packages", "dist-packages"):
            dirs.add(os.path.realpath(path))
    dirs.add(os.path.realpath(os.path.dirname(os.path.abspath(__file__))))  # gframe's own package
    return tuple(d.rstrip(os.sep) + os.sep for d in dirs)


_LIBRARY_DIRS: tuple[str, ...] = ()
# where the user's code lives: the script's folder (``python -m gframe script.py``), else the working
# directory. A library installed outside site-packages (``pip --target`` on PYTHONPATH, a vendored
# copy) must keep real pandas: only files under these roots count as the user's
_USER_ROOTS: tuple[str, ...] = ()


def is_user_code(globals_: dict[str, Any] | None) -> bool:
    """Whether the module with these globals is the user's (a script, a notebook cell, a module
    of theirs) rather than a library's (site-packages, the standard library, gframe)."""
    if not globals_:
        return False
    filename = globals_.get("__file__")
    if filename is None:
        # a notebook cell, ``python -c``, exec'd code: user code when it runs as the main module
        return globals_.get("__name__") == "__main__"
    path = os.path.realpath(filename)
    return path.startswith(_USER_ROOTS) and not path.startswith(_LIBRARY_DIRS) \
        and not {"site-packages", "dist-packages"} & set(path.split(os.sep))


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    if level == 0 and (name == "pandas" or (name.startswith("pandas.") and not fromlist)) and is_user_code(globals):
        if name != "pandas":
            _original_import(name, globals, locals, fromlist, level)  # ``import pandas.x``: load it
        return sys.modules["gframe"]  # loaded before any of its submodules, this one included
    return _original_import(name, globals, locals, fromlist, level)


def install(user_root: str | None = None) -> None:
    """Route user code's ``import pandas`` to gframe (idempotent); user code is code under
    ``user_root`` (default: the working directory) outside the libraries' folders."""
    global _installed, _LIBRARY_DIRS, _USER_ROOTS
    if _installed:
        return
    _LIBRARY_DIRS = _library_dirs()
    _USER_ROOTS = (os.path.realpath(user_root or os.getcwd()).rstrip(os.sep) + os.sep,)
    builtins.__import__ = _import
    _installed = True


def uninstall() -> None:
    """Give user code real pandas again."""
    global _installed
    if _installed and builtins.__import__ is _import:
        builtins.__import__ = _original_import
    _installed = False


def summary() -> str:
    """The one-line account of pandas fallbacks printed at the end of a zero-code-change run."""
    from gframe.fallback import fallback_report

    events = [e for e in fallback_report() if e.kind == "pandas"]
    if not events:
        return "gframe: every call ran natively (no pandas fallbacks)"
    counts: dict[str, int] = {}
    for e in events:
        counts[e.api] = counts.get(e.api, 0) + 1
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{api} x{n}" if n > 1 else api for api, n in top[:5])
    more = f", and {len(top) - 5} more" if len(top) > 5 else ""
    rows = sum(e.rows for e in events)
    seconds = sum(e.seconds for e in events)
    return (f"gframe: {len(events)} call(s) ran through pandas ({shown}{more}); {rows} rows moved, "
            f"{seconds:.3f}s; gframe.fallback_report() lists them")


def run(argv: list[str]) -> int:
    """``python -m gframe [-m module | script.py] [args]``: run it with user imports of pandas on gframe."""
    import runpy

    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    install(os.path.dirname(os.path.abspath(argv[0])) if argv[0] != "-m" else None)
    code = 0
    try:
        if argv[0] == "-m":
            if len(argv) < 2:
                print(USAGE, file=sys.stderr)
                return 2
            sys.argv = argv[1:]
            runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        else:
            script = argv[0]
            sys.argv = list(argv)
            sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
            runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    finally:
        sys.stdout.flush()
        print(summary(), file=sys.stderr)
    return code


USAGE = """usage: python -m gframe script.py [args...]      run an unmodified pandas script on gframe
       python -m gframe -m module [args...]       the same for a module
       python -m gframe --lint script.py [...]    list the calls gframe would run through pandas

In the script, `import pandas` gives gframe; libraries keep real pandas. At the end, a one-line
summary of pandas fallbacks goes to stderr. In IPython/Jupyter: %load_ext gframe"""


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext gframe``: later ``import pandas`` in cells gives gframe."""
    install()


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext gframe``: cells get real pandas again."""
    uninstall()
