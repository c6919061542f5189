"""MACRO definitions, how a call binds its arguments (asl's rules), and the expansions being
assembled (for SHIFT, EXITM and the nesting and size limits)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from i18n import _

from .errors import SourceError
from .expansion import Controls, Expansion, is_control
from .lexer import Operand, Statement, top_level, unquoted
from .sections import Sections
from .source import SrcLine

MACRO_PARAM_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")


@dataclass
class Macro:
    """A MACRO definition: parameter names (upper case), their defaults ("" = none given)
    and the body lines, substituted at each call."""

    name: str
    params: list[str]
    body: list[SrcLine]
    defaults: list[str] = field(default_factory=list)
    controls: Controls = field(default_factory=Controls)

    def call(self, st: Statement, src: SrcLine) -> Expansion:
        """The expansion of a call with the statement's arguments, bound as asl binds them:
        positional arguments first, then `name=value` keyword arguments; an empty positional
        argument or a missing one takes the parameter's default, a keyword argument may set
        it empty; arguments beyond the parameters are allowed (they count in ARGCOUNT,
        appear in ALLARGS and move into the parameters with SHIFT).  Arguments are
        upper-cased outside quotes, as asl does in its default case-insensitive mode (it
        shows when a parameter is used in a string)."""
        args = [upcase_unquoted(o.text) for o in st.operands]
        index = {p: k for k, p in enumerate(self.params)}
        values: list[str | None] = [None] * len(self.params)
        positional = len(args)             # the arguments before the first keyword one
        for k, (arg, operand) in enumerate(zip(args, st.operands)):
            keyword = keyword_argument(arg)
            if keyword is not None:
                name, value = keyword
                if name not in index:
                    raise SourceError(_("macro {macro} has no parameter '{name}' (keyword "
                                        "argument '{text}')").format(
                                            macro=self.name, name=name, text=operand.text),
                                      column=operand.column)
                values[index[name]] = value
                positional = min(positional, k)
            elif positional < len(args):
                raise SourceError(_("positional macro argument after a keyword argument "
                                    "(asl allows none)"), column=operand.column)
        for k in range(min(positional, len(self.params))):
            if args[k] and values[k] is None:
                values[k] = args[k]
        bound = [v if v is not None else self.defaults[k] for k, v in enumerate(values)]
        extra = args[len(self.params):positional]
        controls = self.controls
        return Expansion(
            "MACRO", list(self.params), bound + extra, list(args),
            # asl 1.42 counts the arguments written (its manual says missing ones count too)
            len(args),
            label=(st.label or "") if controls.int_label else None,
            listed=src.listed if controls.expand is None else controls.expand)


@dataclass
class Macros:
    """The macros defined (by key: NAME, or SECTION.NAME for one defined in a section) and
    the expansions being assembled, innermost last."""

    defined: dict[str, Macro] = field(default_factory=dict)
    running: list[Expansion] = field(default_factory=list)
    expanded_lines: int = 0     # lines expanded from block bodies in this pass
    expanded_text: int = 0      # characters of the lines substituted in this pass

    def find(self, name: str, sections: Sections) -> Macro | None:
        """The macro `name` as seen here: one of the open sections first, then global."""
        return next((self.defined[k] for k in sections.scope_keys(name) if k in self.defined),
                    None)

    def shift(self) -> None:
        """SHIFT: drop the first argument of the innermost macro expansion (a REPT or IRP
        inside it is skipped, as in asl)."""
        for expansion in reversed(self.running):
            if expansion.kind == "MACRO":
                expansion.shift()
                return
        raise SourceError(_("SHIFT outside a macro"))


def macro_parameters(operands: Sequence[Operand]) -> tuple[list[str], list[str]]:
    """Parameter names (upper case) and defaults of a MACRO line: `p1,p2=default`.
    asl allows only letters and digits in parameter names, because an underscore (or any
    other character) in the body ends a parameter name (`lbl_x` uses parameter `x`).
    Control parameters in braces are taken out before (expansion.split_controls)."""
    params: list[str] = []
    defaults: list[str] = []
    for o in operands:
        if is_control(o):
            continue
        text = o.text
        eq = top_level_equals(text)
        name, default = (text, "") if eq is None else (text[:eq].strip(), text[eq + 1:].strip())
        if not MACRO_PARAM_RE.fullmatch(name):
            raise SourceError(_("invalid macro parameter '{name}' (asl allows only letters and "
                                "digits: an underscore in the body ends a "
                                "parameter name)").format(name=name),
                              column=o.column)
        if name.upper() in params:
            raise SourceError(_("macro parameter '{name}' declared twice").format(name=name),
                              column=o.column)
        params.append(name.upper())
        defaults.append(default)
    return params, defaults


def top_level_equals(text: str) -> int | None:
    """Index of the first `=` outside quotes and parentheses, or None."""
    return next((i for i, c in top_level(text) if c == "="), None)


def keyword_argument(arg: str) -> tuple[str, str] | None:
    """(NAME, value) for a macro argument written `name=value`, else None.  Only a plain
    name before the `=` makes a keyword argument, so `x==1` or `a<=b` stay positional."""
    eq = top_level_equals(arg)
    if eq is None or arg[eq + 1:eq + 2] == "=":
        return None
    name = arg[:eq].strip()
    if not MACRO_PARAM_RE.fullmatch(name):
        return None
    return name.upper(), arg[eq + 1:].strip()


def upcase_unquoted(text: str) -> str:
    """The text upper-cased outside quoted literals."""
    out = list(text)
    try:
        for i, c in unquoted(text):
            out[i] = c.upper()
    except SourceError:
        return text
    return "".join(out)
