"""The ledger-only window driven the way a person drives it: real X mouse clicks and key presses
(xdotool's XTEST events under Xvfb) on the board, the offered actions and the input line; and
its colours seen through a deuteranopia simulation of a screenshot."""
import itertools
import os
import shutil
import subprocess
import time

import numpy as np
import pytest

from tests.table.test_bridge import SETUP

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]
needs_xdotool = pytest.mark.skipif(shutil.which("xdotool") is None,
                                   reason="xdotool is not installed (make test installs it)")


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], env=dict(os.environ), check=True, capture_output=True, timeout=30)


def pump(win, until, seconds: float = 20.0) -> None:
    """Let the window take in its X events (and redraw) until ``until()`` holds; the X server
    delivers them asynchronously, so this waits with a generous deadline."""
    deadline = time.monotonic() + seconds
    while True:
        win.dispatch_events()
        win.switch_to()
        win.on_draw()
        win.flip()
        if until():
            return
        assert time.monotonic() < deadline, "the window did not react to the X events"
        time.sleep(0.02)


def click(win, x: float, y: float) -> None:
    """A real left click at window point (x, y) (pyglet's y counts from the bottom)."""
    xdotool("mousemove", "--window", str(win._window), str(int(x)), str(int(win.height - y)), "click", "1")


@pytest.fixture
def window(xvfb, tmp_path):
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    repl = Repl(str(tmp_path / "g.sqlite"), out=open(os.devnull, "w"))
    for line in SETUP.splitlines():
        repl.handle(line)
    win = LedgerWindow(repl, 1100, 700)
    pump(win, lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "ledger"],
                                     capture_output=True).returncode == 0)
    xdotool("windowfocus", "--sync", str(win._window))
    yield win
    win.close()
    repl.store.close()


@needs_xdotool
def test_a_real_click_on_a_country_offers_its_actions_and_enter_books_one(window):
    win = window
    x, y, w, h = win.panel.tiles["India"]
    click(win, x + w / 2, y + h / 2)                              # a click on India
    pump(win, lambda: win.offers)
    assert win.panel.selected == "India" and win.offers == ["attack Carla India"]
    (line, (bx, by, bw, bh)), = win.offer_boxes
    click(win, bx + bw / 2, by + bh / 2)                          # a click on the offered action
    pump(win, lambda: win.document.text == "attack Carla India")
    xdotool("key", "--clearmodifiers", "Return")                  # Enter books it
    pump(win, lambda: win.repl.game.state.war is not None)
    assert win.answer.splitlines() == ["ok: attack Carla India", "War for India: Carla against Anna."]
    assert win.document.text == ""                                # no line break left on the line
    xdotool("type", "--delay", "20", "battle T P Carla")
    pump(win, lambda: win.document.text == "battle T P Carla")
    xdotool("key", "--clearmodifiers", "Return")
    pump(win, lambda: win.repl.game.state.war.battles == 1)
    assert win.answer.splitlines() == ["ok: battle T P Carla", "Battle 1: Carla wins."]
    assert win.document.text == ""
    # the war view is on screen: the score, the weapons left, what ends the war
    win.panel.refresh()
    text = " ".join(lbl.text for lbl in win.panel.labels)
    assert "1–0 after 1 of 3 battles" in text and "Weapons left: Carla P/S/T, Anna S/T." in text
    # what was acknowledged is on disk, each action its own event; undo is an event too
    from board_ledger import notation
    from board_ledger.store import Store

    def stored() -> list[str]:
        other = Store(win.repl.store.path)
        try:
            return [notation.format_event(e) for e in other.events(other.latest_game())][-3:]
        finally:
            other.close()
    assert stored()[-2:] == ["attack Carla India", "battle T P Carla"]
    xdotool("type", "--delay", "20", "undo")
    xdotool("key", "--clearmodifiers", "Return")
    pump(win, lambda: win.repl.game.state.war.battles == 0)
    assert win.answer.splitlines() == ["ok: undo", "Undone: battle T P Carla."]
    assert stored() == ["attack Carla India", "battle T P Carla", "undo"]


@needs_xdotool
def test_a_long_answer_is_shown_whole_over_the_board_and_a_click_closes_it(window):
    from board_ledger import notation
    win = window
    xdotool("type", "--delay", "20", "help")
    xdotool("key", "--clearmodifiers", "Return")
    pump(win, lambda: win.overlay)
    shown = "\n".join(lbl.text for lbl in win.overlay if hasattr(lbl, "text"))
    for usage in notation.USAGE.values():                         # every line of the help
        assert usage in shown
    for lbl in (x for x in win.overlay if hasattr(x, "text")):     # inside the window, above the strip
        assert lbl.y - lbl.content_height >= win.strip_height and lbl.x + lbl.content_width <= win.width
    click(win, win.width / 2, win.height / 2)
    pump(win, lambda: not win.overlay)
    xdotool("type", "--delay", "20", "status")
    xdotool("key", "--clearmodifiers", "Return")
    pump(win, lambda: "Carla" in win.answer)
    assert len(win.answer.splitlines()) == 4                      # the war chest and three players


# --- colours: a deuteranopia simulation of a screenshot ------------------------------------------
# Machado, Oliveira & Fernandes (2009), deuteranopia at severity 1, on linear RGB
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])


def _linear(rgb):
    c = np.asarray(rgb, float) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(linear):
    """CIE L*a*b* (D65) of linear RGB, for colour differences as the eye sees them."""
    xyz = linear @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def deuteranope_sees(rgb):
    return lab(np.clip(_linear(rgb) @ DEUTERANOPIA.T, 0, 1))


SIX = """players Anna Bert Carla Dora Emil Fritz
start Anna
homeland Anna "United States"
homeland Bert "West Germany"
homeland Carla USSR
homeland Dora Brazil
homeland Emil China
homeland Fritz Egypt
allies Anna Canada
allies Bert Spain
allies Carla Poland
allies Dora Argentina
allies Emil Vietnam
allies Fritz Libya
"""


def test_six_players_tiles_stay_apart_for_a_deuteranope(xvfb, tmp_path):
    """A screenshot of the board with six players: each player's homeland tile, seen through a
    deuteranopia simulation, differs from every other player's by a clear colour difference
    (CIE76 ΔE > 10), and an allied tile differs from the same player's conquered one."""
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    repl = Repl(str(tmp_path / "six.sqlite"), out=open(os.devnull, "w"))
    for line in SIX.splitlines():
        repl.handle(line)
    win = LedgerWindow(repl, 1100, 700, visible=False)
    try:
        win.switch_to()
        win.on_draw()
        import pyglet
        buffer = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        shot = np.frombuffer(buffer.get_data("RGB", buffer.width * 3), np.uint8).reshape(
            buffer.height, buffer.width, 3)                      # row 0 at the bottom, as pyglet counts
        s = repl.game.state

        def centre(country):
            x, y, w, h = win.panel.tiles[country]
            return shot[y + h // 2 - 1:y + h // 2 + 1, x + w - 6:x + w - 3].reshape(-1, 3).mean(0)

        homes = {p.name: centre(p.homeland) for p in s.players}
        seen = {n: deuteranope_sees(c) for n, c in homes.items()}
        for a, b in itertools.combinations(seen, 2):
            assert np.linalg.norm(seen[a] - seen[b]) > 10, (a, b, homes[a], homes[b])
        allied = deuteranope_sees(centre("Canada"))
        assert np.linalg.norm(allied - seen["Anna"]) > 10
        # and each tile also carries its player's letter (for any eye)
        win.panel.refresh()
        labels = {lbl.text for lbl in win.panel.labels}
        assert {"Canada 7 A", "Libya 3 F", "Spain 4 B"} <= labels
    finally:
        win.close()
        repl.store.close()


@needs_xdotool
def test_a_computer_general_answers_in_the_window(xvfb, tmp_path):
    """docs/generals.md: the person types her homeland with real keys; after the pause the general
    books its own, the answer strip says why, and the panel marks its seat and who is thinking."""
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    repl = Repl(str(tmp_path / "g.sqlite"), out=open(os.devnull, "w"), pause=0.3)
    for line in ("players Anna cpu:hard:Bert", "start Anna"):
        repl.handle(line)
    win = LedgerWindow(repl, 1100, 700)
    try:
        pump(win, lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "ledger"],
                                         capture_output=True).returncode == 0)
        xdotool("windowfocus", "--sync", str(win._window))
        win.panel.refresh()
        assert "computer (hard)" in " ".join(lbl.text for lbl in win.panel.labels)
        xdotool("type", "--delay", "20", 'homeland Anna Canada')
        pump(win, lambda: win.document.text == "homeland Anna Canada")
        xdotool("key", "--clearmodifiers", "Return")
        pump(win, lambda: win.repl.seats.thinking() == "Bert")
        win.panel.refresh()
        assert "Bert (computer) is thinking ..." in " ".join(lbl.text for lbl in win.panel.labels)
        deadline = time.monotonic() + 30
        while win.repl.game.state.player("Bert").homeland is None:     # the window's own clock
            win.think()
            pump(win, lambda: True)
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert win.answer.startswith("ok: homeland Bert ") and "Bert chooses " in win.answer, win.answer
    finally:
        win.close()
        repl.store.close()
