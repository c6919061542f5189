"""A table at play: a machine running a battle program, a ledger game, and the bridge watching
every frame. The players' hands are ``tap`` (console keys) and the bridge's confirmation."""
from __future__ import annotations

from board_ledger.game import Game
from o2em_core.keyboard import tap
from tests.ledger.ledger_helpers import play as game_of  # noqa: F401  (the tests' way to play notation)
from videopac.table.bridge import KEY_OF, Bridge, read


class Table:
    def __init__(self, machine, symbols: dict[str, int], game: Game):
        self.machine, self.symbols, self.game = machine, symbols, game
        self.bridge = Bridge(game)
        self.frames(1)

    def frames(self, n: int) -> None:
        for _ in range(n):
            self.machine.run_frame()
            self.bridge.observe(read(self.machine, self.symbols))

    def tap(self, *keys: str, hold: int = 3) -> None:
        tap(self.machine, *keys, frames=hold, run_frame=lambda: self.frames(1))

    def program(self, weapons: dict[str, str], energies: dict[str, int] | None = None) -> None:
        """Each fighter selects his controller, his weapon and (in a new war) his energy; ENTER."""
        for name, weapon in weapons.items():
            keys = [KEY_OF[self.bridge.colour[name]], weapon]
            if energies:
                keys += list(f"{energies[name]}")
            self.tap(*keys)
        self.tap("ENTER")
