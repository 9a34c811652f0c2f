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
        == "the <q> if then else <q> block"
    )
    assert tokens.decode(tokens.encode("the 'control_if' block", 8)) == "the <q> if then <q> block"
    assert tokens.decode(tokens.encode("'motion_movesteps'", 4)) == "<q> move steps <q>"
    assert "pen" in tokens.decode(tokens.encode("pen_setPenColorParamTo", 8))  # camel case too


def test_symbol_words_read_as_the_symbol_but_block_words_stay():
    assert tokens.encode("'greater than'", 3)[1] == tokens.encode(">", 1)[0]
    assert tokens.encode("'equal to'", 3)[1] == tokens.encode("=", 1)[0]
    assert tokens.encode("'minus'", 3)[1] == tokens.encode("-", 1)[0]
    assert tokens.decode(tokens.encode("add thing to list", 4)) == "add thing to list"


def test_numbers_keep_their_value_and_colours_do_not():
    """ "the 'repeat (-11)' block" names the block that shows -11, not the one that shows 10:
    a number's id hashes its value (10 and 10.0 alike); colours (drawn at random in the
    palette) all read as NUM."""
    ids = tokens.encode("repeat (-11) 10 10.0 #ff00aa", 8)
    minus_eleven, ten, ten_again, colour = ids[1:5]
    assert tokens.is_number_id(np.array([minus_eleven, ten])).all()
    assert minus_eleven != ten and ten == ten_again
    assert colour == tokens.NUM
    assert max(ids) < tokens.size()
    assert tokens.decode(ids).startswith("repeat <n")


def test_match_features_tell_blocks_apart_by_their_numbers():
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import match_features

    elements = [
        {"type": "block", "text": "repeat 10", "x": 400, "y": 100, "w": 90, "h": 40},
        {"type": "block", "text": "repeat -11", "x": 400, "y": 300, "w": 90, "h": 40},
    ]
    arrays = encode_elements(elements)
    ins = torch.as_tensor(tokens.encode("Put it inside the 'repeat (-11)' block", 64))[None]
    quote = (ins == tokens.QUOTE).long().cumsum(1)
    phrase = (quote == 1) & (ins != tokens.QUOTE)
    feats = match_features(
        ins, phrase, torch.as_tensor(arrays["element_tokens"])[None],
        torch.as_tensor(arrays["element_box"])[None],
    )[0]  # fmt: skip
    jaccard, best = feats[:2, 2], feats[:2, 4]
    assert jaccard[1] > jaccard[0] and best.tolist() == [0.0, 1.0]


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


def _boxes_and_kinds(torch, elements: list[dict]) -> tuple:
    """A batch of one: the element boxes (1, K, 4) and types (1, K) of ``elements``."""
    arrays = encode_elements(elements)
    return torch.as_tensor(arrays["element_box"])[None], torch.as_tensor(arrays["element_type"])[
        None
    ]


def _one_observation(torch, elements: list[dict], instruction: str) -> dict:
    """A batch of one elements observation (tensors) of ``elements`` and ``instruction``."""
    obs = {k: torch.as_tensor(v)[None] for k, v in encode_elements(elements).items()}
    obs["instruction"] = torch.as_tensor(tokens.encode(instruction, 64))[None]
    return obs


def test_the_drop_offset_follows_the_read_relations_geometric_rule():
    """With the relation head sure of ``below`` and no learned correction, the drop puts the
    grabbed block's corner one drop-element height down: the rule, not a memorised offset."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        OFFSET_PX,
        RELATIONS,
        RULE_INPUTS,
        DragPolicyNet,
    )

    net = DragPolicyNet().eval()
    below = RELATIONS.index("below")
    with torch.no_grad():
        net.drop_head[-1].weight.zero_()
        net.drop_head[-1].bias.zero_()
        net.relation[-1].weight.zero_()
        net.relation[-1].bias.copy_(torch.full((len(RELATIONS),), -50.0))
        net.relation[-1].bias[below] = 50.0
        net.rules.zero_()
        net.rules[below, RULE_INPUTS.index("drop_h"), 1] = 1.0  # y: the drop element's height
    elements = [
        {"type": "flyout_block", "text": "move 10 steps", "x": 20, "y": 200, "w": 120, "h": 40},
        {"type": "block", "text": "say hello", "x": 400, "y": 100, "w": 90, "h": 48},
        {"type": "block", "text": "think hmm", "x": 400, "y": 300, "w": 90, "h": 64},
    ]
    obs = _one_observation(torch, elements, "Put 'move' under 'say'")
    out = net(obs, grab=torch.tensor([0]))
    assert out["relation_logits"].argmax(-1).item() == below
    offset = out["drop_offset"][0, :3] * OFFSET_PX
    assert torch.allclose(offset[:, 0], torch.zeros(3), atol=1e-3)
    assert torch.allclose(offset[:, 1], torch.tensor([40.0, 48.0, 64.0]), atol=0.05)


def test_the_grab_follows_where_the_words_put_the_block_and_old_checkpoints_load(tmp_path):
    """With the origin head (``origin=True``) the grab logits add the log-probability of where
    the instruction puts the block to grab: sure of "the palette", a palette twin outranks the
    canvas block of the same text, and sure of "the canvas" the other way round. A checkpoint
    saved before the head existed (no ``origin`` in its config) loads without it."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import DragPolicy, DragPolicyNet

    elements = [
        {"type": "flyout_block", "text": "move 10 steps", "x": 20, "y": 200, "w": 120, "h": 40},
        {"type": "block", "text": "move 10 steps", "x": 400, "y": 100, "w": 120, "h": 40},
        {"type": "block", "text": "say hello", "x": 400, "y": 300, "w": 90, "h": 48},
    ]
    obs = _one_observation(torch, elements, "Put 'move 10 steps' under 'say'")
    net = DragPolicyNet(origin=True).eval()
    picks = []
    for palette in (8.0, -8.0):
        with torch.no_grad():
            net.origin[-1].weight.zero_()
            net.origin[-1].bias.copy_(torch.tensor([-palette, palette]))
            picks.append(net(obs)["grab_logits"][0, :2].argmax().item())
    assert picks == [0, 1]  # the palette's element, then the canvas one
    old = DragPolicyNet()
    assert "origin" not in {k.split(".")[0] for k in old.state_dict()}
    config = {k: v for k, v in old.config.items() if k != "origin"}  # as older files hold it
    torch.save({"config": config, "state": old.state_dict()}, tmp_path / "old.pt")
    assert DragPolicy.load(tmp_path / "old.pt").net.origin is None


def test_stack_heights_follow_a_column_of_touching_blocks():
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import stack_heights

    elements = [
        {"type": "block", "text": "when clicked", "x": 300, "y": 100, "w": 120, "h": 60},
        {"type": "block", "text": "move 10 steps", "x": 300, "y": 152, "w": 120, "h": 48},
        {"type": "block", "text": "say hi", "x": 300, "y": 192, "w": 90, "h": 48},
        {"type": "block", "text": "say far", "x": 300, "y": 400, "w": 90, "h": 48},  # apart
        {"type": "flyout_block", "text": "move 10 steps", "x": 20, "y": 100, "w": 120, "h": 48},
    ]
    heights = stack_heights(*_boxes_and_kinds(torch, elements))[0]
    assert heights[:5].round().tolist() == [140.0, 88.0, 48.0, 48.0, 48.0]


def test_rule_features_count_a_stack_on_the_canvas_only_and_flag_the_palette():
    """A palette block is new and drags alone: its stack height is 0 and ``grabbed_from_palette``
    is 1; a canvas block brings the blocks below it."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        OFFSET_PX,
        RULE_INPUTS,
        SCREEN,
        rule_features,
        stack_heights,
    )

    elements = [
        {"type": "flyout_block", "text": "move 10 steps", "x": 20, "y": 100, "w": 120, "h": 48},
        {"type": "block", "text": "when clicked", "x": 300, "y": 100, "w": 120, "h": 60},
        {"type": "block", "text": "move 10 steps", "x": 300, "y": 152, "w": 120, "h": 48},
    ]
    box, kinds = _boxes_and_kinds(torch, elements)
    size = box[..., 2:] * torch.as_tensor(SCREEN[2:]) / OFFSET_PX
    stack = stack_heights(box, kinds) / OFFSET_PX
    column = {name: i for i, name in enumerate(RULE_INPUTS)}
    palette = rule_features(size, stack, kinds, torch.tensor([0]))[0, 1] * OFFSET_PX
    canvas = rule_features(size, stack, kinds, torch.tensor([1]))[0, 2] * OFFSET_PX
    assert palette[column["grabbed_h"]].round() == 48 and palette[column["grabbed_stack_h"]] == 0
    assert palette[column["grabbed_from_palette"]] == OFFSET_PX
    assert canvas[column["grabbed_stack_h"]].round() == 100  # 'when clicked' and 'move' below
    assert canvas[column["grabbed_from_palette"]] == 0
    assert canvas[column["drop_h"]].round() == 48  # the drop element is 'move'


def test_a_fitted_rule_shares_the_weight_of_inputs_that_never_differ():
    """A reporter's height and its stack height are the same number in every demonstration: the
    fit must not give them huge opposite weights, or a scene where they differ sends the drop
    off the screen."""
    from scratch_gym.single_drag.training.policy import fit_linear_rule

    rng = np.random.default_rng(0)
    h = rng.uniform(0.2, 0.5, 200)
    x = np.stack([h, h + rng.normal(0, 1e-7, 200), np.ones(200)], 1)  # rounding-level noise
    y = (0.8 * h + 0.1 + rng.normal(0, 1e-3, 200))[:, None]  # demonstrations are noisy
    w = fit_linear_rule(x, y)
    assert np.allclose(w[:2, 0], [0.4, 0.4], atol=0.01) and np.isclose(w[2, 0], 0.1, atol=0.01)
    plain = np.linalg.lstsq(x, y, rcond=None)[0]
    assert np.abs(plain).max() > 10 * np.abs(w).max()  # what the plain fit would have done


def test_script_heads_follow_a_column_up_to_its_top_block_and_mark_the_end():
    """ "The end of the script that starts with 'A'": each canvas block knows its stack's top
    block (boxes reach into the next block by the notch) and whether it ends the stack."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import script_heads

    elements = [
        {"type": "block", "text": "when clicked", "x": 300, "y": 100, "w": 120, "h": 60},
        {"type": "block", "text": "move 10 steps", "x": 300, "y": 153, "w": 120, "h": 46},
        {"type": "block", "text": "say hi", "x": 300, "y": 192, "w": 90, "h": 46},
        {"type": "block", "text": "say far", "x": 300, "y": 400, "w": 90, "h": 46},  # apart
        {"type": "block", "text": "x position", "x": 340, "y": 160, "w": 60, "h": 30},  # in a slot
        {"type": "flyout_block", "text": "say hi", "x": 20, "y": 238, "w": 90, "h": 46},
    ]
    head, ends = script_heads(*_boxes_and_kinds(torch, elements))
    assert head[0, :6].tolist() == [0, 0, 0, 3, 4, 5]
    assert ends[0, :6].tolist() == [0.0, 0.0, 1.0, 1.0, 1.0, 0.0]


def test_slot_holders_give_each_input_its_block_and_its_place_in_it():
    """ "The second slot of 'A'": an input belongs to the smallest block around it, and is
    numbered among that block's inputs left to right; other elements are their own holders."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import slot_holders

    elements = [
        {"type": "block", "text": "go to x: y:", "x": 300, "y": 100, "w": 200, "h": 40},
        {"type": "input", "text": "5", "x": 420, "y": 106, "w": 30, "h": 28},
        {"type": "input", "text": "0", "x": 360, "y": 106, "w": 30, "h": 28},
        {"type": "block", "text": "say", "x": 300, "y": 300, "w": 200, "h": 40},
        {"type": "block", "text": "join", "x": 340, "y": 304, "w": 120, "h": 32},
        {"type": "input", "text": "apple", "x": 380, "y": 308, "w": 40, "h": 24},
    ]
    holder, rank = slot_holders(*_boxes_and_kinds(torch, elements))
    assert holder[0, :6].tolist() == [0, 0, 0, 3, 4, 4]  # the nested reporter holds its input
    assert rank[0, 1].argmax().item() == 1 and rank[0, 2].argmax().item() == 0
    assert rank[0, 5].argmax().item() == 0
    assert rank[0, [0, 3, 4]].sum().item() == 0.0


def test_layout_5_reads_which_slot_the_words_name():
    """ "The second input slot of 'A'", "the right operand of 'A'": an ordinal or a side just
    before "slot", "input" or "operand" names a slot; an ordinal before a quoted name names a
    block, not a slot."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import said_slot

    sentences = {
        "Fill the second input slot of the '+' block with 'size'.": 1,
        "Put 'mouse down?' into the left operand of the first '< > or < >' block.": 0,
        "Drop 'touching' in the right slot of '< > and < >'.": 1,
        "Connect 'size' in the third input of 'go to x: y:'.": 2,
        "Put the second 'move' block under the first 'say' block.": None,
        "Fill the slot of 'turn right degrees' with 'x position'.": None,
    }
    ins = torch.as_tensor(np.stack([tokens.encode(s, 64) for s in sentences]))
    said = said_slot(ins)
    for row, place in zip(said, sentences.values(), strict=True):
        if place is None:
            assert row.sum().item() == 0.0
        else:
            assert row.sum().item() == 1.0 and row.argmax().item() == place


def test_layout_6_reads_the_words_that_single_out_a_quoted_block():
    """An ordinal or a lone word just before a phrase's opening quote, and "on the left/right"
    just after its closing quote, are read for that phrase only; a slot's side ("the left slot
    of") and words further off are not."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import MAX_RANK, said_qualifiers

    sentences = {  # (first phrase, second phrase): the set columns
        "Put the second 'move' block under the first 'say' block.": ([1], [0]),
        "Drag the lone 'move' block under the 'say' block on the right.": ([MAX_RANK],
                                                                           [MAX_RANK + 2]),
        "Under the 'say' block on the left, put the ninth 'move' block.": ([MAX_RANK + 1], [8]),
        "Drop 'touching' in the left slot of 'and'.": ([], []),
        "Put 'move' on the canvas, then the left one under 'say'.": ([], []),
    }  # fmt: skip
    ins = torch.as_tensor(np.stack([tokens.encode(s, 64) for s in sentences]))
    for which in (1, 2):
        said = said_qualifiers(ins, which)
        for row, columns in zip(said, sentences.values(), strict=True):
            assert row.nonzero().flatten().tolist() == columns[which - 1]


def test_layout_6_meets_the_said_ordinal_side_and_loneness_with_each_element():
    """``phrase_qualifier_features``: "the second 'wait 1 seconds' block" singles out the right
    script's block (the second in script order), "on the left" the left script's (not the
    palette's twin, further left), "lone" the block in no script; and an ordinal is counted
    over the blocks showing the name by their own words as well, so "the second 'if <> then'"
    finds the second 'if' though the first one's condition holds a block (with its slots'
    words it matches the name less well). A layout-6 network runs on both scenes."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        DragPolicyNet,
        containers,
        header_children,
        match_features,
        phrase_masks,
        phrase_qualifier_features,
        script_heads,
        script_order,
    )

    def named(elements: list[dict], sentence: str) -> torch.Tensor:
        obs = _one_observation(torch, elements, sentence)
        box, kinds, ins = obs["element_box"], obs["element_type"], obs["instruction"]
        el_tok = obs["element_tokens"]
        container, where = containers(box, kinds)
        head, ends = script_heads(box, kinds)
        order = script_order(box, kinds, head, container)
        phrase = phrase_masks(ins)[2]
        with_slots = match_features(
            ins, phrase, el_tok, box, header_children(container, where), order
        )
        return phrase_qualifier_features(
            ins, 1, phrase, with_slots, el_tok, box, kinds, (head, ends, container), order
        )[0]

    wait = [
        {"type": "flyout_block", "text": "wait 1 seconds", "x": 20, "y": 120, "w": 120, "h": 40},
        {"type": "block", "text": "say hi", "x": 300, "y": 100, "w": 120, "h": 48},  # 1
        {"type": "block", "text": "wait 1 seconds", "x": 300, "y": 148, "w": 120, "h": 48},  # 2
        {"type": "block", "text": "wait 1 seconds", "x": 700, "y": 110, "w": 120, "h": 48},  # 3
        {"type": "block", "text": "wait 1 seconds", "x": 400, "y": 500, "w": 120, "h": 48},  # 4
        {"type": "block", "text": "hide", "x": 700, "y": 158, "w": 120, "h": 48},  # 5
    ]  # fmt: skip
    net = DragPolicyNet(layout=6, origin=True).eval()
    with torch.no_grad():
        out = net(_one_observation(torch, wait, "Put the second 'wait 1 seconds' block here."))
    assert out["grab_logits"].argmax(1).item() < len(wait)  # padding is never grabbed
    f = named(wait, "Put the second 'wait 1 seconds' block under 'say hi'.")
    assert f[:6, 0].tolist() == [0, 0, 0, 1, 0, 0] and f[:6, 1].tolist() == [0, 0, 0, 1, 0, 0]
    assert f[:6, 5:].tolist() == [[1, 0, 0]] * 6  # an ordinal is said
    f = named(wait, "Put the 'wait 1 seconds' block on the left under 'say hi'.")
    assert f[:6, 2].tolist() == [0, 0, 1, 0, 0, 0] and f[:6, :2].sum().item() == 0
    f = named(wait, "Put the lone 'wait 1 seconds' block under 'say hi'.")
    assert f[:6, 4].tolist() == [0, 0, 0, 0, 1, 0]
    f = named(wait, "Put the 'wait 1 seconds' block under 'say hi'.")
    assert f[:6].sum().item() == 0.0  # no qualifier said

    ifs = [
        {"type": "block", "text": "if then", "x": 300, "y": 100, "w": 200, "h": 120},  # 0
        {"type": "block", "text": "mouse down", "x": 330, "y": 104, "w": 90, "h": 24},  # 1
        {"type": "block", "text": "if then", "x": 300, "y": 400, "w": 200, "h": 120},  # 2
    ]  # fmt: skip
    with torch.no_grad():
        out = net(_one_observation(torch, ifs, "Put the second 'if <> then' block here."))
    assert out["grab_logits"].argmax(1).item() < len(ifs)
    f = named(ifs, "Put the second 'if <> then' block under 'hide'.")
    assert f[:3, 0].tolist() == [0, 0, 0]  # with its slots' words the first 'if' is no match
    assert f[:3, 1].tolist() == [0, 0, 1]  # by their own words both are: the second is 2


def test_layout_5_counts_filled_slots_and_places_a_later_empty_operand_by_the_block_size():
    """In "(x position) + ( )" the empty input is the second slot, as the grammar counts, once
    the reporter in the first slot counts (``slot_holders`` with ``children``). With the
    relation head sure of ``condition`` and only the ``later_slot_drop_w`` rule, a drop into
    "the second slot" of a block moves one block width right, into "the first slot" not at
    all: an empty operand, which has no element, is placed from the block's size."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        OFFSET_PX,
        RELATIONS,
        DragPolicyNet,
        containers,
        header_children,
        rule_inputs,
        slot_holders,
    )

    elements = [
        {"type": "block", "text": "+", "x": 300, "y": 100, "w": 150, "h": 40},
        {"type": "block", "text": "x position", "x": 306, "y": 104, "w": 60, "h": 32},
        {"type": "input", "text": "", "x": 400, "y": 106, "w": 30, "h": 28},
        {"type": "flyout_block", "text": "mouse down", "x": 20, "y": 200, "w": 110, "h": 32},
    ]
    box, kinds = _boxes_and_kinds(torch, elements)
    children = header_children(*containers(box, kinds))
    assert slot_holders(box, kinds)[1][0, 2].argmax().item() == 0  # inputs alone
    assert slot_holders(box, kinds, children)[1][0, 2].argmax().item() == 1

    net = DragPolicyNet(origin=True, layout=5).eval()
    condition = RELATIONS.index("condition")
    with torch.no_grad():
        net.drop_head[-1].weight.zero_()
        net.drop_head[-1].bias.zero_()
        net.relation[-1].weight.zero_()
        net.relation[-1].bias.copy_(torch.full((len(RELATIONS),), -50.0))
        net.relation[-1].bias[condition] = 50.0
        net.rules.zero_()
        net.rules[condition, rule_inputs(5).index("later_slot_drop_w"), 0] = 1.0
    offsets = []
    for ordinal in ("first", "second"):
        obs = _one_observation(torch, elements, f"Put 'mouse down' in the {ordinal} slot of '+'")
        out = net(obs, grab=torch.tensor([3]))
        offsets.append(out["drop_offset"][0, 0, 0].item() * OFFSET_PX)
    assert offsets[0] == pytest.approx(0.0, abs=1e-3)
    assert offsets[1] == pytest.approx(150.0, abs=0.05)


def test_the_drop_target_is_read_from_the_phrase_that_does_not_name_the_grabbed_block():
    """Sentences may name the target first ("Under 'A', put a new 'B'"): the cloning target's
    name is the quoted phrase that is not the grabbed block's, in either order."""
    pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import _target_overlap

    texts = encode_elements(
        [
            {"type": "flyout_block", "text": "wait until", "x": 20, "y": 100, "w": 90, "h": 40},
            {"type": "block", "text": "repeat until", "x": 300, "y": 100, "w": 90, "h": 80},
            {"type": "block", "text": "show variable score", "x": 300, "y": 140, "w": 90, "h": 40},
        ]
    )["element_tokens"]
    for sentence in (
        "Under the 'show variable score' block, snap a new 'wait until' block.",
        "Snap a new 'wait until' block under the 'show variable score' block.",
    ):
        named = _target_overlap(tokens.encode(sentence, 64), texts, grab=0)
        assert named[:3].argmax() == 2, sentence


def test_containers_find_the_first_block_of_each_mouth_and_only_the_c_rules_read_it():
    """A block inside a C-block's mouth knows its C-block, and the first block of the mouth is
    flagged (a drop "into the mouth" goes onto its corner); a block joined under it, a block
    under the C-block and a block nested one mouth deeper are told apart. Only the C relations'
    rules read the flag, and they see the size inputs only where it is 0."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        RELATIONS,
        RULE_INPUTS,
        RULE_INPUTS_C,
        containers,
        relation_rule_features,
    )

    elements = [
        {"type": "block", "text": "forever", "x": 300, "y": 100, "w": 200, "h": 260},  # 0
        {"type": "block", "text": "repeat 10", "x": 316, "y": 148, "w": 180, "h": 150},  # 1
        {"type": "block", "text": "move 10 steps", "x": 332, "y": 196, "w": 120, "h": 48},  # 2
        {"type": "block", "text": "turn 15 degrees", "x": 332, "y": 244, "w": 120, "h": 48},  # 3
        {"type": "block", "text": "say hello", "x": 300, "y": 360, "w": 120, "h": 48},  # 4
    ]
    box, kinds = _boxes_and_kinds(torch, elements)
    container, where = containers(box, kinds)
    assert container[0, :5].tolist() == [0, 0, 1, 1, 4]  # the smallest C-block around each
    assert where[0, :5, 0].tolist() == [0.0, 1.0, 1.0, 0.0, 0.0]  # first of its mouth
    assert where[0, 1, 1].item() == pytest.approx(0.48, abs=0.02)  # 48 px below its C's top

    k = box.shape[1]
    base = torch.rand(1, k, len(RULE_INPUTS))
    features = relation_rule_features(base, where[..., 0])
    assert features.shape == (1, k, len(RELATIONS), len(RULE_INPUTS_C))
    c_mouth, below = RELATIONS.index("c_mouth"), RELATIONS.index("below")
    assert torch.equal(features[0, 1, c_mouth, : len(RULE_INPUTS)], torch.zeros(len(RULE_INPUTS)))
    assert features[0, 1, c_mouth, len(RULE_INPUTS)] == 1.0
    assert torch.equal(features[0, 0, c_mouth, : len(RULE_INPUTS)], base[0, 0])
    assert torch.equal(features[0, 1, below, : len(RULE_INPUTS)], base[0, 1])
    assert features[0, :, below, len(RULE_INPUTS) :].abs().sum() == 0


def test_a_block_is_named_with_the_blocks_in_its_slots():
    """ "'if <touching (mouse-pointer v)?> then'" names the C-block that holds the condition,
    not the condition itself nor another 'if then' block: a block's words include those of the
    blocks in its header's slots (and not those of the blocks in its mouth)."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        containers,
        header_children,
        match_features,
    )

    elements = [
        {"type": "block", "text": "if then", "x": 300, "y": 100, "w": 260, "h": 140},  # 0
        {"type": "block", "text": "touching mouse-pointer ?", "x": 330, "y": 104,
         "w": 180, "h": 36},  # 1: in 0's condition slot
        {"type": "block", "text": "say touching", "x": 316, "y": 148, "w": 120, "h": 48},  # 2
        {"type": "block", "text": "if then", "x": 300, "y": 400, "w": 140, "h": 110},  # 3
    ]  # fmt: skip
    box, kinds = _boxes_and_kinds(torch, elements)
    container, where = containers(box, kinds)
    children = header_children(container, where)
    assert children[0, 0, :4].tolist() == [0.0, 1.0, 0.0, 0.0]  # the condition, not the mouth
    assert where[0, 1, 0] == 0 and where[0, 2, 0] == 1  # first of the mouth: 'say', not 1
    ins = torch.as_tensor(tokens.encode("Put it below 'if <touching (mouse-pointer v)?> then'", 64))
    quote = (ins[None] == tokens.QUOTE).long().cumsum(1)
    phrase = (quote == 1) & (ins[None] != tokens.QUOTE)
    el_tok = torch.as_tensor(encode_elements(elements)["element_tokens"])[None]
    plain = match_features(ins[None], phrase, el_tok, box)[0]
    joined = match_features(ins[None], phrase, el_tok, box, children)[0]
    assert plain[:4, 4].tolist() == [0.0, 1.0, 0.0, 0.0]  # alone, the condition matches best
    assert joined[:4, 4].tolist() == [1.0, 0.0, 0.0, 0.0]  # with its slots, the 'if' block


def test_layout_7_gives_a_slot_reporter_to_its_block_not_to_the_box_of_the_block_above():
    """A hat's box overlaps the top of the 'if' block joined under it, where the 'if' block's
    condition sits: the smallest box around the condition's corner is the hat's. With ``whole``
    (layout 7) a container holds the block's whole height, so the condition is the 'if'
    block's (its words join the 'if' block's name) and is not the first block of a mouth; the
    'if' block's mouth keeps its first block."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import DragPolicyNet, containers, header_children

    elements = [
        {"type": "block", "text": "when i receive go", "x": 300, "y": 80, "w": 175, "h": 70},  # 0
        {"type": "block", "text": "if then else", "x": 300, "y": 142, "w": 320, "h": 300},  # 1
        {"type": "block", "text": "key space pressed ?", "x": 347, "y": 146, "w": 226,
         "h": 39},  # 2: in 1's condition slot, its corner inside the hat's box
        {"type": "block", "text": "erase all", "x": 316, "y": 200, "w": 130, "h": 50},  # 3
    ]  # fmt: skip
    box, kinds = _boxes_and_kinds(torch, elements)
    container, where = containers(box, kinds)
    assert container[0, 2].item() == 0 and where[0, 2, 0] == 1.0  # the hat claims it
    container, where = containers(box, kinds, whole=True)
    assert container[0, :4].tolist() == [0, 1, 1, 1]
    assert where[0, :4, 0].tolist() == [0.0, 0.0, 0.0, 1.0]  # 'erase all' starts the mouth
    assert header_children(container, where)[0, 1, :4].tolist() == [0.0, 0.0, 1.0, 0.0]
    assert DragPolicyNet(layout=7).layout == 7


def test_layout_7_names_a_block_with_every_block_nested_in_its_slots():
    """'repeat until <not <touching (mouse-pointer v)?>>': with only the blocks directly in its
    slots the loop reads "repeat until not" and its 'not' "not touching mouse-pointer ?", the
    better match; with every nested block (``slot_descendants``) the loop matches the whole
    name."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        containers,
        header_children,
        match_features,
        slot_descendants,
    )

    elements = [
        {"type": "block", "text": "repeat until", "x": 300, "y": 100, "w": 300, "h": 120},  # 0
        {"type": "block", "text": "not", "x": 390, "y": 103, "w": 200, "h": 32},  # 1
        {"type": "block", "text": "touching mouse-pointer ?", "x": 420, "y": 106, "w": 150,
         "h": 26},  # 2
        {"type": "block", "text": "move 10 steps", "x": 316, "y": 150, "w": 120, "h": 40},  # 3
    ]  # fmt: skip
    box, kinds = _boxes_and_kinds(torch, elements)
    children = header_children(*containers(box, kinds, whole=True))
    nested = slot_descendants(children)
    assert children[0, 0, :4].tolist() == [0.0, 1.0, 0.0, 0.0]
    assert nested[0, 0, :4].tolist() == [0.0, 1.0, 1.0, 0.0]  # not the mouth's 'move'
    assert nested[0, 1, :4].tolist() == [0.0, 0.0, 1.0, 0.0]
    ins = torch.as_tensor(
        tokens.encode("In 'repeat until <not <touching (mouse-pointer v)?>>'", 64)
    )
    phrase = ((ins[None] == tokens.QUOTE).long().cumsum(1) == 1) & (ins[None] != tokens.QUOTE)
    el_tok = torch.as_tensor(encode_elements(elements)["element_tokens"])[None]
    best = match_features(ins[None], phrase, el_tok, box, children)[0, :4, 4].tolist()
    assert best == [0.0, 1.0, 0.0, 0.0]  # direct children only: the 'not' block
    best = match_features(ins[None], phrase, el_tok, box, nested)[0, :4, 4].tolist()
    assert best == [1.0, 0.0, 0.0, 0.0]  # every nested block: the loop


def test_layout_7_never_drops_the_grabbed_block_onto_what_it_carries():
    """Grabbing the reporter 'item (1) of [cards]' carries its own input: a layout-7 network
    never drops it there (a layout-6 one could), while another block's input stays a target;
    grabbing a lone hat does not carry the top of the stack that only touches its bottom."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import DragPolicyNet, carried

    elements = [
        {"type": "block", "text": "set pen size to 1", "x": 340, "y": 480, "w": 160, "h": 46},  # 0
        {"type": "input", "text": "1", "x": 465, "y": 490, "w": 29, "h": 23},  # 1
        {"type": "block", "text": "item 1 of cards", "x": 880, "y": 527, "w": 148, "h": 29},  # 2
        {"type": "input", "text": "1", "x": 916, "y": 530, "w": 29, "h": 23},  # 3
        {"type": "block", "text": "when flag clicked", "x": 560, "y": 200, "w": 100, "h": 45},  # 4
        {"type": "block", "text": "say hello", "x": 560, "y": 240, "w": 120, "h": 40},  # 5
    ]
    obs = _one_observation(
        torch, elements, "Fill the slot of 'set pen size to' with the 'item (1) of [cards]' block"
    )
    box = obs["element_box"]
    assert carried(box, torch.tensor([2]))[0, :6].tolist() == [0, 0, 1, 1, 0, 0]
    assert carried(box, torch.tensor([4]))[0, :6].tolist() == [0, 0, 0, 0, 1, 0]
    torch.manual_seed(0)
    for layout, reachable in ((6, True), (7, False)):
        net = DragPolicyNet(layout=layout).eval()
        with torch.no_grad():
            logits = net(obs, grab=torch.tensor([2]))["drop_logits"][0]
        assert (logits[3] > -1e30).item() is reachable, layout
        assert logits[1] > -1e30  # the other block's input stays a target


def test_the_press_point_moves_off_a_block_nested_in_the_grabbed_one():
    """A press on a reporter in the grabbed block's slot would drag that reporter: the point
    moves along its row to the nearest spot on the grabbed block's own surface ("not <A>": left
    of A; "<A> and <B>": between them), and so does the drop, by as much; a press on the block's
    own surface or on a shadow input stays where it is."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import OFFSET_PX, off_nested_blocks, points

    elements = [
        {"type": "block", "text": "not", "x": 652, "y": 117, "w": 204, "h": 30},  # 0
        {"type": "block", "text": "touching edge", "x": 683, "y": 120, "w": 168, "h": 25},  # 1
        {"type": "block", "text": "and", "x": 300, "y": 300, "w": 260, "h": 30},  # 2
        {"type": "block", "text": "mouse down", "x": 310, "y": 303, "w": 100, "h": 24},  # 3
        {"type": "block", "text": "key space pressed", "x": 440, "y": 303, "w": 110, "h": 24},  # 4
        {"type": "block", "text": "set pen size to 1", "x": 340, "y": 480, "w": 160, "h": 40},  # 5
        {"type": "input", "text": "1", "x": 465, "y": 488, "w": 29, "h": 23},  # 6
    ]
    box, kinds = _boxes_and_kinds(torch, elements)
    box, kinds = box.expand(5, -1, -1), kinds.expand(5, -1)
    grab = torch.tensor([0, 2, 0, 5, 1])
    start = torch.tensor([[700.0, 130], [400, 315], [660, 130], [475, 500], [700, 130]])
    moved = off_nested_blocks(box, kinds, grab, start)
    assert moved[0].tolist() == pytest.approx([678.0, 130])  # left of the nested block
    assert moved[1].tolist() == pytest.approx([415.0, 315])  # the nearer gap, between A and B
    assert moved[2:].tolist() == start[2:].tolist()  # its own surface, a shadow input, the child
    # through ``points``: offsets that press at ``start`` and drop onto block 5's corner
    origin = box[0, grab, :2] * torch.tensor([1280.0, 720.0])
    target = box[0, 5, :2] * torch.tensor([1280.0, 720.0])
    out = {"grab_offset": torch.zeros(5, 7, 2), "drop_offset": torch.zeros(5, 7, 2)}
    out["grab_offset"][torch.arange(5), grab] = (start - origin) / OFFSET_PX
    obs = {"element_box": box, "element_type": kinds}
    s, e = points(obs, out, grab, torch.full((5,), 5))
    assert torch.allclose(s, moved, atol=1e-3)
    assert torch.allclose(e, target + moved - origin, atol=1e-3)


def test_layout_8_reads_the_target_from_the_phrase_that_does_not_name_the_grabbed_block():
    """ "Fill the input slot of 'A' with 'B'" names the target first: a layout-8 drop head then
    reads the holder, script and mouth features from the first phrase (the inputs with the
    phrases' roles swapped), and from the second where the sentence names the grabbed block
    first, as the demonstrations' targets are labelled."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import DragPolicyNet, target_first

    elements = [
        {"type": "block", "text": "set pen size to 1", "x": 340, "y": 480, "w": 160, "h": 40},  # 0
        {"type": "input", "text": "1", "x": 465, "y": 488, "w": 29, "h": 23},  # 1
        {"type": "block", "text": "item 1 of cards", "x": 880, "y": 527, "w": 148, "h": 29},  # 2
        {"type": "input", "text": "1", "x": 916, "y": 530, "w": 29, "h": 23},  # 3
    ]
    sentences = {
        True: "Fill the input slot of the 'set pen size to' block with the 'item of cards' block",
        False: "Drag the 'item of cards' block into the input slot of the 'set pen size to' block",
    }
    torch.manual_seed(0)
    net = DragPolicyNet(layout=8).eval()
    grab = torch.tensor([2])
    for first, sentence in sentences.items():
        obs = _one_observation(torch, elements, sentence)
        with torch.no_grad():
            state = net.encode(obs)
            assert target_first(state["phrase_overlap"], grab).tolist() == [first]
            logits = net.drop(state, grab)["drop_logits"]
            unswapped = net.drop({**state, "target_first_inputs": None}, grab)["drop_logits"]
        assert torch.equal(logits, unswapped) is not first, sentence
    overlap = torch.tensor([[[0.5, 0.5], [0.0, 1.0]]])  # a tie keeps the second phrase
    assert target_first(overlap, torch.tensor([0])).tolist() == [False]


def test_ordinals_count_canvas_blocks_in_script_order_and_else_branches_are_told_apart():
    """With ``layout=2`` "the second 'wait' block" ranks canvas blocks as the grammar counts
    them: script by script (the left script's lower block before the right script's, though it
    sits lower on the screen), and never the palette's twin; the first block of an if-else's
    second mouth is flagged as such, and the C-block knows how many of its mouths hold blocks.
    A layout outside ``LAYOUTS`` is refused by name."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        MATCH_FEATURES,
        DragPolicyNet,
        containers,
        match_features,
        mouth_ranks,
        script_heads,
        script_order,
    )

    elements = [
        {"type": "flyout_block", "text": "wait 1 seconds", "x": 20, "y": 120, "w": 120, "h": 40},
        {"type": "block", "text": "say hi", "x": 300, "y": 100, "w": 120, "h": 48},  # 1
        {"type": "block", "text": "wait 1 seconds", "x": 300, "y": 148, "w": 120, "h": 48},  # 2
        {"type": "block", "text": "wait 1 seconds", "x": 600, "y": 110, "w": 120, "h": 48},  # 3
        {"type": "block", "text": "if then else", "x": 300, "y": 300, "w": 200, "h": 250},  # 4
        {"type": "block", "text": "show", "x": 316, "y": 348, "w": 100, "h": 48},  # 5
        {"type": "block", "text": "hide", "x": 316, "y": 450, "w": 100, "h": 48},  # 6
    ]  # fmt: skip
    obs = _one_observation(torch, elements, "Put it under the second 'wait 1 seconds' block")
    box, kinds, ins = obs["element_box"], obs["element_type"], obs["instruction"]
    container, where = containers(box, kinds)
    head, _ = script_heads(box, kinds)
    order = script_order(box, kinds, head, container)
    assert order[1][0, :7].tolist() == [True] + [False] * 6  # only the flyout block
    phrase = ((ins == tokens.QUOTE).long().cumsum(1) == 1) & (ins != tokens.QUOTE)
    el_tok = obs["element_tokens"]
    by_screen = match_features(ins, phrase, el_tok, box)[0, :4, MATCH_FEATURES:]
    by_script = match_features(ins, phrase, el_tok, box, order=order)[0, :4, MATCH_FEATURES:]
    # by the screen alone the right script's block reads first and the palette's twin second
    assert by_screen.argmax(-1).tolist()[:4] == [1, 0, 2, 0]
    assert by_script.argmax(-1).tolist()[:4] == [0, 0, 0, 1]  # the left script's, the right's
    ranks = mouth_ranks(container, where, box)[0]
    assert ranks[4:7, 0].tolist() == [0.0, 0.0, 1.0]  # 'hide' starts the else branch
    assert ranks[4, 1].item() == 1.0 and ranks[1, 1].item() == 0.0  # both mouths hold blocks
    with pytest.raises(
        ValueError, match=r"layout must be one of \(1, 2, 3, 4, 5, 6, 7, 8\), got 9"
    ):
        DragPolicyNet(layout=9)


# an if-else whose else branch holds 'hide', one whose first mouth holds 'show', and a plain 'if'
# holding 'say hi'
IF_ELSE_SCENE = [
    {"type": "block", "text": "if then else", "x": 100, "y": 100, "w": 200, "h": 220},  # 0
    {"type": "block", "text": "hide", "x": 116, "y": 220, "w": 100, "h": 48},  # 1: else
    {"type": "block", "text": "if then else", "x": 400, "y": 100, "w": 200, "h": 220},  # 2
    {"type": "block", "text": "show", "x": 416, "y": 148, "w": 100, "h": 48},  # 3: first
    {"type": "block", "text": "if then", "x": 700, "y": 100, "w": 200, "h": 124},  # 4
    {"type": "block", "text": "say hi", "x": 716, "y": 148, "w": 100, "h": 48},  # 5
]  # fmt: skip


def test_an_if_else_with_one_filled_mouth_tells_which_mouth_holds_the_blocks():
    """``else_mouths`` (``layout=3``) reads from the geometry which mouth of an if-else a lone
    filled mouth is: a stack nearer the C-block's bottom starts the else branch, one nearer its
    top the first mouth; the C-block says which of its mouths hold blocks. A plain 'if' block's
    mouth is never an else branch, and a layout-3 network runs on such a scene."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        DragPolicyNet,
        containers,
        else_mouths,
        mouth_ranks,
        stack_heights,
    )

    obs = _one_observation(torch, IF_ELSE_SCENE, "Put it into the else branch of 'if then else'")
    box, kinds = obs["element_box"], obs["element_type"]
    container, where = containers(box, kinds)
    assert container[0, :6].tolist() == [0, 0, 2, 2, 4, 4]
    # one first block per C-block: by order alone, none of them starts a second mouth
    assert mouth_ranks(container, where, box)[0, :6, 0].tolist() == [0.0] * 6
    stack = stack_heights(box, kinds)
    mouths = else_mouths(container, where, box, kinds, obs["element_tokens"], stack)[0]
    assert mouths[:6, 0].tolist() == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]  # 'hide' starts the else
    assert mouths[0, 1:].tolist() == [0.0, 1.0]  # first mouth empty, else branch filled
    assert mouths[2, 1:].tolist() == [1.0, 0.0]  # first mouth filled, else branch empty
    assert mouths[4, 1:].tolist() == [0.0, 0.0]  # a plain 'if': no if-else mouths
    net = DragPolicyNet(layout=3).eval()
    with torch.no_grad():
        out = net(obs)
    assert out["drop_logits"].shape == out["grab_logits"].shape


def test_the_lone_block_and_the_scripts_side_are_read_for_equally_named_blocks():
    """``qualifier_features`` (``layout=3``): of three 'move (10) steps' blocks, the one in no
    script is the lone one, and of the equally best matches the left script's block is the
    leftmost and the right script's the rightmost, though it sits lower; a block matching
    alone is neither."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        containers,
        match_features,
        qualifier_features,
        script_heads,
    )

    elements = [
        {"type": "block", "text": "when flag clicked", "x": 100, "y": 100, "w": 120, "h": 64},  # 0
        {"type": "block", "text": "move 10 steps", "x": 100, "y": 164, "w": 120, "h": 48},  # 1
        {"type": "block", "text": "move 10 steps", "x": 400, "y": 300, "w": 120, "h": 48},  # 2
        {"type": "block", "text": "when this sprite clicked", "x": 700, "y": 100, "w": 150,
         "h": 64},  # 3
        {"type": "block", "text": "say hi", "x": 700, "y": 164, "w": 120, "h": 48},  # 4
        {"type": "block", "text": "move 10 steps", "x": 700, "y": 212, "w": 120, "h": 48},  # 5
    ]  # fmt: skip
    obs = _one_observation(torch, elements, "Drag the lone 'move 10 steps' block under 'say hi'")
    box, kinds, ins = obs["element_box"], obs["element_type"], obs["instruction"]
    container, where = containers(box, kinds)
    head, ends = script_heads(box, kinds)
    segment = (ins == tokens.QUOTE).long().cumsum(1)
    word = (ins != tokens.QUOTE) & (ins != tokens.PAD)
    for phrase, lone_left_right in (
        (word & (segment == 1), ([0, 0, 1, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1])),
        (word & (segment == 3), ([0, 0, 1, 0, 0, 0], [0] * 6, [0] * 6)),  # 'say hi' alone
    ):
        features = match_features(ins, phrase, obs["element_tokens"], box)
        q = qualifier_features(features, box, kinds, head, ends, container)[0, :6]
        assert [q[:, i].tolist() for i in range(3)] == [
            [float(v) for v in row] for row in lone_left_right
        ]


def test_a_layout_4_drop_into_a_mouth_is_placed_on_the_mouths_first_block_when_it_holds_one():
    """``layout=4``: the drop head picks the C-block a drop into its mouth names, and
    ``placed`` moves the drop onto the first block of that mouth (the first for "c_mouth", the
    else branch for "else") where the mouth holds blocks; an empty mouth, another relation or
    a block with no mouth keeps the picked element."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        RELATIONS,
        DragPolicyNet,
        containers,
        else_mouths,
        mouth_blocks,
        placed,
        points,
        stack_heights,
    )

    elements = [
        *IF_ELSE_SCENE,
        {"type": "flyout_block", "text": "wait 1 seconds", "x": 20, "y": 100, "w": 120, "h": 40},
    ]  # fmt: skip
    obs = _one_observation(torch, elements, "Put 'wait' into the mouth of 'if then'")
    box, kinds = obs["element_box"], obs["element_type"]
    container, where = containers(box, kinds)
    mouths = else_mouths(
        container, where, box, kinds, obs["element_tokens"], stack_heights(box, kinds)
    )
    blocks = mouth_blocks(container, where, mouths[..., 0])
    assert blocks[0, :6].tolist() == [[0, 1], [1, 1], [3, 2], [3, 3], [5, 4], [5, 5]]

    cases = [  # (picked, relation, placed on)
        (0, "c_mouth", 0), (0, "else", 1), (2, "c_mouth", 3), (2, "else", 2),
        (4, "c_mouth", 5), (4, "below", 4), (1, "else", 1),
    ]  # fmt: skip
    n = len(cases)
    logits = torch.full((n, len(RELATIONS)), -9.0)
    for row, (_, relation, _) in enumerate(cases):
        logits[row, RELATIONS.index(relation)] = 9.0
    out = {"mouth_blocks": blocks.expand(n, -1, -1), "relation_logits": logits}
    picked = torch.tensor([c[0] for c in cases])
    assert placed(out, picked).tolist() == [c[2] for c in cases]
    assert placed({"relation_logits": logits}, picked).tolist() == picked.tolist()  # layout 3

    net = DragPolicyNet(layout=4).eval()
    with torch.no_grad():
        out = net(obs, grab=torch.tensor([6]))
        out["relation_logits"] = logits[4:5]  # c_mouth
        out["drop_offset"] = torch.zeros_like(out["drop_offset"])
        _, end = points(obs, out, torch.tensor([6]), torch.tensor([4]))
    px = box[0, 5, :2] * torch.tensor([1280.0, 720.0])
    assert torch.allclose(end[0], px + (out["grab_offset"][0, 6] * 100.0), atol=1e-3)


def test_a_drop_outside_the_workspace_is_moved_just_inside_it():
    """Blockly reverts a drop whose pointer is off the workspace and deletes one over the
    palette: such drops go to the nearest point a margin inside the canvas element's box, right
    of the palette; drops inside, and rows without a canvas element, keep their point."""
    torch = pytest.importorskip("torch")
    from scratch_gym.single_drag.training.policy import (
        PALETTE_RIGHT,
        WORKSPACE_MARGIN,
        inside_workspace,
    )

    canvas = [{"type": "canvas", "text": "", "x": 1, "y": 93, "w": 782, "h": 628}]
    box, kinds = _boxes_and_kinds(torch, canvas)
    box, kinds = box.expand(5, -1, -1), kinds.clone().expand(5, -1).clone()
    kinds[4] = 0  # no canvas element in this row
    end = torch.tensor([[500.0, 60], [200, 400], [900, 730], [500, 400], [500, 60]])
    moved = inside_workspace(box, kinds, end)
    m = WORKSPACE_MARGIN
    assert moved[0].tolist() == pytest.approx([500, 93 + m])  # above the canvas
    assert moved[1].tolist() == pytest.approx([PALETTE_RIGHT + m, 400])  # over the palette
    assert moved[2].tolist() == pytest.approx([783 - m, 721 - m])  # past the corner
    assert moved[3:].tolist() == end[3:].tolist()  # inside; no canvas element
