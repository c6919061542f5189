"""An output asm48 (or any command writing through safefiles' atomic writer) cannot write is
named as the user typed it, never as the temporary file beside it (`.p.bin.9k6jzwqc`), in one
sentence that says what to do, in English and in German; nothing is left behind."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.asm.test_german import GERMAN, run

SOURCE = "\tcpu 8048\n\torg 400h\nstart:\tjmp start\n"
ENGLISH = {"LANGUAGE": "", "LC_ALL": "C.UTF-8"}
MISSING = {"en": "No such file or directory", "de": "Datei oder Verzeichnis nicht gefunden"}
NOT_A_FOLDER = {"en": "Not a directory", "de": "Ist kein Verzeichnis"}
SENTENCE = {"en": "asm48: cannot write {path}: {reason}; choose another file or free some space\n",
            "de": "asm48: {path} kann nicht geschrieben werden: {reason}; wählen Sie eine andere "
                  "Datei oder schaffen Sie Platz\n"}
LOCALES = [("en", ENGLISH)] + [("de", locale) for locale in GERMAN]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "p.a48").write_text(SOURCE)
    (tmp_path / "file").write_text("a regular file, not a folder\n")
    return tmp_path


@pytest.mark.parametrize("language, locale", LOCALES, ids=["en", "de-LANGUAGE", "de-LC_ALL"])
@pytest.mark.parametrize("output, reasons", [
    ("no/p.bin", MISSING),                  # the folder does not exist: the writer's temp file failed
    ("file/p.bin", NOT_A_FOLDER),           # the parent is a regular file (root cannot write there either)
], ids=["missing-folder", "parent-is-a-file"])
def test_an_unwritable_output_is_named_as_typed(folder, language, locale, output, reasons):
    r = run("cartridge.asm48", "p.a48", "-o", output, cwd=folder, **locale)
    assert r.returncode == 1
    assert r.stderr == SENTENCE[language].format(path=output, reason=reasons[language])
    assert sorted(p.name for p in folder.iterdir()) == ["file", "p.a48"]


@pytest.mark.parametrize("language, locale", LOCALES, ids=["en", "de-LANGUAGE", "de-LC_ALL"])
def test_the_one_unwritable_file_of_several_is_named_and_none_is_written(folder, language, locale):
    """The image could be written, the listing cannot: the listing is named, and the image is
    not written either (all or nothing)."""
    r = run("cartridge.asm48", "p.a48", "-o", "p.bin", "--list", "no/p.lst", cwd=folder, **locale)
    assert r.returncode == 1
    assert r.stderr == SENTENCE[language].format(path="no/p.lst", reason=MISSING[language])
    assert sorted(p.name for p in folder.iterdir()) == ["file", "p.a48"]


@pytest.mark.parametrize("language, locale", LOCALES, ids=["en", "de-LANGUAGE", "de-LC_ALL"])
def test_the_ledger_export_names_the_file_asked_for(folder, language, locale):
    """The app's writer is the same: `videopac ledger export -o no/game.txt` names that path."""
    (folder / "game.txt").write_text("players Anna Bert\nstart Anna\n")
    assert run("videopac", "ledger", "replay", "game.txt", "--db", "g.sqlite", cwd=folder,
               **locale).returncode == 0
    r = run("videopac", "ledger", "export", "--db", "g.sqlite", "-o", "no/game.txt", cwd=folder,
            **locale)
    sentence = {"en": "videopac ledger: cannot write no/game.txt: No such file or directory; "
                      "choose another file or free some space.\n",
                "de": "videopac ledger: no/game.txt kann nicht geschrieben werden: Datei oder "
                      "Verzeichnis nicht gefunden; wählen Sie eine andere Datei oder schaffen Sie "
                      "Platz.\n"}
    assert (r.returncode, r.stderr) == (1, sentence[language])
    assert not (folder / "no").exists() and ".game.txt." not in r.stderr
