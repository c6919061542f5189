"""Refusals: every error the ledger raises is one sentence, and a refused rule names its number."""
from __future__ import annotations


class LedgerError(Exception):
    """Base of every ledger refusal; ``str(error)`` is one sentence for the user."""


class NotationError(LedgerError):
    """A line that is not valid notation (unknown verb, wrong arguments, unclosed quote)."""


class UnknownName(LedgerError):
    """A country or player name the board or the game does not know."""


class RuleError(LedgerError):
    """An action the rules forbid; ``rule`` is the rule number (or a label such as 'variant 3')."""

    def __init__(self, rule: int | str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        label = f"rule {rule}" if isinstance(rule, int) else str(rule)
        super().__init__(f"{label}: {reason}")


class StoreError(LedgerError):
    """A game file that cannot be used. ``code`` is the exit status: 2 for a file whose content is
    wrong (damaged, newer version, missing, not a game file), 1 for its surroundings (locked,
    disk full, read-only)."""

    def __init__(self, message: str, code: int = 2) -> None:
        self.code = code
        super().__init__(message)
