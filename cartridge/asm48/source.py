"""Source text: the lines to assemble and where each came from, asl's line splitting and
continuation, the position of the pass (the line being assembled) and the include files."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from i18n import _, os_reason
from safefiles import NotRegularFile, TooLarge, read_at_most

from .errors import Limit, SourceError
from .lexer import Statement
from .stdinc import STANDARD_INCLUDES

NO_FILE = "<string>"      # the file name of source given as a string
#: bytes of any one file asm48 reads (the source, an include file, a BINCLUDE's binary); a
#: cartridge's source is some hundred KB, so only a file named by mistake comes near it
FILE_LIMIT = 16 << 20
#: include files open at once: each level is a level of recursion of the assembler, and real
#: programs nest a few (KTAA: three)
MAX_INCLUDE_DEPTH = 32


@dataclass(frozen=True)
class SrcLine:
    """One line to assemble and where it came from (for diagnostics and the listing)."""

    text: str
    file: str
    line: int
    note: str = ""        # e.g. " (in macro FOO called at a.a48:12)"
    depth: int = 0        # include/macro nesting, shown in the listing
    listed: bool = True   # False inside a {NOEXPAND} macro: left out of the listing

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Position:
    """Where the pass is: the line being assembled and, once parsed, its statement.  The
    diagnostics, the symbol table (where a symbol was defined) and the listing read it."""

    line: SrcLine
    statement: Statement | None = None


def source_lines(text: str) -> list[str]:
    """Lines split at LF, CR LF or CR only (str.splitlines would also split at bytes such
    as 85h or 0Ch that Latin-1 source text may hold, and shift the line numbers)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each source line with asl's continuation applied: a line whose
    last character is a backslash goes on in the next line (even after a `;`, as in asl);
    the joined line carries the number of its last part, as asl reports it."""
    out: list[tuple[int, str]] = []
    pending = ""
    number = 0
    for number, line in enumerate(source_lines(text), start=1):
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        out.append((number, pending + line))
        pending = ""
    if pending:
        out.append((number, pending))
    return out


def src_lines(text: str, filename: str, depth: int = 0) -> list[SrcLine]:
    """The logical lines of a source file's text."""
    return [SrcLine(t, filename, n, "", depth) for n, t in logical_lines(text)]


def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
        return text[1:-1]
    return text


def read_named(path: Path, described: str, column: int) -> bytes:
    """The bytes of a file the source names (an include file, a BINCLUDE's binary; ``find``
    made sure it was a regular file), read no further than FILE_LIMIT, so that a huge file or
    a device put in its place costs nothing; SourceError ``cannot read DESCRIBED: reason``, or
    that it is too large or not a regular file. ``described`` is already in the user's
    language ("include file 'x.inc'", docs/i18n.md)."""
    try:
        return read_at_most(path, FILE_LIMIT, _("files asm48 reads"), regular_only=True)
    except OSError as e:
        raise SourceError(_("cannot read {file}: {reason}").format(file=described,
                                                                   reason=os_reason(e)),
                          column=column)
    except TooLarge:
        raise SourceError(_("{file} is larger than {limit} bytes, the limit for a file asm48 "
                            "reads").format(file=described, limit=FILE_LIMIT),
                          column=column) from None
    except NotRegularFile:
        raise SourceError(_("{file} is not a regular file").format(file=described),
                          column=column) from None


@dataclass
class Includes:
    """The -I directories and the chain of files being read (an include cycle is an error)."""

    dirs: tuple[Path, ...]
    chain: list[Path] = field(default_factory=list)

    def candidates(self, name: str, including: str) -> list[Path]:
        """Where `name` is looked for: next to the including file, then in the -I directories."""
        base = Path(including).parent if including != NO_FILE else Path(".")
        return [directory / name for directory in (base, *self.dirs)]

    def find(self, name: str, including: str) -> Path | None:
        """The regular file `name`, the first of its candidates."""
        return next((path for path in self.candidates(name, including) if path.is_file()), None)

    def named(self, name: str, including: str) -> Path | None:
        """The file `name` to read: the regular file ``find`` gives, else the first candidate
        that is there at all (a folder, FIFO or device), so that reading it says what it is
        instead of "not found"."""
        return self.find(name, including) or next(
            (path for path in self.candidates(name, including) if os.path.lexists(path)), None)

    def read(self, name: str, column: int, including: str) -> tuple[str, str]:
        """(text, file name) of an include file: next to the including file, in the -I
        directories, then asl's standard include files built into asm48."""
        path = self.find(name, including)
        if path is None and name.lower() in STANDARD_INCLUDES:
            return STANDARD_INCLUDES[name.lower()], f"<asm48>/{name.lower()}"
        path = path or self.named(name, including)
        if path is None:
            raise SourceError(_("include file '{name}' not found (searched next to {including} "
                                "and in -I directories)").format(name=name, including=including),
                              column=column)
        return (read_named(path, _("include file '{name}'").format(name=name), column)
                .decode("latin-1"), str(path))

    def enter(self, filename: str, column: int) -> None:
        """Start reading `filename` (refused when it is already being read)."""
        resolved = Path(filename).resolve()
        if len(self.chain) > MAX_INCLUDE_DEPTH:
            raise Limit(_("include files nested deeper than {levels} levels").format(
                levels=MAX_INCLUDE_DEPTH), column=column)
        if resolved in self.chain:
            chain = " -> ".join(p.name for p in (*self.chain, resolved))
            raise SourceError(_("include cycle: {chain}").format(chain=chain), column=column)
        self.chain.append(resolved)

    def leave(self) -> None:
        self.chain.pop()
