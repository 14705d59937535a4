"""Differential fuzzer: random pandas pipelines run on pandas and on gframe, compared exactly.

Why: a user switching from pandas must be able to trust every number. Hand-written tests cover what
their authors thought of; this module draws frames (every dtype gframe claims, nulls, NaN/inf, edge
values, duplicate keys, odd indexes) and pipelines of native operations at random, runs each on
pandas and on gframe (optimizer on and off), and reports every difference: values, dtypes, index,
names, order, and exception types.

Design
------
* A :class:`Case` is data: input frames (:class:`Frame`, columns of literal values) and a list of
  :class:`Step` (one line of pandas code each). ``Case.code()`` prints it as a runnable pandas
  snippet, and the shrinker edits the data.
* Steps are drawn one at a time *against pandas' actual state* (each drawn step is executed on
  pandas before the next is drawn), so every step fits the current columns and dtypes without the
  fuzzer re-implementing pandas' dtype rules. A step that makes pandas raise is sometimes kept as the
  last step, to compare exception types.
* Input frames are built with pandas from the literal code, then handed to ``gframe.DataFrame`` (the
  conversion path every user takes); the pipeline itself runs on the gframe objects.
* Results are compared with pandas' own asserters, floats to 1e-9 relative (no absolute slack).
  Sorting always uses ``kind="stable"``: pandas' default quicksort leaves the order of ties undefined
  (see docs/fuzzing.md), and comparing an undefined order would only produce noise.
* Isolation: the CLI runs cases in worker subprocesses that announce each case before running it, so
  a segfault or a hang is attributed to exactly one case; that case is re-run alone to confirm.

Only the public API (``import gframe``, ``gframe.options``) is used, so the fuzzer survives refactors.

CLI::

    python -m gframe.testing.fuzz --seed 0 --n 20000 --engine cpu --optimizer both --jobs 2 --out DIR
    python -m gframe.testing.fuzz --case 17 --shrink          # one case, shrunk, printed as pandas code
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import datetime
import decimal
import io
import json
import math
import os
import random
import re
import selectors
import subprocess
import sys
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas
import pandas.testing as pdt

__all__ = ["Case", "CaseResult", "Column", "Failure", "Frame", "Step", "check_code", "classify", "generate", "main",
           "run_case", "shrink", "triage"]

RTOL = 1e-9
CASE_TIMEOUT_S = 30.0
PIPELINE_MARK = "# --- pipeline (runs on pandas and on gframe) ---"

# ----------------------------------------------------------------------------------------------------
# data model


@dataclass(frozen=True)
class Column:
    """One input column: literal values plus the dtype pandas builds them into."""

    name: str
    dtype: str  # pandas dtype string, or "category" (with categories/ordered)
    values: tuple
    categories: tuple | None = None
    ordered: bool = False

    def values_code(self) -> str:
        if self.dtype in ARROW_TYPES:  # built directly: the ArrowDtype of the kind, nulls as nulls
            return f"pd.array({_lit_list(self.values)}, dtype=pd.ArrowDtype({ARROW_TYPES[self.dtype]}))"
        if self.dtype in NULLABLE:  # built directly: a list with None would pass through float64
            return f"pd.array({_lit_list(self.values)}, dtype={self.dtype!r})"
        return _lit_list(self.values)

    def dtype_code(self) -> str | None:
        if self.dtype in NULLABLE or self.dtype in ARROW_TYPES:
            return None
        if self.dtype == "category":
            return f"pd.CategoricalDtype({list(self.categories or ())!r}, ordered={self.ordered})"
        if self.dtype in ("str", "float64", "int64", "bool") and self.values and not _has_none(self.values):
            return None  # pandas infers it from the literal
        return repr(self.dtype)


@dataclass(frozen=True)
class Frame:
    """An input frame: columns, and an index (None = default RangeIndex)."""

    var: str
    columns: tuple[Column, ...]
    index: tuple | None = None
    index_name: str | None = None

    def code(self) -> str:
        cols = ", ".join(f"{c.name!r}: {c.values_code()}" for c in self.columns)
        args = [f"{{{cols}}}"]
        if self.index is not None:
            args.append(f"index=pd.Index({_lit_list(self.index)}, name={self.index_name!r})")
        elif not self.columns:
            args.append("index=pd.RangeIndex(0)")
        line = f"{self.var} = pd.DataFrame({', '.join(args)})"
        casts = {c.name: c.dtype_code() for c in self.columns}
        casts = {k: v for k, v in casts.items() if v is not None}
        if casts:
            line += ".astype({" + ", ".join(f"{k!r}: {v}" for k, v in casts.items()) + "})"
        return line


@dataclass(frozen=True)
class Step:
    """One pipeline step: a line of pandas code over ``df`` (and ``df2``), plus its operation name."""

    op: str
    code: str


@dataclass(frozen=True)
class Case:
    seed: int
    frames: tuple[Frame, ...]
    steps: tuple[Step, ...]

    def setup_code(self, all_frames: bool = False) -> str:
        """The inputs' code; frames no step uses are left out of the printed repro (not of a run:
        generation draws steps against every frame, so leaving one out would change the draw)."""
        used = "\n".join(s.code for s in self.steps)
        return "\n".join(f.code() for f in self.frames if all_frames or f.var == "df" or f.var in used)

    def pipeline_code(self) -> str:
        return "\n".join(s.code for s in self.steps)

    def code(self) -> str:
        """A standalone pandas snippet; ``result`` is what is compared."""
        body = f"{self.setup_code()}\n{PIPELINE_MARK}\n{self.pipeline_code()}\nresult = df\n"
        return "import numpy as np\nimport pandas as pd\n" + _extra_imports(body) + "nan, inf = float('nan'), float('inf')\n" + body

    def ops(self) -> list[str]:
        return [s.op for s in self.steps]


def _extra_imports(code: str) -> str:
    """The imports a snippet needs beyond numpy/pandas (Arrow types, date and decimal scalars), only
    where it uses them, so the repros of numpy-only cases read as before."""
    out = ""
    if "pa." in code:
        out += "import pyarrow as pa\n"
    if "datetime." in code:
        out += "import datetime\n"
    if "Decimal(" in code:
        out += "from decimal import Decimal\n"
    return out


def _has_none(values: Iterable) -> bool:
    return any(v is None for v in values)


def _lit(v: Any) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return repr(v)


def _lit_list(values: Iterable) -> str:
    return "[" + ", ".join(_lit(v) for v in values) + "]"


# ----------------------------------------------------------------------------------------------------
# frame generation

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOAT_DTYPES = ["float32", "float64"]
DT_DTYPES = ["datetime64[ns]", "datetime64[us]", "datetime64[ms]", "datetime64[s]"]
NULLABLE = ["Int64", "Float64", "boolean", "string"]
# pandas' ArrowDtype columns gframe claims: kind name (what ``--exclude`` takes) -> the pyarrow type.
# Kinds are drawn after the numpy/nullable ones, so ``--exclude arrow`` reproduces the draws of the
# campaigns before they were added (same seeds, same cases).
ARROW_TYPES = {
    "pa_int64": "pa.int64()", "pa_double": "pa.float64()", "pa_bool": "pa.bool_()", "pa_string": "pa.string()",
    "pa_large_string": "pa.large_string()", "pa_date32": "pa.date32()", "pa_timestamp": "pa.timestamp('us')",
    "pa_timestamp_tz": "pa.timestamp('us', tz='UTC')", "pa_duration": "pa.duration('us')",
    "pa_decimal": "pa.decimal128(10, 2)",
}
ARROW_KINDS = list(ARROW_TYPES)
ALL_KINDS = INT_DTYPES + FLOAT_DTYPES + ["bool", "str"] + DT_DTYPES + ["category"] + NULLABLE + ARROW_KINDS
KIND_GROUPS = {"arrow": ARROW_KINDS, "nullable": NULLABLE}  # names ``--exclude`` expands
STRS = ["a", "b", "ab", "Ab", "ba", " x ", "", "abc", "B"]
DATES = ["2020-01-01", "2020-01-01 12:30:00", "2021-06-15 08:00:01", "1999-12-31 23:59:59",
         "1970-01-01", "2024-02-29", "2020-01-02"]
ROW_CHOICES = [0, 1, 2, 3, 4, 5, 7, 10, 16, 40]
# Arrow pools: edge values Arrow can hold and numpy cannot (dates far outside datetime64[ns], the
# microsecond), decimals at the type's bounds, non-ASCII strings (case mapping differs by library)
ARROW_STRS = STRS + ["\u00e9", "\u00df", "A\u00c9"]
DATES32 = ["2020-01-01", "2021-06-15", "1999-12-31", "1970-01-01", "2024-02-29", "2020-01-02", "1900-03-01",
           "9999-12-31", "0001-01-01"]
ARROW_TS = DATES + ["3000-01-01", "1500-05-05 01:02:03", "2020-01-01 00:00:00.000001"]
DURATIONS_US = [0, 1, 1_000_000, 86_400_000_000, -3_600_000_000, 10**15, -1, 1_500]
DECIMALS = ["1.50", "0", "-3", "0.01", "99999999.99", "-99999999.99", "2.25", "100", "-0.01"]


def _int_values(rng: random.Random, dtype: str, n: int, pool_small: bool) -> list:
    info = np.iinfo(dtype)
    small = [0, 1, 2, 3, 5, -1, -2, -7, 10, 100]
    if info.min == 0:
        small = [abs(v) for v in small]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.08 and not pool_small:
            out.append(int(rng.choice([info.min, info.max, info.max - 1, info.min + 1])))
        elif r < 0.15 and not pool_small:
            out.append(int(rng.randint(max(info.min, -10**6), min(info.max, 10**6))))
        else:
            out.append(rng.choice(small[:4] if pool_small else small))
    return out


def _float_values(rng: random.Random, n: int) -> list:
    pool = [0.0, -0.0, 1.0, -1.5, 2.25, 0.1, 3.0, 1e20, -1e20, 1e-300, 7.5]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.1:
            out.append(float("nan"))
        elif r < 0.15:
            out.append(rng.choice([float("inf"), float("-inf")]))
        elif r < 0.55:
            out.append(rng.choice(pool))
        else:
            out.append(round(rng.uniform(-100, 100), rng.choice([0, 1, 2, 6])))
    return out


def _column(rng: random.Random, name: str, kind: str, n: int, key: bool = False) -> Column:
    nulls = rng.random() < 0.6
    p_null = rng.choice([0.1, 0.3, 0.8]) if nulls else 0.0

    def maybe_null(vals: list) -> list:
        return [None if rng.random() < p_null else v for v in vals]

    if kind in INT_DTYPES:
        return Column(name, kind, tuple(_int_values(rng, kind, n, key)))
    if kind in FLOAT_DTYPES:
        vals = _float_values(rng, n) if not key else [float(rng.choice([1, 2, 3])) for _ in range(n)]
        return Column(name, kind, tuple(vals))
    if kind == "bool":
        return Column(name, kind, tuple(rng.random() < 0.5 for _ in range(n)))
    if kind in ("str", "string"):
        pool = STRS[:3] if key else STRS
        return Column(name, kind, tuple(maybe_null([rng.choice(pool) for _ in range(n)])))
    if kind in DT_DTYPES:
        pool = DATES[:3] if key else DATES
        if kind == "datetime64[s]" and not key:
            pool = pool + ["3000-01-01", "1800-05-05 01:02:03"]
        return Column(name, kind, tuple(maybe_null([rng.choice(pool) for _ in range(n)])))
    if kind == "category":
        cats = rng.sample(["a", "b", "c", "d", "e"], rng.randint(1, 5))
        used = cats[: max(1, len(cats) - rng.randint(0, 2))]  # some categories unused
        vals = maybe_null([rng.choice(used) for _ in range(n)])
        return Column(name, kind, tuple(vals), tuple(cats), rng.random() < 0.4)
    if kind == "Int64":
        return Column(name, kind, tuple(maybe_null(_int_values(rng, "int64", n, key))))
    if kind == "Float64":
        return Column(name, kind, tuple(maybe_null(_float_values(rng, n))))
    if kind == "boolean":
        return Column(name, kind, tuple(maybe_null([rng.random() < 0.5 for _ in range(n)])))
    if kind in ARROW_TYPES:
        return Column(name, kind, tuple(maybe_null(_arrow_values(rng, kind, n, key))))
    raise ValueError(kind)


def _arrow_values(rng: random.Random, kind: str, n: int, key: bool) -> list:
    """Literal values for an ArrowDtype kind (built by ``pd.array(values, dtype=pd.ArrowDtype(...))``)."""
    if kind == "pa_int64":
        return _int_values(rng, "int64", n, key)
    if kind == "pa_double":  # NaN becomes null on construction (pandas' from_pandas), inf stays
        return _float_values(rng, n) if not key else [float(rng.choice([1, 2, 3])) for _ in range(n)]
    if kind == "pa_bool":
        return [rng.random() < 0.5 for _ in range(n)]
    pools = {"pa_string": ARROW_STRS, "pa_large_string": ARROW_STRS, "pa_date32": DATES32, "pa_timestamp": ARROW_TS,
             "pa_timestamp_tz": ARROW_TS, "pa_duration": DURATIONS_US, "pa_decimal": DECIMALS}
    pool = pools[kind][:3] if key else pools[kind]
    return [rng.choice(pool) for _ in range(n)]


KEY_KINDS = ["int64", "int64", "int32", "str", "str", "Int64", "category", "float64", "datetime64[ns]", "bool",
             "pa_int64", "pa_string", "pa_date32", "pa_timestamp"]


def _frame(rng: random.Random, var: str, n: int, prefix: str, key_kind: str, key_cats: tuple | None,
           ncols: int) -> Frame:
    cols = [_column(rng, "k", key_kind, n, key=True)]
    if key_kind == "category" and key_cats is not None:
        vals = tuple(v if v is None or v in key_cats else key_cats[0] for v in cols[0].values)
        cols[0] = dataclasses.replace(cols[0], values=vals, categories=key_cats)
    for j in range(ncols):
        cols.append(_column(rng, f"{prefix}{j}", rng.choice(ALL_KINDS), n))
    index: tuple | None = None
    name = None
    r = rng.random()
    if r < 0.2:
        idx = list(range(10, 10 + n))
        rng.shuffle(idx)
        index = tuple(idx)
    elif r < 0.3:
        index = tuple(f"r{rng.randint(0, max(1, n // 2))}" for _ in range(n))  # duplicates allowed
    elif r < 0.35:
        index = tuple(rng.randint(-3, 3) for _ in range(n))
    if index is not None and rng.random() < 0.5:
        name = "idx"
    return Frame(var, tuple(cols), index, name)


def _frames(rng: random.Random) -> tuple[Frame, ...]:
    key_kind = rng.choice(KEY_KINDS)
    n = rng.choice(ROW_CHOICES)
    df = _frame(rng, "df", n, "c", key_kind, None, rng.randint(1, 5))
    key_cats = df.columns[0].categories
    n2 = rng.choice([0, 1, 3, 5, 8])
    df2 = _frame(rng, "df2", n2, "x", key_kind, key_cats, rng.randint(1, 2))
    if rng.random() < 0.3 and len(df.columns) > 1:  # a shared non-key column name: merge suffixes
        c1 = df.columns[1]
        c = _column(rng, c1.name, c1.dtype, n2)
        if c1.dtype == "category":
            c = dataclasses.replace(c, categories=c1.categories, ordered=c1.ordered,
                                    values=tuple(v if v is None or v in c1.categories else c1.categories[0]
                                                 for v in c.values))
        df2 = dataclasses.replace(df2, columns=df2.columns + (c,))
    return (df, df2)


# ----------------------------------------------------------------------------------------------------
# dtype classes of pandas' current state (drives step drawing)


def _cls(dtype: Any) -> str:
    """A coarse class of a pandas dtype: which operations fit a column."""
    from pandas.api import types as t

    if isinstance(dtype, pandas.CategoricalDtype):
        return "cat"
    if isinstance(dtype, pandas.ArrowDtype):  # the Arrow-only classes; Arrow ints/floats/bools/timestamps below
        import pyarrow as pa

        t = dtype.pyarrow_dtype
        if pa.types.is_date(t):
            return "date"
        if pa.types.is_duration(t):
            return "td"
        if pa.types.is_decimal(t):
            return "dec"
        if pa.types.is_string(t) or pa.types.is_large_string(t):
            return "str"
    if isinstance(dtype, pandas.StringDtype) or (dtype == object):
        return "str"
    if t.is_bool_dtype(dtype):
        return "bool"
    if t.is_integer_dtype(dtype):
        return "int"
    if t.is_float_dtype(dtype):
        return "float"
    if t.is_datetime64_any_dtype(dtype):
        return "dt"
    return "other"


NUMERIC = ("int", "float")


def _cols_of(df: pandas.DataFrame, *classes: str) -> list[str]:
    return [c for c in df.columns if isinstance(c, str) and _cls(df[c].dtype) in classes]


def _scalar_for(rng: random.Random, s: pandas.Series) -> str:
    """A literal comparable with column ``s`` (sometimes one of its own values)."""
    cls = _cls(s.dtype)
    vals = [v for v in s.tolist() if not pandas.isna(v)] if len(s) else []
    if vals and rng.random() < 0.5:
        v = rng.choice(vals)
        if cls == "dt":
            return f"pd.Timestamp({str(v)!r})"
        if cls == "td":
            return f"pd.Timedelta({str(v)!r})"
        if cls in ("date", "dec"):
            return repr(v)  # datetime.date(...) / Decimal('...')
        if isinstance(v, (np.generic,)):
            v = v.item()
        if isinstance(v, bool):
            return repr(v)
        return _lit(v)
    if cls == "int":
        return repr(rng.choice([0, 1, 2, -1, 5, 100]))
    if cls == "float":
        return rng.choice(["0.0", "1.5", "-1.0", "2", "0.1", "inf"])
    if cls == "bool":
        return rng.choice(["True", "False"])
    if cls in ("str", "cat"):
        return repr(rng.choice(STRS[:5] + ["c"]))
    if cls == "dt":
        tz = getattr(getattr(s.dtype, "pyarrow_dtype", s.dtype), "tz", None)
        return f"pd.Timestamp({rng.choice(DATES)!r}{f', tz={str(tz)!r}' if tz else ''})"
    if cls == "date":
        return repr(datetime.date.fromisoformat(rng.choice(DATES32)))
    if cls == "td":
        return f"pd.Timedelta(microseconds={rng.choice(DURATIONS_US)})"
    if cls == "dec":
        return rng.choice([f"Decimal({rng.choice(DECIMALS)!r})", "1", "0", "-2"])
    return "0"


# ----------------------------------------------------------------------------------------------------
# step drawing: each returns (op, code) or None when nothing fits


StepFn = Callable[[random.Random, pandas.DataFrame], "tuple[str, str] | None"]
CMP = ["==", "!=", "<", "<=", ">", ">="]


def _any_col(rng: random.Random, df: pandas.DataFrame, *classes: str) -> str | None:
    cols = _cols_of(df, *classes) if classes else [c for c in df.columns if isinstance(c, str)]
    return rng.choice(cols) if cols else None


def s_filter_cmp(rng, df):
    c = _any_col(rng, df, "int", "float", "bool", "str", "cat", "dt", "date", "td", "dec")
    if c is None:
        return None
    op = rng.choice(CMP)
    cls = _cls(df[c].dtype)
    others = [o for o in _cols_of(df, cls if cls not in NUMERIC else "int", "float" if cls in NUMERIC else cls)
              if o != c]
    if others and rng.random() < 0.35:
        rhs = f'df[{rng.choice(others)!r}]'
    elif rng.random() < 0.05:
        rhs = rng.choice(["5", "'a'", "pd.Timestamp('2020-01-01')"])  # a type mismatch on purpose
    else:
        rhs = _scalar_for(rng, df[c])
    cond = f"(df[{c!r}] {op} {rhs})"
    if rng.random() < 0.2:
        c2 = _any_col(rng, df, "int", "float", "bool")
        if c2 is not None:
            cond = f"{cond} {rng.choice(['&', '|'])} (df[{c2!r}] {rng.choice(CMP)} {_scalar_for(rng, df[c2])})"
    if rng.random() < 0.1:
        cond = f"~({cond})"
    return "filter_cmp", f"df = df[{cond}]"


def s_filter_isin(rng, df):
    c = _any_col(rng, df, "int", "float", "str", "cat", "bool", "dt", "date", "td", "dec")
    if c is None:
        return None
    vals = sorted({_scalar_for(rng, df[c]) for _ in range(rng.randint(0, 3))})
    return "isin", f"df = df[df[{c!r}].isin([{', '.join(vals)}])]"


def s_filter_between(rng, df):
    c = _any_col(rng, df, "int", "float", "dt", "date", "td", "dec")
    if c is None:
        return None
    a, b = _scalar_for(rng, df[c]), _scalar_for(rng, df[c])
    inc = rng.choice(["both", "neither", "left", "right"])
    return "between", f"df = df[df[{c!r}].between({a}, {b}, inclusive={inc!r})]"


def s_filter_na(rng, df):
    c = _any_col(rng, df)
    if c is None:
        return None
    m = rng.choice(["isna", "notna"])
    return m, f"df = df[df[{c!r}].{m}()]"


def s_dropna(rng, df):
    if rng.random() < 0.5:
        return "dropna", "df = df.dropna()"
    c = _any_col(rng, df)
    return ("dropna", f"df = df.dropna(subset=[{c!r}])") if c else None


ARITH = ["+", "-", "*", "/", "//", "%", "**"]


def s_arith(rng, df):
    c = _any_col(rng, df, "int", "float", "bool", "dec")
    if c is None:
        return None
    op = rng.choice(ARITH)
    others = [o for o in _cols_of(df, "int", "float", "bool", "dec")]
    if rng.random() < 0.5 and others:
        rhs = f"df[{rng.choice(others)!r}]"
    elif op == "**":
        rhs = rng.choice(["0", "1", "2", "0.5", "-1", "3"])
    else:
        rhs = rng.choice(["0", "1", "2", "3", "-2", "1.5", "0.0", "-0.0", "inf", "1e20", "7"])
    expr = f"df[{c!r}] {op} {rhs}" if rng.random() < 0.8 else f"{rhs} {op} df[{c!r}]"
    name = rng.choice(["n", "m", c])
    return f"arith{op}", f"df = df.assign({name}={expr})" if name.isidentifier() else None


def s_dt_arith(rng, df):
    c = _any_col(rng, df, "dt", "date", "td")
    if c is None:
        return None
    others = [o for o in _cols_of(df, _cls(df[c].dtype)) if o != c]
    if others and rng.random() < 0.5:
        return "dt_sub", f"df = df.assign(n=df[{c!r}] - df[{rng.choice(others)!r}])"
    td = rng.choice(["pd.Timedelta(days=1)", "pd.Timedelta(hours=-3)", "pd.Timedelta(seconds=1)"])
    return "dt_add", f"df = df.assign(n=df[{c!r}] {rng.choice(['+', '-'])} {td})"


ASTYPE_TARGETS = ["int64", "int32", "int8", "uint8", "float64", "float32", "bool", "str", "category", "Int64",
                  "Float64", "boolean", "string", "datetime64[ns]", "datetime64[s]", "object"] + ARROW_KINDS


def s_astype(rng, df):
    c = _any_col(rng, df)
    if c is None:
        return None
    t = rng.choice(ASTYPE_TARGETS)
    code = f"pd.ArrowDtype({ARROW_TYPES[t]})" if t in ARROW_TYPES else repr(t)
    return f"astype({t})", f"df = df.astype({{{c!r}: {code}}})"


def s_fillna(rng, df):
    r = rng.random()
    if r < 0.4:
        v = rng.choice(["0", "1.5", "-1", "'z'", "True", "pd.Timestamp('2020-01-01')"])
        return "fillna_frame", f"df = df.fillna({v})"
    c = _any_col(rng, df)
    if c is None:
        return None
    v = _scalar_for(rng, df[c]) if rng.random() < 0.7 else rng.choice(["0", "'z'", "1.5"])
    if r < 0.7:
        return "fillna_dict", f"df = df.fillna({{{c!r}: {v}}})"
    return "fillna_col", f"df = df.assign({c}=df[{c!r}].fillna({v}))" if c.isidentifier() else None


def s_clip(rng, df):
    c = _any_col(rng, df, "int", "float")
    if c is None or not c.isidentifier():
        return None
    lo = rng.choice(["None", "0", "1.5", "-2", "-0.5"])
    hi = rng.choice(["None", "3", "2.5", "100"])
    return "clip", f"df = df.assign({c}=df[{c!r}].clip(lower={lo}, upper={hi}))"


def s_unary(rng, df):
    c = _any_col(rng, df, "int", "float", "dec")
    if c is None or not c.isidentifier():
        return None
    m = rng.choice(["abs()", "round()", "round(1)", "round(-1)", "round(2)", "__neg__()"])
    return m.split("(")[0], f"df = df.assign({c}=df[{c!r}].{m})"


def s_sort(rng, df):
    cols = [c for c in df.columns if isinstance(c, str)]
    if not cols:
        return None
    by = rng.sample(cols, min(len(cols), rng.choice([1, 1, 2])))
    asc = [rng.random() < 0.6 for _ in by]
    na = rng.choice(["last", "first"])
    ascs = asc[0] if len(by) == 1 else asc
    return "sort_values", f"df = df.sort_values({by!r}, ascending={ascs}, na_position={na!r}, kind='stable')"


def s_sort_index(rng, df):
    return "sort_index", f"df = df.sort_index(ascending={rng.random() < 0.7}, kind='stable')"


def s_headtail(rng, df):
    m = rng.choice(["head", "tail"])
    return m, f"df = df.{m}({rng.choice([0, 1, 2, 3, 5, -1])})"


def s_nlargest(rng, df):
    c = _any_col(rng, df, "int", "float", "dec")
    if c is None:
        return None
    m = rng.choice(["nlargest", "nsmallest"])
    keep = rng.choice(["first", "last", "all"])
    return m, f"df = df.{m}({rng.choice([1, 2, 3, 5])}, {c!r}, keep={keep!r})"


def s_drop_duplicates(rng, df):
    cols = [c for c in df.columns if isinstance(c, str)]
    keep = rng.choice(["first", "last", False])
    if rng.random() < 0.4 or not cols:
        return "drop_duplicates", f"df = df.drop_duplicates(keep={keep!r})"
    sub = rng.sample(cols, min(len(cols), rng.randint(1, 2)))
    return "drop_duplicates", f"df = df.drop_duplicates(subset={sub!r}, keep={keep!r})"


AGGS = ["sum", "mean", "min", "max", "count", "size", "std", "var", "first", "last", "nunique", "median"]


def s_groupby(rng, df):
    keys = [c for c in df.columns if isinstance(c, str)
            and _cls(df[c].dtype) in ("int", "str", "cat", "bool", "dt", "float", "date", "dec", "td")]
    if not keys:
        return None
    by = rng.sample(keys, 1 if rng.random() < 0.8 or len(keys) < 2 else 2)
    rest = [c for c in df.columns if isinstance(c, str) and c not in by]
    opts = []
    if rng.random() < 0.3:
        opts.append(f"sort={rng.random() < 0.5}")
    if rng.random() < 0.3:
        opts.append(f"dropna={rng.random() < 0.5}")
    if rng.random() < 0.15:
        opts.append("as_index=False")
    if any(_cls(df[b].dtype) == "cat" for b in by) and rng.random() < 0.5:
        opts.append(f"observed={rng.random() < 0.5}")
    g = f"df.groupby({(by[0] if len(by) == 1 else by)!r}{''.join(', ' + o for o in opts)})"
    form = rng.random()
    num = [c for c in rest if _cls(df[c].dtype) in NUMERIC + ("bool", "dec")]
    if form < 0.25 or not rest:
        a = rng.choice(AGGS)
        if a in ("size",):
            return "groupby.size", f"df = {g}.size()"
        if a in ("sum", "mean", "std", "var", "median") and rng.random() < 0.7:
            return f"groupby.{a}", f"df = {g}.{a}(numeric_only=True)"
        return f"groupby.{a}", f"df = {g}.{a}()"
    if form < 0.5:
        c = rng.choice(num or rest)
        a = rng.choice(AGGS)
        return f"groupby[col].{a}", f"df = {g}[{c!r}].{a}()"
    if form < 0.75:
        named = {}
        for i in range(rng.randint(1, 3)):
            c = rng.choice(num or rest)
            named[f"o{i}"] = (c, rng.choice([a for a in AGGS if a != "size"]))
        body = ", ".join(f"{k}=({c!r}, {a!r})" for k, (c, a) in named.items())
        return "groupby.agg(named)", f"df = {g}.agg({body})"
    spec = {}
    for c in rng.sample(num or rest, min(len(num or rest), rng.randint(1, 2))):
        spec[c] = rng.sample([a for a in AGGS if a != "size"], rng.randint(1, 2))
        if rng.random() < 0.3:
            spec[c] = spec[c][0]
    return "groupby.agg(dict)", f"df = {g}.agg({spec!r})"


def s_reduce(rng, df):
    r = rng.random()
    a = rng.choice(["sum", "mean", "min", "max", "count", "std", "var", "nunique", "median", "prod", "any", "all"])
    if r < 0.7:
        c = _any_col(rng, df)
        if c is None:
            return None
        return f"reduce.{a}", f"df = df[{c!r}].{a}()"
    if a in ("sum", "mean", "std", "var", "median", "prod", "min", "max"):
        return f"frame.{a}", f"df = df.{a}(numeric_only=True)"
    return f"frame.{a}", f"df = df.{a}()"


def s_merge(rng, df):
    if "k" not in df.columns:
        return None
    how = rng.choice(["inner", "left", "outer", "right", "inner"])
    extra = ", sort=True" if rng.random() < 0.2 else ""
    return f"merge.{how}", f"df = df.merge(df2, on='k', how={how!r}{extra})"


def s_concat(rng, df):
    r = rng.random()
    ign = rng.random() < 0.5
    if r < 0.5:
        return "concat.df2", f"df = pd.concat([df, df2], ignore_index={ign})"
    return "concat.self", f"df = pd.concat([df, df.head({rng.choice([0, 1, 2])})], ignore_index={ign})"


def s_index(rng, df):
    r = rng.random()
    if r < 0.5:
        return "reset_index", f"df = df.reset_index(drop={rng.random() < 0.5})"
    c = _any_col(rng, df)
    if c is None:
        return None
    return "set_index", f"df = df.set_index({c!r})"


def s_value_counts(rng, df):
    c = _any_col(rng, df)
    if c is None:
        return None
    opts = rng.choice(["", "dropna=False", "normalize=True", "sort=False", "ascending=True"])
    tail = ".reset_index()" if rng.random() < 0.5 else ""
    return "value_counts", f"df = df[{c!r}].value_counts({opts}){tail}"


STR_METHODS = ["upper()", "lower()", "len()", "strip()", "contains('a')", "startswith('a')", "endswith('b')",
               "slice(0, 2)", "replace('a', 'X')", "zfill(3)", "isupper()", "title()"]


def s_str(rng, df):
    c = _any_col(rng, df, "str")
    if c is None:
        return None
    m = rng.choice(STR_METHODS)
    return f"str.{m.split('(')[0]}", f"df = df.assign(n=df[{c!r}].str.{m})"


DT_FIELDS = ["year", "month", "day", "hour", "minute", "second", "dayofweek", "dayofyear", "quarter", "date",
             "floor('D')", "normalize()", "is_month_start"]


DATE_FIELDS = ["year", "month", "day", "day_of_week", "day_of_year", "quarter", "is_month_start", "strftime('%Y')"]
TD_FIELDS = ["days", "seconds", "microseconds", "total_seconds()"]


def s_dt(rng, df):
    c = _any_col(rng, df, "dt", "date", "td")
    if c is None:
        return None
    cls = _cls(df[c].dtype)
    f = rng.choice(DT_FIELDS if cls == "dt" else DATE_FIELDS if cls == "date" else TD_FIELDS)
    return f"dt.{f.split('(')[0]}", f"df = df.assign(n=df[{c!r}].dt.{f})"


def s_cat(rng, df):
    c = _any_col(rng, df, "cat")
    if c is None:
        return None
    m = rng.choice(["codes", "remove_unused_categories()", "as_ordered()", "categories"])
    if m == "categories":
        return "cat.categories", f"df = df[{c!r}].cat.categories"
    return f"cat.{m.split('(')[0]}", f"df = df.assign(n=df[{c!r}].cat.{m})"


def s_query(rng, df):
    cols = [c for c in _cols_of(df, "int", "float") if c.isidentifier()]
    if not cols:
        return None
    c = rng.choice(cols)
    r = rng.random()
    if r < 0.4:
        return "query", f"df = df.query({f'{c} {rng.choice(CMP)} {rng.choice([0, 1, 2.5])}'!r})"
    if r < 0.6:
        return "query@", f"x = {rng.choice([0, 1, 2.5])}\ndf = df.query({f'{c} {rng.choice(CMP)} @x'!r})"
    c2 = rng.choice(cols)
    expr = f"n = {c} {rng.choice(['+', '-', '*', '/'])} {c2}"
    return "eval", f"df = df.eval({expr!r})"


def s_select(rng, df):
    cols = [c for c in df.columns if isinstance(c, str)]
    if len(cols) < 2:
        return None
    return "select", f"df = df[{rng.sample(cols, rng.randint(1, len(cols) - 1))!r}]"


def s_where(rng, df):
    c = _any_col(rng, df, "int", "float")
    if c is None or not c.isidentifier():
        return None
    return "where", f"df = df.assign({c}=df[{c!r}].where(df[{c!r}] > {_scalar_for(rng, df[c])}, {rng.choice(['0', '-1.5', 'None'])}))"


def s_cum(rng, df):
    c = _any_col(rng, df, "int", "float")
    if c is None:
        return None
    m = rng.choice(["cumsum()", "cummax()", "cummin()", "diff()", "shift(1)", "rank()", "pct_change()"])
    return f"series.{m.split('(')[0]}", f"df = df.assign(n=df[{c!r}].{m})"


STEPS: list[tuple[StepFn, float]] = [
    (s_filter_cmp, 3), (s_filter_isin, 1), (s_filter_between, 1), (s_filter_na, 1), (s_dropna, 0.5),
    (s_arith, 3), (s_dt_arith, 0.5), (s_astype, 2), (s_fillna, 1.5), (s_clip, 1), (s_unary, 1), (s_sort, 2),
    (s_sort_index, 0.5), (s_headtail, 1), (s_nlargest, 1), (s_drop_duplicates, 1), (s_groupby, 3),
    (s_reduce, 1.5), (s_merge, 1.5), (s_concat, 1), (s_index, 1), (s_value_counts, 1), (s_str, 1), (s_dt, 1),
    (s_cat, 0.5), (s_query, 1), (s_select, 0.5), (s_where, 0.5), (s_cum, 0.7),
]


# ----------------------------------------------------------------------------------------------------
# execution


def _namespace(module: Any) -> dict:
    import pyarrow

    return {"pd": module, "np": np, "nan": float("nan"), "inf": float("inf"), "pa": pyarrow, "datetime": datetime,
            "Decimal": decimal.Decimal}


def _build_frames(case: Case) -> dict:
    ns = _namespace(pandas)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(case.setup_code(all_frames=True), ns)  # noqa: S102 - our own generated code
    return {f.var: ns[f.var] for f in case.frames if f.var in ns}


def _run_pandas_steps(frames: dict, code: str) -> Any:
    ns = _namespace(pandas)
    # a shallow copy (copy-on-write keeps the frames apart): a deep one consolidates pandas' blocks,
    # and some of pandas' results depend on them - a group sum of int8 columns goes back to int8
    # block by block, where every sum of the block fits - so the frames must stay as the case's
    # code builds them (the printed repro's pandas answer; seed 1048280)
    ns.update({k: v.copy(deep=False) for k, v in frames.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, ns)  # noqa: S102
    return ns["df"]


def _run_gframe(frames: dict, code: str, optimize: bool, target: Any = None) -> Any:
    """Run the pipeline on ``target`` (gframe; pandas itself for the fuzzer's self-check)."""
    import gframe

    target = gframe if target is None else target
    ns = _namespace(target)
    for k, v in frames.items():
        ns[k] = target.DataFrame(v.copy())
    ctx = gframe.option_context(optimize=optimize) if target is gframe else contextlib.nullcontext()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with ctx:
            exec(code, ns)  # noqa: S102
            return _materialize(ns["df"])


def _materialize(obj: Any) -> Any:
    to_pandas = getattr(obj, "to_pandas", None)
    if callable(to_pandas) and not isinstance(obj, (pandas.DataFrame, pandas.Series, pandas.Index)):
        return to_pandas()
    return obj


def generate(seed: int, max_steps: int | None = None, exclude: Iterable[str] = ()) -> Case:
    """Draw a case: two input frames and 1-6 steps, each checked against pandas as it is drawn.

    ``exclude`` drops dtypes from the draw (input columns, keys and astype targets), e.g. the nullable
    ones, so that a campaign can look past a root cause that dominates; the seed alone reproduces
    a case only with the same ``exclude``.
    """
    rng = random.Random(seed)
    exclude = {k for x in exclude for k in KIND_GROUPS.get(x, [x])}
    global ALL_KINDS, KEY_KINDS, ASTYPE_TARGETS
    saved = ALL_KINDS, KEY_KINDS, ASTYPE_TARGETS
    ALL_KINDS = [k for k in saved[0] if k not in exclude]
    KEY_KINDS = [k for k in saved[1] if k not in exclude]
    ASTYPE_TARGETS = [k for k in saved[2] if k not in exclude]
    try:
        return _generate(rng, seed, max_steps)
    finally:
        ALL_KINDS, KEY_KINDS, ASTYPE_TARGETS = saved


def _generate(rng: random.Random, seed: int, max_steps: int | None) -> Case:
    frames = _frames(rng)
    case = Case(seed, frames, ())
    pdframes = _build_frames(case)
    n_steps = max_steps if max_steps is not None else rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6])
    steps: list[Step] = []
    state = pdframes["df"]
    fns, weights = zip(*STEPS)
    tries = 0
    while len(steps) < n_steps and tries < 40:
        tries += 1
        fn = rng.choices(fns, weights)[0]
        try:
            drawn = fn(rng, state)
        except Exception:  # noqa: BLE001 - a drawing helper tripping on an odd state: draw again
            drawn = None
        if drawn is None:
            continue
        op, code = drawn
        try:
            new = _run_pandas_steps({**pdframes, "df": state}, code)
        except Exception:  # noqa: BLE001 - pandas raises: keep it sometimes, to compare exception types
            if rng.random() < 0.25:
                steps.append(Step(op, code))
                break
            continue
        steps.append(Step(op, code))
        state = new
        if not isinstance(state, pandas.DataFrame):
            break  # a Series or scalar ends the pipeline
    return Case(seed, frames, tuple(steps))


# ----------------------------------------------------------------------------------------------------
# comparison


@dataclass
class Failure:
    mode: str  # "opt" / "noopt" / "crash" / "hang"
    category: str  # values, dtype, index, columns, type, exc-type, raise-missing, raise-extra, crash, hang
    detail: str


@dataclass
class CaseResult:
    seed: int
    status: str  # ok / fail / skip / pandas-bug (``PANDAS_BUGS``)
    ops: list[str]
    failures: list[Failure] = field(default_factory=list)
    pandas_error: str | None = None

    def signature(self) -> str:
        return signature(self.failures[0], self.ops) if self.failures else "ok"

    def to_json(self) -> dict:
        return {"seed": self.seed, "status": self.status, "ops": self.ops, "pandas_error": self.pandas_error,
                "failures": [dataclasses.asdict(f) for f in self.failures]}


def _used_levels(obj: Any) -> Any:
    """``obj`` with its MultiIndex axes holding the level values in use only (``remove_unused_levels``).

    pandas keeps level values no row uses (a group-by's keys of groups ``dropna`` dropped by another
    key, rows a filter or ``tail`` dropped); gframe's levels are the values present. pandas' asserts
    compare the levels' *values* by ``get_level_values`` but their ``inferred_type`` over every value,
    used or not (seed 1034471: an unused date beside a used string: "mixed" vs "string"), so the
    unused values are left out on both sides (docs/fuzzing.md, "not compared")."""
    if isinstance(obj, pandas.MultiIndex):
        return obj.remove_unused_levels()
    if isinstance(obj, (pandas.DataFrame, pandas.Series)):
        axes = [obj.index] + ([obj.columns] if isinstance(obj, pandas.DataFrame) else [])
        if any(isinstance(a, pandas.MultiIndex) for a in axes):
            obj = obj.copy(deep=False)
            if isinstance(obj.index, pandas.MultiIndex):
                obj.index = obj.index.remove_unused_levels()
            if isinstance(obj, pandas.DataFrame) and isinstance(obj.columns, pandas.MultiIndex):
                obj.columns = obj.columns.remove_unused_levels()
    return obj


def _arrow_times_as_ints(obj: Any) -> Any:
    """``obj`` with its ArrowDtype date / time / duration columns (and flat index) as their integer storage: pandas'
    asserts iterate them as Python objects, which cannot hold every value Arrow can (a date32 of
    2**31 - 2 days: OverflowError, seed 997923); the dtypes were compared before."""
    import pyarrow as pa

    def conv(s: Any) -> Any:
        dt = getattr(s, "dtype", None)
        if isinstance(dt, pandas.ArrowDtype) and pa.types.is_temporal(dt.pyarrow_dtype):
            arr = pa.chunked_array(s.array._pa_array)
            width = pa.int32() if pa.types.is_date32(dt.pyarrow_dtype) or pa.types.is_time32(dt.pyarrow_dtype) else pa.int64()
            return pandas.Series(pandas.arrays.ArrowExtensionArray(arr.cast(width)), index=s.index, name=s.name)
        return s

    def conv_index(index: Any) -> Any:
        if isinstance(index, pandas.MultiIndex):
            return index
        if isinstance(index, pandas.Index) and isinstance(index.dtype, pandas.ArrowDtype):
            return pandas.Index(conv(pandas.Series(index.array)).array, name=index.name)
        return index

    if isinstance(obj, pandas.DataFrame):
        out = obj.copy(deep=False)
        for i in range(out.shape[1]):
            out.isetitem(i, conv(out.iloc[:, i]))
        out.index = conv_index(out.index)
        return out
    if isinstance(obj, pandas.Series):
        out = conv(obj)
        return out.set_axis(conv_index(out.index))
    return conv_index(obj)


def _assert_equal(expected: Any, got: Any) -> tuple[str, str] | None:
    """None when equal, else (category, detail). In details, pandas comes first ([left], "X vs Y")."""
    expected, got = _used_levels(expected), _used_levels(got)
    try:
        return _assert_equal_checked(expected, got)
    except OverflowError:  # values Python's date / datetime cannot hold: compared as Arrow's integers
        return _assert_equal_checked(_arrow_times_as_ints(expected), _arrow_times_as_ints(got))


def _exact_ints(expected: Any, got: Any, obj: str) -> None:
    """Integers compared exactly: with ``check_exact=False`` and an ``rtol``, pandas' asserts compare
    integer columns within the tolerance too (10**12 and 10**12 + 1 pass), which would hide an int
    rounded through float64. Values only (the dtypes, index and names were compared before)."""
    if isinstance(expected, pandas.MultiIndex) or not pandas.api.types.is_integer_dtype(expected.dtype):
        return
    if isinstance(expected, pandas.Index):
        if not expected.equals(got):
            raise AssertionError(f"{obj} values are different (integers, compared exactly)\n[left]:  {list(expected)[:10]}"
                                 f"\n[right]: {list(got)[:10]}")
        return
    pdt.assert_series_equal(expected, got, check_exact=True, check_index=False, check_names=False, obj=obj)


def _assert_equal_checked(expected: Any, got: Any) -> tuple[str, str] | None:
    kw = {"check_exact": False, "rtol": RTOL, "atol": 0.0}
    try:
        if isinstance(expected, pandas.DataFrame):
            if not isinstance(got, pandas.DataFrame):
                return "type", f"expected DataFrame, got {type(got).__name__}"
            if list(map(str, expected.dtypes)) != list(map(str, got.dtypes)) and list(expected.columns) == list(got.columns):
                diffs = [f"{c}: {e} vs {g}" for c, e, g in zip(expected.columns, expected.dtypes, got.dtypes) if str(e) != str(g)]
                return "dtype", "; ".join(diffs[:3])
            pdt.assert_frame_equal(expected, got, check_freq=False, **kw)  # [left] is pandas
            for i in range(expected.shape[1]):
                _exact_ints(expected.iloc[:, i], got.iloc[:, i], f"DataFrame.iloc[:, {i}] (column name={expected.columns[i]!r})")
            _exact_ints(expected.index, got.index, "DataFrame.index")
        elif isinstance(expected, pandas.Series):
            if not isinstance(got, pandas.Series):
                return "type", f"expected Series, got {type(got).__name__}"
            if str(expected.dtype) != str(got.dtype):
                return "dtype", f"series: {expected.dtype} vs {got.dtype}"
            pdt.assert_series_equal(expected, got, check_freq=False, **kw)
            _exact_ints(expected, got, "Series")
            _exact_ints(expected.index, got.index, "Series.index")
        elif isinstance(expected, pandas.Index):
            if not isinstance(got, pandas.Index):
                return "type", f"expected Index, got {type(got).__name__}"
            pdt.assert_index_equal(expected, got, exact=True, check_exact=False, rtol=RTOL)
            _exact_ints(expected, got, "Index")
        else:
            return _compare_scalar(expected, got)
    except AssertionError as exc:
        msg = str(exc)
        first = msg.strip().splitlines()[0] if msg.strip() else "assertion"
        low = first.lower()
        if "dtype" in msg.lower().split("\n[left]")[0] and ("attribute" in low or "dtype" in low) or "categor" in low:
            cat = "dtype"
        elif low.startswith(("dataframe.columns", "attributes of dataframe.columns")) or "column names" in low:
            cat = "columns"
        elif ".index" in low and "iloc" not in low:
            cat = "index"
        else:
            cat = "values"
        return cat, _short(msg)
    return None


def _compare_scalar(expected: Any, got: Any) -> tuple[str, str] | None:
    if isinstance(got, (pandas.DataFrame, pandas.Series, pandas.Index)):
        return "type", f"expected scalar {type(expected).__name__}, got {type(got).__name__}"
    e_na, g_na = _scalar_na(expected), _scalar_na(got)
    if e_na or g_na:
        if e_na and g_na and type(expected) is type(got):
            return None
        if e_na and g_na:
            return "dtype", f"scalar type {type(expected).__name__} vs {type(got).__name__}: {expected!r} vs {got!r}"
        return "values", f"expected {expected!r} ({type(expected).__name__}), got {got!r} ({type(got).__name__})"
    et, gt = type(expected), type(got)
    same_kind = (et is gt or (isinstance(expected, (bool, np.bool_)) and isinstance(got, (bool, np.bool_)))
                 or (isinstance(expected, (int, np.integer)) and isinstance(got, (int, np.integer))
                     and not isinstance(expected, (bool, np.bool_)) and not isinstance(got, (bool, np.bool_)))
                 or (isinstance(expected, (float, np.floating)) and isinstance(got, (float, np.floating))))
    if isinstance(expected, np.generic) and isinstance(got, np.generic) and expected.dtype != got.dtype:
        return "dtype", f"scalar {expected.dtype} vs {got.dtype}: {expected!r} vs {got!r}"
    if not same_kind:
        return "dtype", f"scalar type {et.__name__} vs {gt.__name__}: {expected!r} vs {got!r}"
    if isinstance(expected, (float, np.floating)):
        if math.isinf(expected) or math.isinf(got):
            ok = expected == got
        else:
            ok = abs(float(expected) - float(got)) <= RTOL * abs(float(expected))
    else:
        try:
            ok = bool(expected == got)
        except Exception:  # noqa: BLE001
            ok = False
    return None if ok else ("values", f"expected {expected!r}, got {got!r}")


def _scalar_na(x: Any) -> bool:
    try:
        return bool(np.ndim(x) == 0 and pandas.isna(x))
    except (TypeError, ValueError):
        return False


def _short(msg: str, n: int = 600) -> str:
    msg = re.sub(r"\s+", " ", msg).strip()
    return msg if len(msg) <= n else msg[:n] + "..."


_BUILTIN_BASES = (KeyError, IndexError, OverflowError, ZeroDivisionError, TypeError, ValueError, NotImplementedError,
                  OSError, MemoryError)


def _expected_exception(perr: BaseException) -> type[BaseException]:
    """The type gframe must raise where pandas raised ``perr``: pandas' own type, except where pandas
    lets a pyarrow or numpy exception through (``str.astype("Int64")`` raises ``ArrowInvalid``,
    ``Float64 > "a"`` numpy's ``UFuncTypeError``): gframe maps every engine's errors to the builtin
    type it subclasses (``gframe/errors.py``), so that base is pandas' contract there (``except
    ValueError`` / ``except TypeError`` catch both)."""
    if type(perr).__module__.split(".")[0] in ("pyarrow", "numpy"):
        return next((b for b in _BUILTIN_BASES if isinstance(perr, b)), type(perr))
    return type(perr)


def _raised_in(exc: BaseException, function: str) -> bool:
    """Whether ``function`` is on ``exc``'s traceback (pandas' own frames included)."""
    return any(f.name == function for f in traceback.extract_tb(exc.__traceback__))


# Known pandas bugs: pandas raises where its own rules compute a result, so the spec has no answer
# there. A case whose pandas run hits one is reported as pandas' (status ``pandas-bug``, with the
# bug's label, counted apart in a campaign's summary), never as a gframe failure: the predicate
# names the pandas function that raises, so the same message raised elsewhere (``astype('category')``
# of Arrow floats holding both zeros raises it too, and gframe must raise there) is still compared.
PANDAS_BUGS: tuple[tuple[str, Callable[[BaseException], bool]], ...] = (
    ("NY: pandas bug: a multi-key sort_values over a double[pyarrow] key holding 0.0 and -0.0 raises "
     "(lexsort_indexer builds a Categorical of the ArrowDtype key's uniques, both zeros: "
     "'Categorical categories must be unique')",
     lambda e: isinstance(e, ValueError) and "categories must be unique" in str(e) and _raised_in(e, "lexsort_indexer")),
)


def known_pandas_bug(perr: BaseException | None) -> str | None:
    """The label of the known pandas bug (``PANDAS_BUGS``) pandas' exception ``perr`` is, or None."""
    if perr is None:
        return None
    return next((label for label, hit in PANDAS_BUGS if hit(perr)), None)


def run_case(case: Case, modes: Sequence[bool] = (True, False), engine: str = "cpu",
             target: Any = None) -> CaseResult:
    """Run one case on pandas and on gframe (optimizer on/off); compare.

    ``target`` replaces gframe (``target=pandas`` is the fuzzer's self-check: it must find nothing).
    """
    import gframe

    with gframe.option_context(engine=engine):
        return _run_case(case, modes, target)


def _run_case(case: Case, modes: Sequence[bool], target: Any = None) -> CaseResult:
    frames = _build_frames(case)
    code = case.pipeline_code()
    try:
        expected = _run_pandas_steps(frames, code)
        perr: BaseException | None = None
    except Exception as exc:  # noqa: BLE001
        expected, perr = None, exc
    res = CaseResult(case.seed, "ok", case.ops(),
                     pandas_error=None if perr is None else f"{type(perr).__name__}: {_short(str(perr), 200)}")
    bug = known_pandas_bug(perr)
    if bug is not None:  # pandas' own bug: nothing to compare gframe with
        res.status, res.pandas_error = "pandas-bug", f"[{bug}] {res.pandas_error}"
        return res
    for opt in modes:
        mode = "opt" if opt else "noopt"
        try:
            got = _run_gframe(frames, code, opt, target)
            gerr: BaseException | None = None
        except Exception as exc:  # noqa: BLE001
            got, gerr = None, exc
        if perr is not None:
            if gerr is None:
                res.failures.append(Failure(mode, "raise-missing", f"pandas raised {type(perr).__name__}: "
                                            f"{_short(str(perr), 200)}; gframe did not"))
            elif not isinstance(gerr, _expected_exception(perr)):
                res.failures.append(Failure(mode, "exc-type", f"pandas {type(perr).__name__}, gframe "
                                            f"{type(gerr).__module__}.{type(gerr).__name__}: {_short(str(gerr), 300)}"))
            continue
        if gerr is not None:
            tb = traceback.extract_tb(gerr.__traceback__)
            where = f"{os.path.basename(tb[-1].filename)}:{tb[-1].name}" if tb else "?"
            res.failures.append(Failure(mode, "raise-extra", f"{type(gerr).__module__}.{type(gerr).__name__} at "
                                        f"{where}: {_short(str(gerr), 300)}"))
            continue
        diff = _assert_equal(expected, got)
        if diff is not None:
            res.failures.append(Failure(mode, diff[0], diff[1]))
    if res.failures:
        res.status = "fail"
    return res


def _norm(detail: str) -> str:
    d = re.sub(r"'[^']*'", "'_'", detail)
    d = re.sub(r"\"[^\"]*\"", "'_'", d)
    d = re.sub(r"-?\d+(\.\d+)?(e[-+]?\d+)?", "N", d)
    d = re.sub(r"\[[^\]]*\]", "[..]", d)
    return d[:90]


def _dtype_pairs(detail: str) -> str:
    pairs = sorted(set(re.findall(r"([\w\[\]]+) vs ([\w\[\]]+)", detail)))
    return ", ".join(f"{e}->{g}" for e, g in pairs) or _norm(detail)


def signature(f: Failure, ops: Sequence[str]) -> str:
    """Coarse grouping key: failure category, a normalized message, and the last operation.

    Raw cases are grouped by the last step, which is often not the culprit; the campaign groups
    shrunk cases by :func:`shrunk_signature` for triage.
    """
    last = ops[-1] if ops else "-"
    if f.category in ("exc-type", "raise-extra", "raise-missing"):
        m = re.match(r"(pandas \w+, gframe [\w.]+|[\w.]+ at [\w.:<>]+|pandas raised \w+)", f.detail)
        return f"{f.category} | {m.group(1) if m else _norm(f.detail)} | {last}"
    if f.category == "dtype":
        return f"dtype | {_dtype_pairs(f.detail)} | {last}"
    return f"{f.category} | {_norm(f.detail)[:60]} | {last}"


NULLABLE_NAMES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float32", "Float64",
                  "boolean", "string")


def classify(case: Case, result: CaseResult) -> str:
    """A first guess at which class of issue 9 a (shrunk) failure belongs to, from its signature.

    Heuristic, for sorting a campaign's output; triage confirms by reading the shrunk repro.
    """
    if not result.failures:
        return "ok"
    f = result.failures[0]
    ops = case.ops()
    code = case.code()
    d = f.detail
    if f.category in ("crash", "hang"):
        return f"crash/{f.category}"
    if "UndefinedVariableError" in d or any(o == "query@" for o in ops) and f.category.startswith("raise"):
        return "13 query/eval @-scope"
    if f.category == "dtype":
        pairs = re.findall(r"([\w\[\]]+) vs ([\w\[\]]+)", d)
        if any(e in NULLABLE_NAMES and g != e for e, g in pairs) or any(g in NULLABLE_NAMES for e, g in pairs):
            return "3 nullable dtypes"
        if any("category" in (e, g) for e, g in pairs):
            return "5 categoricals"
    if f.category in ("raise-extra", "exc-type"):
        if re.search(r"\b(polars|pyarrow)\.", d) or "ArrowInvalid" in d:
            return "12 engine exception leaks"
        if "AttributeError" in d:
            return "missing API (AttributeError)"
    if f.category == "raise-missing":
        return "12 no raise where pandas raises"
    if any(o.startswith("fillna") for o in ops):
        return "6 fillna"
    if "clip" in ops:
        return "7 clip"
    if "category" in code and any(o in ("value_counts", "head", "filter_cmp", "isin") or o.startswith("astype") for o in ops):
        return "5 categoricals"
    if "datetime64[s]" in code and any(o.startswith(("reduce.", "frame.", "groupby")) for o in ops):
        return "8 datetime64 units"
    if any(o.startswith(("arith", "round", "reduce.", "frame.", "groupby")) for o in ops) and "values" == f.category:
        return "9 float/arith semantics (check)"
    return f"new: {f.category} in {' > '.join(ops) or 'construction'}"


def shrunk_signature(case: Case, result: CaseResult) -> str:
    """Grouping key of a shrunk case: its failure and *all* its (few) remaining operations."""
    if not result.failures:
        return "ok after shrinking"
    sig = signature(result.failures[0], ["-"]).rsplit(" | ", 1)[0]
    modes = "+".join(sorted({f.mode for f in result.failures}))
    return f"{sig} | {' > '.join(case.ops()) or '(no steps)'} | {modes}"


# ----------------------------------------------------------------------------------------------------
# shrinking


def _same_bug(a: CaseResult, b: CaseResult) -> bool:
    if not b.failures:
        return False
    fa, fb = a.failures[0], b.failures[0]
    if fa.category != fb.category:
        return False
    if fa.category in ("exc-type", "raise-extra"):
        return fa.detail.split(":")[0] == fb.detail.split(":")[0] or fa.detail.split(" at ")[0] == fb.detail.split(" at ")[0]
    return True


def _simple_value(col: Column, v: Any) -> Any:
    if v is None:
        return None
    if col.dtype in INT_DTYPES or col.dtype == "Int64":
        return 1
    if col.dtype in FLOAT_DTYPES or col.dtype == "Float64":
        return 1.0
    if col.dtype in ("bool", "boolean"):
        return True
    if col.dtype in ("str", "string"):
        return "a"
    if col.dtype in DT_DTYPES:
        return "2020-01-01"
    if col.dtype == "category":
        return (col.categories or ("a",))[0]
    if col.dtype in ARROW_TYPES:  # the first value of the kind's pool is its plainest
        return {"pa_int64": 1, "pa_double": 1.0, "pa_bool": True, "pa_string": "a", "pa_large_string": "a",
                "pa_date32": DATES32[0], "pa_timestamp": DATES[0], "pa_timestamp_tz": DATES[0],
                "pa_duration": DURATIONS_US[1], "pa_decimal": DECIMALS[0]}[col.dtype]
    return v


def _with_rows(case: Case, fi: int, keep: list[int]) -> Case:
    f = case.frames[fi]
    cols = tuple(dataclasses.replace(c, values=tuple(c.values[i] for i in keep)) for c in f.columns)
    idx = None if f.index is None else tuple(f.index[i] for i in keep)
    frames = list(case.frames)
    frames[fi] = dataclasses.replace(f, columns=cols, index=idx)
    return dataclasses.replace(case, frames=tuple(frames))


def _candidates(case: Case) -> Iterator[Case]:
    # 1. drop steps (later first: earlier ones set up later ones)
    for i in reversed(range(len(case.steps))):
        if case.steps:  # down to no steps at all: the round trip through gframe.DataFrame
            yield dataclasses.replace(case, steps=case.steps[:i] + case.steps[i + 1:])
    # 2. unused df2 -> empty frame
    if not any("df2" in s.code for s in case.steps) and case.frames[1].columns:
        frames = (case.frames[0], Frame("df2", ()))
        yield dataclasses.replace(case, frames=frames)
    # 3. drop columns
    for fi, f in enumerate(case.frames):
        for j in range(len(f.columns)):
            frames = list(case.frames)
            frames[fi] = dataclasses.replace(f, columns=f.columns[:j] + f.columns[j + 1:])
            yield dataclasses.replace(case, frames=tuple(frames))
    # 4. drop rows: halves, then one at a time
    for fi, f in enumerate(case.frames):
        n = len(f.columns[0].values) if f.columns else 0
        chunk = n // 2
        while chunk >= 1:
            for start in range(0, n, chunk):
                keep = [i for i in range(n) if not start <= i < start + chunk]
                yield _with_rows(case, fi, keep)
            chunk //= 2
    # 5. default index
    for fi, f in enumerate(case.frames):
        if f.index is not None:
            frames = list(case.frames)
            frames[fi] = dataclasses.replace(f, index=None, index_name=None)
            yield dataclasses.replace(case, frames=tuple(frames))
    # 6. simpler values, one at a time
    for fi, f in enumerate(case.frames):
        for j, c in enumerate(f.columns):
            for i, v in enumerate(c.values):
                s = _simple_value(c, v)
                if s is not v and s != v:
                    vals = c.values[:i] + (s,) + c.values[i + 1:]
                    frames = list(case.frames)
                    cols = f.columns[:j] + (dataclasses.replace(c, values=vals),) + f.columns[j + 1:]
                    frames[fi] = dataclasses.replace(f, columns=cols)
                    yield dataclasses.replace(case, frames=tuple(frames))
    # 7. unused categories: keep them, they are often the point; drop an unused one only
    for fi, f in enumerate(case.frames):
        for j, c in enumerate(f.columns):
            if c.dtype == "category" and c.categories and len(c.categories) > 1:
                for cat in c.categories:
                    if cat not in c.values:
                        cats = tuple(x for x in c.categories if x != cat)
                        frames = list(case.frames)
                        cols = f.columns[:j] + (dataclasses.replace(c, categories=cats),) + f.columns[j + 1:]
                        frames[fi] = dataclasses.replace(f, columns=cols)
                        yield dataclasses.replace(case, frames=tuple(frames))


def _size(case: Case) -> int:
    return (sum(len(s.code) for s in case.steps) + sum(len(c.values) + 3 for f in case.frames for c in f.columns)
            + sum(f.index is not None for f in case.frames))


def shrink(case: Case, result: CaseResult | None = None, modes: Sequence[bool] = (True, False),
           engine: str = "cpu", budget: int = 400) -> tuple[Case, CaseResult]:
    """Greedy reduction: apply the first candidate edit that keeps the same bug, until none does."""
    result = result or run_case(case, modes, engine)
    if not result.failures:
        return case, result
    # run only the modes that failed
    fmodes = tuple(m for m in modes if ("opt" if m else "noopt") in {f.mode for f in result.failures}) or modes
    runs = 0
    improved = True
    while improved and runs < budget:
        improved = False
        for cand in _candidates(case):
            if _size(cand) >= _size(case):
                continue
            runs += 1
            try:
                r = run_case(cand, fmodes, engine)
            except Exception:  # noqa: BLE001, S112 - a candidate whose frame pandas cannot build
                continue
            if _same_bug(result, r):
                case, result = cand, r
                improved = True
                break
            if runs >= budget:
                break
    return case, result


def check_code(code: str, modes: Sequence[bool] = (True, False), engine: str | None = None) -> None:
    """Run a repro snippet (as printed by ``Case.code()``) and raise AssertionError on a difference.

    Lines before the pipeline mark build the inputs with pandas (handed to ``gframe.DataFrame``);
    lines after it run on pandas and on gframe.
    """
    import gframe

    setup, _, pipeline = code.partition(PIPELINE_MARK)
    pipeline = pipeline.replace("result = df", "").strip()
    ns = _namespace(pandas)
    exec(setup, ns)  # noqa: S102
    frames = {k: v for k, v in ns.items() if isinstance(v, pandas.DataFrame)}
    old_engine = gframe.options.engine
    try:
        try:
            expected = _run_pandas_steps(frames, pipeline)
            perr = None
        except Exception as exc:  # noqa: BLE001
            expected, perr = None, exc
        for opt in modes:
            try:
                if engine is not None:
                    gframe.options.engine = engine
                got = _run_gframe(frames, pipeline, opt)
                gerr = None
            except Exception as exc:  # noqa: BLE001
                got, gerr = None, exc
            tag = "optimizer on" if opt else "optimizer off"
            if perr is not None:
                assert gerr is not None, f"{tag}: pandas raised {perr!r}, gframe did not"
                assert isinstance(gerr, _expected_exception(perr)), f"{tag}: pandas raised {type(perr).__name__}, gframe {gerr!r}"
                continue
            assert gerr is None, f"{tag}: gframe raised {gerr!r}, pandas gave\n{expected!r}"
            diff = _assert_equal(expected, got)
            assert diff is None, f"{tag}: {diff[0]}: {diff[1]}\nexpected:\n{expected!r}\ngot:\n{got!r}"
    finally:
        gframe.options.engine = old_engine


# ----------------------------------------------------------------------------------------------------
# workers and campaign


def _modes(optimizer: str) -> tuple[bool, ...]:
    return {"on": (True,), "off": (False,), "both": (True, False)}[optimizer]


def _setup_engine(engine: str, fake_gpu: bool) -> None:
    if fake_gpu:
        from gframe.testing import fake_pylibcudf as fake  # the host stand-in for pylibcudf (CI only)

        fake.install()


def _worker(seeds: list[int], engine: str, optimizer: str, fake_gpu: bool, exclude: Sequence[str] = ()) -> None:
    """Worker loop: announce each case, run it, print its result as a JSON line."""
    _setup_engine(engine, fake_gpu)
    out = sys.stdout
    sys.stdout = io.StringIO()  # user code printing must not corrupt the protocol
    crash_seed = os.environ.get("GFRAME_FUZZ_TEST_CRASH")  # test hook: proves crash attribution works
    for seed in seeds:
        out.write(json.dumps({"start": seed}) + "\n")
        out.flush()
        if crash_seed is not None and seed == int(crash_seed):
            os.abort()
        try:
            case = generate(seed, exclude=exclude)
            res = run_case(case, _modes(optimizer), engine)
            payload = res.to_json()
        except Exception as exc:  # noqa: BLE001 - a fuzzer bug must not stop the campaign
            payload = {"seed": seed, "status": "skip", "ops": [], "failures": [],
                       "pandas_error": f"fuzzer error {type(exc).__name__}: {_short(str(exc), 200)}"}
        out.write(json.dumps(payload) + "\n")
        out.flush()
        sys.stdout.seek(0)
        sys.stdout.truncate()


def _spawn(seeds: list[int], args: argparse.Namespace) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "gframe.testing.fuzz", "--worker", "--engine", args.engine,
           "--optimizer", args.optimizer, "--seeds", ",".join(map(str, seeds))]
    if args.fake_gpu:
        cmd.append("--fake-gpu")
    if args.exclude:
        cmd += ["--exclude", args.exclude]
    env = dict(os.environ)
    env.setdefault("POLARS_MAX_THREADS", "1")  # workers share the machine's cores
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def run_many(seeds: list[int], args: argparse.Namespace, progress: Callable[[dict], None]) -> list[dict]:
    """Run seeds over ``args.jobs`` worker subprocesses; crashes and hangs are attributed to one case."""
    queue = collections.deque(seeds)
    results: list[dict] = []
    batch = max(1, min(200, len(seeds) // (args.jobs * 4) or 1))
    sel = selectors.DefaultSelector()
    procs: dict[Any, dict] = {}

    def launch() -> None:
        if not queue:
            return
        chunk = [queue.popleft() for _ in range(min(batch, len(queue)))]
        p = _spawn(chunk, args)
        st = {"proc": p, "pending": list(chunk), "current": None, "since": time.monotonic(), "buf": ""}
        procs[p.stdout] = st
        sel.register(p.stdout, selectors.EVENT_READ)

    def finish(st: dict, reason: str) -> None:
        p = st["proc"]
        sel.unregister(p.stdout)
        del procs[p.stdout]
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdout.close()
        cur = st["current"]
        if cur is not None:
            results.append({"seed": cur, "status": "fail", "ops": [], "pandas_error": None,
                            "failures": [{"mode": reason, "category": reason,
                                          "detail": f"worker {reason} (exit {p.returncode})"}]})
            progress(results[-1])
            st["pending"].remove(cur) if cur in st["pending"] else None
        queue.extendleft(reversed(st["pending"]))  # the rest of the batch goes back to the queue

    for _ in range(args.jobs):
        launch()
    while procs:
        for key, _ in sel.select(timeout=1.0):
            st = procs.get(key.fileobj)
            if st is None:
                continue
            line = key.fileobj.readline()
            if not line:
                finish(st, "crash")
                launch()
                continue
            msg = json.loads(line)
            if "start" in msg:
                st["current"], st["since"] = msg["start"], time.monotonic()
            else:
                st["current"] = None
                if msg["seed"] in st["pending"]:
                    st["pending"].remove(msg["seed"])
                results.append(msg)
                progress(msg)
                if not st["pending"]:
                    finish(st, "done")
                    launch()
        now = time.monotonic()
        for st in list(procs.values()):
            if st["current"] is not None and now - st["since"] > args.timeout:
                finish(st, "hang")
                launch()
    return results


def _confirm_crash(seed: int, args: argparse.Namespace) -> str:
    """Re-run one crashed case alone to check the crash is its own."""
    p = _spawn([seed], args)
    try:
        out, _ = p.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return "hang (alone)"
    return "crash (alone)" if p.returncode != 0 or '"status"' not in out else "passed alone (flaky/cumulative)"


def _shrink_one(job: tuple) -> dict:
    """Pool task: regenerate, shrink and classify one failing seed."""
    seed, exclude, modes, engine, fake_gpu, budget = job
    _setup_engine(engine, fake_gpu)
    try:
        case = generate(seed, exclude=exclude)
        small, res = shrink(case, None, modes, engine, budget=budget)
        return {"seed": seed, "signature": shrunk_signature(small, res), "class": classify(small, res),
                "code": small.code(), "size": _size(small),
                "failure": dataclasses.asdict(res.failures[0]) if res.failures else None}
    except Exception as exc:  # noqa: BLE001
        return {"seed": seed, "signature": f"shrink error {type(exc).__name__}: {exc}", "class": "?",
                "code": None, "size": 0, "failure": None}


def triage(args: argparse.Namespace, results: list[dict] | None = None) -> dict:
    """Shrink a seeded sample of the failures over ``args.jobs`` processes; group by shrunk signature.

    Raw signatures name the last step; the shrunk case names the culprit. Writes repros.md/json.
    """
    import multiprocessing

    if results is None:
        with open(os.path.join(args.out, "results.jsonl")) as fh:
            results = [json.loads(line) for line in fh]
    fails = [r for r in results if r["status"] == "fail" and r["failures"][0]["category"] not in ("crash", "hang")]
    sample = sorted(random.Random(args.seed).sample(fails, min(args.shrink, len(fails))), key=lambda r: r["seed"])
    jobs = [(r["seed"], _excl(args), _modes(args.optimizer), args.engine, args.fake_gpu, args.shrink_budget)
            for r in sample]
    with multiprocessing.get_context("spawn").Pool(args.jobs, maxtasksperchild=20) as pool:
        shrunk = pool.map(_shrink_one, jobs, chunksize=1)
    groups: dict[str, dict] = {}
    for r in shrunk:
        g = groups.setdefault(r["signature"], {"signature": r["signature"], "class": r["class"], "count": 0,
                                               "seeds": [], "code": None, "size": 1 << 30, "failure": None})
        g["count"] += 1
        g["seeds"].append(r["seed"])
        if r["code"] is not None and r["size"] < g["size"]:
            g.update(code=r["code"], size=r["size"], failure=r["failure"])
    ordered = sorted(groups.values(), key=lambda g: -g["count"])
    by_class = collections.Counter()
    for g in ordered:
        by_class[g["class"]] += g["count"]
    with open(os.path.join(args.out, "repros.md"), "w") as fh:
        fh.write(f"# shrunk repros: {len(sample)} of {len(fails)} failures sampled\n\n")
        fh.write("".join(f"- {n} {c}\n" for c, n in by_class.most_common()) + "\n")
        for g in ordered:
            fh.write(f"## {g['count']}x [{g['class']}] {g['signature']}\nseeds {g['seeds'][:10]}\n{g['failure']}\n\n"
                     f"```python\n{g['code']}```\n\n")
    with open(os.path.join(args.out, "repros.json"), "w") as fh:
        json.dump({"shrunk": shrunk, "groups": ordered}, fh, indent=1)
    out = {"shrunk_sample": len(sample), "failures": len(fails), "by_class": by_class.most_common(),
           "shrunk_groups": [[g["count"], g["class"], g["signature"]] for g in ordered]}
    if args.triage:  # a triage of an earlier (perhaps interrupted) run: count its results too
        counts = collections.Counter(r["status"] for r in results)
        cats = collections.Counter(r["failures"][0]["category"] for r in results if r["status"] == "fail")
        modes = collections.Counter("+".join(sorted({f["mode"] for f in r["failures"]})) for r in results
                                    if r["status"] == "fail")
        out.update(total=len(results), counts=dict(counts), categories=dict(cats), failing_modes=dict(modes),
                   seeds=[min(r["seed"] for r in results), max(r["seed"] for r in results)])
        with open(os.path.join(args.out, "triage.json"), "w") as fh:
            json.dump(out, fh, indent=1)
    return out


def campaign(args: argparse.Namespace) -> dict:
    seeds = list(range(args.seed, args.seed + args.n))
    os.makedirs(args.out, exist_ok=True)
    t0 = time.monotonic()
    counter = collections.Counter()
    log = open(os.path.join(args.out, "results.jsonl"), "w")  # noqa: SIM115 - written as results arrive

    def progress(msg: dict) -> None:
        counter[msg["status"]] += 1
        log.write(json.dumps(msg) + "\n")
        done = sum(counter.values())
        if done % 500 == 0:
            print(f"[{time.monotonic() - t0:6.0f}s] {done}/{len(seeds)} {dict(counter)}", flush=True)

    results = run_many(seeds, args, progress)
    log.close()
    by_sig: dict[str, list[dict]] = collections.defaultdict(list)
    for r in results:
        if r["status"] == "fail":
            f = r["failures"][0]
            by_sig[signature(Failure(**f), r["ops"])].append(r)
    for rs in by_sig.values():
        for r in rs:
            if r["failures"][0]["category"] in ("crash", "hang"):
                r["confirm"] = _confirm_crash(r["seed"], args)
    summary = {
        "command": " ".join(sys.argv),
        "seeds": [args.seed, args.seed + args.n - 1], "engine": args.engine, "optimizer": args.optimizer,
        "total": len(results), "counts": dict(counter), "seconds": round(time.monotonic() - t0, 1),
        "pandas_raised": sum(1 for r in results if r.get("pandas_error")),
        # cases that hit a known pandas bug (``PANDAS_BUGS``): pandas', not gframe's failures
        "pandas_bugs": [[r["seed"], r.get("pandas_error")] for r in results if r["status"] == "pandas-bug"],
        "signatures": sorted(([len(rs), sig, [r["seed"] for r in rs[:20]]] for sig, rs in by_sig.items()),
                             reverse=True),
    }
    if args.shrink:
        summary.update(triage(args, results))
    with open(os.path.join(args.out, "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
    return summary


def _excl(args: argparse.Namespace) -> list[str]:
    return [x for x in args.exclude.split(",") if x]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m gframe.testing.fuzz", description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0, help="first case seed")
    ap.add_argument("--n", type=int, default=1000, help="number of cases")
    ap.add_argument("--engine", default="cpu", choices=["cpu", "gpu"])
    ap.add_argument("--fake-gpu", action="store_true", help="GPU engine over the host pylibcudf stand-in")
    ap.add_argument("--optimizer", default="both", choices=["on", "off", "both"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=CASE_TIMEOUT_S, help="seconds per case before a hang")
    ap.add_argument("--out", default="fuzz-out")
    ap.add_argument("--shrink", type=int, default=200, help="shrink a sample of N failures, grouped by shrunk signature")
    ap.add_argument("--shrink-budget", type=int, default=300, help="candidate runs per shrink")
    ap.add_argument("--case", type=int, help="run one case in-process and print it (shrunk with --shrink)")
    ap.add_argument("--exclude", default="", help="comma-separated kinds not to draw, e.g. Int64,Float64,boolean,string, pa_date32, "
                    "or a group: arrow (every ArrowDtype kind; reproduces the earlier campaigns), nullable")
    ap.add_argument("--triage", action="store_true", help="only shrink/group the failures of an earlier run in --out")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--seeds", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _worker([int(s) for s in args.seeds.split(",")], args.engine, args.optimizer, args.fake_gpu, _excl(args))
        return 0
    if args.case is not None:
        _setup_engine(args.engine, args.fake_gpu)
        case = generate(args.case, exclude=_excl(args))
        res = run_case(case, _modes(args.optimizer), args.engine)
        if res.failures and args.shrink:
            case, res = shrink(case, res, _modes(args.optimizer), args.engine)
        print(case.code())
        print(json.dumps(res.to_json(), indent=1))
        return 1 if res.failures else 0
    if args.triage:
        t = triage(args)
        print(json.dumps({k: t[k] for k in ("total", "counts", "categories", "failing_modes", "seeds")}))
        for c, n in t["by_class"]:
            print(f"{n:5d}  {c}")
        for count, cls, sig in t["shrunk_groups"]:
            print(f"shrunk {count:4d}  [{cls}] {sig}")
        return 0
    summary = campaign(args)
    print(json.dumps({k: v for k, v in summary.items() if k != "signatures"}, indent=1))
    for count, sig, sample in summary["signatures"][:40]:
        print(f"{count:6d}  {sig}  seeds={sample[:5]}")
    for count, cls, sig in summary.get("shrunk_groups", [])[:80]:
        print(f"shrunk {count:4d}  [{cls}] {sig}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
