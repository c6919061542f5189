"""The multi-pass engine: reads source lines (with includes, macros, repetitions and
conditional assembly) and hands each statement to its directive (directives.py) or to the
instruction encoder (encoder.py).  What a pass knows lives in pass_state.Pass, grouped by
concern (symbols, macros, location counter, output, conditionals, ...).

Passes repeat until every symbol keeps its value from one pass to the next (a forward
reference is taken from the previous pass), so code whose size depends on later labels
(asl's automatic `SEL MBx` before a JMP into the other bank) settles like it does in asl.
Only the errors of the last pass are reported; they are then exact."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from i18n import _

from . import directives
from .assembly import Assembly, format_listing
from .conditionals import CONDITIONALS
from .encoder import encode, is_instruction
from .errors import (AsmError, BeyondMemory, Diagnostic, EndOfSource, ExitMacro, Limit, Reported,
                     SourceError, Stop)
from .expansion import BLOCK_CONTROLS, MACRO_CONTROLS, Expansion, split_controls
from .expr import Value
from .lexer import NAME_RE, Operand, Statement, as_indented_definition, parse_line
from .macros import MACRO_PARAM_RE, Macro, macro_parameters, upcase_unquoted
from .pass_state import Pass
from .source import SrcLine, source_lines, src_lines, unquote
from .symbols import Symbol

MAX_PASSES = 12
MAX_NESTING = 64
BLOCK_OPENERS = frozenset({"MACRO", "REPT", "IRP", "IRPC", "WHILE"})
MAX_WHILE = 65536      # iterations of one WHILE before asm48 gives up
# lines a pass may expand from MACRO/REPT/IRP/IRPC/WHILE bodies (an empty body counts one): 25
# for every byte of the 4 KB program memory, so `rept 100000000`, nested REPTs or a long IRPC
# end in one sentence instead of running for hours
MAX_EXPANDED_LINES = 100_000
# characters of one substituted line, and of all of them in a pass: a macro that calls itself
# with its arguments twice doubles them at each of its 64 levels, 2**64 characters
MAX_EXPANDED_LINE = 1 << 16
MAX_EXPANDED_TEXT = 16 << 20
INCLUDE = "INCLUDE"      # a directive of the engine: it reads more source
PSEUDO_OPS = (frozenset(directives.DIRECTIVES) | frozenset(directives.LABEL_DIRECTIVES)
              | CONDITIONALS | BLOCK_OPENERS | {"ENDM", INCLUDE})


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


class Engine:
    """Runs one pass over the source: follows includes, conditionals, macros and repetitions
    and dispatches every statement."""

    def __init__(self, p: Pass):
        self.p = p

    # ---- source reading --------------------------------------------------------------------

    def run_file_text(self, text: str, filename: str, depth: int = 0) -> None:
        self.run(src_lines(text, filename, depth))

    def run(self, lines: list[SrcLine], expansion: Expansion | None = None) -> None:
        """Assemble `lines`; inside an expansion each line is substituted when reached."""
        p = self.p
        i = 0
        while i < len(lines):
            src = lines[i] if expansion is None else self.expand(expansion, lines[i])
            i += 1
            p.position.line = src
            p.position.statement = None
            try:
                st = self.parse(src.text)
            except SourceError as e:
                e.column = e.column or e.offset + 1
                p.report.record(e)
                continue
            p.position.statement = st
            op = operation(st) or ""
            try:
                if op in CONDITIONALS:
                    opener = op.startswith("IF")
                    if st.label is not None and opener and p.conditionals.active:
                        # a label in front of IF/IFDEF...: asl defines it at the current
                        # address (KTAA: `.nopal IFDEF DEBUG_PALNTSC`, a jump target)
                        p.symbols.define(st.label, p.location.pc, "label", st.label_column)
                    p.conditionals.step(op, st, self.condition, lambda o: p.values.value(o)[0])
                    p.output.list_line(None)
                    if st.label is not None and not opener and p.conditionals.active:
                        p.symbols.define(st.label, p.location.pc, "label", st.label_column)
                    continue
                if not p.conditionals.active:
                    continue
                if op in BLOCK_OPENERS:
                    body, i = self.collect_block(lines, i, op, expansion)
                    self.block(op, st, body, src)
                    continue
                if op == "ENDM":
                    raise SourceError(_("ENDM without MACRO, REPT or IRP"))
                self.statement(st, src)
            except Reported:
                pass
            except SourceError as e:
                if isinstance(e, Limit) or (isinstance(e, BeyondMemory) and p.macros.running):
                    raise Stop(p.report.diagnostic(e)) from None
                p.report.record(e)

    def parse(self, text: str) -> Statement:
        """One source line as a statement; an indented `name EQU value` gets its label
        unless its first word is an operation (so `jmp set` stays a jump)."""
        st = parse_line(text)
        op = operation(st)
        if op is not None and op not in PSEUDO_OPS and self.macro(op) is None \
                and not is_instruction(op) and machine_instruction(op) is None:
            st = as_indented_definition(st) or st
        return st

    def macro(self, name: str) -> Macro | None:
        return self.p.macros.find(name, self.p.sections)

    def expand(self, expansion: Expansion, line: SrcLine) -> SrcLine:
        """``line`` of a block body as substituted at this point of ``expansion``; the assembly
        stops when the line, or all lines substituted in this pass, grow past their bound."""
        out = expansion.line(line)
        p = self.p
        p.macros.expanded_text += len(out.text)
        if len(out.text) > MAX_EXPANDED_LINE:
            problem = _("a macro expansion makes a line of {size} characters, more than {limit}; "
                        "does a macro pass its arguments on twice?").format(
                            size=len(out.text), limit=MAX_EXPANDED_LINE)
        elif p.macros.expanded_text > MAX_EXPANDED_TEXT:
            problem = _("macros, REPT, IRP, IRPC and WHILE expand more than {limit} characters; "
                        "a program for 4 KB of program memory needs far fewer").format(
                            limit=MAX_EXPANDED_TEXT)
        else:
            return out
        raise Stop(Diagnostic(line.file, line.line, 1, problem + line.note))

    def collect_block(self, lines: list[SrcLine], i: int, op: str,
                      expansion: Expansion | None = None) -> tuple[list[SrcLine], int]:
        """The body up to the matching ENDM, and the index after it.  Inside an expansion
        the body is taken as substituted at this point (asl collects expanded lines)."""
        depth = 1
        body: list[SrcLine] = []
        while i < len(lines):
            line = lines[i] if expansion is None else self.expand(expansion, lines[i])
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
        raise SourceError(_("{op} without ENDM").format(op=op))

    def include(self, operand: Operand) -> None:
        """INCLUDE "file": assemble the file's lines here."""
        p = self.p
        text, filename = p.includes.read(unquote(operand.text), operand.column,
                                         p.position.line.file)
        p.includes.enter(filename, operand.column)
        saved = p.position.line, p.position.statement
        try:
            self.run_file_text(text, filename, p.position.line.depth + 1)
        finally:
            p.includes.leave()
            p.position.line, p.position.statement = saved

    # ---- statements ------------------------------------------------------------------------

    def statement(self, st: Statement, src: SrcLine) -> None:
        p = self.p
        op = operation(st)
        handler = directives.LABEL_DIRECTIVES.get(op) if op else None
        if handler is not None and op is not None and self.macro(op) is None:
            handler(p, st)
            p.output.list_line(None, line=src)
            return
        forced = machine_instruction(op)
        if forced is not None:
            op = forced
        macro = self.macro(op) if op and forced is None else None
        if st.label in ("-", "+", "/"):
            p.symbols.define_nameless(st.label, p.location.pc)
        elif st.label is not None and p.structures.reading:
            top = p.structures.reading[-1]
            if top.union:                               # every field of a union is at 0
                top.longest, p.location.pc = max(top.longest, p.location.pc), 0
            top.fields.append((st.label, p.location.pc))      # a field: its offset
            p.symbols.define(top.qualified(st.label), p.location.pc, "equ", st.label_column)
        elif st.label is not None and not (macro and macro.controls.int_label):
            p.symbols.define(st.label, p.location.pc, "label", st.label_column)
        if op is None:
            p.output.list_line(p.location.pc if st.label else None, line=src)
            return
        if op not in directives.DATA_BYTES:
            p.output.jmpp_page = None        # a JMPP table is the DB lines right after it
        if macro is not None:
            p.output.list_line(None, line=src)
            self.run_expansion(macro.body, macro.call(st, src),
                               _(" (in macro {macro} called at {place})").format(
                                   macro=macro.name, place=f"{src.file}:{src.line}"),
                               src, macro.controls.global_symbols)
        elif op == INCLUDE:
            (operand,) = directives.operands(st, 1)
            p.output.list_line(None)
            self.include(operand)
        elif op in directives.DIRECTIVES:
            before = len(p.output.listing)
            directives.DIRECTIVES[op](p, st)
            if len(p.output.listing) == before:
                p.output.list_line(None, line=src)
        elif is_instruction(op):
            pc = p.location.pc
            p.emit(encode(op, st.operands, pc, p.values.int_value, p.symbols.registers,
                          p.report.record, p.settings.cpu))
            if op == "JMPP":
                # JMPP @A reads its table from, and jumps into, the page of the next byte
                p.output.jmpp_page, p.output.jmpp_at = p.location.pc & ~0xFF, pc
        elif op in p.structures.defined:
            self.instance(op, st)
        else:
            raise SourceError(_("unknown instruction or directive '{op}'").format(op=st.op),
                              column=st.op_column)

    def instance(self, op: str, st: Statement) -> None:
        """`name STRUCTNAME`: reserve the structure here and define name_field for each
        field (asl)."""
        p = self.p
        if not st.label:
            raise SourceError(_("a structure ({op}) needs a name in the label "
                                "field").format(op=st.op))
        fields, length = p.structures.defined[op]
        pc = p.location.pc
        for field_name, offset in fields:
            if p.structures.reading:        # a structure inside a structure's definition
                top = p.structures.reading[-1]
                top.fields.append((f"{st.label}_{field_name}", pc + offset))
                p.symbols.define(top.qualified(f"{st.label}_{field_name}"), pc + offset,
                                 "equ", st.label_column)
            else:
                p.symbols.define(f"{st.label}_{field_name}", pc + offset, "label",
                                 st.label_column)
        p.reserve(length)

    # ---- macros and repetition -------------------------------------------------------------

    def block(self, op: str, st: Statement, body: list[SrcLine], src: SrcLine) -> None:
        p = self.p
        p.output.list_line(None, line=src)
        if op == "MACRO":
            if not st.label:
                raise SourceError(_("MACRO needs a name in the label field"))
            controls, operands = split_controls(st.operands, MACRO_CONTROLS, "MACRO")
            params, defaults = macro_parameters(operands)
            # a macro defined in a SECTION is known only inside it, as in asl
            p.macros.defined[p.sections.scope_keys(st.label)[0]] = Macro(
                st.label, params, body, defaults, controls)
            return
        if st.label is not None:
            p.symbols.define(st.label, p.location.pc, "label", st.label_column)
        controls, operands = split_controls(st.operands, BLOCK_CONTROLS, op)
        note = _(" (in {op} at {place})").format(op=op, place=f"{src.file}:{src.line}")
        if op == "REPT":
            if len(operands) != 1:
                raise SourceError(_("REPT takes one operand (the repeat count)"))
            count = p.values.known_int(operands[0])
            if count < 0:
                raise SourceError(_("negative repeat count {count}").format(count=count),
                                  column=operands[0].column)
            for _unused in range(count):
                if self.run_expansion(body, Expansion("REPT", listed=src.listed), note, src,
                                      controls.global_symbols):
                    break
            return
        if op == "WHILE":
            condition = Statement(operands=operands)
            for _unused in range(MAX_WHILE):
                if not self.condition("IF", condition) or self.run_expansion(
                        body, Expansion("WHILE", listed=src.listed), note, src,
                        controls.global_symbols):
                    return
            raise SourceError(_("WHILE still true after {limit} "
                                "iterations").format(limit=MAX_WHILE))
        if len(operands) < 1 or not MACRO_PARAM_RE.fullmatch(operands[0].text):
            raise SourceError(_("{op} needs a parameter name (letters and digits) "
                                "and a list").format(op=op))
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

    def run_expansion(self, body: list[SrcLine], expansion: Expansion, note: str,
                      src: SrcLine, global_symbols: bool = False) -> bool:
        """Assemble one expansion of `body`; True when it was left with EXITM (which ends
        the whole REPT/IRP, as in asl).  Unless `global_symbols`, the labels it defines go
        to a scope of its own."""
        p = self.p
        if len(p.macros.running) >= MAX_NESTING:
            raise SourceError(_("macro/REPT nesting deeper than "
                                "{levels} levels").format(levels=MAX_NESTING))
        p.macros.expanded_lines += max(len(body), 1)
        if p.macros.expanded_lines > MAX_EXPANDED_LINES:
            raise Stop(Diagnostic(
                src.file, src.line, 1,
                _("macros, REPT, IRP, IRPC and WHILE expand more than {limit} lines; a program "
                  "for 4 KB of program memory needs far fewer (a repeat count too large?)"
                  ).format(limit=MAX_EXPANDED_LINES)))
        lines = [SrcLine(line.text, line.file, line.line, note + line.note, src.depth + 1,
                         line.listed) for line in body]
        p.macros.running.append(expansion)
        if not global_symbols:
            p.symbols.open_scope()
        open_conditionals = len(p.conditionals.open)
        try:
            self.run(lines, expansion)
        except ExitMacro:
            del p.conditionals.open[open_conditionals:]    # EXITM leaves IFs of the body
            return True
        finally:
            if not global_symbols:
                p.symbols.close_scope()
            p.macros.running.pop()
            p.position.line = src
        return False

    # ---- conditions ------------------------------------------------------------------------

    def condition(self, op: str, st: Statement) -> bool:
        """Whether the condition of an IF line (or of WHILE, as "IF") holds."""
        p = self.p
        if op in ("IFB", "IFNB"):
            blank = not st.operand_text.strip()
            return blank if op == "IFB" else not blank
        if len(st.operands) != 1:
            raise SourceError(_("{op} takes one operand").format(op=op))
        operand = st.operands[0]
        if op in ("IFDEF", "IFNDEF"):
            if not NAME_RE.fullmatch(operand.text):
                raise SourceError(_("symbol name expected after {op}").format(op=op),
                                  column=operand.column)
            return p.symbols.defined(operand.text) == (op == "IFDEF")
        if op in ("IFUSED", "IFNUSED"):
            # asl: whether the symbol was referenced so far in this pass
            used = p.symbols.temporary_name(operand.text).upper() in p.symbols.used
            return used == (op == "IFUSED")
        if op in ("IFEXIST", "IFNEXIST"):
            found = p.includes.find(unquote(operand.text), p.position.line.file) is not None
            return found == (op == "IFEXIST")
        return p.values.condition(operand)


def assemble(text: str, filename: str = "<string>",
             include_dirs: Sequence[str | Path] = (), relaxed: bool = False) -> Assembly:
    """Assemble asl-dialect 8048 source; raises AsmError listing every error.  Forms asl
    refuses are errors unless `relaxed`, which accepts them with a warning each
    (Assembly.warnings)."""
    dirs = tuple(Path(d) for d in include_dirs)
    prev: dict[str, Symbol] = {}
    prev_values: dict[str, object] | None = None
    for number in range(1, MAX_PASSES + 1):
        p = Pass.start(prev, dirs, filename, relaxed, number)
        try:
            Engine(p).run_file_text(text, filename)
        except EndOfSource:
            pass
        except Stop as limit:
            raise AsmError([limit.diagnostic]) from None
        values: dict[str, object] = {k: s.value for k, s in p.symbols.table.items()}
        if (number == 1 and not p.values.used_unknown) or values == prev_values:
            break
        prev, prev_values = p.symbols.table, values
    else:
        p.report.found.append(Diagnostic(filename, 1, 1, _(
            "symbol values do not settle after {passes} passes").format(passes=MAX_PASSES)))
    end = len(source_lines(text)) + 1
    if p.conditionals.open:
        p.report.found.append(Diagnostic(filename, end, 1, _("IF without ENDIF at end of source")))
    if p.sections.depth:
        p.report.found.append(Diagnostic(filename, end, 1, _(
            "SECTION {section} without ENDSECTION").format(section=p.sections.open[-1][0])))
    unique = list(dict.fromkeys(p.report.found))
    if any(d.severity == "error" for d in unique):
        raise AsmError(unique)
    return Assembly(dict(sorted(p.output.memory.items())), p.symbols.published(),
                    format_listing(p.output.listing), _shared_symbols(p), unique)


def _shared_symbols(p: Pass) -> dict[str, Value]:
    """NAME -> value of every symbol named by SHARED (asl writes them to its share file, which
    other banks of a program include); an undefined name is an error, as in asl."""
    shared: dict[str, Value] = {}
    errors = []
    for name, keys, line in p.symbols.shared:
        symbol = next((p.symbols.table[k] for k in keys if k in p.symbols.table), None)
        if symbol is None:
            errors.append(Diagnostic(line.file, line.line, 1,
                                     _("SHARED names the undefined symbol "
                                       "'{name}'").format(name=name)))
        else:
            shared.setdefault(name, symbol.value)
    if errors:
        raise AsmError(errors)
    return shared
