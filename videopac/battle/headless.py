"""A computer general's battle fought headless on the battle program (docs/generals.md): from
power-on, each side's weapon and energy typed at program entry as docs/conquest.md says, the
attacker red and the defender blue, each side played by the computer opponent at its general's
level; the result is what the cartridge publishes when a unit is destroyed."""
from __future__ import annotations

import random

from board_ledger import general
from videopac.battle.balance import BattleBench
from videopac.battle.published import decode

CARTRIDGE_MAX_ENERGY = 9999      # four digits at program entry (docs/conquest.md)
SECONDS_PER_BATTLE = 600         # a limit, never reached by two computers
WINNER = {"red": "attacker", "blue": "defender"}


def fight(levels: tuple[str, str], weapons: tuple[str, str], energies: tuple[int, int],
          seed: int) -> tuple[str, tuple[int, int]]:
    """One battle: ("attacker" | "defender" | "" when both were destroyed, the energies left)."""
    from o2em_core.keyboard import tap               # lazy: numba only where a battle is fought
    from videopac.battle.computer import Computer

    console = BattleBench("pal")
    rng = random.Random(seed)
    console.run(3 + rng.randrange(60))               # the cartridge's random choices differ
    tap(console.machine, "SPACE")
    console.run(3)
    for side, weapon, energy in zip("RB", weapons, energies):
        tap(console.machine, side, weapon, *f"{min(energy, CARTRIDGE_MAX_ENERGY):04d}")
    tap(console.machine, "ENTER")
    console.run(3)
    players = [Computer(side, general.BATTLE_LEVEL.get(level, "standard"), console.symbols,
                        seed=seed + side) for side, level in enumerate(levels)]
    result, _seconds = console.fight(players, limit=int(SECONDS_PER_BATTLE * console.machine.fps))
    decoded = decode(console.machine.iram, console.symbols)
    assert decoded is not None                       # the built-in battle program publishes it
    left = (min(decoded["energy_red"], energies[0]), min(decoded["energy_blue"], energies[1]))
    return WINNER.get(result, ""), left
