"""The key tables of README.md, docs/playing.md and docs/table.md (English and German) say what
videopac/console/controls.py and the default keymap do: each row names PC keys and the controls' keymap
names, and those keys are the controls' default keys as a player reads them (keymap.pc_name).
The control names listed in playing.md's keymap example and the panel's key line quoted in
table.md are checked too, so a control added, renamed or moved cannot leave the docs behind."""
from __future__ import annotations

import re

import i18n
import pytest

from videopac.console import controls, keymap
from videopac.table.panel import ledger_keys

# the last header cell of a key table, and the language its key names are written in
NAME_COLUMNS = {"keymap name": "en", "Name in der Tastenbelegung": "de"}
HOLD = {"en": "hold ", "de": "halten: "}
OR = {"en": " or ", "de": " oder "}
ALL = [c.name for c in controls.CONTROLS]
LEDGER = [c.name for c in controls.CONTROLS if c.panel is not None]
# file -> the key tables it holds, in order: (language, the controls they cover together)
DOCS = {"README.md": [("en", ALL)], "docs/playing.md": [("en", ALL)],
        "docs/table.md": [("en", LEDGER), ("de", LEDGER)]}


def key_tables(text: str) -> list[tuple[str, list[list[str]]]]:
    """The markdown tables whose last column is a keymap name: (language, rows of cells)."""
    tables: list[tuple[str, list[list[str]]]] = []
    rows: list[list[str]] | None = None
    for line in text.splitlines() + [""]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            rows = None
        elif rows is None and cells[-1] in NAME_COLUMNS:
            rows = []
            tables.append((NAME_COLUMNS[cells[-1]], rows))
        elif rows is not None and not set("".join(cells)) <= set("-: "):
            rows.append(cells)
    return tables


def row_errors(cells: list[str], language: str) -> tuple[list[str], list[str]]:
    """The control names a row covers and what it says wrong: its keys cell ('F2 / F3', 'F8 or
    Pause', 'hold Tab') must name each control's default keys in the order of controls.py."""
    key_groups, names = cells[0].split(" / "), [n.strip("`") for n in cells[-1].split(" / ")]
    if len(key_groups) != len(names):
        return names, [f"{cells}: {len(key_groups)} keys for {len(names)} names"]
    errors = []
    i18n.set_language(language)
    for group, name in zip(key_groups, names):
        if name not in controls.BY_NAME:
            errors.append(f"{cells}: {name!r} is not a control of videopac/console/controls.py")
            continue
        shown = group.removeprefix(HOLD[language]).split(OR[language])
        default = [keymap.pc_name(k) for k in controls.BY_NAME[name].keys]
        if shown != default:
            errors.append(f"{cells}: {name} is on {' / '.join(default)} ({language}), not {group}")
    return names, errors


def doc_errors(text: str, expected: list[tuple[str, list[str]]]) -> list[str]:
    """Everything the key tables of one document say that the controls table does not."""
    tables = key_tables(text)
    if [language for language, _ in tables] != [language for language, _ in expected]:
        return [f"key tables in {[lang for lang, _ in tables]}, expected {[lang for lang, _ in expected]}"]
    errors = []
    for (language, rows), (_, wanted) in zip(tables, expected):
        covered = []
        for cells in rows:
            names, wrong = row_errors(cells, language)
            covered += names
            errors += wrong
        if sorted(covered) != sorted(wanted):
            errors.append(f"the {language} table covers {sorted(covered)}, not {sorted(wanted)}")
    return errors


@pytest.mark.parametrize("doc", DOCS)
def test_the_key_tables_name_each_control_once_on_its_default_keys(root, doc):
    assert doc_errors((root / doc).read_text(encoding="utf-8"), DOCS[doc]) == []


def test_a_wrong_key_a_missing_control_and_a_misspelt_name_are_seen():
    text = ("| PC key | does | keymap name |\n|---|---|---|\n| F3 | save | `save` |\n"
            "| F9 / PgDn | book / other | `confirm` / `next-choise` |\n| End | undo | `undo` |\n")
    assert doc_errors(text, [("en", ["save", "confirm", "next-choice", "undo"])]) == [
        "['F3', 'save', '`save`']: save is on F2 (en), not F3",
        "['F9 / PgDn', 'book / other', '`confirm` / `next-choise`']: 'next-choise' is not a control "
        "of videopac/console/controls.py",
        "the en table covers ['confirm', 'next-choise', 'save', 'undo'], not "
        "['confirm', 'next-choice', 'save', 'undo']"]
    german = "| Taste | bewirkt | Name in der Tastenbelegung |\n|---|---|---|\n| PgDn | andere | `next-choice` |\n"
    assert doc_errors(german, [("de", ["next-choice"])]) == [
        "['PgDn', 'andere', '`next-choice`']: next-choice is on Bild↓ (de), not PgDn"]


def test_the_keymap_example_lists_every_control_name_and_loads(root, tmp_path):
    """docs/playing.md's example file: its [controls] comment names every control, and the
    example itself is a keymap `videopac play --keymap` accepts."""
    text = (root / "docs/playing.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", text, re.S)
    assert example is not None
    block = example.group(1).split("[controls]", 1)[1]
    listed = " ".join(line.split("#", 1)[1] for line in block.splitlines() if "#" in line)
    assert sorted(listed.replace("PC key =", "").split()) == sorted(ALL)
    (tmp_path / "keymap.toml").write_text(example.group(1), encoding="utf-8")
    loaded = keymap.load(tmp_path / "keymap.toml")
    assert loaded.pc_keys_for("control", "save") == ["F2"]


@pytest.mark.parametrize("language, quoted", [("en", r'\("([^"]*·[^"]*)"\)'), ("de", r"„([^“]*·[^“]*)“")])
def test_the_panel_key_line_quoted_in_the_table_guide_is_the_panels(root, language, quoted):
    text = (root / "docs/table.md").read_text(encoding="utf-8")
    found = re.search(quoted, text)
    assert found is not None
    i18n.set_language(language)
    assert " ".join(found.group(1).split()) == ledger_keys(keymap.load())
