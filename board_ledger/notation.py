"""The game notation: one action per line, ``#`` comments, names with spaces in double quotes.

This form is the contract for saved games and tests (docs/ledger.md). ``parse_line`` turns a line
into an event with the names as written (the rules resolve them); ``format_event`` writes an event
back as a line, so ``parse_line(format_event(e)) == e`` for every canonical event.
"""
from __future__ import annotations

import pathlib
import re
from typing import Callable

import i18n
from i18n import N_, _

from board_ledger import events as ev
from board_ledger.board import csv_rows, parse_board, shown
from board_ledger.errors import LedgerError, NotationError
from board_ledger.numbers import MAX_DIGITS, clipped, whole_number

#: German verbs (and their spellings without umlauts), accepted beside the English ones; the
#: notation is written with the English verbs, so a saved game reads the same in every language
GERMAN_VERBS: dict[str, str] = {
    "brett": "board", "wert": "value", "variante": "variant", "spieler": "players",
    "beginn": "start", "los": "draw", "mutterland": "homeland", "bündnisse": "allies",
    "bündnis": "ally", "angriff": "attack", "schlacht": "battle", "krieg": "war", "passen": "pass",
    "spielerbündnis": "pact", "pakt": "pact", "auflösen": "break", "herausfordern": "challenge",
    "überlebender": "survivor", "zeit": "time", "zurück": "undo",
}
GERMAN_VERBS |= {k.replace("ü", "ue").replace("ö", "oe"): v for k, v in GERMAN_VERBS.items()}
#: German words inside a line: 'unentschieden' for a drawn battle, 'anzeige' for the reading,
#: 'zeit um', 'variante zeit|ziel'
GERMAN_WORDS: dict[str, str] = {"unentschieden": "draw", "anzeige": "reading", "um": "up",
                                "ziel": "target", "zeit": "time"}
ENGLISH_TO_GERMAN_VERB = {v: k for k, v in GERMAN_VERBS.items() if "ue" not in k and "oe" not in k}


def word(text: str) -> str:
    """A keyword of the notation in its English form (German keywords are aliases of it)."""
    return GERMAN_WORDS.get(text.lower(), text.lower())


# verb -> how it is written; shown (translated with _()) in errors and in the REPL's help
USAGE: dict[str, str] = {
    "board": N_('board "FILE.csv" ["ROWS"]         custom board (before the players); ROWS: inline CSV, rows split by |'),
    "value": N_("value COUNTRY N                  change a country's value (before the players)"),
    "zone": N_("zone COUNTRY N                   move a country to zone N (before the players)"),
    "variant": N_("variant time MINUTES | variant target PBR"),
    "players": N_("players NAME NAME ...             seating order, 2 to 6 players"),
    "start": N_("start NAME                        the starting player, or:"),
    "draw": N_("draw DIGIT DIGIT ... [reading R]  digits in seat order; no reading: the ledger draws"),
    "homeland": N_("homeland NAME COUNTRY"),
    "allies": N_("allies NAME COUNTRY ... | allies NAME -"),
    "ally": N_("ally NAME[+ALLY...] COUNTRY          buy an alliance"),
    "attack": N_("attack NAME[+ALLY...] COUNTRY"),
    "battle": N_("battle WEAPON WEAPON NAME|draw [ENERGY ENERGY]  weapons P/S/T and energies left, attacker's first"),
    "war": N_("war WINNER ENERGY                 the loser's remaining energy"),
    "pass": N_("pass NAME"),
    "pact": N_("pact NAME NAME ..."),
    "break": N_("break NAME [NAME ...]"),
    "challenge": N_("challenge CHALLENGER OPPONENT"),
    "survivor": N_("survivor NAME ENERGY              end of a confrontation"),
    "time": N_("time up                           the agreed time has run out"),
    "undo": N_("undo"),
}


def _tokens(line: str) -> list[list[str]]:
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


def _usage_error(verb: str) -> NotationError:
    return NotationError(_("'{verb}' is written: {usage}").format(
        verb=verb, usage=_(USAGE[verb]).split("  ")[0].strip()))


def _one(token: list[str], verb: str) -> str:
    if len(token) != 1 or not token[0]:
        raise _usage_error(verb)
    return token[0]


def _int(text: str, what: str) -> int:
    number = whole_number(text)
    if number is None:
        raise NotationError(_("{what} must be a whole number (digits 0-9, at most {digits}), not "
                              "'{text}'").format(what=what, digits=MAX_DIGITS, text=clipped(text)))
    return number


def parse_line(line: str) -> ev.Event | None:
    """The event a line writes, or None for a blank or comment line; NotationError if malformed."""
    tokens = _tokens(line)
    if not tokens:
        return None
    verb = "".join(tokens[0]).lower()
    verb = GERMAN_VERBS.get(verb, verb)
    if verb not in USAGE:
        raise NotationError(_("unknown verb '{verb}' (verbs: {verbs})").format(
            verb=verb, verbs=", ".join(USAGE)))
    args = tokens[1:]
    n = len(args)
    words = [_one(t, verb) for t in args] if verb not in ("ally", "attack") else []

    def need(ok: bool) -> None:
        if not ok:
            raise _usage_error(verb)

    if verb == "board":
        need(n in (1, 2))
        return ev.BoardFile(words[0], _csv_lines(words[1]) if n == 2 else "")
    if verb in ("value", "zone"):
        need(n == 2)
        number = _int(words[1], _("the value") if verb == "value" else _("the zone"))
        return ev.SetValue(words[0], number) if verb == "value" else ev.SetZone(words[0], number)
    if verb == "variant":
        need(n == 2 and word(words[0]) in ("time", "target"))
        kind = word(words[0])
        return ev.Variant(kind, _int(words[1], _("the time") if kind == "time" else _("the target")))
    if verb == "players":
        need(n >= 1)
        return ev.Players(tuple(words))
    if verb == "start":
        need(n == 1)
        return ev.Start(words[0])
    if verb == "draw":
        reading = ""
        if n >= 2 and word(words[-2]) == "reading":
            reading = words[-1]
            if whole_number(reading) is None:
                raise NotationError(_("the reading must be digits 0-9, not '{reading}'").format(
                    reading=clipped(reading)))
            words = words[:-2]
        need(len(words) >= 1)
        return ev.Draw(tuple(_int(w, _("a digit")) for w in words), reading)
    if verb == "homeland":
        need(n == 2)
        return ev.Homeland(words[0], words[1])
    if verb == "allies":
        need(n >= 2)
        countries = () if words[1:] == ["-"] else tuple(words[1:])
        return ev.Allies(words[0], countries)
    if verb in ("ally", "attack"):
        need(n == 2 and all(args[0]))
        country = _one(args[1], verb)
        return (ev.Ally if verb == "ally" else ev.Attack)(tuple(args[0]), country)
    if verb == "battle":
        need(n in (3, 5))
        weapons = (words[0].upper(), words[1].upper())
        if any(w not in ("P", "S", "T") for w in weapons):
            raise NotationError(_("weapons are P (plane), S (submarine) or T (tank)"))
        energies = (_int(words[3], _("the energy")), _int(words[4], _("the energy"))) if n == 5 else None
        return ev.Battle(weapons, "" if word(words[2]) == "draw" else words[2], energies)
    if verb in ("war", "survivor"):
        need(n == 2)
        energy = _int(words[1], _("the energy"))
        return ev.War(words[0], energy) if verb == "war" else ev.Survivor(words[0], energy)
    if verb == "pass":
        need(n == 1)
        return ev.Pass(words[0])
    if verb in ("pact", "break"):
        need(n >= (2 if verb == "pact" else 1))
        return (ev.Pact if verb == "pact" else ev.Break)(tuple(words))
    if verb == "challenge":
        need(n == 2)
        return ev.Challenge(words[0], words[1])
    if verb == "time":
        need(n == 1 and word(words[0]) == "up")
        return ev.TimeUp()
    need(n == 0)  # undo
    return ev.Undo()


def _csv_lines(rows: str) -> str:
    """An inline board's rows as CSV text: '|' ends a row, except inside a quoted CSV field."""
    out, quoted = [], False
    for ch in rows:
        quoted ^= ch == '"'
        out.append("\n" if ch == "|" and not quoted else ch)
    return "".join(out)


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def quote(name: str) -> str:
    """A name as the notation writes it: bare if it is one plain word, else in double quotes
    (a double quote inside is written twice)."""
    return name if re.fullmatch(r'[^\s"#+]+', name) else _quoted(name)


def _inline_rows(e: ev.BoardFile) -> str:
    """The board of ``e`` as one line of CSV rows split by '|', canonical so it replays."""
    try:
        lines = csv_rows(parse_board(e.text, e.name))
    except LedgerError:               # not a board the rules took: keep what was given
        lines = [line for line in e.text.splitlines() if line.strip()]
    return "|".join(lines)


def format_event(e: ev.Event, country: Callable[[str], str] = str) -> str:
    """The notation line of an event (the inverse of parse_line); ``country`` may rename countries."""
    def q(name: str) -> str:
        return quote(name)

    def qc(name: str) -> str:
        return quote(country(name))
    if isinstance(e, ev.BoardFile):   # the board travels inline, so a saved game stands alone
        rows = _inline_rows(e) if e.text.strip() else ""
        return f"board {q(e.name)} {_quoted(rows)}" if rows else f"board {q(e.name)}"
    if isinstance(e, (ev.SetValue, ev.SetZone)):
        return f"{e.verb} {qc(e.country)} {e.value if isinstance(e, ev.SetValue) else e.zone}"
    if isinstance(e, ev.Variant):
        return f"variant {e.kind} {e.amount}"
    if isinstance(e, (ev.Players, ev.Pact, ev.Break)):
        names = e.names if isinstance(e, ev.Players) else e.players
        return " ".join([e.verb] + [q(n) for n in names])
    if isinstance(e, (ev.Start, ev.Pass)):
        return f"{e.verb} {q(e.player)}"
    if isinstance(e, ev.Draw):
        return " ".join(["draw"] + [str(d) for d in e.digits] + (["reading", e.reading] if e.reading else []))
    if isinstance(e, ev.Homeland):
        return f"homeland {q(e.player)} {qc(e.country)}"
    if isinstance(e, ev.Allies):
        return " ".join(["allies", q(e.player)] + ([qc(c) for c in e.countries] or ["-"]))
    if isinstance(e, (ev.Ally, ev.Attack)):
        return f"{e.verb} {'+'.join(q(n) for n in e.side)} {qc(e.country)}"
    if isinstance(e, ev.Battle):
        left = f" {e.energies[0]} {e.energies[1]}" if e.energies else ""
        return f"battle {e.weapons[0]} {e.weapons[1]} {q(e.winner) if e.winner else 'draw'}{left}"
    if isinstance(e, (ev.War, ev.Survivor)):
        return f"{e.verb} {q(e.winner if isinstance(e, ev.War) else e.player)} {e.energy}"
    if isinstance(e, ev.Challenge):
        return f"challenge {q(e.challenger)} {q(e.opponent)}"
    if isinstance(e, ev.TimeUp):
        return "time up"
    return "undo"


def display_event(e: ev.Event) -> str:
    """An event as the user reads it: in German mode with German verbs and country names.

    It parses back to the same event (the German words are aliases), but saved games and exports
    use ``format_event``, the one language-independent form.
    """
    line = format_event(e, country=shown)
    if i18n.language() != "de":
        return line
    verb, _space, rest = line.partition(" ")
    if isinstance(e, ev.Battle) and not e.winner:
        rest = re.sub(r"\bdraw\b", "unentschieden", rest, count=1)
    elif isinstance(e, ev.TimeUp):
        rest = "um"
    elif isinstance(e, ev.Draw) and e.reading:
        rest = rest.replace(" reading ", " anzeige ")
    elif isinstance(e, ev.Variant):
        rest = f"{'zeit' if e.kind == 'time' else 'ziel'} {e.amount}"
    return f"{ENGLISH_TO_GERMAN_VERB.get(verb, verb)} {rest}".strip()


MAX_BOARD_BYTES = 1024 * 1024     # a board of the printed size is about 1 KB


def read_bounded(path: pathlib.Path, limit: int, what: str) -> str:
    """The UTF-8 text of the regular file ``path``, read no further than ``limit`` bytes (a device
    such as /dev/zero or /dev/urandom is refused, not read for ever); NotationError if unusable.
    A UTF-8 byte order mark (Notepad) is dropped."""
    try:
        if path.exists() and not path.is_file():    # a device, a pipe (open would wait), a folder
            raise NotationError(_("{path} is not a regular file; give {what}").format(path=path, what=what))
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise NotationError(_("cannot read {path}: {reason}").format(
            path=path, reason=exc.strerror or exc)) from None
    if len(data) > limit:
        raise NotationError(_("{path} is larger than {kib} KiB; give {what}").format(
            path=path, kib=limit // 1024, what=what))
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise NotationError(_("{path} is not UTF-8 text; give {what}").format(path=path, what=what)) from None


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
