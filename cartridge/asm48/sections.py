"""asl's SECTIONs: nested name scopes.  A symbol (or macro) defined in a section is known
inside it as NAME and outside as SECTION.NAME, unless PUBLIC or GLOBAL sends it up."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Sections:
    """The open sections, outermost first, as (name as written, NAME), and per section the
    names it exports: NAME -> (PUBLIC or GLOBAL, how many section levels up it goes)."""

    open: list[tuple[str, str]] = field(default_factory=list)
    exports: list[dict[str, tuple[str, int]]] = field(default_factory=list)

    def enter(self, name: str) -> None:
        self.open.append((name, name.upper()))
        self.exports.append({})

    def leave(self) -> None:
        self.open.pop()
        self.exports.pop()

    @property
    def depth(self) -> int:
        return len(self.open)

    def keys(self) -> list[str]:
        return [key for _, key in self.open]

    def key_prefix(self, depth: int) -> str:
        """`OUTER.INNER.` of the sections up to `depth`: the table key's prefix."""
        return "".join(key + "." for _, key in self.open[:depth])

    def name_prefix(self, depth: int) -> str:
        """`Outer.Inner.` as written: the prefix of a published name."""
        return "".join(name + "." for name, _ in self.open[:depth])

    def scope_keys(self, name: str) -> list[str]:
        """The keys `name` may have seen from here: innermost section first, global last."""
        upper = name.upper()
        return [self.key_prefix(depth) + upper for depth in range(self.depth, -1, -1)]

    def export_of(self, upper: str) -> tuple[str, int] | None:
        """How the innermost section exports NAME, if it does."""
        return self.exports[-1].get(upper) if self.exports else None
