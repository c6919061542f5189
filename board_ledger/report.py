"""What the ledger shows: the status JSON, the board by zone, the players, and what may be done now."""
from __future__ import annotations

from typing import Any

from i18n import N_, _, ngettext, sort_key

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.rules import legal_actions, pbr
from board_ledger.state import ALLIED, CONQUERED, State


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
        home = shown(p.homeland) if p.homeland else "-"
        lines.append(f"  {p.name:<12} {home:<{_name_width(s) + 2}} " + _("chips {chips}  PBR {pbr}").format(
            chips=f"{p.chips:>6}", pbr=f"{pbr(p.halves)!s:>5}") + extra)
    return "\n".join(lines)


def _names(events: list[ev.Event], attr: str) -> str:
    return ", ".join(sorted({shown(getattr(e, attr)) for e in events}, key=sort_key))


def now_text(s: State) -> str:
    """Who acts now and every action the rules allow, with the rule behind it."""
    if s.phase == "setup" and not s.players:
        return _("Name the players in seating order: players NAME NAME ... (rule 1, 2 to 6 players); "
                 "before that optionally: board FILE, value/zone COUNTRY N, variant time|target N.")
    if s.phase == "over":
        return (_("The game is over: {name} won (rule 22).").format(name=s.winner) if s.winner
                else _("The game is over: a draw."))
    legal = legal_actions(s)
    kinds: dict[type, list[ev.Event]] = {}
    for e in legal:
        kinds.setdefault(type(e), []).append(e)
    if s.phase == "setup":
        return _("Choose the starting player (rule 2): start NAME, or draw DIGIT ... reading R "
                 "(digits in seat order {names}).").format(names=", ".join(s.names))
    if s.phase == "homelands":
        who = legal[0].player
        return _("{name} chooses a homeland (rule 3): homeland {name} COUNTRY. Free: {free}.").format(
            name=who, free=_names(legal, "country"))
    if s.phase == "alliances":
        who = legal[0].player
        home = s.board[s.player(who).homeland]
        free = sorted({shown(c) for e in legal for c in e.countries}, key=sort_key)
        return _("{name} may ally free inside zone {zone} up to a total of {total} (rules 4–6): "
                 "allies {name} COUNTRY ... or allies {name} -. Free: {free}.").format(
            name=who, zone=home.zone, total=home.value, free=", ".join(free) or _("none"))
    parts = []
    if s.war:
        w = s.war
        parts.append(ngettext(
            "War for {country}: {side} attacks, {defenders} defends (rule 12, {a}–{d} after {n} battle).",
            "War for {country}: {side} attacks, {defenders} defends (rule 12, {a}–{d} after {n} battles).",
            w.battles).format(country=shown(w.target), side="+".join(w.side), defenders="+".join(w.defenders),
                              a=w.wins["attacker"], d=w.wins["defender"], n=w.battles))
        parts.append(_("Record 'battle WEAPON WEAPON NAME|draw [ENERGY ENERGY]' or the result "
                       "'war WINNER ENERGY'."))
    elif s.confrontation:
        c = s.confrontation
        parts.append(_("Confrontation {a} – {b} (rule 21): {attacker} attacks. Record 'battle WEAPON "
                       "WEAPON NAME|draw [ENERGY ENERGY]'; 'survivor NAME ENERGY' ends it.").format(
            a=c.challenger, b=c.opponent, attacker=c.attacker))
    elif s.phase == "endgame":
        if s.expected:
            parts.append(_("End game (rule 21): challenge {a} {b}.").format(a=s.expected[0], b=s.expected[1]))
    else:
        parts.append((_("Final round (rule 20): last chance for {name}.") if s.phase == "final-round"
                      else _("Turn of {name}.")).format(name=s.turn))
        allies = [e for e in kinds.get(ev.Ally, []) if len(e.side) == 1]
        if allies:
            parts.append(_("Buy an alliance (rule 9, half value x 1000): {countries}.").format(
                countries=_names(allies, "country")))
        attacks = [e for e in kinds.get(ev.Attack, []) if len(e.side) == 1]
        free = [e for e in attacks if not s.occupied(e.country)]
        homes = [e for e in attacks if s.homeland_owner(e.country)]
        held = [e for e in attacks if e not in free and e not in homes]
        if free:
            defender = s.left_of(s.last_defender or s.turn, skip=set(s.pact_of(s.turn)))
            parts.append(_("Attack an unoccupied country (rule 10, {name} defends): {countries}.").format(
                name=defender, countries=_names(free, "country")))
        if held:
            parts.append(_("Attack an occupied country (rule 15, pay value x 1000): {countries}.").format(
                countries=_names(held, "country")))
        if homes:
            parts.append(_("Attack a homeland (rule 19, pay value x 1000): {countries}.").format(
                countries=_names(homes, "country")))
        if any(len(e.side) > 1 for e in kinds.get(ev.Attack, []) + kinds.get(ev.Ally, [])):
            parts.append(_("Allies may act together: NAME+ALLY (rule 18B)."))
        parts.append(_("Or: pass {name} (rule {rule}).").format(
            name=s.turn, rule=20 if s.phase == "final-round" else 14))
    if ev.Pact in kinds:
        parts.append(_("Player alliances: pact NAME NAME (rule 18)."))
    return " ".join(parts)
