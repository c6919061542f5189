"""`videopac roms`: list the ROM images built into the package, or copy them out.

Each listing line is `NAME SIZE CRC32 PATH`. `videopac roms export DIR` writes NAME.bin files
into DIR, e.g. to put the open BIOS on a flash cartridge or into another emulator.
"""
from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

from i18n import _, os_reason

from cartridge.images import ROMS, builtin_image
from videopac import BAD_INPUT, TROUBLE
from videopac.console.paths import write_atomically

PROG = "videopac roms"


def builtin_names() -> list[str]:
    """Names of the shipped images: every cartridge/roms/*.bin."""
    return sorted(p.stem for p in ROMS.glob("*.bin"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", nargs="?", choices=["list", "export"], default="list",
                        help=_("list the images (default) or export them"))
    parser.add_argument("directory", nargs="?", help=_("target folder of 'export'"))


def _list() -> int:
    for name in builtin_names():
        data = builtin_image(name)
        print(f"{name} {len(data)} {zlib.crc32(data):08X} {ROMS / (name + '.bin')}")
    return 0


def _export(directory: str | None) -> int:
    if not directory:
        print(_("{prog}: export needs a folder, e.g. 'videopac roms export roms/'.").format(prog=PROG),
              file=sys.stderr)
        return BAD_INPUT
    target = Path(directory)
    if target.exists() and not target.is_dir():
        print(_("{prog}: {target} is a file, not a folder; name a folder to export into.").format(
            prog=PROG, target=target),
              file=sys.stderr)
        return BAD_INPUT               # a usage error, like every other in the commands
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in builtin_names():
            write_atomically(target / f"{name}.bin", builtin_image(name), parents=False)
            print(target / f"{name}.bin")
    except OSError as exc:
        print(_("{prog}: cannot write to {target}: {reason}.").format(
            prog=PROG, target=target, reason=os_reason(exc)), file=sys.stderr)
        return TROUBLE
    return 0


def main(args: argparse.Namespace) -> int:
    if args.action == "export":
        return _export(args.directory)
    if args.directory:
        print(_("{prog}: 'list' takes no folder; did you mean 'videopac roms export {directory}'?").format(
            prog=PROG, directory=args.directory), file=sys.stderr)
        return BAD_INPUT
    return _list()
