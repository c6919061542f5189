"""Diagnostics of an assembly run: every error carries file, line and column, and one run
collects all of them before failing (so a user sees every problem at once).  Also the
exceptions that end a statement, a macro expansion or the source early."""
from __future__ import annotations

from dataclasses import dataclass

from i18n import pgettext


def severity_word(severity: str) -> str:
    """How a severity ("error" or "warning") is called where a diagnostic is printed: the
    same word in English, `Fehler`/`Warnung` in German, as gcc says them (docs/i18n.md)."""
    return {"error": pgettext("assembler diagnostic", "error"),
            "warning": pgettext("assembler diagnostic", "warning")}[severity]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One error or warning, printed as `file:line:column: error: message` like a C compiler
    (in German `Fehler`/`Warnung`, as gcc says them; `severity` itself stays the English key)."""

    file: str
    line: int
    column: int
    message: str
    severity: str = "error"          # or "warning" (an asm48 extension accepted by --relaxed)

    def __str__(self) -> str:
        word = severity_word(self.severity)
        return f"{self.file}:{self.line}:{self.column}: {word}: {self.message}"


class AsmError(Exception):
    """Assembly failed; `diagnostics` lists every error found in the run."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


class SourceError(Exception):
    """Raised inside the assembler for one bad statement.  `offset` is the position of the
    offending text inside the string being parsed; `column`, once known, is the 1-based
    column in the source line (the statement handler falls back to the operation's column)."""

    def __init__(self, message: str, offset: int = 0, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.column = column


class Reported(Exception):
    """The statement's error was already recorded (an undefined symbol): abandon it quietly."""


class ExitMacro(Exception):
    """EXITM: leave the macro expansion being assembled."""


class EndOfSource(Exception):
    """END: stop reading source."""


class Limit(SourceError):
    """A statement that passes one of asm48's limits (SECTION depth): the assembly stops at it,
    as every line after it would only report what follows from it."""


class BeyondMemory(SourceError):
    """Code beyond the program memory. Inside a macro, REPT, IRP, IRPC or WHILE the expansion is
    running away (a repeat count too large), so the assembly stops there instead of expanding
    on to MAX_EXPANDED_LINES."""


class Stop(Exception):
    """The assembly stops with this one diagnostic: a Limit, code of an expansion beyond program
    memory, or more lines expanded than allowed (raised past the per-line error handling, so an
    outer REPT does not try again and again)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic
