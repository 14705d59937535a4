"""GPU declarations of the ``str.`` functions: lowering to ``plc.strings`` and, beside each, when
it applies (a string input; options libcudf reads as Python does)."""
from __future__ import annotations

from typing import Any, Callable

import pyarrow as pa

from gframe.engines.gpu.functions import declare
from gframe.engines.gpu.kinds import kind, regex_ok
from gframe.engines.gpu.lib import expressions as E
from gframe.engines.gpu.lib import plc
from gframe.plan.expr import Func
from gframe.plan.schema import STRING

Types = "list[pa.DataType | None]"
BOOL, I32, I64 = pa.bool_(), pa.int32(), pa.int64()

# str.<name> -> plc.strings function (module.function) for the one-argument transforms
STR_TRANSFORMS = {"str.lower": ("case", "to_lower"), "str.upper": ("case", "to_upper")}
STR_STRIP_SIDES = {"str.strip": "BOTH", "str.lstrip": "LEFT", "str.rstrip": "RIGHT"}
STR_AFFIX = {"str.startswith": "starts_with", "str.endswith": "ends_with"}


def _string_input(check: Callable[[Func], "str | None"] | None = None) -> Any:
    """A reason: the input is a string column, and ``check`` (if any) accepts the options."""

    def reason(e: Func, args: Types, t: Any) -> str | None:
        if kind(args[0]) != "str":
            return f"{e.fn} of {args[0]}"
        return check(e) if check is not None else None

    return reason


def _x(ev: Any, e: Func) -> Any:
    return E.as_column(ev.eval(e.children[0]), ev.n)


@declare("str.len", reason=_string_input())
def _len(ev: Any, e: Func) -> Any:
    return plc.unary.cast(plc.strings.attributes.count_characters(_x(ev, e)), E.plc_type(I64))


@declare(*STR_TRANSFORMS, reason=_string_input())
def _transform(ev: Any, e: Func) -> Any:
    module, name = STR_TRANSFORMS[e.fn]
    return getattr(getattr(plc.strings, module), name)(_x(ev, e))


def _strip_check(e: Func) -> str | None:
    ts = e.param("to_strip")
    return None if ts is None or isinstance(ts, str) and ts != "" else f"{e.fn} to_strip={ts!r}"


@declare(*STR_STRIP_SIDES, reason=_string_input(_strip_check))
def _strip(ev: Any, e: Func) -> Any:
    S, ts = plc.strings, e.param("to_strip")
    side = getattr(S.side_type.SideType, STR_STRIP_SIDES[e.fn])
    return S.strip.strip(_x(ev, e), side, E.scalar(ts, STRING) if ts is not None else None)


def _slice_check(e: Func) -> str | None:
    start, stop = e.param("start"), e.param("stop")
    return None if all(b is None or isinstance(b, int) and b >= 0 for b in (start, stop)) else "str.slice with negative bounds"


@declare("str.slice", reason=_string_input(_slice_check))
def _slice(ev: Any, e: Func) -> Any:
    return plc.strings.slice.slice_strings(_x(ev, e), E.scalar(e.param("start"), I32), E.scalar(e.param("stop"), I32))


def _replace_check(e: Func) -> str | None:
    p = e.param
    if p("regex", False) or not p("case", True) or not p("pat") or not isinstance(p("repl"), str):
        return "str.replace with a regex or without case"
    return None


@declare("str.replace", reason=_string_input(_replace_check))
def _replace(ev: Any, e: Func) -> Any:
    x, n = _x(ev, e), e.param("n", -1)
    if n == 0:
        return x
    return plc.strings.replace.replace(x, E.scalar(e.param("pat"), STRING), E.scalar(e.param("repl"), STRING),
                                       n if n > 0 else -1)


def _contains_check(e: Func) -> str | None:
    pat = e.param("pat")
    if not isinstance(pat, str) or not (isinstance(e.param("na"), bool) or e.param("na") is None):
        return "str.contains with these options"
    if e.param("regex", True):
        return None if regex_ok(pat) else f"regex {pat!r} is not portable to libcudf"
    return None if e.param("case", True) or pat.isascii() else "case-insensitive contains of a non-ASCII pattern"


@declare("str.contains", reason=_string_input(_contains_check))
def _contains(ev: Any, e: Func) -> Any:
    S, p, x = plc.strings, e.param, _x(ev, e)
    pat, case, regex = p("pat"), p("case", True), p("regex", True)
    if regex:
        flags = S.regex_flags.RegexFlags.DEFAULT if case else S.regex_flags.RegexFlags.IGNORECASE
        prog = S.regex_program.RegexProgram.create(pat, flags)
        res = S.contains.contains_re(x, prog)
    elif case:
        res = S.find.contains(x, E.scalar(pat, STRING))
    else:
        res = S.find.contains(S.case.to_lower(x), E.scalar(pat.lower(), STRING))
    return res if p("na") is None else E.fill_null(res, p("na"))  # None: NA stays (nullable strings)


def _affix_check(e: Func) -> str | None:
    pats = e.param("pat")
    na = e.param("na")
    # na None: the NA of nullable / Arrow strings stays (libcudf's null), with at least one pattern
    return None if isinstance(pats, tuple) and all(isinstance(s, str) for s in pats) \
        and (isinstance(na, bool) or na is None and len(pats) > 0) else f"{e.fn} with these options"


@declare(*STR_AFFIX, reason=_string_input(_affix_check))
def _affix(ev: Any, e: Func) -> Any:
    x, pats, na = _x(ev, e), e.param("pat"), e.param("na")
    if not pats:
        isnull = plc.unary.is_null(x)
        return plc.copying.copy_if_else(E.scalar(na, BOOL), E.scalar(False, BOOL), isnull)
    f = getattr(plc.strings.find, STR_AFFIX[e.fn])
    res = f(x, E.scalar(pats[0], STRING))
    for pat in pats[1:]:
        res = ev.binary("LOGICAL_OR", res, f(x, E.scalar(pat, STRING)), BOOL)
    return res if na is None else E.fill_null(res, na)
