"""asl's SECTIONs: nested name scopes.  A symbol (or macro) defined in a section is known
inside it as NAME and outside as SECTION.NAME, unless PUBLIC or GLOBAL sends it up."""
from __future__ import annotations

from dataclasses import dataclass, field

#: how deep SECTIONs may nest: every name is looked up in each open section, so the depth
#: multiplies the work of every line; real programs use a few levels
MAX_SECTION_DEPTH = 64


@dataclass
class Sections:
    """The open sections, outermost first, as (name as written, NAME), and per section the
    names it exports: NAME -> (PUBLIC or GLOBAL, how many section levels up it goes).
    ``key_prefixes[d]`` and ``name_prefixes[d]`` are the prefixes of depth d, built once when
    a section opens instead of joined again for every name looked up."""

    open: list[tuple[str, str]] = field(default_factory=list)
    exports: list[dict[str, tuple[str, int]]] = field(default_factory=list)
    key_prefixes: list[str] = field(default_factory=lambda: [""])
    name_prefixes: list[str] = field(default_factory=lambda: [""])

    def enter(self, name: str) -> None:
        """Open a section; the caller has checked ``depth < MAX_SECTION_DEPTH``."""
        self.open.append((name, name.upper()))
        self.exports.append({})
        self.key_prefixes.append(self.key_prefixes[-1] + name.upper() + ".")
        self.name_prefixes.append(self.name_prefixes[-1] + name + ".")

    def leave(self) -> None:
        self.open.pop()
        self.exports.pop()
        self.key_prefixes.pop()
        self.name_prefixes.pop()

    @property
    def depth(self) -> int:
        return len(self.open)

    def keys(self) -> list[str]:
        return [key for _, key in self.open]

    def key_prefix(self, depth: int) -> str:
        """`OUTER.INNER.` of the sections up to `depth`: the table key's prefix."""
        return self.key_prefixes[depth]

    def name_prefix(self, depth: int) -> str:
        """`Outer.Inner.` as written: the prefix of a published name."""
        return self.name_prefixes[depth]

    def scope_keys(self, name: str) -> list[str]:
        """The keys `name` may have seen from here: innermost section first, global last."""
        upper = name.upper()
        return [prefix + upper for prefix in reversed(self.key_prefixes)]

    def export_of(self, upper: str) -> tuple[str, int] | None:
        """How the innermost section exports NAME, if it does."""
        return self.exports[-1].get(upper) if self.exports else None
