"""The console as one object: ``Machine`` wires the CPU, bus, video chip registers, sound and
time base over the state arrays of ``state.py`` and runs the compiled loop once per frame
(the API of docs/machine-api.md)."""
from __future__ import annotations

import os
import zlib
from dataclasses import dataclass

import numpy as np

from i18n import N_, _

from . import bus, cpu, jit_cache, keyboard, linkage, palette, raster, savestate, sound, state
from .pointer import address_of
from .raster import HEIGHT, WIDTH
from .savestate import StateError
from .state import (FRAME_END, FRAME_TICKS, FRAMES, JOY_OFF, JOY_SIZE, KEYS_OFF, KEYS_SIZE,
                    MEM_SIZE, POWER_ON_TICK, TICK, TPC, TPL, VDC_OFF, VDC_SIZE,
                    VREGS_WRITTEN, XRAM_OFF, XRAM_SIZE, IRAM_OFF, IRAM_SIZE)
from .timing import POWER_ON_LINE, REGIONS


@dataclass(frozen=True)
class CpuView:
    """The 8048 registers at the end of the last frame (a snapshot)."""

    a: int
    pc: int
    psw: int
    p1: int
    p2: int
    bus: int
    t: int
    f1: int
    mb: int
    bank: int          # register bank selected by PSW bit 4
    sp: int
    tf: int
    in_irq: int


def _image(data: bytes | bytearray | np.ndarray | None, sizes: tuple[int, ...],
           what: str) -> np.ndarray | None:
    if data is None:
        return None
    raw = bytes(data) if not isinstance(data, np.ndarray) else data.astype(np.uint8).tobytes()
    if len(raw) not in sizes:
        allowed = " or ".join(str(s) for s in sizes[-2:])
        allowed = ", ".join([str(s) for s in sizes[:-2]] + [allowed])
        raise ValueError(_("{what} is {size} bytes; it must be {allowed} bytes").format(
            what=what, size=len(raw), allowed=allowed))
    return np.frombuffer(raw, dtype=np.uint8).copy()


FIRST_COMPILE_NOTICE = N_("compiling the emulator core, first start only")   # shown with _()


def _announce_first_compile() -> None:
    """Numba compiles the core on the first start only (cache=True); say so, because it takes
    a while: on a terminal with a progress bar of what is being compiled, else in one line."""
    global _progress
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return
    if _progress is None and not jit_cache.is_compiled():
        _progress = jit_cache.announce(_(FIRST_COMPILE_NOTICE)) or False


_progress: jit_cache.Progress | bool | None = None    # False: announced without a bar


class Machine:
    """A Videopac G7000 (``region="pal"``, 8245) or Odyssey² (``"ntsc"``, 8244).

    ``bios``: the 1 KB internal ROM image, or None for an empty ROM (reads 0xFF = MOV A,R7, so
    execution slides from 0x000 into the cartridge at 0x400). ``cart``: a cartridge image, or
    None for an empty slot (reads 0xFF); its size chooses the board (``bus.BOARDS``): 2, 4 or
    8 KB a standard board of 2 KB banks, 3, 6 or 12 KB the board with 3 KB banks (KTAA).
    """

    def __init__(self, bios: bytes | None, cart: bytes | None, region: str = "pal",
                 sample_rate: int = 44100) -> None:
        if region not in REGIONS:
            raise ValueError(_("unknown region {region}; it must be 'pal' or 'ntsc'").format(
                region=repr(region)))
        self.region = region
        self._region = REGIONS[region]
        bios_img = _image(bios, (bus.BIOS_SIZE,), _("the BIOS image"))
        cart_img = _image(cart, bus.CART_SIZES, _("the cartridge image"))
        self._bios = bios_img if bios_img is not None else np.full(bus.BIOS_SIZE, 0xFF, np.uint8)
        self._cart = cart_img if cart_img is not None else np.full(1, 0xFF, np.uint8)
        self._bios_crc = zlib.crc32(bios_img.tobytes()) if bios_img is not None else 0
        self._cart_crc = zlib.crc32(cart_img.tobytes()) if cart_img is not None else 0
        self.fps = self._region.fps
        self.cycles_per_second = self._region.cycles_per_second
        self.sample_rate = sample_rate

        self._mem = np.zeros(MEM_SIZE, dtype=np.uint8)
        self.board = bus.BOARDS[cart_img.size] if cart_img is not None else None
        self._cart_size = 0 if cart_img is None else cart_img.size
        self._regs = self._new_regs()
        self._work = raster.new_work()      # the frame, then the compositor scratch
        self.frame = np.zeros((HEIGHT, WIDTH), dtype=np.uint8)
        self._rgb: palette.LineCache | None = None    # made by the first frame_rgb
        self._snd = self._new_sound()
        self._audio = np.zeros(sound.AUDIO_CAPACITY, dtype=np.int16)
        self._audio_len = 0
        self._prog = np.zeros(0x1000, dtype=np.uint8)

        self.iram = self._mem[IRAM_OFF:IRAM_OFF + IRAM_SIZE]
        self.xram = self._mem[XRAM_OFF:XRAM_OFF + XRAM_SIZE]
        self.vdc_regs = self._mem[VDC_OFF:VDC_OFF + VDC_SIZE]
        self._keys = self._mem[KEYS_OFF:KEYS_OFF + KEYS_SIZE]
        self._joys = self._mem[JOY_OFF:JOY_OFF + JOY_SIZE]
        # Polling loops are skipped ahead to the next interrupt or beam event, cycle-identical
        # (cpu.run); False runs every pass, for comparisons. ``skipped`` counts the
        # instructions skipped so far (not part of the state).
        self.skip_polling = True
        self.skipped = 0
        # the compiled loop takes the state arrays by address (pointer.py): they live as long
        # as the machine and are never reallocated
        self.run_args = tuple(address_of(a) for a in (
            self._regs, self.iram, self.xram, self.vdc_regs, self._keys, self._joys,
            self._prog, self._bios, self._cart, self._work, self._snd, self._audio))
        _announce_first_compile()
        linkage.link()
        self._map_program()

    # ---- running ------------------------------------------------------------------------

    def run_frame(self) -> None:
        """Emulate one video frame: from line 243 (the start of the VBLANK lines) through the
        visible lines 0–242; afterwards ``frame`` holds the picture and ``audio()`` the sound."""
        self._advance(int(self._regs[FRAME_END]))

    def step(self) -> None:
        """Execute one instruction (or one interrupt entry) — for debuggers and tests."""
        self._advance(int(self._regs[TICK]) + 1)

    def _advance(self, tick: int) -> None:
        """Run the compiled loop until ``tick`` or the end of the frame, whichever is first;
        at the end of a frame publish the picture and the frame's samples."""
        end = int(self._regs[FRAME_END])
        self._regs[VREGS_WRITTEN] = 1       # vdc_regs may have been changed from outside
        self.skipped += cpu.run(*self.run_args, min(tick, end), self.skip_polling)
        if self._regs[TICK] >= end:
            self._audio_len = int(self._snd[sound.SND_AUDIO_LEN])
            self._snd[sound.SND_AUDIO_LEN] = 0
            self.frame[...] = raster.frame_of(self._work)
            self._regs[FRAMES] += 1
            self._regs[FRAME_END] += self._regs[FRAME_TICKS]

    def frame_rgb(self, out: np.ndarray | None = None) -> np.ndarray:
        """The last frame in RGB, (243, 360, 3) uint8 with MAME's colours (palette.py),
        written into ``out`` if given (reused by a frontend every frame), else a new array.
        Only the lines that differ from the last frame converted are converted again
        (palette.LineCache); the rest is copied."""
        if out is None:
            out = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
        if address_of(out) % 8 or not out.flags.c_contiguous or out.shape != (HEIGHT, WIDTH, 3):
            palette.fill_rgb(self.frame, out)   # checks the shape; any 4-byte aligned buffer
        else:
            if self._rgb is None:
                self._rgb = palette.LineCache(HEIGHT, WIDTH)
            self._rgb.fill(self.frame, out)
        return out

    def audio(self) -> np.ndarray:
        """The int16 samples produced by the last ``run_frame()``."""
        return self._audio[:self._audio_len].copy()

    def reset(self) -> None:
        """The console's RESET key: resets the CPU (and with P1 = 0xFF the cartridge bank); the
        video chip keeps running."""
        state.reset_cpu(self._regs)
        self._map_program()

    def _new_regs(self) -> np.ndarray:
        """The registers of this machine just switched on."""
        return state.new_regs(self._region, self._cart_size, self._board_regs())

    def _new_sound(self) -> np.ndarray:
        """The sound state of this machine just switched on."""
        return sound.new_state(self.sample_rate, self._region.ticks_per_line,
                               self._region.tick_hz,
                               idle_lines=self._region.lines - POWER_ON_LINE)

    def _board_regs(self) -> tuple[int, int, int]:
        """(bank size, bank mask, offset at 0xC00) of the cartridge's board as the compiled
        loop reads them from the registers (an empty slot: the standard board's, unused)."""
        b = self.board or bus.BOARDS[2048]
        return b.bank_size, b.bank_mask, b.high

    def _map_program(self) -> None:
        bus.map_program_at(*(address_of(a) for a in (self._prog, self._bios, self._cart,
                                                     self._regs)), int(self._regs[state.P1]))

    # ---- input --------------------------------------------------------------------------

    def press(self, key: str) -> None:
        """Hold down a Videopac key (names as in docs/machine-api.md)."""
        row, col = keyboard.key_position(key)
        self._keys[row] |= 1 << col

    def release(self, key: str) -> None:
        row, col = keyboard.key_position(key)
        self._keys[row] &= ~(1 << col) & 0xFF

    def release_all(self) -> None:
        self._keys[:] = 0

    def set_joystick(self, n: int, up: bool = False, down: bool = False, left: bool = False,
                     right: bool = False, fire: bool = False) -> None:
        """Set joystick ``n`` (0 = left connector, 1 = right) to the given directions."""
        if n not in (0, 1):
            raise ValueError(_("joystick {n} does not exist; use 0 or 1").format(n=n))
        held = dict(up=up, down=down, left=left, right=right, fire=fire)
        self._joys[n] = sum(bit for name, bit in keyboard.JOY_BITS.items() if held[name])

    # ---- inspection ---------------------------------------------------------------------

    @property
    def cpu(self) -> CpuView:
        r = self._regs
        psw = int(r[state.PSW])
        return CpuView(a=int(r[state.A]), pc=int(r[state.PC]), psw=psw, p1=int(r[state.P1]),
                       p2=int(r[state.P2]), bus=int(r[state.BUS]), t=int(r[state.T]),
                       f1=int(r[state.F1]), mb=int(r[state.MB]),
                       bank=1 if psw & state.BS_FLAG else 0, sp=psw & state.SP_MASK,
                       tf=int(r[state.TF]), in_irq=int(r[state.IN_IRQ]))

    @property
    def pc(self) -> int:
        """The program counter now (cheaper than ``cpu.pc``, which copies every register):
        debuggers read it after every step."""
        return int(self._regs[state.PC])

    @property
    def program(self) -> np.ndarray:
        """The 4 KB program space as the CPU sees it now (BIOS, then the selected cartridge
        bank): a read-only view, for debuggers and disassembly."""
        view = self._prog.view()
        view.flags.writeable = False
        return view

    @property
    def cycles(self) -> int:
        """Machine cycles since power-on."""
        return int((self._regs[TICK] - self._regs[POWER_ON_TICK]) // self._regs[TPC])

    @property
    def frames(self) -> int:
        return int(self._regs[FRAMES])

    @property
    def beam(self) -> tuple[int, int]:
        """(line, pixel) of the beam now."""
        ft = int(self._regs[TICK] % self._regs[FRAME_TICKS])
        line, tick = divmod(ft, int(self._regs[TPL]))
        return line, tick // self._region.ticks_per_px

    # ---- save states --------------------------------------------------------------------

    def _sections(self) -> dict[str, np.ndarray]:
        """The state arrays by their names in the save state (savestate.SECTIONS)."""
        return {"regs": self._regs, "mem": self._mem, "work": self._work, "frame": self.frame,
                "snd": self._snd, "audio": self._audio}

    def save_state(self) -> bytes:
        """The whole machine as bytes: a versioned header (region, layout, BIOS and cartridge
        CRC-32) and the state arrays, with a CRC-32 over the payload (savestate.py)."""
        return savestate.write(self._sections(), self._region.ntsc, self._bios_crc,
                               self._cart_crc)

    def load_state(self, data: bytes) -> None:
        """Restore a state made by ``save_state`` of a machine with the same region, BIOS and
        cartridge. A state file is outside input: anything else, and any value the machine
        cannot hold, raises StateError (one sentence) and leaves this machine unchanged."""
        got = savestate.read(bytes(data))
        if got.ntsc != int(self._region.ntsc):
            other = "ntsc" if got.ntsc else "pal"
            raise StateError(_("the save state is from a {other} machine, this one is {region}").format(
                other=other, region=self.region))
        if got.bios_crc != self._bios_crc or got.cart_crc != self._cart_crc:
            raise StateError(_("the save state was made with a different BIOS or cartridge"))
        loaded = got.sections
        regs = loaded["regs"]
        board = tuple(int(v) for v in regs[list(state.BOARD_REGS)])
        if got.zero_board and not any(board):
            # states saved before the board registers existed hold 0 there: the board is a
            # fact of the cartridge image (same CRC, checked above), so it is filled in
            regs[list(state.BOARD_REGS)] = self._board_regs()
        elif board != self._board_regs():
            raise StateError(_("the save state was made with a different cartridge board"))
        self._check(**loaded)
        for name, live in self._sections().items():
            live[...] = loaded[name]
        self._map_program()

    def _check(self, regs: np.ndarray, mem: np.ndarray, work: np.ndarray, frame: np.ndarray,
               snd: np.ndarray, audio: np.ndarray) -> None:
        """Refuse state arrays holding a value this machine cannot (StateError)."""
        problem = (state.check(regs, self._new_regs()) or state.check_mem(mem)
                   or raster.check_work(work)
                   or (_("a pixel of its picture is not a colour")
                       if (frame >= raster.COLOURS).any() else None)
                   or sound.check_state(snd, self._new_sound()))
        if problem:
            raise StateError(_("the save state cannot be loaded: {problem}; it is damaged or was "
                               "not made by this emulator").format(problem=problem))
