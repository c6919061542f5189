"""Run a test program in MAME (the reference emulator, docs: docs/mame-oracle.md) and
keep what it showed: the screen as palette indices and the 64 bytes of internal RAM.

    python tools/mame_golden.py roms_test/vdc/*.a48 [--region pal ntsc] [--frames 20]
                                [--out tests/vdc/golden]

Each program is assembled with our asm48 into a 1 KB image for the BIOS socket (MAME gets a blank
2 KB cartridge), run headless for ``--frames`` frames, and MAME's 360×243 snapshot is converted
back to palette indices with the RF palette (o2em_core.palette.RGB), which MAME uses by default.
MAME's sound of the run is recorded too (``-wavwrite``, 44.1 kHz, left channel). The result is
stored as ``<name>_<region>.npz`` (arrays ``frame``, ``iram``, ``audio``, ``image``). The
tests in tests/vdc/test_vs_mame.py compare our emulator with these files, and (marked ``mame``)
check that rerunning this tool reproduces them.
"""
from __future__ import annotations

import argparse
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import wave
import zlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cartridge.asm48 import assemble  # noqa: E402
from o2em_core.charset import CHARSET  # noqa: E402
from o2em_core.palette import RGB  # noqa: E402

MAME = "/usr/games/mame"
MACHINES = {"pal": "videopac", "ntsc": "odyssey2"}
GOLDEN_DIR = ROOT / "tests" / "vdc" / "golden"

LUA = """
local n = 0
emu.register_frame_done(function()
  n = n + 1
  if n == {frames} then
    local cpu = manager.machine.devices[":maincpu"]
    local t = {{}}
    for i = 0, 63 do t[#t+1] = string.format("%02X", cpu.spaces["data"]:read_u8(i)) end
    print("IRAM " .. table.concat(t, " "))
    manager.machine.video:snapshot()
    manager.machine:exit()
  end
end)
"""


def build(source: pathlib.Path) -> bytes:
    """Assemble a test program into the 1 KB BIOS-socket image (unused bytes 0x00)."""
    text = source.read_text(encoding="utf-8")
    return assemble(text, str(source), include_dirs=[source.parent]).image(0, 0x3FF, 0x00)


def decode_png(data: bytes) -> np.ndarray:
    """An 8-bit RGB or RGBA, non-interlaced PNG (as MAME writes them) -> (H, W, 3) uint8."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, width, height, channels = 8, b"", 0, 0, 3
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour_type not in (2, 6) or interlace:
                raise ValueError("only 8-bit RGB/RGBA non-interlaced PNGs are supported")
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
    out = np.zeros((height, width * channels), np.int32)
    prev = np.zeros(width * channels, np.int32)
    for y in range(height):
        kind, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 0xFF
        else:                          # Sub, Average, Paeth depend on the pixel to the left
            cur = np.zeros_like(line)
            for x in range(line.size):
                a = cur[x - channels] if x >= channels else 0
                b = prev[x]
                c = prev[x - channels] if x >= channels else 0
                if kind == 1:
                    p = a
                elif kind == 3:
                    p = (a + b) >> 1
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.reshape(height, width, channels)[:, :, :3].astype(np.uint8)


def to_indices(rgb: np.ndarray) -> np.ndarray:
    """RGB pixels of the RF palette -> palette indices; any other colour is an error."""
    key = (rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]
    table = {(int(r) << 16) | (int(g) << 8) | int(b): i for i, (r, g, b) in enumerate(RGB)}
    out = np.full(key.shape, 255, np.uint8)
    for k, i in table.items():
        out[key == k] = i
    if (out == 255).any():
        raise ValueError("MAME's snapshot has colours outside the RF palette")
    return out


def run_mame(image: bytes, region: str, frames: int) -> tuple[np.ndarray, bytes, np.ndarray]:
    """Run ``image`` in MAME's BIOS socket for ``frames`` frames: (palette indices, iRAM,
    sound as int16 at 44.1 kHz)."""
    machine = MACHINES[region]
    with tempfile.TemporaryDirectory(prefix="mame-") as tmp:
        d = pathlib.Path(tmp)
        (d / "roms" / machine).mkdir(parents=True)
        (d / "roms" / "i8244").mkdir()
        (d / "roms" / machine / "o2bios.rom").write_bytes(image)
        (d / "roms" / "i8244" / "charset_i8244.bin").write_bytes(CHARSET.tobytes())
        (d / "blank.bin").write_bytes(bytes(2048))
        (d / "dump.lua").write_text(LUA.format(frames=frames))
        res = subprocess.run(
            [MAME, machine, "-rompath", str(d / "roms"), "-cart", str(d / "blank.bin"),
             "-video", "none", "-sound", "none", "-nothrottle", "-skip_gameinfo",
             "-autoboot_script", str(d / "dump.lua"), "-cfg_directory", str(d / "cfg"),
             "-nvram_directory", str(d / "nvram"), "-snapshot_directory", str(d / "snap"),
             "-snapname", "frame", "-wavwrite", str(d / "sound.wav"), "-samplerate", "44100"],
            capture_output=True, text=True, cwd=d, timeout=120)
        lines = [ln for ln in res.stdout.splitlines() if ln.startswith("IRAM ")]
        snap = d / "snap" / "frame.png"
        if not lines or not snap.exists():
            raise RuntimeError(f"MAME did not finish: {res.stdout[-400:]} {res.stderr[-400:]}")
        iram = bytes(int(h, 16) for h in lines[-1].split()[1:])
        with wave.open(str(d / "sound.wav")) as w:
            pcm = np.frombuffer(w.readframes(w.getnframes()), "<i2")
            audio = pcm.reshape(-1, w.getnchannels())[:, 0].copy()
        return to_indices(decode_png(snap.read_bytes())), iram, audio


def golden_path(source: pathlib.Path, region: str, out: pathlib.Path = GOLDEN_DIR) -> pathlib.Path:
    return out / f"{source.stem}_{region}.npz"


def make_golden(source: pathlib.Path, region: str, frames: int,
                out: pathlib.Path = GOLDEN_DIR) -> pathlib.Path:
    image = build(source)
    frame, iram, audio = run_mame(image, region, frames)
    out.mkdir(parents=True, exist_ok=True)
    path = golden_path(source, region, out)
    np.savez_compressed(path, frame=frame, iram=np.frombuffer(iram, np.uint8), audio=audio,
                        image=np.frombuffer(image, np.uint8), frames=np.array(frames))
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="mame_golden", description=__doc__.split("\n\n")[0])
    ap.add_argument("programs", nargs="+", type=pathlib.Path)
    ap.add_argument("--region", nargs="+", choices=sorted(MACHINES), default=["pal", "ntsc"])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--out", type=pathlib.Path, default=GOLDEN_DIR)
    args = ap.parse_args(argv)
    if not shutil.which(MAME):
        print(f"mame_golden: {MAME} is not installed; install the Debian package 'mame'",
              file=sys.stderr)
        return 1
    for source in args.programs:
        for region in args.region:
            print(make_golden(source, region, args.frames, args.out).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
