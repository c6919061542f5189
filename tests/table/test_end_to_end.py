"""End to end: a scripted ledger game, and a war of three battles fought on our battle cartridge
in the emulator (headless, joysticks scripted, units placed through the cartridge's symbols as
tests/cartridge does, worn down to their last hit), followed by the bridge; the players confirm and the ledger books it."""
from board_ledger import report
from tests.cartridge.conftest import Game as Console
from tests.cartridge.test_conquest import LEFT, RIGHT, cell
from tests.table.table_driver import Table, game_of
from tests.table.test_bridge import SETUP, players

def fight(table: Table, console: Console, weapons: dict, placing, shooter: int | None, energies=None):
    """Program entry for both fighters, ENTER, units placed, the shooter fires until it ends."""
    table.program(weapons, energies)
    table.frames(3)
    assert table.bridge.notes == []
    for side, (x, y, d) in placing.items():
        console.place(side, x, y, d)
        console.wear(side)                                # one hit ends it: units are armoured
    if shooter is not None:
        console.stick(shooter, fire=True)
    for _ in range(60):
        table.frames(5)
        if console.battle["phase"] == "result":
            break
    console.stick(0)
    console.stick(1)
    result = console.battle
    table.frames(60)                                      # explosion, flags, fireworks
    table.tap("SPACE")                                    # back to program entry
    return result


def test_a_war_of_three_battles_on_the_cartridge_is_proposed_and_booked():
    console = Console()
    table = Table(console.m, console.s, game_of(SETUP + "attack Carla India\n"))
    bridge = table.bridge
    table.tap("SPACE")                                    # SELECT GAME -> program entry
    assert bridge.colour == {"Carla": "red", "Anna": "blue"}

    # 1: Carla's tank shoots Anna's plane
    r1 = fight(table, console, {"Carla": "T", "Anna": "P"},
               {0: (*cell(7, 2), RIGHT), 1: (*cell(9, 2), LEFT)}, 0, {"Carla": 2500, "Anna": 2500})
    assert r1["battle_result"] == "red won"
    # 2: Anna's tank shoots Carla's plane (Anna's plane is gone: rule 12F)
    r2 = fight(table, console, {"Carla": "P", "Anna": "T"},
               {0: (*cell(7, 2), RIGHT), 1: (*cell(9, 2), LEFT)}, 1)
    assert r2["battle_result"] == "blue won"
    assert bridge.proposal == []                          # 1-1
    # 3: Carla launches a missile (it costs energy) as the two submarines collide: both are
    # destroyed, a draw (rule 12B)
    r3 = fight(table, console, {"Carla": "S", "Anna": "S"},
               {0: (*cell(4, 0), RIGHT), 1: (cell(4, 0)[0] + 4, cell(4, 0)[1] + 4, LEFT)}, 0)
    assert r3["battle_result"] == "both destroyed"

    left = {"Carla": r3["energy_red"], "Anna": r3["energy_blue"]}
    assert left["Carla"] != left["Anna"] and 0 < min(left.values())
    winner = max(left, key=left.get)                      # rule 12C: 1-1 and a draw: more energy wins
    loser = "Anna" if winner == "Carla" else "Carla"
    assert (winner, loser) == ("Anna", "Carla")           # Carla's missile cost her the war
    assert [s.counted for s in bridge.seen] == [True, True, True]
    assert bridge.proposal == ["battle T P Carla", "battle P T Anna", "battle S S draw",
                               f"war {winner} {left[loser]}"]
    before = players(table.game)
    assert len(table.game.events) == 9                    # nothing booked before the confirmation
    bridge.confirm()
    after = players(table.game)
    prize = (left[loser] + 50) // 100 * 100               # rule 13A/14A: nearest hundred
    assert after[winner]["chips"] == before[winner]["chips"] + prize
    # rule 14: the defender wins an unoccupied country: India becomes her ally (6 -> PBR +3),
    # and the turn passes to the attacker's left (rule 14D): Anna
    assert after["Anna"]["allied"][-1] == "India" and after["Anna"]["pbr"] == before["Anna"]["pbr"] + 3
    assert after["Carla"] == before["Carla"]
    assert report.status(table.game.state)["turn"] == {"attacker": "Anna", "defender": None, "target": None}
    print(bridge.booked)
