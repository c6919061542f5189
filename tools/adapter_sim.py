"""The joystick adapter's real firmware on a simulated board: the sketch built for the
ATmega328P with Debian's Arduino core (arduino-core-avr) and avr-gcc as the Arduino IDE builds it
for an Uno, run by simavr (tools/joystick_adapter/sim/adapter_sim.c, against libsimavr) with its
UART on a pseudo-terminal. `videopac joystick test` and `videopac play --joystick 0=serial:PTY`
open that terminal as they open /dev/ttyACM0, so the machine code itself is tested end to end.

    python tools/adapter_sim.py            prints the terminal's path; then commands such as
                                           `close 0 up`, `open 0 up`, `wait 5` on standard input

Debian packages: simavr, libsimavr-dev, gcc, gcc-avr, avr-libc, arduino-core-avr (the Makefile's
SYSDEPS). The pin of each switch is read from the sketch's own table (SWITCHES[])."""
from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
SKETCH = ROOT / "tools" / "joystick_adapter"
HARNESS = SKETCH / "sim" / "adapter_sim.c"
ARDUINO = Path("/usr/share/arduino/hardware/arduino/avr")
CORE, VARIANT = ARDUINO / "cores" / "arduino", ARDUINO / "variants" / "standard"
# the parts of the Arduino core the sketch uses (pinMode, digitalRead/Write, millis, Serial) and
# what they need; the whole core does not build with Debian's avr-gcc 5 (WString.cpp)
CORE_SOURCES = ("wiring.c", "wiring_digital.c", "hooks.c", "main.cpp", "HardwareSerial.cpp",
                "HardwareSerial0.cpp", "Print.cpp", "abi.cpp", "new.cpp")
# the Arduino IDE's flags for an Uno (boards.txt: atmega328p at 16 MHz)
AVR_FLAGS = ["-mmcu=atmega328p", "-DF_CPU=16000000L", "-DARDUINO=10807", "-DARDUINO_AVR_UNO",
             "-DARDUINO_ARCH_AVR", "-Os", "-ffunction-sections", "-fdata-sections",
             f"-I{CORE}", f"-I{VARIANT}"]
CXX_FLAGS = ["-std=gnu++11", "-fpermissive", "-fno-exceptions", "-fno-threadsafe-statics"]
TOOLS = {"avr-gcc": "gcc-avr", "avr-g++": "gcc-avr", "gcc": "gcc",
         str(CORE / "Arduino.h"): "arduino-core-avr",
         "/usr/include/simavr/sim_avr.h": "libsimavr-dev"}
SWITCH_ROW = re.compile(r"\{\s*(\d+)\s*,\s*([01])\s*,\s*BIT_([A-Z]+)\s*\}")


class SimulatorError(RuntimeError):
    """The simulated adapter could not be built or run; the message says why."""


def switch_pins() -> dict[tuple[int, str], int]:
    """(stick, switch) -> Arduino pin, from the sketch's SWITCHES[] table."""
    text = (SKETCH / "joystick_adapter.ino").read_text()
    table = text[text.index("SWITCHES[]"):text.index("};", text.index("SWITCHES[]"))]
    return {(int(stick), name.lower()): int(pin) for pin, stick, name in SWITCH_ROW.findall(table)}


def missing_tools() -> list[str]:
    """The Debian packages of the build that are not installed."""
    return sorted({package for tool, package in TOOLS.items()
                   if not (Path(tool).exists() if "/" in tool else shutil.which(tool))})


def _digest() -> str:
    parts = [HARNESS, SKETCH / "joystick_adapter.ino", SKETCH / "joystick_protocol.h",
             *(CORE / name for name in CORE_SOURCES)]
    digest = hashlib.sha256(" ".join(AVR_FLAGS + CXX_FLAGS).encode())
    for part in parts:
        digest.update(part.read_bytes())
    return digest.hexdigest()[:16]


def _run(command: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise SimulatorError(f"{' '.join(command[:1])} failed: {result.stderr.strip()}")


def build(cache: Path | None = None) -> tuple[Path, Path]:
    """(firmware ELF, harness executable), built once per version of their sources into
    ``cache`` (default: ~/.cache/videopac/adapter_sim)."""
    missing = missing_tools()
    if missing:
        raise SimulatorError("install the Debian packages " + ", ".join(missing))
    cache = cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / \
        "videopac" / "adapter_sim"
    folder = cache / _digest()
    elf, harness = folder / "joystick_adapter.elf", folder / "adapter_sim"
    if elf.exists() and harness.exists():
        return elf, harness
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as work_dir:
        work = Path(work_dir)
        objects = []
        for name in CORE_SOURCES:
            compiler = ["avr-g++", *CXX_FLAGS] if name.endswith(".cpp") else ["avr-gcc"]
            objects.append(work / f"{name}.o")
            _run([*compiler, *AVR_FLAGS, "-w", "-c", str(CORE / name), "-o", str(objects[-1])])
        sketch = work / "sketch.cpp"        # what the IDE makes of the .ino: Arduino.h first
        sketch.write_text('#include <Arduino.h>\n#include "joystick_adapter.ino"\n')
        objects.append(work / "sketch.o")
        _run(["avr-g++", *CXX_FLAGS, *AVR_FLAGS, "-Wall", "-Wextra", "-Werror", f"-I{SKETCH}",
              "-c", str(sketch), "-o", str(objects[-1])])
        _run(["avr-gcc", "-mmcu=atmega328p", "-Os", "-Wl,--gc-sections", "-o",
              str(work / elf.name), *map(str, objects)])
        _run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-I/usr/include/simavr", "-o",
              str(work / harness.name), str(HARNESS), "-lsimavr"])
        folder.mkdir(exist_ok=True)
        for built in (elf, harness):
            os.replace(work / built.name, built)
    return elf, harness


class SimulatedAdapter:
    """A running simulated adapter: ``path`` is its terminal; ``close``/``release`` a switch,
    ``wait`` simulated milliseconds, ``sync`` for the simulated time; ``led`` lines arrive on
    ``lines``. A context manager that unplugs (ends) the simulation on exit."""

    def __init__(self, elf: Path, harness: Path) -> None:
        self.pins = switch_pins()
        self.lines: list[str] = []
        self.process = subprocess.Popen([str(harness), str(elf)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1)
        assert self.process.stdout is not None
        first = self.process.stdout.readline().split()
        if first[:1] != ["pty"]:
            self.unplug()
            raise SimulatorError(f"the simulator did not start: {self.stderr()}")
        self.path: str = first[1]

    def send(self, *commands: str) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write("".join(command + "\n" for command in commands))
        stdin.flush()

    def press(self, stick: int, switch: str) -> None:
        """Close the switch to GND (the pin reads 0)."""
        self.send(f"pin {self.pins[stick, switch]} 0")

    def release(self, stick: int, switch: str) -> None:
        self.send(f"pin {self.pins[stick, switch]} 1")

    def wait(self, ms: float) -> None:
        """The next command is taken ``ms`` simulated milliseconds later."""
        self.send(f"wait {ms}")

    def sync(self) -> int:
        """The simulated milliseconds since reset, once every command sent before has run (lines
        other than ``at`` read on the way, such as ``led``, are kept in ``lines``)."""
        self.send("sync")
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            line = stdout.readline()
            if not line:
                raise SimulatorError(f"the simulator stopped: {self.stderr()}")
            if line.startswith("at "):
                return int(line.split()[1])
            self.lines.append(line.strip())

    def stderr(self) -> str:
        return self.process.stderr.read() if self.process.poll() is not None and \
            self.process.stderr else ""

    def unplug(self) -> int:
        """End the simulation (its standard input closes); its exit status."""
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def __enter__(self) -> SimulatedAdapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.unplug()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, help="build folder (default ~/.cache/videopac)")
    args = parser.parse_args(argv)
    try:
        elf, harness = build(args.cache)
        adapter = SimulatedAdapter(elf, harness)
    except SimulatorError as exc:
        print(f"adapter_sim: {exc}", file=sys.stderr)
        return 1
    print(adapter.path, flush=True)
    with adapter:
        return _relay(adapter, sys.stdin)


def _relay(adapter: SimulatedAdapter, commands: IO[str]) -> int:
    """`close STICK SWITCH`, `open STICK SWITCH` and `wait MS` lines to the simulator."""
    for number, line in enumerate(commands, 1):
        words = line.split()
        if not words:
            continue
        try:
            if words[0] in ("close", "open") and len(words) == 3:
                switch = int(words[1]), words[2]
                (adapter.press if words[0] == "close" else adapter.release)(*switch)
            elif words[0] == "wait" and len(words) == 2:
                adapter.wait(float(words[1]))
            else:
                raise ValueError(line.strip())
        except (ValueError, KeyError):
            print(f"adapter_sim: line {number}: use 'close 0 up', 'open 1 fire' or 'wait 5' "
                  f"(sticks 0 1; up down left right fire)", file=sys.stderr)
            return 2
    adapter.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main())
