"""What the drag policy reads: opcode ids and symbol words read as Scratch shows them, element
lists that never drop a block for chrome, and match features that find a never-seen name."""

from __future__ import annotations

import numpy as np
import pytest

from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.rl_spaces import encode_elements, kept_elements


def test_opcode_ids_read_as_the_blocks_words():
    assert (
        tokens.decode(tokens.encode("the 'control_if_else' block", 8))
        == "the <q> if then <q> block"
    )
    assert tokens.decode(tokens.encode("'motion_movesteps'", 4)) == "<q> move steps <q>"
    assert "pen" in tokens.decode(tokens.encode("pen_setPenColorParamTo", 8))  # camel case too


def test_symbol_words_read_as_the_symbol_but_block_words_stay():
    assert tokens.encode("'greater than'", 3)[1] == tokens.encode(">", 1)[0]
    assert tokens.encode("'equal to'", 3)[1] == tokens.encode("=", 1)[0]
    assert tokens.encode("'minus'", 3)[1] == tokens.encode("-", 1)[0]
    assert tokens.decode(tokens.encode("add thing to list", 4)) == "add thing to list"


def test_long_element_lists_drop_chrome_before_blocks():
    chrome = [
        {"type": "button", "text": f"b{i}", "x": 0, "y": 0, "w": 1, "h": 1} for i in range(150)
    ]
    blocks = [
        {"type": "block", "text": f"say {i}", "x": 5, "y": i, "w": 9, "h": 9} for i in range(40)
    ]
    kept = kept_elements(chrome[:75] + blocks + chrome[75:], 128)
    assert len(kept) == 128 and all(b in kept for b in blocks)
    assert kept.index(blocks[0]) < kept.index(blocks[-1])  # the list's order is kept
    arrays = encode_elements(chrome + blocks)
    assert (arrays["element_type"] > 0).sum() == 128


def test_match_features_find_an_unseen_name_and_rank_ties():
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import match_features

    elements = [
        {"type": "block", "text": "say zorblax", "x": 400, "y": 300, "w": 90, "h": 40},
        {"type": "block", "text": "say hello", "x": 400, "y": 100, "w": 90, "h": 40},
        {"type": "block", "text": "say zorblax", "x": 400, "y": 500, "w": 90, "h": 40},
    ]
    arrays = encode_elements(elements)
    ins = torch.as_tensor(tokens.encode("Put it under the second 'say zorblax' block", 64))[None]
    quote = (ins == tokens.QUOTE).long().cumsum(1)
    phrase = (quote == 1) & (ins != tokens.QUOTE)
    feats = match_features(
        ins, phrase, torch.as_tensor(arrays["element_tokens"])[None],
        torch.as_tensor(arrays["element_box"])[None],
    )[0]  # fmt: skip
    jaccard, hashed, best = feats[:3, 2], feats[:3, 3], feats[:3, 4]
    assert jaccard[0] == jaccard[2] == 1.0 and jaccard[1] < 1.0
    assert hashed.tolist() == [1.0, 0.0, 1.0]  # 'zorblax' is in no vocabulary
    assert best.tolist() == [1.0, 0.0, 1.0]
    ranks = feats[:3, 7:].argmax(-1)
    assert ranks[0] == 0 and ranks[2] == 1  # the upper one reads first
    assert np.isclose(float(feats[3:, 2].abs().sum()), 0.0)  # padding matches nothing
