"""The interactive ledger: type the notation, see the board, the players and what is legal now.

Every accepted line is committed to the game file before it is shown as accepted, with what it did
(board_ledger/effects.py) in one or two lines; a refusal names its rule. Reads standard input line
by line, so it can be driven by a pipe as well as by a person (readline completion of verbs, player and country names when a terminal is attached).
"""
from __future__ import annotations

import codecs
import collections
import io
import itertools
import json
import locale
import pathlib
import sys
import time
import typing
from typing import BinaryIO, Callable, Iterator, TextIO

import i18n
from i18n import N_, _, ngettext

from board_ledger import events as ev
from board_ledger import effects, notation, report
from board_ledger.board import shown
from board_ledger.errors import LedgerError, NotationError
from board_ledger.game import Game
from board_ledger import seats
from board_ledger.general import Because
from board_ledger.store import Store
from videopac.battle import headless

COMMANDS = {
    "help": N_("help [VERB]    this text, or how a verb is written"),
    "board": N_("board          the board by zone with every marker (without arguments)"),
    "status": N_("status         chips and PBR of every player"),
    "now": N_("now            whose turn it is and what may be done"),
    "json": N_("json           the status JSON"),
    "new": N_("new            start a new game in the file"),
    "quit": N_("quit           leave (every accepted action is already saved)"),
}
#: the commands' German names, accepted beside the English ones
GERMAN_COMMANDS = {"hilfe": "help", "brett": "board", "stand": "status", "jetzt": "now",
                   "neu": "new", "ende": "quit"}


MAX_GENERAL_MOVES = 10000     # moves of computer seats in a row; a whole game of them is fewer


class Repl:
    def __init__(self, db: str | None, out: TextIO = sys.stdout, boards: str | None = None,
                 pause: float = seats.PAUSE) -> None:
        self.out = out
        self.pause = pause
        self.boards = pathlib.Path(boards) if boards else pathlib.Path.cwd()  # board files from here
        self.store = Store(db) if db else None
        self.db = db
        if self.store:
            try:
                self.game_id, self.game = self.store.load()
            except LedgerError:
                self.store.close()
                raise
        else:
            self.game_id, self.game = 0, Game()
        self.seats = self._seats()
        self._entry: Because | None = None       # the general's side of a battle, last said

    def _seats(self) -> seats.Seats:
        """The computer seats of the game; a war between two of them is fought headless."""
        return seats.Seats(self.game, self.store, self.game_id, pause=self.pause, fight=headless.fight)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def banner(self) -> None:
        where = (ngettext("game {game} in {db}, {n} action so far", "game {game} in {db}, {n} actions so far",
                          len(self.game.events)).format(game=self.game_id, db=self.db, n=len(self.game.events))
                 if self.store else _("nothing is saved: start with --db FILE to keep the game"))
        self.say(_("Conquest of the World ledger ({where}). 'help' lists the commands.").format(where=where))
        if self.game.state.players:
            self.say(report.players_text(self.game.state))
        self.say(report.now_text(self.game.state))

    def names(self) -> list[str]:
        s = self.game.state
        names = list(notation.USAGE) + list(COMMANDS) + s.names + [c.name for c in s.board.countries]
        if i18n.language() == "de":
            names += list(notation.ENGLISH_TO_GERMAN_VERB.values()) + list(GERMAN_COMMANDS)
            names += [shown(c.name) for c in s.board.countries]
        return list(dict.fromkeys(names))

    def new_game(self) -> None:
        if self.store:
            self.game_id = self.store.new_game()
            self.game_id, self.game = self.store.load(self.game_id)
        else:
            self.game = Game()
        self.seats = self._seats()
        self.say(_("new game {game}").format(game=self.game_id))
        self.say(report.now_text(self.game.state))

    def handle(self, line: str) -> bool:
        """Act on one input line; False when the user leaves."""
        words = line.split()
        if not words:
            return True
        word = GERMAN_COMMANDS.get(words[0].lower(), words[0].lower())
        if word in ("quit", "exit"):
            return False
        self.catch_up()
        if word == "help":
            topic = words[1].lower() if len(words) > 1 else ""
            topic = notation.GERMAN_VERBS.get(topic, topic)
            if topic in notation.USAGE:
                self.say(_(notation.USAGE[topic]))
            else:
                self.say(_("Notation (one action per line):"))
                self.say("\n".join(f"  {_(u)}" for u in notation.USAGE.values()))
                self.say(_("Commands:"))
                self.say("\n".join(f"  {_(u)}" for u in COMMANDS.values()))
            return True
        shows: dict[str, Callable[[], str]] = {
            "status": lambda: report.players_text(self.game.state),
            "now": lambda: report.now_text(self.game.state),
            "json": lambda: json.dumps(report.status(self.game.state), indent=2, ensure_ascii=False),
        }
        if word in shows and len(words) == 1:
            self.say(shows[word]())
            return True
        if word == "board" and len(words) == 1:
            self.say(report.board_text(self.game.state))
            return True
        if word == "new" and len(words) == 1:
            self.new_game()
            return True
        seen = len(self.game.events)
        try:
            event = notation.parse_line(line)
            if event is None:
                return True
            accepted, said = effects.play(self.game, notation.attach_board(event, self.boards))
        except LedgerError as exc:
            self.tell_news(self.game.events[seen:])
            self.say(_("refused: {reason}").format(reason=exc))
            return True
        self.tell_news(self.game.events[seen:-1])
        self.say(_("ok: {action}").format(action=notation.display_event(accepted)))
        for line in effects.effects_lines(said):
            self.say(f"  {line}")
        if not isinstance(accepted, ev.Undo):
            for warning in report.track_warnings(self.game.before, self.game.state):
                self.say(warning)
        self.say(report.now_text(self.game.state))
        return True

    def generals(self) -> None:
        """Let the computer seats move, each after the pause, until a person's move is awaited
        (or a war a person fights): each move is shown as a person's line is, with its why."""
        for _count in range(MAX_GENERAL_MOVES):
            name = self.seats.thinking()
            if name is None:
                self.general_entry()
                return
            self.say(_("{name} (computer) is thinking ...").format(name=name))
            time.sleep(self.pause)
            self.catch_up()
            if self.seats.thinking() != name:
                continue                     # another window or phone moved meanwhile
            if not self.seats.move_now():
                if self.seats.trouble:
                    self.say(_("the computer general could not move ({trouble}); play its seat or "
                               "give it to a person").format(trouble=self.seats.trouble))
                    return
                continue
            for move in self.seats.moves:
                why = move.why()
                self.say(_("ok: {action}").format(action=notation.display_event(move.event)))
                if why is not None:
                    self.say(f"  {why.say()}")
                for line in effects.effects_lines(effects.effects(move.before, move.after, move.event)):
                    self.say(f"  {line}")
            self.say(report.now_text(self.game.state))

    def general_entry(self) -> None:
        """A war between a person and a general fought on a console: what to type for the
        general's side of the next battle (once per battle)."""
        said = seats.entry(self.game.state, len(self.game.events))
        if said is not None and said != self._entry:
            self.say(said.say())
        self._entry = said

    def catch_up(self) -> None:
        """Take in and show what other processes booked in the same game since we last looked."""
        if self.store:
            self.tell_news(self.store.refresh(self.game_id, self.game))

    def tell_news(self, events: list[ev.Event]) -> None:
        if events:
            self.say(_("another ledger on this file booked: {actions}").format(
                actions=" | ".join(notation.display_event(e) for e in events)))

    def prompt(self) -> str:
        s = self.game.state
        return f"{s.turn or report.phase_text(s.phase)}> "


def _completer(repl: Repl) -> Callable[[str, int], str | None]:
    import readline

    def complete(text: str, state: int) -> str | None:
        buffer = readline.get_line_buffer()[:readline.get_endidx()]
        if buffer.count('"') % 2:            # inside a quoted name: complete the whole name
            partial = buffer[buffer.rfind('"') + 1:]
            # readline replaces ``text`` (from the last space): a word inside the name, or the
            # opening quote and the name ('"Verein' -> '"Vereinigte Staaten"')
            cut = len(partial) - len(text)
            options = [(n[cut:] if cut >= 0 else text[:-cut] + n) + '"'
                       for n in repl.names() if n.lower().startswith(partial.lower())]
        else:
            options = [notation.quote(n) + " " for n in repl.names() if n.lower().startswith(text.lower())]
        return options[state] if state < len(options) else None

    return complete


REPLACEMENT = "\ufffd".encode()   # what readline is given for a typed byte that is not UTF-8
MAX_LINE = 2 * 1024 * 1024    # bytes of one input line: an action, or a board inline (1 MiB at most)


def piped_lines(stream: BinaryIO) -> Iterator[str | None]:
    """The lines of a pipe or file, bounded: None for a line that is not UTF-8 text, NotationError
    for a line longer than MAX_LINE (``< /dev/zero`` ends there instead of filling the memory).
    A UTF-8 byte order mark before the first line is dropped, and so is a CR before the LF."""
    for number in itertools.count(1):
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        if len(raw) > MAX_LINE:
            raise NotationError(_("line {number} of the input is longer than {mib} MiB; the ledger "
                                  "reads one action per line").format(number=number, mib=MAX_LINE // 1024 ** 2))
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        try:
            yield raw.decode("utf-8").removesuffix("\n").removesuffix("\r")
        except UnicodeDecodeError:
            yield None


class TypedBytes:
    """Stands between the terminal and readline and lets only whole UTF-8 characters through.

    GNU readline in a UTF-8 locale takes a byte that is not UTF-8 (a Latin-1 terminal's 'ö' is
    F6) out of the line without a word and keeps it, to put it into a later line before the next
    non-ASCII character: the ledger would book 'Jrg' now and refuse a good line later. Here such a
    byte reaches readline as U+FFFD, '�': the person sees where it was (and may delete it), and
    the line that still holds it is refused. The watch sits in ``rl_getc_function``, readline's
    documented input hook; where readline has none, the ledger reads on without it (and a bad
    byte readline keeps, as in the C locale, reaches Python as an escaped byte and is refused)."""

    def __init__(self) -> None:
        self.bad = False                           # a byte was replaced in the current line
        self._held = bytearray()                   # the start of a character, waiting for the rest
        self._ready: collections.deque[int] = collections.deque()   # bytes for readline
        self._hook: object = None

    def install(self) -> bool:
        """Put the watch between the terminal and readline when it reads UTF-8 (in a one-byte
        locale such as C readline keeps every byte, and Python's decoder marks a bad one); False
        where readline has no such hook."""
        try:
            if codecs.lookup(locale.nl_langinfo(locale.CODESET)).name != "utf-8":
                return False
            import ctypes
            import readline
            pointer = ctypes.c_void_p.in_dll(ctypes.CDLL(readline.__file__), "rl_getc_function")
        except (ImportError, OSError, ValueError, AttributeError, LookupError):
            return False
        if not pointer.value:
            return False
        getc_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
        original = getc_type(pointer.value)

        def getc(stream: int | None) -> int:
            while not self._ready:
                byte = original(stream)
                if 0 <= byte <= 0xFF:
                    self.take(byte)
                else:                              # end of input or an error: readline sees it
                    self._give_up_held()
                    self._ready.append(byte)
            return self._ready.popleft()
        self._hook = getc_type(getc)               # kept: readline calls it while the ledger runs
        pointer.value = ctypes.cast(self._hook, ctypes.c_void_p).value
        return True

    def take(self, byte: int) -> None:
        """One byte from the terminal: a whole character goes on to readline, a byte that cannot
        be part of one goes on as U+FFFD (a character cut short counts once, its breaker afresh)."""
        self._held.append(byte)
        try:
            whole = codecs.getincrementaldecoder("utf-8")().decode(bytes(self._held))
        except UnicodeDecodeError:
            cut_short = len(self._held) > 1
            self._held.clear()
            self._ready.extend(REPLACEMENT)
            self.bad = True
            if cut_short:
                self.take(byte)
            return
        if whole:
            self._ready.extend(self._held)
            self._held.clear()

    def _give_up_held(self) -> None:
        if self._held:
            self._held.clear()
            self._ready.extend(REPLACEMENT)
            self.bad = True

    def new_line(self) -> None:
        self.bad = False
        self._held.clear()

    def refuses(self, line: str) -> bool:
        """True if ``line`` still holds a byte this watch replaced (or one Python escaped)."""
        return (self.bad and "\ufffd" in line) or any("\udc80" <= ch <= "\udcff" for ch in line)


def _typed_lines(repl: Repl, typed: TypedBytes) -> Iterator[str | None]:
    """The lines typed at a terminal (with readline); None for a line that is not UTF-8 text."""
    stdin = typing.cast(io.TextIOWrapper, sys.stdin)    # a terminal's: a text wrapper
    stdin.reconfigure(errors="surrogateescape")     # without the watch, bad bytes arrive as lone surrogates
    while True:
        typed.new_line()
        try:
            line = input(repl.prompt())
        except EOFError:
            return
        yield None if typed.refuses(line) else line


def run_repl(db: str | None, boards: str | None = None, pause: float = seats.PAUSE) -> int:
    repl = Repl(db, boards=boards, pause=pause)
    interactive = sys.stdin.isatty()
    typed = TypedBytes()
    if interactive:
        try:
            import readline
            readline.set_completer(_completer(repl))
            readline.set_completer_delims(" \t\n")
            readline.parse_and_bind("tab: complete")
            typed.install()
        except ImportError:
            pass
    repl.banner()
    try:
        repl.generals()
        for line in _typed_lines(repl, typed) if interactive else piped_lines(sys.stdin.buffer):
            if line is None:
                repl.say(_("refused: the line has a byte that is not UTF-8 text; nothing was booked, "
                           "type it again"))
            elif not repl.handle(line):
                break
            repl.generals()
    finally:
        if repl.store:
            repl.store.close()
    return 0
