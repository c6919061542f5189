"""The battle program, scripted through the Machine API (docs/battle-program.md)."""
from __future__ import annotations

import sys

import pytest

from tests.cartridge.conftest import CART, SYMBOLS, Game
from videopac.battle.published import symbol_value


def cell(c: int, r: int) -> tuple[int, int]:
    """Sprite position of a unit standing in grid cell (column, row)."""
    return 12 + 16 * c, 28 + 24 * r


RIGHT, UP, LEFT, DOWN = 0, 2, 4, 6


# ---- build -------------------------------------------------------------------------------------
def test_shipped_image_is_built_from_the_sources():
    sys.path.insert(0, str(CART.parents[2] / "tools"))
    import build_roms

    data, symbols = build_roms.build("conquest")
    assert data == CART.read_bytes()
    assert len(data) == 8192
    for name in ("phase", "weapon_red", "weapon_blue", "energy_red", "energy_blue",
                 "battle_result", "tally_red", "tally_blue", "counter_reading"):
        assert name in symbols


# ---- program entry -------------------------------------------------------------------------------
def test_entering_a_program(game):
    game.key("SPACE")
    game.run(3)
    assert game.battle["phase"] == "entry"
    game.type("R", "S", "2", "5", "0", "0", "B", "T", "1", "2", "3", "4", "5")
    b = game.battle
    assert (b["weapon_red"], b["energy_red"]) == ("submarine", 2500)
    assert (b["weapon_blue"], b["energy_blue"]) == ("tank", 2345)   # digits shift in from the right
    game.type("CLEAR")
    assert (game.battle["weapon_blue"], game.battle["energy_blue"]) == ("none", 0)
    assert (game.battle["weapon_red"], game.battle["energy_red"]) == ("submarine", 2500)


@pytest.mark.parametrize("program", [("P", 100, "", 100), ("P", 100, "T", 0), ("", 0, "", 0)])
def test_enter_is_refused_without_weapon_or_energy(game, program):
    red, red_e, blue, blue_e = program
    game.key("SPACE")
    game.run(3)
    if red:
        game.type("R", red, *str(red_e))
    game.type("B", *([blue] if blue else []), *(str(blue_e) if blue_e else ""))
    game.m.press("ENTER")
    game.run(3)
    assert game.sound_on()                                         # the error tone
    game.m.release("ENTER")
    game.run(30)
    assert game.battle["phase"] == "entry"


# ---- every pairing -------------------------------------------------------------------------------
# the terrain kind of each pairing: 0 land, 1 sea, 2 coast with the land left, 3 right; mapid is
# 2 * kind + the map of that kind (docs/conquest.md "The maps")
KINDS = {"PP": 0, "PS": 1, "PT": 0, "SP": 1, "SS": 1, "ST": 3, "TP": 0, "TS": 2, "TT": 0}
PAIRS = sorted(KINDS)


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("pair", PAIRS)
def test_every_weapon_pairing_starts_on_a_fitting_map(game, pair, variant):
    game.start(pair[0], pair[1], 300, 300, variant=variant)
    game.run(20)
    b = game.battle
    names = {"P": "plane", "S": "submarine", "T": "tank"}
    assert (b["weapon_red"], b["weapon_blue"]) == (names[pair[0]], names[pair[1]])
    assert b["battle_result"] == "running"
    assert game.iram("mapid") == 2 * KINDS[pair] + variant
    assert game.unit(0, "U_DEAD") == game.unit(1, "U_DEAD") == 0
    assert b["energy_red"] < 300 and b["energy_blue"] < 300          # the energies run down
    # the land is drawn: brown grid blocks and blue water both on screen
    colours = set(game.m.frame[30:210, 30:340].ravel().tolist())
    assert len(colours) >= 3


def test_the_map_is_picked_at_random_for_each_battle(game):
    seen = set()
    for _ in range(12):
        game.start("T", "T", 300, 300, variant=None)
        seen.add(game.iram("mapid"))
        game.set_energy(0, 1)
        game.run(5)
        game.key("SPACE")
        game.run(3)
    assert seen == {0, 1}


@pytest.mark.parametrize("region", ["pal", "ntsc"])
@pytest.mark.parametrize("variant", [0, 1])
def test_fair_start_nobody_is_lost_in_the_first_five_seconds(region, variant):
    for pair in PAIRS:
        g = Game(region)
        g.start(pair[0], pair[1], variant=variant)
        g.run(round(5 * g.m.fps))
        assert g.battle["battle_result"] == "running", pair
        assert g.unit(0, "U_DEAD") == g.unit(1, "U_DEAD") == 0, pair


# ---- visible fights (docs/conquest.md "Visible fights") ----------------------------------------------
LIGHT_YELLOW = 11                           # palette index of sprite colour yellow (docs/hardware.md §8.3)


def yellow_around(game, x: int, y: int, half_w: int, half_h: int) -> int:
    """Light-yellow pixels in the frame within half_w units and half_h lines of object point x, y
    (screen pixel clock = 2 (X + 5), docs/hardware.md §8.1)."""
    px = 2 * (x + 5)
    area = game.m.frame[max(0, y - half_h):y + half_h, max(0, px - 2 * half_w):px + 2 * half_w]
    return int((area == LIGHT_YELLOW).sum())


# ---- ways to be destroyed ---------------------------------------------------------------------------
def test_energy_out_destroys_the_unit(game):
    game.start("T", "T", 2, 500)
    game.run(30)
    b = game.battle
    assert b["energy_red"] == 0
    assert b["battle_result"] == "blue won"
    assert b["phase"] == "result"


@pytest.mark.parametrize("pair, red_cell, blue_cell, frames", [
    ("TT", (7, 2), (9, 2), 40),             # a tank shell hits a tank
    ("TP", (7, 2), (9, 2), 20),             # ... and a plane
    ("PP", (3, 3), (6, 3), 20),             # the plane's shot hits a plane
    ("PT", (3, 2), (6, 2), 30),             # ... and a tank
])
def test_shots_hit_the_enemy(game, pair, red_cell, blue_cell, frames):
    game.start(pair[0], pair[1])
    game.place(0, *cell(*red_cell), RIGHT)
    game.place(1, *cell(*blue_cell), LEFT)
    game.stick(0, fire=True)
    game.run(frames)
    assert game.battle["battle_result"] == "red won"
    assert game.battle["energy_red"] < 2500 - 5             # the shot cost 5


def test_tank_drives_onto_a_mine(game):
    game.start("T", "T")
    x, y = cell(2, 2)                       # the mine is in cell (3, 2)
    game.place(0, x, y, RIGHT)
    game.stick(0, right=True)
    game.run(60)
    assert game.battle["battle_result"] == "blue won"
    assert game.unit(0, "U_X") > x


@pytest.mark.parametrize("start, variant", [
    ((2, 4), 0),                            # water from column 3 in row 4
    ((0, 6), 0),                            # the pyramid's base from X 28 in row 6
    ((5, 1), 1),                            # map 1: the mountain is in cell (6, 1)
], ids=["water", "pyramid", "mountain"])
def test_tank_is_stopped_by(game, start, variant):
    game.start("T", "T", variant=variant)
    x, y = cell(*start)
    game.place(0, x, y, RIGHT)
    game.stick(0, right=True)
    game.run(100)
    assert game.battle["battle_result"] == "running"
    assert game.unit(0, "U_X") < x + 16


def test_tank_is_slower_among_trees(game):
    # half speed while the tank's centre is on a drawn tree (the glyph, not the whole cell)
    game.start("T", "T")
    game.place(0, *cell(8, 2), LEFT)        # open land in row 2 from column 8 to 4
    game.stick(0, left=True)
    game.run(25)
    open_land = cell(8, 2)[0] - game.unit(0, "U_X")
    game.stick(0)
    x = cell(2, 1)[0] + 3                   # centre on the right edge of the tree in cell (2, 1)
    game.place(0, x, cell(2, 1)[1], LEFT)
    game.stick(0, left=True)
    game.run(25)
    among_trees = x - game.unit(0, "U_X")
    assert 0 < among_trees < 8              # still on the tree glyph
    assert abs(open_land - 2 * among_trees) <= 2


def test_plane_crashes_into_a_tree(game):
    game.start("P", "P")
    game.place(0, *cell(0, 1), RIGHT)       # trees in cells (1,1) and (2,1)
    game.run(60)
    assert game.battle["battle_result"] == "blue won"


def test_plane_crashes_into_a_mountain(game):
    game.start("P", "P", variant=1)
    game.place(1, *cell(7, 1), LEFT)        # map 1: the mountain is in cell (6, 1)
    game.run(80)
    assert game.battle["battle_result"] == "red won"


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("centre_y, crashes", [
    (180, True),                            # the base: lines 172-185, X 28-59
    (165, True),                            # the apex: lines 158-171, X 36-51
    (155, False),                           # above the apex: free sky
], ids=["base", "apex", "above"])
def test_plane_crashes_into_the_drawn_pyramid(game, variant, centre_y, crashes):
    game.start("P", "P", variant=variant)
    game.place(1, cell(5, 6)[0], centre_y - 8, LEFT)
    game.run(60)                            # 48 steps/s: from centre X 96 to 48, over the apex
    assert game.battle["battle_result"] == ("red won" if crashes else "running")


def test_plane_wraps_around_the_screen(game):
    game.start("P", "P", 2500, 2500)
    game.place(0, *cell(0, 3), LEFT)
    game.place(1, *cell(9, 7), RIGHT)       # blue flies along the bottom row, out of the way
    xs = []
    for _ in range(150):
        game.run(1)
        xs.append(game.unit(0, "U_X"))
    wrap = next(i for i in range(1, len(xs)) if xs[i] > xs[i - 1] + 100)
    assert xs[wrap] > 240                   # off the left edge: coordinates wrap
    assert any(x < 168 for x in xs[wrap:])  # and it comes back from the right
    assert game.battle["battle_result"] == "running"


def test_plane_steers_off_screen(game):
    game.start("P", "P")
    game.place(0, 220, cell(0, 3)[1], LEFT)     # off screen beyond the left edge
    game.stick(0, up=True)
    game.run(5)
    assert game.unit(0, "U_DIR") == UP
    assert game.unit(0, "U_Y") < cell(0, 3)[1]


def test_plane_sharp_turn_and_blinking_autopilot(game):
    game.start("P", "P")
    game.place(0, *cell(4, 2), RIGHT)
    game.stick(0, down=True)
    game.run(2)
    assert game.unit(0, "U_DIR") == DOWN                       # one direction: at once
    game.place(0, *cell(4, 2), RIGHT)
    game.stick(0, up=True, left=True)
    shown = []
    x0 = game.unit(0, "U_X")
    for _ in range(16):
        game.run(1)
        shown.append(game.unit(0, "U_VIS"))
    assert 0 in shown and 1 in shown                           # it blinks
    assert game.unit(0, "U_DIR") in (1, 2)                     # turning gently towards 3
    game.run(40)
    assert game.unit(0, "U_DIR") == 3


# ---- the submarine ----------------------------------------------------------------------------------
def test_submarine_hidden_when_moving_periscope_when_centred(game):
    game.start("S", "S")
    game.set_iram("ping_time", 100)                        # no ping now
    game.stick(0, right=True)
    game.run(10)
    assert game.unit(0, "U_VIS") == 0
    assert game.m.vdc_regs[0x00] > 0xF0 or game.m.xram[0] > 0xF0   # sprite parked
    game.stick(0)
    game.run(3)
    assert game.unit(0, "U_VIS") == 1


def test_sonar_ping_forces_the_periscope(game):
    game.start("S", "S")
    game.set_iram("ping_time", 2)
    game.stick(0, right=True)
    game.run(6)
    assert game.unit(0, "U_VIS") == 1
    assert game.sound_on()


def test_submarines_colliding_both_explode(game):
    game.start("S", "S")
    game.place(0, *cell(4, 0))
    game.place(1, cell(4, 0)[0] + 4, cell(4, 0)[1] + 4)
    game.run(3)
    assert game.battle["battle_result"] == "both destroyed"
    x = game.m.xram                                     # each explodes in its own colour
    assert x[2] & 0x38 == game.s["S_RED"] and x[6] & 0x38 == game.s["S_BLUE"]


def launch(game, side=0):
    game.stick(side, fire=True)
    game.run(2)
    assert game.unit(side, "S_LEFT") > 0
    assert game.unit(side, "S_DIR") == UP               # straight up


def test_missile_detonates_on_release_and_costs_energy(game):
    game.start("S", "T")
    game.place(0, *cell(5, 4))
    game.place(1, *cell(5, 1))                          # blue tank on land? row 1 col 5 is land
    before = game.battle["energy_red"]
    launch(game)
    game.run(10)
    game.stick(0)                                       # release: it detonates
    game.run(2)
    assert game.unit(0, "S_LEFT") == 0
    assert before - game.battle["energy_red"] > 5       # missile flight costs much energy


def test_missile_hits_the_target(game):
    game.start("S", "S")
    game.place(0, *cell(5, 5))                          # open water in column 5
    game.place(1, *cell(5, 1))
    game.stick(1)                                       # periscope up: shown
    launch(game)
    game.run(80)
    assert game.battle["battle_result"] == "red won"


def test_missile_follows_the_stick(game):
    game.start("S", "S")
    game.place(0, *cell(4, 6))
    launch(game)
    game.stick(0, fire=True, right=True)
    game.run(5)
    assert game.unit(0, "S_DIR") == RIGHT


def test_missile_detonates_on_a_tree(game):
    game.start("S", "S")
    game.place(0, *cell(3, 6))                          # trees at (3,4) above
    game.place(1, *cell(9, 0))
    launch(game)
    game.run(60)
    assert game.unit(0, "S_LEFT") == 0
    assert game.unit(0, "S_Y") > cell(3, 4)[1]          # stopped at the tree, below row 3
    assert game.battle["battle_result"] == "running"


def test_missile_range_ends(game):
    game.start("S", "S")
    game.place(0, *cell(0, 7))
    game.place(1, *cell(9, 0))
    launch(game)
    game.stick(0, fire=True, right=True)                # along the bottom row over water
    game.run(190)                                       # 110 steps at 32 steps/s: 3.4 s
    assert game.unit(0, "S_LEFT") == 0
    assert game.battle["battle_result"] == "running"


def test_shell_passes_a_near_tree_and_hits(game):
    game.start("T", "T")
    game.place(0, *cell(0, 1), RIGHT)                   # a tree right in front, cell (1, 1)
    game.place(1, cell(1, 1)[0] + 10, cell(1, 1)[1], LEFT)
    game.stick(0, fire=True)
    game.run(20)
    assert game.battle["battle_result"] == "red won"


@pytest.mark.parametrize("weapon, arm", [("T", "ARM_SHELL"), ("P", "ARM_SHOT")])
def test_a_shell_or_shot_fired_too_near_flies_through(weapon, arm):
    # a hit counts only after the shell or shot has flown ARM_* steps (docs/conquest.md
    # "Battles of manoeuvre"): at point-blank nobody hits, a few steps farther the first shot does
    assert symbol_value(SYMBOLS, arm) == 12
    results = []
    for gap in (6, 22):
        g = Game()
        g.start(weapon, weapon)
        x, y = cell(4, 3)
        g.place(0, x, y, RIGHT)
        g.place(1, x + gap, y, LEFT)                   # facing red (a plane flies at it)
        g.stick(0, fire=True)
        g.run(2)
        g.stick(0)
        g.run(25)
        results.append(g.battle["battle_result"])
    assert results == ["running", "red won"]


def test_shell_detonates_on_a_far_tree(game):
    game.start("T", "T")
    game.place(0, *cell(0, 1), RIGHT)                   # trees in (1, 1) near and (2, 1) far
    game.place(1, *cell(3, 1), LEFT)
    game.stick(0, fire=True)
    for _ in range(30):
        game.run(1)
        if game.unit(0, "S_LEFT") == 0:
            break
    game.run(1)
    x, y = game.unit(0, "S_X"), game.unit(0, "S_Y")
    assert yellow_around(game, x, y, 4, 8) > 40         # it bursts visibly where it stopped
    game.run(30)
    assert game.battle["battle_result"] == "running"
    assert game.unit(0, "S_LEFT") == 0                  # it ended early, at the far tree
    assert cell(2, 1)[0] - 4 <= game.unit(0, "S_X") <= cell(2, 1)[0] + 12


def test_missile_blast_on_release_destroys_a_near_target(game):
    game.start("S", "T")
    game.place(0, *cell(5, 6))
    game.place(1, cell(5, 6)[0] + 12, cell(5, 6)[1] - 30)
    launch(game)
    game.run(12)                                        # about 20 lines up, near the tank
    game.stick(0)
    game.run(3)
    assert game.battle["battle_result"] == "red won"


# ---- result and back to entry ---------------------------------------------------------------------
def test_result_fireworks_flags_and_back_to_entry(game):
    game.start("T", "T", 3, 2500)
    game.run(30)
    assert game.battle["battle_result"] == "blue won"
    game.run(80)
    x = game.m.xram
    assert x[2] == game.s["S_WHITE"] | 4                # a white flag for red (sprite 0)
    assert x[1] < 88                                    # on red's half
    assert x[6] in (game.s["S_BLUE"],)                  # blue's tank still stands
    assert 104 <= x[9] < 168 and 104 <= x[13] < 168     # fireworks (sprites 2, 3) over blue's half
    assert game.sound_on()                              # the fanfare
    game.key("SPACE")
    game.run(3)
    b = game.battle
    assert b["phase"] == "entry"
    assert (b["weapon_red"], b["weapon_blue"]) == ("none", "none")
    assert b["energy_red"] == 0 and 2400 < b["energy_blue"] < 2500   # what is left stays


# ---- computer mode and practice ----------------------------------------------------------------------
def test_computer_mode_number_runs_and_is_held(game):
    game.key("A")
    game.run(3)
    assert game.battle["phase"] == "computer"
    first = game.battle["counter_reading"]
    game.run(10)
    assert game.battle["counter_reading"] > first
    game.key("SPACE")
    held = game.battle["counter_reading"]
    game.run(30)
    assert game.battle["counter_reading"] == held


PRACTICE_DELAY = 12                         # seconds of a running number before practice


def test_manual_rule_2_reading_then_program_entry_without_reset(game):
    # rule 2: RESET, SELECT GAME, a key other than SPACE: computer mode, the number runs
    assert game.battle["phase"] == "select"
    game.key("A")
    game.run(10)
    assert game.battle["phase"] == "computer"
    assert game.text()[1:] == ["LEER = HALT", "UEBUNG IN 12"]      # the keys that lead on
    game.key("SPACE")                                   # rule 2D: SPACE stops the number
    held = game.battle["counter_reading"]
    game.run(60 * PRACTICE_DELAY)                       # held: no practice, whatever the wait
    assert game.battle["phase"] == "computer"
    assert game.battle["counter_reading"] == held
    assert game.text() == [f"{held:04d}", "LEER=EINGABE"]
    game.key("SPACE")                                   # rule 10C: SPACE, R or B, P S T, 2500
    game.run(3)
    assert game.battle["phase"] == "entry"
    assert game.text()[2:] == ["R B P S T", "0-9 ENTER"]
    game.type("R", "S", "2", "5", "0", "0", "B", "T", "2", "5", "0", "0", "ENTER")
    game.run(3)
    assert game.battle["phase"] == "battle"


def test_select_game_space_leads_to_program_entry_with_its_keys(game):
    game.key("SPACE")
    game.run(3)
    assert game.battle["phase"] == "entry"
    assert game.text() == ["? ?", "0000 0000", "R B P S T", "0-9 ENTER"]


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_manual_practice_games_start_after_one_key(region):
    # "Übungsspiele": RESET, any key except SPACE; the computer runs through the weapon pairs
    g = Game(region)
    g.key("A")
    g.run(round(g.m.fps * 4.5))
    assert g.text()[1:] == ["LEER = HALT", f"UEBUNG IN {PRACTICE_DELAY - 4}"]   # counting down
    g.run(round(g.m.fps * (PRACTICE_DELAY - 5)))
    assert g.battle["phase"] == "computer"
    assert g.text()[-1] == "UEBUNG IN 1"
    g.run(round(g.m.fps * 1.5))
    b = g.battle
    assert b["phase"] == "practice" and b["battle_result"] == "running"
    assert (b["weapon_red"], b["weapon_blue"]) == ("plane", "plane")


def start_practice(game):
    game.key("A")
    game.run(round(game.m.fps * (PRACTICE_DELAY + 0.5)))
    assert game.battle["phase"] == "practice"


def test_practice_to_ten_wins(game):
    start_practice(game)
    seen = []
    for battle in range(10):
        game.run(3)
        b = game.battle
        assert b["phase"] == "practice" and b["battle_result"] == "running"
        seen.append((b["weapon_red"], b["weapon_blue"]))
        assert 100 <= b["energy_red"] <= 590
        game.set_energy(0, 1)                           # red runs out at once: blue wins
        game.run(5)
        assert game.battle["battle_result"] == "blue won"
        assert game.battle["tally_blue"] == battle + 1
        if battle < 9:
            game.run(60)
            assert game.text()[-3:-1] == ["LEER =", "WEITER"]   # the key that leads on
            game.key("SPACE")
    assert seen[:9] == [(r, b) for r in ("plane", "submarine", "tank")
                        for b in ("plane", "submarine", "tank")]
    assert game.battle["tally_blue"] == 10
    assert game.battle["battle_result"] == "blue won"   # the practice war is over: no next
    game.run(300)
    assert game.battle["tally_blue"] == 10
    game.key("SPACE")                                   # a new practice session
    game.run(3)
    assert game.battle["tally_blue"] == 0 and game.battle["battle_result"] == "running"


def test_practice_war_shows_its_tenth_win_and_says_it_is_over(game):
    start_practice(game)
    game.set_iram("tally_blue", 0x09)                   # nine wins each, the tenth decides
    game.set_iram("tally_red", 0x09)
    game.set_energy(0, 1)
    game.run(3)
    assert game.battle["tally_blue"] == 10
    line = game.text()[-1]
    assert line.split()[1:3] == ["9", "10"]             # the tallies beside the energies
    game.run(80)
    lines = game.text()
    assert lines[-3:-1] == ["ENDE", "LEER=NEU"]
    assert lines[-1].split()[1:3] == ["9", "10"]
    game.run(400)                                       # over: no next battle comes
    assert game.battle["tally_blue"] == 10 and game.battle["battle_result"] == "blue won"


def test_war_result_shows_the_key_back_to_program_entry(game):
    game.start("T", "T", 3, 2500)
    game.run(100)
    assert game.battle["phase"] == "result"
    assert game.text()[-3:-1] == ["LEER =", "EINGABE"]


# ---- speeds per second on both systems -----------------------------------------------------------------
def test_speeds_and_energy_per_second_match_on_pal_and_ntsc(any_region):
    g = Game(any_region)
    g.start("P", "T", 2500, 2500)
    assert g.iram("region") == (1 if any_region == "ntsc" else 0)
    g.place(0, 0, cell(0, 0)[1] - 24, RIGHT)            # above the playfield: nothing to hit
    fps = g.m.fps
    seconds = 4
    g.run(round(fps * seconds))
    flown = g.unit(0, "U_X")
    assert abs(flown - 48 * seconds) <= 0.04 * 48 * seconds
    b = g.battle
    assert abs((2500 - b["energy_red"]) - 15 * seconds) <= 3
    assert abs((2500 - b["energy_blue"]) - 10 * seconds) <= 3


def test_the_missile_flies_32_steps_per_second_on_pal_and_ntsc(any_region):
    # docs/conquest.md "Battles of manoeuvre": 32 steps/s, slower than a plane (48)
    g = Game(any_region)
    g.start("S", "S")
    g.place(0, *cell(0, 7))
    g.place(1, *cell(9, 0))
    launch(g)
    g.stick(0, fire=True, right=True)                   # along the bottom row over water
    left = g.unit(0, "S_LEFT")
    seconds = 2
    g.run(round(g.m.fps * seconds))
    assert abs(left - g.unit(0, "S_LEFT") - 32 * seconds) <= 0.04 * 32 * seconds


def test_the_autopilot_flies_and_burns_at_half_rate(any_region):
    # docs/conquest.md "Battles of manoeuvre": a held diagonal, 24 steps/s for 7.5 units/s
    g = Game(any_region)
    g.start("P", "P", 2500, 2500)
    g.place(0, 172, cell(0, 1)[1], RIGHT)          # right of the playfield: nothing to hit there
    g.place(1, 0, cell(0, 0)[1] - 24, RIGHT)       # above it
    g.stick(0, down=True, right=True)              # red on autopilot, blue straight on
    seconds = 4
    g.run(round(g.m.fps * seconds))
    b = g.battle
    assert b["battle_result"] == "running"
    assert abs((2500 - b["energy_red"]) - 7.5 * seconds) <= 3
    assert abs((2500 - b["energy_blue"]) - 15 * seconds) <= 3
    assert abs(g.unit(1, "U_X") - 48 * seconds) <= 0.04 * 48 * seconds
    assert abs((g.unit(0, "U_X") - 172) % 256 - 24 * seconds) <= 0.04 * 24 * seconds + 1


def test_both_destroyed_shows_two_white_flags(game):
    game.start("S", "S")
    game.place(0, *cell(4, 0))
    game.place(1, cell(4, 0)[0] + 4, cell(4, 0)[1] + 4)
    game.run(90)
    x = game.m.xram
    assert x[2] == x[6] == game.s["S_WHITE"] | 4
    assert x[8] > 0xF0 and x[12] > 0xF0                 # no fireworks


# ---- sounds -------------------------------------------------------------------------------------
def sound_control(game) -> int:
    return int(game.m.vdc_regs[0xAA])


def test_sounds_hum_shot_explosion(game):
    game.start("T", "T")
    game.run(10)
    hum = sound_control(game)
    assert hum & 0x80 and not hum & 0x30                # engine hum: slow, tonal
    game.place(0, *cell(7, 2), RIGHT)
    game.place(1, *cell(9, 2), LEFT)
    game.stick(0, fire=True)
    game.run(2)
    assert sound_control(game) & 0x30 == 0x30           # shot: fast noise
    game.run(25)
    assert game.battle["battle_result"] == "red won"
    assert sound_control(game) & 0x30 == 0x10           # explosion: slow noise


def test_a_machine_with_only_the_documented_bios_entries_plays_too():
    from tests.cartridge.conftest import stub_bios

    g = Game(bios=stub_bios())
    g.start("T", "P", 50, 50)
    g.run(200)
    assert g.battle["phase"] == "result"


# ---- waiting does not win (docs/conquest.md "Waiting never wins") ----------------------------------
@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("tank_side", [0, 1])
def test_a_tank_on_the_shore_reaches_a_submarine_waiting_at_its_start(game, tank_side, variant):
    toward = {"left": True} if tank_side else {"right": True}
    game.start(*("ST" if tank_side else "TS"), variant=variant)
    game.stick(tank_side, **toward)             # drive along row 4 until the water stops it
    game.run(250)
    game.stick(tank_side, **toward, fire=True)
    game.run(40)
    assert game.battle["battle_result"] == ("blue won" if tank_side else "red won")


def fly_over_open_water(game) -> None:
    """Red's missile, launched from open water in column 5, 20 frames on its way."""
    game.start("S", "S")
    game.place(0, *cell(5, 6))
    game.place(1, *cell(0, 0))
    launch(game)
    game.run(20)


def detonate_over_open_water(game) -> tuple[int, int]:
    """Red's missile, launched from open water in column 5 and let go: where it detonated."""
    fly_over_open_water(game)
    game.stick(0)                                       # release: it detonates
    game.run(2)
    return game.unit(0, "S_X"), game.unit(0, "S_Y")


def test_missile_blast_is_drawn_while_it_acts(game):
    x, y = detonate_over_open_water(game)
    assert game.unit(0, "S_LEFT") == 0 and game.unit(0, "B_TIME") > 0
    assert yellow_around(game, x, y, 8, 16) > 200       # the zoomed blast, 16 units x 32 lines
    # it acts while it shows: a submarine that comes into the drawn blast now is destroyed
    game.place(1, x - 4 + 10, y - 8 - 20)               # its sprite overlaps the blast's corner
    game.stick(1)
    game.run(2)
    assert game.battle["battle_result"] == "red won"


def test_missile_blast_ends_with_its_drawing(game):
    x, y = detonate_over_open_water(game)
    game.run(game.s["BLAST_FRAMES"])
    assert game.unit(0, "B_TIME") == 0
    assert yellow_around(game, x, y, 8, 16) == 0        # gone from the screen ...
    game.place(1, x - 4, y - 8)                         # ... and harmless
    game.run(3)
    assert game.battle["battle_result"] == "running"


@pytest.mark.parametrize("start, held, moved, frames", [
    ((2, 4), {"up": True, "right": True}, "up", 30),    # water right of it: slides up
    ((4, 5), {"up": True, "right": True}, "right", 50),  # water above it: slides right (trees)
], ids=["along-water-up", "along-water-right"])
def test_tank_slides_along_an_obstacle_on_a_held_diagonal(game, start, held, moved, frames):
    # without sliding it would stop dead after 7 (6) diagonal steps: 7 (6) units across
    game.start("T", "T")
    x, y = cell(*start)
    game.place(0, x, y, 1)
    game.stick(0, **held)
    game.run(frames)
    dx, dy = game.unit(0, "U_X") - x, y - game.unit(0, "U_Y")
    assert game.battle["battle_result"] == "running"
    if moved == "up":
        assert dx <= 8 and dy >= 24                     # it went on up along the shore
    else:
        assert dy < 14 and dx >= 12                     # and along the shore to the right


def sprite_rows(game, n: int) -> list[str]:
    rows = game.m.vdc_regs[0x80 + 8 * n:0x88 + 8 * n]
    return ["".join("X" if int(r) >> i & 1 else "." for i in range(8)) for r in rows]


def test_the_plane_is_the_same_jet_in_all_eight_headings(game):
    game.start("P", "P")
    frames = []
    for heading in range(8):
        game.set_unit(0, "U_DIR", heading)
        game.place(0, *cell(4, 2))
        game.run(2)
        frames.append(sprite_rows(game, 0))

    def turn(rows):                                     # a quarter turn anticlockwise
        return ["".join(rows[c][7 - r] for c in range(8)) for r in range(8)]

    def mirror(rows):
        return [r[::-1] for r in rows]
    up = frames[UP]
    assert up[0].count("X") < up[4].count("X") == 8     # a nose, then the full wing span
    assert frames[LEFT] == turn(up) and frames[DOWN] == turn(turn(up))
    assert frames[RIGHT] == turn(turn(turn(up)))
    assert frames[3] == mirror(frames[1]) and frames[7] == frames[1][::-1]
    assert frames[5] == mirror(frames[7])
    assert frames[1] != up and sum(r.count("X") for r in frames[1]) > 20


def test_entry_marker_is_an_arrow_pointing_at_the_selected_side(game):
    game.key("SPACE")
    game.run(3)
    rows = [r for r in sprite_rows(game, 2) if "X" in r]
    widths = [r.count("X") for r in rows]
    assert len(rows) == 5 and widths[2] == max(widths) >= 6     # the shaft
    assert all(r.rstrip(".").endswith("X") for r in rows)        # the head on the right
    assert rows[0] == rows[4] and rows[1] == rows[3]


def test_plane_flies_past_a_tree_beside_its_drawn_glyph(game):
    # the tree glyph in row 1 covers lines 52-65 of the row's 48-71: a plane whose centre flies
    # at line 68 passes below it (it used to crash: the whole cell counted)
    game.start("P", "P")
    game.place(0, cell(0, 1)[0], 60, RIGHT)
    game.run(60)
    assert game.unit(0, "U_X") > cell(3, 1)[0]
    assert game.battle["battle_result"] == "running"


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("sub_side", [0, 1])
def test_a_submarine_reaches_a_tank_waiting_at_its_start(game, sub_side, variant):
    toward = {"left": True} if sub_side else {"right": True}
    game.start(*("TS" if sub_side else "ST"), variant=variant)
    game.stick(sub_side, **toward)              # to the shore along row 4
    game.run(300)
    game.stick(sub_side, **toward, fire=True)   # the missile turns towards the tank at once
    game.run(200)
    assert game.battle["battle_result"] == ("blue won" if sub_side else "red won")


@pytest.mark.parametrize("variant", [0, 1])
@pytest.mark.parametrize("pair, player", [("PT", 0), ("TP", 1), ("TP", 0), ("PT", 1)],
                         ids=["plane-vs-idle-tank", "plane-vs-idle-tank-blue",
                              "tank-vs-idle-plane", "tank-vs-idle-plane-blue"])
def test_plane_and_tank_reach_each_other_waiting_at_the_start(game, pair, player, variant):
    # both start in row 4 facing each other: the side that fires, button pressed again and
    # again, hits the idle one (a plane flying straight, a tank standing)
    game.start(*pair, variant=variant)
    for _ in range(40):
        game.stick(player, fire=True)
        game.run(5)
        game.stick(player)
        game.run(5)
        if game.battle["battle_result"] != "running":
            break
    assert game.battle["battle_result"] == ("blue won" if player else "red won")


# ---- times in seconds on both regions (docs/conquest.md "The weapons") ----------------------
def test_sonar_pings_every_3_seconds_for_0_8_seconds_on_pal_and_ntsc(any_region):
    g = Game(any_region)
    g.start("S", "S")
    g.stick(0, right=True)                              # submerged: shown only by a ping
    g.stick(1, left=True)
    g.run(int(g.m.fps))                                 # dived, past the ping at the start
    shown, pings, was = 0, [], False
    for frame in range(int(6.5 * g.m.fps)):
        g.run(1)
        now = g.unit(0, "U_VIS") == 1
        if now and not was:
            pings.append(frame)
        shown += now
        was = now
    fps = 60 if any_region == "ntsc" else 50
    assert len(pings) == 2
    assert abs((pings[1] - pings[0]) / fps - 3.0) < 0.05
    assert abs(shown / len(pings) / fps - 0.8) < 0.05


def test_missile_blast_lasts_0_3_seconds_on_pal_and_ntsc(any_region):
    g = Game(any_region)
    fly_over_open_water(g)
    g.stick(0)                                          # release: it detonates
    frames = 0
    for _frame in range(100):
        g.run(1)
        if g.unit(0, "B_TIME") > 0:
            frames += 1
        elif frames:
            break
    fps = 60 if any_region == "ntsc" else 50
    assert frames == round(0.3 * fps)                   # 15 frames PAL, 18 NTSC


# ---- battles of manoeuvre (docs/conquest.md "Battles of manoeuvre") -------------------------
def _shoot_once(game):
    game.stick(0, fire=True)
    game.run(2)
    game.stick(0)


@pytest.mark.parametrize("region", ["pal", "ntsc"])
def test_a_hit_costs_energy_and_shelters_the_unit_and_the_armour_decides(region):
    g = Game(region)
    g.start("T", "T", last_hit=False)
    g.place(0, *cell(7, 2), RIGHT)
    g.place(1, *cell(9, 2), LEFT)
    _shoot_once(g)
    g.run(20)
    assert g.hits(1) == 1 and g.battle["battle_result"] == "running"
    spent = 2500 - g.battle["energy_blue"]
    assert g.s["HIT_COST"] <= spent <= g.s["HIT_COST"] + 6     # the hit, and half a second's drain
    assert g.shelter(1) > 0
    assert g.m.xram[6] & 0x38 == g.s["S_WHITE"]                # shown sheltered: white
    _shoot_once(g)                                             # a hit in the shelter: nothing
    g.run(20)
    assert g.hits(1) == 1
    g.run(int(g.m.fps))                                        # the shelter is over after 1 s
    assert g.shelter(1) == 0 and g.m.xram[6] & 0x38 == g.s["S_BLUE"]
    g.wear(1, left=1)
    _shoot_once(g)
    g.run(25)
    assert g.battle["battle_result"] == "red won"


def test_each_weapon_takes_its_armour_in_hits():
    assert (SYMBOLS["ARMOUR_PLANE"], SYMBOLS["ARMOUR_SUB"], SYMBOLS["ARMOUR_TANK"]) == (5, 5, 7)
    g = Game()
    g.start("T", "T", last_hit=False)
    for n in range(1, SYMBOLS["ARMOUR_TANK"]):
        g.place(0, *cell(7, 2), RIGHT)
        g.place(1, *cell(9, 2), LEFT)
        _shoot_once(g)
        g.run(int(1.2 * g.m.fps))
        assert g.hits(1) == n and g.battle["battle_result"] == "running"
    _shoot_once(g)
    g.run(25)
    assert g.battle["battle_result"] == "red won"


def test_a_submarine_stops_and_shows_its_periscope_at_the_ping(game):
    game.start("S", "S")
    game.stick(0, right=True)
    game.run(int(game.m.fps))                                  # submerged, cruising
    assert game.unit(0, "U_VIS") == 0
    game.set_iram("ping_time", 2)
    game.run(3)
    x = game.unit(0, "U_X")
    game.run(20)                                               # the ping shows 0.8 s
    assert game.unit(0, "U_VIS") == 1 and game.unit(0, "U_X") == x
