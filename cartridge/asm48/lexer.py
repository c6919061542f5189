"""Splitting one asl source line into label, operation and operands.

asl's line format: `[label[:]] [operation [operand, operand ...]] [; comment]`.  A word that
starts in column 1 is a label (the colon is optional); an indented word is the operation unless
it ends with a colon.  Commas inside quotes or parentheses do not separate operands."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from i18n import _

from .errors import SourceError

# a leading `$$` makes an asl named temporary symbol
NAME_RE = re.compile(r"(?:\$\$)?[A-Za-z_.?@][A-Za-z0-9_.?@$]*")
# Operations after which the first word of an indented line is still a label (`x equ 5`).
LABEL_TAKING = frozenset({"EQU", "SET", "=", ":=", "MACRO", "REG", "FUNCTION"})


@dataclass
class Operand:
    """One operand as written, with its 1-based column in the source line."""

    text: str
    column: int


@dataclass
class Statement:
    label: str | None = None
    label_column: int = 1
    op: str | None = None            # as written; compare with .upper()
    op_column: int = 1
    operands: list[Operand] = field(default_factory=list)
    operand_text: str = ""           # everything after the operation (for macro bodies etc.)
    operand_column: int = 1


def scan_quoted(text: str, start: int) -> int:
    """Index just past the quoted literal that starts at text[start] (a ' or ")."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            i += 2
            continue
        if c == quote:
            # asl also accepts a doubled quote inside a literal
            if i + 1 < len(text) and text[i + 1] == quote:
                i += 2
                continue
            return i + 1
        i += 1
    raise SourceError(_("unterminated string or character constant"), start)


def unquoted(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of every character of `text` outside quoted literals."""
    i = 0
    while i < len(text):
        c = text[i]
        if c in "'\"":
            i = scan_quoted(text, i)
            continue
        yield i, c
        i += 1


def strip_comment(text: str) -> str:
    """The line without its `;` comment (a `;` inside quotes is kept)."""
    for i, c in unquoted(text):
        if c == ";":
            return text[:i]
    return text


def top_level(text: str) -> Iterator[tuple[int, str]]:
    """(index, character) of each character outside quotes, parentheses and brackets: where
    a comma separates operands or an `=` makes a keyword argument."""
    depth = 0
    for i, c in unquoted(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0:
            yield i, c


def split_operands(text: str, column: int) -> list[Operand]:
    """Split `text` (which starts at 1-based `column`) at top-level commas."""
    operands: list[Operand] = []
    start = 0
    for i, c in top_level(text):
        if c == ",":
            operands.append(_operand(text, start, i, column))
            start = i + 1
    if text.strip() or operands:
        operands.append(_operand(text, start, len(text), column))
    return operands


def _operand(text: str, start: int, end: int, column: int) -> Operand:
    raw = text[start:end]
    lead = len(raw) - len(raw.lstrip())
    return Operand(raw.strip(), column + start + lead)


def as_indented_definition(st: Statement) -> Statement | None:
    """For an indented `name EQU value` (or SET, =, MACRO, ...): the statement with `name`
    as its label; None if the line is not of that form.  The caller asks only when the
    first word is not an operation it knows, so `jmp set` stays a jump."""
    if st.label is not None or not st.op:
        return None
    m = re.match(r"(:=|=|[A-Za-z]+)(?=\s|$)", st.operand_text)
    if not m or m.group(1).upper() not in LABEL_TAKING:
        return None
    rest = st.operand_text[m.end():]
    lead = len(rest) - len(rest.lstrip())
    column = st.operand_column + m.end() + lead
    return Statement(st.op, st.op_column, m.group(1), st.operand_column,
                     split_operands(rest.strip(), column), rest.strip(), column)


def parse_line(line: str) -> Statement:
    """Parse one source line (already free of a trailing newline)."""
    code = strip_comment(line).rstrip()
    st = Statement()
    pos = 0
    n = len(code)

    def skip_space(p: int) -> int:
        while p < n and code[p] in " \t":
            p += 1
        return p

    def word_at(p: int) -> tuple[str, int]:
        m = NAME_RE.match(code, p)
        if m:
            return m.group(0), m.end()
        # operators used as operations: `=`, `:=`
        for sym in (":=", "="):
            if code.startswith(sym, p):
                return sym, p + len(sym)
        end = p
        while end < n and code[end] not in " \t":
            end += 1
        return code[p:end], end

    if n == 0:
        return st
    if code[0] not in " \t":
        word, end = word_at(0)
        if not word:
            raise SourceError(_("unexpected character {char!r}").format(char=code[0]), 0)
        pos = end
        # a label field holding only the colon is an empty label, which asl ignores
        # (KTAA's ktaa_b3.a48 has such a line among its comments)
        if word != ":":
            st.label, st.label_column = word, 1
            if pos < n and code[pos] == ":" and not code.startswith(":=", pos):
                pos += 1
    pos = skip_space(pos)
    if pos >= n:
        return st
    word, end = word_at(pos)
    if st.label is None and end < n and code[end] == ":" and not code.startswith(":=", end):
        # indented label with colon
        st.label, st.label_column = word, pos + 1
        pos = skip_space(end + 1)
        if pos >= n:
            return st
        word, end = word_at(pos)
    st.op, st.op_column = word, pos + 1
    rest_start = skip_space(end)
    st.operand_text = code[rest_start:]
    st.operand_column = rest_start + 1
    st.operands = split_operands(st.operand_text, st.operand_column)
    return st
