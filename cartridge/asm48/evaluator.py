"""Operands evaluated where the pass is: the expression context (expr.Context) over the symbol
table, asl's predefined symbols, FUNCTIONs, the location counter and the active codepage.
An undefined symbol is reported once per statement; a forward reference takes the previous
pass's value."""
from __future__ import annotations

from dataclasses import dataclass, field

from i18n import _

from .codepages import Codepages
from .diagnostics import Diagnostics
from .errors import Reported, SourceError
from .expr import UserFunction, Value, evaluate
from .lexer import Operand
from .location import Location
from .settings import Settings
from .symbols import DOT_PLAIN, NAMELESS_REFS, Symbol, SymbolTable


@dataclass
class Evaluator:
    """Evaluates the operands of the line being assembled (expr.Context for expr.evaluate)."""

    symbols: SymbolTable
    settings: Settings
    location: Location
    codepages: Codepages
    report: Diagnostics
    functions: dict[str, UserFunction] = field(default_factory=dict)   # FUNCTION
    used_unknown: bool = False        # a symbol was unknown in this pass: run another
    symbols_read: list[Symbol] = field(default_factory=list)   # by the last value()
    expr_column: int = 1             # column of the expression being evaluated
    in_condition: bool = False       # evaluating IF: asl wants every symbol known already
    _unknown: list[tuple[str, int]] = field(default_factory=list)

    # ---- operands --------------------------------------------------------------------------

    def value(self, operand: Operand, text: str | None = None) -> tuple[Value, bool]:
        """Evaluate an operand (or the tail `text` of it); (value, all symbols known)."""
        text = operand.text if text is None else text
        shift = operand.text.find(text) if text else 0
        if text.strip() in NAMELESS_REFS:
            text = self.symbols.nameless(text.strip())
        self._unknown = []
        self.symbols_read = []
        self.expr_column = operand.column + max(shift, 0)
        try:
            result = evaluate(text, self)
        except SourceError as e:
            raise SourceError(e.message, column=operand.column + max(shift, 0) + e.offset)
        if self._unknown:
            self.used_unknown = True
            name, offset = self._unknown[0]
            self.report.record(SourceError(_("undefined symbol '{name}'").format(name=name),
                                           column=operand.column + max(shift, 0) + offset))
            return 0, False
        return result, True

    def int_value(self, operand: Operand, text: str | None = None) -> tuple[int, bool]:
        v, known = self.value(operand, text)
        if isinstance(v, str):
            return int.from_bytes(self.translate(v), "big") if v else 0, known
        return v, known

    def known_int(self, operand: Operand) -> int:
        """An integer that must be known when the line is reached (ORG, DS, IF, REPT...)."""
        v, known = self.int_value(operand)
        if not known:
            raise Reported()
        return v

    def condition(self, operand: Operand) -> bool:
        """An IF condition: every symbol in it must be known already (asl)."""
        self.in_condition = True
        try:
            return bool(self.known_int(operand))
        except Reported:
            return False
        finally:
            self.in_condition = False

    # ---- expr.Context ----------------------------------------------------------------------

    @property
    def pc(self) -> int:
        return self.location.pc

    @property
    def radix(self) -> int:
        return self.settings.radix

    def lookup(self, name: str, offset: int) -> Value:
        written, name = name, self.symbols.temporary_name(name)
        symbol = self.find(name, offset)
        if symbol is None and written != name and written.startswith("."):
            # an older asl took .name as an ordinary name (KTAA bank 3 relies on it)
            symbol = self.find(DOT_PLAIN + written, offset)
            if symbol is not None:
                self.dialect("dot-plain", offset)
        if symbol is not None:
            self.symbols_read.append(symbol)
            self.symbols.used.add(name.upper())
            return symbol.value
        builtin = self.builtin(name.upper())
        if builtin is not None:
            return builtin
        self._unknown.append((name, offset))
        return 0

    def find(self, name: str, offset: int) -> Symbol | None:
        symbol, forward = self.symbols.find(name)
        if forward and self.in_condition:
            self.dialect("forward-if", offset)
        return symbol

    def builtin(self, upper: str) -> Value | None:
        """asl's predefined symbols: MOMPASS (the pass), MOMCPU (the CPU name read as a hex
        number, 8048h), MOMCPUNAME, TRUE and FALSE."""
        if upper == "MOMPASS":
            return self.settings.pass_number
        if upper == "MOMCPU":
            return int(self.settings.cpu.removeprefix("MSM"), 16)
        if upper == "MOMCPUNAME":
            return self.settings.cpu
        return {"TRUE": 1, "FALSE": 0}.get(upper)

    def translate(self, text: str) -> bytes:
        return self.codepages.translate(text)

    def defined(self, name: str) -> bool:
        return self.symbols.defined(name)

    def function(self, name: str) -> UserFunction | None:
        return self.functions.get(name.upper())

    def dialect(self, key: str, offset: int) -> None:
        self.report.dialect(key, offset, expr_column=self.expr_column)
