"""CPU declarations of the ``str.`` functions, with Python's string semantics (``functions.py``)."""
from __future__ import annotations

import polars as pl

from gframe.engines.cpu.expressions import Lowering
from gframe.engines.cpu.functions import declare
from gframe.errors import UnsupportedError
from gframe.plan.expr import Func

Args = "list[pl.Expr]"

# the str.isX predicates as pandas' pyarrow-backed strings compute them: pyarrow's kernels (Python's
# ``str.isdigit`` and the regex classes differ from them; the frontend sends other strings to pandas)
_CHAR_CLASSES = {"isdigit": "utf8_is_digit", "isalpha": "utf8_is_alpha", "isalnum": "utf8_is_alnum",
                 "isspace": "utf8_is_space", "islower": "utf8_is_lower", "isupper": "utf8_is_upper"}


@declare("str.contains", "str.startswith", "str.endswith", "str.isdigit", "str.isalpha", "str.isalnum",
         "str.isspace", "str.islower", "str.isupper")
def _predicate(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    out = _str_predicate(e.fn[4:], args[0], e)
    return out if e.param("na") is None else out.fill_null(e.param("na"))  # None: NA stays (nullable strings)


def _str_predicate(name: str, x: pl.Expr, e: Func) -> pl.Expr:
    p = e.param
    s = x.str
    if name == "contains":
        pat, case, regex = p("pat"), p("case", True), p("regex", True)
        if case:
            return s.contains(pat, literal=not regex)
        return s.contains("(?i)" + (pat if regex else pl.escape_regex(pat)))
    if name in ("startswith", "endswith"):
        fn = s.starts_with if name == "startswith" else s.ends_with
        pats = p("pat")
        if not pats:
            return pl.when(x.is_null()).then(None).otherwise(pl.lit(False))
        out = fn(pats[0])
        for pat in pats[1:]:
            out = out | fn(pat)
        return out
    if name in _CHAR_CLASSES:
        return _arrow_predicate(x, _CHAR_CLASSES[name])
    raise UnsupportedError(f"str.{name}")


def _arrow_predicate(x: pl.Expr, kernel: str) -> pl.Expr:
    """A pyarrow string predicate, one call a batch (as ``_arrow_case``)."""
    import pyarrow.compute as pc

    fn = getattr(pc, kernel)
    return x.map_batches(lambda s: pl.from_arrow(fn(s.to_arrow())), return_dtype=pl.Boolean, is_elementwise=True)


@declare("str.len")
def _len(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return args[0].str.len_chars().cast(pl.Int64)


def _arrow_case(x: pl.Expr, kernel: str) -> pl.Expr:
    """pyarrow's case mapping (one code point to one: ``ß`` upper is ``ẞ``), which pandas applies to
    its pyarrow-backed strings; Polars' is Python's full mapping (``SS``). One pyarrow call a batch."""
    import pyarrow.compute as pc

    fn = getattr(pc, kernel)
    return x.map_batches(lambda s: pl.from_arrow(fn(s.to_arrow())), return_dtype=pl.String, is_elementwise=True)


@declare("str.lower")
def _lower(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return _arrow_case(args[0], "utf8_lower") if e.param("mapping") == "arrow" else args[0].str.to_lowercase()


@declare("str.upper")
def _upper(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return _arrow_case(args[0], "utf8_upper") if e.param("mapping") == "arrow" else args[0].str.to_uppercase()


@declare("str.title")
def _title(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return _arrow_case(args[0], "utf8_title") if e.param("mapping") == "arrow" else args[0].str.to_titlecase()


@declare("str.strip", "str.lstrip", "str.rstrip")
def _strip(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    s = args[0].str
    fn = {"str.strip": s.strip_chars, "str.lstrip": s.strip_chars_start, "str.rstrip": s.strip_chars_end}[e.fn]
    return fn(e.param("to_strip"))


@declare("str.slice")
def _slice(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    return _py_slice(args[0], e.param("start"), e.param("stop"))


def _py_slice(x: pl.Expr, start: int | None, stop: int | None) -> pl.Expr:
    """Python's ``s[start:stop]`` on every string (negative bounds count from the end)."""
    if (start is None or start >= 0) and (stop is None or stop >= 0):
        begin = start or 0
        return x.str.slice(begin, None if stop is None else max(stop - begin, 0))
    n = x.str.len_chars().cast(pl.Int64)

    def bound(b: int | None, default: pl.Expr) -> pl.Expr:
        if b is None:
            return default
        if b >= 0:
            return pl.min_horizontal(pl.lit(b, dtype=pl.Int64), n)
        return pl.max_horizontal(n + b, pl.lit(0, dtype=pl.Int64))

    lo = bound(start, pl.lit(0, dtype=pl.Int64))
    hi = bound(stop, n)
    return x.str.slice(lo, pl.max_horizontal(hi - lo, pl.lit(0, dtype=pl.Int64)))


@declare("str.get")
def _get(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    s, i = args[0].str, e.param("i")
    n = s.len_chars()
    inside = (n > i) if i >= 0 else (n >= -i)
    return pl.when(inside).then(s.slice(i, 1)).otherwise(None)


@declare("str.replace")
def _replace(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    x, p = args[0], e.param
    pat, repl, n, case, regex = p("pat"), p("repl"), p("n", -1), p("case", True), p("regex", False)
    if n == 0:
        return x
    if not case:
        pat, regex = "(?i)" + (pat if regex else pl.escape_regex(pat)), True
        if repl is not None and not p("regex", False):
            repl = repl.replace("$", "$$")  # a literal replacement inside a regex substitution
    if n < 0:
        return x.str.replace_all(pat, repl, literal=not regex)
    return x.str.replace(pat, repl, literal=not regex, n=n)


@declare("str.zfill")
def _zfill(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Python's ``str.zfill``: zeros after a leading sign, widths in code points. Built on
    ``pad_start`` (code points in every Polars): Polars 1.x's ``zfill`` counts bytes ("ééé" is
    6 wide there, so it was not padded to 4)."""
    s, width = args[0], max(int(e.param("width")), 0)
    signed = s.str.starts_with("-") | s.str.starts_with("+")
    return pl.when(signed).then(pl.concat_str([s.str.slice(0, 1), s.str.slice(1).str.pad_start(max(width - 1, 0), "0")])) \
        .otherwise(s.str.pad_start(width, "0"))


@declare("str.pad")
def _pad(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Python's ``rjust`` (side "left") / ``ljust`` (side "right"), in code points."""
    s = args[0].str
    fn = s.pad_start if e.param("side") == "left" else s.pad_end
    return fn(e.param("width"), e.param("fillchar"))


@declare("str.removeprefix", "str.removesuffix")
def _remove_affix(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    s = args[0].str
    return (s.strip_prefix if e.fn == "str.removeprefix" else s.strip_suffix)(e.param("pat"))


@declare("str.count")
def _count(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Non-overlapping matches of ``pat`` (Python's ``len(re.findall(pat, s))``), missing where the string is."""
    pat = e.param("pat") if e.param("case", True) else "(?i)" + e.param("pat")
    return args[0].str.count_matches(pat).cast(pl.Int64)


@declare("str.extract")
def _extract(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Capture group ``group`` of the first match of ``pat`` (Python's ``re.search``); missing where
    nothing matches or the group took no part in the match."""
    pat = e.param("pat") if e.param("case", True) else "(?i)" + e.param("pat")
    return args[0].str.extract(pat, e.param("group"))


@declare("str.to_datetime")
def _to_datetime(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    """Unparsable values become missing (the frontend checks there are none)."""
    return args[0].str.strptime(pl.Datetime(e.param("unit", "us")), e.param("format"), strict=False, exact=True)


@declare("str.split_get")
def _split_get(lo: Lowering, e: Func, args: Args) -> pl.Expr:
    s, p = args[0].str, e.param
    pat, n, i = p("pat"), p("n", -1), p("i")
    if pat is None:  # Python's str.split(): runs of whitespace, no empty parts
        if n is not None and n > 0:
            raise UnsupportedError("str.split() on whitespace with a maximum")
        parts = s.extract_all(r"\S+")
    elif n is not None and n > 0:
        if i < 0:
            raise UnsupportedError("str.split(n=...) with a negative index")
        if i > n:
            return pl.lit(None, dtype=pl.String)
        return s.splitn(pat, n + 1).struct.field(f"field_{i}")
    else:
        parts = s.split(pat)
    return parts.list.get(i, null_on_oob=True)
