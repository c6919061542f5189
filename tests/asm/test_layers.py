"""asm48's modules import each other at their top only and in one direction (docs/asm48.md,
"Inside asm48"): no import inside a function to dodge a cycle, no cycle."""
from __future__ import annotations

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "cartridge" / "asm48"


def imports(source: str) -> tuple[set[str], list[int]]:
    """(the package's modules imported at the top, lines of imports inside a function or class)."""
    tree = ast.parse(source)
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1:    # from .x import / from . import x
            top |= {node.module} if node.module else {a.name for a in node.names}
    nested = [node.lineno for outer in tree.body if not isinstance(outer, (ast.Import, ast.ImportFrom))
              for node in ast.walk(outer) if isinstance(node, (ast.Import, ast.ImportFrom))]
    return top, nested


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (module -> modules it imports), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        for imported in sorted(graph.get(module, ())):
            found = visit(imported, path + [module])
            if found:
                return found
        done.add(module)
        return None

    return next((c for m in sorted(graph) if (c := visit(m, [])) is not None), None)


def test_no_import_inside_a_function_and_no_cycle():
    graph = {}
    for path in sorted(PACKAGE.glob("*.py")):
        top, nested = imports(path.read_text())
        assert not nested, f"{path.name} imports inside a function or class at lines {nested}"
        graph[path.stem] = top
    assert "pass_state" in graph["directives"] and "directives" in graph["core"]
    assert cycle(graph) is None, cycle(graph)


def test_the_checks_see_a_nested_import_and_a_cycle():
    assert imports("def f():\n    from .core import Pass\n") == (set(), [2])
    assert imports("from . import directives\nfrom .core import Pass\n") == (
        {"directives", "core"}, [])
    assert cycle({"core": {"directives"}, "directives": {"pass_state"},
                  "pass_state": {"core"}}) == ["core", "directives", "pass_state", "core"]
