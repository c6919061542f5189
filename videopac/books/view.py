"""What a phone at the table sees of a game, as plain data, and who at the table may book now.

The web ledger (videopac/books/web.py) sends ``view(game)`` to every phone after every change;
the page turns it into the board, the players, the war, the buttons and the log in the reader's
language. Only data travels (names, numbers, rule numbers), no sentences, so the page can say it in
German or English. ``may_book`` is the table's rule of who books: the player whose move it is (both
sides during a war or a confrontation), the war-chest keeper, or anyone when the table says so.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import i18n
from i18n import LANGUAGES

from board_ledger import events as ev
from board_ledger import effects, notation, report, seats
from board_ledger.board import shown
from board_ledger.chart import COLOURS
from board_ledger.game import Game
from board_ledger.general import seat_label
from board_ledger.rules import OFFERED, WAR_ENERGY, challenge_energy, energy_range, legal_actions, pbr
from board_ledger.state import State

KEEPER = "keeper"          # the phone of whoever keeps the war chest (docs/rules.md: one player does)
VIEWER = "viewer"          # sees everything, books nothing
LOG_LENGTH = 60            # the log shows the latest actions that still count


def letters(names: list[str]) -> dict[str, str]:
    """One short, distinct mark per player for the board: the initial, or more letters if taken."""
    out: dict[str, str] = {}
    for name in names:
        for size in range(1, len(name) + 1):
            mark = name[:size].upper() if size == 1 else name[0].upper() + name[1:size]
            if mark not in out.values():
                break
        else:
            mark = str(len(out) + 1)
        out[name] = mark
    return out


def movers(s: State) -> list[str] | None:
    """The players whose move it is; None before the players are seated (anyone may set up)."""
    if s.phase == "setup":
        return None if not s.players else list(s.names)
    if s.phase in ("homelands", "alliances"):     # the legal actions: homelands, alliances
        choices = [e for e in legal_actions(s) if isinstance(e, (ev.Homeland, ev.Allies))]
        return [choices[0].player] if choices else []
    if s.war is not None:
        return list(s.war.side) + list(s.war.defenders)
    if s.confrontation is not None:
        return [s.confrontation.challenger, s.confrontation.opponent]
    if s.phase == "endgame":
        return list(s.expected) if s.expected else []
    if s.phase in ("play", "final-round"):
        return [s.turn] if s.turn else []
    return []


def may_book(game: Game, role: str, event: ev.Event, anyone: bool) -> bool:
    """Whether the phone joined as ``role`` may book ``event`` now (the rules judge it afterwards)."""
    if role == KEEPER:
        return True
    s = game.state
    if role not in s.names:
        return role != VIEWER and not s.players and movers(s) is None   # setting up: no seats yet
    if anyone or isinstance(event, ev.TimeUp):
        return True
    if isinstance(event, (ev.Pact, ev.Break)):
        return role in event.players
    if isinstance(event, ev.Seat):
        return role == event.player          # taking over a computer's seat, or giving it back
    allowed = movers(s)
    if isinstance(event, ev.Undo) and len(game.states) > 1:
        before = movers(game.states[-2])
        allowed = None if before is None or allowed is None else allowed + before
    return allowed is None or role in allowed


def _free_alliances(s: State, allies: list[ev.Allies]) -> dict[str, Any]:
    """The free alliances (rules 4–6): whose choice, his homeland's zone and value, the countries."""
    who = allies[0].player
    homeland = s.player(who).homeland
    assert homeland is not None            # alliances come after every homeland is chosen
    home = s.board[homeland]
    return {"player": who, "zone": home.zone, "limit": home.value,
            "free": sorted({c for e in allies for c in e.countries}, key=lambda c: s.board[c].position)}


def _attack(s: State, e: ev.Attack) -> dict[str, Any]:
    """An attack button, with what kind of country it attacks (the price differs, rules 10, 15, 19)."""
    kind = ("homeland" if s.homeland_owner(e.country) else
            "occupied" if s.occupied(e.country) else "unoccupied")
    return {"side": list(e.side), "country": e.country, "kind": kind}


@dataclass(frozen=True)
class Offer:
    """One group of the page's buttons in the view's ``legal``: its key, its value from the legal
    events of one class (all of them, in the rules' order) and its value when none is legal."""
    key: str
    value: Callable[[State, list[Any]], Any]
    empty: Callable[[], Any] = lambda: None


def buttons(key: str, button: Callable[[State, Any], Any]) -> Offer:
    """One button per legal event (``button(state, event)``), an empty list when none is legal."""
    return Offer(key, lambda s, events: [button(s, e) for e in events], list)


#: what the page offers of each verb the rules offer (rules.OFFERED), in the order of the view's
#: ``legal`` (docs/web.md); the page's script has a button for each key. How a verb is added:
#: docs/architecture.md, "Add a ledger verb".
OFFERS: dict[type[ev.Event], Offer] = {
    ev.Start: buttons("start", lambda s, e: e.player),
    ev.Homeland: buttons("homeland", lambda s, e: e.country),
    ev.Allies: Offer("allies", _free_alliances),
    ev.Ally: buttons("ally", lambda s, e: {"side": list(e.side), "country": e.country}),
    ev.Attack: buttons("attack", _attack),
    ev.Pass: Offer("pass", lambda s, passes: passes[-1].player),
    ev.Pact: buttons("pact", lambda s, e: list(e.players)),
    ev.Break: buttons("break", lambda s, e: list(e.players)),
    ev.Battle: Offer("battle", lambda s, battles: {"weapons": sorted({e.weapons for e in battles}),
                                                   "winners": sorted({e.winner for e in battles})}),
    ev.War: Offer("war", lambda s, wars: [{"winner": e.winner, "most": energy_range(s, e)[1]} for e in wars]),
    ev.Challenge: Offer("challenge", lambda s, challenges: [challenges[-1].challenger, challenges[-1].opponent]),
    ev.Survivor: Offer("survivor", lambda s, survivors: [{"player": e.player, "most": energy_range(s, e)[1]}
                                                         for e in survivors]),
    ev.TimeUp: Offer("time", lambda s, e: True, bool),
}
if set(OFFERS) != set(OFFERED):
    raise ImportError("view.OFFERS and rules.OFFERED disagree on "  # i18n: untranslated, a bug
                      f"{sorted(cls.verb for cls in set(OFFERS) ^ set(OFFERED))} "
                      "(docs/architecture.md, 'Add a ledger verb')")


def _legal(s: State) -> dict[str, Any]:
    """What the rules allow now, grouped for the page's buttons (OFFERS)."""
    legal: dict[type[ev.Event], list[ev.Event]] = {}
    for e in legal_actions(s) if s.phase != "over" else ():
        legal.setdefault(type(e), []).append(e)
    return {offer.key: offer.value(s, legal[cls]) if cls in legal else offer.empty()
            for cls, offer in OFFERS.items()}


def _zones(s: State) -> list[dict[str, Any]]:
    return [{"zone": zone, "countries": [
        {"name": c.name, "value": c.value, "homeland": s.homeland_owner(c.name),
         "holders": [[n, kind] for n, kind in s.holders.get(c.name, {}).items()]} for c in countries]}
        for zone, countries in s.board.zones.items()]


def _contest(s: State) -> dict[str, Any] | None:
    """The war or confrontation being fought: battles, weapons left, the energies to type."""
    if s.war is not None:
        w = s.war
        a, d = w.side[0], w.defenders[0]
        return {"kind": "war", "target": w.target, "war_kind": w.kind, "side": list(w.side),
                "defenders": list(w.defenders), "battles": w.battles,
                "wins": [w.wins["attacker"], w.wins["defender"]],
                "weapons_left": {a: [x for x in "PST" if x not in w.destroyed["attacker"]],
                                 d: [x for x in "PST" if x not in w.destroyed["defender"]]},
                "energy": {a: w.left["attacker"], d: w.left["defender"]}, "full": WAR_ENERGY}
    c = s.confrontation
    if c is not None:
        other = c.opponent if c.attacker == c.challenger else c.challenger
        return {"kind": "confrontation", "challenger": c.challenger, "opponent": c.opponent,
                "attacker": c.attacker, "defender": other, "battles": c.battles,
                "weapons_left": {n: [x for x in "PST" if c.lost.get(n) != x] for n in (c.attacker, other)},
                "energy": {n: c.left.get(n, c.energy[n]) for n in (c.attacker, other)},
                "start": dict(c.energy)}
    return None


def _endgame(s: State) -> dict[str, Any] | None:
    if s.phase != "endgame" and not (s.phase == "over" and s.fought):
        return None
    order = sorted(s.live(), key=lambda n: (s.player(n).halves, s.names.index(n)))
    return {"order": [[n, pbr(s.player(n).halves)] for n in order], "fought": sorted(s.fought),
            "expected": list(s.expected) if s.expected else None,
            "energies": {n: challenge_energy(s.player(n).halves) for n in (s.expected or ())}}


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Word sentences in ``lang`` for a moment, then in the process's language again. Used only
    around code that does not await, so no other request of the web server sees the change."""
    before = i18n.language()
    if lang is not None:
        i18n.set_language(lang)
    try:
        yield
    finally:
        i18n.set_language(before)


def in_each_language(say: Callable[[], Any]) -> dict[str, Any]:
    """What ``say`` says, once per language (the view goes to German and English phones alike)."""
    out = {}
    for lang in LANGUAGES:
        with speaking(lang):
            out[lang] = say()
    return out


def _log(game: Game) -> list[dict[str, Any]]:
    """The latest actions that still count, newest first, each with its effects as data and as
    text in each language (board_ledger/effects.py)."""
    out = []
    first = max(0, len(game.actions) - LOG_LENGTH)
    for i in range(len(game.actions) - 1, first - 1, -1):
        action = game.actions[i]
        said = effects.effects(game.states[i], game.states[i + 1], action)
        out.append({"n": i + 1, "line": notation.format_event(action), "effects": said,
                    "text": in_each_language(lambda: " ".join(effects.effects_lines(said)))})
    return out


def _generals(game: Game) -> dict[str, Any]:
    """The computer seats' news (docs/generals.md): whose move is being thought about, and the
    latest move of a computer seat with its why in each language."""
    s = game.state
    pair = seats.fighting(s)
    latest = seats.latest_why(game)
    return {"thinking": seats.thinking(s) or (pair[0] if pair else None),
            "latest": {"name": latest[0], "why": in_each_language(latest[1].say)} if latest else None}


def view(game: Game, game_id: int = 0, anyone: bool = False) -> dict[str, Any]:
    """Everything a phone shows, as JSON-ready data; ``seq`` is the number of events in the file."""
    s = game.state
    names = s.names
    marks = letters(names)
    return {
        "seq": len(game.events),
        "game": game_id,
        "anyone": anyone,
        "phase": s.phase,
        "war_chest": s.war_chest,
        "turn": report.turn(s),
        "winner": s.winner,
        "movers": movers(s),
        "undo": bool(game.actions),
        "players": [{"name": p.name, "letter": marks[p.name], "colour": COLOURS[i % len(COLOURS)],
                     "homeland": p.homeland, "chips": p.chips, "pbr": pbr(p.halves),
                     "eliminated": p.eliminated, "pact": sorted(s.pact_of(p.name) - {p.name}),
                     "computer": p.general,
                     "seat": in_each_language(lambda: seat_label(p.general)) if p.general else None}
                    for i, p in enumerate(s.players)],
        "generals": _generals(game),
        "zones": _zones(s),
        "country_names": in_each_language(lambda: {c.name: shown(c.name) for c in s.board.countries}),
        "legal": _legal(s),
        "contest": _contest(s),
        "endgame": _endgame(s),
        "log": _log(game),
        "war": report.war_view(s),
        "war_text": in_each_language(lambda: report.war_lines(s)),
        "variant": {"time": s.time_limit, "target": s.target_pbr},
    }
