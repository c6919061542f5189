"""The location counter and what moves it besides code: PHASE (assembled for one address,
stored at another) and STRUCT/UNION definitions (their fields count from 0)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Location:
    """`pc` is the logical address ($, labels); PHASE makes it `phase` bytes ahead of the
    physical address the code is stored at."""

    pc: int = 0
    phase: int = 0

    @property
    def physical(self) -> int:
        return self.pc - self.phase


@dataclass
class StructDef:
    """A STRUCT or UNION being defined: its name ("" with NOEXTNAMES), the separator of
    the field names, the location counter to go back to, the fields (name, offset); in a
    union every field starts at 0 and the longest one is the length."""

    name: str
    sep: str
    saved: int
    union: bool = False
    fields: list[tuple[str, int]] = field(default_factory=list)
    longest: int = 0

    def qualified(self, name: str) -> str:
        return f"{self.name}{self.sep}{name}" if self.name else name


@dataclass
class Structures:
    """The STRUCT definitions being read (innermost last) and the structures defined:
    NAME -> (fields as (name, offset), length)."""

    reading: list[StructDef] = field(default_factory=list)
    defined: dict[str, tuple[list[tuple[str, int]], int]] = field(default_factory=dict)
