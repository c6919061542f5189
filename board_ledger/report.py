"""What the ledger shows: the status JSON, the board by zone, the players, and what may be done now."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from i18n import N_, _, sort_key

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.general import seat_label
from board_ledger.rules import challenge_energy, decided_role, legal_actions, pbr
from board_ledger.state import ALLIED, CONQUERED, WEAPONS, State

ROLES = ("attacker", "defender")


#: each phase as the user reads it (the state and the status JSON keep the English word)
PHASES = {"setup": N_("setup"), "homelands": N_("homelands"), "alliances": N_("alliances"),
          "play": N_("play"), "final-round": N_("final-round"), "endgame": N_("endgame"),
          "over": N_("over")}


def phase_text(phase: str) -> str:
    """A phase's name in the user's language."""
    return _(PHASES.get(phase, phase))


def turn(s: State) -> dict[str, str | None]:
    """Whose turn it is: the attacker, the defender of the war in progress and its country."""
    if s.confrontation:
        c = s.confrontation
        return {"attacker": c.attacker,
                "defender": c.opponent if c.attacker == c.challenger else c.challenger, "target": None}
    if s.phase in ("play", "final-round"):
        return {"attacker": s.turn, "defender": s.war.defenders[0] if s.war else None,
                "target": s.war.target if s.war else None}
    return {"attacker": None, "defender": None, "target": None}


def player_letters(names: list[str]) -> dict[str, str]:
    """One letter per player for the board, besides his colour: his initial, else the next letter
    of his name not yet taken, else his seat number (docs/table.md)."""
    out: dict[str, str] = {}
    for seat, name in enumerate(names, start=1):
        letters = [ch.upper() for ch in name if ch.isalpha()]
        out[name] = next((ch for ch in letters if ch not in out.values()), str(seat))
    return out


def status(s: State) -> dict[str, Any]:
    """The status JSON of docs/ledger.md."""
    return {
        "phase": s.phase,
        "war_chest": s.war_chest,
        "turn": turn(s),
        "players": [{"name": p.name, "homeland": p.homeland, "chips": p.chips, "pbr": pbr(p.halves),
                     "allied": s.holdings(p.name, ALLIED), "conquered": s.holdings(p.name, CONQUERED),
                     "eliminated": p.eliminated} for p in s.players],
        "winner": s.winner,
    }


def _name_width(s: State) -> int:
    """The column width for country names: the longest name shown, at least the English 14."""
    return max([14] + [len(shown(c.name)) for c in s.board.countries])


def _battles(history: Sequence[tuple[tuple[str, str], str, tuple[int, int] | None]]) -> list[dict[str, Any]]:
    return [{"number": i + 1, "weapons": list(w), "winner": winner or None,
             "energies": list(energies) if energies else None}
            for i, (w, winner, energies) in enumerate(history)]


def _war_of(s: State) -> dict[str, Any] | None:
    """A war: its battles, score, weapons and energies left, who decided it and what ends it."""
    w = s.war
    if w is None:
        return None
    decided = decided_role(w) or None
    side = {"attacker": list(w.side), "defender": list(w.defenders)}
    by_energy = not decided and w.battles >= 3
    return {
        "kind": "war", "country": w.target, "type": w.kind,
        "attackers": side["attacker"], "defenders": side["defender"],
        "battles": _battles(w.history),
        "score": {r: w.wins[r] for r in ROLES},
        "weapons": {r: [x for x in WEAPONS if x not in w.destroyed[r]] for r in ROLES},
        "energies": {r: w.left[r] for r in ROLES},
        "energies_known": any(energies for _, _, energies in w.history),
        "decided": decided,
        "winner": side[decided][0] if decided else None,
        "by_energy": by_energy,
        "ends": {"wins_needed": {r: 2 - w.wins[r] for r in ROLES}, "battles_left": 3 - w.battles},
        "record": "war" if decided or by_energy else "battle",
    }


def _confrontation_of(s: State) -> dict[str, Any] | None:
    """A confrontation (rule 21): its battles, each player's start and energy left, weapons, PBR."""
    c = s.confrontation
    if c is None:
        return None
    other = c.opponent if c.attacker == c.challenger else c.challenger
    pair = (c.challenger, c.opponent)
    return {
        "kind": "confrontation", "challenger": c.challenger, "opponent": c.opponent,
        "attacker": c.attacker, "defender": other, "battles": _battles(c.history),
        "start": {n: c.energy[n] for n in pair}, "energies": {n: c.left[n] for n in pair},
        "weapons": {n: [x for x in WEAPONS if c.lost.get(n) != x] for n in pair},
        "pbr": {n: pbr(s.player(n).halves) for n in pair},
    }


def _challenge_of(s: State) -> dict[str, Any] | None:
    """The challenge the end game expects: who challenges whom, and the energies to type."""
    if s.phase != "endgame" or not s.expected:
        return None
    a, b = s.expected
    return {"kind": "challenge", "challenger": a, "opponent": b,
            "pbr": {n: pbr(s.player(n).halves) for n in (a, b)},
            "energies": {n: challenge_energy(s.player(n).halves) for n in (a, b)},
            "first": a if s.player(a).halves <= s.player(b).halves else b}


#: what may be at hand, asked in this order; the first that is there is the war view
WAR_VIEWS = (_war_of, _confrontation_of, _challenge_of)


def war_view(s: State) -> dict[str, Any] | None:
    """The war, confrontation or challenge at hand as data (docs/ledger.md, "War view"), or None.

    A war: its battles so far and the score, each side's weapons not yet destroyed and energies
    left on screen (2500 until battles are booked with energies), whether it is decided and by
    whom, and what still ends it. A confrontation: the same per player. Before a confrontation:
    who challenges whom and the energies to type (PBR x 100, rule 21C)."""
    return next((v for v in (view(s) for view in WAR_VIEWS) if v is not None), None)


WAR_TEXT = {
    "war": N_("War for {country}: {attackers} attacks, {defenders} defends (rule 12); {score} after {battles} of 3 battles."),
    "battles": N_("Battles: {battles}."),
    "battle.won": N_("{number} {winner} ({weapons})"),
    "battle.draw": N_("{number} draw ({weapons})"),
    "weapons": N_("Weapons left: {attacker} {attacker_weapons}, {defender} {defender_weapons}."),
    "energies": N_("Energy left: {attacker} {attacker_energy}, {defender} {defender_energy}."),
    "ends": N_("It ends when one side has won two battles, when one side's energy is gone (rule 12G), or after the third battle by the higher energy (rule 12C)."),
    "decided": N_("Decided: {winner} has won the war ({score}); no further battle. Record: war {winner} ENERGY (what {loser} has left)."),
    "by_energy": N_("Three battles fought without two wins: the higher energy wins (rule 12C). Record: war WINNER ENERGY."),
    "next": N_("Record the next battle: battle WEAPON WEAPON WINNER|draw [ENERGY ENERGY], or end it: war WINNER ENERGY."),
    "confrontation": N_("Confrontation (rule 21): {challenger} (PBR {challenger_pbr}) against {opponent} (PBR {opponent_pbr}); {attacker} attacks this battle."),
    "confrontation.energies": N_("Energy: {challenger} {challenger_energy} of {challenger_start}, {opponent} {opponent_energy} of {opponent_start}. Weapons allowed: {challenger} {challenger_weapons}, {opponent} {opponent_weapons} (rule 21F)."),
    "confrontation.ends": N_("It ends when one side's energy is gone: survivor NAME ENERGY; the survivor's energy goes onto his PBR (rule 21G)."),
    "challenge": N_("End game (rule 21): {challenger} (PBR {challenger_pbr}) challenges {opponent} (PBR {opponent_pbr}): challenge {challenger} {opponent}."),
    "challenge.energies": N_("Energies to type (PBR x 100, rule 21C): {challenger} {challenger_energy}, {opponent} {opponent_energy}; {first} enters first."),
}


def _war(key: str, fields: dict[str, Any] | None = None, **more: Any) -> str:
    """One sentence of the war view in the user's language."""
    return _(WAR_TEXT[key]).format(**(fields or {}), **more)


def _weapon_list(weapons: list[str]) -> str:
    return "/".join(weapons) if weapons else "-"


def war_lines(s: State) -> list[str]:
    """The war view in a few plain lines (terminal, window, panel)."""
    v = war_view(s)
    if v is None:
        return []
    if v["kind"] == "challenge":
        a, b = v["challenger"], v["opponent"]
        f = {"challenger": a, "opponent": b, "challenger_pbr": f"{v['pbr'][a]:g}", "opponent_pbr": f"{v['pbr'][b]:g}",
             "challenger_energy": v["energies"][a], "opponent_energy": v["energies"][b], "first": v["first"]}
        return [_war("challenge", f), _war("challenge.energies", f)]
    battles = ", ".join(_war("battle.won" if b["winner"] else "battle.draw", number=b["number"],
                             winner=b["winner"], weapons="–".join(b["weapons"])) for b in v["battles"])
    if v["kind"] == "confrontation":
        a, b = v["challenger"], v["opponent"]
        f = {"challenger": a, "opponent": b, "attacker": v["attacker"],
             "challenger_pbr": f"{v['pbr'][a]:g}", "opponent_pbr": f"{v['pbr'][b]:g}",
             "challenger_energy": v["energies"][a], "opponent_energy": v["energies"][b],
             "challenger_start": v["start"][a], "opponent_start": v["start"][b],
             "challenger_weapons": _weapon_list(v["weapons"][a]), "opponent_weapons": _weapon_list(v["weapons"][b])}
        lines = [_war("confrontation", f)]
        if battles:
            lines.append(_war("battles", battles=battles))
        return lines + [_war("confrontation.energies", f), _war("confrontation.ends")]
    att, dfd = v["attackers"][0], v["defenders"][0]
    score = f"{v['score']['attacker']}–{v['score']['defender']}"
    lines = [_war("war", country=shown(v["country"]), attackers="+".join(v["attackers"]),
                  defenders="+".join(v["defenders"]), score=score, battles=len(v["battles"]))]
    if battles:
        lines.append(_war("battles", battles=battles))
    if v["decided"]:
        loser = dfd if v["decided"] == "attacker" else att
        return lines + [_war("decided", winner=v["winner"], loser=loser, score=score)]
    if v["by_energy"]:
        return lines + [_war("by_energy")]
    weapons = _war("weapons", attacker=att, defender=dfd,
                   attacker_weapons=_weapon_list(v["weapons"]["attacker"]),
                   defender_weapons=_weapon_list(v["weapons"]["defender"]))
    energies = _war("energies", attacker=att, defender=dfd, attacker_energy=v["energies"]["attacker"],
                    defender_energy=v["energies"]["defender"])
    return lines + [weapons + " " + energies, _war("ends") + " " + _war("next")]


def board_text(s: State) -> str:
    """The board zone by zone in printed order, with every marker on it."""
    lines = []
    width = _name_width(s) + 2
    for zone, countries in s.board.zones.items():
        lines.append(_("Zone {zone}").format(zone=zone))
        for c in countries:
            marks = []
            owner = s.homeland_owner(c.name)
            if owner:
                marks.append(_("{name} (homeland)").format(name=owner))
            marks += [(_("{name} (allied)") if kind == ALLIED else _("{name} (conquered)")).format(name=n)
                      for n, kind in s.holders.get(c.name, {}).items()]
            lines.append(f"  {shown(c.name):<{width}}{c.value:>3}  {', '.join(marks) or '-'}")
    return "\n".join(lines)


TRACK_END = 100  # the printed PBR track ends at 100; the ledger counts on


def track_warnings(before: State, after: State) -> list[str]:
    """A warning for each player whose PBR has just passed the end of the printed track."""
    was = {p.name: p.halves for p in before.players}
    return [_("warning: {name}'s PBR {pbr} is past {end}, the end of the printed track; the ledger "
              "keeps counting").format(name=p.name, pbr=pbr(p.halves), end=TRACK_END) for p in after.players
            if p.halves > 2 * TRACK_END >= was.get(p.name, 0)]


def players_text(s: State) -> str:
    """One line per player: homeland, chips, PBR, player alliance."""
    lines = [_("war chest {amount} (paid in minus paid out)").format(amount=f"{s.war_chest:+d}")]
    for p in s.players:
        pact = s.pact_of(p.name) - {p.name}
        extra = " " + _("OUT") if p.eliminated else ""
        extra += " " + _("(past the printed track)") if p.halves > 2 * TRACK_END else ""
        extra += "  " + _("allied with {names}").format(names=", ".join(sorted(pact))) if pact else ""
        extra += "  " + seat_label(p.general) if p.general else ""
        home = shown(p.homeland) if p.homeland else "-"
        lines.append(f"  {p.name:<12} {home:<{_name_width(s) + 2}} " + _("chips {chips}  PBR {pbr}").format(
            chips=f"{p.chips:>6}", pbr=f"{pbr(p.halves)!s:>5}") + extra)
    return "\n".join(lines)


def _names(events: Sequence[ev.Event], attr: str) -> str:
    return ", ".join(sorted({shown(getattr(e, attr)) for e in events}, key=sort_key))


def _over_now(s: State) -> str:
    """Rule 22: the winner, or a draw."""
    return (_("The game is over: {name} won (rule 22).").format(name=s.winner) if s.winner
            else _("The game is over: a draw."))


def _setup_now(s: State, legal: list[ev.Event]) -> str:
    """Rule 2: the players are named; the starting player is chosen next."""
    return _("Choose the starting player (rule 2): start NAME, or draw DIGIT ... reading R "
             "(digits in seat order {names}).").format(names=", ".join(s.names))


def _homelands_now(s: State, legal: list[ev.Event]) -> str:
    """Rule 3: who chooses a homeland and the countries still free."""
    who = cast(ev.Homeland, legal[0]).player
    return _("{name} chooses a homeland (rule 3): homeland {name} COUNTRY. Free: {free}.").format(
        name=who, free=_names(legal, "country"))


def _alliances_now(s: State, legal: list[ev.Event]) -> str:
    """Rules 4-6: who allies free inside his homeland's zone, up to its value, and with what."""
    choices = cast(list[ev.Allies], legal)
    who = choices[0].player
    home = s.board[cast(str, s.player(who).homeland)]       # chosen before the alliances
    unallied = sorted({shown(c) for e in choices for c in e.countries}, key=sort_key)
    return _("{name} may ally free inside zone {zone} up to a total of {total} (rules 4–6): "
             "allies {name} COUNTRY ... or allies {name} -. Free: {free}.").format(
        name=who, zone=home.zone, total=home.value, free=", ".join(unallied) or _("none"))


#: the phases before play, each said in one sentence from the legal actions
OPENING_NOW = {"setup": _setup_now, "homelands": _homelands_now, "alliances": _alliances_now}

#: the kinds of attack a lone player may make, each with its offer (rules 10, 15, 19)
ATTACK_OFFERS = {
    "free": N_("Attack an unoccupied country (rule 10, {name} defends): {countries}."),
    "held": N_("Attack an occupied country (rule 15, pay value x 1000): {countries}."),
    "homes": N_("Attack a homeland (rule 19, pay value x 1000): {countries}."),
}


def _attack_kind(s: State, e: ev.Attack) -> str:
    """Which of ATTACK_OFFERS an attack is: on a free country, a homeland, or another held one."""
    if not s.occupied(e.country):
        return "free"
    return "homes" if s.homeland_owner(e.country) else "held"


def _attack_offers(s: State, attacks: list[ev.Attack]) -> list[str]:
    """The lone player's attacks, one sentence per kind that has any (the free one names the
    defender, rule 10)."""
    groups: dict[str, list[ev.Attack]] = {kind: [] for kind in ATTACK_OFFERS}
    for e in attacks:
        groups[_attack_kind(s, e)].append(e)
    defender = None
    if groups["free"]:
        turn = cast(str, s.turn)                               # someone's turn in play
        defender = s.left_of(s.last_defender or turn, skip=set(s.pact_of(turn)))
    return [_(ATTACK_OFFERS[kind]).format(name=defender, countries=_names(found, "country"))
            for kind, found in groups.items() if found]


def _turn_now(s: State, kinds: dict[type[ev.Event], list[Any]]) -> list[str]:
    """A turn in play or in the final round: whose it is, the alliances to buy, the attacks,
    acting with allies, and passing."""
    final = s.phase == "final-round"
    parts = [(_("Final round (rule 20): last chance for {name}.") if final
              else _("Turn of {name}.")).format(name=s.turn)]
    allies: list[ev.Ally] = [e for e in kinds.get(ev.Ally, []) if len(e.side) == 1]
    if allies:
        parts.append(_("Buy an alliance (rule 9, half value x 1000): {countries}.").format(
            countries=_names(allies, "country")))
    parts += _attack_offers(s, [e for e in kinds.get(ev.Attack, []) if len(e.side) == 1])
    if any(len(e.side) > 1 for e in kinds.get(ev.Attack, []) + kinds.get(ev.Ally, [])):
        parts.append(_("Allies may act together: NAME+ALLY (rule 18B)."))
    parts.append(_("Or: pass {name} (rule {rule}).").format(name=s.turn, rule=20 if final else 14))
    return parts


def now_text(s: State) -> str:
    """Who acts now and every action the rules allow, with the rule behind it."""
    if s.phase == "setup" and not s.players:
        return _("Name the players in seating order: players NAME NAME ... (rule 1, 2 to 6 players); "
                 "before that optionally: board FILE, value/zone COUNTRY N, variant time|target N.")
    if s.phase == "over":
        return _over_now(s)
    legal = legal_actions(s)
    if s.phase in OPENING_NOW:
        return OPENING_NOW[s.phase](s, legal)
    kinds: dict[type[ev.Event], list[Any]] = {}     # the events of each type, of that type
    for e in legal:
        kinds.setdefault(type(e), []).append(e)
    if s.war or s.confrontation or s.phase == "endgame":
        parts = ["\n".join(war_lines(s)) + "\n"]
    else:
        parts = _turn_now(s, kinds)
    if ev.Pact in kinds:
        parts.append(_("Player alliances: pact NAME NAME (rule 18)."))
    return " ".join(parts)
