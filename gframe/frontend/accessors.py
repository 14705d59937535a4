"""``.str``, ``.dt`` and ``.cat``: each ``.str``/``.dt`` method is one ``Func`` expression named ``str.<name>`` / ``dt.<name>``.

The frontend validates arguments (pandas' exceptions, at the call) and decides what is native; the
parameters it puts in the plan are engine-neutral (a regex in the common subset of Python's and
Rust's syntax, a frequency as nanoseconds). Anything else runs through pandas, recorded.
"""
from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from gframe.fallback import user_stacklevel
from gframe.frontend.bridge import NotNative, full_signatures, via_pandas
from gframe.plan import logical as L
from gframe.plan.expr import BinOp, Lit, func
from gframe.plan.freq import freq_in_unit, freq_nanos
from gframe.plan.schema import (ARROW, ARROW_FAMILIES, OBJECT_FAMILIES, OBJECT_STRING, PYOBJECT, STRING, host_dtype,
                                is_na_family, is_string, pandas_dtype, string_storage)

_NO_DEFAULT: Any = pd.api.extensions.no_default

# Python regex syntax the engines' regex dialect (Rust's ``regex``) lacks: lookaround, back
# references, atomic groups, conditionals, ``\Z``, named characters (``\N{EURO SIGN}``)
_NOT_PORTABLE = re.compile(r"\(\?<?[=!]|\(\?P=|\(\?>|\(\?\(|\\[1-9]|\\Z|\\N\{")

try:
    from re import _parser as _sre  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_parse as _sre  # type: ignore[no-redef]

# parsed nodes whose meaning differs between Python's ``re`` and Rust's ``regex``: ``$`` (Python's
# also matches before a final newline), lookaround, back references, conditionals, atomic groups and
# possessive repeats (Rust has none). (``\s``/``\S`` are rewritten: ``engine_regex``.)
_DIFFERING = {(_sre.AT, _sre.AT_END)}
_UNSUPPORTED = {_sre.ASSERT, _sre.ASSERT_NOT, _sre.GROUPREF, _sre.GROUPREF_EXISTS,
                getattr(_sre, "ATOMIC_GROUP", None), getattr(_sre, "POSSESSIVE_REPEAT", None)} - {None}
# flags Rust's syntax lacks (``(?a)``, ``(?L)``) or reads otherwise (``(?x)``'s whitespace in classes)
_FLAGS_NOT_PORTABLE = re.ASCII | re.LOCALE | re.VERBOSE


def _regex_nodes(tree: Any) -> Any:
    """Every (op, argument) of a parsed pattern, nested ones included."""
    for op, av in tree:
        yield op, av
        if op == _sre.BRANCH:
            for sub in av[1]:
                yield from _regex_nodes(sub)
        elif op == _sre.SUBPATTERN:
            yield from _regex_nodes(av[-1])
        elif op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT) or op == getattr(_sre, "POSSESSIVE_REPEAT", None):
            yield from _regex_nodes(av[2])
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            yield from _regex_nodes(av[1])
        elif op == _sre.IN or op == getattr(_sre, "ATOMIC_GROUP", None):
            yield from _regex_nodes(av)
        elif op == _sre.GROUPREF_EXISTS:
            yield from _regex_nodes(av[1])
            if av[2] is not None:
                yield from _regex_nodes(av[2])


def portable_regex(pat: str) -> bool:
    """Whether ``pat`` means the same to Python's ``re`` (pandas' semantics, also for Arrow strings:
    pandas sends such patterns to ``re``) and, as ``engine_regex`` writes it, to the engines' dialect."""
    return engine_regex(pat) is not None


# what Python's ``\s`` takes beyond Rust's (``str.isspace``: the information separators)
_PY_SPACE_EXTRA = r"\x1c-\x1f"


def engine_regex(pat: str) -> str | None:
    r"""``pat`` in the engines' dialect (Rust's ``regex``) with Python's meaning; None where unsure.

    Rewritten: ``\s`` / ``\S`` as classes of Python's whitespace (nested classes inside a class);
    inside a class, ``[``, ``&`` and ``~`` are escaped (Rust reads ``[`` as a nested class and
    ``&&``/``~~`` as set operations, Python as the characters) and a leading ``]`` is escaped."""
    try:
        re.compile(pat)  # (Python's FutureWarnings - "Possible nested set" - reach the user, as on pandas)
        with warnings.catch_warnings():  # (once)
            warnings.simplefilter("ignore")
            tree = _sre.parse(pat)
    except (re.error, RecursionError):
        return None
    if _NOT_PORTABLE.search(pat) is not None or tree.state.flags & _FLAGS_NOT_PORTABLE:
        return None
    for op, av in _regex_nodes(tree):
        if op in _UNSUPPORTED or op == _sre.AT and (op, av) in _DIFFERING:
            return None
        if op == _sre.SUBPATTERN and (av[1] | av[2]) & _FLAGS_NOT_PORTABLE:
            return None
    out: list[str] = []
    i, n, in_class = 0, len(pat), False
    while i < n:
        ch = pat[i]
        if ch == "\\":
            nxt = pat[i + 1]  # (a trailing backslash does not compile)
            if nxt == "s":
                out.append(rf"\s{_PY_SPACE_EXTRA}" if in_class else rf"[\s{_PY_SPACE_EXTRA}]")
            elif nxt == "S":
                out.append(rf"[^\s{_PY_SPACE_EXTRA}]")
            else:
                out.append(pat[i:i + 2])
            i += 2
        elif in_class:
            if ch == "]":
                in_class = False
                out.append(ch)
            elif ch in "[&~":
                out.append("\\" + ch)
            elif ch == "-" and pat[i + 1:i + 2] == "-":
                return None  # Rust's class difference
            else:
                out.append(ch)
            i += 1
        elif ch == "[":
            in_class = True
            out.append(ch)
            i += 1
            if pat[i:i + 1] == "^":
                out.append("^")
                i += 1
            if pat[i:i + 1] == "]":  # a leading ``]`` is the character
                out.append("\\]")
                i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


# re's flags the engines take as a scoped inline group (``(?ms:...)``, read as Python reads them); re.UNICODE
# is Python's default for str patterns and IGNORECASE is the methods' ``case``
_INLINE_FLAGS = ((re.MULTILINE, "m"), (re.DOTALL, "s"))
_FLAGS_NATIVE = re.IGNORECASE | re.UNICODE | re.MULTILINE | re.DOTALL


def flagged_regex(pat: str, flags: int) -> str | None:
    """``engine_regex(pat)`` under re's ``flags`` (IGNORECASE aside: the caller's ``case``); None where
    a flag or the pattern is not the engines' to read as Python does."""
    if not isinstance(flags, int) or flags & ~_FLAGS_NATIVE:
        return None
    engine = engine_regex(pat)
    if engine is None:
        return None
    try:
        re.compile(pat, flags)
    except re.error:
        return None  # (pandas' re.error)
    inline = "".join(c for f, c in _INLINE_FLAGS if flags & f)
    return f"(?{inline}:{engine})" if inline else engine


def _may_match_empty(pat: str, flags: int) -> bool:
    """Whether ``pat`` can match the empty string somewhere (its shortest match is 0 characters)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _sre.parse(pat, flags).getwidth()[0] == 0


def _python_repl_to_template(repl: str, pattern: "re.Pattern[str] | None" = None) -> str | None:
    """A ``re.sub`` replacement (``\\1``, ``\\g<name>``) as a ``$``-template (``${1}``); None if unsure.

    A reference to a group ``pattern`` lacks is None too: Python's ``re`` raises "invalid group
    reference", pandas' pyarrow path reads ``\\20`` as group 2 and a ``0`` - pandas' to decide."""
    out = []
    i = 0
    escapes = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "f": "\f", "v": "\v", "a": "\a"}
    while i < len(repl):
        ch = repl[i]
        if ch == "$":
            out.append("$$")
            i += 1
        elif ch == "\\":
            m = re.match(r"\\(\d{1,2})|\\g<(\w+)>", repl[i:])
            if m:
                group = m.group(1) or m.group(2)
                if group == "0" and m.group(1):
                    return None  # "\0" is a NUL character to Python
                if pattern is not None and not (group.isdigit() and int(group) <= pattern.groups
                                                or group in pattern.groupindex):
                    return None
                out.append("${" + group + "}")
                i += m.end()
            elif i + 1 < len(repl) and repl[i + 1] in escapes:
                out.append(escapes[repl[i + 1]].replace("$", "$$"))
                i += 2
            else:
                return None  # pandas (re) raises "bad escape": let it
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _Accessor:
    _kind = ""
    _pandas_cls: Any = None

    def __init__(self, series: Any) -> None:
        self._s = series
        self._origin = series  # what a trip to pandas runs on

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        """pandas' accessor class, so that ``isinstance(s.str, StringMethods)`` holds for pandas' class
        as it does on pandas (``type()`` still names gframe's): a program that checks the accessor's
        type behaves the same on gframe."""
        return self._pandas_cls

    def __setattr__(self, name: str, value: Any) -> None:
        # pandas' accessors take no new attributes (``NoNewAttributesMixin``), with its message
        if not name.startswith("_"):
            raise AttributeError(f"You cannot add any new attribute '{name}'")
        object.__setattr__(self, name, value)

    def _fn(self, name: str, **params: Any) -> Any:
        return self._s._with(func(f"{self._kind}.{name}", self._s._expr, **params))

    def _fallback(self, name: str, *args: Any, **kwargs: Any) -> Any:
        kind = self._kind

        def run(ps: Any, *a: Any, **k: Any) -> Any:
            return getattr(getattr(ps, kind), name)(*a, **k)

        return via_pandas(f"Series.{kind}.{name}", run, (self._origin, *args), kwargs, "not native")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self._pandas_cls, name, None)
        if attr is None:
            raise AttributeError(f"'{self._pandas_cls.__name__}' object has no attribute {name!r}")
        if isinstance(attr, property):
            return self._fallback_property(name)
        return lambda *a, **k: self._fallback(name, *a, **k)

    def _fallback_property(self, name: str) -> Any:
        kind = self._kind
        return via_pandas(f"Series.{kind}.{name}", lambda ps: getattr(getattr(ps, kind), name), (self._origin,), {},
                          "not native")


def _na_value(na: Any) -> tuple[bool, Any]:
    """(native, fill) for a predicate's ``na``: the default fills False (pandas' str dtype)."""
    if na is _NO_DEFAULT:
        return True, False
    if isinstance(na, bool):
        return True, na
    return False, None


class CategoricalMethods(_Accessor):
    """``.cat``: every property and method through pandas, on the column's pandas Categorical.

    A categorical's categories and their order belong to its dtype, which pandas holds exactly;
    codes, ``categories``, ``ordered`` and the category edits (``rename_categories``,
    ``add_categories``, ``set_categories``, ``remove_unused_categories``, ``as_ordered``...) read or
    rewrite that dtype, so they run on it where it is exact. Each trip is recorded."""

    _kind = "cat"
    _pandas_cls = pd.core.arrays.categorical.CategoricalAccessor

    def __init__(self, series: Any) -> None:
        t = series._dtype_arrow
        if t is not None and not pa.types.is_dictionary(t) and not isinstance(host_dtype(series._family), pd.CategoricalDtype):
            # (a categorical of categories of several kinds is held as its objects: ``host_family``)
            raise AttributeError("Can only use .cat accessor with a 'category' dtype")
        super().__init__(series)


_PandasStringMethods = pd.core.strings.accessor.StringMethods


@full_signatures(_PandasStringMethods, lambda acc, name, a, k, why: acc._fallback(name, *a, **k))
class StringMethods(_Accessor):
    _kind = "str"
    _pandas_cls = _PandasStringMethods

    def __init__(self, series: Any) -> None:
        t = series._dtype_arrow
        categorical = t is not None and pa.types.is_dictionary(t) and is_string(t.value_type)
        # a column pandas holds as object (Python objects - ``datetime.fillna(True)`` -, ``astype(object)``
        # of numbers, ``.dt.date``, bools with missing values, a type the data decides): pandas decides
        # by the values (``infer_dtype``: strings, a mix, no values or only missing ones are taken;
        # bools or numbers raise AttributeError), so every method is pandas' (``_fn`` raises NotNative)
        self._objects = not categorical and not is_string(t) and pandas_dtype(t, True, series._family) == np.dtype("O")
        if t is not None and pa.types.is_dictionary(t) and not categorical or t == PYOBJECT:
            # a categorical of other categories (bytes, none at all, a mix pandas keeps as objects),
            # or a column pandas' dtype holds as the objects (a categorical of ``["a", 1]``):
            # pandas decides by the categories, as for Python objects
            self._objects = True
        if t is not None and not is_string(t) and not categorical and not self._objects:
            raise AttributeError("Can only use .str accessor with string values!")
        if self._objects:
            # pandas' own check of the values, with its message ("... not floating"); the values are read,
            # nothing is computed by pandas
            _PandasStringMethods._validate(series.to_pandas())
        # pandas applies .str to a categorical's string values: predicates as on str, while string
        # results come back in an object column (missing is NaN)
        super().__init__(series._with(func("cast", series._expr, dtype=t.value_type)) if categorical else series)
        self._origin = series
        self._categorical = categorical

    def _fn(self, name: str, **params: Any) -> Any:
        if self._objects:
            raise NotNative(f"str.{name} of Python objects")
        out = super()._fn(name, **params)
        # pandas: a categorical's string results are object, but ``replace`` keeps the categories' dtype
        # (``str``/``string``; object categories - data the plan does not type - stay object)
        if self._categorical and is_string(out._dtype_arrow) and (
                name != "replace" or self._origin.dtype.categories.dtype == np.dtype("O")):
            return out._with(func("cast", out._expr, dtype=OBJECT_STRING))
        return out

    @property
    def _object_dtype(self) -> bool:
        """Strings in an object column (``split().str.get``, ``astype(object)``): pandas' missing-value
        rules differ (a predicate keeps each missing value as it was, in an object column)."""
        t = self._s._dtype_arrow
        return t is None or t in (OBJECT_STRING, PYOBJECT) or self._s._family in OBJECT_FAMILIES

    def _na_value(self, na: Any) -> tuple[bool, Any]:
        """``_na_value``; the default for nullable / Arrow strings keeps NA (fill None). pandas' string
        dtypes read a missing ``na`` (None, NaN, NA) as the default (Python objects keep it)."""
        if na is not _NO_DEFAULT and not self._object_dtype and not self._categorical and not self._objects \
                and (na is None or na is pd.NA or isinstance(na, float) and na != na):
            na = _NO_DEFAULT
        native, fill = _na_value(na)
        if na is _NO_DEFAULT and is_na_family(self._s._family):
            fill = None
        return native, fill

    def _predicate_na(self, na: Any) -> tuple[bool, dict[str, Any]]:
        """(native, the predicate's ``na`` parameters). Strings in an object column with a bool ``na``:
        pandas fills each missing value with it (a bool result). With the default, pandas keeps each
        missing value as it was (None, NaN, NA: an object result), which the plan's object family
        does not tell apart (None shows as NaN): pandas'."""
        if not self._object_dtype:
            native, fill = self._na_value(na)
            return native, {"na": fill}
        t = self._s._dtype_arrow
        if self._objects or t not in (STRING, OBJECT_STRING) or not isinstance(na, bool):
            return False, {}
        return True, {"na": na}

    # ---------------------------------------------------------------- predicates
    def contains(self, pat: Any, case: bool = True, flags: int = 0, na: Any = _NO_DEFAULT, regex: bool = True) -> Any:
        native, nas = self._predicate_na(na)
        engine_pat = flagged_regex(pat, flags) if regex and isinstance(pat, str) else pat
        if not isinstance(pat, str) or not regex and flags not in (0, re.IGNORECASE) or not native \
                or engine_pat is None:
            return self._fallback("contains", pat, case=case, flags=flags, na=na, regex=regex)
        if flags & re.IGNORECASE:
            case = False
        if regex and re.compile(pat).groups:
            warnings.warn("This pattern is interpreted as a regular expression, and has match groups. To actually get "
                          "the groups, use str.extract.", UserWarning, stacklevel=user_stacklevel())  # (pandas')
        return self._fn("contains", pat=engine_pat, case=bool(case), regex=bool(regex), **nas)

    def _anchored(self, name: str, pat: Any, case: Any, flags: int, na: Any, end: str) -> Any:
        """``match`` / ``fullmatch``: a search of the pattern anchored at the start (and at the very
        end: Python's ``fullmatch``, which ``\\z`` is; ``$`` would also take a final newline's place)."""
        native, nas = self._predicate_na(na)
        on_flags = 0 if flags is _NO_DEFAULT else flags
        engine_pat = flagged_regex(pat, on_flags) if isinstance(pat, str) else None
        # pandas' resolution of ``case`` and ``flags`` (a string pattern: a compiled one is pandas')
        on_case = (not on_flags & re.IGNORECASE if isinstance(on_flags, int) else True) if case is _NO_DEFAULT else case
        if engine_pat is None or not native or not isinstance(on_case, bool):
            given = {k: v for k, v in (("case", case), ("flags", flags), ("na", na)) if v is not _NO_DEFAULT}
            return self._fallback(name, pat, **given)  # (pandas tells a given case from its default)
        if name == "fullmatch":
            on_case = on_case and not on_flags & re.IGNORECASE  # (re.compile's flags, as given)
        elif case is not _NO_DEFAULT and case and on_flags & re.IGNORECASE:
            raise ValueError("Cannot both specify case=True and pass 'flags' containing re.IGNORECASE")
        return self._fn("contains", pat=f"^(?:{engine_pat}){end}", case=on_case, regex=True, **nas)

    def match(self, pat: Any, case: Any = _NO_DEFAULT, flags: Any = _NO_DEFAULT, na: Any = _NO_DEFAULT) -> Any:
        return self._anchored("match", pat, case, flags, na, "")

    def fullmatch(self, pat: Any, case: bool = True, flags: int = 0, na: Any = _NO_DEFAULT) -> Any:
        return self._anchored("fullmatch", pat, case, flags, na, r"\z")

    def _affix(self, name: str, pat: Any, na: Any) -> Any:
        native, nas = self._predicate_na(na)
        pats = (pat,) if isinstance(pat, str) else pat
        if not native or not isinstance(pats, tuple) or not all(isinstance(p, str) for p in pats):
            if not isinstance(pat, (str, tuple)):
                raise TypeError(f"expected a string or tuple, not {type(pat).__name__}")
            return self._fallback(name, pat, na=na)
        return self._fn(name, pat=pats, **nas)

    def startswith(self, pat: Any, na: Any = _NO_DEFAULT) -> Any:
        return self._affix("startswith", pat, na)

    def endswith(self, pat: Any, na: Any = _NO_DEFAULT) -> Any:
        return self._affix("endswith", pat, na)

    def _char_class(self, name: str) -> Any:
        # pyarrow's Unicode classes, as pandas' pyarrow-backed strings; Python's (``str.isdigit``:
        # Python objects, categoricals, Python storage) differ for hundreds of characters: pandas'
        if self._object_dtype or self._objects or self._categorical or string_storage(self._s._family):
            return self._fallback(name)
        return self._fn(name, na=self._na_value(_NO_DEFAULT)[1])

    def isdigit(self) -> Any:
        return self._char_class("isdigit")

    def isalpha(self) -> Any:
        return self._char_class("isalpha")

    def isalnum(self) -> Any:
        return self._char_class("isalnum")

    def isspace(self) -> Any:
        return self._char_class("isspace")

    def islower(self) -> Any:
        return self._char_class("islower")

    def isupper(self) -> Any:
        return self._char_class("isupper")

    # ---------------------------------------------------------------- elementwise
    def len(self) -> Any:
        return self._fn("len")

    def _case(self, name: str) -> Any:
        # pandas' pyarrow-backed strings (``str``, ``string``, ArrowDtype) map case with pyarrow's
        # one-to-one table (``ß``.upper() is ``ẞ``, ``ǆ``.title() ``Ǆ``); Python objects with
        # Python's full mapping (``SS``, ``ǅ``), which is Polars' too
        if self._categorical or self._s._family in OBJECT_FAMILIES:
            return self._fn(name)
        return self._fn(name, mapping="arrow")

    def lower(self) -> Any:
        return self._case("lower")

    def upper(self) -> Any:
        return self._case("upper")

    def title(self) -> Any:
        return self._case("title")

    def _strip(self, name: str, to_strip: Any) -> Any:
        if to_strip is not None and not isinstance(to_strip, str):
            return self._fallback(name, to_strip)
        return self._fn(name, to_strip=to_strip)

    def strip(self, to_strip: Any = None) -> Any:
        return self._strip("strip", to_strip)

    def lstrip(self, to_strip: Any = None) -> Any:
        return self._strip("lstrip", to_strip)

    def rstrip(self, to_strip: Any = None) -> Any:
        return self._strip("rstrip", to_strip)

    def slice(self, start: Any = None, stop: Any = None, step: Any = None) -> Any:
        bounds = (start, stop)
        if step not in (None, 1) or not all(b is None or isinstance(b, int) and not isinstance(b, bool) for b in bounds):
            return self._fallback("slice", start, stop, step)
        return self._fn("slice", start=start, stop=stop)

    def get(self, i: Any) -> Any:
        if not isinstance(i, int) or isinstance(i, bool):
            return self._fallback("get", i)
        return self._fn("get", i=i)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self.slice(key.start, key.stop, key.step)
        return self.get(key)

    def replace(self, pat: Any, repl: Any = None, n: int = -1, case: Any = None, flags: int = 0, regex: bool = False) -> Any:
        def fallback() -> Any:
            return self._fallback("replace", pat, repl, n=n, case=case, flags=flags, regex=regex)

        if not self._objects:  # (pandas checks the values' kind first: bytes are refused before these)
            if isinstance(pat, dict) and repl is not None:
                raise ValueError("repl cannot be used when pat is a dictionary")
            if not isinstance(pat, dict) and not (isinstance(repl, str) or callable(repl)):
                raise TypeError("repl must be a string or callable")
        if isinstance(pat, dict) and pat and all(isinstance(k, str) and isinstance(v, str) for k, v in pat.items()) \
                and not self._objects:
            out = self._origin  # pandas: each pair in turn, on the result of the one before
            for key, value in pat.items():
                out = out.str.replace(key, value, n=n, case=case, flags=flags, regex=regex)
            return out
        if not isinstance(pat, str) or not isinstance(repl, str) or not isinstance(n, int) or pat == "" \
                or not regex and flags not in (0, re.IGNORECASE):
            return fallback()
        if flags & re.IGNORECASE:
            case = False
        case = True if case is None else bool(case)
        if regex:
            engine_pat = flagged_regex(pat, flags)
            template = _python_repl_to_template(repl, re.compile(pat, flags)) if engine_pat is not None else None
            if template is None:
                return fallback()
            pat = engine_pat
        else:
            template = repl
        return self._fn("replace", pat=pat, repl=template, n=n, case=case, regex=bool(regex))

    # ---------------------------------------------------------------- padding, affixes, repeats
    @property
    def _plain_strings(self) -> bool:
        """Strings the engines hold as pandas' string dtypes show them (not Python objects, not
        ArrowDtype: pandas computes those with other rules)."""
        return not (self._objects or self._object_dtype or self._s._family in ARROW_FAMILIES)

    def zfill(self, width: Any) -> Any:
        if not self._plain_strings or not isinstance(width, int) or isinstance(width, bool):
            return self._fallback("zfill", width)
        return self._fn("zfill", width=max(width, 0))

    def pad(self, width: Any, side: str = "left", fillchar: str = " ") -> Any:
        if not self._plain_strings or not isinstance(width, int) or isinstance(width, bool) \
                or side not in ("left", "right") or not isinstance(fillchar, str) or len(fillchar) != 1:
            return self._fallback("pad", width, side=side, fillchar=fillchar)  # (pandas' checks and messages)
        return self._fn("pad", width=max(width, 0), side=side, fillchar=fillchar)

    def rjust(self, width: Any, fillchar: str = " ") -> Any:
        if not self._plain_strings:
            return self._fallback("rjust", width, fillchar)
        return self.pad(width, "left", fillchar)

    def ljust(self, width: Any, fillchar: str = " ") -> Any:
        if not self._plain_strings:
            return self._fallback("ljust", width, fillchar)
        return self.pad(width, "right", fillchar)

    def _remove_affix(self, name: str, pat: Any) -> Any:
        if not self._plain_strings or not isinstance(pat, str):
            return self._fallback(name, pat)
        return self._fn(name, pat=pat)

    def removeprefix(self, prefix: Any) -> Any:
        return self._remove_affix("removeprefix", prefix)

    def removesuffix(self, suffix: Any) -> Any:
        return self._remove_affix("removesuffix", suffix)

    def repeat(self, repeats: Any) -> Any:
        """A scalar count: the column times the int (``str * int``, one repeat expression)."""
        if not self._plain_strings or self._categorical or not isinstance(repeats, (int, np.integer)) \
                or isinstance(repeats, (bool, np.bool_)):
            return self._fallback("repeat", repeats)
        return self._s._with(BinOp("mul", self._s._expr, Lit(int(repeats))))

    def count(self, pat: Any, flags: int = 0) -> Any:
        """Regex matches per string (Python's ``re.findall``): int64 (float64 where a string is missing;
        Int64 for ``string``). Python objects, Arrow strings and patterns the engines read otherwise are pandas'."""
        engine_pat = flagged_regex(pat, flags) if isinstance(pat, str) else None
        if engine_pat is None or self._objects or self._object_dtype or self._s._family in ARROW_FAMILIES \
                or _may_match_empty(pat, flags):
            # (an empty match right after a match: Python's findall counts it, the engines' regex not)
            return self._fallback("count", pat, flags=flags)
        return self._fn("count", pat=engine_pat, case=not flags & re.IGNORECASE)

    def extract(self, pat: Any, flags: int = 0, expand: bool = True) -> Any:
        """One ``str.extract`` expression per capture group (Python's ``re.search``, as pandas runs
        it for every string dtype): a frame of them labelled by the groups' names or numbers, or the
        one group's Series (named by the group, else as the column). The values keep the column's
        string dtype (a categorical's are objects). Python objects, Arrow strings, patterns the
        engines read otherwise and flags other than ``re.IGNORECASE`` are pandas'."""
        if not isinstance(expand, bool):
            raise ValueError("expand must be True or False")
        engine_pat = flagged_regex(pat, flags) if isinstance(pat, str) else None
        if engine_pat is None or self._objects or self._object_dtype or self._s._family in ARROW_FAMILIES:
            return self._fallback("extract", pat, flags=flags, expand=expand)
        regex = re.compile(pat, flags=flags)
        if regex.groups == 0:
            raise ValueError("pattern contains no capture groups")
        names = {v: k for k, v in regex.groupindex.items()}
        groups = [self._fn("extract", pat=engine_pat, group=i, case=not flags & re.IGNORECASE) for i in range(1, regex.groups + 1)]
        if not expand and regex.groups == 1:
            return groups[0].rename(names[1]) if 1 in names else groups[0]
        labels = [names.get(i, i - 1) for i in range(1, regex.groups + 1)]
        # (the Series makes its own frame: the accessor imports no frame class)
        frame_cls = type(self._s._frame())
        return frame_cls._from_plan(L.Select(tuple(zip(labels, (g._expr for g in groups))), self._s._plan))

    def split(self, pat: Any = None, *, n: int = -1, expand: bool = False, regex: Any = None) -> Any:
        if n is None or n == 0:
            n = -1
        literal = pat is None or isinstance(pat, str) and (regex is False or regex is None and len(pat) == 1
                                                            or re.escape(pat) == pat)
        if expand or not isinstance(n, int) or not literal or pat == "" or self._objects:
            return self._fallback("split", pat, n=n, expand=expand, regex=regex)
        return _SplitResult(self._s, pat, n, regex)


class _SplitResult:
    """``s.str.split(sep)``: the Series of lists pandas gives, lazy until ``.str.get(i)`` / ``.str[i]``
    picks one part (then one native op). Anything else - ``result[0]`` (the first row's list, a label
    lookup as on any Series), ``.str.join``, ``==``, ``len`` - is that Series of lists, from pandas
    (recorded), made once. ``isinstance(result, Series)`` holds, as on pandas."""

    def __init__(self, series: Any, pat: str | None, n: int, regex: Any) -> None:
        self._series = series
        self._pat = pat
        self._n = n
        self._regex = regex
        self._lists: Any = None

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return type(self._series)

    @property
    def str(self) -> "_SplitParts":
        return _SplitParts(self)

    def _part(self, i: Any) -> Any:
        if not isinstance(i, int) or isinstance(i, bool) or (self._n > 0 and i < 0):
            return self._materialize().str.get(i)
        return self._series._with(func("str.split_get", self._series._expr, pat=self._pat, n=self._n, i=i))

    def _materialize(self) -> Any:
        if self._lists is None:
            pat, n, regex = self._pat, self._n, self._regex
            self._lists = via_pandas("Series.str.split", lambda ps: ps.str.split(pat, n=n, regex=regex),
                                     (self._series,), {}, "list column")
        return self._lists

    def __getattr__(self, name: str) -> Any:
        # every other name, private ones too (``_plan``: gframe takes it for the Series it says it is)
        if name in ("_series", "_pat", "_n", "_regex", "_lists"):
            raise AttributeError(name)
        return getattr(self._materialize(), name)

    def to_pandas(self) -> Any:
        return self._materialize().to_pandas()

    def __repr__(self) -> str:
        return repr(self._materialize())


def _lists_dunder(name: str) -> Any:
    def method(self: _SplitResult, *args: Any) -> Any:
        return getattr(self._materialize(), name)(*args)

    method.__name__ = name
    return method


for _name in ("__getitem__", "__setitem__", "__len__", "__iter__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
              "__add__", "__radd__", "__mul__", "__rmul__", "__contains__", "__bool__", "__array__", "__invert__"):
    setattr(_SplitResult, _name, _lists_dunder(_name))
_SplitResult.__hash__ = None  # type: ignore[assignment]  # (as a Series: unhashable)


class _SplitParts:
    """``s.str.split(sep).str``: ``get(i)`` / ``[i]`` native, every other method the lists' ``.str``."""

    def __init__(self, result: _SplitResult) -> None:
        self._result = result

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return _PandasStringMethods

    def get(self, i: Any) -> Any:
        return self._result._part(i)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int) and not isinstance(i, bool):
            return self._result._part(i)
        return self._result._materialize().str[i]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._result._materialize().str, name)


_DATE_FIELDS = frozenset({"year", "month", "day", "quarter", "dayofweek", "dayofyear"})


@full_signatures(pd.core.indexes.accessors.CombinedDatetimelikeProperties, lambda acc, name, a, k, why: acc._fallback(name, *a, **k))
class DatetimeMethods(_Accessor):
    _kind = "dt"
    _pandas_cls = pd.core.indexes.accessors.CombinedDatetimelikeProperties

    def __init__(self, series: Any) -> None:
        t = series._dtype_arrow
        if t is not None and not (pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date(t)):
            raise AttributeError("Can only use .dt accessor with datetimelike values")
        super().__init__(series)

    def _timestamp(self) -> Any:
        """The column's Arrow timestamp type when native ops apply (tz-naive timestamps), else None."""
        t = self._s._dtype_arrow
        if t is not None and pa.types.is_timestamp(t) and t.tz is None:
            return t
        return None

    def _field(self, name: str) -> Any:
        t = self._s._dtype_arrow
        # date32[pyarrow] (read_parquet(dtype_backend="pyarrow")): its calendar fields are native
        # too (a numpy-family date column is pandas' object column, whose .dt pandas refuses)
        arrow_date = t is not None and (pa.types.is_date32(t) and name in _DATE_FIELDS or pa.types.is_timestamp(t)
                                         and name != "date") and is_na_family(self._s._family)
        if self._timestamp() is None and not arrow_date:
            return self._fallback_property(name)
        return self._fn(name)

    def _date(self) -> Any:
        """``dt.date``: pandas builds an object array of dates and infers its dtype back, so a column
        of rows none of which holds a value is ``datetime64[s]`` (NaT), any date makes it object. The
        type is the data's *here* (a later filter leaving only NaT keeps object): a count of the
        values, computed at the call (as ``astype``'s checks are), decides it in the plan."""
        if self._timestamp() is None:
            return self._fallback_property("date")
        from gframe import engines
        from gframe.plan import logical as L
        from gframe.plan.expr import Agg

        s = self._s
        if s._family in ARROW_FAMILIES:  # pyarrow's cast: date32[pyarrow]
            return s._with(func("cast", s._expr, dtype=pa.date32(), family=ARROW))
        counts = L.Aggregate((), (), (("n", Agg("count", (), s._expr)), ("rows", Agg("size", (), s._expr))),
                             False, True, False, s._plan)
        row = engines.materialize(counts).to_arrow().to_pylist()
        if row and row[0]["rows"] and not row[0]["n"]:
            return s._with(func("cast", s._expr, dtype=pa.timestamp("s")))
        return self._fn("date")

    date = property(lambda self: self._date())
    year = property(lambda self: self._field("year"))
    month = property(lambda self: self._field("month"))
    day = property(lambda self: self._field("day"))
    hour = property(lambda self: self._field("hour"))
    minute = property(lambda self: self._field("minute"))
    second = property(lambda self: self._field("second"))
    microsecond = property(lambda self: self._field("microsecond"))
    nanosecond = property(lambda self: self._field("nanosecond"))
    dayofweek = property(lambda self: self._field("dayofweek"))
    day_of_week = dayofweek
    weekday = dayofweek
    quarter = property(lambda self: self._field("quarter"))
    dayofyear = property(lambda self: self._field("dayofyear"))
    day_of_year = dayofyear

    def normalize(self) -> Any:
        return self._rounding("floor", "D", (), {}, api="normalize")

    def floor(self, freq: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("floor", freq, args, kwargs)

    def ceil(self, freq: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("ceil", freq, args, kwargs)

    def round(self, freq: Any, *args: Any, **kwargs: Any) -> Any:
        return self._rounding("round", freq, args, kwargs)

    def _rounding(self, name: str, freq: Any, args: Any, kwargs: Any, api: str | None = None) -> Any:
        t = self._timestamp()
        if args or kwargs or t is None:
            if api is not None:
                return self._fallback(api)
            return self._fallback(name, freq, *args, **kwargs)
        nanos = freq_nanos(freq)  # pandas' ValueError for an invalid or non-fixed frequency
        ticks = freq_in_unit(nanos, t.unit)
        if ticks is None:
            return self._fallback(api or name, *(() if api else (freq,)))
        if ticks <= 1:
            return self._s._with(self._s._expr)  # finer than the column's unit: unchanged
        return self._fn(name, freq=nanos)
