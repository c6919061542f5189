"""Rebuild the built-in ROM images in cartridge/roms/ from their assembly sources.

`python tools/build_roms.py [NAME ...]` writes every image (or the named ones) and its symbol
file; `--check` only compares the rebuilt bytes with the shipped ones (exit 1 when they differ),
which the tests use. An image is a sequence of pieces, each one source assembled over an
address range, concatenated in file order (a banked cartridge has one piece per 2 KB bank).
The battle cartridge's banks and RAM come from cartridge/conquest/memory.toml (tools/memory_map.py):
its generated includes are written first, and its map with every bank's free bytes is written
to cartridge/roms/conquest.map and printed.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.asm48 import AsmError, assemble  # noqa: E402
from cartridge.asm48.assembly import Assembly  # noqa: E402
from tools import memory_map  # noqa: E402

ROM_DIR = ROOT / "cartridge" / "roms"
CONQUEST = ROOT / "cartridge" / "conquest"
MEMORY_TOML = CONQUEST / "memory.toml"

# image name -> pieces (piece name, main source, first address, last address), in file order
IMAGES: dict[str, tuple[tuple[str, str, int, int], ...]] = {
    "bios": (("bios", "cartridge/bios/bios.a48", 0x000, 0x3FF),),   # internal ROM of the 8048
    # The battle program: four 2 KB banks chosen by P10/P11, bank 0 first in the file and bank 3,
    # the one seen after reset, last (docs/hardware.md §4.2); memory.toml names their sources.
    "conquest": tuple((f"bank{b.number}", b.source, memory_map.BANK_FIRST, memory_map.BANK_LAST)
                      for b in sorted(memory_map.load(MEMORY_TOML).banks, key=lambda b: b.number)),
}


class BuildError(Exception):
    """A source that does not assemble or does not fit its range."""


def generated(mem: memory_map.MemoryMap) -> dict[Path, str]:
    """The include files memory.toml makes, by path."""
    return {CONQUEST / "memory.inc": memory_map.memory_inc(mem),
            CONQUEST / "dispatch0.inc": memory_map.dispatch_inc(mem, 0),
            CONQUEST / "dispatch2.inc": memory_map.dispatch_inc(mem, 2)}


def _assemble(path: Path, first: int, last: int) -> Assembly:
    """The assembly of one piece; BuildError when it does not assemble or leaves its range."""
    try:
        result = assemble(path.read_text(), filename=str(path), include_dirs=[str(path.parent)])
    except AsmError as err:
        raise BuildError(str(err)) from None
    used = result.memory
    if used and (min(used) < first or max(used) > last):
        raise BuildError(f"{path.name} fills {min(used):#x}-{max(used):#x}, more than its range "
                         f"{first:#x}-{last:#x}: the bank overflows")
    return result


def build(name: str, memories: dict[int, dict[int, int]] | None = None
          ) -> tuple[bytes, dict[str, int]]:
    """Assemble image `name`; returns its bytes and its symbol table. A symbol with the same
    value in every piece keeps its plain name; piece-specific labels are also written as
    `PIECE.label`. `memories` receives each piece's assembled bytes by address, by position."""
    data = bytearray()
    tables = []
    for n, (piece, source, first, last) in enumerate(IMAGES[name]):
        result = _assemble(ROOT / source, first, last)
        data += result.image(first, last)
        tables.append((piece, result.symbols))
        if memories is not None:
            memories[n] = result.memory
    if len(tables) == 1:
        return bytes(data), tables[0][1]
    merged: dict[str, int] = {}
    for sym in set().union(*(t.keys() for _, t in tables)):
        values = {t.get(sym) for _, t in tables}
        if len(values) == 1:
            merged[sym] = values.pop()
    for piece, symbols in tables:
        for sym, value in symbols.items():
            if sym not in merged:
                merged[f"{piece}.{sym}"] = value
    return bytes(data), merged


def symbol_text(symbols: dict[str, int]) -> str:
    """The symbol file format of `asm48 --sym`."""
    return json.dumps(symbols, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_roms", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the shipped images instead of writing them")
    parser.add_argument("names", nargs="*", metavar="NAME", help="images to build (default: all)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in IMAGES]
    if unknown:
        print(f"build_roms: no image called {unknown[0]!r}; known: {', '.join(IMAGES)}.",
              file=sys.stderr)
        return 2
    stale = []
    try:
        mem = memory_map.load(MEMORY_TOML)
    except memory_map.MapError as err:
        print(f"build_roms: {err}", file=sys.stderr)
        return 1
    includes = generated(mem)
    for path, text in includes.items():
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(path.name)
        else:
            path.write_text(text)
    for name in args.names or IMAGES:
        memories: dict[int, dict[int, int]] = {}
        try:
            image, symbols = build(name, memories)
        except BuildError as err:
            print(f"build_roms: {name}: {err}", file=sys.stderr)
            return 1
        bin_path, sym_path = ROM_DIR / f"{name}.bin", ROM_DIR / f"{name}.json"
        outputs = {bin_path: image, sym_path: symbol_text(symbols).encode()}
        if name == "conquest":
            outputs[ROM_DIR / "conquest.map"] = memory_map.report(mem, memories).encode()
        if args.check:
            stale += [p.name for p, data in outputs.items()
                      if not p.exists() or p.read_bytes() != data]
            continue
        for path, data in outputs.items():
            path.write_bytes(data)
        print(f"{bin_path.relative_to(ROOT)}: {len(image)} bytes")
        if name == "conquest":
            for (piece, *_), gaps in zip(IMAGES[name], map(memory_map.holes, memories.values())):
                print(f"  {piece}: {sum(n for _, n in gaps)} bytes free")
    if stale:
        print(f"build_roms: {', '.join(stale)} differ from the sources; run tools/build_roms.py.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
