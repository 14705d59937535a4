"""A progress bar for runs that take a while: reads and queries longer than ``options.progress_after``.

The evaluator reports each node as it finishes (``RunStats.progress``); nothing is shown until the
run has lasted ``progress_after`` seconds (one shared watcher thread makes it appear during a long
read, not only at the next node; no thread is started per run), so quick queries - nearly all of
them - print nothing. ``tqdm`` draws the bar where it is installed (``pip install gframe[progress]``;
in Jupyter its widget); without it a one-line status on stderr does. Switched by ``gframe.options.progress`` (``GFRAME_PROGRESS=0`` turns it off).
"""
from __future__ import annotations

import sys
import threading
import time
from typing import Any

from gframe.plan.logical import Plan

_active: set["Bar"] = set()  # runs in progress, looked at by the watcher
_watcher: list[threading.Thread] = []
_TICK = 0.25  # seconds between the watcher's looks


def _watch() -> None:
    while True:
        time.sleep(_TICK)
        now = time.perf_counter()
        for bar in list(_active):
            if now - bar.t0 >= bar.after:
                bar._show()


def _ensure_watcher() -> None:
    if not _watcher:
        t = threading.Thread(target=_watch, name="gframe-progress", daemon=True)
        _watcher.append(t)
        t.start()


def _label(node: Plan) -> str:
    text = node.describe()
    return text if len(text) <= 60 else text[:57] + "..."


class Bar:
    """One run's progress: ``start(total)``, ``advance(node)`` per node, ``close()`` at the end."""

    def __init__(self, after: float, file: Any = None) -> None:
        self.after = after
        self.file = file if file is not None else sys.stderr
        self.total = 0
        self.done = 0
        self.current = ""
        self.shown: Any = None  # the tqdm bar, or True for the plain status line
        self.t0 = time.perf_counter()
        self._lock = threading.Lock()
        self.closed = False

    # ------------------------------------------------------------------ the evaluator's side
    def start(self, total: int) -> None:
        self.total = total
        self.t0 = time.perf_counter()
        _ensure_watcher()
        _active.add(self)

    def advance(self, node: Plan) -> None:
        with self._lock:
            self.done += 1
            self.current = _label(node)
            if self.shown is None and time.perf_counter() - self.t0 >= self.after:
                self._open()
            self._draw()

    def close(self) -> None:
        _active.discard(self)
        with self._lock:
            self.closed = True
            if self.shown is None:
                return
            if self.shown is True:
                self.file.write("\n")
                self.file.flush()
            else:
                self.shown.close()

    # ------------------------------------------------------------------------------ display
    def _show(self) -> None:
        with self._lock:
            if self.shown is None and not self.closed:
                _active.discard(self)  # shown: advance() draws from now on
                self._open()
                self._draw()

    def _open(self) -> None:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            self.shown = True
            return
        self.shown = tqdm(total=self.total, initial=self.done, desc="gframe", unit="node", file=self.file,
                          leave=False)

    def _draw(self) -> None:
        if self.shown is None:
            return
        if self.shown is True:
            elapsed = time.perf_counter() - self.t0
            self.file.write(f"\rgframe: {self.done}/{self.total} nodes, {elapsed:.1f} s  {self.current}\033[K")
            self.file.flush()
        else:
            self.shown.n = self.done
            self.shown.set_postfix_str(self.current, refresh=False)
            self.shown.refresh()
