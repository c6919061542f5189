"""docs/architecture.md is the newcomer's map, so it may not rot: every file it names exists,
every ``module.name`` and ``Class.name`` it writes in code is defined there, every class or
constant it names in code exists, and every module of the parts is on the map."""
from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass, field

import pytest

from tests.test_skeleton import ARROWS

MAP = "docs/architecture.md"
# what a file reference ends with
EXTENSIONS = ("py", "tsv", "toml", "a48", "inc", "json", "csv", "po", "md", "js", "html", "css", "bin", "txt")
FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:" + "|".join(EXTENSIONS) + r"))(?![\w/])")
DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?![\w])")
# a code span that is one name: a class (CamelCase), a constant (UPPER_CASE) or a call (name())
NAME = re.compile(r"([A-Z]\w*|[A-Za-z_]\w*(?=\(\)))(\(\))?")
SKIPPED_DIRS = {".git", ".venv", "__pycache__", "node_modules"}


@dataclass
class Module:
    """What one Python file defines: its top-level names, and each class's own names (also the
    ``self.name`` its methods set) and bases."""
    names: set[str] = field(default_factory=set)
    classes: dict[str, tuple[set[str], list[str]]] = field(default_factory=dict)


def _bound(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _defined(body: list[ast.stmt]) -> set[str]:
    """The names a block of statements binds at its own level (also inside if/with/try)."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= set().union(*(_bound(t) for t in node.targets))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            names |= _bound(node.target)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        for block in ("body", "orelse", "finalbody", "handlers"):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names |= _defined(getattr(node, block, []))
    return names


def read_module(path: pathlib.Path) -> Module:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module = Module(_defined(tree.body))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                     if isinstance(b, (ast.Name, ast.Attribute))]
            own = {t.attr for f in node.body if isinstance(f, ast.FunctionDef) for n in ast.walk(f)
                   if isinstance(n, (ast.Assign, ast.AnnAssign))
                   for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                   if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
            module.classes[node.name] = (_defined(node.body) | own, bases)
    return module


class Tree:
    """The project as the map sees it: its files, and what its Python modules define."""

    def __init__(self, root: pathlib.Path):
        self.root = root
        self.files = [p.relative_to(root).as_posix() for p in self._walk(root)]
        self.modules: dict[str, list[Module]] = {}      # a module's or package's name -> its files
        for part in ARROWS:
            for path in sorted((root / part).rglob("*.py")):
                name = path.parent.name if path.name == "__init__.py" else path.stem
                module = read_module(path)
                if path.name == "__init__.py":   # a package also holds its submodules
                    module.names |= {p.stem for p in path.parent.glob("*.py")} | {
                        p.name for p in path.parent.iterdir() if (p / "__init__.py").exists()}
                self.modules.setdefault(name, []).append(module)
        self.classes: dict[str, list[tuple[set[str], list[str]]]] = {}
        for modules in self.modules.values():
            for module in modules:
                for name, members in module.classes.items():
                    self.classes.setdefault(name, []).append(members)

    def _walk(self, folder: pathlib.Path):
        for path in sorted(folder.iterdir()):
            if path.name in SKIPPED_DIRS or path.name.endswith(".egg-info"):
                continue
            if path.is_dir():
                yield path
                yield from self._walk(path)
            else:
                yield path

    def has_file(self, reference: str, doc: str) -> bool:
        """A file reference: a path from the repository's root, from the doc's folder, or the
        tail of a path in the tree (``cpu.py``, ``asm48/core.py``)."""
        reference = reference.rstrip("/")
        beside = (pathlib.PurePosixPath(doc).parent / reference).as_posix()
        return any(f == reference or f == beside or f.endswith("/" + reference) for f in self.files)

    def class_has(self, name: str, member: str, seen: frozenset[str] = frozenset()) -> bool:
        """``name.member`` for a class of the project, its own or inherited from a project class."""
        for members, bases in self.classes.get(name, []):
            if member in members or any(self.class_has(b, member, seen | {name})
                                        for b in bases if b not in seen):
                return True
        return False

    def defines(self, name: str) -> bool:
        return any(name in m.names or name in m.classes for ms in self.modules.values() for m in ms) or any(
            name in members for ms in self.classes.values() for members, _ in ms)

    def dotted_error(self, first: str, second: str, third: str | None) -> str | None:
        """Why ``first.second[.third]`` names nothing in the tree, or None if it names something."""
        if first in self.modules:
            modules = self.modules[first]
            if not any(second in m.names for m in modules):
                return f"{first} has no {second}"
            if third and not (self.class_has(second, third) or third in self.modules.get(second, [Module()])[0].names):
                return f"{first}.{second} has no {third}"
            return None
        if first in self.classes:
            return None if self.class_has(first, second) else f"class {first} has no {second}"
        return f"{first} is neither a module nor a class of the project"


def code_of(text: str) -> list[str]:
    """The code a markdown text holds: its fenced blocks and its inline code spans."""
    fenced = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M)
    prose = re.sub(r"^```[^\n]*\n.*?^```", "", text, flags=re.S | re.M)
    return fenced + re.findall(r"`([^`\n]+)`", prose)


def map_errors(tree: Tree, text: str, doc: str = MAP) -> list[str]:
    """Every name in ``text`` (a markdown document at ``doc``) that the tree does not have."""
    errors = [f"no file {f}" for f in dict.fromkeys(FILE.findall(text)) if not tree.has_file(f, doc)]
    for code in code_of(text):
        bare = FILE.sub(" ", code)
        for first, second, third in DOTTED.findall(bare):
            wrong = tree.dotted_error(first, second, third or None)
            if wrong:
                errors.append(f"`{first}.{second}{'.' + third if third else ''}`: {wrong}")
        if "/" in code.strip() and re.fullmatch(r"[\w./-]+/", code.strip()) and not tree.has_file(code.strip(), doc):
            errors.append(f"no folder {code.strip()}")
        span = NAME.fullmatch(code.strip())
        if span and not tree.defines(span.group(1)) and span.group(1) not in tree.modules:
            errors.append(f"`{code.strip()}` is defined nowhere")
    return errors


@pytest.fixture(scope="module")
def tree(root) -> Tree:
    return Tree(root)


def test_every_file_module_function_and_class_the_map_names_exists(root, tree):
    assert map_errors(tree, (root / MAP).read_text(encoding="utf-8")) == []


def test_every_module_of_the_parts_is_on_the_map(root):
    text = (root / MAP).read_text(encoding="utf-8")
    named = set(FILE.findall(text))
    missing = [path.relative_to(root).as_posix() for part in ARROWS for path in sorted((root / part).rglob("*.py"))
               if path.name not in ("__init__.py", "__main__.py")
               and not any(n == path.name or path.as_posix().endswith("/" + n) for n in named)]
    assert missing == []


def test_the_check_sees_names_that_do_not_exist(tree):
    text = ("The flow: `store.apply` then `rules.apply(state, action)`, `Game.play`, `Game.juggle`,\n"
            "`event.format()`, `o2em_core.machine.Machine.run_frame`, `SCRATCH_FIELDS`, `NO_SUCH_TABLE`,\n"
            "`Machine`, `Mashine`, `_()`, `frobnicate()`, `o2em_core/`, `nowhere/`; read `cpu.py`,\n"
            "docs/hardware.md, [bios](bios.md), `cartridge/asm48/core.py` and `gone.py`.\n"
            "```\ncpu.run -> vdc.run_events -> raster.draw_into -> sound.emit_lines\n```\n")
    assert map_errors(tree, text) == [
        "no file gone.py",
        "`sound.emit_lines`: sound has no emit_lines",
        "`store.apply`: store has no apply",
        "`rules.apply`: rules has no apply",
        "`Game.juggle`: class Game has no juggle",
        "`event.format`: event is neither a module nor a class of the project",
        "`NO_SUCH_TABLE` is defined nowhere",
        "`Mashine` is defined nowhere",
        "`frobnicate()` is defined nowhere",
        "no folder nowhere/"]
