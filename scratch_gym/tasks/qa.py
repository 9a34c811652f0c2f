"""Test helpers for ask-and-say tasks: what a sprite said, without its own questions."""

from __future__ import annotations

from collections.abc import Sequence

from scratch_gym.tasks.conditions import idle
from scratch_gym.tasks.test_api import Run


def spoken(texts: Sequence[str], questions: Sequence[str]) -> list[str]:
    """What a sprite said, without its questions (an ask shows the question in the sprite's
    bubble and clears it when answered)."""
    out = []
    for i, text in enumerate(texts):
        if text in questions or (text == "" and i > 0 and texts[i - 1] in questions):
            continue
        out.append(text)
    return out


def says(
    run: Run,
    answers: Sequence[str],
    expected: str,
    questions: Sequence[str],
    frames: int = 300,
    sprite: str = "Sprite1",
) -> None:
    """Answer the questions in order, click the green flag, check the last thing said."""
    before = len(run.said(sprite))
    run.answer(*answers).green_flag()
    run.wait_until(idle(), frames=frames, message=f"for {answers} the program did not finish")
    said = spoken(run.said(sprite)[before:], questions)
    assert said, f"for {answers} {sprite} said nothing"
    assert said[-1] == expected, f"for {answers} {sprite} said {said[-1]!r}, not {expected!r}"
