"""`videopac debug`: the terminal debugger on a machine of its own (docs/debugger.md): the
command line, the files it starts from, then the prompt or the commands of ``--script``. The
debugger itself is videopac/console/debugger.py."""
from __future__ import annotations

import argparse

from i18n import _
from o2em_core import Machine
from videopac import UsageError, fail
from videopac.console.debugger import DebugPrompt, Debugger, symbols_of
from videopac.console.inputs import load_images, read_text

PROG = "videopac debug"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `videopac debug`."""
    parser.add_argument("cart", nargs="?", metavar="CART.bin",
                        help=_("cartridge image (default: the built-in battle program)"))
    parser.add_argument("--no-cart", action="store_true", help=_("leave the cartridge slot empty"))
    parser.add_argument("--bios", metavar="FILE", help=_("1 KB BIOS image (default: the open BIOS)"))
    parser.add_argument("--region", choices=("pal", "ntsc"), default="pal",
                        help=_("pal = Videopac G7000 (default), ntsc = Odyssey²"))
    parser.add_argument("--sym", metavar="FILE", action="append", default=[],
                        help=_("symbol file written by 'asm48 --sym' (may be given twice); "
                               "default: CART.json beside the cartridge and the BIOS symbols"))
    parser.add_argument("--script", metavar="FILE",
                        help=_("read the commands from FILE instead of the prompt"))


def main(args: argparse.Namespace) -> int:
    """`videopac debug`: the prompt, or the commands of --script; 2 for a bad file or option."""
    try:
        if args.cart and args.no_cart:
            raise UsageError(_("give either CART.bin or --no-cart, not both"))
        bios, cart = load_images(args)
        symbols = symbols_of(args.cart, args.bios, args.sym, args.no_cart)
        script = read_text(args.script).splitlines() if args.script else None
    except UsageError as exc:
        return fail(PROG, str(exc))
    machine = Machine(bios, cart, region=args.region)
    console = DebugPrompt(Debugger(machine, symbols), scripted=script is not None)
    try:
        return _script(console, script, args.script) if script is not None else _prompt(console)
    finally:
        console.debugger.stop_trace()


def _script(console: DebugPrompt, script: list[str], name: str) -> int:
    """The commands of ``--script`` in turn; the first one refused ends it, status 2, so that a
    test built on a script fails when a line of it does."""
    for number, line in enumerate(script, 1):
        if console.quit:
            break
        if not console.execute(line):
            return fail(PROG, _("{script} line {number} was refused; the script stops there")
                        .format(script=name, number=number))
    return 0


def _prompt(console: DebugPrompt) -> int:
    """Commands typed at the prompt until `q` or the end of the input."""
    print(_("videopac debug: 'help' lists the commands, 'q' quits."))
    for text in console.debugger.disassemble(console.debugger.pc):
        print(text)
    while not console.quit:
        try:
            line = input("> ")
        except EOFError:
            break
        except KeyboardInterrupt:
            print()
            continue
        console.execute(line)
    return 0


