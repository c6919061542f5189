"""Where asm48 differs from asl 1.42 on purpose: forms asl refuses (or accepts only after
`RELAXED ON`) that asm48 knows.  By default asm48 refuses them like asl, giving asl's own
reason; `--relaxed` (assemble(relaxed=True)) accepts them with a warning naming the asl
form to write instead.  docs/asm48.md has the table of the dialect."""
from __future__ import annotations

from dataclasses import dataclass

from i18n import N_, _


@dataclass(frozen=True)
class Form:
    """One non-asl form: how it is written, asl's error message, what to write in asl,
    and whether asl accepts it after `RELAXED ON`. `written` and `instead` are marked for
    the catalog and translated where the sentence is made; `asl_error` is quoted as asl
    words it in English (tests/asm/asl_golden records it so)."""

    written: str
    asl_error: str
    instead: str
    relaxed_on: bool = False


FORMS: dict[str, Form] = {
    "$hex": Form(N_("'$' hex number"), "invalid symbol name", N_("0FFh (or RELAXED ON)"), True),
    "0xhex": Form(N_("'0x' hex number"), "invalid symbol name", N_("0FFh (or RELAXED ON)"),
                  True),
    "%bin": Form(N_("'%' binary number"), "invalid symbol name", N_("0101b (or RELAXED ON)"),
                 True),
    "0bbin": Form(N_("'0b' binary number"), "invalid symbol name", N_("0101b (or RELAXED ON)"),
                  True),
    "@oct": Form(N_("'@' octal number"), "invalid symbol name", N_("17o (or RELAXED ON)"), True),
    "x'..'": Form(N_("x'..' style number"), "invalid symbol name", N_("12h (or RELAXED ON)"),
                  True),
    "123d": Form(N_("decimal suffix 'd'"), "invalid symbol name", N_("the number without 'd'")),
    "*pc": Form(N_("'*' as the program counter"), "wrong number of operands", "$"),
    "!=": Form(N_("'!=' operator"), "wrong number of operands", "<>"),
    "%mod": Form(N_("'%' as modulo operator"), "invalid symbol name", "#"),
    "!not": Form(N_("unary '!' (logical not)"), "wrong number of operands", "~~"),
    "defined": Form("DEFINED()", "unknown function", "IFDEF/IFNDEF"),
    "hilo": Form(N_("built-in HI()/LO()/HIGH()/LOW()"), "unknown function",
                 N_('include "bitfuncs.inc" (it defines hi and lo) or (x>>8)&0FFh and x&0FFh')),
    "'AB'db": Form(N_("character constant of several characters in DB"), "range overflow",
                   N_('a "string" in double quotes')),
    "datanames": Form(N_("data directive name"), "unknown instruction", N_("DB, DW or DS")),
    "cpu": Form(N_("CPU name"), "invalid CPU type",
                N_("8021, 8022, 8039, 80C39, MSM80C39, 8048, 80C48, MSM80C48, 8041, 8042 "
                   "or 80C382")),
    "dot-plain": Form(N_("'.name' used outside the area of the last ordinary symbol"),
                      "symbol undefined",
                      N_("the composed name (proc.name) or a name without the dot")),
    "forward-if": Form(N_("forward reference in a condition"),
                       "expression must be evaluatable in first pass",
                       N_("define the symbol before the IF")),
}


def message(key: str, detail: str = "") -> str:
    """The sentence for a non-asl form: what it is, asl's reason, the asl way."""
    form = FORMS[key]
    what = f"{_(form.written)} {detail}".strip()
    if form.relaxed_on:
        text = _('{what} is not asl syntax without RELAXED ON (asl: "{asl}"); write {instead}')
    else:
        text = _('{what} is not asl syntax (asl: "{asl}"); write {instead}')
    return text.format(what=what, asl=form.asl_error, instead=_(form.instead))


@dataclass
class Dialect:
    """How strict this assembly is: `relaxed` (--relaxed) accepts asm48's extensions with a
    warning; `relaxed_on` is asl's RELAXED ON, under which asl itself takes some of them."""

    relaxed: bool = False
    relaxed_on: bool = False

    def accepts_silently(self, key: str) -> bool:
        """True for a form asl takes as it is set now (after RELAXED ON)."""
        return FORMS[key].relaxed_on and self.relaxed_on
