"""Names and numbers as the paper protocol reads them (lexical, no guidance from the program).

* A name is lowercased, stripped of surrounding quotes and spaces, whitespace-collapsed, and every
  ``" v"`` in it is removed (the scorer's dropdown-marker rule, applied anywhere in the name).
* A number is canonical: integers without decimals, others with at most six decimals; values
  that are not finite keep their literal text. Signs are kept.
* Numbers of a text are its signed digit literals plus its runs of number words (``"a"`` counts
  as 1, ``"twenty five"`` is 25, ``"two hundred"`` is 200, words in one run add up). Zero from
  words is not reported.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache

from scratch_gym.nl2scratch.paper.lexicon import NUMBER_WORDS, SOUND_NAME_PATTERNS

_DIGITS = re.compile(r"-?\d+(?:\.\d+)?")
_LETTER_WORDS = re.compile(r"[a-z]+")
_SPACES = re.compile(r"\s+")


def paper_name(value: str) -> str:
    """A name as the scorer normalises it."""
    value = value.strip().lower().strip("\"' ")
    return _SPACES.sub(" ", value).replace(" v", "")


def paper_number(value: float | int | str) -> str:
    """A number's canonical text (literal text kept when it does not parse or is not finite)."""
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return str(value)
    if not math.isfinite(number):
        return str(value)
    if math.isclose(number, round(number), abs_tol=1e-9):
        return str(int(round(number)))
    return f"{number:.6f}".rstrip("0").rstrip(".")


def _word_numbers(text: str) -> set[str]:
    words = _LETTER_WORDS.findall(text.lower())
    found: set[str] = set()
    i = 0
    while i < len(words):
        if words[i] != "a" and words[i] not in NUMBER_WORDS:
            i += 1
            continue
        total, current, j = 0, 0, i
        while j < len(words):
            word = words[j]
            if word == "hundred":
                current = max(1, current) * 100
            elif word == "thousand":
                total, current = total + max(1, current) * 1000, 0
            elif word == "a":
                current += 1
            elif word in NUMBER_WORDS:
                current += NUMBER_WORDS[word]
            else:
                break
            j += 1
        if total + current > 0:
            found.add(paper_number(total + current))
        i = j
    return found


def paper_numbers(text: str) -> set[str]:
    """Digit literals and number-word runs of ``text``, canonical."""
    return {paper_number(m) for m in _DIGITS.findall(text)} | _word_numbers(text)


def sound_names(lower_text: str) -> set[str]:
    """Sound names mentioned in (lowercased) text, program or description."""
    names: set[str] = set()
    for pattern in SOUND_NAME_PATTERNS:
        for match in re.finditer(pattern, lower_text):
            name = paper_name(match.group(1))
            if name:
                names.add(name)
    return names


def mask_names(text: str, names: Iterable[str]) -> str:
    """``text`` with every (normalised) name blanked out, longest first, case-insensitively."""
    distinct = {paper_name(n) for n in names if n}
    for name in sorted((n for n in distinct if n), key=lambda n: (-len(n), n)):
        text = _name_pattern(name).sub(" ", text)
    return text


@lru_cache(maxsize=8192)
def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(re.escape(name), re.IGNORECASE)
