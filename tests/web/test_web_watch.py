"""The phones' server lets two computer generals fight their war without making the phones
wait (issue 27 item 7, docs/web.md): the battle is planned beside the server's loop, and booked
under its lock afterwards."""
from __future__ import annotations

import asyncio
import threading

from board_ledger.store import Store
from tests.ledger.ledger_helpers import stored
from videopac.books.web import SharedGame

WAR = ("players cpu:Anna cpu:Bert", "start Anna", "homeland Anna Canada", "homeland Bert Mexico",
       "allies Anna -", "allies Bert -", "attack Bert India")


def test_the_phones_are_answered_while_two_generals_fight(tmp_path):
    db = str(tmp_path / "game.sqlite")
    stored(db, WAR)
    shared = SharedGame(db, "424242", pause=0)
    started, answered = threading.Event(), threading.Event()
    phone_first: list[bool] = []

    def battle(levels, weapons, energies, seed):
        """A battle that lasts until a phone was answered (or 20 s): on the server's loop it
        would hold every phone for all of it."""
        started.set()
        phone_first.append(answered.wait(20))
        return "attacker", energies

    shared.seats.fight = battle

    async def phone() -> None:
        while not started.is_set():
            await asyncio.sleep(0.01)
        async with shared.lock:         # a phone's request takes the lock, as a booking does
            shared.view_json()
        answered.set()

    async def table() -> None:
        watcher = asyncio.create_task(shared.watch())
        try:
            await asyncio.wait_for(phone(), 60)
            for _ in range(3000):
                if len(shared.game.events) > len(WAR):
                    break
                await asyncio.sleep(0.01)
        finally:
            watcher.cancel()

    try:
        asyncio.run(table())
    finally:
        shared.close()
    assert phone_first and all(phone_first)              # answered during the battle
    assert len(shared.game.events) > len(WAR)            # and the war's battle was booked after it
    assert [e.verb for e in Store(db).load()[1].events][len(WAR)] == "battle"
