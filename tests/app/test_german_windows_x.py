"""The windows in German, driven as a person drives them (xdotool's X events under Xvfb): the
ledger window offers and books German lines with German country names, and the play window's F1
overlay and messages are German."""
import os
import shutil
import subprocess

import pytest

import i18n
from tests.app.test_ledger_window_x import click, pump, xdotool
from tests.table.test_bridge import SETUP

pytestmark = [pytest.mark.xvfb, pytest.mark.slow,
              pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")]


def focus(win, name: str) -> None:
    pump(win, lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name],
                                     capture_output=True).returncode == 0)
    xdotool("windowfocus", "--sync", str(win._window))


def test_the_ledger_window_in_german(xvfb, tmp_path):
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    i18n.set_language("de")
    repl = Repl(str(tmp_path / "g.sqlite"), out=open(os.devnull, "w"))
    for line in SETUP.splitlines():
        repl.handle(line)
    win = LedgerWindow(repl, 1100, 700)
    try:
        focus(win, "Kassenbuch")
        x, y, w, h = win.panel.tiles["India"]
        click(win, x + w / 2, y + h / 2)
        pump(win, lambda: win.offers)
        assert win.offers == ["angriff Carla Indien"]
        assert win.answer == "Indien: Aktion anklicken, wenn nötig ergänzen, Enter zum Buchen"
        (line, (bx, by, bw, bh)), = win.offer_boxes
        click(win, bx + bw / 2, by + bh / 2)
        pump(win, lambda: win.document.text == "angriff Carla Indien")
        xdotool("key", "--clearmodifiers", "Return")
        pump(win, lambda: win.repl.game.state.war is not None)
        assert win.answer.splitlines()[0] == "ok: angriff Carla Indien"
        xdotool("type", "--delay", "20", "schlacht T P Carla")
        pump(win, lambda: win.document.text == "schlacht T P Carla")
        xdotool("key", "--clearmodifiers", "Return")
        pump(win, lambda: win.repl.game.state.war.battles == 1)
        assert win.answer.splitlines()[0] == "ok: schlacht T P Carla"
        win.panel.refresh()
        shown = " ".join(label.text for label in win.panel.labels)
        for words in ("Kriegskasse", "Anna: Vereinigte Staaten", "Bert: Westdeutschland",
                      "Carla: Sowjetunion", "Krieg um Indien"):
            assert words in shown
        assert "United States" not in shown and "West Germany" not in shown
    finally:
        win.close()
        repl.store.close()
    assert [e.verb for e in repl.game.events][-2:] == ["attack", "battle"]   # one notation


def test_the_play_window_overlay_in_german(xvfb, fake):
    from videopac.console import keymap
    from videopac.console.session import Session
    from videopac.console.window import PlayWindow
    i18n.set_language("de")
    session = Session(fake, keymap.load(), "conquest")
    win = PlayWindow(session, "pal", scale=2, title="Videopac deutsch")
    try:
        focus(win, "Videopac deutsch")
        xdotool("key", "--clearmodifiers", "F1")
        pump(win, lambda: session.help)
        text = " ".join(p.text for p in win._help_parts if hasattr(p, "text"))
        for words in ("Joystick 0:", "auf", "Feuer", "Hilfe", "sichern", "Kassenbuch", "Strg rechts", "Rück"):
            assert words in text
        xdotool("key", "--clearmodifiers", "F8")
        pump(win, lambda: session.paused)
        assert session.current_message() == "angehalten" and win.status.text == "PAUSE"
    finally:
        win.close()
