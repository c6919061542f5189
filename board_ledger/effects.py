"""What one accepted action changed, as data: chips into and out of the war chest, PBR changes,
countries that changed hands, alliances freed, zone bonuses, eliminations, the next turn.

``effects(before, after, action)`` compares the states before and after an action (so ``undo``,
itself an event, is described the same way: by what it gave back). Each effect is a plain dict
with a ``kind`` and named fields (docs/ledger.md, "Effects"); the REPL, the window, the panel and
the web ledger render them (``effects_text``), `ledger replay --json --effects` prints them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from i18n import N_, _

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.notation import display_event, format_event, parse_line
from board_ledger.rules import ZONE_BONUS, challenge_energy, pbr
from board_ledger.state import ALLIED, State

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


def _pacts(s: State) -> set[frozenset[str]]:
    return set(s.pacts)


def next_defender(s: State) -> str | None:
    """Who defends now: the defender of the war being fought, else the player who would defend
    an unoccupied country attacked now (rules 11A, 13E)."""
    if s.war:
        return s.war.defenders[0]
    if s.phase == "play" and s.turn:
        return s.left_of(s.last_defender or s.turn, skip=set(s.pact_of(s.turn)))
    return None


def _turn(s: State) -> dict[str, Any]:
    if s.confrontation:
        c = s.confrontation
        return {"attacker": c.attacker, "defender": c.opponent if c.attacker == c.challenger else c.challenger}
    return {"attacker": s.turn, "defender": next_defender(s)}


def effects(before: State, after: State, action: ev.Event, cancelled: ev.Event | None = None) -> list[Effect]:
    """The effects of ``action`` (``cancelled``: the action an ``undo`` took back), in the order
    a person would say them: money, PBR, countries, the war, the people, what comes next."""
    out: list[Effect] = []
    if isinstance(action, ev.Undo) and cancelled is not None:
        out.append({"kind": "undone", "action": format_event(cancelled)})
    was = {p.name: p for p in before.players}
    now = {p.name: p for p in after.players}
    # -- the battle and the war it decided ---------------------------------------------------
    if isinstance(action, ev.Battle):
        contest = before.war or before.confrontation
        out.append({"kind": "battle", "number": len(contest.history) + 1 if contest else 1,
                    "weapons": list(action.weapons), "winner": action.winner or None,
                    "energies": list(action.energies) if action.energies else None})
    if after.last_war is not None and not isinstance(action, ev.Undo):
        r = after.last_war
        out.append({"kind": "war_won", "country": r.target, "winners": list(r.winners),
                    "losers": list(r.losers), "energy": r.energy})
    # -- chips -------------------------------------------------------------------------------
    to_pbr = before.phase == "final-round" and after.phase in ("endgame", "over")
    for p in after.players:
        old = was.get(p.name)
        if old is None:
            continue
        bonus = 0
        for zone in sorted(p.bonus_zones - old.bonus_zones):
            amount = ZONE_BONUS * sum(1 for c in after.board.zones[zone] if c.name != p.homeland)
            out.append({"kind": "zone_bonus", "player": p.name, "zone": zone, "amount": amount})
            bonus += amount
        converted = after.converted.get(p.name, 0) if to_pbr else 0
        change = p.chips + converted - old.chips - bonus
        if change < 0:
            out.append({"kind": "paid_in", "player": p.name, "amount": -change})
        elif change > 0:
            out.append({"kind": "paid_out", "player": p.name, "amount": change})
        if converted:
            out.append({"kind": "chips_to_pbr", "player": p.name, "amount": converted})
    if after.war_chest != before.war_chest:
        out.append({"kind": "war_chest", "change": after.war_chest - before.war_chest,
                    "balance": after.war_chest})
    # -- PBR ---------------------------------------------------------------------------------
    for p in after.players:
        old = was.get(p.name)
        if old is not None and p.halves != old.halves:
            out.append({"kind": "pbr", "player": p.name, "halves": p.halves - old.halves,
                        "change": pbr(p.halves - old.halves), "pbr": pbr(p.halves)})
    # -- countries ---------------------------------------------------------------------------
    for c in after.board.countries:
        old_h, new_h = _holders(before, c.name), _holders(after, c.name)
        if old_h == new_h:
            continue
        if not new_h and set(old_h.values()) == {ALLIED}:     # rule 19C: alliances of a player out
            out.append({"kind": "freed", "country": c.name, "players": sorted(old_h, key=after.names.index)})
        else:
            out.append({"kind": "country", "country": c.name, "before": old_h, "after": new_h})
    # -- wars and confrontations that begin --------------------------------------------------
    if after.war and not before.war:
        w = after.war
        out.append({"kind": "war", "country": w.target, "attackers": list(w.side),
                    "defenders": list(w.defenders)})
    if after.confrontation and not before.confrontation:
        duel = after.confrontation
        out.append({"kind": "confrontation", "challenger": duel.challenger, "opponent": duel.opponent,
                    "energies": {n: duel.energy[n] for n in (duel.challenger, duel.opponent)}})
    # -- people ------------------------------------------------------------------------------
    for name, p in now.items():
        if p.eliminated and name in was and not was[name].eliminated:
            out.append({"kind": "eliminated", "player": name})
        elif not p.eliminated and name in was and was[name].eliminated:
            out.append({"kind": "back", "player": name})
    for pact in sorted(_pacts(after) - _pacts(before), key=sorted):
        out.append({"kind": "pact", "players": [n for n in after.names if n in pact]})
    for pact in sorted(_pacts(before) - _pacts(after), key=sorted):
        out.append({"kind": "pact_ended", "players": [n for n in before.names if n in pact]})
    # -- what comes next ---------------------------------------------------------------------
    if after.phase != before.phase and before.players:
        out.append({"kind": "phase", "phase": after.phase})
    if after.phase == "over" and before.phase != "over":
        out.append({"kind": "winner", "player": after.winner})
    elif after.phase == "endgame" and after.expected and not after.confrontation \
            and (after.expected != before.expected or before.confrontation):
        a, b = after.expected
        out.append({"kind": "challenge", "challenger": a, "opponent": b,
                    "energies": {n: challenge_energy(after.player(n).halves) for n in (a, b)}})
    elif after.phase in ("play", "final-round") and not after.war:
        turn = _turn(after)
        if turn != _turn(before) or before.war or isinstance(action, ev.Undo):
            out.append({"kind": "turn", **turn})
    return out


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


def sentence(e: Effect) -> str | None:
    """One effect as one sentence (None for an effect nobody needs said, such as a phase the
    next line names anyway)."""
    kind, fields = e["kind"], dict(e)
    if "country" in e:
        fields["country"] = shown(e["country"])
    if kind == "undone":
        undone = parse_line(e["action"])
        fields["action"] = display_event(undone) if undone else e["action"]
    if kind == "pbr":
        fields["change"] = f"{'+' if e['halves'] > 0 else '−'}{abs(e['change']):g}"
        fields["pbr"] = f"{e['pbr']:g}"
    elif kind == "country":
        holders = e["after"]
        first = next(iter(holders.values()), "none")
        kind = f"country.{first}"
        fields["players"] = names_text([n for n, k in holders.items() if k == first] or ["-"])
    elif kind == "freed":
        fields["players"] = names_text(e["players"])
    elif kind == "battle":
        kind = "battle.won" if e["winner"] else "battle.draw"
    elif kind in ("war", "war_won", "pact", "pact_ended"):
        for key in ("attackers", "defenders", "winners", "players"):
            if key in e:
                fields[key] = names_text(e[key])
    elif kind in ("confrontation", "challenge"):
        fields["challenger_energy"] = e["energies"][e["challenger"]]
        fields["opponent_energy"] = e["energies"][e["opponent"]]
    elif kind == "phase":
        kind = f"phase.{e['phase']}"
        if kind not in SENTENCES:
            return None
    elif kind == "winner" and e["player"] is None:
        kind = "winner.draw"
    elif kind == "turn" and not e["defender"]:
        kind = "turn.alone"
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
