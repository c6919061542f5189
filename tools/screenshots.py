"""Render the README screenshots of `videopac play` under a virtual X display.

    python tools/screenshots.py [CART.bin] [--bios FILE] [--region pal|ntsc] [--seconds S]
                                [--press KEYS] [--out docs/screens]

Starts Xvfb on a free display, plays the cartridge (default: the built-in battle program on the
built-in BIOS) for S emulated seconds, optionally types KEYS (Videopac key names separated by
spaces, each held for 6 frames, then one more second), and saves what the window shows:
``play.png`` (the picture at scale 2), ``message.png`` (after F2: "saved to slot 0") and
``help.png`` (the F1 keyboard overlay). States go to a temporary folder, not your own.

Until the battle program is built, the screenshots in docs/screens show our video-chip test
program (all objects moving) in the BIOS socket:

    python tools/screenshots.py BLANK2K.bin --bios MOVING.bin --seconds 2
    (MOVING.bin = roms_test/vdc/moving.a48 assembled by asm48, 0x000-0x3FF; BLANK2K.bin = 2048
    bytes of 0xFF)
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.xvfb import virtual_display  # noqa: E402  (after the path is set)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cart", nargs="?")
    ap.add_argument("--bios")
    ap.add_argument("--region", choices=("pal", "ntsc"), default="pal")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--press", default="")
    ap.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "screens")
    args = ap.parse_args()

    from cartridge.images import builtin_image
    bios = pathlib.Path(args.bios).read_bytes() if args.bios else builtin_image("bios")
    cart = pathlib.Path(args.cart).read_bytes() if args.cart else builtin_image("conquest")

    with virtual_display(), tempfile.TemporaryDirectory() as data:
        os.environ["XDG_DATA_HOME"] = data      # the F2 shot saves a state: not into yours
        import pyglet
        pyglet.options["shadow_window"] = False
        pyglet.options["audio"] = ("silent",)
        from o2em_core import Machine
        from o2em_core import palette
        from o2em_core.keyboard import tap
        from videopac.console import keymap, paths
        from videopac.console.session import Session
        from videopac.console.window import PlayWindow

        machine = Machine(bios, cart, region=args.region)
        session = Session(machine, keymap.load(), paths.cartridge_name(args.cart, "conquest"))
        window = PlayWindow(session, args.region, scale=2)
        for _ in range(round(args.seconds * machine.fps)):
            machine.run_frame()
        tap(machine, *args.press.split(), frames=6)
        for _ in range(round(machine.fps) if args.press else 0):
            machine.run_frame()
        window.show(machine.frame)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "play.png").write_bytes(palette.to_png(window.read_pixels()))
        session.control("save")
        (args.out / "message.png").write_bytes(palette.to_png(window.read_pixels()))
        session.say("")
        session.control("help")
        (args.out / "help.png").write_bytes(palette.to_png(window.read_pixels()))
        window.close()
        print(f"wrote play.png, message.png and help.png in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
