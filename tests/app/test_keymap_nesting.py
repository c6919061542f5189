"""A keymap whose arrays or tables nest hundreds deep is one sentence, status 2 (issue 26 item
11): tomllib reads them by recursion, and `videopac play` ended in a RecursionError. Read as play
reads it, given with --keymap or found in the config folder."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEEP = {"arrays": "[keys]\nspace = " + "[" * 600 + "]" * 600 + "\n",
        "tables": "[keys]\nspace = " + "{a = " * 600 + "1" + "}" * 600 + "\n"}
SENTENCE = {"en": "videopac play: {path}: its arrays or tables are nested too deeply for a keymap; "
                  "write it as the default keymap (--write-keymap) is written.\n",
            "de": "videopac play: {path}: ihre Listen oder Tabellen sind für eine Tastaturbelegung "
                  "zu tief verschachtelt; schreiben Sie sie so, wie die Vorgabe (--write-keymap) "
                  "geschrieben ist.\n"}


def play(folder: Path, *argv: str, language: str = "en") -> subprocess.CompletedProcess[str]:
    # play reads its keymap before it connects to a display, so any DISPLAY value will do
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISPLAY": ":4711", "LC_ALL": "C.UTF-8",
           "LANGUAGE": language, "XDG_CONFIG_HOME": str(folder / "config")}
    return subprocess.run([sys.executable, "-m", "videopac", "play", *argv], capture_output=True,
                          text=True, cwd=folder, env=env, timeout=120)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("nested", DEEP)
def test_a_deeply_nested_keymap_is_one_sentence(tmp_path, nested, language):
    (tmp_path / "deep.toml").write_text(DEEP[nested])
    r = play(tmp_path, "--keymap", "deep.toml", language=language)
    assert (r.returncode, r.stderr) == (2, SENTENCE[language].format(path="deep.toml"))


def test_the_keymap_of_the_config_folder_too(tmp_path):
    keymap = tmp_path / "config" / "videopac" / "keymap.toml"
    keymap.parent.mkdir(parents=True)
    keymap.write_text(DEEP["arrays"])
    r = play(tmp_path)
    assert (r.returncode, r.stderr) == (2, SENTENCE["en"].format(path=keymap))
