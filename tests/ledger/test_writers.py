"""One game, many writers: every action is checked and stored against the latest state in one
transaction, so processes sharing a game file never both book conflicting actions."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from board_ledger import events as ev
from board_ledger import notation
from board_ledger.errors import LedgerError, RuleError
from board_ledger.store import Store
from ledger_helpers import SETUP3, play, snapshot


def setup_file(path, text=SETUP3 + "pass Carla\n"):
    """A game file where it is Anna's turn (Carla passed)."""
    store = Store(path)
    play(text, game=store.load()[1])
    store.close()


def stored_lines(path) -> list[str]:
    store = Store(path, create=False)
    try:
        return [notation.format_event(e) for e in store.events(store.latest_game())]
    finally:
        store.close()


def test_a_process_that_was_behind_takes_in_the_news_and_its_action_is_judged_again(tmp_path):
    path = tmp_path / "g.sqlite"
    setup_file(path)
    first, second = Store(path), Store(path)
    game_id, one = first.load()
    _, two = second.load()
    one.play(ev.Pass("Anna"))
    one.play(ev.Pass("Bert"))                        # two does not know: it still sees Anna's turn
    with pytest.raises(RuleError, match="Carla"):
        two.play(ev.Pass("Bert"))                    # the same click, judged against the file
    assert snapshot(two.state) == snapshot(one.state) and two.seq == one.seq == 11
    applied = second.apply(game_id, ev.Pass("Carla"))
    assert applied.seq == 12 and applied.caught_up == ()
    assert first.refresh(game_id) == [ev.Pass("Carla")] and first.refresh(game_id) == []
    assert first.last_seq(game_id) == 12
    first.close(), second.close()
    assert stored_lines(path)[-3:] == ["pass Anna", "pass Bert", "pass Carla"]
    Store(path).load()                               # the file replays


def test_apply_reports_what_it_took_in_and_a_stale_undo_is_refused(tmp_path):
    path = tmp_path / "g.sqlite"
    setup_file(path)
    first, second = Store(path), Store(path)
    game_id, _ = first.load()
    second.load()
    first.apply(game_id, ev.Pass("Anna"))
    with pytest.raises(LedgerError, match="changed in another window"):
        second.apply(game_id, ev.Undo())             # it would cancel a move its user never saw
    assert first.apply(game_id, ev.Pass("Bert")).caught_up == ()
    applied = second.apply(game_id, ev.Pass("Carla"))
    assert applied.caught_up == (ev.Pass("Bert"),) and applied.seq == 12
    assert second.apply(game_id, ev.Undo()).caught_up == ()   # now it has seen everything
    assert stored_lines(path)[-4:] == ["pass Anna", "pass Bert", "pass Carla", "undo"]
    first.close(), second.close()


def repl(path, root):
    return subprocess.Popen([sys.executable, "-m", "videopac", "ledger", "--db", str(path)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})


def answer(proc, line: str) -> list[str]:
    """Type one line; the lines printed up to the verdict (ok:/refused:)."""
    proc.stdin.write(line + "\n")
    proc.stdin.flush()
    out = []
    for text in proc.stdout:
        out.append(text.rstrip("\n"))
        if text.startswith(("ok:", "refused:")):
            return out
    raise AssertionError(f"the REPL ended without an answer to {line!r}: {out}")


def test_two_repls_type_pass_bert_only_one_is_booked(tmp_path, root):
    """The reproduction of the issue: two REPLs on one file, `pass Bert` in both."""
    path = tmp_path / "g.sqlite"
    setup_file(path, SETUP3 + "pass Carla\npass Anna\n")      # Bert's turn
    a, b = repl(path, root), repl(path, root)
    try:
        for proc in (a, b):                                  # both have read the file
            assert "10 actions so far" in proc.stdout.readline()
        assert answer(a, "pass Bert")[-1] == "ok: pass Bert"
        out = answer(b, "pass Bert")
        assert "another ledger on this file booked: pass Bert" in out
        assert out[-1].startswith("refused: rule") and "Carla" in out[-1]
        assert answer(b, "pass Carla")[-1] == "ok: pass Carla"
        out = answer(a, "undo")                              # a sees the news before it undoes
        assert "another ledger on this file booked: pass Carla" in out
        assert out[-1] == "ok: undo"
    finally:
        for proc in (a, b):
            proc.stdin.close()
            proc.wait(timeout=60)
    assert a.returncode == b.returncode == 0 and a.stderr.read() == b.stderr.read() == ""
    assert stored_lines(path)[-4:] == ["pass Anna", "pass Bert", "pass Carla", "undo"]
    res = subprocess.run([sys.executable, "-m", "videopac", "ledger", "status", "--db", str(path)],
                         capture_output=True, text=True, cwd=root, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert res.returncode == 0, res.stderr


WRITER = textwrap.dedent("""
    import dataclasses, random, sys
    from board_ledger import events as ev, notation
    from board_ledger.errors import LedgerError
    from board_ledger.rules import ANY_ENERGY, energy_range, legal_actions
    from board_ledger.store import Store

    store = Store(sys.argv[1])
    rng = random.Random(int(sys.argv[2]))
    game_id, game = store.load()
    print("ready", flush=True)
    sys.stdin.readline()                           # all writers start together
    for _ in range(int(sys.argv[3])):
        # chosen from what this process last saw: often stale, the store judges it again
        legal = [a for a in legal_actions(game.state) if not isinstance(a, (ev.Pact, ev.TimeUp))]
        if not legal:
            break
        action = rng.choice(legal)
        if getattr(action, "energy", None) == ANY_ENERGY:
            action = dataclasses.replace(action, energy=rng.randint(*energy_range(game.state, action)))
        try:
            applied = store.apply(game_id, action)
        except LedgerError:
            print("refused", flush=True)
            continue
        print(f"ack {applied.seq} {notation.format_event(applied.event)}", flush=True)
    store.close()
""")


def test_many_processes_booking_at_once_lose_nothing_acknowledged(tmp_path, root):
    path = tmp_path / "g.sqlite"
    setup_file(path)
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(seed), "40"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root,
                                env={**os.environ, "PYTHONPATH": str(root)}) for seed in range(4)]
    for w in writers:
        assert w.stdout.readline() == "ready\n"
    for w in writers:
        w.stdin.write("go\n")
        w.stdin.flush()
    outputs = [w.communicate(timeout=300)[0].splitlines() for w in writers]
    assert all(w.returncode == 0 for w in writers)
    acked = {}
    for lines in outputs:
        for line in lines:
            if line.startswith("ack "):
                _, seq, text = line.split(" ", 2)
                assert int(seq) not in acked           # one sequence number, one action
                acked[int(seq)] = text
    assert sum(line == "refused" for lines in outputs for line in lines) > 0   # there was contention
    stored = stored_lines(path)
    assert len(stored) == 9 + len(acked)             # nothing but the acknowledged actions ...
    assert all(stored[seq - 1] == text for seq, text in acked.items())   # ... and every one of them
    store = Store(path, create=False)
    store.load()                                     # and the game still replays under the rules
    store.close()
