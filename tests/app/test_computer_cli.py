"""`--computer` of `videopac run` and `videopac play`, and `videopac balance`, as commands:
bad values are one sentence and status 2; a seed repeats a headless battle exactly; in the
play loop the computer's stick no longer listens to the keyboard."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from o2em_core.machine import FIRST_COMPILE_NOTICE


def videopac(*argv: str, env=None) -> subprocess.CompletedProcess:
    res = subprocess.run([sys.executable, "-m", "videopac", *argv], capture_output=True,
                         text=True, timeout=600, env=env)
    res.stderr = res.stderr.replace(FIRST_COMPILE_NOTICE + "\n", "")
    return res


def one_sentence(res: subprocess.CompletedProcess, *words: str) -> None:
    assert res.returncode == 2, res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    for word in words:
        assert word in res.stderr


@pytest.mark.parametrize("value, words", [
    ("green", ("red or blue",)),
    ("blue:expert", ("unknown level 'expert'", "easy, standard or hard")),
    ("", ("red or blue",)),
])
def test_run_refuses_a_bad_computer_in_one_sentence(value, words):
    one_sentence(videopac("run", "--frames", "1", "--computer", value), *words)


def test_run_refuses_the_same_side_twice_and_a_cartridge_without_battle():
    one_sentence(videopac("run", "--frames", "1", "--computer", "red", "--computer", "red:hard"),
                 "same side twice")
    one_sentence(videopac("run", "--no-cart", "--frames", "1", "--computer", "blue"),
                 "battle program only")


def test_play_refuses_a_bad_computer_before_it_opens_a_window(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    one_sentence(videopac("play", "--computer", "purple", env=env), "red or blue")
    one_sentence(videopac("play", "--computer", "red:sleepy", env=env), "unknown level")
    one_sentence(videopac("play", "--computer", "blue", "--joystick", "1=serial:/dev/null",
                          env=env), "both --joystick and --computer")


ENTRY = ["SPACE", "R", "T", "5", "0", "0", "B", "P", "5", "0", "0", "ENTER"]


def battle_script(tmp_path):
    """The keys of docs/conquest.md for a tank against a plane, 500 units each."""
    lines, frame = [], 10
    for key in ENTRY:
        lines += [f"{frame} press {key}", f"{frame + 2} release {key}"]
        frame += 6
    path = tmp_path / "battle.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_run_computer_against_computer_repeats_exactly_for_a_seed(tmp_path):
    script = battle_script(tmp_path)
    hashes = []
    for n, seed in enumerate(("7", "7")):
        dump = tmp_path / f"d{n}.json"
        res = videopac("run", "--frames", "1800", "--input", str(script), "--computer", "red",
                       "--computer", "blue:hard", "--seed", seed, "--frame-hash",
                       "--dump", str(dump))
        assert res.returncode == 0, res.stderr
        hashes.append(res.stdout.strip())
        battle = json.loads(dump.read_text())["battle"]
        assert battle["phase"] == "result"               # one of them won within 36 s
        assert battle["battle_result"] in ("red won", "blue won", "both destroyed")
    assert hashes[0] == hashes[1] and len(hashes[0]) == 64


@pytest.mark.parametrize("argv, words", [
    (["--battles", "0"], ("--battles",)),
    (["--battles", "many"], ("--battles",)),
    (["--region", "secam"], ("--region",)),
    (["--pairings", "PX"], ("'PX' is not a pairing",)),
    (["--levels", "hard"], ("--levels",)),
    (["--levels", "hard,medium"], ("--levels", "hard,medium")),
    (["--simple", "dance"], ("'dance'",)),
    (["--energy", "0"], ("--energy",)),
    (["--energy", "10000"], ("--energy",)),
    (["--jobs", "0"], ("--jobs",)),
])
def test_balance_refuses_bad_values_in_one_sentence(argv, words):
    one_sentence(videopac("balance", *argv), *words)


def test_balance_json_counts_every_battle_with_a_progress_bar():
    res = videopac("balance", "--battles", "1", "--pairings", "TT", "--json", "--seed", "3")
    assert res.returncode == 0, res.stderr
    table = json.loads(res.stdout)
    assert list(table["pairings"]) == ["TT"]
    row = table["pairings"]["TT"]
    assert list(row) == ["computer-idle", "idle-computer", "computer-computer"]
    assert row["computer-idle"]["red_wins"] == 1 and row["idle-computer"]["blue_wins"] == 1
    both = row["computer-computer"]
    assert both["red_wins"] + both["blue_wins"] + both["draws"] == 1
    assert all(0 < r["mean_seconds"] < 100 for r in row.values())
    for r in row.values():                 # one battle each: its median is its length
        assert r["median_seconds"] == r["mean_seconds"]
        assert all(0 <= r[f"median_spent_{side}"] <= table["energy"] for side in ("red", "blue"))
    assert "3/3" in res.stderr and "[" in res.stderr            # the bar reached the end


def test_balance_text_is_a_table_with_its_command():
    res = videopac("balance", "--battles", "1", "--pairings", "PT")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("videopac balance --battles 1")
    assert lines[1].startswith("| pairing") and lines[3].startswith("| P–T")


@pytest.mark.xvfb
def test_in_the_play_window_the_computer_holds_its_stick(xvfb):
    """Keys typed into the window start a battle; the blue tank is the computer's: it drives
    towards red (blue's keypad keys are not heard) and wins; red's keys still drive red."""
    from pyglet.window import key

    from cartridge.images import builtin_image, builtin_symbols
    from o2em_core import Machine
    from videopac.battle.computer import Computer
    from videopac.battle.published import decode
    from videopac.console import audio, keymap, pacing
    from videopac.console.session import Session
    from videopac.console.window import PlayWindow
    from videopac.play import Loop, listen

    machine = Machine(builtin_image("bios"), builtin_image("conquest"), region="pal")
    session = Session(machine, keymap.load(), "conquest")
    window = PlayWindow(session, "pal", scale=1)
    computer = Computer(1, "standard", seed=1)
    listen(session, (frozenset(("keys", "gamepad")),) * 2, [computer])
    loop = Loop(session, window, audio.SampleQueue(), pacing.Pacer(machine.fps, 44100),
                sound=False, players=[computer])
    clock = [0.0]

    def frames(n):
        for _ in range(n):
            clock[0] += 1 / machine.fps
            loop.tick(clock[0])

    def send(*event):          # as the platform layer posts it, delivered at the next poll
        window.dispatch_event(*event)
        window.dispatch_events()

    def press(symbol):
        send("on_key_press", symbol, 0)
        frames(3)
        send("on_key_release", symbol, 0)
        frames(3)

    try:
        frames(10)
        for symbol in (key.SPACE, key.R, key.T, key._5, key._0, key._0, key.B, key.T, key._5,
                       key._0, key._0, key.RETURN):
            press(symbol)
        red, blue = int(machine.vdc_regs[1]), int(machine.vdc_regs[5])     # the sprites' X
        assert session.accepts[1] == (False, False)          # blue hears no keys or pads
        send("on_key_press", key.NUM_6, 0)                   # blue's "right": not heard
        send("on_key_press", key.RIGHT, 0)                   # red's: the player drives
        frames(20)
        send("on_key_release", key.RIGHT, 0)
        assert int(machine.vdc_regs[1]) > red
        frames(40)
        assert int(machine.vdc_regs[5]) < blue               # the computer drives blue left
        frames(1500)
        assert decode(machine.iram, builtin_symbols("conquest"))["battle_result"] == "blue won"
    finally:
        window.close()
