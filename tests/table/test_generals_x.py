"""A person against a computer general in `videopac play --ledger`, driven with real key events
(xdotool under Xvfb): the general attacks on the board after the pause, types its side of the
program once the person has typed hers, fights with the computer battle opponent and moves the
war on with SPACE; the person presses F9 and the war is booked in the file (docs/generals.md)."""
from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from board_ledger import notation
from board_ledger.store import Store
from tests.ledger.ledger_helpers import stored
from tests.app.test_play_cli import play_process, stop_with_ctrl_c, wait_for_window
from tools.xvfb import virtual_display

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

SETUP = ("players Anna cpu:hard:Bert", "start Anna", 'homeland Anna "United States"',
         'homeland Bert "West Germany"', "allies Anna -", "allies Bert -")


def keys(display: str, title: str, *names: str) -> None:
    env = dict(os.environ, DISPLAY=display)
    subprocess.run(["xdotool", "search", "--onlyvisible", "--name", f"^{title}$", "windowfocus", "--sync"],
                   env=env, check=True, capture_output=True, timeout=30)
    for name in names:
        subprocess.run(["xdotool", "key", "--delay", "120", name], env=env, check=True,
                       capture_output=True, timeout=30)
        time.sleep(0.15)


def lines(db: str) -> list[str]:
    store = Store(db, create=False, write=False)
    try:
        return [notation.format_event(e) for e in store.load()[1].events]
    finally:
        store.close()


@pytest.mark.skipif(shutil.which("xdotool") is None or shutil.which("Xvfb") is None,
                    reason="xdotool and Xvfb are needed")
def test_a_person_against_a_computer_general_books_a_war(tmp_path):
    db = str(tmp_path / "game.sqlite")
    stored(db, SETUP)
    env = dict(os.environ, PYGLET_AUDIO="silent", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    with virtual_display() as xvfb:
        env["DISPLAY"] = xvfb
        with play_process(["--ledger", db, "--scale", "1"], env) as proc:
            title = "Videopac - conquest"
            wait_for_window(xvfb, title, proc, seconds=180)
            deadline = time.monotonic() + 60            # Bert begins (rule 8) and attacks
            while not any(line.startswith("attack Bert") for line in lines(db)):
                assert proc.poll() is None and time.monotonic() < deadline, lines(db)
                time.sleep(0.5)
            assert lines(db)[-1].startswith("attack Bert")   # Anna defends: a war, not booked yet
            time.sleep(4)                                # Bert presses SPACE: program entry
            keys(xvfb, title, "b", "t", "2", "5", "0", "0")  # Anna's side (blue): tank, 2500
            deadline = time.monotonic() + 240
            while not any(line.startswith("war ") or line.startswith("battle ") for line in lines(db)):
                assert proc.poll() is None and time.monotonic() < deadline, lines(db)
                time.sleep(3)
                keys(xvfb, title, "b", "p", "F9")        # the next battle's weapon; F9 books
            err = stop_with_ctrl_c(proc)
    booked = lines(db)
    assert "Traceback" not in err
    war = booked[booked.index(next(b for b in booked if b.startswith("attack Bert"))) + 1:]
    # the proposal F9 booked: Bert's computer beat Anna's idle units twice, on the cartridge
    assert [b.split()[3] for b in war if b.startswith("battle")] == ["Bert", "Bert"], booked
    assert war[-1].startswith("war Bert "), booked
    final = Store(db, create=False, write=False).load()[1].state
    assert final.war is None
