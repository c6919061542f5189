"""What the ledger shows: the status JSON, the board by zone, the players, and what may be done now."""
from __future__ import annotations

from typing import Any

from board_ledger import events as ev
from board_ledger.rules import legal_actions, pbr
from board_ledger.state import ALLIED, CONQUERED, State


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


def board_text(s: State) -> str:
    """The board zone by zone in printed order, with every marker on it."""
    lines = []
    for zone, countries in s.board.zones.items():
        lines.append(f"Zone {zone}")
        for c in countries:
            marks = []
            owner = s.homeland_owner(c.name)
            if owner:
                marks.append(f"{owner} (homeland)")
            marks += [f"{n} ({kind})" for n, kind in s.holders.get(c.name, {}).items()]
            lines.append(f"  {c.name:<16}{c.value:>3}  {', '.join(marks) or '-'}")
    return "\n".join(lines)


TRACK_END = 100  # the printed PBR track ends at 100; the ledger counts on


def track_warnings(before: State, after: State) -> list[str]:
    """A warning for each player whose PBR has just passed the end of the printed track."""
    was = {p.name: p.halves for p in before.players}
    return [f"warning: {p.name}'s PBR {pbr(p.halves)} is past {TRACK_END}, the end of the printed track; "
            "the ledger keeps counting" for p in after.players
            if p.halves > 2 * TRACK_END >= was.get(p.name, 0)]


def players_text(s: State) -> str:
    """One line per player: homeland, chips, PBR, player alliance."""
    lines = [f"war chest {s.war_chest:+d} (paid in minus paid out)"]
    for p in s.players:
        pact = s.pact_of(p.name) - {p.name}
        extra = " OUT" if p.eliminated else ""
        extra += " (past the printed track)" if p.halves > 2 * TRACK_END else ""
        extra += f"  allied with {', '.join(sorted(pact))}" if pact else ""
        lines.append(f"  {p.name:<12} {p.homeland or '-':<16} chips {p.chips:>6}  PBR {pbr(p.halves)!s:>5}{extra}")
    return "\n".join(lines)


def _names(events: list[ev.Event], attr: str) -> str:
    return ", ".join(sorted({getattr(e, attr) for e in events}))


def now_text(s: State) -> str:
    """Who acts now and every action the rules allow, with the rule behind it."""
    if s.phase == "setup" and not s.players:
        return ("Name the players in seating order: players NAME NAME ... (rule 1, 2 to 6 players); "
                "before that optionally: board FILE, value/zone COUNTRY N, variant time|target N.")
    if s.phase == "over":
        return f"The game is over: {s.winner} won (rule 22)." if s.winner else "The game is over: a draw."
    legal = legal_actions(s)
    kinds: dict[type, list[ev.Event]] = {}
    for e in legal:
        kinds.setdefault(type(e), []).append(e)
    if s.phase == "setup":
        return ("Choose the starting player (rule 2): start NAME, or draw DIGIT ... reading R "
                f"(digits in seat order {', '.join(s.names)}).")
    if s.phase == "homelands":
        who = legal[0].player
        return f"{who} chooses a homeland (rule 3): homeland {who} COUNTRY. Free: {_names(legal, 'country')}."
    if s.phase == "alliances":
        who = legal[0].player
        home = s.board[s.player(who).homeland]
        free = sorted({c for e in legal for c in e.countries})
        return (f"{who} may ally free inside zone {home.zone} up to a total of {home.value} (rules 4–6): "
                f"allies {who} COUNTRY ... or allies {who} -. Free: {', '.join(free) or 'none'}.")
    parts = []
    if s.war:
        w = s.war
        parts.append(f"War for {w.target}: {'+'.join(w.side)} attacks, {'+'.join(w.defenders)} defends "
                     f"(rule 12, {w.wins['attacker']}–{w.wins['defender']} after {w.battles} "
                     f"battle{'' if w.battles == 1 else 's'}). "
                     "Record 'battle WEAPON WEAPON NAME|draw [ENERGY ENERGY]' or the result 'war WINNER ENERGY'.")
    elif s.confrontation:
        c = s.confrontation
        parts.append(f"Confrontation {c.challenger} – {c.opponent} (rule 21): {c.attacker} attacks. "
                     "Record 'battle WEAPON WEAPON NAME|draw [ENERGY ENERGY]'; 'survivor NAME ENERGY' ends it.")
    elif s.phase == "endgame":
        if s.expected:
            parts.append(f"End game (rule 21): challenge {s.expected[0]} {s.expected[1]}.")
    else:
        label = "Final round (rule 20): last chance for" if s.phase == "final-round" else "Turn of"
        parts.append(f"{label} {s.turn}.")
        allies = [e for e in kinds.get(ev.Ally, []) if len(e.side) == 1]
        if allies:
            parts.append(f"Buy an alliance (rule 9, half value x 1000): {_names(allies, 'country')}.")
        attacks = [e for e in kinds.get(ev.Attack, []) if len(e.side) == 1]
        free = [e for e in attacks if not s.occupied(e.country)]
        homes = [e for e in attacks if s.homeland_owner(e.country)]
        held = [e for e in attacks if e not in free and e not in homes]
        if free:
            defender = s.left_of(s.last_defender or s.turn, skip=set(s.pact_of(s.turn)))
            parts.append(f"Attack an unoccupied country (rule 10, {defender} defends): {_names(free, 'country')}.")
        if held:
            parts.append(f"Attack an occupied country (rule 15, pay value x 1000): {_names(held, 'country')}.")
        if homes:
            parts.append(f"Attack a homeland (rule 19, pay value x 1000): {_names(homes, 'country')}.")
        if any(len(e.side) > 1 for e in kinds.get(ev.Attack, []) + kinds.get(ev.Ally, [])):
            parts.append("Allies may act together: NAME+ALLY (rule 18B).")
        parts.append(f"Or: pass {s.turn} (rule {20 if s.phase == 'final-round' else 14}).")
    if ev.Pact in kinds:
        parts.append("Player alliances: pact NAME NAME (rule 18).")
    return " ".join(parts)
