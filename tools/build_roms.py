"""Build the ROM images shipped in cartridge/roms/ from their sources with asm48.

Each image is listed in IMAGES as a sequence of 2 KB (or 1 KB for the BIOS) pieces, each one
source assembled over an address range; the pieces are concatenated in file order and the
symbol tables merged into IMAGE.json (a symbol that differs between pieces is written with the
piece's name in front). `python tools/build_roms.py [--check]` writes (or only compares) them.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.asm48 import AsmError, assemble  # noqa: E402

# image name -> pieces (piece name, source, first address, last address), in file order.
# conquest: four 2 KB banks selected by P10/P11 (cartridge/conquest/vars.inc); the file holds
# bank 0 first, and bank 3 (the one seen after reset) last (hardware.md §4.2).
IMAGES: dict[str, tuple[tuple[str, str, int, int], ...]] = {
    "conquest": (
        ("bank0", "cartridge/conquest/data.a48", 0x400, 0xBFF),
        ("bank1", "cartridge/conquest/program_b.a48", 0x400, 0xBFF),
        ("bank2", "cartridge/conquest/data.a48", 0x400, 0xBFF),
        ("bank3", "cartridge/conquest/conquest.a48", 0x400, 0xBFF),
    ),
}


def build(name: str) -> tuple[bytes, dict[str, int]]:
    """Assemble every piece of one image; returns its bytes and merged symbols."""
    data = bytearray()
    symbols: dict[str, int] = {}
    clashes: set[str] = set()
    for piece, source, first, last in IMAGES[name]:
        path = ROOT / source
        asm = assemble(path.read_text(), filename=str(path))
        end = asm.origin + len(asm.data) - 1
        if asm.origin < first or end > last:
            raise ValueError(f"{source} occupies {asm.origin:#x}-{end:#x}, outside "
                             f"{first:#x}-{last:#x}")
        data += asm.image(first, last)
        for sym, value in asm.symbols.items():
            if sym in symbols and symbols[sym] != value:
                clashes.add(sym)
            symbols.setdefault(sym, value)
        for sym, value in asm.symbols.items():
            symbols[f"{piece}.{sym}"] = value
    for sym in clashes:
        del symbols[sym]
    # keep only bank-qualified names for labels that differ; plain names for the rest
    plain = {k: v for k, v in symbols.items() if "." not in k}
    qualified = {k: v for k, v in symbols.items() if "." in k and k.split(".", 1)[1] not in plain}
    return bytes(data), dict(sorted({**plain, **qualified}.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_roms", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only compare the built bytes with the shipped files")
    parser.add_argument("names", nargs="*", help="images to build (default: all)")
    args = parser.parse_args(argv)
    status = 0
    for name in args.names or list(IMAGES):
        if name not in IMAGES:
            print(f"build_roms: unknown image {name!r}; known: {', '.join(IMAGES)}",
                  file=sys.stderr)
            return 2
        try:
            data, symbols = build(name)
        except (AsmError, ValueError) as err:
            print(f"build_roms: {name} does not assemble:\n{err}", file=sys.stderr)
            return 1
        out = ROOT / "cartridge" / "roms" / f"{name}.bin"
        sym = out.with_suffix(".json")
        if args.check:
            if not out.exists() or out.read_bytes() != data:
                print(f"build_roms: {out.relative_to(ROOT)} differs from its sources",
                      file=sys.stderr)
                status = 1
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        sym.write_text(json.dumps(symbols, indent=0) + "\n")
        print(f"{out.relative_to(ROOT)}: {len(data)} bytes")
    return status


if __name__ == "__main__":
    sys.exit(main())
