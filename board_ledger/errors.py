"""Refusals: every error the ledger raises is one sentence, and a refused rule names its number."""
from __future__ import annotations

from i18n import N_, _

#: rule labels that are not numbers (RuleError.rule stays this English data; the label is translated)
LABELS = {"variant 1": N_("variant 1"), "variant 3": N_("variant 3"), "variants": N_("variants")}


class LedgerError(Exception):
    """Base of every ledger refusal; ``str(error)`` is one sentence for the user."""


class NotationError(LedgerError):
    """A line that is not valid notation (unknown verb, wrong arguments, unclosed quote)."""


class UnknownName(LedgerError):
    """A country or player name the board or the game does not know."""


class RuleError(LedgerError):
    """An action the rules forbid; ``rule`` is the rule number, a numbered point such as "20A",
    or a label such as 'variant 3'."""

    def __init__(self, rule: int | str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        label = (_("rule {number}").format(number=rule) if str(rule)[:1].isdigit()   # 12, "20A"
                 else _(LABELS.get(str(rule), str(rule))))
        super().__init__(_("{label}: {reason}").format(label=label, reason=reason))


class MovedOn(LedgerError):
    """An action booked on a state that is no longer the latest: others stored actions since."""


class StoreError(LedgerError):
    """A game file that cannot be used. ``code`` is the exit status: 2 for a file whose content is
    wrong (damaged, newer version, missing, not a game file), 1 for its surroundings (locked,
    disk full, read-only)."""

    def __init__(self, message: str, code: int = 2) -> None:
        self.code = code
        super().__init__(message)
