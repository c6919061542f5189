"""Everything one pass over the source knows, grouped by concern.  The engine (core.py) and
the directives (directives.py) each use the parts they need: a directive that moves the
location counter touches `location`, one that defines a symbol `symbols`, and so on."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from i18n import _

from .codepages import Codepages
from .conditionals import Conditionals
from .diagnostics import Diagnostics
from .dialect import Dialect
from .errors import SourceError
from .evaluator import Evaluator
from .location import Location, Structures
from .macros import Macros
from .output import Output
from .sections import Sections
from .settings import Settings
from .source import NO_FILE, Includes, Position, SrcLine
from .symbols import Symbol, SymbolTable


@dataclass
class Pass:
    """One pass's state, one part per concern; a new piece of state goes into the part of its
    concern, not here."""

    position: Position            # the line being assembled
    dialect: Dialect              # --relaxed and RELAXED ON
    report: Diagnostics           # errors and warnings
    settings: Settings            # CPU, RADIX, SAVE/RESTORE, MOMPASS
    sections: Sections            # SECTION scopes, PUBLIC/GLOBAL
    symbols: SymbolTable          # labels, EQU/SET, REG, PUSHV, SHARED
    codepages: Codepages          # CODEPAGE/CHARSET
    location: Location            # $ and PHASE
    structures: Structures        # STRUCT/UNION
    values: Evaluator             # operands evaluated here; FUNCTION
    output: Output                # bytes and listing
    macros: Macros                # MACRO definitions, running expansions
    conditionals: Conditionals    # IF/SWITCH blocks
    includes: Includes            # -I directories, the files being read

    @classmethod
    def start(cls, prev: dict[str, Symbol], include_dirs: tuple[Path, ...], filename: str,
              relaxed: bool, number: int) -> Pass:
        """A pass over `filename` with the previous pass's symbols `prev`."""
        position = Position(SrcLine("", filename, 0))
        dialect = Dialect(relaxed)
        report = Diagnostics(position, dialect)
        settings = Settings(pass_number=number)
        sections = Sections()
        symbols = SymbolTable(prev, position, sections)
        codepages = Codepages()
        location = Location()
        includes = Includes(include_dirs)
        if filename != NO_FILE:
            includes.enter(filename, 1)
        return cls(position, dialect, report, settings, sections, symbols, codepages, location,
                   Structures(), Evaluator(symbols, settings, location, codepages, report),
                   Output(position), Macros(), Conditionals(), includes)

    def emit(self, data: bytes) -> None:
        """Store `data` at the location counter and advance it (also when the bytes cannot
        be stored, so that later addresses stay where they belong)."""
        if self.structures.reading:
            raise SourceError(_("a STRUCT may only reserve space (DB ?, DS), not store bytes"))
        start = self.location.physical         # PHASE: stored at the physical address
        self.location.pc += len(data)
        self.output.store(start, data, self.settings.cpu)

    def reserve(self, size: int) -> None:
        """Leave `size` bytes without code at the location counter (listed at its address)."""
        self.output.list_line(self.location.pc)
        self.location.pc += size
