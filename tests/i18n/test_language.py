"""The language: the system locale as gettext reads it, and --lang on every videopac command."""
from __future__ import annotations

import errno
import os
import subprocess
import sys

import pytest

from i18n import LOCALE_VARIABLES, OS_REASONS, detect_language, os_reason, set_language


@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LC_MESSAGES": "de_AT.UTF-8", "LANG": "en_GB.UTF-8"}, "de"),
    ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "de_CH", "LANG": "en_US"}, "de"),
    ({"LANGUAGE": "fr:de", "LANG": "fr_FR.UTF-8"}, "de"),   # the first one we have a catalog for
    ({"LANGUAGE": "en", "LC_ALL": "de_DE.UTF-8"}, "en"),
    ({"LANGUAGE": "", "LANG": "de_DE@euro"}, "de"),
    ({"LANG": "ja_JP.UTF-8"}, "en"),                         # no catalog: the source language
])
def test_locale_detection(environ, expected):
    assert detect_language(environ) == expected


def test_unknown_language_is_refused():
    with pytest.raises(ValueError):
        set_language("xx")


def videopac(*args: str, **env: str) -> subprocess.CompletedProcess:
    """`videopac ARGS` as a user runs it, with no locale variable but the ones given."""
    environ = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    environ.update(env)
    return subprocess.run([sys.executable, "-m", "videopac", *args], capture_output=True, text=True,
                          env=environ, timeout=120)


def test_german_locale_gives_german_help():
    res = videopac("--help", LANG="de_DE.UTF-8")
    assert res.returncode == 0
    assert res.stdout.startswith("Aufruf: videopac")
    assert "über eine Partie des Brettspiels Eroberung der Welt Buch führen" in res.stdout


def test_lang_option_overrides_the_locale():
    assert videopac("--lang", "en", "--help", LANG="de_DE.UTF-8").stdout.startswith("usage: videopac")
    assert videopac("--lang", "de", "--help", LANG="en_US.UTF-8").stdout.startswith("Aufruf: videopac")


def test_lang_after_the_command_and_argparse_words():
    """--lang may stand anywhere; argparse's own words ('usage:', its error sentences) are
    German too, and a usage error is one sentence."""
    res = videopac("ledger", "replay", "--lang=de", LANG="C.UTF-8")
    assert res.returncode == 2
    assert res.stderr == ("videopac ledger replay: folgende Argumente fehlen: file; siehe "
                          "'videopac ledger replay --help'\n")
    res = videopac("ledger", "replay", "--help", "--lang", "de")
    assert res.stdout.startswith("Aufruf: videopac ledger replay")
    res = videopac("ledger", "--help", "--lang", "de")
    assert "Optionen:" in res.stdout and "--lang {en,de}" in res.stdout


def test_unknown_language_is_one_sentence():
    res = videopac("--lang", "xx", "roms")
    assert res.returncode == 2
    assert res.stderr == "videopac: unknown language 'xx'; choose one of: en, de.\n"


def test_the_app_says_its_error_sentences_in_german(tmp_path):
    """Sentences made deep in cartridge/ and videopac/ reach the user in German."""
    environ = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    res = subprocess.run([sys.executable, "-m", "videopac", "play", "--lang", "de"], capture_output=True,
                         text=True, env=environ, timeout=120)
    assert res.returncode == 2
    assert res.stderr == ("videopac play: es wurde kein Bildschirm gefunden; ohne Fenster läuft "
                          "'videopac run --headless CART.bin' (siehe 'videopac run --help').\n")
    bad = tmp_path / "kaputt.bin"
    bad.write_bytes(b"\0" * 100)
    res = videopac("run", "--headless", "--frames", "1", str(bad), LANG="de_DE.UTF-8")
    assert res.returncode == 2
    assert res.stderr.strip().endswith("kaputt.bin hat 100 Bytes; ein Kassettenabbild muss 2, 3, 4, 6, 8 "
                                       "oder 12 KB groß sein")
    assert "Aufruf:" in videopac("roms", "--help", "--lang", "de").stdout


def test_os_reasons_are_the_systems_words_in_english_and_ours_in_german():
    """strerror stays English in every locale; os_reason gives the German of the file errors
    a user meets, and the system's own words in English or for an error not in the table."""
    missing = FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "x")
    set_language("en")
    assert os_reason(missing) == os.strerror(errno.ENOENT)
    assert all(os.strerror(code) == text for code, text in OS_REASONS.items())
    set_language("de")
    assert os_reason(missing) == "Datei oder Verzeichnis nicht gefunden"
    assert os_reason(PermissionError(errno.EACCES, "Permission denied")) == "Keine Berechtigung"
    assert os_reason(OSError(errno.ECONNRESET, "Connection reset by peer")) == \
        "Connection reset by peer"
