"""`videopac generals`: bad options are one sentence and status 2; a short run on two worker
processes plays whole games with every battle on the battle program, headless, and every game
replays to the same state (docs/generals.md)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from board_ledger.store import Store


def generals(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "videopac", "--lang", "en", "generals", *args],
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("args,sentence", [
    (("--games", "0"), "--games must be a whole number from 1 to 100000"),
    (("--players", "7"), "--players must be a whole number from 2 to 6"),
    (("--levels", "hard,genius"), "--levels: 'genius' is not a level; use easy, standard, hard or random"),
    (("--players", "2", "--levels", "hard,easy,easy"), "--levels names more seats than --players"),
    (("--workers", "0"), "--workers must be a whole number from 1 to 64"),
])
def test_a_bad_option_is_one_sentence(args, sentence):
    res = generals(*args)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"videopac generals: {sentence}.\n"


@pytest.mark.slow
def test_two_games_on_two_workers_end_and_replay(tmp_path):
    db = tmp_path / "games.sqlite"
    res = generals("--games", "2", "--players", "2", "--levels", "hard,easy", "--seed", "3", "--json", "--db", str(db),
                   timeout=1800)
    assert res.returncode == 0, res.stderr
    table = json.loads(res.stdout)
    assert table["games"] == 2 and table["replayed"] == 2
    assert sum(table["wins_by_level"].values()) + table["draws"] == 2
    assert set(table["endings"]) <= {"rule 22", "rule 19", "variant 2"}
    assert all(run["battles"] > 0 and run["seats"] in (["hard", "easy"], ["easy", "hard"])
               for run in table["runs"])
    assert "2/2" in res.stderr                      # the progress bar
    kept = Store(str(db), create=False, write=False)
    assert kept.games() == [1, 2]                   # every game kept, each replays as it was stored
    assert all(kept.load(n)[1].state.phase == "over" for n in (1, 2))
    kept.close()
