"""Where asm48 differs from asl 1.42 on purpose: forms asl refuses (or accepts only after
`RELAXED ON`) that asm48 knows.  By default asm48 refuses them like asl, giving asl's own
reason; `--relaxed` (assemble(relaxed=True)) accepts them with a warning naming the asl
form to write instead.  docs/asm48.md has the table of the dialect."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Form:
    """One non-asl form: how it is written, asl's error message, what to write in asl,
    and whether asl accepts it after `RELAXED ON`."""

    written: str
    asl_error: str
    instead: str
    relaxed_on: bool = False


FORMS: dict[str, Form] = {
    "$hex": Form("'$' hex number", "invalid symbol name", "0FFh (or RELAXED ON)", True),
    "0xhex": Form("'0x' hex number", "invalid symbol name", "0FFh (or RELAXED ON)", True),
    "%bin": Form("'%' binary number", "invalid symbol name", "0101b (or RELAXED ON)", True),
    "0bbin": Form("'0b' binary number", "invalid symbol name", "0101b (or RELAXED ON)", True),
    "@oct": Form("'@' octal number", "invalid symbol name", "17o (or RELAXED ON)", True),
    "x'..'": Form("x'..' style number", "invalid symbol name", "12h (or RELAXED ON)", True),
    "123d": Form("decimal suffix 'd'", "invalid symbol name", "the number without 'd'"),
    "*pc": Form("'*' as the program counter", "wrong number of operands", "$"),
    "!=": Form("'!=' operator", "wrong number of operands", "<>"),
    "%mod": Form("'%' as modulo operator", "invalid symbol name", "#"),
    "!not": Form("unary '!' (logical not)", "wrong number of operands", "~~"),
    "defined": Form("DEFINED()", "unknown function", "IFDEF/IFNDEF"),
    "hilo": Form("built-in HI()/LO()/HIGH()/LOW()", "unknown function",
                 'include "bitfuncs.inc" (it defines hi and lo) or (x>>8)&0FFh and x&0FFh'),
    "'AB'db": Form("character constant of several characters in DB", "range overflow",
                   'a "string" in double quotes'),
    "datanames": Form("data directive name", "unknown instruction", "DB, DW or DS"),
    "cpu": Form("CPU name", "invalid CPU type",
                "8021, 8022, 8039, 80C39, MSM80C39, 8048, 80C48, MSM80C48, 8041, 8042 "
                "or 80C382"),
    "dot-plain": Form("'.name' used outside the area of the last ordinary symbol",
                      "symbol undefined",
                      "the composed name (proc.name) or a name without the dot"),
    "forward-if": Form("forward reference in a condition",
                       "expression must be evaluatable in first pass",
                       "define the symbol before the IF"),
}


def message(key: str, detail: str = "") -> str:
    """The sentence for a non-asl form: what it is, asl's reason, the asl way."""
    form = FORMS[key]
    what = f"{form.written} {detail}".strip()
    when = " without RELAXED ON" if form.relaxed_on else ""
    return (f"{what} is not asl syntax{when} (asl: \"{form.asl_error}\"); "
            f"write {form.instead}")


@dataclass
class Dialect:
    """How strict this assembly is: `relaxed` (--relaxed) accepts asm48's extensions with a
    warning; `relaxed_on` is asl's RELAXED ON, under which asl itself takes some of them."""

    relaxed: bool = False
    relaxed_on: bool = False

    def accepts_silently(self, key: str) -> bool:
        """True for a form asl takes as it is set now (after RELAXED ON)."""
        return FORMS[key].relaxed_on and self.relaxed_on
