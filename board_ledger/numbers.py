"""Whole numbers as the notation and board files write them: ASCII digits only, and few of them.

``int()`` alone would take ``'٣'`` or ``' 3_0'`` and raise on ``'²'`` after ``isdigit()`` said
yes, and a 5,000-digit number would hit Python's conversion limit; every count the ledger keeps
(values, zones, energies, PBR targets, minutes) fits in MAX_DIGITS digits.
"""
from __future__ import annotations

import re

MAX_DIGITS = 18


def whole_number(text: str) -> int | None:
    """The value of ``text`` if it is 1 to MAX_DIGITS ASCII digits, else None."""
    if len(text) > MAX_DIGITS or not re.fullmatch(r"[0-9]+", text):
        return None
    return int(text)


def clipped(text: str, limit: int = 24) -> str:
    """``text`` shortened for a sentence: a long input is not pasted whole into an error."""
    return text if len(text) <= limit else text[:limit] + "…"
