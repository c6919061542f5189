"""The application reads the battle program's facts from its symbol file and never restates them
(issue 24): the weapon and phase codes, the ranges, the playfield, the hit boxes and the
battle_result codes are the cartridge's own equ's (cartridge/conquest/vars.inc, battle.a48)."""
from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest

from cartridge.images import builtin_symbols
from videopac.battle import battlefield, computer, pilot
from videopac.battle.balance import RESULTS as WINNERS
from videopac.battle.published import PHASES, RESULTS, WEAPONS, decode, symbol_value

BATTLE = pathlib.Path(__file__).resolve().parents[2] / "videopac" / "battle"


def numeric(node: ast.expr) -> bool:
    """A number, or a tuple, list or dict made of numbers only."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, (ast.Tuple, ast.List)):
        return bool(node.elts) and all(numeric(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(v is not None and numeric(v) for v in node.values)
    return False


def test_no_battle_module_binds_a_cartridge_constant_to_a_number():
    published = {name.rpartition(".")[2] for name in builtin_symbols("conquest")}
    read = set(pilot.CONSTANTS) | {*PHASES.values(), *WEAPONS.values(), *RESULTS.values()}
    assert read <= published                   # the names it reads are all in the symbol file
    # the names the restated copies had (the boxes in steps), besides the symbol file's own
    names = published | {"HIT_BOX", "BLAST_BOX", "RESULTS"}
    restated = []
    for path in sorted(BATTLE.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                    and numeric(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and name.id in names:
                            restated.append(f"{path.name}: {name.id}")
    assert restated == []


def shifted(symbols: dict[str, int]) -> dict[str, int]:
    """The symbol file of a program whose playfield, boxes and result codes differ."""
    changed = dict(symbols, FIELD_X=16, FIELD_Y=40, FIELD_W=128, FIELD_H=160, HIT_DX=6, HIT_DY=10,
                   BLAST_DX=20, BLAST_DY=30)
    changed.update(RES_RUNNING=9, RES_RED_WON=3, RES_BLUE_WON=0, RES_BOTH=1)
    return changed


def test_the_computer_plays_by_the_symbol_files_field_and_boxes():
    player = computer.Computer(0, "standard", shifted(builtin_symbols("conquest")))
    assert player.field == (16, 20, 128, 80)                  # Y and height: lines / 2 = steps
    assert (player.hit_box, player.blast_box, player.running) == ((6, 5), (20, 15), 9)
    grid = battlefield.terrain(np.full((313, 400), 3, np.uint8), player.field)
    outside = grid == battlefield.OUT
    assert not outside[20:100, 16:144].any() and outside.sum() == grid.size - 80 * 128


def test_the_result_codes_are_read_from_the_symbol_file():
    symbols = shifted(builtin_symbols("conquest"))
    iram = np.zeros(256, np.uint8)
    for code, name in ((9, "running"), (3, "red won"), (0, "blue won"), (1, "both destroyed")):
        iram[symbols["battle_result"]] = code
        battle = decode(iram, symbols)
        assert battle is not None and battle["battle_result"] == name
    assert set(WINNERS.values()) <= set(RESULTS.values())


@pytest.mark.parametrize("name", ["FIELD_H", "HIT_DX", "BLAST_DY", "RES_RUNNING"])
def test_a_symbol_file_without_a_constant_is_refused(name):
    symbols = {k: v for k, v in builtin_symbols("conquest").items() if k.rpartition(".")[2] != name}
    assert symbol_value(symbols, name) is None
    with pytest.raises(computer.ComputerSpecError, match="publishes no battle symbols"):
        computer.players(["red"], symbols)


def test_the_dump_leaves_out_a_symbol_file_without_result_codes():
    symbols = {k: v for k, v in builtin_symbols("conquest").items() if k != "RES_BOTH"}
    assert decode(np.zeros(256, np.uint8), symbols) is None
