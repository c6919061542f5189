"""The ledger in German: German country names and verbs in the notation, German refusals and reports."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import i18n
from board_ledger import notation
from board_ledger.board import GERMAN_NAMES, shown, standard_board
from board_ledger.errors import RuleError
from board_ledger.game import Game
from tests.i18n.test_language import videopac

GERMAN_GAME = """\
Spieler Anna Bert Carla
beginn Anna
Mutterland Anna "Vereinigte Staaten"
mutterland Bert Sowjetunion
mutterland Carla Westdeutschland
bündnisse Anna Kanada
buendnisse Bert Polen
bündnisse Carla -
angriff Carla Indien
"""
ENGLISH_GAME = """\
players Anna Bert Carla
start Anna
homeland Anna "United States"
homeland Bert U.S.S.R.
homeland Carla "West Germany"
allies Anna Canada
allies Bert Poland
allies Carla -
attack Carla India
"""


def play(text: str) -> Game:
    game = Game()
    for line in text.splitlines():
        event = notation.parse_line(line)
        if event is not None:
            game.play(event)
    return game


def test_german_names_and_verbs_are_aliases_of_one_notation():
    german, english = play(GERMAN_GAME), play(ENGLISH_GAME)
    assert german.events == english.events          # the same canonical events
    assert [notation.format_event(e) for e in german.events] == ENGLISH_GAME.splitlines()


@pytest.mark.parametrize("line, event", [
    ("schlacht P T unentschieden", "battle P T draw"),
    ("Krieg Carla 1355", "war Carla 1355"),
    ("zeit um", "time up"),
    ("variante ziel 60", "variant target 60"),
    ("los 3 7 anzeige 1234", "draw 3 7 reading 1234"),
    ("zurück", "undo"),
    ("spielerbündnis Anna Bert", "pact Anna Bert"),
    ("herausfordern Anna Bert", "challenge Anna Bert"),
])
def test_german_verbs(line, event):
    assert notation.format_event(notation.parse_line(line)) == event


def test_every_country_has_a_german_name_and_is_found_by_it():
    board = standard_board()
    assert set(GERMAN_NAMES) == {c.name for c in board.countries}
    for country, german in GERMAN_NAMES.items():
        assert board.lookup(german).name == country
    assert board.lookup("Großbritannien").name == "United Kingdom"
    assert board.lookup("sowjetunion").name == "U.S.S.R."


def test_shown_follows_the_language():
    assert shown("U.S.S.R.") == "U.S.S.R."
    i18n.set_language("de")
    assert shown("U.S.S.R.") == "Sowjetunion" and shown("West Germany") == "Westdeutschland"


def test_a_refusal_in_german_names_the_rule_and_the_german_country():
    game = play(GERMAN_GAME)
    i18n.set_language("de")
    with pytest.raises(RuleError) as refused:
        game.play(notation.parse_line("angriff Bert Kuba"))
    assert refused.value.rule == 12
    assert str(refused.value) == ("Regel 12: der Krieg um Indien wird noch geführt; tragen Sie sein "
                                  "Ergebnis mit 'krieg SIEGER ENERGIE' ein")


def test_replay_in_german_as_a_user_runs_it(tmp_path):
    game = tmp_path / "partie.txt"
    game.write_text(GERMAN_GAME + "angriff Bert Kuba\n", encoding="utf-8")
    res = videopac("ledger", "replay", str(game), "--lang", "de")
    assert res.returncode == 2
    assert res.stderr == (f"{game}:10: Regel 12: der Krieg um Indien wird noch geführt; tragen Sie sein "
                          "Ergebnis mit 'krieg SIEGER ENERGIE' ein\n")
    game.write_text(GERMAN_GAME, encoding="utf-8")
    res = videopac("ledger", "replay", str(game), LANG="de_DE.UTF-8")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "Kriegskasse +0 (eingezahlt minus ausgezahlt)"
    assert lines[1].split() == ["Anna", "Vereinigte", "Staaten", "Marken", "0", "PBR", "3.5"]
    assert "Krieg um Indien: Carla greift an, Anna verteidigt" in res.stdout
    english = videopac("ledger", "replay", str(game), "--lang", "en", LANG="de_DE.UTF-8")
    assert english.stdout.splitlines()[0] == "war chest +0 (paid in minus paid out)"
    assert "War for India: Carla attacks, Anna defends" in english.stdout


def test_the_terminal_ledger_in_german(tmp_path):
    """The REPL as a table types into it: German verbs and names in, German answers out, saved."""
    db = tmp_path / "partie.sqlite"
    typed = ("Spieler Anna Bert\nhilfe krieg\nbeginn Anna\nmutterland Anna Kanada\n"
             "mutterland Bert Kanada\nstand\n")
    res = subprocess.run([sys.executable, "-m", "videopac", "ledger", "--db", str(db), "--lang", "de"],
                         input=typed, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    out = res.stdout.splitlines()
    assert out[0].startswith("Kassenbuch für Eroberung der Welt (Partie 1 in ")
    assert "ok: spieler Anna Bert" in out
    assert any(line.startswith("krieg|war SIEGER ENERGIE") for line in out)
    assert "ok: mutterland Anna Kanada" in out
    assert "abgelehnt: Regel 3: Kanada ist schon das Mutterland von Anna" in out
    assert "Kriegskasse +0 (eingezahlt minus ausgezahlt)" in out
    export = videopac("ledger", "export", "--db", str(db))          # the file keeps one notation
    assert export.stdout.splitlines()[1:] == ["players Anna Bert", "start Anna", "homeland Anna Canada"]


def _pty_ledger(lang: str, lines: list[bytes]) -> str:
    """Type ``lines`` into `videopac ledger --lang LANG` on a pseudo-terminal (readline active,
    Tab completes), each after the prompt came back; everything the terminal showed."""
    import pty
    import select
    import time
    pid, fd = pty.fork()
    if pid == 0:                                  # the child: the ledger as a person starts it
        os.execvp(sys.executable, [sys.executable, "-m", "videopac", "ledger", "--lang", lang])
    shown = b""

    def wait_for_prompt(count: int) -> None:
        nonlocal shown
        end = time.monotonic() + 60
        while shown.count(b"> ") < count and time.monotonic() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    shown += os.read(fd, 65536)
                except OSError:
                    return
    try:
        wait_for_prompt(1)
        for line in lines:
            prompts = shown.count(b"> ")
            os.write(fd, line)
            wait_for_prompt(prompts + 1)
    finally:
        os.write(fd, b"quit\r")
        os.waitpid(pid, 0)
        os.close(fd)
    return shown.decode("utf-8", "replace")


@pytest.mark.parametrize("lang, lines, booked", [
    ("de", [b"spieler Anna Bert\r", b"beginn Anna\r", b'mutterland Anna "Verein\t\r'],
     "ok: mutterland Anna \"Vereinigte Staaten\""),
    ("en", [b"players Anna Bert\r", b"start Anna\r", b'homeland Anna "United St\t\r'],
     "ok: homeland Anna \"United States\""),
])
def test_tab_completes_a_quoted_name_on_a_terminal(lang, lines, booked):
    """Names of two words are the common case in German: Tab completes them inside quotes."""
    assert booked in _pty_ledger(lang, lines)
