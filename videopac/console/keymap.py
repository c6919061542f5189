"""The keymap: which PC key is which Videopac key, joystick direction or app control.

Data, not code: the defaults live in ``videopac/data/keymap.toml``, the ``[controls]`` table
with the controls themselves in videopac/console/controls.py; a player's own file replaces the tables it
contains. Every name is checked, so a typo is one clear sentence, not a dead key.
"""
from __future__ import annotations

import dataclasses
import pathlib
import tomllib
from typing import Any

from i18n import N_, _, os_reason
from safefiles import read_text_at_most

from videopac import UsageError
from videopac.console import controls

DEFAULT = pathlib.Path(__file__).resolve().parent.parent / "data" / "keymap.toml"   # videopac/data/
KEYMAP_LIMIT = 1 << 20      # bytes; the default keymap is 5 KB

# docs/machine-api.md: the key names of Machine.press / Machine.release (Videopac legends)
VIDEOPAC_KEYS = frozenset(
    [str(d) for d in range(10)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    + ["SPACE", "ENTER", "CLEAR", "?", ".", "+", "-", "*", "/", "=", "YES", "NO"])
DIRECTIONS = ("up", "down", "left", "right", "fire")
CONTROLS = frozenset(controls.BY_NAME)          # videopac/console/controls.py
TABLES = ("keyboard", "joystick.0", "joystick.1", "controls")
# PC keys as a player reads them, where the pyglet name is not that (see pc_name)
PC_NAMES = {"BACKSPACE": N_("Bksp"), "DELETE": N_("Del"), "RETURN": N_("Enter"), "SPACE": N_("Space"),
            "NUM_ENTER": N_("num Enter"), "RCTRL": N_("right Ctrl"), "LCTRL": N_("left Ctrl"),
            "HOME": N_("Home"), "END": N_("End"), "PAGEUP": N_("PgUp"), "PAGEDOWN": N_("PgDn"),
            "PAUSE": N_("Pause"), "TAB": N_("Tab"), "ESCAPE": N_("Esc"), "INSERT": N_("Ins"),
            "SCROLLLOCK": N_("Scroll Lock")}


class KeymapError(UsageError, ValueError):
    """A keymap file that cannot be used; the message is one sentence for the player."""


@dataclasses.dataclass(frozen=True)
class Binding:
    """What one PC key does: press a Videopac key, push joystick bits, or trigger a control."""
    kind: str                      # "key", "joystick" or "control"
    value: str                     # Videopac key name, or control name
    stick: int = 0                 # joystick number for kind == "joystick"
    bits: frozenset[str] = frozenset()  # directions/fire for kind == "joystick"


@dataclasses.dataclass
class Keymap:
    """PC key symbol (pyglet) -> Binding, plus the names the F1 overlay shows."""
    bindings: dict[int, Binding]
    names: dict[int, str]          # symbol -> the PC key name as written in the file

    def lookup(self, symbol: int) -> Binding | None:
        return self.bindings.get(symbol)

    def pc_keys_for(self, kind: str, value: str) -> list[str]:
        """The PC key names bound to a Videopac key or control, in file order."""
        return [self.names[s] for s, b in self.bindings.items() if b.kind == kind and b.value == value]

    def shown_keys(self, kind: str, value: str) -> list[str]:
        """The PC keys bound to a Videopac key or control as a player reads them ('PgDn', 'num 8')."""
        return [pc_name(n) for n in self.pc_keys_for(kind, value)]


def pc_name(name: str) -> str:
    """A PC key name as a player reads it: '?' for QUESTION, 'num 8' for NUM_8."""
    from pyglet.window import key
    symbol = getattr(key, name)
    if 0x20 < symbol < 0x7F:
        return chr(symbol).upper()
    if name.startswith("NUM_") and len(name) == 5:
        return _("num {key}").format(key=pc_name(name[4:] if not name[4:].isdigit() else "_" + name[4:]))
    if name in PC_NAMES:
        return _(PC_NAMES[name])
    return name if name[0] == "F" and name[1:].isdigit() else name.capitalize()


def _pc_key_symbols() -> dict[str, int]:
    from pyglet.window import key  # the pyglet key constants are the PC key names
    return {n: v for n, v in vars(key).items()
            if n.isupper() or n.startswith("_") and n[1:].isdigit()
            if isinstance(v, int) and not n.startswith("MOD_")}


def default_text() -> str:
    """The default keymap file: the keys and joysticks of keymap.toml and the controls' table."""
    return DEFAULT.read_text(encoding="utf-8") + "\n" + controls.keymap_table()


def _read(path: pathlib.Path) -> dict[str, Any]:
    """The TOML document of a keymap file: read with a bound, UTF-8, one sentence if not."""
    try:
        return tomllib.loads(read_text_at_most(path, KEYMAP_LIMIT, _("keymaps")))
    except tomllib.TOMLDecodeError as exc:
        raise KeymapError(_("{path}: not a valid TOML file ({reason}).").format(path=path, reason=exc)) from None
    except RecursionError:           # tomllib reads nested arrays and tables by recursion
        raise KeymapError(_("{path}: its arrays or tables are nested too deeply for a keymap; "
                            "write it as the default keymap (--write-keymap) is written.").format(
                                path=path)) from None
    except ValueError as exc:        # too large, not UTF-8: the sentence names the file
        raise KeymapError(f"{exc}.") from None
    except OSError as exc:
        raise KeymapError(_("cannot read the keymap {path}: {reason}.").format(
            path=path, reason=os_reason(exc))) from None


def _tables(doc: dict[str, Any], path: pathlib.Path) -> dict[str, dict[str, Any]]:
    """Flatten the document into the four known tables, refusing anything else."""
    out: dict[str, dict[str, Any]] = {}
    for name, value in doc.items():
        if name == "joystick" and isinstance(value, dict):
            for n, t in value.items():
                out[f"joystick.{n}"] = t
        else:
            out[name] = value
    for name, table in out.items():
        if name not in TABLES:
            raise KeymapError(_("{path}: unknown table [{name}]; the tables are {tables}.").format(
                path=path, name=name, tables=", ".join(f"[{t}]" for t in TABLES)))
        if not isinstance(table, dict):
            raise KeymapError(_("{path}: [{name}] must be a table of PC key = value lines.").format(
                path=path, name=name))
    return out


def _binding(table: str, value: object, where: str) -> Binding:
    if not isinstance(value, str):
        raise KeymapError(_("{where}: the value must be a string in quotes.").format(where=where))
    if table == "keyboard":
        if value not in VIDEOPAC_KEYS:
            raise KeymapError(_("{where}: unknown Videopac key '{value}'; the keys are 0-9, A-Z, "
                                "SPACE, ENTER, CLEAR, ?, ., +, -, *, /, =, YES, NO.").format(
                where=where, value=value))
        return Binding("key", value)
    if table == "controls":
        if value not in CONTROLS:
            raise KeymapError(_("{where}: unknown control '{value}'; the controls are {controls}.").format(
                where=where, value=value, controls=", ".join(sorted(CONTROLS))))
        return Binding("control", value)
    bits = value.split("+")
    if not bits or any(b not in DIRECTIONS for b in bits):
        raise KeymapError(_("{where}: unknown joystick direction '{value}'; use up, down, left, "
                            "right, fire, or two joined by + such as up+left.").format(
            where=where, value=value))
    return Binding("joystick", value, stick=int(table[-1]), bits=frozenset(bits))


def load(user: pathlib.Path | None = None) -> Keymap:
    """The default keymap, with each table of ``user`` (if given) replacing the default's."""
    tables = _tables(tomllib.loads(default_text()), DEFAULT)
    sources = dict.fromkeys(tables, DEFAULT)
    if user is not None:
        for name, table in _tables(_read(user), user).items():
            tables[name], sources[name] = table, user
    symbols = _pc_key_symbols()
    bindings: dict[int, Binding] = {}
    names: dict[int, str] = {}
    homes: dict[int, str] = {}     # symbol -> the table that bound it first
    for name in TABLES:
        for pc, value in tables.get(name, {}).items():
            where = f"{sources[name]}: [{name}] {pc}"
            if pc not in symbols:
                raise KeymapError(_("{where}: unknown PC key name '{pc}'; names are pyglet key "
                                    "names such as A, _1, SPACE, RETURN, BACKSPACE, NUM_8, RCTRL, "
                                    "F5.").format(where=where, pc=pc))
            sym = symbols[pc]
            if sym in bindings:
                raise KeymapError(_("{where}: PC key '{pc}' already has a meaning in [{table}]; "
                                    "give each PC key one meaning (a table in your file replaces "
                                    "the default table of the same name).").format(
                    where=where, pc=pc, table=homes[sym]))
            bindings[sym], names[sym], homes[sym] = _binding(name, value, where), pc, name
    return Keymap(bindings, names)
