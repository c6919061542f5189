"""dis48: MCS-48 disassembler whose output reassembles with asm48 to the same bytes.

Decoding comes from the opcode table (`cartridge.opcodes.OPCODES`).  A jump target is
computed the way the 8048 does it: conditional jumps and DJNZ replace PC bits 7-0 inside
the page of their operand byte; JMP/CALL keep A11 of the instruction's own 2 KB bank (the
MB flip-flop is a run-time state, so the listing assumes the current bank).  Bytes that do
not form an instruction asm48 would reproduce exactly are printed as `db`: illegal opcodes,
a trailing partial instruction, an instruction running across a 2 KB boundary and a
JMP/CALL in the last two bytes of a bank (asl rejects those)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import NoReturn, Sequence

from .asm48.encoder import BANK, PAGE
from .asm48.lexer import NAME_RE
from .opcodes import ADDRESS, ENCODINGS, IMMEDIATE, OPCODES, KEYWORDS, Opcode

PROG = "dis48"
MEMORY = 0x1000


def hexnum(value: int, digits: int = 2) -> str:
    """asl-style hex constant: 0FFh, 012h (leading 0 so it never reads as a name)."""
    return f"0{value:0{digits}X}h"


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
        if (not isinstance(value, int) or not NAME_RE.fullmatch(name) or upper in seen
                or upper in reserved or "." in name):
            continue
        seen.add(upper)
        names.setdefault(value, name)
    return names


def disassemble(data: bytes, org: int = 0, symbols: dict[str, int] | None = None) -> str:
    """asm48 source reproducing `data` at address `org`, one instruction per line."""
    if not 0 <= org or org + len(data) > MEMORY:
        raise ValueError(f"{len(data)} bytes at {org:#x} do not fit the 4 KB program memory")
    names = _usable_symbols(symbols)
    lines: list[tuple[int, str, bytes]] = []
    used: set[int] = set()
    pc, end = org, org + len(data)
    while pc < end:
        i = pc - org
        op = OPCODES[data[i]]
        if decodable(op, pc, end - pc):
            raw = data[i:i + op.size]
            words = []
            for operand in op.operands:
                if operand == IMMEDIATE:
                    words.append("#" + hexnum(raw[1]))
                elif operand == ADDRESS:
                    target = target_of(op, pc, raw)
                    if target in names:
                        used.add(target)
                        words.append(names[target])
                    else:
                        words.append(hexnum(target, 3))
                else:
                    words.append(operand.lower())
            text = f"{op.mnemonic.lower():<6}{','.join(words)}".rstrip()
        else:
            raw = data[i:i + 1]
            text = f"db    {hexnum(raw[0])}"
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


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


def _address(text: str) -> int:
    t = text.strip()
    try:
        if t.startswith("$"):
            return int(t[1:], 16)
        if t[-1:] in "hH":
            return int(t[:-1], 16)
        return int(t, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid address '{text}'") from None


def load_symbols(path: Path) -> dict[str, int]:
    """A symbol file as written by `asm48 --sym`: a JSON object name -> address."""
    table = json.loads(path.read_text("utf-8"))
    if not isinstance(table, dict) or not all(isinstance(v, int) for v in table.values()):
        raise ValueError("expected a JSON object mapping names to integer addresses")
    return table


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog=PROG, description="Disassemble an MCS-48 (8048) ROM image.")
    p.add_argument("rom", help="binary image")
    p.add_argument("--org", type=_address, default=0, help="address of the first byte")
    p.add_argument("--sym", metavar="FILE", help="JSON symbol file (as written by asm48 --sym)")
    args = p.parse_args(argv)
    try:
        data = Path(args.rom).read_bytes()
    except OSError as e:
        print(f"{PROG}: cannot read {args.rom}: {e.strerror}", file=sys.stderr)
        return 1
    symbols = None
    if args.sym:
        try:
            symbols = load_symbols(Path(args.sym))
        except OSError as e:
            print(f"{PROG}: cannot read {args.sym}: {e.strerror}", file=sys.stderr)
            return 1
        except ValueError as e:
            print(f"{PROG}: {args.sym} is not a symbol file: {e}", file=sys.stderr)
            return 1
    try:
        text = disassemble(data, args.org, symbols)
    except ValueError as e:
        print(f"{PROG}: {e}; give a smaller image or a lower --org", file=sys.stderr)
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
