"""The diagnostics of one pass: errors and warnings, each at the file, line and column of
the line being assembled, and the forms asl refuses (dialect.py) reported the same way."""
from __future__ import annotations

from i18n import _

from .dialect import Dialect, message
from .errors import Diagnostic, SourceError
from .source import Position


class Diagnostics:
    """Collects every diagnostic of a pass (only the last pass's are shown)."""

    def __init__(self, position: Position, dialect: Dialect):
        self.position = position
        self.dialect_rules = dialect
        self.found: list[Diagnostic] = []

    def diagnostic(self, err: SourceError) -> Diagnostic:
        """``err`` as a diagnostic of the current line; without a column, at its operation."""
        src = self.position.line
        st = self.position.statement
        column = err.column or (st.op_column if st and st.op else 1)
        return Diagnostic(src.file, src.line, column, err.message + src.note)

    def record(self, err: SourceError) -> None:
        """An error in the current line."""
        self.found.append(self.diagnostic(err))

    def warn(self, text: str, column: int) -> None:
        src = self.position.line
        self.found.append(Diagnostic(src.file, src.line, column, text + src.note, "warning"))

    def dialect(self, key: str, offset: int = 0, column: int | None = None,
                expr_column: int = 1) -> None:
        """A form asl refuses (dialect.FORMS), at `column` or at `offset` in the expression
        that starts at `expr_column`: an error with asl's reason, or a warning with
        --relaxed; nothing when asl takes it after RELAXED ON and that is on."""
        if self.dialect_rules.accepts_silently(key):
            return
        text = message(key)
        if self.dialect_rules.relaxed:
            self.warn(_("{message} (accepted by --relaxed)").format(message=text),
                      column if column is not None else expr_column + offset)
        elif column is not None:
            raise SourceError(text, column=column)
        else:
            raise SourceError(text, offset)
