"""asm48 and dis48 speak German in a German locale (docs/i18n.md): the help, the command-line
refusals, the assembler's errors and warnings, every word of them; the image, the listing and
the symbol file stay byte for byte what they are in English."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the two ways a German user's shell says it: gettext's LANGUAGE, or the locale itself
GERMAN = [{"LANGUAGE": "de"}, {"LANGUAGE": "", "LC_ALL": "de_DE.UTF-8"}]


def run(module: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """``python -m module`` from ``cwd`` with this checkout's code and ``env`` over ours."""
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]), **env)
    return subprocess.run([sys.executable, "-m", module, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=60, env=environ)


@pytest.mark.parametrize("locale", GERMAN, ids=["LANGUAGE", "LC_ALL"])
def test_dis48_refuses_bad_input_in_german(tmp_path, locale):
    (tmp_path / "r.bin").write_bytes(bytes(2))
    (tmp_path / "big.bin").write_bytes(bytes(5000))
    (tmp_path / "bad.json").write_text("[1, 2")
    (tmp_path / "list.json").write_text("[1, 2]")
    expected = {
        ("big.bin",): "dis48: big.bin hat 5000 Bytes, mehr als 4096, die Grenze für den "
                      "4-KB-Programmspeicher",
        ("r.bin", "--org", "zz"): "dis48: Argument --org: ungültige Adresse 'zz' (siehe dis48 --help)",
        ("r.bin", "--org", "0xfff"): "dis48: 2 Bytes ab 0xfff passen nicht in den "
                                     "4-KB-Programmspeicher; geben Sie ein kleineres Abbild oder "
                                     "eine niedrigere --org an",
        ("r.bin", "--sym", "bad.json"): "dis48: bad.json ist keine Symboldatei: sie ist kein "
                                        "JSON (Zeile 1, Spalte 6)",
        ("r.bin", "--sym", "list.json"): "dis48: list.json ist keine Symboldatei: erwartet wird "
                                         "ein JSON-Objekt, das Namen ganzzahlige Adressen zuordnet",
        ("r.bin", "--bogus"): "dis48: unbekannte Argumente: --bogus (siehe dis48 --help)",
    }
    for args, sentence in expected.items():
        r = run("cartridge.dis48", *args, cwd=tmp_path, **locale)
        assert (r.returncode, r.stdout, r.stderr) == (2, "", sentence + "\n"), args


@pytest.mark.parametrize("locale", GERMAN, ids=["LANGUAGE", "LC_ALL"])
def test_asm48_command_line_in_german(tmp_path, locale):
    (tmp_path / "p.a48").write_text("\tnop\n")
    expected = {
        ("p.a48",): "asm48: folgende Argumente fehlen: -o/--output (siehe asm48 --help)",
        ("p.a48", "-o", "p.bin", "--fill", "300"):
            "asm48: Argument --fill: Füllbyte '300' muss zwischen 0 und 255 liegen "
            "(siehe asm48 --help)",
        ("p.a48", "-o", "p.bin", "--range", "0x500-0x400"):
            "asm48: Argument --range: Bereich '0x500-0x400' endet, bevor er beginnt "
            "(siehe asm48 --help)",
        ("/dev/zero", "-o", "p.bin"): "asm48: /dev/zero ist größer als 16777216 Bytes, die Grenze "
                                      "für Quelldateien",
    }
    for args, sentence in expected.items():
        r = run("cartridge.asm48", *args, cwd=tmp_path, **locale)
        assert (r.returncode, r.stderr) == (2, sentence + "\n"), args
    assert not (tmp_path / "p.bin").exists()
    help_text = run("cartridge.asm48", "--help", cwd=tmp_path, **locale).stdout
    assert help_text.startswith("Aufruf: asm48 ")
    for line in ("MCS-48-(8048-)Quelltext im asl-Dialekt assemblieren.", "Positionsargumente:",
                 "  source                Quelldatei (.a48)", "Optionen:",
                 "  --version             die Versionsnummer zeigen und beenden",
                 "  --sym FILE            die Symboltabelle als JSON schreiben"):
        assert line in help_text.splitlines()
    for english in ("usage", "show", "write", "source file", "directory", "accept"):
        assert english not in help_text


def test_english_outside_a_german_locale(tmp_path):
    (tmp_path / "r.bin").write_bytes(bytes(2))
    for locale in ({"LANGUAGE": "", "LC_ALL": "C"}, {"LANGUAGE": "", "LC_ALL": "fr_FR.UTF-8"}):
        r = run("cartridge.dis48", "r.bin", "--org", "zz", cwd=tmp_path, **locale)
        assert r.stderr == "dis48: argument --org: invalid address 'zz' (see dis48 --help)\n"
