"""A game the computer generals play by themselves, from the players line to the winner.

Every seat is a general (board_ledger/general.py). A battle is not a decision: it is fought by
whatever ``Fight`` the caller gives (videopac/generals.py: the battle program, headless), after
the fighters chose their weapons and typed their energies; its result is booked as the battle
bridge would propose it. Each game is checked to replay from its notation to the same state.
"""
from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from board_ledger import events as ev
from board_ledger import general, notation, report, rules
from board_ledger.board import Board
from board_ledger.errors import LedgerError
from board_ledger.game import Game
from board_ledger.general import Decision, General
from board_ledger.state import State

NAMES = ("Anna", "Bert", "Carla", "Dora", "Emil", "Frieda")
MAX_ACTIONS = 6000             # a game longer than this is cut off (none has been, docs/generals.md)

#: a battle: (levels of attacker and defender, their weapons, their energies at entry, seed) ->
#: ("attacker" | "defender" | "" for both destroyed, energies left (attacker, defender))
Fight = Callable[[tuple[str, str], tuple[str, str], tuple[int, int], int], tuple[str, tuple[int, int]]]


@dataclass
class GameRun:
    """One finished game: who sat where, who won, how long it took and how it ended."""
    seed: int
    seats: list[str]                   # the level of each seat, in seating order
    winner: int | None                 # the winner's seat (None: a draw)
    turns: int
    battles: int
    ending: str
    actions: int
    replayed: bool                     # the notation replays to the same state
    cpu_seconds: float
    slowest_decision: float            # CPU seconds of the slowest decision
    text: str = field(repr=False)      # the game's notation


def players_line(levels: Sequence[str]) -> ev.Players:
    """The players of a computer game: every seat a general at its level."""
    names = NAMES[:len(levels)]
    return ev.Players(tuple(names), tuple(levels))


def play_game(seed: int, levels: Sequence[str], fight: Fight,
              board: Board | None = None, max_actions: int = MAX_ACTIONS) -> GameRun:
    """A whole game of computer generals from the players line to the winner."""
    started = time.process_time()
    game = Game()
    if board is not None:
        game.take(ev.BoardFile(board.source, board.text))
    game.take(players_line(levels))
    seat_of = {n: i for i, n in enumerate(game.state.names)}
    generals = {n: General(level, random.Random(seed * 7919 + i))
                for n, (i, level) in zip(game.state.names, enumerate(levels))}
    battles, slowest = 0, 0.0
    while game.state.phase != "over" and len(game.actions) < max_actions:
        s = game.state
        if general.fighters(s) is not None:
            battles += 1
            for event in battle_events(s, generals, fight, seed * 100003 + battles):
                game.take(event)
            continue
        t = time.process_time()
        decision = next_decision(s, generals)
        slowest = max(slowest, time.process_time() - t)
        if decision is None:
            break
        game.take(decision.action)
    s = game.state
    text = "\n".join(notation.format_event(e) for e in game.events) + "\n"
    return GameRun(seed, list(levels), seat_of.get(s.winner) if s.winner else None, turns_of(game),
                   battles, ending_of(s), len(game.actions), replays(text, s),
                   time.process_time() - started, slowest, text)


def next_decision(s: State, generals: dict[str, General]) -> Decision | None:
    """The next board decision of a computer game (rule 2's draw included)."""
    if s.phase == "setup":
        return generals[s.names[0]].draw(s)
    name = general.whose_decision(s)
    if name is None:
        return None
    return generals[name].decide(s, name)


def battle_events(s: State, generals: dict[str, General], fight: Fight, seed: int) -> list[ev.Event]:
    """One battle of the war or confrontation: the fighters choose their weapons and type the
    energies, the cartridge fights it, and the lines the bridge would propose are returned."""
    pair = general.fighters(s)
    assert pair is not None
    a, d = pair
    weapons = (generals[a].weapon(s, a)[0], generals[d].weapon(s, d)[0])
    energies = general.entry_energies(s)
    result, left = fight((generals[a].level, generals[d].level), weapons, energies, seed)
    winner = {"attacker": a, "defender": d}.get(result, "")
    return result_events(s, ev.Battle(weapons, winner, left), random.Random(seed))


def result_events(s: State, battle: ev.Battle, rng: random.Random) -> list[ev.Event]:
    """The battle as the ledger books it, and the war's or confrontation's end where the battles
    alone cannot say it (rule 12C equal energies, both energies gone: the players choose)."""
    try:
        after = rules.step(s, battle)[0]
    except LedgerError:                                # a result the rules cannot take as seen:
        battle = ev.Battle(battle.weapons, battle.winner, None)    # book the battle alone
        after = rules.step(s, battle)[0]
    out: list[ev.Event] = [battle]
    war = after.war
    if war is not None and (war.battles == 3 or max(war.wins.values()) >= 2
                            or war.left["attacker"] == war.left["defender"] == 0):
        role = rules.decided_role(war) or rng.choice(("attacker", "defender"))
        who = war.side[0] if role == "attacker" else war.defenders[0]
        loser = "defender" if role == "attacker" else "attacker"
        out.append(ev.War(who, war.left[loser]))
    c = after.confrontation
    if c is not None and battle.energies is not None and all(v == 0 for v in c.left.values()):
        out.append(ev.Survivor(rng.choice((c.challenger, c.opponent)), 0))
    return out


def turns_of(game: Game) -> int:
    """How many turns the game had: each time the turn (or the final round's chance) moved on."""
    turns, last = 0, None
    for s in game.states:
        if s.phase in ("play", "final-round") and s.turn != last and s.turn is not None:
            turns += 1
        last = s.turn if s.phase in ("play", "final-round") else None
    return turns


def ending_of(s: State) -> str:
    if s.phase != "over":
        return "cut off"
    if s.target_pbr is not None and s.winner and s.player(s.winner).halves >= 2 * s.target_pbr:
        return "variant 2"
    if len(s.live()) == 1:
        return "rule 19"
    return "rule 22"


def replays(text: str, s: State) -> bool:
    """Whether the game's notation, read back line by line, folds to the same state."""
    game = Game()
    for line in text.splitlines():
        event = notation.parse_line(line)
        if event is not None:
            game.take(event)
    again = game.state
    return (report.status(again) == report.status(s) and again.holders == s.holders
            and [p.general for p in again.players] == [p.general for p in s.players])
