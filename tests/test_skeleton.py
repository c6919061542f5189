"""The project skeleton: the command dispatches, and the parts import each other only along the
arrows of docs/architecture.md."""
import ast
import subprocess
import sys

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


# docs/architecture.md: which parts each part may import. The leaves (i18n, mcs48) import none.
ARROWS = {
    "videopac": {"o2em_core", "cartridge", "board_ledger", "i18n", "mcs48"},
    "o2em_core": {"i18n", "mcs48"},
    "cartridge": {"i18n", "mcs48"},
    "board_ledger": {"i18n"},
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
