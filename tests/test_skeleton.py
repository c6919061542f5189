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


# Inside videopac: the commands at the top, the rooms below them in the order videopac.ROOMS
# declares (docs/architecture.md). Every import counts, also one made only for type checking.

def videopac_imports(path, package="videopac") -> set[str]:
    """The modules of ``package`` that a module imports (``from videopac.console import keymap``
    is videopac.console.keymap when that is a module, else videopac.console)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == package}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == package:
            found |= {f"{node.module}.{a.name}" for a in node.names} | {node.module}
    return found


def module_graph(root, package="videopac") -> dict[str, set[str]]:
    """module -> the package's modules it imports (names that are not modules are dropped)."""
    files = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in sorted((root / package).rglob("*.py"))}
    return {name: {m for m in videopac_imports(path, package) if m in files and m != name}
            for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle, as the path that closes it (depth-first search)."""
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for other in sorted(graph.get(node, ())):
            if state.get(other) == "open":
                found.append(path[path.index(other):] + [other])
            elif other not in state:
                visit(other, path + [other])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def room_of(module: str, rooms) -> str | None:
    """The room a module of videopac lives in; None for the package and its commands."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in rooms) else None


def wrong_way(graph: dict[str, set[str]], rooms) -> list[str]:
    """The imports that run against the rooms' order: a room importing a command or a later
    room (a room's own modules and the package itself, ``videopac``, are always allowed)."""
    rank = {room: n for n, room in enumerate(rooms)}
    wrong = []
    for module, imported in sorted(graph.items()):
        here = room_of(module, rooms)
        if here is None:
            continue                                  # a command may import every room
        for other in sorted(imported):
            there = room_of(other, rooms)
            if other == "videopac" or there == here:
                continue
            if there is None or rank[there] > rank[here]:
                wrong.append(f"{module} imports {other}")
    return wrong


def test_videopac_has_no_import_circle(root):
    assert circles(module_graph(root)) == []


def test_rooms_import_only_the_rooms_before_them(root):
    import videopac

    graph = module_graph(root)
    assert {room_of(m, videopac.ROOMS) for m in graph} - {None} == set(videopac.ROOMS)
    assert wrong_way(graph, videopac.ROOMS) == []


def test_a_circle_and_an_import_up_are_seen():
    graph = {"videopac.a.x": {"videopac.a.y"}, "videopac.a.y": {"videopac.b.z"},
             "videopac.b.z": {"videopac.a.x", "videopac.run"}, "videopac.run": {"videopac.a.x"}}
    assert circles(graph) == [["videopac.a.x", "videopac.a.y", "videopac.b.z", "videopac.a.x"],
                              ["videopac.a.x", "videopac.a.y", "videopac.b.z", "videopac.run",
                               "videopac.a.x"]]
    assert wrong_way(graph, ("a", "b")) == ["videopac.a.y imports videopac.b.z",
                                            "videopac.b.z imports videopac.run"]
    assert wrong_way(graph, ("b", "a")) == ["videopac.b.z imports videopac.a.x",
                                            "videopac.b.z imports videopac.run"]


def test_a_type_checking_import_counts(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from videopac.console.session import Session\n"
                      "from videopac.console import keymap\n")
    assert videopac_imports(module) == {"videopac.console.session", "videopac.console.session.Session",
                                        "videopac.console", "videopac.console.keymap"}
