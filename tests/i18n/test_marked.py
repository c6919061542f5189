"""Every sentence the user reads is marked for the catalog: a sentence given to print, say, fail or
an exception, or as argparse help, that is not inside _() is reported with its file and line.

Text that is no prose (a program name before a sentence made elsewhere) or never reaches a user
(an internal error that would be a bug) carries the comment ``# i18n: untranslated`` and why on
its line.
"""
from __future__ import annotations

import ast
import pathlib
import re

from i18n.extract import ROOT

# the modules whose text a user reads: of `videopac`, and of asm48 and dis48 (homebrew authors)
USER_FACING = sorted([*ROOT.glob("videopac/*.py"), *ROOT.glob("board_ledger/*.py"),
                      *ROOT.glob("safefiles/*.py"),
                      ROOT / "o2em_core/machine.py", ROOT / "o2em_core/keyboard.py",
                      ROOT / "cartridge/romfile.py", ROOT / "cartridge/symbols.py",
                      *ROOT.glob("cartridge/asm48/*.py"), ROOT / "cartridge/dis48.py"])
SAYERS = {"print", "say", "_say", "fail", "_fail", "error"}
HELP_KEYWORDS = {"help", "description"}
MARKERS = {"_", "N_", "ngettext", "pgettext", "gettext"}


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_sentence(node: ast.expr) -> bool:
    """A literal or f-string with at least two words outside its placeholders."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return False
    return len(re.findall(r"\b[A-Za-z]{2,}\b", re.sub(r"\{[^}]*\}", " ", text))) >= 2


def unmarked(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or _name(node.func) in MARKERS:
            continue
        name = _name(node.func)
        texts = []
        if (name in SAYERS or name.endswith(("Error", "Exception"))) and node.args:
            texts.append(node.args[0])
        texts += [k.value for k in node.keywords if k.arg in HELP_KEYWORDS]
        for text in texts:
            if _is_sentence(text) and "i18n: untranslated" not in lines[text.lineno - 1]:
                found.append(f"{path.relative_to(root)}:{text.lineno}: {ast.get_source_segment(source, text)[:70]}")
    return found


def test_user_facing_sentences_are_marked():
    found = [line for path in USER_FACING for line in unmarked(path)]
    assert not found, ("sentences a user reads that are not marked with _() (docs/i18n.md):\n"
                       + "\n".join(found))


def test_the_check_sees_an_unmarked_sentence(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('raise ValueError(f"cannot read {path}")\nprint(_("marked text"))\n'
                      'say("internal words")  # i18n: untranslated\n', encoding="utf-8")
    found = unmarked(sample, root=tmp_path)
    assert found == ['sample.py:1: f"cannot read {path}"']


def rebinds_underscore(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """Places in a module that imports ``_`` from i18n where ``_`` is assigned (``for _ in``,
    ``x, _ = ...``): inside that function every ``_()`` would then fail (UnboundLocalError)."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    imports = any(isinstance(n, ast.ImportFrom) and n.module == "i18n" and any(a.name == "_" for a in n.names)
                  for n in ast.walk(tree))
    if not imports:
        return []
    scoped = {id(n) for c in ast.walk(tree) if isinstance(c, ast.comprehension)   # own scope: harmless
              for n in ast.walk(c.target)}
    return [f"{path.relative_to(root)}:{n.lineno}" for n in ast.walk(tree)
            if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) and id(n) not in scoped]


def test_no_module_that_translates_rebinds_underscore():
    found = [place for path in USER_FACING for place in rebinds_underscore(path)]
    assert not found, "name the throwaway variable _unused, not _ (it hides _()): " + ", ".join(found)


def test_the_check_sees_a_rebound_underscore(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from i18n import _\n\ndef f():\n    for _ in range(3):\n        pass\n"
                      "    return [_('x') for _ in range(2)]\n")
    assert rebinds_underscore(sample, root=tmp_path) == ["sample.py:4"]
