"""The project skeleton: the command dispatches, the parts import each other only along the
arrows of docs/architecture.md, and no module imports a name it never uses."""
import ast
import subprocess
import sys
import warnings

from tests.typecheck import assert_strict
from videopac import cli


def test_unknown_command_is_one_line_and_nonzero(capsys):
    assert cli.main(["frobnicate"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown command 'frobnicate'" in err


def test_help_lists_every_subcommand(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in cli.SUBCOMMANDS:
        assert name in out


def test_module_entry_point_runs():
    res = subprocess.run([sys.executable, "-m", "videopac", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "commands:" in res.stdout


# docs/architecture.md: which parts each part may import. The leaves (i18n, mcs48) import none;
# safefiles, the leaf for the parts that read and write outside files, only i18n for its sentences
# (o2em_core knows no files).
ARROWS = {
    "videopac": {"o2em_core", "cartridge", "board_ledger", "i18n", "mcs48", "safefiles"},
    "o2em_core": {"i18n", "mcs48"},
    "cartridge": {"i18n", "mcs48", "safefiles"},
    "board_ledger": {"i18n", "safefiles"},
    "safefiles": {"i18n"},
    "i18n": set(),
    "mcs48": set(),
}


def imported_parts(path) -> set[str]:
    """The project's parts that a module imports, at its top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return {name.split(".")[0] for name in names} & set(ARROWS)


def test_parts_import_only_along_the_arrows(root):
    wrong = [f"{path.relative_to(root)} imports {other}"
             for part, allowed in ARROWS.items() for path in sorted((root / part).rglob("*.py"))
             for other in imported_parts(path) - allowed - {part}]
    assert wrong == []


def test_a_wrong_arrow_is_seen(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from videopac import cli\n    import cartridge.opcodes\n")
    assert imported_parts(module) == {"videopac", "cartridge"}


def test_the_opcode_table_leaf_passes_mypy_strict():
    assert_strict("mcs48")


def test_the_file_reading_and_writing_leaf_passes_mypy_strict():
    assert_strict("safefiles")


# where the project's Python lives (the parts, the developers' tools, the tests)
SOURCES = (*ARROWS, "tools", "tests")


def names_read(tree: ast.AST) -> set[str]:
    """Every plain name a module reads, also inside string annotations ("Session") and
    ``__all__``; an attribute ``a.b`` reads ``a``."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isascii():
            try:
                with warnings.catch_warnings():    # a docstring's backslashes are no concern here
                    warnings.simplefilter("ignore")
                    expression = ast.parse(node.value, mode="eval")
            except SyntaxError:
                continue                   # a string that is not an expression
            names |= {n.id for n in ast.walk(expression) if isinstance(n, ast.Name)}
    return names


def unused_imports(path) -> list[str]:
    """The names a module imports and never reads; a re-export says so with ``# noqa: F401``."""
    text = path.read_text(encoding="utf-8")
    lines, tree = text.splitlines(), ast.parse(text)
    read = names_read(tree)
    unused = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or getattr(node, "module", "") == "__future__":
            continue
        if any("noqa: F401" in line for line in lines[node.lineno - 1:node.end_lineno]):
            continue
        for alias in node.names:
            bound = alias.asname or alias.name.split(".")[0]
            if alias.name != "*" and bound not in read:
                unused.append(f"{path.name}:{node.lineno} imports {alias.name} and never uses it")
    return unused


def test_no_module_imports_a_name_it_never_uses(root):
    unused = [f"{path.relative_to(root).parent}/{line}" for part in SOURCES
              for path in sorted((root / part).rglob("*.py")) for line in unused_imports(path)]
    assert unused == []


def test_an_unused_import_is_seen_and_a_marked_re_export_is_not(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('import os, os.path\nimport json\nfrom typing import TYPE_CHECKING\n'
                      'from x import y  # noqa: F401  (re-exported)\nif TYPE_CHECKING:\n'
                      '    from s import Session\n\ndef f(s: "Session"):\n    return os.sep\n')
    assert unused_imports(module) == ["m.py:2 imports json and never uses it"]
