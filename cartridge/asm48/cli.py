"""The asm48 command: assemble one source file into a binary image, optionally with a JSON
symbol file and a listing.  Every error is printed as `file:line:column: error: message`.
It speaks the system locale's language, German or English (docs/i18n.md); the listing, the
symbol and share files and the image do not depend on it."""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Callable, NoReturn, Sequence, TypeVar

import i18n
from i18n import _, os_reason
from safefiles import read_at_most, write_all

from .. import __version__
from .core import assemble
from .errors import AsmError
from .source import FILE_LIMIT

PROG = "asm48"
#: an address on the command line, ASCII only: $400, 400h, 0x400, 0o2000, 0b100, 1024 (int()
#: alone would also take Unicode digits such as '٣' and underscores such as '1_0')
ADDRESS_RE = re.compile(r"\$(?P<dollar>[0-9A-Fa-f]+)|(?P<h>[0-9][0-9A-Fa-f]*)[hH]"
                        r"|(?P<c>0[xX][0-9A-Fa-f]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)", re.ASCII)
#: the largest image --range writes: 64 KB, more than any MCS-48 address space (the 8048's is
#: 4 KB), so a typo of a few digits cannot ask for a terabyte of fill bytes
RANGE_LIMIT = 0x10000

Content = TypeVar("Content")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad command line in one sentence, no usage dump."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(_("{prog}: {message} (see {prog} --help)").format(
            prog=self.prog, message=message) + "\n")
        raise SystemExit(2)


def read_input(prog: str, path: Path | str, read: Callable[[Path | str], Content],
               not_a: str | None = None) -> Content | None:
    """``read(path)`` for asm48 and dis48 (``read`` is one of safefiles' bounded
    readers, or one built on them); None when it failed, after one sentence on standard error
    for the caller's exit code 2: ``PROG: cannot read PATH: reason`` when the file cannot be
    read, else the reader's sentence (too large, not text), or ``PROG: PATH is not NOT_A: ...``
    when ``not_a`` names what the file should have been (translated, like every sentence of
    the tools: docs/i18n.md)."""
    try:
        return read(path)
    except OSError as e:
        print(_("{prog}: cannot read {path}: {reason}").format(
            prog=prog, path=path, reason=os_reason(e)), file=sys.stderr)
    except ValueError as e:
        if not_a:
            print(_("{prog}: {path} is not {what}: {reason}").format(
                prog=prog, path=path, what=not_a, reason=e), file=sys.stderr)
        else:
            print(f"{prog}: {e}", file=sys.stderr)   # i18n: untranslated (the reader's sentence is)
    return None


def parse_address(text: str) -> int:
    """An address as 0x400, $400, 400h or decimal 1024, in ASCII digits (ADDRESS_RE)."""
    match = ADDRESS_RE.fullmatch(text.strip())
    try:
        if match is None:
            raise ValueError(text)
        if match["c"] is not None:
            return int(match["c"], 0)      # as Python reads it: 0400 is refused, not octal
        return int(match["dollar"] or match["h"], 16)
    except ValueError:
        raise argparse.ArgumentTypeError(_("invalid address '{text}'").format(text=text)) from None


def parse_range(text: str) -> tuple[int, int]:
    start, sep, end = text.partition("-")
    if not sep:
        raise argparse.ArgumentTypeError(_("range '{text}' must look like 0x400-0xFFF").format(
            text=text))
    lo, hi = parse_address(start), parse_address(end)
    if hi < lo:
        raise argparse.ArgumentTypeError(_("range '{text}' ends before it "
                                           "starts").format(text=text))
    if hi >= RANGE_LIMIT:
        raise argparse.ArgumentTypeError(_("range '{text}' ends beyond {last:X}h, the largest "
                                           "address space").format(text=text,
                                                                   last=RANGE_LIMIT - 1))
    return lo, hi


def parse_fill(text: str) -> int:
    value = parse_address(text)
    if not 0 <= value <= 255:
        raise argparse.ArgumentTypeError(_("fill byte '{text}' must be 0..255").format(text=text))
    return value


def build_parser() -> argparse.ArgumentParser:
    """asm48's command line, in the language of the locale (argparse's own words too)."""
    i18n.translate_argparse()
    p = OneLineParser(prog=PROG, description=_("Assemble MCS-48 (8048) source in the asl dialect."))
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                   help=_("show the version number and exit"))
    p.add_argument("source", help=_("source file (.a48)"))
    p.add_argument("-o", "--output", required=True, help=_("binary image to write"))
    p.add_argument("--range", type=parse_range, metavar="START-END",
                   help=_("write exactly this address range (e.g. 0x400-0xFFF), like p2bin -r"))
    p.add_argument("--fill", type=parse_fill, default=0xFF,
                   help=_("byte for addresses without code (default 0xFF)"))
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help=_("directory searched for include files (after the including file's)"))
    p.add_argument("--sym", metavar="FILE", help=_("write the symbol table as JSON"))
    p.add_argument("--list", metavar="FILE", help=_("write a listing"))
    p.add_argument("--share", metavar="FILE",
                   help=_("write the SHARED symbols as NAME EQU value lines (asl -a's share file)"))
    p.add_argument("--relaxed", action="store_true",
                   help=_("accept asm48's extensions to asl's syntax ($ff without RELAXED ON, "
                          "BYTE, !=, ...) with a warning each instead of refusing them"))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    source = Path(args.source)
    data = read_input(PROG, source, lambda p: read_at_most(p, FILE_LIMIT, _("source files")))
    if data is None:
        return 2
    text = data.decode("latin-1")
    try:
        result = assemble(text, str(source), args.include_dirs, relaxed=args.relaxed)
    except AsmError as e:
        for d in e.diagnostics:
            print(d, file=sys.stderr)
        return 1
    for d in result.warnings:
        print(d, file=sys.stderr)
    if args.range:
        start, end = args.range
        image = result.image(start, end, fill=args.fill)
    elif result.memory:
        image = result.image(result.origin, max(result.memory), fill=args.fill)
    else:
        image = b""
    files = {Path(args.output): image}
    if args.sym:
        files[Path(args.sym)] = (json.dumps(result.symbols, indent=1, sort_keys=True)
                                 + "\n").encode()
    if args.list:
        files[Path(args.list)] = result.listing.encode("latin-1", "replace")
    if args.share:
        files[Path(args.share)] = result.share_file(source.name).encode("latin-1", "replace")
    try:
        write_all(files)
    except OSError as e:
        print(_("{prog}: cannot write {path}: {reason}; choose another file or free some "
                "space").format(prog=PROG, path=e.filename or args.output, reason=os_reason(e)),
              file=sys.stderr)
        return 1
    return 0
