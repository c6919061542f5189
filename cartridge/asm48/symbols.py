"""The symbol table of one pass: labels, EQU/SET symbols and asl's scopes for them (sections,
macro-local labels, temporary and nameless symbols), the previous pass's values for forward
references, and the other name tables asl keeps beside it (REG aliases, PUSHV stacks)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from i18n import _

from .errors import SourceError
from .expr import Value
from .lexer import NAME_RE, Operand
from .sections import Sections
from .source import Position, SrcLine

DOT_PLAIN = "#PLAIN"      # key prefix of a composed .name kept under its plain name
NAMELESS_REFS = frozenset({"-", "--", "---", "+", "++", "+++"})
TEMPORARY_RE = re.compile(r"__(back|forw)\d+|__tmp\d+_.*", re.IGNORECASE)


@dataclass
class Symbol:
    """One defined symbol as the table holds it."""

    name: str             # display name (original case, section-qualified)
    value: Value
    kind: str             # "label", "equ" or "set"
    where: str
    local: bool = False   # defined in a macro/REPT/IRP expansion: not published


def local_key(scope: int, upper: str) -> str:
    """Symbol-table key of a label local to expansion scope `scope` (the `#` keeps it
    apart from every symbol name)."""
    return f"#{scope}:{upper}"


@dataclass
class SymbolTable:
    """Symbols by key (NAME, SECTION.NAME or a local key).

    asl's macro-local symbols: every expansion without {GLOBALSYMBOLS} opens a scope with a
    number counted from 0 in each pass (so a forward reference finds the same scope in the
    previous pass); a name is looked up in the innermost scope, then the enclosing
    expansions' scopes, then the sections and the global symbols.

    asl's temporary symbols: $$name takes the count of ordinary symbols defined so far,
    .name the last ordinary symbol's name in front; `-`/`+`/`/` labels are __backN/__forwN."""

    prev: dict[str, Symbol]
    position: Position
    sections: Sections
    table: dict[str, Symbol] = field(default_factory=dict)
    # SHARED names in source order, each with the symbol-table keys it may resolve to
    shared: list[tuple[str, list[str], SrcLine]] = field(default_factory=list)
    local_scopes: list[int] = field(default_factory=list)
    scopes_opened: int = 0
    temp_counter: int = 0
    last_plain: str = ""
    back_count: int = 0
    forw_count: int = 0
    used: set[str] = field(default_factory=set)      # names referenced so far (IFUSED)
    registers: dict[str, str] = field(default_factory=dict)        # REG: NAME -> register
    value_stacks: dict[str, list[int]] = field(default_factory=dict)   # PUSHV/POPV
    enum_next: int = 0               # NEXTENUM: where the last ENUM line stopped

    # ---- names -----------------------------------------------------------------------------

    def local_keys(self, name: str) -> list[str]:
        """Keys of `name` in the open expansion scopes, innermost first."""
        upper = name.upper()
        return [local_key(scope, upper) for scope in reversed(self.local_scopes)]

    def keys(self, name: str) -> list[str]:
        """Every key `name` may have seen from here, innermost first."""
        return self.local_keys(name) + self.sections.scope_keys(name)

    def temporary_name(self, name: str) -> str:
        """The symbol an asl temporary name stands for here ($$name, .name)."""
        if name.startswith("$$"):
            return f"__tmp{self.temp_counter}_{name[2:]}"
        if name.startswith(".") and len(name) > 1 and self.last_plain:
            return self.last_plain + name
        return name

    def nameless(self, ref: str) -> str:
        """`-`, `--`, `---`: the last, second last, third last `-` (or `/`) label;
        `+`, `++`, `+++`: the next, second next, third next `+` (or `/`) label."""
        if ref[0] == "-":
            return f"__back{self.back_count - len(ref)}"
        return f"__forw{self.forw_count + len(ref) - 1}"

    # ---- scopes of expansions --------------------------------------------------------------

    def open_scope(self) -> None:
        self.local_scopes.append(self.scopes_opened)
        self.scopes_opened += 1

    def close_scope(self) -> None:
        self.local_scopes.pop()

    # ---- looking up ------------------------------------------------------------------------

    def find(self, name: str) -> tuple[Symbol | None, bool]:
        """The symbol `name` as seen here (this pass, else the previous one) and whether it
        is a forward reference (taken from the previous pass)."""
        for key in self.keys(name):
            symbol = self.table.get(key)
            if symbol is not None:
                return symbol, False
            if key in self.prev:
                return self.prev[key], True
        return None, False

    def defined(self, name: str) -> bool:
        name = self.temporary_name(name)
        return any(key in self.table for key in self.keys(name))

    # ---- defining --------------------------------------------------------------------------

    def define_nameless(self, label: str, pc: int) -> None:
        if label in "-/":
            self.define(f"__back{self.back_count}", pc, "label")
            self.back_count += 1
        if label in "+/":
            self.define(f"__forw{self.forw_count}", pc, "label")
            self.forw_count += 1

    def define(self, name: str, value: Value, kind: str, column: int = 1,
               in_expansion_global: bool = False) -> None:
        """Define a symbol.  A label inside a macro/REPT/IRP expansion is local to it (asl:
        labels in macros are local unless {GLOBALSYMBOLS}); EQU and SET symbols are always
        global, as asl enters them outside the local symbol space."""
        if not NAME_RE.fullmatch(name):
            raise SourceError(_("invalid symbol name '{name}'").format(name=name), column=column)
        plain = not name.startswith((".", "$$")) and not TEMPORARY_RE.fullmatch(name)
        written, name = name, self.temporary_name(name)
        if plain:
            self.temp_counter += 1
            self.last_plain = name
        upper = name.upper()
        where = self.position.line.where
        if kind == "label" and self.local_scopes and not in_expansion_global:
            key = local_key(self.local_scopes[-1], upper)
            old = self.table.get(key)
            if old is not None:
                raise SourceError(_("duplicate definition of symbol '{name}' in this macro "
                                    "expansion (first defined at {where})").format(
                                        name=name, where=old.where),
                                  column=column)
            self.table[key] = Symbol(name, value, kind, where, local=True)
            return
        depth = self.sections.depth
        export = self.sections.export_of(upper)
        if export is not None and export[0] == "PUBLIC":
            depth = max(depth - export[1], 0)
        prefix_key = self.store(depth, name, value, kind, where, column)
        if export is not None and export[0] == "GLOBAL":
            # asl: the symbol stays here; the section above gets SECTION_name
            target = max(self.sections.depth - export[1], 0)
            path = "_".join(d for d, _ in self.sections.open[target:])
            self.store(target, f"{path}_{name}", value, kind, where, column)
        if written.startswith(".") and written != name:
            # the plain .name too, for --relaxed (see Evaluator.lookup); not published
            self.table[prefix_key + DOT_PLAIN + written.upper()] = Symbol(
                written, value, kind, where, local=True)

    def store(self, depth: int, name: str, value: Value, kind: str, where: str,
              column: int) -> str:
        """Enter `name` in the section `depth` levels deep; its key prefix."""
        prefix_key = self.sections.key_prefix(depth)
        key = prefix_key + name.upper()
        old = self.table.get(key)
        if old is not None and not (kind == "set" and old.kind == "set"):
            raise SourceError(_("duplicate definition of symbol '{name}' (first defined at {where})"
                                ).format(name=name, where=old.where), column=column)
        self.table[key] = Symbol(self.sections.name_prefix(depth) + name, value, kind, where)
        return prefix_key

    def set_existing(self, operand: Operand, value: int) -> None:
        """Give the defined symbol named by `operand` a new value (POPV)."""
        for key in self.keys(operand.text):
            if key in self.table:
                self.table[key] = replace(self.table[key], value=value)
                return
        raise SourceError(_("undefined symbol '{text}'").format(text=operand.text),
                          column=operand.column)

    # ---- the result ------------------------------------------------------------------------

    def published(self) -> dict[str, int]:
        """NAME -> value of the symbol table the user sees.  Labels local to a macro
        expansion are not published (asl keeps them out of its symbol list too; there may
        be many of the same name); string symbols (NAME EQU "text") are asl's too, but the
        symbol table holds numbers."""
        return {s.name: s.value for s in self.table.values()
                if not s.local and isinstance(s.value, int)}
