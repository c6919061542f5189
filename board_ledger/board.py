"""The printed board: 43 countries in 11 zones, their printed order and PBU values (rules 1, 19).

The board is data (``data/board.csv``, read off the printed board) and may be replaced by a custom
board file (rules.md "Variants" 3). Country names match case-insensitively, ignoring dots, and
through the alias table ``data/aliases.csv`` (USA, UK, USSR, BRD, Colombia, ...) and the German
names of ``data/countries_de.csv`` (Vereinigte Staaten, Sowjetunion, ...), which German mode also
shows (``shown``; docs/i18n.md). The notation keeps the board's own names.
"""
from __future__ import annotations

import csv
import difflib
import io
from dataclasses import dataclass
from importlib import resources

import i18n
from i18n import _

from board_ledger.errors import LedgerError, UnknownName


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
        self.zones: dict[int, tuple[Country, ...]] = {}
        for country in self.countries:
            self.zones[country.zone] = self.zones.get(country.zone, ()) + (country,)

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
        names = [c.name for c in self.countries] + list(ALIASES)
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        if close:
            raise UnknownName(_("unknown country '{name}' (did you mean '{suggestion}'?)").format(
                name=name, suggestion=shown(self.lookup(close[0]).name)))
        raise UnknownName(_("unknown country '{name}'").format(name=name))

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


def parse_board(text: str, source: str = "board file") -> Board:
    """Read a board CSV (columns zone, position, country, pbu); LedgerError names a bad row."""
    reader = csv.DictReader(io.StringIO(text))
    need = {"zone", "position", "country", "pbu"}
    if not reader.fieldnames or not need <= {f.strip() for f in reader.fieldnames}:
        raise LedgerError(_("{source} is not a board file: it needs the columns zone, position, "
                            "country, pbu").format(source=source))
    countries: list[Country] = []
    for lineno, row in enumerate(reader, start=2):
        row = {k.strip(): (v or "").strip() for k, v in row.items() if k}
        try:
            country = Country(row["country"], int(row["zone"]), int(row["position"]), int(row["pbu"]))
        except ValueError:
            raise LedgerError(_("{source} line {lineno}: zone, position and pbu must be whole "
                                "numbers").format(source=source, lineno=lineno)) from None
        if not country.name or country.value < 0:
            raise LedgerError(_("{source} line {lineno}: a country needs a name and a value of 0 "
                                "or more").format(source=source, lineno=lineno))
        countries.append(country)
    keys = [name_key(c.name) for c in countries]
    if len(set(keys)) != len(keys):
        raise LedgerError(_("{source} names a country twice").format(source=source))
    if not countries:
        raise LedgerError(_("{source} holds no countries").format(source=source))
    return Board(countries, source, text)


def standard_board() -> Board:
    """The printed board of Videopac 41 (package data)."""
    return parse_board(_data_text("board.csv"), "board.csv")
