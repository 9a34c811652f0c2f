"""A scripted, non-privileged drag agent: the instruction and the element list, nothing else.

It reads the ``elements`` observation (token ids, element boxes): the first quoted phrase of the
instruction names the block to drag, the second the block to attach it to. Each is matched to
the element whose text shares the most words with it (palette blocks for the source unless the
instruction says "on the canvas"; canvas blocks for the target). It grabs the source 8 px in
from its left edge, halfway down its first row, and drops so that the source's top-left corner
lands at the target's bottom-left corner ("below"), on its first input ("slot"), or inside its
mouth ("loop"). A baseline for learned policies, not an oracle: it knows Scratch's layout
conventions, not the task's regions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from scratch_gym.editor.page import VIEWPORT
from scratch_gym.observations.elements import ELEMENT_TYPES
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.rl_spaces import batched_elements, grid_cells

BLOCK = 1 + ELEMENT_TYPES.index("block")
FLYOUT_BLOCK = 1 + ELEMENT_TYPES.index("flyout_block")
INPUT = 1 + ELEMENT_TYPES.index("input")
ROW_PX = 20.0  # half the height of a one-row block at the default zoom
GRAB_INSET = 8.0


def quoted(ids: np.ndarray) -> list[list[int]]:
    """The instruction's quoted phrases, as token id lists."""
    out, current = [], None
    for t in np.asarray(ids).tolist():
        if t == tokens.QUOTE:
            if current is None:
                current = []
            else:
                out.append(current)
                current = None
        elif current is not None and t != tokens.PAD:
            current.append(t)
    return out


def overlaps(phrase: Iterable[int], texts: np.ndarray) -> np.ndarray:
    """Per element (rows of token ids), the Jaccard overlap of its words with ``phrase``'s
    (padding and numbers left out; 0 for an element without words)."""
    want = {int(t) for t in phrase if t < tokens.number_base()} - {tokens.PAD, tokens.NUM}
    out = np.zeros(len(texts), np.float32)
    for i, row in enumerate(texts):
        have = {int(t) for t in row if t < tokens.number_base()} - {tokens.PAD, tokens.NUM}
        if have and want:
            out[i] = len(want & have) / len(want | have)
    return out


def _match(phrase: list[int], texts: np.ndarray, allowed: np.ndarray) -> int:
    """Index of the allowed element whose text tokens overlap ``phrase`` most (-1: none)."""
    scores = overlaps(phrase, texts)
    best, best_score = -1, 0.0
    for i in np.flatnonzero(allowed):
        if scores[i] > best_score:
            best, best_score = int(i), float(scores[i])
    return best


def heuristic_points(obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """(start, end) pixels for one ``elements`` observation, or None when nothing matches."""
    phrases = quoted(obs["instruction"])
    if len(phrases) < 2:
        return None
    words = set(tokens.decode(obs["instruction"]).split())
    kinds = obs["element_type"]
    boxes = obs["element_box"] * np.array([*VIEWPORT, *VIEWPORT], np.float32)
    from_canvas = "canvas" in words and "palette" not in words
    src = _match(
        phrases[0], obs["element_tokens"], kinds == (BLOCK if from_canvas else FLYOUT_BLOCK)
    )
    tgt_allowed = kinds == BLOCK
    if src >= 0 and from_canvas:
        tgt_allowed = tgt_allowed & (np.arange(len(kinds)) != src)
    tgt = _match(phrases[1], obs["element_tokens"], tgt_allowed)
    if src < 0 or tgt < 0:
        return None
    sx, sy, _, sh = boxes[src]
    tx, ty, tw, th = boxes[tgt]
    start = np.array([sx + GRAB_INSET, sy + min(sh / 2, ROW_PX)])
    corner = np.array([tx, ty + th])  # below: the target's bottom-left
    if "slot" in words:
        inside = np.flatnonzero(
            (kinds == INPUT)
            & (boxes[:, 0] >= tx)
            & (boxes[:, 0] <= tx + tw)
            & (boxes[:, 1] >= ty)
            & (boxes[:, 1] <= ty + th)
        )
        if len(inside):
            ix, iy, _, ih = boxes[inside[0]]
            corner = np.array([ix, iy + ih / 2 - ROW_PX / 2])
    elif "loop" in words:
        corner = np.array([tx + 16.0, ty + min(th, 2 * ROW_PX)])
    end = corner + (start - np.array([sx, sy]))
    return start, end


class HeuristicDragPolicy:
    """``predict(obs)`` for batched ``elements`` observations: grid actions (B, 4).

    Rows where nothing matches get a drag from the screen's corner (a certain miss)."""

    def predict(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        n = len(obs["instruction"])
        out = np.zeros((n, 4), np.int64)
        for i in range(n):
            found = heuristic_points({k: v[i] for k, v in obs.items()})
            if found is not None:
                out[i, :2] = grid_cells(found[0])
                out[i, 2:] = grid_cells(found[1])
        return out

    def __call__(self, obs: dict[str, Any]) -> np.ndarray:
        """Actions (B, 4) for one observation (B = 1) or a batch."""
        return self.predict(batched_elements(obs))
