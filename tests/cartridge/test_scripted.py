"""The simple scripted players of `videopac balance --simple` do what their names say, seen on
the real battle program: where their unit goes, whether it fires, whether it shows."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from videopac.battle.balance import BattleBench
from videopac.battle.battlefield import WORLD_H, WORLD_W, wrap
from videopac.battle.computer import directions
from videopac.battle.pilot import PLANE, read_sprite
from videopac.battle.published import symbol_value
from videopac.battle.scripted import SCRIPTS, TURN, script


@dataclass
class Frame:
    me: tuple[float, float]
    shown: bool
    shot: bool
    enemy: tuple[float, float]
    stick: tuple[int | None, bool]
    weapon: str
    ping: bool                   # the sonar shows the submarines


def watch(pairing: str, red: str, blue: str, seconds: float, wait: int = 0) -> list[Frame]:
    """A battle of two scripts (red's first) from its start: what red's unit did each frame."""
    console = BattleBench("pal")
    console.start(pairing, 1000, wait=wait)
    players = [script(red, 0, console.symbols), script(blue, 1, console.symbols)]
    frames = []
    ping_show = symbol_value(console.symbols, "PING_SHOW")
    for _n in range(int(seconds * console.machine.fps)):
        stick = players[0].decide(console.machine)
        console.machine.set_joystick(0, **directions(*stick))
        players[1].step(console.machine)
        console.machine.run_frame()
        vdc = console.machine.vdc_regs
        me, enemy = read_sprite(vdc, 0, centre=True), read_sprite(vdc, 1, centre=True)
        frames.append(Frame((me.sx, me.sy), me.shown, read_sprite(vdc, 2, centre=False).shown,
                            (enemy.sx, enemy.sy), stick, PLANE if pairing[0] == "P" else "",
                            console.byte("ping_time") > ping_show))
        if console.byte("battle_result"):
            break
    return frames


def apart(frame: Frame) -> float:
    """Steps between red and blue: across the edges for planes, which fly off one and come
    back on the other."""
    dx, dy = frame.me[0] - frame.enemy[0], frame.me[1] - frame.enemy[1]
    if frame.weapon == PLANE:
        dx, dy = wrap(dx, WORLD_W), wrap(dy, WORLD_H)
    return max(abs(dx), abs(dy))


def shots(frames: list[Frame]) -> int:
    """How many times a shot of red's appeared."""
    return sum(1 for a, b in zip(frames, frames[1:]) if b.shot and not a.shot)


def test_every_script_has_its_sentence():
    assert set(SCRIPTS) == {"idle", "fire", "charge", "circle", "hide"}
    assert all(SCRIPTS.values())


def test_idle_never_touches_the_controller():
    frames = watch("TT", "idle", "idle", 3)
    assert all(f.stick == (None, False) for f in frames)
    assert len({f.me for f in frames}) == 1 and shots(frames) == 0


def test_fire_fires_again_and_again_without_moving():
    frames = watch("TT", "fire", "idle", 4)
    assert len({f.me for f in frames}) == 1                  # never moves
    assert all(f.stick[0] is None for f in frames)
    assert shots(frames) >= 3                                # a shell after the other


def test_charge_runs_at_the_enemy_while_firing():
    frames = watch("TT", "charge", "idle", 3)
    assert apart(frames[-1]) < apart(frames[0]) - 20         # much nearer
    assert shots(frames) >= 2


def test_circle_turns_the_stick_an_eighth_at_a_time():
    frames = watch("PP", "circle", "idle", 2)
    runs = [(stick, len(list(same))) for stick, same in itertools.groupby(f.stick[0] for f in frames)]
    assert {stick for stick, _n in runs} == set(range(8))
    assert all((b[0] - a[0]) % 8 == 1 for a, b in zip(runs, runs[1:]))   # counter-clockwise
    assert all(n == TURN for _stick, n in runs[1:-1])                     # each held as long
    assert len({round(f.me[0]) for f in frames}) > 10 and len({round(f.me[1]) for f in frames}) > 10
    assert shots(frames) >= 2


def test_hide_keeps_away_from_a_charging_enemy():
    """Against the same charging tank a hiding tank stays farther away than an idle one, and
    never fires."""
    hiding, idle = (watch("TT", kind, "charge", 3) for kind in ("hide", "idle"))
    assert shots(hiding) == 0
    assert sum(map(apart, hiding)) / len(hiding) > sum(map(apart, idle)) / len(idle)


def test_a_hiding_submarine_keeps_moving_and_so_stays_submerged():
    """Seen only while the sonar shows every submarine; one that waits shows its periscope."""
    hiding, idle = (watch("SS", kind, "idle", 4) for kind in ("hide", "idle"))
    assert all(f.stick[0] is not None for f in hiding[10:])          # never stops
    assert any(f.ping for f in hiding)
    # out of the pings it shows only while it gets going again (at 16 steps/s)
    assert sum(f.shown and not f.ping for f in hiding) < len(hiding) / 10
    assert all(f.shown for f in idle)                                # the periscope stays up
    assert shots(hiding) == 0
