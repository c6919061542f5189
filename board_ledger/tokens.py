"""The words of the notation: how a line splits into tokens, how a name is quoted, how a number
and a keyword are read, and how a line is written back (docs/ledger.md).

Each event class reads its own arguments with ``Args`` and writes its own line with a ``Pen``
(board_ledger/events.py); board_ledger/notation.py finds the class by the line's verb.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from i18n import _

from board_ledger.errors import NotationError
from board_ledger.numbers import MAX_DIGITS, clipped, whole_number

#: German words inside a line: 'unentschieden' for a drawn battle, 'anzeige' for the reading,
#: 'zeit um', 'variante zeit|ziel', 'platz NAME mensch'
GERMAN_WORDS: dict[str, str] = {"unentschieden": "draw", "anzeige": "reading", "um": "up",
                                "ziel": "target", "zeit": "time", "mensch": "person"}
ENGLISH_TO_GERMAN_WORD: dict[str, str] = {v: k for k, v in GERMAN_WORDS.items()}


def word(text: str) -> str:
    """A keyword of the notation in its English form (German keywords are aliases of it)."""
    return GERMAN_WORDS.get(text.lower(), text.lower())


def tokenize(line: str) -> list[list[str]]:
    """Split a line into tokens; each token is its '+'-separated parts (quotes protect both)."""
    tokens: list[list[str]] = []
    parts: list[str] = []
    cur: list[str] = []
    in_token = False
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == '"':
            i += 1
            while True:
                end = line.find('"', i)
                if end < 0:
                    raise NotationError(_("a double quote is not closed"))
                cur.append(line[i:end])
                i = end + 1
                if not line.startswith('"', i):
                    break
                cur.append('"')            # "" inside quotes is one double quote
                i += 1
            in_token = True
            continue
        if ch == "#":
            break
        if ch.isspace():
            if in_token:
                tokens.append(parts + ["".join(cur)])
                parts, cur, in_token = [], [], False
        elif ch == "+":
            parts.append("".join(cur))
            cur, in_token = [], True
        else:
            cur.append(ch)
            in_token = True
        i += 1
    if in_token:
        tokens.append(parts + ["".join(cur)])
    return tokens


def quoted(text: str) -> str:
    """``text`` in double quotes, a double quote inside written twice."""
    return '"' + text.replace('"', '""') + '"'


def quote(name: str) -> str:
    """A name as the notation writes it: bare if it is one plain word, else in double quotes
    (a double quote inside is written twice)."""
    return name if re.fullmatch(r'[^\s"#+]+', name) else quoted(name)


class Args:
    """The tokens after a verb, with the checks every event's ``parse`` makes of them.

    Any shape the verb does not take is the one error "'VERB' is written: USAGE".
    """

    def __init__(self, verb: str, usage: str, tokens: list[list[str]]) -> None:
        self.verb = verb
        self.usage = usage
        self.tokens = tokens

    def __len__(self) -> int:
        return len(self.tokens)

    def malformed(self) -> NotationError:
        """The error that shows how the verb is written."""
        return NotationError(_("'{verb}' is written: {usage}").format(
            verb=self.verb, usage=_(self.usage).split("  ")[0].strip()))

    def need(self, ok: bool) -> None:
        """Refuse the line with the verb's usage unless ``ok``."""
        if not ok:
            raise self.malformed()

    def one(self, token: list[str]) -> str:
        """A token that is one plain word (no '+' and not empty)."""
        self.need(len(token) == 1 and bool(token[0]))
        return token[0]

    def words(self) -> list[str]:
        """Every token as one plain word."""
        return [self.one(t) for t in self.tokens]

    def exactly(self, count: int) -> list[str]:
        """Exactly ``count`` plain words."""
        words = self.words()
        self.need(len(words) == count)
        return words

    def at_least(self, count: int) -> list[str]:
        """``count`` plain words or more."""
        words = self.words()
        self.need(len(words) >= count)
        return words


def number(text: str, what: str) -> int:
    """``text`` as a whole number of the notation; NotationError naming ``what`` otherwise."""
    value = whole_number(text)
    if value is None:
        raise NotationError(_("{what} must be a whole number (digits 0-9, at most {digits}), not "
                              "'{text}'").format(what=what, digits=MAX_DIGITS, text=clipped(text)))
    return value


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Pen:
    """How a line is written: the canonical pen writes English verbs and keywords and the names as
    stored; the display pen of German mode writes German ones (they parse back to the same event)."""

    verb: Callable[[str], str] = _same
    keyword: Callable[[str], str] = _same
    country: Callable[[str], str] = _same

    def line(self, verb: str, *parts: str) -> str:
        """The verb and its arguments, separated by single spaces."""
        return " ".join([self.verb(verb), *parts])

    def place(self, country: str) -> str:
        """A country's name as this pen writes it."""
        return quote(self.country(country))


#: the pen of saved games, exports and the web API: one language-independent form
CANONICAL = Pen()
