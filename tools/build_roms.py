"""Rebuild the built-in ROM images in cartridge/roms/ from their assembly sources.

`python tools/build_roms.py` writes every image and its symbol file; `--check` only compares
the rebuilt bytes with the shipped ones (exit 1 when they differ), which the tests use.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.asm48 import assemble  # noqa: E402

ROM_DIR = ROOT / "cartridge" / "roms"

# image name -> (main source, first address, last address): the 8048 address range it fills
SOURCES: dict[str, tuple[str, int, int]] = {
    "bios": ("cartridge/bios/bios.a48", 0x000, 0x3FF),   # internal ROM of the 8048
}


def build(name: str) -> tuple[bytes, dict[str, int]]:
    """Assemble image `name`; returns its bytes and its symbol table."""
    source, first, last = SOURCES[name]
    path = ROOT / source
    result = assemble(path.read_text(), filename=str(path), include_dirs=[str(path.parent)])
    return result.image(first, last), result.symbols


def symbol_text(symbols: dict[str, int]) -> str:
    """The symbol file format of `asm48 --sym`."""
    return json.dumps(symbols, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build_roms", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the shipped images instead of writing them")
    args = parser.parse_args(argv)
    stale = []
    for name in SOURCES:
        image, symbols = build(name)
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
