"""What one accepted action changed, as data: chips into and out of the war chest, PBR changes,
countries that changed hands, alliances freed, zone bonuses, eliminations, the next turn.

``effects(before, after, action)`` compares the states before and after an action (so ``undo``,
itself an event, is described the same way: by what it gave back). Each effect is a plain dict
with a ``kind`` and named fields (docs/ledger.md, "Effects"); the REPL, the window, the panel and
the web ledger render them (``effects_lines``), `ledger replay --json --effects` prints them.
The comparison is ``SECTIONS``, one small function per kind of change in the order they are said;
a new kind of effect is one function there and its sentence in ``SENTENCES`` (with ``SAID``/``CASE`` rows
if its fields need words or it is said in more than one way).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from i18n import N_, _

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.notation import display_event, format_event, parse_line
from board_ledger.general import LEVEL_NAMES
from board_ledger.rules import ZONE_BONUS, challenge_energy, pbr
from board_ledger.state import ALLIED, Player, State

if TYPE_CHECKING:
    from board_ledger.game import Game

Effect = dict[str, Any]
HOMELAND = "homeland"


def _holders(s: State, country: str) -> dict[str, str]:
    """Who has a marker on ``country`` and how: homeland, allied or conquered."""
    out = dict(s.holders.get(country, {}))
    owner = s.homeland_owner(country)
    if owner:
        out[owner] = HOMELAND
    return out


def next_defender(s: State) -> str | None:
    """Who defends now: the defender of the war being fought, else the player who would defend
    an unoccupied country attacked now (rules 11A, 13E)."""
    if s.war:
        return s.war.defenders[0]
    if s.phase == "play" and s.turn:
        return s.left_of(s.last_defender or s.turn, skip=set(s.pact_of(s.turn)))
    return None


def _turn_of(s: State) -> dict[str, Any]:
    if s.confrontation:
        c = s.confrontation
        return {"attacker": c.attacker, "defender": c.opponent if c.attacker == c.challenger else c.challenger}
    return {"attacker": s.turn, "defender": next_defender(s)}


@dataclass(frozen=True)
class Change:
    """One accepted action and the states around it: what each section of ``effects`` reads
    (``cancelled``: the action an ``undo`` took back)."""
    before: State
    after: State
    action: ev.Event
    cancelled: ev.Event | None = None

    def players(self) -> Iterator[tuple[Player, Player]]:
        """Each player as he was and as he is, in seat order (players seated by this action left out)."""
        was = {p.name: p for p in self.before.players}
        return ((was[p.name], p) for p in self.after.players if p.name in was)


# --- the sections of effects(), in the order a person says them (docs/ledger.md, "Effects") ------
def _undone(c: Change) -> Iterator[Effect]:
    if isinstance(c.action, ev.Undo) and c.cancelled is not None:
        yield {"kind": "undone", "action": format_event(c.cancelled)}


def _battle(c: Change) -> Iterator[Effect]:
    if isinstance(c.action, ev.Battle):
        contest = c.before.war or c.before.confrontation
        yield {"kind": "battle", "number": len(contest.history) + 1 if contest else 1,
               "weapons": list(c.action.weapons), "winner": c.action.winner or None,
               "energies": list(c.action.energies) if c.action.energies else None}


def _war_won(c: Change) -> Iterator[Effect]:
    """The war the action decided (an undo gives a war back, it wins none)."""
    r = c.after.last_war
    if r is not None and not isinstance(c.action, ev.Undo):
        yield {"kind": "war_won", "country": r.target, "winners": list(r.winners),
               "losers": list(r.losers), "energy": r.energy}


def _chips(c: Change) -> Iterator[Effect]:
    """Each player's chips: zone bonuses (rule 7), then what he paid in or received, then what
    went onto his PBR when the final round ended (rule 20C)."""
    to_pbr = c.before.phase == "final-round" and c.after.phase in ("endgame", "over")
    for old, p in c.players():
        bonus = 0
        for zone in sorted(p.bonus_zones - old.bonus_zones):
            amount = ZONE_BONUS * sum(1 for country in c.after.board.zones[zone] if country.name != p.homeland)
            yield {"kind": "zone_bonus", "player": p.name, "zone": zone, "amount": amount}
            bonus += amount
        converted = c.after.converted.get(p.name, 0) if to_pbr else 0
        change = p.chips + converted - old.chips - bonus
        if change:
            yield {"kind": "paid_in" if change < 0 else "paid_out", "player": p.name, "amount": abs(change)}
        if converted:
            yield {"kind": "chips_to_pbr", "player": p.name, "amount": converted}


def _war_chest(c: Change) -> Iterator[Effect]:
    if c.after.war_chest != c.before.war_chest:
        yield {"kind": "war_chest", "change": c.after.war_chest - c.before.war_chest,
               "balance": c.after.war_chest}


def _pbr(c: Change) -> Iterator[Effect]:
    for old, p in c.players():
        if p.halves != old.halves:
            yield {"kind": "pbr", "player": p.name, "halves": p.halves - old.halves,
                   "change": pbr(p.halves - old.halves), "pbr": pbr(p.halves)}


def _countries(c: Change) -> Iterator[Effect]:
    for country in c.after.board.countries:
        old, new = _holders(c.before, country.name), _holders(c.after, country.name)
        if old == new:
            continue
        if not new and set(old.values()) == {ALLIED}:     # rule 19C: alliances of a player out
            yield {"kind": "freed", "country": country.name, "players": sorted(old, key=c.after.names.index)}
        else:
            yield {"kind": "country", "country": country.name, "before": old, "after": new}


def _war_begun(c: Change) -> Iterator[Effect]:
    w = c.after.war
    if w and not c.before.war:
        yield {"kind": "war", "country": w.target, "attackers": list(w.side), "defenders": list(w.defenders)}


def _confrontation_begun(c: Change) -> Iterator[Effect]:
    duel = c.after.confrontation
    if duel and not c.before.confrontation:
        yield {"kind": "confrontation", "challenger": duel.challenger, "opponent": duel.opponent,
               "energies": {n: duel.energy[n] for n in (duel.challenger, duel.opponent)}}


def _eliminated(c: Change) -> Iterator[Effect]:
    """Players out of the game (rule 19C), or back in it by an undo."""
    for old, p in c.players():
        if p.eliminated != old.eliminated:
            yield {"kind": "eliminated" if p.eliminated else "back", "player": p.name}


def _pacts(c: Change) -> Iterator[Effect]:
    """Player alliances formed, then those dissolved (rule 18)."""
    before, after = set(c.before.pacts), set(c.after.pacts)
    for pact in sorted(after - before, key=sorted):
        yield {"kind": "pact", "players": [n for n in c.after.names if n in pact]}
    for pact in sorted(before - after, key=sorted):
        yield {"kind": "pact_ended", "players": [n for n in c.before.names if n in pact]}


def _seats(c: Change) -> Iterator[Effect]:
    """A seat taken over by a person or given back to a computer general (docs/generals.md)."""
    for old, p in c.players():
        if p.general != old.general:
            yield {"kind": "seat", "player": p.name, "general": p.general}


def _phase(c: Change) -> Iterator[Effect]:
    if c.after.phase != c.before.phase and c.before.players:
        yield {"kind": "phase", "phase": c.after.phase}


# what comes next: one of the three, by the phase the action leads to
def _winner(c: Change) -> Iterator[Effect]:
    if c.after.phase == "over" and c.before.phase != "over":
        yield {"kind": "winner", "player": c.after.winner}


def _challenge(c: Change) -> Iterator[Effect]:
    """The next confrontation of the end game, once it is known (rule 21B)."""
    a = c.after
    if a.phase == "endgame" and a.expected and not a.confrontation \
            and (a.expected != c.before.expected or c.before.confrontation):
        challenger, opponent = a.expected
        yield {"kind": "challenge", "challenger": challenger, "opponent": opponent,
               "energies": {n: challenge_energy(a.player(n).halves) for n in (challenger, opponent)}}


def _turn(c: Change) -> Iterator[Effect]:
    """Whose turn it is, when that changed (or an undo gave it back)."""
    if c.after.phase in ("play", "final-round") and not c.after.war:
        turn = _turn_of(c.after)
        if turn != _turn_of(c.before) or c.before.war or isinstance(c.action, ev.Undo):
            yield {"kind": "turn", **turn}


#: the sections of ``effects``, in the order of docs/ledger.md's table (money, PBR, countries, the
#: war, the people, what comes next); a new kind of effect is one function here and its sentence
SECTIONS: tuple[Callable[[Change], Iterator[Effect]], ...] = (
    _undone, _battle, _war_won, _chips, _war_chest, _pbr, _countries, _war_begun,
    _confrontation_begun, _eliminated, _pacts, _seats, _phase, _winner, _challenge, _turn)


def effects(before: State, after: State, action: ev.Event, cancelled: ev.Event | None = None) -> list[Effect]:
    """The effects of ``action`` (``cancelled``: the action an ``undo`` took back), in the order
    a person would say them: money, PBR, countries, the war, the people, what comes next."""
    change = Change(before, after, action, cancelled)
    return [e for section in SECTIONS for e in section(change)]


# --- said in words: one whole sentence per effect, named placeholders (translatable) ------------
SENTENCES: dict[str, str] = {
    "undone": N_("Undone: {action}."),
    "paid_in": N_("{player} pays {amount} into the war chest."),
    "paid_out": N_("{player} receives {amount} from the war chest."),
    "chips_to_pbr": N_("{player}'s {amount} in chips go onto the PBR (rule 20C)."),
    "zone_bonus": N_("{player} holds all of zone {zone}: bonus {amount} (rule 7)."),
    "war_chest": N_("War chest {balance:+d}."),
    "pbr": N_("{player}'s PBR {change} to {pbr}."),
    "country.conquered": N_("{country} is conquered by {players}."),
    "country.allied": N_("{country} is allied with {players}."),
    "country.homeland": N_("{country} is {players}'s homeland."),
    "country.none": N_("{country} is unoccupied again."),
    "freed": N_("{country} is freed from {players}'s alliance and open to attack."),
    "battle.won": N_("Battle {number}: {winner} wins."),
    "battle.draw": N_("Battle {number}: a draw, both weapons are destroyed."),
    "war": N_("War for {country}: {attackers} against {defenders}."),
    "war_won": N_("{winners} won the war for {country}."),
    "confrontation": N_("Confrontation: {challenger} ({challenger_energy}) against {opponent} ({opponent_energy})."),
    "eliminated": N_("{player} is out of the game (rule 19C)."),
    "back": N_("{player} is back in the game."),
    "pact": N_("{players} are now allies (rule 18)."),
    "pact_ended": N_("The alliance of {players} is dissolved (rule 18F)."),
    "seat.person": N_("A person plays {player}'s seat now."),
    "seat.computer": N_("The computer ({level}) plays {player}'s seat now."),
    "phase.final-round": N_("Every country is occupied: the final round begins (rule 20)."),
    "phase.endgame": N_("The end game begins (rule 21)."),
    "winner": N_("{player} wins the game (rule 22)."),
    "winner.draw": N_("The game ends in a draw."),
    "challenge": N_("Next: {challenger} challenges {opponent}, energies {challenger_energy} and {opponent_energy} (PBR x 100)."),
    "turn": N_("Next: {attacker} attacks, {defender} would defend an unoccupied country."),
    "turn.alone": N_("Next: {attacker}'s turn."),
}
# which effects go on the first line (what changed hands) and which on the second (what follows)
FIRST_LINE = {"undone", "paid_in", "paid_out", "chips_to_pbr", "zone_bonus", "war_chest", "pbr",
              "country", "freed", "battle", "war_won"}


def names_text(names: list[str]) -> str:
    """Names as a person says them: "Anna", "Anna and Bert", "Anna, Bert and Carla"."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _holders_said(e: Effect) -> dict[str, Any]:
    """A country's new holders of its first kind (a country has one kind of marker on it)."""
    holders = e["after"]
    first = next(iter(holders.values()), "none")
    return {"players": names_text([n for n, k in holders.items() if k == first] or ["-"])}


def _names_said(*keys: str) -> Callable[[Effect], dict[str, Any]]:
    """The fields ``keys`` (lists of players) said as a person says them."""
    return lambda e: {key: names_text(e[key]) for key in keys}


def _energies_said(e: Effect) -> dict[str, Any]:
    return {"challenger_energy": e["energies"][e["challenger"]], "opponent_energy": e["energies"][e["opponent"]]}


def _undone_said(e: Effect) -> dict[str, Any]:
    undone = parse_line(e["action"])
    return {"action": display_event(undone) if undone else e["action"]}


#: how an effect's fields are said where its data is not already words: names, signs, energies
SAID: dict[str, Callable[[Effect], dict[str, Any]]] = {
    "undone": _undone_said,
    "pbr": lambda e: {"change": f"{'+' if e['halves'] > 0 else '−'}{abs(e['change']):g}", "pbr": f"{e['pbr']:g}"},
    "country": _holders_said,
    "freed": _names_said("players"),
    "war": _names_said("attackers", "defenders"),
    "war_won": _names_said("winners"),
    "pact": _names_said("players"),
    "pact_ended": _names_said("players"),
    "confrontation": _energies_said,
    "challenge": _energies_said,
    "seat": lambda e: {"level": _(LEVEL_NAMES.get(e["general"]) or e["general"])},
}
#: the kinds said in one of several sentences (SENTENCES' "kind.case" keys), and which one
CASE: dict[str, Callable[[Effect], str]] = {
    "country": lambda e: f"country.{next(iter(e['after'].values()), 'none')}",
    "battle": lambda e: "battle.won" if e["winner"] else "battle.draw",
    "phase": lambda e: f"phase.{e['phase']}",
    "winner": lambda e: "winner" if e["player"] is not None else "winner.draw",
    "turn": lambda e: "turn" if e["defender"] else "turn.alone",
    "seat": lambda e: "seat.computer" if e["general"] else "seat.person",
}


def sentence(e: Effect) -> str | None:
    """One effect as one sentence (None for an effect nobody needs said, such as a phase the
    next line names anyway)."""
    kind = CASE[e["kind"]](e) if e["kind"] in CASE else e["kind"]
    if e["kind"] == "phase" and kind not in SENTENCES:
        return None
    fields = {**e, **({"country": shown(e["country"])} if "country" in e else {})}
    fields.update(SAID[e["kind"]](e) if e["kind"] in SAID else {})
    return _(SENTENCES[kind]).format(**fields)


def effects_lines(effects_: list[Effect]) -> list[str]:
    """The effects in one or two plain lines: what changed, then what follows."""
    first = [sentence(e) for e in effects_ if e["kind"] in FIRST_LINE]
    second = [sentence(e) for e in effects_ if e["kind"] not in FIRST_LINE]
    return [" ".join(s for s in line if s) for line in (first, second) if any(line)]


def play(game: "Game", event: ev.Event) -> tuple[ev.Event, list[Effect]]:
    """Accept one action in ``game`` (Game.play: stored first when the game is bound to a file,
    after taking in what other processes stored) and say what it did."""
    canonical = game.play(event)
    return canonical, effects(game.before, game.state, canonical, game.cancelled)
