"""What a pass produces: the bytes by address and the listing entries, and the program memory
each CPU of the family has (code beyond it is an error)."""
from __future__ import annotations

from dataclasses import dataclass, field

from i18n import _

from .encoder import CODE_END
from .errors import BeyondMemory, SourceError
from .source import Position, SrcLine

# CPUs whose program memory cannot be extended: asl limits their code (its manual, CPU list)
CODE_LIMITS = {"8021": 0x3FF, "8041": 0x3FF, "8022": 0x7FF, "8042": 0x7FF}

ListingEntry = tuple["int | None", bytes, SrcLine]
"""(address or None, the line's bytes, the source line) of one listing line."""


@dataclass
class Output:
    """Bytes by physical address, the listing, and the page of a JMPP just assembled (the DB
    lines right after it are its jump table)."""

    position: Position
    memory: dict[int, int] = field(default_factory=dict)
    listing: list[ListingEntry] = field(default_factory=list)
    jmpp_page: int | None = None
    jmpp_at: int = 0

    def list_line(self, address: int | None, data: bytes = b"", line: SrcLine | None = None
                  ) -> None:
        """A listing line for `line`, by default the line being assembled."""
        self.listing.append((address, data, self.position.line if line is None else line))

    def store(self, start: int, data: bytes, cpu: str) -> None:
        """List and store `data` from `start`; an error for bytes beyond the CPU's program
        memory or over code assembled earlier (the other bytes are stored)."""
        self.list_line(start, data)
        problem: SourceError | None = None
        end = CODE_LIMITS.get(cpu, CODE_END)
        for addr, b in enumerate(data, start):
            if addr > end and end < CODE_END:
                problem = BeyondMemory(_('code at {addr:X}h is beyond the {kb} KB program memory '
                                         'of the {cpu} (asl: "address overflow")').format(
                                             addr=addr, kb=end + 1 >> 10, cpu=cpu))
                break
            if addr > CODE_END:
                problem = BeyondMemory(_("code at {addr:X}h is beyond program memory "
                                         "(000h-FFFh)").format(addr=addr))
                break
            if addr in self.memory:
                problem = problem or SourceError(_("code at {addr:03X}h overlaps code assembled "
                                                   "earlier").format(addr=addr))
            else:
                self.memory[addr] = b
        if problem:
            raise problem
