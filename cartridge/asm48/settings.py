"""asl's switches that change how the lines after them assemble: the CPU (CPU, read as MOMCPU),
the base of numbers without a suffix (RADIX), the SAVE/RESTORE stack, and the pass number
(MOMPASS)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Settings:
    """The switches as set by the lines read so far in this pass."""

    pass_number: int = 1             # MOMPASS
    cpu: str = "8048"                # CPU, as MOMCPU reads it (the name as a hex number)
    radix: int = 10                  # RADIX: the base of numbers without a suffix
    saved: list[tuple[str, str]] = field(default_factory=list)     # SAVE: (cpu, codepage)
