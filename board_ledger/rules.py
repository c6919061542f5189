"""The rules 1–22 of Conquest of the World: which actions are legal now and what each one does.

Each verb has one row in ``RULEBOOK``: its event class, its rule and what of it may be offered
now; each rule and its offers sit side by side below. ``step(state, event)`` checks an action
against its rule and returns the new state and the action with canonical names; a refusal raises
RuleError naming the rule. Checks always come before any change, so a refused action leaves
nothing behind. ``legal_actions(state)`` tries every verb's offers and keeps what the rules accept
(it powers the REPL's "what you may do now", the window's and the phones' offers and the property
tests' game generator).
Interpretations of points the manual leaves open follow docs/rules.md and are listed in
docs/ledger.md.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from i18n import N_, _, ngettext

from board_ledger import events as ev
from board_ledger.board import MAX_VALUE, NAME_SHOWN, name_key, parse_board, shown, standard_board, unwritable
from board_ledger.numbers import clipped, whole_number
from board_ledger.errors import LedgerError, NotationError, RuleError
from board_ledger.state import ALLIED, CONQUERED, WEAPONS, Confrontation, Player, State, War, WarResult

MIN_PLAYERS, MAX_PLAYERS = 2, 6             # rule 1
WAR_ENERGY = 2500                            # rule 10B: each side enters 2500 energy units
ZONE_BONUS = 1000                            # rule 7: per country of the zone but the homeland
# words of the notation a player may not be called (German ones too: docs/i18n.md)
RESERVED_NAMES = {"-", "draw", "reading", "up", "unentschieden", "anzeige", "um"}
ANY_ENERGY = -1                              # in legal_actions: any energy the rules allow
ALLIANCE_CHOICES = 1024                      # the most free-alliance choices legal_actions lists
WEAPON_NAMES = {"P": N_("plane"), "S": N_("submarine"), "T": N_("tank")}   # shown with _()


def new_state() -> State:
    """The state before the first action: the printed board, no players."""
    return State(board=standard_board())


def round_hundred(energy: int) -> int:
    """Rules 13A, 14A, 16D, 17B: to the nearest hundred, halves up (1355 -> 1400, 1350 -> 1400)."""
    return (energy + 50) // 100 * 100


def round_five_hundred(amount: int) -> int:
    """Rules 20C, 21G: to the nearest 500, halves up (1250 -> 1500, 1249 -> 1000)."""
    return (amount + 250) // 500 * 500


def pbr(halves: int) -> int | float:
    """A PBR in half squares as the number printed on the track (9 halves -> 4.5)."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def challenge_energy(halves: int) -> int:
    """The energy a player enters for a confrontation: PBR × 100 (rule 21C), from half squares."""
    return halves * 50


# --- names ------------------------------------------------------------------------------------
def _player(s: State, name: str) -> str:
    if not s.players:
        raise RuleError(1, _("name the players first: players NAME NAME ..."))
    for p in s.players:
        if name_key(p.name) == name_key(name):
            return p.name
    raise RuleError(1, _("'{name}' is not a player in this game ({players})").format(
        name=clipped(name, NAME_SHOWN), players=", ".join(s.names)))


def _country(s: State, name: str) -> str:
    return s.board.lookup(name).name


def _value(s: State, country: str) -> int:
    return s.board[country].value


def _join(names: list[str] | tuple[str, ...]) -> str:
    """Names as a sentence lists them: "A", "A and B", "A, B and C" (in the user's language)."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


# --- chips ------------------------------------------------------------------------------------
def _pay_in(s: State, side: tuple[str, ...], price: int, rule: int, what: str) -> None:
    """Take ``price`` from the side's chips into the war chest; allies pool (rule 18B)."""
    members = [s.player(n) for n in side]
    have = sum(p.chips for p in members)
    if have < price:
        raise RuleError(rule, ngettext("{what} costs {price} and {side} has only {have} in chips",
                                       "{what} costs {price} and {side} have only {have} in chips",
                                       len(side)).format(what=what, price=price, side=_join(side),
                                                         have=have))
    due = price
    while due > 0:  # pooled chips are taken a hundred at a time from each ally in turn
        for p in members:
            if due > 0 and p.chips >= 100:
                p.chips -= 100
                due -= 100
    s.paid_in += price


def _pay_out(s: State, names: tuple[str, ...], amount: int) -> None:
    """Pay ``amount`` from the war chest in equal whole hundreds; any remainder stays (rule 18D)."""
    share = amount // len(names) // 100 * 100
    for n in names:
        s.player(n).chips += share
    s.paid_out += share * len(names)


# --- phases and turns -------------------------------------------------------------------------
def _turn(s: State) -> str:
    """Whose turn it is; only asked in the phases that have a turn (play, final round)."""
    assert s.turn is not None
    return s.turn


def _first(s: State) -> str:
    """The starting player; only asked after the draw has chosen one (rule 2)."""
    assert s.start is not None
    return s.start


def _left(s: State, name: str) -> str:
    """The next player still in to ``name``'s left; ``name`` himself counts, so one is found."""
    left = s.left_of(name)
    assert left is not None
    return left


def _home(p: Player) -> str:
    """A player's homeland; only asked once every player has chosen one (rule 3)."""
    assert p.homeland is not None
    return p.homeland


def _begin_play(s: State) -> None:
    """Rule 8: play begins with the last player to choose a homeland."""
    s.phase = "play"
    s.turn = s.order_from(_first(s))[-1]
    s.ally_credit = 1
    s.last_defender = None


def _end_turn(s: State) -> None:
    """Rule 14D: the attack option passes to the player left of the attacker."""
    if s.phase == "final-round":
        _final_next(s)
    elif s.board_full():
        _begin_final(s, _left(s, _turn(s)))
    else:
        s.turn = _left(s, _turn(s))
        s.ally_credit = 1
        s.last_defender = None


def _begin_final(s: State, first: str) -> None:
    """Rule 20A: every country is occupied; each player gets one more chance, from ``first`` on.

    Interpretation: the turn in which the board fills ends there; the round starts to its left.
    """
    s.phase = "final-round"
    s.final_queue = [n for n in s.order_from(first) if not s.player(n).eliminated]
    s.turn = s.final_queue[0]
    s.ally_credit = 0
    s.last_defender = None


def _final_next(s: State) -> None:
    """Rule 20B: the chance passes left; after the last one, chips go onto the PBR (20C)."""
    s.final_queue.pop(0)
    if s.final_queue:
        s.turn = s.final_queue[0]
        return
    _zone_bonus(s)                           # a zone completed by the very last war still pays
    for p in s.players:
        if not p.eliminated:
            s.converted[p.name] = p.chips
            s.paid_in += p.chips             # the chips leave the table for the PBR track
            p.halves += round_five_hundred(p.chips) // 500
            p.chips = 0
    s.phase = "endgame"
    s.turn = None
    _plan_endgame(s)


def _require_turn(s: State, side: tuple[str, ...], rule: int) -> tuple[str, ...]:
    """The acting side with canonical names, the player whose turn it is first."""
    if s.phase in ("setup", "homelands", "alliances"):
        raise RuleError(8, _("play has not begun: it begins once every player has chosen a homeland "
                             "and the free alliances"))
    if s.phase == "endgame":
        raise RuleError(21, _("no alliances or attacks in the end game, only confrontations"))
    if s.war:
        raise RuleError(12, _("the war for {country} is still being fought; record its result "
                              "with 'war WINNER ENERGY'").format(country=shown(s.war.target)))
    names = [_player(s, n) for n in side]
    if not names:                            # only a stored event can have an empty side
        raise NotationError(_("a side names at least one player"))
    if len(set(names)) != len(names):
        raise RuleError(18, _("a player is named twice in the same side"))
    if s.turn not in names:
        used = [n for n in names if s.phase == "final-round" and n not in s.final_queue]
        if used:
            raise RuleError("20A", _("{players} already had the one more chance of the final round; "
                                     "it is {player}'s chance now").format(players=_join(used), player=s.turn))
        raise RuleError(rule, _("it is {turn}'s turn to attack, not {names}'s").format(
            turn=s.turn, names=_join(names)))
    for n in names:
        if n != s.turn and not s.allied(s.turn, n):
            raise RuleError(18, _("{name} is not allied with {turn}; only allied players pool chips "
                                  "and act together").format(name=n, turn=s.turn))
    return (s.turn,) + tuple(n for n in s.names if n in names and n != s.turn)


# --- handlers: one per event type; each checks everything before it changes anything ----------
def _setup_only(s: State, what: str) -> None:
    if s.players:
        raise RuleError("variant 3", _("{what} must come before the players are named").format(what=what))


def _board_file(s: State, e: ev.BoardFile) -> ev.Event:
    _setup_only(s, _("a custom board"))
    if unwritable(e.name):
        raise NotationError(_("a board's name cannot hold {what}").format(what=unwritable(e.name)))
    s.board = parse_board(e.text, e.name)
    return e


def _edit_board(s: State, e: ev.SetValue | ev.SetZone) -> ev.Event:
    """Variant 3: a country's value or zone changed before the game."""
    _setup_only(s, _("a change of value") if e.verb == "value" else _("a change of zone"))
    country = _country(s, e.country)
    if isinstance(e, ev.SetValue):
        if e.value < 0:
            raise RuleError("variant 3", _("a country's value cannot be negative"))
        if e.value > MAX_VALUE:
            raise RuleError("variant 3", _("a country's value is at most {most} (the length of the PBR "
                                           "track), not {value}").format(most=MAX_VALUE, value=e.value))
        s.board = s.board.edited(country, value=e.value)
    else:
        if e.zone < 1:
            raise RuleError("variant 3", _("zones are numbered from 1"))
        s.board = s.board.edited(country, zone=e.zone)
    return dataclasses.replace(e, country=country)


def _variant(s: State, e: ev.Variant) -> ev.Event:
    if s.start is not None:
        raise RuleError("variants", _("a variant is agreed before the starting player is chosen"))
    if e.amount <= 0:
        raise RuleError("variants", (_("the time of a variant must be more than 0") if e.kind == "time"
                                     else _("the target of a variant must be more than 0")))
    if e.kind == "time":
        s.time_limit = e.amount
    elif e.kind == "target":
        s.target_pbr = e.amount
    else:
        raise NotationError(_("unknown variant '{kind}' (use 'variant time MINUTES' or 'variant "
                              "target PBR')").format(kind=e.kind))
    return e


def _players(s: State, e: ev.Players) -> ev.Event:
    if s.players:
        raise RuleError(1, _("the players are already named; start a new game to change them"))
    if not MIN_PLAYERS <= len(e.names) <= MAX_PLAYERS:
        raise RuleError(1, _("2 to 6 players take part, not {count}").format(count=len(e.names)))
    keys = [name_key(n) for n in e.names]
    for n in e.names:
        if keys.count(name_key(n)) > 1:
            raise RuleError(1, _("two players are called {name}").format(name=clipped(n, NAME_SHOWN)))
        if name_key(n) in RESERVED_NAMES or "+" in n or not n.strip() or name_key(n).startswith(ev.COMPUTER):
            raise RuleError(1, _("'{name}' cannot be a player's name (it is a word of the notation)").format(
                name=clipped(n, NAME_SHOWN)))
        if unwritable(n):
            raise RuleError(1, _("a player's name cannot hold {what} (the notation is one action per "
                                 "line); choose another name").format(what=unwritable(n)))
    if e.generals and (len(e.generals) != len(e.names) or not set(e.generals) <= {""} | set(ev.GENERAL_LEVELS)):
        raise RuleError(1, _("each seat is a person or a computer general of level {levels}").format(
            levels=", ".join(ev.GENERAL_LEVELS)))
    s.players = [Player(n, general=e.level(i)) for i, n in enumerate(e.names)]
    return ev.Players(tuple(e.names), tuple(e.generals) if any(e.generals) else ())


def _choose_start(s: State, rule: int) -> None:
    if not s.players:
        raise RuleError(1, _("name the players first: players NAME NAME ..."))
    if s.start is not None:
        raise RuleError(rule, _("the starting player is already chosen: {name}").format(name=s.start))


def _start(s: State, e: ev.Start) -> ev.Event:
    _choose_start(s, 2)
    s.start = _player(s, e.player)
    s.phase = "homelands"
    return ev.Start(s.start)


def _offer_start(s: State) -> list[ev.Event]:
    """Rule 2: any player may be named the starting player (a draw is typed, never offered)."""
    return [ev.Start(n) for n in s.names] if s.phase == "setup" else []


def _draw(s: State, e: ev.Draw) -> ev.Event:
    """Rule 2: the digit closest to the last digit of the reading starts; ties go to the higher."""
    _choose_start(s, 2)
    if len(e.digits) != len(s.players):
        raise RuleError(2, _("each of the {players} players picks one digit; {digits} given").format(
            players=len(s.players), digits=len(e.digits)))
    if len(set(e.digits)) != len(e.digits) or not all(0 <= d <= 9 for d in e.digits):
        raise RuleError(2, _("each player picks a different digit from 0 to 9"))
    reading = e.reading or f"{random.randrange(10000):04d}"  # the ledger draws when asked to
    if whole_number(reading) is None:
        raise NotationError(_("the reading must be digits 0-9, not '{reading}'").format(reading=clipped(reading)))
    last = int(reading[-1])
    best = min(range(len(e.digits)), key=lambda i: (abs(e.digits[i] - last), -e.digits[i]))
    for p, d in zip(s.players, e.digits):
        p.digit = d
    s.start = s.players[best].name
    s.phase = "homelands"
    return ev.Draw(tuple(e.digits), reading)


def _chooser(s: State) -> str:
    return s.order_from(_first(s))[s.chooser]


def _homeland(s: State, e: ev.Homeland) -> ev.Event:
    if s.phase != "homelands":
        raise RuleError(3, _("choose the starting player first (rule 2)") if s.phase == "setup"
                        else _("every player has already chosen a homeland"))
    name, country = _player(s, e.player), _country(s, e.country)
    if name != _chooser(s):
        raise RuleError(3, _("homelands are chosen in seat order from the starting player: it is "
                             "{name}'s turn to choose").format(name=_chooser(s)))
    owner = s.homeland_owner(country)
    if owner:
        raise RuleError(3, _("{country} is already {owner}'s homeland").format(
            country=shown(country), owner=owner))
    s.player(name).homeland = country
    s.chooser += 1
    if s.chooser == len(s.players):
        s.phase, s.chooser = "alliances", 0
    return ev.Homeland(name, country)


def _offer_homeland(s: State) -> list[ev.Event]:
    """Rule 3: the player whose choice it is may name any country."""
    if s.phase != "homelands":
        return []
    return [ev.Homeland(_chooser(s), c.name) for c in s.board.countries]


def _allies(s: State, e: ev.Allies) -> ev.Event:
    if s.phase != "alliances":
        raise RuleError(4, _("the free homeland-zone alliances follow the choice of every homeland")
                        if s.phase in ("setup", "homelands") else _("the free alliances are over"))
    name = _player(s, e.player)
    if name != _chooser(s):
        raise RuleError(4, _("the free alliances go in seat order from the starting player: it is "
                             "{name}'s turn").format(name=_chooser(s)))
    countries = [_country(s, c) for c in e.countries]
    home = _home(s.player(name))
    zone = s.board[home].zone
    named = Counter(countries)                   # not countries.count: a line may name thousands
    for c in countries:
        if named[c] > 1:
            raise RuleError(4, _("{country} is named twice").format(country=shown(c)))
        if c == home:
            raise RuleError(4, _("{country} is {name}'s own homeland").format(country=shown(c), name=name))
        if s.board[c].zone != zone:
            raise RuleError(4, _("{country} is not in {home}'s zone; the first alliances stay inside "
                                 "the homeland zone").format(country=shown(c), home=shown(home)))
        owner = s.homeland_owner(c)
        if owner:                                # rule 3: a homeland belongs to its player
            raise RuleError(3, _("{country} is {player}'s homeland").format(country=shown(c), player=owner))
        if s.occupied(c):                        # rule 4: only countries still free
            raise RuleError(4, _("{country} is already taken by {holders}").format(
                country=shown(c), holders=_join(sorted(s.holders_of(c)))))
    total = sum(_value(s, c) for c in countries)
    if total > _value(s, home):
        raise RuleError(4, _("{countries} are worth {total} together, more than {home}'s "
                             "{value}").format(countries=_join([shown(c) for c in countries]),
                                               total=total, home=shown(home), value=_value(s, home)))
    for c in countries:
        s.hold(c, {name: ALLIED})
        s.player(name).halves += _value(s, c)    # rule 5: half value = value in half squares
    s.chooser += 1
    if s.chooser == len(s.players):
        _begin_play(s)
        if s.board_full():                     # a tiny custom board can be full at once
            _begin_final(s, _turn(s))
    return ev.Allies(name, tuple(countries))


def _offer_allies(s: State) -> list[ev.Event]:
    """Rules 4–6: the choices of free countries in the chooser's homeland zone, smallest first:
    none, each country alone, then every choice of two, three, ... countries while all choices
    of that size fit in ALLIANCE_CHOICES. A zone of n free countries has 2^n choices; listing
    them all would never end on a custom board with a large zone (docs/ledger.md)."""
    if s.phase != "alliances":
        return []
    name = _chooser(s)
    home = s.board[_home(s.player(name))]
    free = [c.name for c in s.board.zones[home.zone] if c.name != home.name and not s.occupied(c.name)]
    offered: list[ev.Event] = [ev.Allies(name, ())]
    offered += [ev.Allies(name, (c,)) for c in free]
    for k in range(2, len(free) + 1):
        if len(offered) + math.comb(len(free), k) > ALLIANCE_CHOICES:
            break
        offered += [ev.Allies(name, combo) for combo in itertools.combinations(free, k)]
    return offered


def _ally(s: State, e: ev.Ally) -> ev.Event:
    side = _require_turn(s, e.side, 9)
    if s.phase == "final-round":
        raise RuleError(20, _("in the final round only attacks on occupied countries are allowed"))
    country = _country(s, e.country)
    if s.ally_credit < 1:
        raise RuleError(9, _("{name} has already bought an alliance; the next one may follow a won "
                             "war (rules 13D, 16E)").format(name=s.turn))
    if s.occupied(country):
        raise RuleError(9, _("{country} is occupied by {holders}; only an unoccupied country can be "
                             "bought").format(country=shown(country),
                                              holders=_join(sorted(s.holders_of(country)))))
    zone = s.board[country].zone
    for p in s.players:
        if not p.eliminated and p.name not in side and s.board[_home(p)].zone == zone:
            raise RuleError(9, _("{country} is in {name}'s homeland zone").format(
                country=shown(country), name=p.name))
    value = _value(s, country)
    _pay_in(s, side, value * 500, 9, _("an alliance with {country}").format(country=shown(country)))  # rule 9B: half value x 1000
    s.hold(country, {n: ALLIED for n in side})
    for n in side:
        s.player(n).halves += value
    s.ally_credit = 0
    if s.board_full():
        _begin_final(s, _left(s, _turn(s)))
    return ev.Ally(side, country)


def _sides(s: State) -> list[tuple[str, ...]]:
    """Who may buy an alliance or attack now: the player whose turn it is alone, then with his
    player alliance (rule 18B); nobody during a war or outside the turns of play."""
    if s.phase not in ("play", "final-round") or s.war:
        return []
    turn = _turn(s)
    pact = s.pact_of(turn)
    return [(turn,)] + ([tuple(n for n in s.names if n in pact)] if len(pact) > 1 else [])


def _offer_ally(s: State, side: tuple[str, ...]) -> list[ev.Event]:
    """Rule 9: an alliance with any country, bought by ``side``."""
    return [ev.Ally(side, c.name) for c in s.board.countries]


def _next_defender(s: State, friends: set[str]) -> str | None:
    """Rules 11A, 13E: the player left of the last defender (at first, of the attacker)."""
    return s.left_of(s.last_defender or _turn(s), skip=friends)


def _attack(s: State, e: ev.Attack) -> ev.Event:
    side = _require_turn(s, e.side, 10)
    country = _country(s, e.country)
    friends = set().union(*(s.pact_of(n) for n in side))
    holders = s.holders_of(country)
    owner = s.homeland_owner(country)
    value = _value(s, country)
    if holders & set(side):
        raise RuleError(15, _("{country} is held by {holders}; a player cannot attack his own "
                              "country").format(country=shown(country),
                                                holders=_join(sorted(holders & set(side)))))
    if holders & friends:
        raise RuleError(18, _("{country} is held by {holders}, allied with {name}; allies never "
                              "attack each other").format(country=shown(country), name=s.turn,
                                                          holders=_join(sorted(holders & friends))))
    if not holders:
        if s.phase == "final-round":
            raise RuleError(20, _("{country} is unoccupied; in the final round only occupied "
                                  "countries may be attacked").format(country=shown(country)))
        defender = _next_defender(s, friends)
        if defender is None:
            raise RuleError(11, _("nobody can defend {country}: every other player is allied with "
                                  "{name}").format(country=shown(country), name=s.turn))
        s.war = War(side, (defender,), country, "unoccupied")
    elif owner:
        missing = [c.name for c in s.board.neighbours(country)
                   if not (s.holders_of(c.name) and all(h != owner and not s.allied(h, owner)
                                                       for h in s.holders_of(c.name)))]
        if missing:
            raise RuleError(19, _("{countries} must be held by enemies of {country}'s owner before "
                                  "{country} can be attacked").format(
                countries=_join([shown(c) for c in missing]), country=shown(country)))
        _pay_in(s, side, value * 1000, 19, _("attacking the homeland {country}").format(country=shown(country)))
        s.war = War(side, (owner,), country, "homeland")
    else:
        _pay_in(s, side, value * 1000, 15, _("attacking {country}").format(country=shown(country)))
        s.war = War(side, tuple(n for n in s.names if n in holders), country, "occupied")
    return ev.Attack(side, country)


def _offer_attack(s: State, side: tuple[str, ...]) -> list[ev.Event]:
    """Rules 10, 15, 19: an attack on any country by ``side``."""
    return [ev.Attack(side, c.name) for c in s.board.countries]


def _role(s: State, name: str, war: War) -> str:
    if name in war.side:
        return "attacker"
    if name in war.defenders:
        return "defender"
    raise RuleError(12, _("{name} is not fighting in the war for {country}").format(
        name=name, country=shown(war.target)))


def _weapons(weapons: tuple[str, str]) -> tuple[str, str]:
    up = tuple(w.upper() for w in weapons)
    if len(up) != 2 or any(w not in WEAPONS for w in up):
        raise NotationError(_("weapons are P (plane), S (submarine) or T (tank)"))
    return up


def _check_left(left: dict[str, int], energies: tuple[int, int] | None, who: dict[str, str],
                winner_role: str, rule: int) -> None:
    """Energies after a battle: they only fall, and the winner of a battle still has some."""
    if energies is None:
        return
    for role, amount in zip(("attacker", "defender"), energies):
        if amount > left[role]:
            raise RuleError(rule, _("energy only falls: {name} had {left} left, not {amount}").format(
                name=who[role], left=left[role], amount=amount))
    if winner_role and energies[0 if winner_role == "attacker" else 1] == 0:
        raise RuleError(rule, _("{name}'s energy is gone, so {name} lost (rule 12G)").format(name=who[winner_role]))


def _battle(s: State, e: ev.Battle) -> ev.Event:
    if s.confrontation:
        return _endgame_battle(s, e)
    war = s.war
    if war is None:
        raise RuleError(12, _("no war is being fought; a battle follows an attack (or a challenge in "
                              "the end game)"))
    weapons = _weapons(e.weapons)
    winner = _player(s, e.winner) if e.winner else ""
    a, d = war.wins["attacker"], war.wins["defender"]
    if max(a, d) >= 2:
        raise RuleError(12, _("the war for {country} is already decided ({a}–{d}); record its "
                              "result with 'war'").format(country=shown(war.target), a=a, d=d))
    if war.battles >= 3:
        raise RuleError(12, _("a war has at most three battles; record its result with 'war'"))
    who = {"attacker": war.side[0], "defender": war.defenders[0]}
    for role, weapon in zip(who, weapons):
        if weapon in war.destroyed[role]:
            raise RuleError(12, _("{name}'s {weapon} was destroyed earlier in this war and cannot be "
                                  "used again").format(name=who[role], weapon=_(WEAPON_NAMES[weapon])))
    role = _role(s, winner, war) if winner else ""
    _check_left(war.left, e.energies, who, role, 12)
    war.battles += 1
    war.history += ((weapons, winner, e.energies),)
    if not winner:  # rule 12B: both destroyed, the battle counts for nobody
        war.destroyed["attacker"].add(weapons[0])
        war.destroyed["defender"].add(weapons[1])
    else:
        loser = "defender" if role == "attacker" else "attacker"
        war.wins[role] += 1
        war.destroyed[loser].add(weapons[1] if loser == "defender" else weapons[0])
    canonical = ev.Battle(weapons, winner, e.energies)
    if e.energies is not None:
        war.left = dict(zip(("attacker", "defender"), e.energies))
        decided = decided_role(war)
        if decided:
            _end_war(s, decided, war.left["defender" if decided == "attacker" else "attacker"])
    return canonical


def _fighters(s: State) -> tuple[str, ...]:
    """The two who fight the battles now: the war's first attacker and first defender, or the
    confrontation's challenger and opponent; nobody else."""
    if s.phase in ("play", "final-round") and s.war:
        return s.war.side[0], s.war.defenders[0]
    c = s.confrontation
    if s.phase == "endgame" and c:
        return c.challenger, c.opponent
    return ()


def _offer_battle(s: State) -> list[ev.Event]:
    """Rules 12, 21: any two weapons, won by either fighter or drawn."""
    pair = _fighters(s)
    if not pair:
        return []
    return [ev.Battle((wa, wd), r) for wa, wd in itertools.product(WEAPONS, WEAPONS) for r in pair + ("",)]


def decided_role(war: War) -> str:
    """Which side has won the war by the battles and energies so far ('' if nobody yet; rule 12)."""
    left, wins = war.left, war.wins
    if left["attacker"] == 0 and left["defender"] == 0:
        return ""                                         # both gone: the 'war' line decides
    if left["attacker"] == 0 or left["defender"] == 0:
        return "defender" if left["attacker"] == 0 else "attacker"     # rule 12G
    if max(wins.values()) >= 2:
        return "attacker" if wins["attacker"] >= 2 else "defender"     # rule 12A
    if war.battles == 3 and left["attacker"] != left["defender"]:
        return "attacker" if left["attacker"] > left["defender"] else "defender"   # rule 12C
    return ""


def _war(s: State, e: ev.War) -> ev.Event:
    war = s.war
    if war is None:
        raise RuleError(12, _("no war is being fought; a war follows an attack"))
    winner = _player(s, e.winner)
    role = _role(s, winner, war)
    most = war.left["defender" if role == "attacker" else "attacker"]
    if not 0 <= e.energy <= most:
        raise RuleError(10, _("each side enters the war with {full} energy units and the loser had "
                              "{most} left, so {energy} cannot be left").format(
            full=WAR_ENERGY, most=most, energy=e.energy))
    a, d = war.wins["attacker"], war.wins["defender"]
    if max(a, d) >= 2:
        decided = "attacker" if a >= 2 else "defender"
        if role != decided:
            who = war.side[0] if decided == "attacker" else war.defenders[0]
            raise RuleError(12, _("{name} won two battles and so won the war for {country}").format(
                name=who, country=shown(war.target)))
    elif 0 < war.battles < 3 and e.energy != 0:
        raise RuleError(12, _("nobody has won two battles yet; the war ends early only when the "
                              "loser's energy is gone (enter 0)"))
    _end_war(s, role, e.energy)
    return ev.War(winner, e.energy)


def _offer_war(s: State) -> list[ev.Event]:
    """Rule 12: the war won by either side, the loser's energy still to be typed."""
    return [ev.War(n, ANY_ENERGY) for n in _fighters(s)] if s.war else []


def _end_war(s: State, role: str, energy: int) -> None:
    """The effects of a war won by ``role`` with ``energy`` left to the loser (rules 13–17, 19)."""
    war = s.war
    assert war is not None                                # called only while a war is fought
    country, value = war.target, _value(s, war.target)
    s.war = None
    winners = war.side if role == "attacker" else war.defenders
    s.last_war = WarResult(country, winners, war.defenders if role == "attacker" else war.side, energy)
    _pay_out(s, winners, round_hundred(energy))           # rules 13A, 14A, 16D, 17B
    if role == "defender":
        if war.kind == "unoccupied":                      # rule 14B, C
            s.hold(country, {war.defenders[0]: ALLIED})
            s.player(war.defenders[0]).halves += value
        _end_turn(s)                                      # rules 14D, 17 (interpretation)
        return
    if war.kind == "homeland":                            # rule 19C
        owner = s.homeland_owner(country)
        assert owner is not None                          # a homeland war is fought on one
        _eliminate(s, owner, war.side)
    else:
        for loser, kind in s.holders.get(country, {}).items():   # rule 16C
            s.player(loser).halves -= 2 * value if kind == CONQUERED else value
        s.hold(country, {n: CONQUERED for n in war.side})       # rules 13B, 16A
        for n in war.side:
            s.player(n).halves += 2 * value                    # rules 13C, 16B
        if war.kind == "unoccupied":
            s.last_defender = war.defenders[0]                 # rule 13E: the rotation goes on
    if s.phase == "over":
        return
    if s.phase == "final-round":
        _final_next(s)                                    # rule 20A: one chance each
    elif s.board_full():
        _begin_final(s, _left(s, _turn(s)))
    else:
        s.ally_credit = 1                                 # rules 13D, 16E


def _eliminate(s: State, owner: str, side: tuple[str, ...]) -> None:
    """Rule 19C, D: the owner is out; his homeland, his conquests and his chips are the spoils.

    Rule 19D: the spoils go to every partner of the winning side's player alliance, whether he
    fought or not: each marks each country and scores its full value, the chips are split in
    equal hundreds (docs/ledger.md, "Spoils of a homeland")."""
    pact = set().union(*(s.pact_of(n) for n in side))
    side = tuple(n for n in s.names if n in pact and n != owner and not s.player(n).eliminated)
    loser = s.player(owner)
    loser.eliminated = True
    for c in [_home(loser)] + s.holdings(owner, CONQUERED):
        markers = {n: kind for n, kind in s.holders.get(c, {}).items() if n != owner}
        for n in side:
            markers[n] = CONQUERED
            s.player(n).halves += 2 * _value(s, c)
        s.hold(c, markers)
    for c in s.holdings(owner, ALLIED):          # freed, open to attack
        s.hold(c, {n: kind for n, kind in s.holders[c].items() if n != owner} or None)
    s.paid_in += loser.chips                     # the chips change hands through the war chest
    _pay_out(s, side, loser.chips)
    loser.chips = 0
    s.pacts = [p - {owner} for p in s.pacts if len(p - {owner}) >= 2]
    s.final_queue = [n for n in s.final_queue if n != owner]
    live = s.live()
    if len(live) == 1:
        s.phase, s.winner, s.turn = "over", live[0], None


def _pass(s: State, e: ev.Pass) -> ev.Event:
    name = _player(s, e.player)
    rule = 20 if s.phase == "final-round" else 14
    if s.phase not in ("play", "final-round"):
        raise RuleError(rule, _("there is no turn to pass now"))
    if s.war:
        raise RuleError(12, _("the war for {country} is still being fought; record its result "
                              "first").format(country=shown(s.war.target)))
    if name != s.turn:
        raise RuleError(rule, _("it is {turn}'s turn, not {name}'s").format(turn=s.turn, name=name))
    _end_turn(s)
    return ev.Pass(name)


def _offer_pass(s: State) -> list[ev.Event]:
    """Rules 14, 20: the player whose turn it is may pass, when there is a turn to pass."""
    return [ev.Pass(_turn(s))] if _sides(s) else []


def _pact(s: State, e: ev.Pact) -> ev.Event:
    if s.phase in ("final-round", "endgame"):
        raise RuleError(18 if s.phase == "final-round" else 21,
                        _("player alliances can be formed only until the board is full"))
    if len(s.players) < 3:
        raise RuleError(18, _("player alliances need 3 or more players"))
    names = [_player(s, n) for n in e.players]
    if len(set(names)) < 2:
        raise RuleError(18, _("a player alliance needs two or more different players"))
    for n in names:
        if s.player(n).eliminated:
            raise RuleError(19, _("{name} is out of the game").format(name=n))
    group = frozenset().union(*(s.pact_of(n) for n in names))
    if any(s.pact_of(n) == group for n in names):
        raise RuleError(18, _("{names} are already allied").format(names=_join(names)))
    for a, b in itertools.combinations(sorted(group), 2):
        if frozenset((a, b)) in s.broken:
            raise RuleError(18, _("{a} and {b} dissolved their alliance and can never ally again").format(a=a, b=b))
    if set(s.live()) <= group:
        raise RuleError(18, _("an alliance of every remaining player would leave nobody to fight"))
    if s.war and group & set(s.war.side) and group & set(s.war.defenders):
        raise RuleError(18, _("{names} would be allies at war with each other").format(names=_join(sorted(group))))
    s.pacts = [p for p in s.pacts if not p & group] + [group]
    return ev.Pact(tuple(n for n in s.names if n in group))


PACT_PHASES = ("play", "final-round", "endgame")    # rule 18: pacts are made and broken in these


def _offer_pact(s: State) -> list[ev.Event]:
    """Rule 18: any two players still in the game."""
    if s.phase not in PACT_PHASES:
        return []
    return [ev.Pact((a, b)) for a, b in itertools.combinations(s.live(), 2)]


def _break(s: State, e: ev.Break) -> ev.Event:
    names = [_player(s, n) for n in e.players]
    if not names:                            # only a stored event can name nobody
        raise NotationError(_("a side names at least one player"))
    pact = s.pact_of(names[0])
    if len(pact) < 2 or not set(names) <= pact:
        raise RuleError(18, ngettext("{names} is not in a player alliance",
                                     "{names} are not in a player alliance together",
                                     len(names)).format(names=_join(names)))
    s.pacts.remove(pact)
    s.broken |= {frozenset(pair) for pair in itertools.combinations(pact, 2)}
    if s.phase == "endgame" and s.confrontation is None:
        _plan_endgame(s)
    return ev.Break(tuple(n for n in s.names if n in pact))


def _offer_break(s: State) -> list[ev.Event]:
    """Rule 18F: any player alliance, by all its members."""
    return [ev.Break(tuple(sorted(p))) for p in s.pacts] if s.phase in PACT_PHASES else []


# --- the end game (rules 21, 22) ---------------------------------------------------------------
def _plan_endgame(s: State) -> None:
    """Rules 21B, 21H: set the next confrontation, or end the game with its winner (rule 22)."""
    live = s.live()
    seat = {n: i for i, n in enumerate(s.names)}
    def h(n: str) -> int:
        return s.player(n).halves

    unfought = [n for n in live if n not in s.fought]

    def enemies(c: str, pool: list[str]) -> list[str]:
        return [q for q in pool if q != c and not s.allied(c, q)]

    def next_higher(c: str, pool: list[str]) -> str:
        above = [q for q in pool if h(q) >= h(c)]
        if above:
            return min(above, key=lambda q: (h(q), seat[q]))
        return max(pool, key=lambda q: (h(q), -seat[q]))   # nobody higher is left: the closest below

    challenger = None
    if s.last_pair:
        a, b = s.last_pair
        challenger = a if h(a) > h(b) else b if h(b) > h(a) else s.last_survivor
    while unfought:
        pool = enemies(challenger, unfought) if challenger else []
        if not pool:
            challenger = min(unfought, key=lambda q: (h(q), seat[q]))
            pool = enemies(challenger, unfought) or enemies(challenger, live)
        assert challenger is not None     # set in the line above when it was not already
        if pool:
            s.expected = (challenger, next_higher(challenger, pool))
            return
        s.fought.add(challenger)          # only allies are left for him: he never fights
        unfought.remove(challenger)
        challenger = None
    top = max(h(n) for n in live)
    tied = [n for n in live if h(n) == top]
    for a, b in itertools.combinations(tied, 2):
        if not s.allied(a, b):
            s.expected = (a, b)             # rule 21B: players on the same square play off
            return
    s.expected, s.phase, s.winner = None, "over", tied[0]


def _challenge(s: State, e: ev.Challenge) -> ev.Event:
    if s.phase != "endgame":
        raise RuleError(21, _("confrontations belong to the end game, after the final round (rule 20)"))
    if s.confrontation:
        c = s.confrontation
        raise RuleError(21, _("the confrontation of {a} and {b} is still going on; end it with "
                              "'survivor NAME ENERGY'").format(a=c.challenger, b=c.opponent))
    a, b = _player(s, e.challenger), _player(s, e.opponent)
    if s.allied(a, b):
        raise RuleError(21, _("{a} and {b} are allies and never fight each other").format(a=a, b=b))
    if (a, b) != s.expected:
        assert s.expected is not None     # the end game always plans the next pair (rule 21H)
        x, y = s.expected
        raise RuleError(21, _("{x} (PBR {x_pbr}) must challenge {y} (PBR {y_pbr}) next").format(
            x=x, y=y, x_pbr=pbr(s.player(x).halves), y_pbr=pbr(s.player(y).halves)))
    ha, hb = s.player(a).halves, s.player(b).halves
    energy = {a: challenge_energy(ha), b: challenge_energy(hb)}
    s.confrontation = Confrontation(a, b, a if ha <= hb else b, energy, left=dict(energy))
    s.expected = None
    return ev.Challenge(a, b)


def _offer_challenge(s: State) -> list[ev.Event]:
    """Rule 21B, H: the one confrontation the end game expects next."""
    if s.phase != "endgame" or s.confrontation or not s.expected:
        return []
    return [ev.Challenge(*s.expected)]


def _endgame_battle(s: State, e: ev.Battle) -> ev.Event:
    c = s.confrontation
    assert c is not None                                  # _battle checked it
    weapons = _weapons(e.weapons)
    attacker = c.attacker
    defender = c.opponent if attacker == c.challenger else c.challenger
    for who, weapon in ((attacker, weapons[0]), (defender, weapons[1])):
        if c.lost.get(who) == weapon:
            raise RuleError(21, _("{name} lost the {weapon} in the previous battle and cannot use it "
                                  "in this one").format(name=who, weapon=_(WEAPON_NAMES[weapon])))
    winner = _player(s, e.winner) if e.winner else ""
    if winner and winner not in (attacker, defender):
        raise RuleError(21, _("{name} is not in this confrontation").format(name=winner))
    roles = {"attacker": attacker, "defender": defender}
    _check_left({"attacker": c.left[attacker], "defender": c.left[defender]}, e.energies, roles,
                "attacker" if winner == attacker else "defender" if winner else "", 21)
    if winner:                                            # rule 21D: one square up, one down
        loser = defender if winner == attacker else attacker
        s.player(winner).halves += 2
        s.player(loser).halves = max(0, s.player(loser).halves - 2)
        c.lost = {loser: weapons[0] if loser == attacker else weapons[1]}
    else:
        c.lost = {attacker: weapons[0], defender: weapons[1]}
    c.battles += 1
    c.history += ((weapons, winner, e.energies),)
    c.attacker = defender                                 # rule 21E: the roles alternate
    if e.energies is not None:
        c.left = {attacker: e.energies[0], defender: e.energies[1]}
        gone = [n for n in (attacker, defender) if c.left[n] == 0]
        if len(gone) == 1:                                # rule 21G: the other converts his energy
            survivor = defender if gone[0] == attacker else attacker
            _end_confrontation(s, survivor, c.left[survivor])
    return ev.Battle(weapons, winner, e.energies)


def _survivor(s: State, e: ev.Survivor) -> ev.Event:
    c = s.confrontation
    if c is None:
        raise RuleError(21, _("no confrontation is going on"))
    name = _player(s, e.player)
    if name not in (c.challenger, c.opponent):
        raise RuleError(21, _("{name} is not in this confrontation").format(name=name))
    if not 0 <= e.energy <= c.left[name]:
        raise RuleError(21, _("{name} had {left} energy units, so {energy} cannot be left").format(
            name=name, left=c.left[name], energy=e.energy))
    _end_confrontation(s, name, e.energy)
    return ev.Survivor(name, e.energy)


def _offer_survivor(s: State) -> list[ev.Event]:
    """Rule 21G: either side of the confrontation survives, the energy still to be typed."""
    return [ev.Survivor(n, ANY_ENERGY) for n in _fighters(s)] if s.confrontation else []


def _end_confrontation(s: State, survivor: str, energy: int) -> None:
    """Rule 21G: the survivor's energy goes onto his PBR; then the next confrontation (21H)."""
    c = s.confrontation
    assert c is not None                                  # called only during a confrontation
    s.player(survivor).halves += round_five_hundred(energy) // 500   # added: interpretation
    s.fought |= {c.challenger, c.opponent}
    s.last_pair, s.last_survivor = (c.challenger, c.opponent), survivor
    s.confrontation = None
    _plan_endgame(s)


def _seat(s: State, e: ev.Seat) -> ev.Event:
    """A person takes over a computer general's seat, or gives it back (docs/generals.md); not a
    rule of the manual: who decides for a seat, between two moves."""
    name = _player(s, e.player)
    if e.level and e.level not in ev.GENERAL_LEVELS:
        raise RuleError(1, _("each seat is a person or a computer general of level {levels}").format(
            levels=", ".join(ev.GENERAL_LEVELS)))
    s.player(name).general = e.level
    return ev.Seat(name, e.level)


def _time_up(s: State, e: ev.TimeUp) -> ev.Event:
    if s.time_limit is None:
        raise RuleError("variant 1", _("no time limit was agreed ('variant time MINUTES' before the start)"))
    if s.phase == "setup":
        raise RuleError("variant 1", _("the game has not started"))
    live = s.live()
    top = max(s.player(n).halves for n in live)
    leaders = [n for n in live if s.player(n).halves == top]
    s.phase, s.turn, s.war, s.confrontation = "over", None, None, None
    s.winner = leaders[0] if len(leaders) == 1 else None    # a tie when time runs out is a draw
    return e


def _offer_time_up(s: State) -> list[ev.Event]:
    """Variant 1: the time may run out once play has begun."""
    if s.time_limit is None or s.phase in ("setup", "homelands", "alliances"):
        return []
    return [ev.TimeUp()]


Offers = Callable[[State], list[ev.Event]]
SideOffers = Callable[[State, tuple[str, ...]], list[ev.Event]]


@dataclass(frozen=True)
class Verb:
    """One verb of the rules: its event class, the rule that judges it (checks everything, then
    changes the state: see ``step``), and what of it may be offered now, as candidates that
    ``legal_actions`` tries. ``offers`` is None for a verb that is typed, never offered;
    ``side_offers`` instead for a verb acted by a side (rule 18B), asked once per side that may
    act now, so each side's choices are listed together."""
    event: type[ev.Event]
    rule: Callable[[State, Any], ev.Event]
    offers: Offers | None = None
    side_offers: SideOffers | None = None


#: every verb the rules judge, one row each, in the order ``legal_actions`` lists their offers
#: (``undo`` is not here: the game keeps it, board_ledger/game.py). To add a verb, follow
#: docs/architecture.md, "Add a ledger verb".
RULEBOOK: tuple[Verb, ...] = (
    Verb(ev.BoardFile, _board_file),
    Verb(ev.SetValue, _edit_board),
    Verb(ev.SetZone, _edit_board),
    Verb(ev.Variant, _variant),
    Verb(ev.Players, _players),
    Verb(ev.Start, _start, _offer_start),
    Verb(ev.Draw, _draw),
    Verb(ev.Homeland, _homeland, _offer_homeland),
    Verb(ev.Allies, _allies, _offer_allies),
    Verb(ev.Ally, _ally, side_offers=_offer_ally),
    Verb(ev.Attack, _attack, side_offers=_offer_attack),
    Verb(ev.War, _war, _offer_war),
    Verb(ev.Battle, _battle, _offer_battle),
    Verb(ev.Survivor, _survivor, _offer_survivor),
    Verb(ev.Challenge, _challenge, _offer_challenge),
    Verb(ev.Pass, _pass, _offer_pass),
    Verb(ev.Pact, _pact, _offer_pact),
    Verb(ev.Break, _break, _offer_break),
    Verb(ev.TimeUp, _time_up, _offer_time_up),
    Verb(ev.Seat, _seat),
)
#: the rule of each event class (``step`` looks it up)
HANDLERS: dict[type[ev.Event], Callable[[State, Any], ev.Event]] = {v.event: v.rule for v in RULEBOOK}
#: the verbs legal_actions may offer, in the rulebook's order (the others are typed only)
OFFERED: tuple[type[ev.Event], ...] = tuple(v.event for v in RULEBOOK if v.offers or v.side_offers)
#: the verbs offered side by side (``Verb.side_offers``)
SIDE_VERBS: tuple[Verb, ...] = tuple(v for v in RULEBOOK if v.side_offers is not None)
#: the verbs the rulebook does not judge: the game keeps them
GAME_VERBS: tuple[type[ev.Event], ...] = (ev.Undo,)


def missing_verbs() -> list[str]:
    """The verbs of the notation (events.EVENT_TYPES) the rulebook lacks or has twice; the module
    refuses to load while any is, so a new event class cannot be forgotten here."""
    listed = [v.event for v in RULEBOOK] + list(GAME_VERBS)
    return [cls.verb for cls in ev.EVENT_TYPES.values() if listed.count(cls) != 1] + \
        [cls.verb for cls in set(listed) - set(ev.EVENT_TYPES.values())]


if missing_verbs():
    raise ImportError(f"rules.RULEBOOK and events.EVENT_TYPES disagree on {missing_verbs()} "  # i18n: untranslated, a bug
                      "(docs/architecture.md, 'Add a ledger verb')")


def _zone_bonus(s: State) -> None:
    """Rule 7: 1000 per country of a zone but the homeland, once per player per zone."""
    held = {c.name: s.holders_of(c.name) for c in s.board.countries}
    for p in s.players:
        if p.eliminated:
            continue
        for zone, countries in s.board.zones.items():
            if zone not in p.bonus_zones and all(p.name in held[c.name] for c in countries):
                p.bonus_zones.add(zone)
                amount = ZONE_BONUS * sum(1 for c in countries if c.name != p.homeland)
                p.chips += amount
                s.paid_out += amount


def _after(s: State) -> None:
    """Effects that follow any action: the zone bonus (rule 7) and the target score (variant 2)."""
    if s.phase in ("alliances", "play", "final-round"):
        _zone_bonus(s)
    if s.target_pbr is not None and s.phase not in ("setup", "over"):
        reached = [p for p in s.players if not p.eliminated and p.halves >= 2 * s.target_pbr]
        if reached:
            best = max(reached, key=lambda p: p.halves)
            s.phase, s.winner, s.turn, s.war, s.confrontation = "over", best.name, None, None, None


def step(state: State, event: ev.Event, probe: bool = False) -> tuple[State, ev.Event]:
    """Apply one action: the new state and the action with canonical names, or a LedgerError."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise LedgerError(_("'{verb}' is not an action of the rules").format(verb=event.verb))
    if state.phase == "over":
        raise RuleError(22, (_("the game is over ({name} won); 'undo' takes back the last action").format(
            name=state.winner) if state.winner else
            _("the game is over (a draw); 'undo' takes back the last action")))
    s = state.copy()
    s.last_war = None
    canonical = handler(s, event)
    if not probe:
        _after(s)
    return s, canonical


# --- what may be done now ---------------------------------------------------------------------
def _candidates(s: State) -> list[ev.Event]:
    """Every verb's offers, in the rulebook's order; the side verbs side by side, one side after
    the other (the player alone first, then with his alliance)."""
    out: list[ev.Event] = []
    for verb in RULEBOOK:
        if verb.offers is not None:
            out += verb.offers(s)
        elif verb is SIDE_VERBS[0]:
            out += [e for side in _sides(s) for v in SIDE_VERBS if v.side_offers
                    for e in v.side_offers(s, side)]
    return out


def energy_range(s: State, action: ev.Event) -> tuple[int, int]:
    """The energies the rules accept for a ``war`` or ``survivor`` action now (rules 10, 12, 21G)."""
    if isinstance(action, ev.Survivor) and s.confrontation is not None:
        return 0, s.confrontation.left.get(action.player, 0)
    war = s.war
    if war is None or not isinstance(action, ev.War):
        return 0, WAR_ENERGY
    if 0 < war.battles < 3 and max(war.wins.values()) < 2:
        return 0, 0          # no two wins yet: only a loser whose energy is gone ends it (12G)
    return 0, war.left["attacker" if action.winner in war.defenders else "defender"]


def legal_actions(s: State) -> list[ev.Event]:
    """Every action the rules allow now; an energy of ANY_ENERGY stands for any allowed amount.
    Of the free alliances of a large zone only the smaller choices are listed (``_offer_allies``);
    the rules accept any other allowed choice typed."""
    legal = []
    for cand in _candidates(s):
        probe = cand
        if isinstance(cand, (ev.War, ev.Survivor)) and cand.energy == ANY_ENERGY:
            probe = dataclasses.replace(cand, energy=0)
        try:
            step(s, probe, probe=True)
        except LedgerError:
            continue
        legal.append(cand)
    return legal
