"""The result of an assembly: the bytes by address, the symbol table and the listing."""
from __future__ import annotations

from i18n import _

from .errors import Diagnostic
from .expr import Value
from .output import ListingEntry

LISTING_BYTES = 4     # code bytes per listing line; longer data continues on extra lines


class Assembly:
    """`data` runs from the lowest to the highest emitted address (gaps are 0xFF) and starts
    at `origin`; `image(start, end)` cuts an exact address range like asl's `p2bin -r`."""

    def __init__(self, memory: dict[int, int], symbols: dict[str, int], listing: str,
                 shared: dict[str, Value] | None = None,
                 warnings: list[Diagnostic] | None = None):
        self.memory = memory
        self.warnings = warnings or []  # Diagnostics: asm48 extensions accepted by relaxed
        self.symbols = symbols
        self.listing = listing
        self.shared = shared or {}      # SHARED symbols, for the share file (share_file())

    def share_file(self, source: str) -> str:
        """The symbols named by SHARED as assembler source, one `NAME EQU value` line each, like
        the share file asl writes with `-a` (KTAA's banks include bank 0's as ktaa_b0.inc); a
        string symbol is written as a string, as asl does."""
        lines = [f"; share file of {source}, written by asm48"]
        lines += [f"{name}\tEQU\t{_source_form(value)}" for name, value in self.shared.items()]
        return "\n".join(lines) + "\n"

    @property
    def origin(self) -> int:
        return min(self.memory) if self.memory else 0

    @property
    def data(self) -> bytes:
        if not self.memory:
            return b""
        return self.image(min(self.memory), max(self.memory))

    def image(self, start: int, end_inclusive: int, fill: int = 0xFF) -> bytes:
        """Exactly the bytes of addresses start..end_inclusive, unassembled ones = fill."""
        if end_inclusive < start - 1:
            raise ValueError(_("empty or reversed range "
                               "{start:#x}-{end:#x}").format(start=start, end=end_inclusive))
        image = bytearray([fill]) * (end_inclusive + 1 - start)
        for address, byte in self.memory.items():
            if start <= address <= end_inclusive:
                image[address - start] = byte
        return bytes(image)


def _source_form(value: Value) -> str:
    """A value as asl source: 0ABCH, or "text" with its backslashes and quotes escaped."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"0{value & 0xFFFFFFFF:X}H"


def format_listing(entries: list[ListingEntry]) -> str:
    """One line per source line: address, code bytes, source; long data wraps."""
    out = []
    for addr, data, src in entries:
        if src is None or not src.listed:
            continue
        where = f"{src.line:5d}{'+' * min(src.depth, 3):<3}"
        chunks = [data[i:i + LISTING_BYTES] for i in range(0, len(data), LISTING_BYTES)] or [b""]
        for k, chunk in enumerate(chunks):
            address = f"{addr + k * LISTING_BYTES:04X}" if addr is not None else "    "
            code = " ".join(f"{b:02X}" for b in chunk)
            text = src.text if k == 0 else ""
            out.append(f"{where} {address}  {code:<{LISTING_BYTES * 3}} {text}".rstrip())
            where = " " * 8
    return "\n".join(out) + "\n"
