"""The inventory of pandas' public API on gframe, by introspection: what is native, what falls back.

Every public name of ``pandas`` (the top-level namespace) and of its user-facing classes
(``DataFrame``, ``Series``, ``Index``, ``MultiIndex``, the two GroupBys, ``Rolling``/``Expanding``/
``EWM``, ``Resampler`` and the ``.str``/``.dt``/``.cat``/``.sparse`` accessors) is classed:

- **native**: gframe defines it and its signature takes every argument of pandas' signature;
- **partial**: gframe defines it, but some of pandas' arguments (named) or some inputs (declared
  by the method: ``objects_via_pandas``) run through pandas for that call (``frontend/bridge.py``,
  ``full_signatures``: the call is routed whole, recorded);
- **fallback**: gframe does not define it; it resolves through the class's ``__getattr__`` to
  pandas (or the object is a ``PandasProxy``), recorded;
- **shared** (top level only): pandas' own object re-exported as is (scalars, dtypes, exceptions).

The inventory is derived from the code, not written by hand, so it cannot drift: the table in
``docs/api-coverage.md`` is its rendering and ``tests/test_api_coverage.py`` fails when the file is
stale or when a pandas public name does not resolve on gframe. Regenerate with
``python -m gframe.testing.api_coverage --write docs/api-coverage.md``.
"""
from __future__ import annotations

import argparse
import inspect
import sys
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas

import gframe
from gframe.config import option_context
from gframe.frontend.bridge import PandasProxy

NATIVE, PARTIAL, FALLBACK, SHARED = "native", "partial", "fallback", "shared"
REGENERATE = "python -m gframe.testing.api_coverage --write docs/api-coverage.md"


@dataclass(frozen=True)
class Entry:
    name: str
    status: str
    detail: str = ""


@dataclass
class ClassCoverage:
    label: str
    pandas_type: type
    gframe_type: type | None  # None: every call goes through a PandasProxy
    entries: list[Entry] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # pandas names that do not resolve on gframe

    def count(self, status: str) -> int:
        return sum(e.status == status for e in self.entries)


# ------------------------------------------------------------------ the sample objects
# each builds the same object from a pandas-like module: run once with pandas, once with gframe

def _frame(pd: Any) -> Any:
    return pd.DataFrame({"a": [1, 2, 1], "b": [1.5, 2.5, 3.5], "s": ["x", "y", "z"]})


def _dated(pd: Any) -> Any:
    return pd.DataFrame({"v": [1.0, 2.0, 3.0]}, index=pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-04"]))


SAMPLES: list[tuple[str, type, Callable[[Any], Any]]] = [
    ("DataFrame", pandas.DataFrame, _frame),
    ("Series", pandas.Series, lambda pd: _frame(pd)["b"]),
    ("Index", pandas.Index, lambda pd: _frame(pd).set_index("s").index),
    ("MultiIndex", pandas.MultiIndex, lambda pd: _frame(pd).set_index(["a", "s"]).index),
    ("DataFrameGroupBy", pandas.api.typing.DataFrameGroupBy, lambda pd: _frame(pd).groupby("a")),
    ("SeriesGroupBy", pandas.api.typing.SeriesGroupBy, lambda pd: _frame(pd).groupby("a")["b"]),
    ("Rolling", pandas.api.typing.Rolling, lambda pd: _frame(pd)[["a", "b"]].rolling(2)),
    ("Expanding", pandas.api.typing.Expanding, lambda pd: _frame(pd)[["a", "b"]].expanding()),
    ("ExponentialMovingWindow", pandas.api.typing.ExponentialMovingWindow, lambda pd: _frame(pd)[["a", "b"]].ewm(com=1)),
    ("Resampler", pandas.api.typing.Resampler, lambda pd: _dated(pd).resample("D")),
    ("Series.str", pandas.core.strings.accessor.StringMethods, lambda pd: _frame(pd)["s"].str),
    ("Series.dt", pandas.core.indexes.accessors.DatetimeProperties, lambda pd: _dated(pd).reset_index()["index"].dt),
    ("Series.cat", pandas.core.arrays.categorical.CategoricalAccessor,
     lambda pd: _frame(pd)["s"].astype("category").cat),
    ("Series.sparse", pandas.core.arrays.sparse.accessor.SparseAccessor,
     lambda pd: pd.Series(pandas.arrays.SparseArray([0, 1, 0])).sparse),
]


def public_names(obj: Any) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))


# ------------------------------------------------------------------ classing one name

def _gframe_owner(gtype: type, name: str) -> Any:
    """The attribute as gframe's own class (or a gframe base) defines it, or None."""
    for klass in gtype.__mro__:
        if klass.__module__.startswith("gframe.") and name in klass.__dict__:
            return klass.__dict__[name]
    return None


def _params(fn: Any) -> tuple[list[str], int, bool] | None:
    """(named parameters but the first, how many of them may be positional, takes any keyword) of a
    function, or None if unknowable."""
    try:  # (the function gframe wrote: its full-signature wrapper shows pandas' signature)
        sig = inspect.signature(inspect.unwrap(fn))
    except (TypeError, ValueError):
        return None
    ps = list(sig.parameters.values())[1:]
    names = [p.name for p in ps if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    n_positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in ps)
    return names, n_positional, any(p.kind is p.VAR_KEYWORD for p in ps)


def classify(pandas_type: type, gtype: type | None, name: str) -> Entry:
    own = None if gtype is None else _gframe_owner(gtype, name)
    if own is None:
        return Entry(name, FALLBACK, "through pandas")
    if isinstance(own, (classmethod, staticmethod)):
        own = own.__func__
    if not isinstance(own, types.FunctionType):
        return Entry(name, NATIVE, "property" if isinstance(own, property) else "")
    notes = []
    when = getattr(own, "__gframe_falls_back_when__", None)
    if when:
        notes.append(f"{when} via pandas")
    theirs = inspect.getattr_static(pandas_type, name, None)
    if isinstance(theirs, (classmethod, staticmethod)):
        theirs = theirs.__func__
    mine, ours = _params(own), _params(theirs) if callable(theirs) else None
    if mine is not None and ours is not None and not mine[2]:
        names, n_positional, _ = mine
        absent, by_keyword = [], []
        for i, p in enumerate(ours[0]):
            if p not in names:
                # a parameter gframe names otherwise is native when passed by position
                (by_keyword if i < min(n_positional, ours[1]) else absent).append(f"`{p}`")
        if absent:
            notes.insert(0, "via pandas when given " + ", ".join(absent))
        if by_keyword:
            notes.insert(len(absent) > 0, "via pandas when " + ", ".join(by_keyword) + " is passed by keyword")
    return Entry(name, PARTIAL if notes else NATIVE, "; ".join(notes))


def class_coverage(label: str, pandas_type: type, build: Callable[[Any], Any]) -> ClassCoverage:
    with option_context(fallback="silent"):
        g = build(gframe)
    p = build(pandas)
    gtype = None if isinstance(g, PandasProxy) else type(g)
    out = ClassCoverage(label, pandas_type, gtype)
    for name in public_names(pandas_type):
        out.entries.append(classify(pandas_type, gtype, name))
        if not _resolves(g, p, name):
            out.missing.append(name)
    return out


def _resolves(g: Any, p: Any, name: str) -> bool:
    """Whether ``g.name`` resolves as ``p.name`` does: an AttributeError only where pandas raises one
    too (``.sparse.to_coo`` on a Series without a MultiIndex...). Other errors mean it resolved."""
    with option_context(fallback="silent"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading deprecated names (``dt.daysinmonth``) warns
        try:
            getattr(g, name)
            return True
        except AttributeError:
            pass
        except Exception:  # noqa: BLE001 - it resolved and then failed computing, as pandas may
            return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(p, name)
    except AttributeError:
        return True
    except Exception:  # noqa: BLE001
        return False
    return False


def namespace_coverage() -> ClassCoverage:
    out = ClassCoverage("pandas (top level)", types.ModuleType, None)
    own = vars(gframe)
    for name in public_names(pandas):
        mine = own.get(name, None)
        theirs = getattr(pandas, name)
        if name in own and mine is not theirs:
            out.entries.append(Entry(name, NATIVE))
        elif name in own or not (callable(theirs) and not isinstance(theirs, type)):
            out.entries.append(Entry(name, SHARED, "pandas' object"))
        else:
            out.entries.append(Entry(name, FALLBACK, "through pandas"))
        if not hasattr(gframe, name):
            out.missing.append(name)
    return out


def inventory() -> list[ClassCoverage]:
    return [namespace_coverage()] + [class_coverage(label, ptype, build) for label, ptype, build in SAMPLES]


# ------------------------------------------------------------------ rendering

def _share(n: int, total: int) -> str:
    return f"{100 * n / total:.0f}%" if total else "-"


def render(inv: list[ClassCoverage] | None = None) -> str:
    inv = inventory() if inv is None else inv
    lines = [
        "# pandas API coverage",
        "",
        "<!-- generated by gframe/testing/api_coverage.py: do not edit by hand -->",
        f"Generated from pandas {pandas.__version__}'s public API by introspection (`{REGENERATE}`);",
        "`tests/test_api_coverage.py` fails when this file is stale or a pandas name does not resolve on gframe.",
        "",
        "- **native**: gframe defines it and takes every argument of pandas' signature natively.",
        "- **partial**: gframe defines it; the arguments or inputs named run the call through pandas.",
        "- **fallback**: the call runs through pandas (recorded in `fallback_report()`), with pandas' answer.",
        "- **shared**: pandas' own object, re-exported as is (scalars, dtypes, exceptions, modules).",
        "",
        "Every signature is pandas' full signature: a call gframe does not implement natively falls back",
        "for that call (`frontend/bridge.py`, `full_signatures`), it is never refused.",
        "",
        "## Summary",
        "",
        "| API | names | native | partial | fallback | shared | native share | native or partial |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    tot = dict.fromkeys((NATIVE, PARTIAL, FALLBACK, SHARED), 0)
    for c in inv:
        n = len(c.entries)
        counts = {s: c.count(s) for s in tot}
        for s in tot:
            tot[s] += counts[s]
        lines.append(f"| {c.label} | {n} | {counts[NATIVE]} | {counts[PARTIAL]} | {counts[FALLBACK]} | {counts[SHARED]} "
                     f"| {_share(counts[NATIVE], n)} | {_share(counts[NATIVE] + counts[PARTIAL], n)} |")
    n = sum(tot.values())
    lines.append(f"| **all** | {n} | {tot[NATIVE]} | {tot[PARTIAL]} | {tot[FALLBACK]} | {tot[SHARED]} "
                 f"| {_share(tot[NATIVE], n)} | {_share(tot[NATIVE] + tot[PARTIAL], n)} |")
    missing = [f"{c.label}.{m}" for c in inv for m in c.missing]
    lines += ["", f"Names that do not resolve on gframe: {', '.join(missing) if missing else 'none'}.", ""]
    for c in inv:
        lines += [f"## {c.label}", ""]
        if c.gframe_type is None and c.label != "pandas (top level)":
            lines += [("gframe has no class of its own here: the object is pandas' behind a `PandasProxy`, "
                       "and every call on it runs through pandas."), ""]
        lines += ["| name | status | detail |", "|---|---|---|"]
        lines += [f"| `{e.name}` | {e.status} | {e.detail} |" for e in c.entries]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Render gframe's pandas API coverage table.")
    ap.add_argument("--write", metavar="PATH", help="write the markdown there (default: print it)")
    ns = ap.parse_args(argv)
    np.seterr(all="ignore")
    text = render()
    if ns.write:
        with open(ns.write, "w") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
