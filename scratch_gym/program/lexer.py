"""Splitting one line of scratchblocks into words and bracketed slots.

A line becomes a list of items: :class:`Word` (a label word or symbol) and :class:`Bracket`
(``(...)`` round, ``[...]`` square, ``<...>`` angle). Round and angle brackets nest; square
brackets hold raw text (``\\]`` escapes a bracket). ``<`` opens an angle only when a non-blank
character follows it, and ``>`` closes one only right after a non-blank character, so the
comparison operators ``(a) < (b)`` stay words. A round bracket whose inside cannot be split
(literal text such as ``(I <3 it)``) keeps only its raw text. ``// ...`` ends a line as a comment,
and a trailing ``:: hint`` (``(x :: variables)``, ``foo :: custom``) is kept apart as a hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scratch_gym.program.errors import ScratchblocksError

_STOP = set("()[]")


@dataclass
class Word:
    text: str
    col: int


@dataclass
class Bracket:
    kind: str  # "(", "[" or "<"
    raw: str  # the text between the brackets, exactly as written
    col: int  # 1-based column of the opening bracket
    items: list[Word | Bracket] | None = None  # None: raw text only (square, or unsplittable)
    hint: str = ""

    @property
    def menu_value(self) -> str | None:
        """The value of a ``(name v)`` / ``[name v]`` menu, else None."""
        text = self.raw.rstrip()
        if len(text) > 2 and text.endswith(" v"):
            return text[:-2]
        return None


Item = Word | Bracket


@dataclass
class Line:
    items: list[Item]
    number: int
    text: str
    indent: int
    hint: str = ""
    tokens: list[str] = field(default_factory=list)


MAX_LINE_CHARS = 2000  # no block line comes close; longer input is rejected, not lexed
MAX_DEPTH = 100  # bracket nesting deeper than any real script


class _Lexer:
    def __init__(self, text: str, number: int) -> None:
        self.s = text
        self.n = len(text)
        self.number = number
        self._failed: dict[tuple[int, str | None], ScratchblocksError] = {}
        self._depth = 0

    def error(self, message: str, pos: int) -> ScratchblocksError:
        return ScratchblocksError(message, self.number, pos + 1, self.s)

    def opens_angle(self, i: int) -> bool:
        return i + 1 < self.n and not self.s[i + 1].isspace()

    def closes_angle(self, i: int) -> bool:
        return i > 0 and not self.s[i - 1].isspace()

    def items(self, i: int, closer: str | None, top: bool = False) -> tuple[list[Item], int]:
        """Items from ``i`` up to ``closer``. A failure at (i, closer) is remembered, so that
        unbalanced input costs linear work instead of retrying every nested bracket."""
        key = (i, closer)
        if key in self._failed:
            raise self._failed[key]
        if self._depth >= MAX_DEPTH:
            raise self.error(f"brackets are nested more than {MAX_DEPTH} deep", i)
        self._depth += 1
        try:
            return self._items(i, closer, top)
        except ScratchblocksError as exc:
            if not top:
                self._failed[key] = exc
            raise
        finally:
            self._depth -= 1

    def _items(self, i: int, closer: str | None, top: bool) -> tuple[list[Item], int]:
        out: list[Item] = []
        s = self.s
        while i < self.n:
            c = s[i]
            if c.isspace():
                i += 1
                continue
            if closer == ")" and c == ")":
                return out, i
            if closer == ">" and c == ">" and self.closes_angle(i):
                return out, i
            if top and s.startswith("//", i):
                return out, self.n
            if c == "(":
                br, i = self.round(i)
                out.append(br)
            elif c == "[" and self.square_end(i) is not None:
                end = self.square_end(i)
                out.append(Bracket("[", s[i + 1 : end].replace("\\]", "]"), i + 1))
                i = end + 1
            elif c == "<" and self.opens_angle(i):
                start = i
                inner, i = self.items(i + 1, ">")
                if i >= self.n:
                    raise self.error("'<' is never closed by '>'", start)
                out.append(Bracket("<", s[start + 1 : i], start + 1, inner))
                i += 1
            elif (
                c == ")"
                and out
                and isinstance(out[-1], Bracket)
                and out[-1].kind == "("
                and (s[i - 1] == ")")
            ):
                # a stray ')' right after a round bracket belongs to its text: (:))
                prev = out[-1]
                prev.raw += ")"
                prev.items = None
                i += 1
            else:
                start = i
                while i < self.n and not s[i].isspace() and s[i] not in _STOP:
                    if s[i] == "<" and i > start and self.opens_angle(i) and s[i + 1] in "(<[":
                        break
                    if s[i] == ">" and closer == ">" and i > start:
                        break
                    i += 1
                if i == start:  # a lone ']' or similar: keep it as a word
                    i += 1
                out.append(Word(s[start:i], start + 1))
        if closer == ")":
            raise self.error("'(' is never closed by ')'", i)
        return out, i

    def square_end(self, i: int) -> int | None:
        j = i + 1
        while j < self.n:
            if self.s[j] == "\\" and j + 1 < self.n and self.s[j + 1] == "]":
                j += 2
                continue
            if self.s[j] == "]":
                return j
            j += 1
        return None

    def round(self, i: int) -> tuple[Bracket, int]:
        start = i
        try:
            inner, j = self.items(i + 1, ")")
        except ScratchblocksError:
            j = self.matching_paren(i)
            return Bracket("(", self.s[start + 1 : j], start + 1, None), j + 1
        return Bracket("(", self.s[start + 1 : j], start + 1, inner), j + 1

    def matching_paren(self, i: int) -> int:
        depth = 0
        for j in range(i, self.n):
            if self.s[j] == "(":
                depth += 1
            elif self.s[j] == ")":
                depth -= 1
                if depth == 0:
                    return j
        raise self.error("'(' is never closed by ')'", i)


def split_hint(items: list[Item]) -> tuple[list[Item], str]:
    """Items without a trailing ``:: hint``, and the hint (lowercase) or ''."""
    for k, it in enumerate(items):
        if isinstance(it, Word) and it.text == "::":
            hint = " ".join(w.text for w in items[k + 1 :] if isinstance(w, Word))
            return items[:k], hint.lower()
    return items, ""


def _apply_hints(items: list[Item]) -> list[Item]:
    for it in items:
        if isinstance(it, Bracket) and it.items is not None:
            it.items, it.hint = split_hint(it.items)
            _apply_hints(it.items)
    return items


def lex_line(text: str, number: int) -> Line:
    """Split one line into items (raises ScratchblocksError on unbalanced brackets)."""
    if len(text) > MAX_LINE_CHARS:
        raise ScratchblocksError(
            f"line is {len(text)} characters long; at most {MAX_LINE_CHARS} are allowed per line",
            number,
            MAX_LINE_CHARS + 1,
            text[:80] + "...",
        )
    lexer = _Lexer(text, number)
    items, _ = lexer.items(0, None, top=True)
    items, hint = split_hint(items)
    indent = len(text) - len(text.lstrip(" \t"))
    return Line(_apply_hints(items), number, text, indent, hint)


def tokens(items: list[Item]) -> list[str]:
    """The matching key of a list of items: lowercase words, ``?`` apart, ``_`` for slots."""
    out: list[str] = []
    for it in items:
        if isinstance(it, Bracket):
            out.append("_")
            continue
        w = it.text.lower()
        if len(w) > 1 and w.endswith("?"):
            out.extend((w[:-1], "?"))
        else:
            out.append(w)
    return out


def key_of(items: list[Item]) -> str:
    return " ".join(tokens(items))
