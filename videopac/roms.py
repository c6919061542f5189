"""`videopac roms`: list the ROM images built into the package, or copy them out.

Each listing line is `NAME SIZE CRC32 PATH`. `videopac roms export DIR` writes NAME.bin files
into DIR, e.g. to put the open BIOS on a flash cartridge or into another emulator.
"""
from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

from cartridge.images import ROMS, builtin_image
from videopac.paths import write_atomically

PROG = "videopac roms"


def builtin_names() -> list[str]:
    """Names of the shipped images: every cartridge/roms/*.bin."""
    return sorted(p.stem for p in ROMS.glob("*.bin"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["list", "export"], default="list",
                        help="list the images (default) or export them")
    parser.add_argument("directory", nargs="?", help="target folder of 'export'")


def _list() -> int:
    for name in builtin_names():
        data = builtin_image(name)
        print(f"{name} {len(data)} {zlib.crc32(data):08X} {ROMS / (name + '.bin')}")
    return 0


def _export(directory: str | None) -> int:
    if not directory:
        print(f"{PROG}: export needs a folder, e.g. 'videopac roms export roms/'.",
              file=sys.stderr)
        return 2
    target = Path(directory)
    if target.exists() and not target.is_dir():
        print(f"{PROG}: {target} is a file, not a folder; name a folder to export into.",
              file=sys.stderr)
        return 1
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in builtin_names():
            write_atomically(target / f"{name}.bin", builtin_image(name), parents=False)
            print(target / f"{name}.bin")
    except OSError as exc:
        print(f"{PROG}: cannot write to {target}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    return 0


def main(args: argparse.Namespace) -> int:
    if args.action == "export":
        return _export(args.directory)
    if args.directory:
        print(f"{PROG}: 'list' takes no folder; did you mean 'videopac roms export "
              f"{args.directory}'?", file=sys.stderr)
        return 2
    return _list()
