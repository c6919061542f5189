"""Conditional assembly: the stack of open IF (and SWITCH) blocks and whether lines are
assembled.  asl's SWITCH/CASE/ELSECASE/ENDCASE is an IF chain whose CASEs compare with the
SWITCH value."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from i18n import _

from .errors import SourceError
from .expr import Value
from .lexer import Operand, Statement

IFS = frozenset({"IF", "IFDEF", "IFNDEF", "IFB", "IFNB", "IFEXIST", "IFNEXIST", "IFUSED",
                 "IFNUSED"})
CONDITIONALS = IFS | {"ELSEIF", "ELSE", "ENDIF", "SWITCH", "SELECT", "CASE", "ELSECASE",
                      "ENDCASE"}
CASE_AS_IF = {"SELECT": "SWITCH", "ELSECASE": "ELSE", "ENDCASE": "ENDIF"}

Test = Callable[[str, Statement], bool]
"""test(IF-kind, statement): whether the condition of an IF line holds."""
Evaluate = Callable[[Operand], Value]


@dataclass
class Conditional:
    """One open IF or SWITCH: whether the block around it assembles, whether a branch was
    taken already, whether the current branch assembles."""

    parent_active: bool
    taken: bool
    active: bool
    seen_else: bool = False
    switch: Value | None = None      # SWITCH: the value the CASEs compare with


def single(op: str, st: Statement) -> Operand:
    if len(st.operands) != 1:
        raise SourceError(_("{op} takes one operand").format(op=op))
    return st.operands[0]


@dataclass
class Conditionals:
    """The open IF/SWITCH blocks, innermost last."""

    open: list[Conditional] = field(default_factory=list)

    @property
    def active(self) -> bool:
        """Whether the current line is assembled."""
        return not self.open or self.open[-1].active

    def step(self, op: str, st: Statement, test: Test, evaluate: Evaluate) -> None:
        """Take one conditional line (op in CONDITIONALS); conditions and SWITCH/CASE values
        are only evaluated where the enclosing blocks are active."""
        op = CASE_AS_IF.get(op, op)
        if op == "SWITCH":
            parent = self.active
            value = evaluate(single(op, st)) if parent else None
            self.open.append(Conditional(parent, False, False, switch=value))
            return
        if op == "CASE":
            if not self.open or self.open[-1].switch is None and self.open[-1].parent_active:
                raise SourceError(_("CASE without SWITCH"))
            top = self.open[-1]
            hit = False
            if top.parent_active and not top.taken:
                hit = any(evaluate(o) == top.switch for o in st.operands)
            top.active = top.parent_active and not top.taken and hit
            top.taken = top.taken or hit
            return
        if op in IFS:
            parent = self.active
            cond = test(op, st) if parent else False
            self.open.append(Conditional(parent, cond, parent and cond))
            return
        if not self.open:
            raise SourceError(_("{op} without IF").format(op=op))
        top = self.open[-1]
        if op == "ENDIF":
            self.open.pop()
        elif top.seen_else:
            raise SourceError(_("{op} after ELSE").format(op=op))
        elif op == "ELSE":
            top.seen_else = True
            top.active = top.parent_active and not top.taken
            top.taken = True
        else:   # ELSEIF
            cond = test("IF", st) if top.parent_active and not top.taken else False
            top.active = top.parent_active and not top.taken and cond
            top.taken = top.taken or cond
