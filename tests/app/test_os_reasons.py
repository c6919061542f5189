"""The operating system's reason inside a `videopac` sentence is in the user's language
(i18n.os_reason, docs/i18n.md): Python's strerror is English in every locale, so a German
sentence used to end in 'No such file or directory'. Run as a user runs the commands, in English
(the system's own words, unchanged) and in both German locales."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE
from tests.asm.test_german import GERMAN, run

ENGLISH = {"LANGUAGE": "", "LC_ALL": "C.UTF-8"}
LOCALES = [("en", ENGLISH)] + [("de", locale) for locale in GERMAN]
IDS = ["en", "de-LANGUAGE", "de-LC_ALL"]

# (command line, exit status, stderr in English, stderr in German)
CASES = {
    "run-state-in": (
        ["run", "--headless", "--no-cart", "--frames", "1", "--state-in", "missing.state"], 2,
        "videopac run: cannot read missing.state: No such file or directory",
        "videopac run: missing.state kann nicht gelesen werden: Datei oder Verzeichnis nicht gefunden"),
    "ledger-replay": (
        ["ledger", "replay", "missing.txt", "--db", "g.sqlite"], 2,
        "videopac ledger: cannot read missing.txt: No such file or directory.",
        "videopac ledger: missing.txt kann nicht gelesen werden: Datei oder Verzeichnis nicht "
        "gefunden."),
    "roms-export": (
        ["roms", "export", "file/roms"], 1,
        "videopac roms: cannot write to file/roms: Not a directory.",
        "videopac roms: kann nicht nach file/roms schreiben: Ist kein Verzeichnis."),
    "joystick": (
        ["joystick", "test", "/dev/no-such-joystick"], 2,
        "videopac joystick: cannot open /dev/no-such-joystick: No such file or directory.",
        "videopac joystick: kann /dev/no-such-joystick nicht öffnen: Datei oder Verzeichnis "
        "nicht gefunden."),
    "play-keymap": (
        ["play", "--keymap", "missing.toml"], 2,
        "videopac play: cannot read the keymap missing.toml: No such file or directory.",
        "videopac play: die Tastaturbelegung missing.toml kann nicht gelesen werden: Datei oder "
        "Verzeichnis nicht gefunden."),
}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "file").write_text("a regular file, not a folder\n")
    return tmp_path


@pytest.mark.parametrize("language, locale", LOCALES, ids=IDS)
@pytest.mark.parametrize("case", CASES)
def test_a_file_error_is_one_sentence_in_one_language(folder, case, language, locale):
    argv, status, english, german = CASES[case]
    # play reads its keymap before it connects to a display, so any DISPLAY value will do
    r = run("videopac", *argv, cwd=folder, DISPLAY=":4711", **locale)
    assert (r.returncode, r.stderr) == (status, (english if language == "en" else german) + "\n")
    assert sorted(p.name for p in folder.iterdir()) == ["file"]


@pytest.mark.parametrize("language, locale", LOCALES, ids=IDS)
def test_the_debuggers_trace_and_shot_say_why_in_one_language(folder, language, locale):
    expected = {"en": "error: cannot write no/{name}: No such file or directory\n",
                "de": "Fehler: no/{name} kann nicht geschrieben werden: Datei oder Verzeichnis "
                      "nicht gefunden\n"}[language]
    refused = {"en": "videopac debug: dbg.txt line 1 was refused; the script stops there\n",
               "de": "videopac debug: dbg.txt Zeile 1 wurde abgelehnt; das Skript endet dort\n"}
    for command, name in (("trace", "t.txt"), ("shot", "s.png")):
        (folder / "dbg.txt").write_text(f"{command} no/{name}\n")
        r = run("videopac", "debug", "--no-cart", "--script", "dbg.txt", cwd=folder, **locale)
        assert r.returncode == 2
        assert r.stdout == expected.format(name=name)
        assert r.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "") == refused[language]
        (folder / "dbg.txt").unlink()


@pytest.mark.parametrize("language, locale", LOCALES, ids=IDS)
def test_a_taken_port_is_said_in_one_language(folder, language, locale):
    (folder / "game.txt").write_text("players Anna Bert\nstart Anna\n")
    assert run("videopac", "ledger", "replay", "game.txt", "--db", "g.sqlite", cwd=folder,
               **locale).returncode == 0
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run("videopac", "ledger", "--serve", "--db", "g.sqlite", "--port", str(port),
                cwd=folder, **locale)
    expected = {"en": f"videopac ledger: cannot listen on 127.0.0.1:{port} (Address already in "
                      f"use); choose another --port or --host.\n",
                "de": f"videopac ledger: kann nicht auf 127.0.0.1:{port} lauschen (Die Adresse "
                      f"wird bereits verwendet); wählen Sie einen anderen --port oder --host.\n"}
    assert (r.returncode, r.stderr) == (1, expected[language])
