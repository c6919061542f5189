"""Screenshots of the ledger at the table into docs/screens/ (for docs/table.md and the README):
`videopac play --ledger` with the panel beside the battle (program entry of a war, the proposal
the end of a war, an end-game confrontation, the winner) and `videopac ledger --window` with
a country clicked, during a war and with a long answer. Runs the built-in BIOS and battle
cartridge under a virtual X display; the war of the proposal is fought by two standard
computer opponents (videopac/battle/computer.py, seeded), the other battles are scripted (keys
typed, units placed through the cartridge's symbols and worn down to their last hit, fire
held). ``--lang de`` writes the German pictures (NAME-de.png).

    python tools/table_screens.py [--out docs/screens] [--lang en|de]
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.xvfb import virtual_display  # noqa: E402  (after the path is set)

GAME = """
players Anna Bert Carla
draw 4 7 1 reading 1283
homeland Anna "United States"
homeland Bert "West Germany"
homeland Carla USSR
allies Anna Canada Mexico
allies Bert Spain Italy Greece
allies Carla -
attack Carla India
"""
ENDGAME = (ROOT / "examples/small-board-endgame.txt").read_text() + "battle T P Carla\n"
WINNER = """
battle S T Anna
survivor Anna 250
challenge Anna Bert
battle T T Bert 100 0
"""
RIGHT, LEFT = 0, 4


WAR_SEED = 1                 # the computers' choices in the war of the proposal


def cell(c: int, r: int) -> tuple[int, int]:
    """Sprite position of a unit in grid cell (column, row) of the battle maps."""
    return 12 + 16 * c, 28 + 24 * r


class Scene:
    """The play window with the ledger panel, on the built-in console, driven frame by frame."""

    def __init__(self, db: pathlib.Path, notation_text: str):
        from board_ledger import notation
        from board_ledger.store import Store
        from cartridge.images import builtin_image
        from o2em_core import Machine
        from videopac.console import keymap
        from videopac.console.session import Session
        from videopac.console.window import PlayWindow
        from videopac.table.wiring import open_table
        store = Store(db)
        _, game = store.load()
        for line in notation_text.strip().splitlines():
            event = notation.parse_line(line)
            if event is not None:
                game.play(event)
        store.close()
        self.table = open_table(str(db), None)
        self.m = Machine(builtin_image("bios"), builtin_image("conquest"), region="pal")
        self.session = Session(self.m, keymap.load(), "conquest")
        self.window = PlayWindow(self.session, "pal", scale=2, side=self.table.side(720))
        self.on_frame = self.table.attach(self.session, self.window)
        self.frames(10)

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.m.run_frame()
            self.on_frame()

    def keys(self, *names: str) -> None:
        from o2em_core.keyboard import tap
        tap(self.m, *names, run_frame=lambda: self.frames(1))

    def place(self, side: int, x: int, y: int, direction: int) -> None:
        s = self.table.symbols
        base = s["U_BASE"] + 16 * side
        for field, value in (("U_X", x), ("U_Y", y), ("U_DIR", direction)):
            self.m.xram[base + s[field]] = value

    def wear(self) -> None:
        """Both units down to their last hit (docs/conquest.md "Battles of manoeuvre")."""
        s = self.table.symbols
        armour = {1: s["ARMOUR_PLANE"], 2: s["ARMOUR_SUB"], 3: s["ARMOUR_TANK"]}
        for weapon, hits in (("weapon_red", "HIT_RED"), ("weapon_blue", "HIT_BLUE")):
            self.m.xram[s[hits]] = armour[int(self.m.iram[s[weapon]])] - 1

    def computer_battle(self, keys: str, seed: int) -> int:
        """Type the weapons, ENTER, and let two standard computers fight: the battle_result."""
        from videopac.battle.computer import Computer
        self.keys(*keys.split(), "ENTER")
        s = self.table.symbols
        players = [Computer(side, "standard", s, seed=seed) for side in (0, 1)]
        for _ in range(50 * 300):
            if self.m.iram[s["battle_result"]]:
                break
            for player in players:
                player.step(self.m)
            self.frames(1)
        self.m.set_joystick(0)
        self.m.set_joystick(1)
        self.frames(80)
        return int(self.m.iram[s["battle_result"]])

    def battle(self, keys: str, placing: dict, shooter: int | None) -> None:
        self.keys(*keys.split(), "ENTER")
        self.frames(3)
        self.wear()
        for side, where in placing.items():
            self.place(side, *where)
        if shooter is not None:
            self.m.set_joystick(shooter, fire=True)
        self.frames(60)
        self.m.set_joystick(0)
        self.m.set_joystick(1)
        self.frames(80)

    def save(self, path: pathlib.Path) -> None:
        from o2em_core import palette
        self.window.show(self.m.frame)
        path.write_bytes(palette.to_png(self.window.read_pixels()))
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)

    def close(self) -> None:
        self.window.close()
        self.table.close()


def _window_shot(window, path: pathlib.Path) -> None:
    import numpy as np
    import pyglet
    from o2em_core import palette
    window.switch_to()
    window.on_draw()
    image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    rgb = np.frombuffer(image.get_data("RGB", image.width * 3), np.uint8).reshape(image.height, image.width, 3)
    path.write_bytes(palette.to_png(rgb[::-1]))
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def ledger_window(out: pathlib.Path, db: pathlib.Path, suffix: str) -> None:
    """The ledger-only window: India clicked and its action taken onto the input line; a war
    after two battles (what the last one did, the war view); the help shown whole."""
    from videopac.books.terminal import Repl
    from videopac.table.ledger_window import LedgerWindow
    repl = Repl(str(db), out=open(os.devnull, "w"))
    for line in GAME.strip().splitlines()[:-1]:
        repl.handle(line)
    window = LedgerWindow(repl, 1200, 760)
    window.panel.refresh()
    x, y, w, h = window.panel.tiles["India"]
    window.on_mouse_press(x + 2, y + 2, 1, 0)
    window.on_mouse_press(window.offer_boxes[0][1][0] + 2, window.offer_boxes[0][1][1] + 2, 1, 0)
    _window_shot(window, out / f"ledger-window{suffix}.png")
    window.document.text = ""
    for line in ("attack Carla India", "battle T P Carla 2100 1400"):
        window.submit(line)
    window.submit("battle S S draw 1800 1100")
    _window_shot(window, out / f"ledger-window-war{suffix}.png")
    window.submit("help")
    _window_shot(window, out / f"ledger-window-help{suffix}.png")
    window.close()
    repl.store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "screens")
    ap.add_argument("--lang", choices=("en", "de"), default="en")
    args = ap.parse_args()
    import i18n
    i18n.set_language(args.lang)
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    args.out.mkdir(parents=True, exist_ok=True)
    with virtual_display(), tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_DATA_HOME"] = tmp
        import pyglet
        pyglet.options["shadow_window"] = False
        pyglet.options["audio"] = ("silent",)
        tmp = pathlib.Path(tmp)

        war = Scene(tmp / "war.sqlite", GAME)
        war.keys("SPACE", "R", "T", "2", "5", "0", "0", "B", "P", "2", "5", "0", "0")
        war.save(args.out / f"table-entry{suffix}.png")
        wins = [0, 0]                          # rule 12: two won battles of three
        for n, weapons in enumerate(("", "R P B T", "R S B S")):
            if n:
                war.keys("SPACE")
            result = war.computer_battle(weapons, seed=WAR_SEED + n)
            if result in (1, 2):
                wins[result - 1] += 1
            if max(wins) == 2:
                break
        war.save(args.out / f"table-proposal{suffix}.png")
        war.session.control("confirm")
        war.save(args.out / f"table-booked{suffix}.png")
        war.close()

        end = Scene(tmp / "end.sqlite", ENDGAME)
        end.keys("SPACE", "R", "S", "0", "3", "0", "0", "B", "T", "0", "2", "5", "0")
        end.save(args.out / f"table-endgame{suffix}.png")
        end.close()

        over = Scene(tmp / "over.sqlite", ENDGAME + WINNER)
        over.save(args.out / f"table-winner{suffix}.png")
        over.close()

        ledger_window(args.out, tmp / "window.sqlite", suffix)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
