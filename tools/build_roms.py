"""Rebuild the built-in ROM images in cartridge/roms/ from their assembly sources.

`python tools/build_roms.py [NAME ...]` writes every image (or the named ones) and its symbol
file; `--check` only compares the rebuilt bytes with the shipped ones (exit 1 when they differ),
which the tests use. An image is a sequence of pieces, each one source assembled over an
address range, concatenated in file order (a banked cartridge has one piece per 2 KB bank).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.asm48 import AsmError, assemble  # noqa: E402

ROM_DIR = ROOT / "cartridge" / "roms"

# image name -> pieces (piece name, main source, first address, last address), in file order
IMAGES: dict[str, tuple[tuple[str, str, int, int], ...]] = {
    "bios": (("bios", "cartridge/bios/bios.a48", 0x000, 0x3FF),),   # internal ROM of the 8048
    # The battle program: four 2 KB banks chosen by P10/P11 (cartridge/conquest/vars.inc); the
    # file holds bank 0 first and bank 3, the one seen after reset, last (docs/hardware.md §4.2).
    "conquest": (
        ("bank0", "cartridge/conquest/data.a48", 0x400, 0xBFF),
        ("bank1", "cartridge/conquest/program_b.a48", 0x400, 0xBFF),
        ("bank2", "cartridge/conquest/data.a48", 0x400, 0xBFF),
        ("bank3", "cartridge/conquest/conquest.a48", 0x400, 0xBFF),
    ),
}


class BuildError(Exception):
    """A source that does not assemble or does not fit its range."""


def _piece(source: str, first: int, last: int) -> tuple[bytes, dict[str, int]]:
    path = ROOT / source
    try:
        result = assemble(path.read_text(), filename=str(path), include_dirs=[str(path.parent)])
    except AsmError as err:
        raise BuildError(str(err)) from None
    end = result.origin + len(result.data) - 1
    if result.origin < first or end > last:
        raise BuildError(f"{source} fills {result.origin:#x}-{end:#x}, more than its range "
                         f"{first:#x}-{last:#x}")
    return result.image(first, last), result.symbols


def build(name: str) -> tuple[bytes, dict[str, int]]:
    """Assemble image `name`; returns its bytes and its symbol table. A symbol with the same
    value in every piece keeps its plain name; piece-specific labels are also written as
    `PIECE.label`."""
    data = bytearray()
    tables = []
    for piece, source, first, last in IMAGES[name]:
        image, symbols = _piece(source, first, last)
        data += image
        tables.append((piece, symbols))
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
    for name in args.names or IMAGES:
        try:
            image, symbols = build(name)
        except BuildError as err:
            print(f"build_roms: {name}: {err}", file=sys.stderr)
            return 1
        bin_path, sym_path = ROM_DIR / f"{name}.bin", ROM_DIR / f"{name}.json"
        if args.check:
            if not bin_path.exists() or bin_path.read_bytes() != image:
                stale.append(name)
            continue
        bin_path.write_bytes(image)
        sym_path.write_text(symbol_text(symbols))
        print(f"{bin_path.relative_to(ROOT)}: {len(image)} bytes")
    if stale:
        print(f"build_roms: {', '.join(stale)} differ from the source; run tools/build_roms.py.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
