"""Two computer generals fight a war on the battle program beside the ledger, as `play --ledger`
shows it (videopac/table/generals.py): from SELECT GAME each types its side at program entry,
ENTER, the computer battle opponents fight, SPACE brings the next battle, and the bridge's
proposal is booked after the pause, nobody pressing a key."""
from __future__ import annotations

import pytest

from board_ledger import notation
from board_ledger.store import Store
from tests.ledger.ledger_helpers import SMALL_BOARD
from videopac.battle.balance import BattleBench
from videopac.table.bridge import Bridge, read
from videopac.table.generals import Generals

pytestmark = pytest.mark.slow


def test_two_generals_fight_a_war_on_the_cartridge_and_book_it(tmp_path):
    store = Store(str(tmp_path / "g.sqlite"))
    gid, game = store.load()
    for line in ("players cpu:hard:Anna cpu:easy:Bert", "start Anna", "homeland Anna Canada",
                 "homeland Bert Mexico", "allies Anna -", "allies Bert -", "attack Bert India"):
        game.play(notation.parse_line(line))
    bench = BattleBench("pal")
    bridge = Bridge(game)
    generals = Generals(game, store, gid, bridge, bench.symbols, pause=0.1, fps=bench.machine.fps)
    booked: list[str] = []
    for _frame in range(60 * 60 * 50):              # a guard: an hour of play at most
        bench.machine.run_frame()
        snap = read(bench.machine, bench.symbols)
        assert snap is not None
        bridge.observe(snap)
        booked += generals.frame(bench.machine, snap)
        if game.state.war is None:
            break
    assert game.state.war is None, "the war was not booked"
    assert booked[-1].startswith("war "), booked
    assert all(line.startswith("battle ") for line in booked[:-1]) and len(booked) >= 3
    store.close()


SMALL = SMALL_BOARD + """4,1,Fjordland,6
4,2,Gondwana,5
"""


def test_a_whole_four_player_game_with_every_battle_on_the_cartridge_ends_and_replays():
    """Issue 27's evidence: four generals, every battle fought headless on the battle program
    (videopac/battle/headless.py), a winner, and the notation replays to the same state. On a
    board of eight countries, so that the end game's many battles stay few."""
    from board_ledger.board import parse_board
    from board_ledger.computer_game import play_game
    from videopac.battle import headless

    run = play_game(5, ["hard", "easy", "standard", "random"], headless.fight,
                    board=parse_board(SMALL, "small.csv"))
    assert run.ending in ("rule 22", "rule 19") and run.winner is not None
    assert run.replayed and run.battles > 0
    assert run.text.splitlines()[1] == "players cpu:hard:Anna cpu:easy:Bert cpu:Carla cpu:random:Dora"
