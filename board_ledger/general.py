"""A computer general: it takes the decisions of one seat at the board, and says why.

A general only ever chooses among ``rules.legal_actions`` (docs/generals.md), as a person at the
board would: the homeland, the free and bought alliances, attacks alone and with its allies,
player alliances and their breaking, passing, its digit for rule 2, the challenge of the end game
and the weapon of each battle. What a battle's result is, the battle program decides; the general
only books what the cartridge showed. Every decision carries one sentence of why (``Because``),
said in the user's language when it is shown.

Levels (``LEVELS``): ``easy`` makes plausible choices a person can beat, ``standard`` weighs each
action by what it brings on the PBR, ``hard`` also counts zone bonuses, homeland attacks, the
price of an occupied country against its odds, the war chest's payouts and the end game's
arithmetic, and plays for first place by rule 22 (or the target of variant 2). ``random`` picks
any legal action: the yardstick of the strength table.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

from i18n import N_, _

from board_ledger import events as ev
from board_ledger.board import shown
from board_ledger.rules import ANY_ENERGY, WEAPON_NAMES, ZONE_BONUS, legal_actions, pbr, step
from board_ledger.errors import LedgerError
from board_ledger.state import WEAPONS, State

LEVELS = ev.GENERAL_LEVELS
DEFAULT_LEVEL = "standard"
#: the level of the computer battle opponent that fights a general's battles (docs/generals.md)
BATTLE_LEVEL = {"easy": "easy", "standard": "standard", "hard": "hard", "random": "standard"}
#: a general's chance to win a battle against another's, by their levels (docs/generals.md: the
#: computer battle opponents measured against each other); what the hard general expects
BATTLE_ODDS = {("easy", "easy"): 0.5, ("easy", "standard"): 0.15, ("easy", "hard"): 0.1,
               ("standard", "standard"): 0.5, ("standard", "hard"): 0.35, ("hard", "hard"): 0.5}
#: the energy the loser of a war usually has left (a few battles of a few seconds each)
LEFT_AFTER_WAR = 2000
PERSON = ""          # the level of a seat a person plays
LEVEL_NAMES = {"easy": N_("easy"), "standard": N_("standard"), "hard": N_("hard"),
               "random": N_("random")}     # as the user reads them


def seat_label(level: str) -> str:
    """A computer seat as the players' list shows it, "" for a person: 'computer (hard)'."""
    if not level:
        return ""
    return _("computer ({level})").format(level=_(LEVEL_NAMES.get(level, level)))


@dataclass(frozen=True)
class Place:
    """A country named in a sentence; shown in the reader's language (board.shown)."""
    name: str


@dataclass(frozen=True)
class Because:
    """One sentence of why: a message of the catalog and its arguments (countries as Place)."""
    message: str
    args: tuple[tuple[str, Any], ...] = ()

    def say(self) -> str:
        """The sentence in the language set now."""
        values = {k: _shown(v) for k, v in self.args}
        return _(self.message).format(**values)


def _shown(value: Any) -> Any:
    """An argument as the sentence shows it: countries and weapons in the reader's language."""
    if isinstance(value, Place):
        return shown(value.name)
    if isinstance(value, Weapon):
        return _(WEAPON_NAMES[value.letter])
    if isinstance(value, tuple):
        return ", ".join(str(_shown(v)) for v in value)
    return value


@dataclass(frozen=True)
class Weapon:
    """A weapon named in a sentence (P, S, T), shown in the reader's language."""
    letter: str


def because(message: str, **args: Any) -> Because:
    return Because(message, tuple(args.items()))


@dataclass(frozen=True)
class Decision:
    """What a general does now, and why."""
    player: str
    action: ev.Event
    why: Because

    def say(self) -> str:
        return self.why.say()


# --- the sentences (English in the code, German in the catalog) -------------------------------
WHY = {
    "draw": N_("{names} pick the digits {digits} for the draw of rule 2; the ledger reads the number."),
    "homeland": N_("{name} chooses {country} as homeland: value {value}, with {allies} of free "
                   "alliances in its zone."),
    "allies": N_("{name} takes {countries} as free alliances: PBR +{gain}."),
    "allies_zone": N_("{name} takes {countries} as free alliances: PBR +{gain}, and zone {zone} "
                      "complete for a bonus of {bonus}."),
    "allies_none": N_("{name} takes no free alliance: none of the zone's free countries fits."),
    "ally": N_("{name} buys an alliance with {country} for {price}: PBR +{gain}."),
    "ally_zone": N_("{name} buys an alliance with {country} for {price}: it completes zone {zone} "
                    "for a bonus of {bonus}."),
    "attack_free": N_("{name} attacks {country}: it costs nothing and is worth {value} on the PBR; "
                      "{defender} defends."),
    "attack_zone": N_("{name} attacks {country}: it completes zone {zone} for a bonus of {bonus}; "
                      "{defender} defends."),
    "attack_occupied": N_("{name} attacks {country} of {defender}: it costs {price}, and the odds "
                          "of winning are about {odds} %."),
    "attack_leader": N_("{name} attacks {country} of {defender}, the leader with PBR {pbr}: it "
                        "costs {price}."),
    "attack_homeland": N_("{name} attacks {defender}'s homeland {country}: winning it puts {defender} "
                          "out of the game and brings all {defender}'s conquests."),
    "attack_joint": N_("{name} attacks {country} together with {allies}: the chips are pooled and "
                       "the winnings shared."),
    "pass": N_("{name} passes: no attack is worth its risk now."),
    "pass_final": N_("{name} passes: no occupied country is worth its price in the final round."),
    "pact": N_("{name} forms a player alliance with {other}: together against the leader {leader}."),
    "break": N_("{name} ends the player alliance with {others}: {name} leads now and fights alone."),
    "challenge": N_("{name} challenges {other}: rule 21 has the lower challenge the next higher."),
    "weapon_best": N_("{name} takes the {weapon}: its best weapon left for this battle."),
    "weapon_only": N_("{name} takes the {weapon}: the only weapon left to it."),
    "weapon_plain": N_("{name} takes the {weapon}."),
    "random": N_("{name} does this at random."),
    "entry": N_("{name} (computer) takes the {weapon} for the next battle: type {letter} and {energy} "
                "for its side at program entry."),
}


def _why(key: str, **args: Any) -> Because:
    return because(WHY[key], **args)


# --- what the general knows of the board -------------------------------------------------------
def score(s: State, name: str) -> float:
    """A player's worth in half squares: his PBR, and his chips as they go onto it (rule 20C)."""
    p = s.player(name)
    if p.eliminated:
        return -1000.0
    worth = p.halves + p.chips / 500
    if s.target_pbr is not None and p.halves >= 2 * s.target_pbr:
        worth += 1000                        # variant 2: reaching the target wins
    if s.winner == name:
        worth += 1000
    return worth


def standing(s: State, name: str) -> float:
    """How well ``name`` stands against the others (rule 22 counts first place only)."""
    others = [score(s, n) for n in s.live() if n != name and not s.allied(name, n)]
    if not others:
        return score(s, name)
    return score(s, name) - 0.6 * max(others) - 0.4 * sum(others) / len(others)


def battle_odds(mine: str, theirs: str) -> float:
    """The chance that a general of level ``mine`` wins a battle against one of ``theirs``."""
    a, b = BATTLE_LEVEL.get(mine, "standard"), BATTLE_LEVEL.get(theirs, "standard")
    if (a, b) in BATTLE_ODDS:
        return BATTLE_ODDS[(a, b)]
    return 1 - BATTLE_ODDS.get((b, a), 0.5)


def war_odds(p: float) -> float:
    """Two battles of three: the chance to win the war with ``p`` per battle (draws aside)."""
    return p * p + 2 * p * p * (1 - p)


def _outcome(s: State, winner: str, energy: int) -> State | None:
    try:
        return step(s, ev.War(winner, energy))[0]
    except LedgerError:
        return None


def _zone_completed(s: State, after: State, name: str) -> tuple[int, int] | None:
    """The zone whose rule 7 bonus ``name`` earns between two states, and the bonus."""
    before, now = s.player(name).bonus_zones, after.player(name).bonus_zones
    for zone in sorted(now - before):
        home = s.player(name).homeland
        return zone, ZONE_BONUS * sum(1 for c in s.board.zones[zone] if c.name != home)
    return None


def whose_decision(s: State) -> str | None:
    """The player whose decision on the board the game waits for now (None: the table's, a
    battle's or nobody's). During a war or a confrontation the battles decide, not a player."""
    if s.phase in ("homelands", "alliances"):
        return s.order_from(s.start)[s.chooser] if s.start is not None else None
    if s.war is not None or s.confrontation is not None:
        return None
    if s.phase in ("play", "final-round"):
        return s.turn
    if s.phase == "endgame" and s.expected:
        return s.expected[0]
    return None


def fighters(s: State) -> tuple[str, str] | None:
    """The two players who type the next battle, attacker first (a war's first named on each side)."""
    if s.war is not None:
        return s.war.side[0], s.war.defenders[0]
    c = s.confrontation
    if c is not None:
        return c.attacker, (c.opponent if c.attacker == c.challenger else c.challenger)
    return None


def entry_energies(s: State) -> tuple[int, int]:
    """The energies the fighters type at program entry: what the war or confrontation left them."""
    if s.war is not None:
        return s.war.left["attacker"], s.war.left["defender"]
    c = s.confrontation
    assert c is not None
    a, d = fighters(s) or ("", "")
    return c.left[a], c.left[d]


# --- why: one sentence for any action of a computer seat -----------------------------------------
def actor(s: State, action: ev.Event) -> str | None:
    """The player whose decision ``action`` is in state ``s`` (None: the table's, the cartridge's
    or the clock's); a player alliance formed or broken on a turn is that player's."""
    if isinstance(action, (ev.Homeland, ev.Allies, ev.Pass)):
        return action.player
    if isinstance(action, (ev.Ally, ev.Attack)):
        return action.side[0]
    if isinstance(action, ev.Challenge):
        return action.challenger
    if isinstance(action, (ev.Pact, ev.Break)) and s.turn in action.players:
        return s.turn
    return None


def explain(s: State, action: ev.Event, name: str | None = None) -> Because | None:
    """Why the computer at ``name``'s seat (by default the action's actor) takes ``action`` in
    state ``s``: said from the state alone, so every window, terminal and phone says the same."""
    name = name or actor(s, action)
    if isinstance(action, ev.Draw):
        return _why("draw", names=tuple(s.names), digits=" ".join(map(str, action.digits)))
    if name is None or name not in s.names:
        return None
    if s.player(name).general == "random":
        return _why("random", name=name)
    if isinstance(action, ev.Homeland):
        home = s.board[action.country]
        free = [c.value for c in s.board.zones[home.zone] if c.name != home.name and not s.occupied(c.name)]
        return _why("homeland", name=name, country=Place(action.country), value=home.value,
                    allies=_best_subset(free, home.value))
    if isinstance(action, ev.Allies):
        return _allies_why(s, name, action)
    if isinstance(action, ev.Ally):
        return _ally_why(s, name, action)
    if isinstance(action, ev.Attack):
        return _attack_why(s, name, action)
    if isinstance(action, ev.Pass):
        return _why("pass_final" if s.phase == "final-round" else "pass", name=name)
    if isinstance(action, ev.Pact):
        other = next((n for n in action.players if n != name), name)
        return _why("pact", name=name, other=other, leader=leader(s))
    if isinstance(action, ev.Break):
        return _why("break", name=name, others=tuple(n for n in action.players if n != name))
    if isinstance(action, ev.Challenge):
        return _why("challenge", name=name, other=action.opponent)
    return None


def leader(s: State) -> str:
    """The player ahead now: chips counted as they go onto the PBR (rule 20C)."""
    return max(s.live(), key=lambda n: score(s, n))


def _allies_why(s: State, name: str, a: ev.Allies) -> Because:
    if not a.countries:
        return _why("allies_none", name=name)
    after = _after(s, a)
    done = _zone_completed(s, after, name) if after else None
    gain = pbr(sum(s.board[c].value for c in a.countries))
    countries = tuple(Place(c) for c in a.countries)
    if done:
        return _why("allies_zone", name=name, countries=countries, gain=gain, zone=done[0], bonus=done[1])
    return _why("allies", name=name, countries=countries, gain=gain)


def _ally_why(s: State, name: str, a: ev.Ally) -> Because:
    value = s.board[a.country].value
    after = _after(s, a)
    done = _zone_completed(s, after, name) if after else None
    if done:
        return _why("ally_zone", name=name, country=Place(a.country), price=value * 500, zone=done[0],
                    bonus=done[1])
    return _why("ally", name=name, country=Place(a.country), price=value * 500, gain=pbr(value))


def _attack_why(s: State, name: str, a: ev.Attack) -> Because:
    country = Place(a.country)
    at_war = _after(s, a)
    if at_war is None or at_war.war is None:
        return _why("attack_free", name=name, country=country, value=s.board[a.country].value,
                    defender="?")
    war = at_war.war
    defender = war.defenders[0]
    if len(a.side) > 1:
        return _why("attack_joint", name=name, country=country, allies=a.side[1:])
    if war.kind == "homeland":
        return _why("attack_homeland", name=name, country=country, defender=defender)
    value = s.board[a.country].value
    if war.kind == "unoccupied":
        win = _outcome(at_war, name, LEFT_AFTER_WAR)
        done = _zone_completed(s, win, name) if win else None
        if done:
            return _why("attack_zone", name=name, country=country, zone=done[0], bonus=done[1],
                        defender=defender)
        return _why("attack_free", name=name, country=country, value=value, defender=defender)
    if leader(s) == defender:
        return _why("attack_leader", name=name, country=country, defender=defender,
                    pbr=pbr(s.player(defender).halves), price=value * 1000)
    p = war_odds(battle_odds(s.player(name).general, s.player(defender).general))
    return _why("attack_occupied", name=name, country=country, defender=defender, price=value * 1000,
                odds=round(100 * p))


# --- the general ---------------------------------------------------------------------------------
@dataclass
class General:
    """The computer at one seat: its level and its own dice (seeded: the same seed plays the same)."""
    level: str = DEFAULT_LEVEL
    rng: random.Random = field(default_factory=random.Random)

    def draw(self, s: State) -> Decision:
        """Every seat a computer: the draw of rule 2 with a digit each, and the reading drawn
        from the general's own dice too, so that a seeded game is the same game every time."""
        digits: list[int] = []
        for _n in s.names:
            digits.append(self.rng.choice([d for d in range(10) if d not in digits]))
        action = ev.Draw(tuple(digits), f"{self.rng.randrange(10000):04d}")
        return Decision(s.names[0], action, _why("draw", names=tuple(s.names),
                                                 digits=" ".join(map(str, digits))))

    def decide(self, s: State, name: str) -> Decision | None:
        """``name``'s next action on the board (not a battle) and why, or None if none is his."""
        action = self.choose(s, name)
        if action is None:
            return None
        why = explain(s, action, name)
        assert why is not None                 # every action a general chooses can be explained
        return Decision(name, action, why)

    def choose(self, s: State, name: str) -> ev.Event | None:
        """``name``'s next action on the board, chosen among the legal actions of his seat."""
        legal = [a for a in legal_actions(s) if _mine(s, a, name)]
        if not legal:
            return None
        if self.level == "random":
            return _concrete(self.rng.choice(legal))
        homelands = [a for a in legal if isinstance(a, ev.Homeland)]
        if homelands:
            return max(homelands, key=lambda a: self._homeland_worth(s, a))
        allies = [a for a in legal if isinstance(a, ev.Allies)]
        if allies:
            return max(allies, key=lambda a: self._allies_worth(s, name, a))
        challenge = [a for a in legal if isinstance(a, ev.Challenge)]
        if challenge:
            return challenge[0]
        if self.level == "easy":
            return self._easy_turn(s, name, legal)
        return self._turn(s, name, legal)

    def _homeland_worth(self, s: State, a: ev.Homeland) -> float:
        home = s.board[a.country]
        if self.level == "easy":
            return home.value + self.rng.random() * 6
        free = [c for c in s.board.zones[home.zone] if c.name != home.name and not s.occupied(c.name)]
        best = _best_subset([c.value for c in free], home.value)
        complete = best == sum(c.value for c in free) and len(free) == len(s.board.zones[home.zone]) - 1
        bonus = ZONE_BONUS * len(free) / 500 if complete else 0.0
        rivals = sum(1 for p in s.players if p.homeland and s.board[p.homeland].zone == home.zone)
        return best + bonus + 0.3 * home.value - 4 * rivals + self.rng.random()

    def _allies_worth(self, s: State, name: str, a: ev.Allies) -> float:
        gain = sum(s.board[c].value for c in a.countries)
        after = _after(s, a)
        bonus = (after.player(name).chips - s.player(name).chips) / 500 if after else 0
        noise = self.rng.random() * 4 if self.level == "easy" else 0
        return gain + bonus + noise + len(a.countries) * 0.01

    def _turn(self, s: State, name: str, legal: list[ev.Event]) -> ev.Event:
        """A turn in play or the final round: pact or break, buy, attack or pass, by what each
        brings to ``name``'s standing against the others."""
        if self.level == "hard":
            breaking = [a for a in legal if isinstance(a, ev.Break)]
            if breaking and self._should_break(s, name):
                return breaking[0]
            pact = self._pact(s, name, legal)
            if pact is not None:
                return pact
        now = standing(s, name)
        options: list[tuple[float, ev.Event]] = []
        for a in legal:
            if isinstance(a, ev.Ally):
                after = _after(s, a)
                if after is not None:
                    options.append((standing(after, name) - now + 0.3, a))
            elif isinstance(a, ev.Attack):
                options.append((self._attack_value(s, name, a), a))
            elif isinstance(a, ev.Pass):
                options.append((0.0, a))
        if not options:
            return next(a for a in legal if isinstance(a, ev.Pass)) if any(
                isinstance(a, ev.Pass) for a in legal) else legal[0]
        return max(options, key=lambda o: o[0])[1]

    def _attack_value(self, s: State, name: str, a: ev.Attack) -> float:
        """What an attack is worth against passing, in half squares of standing."""
        at_war = _after(s, a)
        if at_war is None or at_war.war is None:
            return -1000.0
        war = at_war.war
        defender = war.defenders[0]
        p = war_odds(battle_odds(self.level, s.player(defender).general))
        win = _outcome(at_war, name, LEFT_AFTER_WAR)
        lose = _outcome(at_war, defender, LEFT_AFTER_WAR)
        if win is None or lose is None:
            return -1000.0
        now = standing(s, name)
        go_on = 3.0 if win.turn == name and win.phase == "play" else 0.0   # rule 13D: attack again
        value = p * (standing(win, name) - now + go_on) + (1 - p) * (standing(lose, name) - now)
        if self.level == "standard" and war.kind != "unoccupied":
            value -= 2.0                       # the standard general is wary of prices
        if war.kind == "unoccupied" and s.phase == "play":
            value += 2.0                       # the board fills: every game moves on
        return value

    def _easy_turn(self, s: State, name: str, legal: list[ev.Event]) -> ev.Event:
        """Plausible and beatable: buys now and then, attacks a free country it fancies, else passes."""
        buys = [a for a in legal if isinstance(a, ev.Ally) and len(a.side) == 1]
        attacks = [a for a in legal if isinstance(a, ev.Attack) and len(a.side) == 1]
        free = [a for a in attacks if not s.occupied(a.country)]
        if buys and self.rng.random() < 0.3:
            return self.rng.choice(buys)
        if free and self.rng.random() < 0.9:
            return max(free, key=lambda x: s.board[x.country].value + self.rng.random() * 8)
        cheap = [a for a in attacks if s.occupied(a.country)
                 and s.board[a.country].value * 1000 <= s.player(name).chips // 3]
        if cheap and self.rng.random() < 0.3:
            return self.rng.choice(cheap)
        passing = [a for a in legal if isinstance(a, ev.Pass)]
        return passing[0] if passing else legal[0]

    # --- player alliances ---------------------------------------------------------------------
    def _pact(self, s: State, name: str, legal: list[ev.Event]) -> ev.Event | None:
        """Join the weakest computer seat against a leader far ahead (rule 18), once."""
        if len(s.pact_of(name)) > 1 or s.phase != "play":
            return None
        first = leader(s)
        if first == name or score(s, first) < score(s, name) + 20:
            return None
        partners = [(next(n for n in a.players if n != name), a) for a in legal
                    if isinstance(a, ev.Pact) and name in a.players and first not in a.players]
        partners = [(o, a) for o, a in partners if s.player(o).general != PERSON]
        if not partners:
            return None
        return min(partners, key=lambda pa: score(s, pa[0]))[1]

    def _should_break(self, s: State, name: str) -> bool:
        """Break the alliance when leading: allies never fight, and rule 22 counts first place."""
        others = [n for n in s.live() if n not in s.pact_of(name)]
        return bool(others) and leader(s) == name

    # --- battles ---------------------------------------------------------------------------------
    def weapon(self, s: State, name: str) -> tuple[str, Because]:
        """The weapon ``name`` types for the next battle of the war or confrontation, and why."""
        return self.pick(allowed_weapons(s, name), name)

    def pick(self, allowed: list[str], name: str) -> tuple[str, Because]:
        """One of the ``allowed`` weapons for ``name``'s next battle, and why."""
        if len(allowed) == 1:
            return allowed[0], _why("weapon_only", name=name, weapon=Weapon(allowed[0]))
        if self.level in ("easy", "random"):
            w = self.rng.choice(allowed)
            return w, _why("weapon_plain", name=name, weapon=Weapon(w))
        w = max(allowed, key=lambda x: WEAPON_PREFERENCE[x] + self.rng.random() * 0.5)
        return w, _why("weapon_best", name=name, weapon=Weapon(w))


#: the hard and standard general's weapon order (docs/generals.md: from the balance table)
WEAPON_PREFERENCE = {"T": 1.0, "P": 0.8, "S": 0.6}


def allowed_weapons(s: State, name: str) -> list[str]:
    """The weapons ``name`` may type for the next battle (rules 12F, 21F)."""
    if s.war is not None:
        role = "attacker" if name in s.war.side else "defender"
        return [w for w in WEAPONS if w not in s.war.destroyed[role]] or list(WEAPONS)
    c = s.confrontation
    if c is not None:
        return [w for w in WEAPONS if c.lost.get(name) != w]
    return list(WEAPONS)


def _mine(s: State, a: ev.Event, name: str) -> bool:
    """Whether action ``a`` is ``name``'s own decision (what a person at his seat would book)."""
    if isinstance(a, (ev.TimeUp, ev.Battle, ev.War, ev.Survivor, ev.Start, ev.Draw)):
        return False                           # the clock's, the cartridge's, the table's
    if isinstance(a, (ev.Homeland, ev.Allies)):
        return a.player == name
    if isinstance(a, (ev.Ally, ev.Attack)):
        return a.side[0] == name
    if isinstance(a, ev.Pass):
        return a.player == name
    if isinstance(a, ev.Challenge):
        return a.challenger == name
    if isinstance(a, (ev.Pact, ev.Break)):
        return name in a.players and s.turn == name and s.war is None
    return False


def _concrete(a: ev.Event) -> ev.Event:
    if isinstance(a, (ev.War, ev.Survivor)) and a.energy == ANY_ENERGY:
        return dataclasses.replace(a, energy=0)
    return a


def _after(s: State, a: ev.Event) -> State | None:
    try:
        return step(s, a)[0]
    except LedgerError:
        return None


def _best_subset(values: list[int], limit: int) -> int:
    """The largest sum of some of ``values`` that stays within ``limit`` (rule 4)."""
    sums = {0}
    for v in values:
        sums |= {t + v for t in sums if t + v <= limit}
    return max(sums)
