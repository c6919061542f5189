"""A layout table: the named rows of one array of the machine state (or of the numbers the CPU
dispatches on), in their order, each written as a module-level assignment of its position,
``NAME = _row("NAME", ...)``.

The position (an index, or a byte offset: the widths of the rows above) is generated, never
counted by hand, and it lands in a plain module integer, which numba compiles in as a constant
and type checkers see. Each name is therefore written twice, as the global and as the row's
name; ``Table.done`` holds the two equal when the module is imported. The CPU's operations
(``cpu.OPERATIONS``), the register file (``state.REGISTERS``), the parts of ``mem``
(``state.MEM_PARTS``), the sound state (``sound.SOUND_STATE``) and the compositor's scratch (``raster.SCRATCH_FIELDS``) are such tables,
and the save-state fingerprint is computed from them (``savestate.layout_fingerprint``).
"""
from __future__ import annotations

from typing import Callable, Generic, Mapping, Protocol, TypeVar


class NamedRow(Protocol):
    """What a table's row has at least: its name ("" for a spare row, which no global holds)."""

    @property
    def name(self) -> str: ...


Row = TypeVar("Row", bound=NamedRow)


def _one(row: NamedRow) -> int:
    return 1


class Table(Generic[Row]):
    """The rows of one layout, added in order. ``width`` says how many positions a row takes
    (1 by default: the position is the row's index)."""

    def __init__(self, what: str, width: Callable[[Row], int] = _one) -> None:
        self.what = what                # the table's public name, for the import error
        self._width = width
        self._rows: list[Row] = []
        self.size = 0                   # positions taken by the rows so far

    def add(self, row: Row) -> int:
        """Append ``row``; its position, the widths of the rows above it."""
        at = self.size
        self._rows.append(row)
        self.size += self._width(row)
        return at

    def done(self, module: Mapping[str, object],
             globals_of: Callable[[Row, int], dict[str, int]] | None = None) -> tuple[Row, ...]:
        """The rows, once every named row's globals in ``module`` hold what the table says:
        by default the row's name holds its position; ``globals_of(row, position)`` says
        otherwise. A name written differently in the two places is an ImportError."""
        names = [row.name for row in self._rows if row.name]
        if len(set(names)) != len(names):
            raise ImportError(f"{self.what}: a name is used twice: {names}")
        at = 0
        for row in self._rows:
            if row.name:
                expected = globals_of(row, at) if globals_of else {row.name: at}
                wrong = [name for name, value in expected.items() if module.get(name) != value]
                if wrong:
                    raise ImportError(f"{self.what}: the row {row.name} is not its global {wrong}")
            at += self._width(row)
        return tuple(self._rows)
