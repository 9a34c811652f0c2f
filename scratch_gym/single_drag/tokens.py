"""Instruction and element text as token ids, for policies that take numbers only.

An open vocabulary: the known words come from the single sources of truth (every word and
symbol of the block catalogue: block texts, menu options, input names; the instruction
templates; the grab/drop rules) and get ids of their own; any other word (a variable's name,
"factorial") gets one of ``HASH_BUCKETS`` ids by a stable hash of its letters, so the same
unseen word has the same id in the instruction and in the element texts, and a policy can match
them. Before the split into words, two spellings are read as Scratch shows them: an opcode id
(``control_if_else``) as its block's words (``if then else``), and words for an operator's
symbol (``greater than``, ``plus``; ``SYMBOL_WORDS``) as the symbol. Ids: 0 padding, 1 unused
(was: unknown word), 2 a quote mark (instructions quote block texts), 3 a colour; then the
known words, sorted; then the hash buckets of unknown words; then ``NUMBER_BUCKETS`` ids of
numbers by a stable hash of their value (``10`` and ``10.0`` alike), so that "the 'repeat
(-11)' block" matches the block that shows -11 and not the one that shows 10. A policy that
only needs to know that a word is a number maps every id from ``number_base()`` on to ``NUM``.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache

import numpy as np

PAD, UNUSED, QUOTE, NUM = 0, 1, 2, 3
SPECIALS = ("<pad>", "<unused>", "<q>", "<num>")
INSTRUCTION_TOKENS = 64
ELEMENT_TOKENS = 6
HASH_BUCKETS = 4096
NUMBER_BUCKETS = 512
_WORD = re.compile(r"#[0-9a-f]{3,8}\b|-?\d+(?:\.\d+)?|[a-z]+(?:'[a-z]+)*|'|[+\-*/<>=]")

# General English for the operators' symbols (the grammar writes them; the tokenizer reads them).
SYMBOL_WORDS: dict[str, tuple[str, ...]] = {
    ">": ("greater than", "bigger than", "more than"),
    "<": ("less than", "smaller than"),
    "=": ("equals", "equal to", "is equal"),
    "+": ("plus", "addition", "add"),
    "-": ("minus", "subtraction", "subtract"),
    "*": ("times", "multiplication", "multiply"),
    "/": ("divided by", "division", "divide"),
}
_OPCODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b", re.IGNORECASE)


# Words of the instruction templates (stored tasks, settings) beyond the catalogue's.
TEMPLATE_TEXT = (
    "Drag the block from the block palette on the canvas and attach it directly below into the "
    "slot of empty loop above Start the drag at marked with a red circle on screenshot choose "
    "where to release it put place move connect inside under top first second last script stack "
    "input reporter boolean c-block lone green flag starts ends score branch together text no hi"
)


def words(text: str) -> list[str]:
    """Lower-case words, numbers, symbols and quote marks, in order (an apostrophe inside a
    word, as in "what's", belongs to the word)."""
    return _WORD.findall(text.lower())


def canonical(text: str) -> str:
    """``text`` with opcode ids replaced by their block's words and symbol words by the symbol
    (``'operator_gt'`` and ``'greater than'`` both read ``'>'``-like)."""
    text = _OPCODE.sub(lambda m: _opcode_words().get(m.group(0).lower(), m.group(0)), text)
    return _symbol_phrase().sub(lambda m: _symbol_of()[m.group(0).lower()], text)


@lru_cache(maxsize=1)
def _opcode_words() -> dict[str, str]:
    """Opcode -> the words of its block (slots left out): ``motion_movesteps`` -> ``move steps``."""
    from scratch_gym.program import catalogue

    return {spec.opcode.lower(): spec.bare_label for spec in catalogue}


@lru_cache(maxsize=1)
def _symbol_of() -> dict[str, str]:
    """Symbol words -> symbol; a single word that blocks also use (``add``, ``times``) stays."""
    from scratch_gym.program import catalogue

    block_words = {w for spec in catalogue for w in words(spec.scratchblocks)}
    return {
        w: sym
        for sym, phrases in SYMBOL_WORDS.items()
        for w in phrases
        if " " in w or w not in block_words
    }


@lru_cache(maxsize=1)
def _symbol_phrase() -> re.Pattern[str]:
    """The symbol words, longest first, as one pattern."""
    longest_first = sorted(_symbol_of(), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, longest_first)) + r")\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """Every token, by id."""
    from scratch_gym.program import catalogue
    from scratch_gym.single_drag.tasks.knowledge import KNOWLEDGE

    found: set[str] = set(words(TEMPLATE_TEXT)) | set(words(KNOWLEDGE))
    for spec in catalogue:
        found.update(words(spec.scratchblocks))
        for arg in spec.args:
            found.update(words(arg.name))
            for option in getattr(arg, "options", None) or ():
                found.update(words(str(option)))
    found -= {"'"}
    found = {w for w in found if not _is_number(w)}
    return SPECIALS + tuple(sorted(found))


@lru_cache(maxsize=1)
def _ids() -> dict[str, int]:
    return {w: i for i, w in enumerate(vocabulary())}


def size() -> int:
    """How many ids there are: the known words, the word and the number hash buckets."""
    return len(vocabulary()) + HASH_BUCKETS + NUMBER_BUCKETS


def number_base() -> int:
    """The first number id."""
    return len(vocabulary()) + HASH_BUCKETS


def number_id(word: str) -> int:
    """A number's id, by a stable hash of its value."""
    try:
        value = f"{float(word):g}"
    except ValueError:
        value = word
    return number_base() + zlib.crc32(value.encode("utf-8")) % NUMBER_BUCKETS


def is_number_id(ids: np.ndarray) -> np.ndarray:
    """Where ``ids`` (an array, numpy or torch) hold a number."""
    return ids >= number_base()


def word_id(word: str) -> int:
    """A word's id: its own when known, else its hash bucket (stable across processes)."""
    known = _ids().get(word)
    if known is not None:
        return known
    return len(vocabulary()) + zlib.crc32(word.encode("utf-8")) % HASH_BUCKETS


def _is_number(word: str) -> bool:
    """Numbers and colours."""
    return bool(re.fullmatch(r"-?\d+(?:\.\d+)?|#[0-9a-f]{3,8}", word))


def _is_colour(word: str) -> bool:
    """Colours read as ``NUM`` (the palette draws its colour swatches at random)."""
    return word.startswith("#")


def encode(text: str, length: int) -> np.ndarray:
    """``text`` as ``length`` token ids (truncated, padded with 0)."""
    out = np.zeros(length, np.int64)
    for i, word in enumerate(words(canonical(text))[:length]):
        if word == "'":
            out[i] = QUOTE
        elif _is_colour(word):
            out[i] = NUM
        elif _is_number(word):
            out[i] = number_id(word)
        else:
            out[i] = word_id(word)
    return out


def decode(ids: np.ndarray) -> str:
    """The words of token ids (padding dropped; an unknown word as ``<hN>``, its bucket, a
    number as ``<nN>``)."""
    vocab = vocabulary()

    def word(i: int) -> str:
        if i < len(vocab):
            return vocab[i]
        if i < number_base():
            return f"<h{i - len(vocab)}>"
        return f"<n{i - number_base()}>"

    return " ".join(word(int(i)) for i in np.asarray(ids).reshape(-1) if int(i) != PAD)
