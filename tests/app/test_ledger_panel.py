"""The ledger panel beside the battle and the ledger-only window under Xvfb: the text that must be
on screen is there, and at the smallest supported sizes no two labels overlap, every label stays
inside its area and every country's label inside its tile."""
import contextlib
import itertools
import os
import subprocess
import sys

import numpy as np
import pytest

import i18n
from board_ledger import report
from tests.app.fake_machine import FakeMachine
from tests.table.fake_conquest import FakeConquest, symbol_table
from tests.table.table_driver import game_of
from tests.table.test_bridge import SETUP, SMALL_ENDGAME
from videopac.console import keymap
from videopac.console.session import Session

pytestmark = pytest.mark.xvfb


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def boxes(panel) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each label's text and bounding box (x0, y0, x1, y1) as pyglet lays it out."""
    out = []
    for label in panel.labels:
        x0 = label.x
        y1 = label.y if label.anchor_y == "top" else label.y + label.content_height
        out.append((label.text, (x0, y1 - label.content_height, x0 + label.content_width, y1)))
    return out


def check_layout(panel, area):
    """No label overlaps another; each lies inside ``area`` (x0, y0, x1, y1); tile labels inside
    their tiles. Returns all the text on screen."""
    found = boxes(panel)
    for (ta, a), (tb, b) in itertools.combinations(found, 2):
        assert not overlaps(a, b), f"{ta!r} overlaps {tb!r}"
    for text, (x0, y0, x1, y1) in found:
        assert area[0] <= x0 and x1 <= area[2] and area[1] <= y0 and y1 <= area[3], text
    for name, (x, y, w, h) in panel.tiles.items():
        inside = [t for t, (x0, y0, x1, y1) in found if x <= x0 and x1 <= x + w and y <= y0 and y1 <= y + h + 1]
        assert inside, f"no readable label on {name}'s tile"
    return " ".join(t for t, _ in found)


class TableMachine(FakeMachine):
    """The app tests' fake machine with the fake battle cartridge's RAM and keys."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cart = FakeConquest()
        self.iram, self.xram = self.cart.iram, self.cart.xram

    def press(self, name):
        super().press(name)
        self.cart.press(name)

    def run_frame(self):
        super().run_frame()
        self.cart.run_frame()


@contextlib.contextmanager
def playing_table(tmp_path, keys: keymap.Keymap):
    """`videopac play --ledger` wiring on a fake machine with the keymap ``keys``: window, panel,
    bridge, game file."""
    from board_ledger.store import Store
    from videopac.console.window import PlayWindow
    from videopac.table.wiring import LedgerTable
    store = Store(tmp_path / "game.sqlite")
    game_id, game = store.load()
    for line in (SETUP + "attack Carla India").splitlines():
        from board_ledger import notation
        event = notation.parse_line(line)
        if event:
            game.play(event)
    machine = TableMachine()
    session = Session(machine, keys, "conquest")
    window = PlayWindow(session, "pal", scale=2, side=LedgerTable.side(720))
    t = LedgerTable(store, game_id, game, symbol_table())
    on_frame = t.attach(session, window)
    try:
        yield t, session, window, machine, on_frame
    finally:
        window.close()
        store.close()


@pytest.fixture
def table(xvfb, tmp_path):
    with playing_table(tmp_path, keymap.load()) as parts:
        yield parts


def test_panel_beside_the_battle_at_the_smallest_size(table):
    from videopac.table.panel import MIN_PLAY
    t, session, window, machine, _ = table
    assert window.get_size() == (720 + MIN_PLAY[0], 486)          # scale 2 picture + the panel
    assert window.picture.x == 0 and window.picture.scale_x == 2  # the picture keeps its place
    t.panel.refresh()
    text = check_layout(t.panel, (720, 0, 720 + MIN_PLAY[0], 486))
    for expected in ("War for India: Carla (red) attacks, Anna (blue) defends",
                     "Console keys: Carla (red): R P/S/T 2500", "Anna: United States, chips 2000, PBR 6",
                     "F9 book it · PgDn other choice · F10 swap controllers · End undo it · F4 hide"):
        assert expected in text
    shown_labels = {lbl.text for lbl in t.panel.labels}
    assert {"CanA", "USA*", "WGB", "Afg"} <= shown_labels, " | ".join(sorted(shown_labels))   # the small board, with letters
    # the picture is still drawn pixel-exact beside the panel
    machine.run_frame()
    window.show(machine.frame)
    shown = window.read_pixels()
    from o2em_core import palette
    assert np.array_equal(shown[:, :720], palette.to_rgb(machine.frame).repeat(2, 0).repeat(2, 1))
    from videopac.table.panel import BACKGROUND
    assert shown.shape == (486, 720 + MIN_PLAY[0], 3)
    assert tuple(shown[-2, 720 + 2]) == BACKGROUND[:3]             # the panel is drawn beside it


REMAPPED = """# a player's keymap: the ledger keys moved, the ledger toggled by two keys
[controls]
F1 = "help"
INSERT = "confirm"
PAGEUP = "next-choice"
F9 = "swap-sides"
HOME = "undo"
F4 = "ledger"
F3 = "ledger"
"""


def test_the_panels_key_line_names_the_keys_of_the_players_keymap_in_english_and_german(xvfb, tmp_path):
    from pyglet.window import key
    from videopac.table.panel import MIN_PLAY
    path = tmp_path / "keymap.toml"
    path.write_text(REMAPPED)
    with playing_table(tmp_path, keymap.load(path)) as (t, session, window, machine, on_frame):
        t.panel.refresh()
        text = check_layout(t.panel, (720, 0, 720 + MIN_PLAY[0], 486))
        assert "Ins book it · PgUp other choice · F9 swap controllers · Home undo it · F4/F3 hide" in text
        assert "F10" not in text and "PgDn" not in text and "End undo" not in text
        i18n.set_language("de")
        t.panel.layout(*t.panel.rect)                         # laid out again, as the next game would be
        t.panel.refresh()
        text = check_layout(t.panel, (720, 0, 720 + MIN_PLAY[0], 486))
        assert ("Einfg buchen · Bild↑ andere Wahl · F9 Handsteuerungen tauschen · Pos1 zurücknehmen · "
                "F4/F3 ausblenden") in text
        i18n.set_language("en")
        session.key_press(key.INSERT)                         # the key the line names books
        assert session.current_message() == "nothing to book yet"
        session.key_press(key.F3)
        assert not t.panel.visible and session.current_message() == "ledger hidden"


def test_f4_hides_and_shows_the_panel_and_f9_books_the_proposal(table):
    from pyglet.window import key
    t, session, window, machine, on_frame = table
    width = window.get_size()[0]
    session.key_press(key.F4)
    session.key_release(key.F4)
    # the window asks to shrink (Xvfb has no window manager to carry that out)
    assert not t.panel.visible and window.picture.x == (window.get_size()[0] - 720) // 2
    assert session.current_message() == "ledger hidden"
    session.control("ledger")
    assert t.panel.visible and window.picture.x == 0 and t.panel.rect[0] == width - window.panel_width
    session.control("confirm")
    assert session.current_message() == "nothing to book yet"

    def frames(n):
        for _ in range(n):
            machine.run_frame()
            on_frame()

    def keys(*names):
        for name in names:
            machine.press(name)
            frames(2)
            machine.release(name)
            frames(2)
    keys("SPACE")
    machine.cart.script("blue", 10, {"red": 0, "blue": 900})      # Carla's energy runs out
    keys("R", "P", "2", "5", "0", "0", "B", "T", "2", "5", "0", "0", "ENTER")
    frames(15)
    assert t.bridge.proposal == ["battle P T Anna", "war Anna 0"]
    t.panel.refresh()
    assert "To book: battle P T Anna | war Anna 0" in " ".join(lbl.text for lbl in t.panel.labels)
    session.key_press(key.F9)
    assert session.current_message() == "booked: war Anna 0"
    assert report.status(t.game.state)["turn"]["attacker"] == "Anna"
    from board_ledger.store import Store
    again = Store(t.store.path)
    assert [e.verb for e in again.load()[1].events[-2:]] == ["battle", "war"]   # on disk
    again.close()
    session.key_press(key.END)                                    # a correction is an undo
    assert t.game.events[-1].verb == "undo"


def test_actions_booked_by_another_process_reach_the_battle_and_the_window(table, tmp_path):
    """The ledger window and the play window on one game file see each other's bookings."""
    from board_ledger import notation
    from board_ledger.store import Store
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    t, session, window, machine, on_frame = table
    other = Repl(str(t.store.path), out=open(os.devnull, "w"))   # the ledger window's process
    win = LedgerWindow(other, visible=False)
    try:
        win.submit("war Anna 900")                               # typed at the ledger window
        assert t.bridge.contest is not None                      # not seen yet ...
        for _ in range(25):                                      # ... until the next poll
            machine.run_frame()
            on_frame()
        assert t.bridge.contest is None and t.game.state.turn == "Anna"
        t.game.play(notation.parse_line("pass Anna"))            # booked beside the battle
        win.poll()
        assert win.repl.game.state.turn == "Bert" and win.answer == "the game file changed: pass Anna"
        win.submit("attack Bert India")                          # Anna holds it now (rule 15)
        assert win.answer == "refused: rule 15: attacking India costs 6000 and Bert has only 0 in chips"
        win.submit("attack Bert Iran")
        assert win.answer == "ok: attack Bert Iran\nWar for Iran: Bert against Carla."   # and what it did
    finally:
        win.close()
        other.store.close()
    check = Store(t.store.path)
    assert [e.verb for e in check.load()[1].events[-3:]] == ["war", "pass", "attack"]
    check.close()


def test_end_game_and_winner_screen_in_the_panel(xvfb):
    from videopac.table.bridge import Bridge
    from videopac.table.panel import MIN_PLAY, LedgerPanel
    import pyglet
    game = game_of(SMALL_ENDGAME)
    panel = LedgerPanel(game, Bridge(game))
    panel.layout(0, 0, *MIN_PLAY)
    win = pyglet.window.Window(*MIN_PLAY, visible=False)
    panel.refresh()
    text = check_layout(panel, (0, 0) + MIN_PLAY)
    assert "Confrontation (rule 21): Carla – Anna; Carla (red) attacks" in text
    assert "Energy: Carla 250, Anna 300" in text
    assert "Anna keeps 300 → +0.5 (rule 21G)" in text
    assert "PBR order (rule 21B, lowest first): Carla 2.5, Anna 3, Bert 3" in text
    for line in ("battle T P Carla", "battle S T Anna", "survivor Anna 250", "challenge Anna Bert",
                 "battle T T Bert 100 0"):
        from board_ledger import notation
        game.play(notation.parse_line(line))
    panel.bridge.sync()
    panel.refresh()
    text = check_layout(panel, (0, 0) + MIN_PLAY)
    assert "Bert wins with PBR 4 (rule 22)" in text
    win.close()


CHALLENGE = {   # the war view's words (board_ledger/report.py), as the terminal and the phones say them
    "en": ["End game (rule 21): Anna (PBR 3.5) challenges Bert (PBR 3): challenge Anna Bert.",
           "Energies to type (PBR x 100, rule 21C): Anna 350, Bert 300; Bert enters first."],
    "de": ["Endspiel (Regel 21): Anna (PBR 3.5) fordert Bert (PBR 3) heraus: herausfordern Anna Bert.",
           "Einzugebende Energie (PBR x 100, Regel 21C): Anna 350, Bert 300; Bert gibt zuerst ein."],
}


def test_the_next_challenge_is_said_once_in_the_war_views_words_in_english_and_german(xvfb):
    from board_ledger import notation
    from videopac.table.bridge import Bridge
    from videopac.table.panel import MIN_PLAY, LedgerPanel
    import pyglet
    game = game_of(SMALL_ENDGAME)
    for line in ("battle T P Carla", "battle S T Anna", "survivor Anna 250"):
        game.play(notation.parse_line(line))
    panel = LedgerPanel(game, Bridge(game))
    win = pyglet.window.Window(*MIN_PLAY, visible=False)
    try:
        for lang, sentences in CHALLENGE.items():
            i18n.set_language(lang)
            panel.layout(0, 0, *MIN_PLAY)
            panel.refresh()
            check_layout(panel, (0, 0) + MIN_PLAY)
            shown = [label.text for label in panel.labels]
            for sentence in sentences:                   # a label of its own, and only once
                assert shown.count(sentence) == 1 and sum(sentence in t for t in shown) == 1, shown
            assert not any(t.startswith(("Now:", "Jetzt:")) for t in shown)
    finally:
        i18n.set_language("en")
        win.close()


def test_ledger_window_board_clicks_and_typing(xvfb, tmp_path):
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    from videopac.table.panel import MIN_WINDOW
    repl = Repl(str(tmp_path / "g.sqlite"), out=open(os.devnull, "w"))
    for line in SETUP.splitlines():
        repl.handle(line)
    win = LedgerWindow(repl, *MIN_WINDOW, visible=False)
    try:
        assert win.get_size() == MIN_WINDOW
        win.panel.refresh()
        text = check_layout(win.panel, (0, 92, MIN_WINDOW[0], MIN_WINDOW[1]))
        assert "United States 30 A H" in text and "Now: Turn of Carla." in text
        x, y, w, h = win.panel.tiles["India"]
        win.on_mouse_press(x + w // 2, y + h // 2, 1, 0)          # click India
        assert win.offers == ["attack Carla India"]                 # no chips to buy it (rule 9)
        (line, (bx, by, bw, bh)), *_ = [o for o in win.offer_boxes if o[0] == "attack Carla India"]
        win.on_mouse_press(bx + 2, by + 2, 1, 0)                  # click the offer
        assert win.document.text == "attack Carla India"
        from pyglet.window import key
        win.on_key_press(key.RETURN, 0)                           # Enter books it
        assert win.answer.splitlines()[0] == "ok: attack Carla India"
        assert repl.game.state.war.target == "India"
        x, y, w, h = win.panel.tiles["India"]
        win.on_mouse_press(x + 2, y + 2, 1, 0)                    # the war: its result, energy open
        assert win.offers == ["war Carla ", "war Anna "]
        win.submit("war Bert 100")
        assert win.answer.startswith("refused: rule 12") and win.answer_colour[0] == 255
        win.submit("war Anna 900")
        win.panel.refresh()
        text = check_layout(win.panel, (0, 92, MIN_WINDOW[0], MIN_WINDOW[1]))
        assert "Anna: United States, chips 2900, PBR 9" in text
        labels = [lbl for lbl in win.labels if lbl not in win.panel.labels]
        for lbl in labels:                                        # the strip stays on screen
            assert 0 <= lbl.x and lbl.x + lbl.content_width <= MIN_WINDOW[0]
    finally:
        win.close()
        repl.store.close()
    from board_ledger.store import Store
    store = Store(tmp_path / "g.sqlite")
    assert [e.verb for e in store.load()[1].events[-2:]] == ["attack", "war"]   # the same file format
    store.close()


def test_ledger_window_without_a_display_says_so(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    res = subprocess.run([sys.executable, "-m", "videopac", "ledger", "--window", "--db",
                          str(tmp_path / "g.sqlite")], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert res.stderr.startswith("videopac ledger: no display was found")


def test_play_ledger_refuses_a_file_that_is_not_a_game(xvfb, tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("shopping list")
    res = subprocess.run([sys.executable, "-m", "videopac", "play", "--ledger", str(bad)],
                         capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().endswith("is not a ledger game file (not an SQLite database); choose another file")


@pytest.mark.parametrize("room", [0.5, 1.0, 2.0, 4.0])
def test_a_long_paragraph_with_almost_no_room_left_is_left_out_instead_of_hanging_the_panel(xvfb, room):
    """With less room than a few characters, cutting the text short once grew it by a character
    (or kept its length) on every pass, so the panel froze (seen after 154 actions of a game)."""
    import signal
    from videopac.table.panel import MIN_PLAY, TEXT, LedgerPanel
    game = game_of(SMALL_ENDGAME)
    panel = LedgerPanel(game)
    panel.layout(0, 0, *MIN_PLAY)
    import pyglet
    win = pyglet.window.Window(*MIN_PLAY, visible=False)
    panel.refresh()
    long_text = "Anna attacks Bert's homeland; the war chest pays " * 6
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the paragraph block did not end"))
    signal.alarm(20)
    try:
        y = panel._para_block([(long_text, TEXT, 10.0, False)], 0, 100 + room, 300, 100)
    finally:
        signal.alarm(0)
    shown = [label.text for label in panel.labels]
    win.close()
    assert y == 100
    assert not any(text.startswith("Anna attacks") for text in shown)
