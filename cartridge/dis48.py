"""dis48: MCS-48 disassembler whose output reassembles with asm48 to the same bytes.

Decoding comes from the opcode table (`cartridge.opcodes.OPCODES`).  A jump target is
computed the way the 8048 does it: conditional jumps and DJNZ replace PC bits 7-0 inside
the page of their operand byte; JMP/CALL keep A11 of the instruction's own 2 KB bank (the
MB flip-flop is a run-time state, so the listing assumes the current bank).  Bytes that do
not form an instruction asm48 would reproduce exactly are printed as `db`: illegal opcodes,
a trailing partial instruction, an instruction running across a 2 KB boundary and a
JMP/CALL in the last two bytes of a bank (asl rejects those)."""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Sequence

import i18n
from i18n import _, os_reason
from safefiles import read_at_most, write_stdout

from . import __version__
from .asm48.cli import OneLineParser, parse_address, read_input
from .asm48.encoder import BANK, PAGE
from .symbols import load_symbols
from .opcodes import ADDRESS, ENCODINGS, IMMEDIATE, OPCODES, KEYWORDS, Opcode

PROG = "dis48"
PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")   # names usable as labels in any position
MEMORY = 0x1000


def hexnum(value: int, digits: int = 2) -> str:
    """asl-style hex constant: 12h, 0FFh (a leading 0 only where it would read as a name)."""
    text = f"{value:0{digits}X}h"
    return "0" + text if text[0] in "ABCDEF" else text


def target_of(op: Opcode, pc: int, data: bytes) -> int:
    """Address a jump at `pc` goes to (data = the instruction's bytes)."""
    if op.long_address:
        return (pc & BANK) | ((data[0] & 0xE0) << 3) | data[1]
    return ((pc + 1) & ~(PAGE - 1) & 0xFFF) | data[1]


def decodable(op: Opcode, pc: int, remaining: int) -> bool:
    if not op.legal or op.size > remaining:
        return False
    if (pc % BANK) + op.size > BANK:
        return False
    if op.long_address and (pc & (BANK - 2)) == BANK - 2:
        return False
    return True


def _usable_symbols(symbols: dict[str, int] | None) -> dict[int, str]:
    """address -> name, keeping the first valid, unambiguous name per address."""
    names: dict[int, str] = {}
    seen: set[str] = set()
    reserved = set(ENCODINGS) | KEYWORDS | {"JB", "HI", "LO", "HIGH", "LOW", "DEFINED"}
    for name, value in (symbols or {}).items():
        upper = name.upper()
        if (not isinstance(value, int) or not PLAIN_NAME.fullmatch(name) or upper in seen
                or upper in reserved):
            continue
        seen.add(upper)
        names.setdefault(value, name)
    return names


def instruction(data: bytes, pc: int, names: dict[int, str]) -> tuple[str, bytes, int | None]:
    """The instruction at the start of ``data`` (which sits at address ``pc``): its asm48 text,
    its bytes, and the address of the symbol named in it (None if none). Bytes that asm48
    would not reproduce as an instruction come out as one ``db``."""
    op = OPCODES[data[0]]
    if not decodable(op, pc, len(data)):
        return f"db    {hexnum(data[0])}", bytes(data[:1]), None
    raw = bytes(data[:op.size])
    words, named = [], None
    for operand in op.operands:
        if operand == IMMEDIATE:
            words.append("#" + hexnum(raw[1]))
        elif operand == ADDRESS:
            target = target_of(op, pc, raw)
            if target in names:
                named = target
                words.append(names[target])
            else:
                words.append(hexnum(target, 3))
        else:
            words.append(operand.lower())
    return f"{op.mnemonic.lower():<6}{','.join(words)}".rstrip(), raw, named


def symbol_names(symbols: dict[str, int] | None) -> dict[int, str]:
    """address -> the name a listing shows for it (the first valid, unambiguous one)."""
    return _usable_symbols(symbols)


def disassemble(data: bytes, org: int = 0, symbols: dict[str, int] | None = None) -> str:
    """asm48 source reproducing `data` at address `org`, one instruction per line."""
    if not 0 <= org or org + len(data) > MEMORY:
        raise ValueError(_("{size} bytes at {org} do not fit the 4 KB program memory").format(
            size=len(data), org=f"{org:#x}"))
    names = _usable_symbols(symbols)
    lines: list[tuple[int, str, bytes]] = []
    used: set[int] = set()
    pc, end = org, org + len(data)
    while pc < end:
        text, raw, target = instruction(data[pc - org:], pc, names)
        if target is not None:
            used.add(target)
        lines.append((pc, text, raw))
        pc += len(raw)
    starts = {addr for addr, _, _ in lines}
    out = [f"\tcpu\t8048", f"\torg\t{hexnum(org, 3)}"]
    for addr in sorted(used - starts):
        out.insert(1, f"{names[addr]}\tequ\t{hexnum(addr, 3)}")
    for addr, text, raw in lines:
        if addr in names:
            out.append(f"{names[addr]}:")
        code = " ".join(f"{b:02X}" for b in raw)
        out.append(f"\t{text:<24}; {addr:03X}  {code}")
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    i18n.translate_argparse()
    p = OneLineParser(prog=PROG, description=_("Disassemble an MCS-48 (8048) ROM image."))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                   help=_("show the version number and exit"))
    p.add_argument("rom", help=_("binary image"))
    p.add_argument("--org", type=parse_address, default=0, help=_("address of the first byte"))
    p.add_argument("--sym", metavar="FILE", help=_("JSON symbol file (as written by asm48 --sym)"))
    args = p.parse_args(argv)
    data = read_input(PROG, args.rom, lambda p: read_at_most(p, MEMORY,
                                                                 _("the 4 KB program memory")))
    if data is None:
        return 2
    symbols = None
    if args.sym:
        symbols = read_input(PROG, args.sym, lambda p: load_symbols(Path(p)), not_a=_("a symbol file"))
        if symbols is None:
            return 2
    try:
        text = disassemble(data, args.org, symbols)
    except ValueError as e:
        print(_("{prog}: {reason}; give a smaller image or a lower --org").format(
            prog=PROG, reason=e), file=sys.stderr)
        return 2
    try:
        write_stdout(text)
    except BrokenPipeError:      # the reader left (`| head`): nothing more to say
        return 1
    except OSError as e:
        print(_("{prog}: cannot write the standard output: {reason}").format(
            prog=PROG, reason=os_reason(e)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
