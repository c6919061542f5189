"""The game notation: one action per line, ``#`` comments, names with spaces in double quotes.

This form is the contract for saved games and tests (docs/ledger.md). ``parse_line`` turns a line
into an event with the names as written (the rules resolve them); ``format_event`` writes an event
back as a line, so ``parse_line(format_event(e)) == e`` for every canonical event. The line's verb
picks the event class; the class reads and writes the rest (board_ledger/events.py), with the words
of board_ledger/tokens.py.
"""
from __future__ import annotations

import pathlib
from typing import Callable

import i18n
from i18n import _, os_reason
from safefiles import NotRegularFile, NotText, TooLarge, read_text_at_most

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.errors import NotationError
from board_ledger.numbers import clipped
from board_ledger.tokens import ENGLISH_TO_GERMAN_WORD, Args, Pen, quote, tokenize

__all__ = ["GERMAN_VERBS", "ENGLISH_TO_GERMAN_VERB", "USAGE", "parse_line", "format_event",
           "display_event", "quote", "read_bounded", "attach_board"]

#: the event class each verb writes, in the order the help lists them
VERBS: dict[str, type[ev.Event]] = ev.EVENT_TYPES
#: German verbs (and their spellings without umlauts), accepted beside the English ones; the
#: notation is written with the English verbs, so a saved game reads the same in every language
GERMAN_VERBS: dict[str, str] = {german: cls.verb for cls in VERBS.values() for german in cls.german}
GERMAN_VERBS |= {k.replace("ü", "ue").replace("ö", "oe"): v for k, v in GERMAN_VERBS.items()}
#: the German verb German mode shows for each English one
ENGLISH_TO_GERMAN_VERB: dict[str, str] = {cls.verb: cls.german[0] for cls in VERBS.values() if cls.german}
# verb -> how it is written; shown (translated with _()) in errors and in the REPL's help
USAGE: dict[str, str] = {verb: cls.usage for verb, cls in VERBS.items()}
#: how German mode shows an action: German verbs, keywords and country names
GERMAN_PEN = Pen(verb=lambda verb: ENGLISH_TO_GERMAN_VERB.get(verb, verb),
                 keyword=lambda keyword: ENGLISH_TO_GERMAN_WORD.get(keyword, keyword), country=shown)


def parse_line(line: str) -> ev.Event | None:
    """The event a line writes, or None for a blank or comment line; NotationError if malformed."""
    tokens = tokenize(line)
    if not tokens:
        return None
    verb = "".join(tokens[0]).lower()
    verb = GERMAN_VERBS.get(verb, verb)
    cls = VERBS.get(verb)
    if cls is None:
        raise NotationError(_("unknown verb '{verb}' (verbs: {verbs})").format(
            verb=verb, verbs=", ".join(VERBS)))
    return cls.parse(Args(verb, cls.usage, tokens[1:]))


def format_event(e: ev.Event, country: Callable[[str], str] = str) -> str:
    """The notation line of an event (the inverse of parse_line); ``country`` may rename countries."""
    return e.format(Pen(country=country))


def display_event(e: ev.Event) -> str:
    """An event as the user reads it: in German mode with German verbs and country names.

    It parses back to the same event (the German words are aliases), but saved games and exports
    use ``format_event``, the one language-independent form.
    """
    return e.format(GERMAN_PEN if i18n.language() == "de" else Pen(country=shown))


MAX_BOARD_BYTES = 1024 * 1024     # a board of the printed size is about 1 KB


def read_bounded(path: pathlib.Path, limit: int, what: str) -> str:
    """The UTF-8 text of the regular file ``path``, read no further than ``limit`` bytes (a device
    such as /dev/zero or /dev/urandom is refused, not opened; safefiles reads it); NotationError
    in the ledger's words if unusable: which file, what is wrong, and ``what`` to give instead."""
    try:
        return read_text_at_most(path, limit, what, regular_only=True)
    except NotRegularFile as exc:
        raise NotationError(str(exc)) from None
    except TooLarge:
        raise NotationError(_("{path} is larger than {kib} KiB; give {what}").format(
            path=path, kib=limit // 1024, what=what)) from None
    except NotText:
        raise NotationError(_("{path} is not UTF-8 text; give {what}").format(path=path, what=what)) from None
    except OSError as exc:
        raise NotationError(_("cannot read {path}: {reason}").format(
            path=path, reason=os_reason(exc))) from None


def attach_board(e: ev.Event, base: pathlib.Path) -> ev.Event:
    """A ``board`` event with the named file's text read so it travels along. The file must be
    inside the folder ``base`` (the notation file's folder, the REPL's working folder, or
    --boards DIR): a notation file from elsewhere cannot make the ledger read any file."""
    if not isinstance(e, ev.BoardFile) or e.text:
        return e
    try:
        folder = base.resolve()
        path = (base / e.name).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        raise NotationError(_("cannot read the board file {path}: {reason}").format(
            path=clipped(e.name, 80), reason=exc)) from None
    if not path.is_relative_to(folder):
        raise NotationError(_("the board file {name} is outside {folder}; copy it there or name its "
                              "folder with --boards DIR").format(name=clipped(e.name, 80), folder=base))
    return ev.BoardFile(e.name, read_bounded(path, MAX_BOARD_BYTES, _("a board file (CSV text)")))
