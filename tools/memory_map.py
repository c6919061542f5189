"""The battle cartridge's memory map, read from its one source (cartridge/conquest/memory.toml).

It allocates the internal and external RAM and the unit record's fields, refuses overlaps and
overfull areas, numbers the bank calls and writes what the assembler includes (memory.inc, one
dispatcher per data bank) and the map report with every bank's free bytes (docs/conquest.md
"The cartridge"). tools/build_roms.py runs it before it assembles the cartridge.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BANK_SIZE = 0x800
BANK_FIRST, BANK_LAST = 0x400, 0xBFF      # every bank is assembled over the same addresses


class MapError(Exception):
    """The map contradicts itself: an overlap, an overfull area, an unknown name."""


@dataclass(frozen=True)
class Slot:
    """One allocation: `name` covers `size` bytes from `address`."""
    name: str
    address: int
    size: int
    note: str
    shares: str = ""

    @property
    def end(self) -> int:
        return self.address + self.size - 1


@dataclass(frozen=True)
class Call:
    """A bank call: number `index` runs `routine` in the data banks `banks`."""
    index: int
    name: str
    routine: str
    arg: bool
    banks: tuple[int, ...]


@dataclass(frozen=True)
class Bank:
    number: int
    source: str
    holds: str


@dataclass(frozen=True)
class MemoryMap:
    banks: tuple[Bank, ...]
    calls: tuple[Call, ...]
    iram: tuple[Slot, ...]
    iram_range: tuple[int, int]
    xram: tuple[Slot, ...]
    xram_range: tuple[int, int]
    record: tuple[Slot, ...]
    record_size: int


def _allocate(area: str, entries: list[dict[str, Any]], first: int, last: int
              ) -> tuple[Slot, ...]:
    """Entries in order from `first`; `at` fixes an address, `shares` reuses another entry's
    bytes (and must lie inside them). Raises MapError on an overlap or beyond `last`."""
    slots: list[Slot] = []
    by_name: dict[str, Slot] = {}
    here = first
    for e in entries:
        name, size, shares = str(e["name"]), int(e.get("size", 1)), str(e.get("shares", ""))
        if name in by_name:
            raise MapError(f"{area}: {name} is allocated twice.")
        if shares:
            if shares not in by_name:
                raise MapError(f"{area}: {name} shares {shares}, which is not allocated before it.")
            host = by_name[shares]
            address = int(e.get("at", host.address))
            if address < host.address or address + size - 1 > host.end:
                raise MapError(f"{area}: {name} lies outside {shares}, the entry it shares.")
        else:
            address = int(e.get("at", here))
            here = address + size
        slot = Slot(name, address, size, str(e.get("note", "")), shares)
        if slot.address < first or slot.end > last:
            raise MapError(f"{area}: {name} ({slot.address:#04x}-{slot.end:#04x}) lies beyond "
                           f"{first:#04x}-{last:#04x}; the area is full.")
        for other in slots:
            if other.name == shares:        # the one overlap a `shares` declares
                continue
            if slot.address <= other.end and other.address <= slot.end:
                raise MapError(f"{area}: {name} ({slot.address:#04x}-{slot.end:#04x}) overlaps "
                               f"{other.name} ({other.address:#04x}-{other.end:#04x}).")
        slots.append(slot)
        by_name[name] = slot
    return tuple(slots)


def parse(text: str) -> MemoryMap:
    """The map of memory.toml's text; MapError when it contradicts itself."""
    try:
        doc = tomllib.loads(text)
        banks = tuple(Bank(int(b["number"]), str(b["source"]), str(b["holds"]))
                      for b in doc["bank"])
        calls = tuple(Call(i, str(c["name"]), str(c["routine"]), bool(c["arg"]),
                           tuple(int(n) for n in c["banks"])) for i, c in enumerate(doc["call"]))
        ir, xr, rec = doc["iram"], doc["xram"], doc["record"]
        iram = _allocate("internal RAM", ir["entries"], int(ir["first"]), int(ir["last"]))
        xram = _allocate("external RAM", xr["entries"], int(xr["first"]), int(xr["last"]))
        fields = [dict(f, size=1) for f in rec["fields"]]
        record = _allocate("unit record", fields, 0, int(rec["size"]) - 1)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as err:
        raise MapError(f"memory.toml cannot be read: {err}") from None
    numbers = sorted(b.number for b in banks)
    if numbers != list(range(len(banks))):
        raise MapError(f"the banks are numbered {numbers}; they must be 0, 1, 2, ... once each.")
    for call in calls:
        for n in call.banks:
            if n not in (0, 2):
                raise MapError(f"bank call {call.name}: bank {n} is not a data bank (0 or 2).")
    return MemoryMap(banks, calls, iram, (int(ir["first"]), int(ir["last"])), xram,
                     (int(xr["first"]), int(xr["last"])), record, int(rec["size"]))


def load(path: Path) -> MemoryMap:
    return parse(path.read_text(encoding="utf-8"))


def _equ(name: str, value: int, note: str) -> str:
    return f"{name:<16}equ     0{value:02X}h{'':<8}; {note}".rstrip()   # 0 first: a number


def memory_inc(m: MemoryMap) -> str:
    """The assembler's view of the map: RAM addresses, record fields and bank-call numbers, and
    which data bank holds which call (the bank0 macro of vars.inc checks it)."""
    out = ["; memory.inc - written by tools/build_roms.py from memory.toml; do not edit.", "",
           f"; ---- internal RAM {m.iram_range[0]:02X}-{m.iram_range[1]:02X} ----"]
    out += [_equ(s.name, s.address, s.note) for s in m.iram]
    out += ["", f"; ---- external RAM {m.xram_range[0]:02X}-{m.xram_range[1]:02X} ----"]
    out += [_equ(s.name, s.address, s.note) for s in m.xram]
    out += ["", f"; ---- the unit record ({m.record_size} bytes per side) ----"]
    out += [_equ(s.name, s.address, s.note) for s in m.record]
    out += ["", "; ---- bank calls (macro bank0): number, and the data banks holding each ----"]
    for data_bank in (0, 2):
        mask = sum(1 << c.index for c in m.calls if data_bank in c.banks)
        out.append(_equ(f"CALLS_IN_{data_bank}", mask, f"bit n: bank {data_bank} holds call n"))
    out += [_equ(f"B0_{c.name}", c.index, c.routine) for c in m.calls]
    return "\n".join(out) + "\n"


def dispatch_inc(m: MemoryMap, data_bank: int) -> str:
    """Data bank `data_bank`'s dispatcher: R0 = xfn holds the call's number and A its argument
    (vars.inc); every number gets an entry, a call the bank lacks lands on xb_none."""
    out = [f"; dispatch{data_bank}.inc - written by tools/build_roms.py from memory.toml; "
           "do not edit.",
           "xb_dispatch:",
           "        xch     a,@r0",
           "        add     a,#lo(xb_table)",
           "        jmpp    @a",
           "xb_table:"]
    names = [f"lo(xb_{c.routine})" if data_bank in c.banks else "lo(xb_none)" for c in m.calls]
    out += [f"        db      {', '.join(names[i:i + 6])}" for i in range(0, len(names), 6)]
    for c in m.calls:
        if data_bank not in c.banks:
            continue
        out.append(f"xb_{c.routine}:")
        if c.arg:
            out.append("        mov     a,@r0")
        out += [f"        xcall   {c.routine}", "        jmp     XB_BACK1"]
    out += ["xb_none:", "        jmp     XB_BACK1",
            "        samepage xb_table+%d, xb_dispatch" % (len(m.calls) - 1)]
    return "\n".join(out) + "\n"


def holes(memory: dict[int, int]) -> list[tuple[int, int]]:
    """(first address, length) of every run of unassembled bytes of a bank."""
    out: list[tuple[int, int]] = []
    start = None
    for addr in range(BANK_FIRST, BANK_LAST + 2):
        free = addr <= BANK_LAST and addr not in memory
        if free and start is None:
            start = addr
        elif not free and start is not None:
            out.append((start, addr - start))
            start = None
    return out


def report(m: MemoryMap, memories: dict[int, dict[int, int]]) -> str:
    """The map report (cartridge/roms/conquest.map): banks with free bytes and holes, the RAM."""
    out = ["Conquest cartridge memory map (tools/build_roms.py from cartridge/conquest/memory.toml)",
           "", "bank  source                            used  free  holes (address+length)"]
    for b in m.banks:
        gaps = holes(memories[b.number])
        free = sum(n for _, n in gaps)
        where = " ".join(f"{a:03X}+{n}" for a, n in gaps)
        out.append(f"{b.number:>4}  {b.source.rsplit('/', 1)[-1]:<32} {BANK_SIZE - free:>5} "
                   f"{free:>5}  {where}")
        out.append(f"      {b.holds}")
    for title, slots, (first, last) in (("internal RAM", m.iram, m.iram_range),
                                        ("external RAM", m.xram, m.xram_range)):
        used = {a for s in slots for a in range(s.address, s.end + 1)}
        out += ["", f"{title} {first:02X}-{last:02X}: {len(used)} of {last - first + 1} bytes "
                f"used, {last - first + 1 - len(used)} free"]
        for s in slots:
            share = f" (shares {s.shares})" if s.shares else ""
            out.append(f"  {s.address:02X}-{s.end:02X}  {s.name:<16}{s.note}{share}")
    out += ["", "bank calls (B0_*): " + ", ".join(
        f"{c.index} {c.routine} [{'/'.join(map(str, c.banks))}]" for c in m.calls)]
    return "\n".join(out) + "\n"
