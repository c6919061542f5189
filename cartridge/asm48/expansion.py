"""One running expansion of a MACRO, REPT, IRP or IRPC block, and the control parameters in
braces that steer it.

Body lines are substituted when they are reached, not all at the start, because asl does it
that way and `SHIFT` depends on it: a SHIFT changes the arguments seen by the lines after it
only.  A block nested in the body (REPT inside a macro) is collected from lines already
substituted, as in asl, so SHIFT inside it has no effect on its copy.

The rules are asl's (its manual, sections MACRO, IRP, IRPC, REPT and SHIFT):

* labels defined in an expansion are local to it unless the block was declared with
  `{GLOBALSYMBOLS}`; every REPT/IRP/IRPC iteration is an expansion of its own;
* `{INTLABEL}`: the label of the call line is not defined there but handed to the body as
  `__LABEL__`;
* `{EXPAND}`/`{NOEXPAND}`: whether the expanded lines appear in the listing."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from i18n import _

from .errors import SourceError
from .lexer import Operand, strip_comment
from .source import SrcLine

ALNUM_RUN_RE = re.compile(r"[A-Za-z0-9]+")
INTERNAL_LABEL_RE = re.compile(r"(?<![A-Za-z0-9])__LABEL__(?![A-Za-z0-9])", re.IGNORECASE)

# Control parameters asl knows on a MACRO line (each also with a NO prefix).  Those without
# an effect on the bytes (export to a macro file, listing classes, section visibility of the
# macro) are accepted and ignored.
MACRO_CONTROLS = frozenset({"GLOBALSYMBOLS", "INTLABEL", "EXPAND", "EXPIF", "EXPMACRO",
                            "EXPREST", "EXPORT", "GLOBAL", "PUBLIC"})
BLOCK_CONTROLS = frozenset({"GLOBALSYMBOLS"})      # REPT, IRP, IRPC


@dataclass
class Controls:
    """The control parameters of a MACRO/REPT/IRP/IRPC line (None = not given)."""

    global_symbols: bool = False
    int_label: bool = False
    expand: bool | None = None


def is_control(operand: Operand) -> bool:
    text = operand.text
    return len(text) >= 2 and text[0] == "{" and text[-1] == "}"


def split_controls(operands: Sequence[Operand], known: frozenset[str],
                   what: str) -> tuple[Controls, list[Operand]]:
    """Separate the `{...}` control parameters (anywhere in the list, as asl allows) from
    the other operands.  An unknown control parameter is an error, as in asl."""
    controls = Controls()
    rest: list[Operand] = []
    for o in operands:
        if not is_control(o):
            rest.append(o)
            continue
        word = o.text[1:-1].strip().upper()
        base = word.split(":", 1)[0].strip()       # GLOBAL:section, PUBLIC:section
        value = True
        if base not in known and base.startswith("NO") and base[2:] in known:
            base, value = base[2:], False
        if base not in known:
            raise SourceError(_("unknown control parameter '{text}' for {what}").format(
                text=o.text, what=what), column=o.column)
        if base == "GLOBALSYMBOLS":
            controls.global_symbols = value
        elif base == "INTLABEL":
            controls.int_label = value
        elif base == "EXPAND":
            controls.expand = value
    return controls, rest


def substitute(text: str, mapping: dict[str, str]) -> str:
    """Replace macro parameters in a body line the way asl does: a parameter is any run of
    letters and digits equal to its name (case-insensitive), so an underscore, a dot or
    any other character ends it (`lbl_x` and `x_loop` use parameter `x`, `xy` does not),
    and asl replaces it inside quotes too (`db "X"` in a macro with parameter x).  The
    `;` comment is left as it is."""
    if not mapping:
        return text
    try:
        code = strip_comment(text)
    except SourceError:
        code = text
    body = ALNUM_RUN_RE.sub(lambda m: mapping.get(m.group(0).upper(), m.group(0)), code)
    return body + text[len(code):]


@dataclass
class Expansion:
    """The state of one expansion: what its parameters stand for right now.

    For a macro, `values` holds the declared parameters' values followed by any extra
    positional arguments; SHIFT drops the first one, so every parameter takes the value of
    the next (the last declared one takes the first extra argument, or becomes empty),
    ALLARGS loses its first argument and ARGCOUNT goes down by one."""

    kind: str                                   # "MACRO", "REPT", "IRP" or "IRPC"
    params: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    allargs: list[str] = field(default_factory=list)
    argcount: int = 0
    label: str | None = None                    # {INTLABEL}: the call line's label
    shifts: int = 0                             # SHIFTs done so far
    listed: bool = True

    def mapping(self) -> dict[str, str]:
        mapping = {p: (self.values[k] if k < len(self.values) else "")
                   for k, p in enumerate(self.params)}
        if self.kind == "MACRO":
            mapping.setdefault("ARGCOUNT", str(self.argcount))
            mapping.setdefault("ALLARGS", ",".join(self.allargs))
        return mapping

    def shift(self) -> None:
        if self.values:
            self.values.pop(0)
        if self.allargs:
            self.allargs.pop(0)
        # asl 1.42 sets ARGCOUNT after SHIFT to the declared parameters left, whatever
        # was written
        self.shifts += 1
        self.argcount = max(len(self.params) - self.shifts, 0)

    def text(self, line: str) -> str:
        if self.label is not None:
            line = INTERNAL_LABEL_RE.sub(lambda m: self.label or "", line)
        return substitute(line, self.mapping())

    def line(self, src: SrcLine) -> SrcLine:
        """The body line `src` as assembled at this point of the expansion."""
        return SrcLine(self.text(src.text), src.file, src.line, src.note, src.depth,
                       src.listed and self.listed)
