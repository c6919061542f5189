"""asl expressions: number formats, character constants, strings, operators with asl's own
precedence (Macroassembler AS manual, "Operators"; lower rank binds tighter), functions.

asl facts implemented here (all integer arithmetic is signed 64-bit like asl's LargeInt):
  rank 1  ~  (unary, one's complement)        rank 2  ~~ and !  (unary, logical not)
  rank 3  << >>                                rank 4  ><  (mirror the low n bits)
  rank 5  &                                    rank 6  |
  rank 7  !  (binary: exclusive or)            rank 8  ^  (power, as in asl, not xor)
  rank 11 * / # %  (# is asl's modulo, % an alias)
  rank 13 + -  (unary minus has this rank too) rank 15 &&   rank 16 ||   rank 17 !!
  rank 23 = == <> != < > <= >=  (true = 1, false = 0)
Numbers: 0ffh, $ff, 0xff, 01010101b, %0101, 0b0101, 377o, 377q, 123, 123d; 'A' and 'AB'
(multi-character constants, first character in the high byte; in DB they store their
text like "text" strings).  `$` and `*`
(in operand position) are the address of the current instruction."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol

from i18n import _

from .errors import SourceError
from .lexer import scan_quoted

Value = int | str

_NAME = re.compile(r"(?:\$\$)?[A-Za-z_.?@][A-Za-z0-9_.?@$]*")
_ALNUM = re.compile(r"[0-9][A-Za-z0-9_]*")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "'": "'", '"': '"',
            "a": "\a", "b": "\b", "e": "\x1b", "h": "'", "i": '"'}

BINARY_RANKS: dict[str, int] = {
    "<<": 3, ">>": 3, "><": 4, "&": 5, "|": 6, "!": 7, "^": 8,
    "*": 11, "/": 11, "#": 11, "%": 11, "+": 13, "-": 13,
    "&&": 15, "||": 16, "!!": 17,
    "=": 23, "==": 23, "<>": 23, "!=": 23, "<": 23, ">": 23, "<=": 23, ">=": 23,
}
UNARY_RANKS: dict[str, int] = {"~": 1, "~~": 2, "!": 2, "-": 13, "+": 13}
# Longest operators first so that `<<` is not read as `<`.
_OPERATORS = sorted(set(BINARY_RANKS) | set(UNARY_RANKS), key=len, reverse=True)
MASK64 = (1 << 64) - 1


class InFunction(SourceError):
    """An error in the body of a user FUNCTION, its message already naming the innermost
    function called (an outer call only moves it to its own position)."""


class Context(Protocol):
    """What an expression needs from the assembler."""

    @property
    def pc(self) -> int:
        """The address of the current instruction (`$`)."""

    @property
    def radix(self) -> int:
        """The base of numbers written without a suffix (RADIX)."""

    def lookup(self, name: str, offset: int) -> Value:
        """Value of a symbol (the assembler decides what an unknown symbol means)."""

    def translate(self, text: str) -> bytes:
        """Bytes of `text` in the active codepage."""

    def defined(self, name: str) -> bool:
        """Whether a symbol is defined at this point (for DEFINED())."""

    def function(self, name: str) -> "UserFunction | None":
        """A function defined with asl's FUNCTION directive, if `name` is one."""

    def dialect(self, key: str, offset: int) -> None:
        """A form asl refuses (dialect.FORMS[key]) was read at `offset`: the assembler
        refuses it or warns (--relaxed)."""


@dataclass(frozen=True)
class UserFunction:
    """`name FUNCTION p1,...,pn,expression` (asl): the expression with parameters bound."""

    name: str
    params: tuple[str, ...]
    body: str


class _Bound:
    """A context in which a user function's parameters are symbols."""

    def __init__(self, outer: Context, values: dict[str, Value]):
        self.outer = outer
        self.values = values

    @property
    def pc(self) -> int:
        return self.outer.pc

    def lookup(self, name: str, offset: int) -> Value:
        if name.upper() in self.values:
            return self.values[name.upper()]
        return self.outer.lookup(name, offset)

    def translate(self, text: str) -> bytes:
        return self.outer.translate(text)

    def defined(self, name: str) -> bool:
        return name.upper() in self.values or self.outer.defined(name)

    def function(self, name: str) -> "UserFunction | None":
        return self.outer.function(name)

    def dialect(self, key: str, offset: int) -> None:
        self.outer.dialect(key, offset)

    @property
    def radix(self) -> int:
        return self.outer.radix


@dataclass(frozen=True)
class Token:
    kind: str        # num, str, chr, name, op, (, ), ",", pc
    text: str
    offset: int
    value: Value | None = None


def parse_number(text: str, radix: int = 10) -> tuple[int, str | None] | None:
    """(value, dialect key or None) of an asl number word such as 0ffh, 1010b, 377o, 12;
    None if not one.  Digits without a suffix are read in the RADIX (asl: with RADIX 16,
    `10` is 10h and the letters B and D are digits, not suffixes).  The key names a form
    asl refuses (0x1f, 0b101, 123d; see dialect.py)."""
    t = text.upper().replace("_", "")
    try:
        if t.startswith("0X") and len(t) > 2:
            return int(t[2:], 16), "0xhex"
        if t.endswith("H"):
            return int(t[:-1], 16), None
        if radix < 12 and t.endswith("B") and set(t[:-1]) <= set("01") and len(t) > 1:
            return int(t[:-1], 2), None
        if t.startswith("0B") and len(t) > 2 and set(t[2:]) <= set("01") and radix < 12:
            return int(t[2:], 2), "0bbin"
        if t[-1] in "OQ":
            return int(t[:-1], 8), None
        if t.endswith("D") and t[:-1].isdigit() and radix < 14:
            return int(t[:-1], 10), "123d"
        return int(t, radix), None
    except ValueError:
        return None


def unescape(body: str, offset: int, ctx: "Context | None" = None) -> str:
    """Decode asl's backslash escapes and doubled quotes inside a literal body: `\\n` and the
    other letters (also upper case; `\\H` is an apostrophe, `\\I` a quotation mark), `\\ddd`
    decimal (up to three digits), `\\0ddd` octal, `\\xhh` hexadecimal, and `\\{expr}`, the
    value of the expression as text (an integer in hexadecimal, asl's default OUTRADIX)."""
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == "{" and ctx is not None:
                end = body.find("}", i + 2)
                if end < 0:
                    raise SourceError(_("'{start}' without '{end}'").format(start="\\{", end="}"),
                                      offset + i)
                out.append(_formatted(evaluate(body[i + 2:end], ctx)))
                i = end + 1
                continue
            m = re.match(r"0[0-7]{1,3}|[1-9][0-9]{0,2}|0", body[i + 1:])
            if m:
                digits = m.group(0)
                value = int(digits, 8) if digits.startswith("0") else int(digits)
                out.append(chr(value & 0xFF))
                i += 1 + m.end()
                continue
            if nxt.lower() in _ESCAPES:
                out.append(_ESCAPES[nxt.lower()])
                i += 2
                continue
            if nxt in "xX":
                m = re.match(r"[0-9A-Fa-f]{1,2}", body[i + 2:])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + m.end()
                    continue
            raise SourceError(_("unknown escape sequence \\{nxt}").format(nxt=nxt), offset + i)
        if c in "'\"" and i + 1 < len(body) and body[i + 1] == c:
            out.append(c)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _formatted(value: Value) -> str:
    """A value written into a string by `\\{...}`: integers in hexadecimal, 64 bits."""
    if isinstance(value, str):
        return value
    return f"{value & MASK64:X}"


_RADIX_QUOTED = re.compile(r"([XxHhBbOo])'([0-9A-Fa-f]+)'")
_QUOTED_BASES = {"X": 16, "H": 16, "B": 2, "O": 8}


def tokenize(text: str, ctx: "Context | None" = None) -> list[Token]:
    """The tokens of an expression.  Forms asl refuses (or takes only after RELAXED ON) are
    passed to ctx.dialect, which refuses them or lets them through with a warning."""
    tokens: list[Token] = []
    i = 0
    n = len(text)
    radix = ctx.radix if ctx is not None else 10

    def operand_expected() -> bool:
        return not tokens or tokens[-1].kind in ("op", "(", ",")

    def dialect(key: str | None, offset: int) -> None:
        if key is not None and ctx is not None:
            ctx.dialect(key, offset)

    while i < n:
        c = text[i]
        if c in " \t":
            i += 1
            continue
        m = _RADIX_QUOTED.match(text, i) if operand_expected() else None
        if m:
            try:
                value = int(m.group(2), _QUOTED_BASES[m.group(1).upper()])
            except ValueError:
                raise SourceError(_("invalid number {number!r}").format(number=m.group(0)),
                                  i) from None
            dialect("x'..'", i)
            tokens.append(Token("num", m.group(0), i, value))
            i = m.end()
            continue
        if c in "'\"":
            end = scan_quoted(text, i)
            body = unescape(text[i + 1:end - 1], i + 1, ctx)
            tokens.append(Token("str" if c == '"' else "chr", text[i:end], i, body))
            i = end
            continue
        if c.isdigit():
            m = _ALNUM.match(text, i)
            assert m is not None             # a digit is the start of an alphanumeric run
            word = m.group(0)
            parsed = parse_number(word, radix)
            if parsed is None:
                raise SourceError(_("invalid number {word!r}").format(word=word), i)
            dialect(parsed[1], i)
            tokens.append(Token("num", word, i, parsed[0]))
            i = m.end()
            continue
        m = _NAME.match(text, i) if text.startswith("$$", i) else None
        if m:                                      # $$name: a named temporary symbol
            tokens.append(Token("name", m.group(0), i))
            i = m.end()
            continue
        if c == "$":
            m = re.compile(r"\$[0-9A-Fa-f]+").match(text, i)
            if m:
                dialect("$hex", i)
                tokens.append(Token("num", m.group(0), i, int(m.group(0)[1:], 16)))
                i = m.end()
            else:
                tokens.append(Token("pc", "$", i))
                i += 1
            continue
        if c == "%" and operand_expected():
            m = re.compile(r"%[01]+").match(text, i)
            if not m:
                raise SourceError(_("invalid binary number after '%'"), i)
            dialect("%bin", i)
            tokens.append(Token("num", m.group(0), i, int(m.group(0)[1:], 2)))
            i = m.end()
            continue
        if c == "*" and operand_expected():
            dialect("*pc", i)
            tokens.append(Token("pc", "*", i))
            i += 1
            continue
        if c == "@" and i + 1 < n and text[i + 1] in "01234567" and operand_expected():
            m = re.compile(r"@[0-7]+").match(text, i)     # Motorola-style octal
            assert m is not None             # the next character is an octal digit
            dialect("@oct", i)
            tokens.append(Token("num", m.group(0), i, int(m.group(0)[1:], 8)))
            i = m.end()
            continue
        m = _NAME.match(text, i)
        if m:
            tokens.append(Token("name", m.group(0), i))
            i = m.end()
            continue
        if c in "(),":
            tokens.append(Token(c, c, i))
            i += 1
            continue
        for op in _OPERATORS:
            if text.startswith(op, i):
                if op == "!=":
                    dialect("!=", i)
                elif op == "%":
                    dialect("%mod", i)
                elif op == "!" and operand_expected():
                    dialect("!not", i)
                tokens.append(Token("op", op, i))
                i += len(op)
                break
        else:
            raise SourceError(_("unexpected character {c!r} in expression").format(c=c), i)
    return tokens


def _wrap(v: int) -> int:
    """Reduce to asl's signed 64-bit integer."""
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


def _cdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _mirror(a: int, n: int) -> int:
    if not 1 <= n <= 32:
        raise SourceError(_("bit count {n} of '><' must be 1..32").format(n=n))
    result = (a >> n) << n
    for z in range(n):
        if a & (1 << (n - 1 - z)):
            result |= 1 << z
    return result


def _power(a: int, b: int) -> int:
    if b < 0:
        return 0
    result = 1
    while b:            # square-and-multiply in 64-bit, as asl does
        if b & 1:
            result = _wrap(result * a)
        b >>= 1
        if b:
            a = _wrap(a * a)
    return result


def _divide(op: str) -> Callable[[int, int], int]:
    def f(a: int, b: int) -> int:
        if b == 0:
            raise SourceError(_("division by zero"))
        return _cdiv(a, b) if op == "/" else a - _cdiv(a, b) * b
    return f


_BINARY: dict[str, Callable[[int, int], int]] = {
    "<<": lambda a, b: a << b if 0 <= b < 64 else 0,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else (-1 if a < 0 else 0),
    "><": _mirror, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    "!": lambda a, b: a ^ b, "^": _power,
    "*": lambda a, b: a * b, "/": _divide("/"), "#": _divide("#"), "%": _divide("#"),
    "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "&&": lambda a, b: int(bool(a) and bool(b)), "||": lambda a, b: int(bool(a) or bool(b)),
    "!!": lambda a, b: int(bool(a) != bool(b)),
    "=": lambda a, b: int(a == b), "==": lambda a, b: int(a == b),
    "<>": lambda a, b: int(a != b), "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
}
_UNARY: dict[str, Callable[[int], int]] = {
    "~": lambda a: ~a, "~~": lambda a: int(not a), "!": lambda a: int(not a),
    "-": lambda a: -a, "+": lambda a: a,
}


def _int_fn(fn: Callable[[int], int]) -> Callable[["Parser", list[Value], int], Value]:
    return lambda parser, args, offset: fn(parser.as_int(args[0], offset))


def _bitcnt(v: int) -> int:
    return bin(v & MASK64).count("1")


def _firstbit(v: int) -> int:
    v &= MASK64
    return (v & -v).bit_length() - 1 if v else -1


def _lastbit(v: int) -> int:
    return (v & MASK64).bit_length() - 1


# Built-in functions: HI/LO (low and high byte, common in 8048 sources) and the integer and
# string functions of asl that make sense without floating point.
FUNCTIONS: dict[str, tuple[int, Callable[["Parser", list[Value], int], Value]]] = {
    "HI": (1, _int_fn(lambda v: (v >> 8) & 0xFF)),
    "HIGH": (1, _int_fn(lambda v: (v >> 8) & 0xFF)),
    "LO": (1, _int_fn(lambda v: v & 0xFF)),
    "LOW": (1, _int_fn(lambda v: v & 0xFF)),
    "ABS": (1, _int_fn(abs)),
    "SGN": (1, _int_fn(lambda v: (v > 0) - (v < 0))),
    "BITCNT": (1, _int_fn(_bitcnt)),
    "FIRSTBIT": (1, _int_fn(_firstbit)),
    "LASTBIT": (1, _int_fn(_lastbit)),
    "TOUPPER": (1, _int_fn(lambda v: ord(chr(v).upper()) if 0 <= v < 128 else v)),
    "TOLOWER": (1, _int_fn(lambda v: ord(chr(v).lower()) if 0 <= v < 128 else v)),
    "STRLEN": (1, lambda p, a, o: len(p.as_str(a[0], o))),
    "UPSTRING": (1, lambda p, a, o: p.as_str(a[0], o).upper()),
    "LOWSTRING": (1, lambda p, a, o: p.as_str(a[0], o).lower()),
    "SUBSTR": (3, lambda p, a, o: _substr(p.as_str(a[0], o), p.as_int(a[1], o),
                                          p.as_int(a[2], o))),
    "STRSTR": (2, lambda p, a, o: p.as_str(a[0], o).find(p.as_str(a[1], o))),
    "CHARFROMSTR": (2, lambda p, a, o: _char_from(p, p.as_str(a[0], o), p.as_int(a[1], o))),
    "EXPRTYPE": (1, lambda p, a, o: 2 if isinstance(a[0], str) else 0),   # asl: 1 = float
    # VAL("expression"): the value of the expression written in the string (asl's VAL)
    "VAL": (1, lambda p, a, o: _val(p, p.as_str(a[0], o), o)),
}


def _substr(text: str, start: int, length: int) -> str:
    """asl's SUBSTR(s, start, length): from 0-based `start`, at most `length` characters."""
    return text[max(start, 0):max(start, 0) + max(length, 0)]


def _char_from(parser: "Parser", text: str, pos: int) -> int:
    """asl's CHARFROMSTR(s, pos): the code of the character at 0-based `pos`, -1 outside."""
    return parser.ctx.translate(text[pos])[0] if 0 <= pos < len(text) else -1


# asm48's own functions: asl has none of these built in (bitfuncs.inc defines hi and lo)
ASM48_FUNCTIONS = frozenset({"HI", "HIGH", "LO", "LOW"})


def _val(parser: "Parser", text: str, offset: int) -> Value:
    inner = Parser(text, parser.ctx)
    inner.depth = parser.depth + 1
    if inner.depth > 64:
        raise SourceError(_("VAL() nested too deeply"), offset)
    try:
        return inner.parse()
    except SourceError as e:
        raise SourceError(_("in VAL({text!r}): {message}").format(text=text, message=e.message),
                          offset) from None


class Parser:
    """Precedence-climbing evaluator over the token list of one expression."""

    def __init__(self, text: str, ctx: Context):
        self.text = text
        self.ctx = ctx
        self.tokens = tokenize(text, ctx)
        self.pos = 0
        self.depth = 0

    def peek(self) -> Token | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.peek()
        if tok is None:
            raise SourceError(_("expression ends too early"), len(self.text))
        self.pos += 1
        return tok

    def as_int(self, v: Value, offset: int) -> int:
        """asl turns a string used as a number into its bytes, first byte most significant."""
        if isinstance(v, int):
            return v
        result = 0
        for b in self.ctx.translate(v):
            result = (result << 8) | b
        return _wrap(result)

    def as_str(self, v: Value, offset: int) -> str:
        if not isinstance(v, str):
            raise SourceError(_("string expected"), offset)
        return v

    def parse(self) -> Value:
        if not self.tokens:
            raise SourceError(_("expression expected"), 0)
        value = self.binary(99)
        tok = self.peek()
        if tok is not None:
            raise SourceError(_("unexpected {text!r} in expression").format(text=tok.text),
                              tok.offset)
        return value

    def binary(self, max_rank: int) -> Value:
        left = self.unary(max_rank)
        while True:
            tok = self.peek()
            if tok is None or tok.kind != "op" or tok.text not in BINARY_RANKS:
                return left
            rank = BINARY_RANKS[tok.text]
            if rank > max_rank:
                return left
            self.pos += 1
            right = self.binary(rank - 1)         # left-associative
            left = self.apply(tok, left, right)

    def apply(self, tok: Token, left: Value, right: Value) -> Value:
        if isinstance(left, str) and isinstance(right, str):
            if tok.text == "+":
                return left + right
            if BINARY_RANKS[tok.text] == 23:
                return _BINARY[tok.text]((left > right) - (left < right), 0)
        a, b = self.as_int(left, tok.offset), self.as_int(right, tok.offset)
        try:
            return _wrap(_BINARY[tok.text](a, b))
        except SourceError as e:
            raise SourceError(e.message, tok.offset) from None

    def unary(self, max_rank: int) -> Value:
        tok = self.peek()
        if tok is not None and tok.kind == "op" and tok.text in UNARY_RANKS:
            self.pos += 1
            operand = self.binary(UNARY_RANKS[tok.text] - 1) if UNARY_RANKS[tok.text] > 2 \
                else self.unary(0)
            return _wrap(_UNARY[tok.text](self.as_int(operand, tok.offset)))
        return self.primary()

    def primary(self) -> Value:
        tok = self.take()
        if tok.kind in ("num", "str", "chr") and tok.value is not None:
            # asl keeps strings and characters as strings; a number is made of them only
            # where one is needed ('AB' = 4142h), so DB 'text' stores the text like DB "text"
            return tok.value
        if tok.kind == "pc":
            return self.ctx.pc
        if tok.kind == "(":
            value = self.binary(99)
            self.expect(")")
            return value
        if tok.kind == "name":
            nxt = self.peek()
            if nxt is not None and nxt.kind == "(" and (
                    tok.text.upper() in FUNCTIONS or tok.text.upper() == "DEFINED"
                    or self.ctx.function(tok.text) is not None):
                return self.call(tok)
            return self.ctx.lookup(tok.text, tok.offset)
        raise SourceError(_("unexpected {text!r} in expression").format(text=tok.text), tok.offset)

    def expect(self, kind: str) -> None:
        tok = self.peek()
        if tok is None or tok.kind != kind:
            where = tok.offset if tok else len(self.text)
            raise SourceError(_("'{kind}' expected").format(kind=kind), where)
        self.pos += 1

    def call(self, name: Token) -> Value:
        self.expect("(")
        fname = name.text.upper()
        if fname == "DEFINED":
            self.ctx.dialect("defined", name.offset)
            arg = self.take()
            if arg.kind != "name":
                raise SourceError(_("symbol name expected in DEFINED()"), arg.offset)
            self.expect(")")
            return int(self.ctx.defined(arg.text))
        args: list[Value] = []
        if (tok := self.peek()) is not None and tok.kind != ")":
            args.append(self.binary(99))
            while (tok := self.peek()) is not None and tok.kind == ",":
                self.pos += 1
                args.append(self.binary(99))
        self.expect(")")
        user = self.ctx.function(fname)
        if user is not None:          # user functions come first, as in asl
            if len(args) != len(user.params):
                raise SourceError(_("{function}() takes {n} argument(s), got {got}").format(
                    function=name.text, n=len(user.params), got=len(args)), name.offset)
            if self.depth > 64:
                raise SourceError(_("{function}() calls itself too deeply").format(
                    function=name.text), name.offset)
            inner = Parser(user.body, _Bound(self.ctx, dict(zip(user.params, args))))
            inner.depth = self.depth + 1
            try:
                return inner.parse()
            except InFunction as e:          # named after the innermost function already
                raise InFunction(e.message, name.offset) from None
            except SourceError as e:
                raise InFunction(_("in function {function}: {message}").format(
                    function=user.name, message=e.message), name.offset) from None
        if fname in ASM48_FUNCTIONS:
            self.ctx.dialect("hilo", name.offset)
        arity, fn = FUNCTIONS[fname]
        if len(args) != arity:
            raise SourceError(_("{function}() takes {arity} argument(s), got {got}").format(
                function=name.text, arity=arity, got=len(args)), name.offset)
        return fn(self, args, name.offset)


def evaluate(text: str, ctx: Context) -> Value:
    """Value of the asl expression `text` (an int, or a str for string expressions)."""
    try:
        return Parser(text, ctx).parse()
    except RecursionError:
        raise SourceError(_("expression nested too deeply")) from None
