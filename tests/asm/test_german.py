"""asm48 and dis48 speak German in a German locale (docs/i18n.md): the help, the command-line
refusals, the assembler's errors and warnings, every word of them; the image, the listing and
the symbol file stay byte for byte what they are in English."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import i18n
from cartridge.asm48 import AsmError, assemble

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
        ("none.bin",): "dis48: none.bin kann nicht gelesen werden: Datei oder Verzeichnis nicht "
                       "gefunden",
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
    r = run("cartridge.asm48", "p.a48", "-o", "no/p.bin", cwd=tmp_path, **locale)
    assert (r.returncode, r.stderr) == (1, "asm48: no/p.bin kann nicht geschrieben werden: Datei "
                                           "oder Verzeichnis nicht gefunden; wählen Sie eine "
                                           "andere Datei oder schaffen Sie Platz\n")
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


BAD_SOURCE = ("\tcpu 8048\n\tmov a,#999\n\tbogus\nm macro x\n\tdb x+undefd\n\tendm\n\tm 1\n"
              "\tmov a,#$12\n\tjnz 200h\nf function a,a/0\n\tdb f(3)\n\tdb 300\n\tif 1\n")


@pytest.mark.parametrize("locale", GERMAN, ids=["LANGUAGE", "LC_ALL"])
def test_assembler_errors_and_warnings_in_german(tmp_path, locale):
    """Representative errors (range, unknown instruction, undefined symbol inside a macro,
    asl's dialect, a jump out of its page, an error inside a FUNCTION, a block left open) and
    the --relaxed warning: every word German but the names from the source and asl's quoted
    reason; nothing is written."""
    (tmp_path / "bad.a48").write_text(BAD_SOURCE + '\tinclude "folder"\n')
    (tmp_path / "folder").mkdir()
    r = run("cartridge.asm48", "bad.a48", "-o", "bad.bin", "--list", "bad.lst", cwd=tmp_path,
            **locale)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        "bad.a48:2:8: Fehler: Direktwert 999 außerhalb des Bereichs -128..255",
        "bad.a48:3:2: Fehler: unbekannter Befehl oder Pseudobefehl 'bogus'",
        "bad.a48:5:7: Fehler: undefiniertes Symbol 'undefd' (im Makro m, aufgerufen in bad.a48:7)",
        "bad.a48:8:9: Fehler: Hexadezimalzahl mit '$' ist ohne RELAXED ON keine asl-Syntax "
        "(asl: \"invalid symbol name\"); schreiben Sie 0FFh (oder RELAXED ON)",
        "bad.a48:9:6: Fehler: Ziel 200h von JNZ liegt außerhalb der 256-Byte-Seite 000h-0FFh "
        "seines Operandenbytes bei 004h (Abstand +508 Bytes)",
        "bad.a48:11:5: Fehler: in der Funktion f: Division durch null",
        "bad.a48:12:5: Fehler: Wert 300 (Byte) außerhalb des Bereichs -128..255",
        "bad.a48:14:10: Fehler: Include-Datei 'folder' ist keine reguläre Datei",
        "bad.a48:15:1: Fehler: IF ohne ENDIF am Ende des Quelltexts",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.a48", "folder"]
    (tmp_path / "ext.a48").write_text("\tcpu 8048\n\tmov a,#$12\n")
    r = run("cartridge.asm48", "ext.a48", "-o", "ext.bin", "--relaxed", cwd=tmp_path, **locale)
    assert (r.returncode, r.stderr) == (0, (
        "ext.a48:2:9: Warnung: Hexadezimalzahl mit '$' ist ohne RELAXED ON keine asl-Syntax "
        "(asl: \"invalid symbol name\"); schreiben Sie 0FFh (oder RELAXED ON) "
        "(mit --relaxed angenommen)\n"))


@pytest.mark.parametrize("source, german", [
    ("\tdb 1\nx\tequ 1\nx\tequ 2\n", "Symbol 'x' doppelt definiert (zuerst definiert in t.a48:2)"),
    ("\tinclude \"none.inc\"\n", "Include-Datei 'none.inc' nicht gefunden (gesucht neben t.a48 "
                                 "und in den -I-Verzeichnissen)"),
    ("\tdw 1,2,3\n\tdb 1 2\n", "unerwartetes '2' im Ausdruck"),
    ("\tendm\n", "ENDM ohne MACRO, REPT oder IRP"),
    ("\torg 7feh\n\tcall 0\n", "CALL darf nicht in den letzten zwei Bytes einer 2-KB-Bank "
                               "beginnen (bei 7FEh)"),
    ("\tmov a\n", "MOV erwartet 2 Operand(en), erhalten: 1"),
    ("\tmov a,b\n", "ungültige Operanden für MOV (gültige Formen: MOV @R0,#data; MOV @R0,A; "),
    ("\tcpu 6502\n", "nicht unterstützte CPU '6502' (asm48 assembliert die MCS-48-Familie: "),
    ("\tdup\n", "unbekannter Befehl oder Pseudobefehl 'dup'"),
])
def test_more_assembler_errors_in_german(source, german):
    """A few more of the assembler's sentences, in process (i18n.set_language as the CLI's
    locale would choose it)."""
    i18n.set_language("de")
    with pytest.raises(AsmError) as caught:
        assemble(source, "t.a48")
    messages = [d.message for d in caught.value.diagnostics]
    assert any(m.startswith(german) for m in messages), messages
    assert all(" Fehler: " in str(d) for d in caught.value.diagnostics)


def test_the_output_files_do_not_depend_on_the_language(tmp_path):
    """The image, the listing, the symbol and the share file of the open BIOS are the same
    bytes in German as in English."""
    source = ROOT / "cartridge" / "bios" / "bios.a48"
    outputs = {}
    for language, locale in (("en", {"LANGUAGE": "en"}), ("de", GERMAN[1])):
        folder = tmp_path / language
        folder.mkdir()
        r = run("cartridge.asm48", str(source), "-o", "b.bin", "--list", "b.lst", "--sym",
                "b.json", "--share", "b.inc", cwd=folder, **locale)
        assert (r.returncode, r.stderr) == (0, "")
        outputs[language] = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert outputs["de"] == outputs["en"] and len(outputs["en"]) == 4
