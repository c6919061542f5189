"""The multi-pass engine: reads source lines (with includes, macros, repetitions and
conditional assembly), keeps the symbol table, emits bytes and the listing.

Passes repeat until every symbol keeps its value from one pass to the next (a forward
reference is taken from the previous pass), so code whose size depends on later labels
(asl's automatic `SEL MBx` before a JMP into the other bank) settles like it does in asl.
Only the errors of the last pass are reported; they are then exact."""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

from . import directives
from .assembly import Assembly, format_listing
from .dialect import FORMS
from .dialect import message as dialect_message
from .encoder import CODE_END, encode, is_instruction
from .errors import AsmError, Diagnostic, SourceError
from .expansion import (BLOCK_CONTROLS, MACRO_CONTROLS, Controls, Expansion, is_control,
                        split_controls)
from .expr import UserFunction, Value, evaluate
from .lexer import (NAME_RE, Operand, Statement, as_indented_definition, parse_line, top_level,
                    unquoted)
from .stdinc import STANDARD_INCLUDES

MAX_PASSES = 12
MAX_NESTING = 64
# CPUs whose program memory cannot be extended: asl limits their code (its manual, CPU list)
CODE_LIMITS = {"8021": 0x3FF, "8041": 0x3FF, "8022": 0x7FF, "8042": 0x7FF}
CONDITIONALS = frozenset({"IF", "IFDEF", "IFNDEF", "IFB", "IFNB", "IFEXIST", "IFNEXIST",
                          "IFUSED", "IFNUSED",
                          "ELSEIF", "ELSE", "ENDIF", "SWITCH", "SELECT", "CASE", "ELSECASE",
                          "ENDCASE"})
# asl's SWITCH/CASE/ELSECASE/ENDCASE is an IF chain: CASE compares with the SWITCH value
CASE_AS_IF = {"SELECT": "SWITCH", "ELSECASE": "ELSE", "ENDCASE": "ENDIF"}
BLOCK_OPENERS = frozenset({"MACRO", "REPT", "IRP", "IRPC", "WHILE"})
DOT_PLAIN = "#PLAIN"      # key prefix of a composed .name kept under its plain name
NAMELESS_REFS = frozenset({"-", "--", "---", "+", "++", "+++"})
TEMPORARY_RE = re.compile(r"__(back|forw)\d+|__tmp\d+_.*", re.IGNORECASE)
MAX_WHILE = 65536      # iterations of one WHILE before asm48 gives up
# lines a pass may expand from MACRO/REPT/IRP/IRPC/WHILE bodies (an empty body counts one): 25
# for every byte of the 4 KB program memory, so `rept 100000000`, nested REPTs or a long IRPC
# end in one sentence instead of running for hours
MAX_EXPANDED_LINES = 100_000
PSEUDO_OPS = (frozenset(directives.DIRECTIVES) | frozenset(directives.LABEL_DIRECTIVES)
              | CONDITIONALS | BLOCK_OPENERS | {"ENDM"})


def operation(st: Statement) -> str | None:
    """The statement's operation in upper case; asl also accepts pseudo instructions with
    a leading dot (`.org`, `.db`, as d48 -p writes them)."""
    if not st.op:
        return None
    op = st.op.upper()
    return op[1:] if op.startswith(".") and op[1:] in PSEUDO_OPS else op


def machine_instruction(op: str | None) -> str | None:
    """`!CALL` -> `CALL`: asl's `!` before a mnemonic selects the machine instruction even
    where a macro of that name exists (KTAA's common.h redefines CALL and JMP as macros
    that use `!call` and `!jmp` inside)."""
    if op is not None and op.startswith("!") and is_instruction(op[1:]):
        return op[1:]
    return None


@dataclass(frozen=True)
class SrcLine:
    """One line to assemble and where it came from (for diagnostics and the listing)."""

    text: str
    file: str
    line: int
    note: str = ""        # e.g. " (in macro FOO called at a.a48:12)"
    depth: int = 0        # include/macro nesting, shown in the listing
    listed: bool = True   # False inside a {NOEXPAND} macro: left out of the listing


@dataclass
class Symbol:
    name: str             # display name (original case, section-qualified)
    value: int
    kind: str             # "label", "equ" or "set"
    where: str
    local: bool = False   # defined in a macro/REPT/IRP expansion: not published


@dataclass
class Macro:
    """A MACRO definition: parameter names (upper case), their defaults ("" = none given)
    and the body lines, substituted at each call."""

    name: str
    params: list[str]
    body: list[SrcLine]
    defaults: list[str] = field(default_factory=list)
    controls: Controls = field(default_factory=Controls)


@dataclass
class Conditional:
    parent_active: bool
    taken: bool
    active: bool
    seen_else: bool = False
    switch: Value | None = None      # SWITCH: the value the CASEs compare with


@dataclass
class StructDef:
    """A STRUCT or UNION being defined: its name ("" with NOEXTNAMES), the separator of
    the field names, the location counter to go back to, the fields (name, offset); in a
    union every field starts at 0 and the longest one is the length."""

    name: str
    sep: str
    saved: int
    union: bool = False
    fields: list[tuple[str, int]] = field(default_factory=list)
    longest: int = 0

    def qualified(self, name: str) -> str:
        return f"{self.name}{self.sep}{name}" if self.name else name


class ExitMacro(Exception):
    """EXITM: leave the macro expansion being assembled."""


class EndOfSource(Exception):
    """END: stop reading source."""


class ExpansionLimit(Exception):
    """MAX_EXPANDED_LINES was reached: the assembly stops with this one diagnostic (raised
    past the per-line error handling, so an outer REPT does not try again and again)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


@dataclass
class Pass:
    """State of one pass over the source."""

    prev: dict[str, Symbol]
    include_dirs: tuple[Path, ...]
    pc: int = 0
    memory: dict[int, int] = field(default_factory=dict)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    listing: list[tuple[int | None, bytes, SrcLine]] = field(default_factory=list)
    macros: dict[str, Macro] = field(default_factory=dict)
    sections: list[tuple[str, str]] = field(default_factory=list)   # (display, KEY)
    # per section: NAME -> (PUBLIC or GLOBAL, how many section levels up it goes)
    exports: list[dict[str, tuple[str, int]]] = field(default_factory=list)
    # SHARED names in source order, each with the symbol-table keys it may resolve to
    shared: list[tuple[str, list[str], "SrcLine"]] = field(default_factory=list)
    conditionals: list[Conditional] = field(default_factory=list)
    include_stack: list[Path] = field(default_factory=list)
    codepages: dict[str, list[int]] = field(default_factory=lambda: {"STANDARD": list(range(256))})
    codepage: str = "STANDARD"
    aliases: dict[str, str] = field(default_factory=dict)           # REG: NAME -> register
    functions: dict[str, UserFunction] = field(default_factory=dict)
    translating: bool = True
    used_unknown: bool = False
    _unknown: list[tuple[str, int]] = field(default_factory=list)
    symbols_read: list[Symbol] = field(default_factory=list)   # by the last value()
    jmpp_page: int | None = None     # page of the JMPP table that DB lines may be entries of
    jmpp_at: int = 0
    current: SrcLine | None = None               # the line being assembled
    current_statement: Statement | None = None
    # asl's macro-local symbols: every expansion without {GLOBALSYMBOLS} opens a scope with
    # a number counted from 0 in each pass (so a forward reference finds the same scope in
    # the previous pass); a name is looked up in the innermost scope, then the enclosing
    # expansions' scopes, then the sections and the global symbols.
    local_scopes: list[int] = field(default_factory=list)
    scopes_opened: int = 0
    expanded_lines: int = 0     # lines expanded from block bodies in this pass
    expansions: list[Expansion] = field(default_factory=list)
    # the dialect (dialect.py): `relaxed` accepts asm48's extensions with a warning
    # (--relaxed); `relaxed_on` is asl's RELAXED ON ($ff, 0x.., %.., x'..' numbers)
    relaxed: bool = False
    relaxed_on: bool = False
    radix: int = 10                  # RADIX: the base of numbers without a suffix
    pass_number: int = 1             # MOMPASS
    cpu: str = "8048"                # CPU, as MOMCPU reads it (the name as a hex number)
    saved: list[tuple[str, str]] = field(default_factory=list)     # SAVE: (cpu, codepage)
    expr_column: int = 1             # column of the expression being evaluated
    phase: int = 0                   # PHASE: logical minus physical address
    # asl's temporary symbols: $$name takes the count of ordinary symbols defined so far,
    # .name the last ordinary symbol's name in front; `-`/`+`/`/` labels are __backN/__forwN
    temp_counter: int = 0
    last_plain: str = ""
    back_count: int = 0
    forw_count: int = 0
    value_stacks: dict[str, list[Value]] = field(default_factory=dict)   # PUSHV/POPV
    used: set[str] = field(default_factory=set)  # names referenced so far (IFUSED)
    # STRUCT: the definitions being read (name, separator, saved pc, fields) and the
    # structures defined (NAME -> fields as (name, offset), length)
    struct_stack: list["StructDef"] = field(default_factory=list)
    structs: dict[str, tuple[list[tuple[str, int]], int]] = field(default_factory=dict)
    enum_next: int = 0               # NEXTENUM: where the last ENUM line stopped
    in_condition: bool = False       # evaluating IF: asl wants every symbol known already

    # ---- expression context -------------------------------------------------------------

    def scope_keys(self, name: str) -> list[str]:
        upper = name.upper()
        keys = []
        for depth in range(len(self.sections), -1, -1):
            prefix = "".join(key + "." for _, key in self.sections[:depth])
            keys.append(prefix + upper)
        return keys

    def local_keys(self, name: str) -> list[str]:
        """Keys of `name` in the open expansion scopes, innermost first."""
        upper = name.upper()
        return [local_key(scope, upper) for scope in reversed(self.local_scopes)]

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

    def define_nameless(self, label: str) -> None:
        if label in "-/":
            self.define(f"__back{self.back_count}", self.pc, "label")
            self.back_count += 1
        if label in "+/":
            self.define(f"__forw{self.forw_count}", self.pc, "label")
            self.forw_count += 1

    def lookup(self, name: str, offset: int) -> Value:
        written, name = name, self.temporary_name(name)
        symbol = self.find(name, offset)
        if symbol is None and written != name and written.startswith("."):
            # an older asl took .name as an ordinary name (KTAA bank 3 relies on it)
            symbol = self.find(DOT_PLAIN + written, offset)
            if symbol is not None:
                self.dialect("dot-plain", offset)
        if symbol is not None:
            self.symbols_read.append(symbol)
            self.used.add(name.upper())
            return symbol.value
        builtin = self.builtin(name.upper())
        if builtin is not None:
            return builtin
        self._unknown.append((name, offset))
        return 0

    def find(self, name: str, offset: int) -> Symbol | None:
        """The symbol `name` as seen here (this pass, else the previous one)."""
        for key in self.local_keys(name) + self.scope_keys(name):
            symbol = self.symbols.get(key)
            if symbol is None and key in self.prev:
                symbol = self.prev[key]
                if self.in_condition:
                    self.dialect("forward-if", offset)
            if symbol is not None:
                return symbol
        return None

    def builtin(self, upper: str) -> Value | None:
        """asl's predefined symbols: MOMPASS (the pass), MOMCPU (the CPU name read as a hex
        number, 8048h), MOMCPUNAME, TRUE and FALSE."""
        if upper == "MOMPASS":
            return self.pass_number
        if upper == "MOMCPU":
            return int(self.cpu.removeprefix("MSM"), 16)
        if upper == "MOMCPUNAME":
            return self.cpu
        return {"TRUE": 1, "FALSE": 0}.get(upper)

    def dialect(self, key: str, offset: int = 0, column: int | None = None) -> None:
        """A form asl refuses (dialect.FORMS): an error with asl's reason, or a warning
        with --relaxed; nothing when asl takes it after RELAXED ON and that is on."""
        form = FORMS[key]
        if form.relaxed_on and self.relaxed_on:
            return
        text = dialect_message(key)
        if self.relaxed:
            where = column if column is not None else self.expr_column + offset
            self.warn(text + " (accepted by --relaxed)", where)
        elif column is not None:
            raise SourceError(text, column=column)
        else:
            raise SourceError(text, offset)

    def defined(self, name: str) -> bool:
        name = self.temporary_name(name)
        return any(key in self.symbols for key in self.local_keys(name) + self.scope_keys(name))

    def macro(self, name: str) -> Macro | None:
        """The macro `name` as seen here: one of the open sections first, then global."""
        return next((self.macros[k] for k in self.scope_keys(name) if k in self.macros), None)

    def function(self, name: str) -> UserFunction | None:
        return self.functions.get(name.upper())

    def translate(self, text: str) -> bytes:
        table = self.codepages[self.codepage] if self.translating else list(range(256))
        out = bytearray()
        for ch in text:
            code = ord(ch)
            if code < 256:
                out.append(table[code])
            else:                      # a character outside Latin-1: its UTF-8 bytes
                out.extend(ch.encode("utf-8"))
        return bytes(out)

    @property
    def active(self) -> bool:
        return not self.conditionals or self.conditionals[-1].active

    # ---- evaluation helpers used by the directives and the encoder -----------------------

    def value(self, operand: Operand, text: str | None = None) -> tuple[Value, bool]:
        """Evaluate an operand (or the tail `text` of it); (value, all symbols known)."""
        text = operand.text if text is None else text
        shift = operand.text.find(text) if text else 0
        if text.strip() in NAMELESS_REFS:
            text = self.nameless(text.strip())
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
            self.record(SourceError(f"undefined symbol '{name}'",
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
            raise _Reported()
        return v

    # ---- diagnostics ---------------------------------------------------------------------

    def record(self, err: SourceError) -> None:
        src = self.current
        st = self.current_statement
        column = err.column or (st.op_column if st and st.op else 1)
        self.diagnostics.append(Diagnostic(src.file, src.line, column, err.message + src.note))

    def warn(self, message: str, column: int) -> None:
        src = self.current
        self.diagnostics.append(Diagnostic(src.file, src.line, column, message + src.note,
                                           "warning"))

    # ---- output --------------------------------------------------------------------------

    def emit(self, data: bytes) -> None:
        """Store `data` at the location counter and advance it (also when the bytes cannot
        be stored, so that later addresses stay where they belong)."""
        if self.struct_stack:
            raise SourceError("a STRUCT may only reserve space (DB ?, DS), not store bytes")
        start = self.pc - self.phase         # PHASE: stored at the physical address
        self.listing.append((start, data, self.current))
        self.pc += len(data)
        problem = None
        end = CODE_LIMITS.get(self.cpu, CODE_END)
        for addr, b in enumerate(data, start):
            if addr > end and end < CODE_END:
                problem = problem or (f"code at {addr:X}h is beyond the {end + 1 >> 10} KB "
                                      f"program memory of the {self.cpu} (asl: \"address "
                                      "overflow\")")
            elif addr > CODE_END:
                problem = problem or f"code at {addr:X}h is beyond program memory (000h-FFFh)"
            elif addr in self.memory:
                problem = problem or f"code at {addr:03X}h overlaps code assembled earlier"
            else:
                self.memory[addr] = b
        if problem:
            raise SourceError(problem)

    # ---- symbols -------------------------------------------------------------------------

    def define(self, name: str, value: int, kind: str, column: int = 1,
               in_expansion_global: bool = False) -> None:
        """Define a symbol.  A label inside a macro/REPT/IRP expansion is local to it (asl:
        labels in macros are local unless {GLOBALSYMBOLS}); EQU and SET symbols are always
        global, as asl enters them outside the local symbol space."""
        if not NAME_RE.fullmatch(name):
            raise SourceError(f"invalid symbol name '{name}'", column=column)
        plain = not name.startswith((".", "$$")) and not TEMPORARY_RE.fullmatch(name)
        written, name = name, self.temporary_name(name)
        if plain:
            self.temp_counter += 1
            self.last_plain = name
        upper = name.upper()
        where = f"{self.current.file}:{self.current.line}"
        if kind == "label" and self.local_scopes and not in_expansion_global:
            key = local_key(self.local_scopes[-1], upper)
            old = self.symbols.get(key)
            if old is not None:
                raise SourceError(f"duplicate definition of symbol '{name}' in this macro "
                                  f"expansion (first defined at {old.where})", column=column)
            self.symbols[key] = Symbol(name, value, kind, where, local=True)
            return
        depth = len(self.sections)
        export = self.exports[-1].get(upper) if self.exports else None
        if export is not None and export[0] == "PUBLIC":
            depth = max(depth - export[1], 0)
        prefix_key = self.store(depth, name, value, kind, where, column)
        if export is not None and export[0] == "GLOBAL":
            # asl: the symbol stays here; the section above gets SECTION_name
            target = max(len(self.sections) - export[1], 0)
            path = "_".join(d for d, _ in self.sections[target:])
            self.store(target, f"{path}_{name}", value, kind, where, column)
        if written.startswith(".") and written != name:
            # the plain .name too, for --relaxed (see lookup); not published
            self.symbols[prefix_key + DOT_PLAIN + written.upper()] = Symbol(
                written, value, kind, where, local=True)

    def store(self, depth: int, name: str, value: Value, kind: str, where: str,
              column: int) -> str:
        """Enter `name` in the section `depth` levels deep; its key prefix."""
        prefix_key = "".join(k + "." for _, k in self.sections[:depth])
        prefix_name = "".join(d + "." for d, _ in self.sections[:depth])
        key = prefix_key + name.upper()
        old = self.symbols.get(key)
        if old is not None and not (kind == "set" and old.kind == "set"):
            raise SourceError(f"duplicate definition of symbol '{name}' "
                              f"(first defined at {old.where})", column=column)
        self.symbols[key] = Symbol(prefix_name + name, value, kind, where)
        return prefix_key

    def set_existing(self, operand: Operand, value: int) -> None:
        """Give the defined symbol named by `operand` a new value (POPV)."""
        for key in self.local_keys(operand.text) + self.scope_keys(operand.text):
            if key in self.symbols:
                self.symbols[key] = replace(self.symbols[key], value=value)
                return
        raise SourceError(f"undefined symbol '{operand.text}'", column=operand.column)

    # ---- source reading ------------------------------------------------------------------

    def run_file_text(self, text: str, filename: str, depth: int = 0) -> None:
        lines = [SrcLine(t, filename, n, "", depth) for n, t in logical_lines(text)]
        self.run(lines)

    def run(self, lines: list[SrcLine], expansion: Expansion | None = None) -> None:
        """Assemble `lines`; inside an expansion each line is substituted when reached."""
        i = 0
        while i < len(lines):
            src = lines[i] if expansion is None else expansion.line(lines[i])
            i += 1
            self.current = src
            self.current_statement = None
            try:
                st = self.parse(src.text)
            except SourceError as e:
                e.column = e.column or e.offset + 1
                self.record(e)
                continue
            self.current_statement = st
            op = operation(st)
            try:
                if op in CONDITIONALS:
                    opener = op.startswith("IF")
                    if st.label is not None and opener and self.active:
                        # a label in front of IF/IFDEF...: asl defines it at the current
                        # address (KTAA: `.nopal IFDEF DEBUG_PALNTSC`, a jump target)
                        self.define(st.label, self.pc, "label", st.label_column)
                    self.conditional(op, st)
                    if st.label is not None and not opener and self.active:
                        self.define(st.label, self.pc, "label", st.label_column)
                    continue
                if not self.active:
                    continue
                if op in BLOCK_OPENERS:
                    body, i = self.collect_block(lines, i, op, expansion)
                    self.block(op, st, body, src)
                    continue
                if op == "ENDM":
                    raise SourceError("ENDM without MACRO, REPT or IRP")
                self.statement(st, src)
            except _Reported:
                pass
            except SourceError as e:
                self.record(e)

    def parse(self, text: str) -> Statement:
        """One source line as a statement; an indented `name EQU value` gets its label
        unless its first word is an operation (so `jmp set` stays a jump)."""
        st = parse_line(text)
        op = operation(st)
        if op is not None and op not in PSEUDO_OPS and self.macro(op) is None \
                and not is_instruction(op) and machine_instruction(op) is None:
            st = as_indented_definition(st) or st
        return st

    def collect_block(self, lines: list[SrcLine], i: int, op: str,
                      expansion: Expansion | None = None) -> tuple[list[SrcLine], int]:
        """The body up to the matching ENDM, and the index after it.  Inside an expansion
        the body is taken as substituted at this point (asl collects expanded lines)."""
        depth = 1
        body: list[SrcLine] = []
        while i < len(lines):
            line = lines[i] if expansion is None else expansion.line(lines[i])
            try:
                inner = operation(self.parse(line.text))
            except SourceError:
                inner = None
            if inner in BLOCK_OPENERS:
                depth += 1
            elif inner == "ENDM":
                depth -= 1
                if depth == 0:
                    return body, i + 1
            body.append(line)
            i += 1
        raise SourceError(f"{op} without ENDM")

    # ---- statements ----------------------------------------------------------------------

    def statement(self, st: Statement, src: SrcLine) -> None:
        op = operation(st)
        handler = directives.LABEL_DIRECTIVES.get(op) if op else None
        if handler is not None and self.macro(op) is None:
            handler(self, st)
            self.listing.append((None, b"", src))
            return
        forced = machine_instruction(op)
        if forced is not None:
            op = forced
        macro = self.macro(op) if op and forced is None else None
        if st.label in ("-", "+", "/"):
            self.define_nameless(st.label)
        elif st.label is not None and self.struct_stack:
            top = self.struct_stack[-1]
            if top.union:                               # every field of a union is at 0
                top.longest, self.pc = max(top.longest, self.pc), 0
            top.fields.append((st.label, self.pc))      # a field: its offset
            self.define(top.qualified(st.label), self.pc, "equ", st.label_column)
        elif st.label is not None and not (macro and macro.controls.int_label):
            self.define(st.label, self.pc, "label", st.label_column)
        if op is None:
            self.listing.append((self.pc if st.label else None, b"", src))
            return
        if op not in directives.DATA_BYTES:
            self.jmpp_page = None            # a JMPP table is the DB lines right after it
        if macro is not None:
            self.listing.append((None, b"", src))
            self.expand(macro, st, src)
        elif op in directives.DIRECTIVES:
            before = len(self.listing)
            directives.DIRECTIVES[op](self, st)
            if len(self.listing) == before:
                self.listing.append((None, b"", src))
        elif is_instruction(op):
            pc = self.pc
            self.emit(encode(op, st.operands, pc, self.int_value, self.aliases, self.record,
                             self.cpu))
            if op == "JMPP":
                # JMPP @A reads its table from, and jumps into, the page of the next byte
                self.jmpp_page, self.jmpp_at = self.pc & ~0xFF, pc
        elif op in self.structs:
            self.instance(op, st)
        else:
            raise SourceError(f"unknown instruction or directive '{st.op}'", column=st.op_column)

    def instance(self, op: str, st: Statement) -> None:
        """`name STRUCTNAME`: reserve the structure here and define name_field for each
        field (asl)."""
        if not st.label:
            raise SourceError(f"a structure ({st.op}) needs a name in the label field")
        fields, length = self.structs[op]
        for field_name, offset in fields:
            if self.struct_stack:           # a structure inside a structure's definition
                top = self.struct_stack[-1]
                top.fields.append((f"{st.label}_{field_name}", self.pc + offset))
                self.define(top.qualified(f"{st.label}_{field_name}"), self.pc + offset, "equ",
                            st.label_column)
            else:
                self.define(f"{st.label}_{field_name}", self.pc + offset, "label",
                            st.label_column)
        self.listing.append((self.pc, b"", self.current))
        self.pc += length

    # ---- macros and repetition -----------------------------------------------------------

    def block(self, op: str, st: Statement, body: list[SrcLine], src: SrcLine) -> None:
        self.listing.append((None, b"", src))
        if op == "MACRO":
            if not st.label:
                raise SourceError("MACRO needs a name in the label field")
            controls, operands = split_controls(st.operands, MACRO_CONTROLS, "MACRO")
            params, defaults = macro_parameters(operands)
            # a macro defined in a SECTION is known only inside it, as in asl
            self.macros[self.scope_keys(st.label)[0]] = Macro(st.label, params, body, defaults,
                                                              controls)
            return
        if st.label is not None:
            self.define(st.label, self.pc, "label", st.label_column)
        controls, operands = split_controls(st.operands, BLOCK_CONTROLS, op)
        note = f" (in {op} at {src.file}:{src.line})"
        if op == "REPT":
            if len(operands) != 1:
                raise SourceError("REPT takes one operand (the repeat count)")
            count = self.known_int(operands[0])
            if count < 0:
                raise SourceError(f"negative repeat count {count}", column=operands[0].column)
            for _ in range(count):
                if self.run_expansion(body, Expansion("REPT", listed=src.listed), note, src,
                                      controls.global_symbols):
                    break
            return
        if op == "WHILE":
            condition = Statement(operands=operands)
            for _ in range(MAX_WHILE):
                if not self.condition("IF", condition) or self.run_expansion(
                        body, Expansion("WHILE", listed=src.listed), note, src,
                        controls.global_symbols):
                    return
            raise SourceError(f"WHILE still true after {MAX_WHILE} iterations")
        if len(operands) < 1 or not MACRO_PARAM_RE.fullmatch(operands[0].text):
            raise SourceError(f"{op} needs a parameter name (letters and digits) and a list")
        param = operands[0].text.upper()
        if op == "IRP":
            items = [upcase_unquoted(o.text) for o in operands[1:]]
        else:
            raw = ",".join(o.text for o in operands[1:])
            items = list(raw[1:-1] if raw[:1] in "'\"" and raw[-1:] == raw[:1] else raw)
        for item in items:
            expansion = Expansion(op, [param], [item], listed=src.listed)
            if self.run_expansion(body, expansion, note, src, controls.global_symbols):
                break

    def expand(self, macro: Macro, st: Statement, src: SrcLine) -> None:
        """Call `macro` with the statement's arguments, as asl binds them: positional
        arguments first, then `name=value` keyword arguments; an empty positional argument
        or a missing one takes the parameter's default, a keyword argument may set it
        empty; arguments beyond the parameters are allowed (they count in ARGCOUNT,
        appear in ALLARGS and move into the parameters with SHIFT).  Arguments are
        upper-cased outside quotes, as asl does in its default case-insensitive mode (it
        shows when a parameter is used in a string)."""
        args = [upcase_unquoted(o.text) for o in st.operands]
        index = {p: k for k, p in enumerate(macro.params)}
        values: list[str | None] = [None] * len(macro.params)
        positional = len(args)             # the arguments before the first keyword one
        for k, (arg, operand) in enumerate(zip(args, st.operands)):
            keyword = keyword_argument(arg)
            if keyword is not None:
                name, value = keyword
                if name not in index:
                    raise SourceError(f"macro {macro.name} has no parameter '{name}' "
                                      f"(keyword argument '{operand.text}')",
                                      column=operand.column)
                values[index[name]] = value
                positional = min(positional, k)
            elif positional < len(args):
                raise SourceError("positional macro argument after a keyword argument "
                                  "(asl allows none)", column=operand.column)
        for k in range(min(positional, len(macro.params))):
            if args[k] and values[k] is None:
                values[k] = args[k]
        bound = [v if v is not None else macro.defaults[k] for k, v in enumerate(values)]
        extra = args[len(macro.params):positional]
        controls = macro.controls
        expansion = Expansion(
            "MACRO", list(macro.params), bound + extra, list(args),
            # asl 1.42 counts the arguments written (its manual says missing ones count too)
            len(args),
            label=(st.label or "") if controls.int_label else None,
            listed=src.listed if controls.expand is None else controls.expand)
        note = f" (in macro {macro.name} called at {src.file}:{src.line})"
        self.run_expansion(macro.body, expansion, note, src, controls.global_symbols)

    def run_expansion(self, body: list[SrcLine], expansion: Expansion, note: str,
                      src: SrcLine, global_symbols: bool = False) -> bool:
        """Assemble one expansion of `body`; True when it was left with EXITM (which ends
        the whole REPT/IRP, as in asl).  Unless `global_symbols`, the labels it defines go
        to a scope of its own."""
        if len(self.expansions) >= MAX_NESTING:
            raise SourceError(f"macro/REPT nesting deeper than {MAX_NESTING} levels")
        self.expanded_lines += max(len(body), 1)
        if self.expanded_lines > MAX_EXPANDED_LINES:
            raise ExpansionLimit(Diagnostic(
                src.file, src.line, 1, f"macros, REPT, IRP, IRPC and WHILE expand more than "
                f"{MAX_EXPANDED_LINES} lines; a program for 4 KB of program memory needs far "
                f"fewer (a repeat count too large?)"))
        lines = [SrcLine(line.text, line.file, line.line, note + line.note, src.depth + 1,
                         line.listed) for line in body]
        self.expansions.append(expansion)
        if not global_symbols:
            self.local_scopes.append(self.scopes_opened)
            self.scopes_opened += 1
        open_conditionals = len(self.conditionals)
        try:
            self.run(lines, expansion)
        except ExitMacro:
            del self.conditionals[open_conditionals:]    # EXITM leaves IFs of the body
            return True
        finally:
            if not global_symbols:
                self.local_scopes.pop()
            self.expansions.pop()
            self.current = src
        return False

    def shift(self) -> None:
        """SHIFT: drop the first argument of the innermost macro expansion (a REPT or IRP
        inside it is skipped, as in asl)."""
        for expansion in reversed(self.expansions):
            if expansion.kind == "MACRO":
                expansion.shift()
                return
        raise SourceError("SHIFT outside a macro")

    # ---- conditional assembly ------------------------------------------------------------

    def conditional(self, op: str, st: Statement) -> None:
        op = CASE_AS_IF.get(op, op)
        if op == "SWITCH":
            parent = self.active
            value = self.value(self.single(op, st))[0] if parent else None
            self.conditionals.append(Conditional(parent, False, False, switch=value))
            self.listing.append((None, b"", self.current))
            return
        if op == "CASE":
            if not self.conditionals or self.conditionals[-1].switch is None \
                    and self.conditionals[-1].parent_active:
                raise SourceError("CASE without SWITCH")
            top = self.conditionals[-1]
            hit = False
            if top.parent_active and not top.taken:
                hit = any(self.value(o)[0] == top.switch for o in st.operands)
            top.active = top.parent_active and not top.taken and hit
            top.taken = top.taken or hit
            self.listing.append((None, b"", self.current))
            return
        if op in ("IF", "IFDEF", "IFNDEF", "IFB", "IFNB", "IFEXIST", "IFNEXIST", "IFUSED",
                  "IFNUSED"):
            parent = self.active
            cond = self.condition(op, st) if parent else False
            self.conditionals.append(Conditional(parent, cond, parent and cond))
            self.listing.append((None, b"", self.current))
            return
        if not self.conditionals:
            raise SourceError(f"{op} without IF")
        top = self.conditionals[-1]
        if op == "ENDIF":
            self.conditionals.pop()
        elif top.seen_else:
            raise SourceError(f"{op} after ELSE")
        elif op == "ELSE":
            top.seen_else = True
            top.active = top.parent_active and not top.taken
            top.taken = True
        else:   # ELSEIF
            cond = self.condition("IF", st) if top.parent_active and not top.taken else False
            top.active = top.parent_active and not top.taken and cond
            top.taken = top.taken or cond
        self.listing.append((None, b"", self.current))

    def single(self, op: str, st: Statement) -> Operand:
        if len(st.operands) != 1:
            raise SourceError(f"{op} takes one operand")
        return st.operands[0]

    def condition(self, op: str, st: Statement) -> bool:
        if op in ("IFB", "IFNB"):
            blank = not st.operand_text.strip()
            return blank if op == "IFB" else not blank
        if len(st.operands) != 1:
            raise SourceError(f"{op} takes one operand")
        operand = st.operands[0]
        if op in ("IFDEF", "IFNDEF"):
            if not NAME_RE.fullmatch(operand.text):
                raise SourceError(f"symbol name expected after {op}", column=operand.column)
            return self.defined(operand.text) == (op == "IFDEF")
        if op in ("IFUSED", "IFNUSED"):
            # asl: whether the symbol was referenced so far in this pass
            used = self.temporary_name(operand.text).upper() in self.used
            return used == (op == "IFUSED")
        if op in ("IFEXIST", "IFNEXIST"):
            found = self.find_include(unquote(operand.text)) is not None
            return found == (op == "IFEXIST")
        self.in_condition = True
        try:
            return bool(self.known_int(operand))
        except _Reported:
            return False
        finally:
            self.in_condition = False

    # ---- include files -------------------------------------------------------------------

    def find_include(self, name: str) -> Path | None:
        base = Path(self.current.file).parent if self.current.file != "<string>" else Path(".")
        for directory in (base, *self.include_dirs):
            candidate = directory / name
            if candidate.is_file():
                return candidate
        return None

    def read_include(self, name: str, column: int) -> tuple[str, str]:
        """(text, file name) of an include file: next to the including file, in the -I
        directories, then asl's standard include files built into asm48."""
        path = self.find_include(name)
        if path is None:
            if name.lower() in STANDARD_INCLUDES:
                return STANDARD_INCLUDES[name.lower()], f"<asm48>/{name.lower()}"
            raise SourceError(f"include file '{name}' not found (searched next to "
                              f"{self.current.file} and in -I directories)", column=column)
        try:
            return path.read_bytes().decode("latin-1"), str(path)
        except OSError as e:
            raise SourceError(f"cannot read include file '{name}': {e.strerror}", column=column)

    def include(self, operand: Operand) -> None:
        name = unquote(operand.text)
        text, filename = self.read_include(name, operand.column)
        resolved = Path(filename).resolve()
        if resolved in self.include_stack:
            chain = " -> ".join(p.name for p in (*self.include_stack, resolved))
            raise SourceError(f"include cycle: {chain}", column=operand.column)
        self.include_stack.append(resolved)
        saved = self.current, self.current_statement
        try:
            self.run_file_text(text, filename, self.current.depth + 1)
        finally:
            self.include_stack.pop()
            self.current, self.current_statement = saved


class _Reported(Exception):
    """The error was already recorded (an undefined symbol); abandon the statement."""


def source_lines(text: str) -> list[str]:
    """Lines split at LF, CR LF or CR only (str.splitlines would also split at bytes such
    as 85h or 0Ch that Latin-1 source text may hold, and shift the line numbers)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each source line with asl's continuation applied: a line whose
    last character is a backslash goes on in the next line (even after a `;`, as in asl);
    the joined line carries the number of its last part, as asl reports it."""
    out: list[tuple[int, str]] = []
    pending = ""
    number = 0
    for number, line in enumerate(source_lines(text), start=1):
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        out.append((number, pending + line))
        pending = ""
    if pending:
        out.append((number, pending))
    return out


def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
        return text[1:-1]
    return text


MACRO_PARAM_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")


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
            raise SourceError(f"invalid macro parameter '{name}' (asl allows only letters "
                              "and digits: an underscore in the body ends a parameter name)",
                              column=o.column)
        if name.upper() in params:
            raise SourceError(f"macro parameter '{name}' declared twice", column=o.column)
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


def local_key(scope: int, upper: str) -> str:
    """Symbol-table key of a label local to expansion scope `scope` (the `#` keeps it
    apart from every symbol name)."""
    return f"#{scope}:{upper}"


def assemble(text: str, filename: str = "<string>",
             include_dirs: Sequence[str | Path] = (), relaxed: bool = False) -> Assembly:
    """Assemble asl-dialect 8048 source; raises AsmError listing every error.  Forms asl
    refuses are errors unless `relaxed`, which accepts them with a warning each
    (Assembly.warnings)."""
    dirs = tuple(Path(d) for d in include_dirs)
    prev: dict[str, Symbol] = {}
    prev_values: dict[str, int] | None = None
    for number in range(1, MAX_PASSES + 1):
        p = Pass(prev, dirs, relaxed=relaxed, pass_number=number)
        if filename != "<string>":
            p.include_stack.append(Path(filename).resolve())
        p.current = SrcLine("", filename, 0)
        try:
            p.run_file_text(text, filename)
        except EndOfSource:
            pass
        except ExpansionLimit as limit:
            raise AsmError([limit.diagnostic]) from None
        values = {k: s.value for k, s in p.symbols.items()}
        if (number == 1 and not p.used_unknown) or values == prev_values:
            break
        prev, prev_values = p.symbols, values
    else:
        p.diagnostics.append(Diagnostic(filename, 1, 1, "symbol values do not settle "
                                        f"after {MAX_PASSES} passes"))
    if p.conditionals:
        p.diagnostics.append(Diagnostic(filename, len(source_lines(text)) + 1, 1,
                                        "IF without ENDIF at end of source"))
    if p.sections:
        p.diagnostics.append(Diagnostic(filename, len(source_lines(text)) + 1, 1,
                                        f"SECTION {p.sections[-1][0]} without ENDSECTION"))
    unique = list(dict.fromkeys(p.diagnostics))
    if any(d.severity == "error" for d in unique):
        raise AsmError(unique)
    # labels local to a macro expansion are not published (asl keeps them out of its
    # symbol list too); there may be many of the same name
    # string symbols (NAME EQU "text") are asl's too, but the symbol table holds numbers
    symbols = {s.name: s.value for s in p.symbols.values()
               if not s.local and isinstance(s.value, int)}
    shared = _shared_symbols(p)
    return Assembly(dict(sorted(p.memory.items())), symbols, format_listing(p.listing), shared,
                    unique)


def _shared_symbols(p: Pass) -> dict[str, int]:
    """NAME -> value of every symbol named by SHARED (asl writes them to its share file, which
    other banks of a program include); an undefined name is an error, as in asl."""
    shared: dict[str, int] = {}
    errors = []
    for name, keys, line in p.shared:
        symbol = next((p.symbols[k] for k in keys if k in p.symbols), None)
        if symbol is None:
            errors.append(Diagnostic(line.file, line.line, 1,
                                     f"SHARED names the undefined symbol '{name}'"))
        else:
            shared.setdefault(name, symbol.value)
    if errors:
        raise AsmError(errors)
    return shared

