"""asl pseudo instructions (directives), one handler each, registered by name.

Data layout follows asl's Intel-style pseudo instructions for the 8048 (intpseudo.c):
DB bytes lie in -128..255, strings are stored byte by byte through the active codepage;
DW words lie in -32768..65535 and are stored low byte first (the 8048 target is
little-endian in asl); DS and ALIGN only move the location counter (the gap is filled by
the image writer, like p2bin)."""
from __future__ import annotations

import re
from typing import Callable

from i18n import N_, _

from .errors import EndOfSource, ExitMacro, Limit, SourceError
from .expr import UserFunction
from .lexer import NAME_RE, Operand, Statement, split_operands
from .location import StructDef
from .pass_state import Pass
from .sections import MAX_SECTION_DEPTH
from .source import read_named, unquote

Handler = Callable[[Pass, Statement], None]
DIRECTIVES: dict[str, Handler] = {}
LABEL_DIRECTIVES: dict[str, Handler] = {}
"""Directives that use the label field themselves (the symbol being defined)."""

# The CPU names asl 1.42's code48 module knows (its manual lists them; any other name, such as
# 8049, is "invalid CPU type" in asl).  asm48 also knows the names of the family asl does not.
CPUS = ("8021", "8022", "8039", "80C39", "MSM80C39", "8048", "80C48", "MSM80C48", "8041",
        "8042", "80C382")
OTHER_CPUS = frozenset({"8035", "8040", "8049", "8050", "8748", "8749", "80C35", "80C49",
                        "80C50", "8741", "8742", "87C50"})
# Listing and assembler-control directives without effect on the code.
IGNORED = ("PAGE", "TITLE", "LISTING", "NEWPAGE", "MACEXP", "PRTINIT", "PRTEXIT",
           "FORWARD", "MESSAGE", "WARNING", "NOLIST", "LIST", "INTSYNTAX",
           "MACEXP_DFT", "MACEXP_OVR", "OUTRADIX", "PADDING", "PACKING", "ENDIAN")
# asm48's other names of DB, DW and DS, which asl does not know for the 8048
OTHER_DATA_NAMES = frozenset({"BYTE", "DEFB", "FCB", "DC.B", "WORD", "DEFW", "FDB", "DC.W",
                              "DEFS", "RMB", "RES"})


def directive(*names: str, table: dict[str, Handler] = DIRECTIVES) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            table[name] = fn
        return fn
    return register


def written_op(st: Statement) -> str:
    """The operation as written, in upper case (a directive's statement always has one)."""
    return (st.op or "").upper()


def op_name(st: Statement) -> str:
    """The directive's name: upper case, without asl's leading dot (`.db` is DB)."""
    return written_op(st).lstrip(".")


def operands(st: Statement, low: int, high: int | None = None) -> list[Operand]:
    high = low if high is None else high
    n = len(st.operands)
    if not low <= n <= high:
        want = str(low) if low == high else _("{low} to {high}").format(low=low, high=high)
        raise SourceError(_("{op} takes {want} "
                            "operand(s), got {n}").format(op=written_op(st), want=want, n=n),
                          column=st.op_column)
    return st.operands


# ---- symbols -------------------------------------------------------------------------------

@directive("EQU", "SET", "=", ":=", table=LABEL_DIRECTIVES)
def define_symbol(p: Pass, st: Statement) -> None:
    if not st.label:
        raise SourceError(_("{op} needs a symbol name in the label "
                            "field").format(op=written_op(st)))
    (operand,) = operands(st, 1)
    value, known = p.values.value(operand)
    if isinstance(value, str) and '"' not in operand.text:
        value, known = p.values.int_value(operand)    # 'A' is a number in asl, "A" a string
    if known:
        kind = "equ" if op_name(st) == "EQU" else "set"
        p.symbols.define(st.label, value, kind, st.label_column)


@directive("LABEL", table=LABEL_DIRECTIVES)
def label_directive(p: Pass, st: Statement) -> None:
    """NAME LABEL expr: a label with the given value. Unlike a label in the label field it is
    global even inside a macro expansion, which is what multi-bank homebrew relies on: KTAA's
    switchtable macro defines `name_bank label $` and other code calls `name_bank`."""
    if not st.label:
        raise SourceError(_("LABEL needs a symbol name in the label field"))
    (operand,) = operands(st, 1)
    value, known = p.values.int_value(operand)
    if known:
        p.symbols.define(st.label, value, "label", st.label_column, in_expansion_global=True)


@directive("REG", table=LABEL_DIRECTIVES)
def register_alias(p: Pass, st: Statement) -> None:
    """`name REG R3`: another name for a register (asl's REG for the 8048)."""
    if not st.label:
        raise SourceError(_("REG needs an alias name in the label field"))
    (operand,) = operands(st, 1)
    target = operand.text.upper().replace(" ", "")
    if not re.fullmatch(r"R[0-7]", target):
        raise SourceError(_("'{text}' is not a register R0..R7").format(text=operand.text),
                          column=operand.column)
    p.symbols.registers[st.label.upper()] = target
    p.symbols.registers["@" + st.label.upper()] = "@" + target


@directive("FUNCTION", table=LABEL_DIRECTIVES)
def function(p: Pass, st: Statement) -> None:
    """`name FUNCTION p1,...,pn,expression`: a function usable in expressions (asl)."""
    if not st.label:
        raise SourceError(_("FUNCTION needs a function name in the label field"))
    ops = operands(st, 1, 99)
    params = tuple(o.text.upper() for o in ops[:-1])
    for param, o in zip(params, ops):
        if not NAME_RE.fullmatch(param):
            raise SourceError(_("invalid parameter name '{text}'").format(text=o.text),
                              column=o.column)
    p.values.functions[st.label.upper()] = UserFunction(st.label, params, ops[-1].text)


@directive("PUBLIC", "GLOBAL")
def export(p: Pass, st: Statement) -> None:
    if not p.sections.depth:
        return            # outside a section every symbol is global already
    kind = op_name(st)
    for operand in operands(st, 1, 999):
        name, _unused, target = (t.strip() for t in operand.text.partition(":"))
        if not NAME_RE.fullmatch(name):
            raise SourceError(_("symbol name expected, got '{text}'").format(text=operand.text),
                              column=operand.column)
        p.sections.exports[-1][name.upper()] = kind, _export_levels(p, kind, target.upper(), operand)


def _export_levels(p: Pass, kind: str, target: str, operand: Operand) -> int:
    """How many section levels up PUBLIC/GLOBAL name[:target] sends the symbol (asl): no
    target: PUBLIC to the top, GLOBAL one up; PARENT or PARENTn; or a section of the path."""
    depth = p.sections.depth
    if not target:
        return depth if kind == "PUBLIC" else 1
    m = re.fullmatch(r"PARENT(\d*)", target)
    if m:
        return min(int(m.group(1) or 1), depth)
    keys = p.sections.keys()
    if target not in keys:
        raise SourceError(_("'{target}' is not a section around this one").format(target=target),
                          column=operand.column)
    return depth - (len(keys) - 1 - keys[::-1].index(target)) - 1


@directive("SHARED")
def shared(p: Pass, st: Statement) -> None:
    """SHARED name[,name...]: publish the symbols in the share file (asl's -a/-c/-p)."""
    for operand in operands(st, 1, 999):
        if not NAME_RE.fullmatch(operand.text):
            raise SourceError(_("symbol name expected, got '{text}'").format(text=operand.text),
                              column=operand.column)
        p.symbols.shared.append((operand.text, p.sections.scope_keys(operand.text),
                                  p.position.line))


# ---- location counter ----------------------------------------------------------------------

@directive("ORG")
def org(p: Pass, st: Statement) -> None:
    (operand,) = operands(st, 1)
    value = p.values.known_int(operand)
    if not 0 <= value <= 0xFFFF:
        raise SourceError(_("ORG address {value:#x} out of range").format(value=value),
                          column=operand.column)
    p.location.pc = value


@directive("DS", "DEFS", "RMB", "RES")
def reserve(p: Pass, st: Statement) -> None:
    (operand,) = operands(st, 1)
    if op_name(st) in OTHER_DATA_NAMES:
        p.report.dialect("datanames", column=st.op_column)
    count = p.values.known_int(operand)
    if count < 0:
        raise SourceError(_("negative size {count}").format(count=count), column=operand.column)
    p.reserve(count)


@directive("ALIGN")
def align(p: Pass, st: Statement) -> None:
    """ALIGN n moves to the next multiple of n without code; ALIGN n,fill stores `fill`
    bytes up to there (asl)."""
    ops = operands(st, 1, 2)
    n = p.values.known_int(ops[0])
    if n <= 0:
        raise SourceError(_("alignment {n} must be positive").format(n=n), column=ops[0].column)
    gap = -p.location.pc % n
    if len(ops) == 1:
        p.location.pc += gap
        return
    fill = p.values.known_int(ops[1])
    if not -128 <= fill <= 255:
        raise SourceError(_("fill byte {fill} out of range -128..255").format(fill=fill),
                          column=ops[1].column)
    p.emit(bytes([fill & 0xFF]) * gap)


@directive("STRUCT", "STRUC", "UNION", table=LABEL_DIRECTIVES)
def struct(p: Pass, st: Statement) -> None:
    """STRUCT [DOTS|NOEXTNAMES]: the labels up to ENDSTRUCT are the offsets of its fields,
    entered as NAME_field (NAME.field with DOTS, field with NOEXTNAMES), as asl does.
    UNION ... ENDUNION: every field at offset 0, the length is the longest field's."""
    options = {o.text.upper() for o in operands(st, 0, 2)}
    if p.structures.reading:
        raise SourceError(_("a STRUCT or UNION defined inside another is not supported by asm48 "
                            "(an instance of a structure defined before is)"))
    name = "" if "NOEXTNAMES" in options else (st.label or "")
    p.structures.reading.append(StructDef(name, "." if "DOTS" in options else "_", p.location.pc,
                                    union=op_name(st) == "UNION"))
    p.location.pc = 0


@directive("ENDSTRUCT", "ENDSTRUC", "ENDS", "ENDUNION", table=LABEL_DIRECTIVES)
def end_struct(p: Pass, st: Statement) -> None:
    """ENDSTRUCT [with a label]: define NAME_LEN (or label_LEN), go back to where the
    location counter was."""
    operands(st, 0)
    if not p.structures.reading:
        raise SourceError(_("ENDSTRUCT without STRUCT"))
    top = p.structures.reading.pop()
    length = max(top.longest, p.location.pc) if top.union else p.location.pc
    owner = st.label or top.name
    p.symbols.define(f"{owner}{top.sep}LEN" if owner else "LEN", length, "equ")
    if top.name:
        p.structures.defined[top.name.upper()] = top.fields, length
    p.location.pc = top.saved


@directive("PHASE")
def phase(p: Pass, st: Statement) -> None:
    """PHASE addr: the code that follows is stored here but assembled for `addr` (labels and
    $ take the logical address) until DEPHASE (asl)."""
    (operand,) = operands(st, 1)
    value = p.values.known_int(operand)
    physical = p.location.pc - p.location.phase
    p.location.phase = value - physical
    p.location.pc = value


@directive("DEPHASE")
def dephase(p: Pass, st: Statement) -> None:
    operands(st, 0)
    p.location.pc -= p.location.phase
    p.location.phase = 0


@directive("RORG")
def relative_org(p: Pass, st: Statement) -> None:
    """RORG n: move the location counter by n bytes (asl), like DS without a listing."""
    (operand,) = operands(st, 1)
    p.location.pc += p.values.known_int(operand)


@directive("ENUM", "NEXTENUM")
def enum(p: Pass, st: Statement) -> None:
    """ENUM a, b=10, c: constants counting up from 0 (or from a given value), as asl;
    NEXTENUM goes on counting where the last ENUM line stopped."""
    counter = p.symbols.enum_next if op_name(st) == "NEXTENUM" else 0
    for operand in operands(st, 1, 999):
        name, eq, expr = operand.text.partition("=")
        name = name.strip()
        if eq:
            counter = p.values.known_int(Operand(expr.strip(), operand.column + len(name) + 1))
        p.symbols.define(name, counter, "equ", operand.column)
        counter += 1
    p.symbols.enum_next = counter


@directive("PUSHV")
def push_values(p: Pass, st: Statement) -> None:
    """PUSHV stack,sym,...: save the symbols' values on a named stack (asl)."""
    ops = operands(st, 2, 999)
    stack = p.symbols.value_stacks.setdefault(ops[0].text.upper(), [])
    for operand in ops[1:]:
        stack.append(p.values.known_int(operand))


@directive("POPV")
def pop_values(p: Pass, st: Statement) -> None:
    """POPV stack,sym,...: give the symbols the values saved last, left to right (asl)."""
    ops = operands(st, 2, 999)
    name = ops[0].text.upper()
    stack = p.symbols.value_stacks.get(name, [])
    for operand in ops[1:]:
        if not stack:
            raise SourceError(_("POPV: stack '{text}' is empty").format(text=ops[0].text),
                              column=operand.column)
        p.symbols.set_existing(operand, stack.pop())
    if not stack:
        p.symbols.value_stacks.pop(name, None)


@directive("END")
def end(p: Pass, st: Statement) -> None:
    p.output.list_line(None)
    raise EndOfSource()


@directive("CPU")
def cpu(p: Pass, st: Statement) -> None:
    (operand,) = operands(st, 1)
    name = operand.text.upper()
    if name in OTHER_CPUS:
        p.report.dialect("cpu", column=operand.column)
        name = "8048"
    elif name not in CPUS:
        raise SourceError(_("unsupported CPU '{text}' (asm48 assembles the MCS-48 family: {cpus})"
                            ).format(text=operand.text, cpus=", ".join(CPUS)),
                          column=operand.column)
    p.settings.cpu = name


@directive("RELAXED")
def relaxed(p: Pass, st: Statement) -> None:
    """RELAXED ON/OFF: asl's switch for the other assemblers' number formats ($ff, 0x..,
    %.., @.., x'..')."""
    (operand,) = operands(st, 1)
    p.dialect.relaxed_on = on_off(operand)


def on_off(operand: Operand) -> bool:
    word = operand.text.upper()
    if word not in ("ON", "OFF"):
        raise SourceError(_("ON or OFF expected, got '{text}'").format(text=operand.text),
                          column=operand.column)
    return word == "ON"


@directive("RADIX")
def radix(p: Pass, st: Statement) -> None:
    """RADIX n: the base of numbers written without a suffix (asl: 2..36, read in decimal)."""
    (operand,) = operands(st, 1)
    saved, p.settings.radix = p.settings.radix, 10
    try:
        value = p.values.known_int(operand)
    finally:
        p.settings.radix = saved
    if not 2 <= value <= 36:
        raise SourceError(_("radix {value} out of range 2..36").format(value=value),
                          column=operand.column)
    p.settings.radix = value


@directive("SAVE")
def save(p: Pass, st: Statement) -> None:
    """SAVE: push the CPU and the codepage (asl also saves listing flags and the segment,
    which asm48 does not have); asl's include files begin with it."""
    operands(st, 0)
    p.settings.saved.append((p.settings.cpu, p.codepages.active))


@directive("RESTORE")
def restore(p: Pass, st: Statement) -> None:
    operands(st, 0)
    if not p.settings.saved:
        raise SourceError(_("RESTORE without SAVE"))
    p.settings.cpu, p.codepages.active = p.settings.saved.pop()


@directive(*IGNORED)
def ignored(p: Pass, st: Statement) -> None:
    """Listing and message control: accepted for asl compatibility, no effect on code."""


@directive("ERROR", "FATAL")
def user_error(p: Pass, st: Statement) -> None:
    text = st.operand_text
    if st.operands:
        value, known = p.values.value(st.operands[0])
        text = value if isinstance(value, str) else str(value)
    raise SourceError(f"{written_op(st)}: {text}")


@directive("EXITM")
def exit_macro(p: Pass, st: Statement) -> None:
    if not p.macros.running:
        raise SourceError(_("EXITM outside a macro"))
    raise ExitMacro()


# ---- data ------------------------------------------------------------------------------------

_DUP = re.compile(r"^(?P<count>.+?)\s+DUP\s*(?P<value>.*)$", re.IGNORECASE | re.DOTALL)


DATA_BYTES = ("DB", "BYTE", "DEFB", "FCB", "DC.B")


def data_operands(p: Pass, st: Statement, size: int) -> bytes | int:
    """The bytes of a DB/DW/DD line (each item `size` bytes, low byte first), or the number
    of bytes to reserve for a line of `?` placeholders (asl: `db ?` reserves like DS; mixing
    `?` with values is an error, as in asl)."""
    ops = operands(st, 1, 9999)
    if op_name(st) in OTHER_DATA_NAMES:
        p.report.dialect("datanames", column=st.op_column)
    holes = [o for o in ops if o.text == "?"]
    if holes:
        if len(holes) != len(ops):
            raise SourceError(_("constants and placeholders cannot be mixed (asl)"))
        return size * len(ops)
    data = bytearray()
    for operand in ops:
        data += _items(p, operand, operand.text, size)
    return bytes(data)


@directive(*DATA_BYTES)
def define_bytes(p: Pass, st: Statement) -> None:
    _store(p, data_operands(p, st, 1))


def _store(p: Pass, data: bytes | int) -> None:
    if isinstance(data, int):
        p.reserve(data)
    else:
        p.emit(data)


MAX_DUP_BYTES = 0x10000    # a DUP never needs more than 64 KB (the 8048's is 4 KB)
_RANGES = {1: (-128, 255, N_("byte")), 2: (-32768, 65535, N_("word")),
           4: (-(1 << 31), (1 << 32) - 1, N_("double word")),
           8: (-(1 << 63), (1 << 64) - 1, N_("quad word"))}


def _items(p: Pass, operand: Operand, text: str, size: int) -> bytes:
    """One data operand: a value, a string (DB only stores its characters), or
    `n DUP value` / `n DUP (v1,v2,...)` (asl repeats the list)."""
    m = _DUP.match(text)
    if m:
        count_op = Operand(m.group("count"), operand.column)
        count = p.values.known_int(count_op)
        if count < 0:
            raise SourceError(_("negative DUP count {count}").format(count=count),
                              column=operand.column)
        inner = m.group("value").strip()
        if inner.startswith("(") and inner.endswith(")"):
            inner = inner[1:-1]
        column = operand.column + text.find(inner)
        items = b"".join(_items(p, o, o.text, size) for o in split_operands(inner, column))
        if len(items) * count > MAX_DUP_BYTES:
            raise SourceError(_("DUP makes {size} bytes, more than the {limit} of the largest "
                                "address space").format(size=len(items) * count,
                                                        limit=MAX_DUP_BYTES),
                              column=operand.column)
        return items * count
    value, known = p.values.value(operand, text)
    if isinstance(value, str):
        if size == 1:
            if text.strip().startswith("'") and len(value) > 1:
                p.report.dialect("'AB'db", column=operand.column)
            return p.codepages.translate(value)
        value = int.from_bytes(p.codepages.translate(value), "big") if value else 0
    low, high, what = _RANGES[size]
    if known and not low <= value <= high:
        p.report.record(SourceError(_("{what} value {value} out of range {low}..{high}").format(
            what=_(what), value=value, low=low, high=high), column=operand.column))
    if known and size == 1 and p.output.jmpp_page is not None:
        _check_jmpp_entry(p, operand, p.output.jmpp_page)
    return (value & ((1 << 8 * size) - 1)).to_bytes(size, "little")


def _check_jmpp_entry(p: Pass, operand: Operand, page: int) -> None:
    """A DB right after `JMPP @A` is a jump table: an entry naming one code label must name
    a label in the `page` JMPP jumps into (the 8048 only replaces PC bits 7-0)."""
    labels = [s for s in p.values.symbols_read if s.kind == "label"]
    if len(labels) != 1 or not isinstance(labels[0].value, int):   # a label is an address
        return
    target = labels[0].value
    if target & ~0xFF != page:
        distance = target - (p.output.jmpp_at + 1)
        p.report.record(SourceError(
            _("JMPP table entry {label} ({target:03X}h) is outside the page "
              "{page:03X}h-{page_end:03X}h of the JMPP at {jmpp:03X}h (distance {distance:+d} "
              "bytes)").format(label=labels[0].name, target=target, page=page,
                               page_end=page + 0xFF, jmpp=p.output.jmpp_at, distance=distance),
            column=operand.column))


@directive("DW", "WORD", "DEFW", "FDB", "DC.W")
def define_words(p: Pass, st: Statement) -> None:
    _store(p, data_operands(p, st, 2))


@directive("DD")
def define_double_words(p: Pass, st: Statement) -> None:
    """DD: 32-bit values, low byte first (asl for the 8048)."""
    _store(p, data_operands(p, st, 4))


@directive("DQ")
def define_quad_words(p: Pass, st: Statement) -> None:
    """DQ: 64-bit integers, low byte first (asl; floating-point values are not supported)."""
    _store(p, data_operands(p, st, 8))


@directive("BINCLUDE")
def binary_include(p: Pass, st: Statement) -> None:
    ops = operands(st, 1, 3)
    name = unquote(ops[0].text)
    path = p.includes.named(name, p.position.line.file)
    if path is None:
        raise SourceError(_("binary file '{name}' not found").format(name=name),
                          column=ops[0].column)
    blob = read_named(path, _("binary file '{name}'").format(name=name), ops[0].column)
    start = p.values.known_int(ops[1]) if len(ops) > 1 else 0
    length = p.values.known_int(ops[2]) if len(ops) > 2 else len(blob) - start
    if not (0 <= start <= len(blob) and 0 <= length <= len(blob) - start):
        raise SourceError(_("offset/length outside '{name}' "
                            "({size} bytes)").format(name=name, size=len(blob)),
                          column=ops[1].column)
    p.emit(blob[start:start + length])


# ---- character translation ---------------------------------------------------------------

@directive("CODEPAGE")
def codepage(p: Pass, st: Statement) -> None:
    """Select (creating it as a copy of the identity table if new) a translation table."""
    ops = operands(st, 1, 2)
    name = ops[0].text.upper()
    if not NAME_RE.fullmatch(name):
        raise SourceError(_("invalid codepage name '{text}'").format(text=ops[0].text),
                          column=ops[0].column)
    if name not in p.codepages.tables:
        source = ops[1].text.upper() if len(ops) > 1 else "STANDARD"
        if source not in p.codepages.tables:
            raise SourceError(_("unknown codepage '{text}'").format(text=ops[1].text),
                              column=ops[1].column)
        p.codepages.tables[name] = list(p.codepages.tables[source])
    p.codepages.active = name


@directive("CHARSET")
def charset(p: Pass, st: Statement) -> None:
    """CHARSET: reset the active table; CHARSET c,v: map one character; CHARSET a,z,v: map
    the range a..z to v, v+1, ... (source characters are taken untranslated)."""
    ops = operands(st, 0, 3)
    table = p.codepages.tables[p.codepages.active]
    if not ops:
        table[:] = range(256)
        return
    if len(ops) == 1:
        raise SourceError(_("CHARSET takes a character and its code, or a range and the first "
                            "code"),
                          column=st.op_column)
    p.codepages.translating = False
    try:
        values = [p.values.known_int(o) for o in ops[:-1]]
        last, _unused = p.values.value(ops[-1])
    finally:
        p.codepages.translating = True
    first = values[0]
    end = values[1] if len(values) > 1 else first
    if isinstance(last, str):
        targets = list(p.codepages.translate(last))
        end = first + len(targets) - 1 if len(values) == 1 else end
    else:
        if len(values) == 1 and not isinstance(last, str):
            end = first
        targets = [last + k for k in range(end - first + 1)]
    for c in (first, end):
        if not 0 <= c <= 255:
            raise SourceError(_("character code {c} out of range 0..255").format(c=c),
                              column=ops[0].column)
    if len(targets) < end - first + 1:
        raise SourceError(_("CHARSET target string shorter than the source range"),
                          column=ops[-1].column)
    for k, code in enumerate(range(first, end + 1)):
        if not 0 <= targets[k] <= 255:
            raise SourceError(_("target value {value} out of range "
                                "0..255").format(value=targets[k]),
                              column=ops[-1].column)
        table[code] = targets[k]


# ---- sections ------------------------------------------------------------------------------

@directive("SECTION")
def section(p: Pass, st: Statement) -> None:
    (operand,) = operands(st, 1)
    if not NAME_RE.fullmatch(operand.text):
        raise SourceError(_("invalid section name '{text}'").format(text=operand.text),
                          column=operand.column)
    if p.sections.depth >= MAX_SECTION_DEPTH:
        raise Limit(_("SECTIONs nested deeper than {levels} levels").format(
            levels=MAX_SECTION_DEPTH), column=operand.column)
    p.sections.enter(operand.text)


@directive("ENDSECTION")
def end_section(p: Pass, st: Statement) -> None:
    ops = operands(st, 0, 1)
    if not p.sections.depth:
        raise SourceError(_("ENDSECTION without SECTION"))
    if ops and ops[0].text.upper() != p.sections.open[-1][1]:
        raise SourceError(_("ENDSECTION {text} does not close SECTION {section}").format(
            text=ops[0].text, section=p.sections.open[-1][0]), column=ops[0].column)
    p.sections.leave()



# ---- macro expansion -----------------------------------------------------------------------

@directive("SHIFT", "SHFT")
def shift(p: Pass, st: Statement) -> None:
    """SHIFT (asl): the macro's parameters take the values of the next ones, so a macro can
    walk a variable argument list (usually by calling itself with ALLARGS)."""
    operands(st, 0)
    p.macros.shift()
