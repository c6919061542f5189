"""The printed board: 43 countries in 11 zones, their printed order and PBU values (rules 1, 19).

The board is data (``data/board.csv``, read off the printed board) and may be replaced by a custom
board file (docs/rules.md "Variants" 3). Country names match case-insensitively, ignoring dots, and
through the alias table ``data/aliases.csv`` (USA, UK, USSR, BRD, Colombia, ...) and the German
names of ``data/countries_de.csv`` (Vereinigte Staaten, Sowjetunion, ...), which German mode also
shows (``shown``; docs/i18n.md). The notation keeps the board's own names.
"""
from __future__ import annotations

import csv
import difflib
import io
import unicodedata
from dataclasses import dataclass
from importlib import resources

import i18n
from i18n import N_, _

from board_ledger.errors import LedgerError, UnknownName
from board_ledger.numbers import MAX_DIGITS, clipped, whole_number


#: the most a country may be worth: the PBR track printed on the board runs from 1 to 100
#: (docs/ledger.md, the `value` line); a custom value or board file asking more is refused, so every
#: PBR, price and chart stays of the board's size
MAX_VALUE = 100
#: the most countries a board may hold (the printed one has 43): every action looks at each country
#: (the zone bonus, what may be done now), so a board file of 60,000 made each action take seconds
MAX_COUNTRIES = 1000
#: the most characters of a typed name a refusal repeats (a line may be megabytes long)
NAME_SHOWN = 60


@dataclass(frozen=True)
class Country:
    """One row of the board: its zone, its place in the zone's printed list and its value."""

    name: str
    zone: int
    position: int
    value: int


def name_key(name: str) -> str:
    """The form two names are compared in: case, dots and extra spaces do not matter."""
    return " ".join(name.replace(".", "").lower().split())


def _data_text(filename: str) -> str:
    return resources.files("board_ledger").joinpath("data", filename).read_text(encoding="utf-8")


def _name_table(filename: str, column: str) -> dict[str, str]:
    """A data table mapping the board's name of a country to another name of it, or back."""
    return {row["country"]: row[column] for row in csv.DictReader(io.StringIO(_data_text(filename)))}


#: the board's name -> the German name (used for display in German and accepted as an alias)
GERMAN_NAMES: dict[str, str] = _name_table("countries_de.csv", "german")
ALIASES: dict[str, str] = {name_key(alias): country
                           for alias, country in ({v: k for k, v in GERMAN_NAMES.items()}
                                                  | {r["alias"]: r["country"] for r in csv.DictReader(
                                                      io.StringIO(_data_text("aliases.csv")))}).items()}


def shown(country: str) -> str:
    """A country's name as the user reads it: the German name in German mode, else the board's."""
    return GERMAN_NAMES.get(country, country) if i18n.language() == "de" else country


class Board:
    """The countries of one board, looked up by name and by zone in printed order."""

    def __init__(self, countries: list[Country], source: str = "board.csv", text: str = "") -> None:
        self.source = source
        self.text = text
        self.countries: tuple[Country, ...] = tuple(sorted(countries, key=lambda c: (c.zone, c.position)))
        self._by_key = {name_key(c.name): c for c in self.countries}
        zones: dict[int, list[Country]] = {}
        for country in self.countries:
            zones.setdefault(country.zone, []).append(country)
        self.zones: dict[int, tuple[Country, ...]] = {zone: tuple(cs) for zone, cs in zones.items()}

    def __getitem__(self, name: str) -> Country:
        return self._by_key[name_key(name)]

    def lookup(self, name: str) -> Country:
        """The country called ``name`` or one of its aliases; UnknownName with a suggestion if none."""
        key = name_key(name)
        if key in self._by_key:
            return self._by_key[key]
        alias = ALIASES.get(key)
        if alias is not None and name_key(alias) in self._by_key:
            return self._by_key[name_key(alias)]
        suggestion = self._suggest(key)
        if suggestion:
            raise UnknownName(_("unknown country '{name}' (did you mean '{suggestion}'?)").format(
                name=clipped(name, NAME_SHOWN), suggestion=shown(suggestion)))
        raise UnknownName(_("unknown country '{name}'").format(name=clipped(name, NAME_SHOWN)))

    def _suggest(self, key: str) -> str | None:
        """The country a mistyped name most likely means: the one whose name (or an alias) starts
        with what was typed, else the closest by spelling. Case does not count: "Ca" is the start
        of Canada, though by spelling alone it is closer to Cuba."""
        canonical = {name_key(c.name): c.name for c in self.countries}
        for alias, target in ALIASES.items():
            if name_key(target) in canonical:
                canonical.setdefault(alias, canonical[name_key(target)])
        starts = sorted({k for k, name in canonical.items() if key and k.startswith(key)})
        if len({canonical[k] for k in starts}) == 1:
            return canonical[starts[0]]
        close = difflib.get_close_matches(key, starts or list(canonical), n=1, cutoff=0 if starts else 0.6)
        return canonical[close[0]] if close else None

    def zone_of(self, name: str) -> tuple[Country, ...]:
        """Every country of ``name``'s zone, in printed order."""
        return self.zones[self[name].zone]

    def neighbours(self, name: str) -> list[Country]:
        """The countries printed directly above and below ``name`` in its zone list (rule 19A)."""
        zone = self.zone_of(name)
        i = [c.name for c in zone].index(self[name].name)
        return [zone[j] for j in (i - 1, i + 1) if 0 <= j < len(zone)]

    @property
    def total(self) -> int:
        return sum(c.value for c in self.countries)

    def edited(self, country: str, value: int | None = None, zone: int | None = None) -> "Board":
        """A copy with one country's value or zone changed (a scenario edit, variant 3)."""
        rows = []
        for c in self.countries:
            if c.name == country:
                if zone is not None and zone != c.zone:
                    last = max((d.position for d in self.zones.get(zone, ())), default=0)
                    c = Country(c.name, zone, last + 1, c.value)
                if value is not None:
                    c = Country(c.name, c.zone, c.position, value)
            rows.append(c)
        return Board(rows, self.source, "")


# characters no name may hold: control characters (CR, VT, FF, ESC ...), U+0085 and the line and
# paragraph separators break the one-line notation or the terminal; lone surrogates are no text
UNWRITABLE = {"Cc": N_("a control character"), "Zl": N_("a line separator"),
              "Zp": N_("a paragraph separator"), "Cs": N_("a lone surrogate")}


def unwritable(name: str) -> str | None:
    """What in ``name`` the notation cannot write (docs/ledger.md "Names and exports"), or None."""
    for ch in name:
        what = UNWRITABLE.get(unicodedata.category(ch))
        if what:
            return f"{_(what)} (U+{ord(ch):04X})"
    return None


def parse_board(text: str, source: str = "board file") -> Board:
    """Read a board CSV (columns zone, position, country, pbu); LedgerError names a bad row."""
    reader = csv.DictReader(io.StringIO(text.removeprefix("\ufeff"), newline=""))
    countries: list[Country] = []
    try:
        need = {"zone", "position", "country", "pbu"}
        if not reader.fieldnames or not need <= {f.strip() for f in reader.fieldnames if f}:
            raise LedgerError(_("{source} is not a board file: it needs the columns zone, position, "
                                "country, pbu").format(source=source))
        for row in reader:
            lineno = reader.line_num
            row = {k.strip(): (v or "").strip() for k, v in row.items() if isinstance(k, str) and k}
            read = [whole_number(row[k]) for k in ("zone", "position", "pbu")]
            numbers = [n for n in read if n is not None]
            if len(numbers) < len(read):
                raise LedgerError(_("{source} line {lineno}: zone, position and pbu must be whole "
                                    "numbers (digits 0-9, at most {digits})").format(
                                        source=source, lineno=lineno, digits=MAX_DIGITS))
            country = Country(row["country"], *numbers)
            if country.value > MAX_VALUE:
                raise LedgerError(_("{source} line {lineno}: a country's value is at most {most} (the "
                                    "length of the PBR track), not {value}").format(
                                        source=source, lineno=lineno, most=MAX_VALUE, value=country.value))
            if not country.name or country.name == "-":     # '-' is "none" in 'allies NAME -'
                raise LedgerError(_("{source} line {lineno}: a country needs a name (not '-')").format(
                    source=source, lineno=lineno))
            if unwritable(country.name):
                raise LedgerError(_("{source} line {lineno}: a country's name cannot hold {what}").format(
                    source=source, lineno=lineno, what=unwritable(country.name)))
            if len(countries) == MAX_COUNTRIES:
                raise LedgerError(_("{source} line {lineno}: a board holds at most {most} countries (the "
                                    "printed board has 43)").format(source=source, lineno=lineno,
                                                                    most=MAX_COUNTRIES))
            countries.append(country)
    except csv.Error as exc:         # a field over csv's 128 KiB limit, a line break in a field
        raise LedgerError(_("{source} line {lineno} is not valid CSV ({reason})").format(
            source=source, lineno=reader.line_num, reason=exc)) from None
    keys = [name_key(c.name) for c in countries]
    if len(set(keys)) != len(keys):
        raise LedgerError(_("{source} names a country twice").format(source=source))
    if not countries:
        raise LedgerError(_("{source} holds no countries").format(source=source))
    return Board(countries, source, text)


def csv_rows(board: Board) -> list[str]:
    """The board as canonical CSV lines (header first): what an export writes inline. A name with
    a comma, a double quote or '|' is a quoted CSV field."""
    def field(name: str) -> str:
        return f'"{name.replace(chr(34), chr(34) * 2)}"' if any(c in name for c in ',"|') else name
    return ["zone,position,country,pbu"] + [f"{c.zone},{c.position},{field(c.name)},{c.value}"
                                             for c in board.countries]


def standard_board() -> Board:
    """The printed board of Videopac 41 (package data)."""
    return parse_board(_data_text("board.csv"), "board.csv")
