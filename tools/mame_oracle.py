"""Run a program in MAME (the reference emulator, docs: docs/mame-oracle.md) and read
back what it left in memory, so tests can compare it with o2em_core.

    python -m tools.mame_oracle BIOS.bin [--cart CART.bin] [--region pal|ntsc] [--frames N]
                                [--type FRAME:TEXT ...] [--joy FRAME:STICK:DIRS ...]
                                [--snapshot OUT.png]

The program is given as the 1 KB "BIOS" image (MAME warns about the checksum and runs it); the
cartridge defaults to a blank 2 KB image because MAME needs one. The character ROM is written
from the project's own copy. Everything goes into a temporary folder that is removed afterwards.
Internal RAM comes from the CPU's data space; external RAM is read through the CPU's I/O space,
so the program must leave P1 with the RAM selected and the VDC deselected (P1 = 0xAF).
``--type 60:1`` types the key 1 at frame 60 through MAME's natural keyboard, e.g. to leave SELECT
GAME; MAME holds each key for a few frames, so compare what a program keeps, not when it saw it.
``--joy 300:0:right+fire`` sets MAME's joystick port JOY.<STICK> at the end of frame 300 to
exactly those directions (up, down, left, right, fire; ``none`` releases all); the setting
holds until the next ``--joy`` for that stick, like ``videopac run``'s ``FRAME joy`` lines (the
first frame is 1). Aligned with ``videopac run``: MAME's ``--joy N`` = our ``N joy`` line.

MAME 0.251 picks the board of a loose ``-cart`` file by its size alone (16 KB: the Videopac+
latch board, anything else: the standard board), and its ``cartslot`` offers no options on the
command line. A cartridge with 3 KB banks (3, 6 or 12 KB, KTAA) is therefore given to MAME as a
one-entry software list (``-hashpath``) whose ``slot`` feature names the ``o2_ktaa`` device.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

MAME = "/usr/games/mame"
SYSTEMS = {"pal": "videopac", "ntsc": "odyssey2"}
XRAM_P1 = 0xAF          # P17=1 P16=0 P14=0 (RAM) P13=1 (no VDC): what the dump needs in P1

_LUA = """
local n = 0
emu.register_frame_done(function()
  n = n + 1
%(typed)s
%(joys)s
  if n == %(frames)d then
    local cpu = manager.machine.devices[":maincpu"]
    local t = {}
    for i = 0, 63 do t[#t+1] = string.format("%%02X", cpu.spaces["data"]:read_u8(i)) end
    print("IRAM " .. table.concat(t, ""))
    t = {}
    for i = 0, 127 do t[#t+1] = string.format("%%02X", cpu.spaces["io"]:read_u8(i)) end
    print("XRAM " .. table.concat(t, ""))
    t = {}
    for k, v in pairs(cpu.state) do t[#t+1] = k .. "=" .. string.format("%%X", v.value) end
    print("REGS " .. table.concat(t, " "))
    manager.machine.video:snapshot()
    manager.machine:exit()
  end
end)
"""


_SOFTLIST = """<?xml version="1.0"?>
<!DOCTYPE softwarelist SYSTEM "softwarelist.dtd">
<softwarelist name="videopac" description="mame_oracle">
  <software name="oracle">
    <description>mame_oracle cartridge</description>
    <year>2024</year>
    <publisher>mame_oracle</publisher>
    <part name="cart" interface="odyssey_cart">
      <feature name="slot" value="%(slot)s" />
      <dataarea name="rom" size="%(size)d">
        <rom name="cart.bin" size="%(size)d" crc="%(crc)08x" sha1="%(sha1)s" />
      </dataarea>
    </part>
  </software>
</softwarelist>
"""


def _cart_arguments(root: pathlib.Path, cart: bytes) -> list[str]:
    """MAME arguments that insert ``cart``: a loose file for the boards MAME recognises by size,
    a software-list entry naming ``o2_ktaa`` for 3 KB banks (see the module docstring)."""
    from o2em_core import bus     # the board of each image size, as our emulator chooses it

    board = bus.BOARDS.get(len(cart))
    if board is None or board.name != bus.THREE_KB:
        (root / "cart.bin").write_bytes(cart)
        return ["-cart", "cart.bin"]
    (root / "hash").mkdir()
    (root / "hash/videopac.xml").write_text(_SOFTLIST % {
        "slot": "o2_ktaa", "size": len(cart), "crc": zlib.crc32(cart),
        "sha1": hashlib.sha1(cart).hexdigest()})
    (root / "roms/oracle").mkdir(parents=True)
    (root / "roms/oracle/cart.bin").write_bytes(cart)
    return ["-hashpath", "hash", "-cart", "oracle"]


@dataclass
class MameResult:
    iram: bytes
    xram: bytes
    regs: dict[str, int]
    snapshot: bytes | None = None     # PNG of the last frame (MAME's screen, 360x243)


def available() -> bool:
    """True when the MAME binary is installed."""
    return shutil.which(MAME) is not None


def _typing(typed: Sequence[tuple[int, str]]) -> str:
    """Lua lines that post each text to MAME's natural keyboard at the end of its frame."""
    for frame, text in typed:
        if not (text.isascii() and text.replace("\r", "").isprintable()):
            raise ValueError(f"cannot type {text!r}; give printable ASCII keys (or \\r, ENTER)")
    post = "  if n == {} then manager.machine.natkeyboard:post({}) end"
    return "\n".join(post.format(int(frame), json.dumps(text)) for frame, text in typed)


JOY_FIELDS = {"up": "Up", "down": "Down", "left": "Left", "right": "Right", "fire": "Button 1"}


def _joysticks(joys: Sequence[tuple[int, int, str]]) -> str:
    """Lua lines that set joystick port JOY.<stick> to the given directions at a frame's end."""
    lines = []
    for frame, stick, dirs in joys:
        if stick not in (0, 1):
            raise ValueError(f"joystick {stick}: give 0 or 1")
        wanted = set() if dirs == "none" else set(dirs.split("+"))
        if not wanted <= set(JOY_FIELDS):
            raise ValueError(f"joystick directions {dirs!r}: give up/down/left/right/fire or none")
        sets = " ".join(
            f'port.fields["P{stick + 1} {field}"]:set_value({int(name in wanted)})'
            for name, field in JOY_FIELDS.items())
        lines.append(f'  if n == {int(frame)} then local port = '
                     f'manager.machine.ioport.ports[":JOY.{stick}"] {sets} end')
    return "\n".join(lines)


def run(bios: bytes, cart: bytes | None = None, region: str = "pal", frames: int = 3,
        timeout: float = 60.0, typed: Sequence[tuple[int, str]] = (),
        joys: Sequence[tuple[int, int, str]] = ()) -> MameResult:
    """Run ``bios`` (1 KB, at 0x000) with ``cart`` in MAME for ``frames`` frames, typing each
    ``(frame, text)`` of ``typed``, and return the internal RAM, the external RAM and the CPU
    registers MAME exposes."""
    from o2em_core import charset   # tools may import the project; the project never imports tools

    if len(bios) != 1024:
        raise ValueError(f"the BIOS image is {len(bios)} bytes; MAME needs 1024")
    with tempfile.TemporaryDirectory(prefix="mame-oracle-") as tmp:
        root = pathlib.Path(tmp)
        system = SYSTEMS[region]
        for sub in ("roms/i8244", f"roms/{system}", "cfg", "nvram", "snap"):
            (root / sub).mkdir(parents=True, exist_ok=True)
        (root / f"roms/{system}/o2bios.rom").write_bytes(bios)
        (root / "roms/i8244/charset_i8244.bin").write_bytes(charset.load())
        cart_args = _cart_arguments(root, cart if cart is not None else bytes(2048))
        (root / "dump.lua").write_text(_LUA % {"frames": frames, "typed": _typing(typed),
                                                "joys": _joysticks(joys)})
        proc = subprocess.run(
            [MAME, system, "-rompath", "roms", *cart_args, "-video", "none",
             "-sound", "none", "-nothrottle", "-skip_gameinfo", "-autoboot_script", "dump.lua",
             "-cfg_directory", "cfg", "-nvram_directory", "nvram", "-snapshot_directory",
             "snap"],
            cwd=root, capture_output=True, text=True, timeout=timeout)
        pngs = sorted((root / "snap").rglob("*.png"))
        snapshot = pngs[-1].read_bytes() if pngs else None
    out = proc.stdout
    iram = re.search(r"^IRAM ([0-9A-F]{128})$", out, re.M)
    xram = re.search(r"^XRAM ([0-9A-F]{256})$", out, re.M)
    regs = re.search(r"^REGS (.*)$", out, re.M)
    if not (iram and xram and regs):
        raise RuntimeError(f"MAME produced no dump (exit {proc.returncode}): "
                           f"{(proc.stderr or out)[-400:]}")
    return MameResult(bytes.fromhex(iram.group(1)), bytes.fromhex(xram.group(1)),
                      {k: int(v, 16) for k, v in (f.split("=") for f in regs.group(1).split())},
                      snapshot)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="mame_oracle", description=__doc__.splitlines()[0])
    p.add_argument("bios", type=pathlib.Path)
    p.add_argument("--cart", type=pathlib.Path)
    p.add_argument("--region", choices=sorted(SYSTEMS), default="pal")
    p.add_argument("--frames", type=int, default=3)
    p.add_argument("--type", action="append", default=[], metavar="FRAME:TEXT",
                   help="type TEXT on the keyboard at the end of frame FRAME (repeatable)")
    p.add_argument("--joy", action="append", default=[], metavar="FRAME:STICK:DIRS",
                   help="set joystick STICK (0/1) to DIRS (up+left+fire, none) at the end of "
                        "frame FRAME (repeatable)")
    p.add_argument("--snapshot", type=pathlib.Path, metavar="OUT.png",
                   help="write MAME's last frame (360x243) as PNG")
    a = p.parse_args(argv)
    typed = []
    for item in a.type:
        frame, sep, text = item.partition(":")
        if not (sep and frame.isdigit() and text):
            p.error(f"--type {item!r}: give FRAME:TEXT, e.g. 60:1")
        typed.append((int(frame), text))
    joys = []
    for item in a.joy:
        parts = item.split(":")
        if len(parts) != 3 or not (parts[0].isdigit() and parts[1] in ("0", "1")):
            p.error(f"--joy {item!r}: give FRAME:STICK:DIRS, e.g. 300:0:right+fire")
        joys.append((int(parts[0]), int(parts[1]), parts[2]))
    try:
        r = run(a.bios.read_bytes(), a.cart.read_bytes() if a.cart else None, a.region,
                a.frames, typed=typed, joys=joys)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"mame_oracle: {e}", file=sys.stderr)
        return 2
    if a.snapshot is not None and r.snapshot is not None:
        a.snapshot.write_bytes(r.snapshot)
    json.dump({"iram": r.iram.hex(), "xram": r.xram.hex(), "regs": r.regs}, sys.stdout,
              indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
