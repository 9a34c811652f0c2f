"""Post-processing of model outputs, as the paper protocol applies it before EM, F1, PS and SAC.

Steps (the published evaluator's ``--postprocess``, which its README uses for prompting outputs):

1. cut at the first chat/special token (``<|eot_id|>``, ``<|im_end|>`` ...) and strip;
2. a one-line output is split before every block keyword (``when``, ``move``, ``if``, ``end`` ...);
3. per line: strip, drop a leading ``and``/``then`` and a trailing one, spell ``when green flag
   clicked`` as ``when @greenFlag clicked``, turn ``forever:`` into ``forever``, wrap a bare
   ``wait until X`` as ``wait until <X>``, rewrite ``if touching ...`` lines as a touching
   condition (``edge`` when named) and give ``if X`` without ``then`` its ``<X> then``;
4. balance C-blocks: drop ``end``/``else`` lines that close nothing (``else`` kept only inside
   an ``if``), drop a ``forever`` nested in another ``forever``, close what is left open, and
   remove empty ``forever``/``end`` pairs;
5. cut a verbatim repeat of a block of five or more lines after its first copy.
"""

from __future__ import annotations

import re

SPECIAL_TOKENS = (
    "<|end_of_text|>", "<|begin_of_text|>", "<|endoftext|>", "<|eot_id|>", "<|im_end|>",
    "<|im_start|>", "<|user|>", "<|assistant|>", "<|system|>", "<|start_header_id|>",
    "<|end_header_id|>",
)  # fmt: skip
BLOCK_KEYWORDS = (
    "when", "move", "turn", "say", "think", "wait", "broadcast", "forever", "repeat", "if",
    "else", "end", "set", "change", "go", "glide", "point", "show", "hide", "play", "stop",
    "ask", "switch", "next", "clear", "pen", "stamp", "add", "delete", "replace", "insert",
)  # fmt: skip
MIN_REPEATED_BLOCK = 5
_KEYWORD_SPLIT = re.compile(rf"\s+(?=({'|'.join(BLOCK_KEYWORDS)})\b)", re.IGNORECASE)
_LEADING_JOINER = re.compile(r"^(and|then)\s+", re.IGNORECASE)
_TRAILING_JOINER = re.compile(r"\s+(and|then)$", re.IGNORECASE)
_GREEN_FLAG = re.compile(r"^when\s+green\s+flag\s+clicked\b", re.IGNORECASE)
_TOUCHING_BRACKETED = re.compile(r"^if touching\s+\[?([^\]\?]+)\]?\??>", re.IGNORECASE)
_TOUCHING_PLAIN = re.compile(r"^if touching\s+([A-Za-z0-9_ ]+)\??", re.IGNORECASE)


def _cut_special_tokens(text: str) -> str:
    for token in SPECIAL_TOKENS:
        text = text.split(token, 1)[0]
    return text


def _fix_line(line: str) -> str:
    line = _TRAILING_JOINER.sub("", _LEADING_JOINER.sub("", line))
    line = _GREEN_FLAG.sub("when @greenFlag clicked", line)
    lowered = line.lower()  # the checks below look at the line before these rewrites
    if lowered.startswith("forever:"):
        line = "forever"
    if lowered.startswith("wait until ") and not lowered.startswith("wait until <"):
        line = f"wait until <{line[len('wait until ') :].strip().rstrip('>')}>"
    if lowered.startswith("if touching") and "edge" in lowered:
        line = "if <touching (edge v)?> then"
    else:
        match = _TOUCHING_BRACKETED.match(line) or _TOUCHING_PLAIN.match(line)
        if match:
            line = f"if <touching ({match.group(1).strip()} v)?> then"
    if lowered.startswith("if ") and " then" not in lowered:
        condition = line[3:].strip()
        condition = condition if condition.startswith("<") else f"<{condition}"
        condition = condition if condition.endswith(">") else f"{condition}>"
        line = f"if {condition} then"
    return line


def _opens(line: str) -> str | None:
    lower = line.lower()
    if lower.startswith("repeat "):
        return "repeat"
    if lower == "forever":
        return "forever"
    if lower.startswith("if ") and lower.endswith("then"):
        return "if"
    return None


def balance_blocks(lines: list[str]) -> list[str]:
    """Step 4: C-blocks balanced as the published post-processing balances them."""
    open_blocks: list[str] = []
    kept: list[str] = []
    for line in lines:
        lower = line.lower()
        if lower == "end":
            if open_blocks:
                open_blocks.pop()
                kept.append(line)
        elif lower == "else":
            if open_blocks and open_blocks[-1] == "if":
                kept.append(line)
        elif (kind := _opens(line)) is not None:
            if kind == "forever" and "forever" in open_blocks:
                continue
            open_blocks.append(kind)
            kept.append(line)
        else:
            kept.append(line)
    kept.extend("end" for _ in open_blocks)
    out: list[str] = []
    i = 0
    while i < len(kept):
        if kept[i].lower() == "forever" and i + 1 < len(kept) and kept[i + 1].lower() == "end":
            i += 2
            continue
        out.append(kept[i])
        i += 1
    return out


def cut_repetition(lines: list[str], min_block: int = MIN_REPEATED_BLOCK) -> list[str]:
    """Step 5: lines up to the end of the first copy of a block repeated right after itself."""
    for size in range(min_block, len(lines) // 2 + 1):
        for start in range(len(lines) - 2 * size + 1):
            if lines[start : start + size] == lines[start + size : start + 2 * size]:
                return lines[: start + size]
    return lines


def postprocess(text: str | None) -> str:
    """A model output cleaned as the paper protocol cleans it (see the module docstring)."""
    text = _cut_special_tokens(text or "").strip()
    if not text:
        return text
    if "\n" not in text:
        text = _KEYWORD_SPLIT.sub("\n", text)
    lines = [_fix_line(line.strip()) for line in text.splitlines() if line.strip()]
    return "\n".join(cut_repetition(balance_blocks(lines))).strip()
