"""`videopac ledger`: replay, status, export, chart, exit codes and one-line errors, the REPL."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from ledger_helpers import SETUP3

GAME = SETUP3 + "attack Carla India\nwar Carla 1355\nattack Carla Indonesia\nwar Bert 1200\n"


ROOT = pathlib.Path(__file__).resolve().parents[2]


def ledger(*args: str, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}   # this checkout, from any working directory
    return subprocess.run([sys.executable, "-m", "videopac", "ledger", *args], capture_output=True,
                          text=True, input=stdin, cwd=cwd, timeout=60, env=env)


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME)
    return path


def test_replay_json_is_the_status_of_the_issue(game_file):
    res = ledger("replay", str(game_file), "--json")
    assert res.returncode == 0, res.stderr
    status = json.loads(res.stdout)
    assert set(status) == {"phase", "war_chest", "turn", "players", "winner"}
    assert status["phase"] == "play" and status["winner"] is None
    assert status["turn"] == {"attacker": "Anna", "defender": None, "target": None}
    assert status["war_chest"] == -(2000 + 1400 + 1200)
    carla = status["players"][2]
    assert carla == {"name": "Carla", "homeland": "U.S.S.R.", "chips": 1400, "pbr": 6,
                     "allied": [], "conquered": ["India"], "eliminated": False}
    assert status["players"][1]["pbr"] == 8 and status["players"][1]["allied"][-1] == "Indonesia"


def test_replay_json_effects_adds_each_accepted_line_and_what_it_did(game_file):
    plain = json.loads(ledger("replay", str(game_file), "--json").stdout)
    res = ledger("replay", str(game_file), "--json", "--effects")
    assert res.returncode == 0, res.stderr
    status = json.loads(res.stdout)
    lines = status.pop("lines")
    assert status == plain                                    # the status fields stay as they are
    assert [x["line"] for x in lines] == list(range(2, 14))   # line 1 of the file is blank
    war = next(x for x in lines if x["action"] == "war Carla 1355")
    assert {"kind": "paid_out", "player": "Carla", "amount": 1400} in war["effects"]
    assert {"kind": "country", "country": "India", "before": {}, "after": {"Carla": "conquered"}} in war["effects"]
    res = ledger("replay", str(game_file), "--effects")
    assert res.returncode == 2 and res.stderr == ("videopac ledger: --effects adds to the JSON output: "
                                                  "give --json too.\n")


def test_illegal_line_stops_with_exit_2_and_file_line_rule(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(SETUP3 + "# comment\nattack Carla \"West Germany\"\n")  # line 1 is blank
    res = ledger("replay", str(path), "--json")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f"{path}:11: rule 19: Italy and Spain must be held by enemies of West "
                          "Germany's owner before West Germany can be attacked\n")


@pytest.mark.parametrize("line,reason", [
    ("conquer Anna India", "unknown verb 'conquer'"),
    ("war Carla lots", "the energy must be a whole number"),
    ('homeland Anna "United States', "a double quote is not closed"),
    ("homeland Anna Atlantis", "unknown country 'Atlantis'"),
])
def test_bad_syntax_gives_file_line_reason_and_exit_2(tmp_path, line, reason):
    path = tmp_path / "bad.txt"
    path.write_text("players Anna Bert\nstart Anna\n" + line + "\n")
    res = ledger("replay", str(path))
    assert res.returncode == 2
    assert res.stderr.startswith(f"{path}:3: {reason}") and res.stderr.count("\n") == 1


def test_replay_into_db_then_status_export_and_chart(game_file, tmp_path):
    db = tmp_path / "game.sqlite"
    replayed = ledger("replay", str(game_file), "--json", "--db", str(db))
    status = ledger("status", "--db", str(db), "--json")
    assert status.returncode == 0 and json.loads(status.stdout) == json.loads(replayed.stdout)
    exported = ledger("export", "--db", str(db))
    assert exported.returncode == 0
    again = tmp_path / "again.txt"
    again.write_text(exported.stdout)
    assert json.loads(ledger("replay", str(again), "--json").stdout) == json.loads(replayed.stdout)
    assert [l for l in exported.stdout.splitlines() if not l.startswith("#")][2] == \
        'homeland Anna "United States"'
    svg = tmp_path / "pbr.svg"
    res = ledger("chart", "--db", str(db), "-o", str(svg))
    assert res.returncode == 0, res.stderr
    root = ET.parse(svg).getroot()
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert [l.find("{http://www.w3.org/2000/svg}title").text for l in lines] == ["Anna", "Bert", "Carla"]
    points = lines[2].get("points").split()
    assert len(points) == len(GAME.strip().splitlines()) + 1    # the start and after each action


def test_status_of_a_missing_or_damaged_file_is_one_sentence(tmp_path):
    res = ledger("status", "--db", str(tmp_path / "none.sqlite"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "does not exist" in res.stderr
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database")
    res = ledger("status", "--db", str(bad), "--json")
    assert res.returncode == 2 and res.stderr.startswith("videopac ledger: ") and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr and bad.read_text() == "not a database"


def test_repl_through_stdin_saves_refuses_with_the_rule_and_resumes(tmp_path):
    db = tmp_path / "game.sqlite"
    first = ledger("--db", str(db), stdin=SETUP3 + "attack Anna India\nattack Carla India\nquit\n")
    assert first.returncode == 0, first.stderr
    out = first.stdout
    assert "refused: rule 10: it is Carla's turn to attack, not Anna's" in out
    assert "ok: attack Carla India" in out
    assert "War for India: Carla attacks, Anna defends" in out
    second = ledger("--db", str(db), stdin="status\nwar Carla 1355\nboard\njson\n")
    assert "9 actions so far" in second.stdout
    assert "ok: war Carla 1355" in second.stdout
    assert ("  Carla won the war for India. Carla receives 1400 from the war chest. War chest -3400. "
            "Carla's PBR +6 to 6. India is conquered by Carla.\n"
            "  Next: Carla attacks, Bert would defend an unoccupied country.\n") in second.stdout
    assert "India             6  Carla (conquered)" in second.stdout
    status = json.loads(second.stdout[second.stdout.index("\n{\n"):])
    assert status["players"][2]["chips"] == 1400


def test_repl_help_and_what_may_be_done(tmp_path):
    res = ledger(stdin="help\nhelp war\nplayers Anna Bert\nnow\nquit\n")
    assert res.returncode == 0
    assert "war WINNER ENERGY" in res.stdout and "nothing is saved" in res.stdout
    assert "Choose the starting player (rule 2)" in res.stdout


def test_help_lists_the_subcommands():
    res = ledger("--help")
    assert res.returncode == 0
    for word in ("replay", "status", "export", "chart", "--db"):
        assert word in res.stdout


def replay_documented(root, tmp_path, heading: str) -> dict:
    """Replay the first code block after ``heading`` in docs/ledger.md; return the status JSON."""
    text = (root / "docs/ledger.md").read_text()
    path = tmp_path / "doc.txt"
    path.write_text(text.split(heading)[1].split("```")[1])
    res = ledger("replay", str(path), "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_the_documented_example_game_replays(root, tmp_path):
    status = replay_documented(root, tmp_path, "A game, from the setup into play")
    anna, bert, carla = status["players"]
    assert anna["conquered"] == bert["conquered"] == ["Philippines"]
    assert (anna["chips"], bert["chips"]) == (2000 + 1200 + 400 + 2000, 400)   # Anna: zone 7 bonus
    assert carla["conquered"] == ["Iran", "India"] and carla["allied"] == ["Bangladesh"]
    assert carla["chips"] == 1400 + 1200 - 1000
    assert status["turn"]["attacker"] == "Bert"


def test_repl_completion_of_names_and_quoted_names(monkeypatch):
    readline = pytest.importorskip("readline")
    from videopac.books.terminal import Repl, _completer
    import io
    repl = Repl(None, out=io.StringIO())
    complete = _completer(repl)

    def options(buffer: str, text: str) -> list[str]:
        monkeypatch.setattr(readline, "get_line_buffer", lambda: buffer)
        monkeypatch.setattr(readline, "get_endidx", lambda: len(buffer))
        found, i = [], 0
        while (option := complete(text, i)) is not None:
            found.append(option)
            i += 1
        return found

    assert options("hom", "hom") == ["homeland "]
    assert options("attack Anna Ind", "Ind") == ["India ", "Indonesia "]
    assert options('homeland Anna "United S', "S") == ["States\""]
    assert options("attack Anna unit", "unit") == ['"United States" ', '"United Kingdom" ']


def test_repl_new_game_is_resumed_next_time(tmp_path):
    db = tmp_path / "game.sqlite"
    ledger("--db", str(db), stdin=SETUP3)
    res = ledger("--db", str(db), stdin="new\nplayers Xena Yves\n")
    assert "new game 2" in res.stdout
    res = ledger("--db", str(db), stdin="status\n")
    assert "game 2 in" in res.stdout and "Xena" in res.stdout


def test_repl_on_a_damaged_file_is_one_sentence(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 600)
    res = ledger("--db", str(bad), stdin="quit\n")
    assert res.returncode == 2 and res.stderr.startswith("videopac ledger: ") and res.stderr.count("\n") == 1


def test_repl_warns_when_a_pbr_passes_the_printed_track(tmp_path):
    board = tmp_path / "big.csv"
    board.write_text("zone,position,country,pbu\n1,1,Atlantis,100\n1,2,Small,2\n2,1,Borealis,10\n"
                     "3,1,Giant,100\n")                 # 100: the most a country may be worth
    res = ledger(stdin="board big.csv\nplayers Anna Bert\nstart Bert\nhomeland Bert Borealis\n"
                 "homeland Anna Atlantis\nallies Bert -\nallies Anna Small\nattack Anna Giant\nwar Anna 0\n"
                 "status\n", cwd=tmp_path)
    assert "warning: Anna's PBR 101 is past 100, the end of the printed track" in res.stdout
    assert "(past the printed track)" in res.stdout


def test_the_documented_end_game_replays(root, tmp_path):
    status = replay_documented(root, tmp_path, "A short game on a six-country board")
    assert status["phase"] == "over" and status["winner"] == "Bert"
    assert [p["pbr"] for p in status["players"]] == [2.5, 4, 2.5]
    assert status["war_chest"] == 0
