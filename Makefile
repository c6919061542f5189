# Two commands on a fresh Debian machine with Python 3.11: `make play` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# Debian packages the tests use: d48 (d52) for the assembler, MAME as the reference
# emulator, Xvfb for window tests, xdotool to type into those windows (real X key events),
# socat for serial pseudo-terminals, gcc-avr + avr-libc to compile the joystick adapter firmware,
# arduino-core-avr (the Arduino core it is built with) + simavr + libsimavr-dev to run that machine
# code on a simulated ATmega328P (tools/adapter_sim.py), chromium + chromium-driver for the web
# ledger's browser tests.
SYSDEPS := d52 mame xvfb xdotool socat g++ gcc-avr avr-libc arduino-core-avr simavr libsimavr-dev \
           chromium chromium-driver iproute2
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: play test bench sysdeps roms clean mo

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

# the translations gettext loads, compiled from the .po catalogs in the repository (docs/i18n.md)
MO := $(patsubst %.po,%.mo,$(wildcard i18n/locale/*/LC_MESSAGES/*.po))
%.mo: %.po | $(STAMP)
	$(PY) -m i18n compile $<

sysdeps:
	@missing=""; for p in $(SYSDEPS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

mo: $(MO)

# the core is compiled here, with its progress bar, so that the window opens at once
play: $(STAMP) $(MO)
	$(PY) -m o2em_core
	$(VENV)/bin/videopac play

test: $(STAMP) $(MO) sysdeps
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m pytest tests/bench --benchmark-enable --benchmark-only
	$(PY) tools/speed.py --frames 6000 --rounds 5

clean:
	rm -rf $(VENV) .pytest_cache .benchmarks $(MO) o2em_core/__pycache__/o2em_core-*
