"""A learnable drag policy for the ``elements`` observation and the ``grid`` action (torch).

The network matches the instruction's quoted phrases to the element list (each element's text
tokens, type and box; no order is assumed): pointer heads pick the element to grab and the
element to drop on, offset heads place the grab point on the first and the connection point on
the second. The drop is the connection point plus the grab's offset from the
grabbed element's corner (a block moves rigidly with the pointer). Actions are the grid cells
of the two points, so the policy acts in the real editor's ``ScratchWorld-SingleDragElements-v0``
exactly as on the fast path.

Trained by behaviour cloning from captured tasks (``bc_targets``: the grab anchor of the
feasible start region and the drop that aligns the intended connections, checked with the drag
model), then fine-tuned by policy gradient on the fast vector env (``examples/
train_drag_policy.py``). Needs the ``rl`` extra (torch).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from scratch_gym.editor.page import VIEWPORT
from scratch_gym.observations.elements import ELEMENT_TYPES
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.drag_model import simulate
from scratch_gym.single_drag.fast.pool import Pool
from scratch_gym.single_drag.feasible.geometric import CANVAS_X
from scratch_gym.single_drag.generation.grammar import LONE, ORDINALS
from scratch_gym.single_drag.rl_spaces import batched_elements, grid_cells
from scratch_gym.single_drag.tasks.kinds import RELATION_KINDS, relation_kind
from scratch_gym.single_drag.training.heuristic import overlaps

WEIGHTS = Path(__file__).resolve().parent / "weights"
OFFSET_PX = 100.0  # offsets are predicted in units of 100 px
SCREEN = np.array([*VIEWPORT, *VIEWPORT], np.float32)
GRABBABLE = {1 + ELEMENT_TYPES.index(t) for t in ("block", "flyout_block")}
DROPPABLE = {1 + ELEMENT_TYPES.index(t) for t in ("block", "input", "dropdown")}
SLOTS = {1 + ELEMENT_TYPES.index(t) for t in ("input", "dropdown")}  # a block's editable inputs
BLOCK = 1 + ELEMENT_TYPES.index("block")
CANVAS = 1 + ELEMENT_TYPES.index("canvas")
PALETTE_RIGHT = CANVAS_X[0]  # drops left of this (the palette, the category menu) delete
WORKSPACE_MARGIN = 6.0  # px a moved drop keeps inside the workspace's edges (grid cells too)


RELATIONS = RELATION_KINDS
# what each relation's geometric rule reads, in OFFSET_PX units (see ``rule_features``)
RULE_INPUTS = (
    "drop_w", "drop_h", "grabbed_w", "grabbed_h", "grabbed_stack_h", "grabbed_from_palette", "one",
)  # fmt: skip
# the C relations read two more inputs: whether the drop element is the first block inside a
# mouth (then the grabbed corner goes onto its corner), and that for a block from the palette
MOUTH_RELATIONS = ("c_mouth", "else")
RULE_INPUTS_MOUTH = ("first_in_mouth", "first_in_mouth_from_palette")
RULE_INPUTS_C = (*RULE_INPUTS, *RULE_INPUTS_MOUTH)
# layout 5 on: the slot the words name past the first ("the second slot of 'A'", "the right
# operand of 'A'"), alone and times the drop element's size: an empty boolean operand has no
# element of its own, so its place inside the 'and'/'or' block is read from the block's size
RULE_INPUTS_SAID = ("later_slot_drop_w", "later_slot_drop_h", "later_slot")
FLYOUT_BLOCK = 1 + ELEMENT_TYPES.index("flyout_block")
RULE_RCOND = 1e-3  # singular values below this share of the largest are dropped from the fit
MATCH_FEATURES = 7  # per element and phrase, see ``match_features``
MAX_RANK = 9  # ordinals the grammar writes: first .. ninth
HEADER_PX = 10.0  # a block this close below its container's top sits in a slot, not a mouth
# how the network reads the scene's layout: 1 ranks ordinals in screen order over every
# element; 2 ranks them in script order on the element's own side (``script_order``) and tells
# which mouth of a C-block a block starts (``mouth_ranks``); 3 also tells an if-else's mouths
# apart by the geometry when only one of them holds blocks (``else_mouths``) and reads the
# grammar's qualifiers "lone" and "on the left/right" (``qualifier_features``); 4 also picks
# the C-block itself for a drop into one of its mouths, and the drop is placed on the mouth's
# first block by the geometry when the mouth holds blocks (``mouth_blocks``); 5 also reads which
# slot the words name ("the second input of 'A'": ``said_slot``), ranks an input among its
# block's slots counting the filled ones (``slot_holders`` with ``children``), and places a drop
# into a later empty operand by the drop block's size (``RULE_INPUTS_SAID``); 6 also reads the
# words that qualify each quoted block ("the second 'A' block", "the lone 'A' block", "the 'A'
# block on the left": ``said_qualifiers``) and meets them with each element's rank, loneness and
# side, counted both over the elements that match the name with the words of the blocks in
# their slots and over those that match it by their own words (``phrase_qualifier_features``),
# and its grab head also reads how each element matches the second quoted phrase; 7 also finds
# each block's container only among the blocks that hold its whole height (``containers`` with
# ``whole``), so the box of the block above (a hat's, or a block's bottom tab) no longer claims
# a reporter in the next block's slot, which hid that block's slot words from the name matching,
# names a block with the words of every block nested in its slots, not only the outermost ones
# (``slot_descendants``: "'repeat until <not <touching color?>>'" names the loop, not its 'not'),
# and never drops the grabbed block onto itself or what it carries (``carried``: its slots and
# mouths); 8 also reads the drop's target from the quoted phrase that does not name the grabbed
# block, whichever comes first (``target_first``): the features of an input's holder, a block's
# script and its mouth were read from the second phrase only, so in "Fill the input slot of 'A'
# with 'B'" nothing tied A's input to A
LAYOUTS = (1, 2, 3, 4, 5, 6, 7, 8)
ELSE = tokens.word_id("else")  # an if-else's label reads "if then else"
SLOT_WORDS = tuple(tokens.word_id(w) for w in ("slot", "input", "operand"))
ORDINAL_WORDS = tuple(tokens.word_id(w) for w in ORDINALS[:MAX_RANK])  # first .. ninth
LONE_WORDS = tuple(tokens.word_id(w) for w in LONE)
SIDE_WORDS = (tokens.word_id("left"), tokens.word_id("right"))
ON, THE = tokens.word_id("on"), tokens.word_id("the")
SAID_QUALIFIERS = MAX_RANK + 3  # per phrase: the ordinal (one-hot), "lone", "left", "right"
NAMED_QUALIFIER_FEATURES = 8  # per element and phrase, see ``named_qualifier_features``
# the words that name a slot's place, as the grammar writes them: ordinals, and the two sides
SLOT_PLACES = {
    **{word: i for i, word in enumerate(ORDINAL_WORDS)},
    tokens.word_id("left"): 0,
    tokens.word_id("right"): 1,
}


def rule_inputs(layout: int) -> tuple[str, ...]:
    """The names of what each relation's rule reads (``relation_rule_features``'s columns)."""
    return (*RULE_INPUTS, *(RULE_INPUTS_SAID if layout >= 5 else ()), *RULE_INPUTS_MOUTH)


def match_features(
    ins: torch.Tensor,
    phrase: torch.Tensor,
    el_tok: torch.Tensor,
    box: torch.Tensor,
    children: torch.Tensor | None = None,
    order: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> torch.Tensor:
    """How each element's text matches one phrase of the instruction, from token identity only
    (so a word never seen in training, hashed to the same id on both sides, matches as well as
    a known one; numbers count as words, so "repeat (-11)" matches the block showing -11): the
    share of the element's words in the phrase, of the phrase's words in the element, their
    Jaccard overlap, whether an unknown (hashed) word or a number is shared, whether this is the
    best overlap in the scene, where in the instruction its first shared word stands (0 the
    start, 1 the end or nowhere), and, among equally best elements, the reading-order rank (top
    to bottom, then left to right) one-hot. With ``children`` ((B, K, K), ``header_children``)
    a block's words include those of the blocks in its slots: "'if <touching (mouse-pointer v)?>
    then'" names the C-block, not the condition inside it. With ``order`` (``script_order``:
    a sort key and the palette side per element) the rank counts the equally best elements on
    the element's own side (canvas or palette) that come before it in script order, as the
    grammar's ordinals do. Returns (B, K, MATCH_FEATURES + MAX_RANK).
    """
    content = (ins != tokens.PAD) & (ins != tokens.QUOTE) & (ins != tokens.NUM)  # NUM: a colour
    p_mask = phrase & content  # (B, L)
    e_mask = (el_tok != tokens.PAD) & (el_tok != tokens.NUM)  # (B, K, T)
    same = el_tok[..., :, None] == ins[:, None, None, :]  # (B, K, T, L)
    same = same & e_mask[..., None] & p_mask[:, None, None, :]
    e_in_p = same.any(-1).float().sum(-1)  # element words found in the phrase
    hit = same.any(-2)  # (B, K, L): instruction positions the element's words match
    p_in_e = hit.float().sum(-1)  # phrase words found in the element
    length = ins.shape[1]
    position = torch.arange(length, device=ins.device).expand_as(hit)
    first = torch.where(hit, position, length).min(-1).values.float() / length
    n_e = e_mask.float().sum(-1)
    hashed = (same & (el_tok >= len(tokens.vocabulary()))[..., None]).flatten(-2).any(-1).float()
    if children is not None:  # add the words of the blocks in each block's slots
        hit = hit | (torch.bmm(children, hit.float()) > 0)
        p_in_e = hit.float().sum(-1)
        first = torch.where(hit, position, length).min(-1).values.float() / length
        e_in_p = e_in_p + torch.bmm(children, e_in_p[..., None])[..., 0]
        n_e = n_e + torch.bmm(children, n_e[..., None])[..., 0]
        hashed = torch.maximum(hashed, (torch.bmm(children, hashed[..., None])[..., 0] > 0).float())
    n_p = p_mask.float().sum(-1, keepdim=True)
    share_e = e_in_p / n_e.clamp(min=1)
    share_p = p_in_e / n_p.clamp(min=1)
    jaccard = p_in_e / (n_e + n_p - p_in_e).clamp(min=1)
    score = jaccard + 0.001 * share_p  # ties broken by covering more of the phrase
    best = (score >= score.max(1, keepdim=True).values - 1e-6) & (score > 0)
    if order is None:
        y, x = box[..., 1], box[..., 0]
        earlier = (y[:, None, :] < y[:, :, None] - 1e-4) | (
            ((y[:, None, :] - y[:, :, None]).abs() <= 1e-4) & (x[:, None, :] < x[:, :, None])
        )  # [b, i, j]: j reads before i
    else:
        key, palette = order
        earlier = (key[:, None, :] < key[:, :, None]) & (palette[:, None, :] == palette[:, :, None])
    rank = (earlier & best[:, None, :]).sum(-1).clamp(max=MAX_RANK - 1)
    ranks = nn.functional.one_hot(rank, MAX_RANK).float() * best[..., None].float()
    return torch.cat(
        [torch.stack([share_e, share_p.expand_as(share_e), jaccard, hashed, best.float(),
                      (n_e > 0).float(), first], -1), ranks], -1,
    )  # fmt: skip


def stack_heights(box: torch.Tensor, kinds: torch.Tensor, steps: int = 12) -> torch.Tensor:
    """(B, K) in px: the height of the stack each canvas block heads, read from the element
    boxes (the blocks below it in its column, each starting where the one above ends; up to
    ``steps`` blocks), else the element's own height. Dragging a block drags its stack, so a
    drop above another stack is placed by this height."""
    px = box.float() * torch.as_tensor(SCREEN)
    x, y, h = px[..., 0], px[..., 1], px[..., 3]
    block = kinds == 1 + ELEMENT_TYPES.index("block")
    column = ((x[:, None, :] - x[:, :, None]).abs() < 3) & (y[:, None, :] > y[:, :, None] + 1)
    column = column & block[:, None, :] & block[:, :, None]  # [b, i, j]: j below i, same column
    bottom = y + h
    ends = (y + h)[:, None, :].expand_as(column)
    for _ in range(steps):
        joined = column & (y[:, None, :] <= bottom[:, :, None] + 4)
        bottom = torch.maximum(bottom, torch.where(joined, ends, bottom[:, :, None]).amax(-1))
    return bottom - y


def centres_inside(box: torch.Tensor) -> torch.Tensor:
    """(B, K, K) True at [b, i, j] where element i's centre lies in element j's box."""
    x, y, w, h = box.float().unbind(-1)
    cx, cy = x + w / 2, y + h / 2
    inside = (x[:, None, :] <= cx[:, :, None]) & (cx[:, :, None] <= (x + w)[:, None, :])
    return inside & (y[:, None, :] <= cy[:, :, None]) & (cy[:, :, None] <= (y + h)[:, None, :])


def slot_holders(
    box: torch.Tensor, kinds: torch.Tensor, children: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Which block each input belongs to, from the boxes alone: (B, K) the index of the smallest
    canvas block whose box holds the input's centre (every other element: itself), and (B, K,
    MAX_RANK) the input's place among its block's inputs, left to right, one-hot (zero for
    other elements). "The second slot of 'A'" names an input by both. With ``children``
    ((B, K, K), ``header_children``) the blocks sitting in the holder's slots count as slots
    too: in "(mouse x) + ( )" the empty input is the second slot, as the grammar counts."""
    x, y, w, h = box.float().unbind(-1)
    slot = torch.zeros_like(kinds, dtype=torch.bool)
    for kind in SLOTS:
        slot |= kinds == kind
    inside = centres_inside(box) & (kinds == BLOCK)[:, None, :]  # i's centre lies in block j
    area = (w * h)[:, None, :].expand_as(inside).masked_fill(~inside, float("inf"))
    held = inside.any(-1) & slot
    own = torch.arange(kinds.shape[1], device=kinds.device).expand_as(kinds)
    holder = torch.where(held, area.argmin(-1), own)
    siblings = held[:, None, :] & held[:, :, None] & (holder[:, None, :] == holder[:, :, None])
    before = (x[:, None, :] < x[:, :, None] - 1e-4) | (
        ((x[:, None, :] - x[:, :, None]).abs() <= 1e-4) & (y[:, None, :] < y[:, :, None])
    )  # [b, i, j]: j comes before i
    if children is not None:  # [b, i, j]: block j fills a slot of input i's holder
        filled = torch.gather(children, 1, holder[..., None].expand_as(children)) > 0
        siblings = siblings | (filled & held[..., None])
    rank = (siblings & before).sum(-1).clamp(max=MAX_RANK - 1)
    return holder, nn.functional.one_hot(rank, MAX_RANK).float() * held[..., None].float()


def said_slot(ins: torch.Tensor) -> torch.Tensor:
    """(B, MAX_RANK) which slot of the target block the words outside the quotes name, one-hot
    (all zero where none is named): an ordinal or a side just before "slot", "input" or
    "operand" ("the second input slot of", "the right operand of"; not "the second 'A'
    block", which names a block)."""
    segment = phrase_masks(ins)[0]
    outside = segment % 2 == 0
    following = torch.cat([ins[:, 1:], torch.full_like(ins[:, :1], tokens.PAD)], 1)
    before_slot = torch.zeros_like(outside)
    for word in SLOT_WORDS:
        before_slot |= following == word
    said = torch.zeros((ins.shape[0], MAX_RANK), dtype=torch.float32, device=ins.device)
    for word, place in SLOT_PLACES.items():
        said[:, place] += ((ins == word) & outside & before_slot).any(1).float()
    return said.clamp(max=1.0)


def _shifted(ins: torch.Tensor, k: int) -> torch.Tensor:
    """(B, L) the token ``k`` places later (``k`` < 0: earlier) at each position, PAD past the ends."""
    pad = torch.full_like(ins[:, : abs(k)], tokens.PAD)
    return torch.cat([ins[:, k:], pad], 1) if k > 0 else torch.cat([pad, ins[:, :k]], 1)


def said_qualifiers(ins: torch.Tensor, which: int) -> torch.Tensor:
    """(B, ``SAID_QUALIFIERS``) what the words around quoted phrase ``which`` (1: the first, 2:
    the second) say to single out one of several blocks of that name, as the grammar writes
    it: an ordinal just before its opening quote ("the second 'A' block"), one-hot; a lone word
    there ("the lone 'A' block"); and "on the left" or "on the right" just after its closing
    quote ("the 'A' block on the left"). All zero where the words say none of these."""
    quote = ins == tokens.QUOTE
    count = quote.long().cumsum(1)
    opening, closing = quote & (count == 2 * which - 1), quote & (count == 2 * which)
    before = _shifted(ins, -1)
    out = torch.zeros((ins.shape[0], SAID_QUALIFIERS), dtype=torch.float32, device=ins.device)
    for place, word in enumerate(ORDINAL_WORDS):
        out[:, place] = (opening & (before == word)).any(1).float()
    lone = torch.zeros_like(opening)
    for word in LONE_WORDS:
        lone |= opening & (before == word)
    out[:, MAX_RANK] = lone.any(1).float()
    after = {k: _shifted(ins, k) for k in range(1, 5)}
    # where the side word stands: "' on the left" (after[3]), "' block on the left" (after[4])
    side_at = [
        (closing & (after[skip] == ON) & (after[skip + 1] == THE), after[skip + 2])
        for skip in (1, 2)
    ]  # fmt: skip
    for column, side in enumerate(SIDE_WORDS, MAX_RANK + 1):
        said = torch.zeros_like(closing)
        for on_the, word in side_at:
            said |= on_the & (word == side)
        out[:, column] = said.any(1).float()
    return out


def named_qualifier_features(
    said: torch.Tensor,
    with_slots: torch.Tensor,
    own_words: torch.Tensor,
    qualifiers_with_slots: torch.Tensor,
    qualifiers_own_words: torch.Tensor,
) -> torch.Tensor:
    """(B, K, ``NAMED_QUALIFIER_FEATURES``) the words' qualifiers of one phrase (``said``, from
    ``said_qualifiers``) met with each element: whether its rank among the equally best
    matches is the said ordinal, and whether its script's side is the said side, each counted
    both over the matches by the element's words with those of the blocks in its slots
    (``with_slots``, ``match_features`` with ``children``) and by its own words (``own_words``:
    the grammar's ordinals count every block showing the bare label, whatever fills its slots);
    whether it is lone where the words say lone; and whether the words say an ordinal, a side,
    "lone". ``qualifiers_*``: ``qualifier_features`` of ``with_slots`` and of ``own_words``."""
    rank = said[:, None, :MAX_RANK]
    lone, left, right = (said[:, None, MAX_RANK + i] for i in range(3))
    columns = []
    for features in (with_slots, own_words):
        columns.append((features[..., MATCH_FEATURES:] * rank).sum(-1))
    for q in (qualifiers_with_slots, qualifiers_own_words):
        columns.append(q[..., 1] * left + q[..., 2] * right)
    best = torch.maximum(with_slots[..., 4], own_words[..., 4])
    columns.append(qualifiers_with_slots[..., 0] * best * lone)
    columns += [
        rank.sum(-1).expand_as(best),
        (left + right).expand_as(best),
        lone.expand_as(best),
    ]  # fmt: skip
    return torch.stack(columns, -1)


def phrase_qualifier_features(
    ins: torch.Tensor,
    which: int,
    phrase: torch.Tensor,
    with_slots: torch.Tensor,
    el_tok: torch.Tensor,
    box: torch.Tensor,
    kinds: torch.Tensor,
    scripts: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    order: tuple[torch.Tensor, torch.Tensor] | None,
) -> torch.Tensor:
    """``named_qualifier_features`` of quoted phrase ``which`` (1 or 2; ``phrase``: its word
    mask, ``with_slots``: its ``match_features`` with ``header_children``) for layout 6, its
    sides compared over canvas blocks only, as the grammar compares them; ``scripts``:
    ``script_heads`` and the container of ``containers``."""
    own_words = match_features(ins, phrase, el_tok, box, order=order)
    head, ends, container = scripts
    palette = (kinds == FLYOUT_BLOCK) if order is None else order[1]
    qualifiers = []
    for features in (with_slots, own_words):  # sides compare canvas blocks, as the grammar
        on_canvas = features.clone()
        on_canvas[..., 4] *= (~palette).float()
        qualifiers.append(qualifier_features(on_canvas, box, kinds, head, ends, container))
    said = said_qualifiers(ins, which)
    return named_qualifier_features(said, with_slots, own_words, *qualifiers)


def script_heads(
    box: torch.Tensor, kinds: torch.Tensor, steps: int = 12
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each canvas block's script, from the boxes alone: (B, K) the index of the top block of
    its stack (blocks joined one under another in one column; up to ``steps`` up; every other
    element: itself), and (B, K) 1.0 where the block ends its stack (nothing joined under it).
    "The end of the script that starts with 'A'" names a block by both."""
    x, y, h = box[..., 0].float(), box[..., 1].float(), box[..., 3].float()
    block = kinds == BLOCK
    gap = y[:, :, None] - (y + h)[:, None, :]  # [b, i, j]: i's top below j's bottom
    under = ((x[:, None, :] - x[:, :, None]).abs() < 3.0 / float(SCREEN[0])) & (
        (gap >= -12.0 / float(SCREEN[1])) & (gap <= 4.0 / float(SCREEN[1]))
    )  # [b, i, j]: i joins under j (a block's box reaches into the next's by its notch)
    under &= block[:, None, :] & block[:, :, None]
    under &= ~torch.eye(kinds.shape[1], dtype=torch.bool, device=kinds.device)[None]
    own = torch.arange(kinds.shape[1], device=kinds.device).expand_as(kinds)
    parent = torch.where(under.any(-1), under.float().argmax(-1), own)
    head = own
    for _ in range(steps):
        head = torch.gather(parent, 1, head)
    ends = block & ~under.any(1)
    return head, ends.float()


def script_roots(head: torch.Tensor, container: torch.Tensor) -> torch.Tensor:
    """(B, K) the top block of each element's top-level script, from ``script_heads`` and
    ``containers``: out of a mouth or slot, up to the top of that script, nested 6 deep."""
    root = head
    for _ in range(6):
        root = torch.gather(head, 1, torch.gather(container, 1, root))
    return root


def qualifier_features(
    features: torch.Tensor,
    box: torch.Tensor,
    kinds: torch.Tensor,
    head: torch.Tensor,
    ends: torch.Tensor,
    container: torch.Tensor,
) -> torch.Tensor:
    """(B, K, 3) what the grammar's qualifiers read, for one phrase's ``match_features``: 1.0
    where the element is a lone canvas block (no block above or under it, in no mouth or slot:
    "the lone 'A' block"), and, where several elements match the phrase equally best, where
    its script lies left of (right of) every other one's ("the 'A' block on the left")."""
    own = torch.arange(kinds.shape[1], device=kinds.device).expand_as(kinds)
    lone = (kinds == BLOCK) & (head == own) & (ends > 0) & (container == own)
    best = features[..., 4] > 0
    x = torch.gather(box[..., 0].float(), 1, script_roots(head, container))
    several = best.sum(-1, keepdim=True) > 1
    inf = torch.full_like(x, float("inf"))
    left = best & several & (x <= torch.where(best, x, inf).min(-1, keepdim=True).values + 1e-4)
    right = best & several & (x >= torch.where(best, x, -inf).max(-1, keepdim=True).values - 1e-4)
    return torch.stack([lone.float(), left.float(), right.float()], -1)


def script_order(
    box: torch.Tensor, kinds: torch.Tensor, head: torch.Tensor, container: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """The grammar's reading order, from the boxes alone: (B, K) an int64 sort key (the
    top-level script's top block by y then x, then the element itself by y then x: scripts top
    to bottom, each read down) from ``script_heads`` and ``containers`` (a block in a mouth or
    slot belongs to its C-block's script), and (B, K) whether the element lies in the palette
    (a palette block or inside one): "the second 'move' block" counts canvas blocks only."""
    root = script_roots(head, container)
    px = (box[..., :2].float() * torch.as_tensor(SCREEN[:2])).round().long().clamp(0, 2047)
    x, y = px[..., 0], px[..., 1]
    key = torch.gather(y, 1, root) * 2048 + torch.gather(x, 1, root)
    key = (key * 2048 + y) * 2048 + x
    flyout = kinds == FLYOUT_BLOCK
    palette = flyout | (centres_inside(box) & flyout[:, None, :]).any(-1)
    return key, palette


def mouth_ranks(container: torch.Tensor, where: torch.Tensor, box: torch.Tensor) -> torch.Tensor:
    """(B, K, 2) from ``containers``: per block, 1.0 where it is the first block of its
    C-block's second mouth (the else branch: another first block of the same C-block lies above
    it), and per C-block how many of its mouths hold blocks, halved. "Into the else branch of
    'A'" drops onto the first of these, or onto 'A' itself when that branch is empty."""
    first = where[..., 0] > 0
    y = box[..., 1].float()
    same = (container[:, None, :] == container[:, :, None]) & first[:, None, :] & first[:, :, None]
    second = (same & (y[:, None, :] < y[:, :, None] - 1e-4)).any(-1) & first
    filled = torch.zeros_like(y).scatter_add(1, container, first.float() * 0.5)
    return torch.stack([second.float(), filled], -1)


def else_mouths(
    container: torch.Tensor,
    where: torch.Tensor,
    box: torch.Tensor,
    kinds: torch.Tensor,
    el_tok: torch.Tensor,
    stack: torch.Tensor,
) -> torch.Tensor:
    """(B, K, 3) from ``containers`` and ``stack_heights`` (``stack``, px), for if-else blocks
    (their label holds "else"): per block, 1.0 where it starts the second mouth, and per
    C-block whether its first and its second mouth hold blocks. Read from the geometry, so it holds when only one mouth is filled
    (``mouth_ranks`` then sees one first block and cannot tell): a mouth's stack lies nearer
    the C-block's top in the first mouth (the header above it; the else row, the other mouth
    and the bottom arm below) and nearer its bottom in the second (the header, the first mouth
    and the else row above; the bottom arm below)."""
    first = where[..., 0] > 0
    px = box.float() * torch.as_tensor(SCREEN)
    y, h = px[..., 1], px[..., 3]
    top = y - torch.gather(y, 1, container)
    bottom = torch.gather(y + h, 1, container) - (y + stack)
    in_if_else = torch.gather((kinds == BLOCK) & (el_tok == ELSE).any(-1), 1, container)
    second = first & in_if_else & (top > bottom)
    zeros = torch.zeros_like(y)
    filled = [
        zeros.scatter_add(1, container, mouth.float()).clamp(max=1.0)
        for mouth in (first & ~second & in_if_else, second)
    ]  # fmt: skip
    return torch.stack([second.float(), *filled], -1)


def mouth_blocks(
    container: torch.Tensor, where: torch.Tensor, second: torch.Tensor
) -> torch.Tensor:
    """(B, K, 2) from ``containers`` and ``else_mouths`` (``second``: 1.0 where a block starts
    an if-else's second mouth): per C-block, the index of the first block of its first mouth
    and of its second mouth, the C-block itself where that mouth is empty (every other
    element: itself). "Into the mouth of 'A'" names 'A'; where its mouth holds blocks the new
    block goes where the first of them is (``placed``)."""
    first = where[..., 0] > 0
    k = container.shape[1]
    own = torch.arange(k, device=container.device).expand_as(container)
    holds = nn.functional.one_hot(container, k).bool().transpose(1, 2)  # [b, c, j]: j inside c
    holds = holds & first[:, None, :]
    out = []
    for mouth in (~(second > 0), second > 0):
        starts = holds & mouth[:, None, :]
        out.append(torch.where(starts.any(-1), starts.float().argmax(-1), own))
    return torch.stack(out, -1)


def placed(out: dict[str, torch.Tensor], drop: torch.Tensor) -> torch.Tensor:
    """(B,) the element a drop is placed on: ``drop`` itself, or, for a layout-4 network whose
    relation head reads a drop into a mouth ("c_mouth", "else"), the first block of that
    mouth of the picked C-block when the mouth holds blocks (``mouth_blocks``)."""
    blocks = out.get("mouth_blocks")
    if blocks is None:
        return drop
    b = torch.arange(len(drop))
    relation = out["relation_logits"].argmax(1)
    into = blocks[b, drop]  # (B, 2)
    first = relation == RELATIONS.index("c_mouth")
    second = relation == RELATIONS.index("else")
    return torch.where(first, into[:, 0], torch.where(second, into[:, 1], drop))


def phrase_masks(ins: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Per instruction token: its segment (0 before, 1 in, 2 between, 3 in, 4 after the quoted
    phrases), whether it is a word, and whether it is a word of the first (the block to grab)
    or of the second quoted phrase (the block to drop on)."""
    segment = (ins == tokens.QUOTE).long().cumsum(1).clamp(max=4)
    word = (ins != tokens.PAD) & (ins != tokens.QUOTE)
    return segment, word, word & (segment == 1), word & (segment == 3)


def mouth_firsts(obs: dict[str, torch.Tensor], whole: bool = False) -> torch.Tensor:
    """(B, K) 1.0 where the element is the first block inside a C-block's mouth (``containers``)."""
    box, kinds = obs["element_box"].float(), obs["element_type"].long()
    return containers(box, kinds, whole)[1][..., 0]


def containers(
    box: torch.Tensor, kinds: torch.Tensor, whole: bool = False
) -> tuple[torch.Tensor, torch.Tensor]:
    """Which C-block mouth each canvas block sits in, from the boxes alone: (B, K) the index of
    the smallest other canvas block whose box holds the block's top-left corner and starts left
    of it (every other element: itself; with ``whole``, a container must also hold the block's
    whole height, as a C-block holds its mouths' blocks and a block the reporters in its slots,
    while the box of the block above overlaps only a block's first pixels), and (B, K, 2) per
    block [first: 1.0 where it is the first block of its mouth (nothing joined above it, at
    least ``HEADER_PX`` below the top: a reporter in a slot of the header is not), its top below
    its container's top in ``OFFSET_PX`` units]. "Into the mouth of 'A'" is a drop onto the
    corner of the first block inside 'A' when the mouth holds blocks (the new block goes where
    that one is)."""
    px = box.float() * torch.as_tensor(SCREEN)
    x, y, w, h = px.unbind(-1)
    block = kinds == BLOCK
    cx, cy = x + 2.0, y + 2.0  # just inside each block's corner
    inside = (x[:, None, :] + 3.0 < x[:, :, None]) & (cx[:, :, None] <= (x + w)[:, None, :])
    inside &= (y[:, None, :] < cy[:, :, None]) & (cy[:, :, None] <= (y + h)[:, None, :])
    inside &= block[:, None, :] & block[:, :, None]  # [b, i, j]: i's corner lies in block j
    if whole:
        inside &= (y + h)[:, :, None] <= (y + h)[:, None, :] + 1.0
    area = (w * h)[:, None, :].expand_as(inside).masked_fill(~inside, float("inf"))
    held = inside.any(-1)
    own = torch.arange(kinds.shape[1], device=kinds.device).expand_as(kinds)
    container = torch.where(held, area.argmin(-1), own)
    head, _ = script_heads(box, kinds)
    below_px = (y - torch.gather(y, 1, container)) * held.float()
    first = held & (head == own) & (below_px >= HEADER_PX)  # not a reporter in a slot
    return container, torch.stack([first.float(), below_px / OFFSET_PX], -1)


def header_children(container: torch.Tensor, where: torch.Tensor) -> torch.Tensor:
    """(B, K, K) 1.0 at [b, j, i] where block i sits in a slot of block j (from ``containers``:
    inside j and within ``HEADER_PX`` of its top, where a mouth's blocks never start)."""
    own = torch.arange(container.shape[1], device=container.device).expand_as(container)
    slot = (container != own) & (where[..., 1] * OFFSET_PX < HEADER_PX)
    adjacency = nn.functional.one_hot(container, container.shape[1]).float()  # [b, i, j]
    return (adjacency * slot[..., None].float()).transpose(1, 2)


def slot_descendants(children: torch.Tensor, depth: int = 4) -> torch.Tensor:
    """(B, K, K) 1.0 at [b, j, i] where block i sits in a slot of block j or, up to ``depth``
    levels down, in a slot of a block in j's slots (``children``: ``header_children``)."""
    out, reach = children, children
    for _ in range(depth - 1):
        reach = torch.bmm(reach, children)
        out = out + reach
    return (out > 0).float()


def relation_rule_features(base: torch.Tensor, in_mouth: torch.Tensor) -> torch.Tensor:
    """(B, K, R, ``rule_inputs``): ``rule_features`` per relation kind, then the
    ``RULE_INPUTS_MOUTH`` columns.
    The C relations (into a mouth) read ``first_in_mouth`` and see the other inputs only where
    it is 0: a drop onto the first block inside the mouth keeps a constant offset (one for a
    block from the palette, one for a canvas block), a drop onto the C-block itself (an empty
    mouth) the size rule. The other relations never read it."""
    r = len(RELATIONS)
    out = torch.zeros(
        (*base.shape[:2], r, base.shape[-1] + len(RULE_INPUTS_MOUTH)), dtype=base.dtype
    )
    out[..., : base.shape[-1]] = base[:, :, None, :]
    palette = base[..., RULE_INPUTS.index("grabbed_from_palette")]
    for kind in MOUTH_RELATIONS:
        i = RELATIONS.index(kind)
        out[:, :, i, : base.shape[-1]] *= (1.0 - in_mouth)[..., None]
        out[:, :, i, -2] = in_mouth
        out[:, :, i, -1] = in_mouth * palette  # a new block's corner sits a few px off
    return out


def carried(box: torch.Tensor, grab: torch.Tensor) -> torch.Tensor:
    """(B, K) True for the grabbed element (B,) and the elements whose top-left corner and
    whole height lie in its box (its inputs, fields, the blocks in its slots and mouths): they
    move with it, so a drop can never go onto them. A block that only touches its bottom, such
    as the top of another stack just below a lone hat, is not carried."""
    px = box.float() * torch.as_tensor(SCREEN)
    g = px[torch.arange(len(grab)), grab]  # (B, 4)
    cx, cy = px[..., 0] + 2.0, px[..., 1] + 2.0
    bottom = (g[:, 1] + g[:, 3])[:, None]
    inside = (cx >= g[:, None, 0]) & (cx <= (g[:, 0] + g[:, 2])[:, None])
    inside &= (cy >= g[:, None, 1]) & (px[..., 1] + px[..., 3] <= bottom + 1.0)
    own = torch.arange(box.shape[1], device=box.device)[None, :] == grab[:, None]
    return inside | own


def rule_features(
    size: torch.Tensor,
    stack: torch.Tensor,
    kinds: torch.Tensor,
    grab: torch.Tensor,
    said: torch.Tensor | None = None,
) -> torch.Tensor:
    """(B, K, RULE_INPUTS): what the relation rules read for every element as the drop target
    of the grabbed element ``grab`` (B,), from the element sizes (B, K, 2) and stack heights
    (B, K), both in ``OFFSET_PX`` units. The stack height counts on the canvas only (a palette
    block is new: it drags alone), and ``grabbed_from_palette`` tells the two apart, because
    the editor places a new block from the palette differently from a moved one. With
    ``said`` (``said_slot``, layout 5) the ``RULE_INPUTS_SAID`` columns follow: whether the
    words name a slot past the first, alone and times the drop element's size."""
    b = torch.arange(len(grab))
    k = size.shape[1]
    palette = (kinds[b, grab] == FLYOUT_BLOCK).to(size.dtype)
    held = torch.cat(
        [size[b, grab], (stack[b, grab] * (1 - palette))[:, None], palette[:, None]], -1
    )  # fmt: skip
    columns = [size, held[:, None].expand(-1, k, -1), torch.ones_like(size[..., :1])]
    if said is not None:
        later = said[:, 1:].sum(-1).clamp(max=1.0).to(size.dtype)[:, None, None]  # (B, 1, 1)
        columns += [size * later, later.expand(-1, k, 1)]
    return torch.cat(columns, -1)


class DragPolicyNet(nn.Module):
    """Phrase-to-element matching: the instruction's first quoted phrase names the block to
    grab, the second the block to drop on, the whole instruction read in order (a GRU) the
    relation. Each element (its words, type and box) is scored against each phrase by learned
    embeddings and by ``match_features`` (token identity, so unknown names match too); the drop
    head also sees the grabbed element (its box: a stack's height decides a drop above it),
    where each input sits (``slot_holders``: its block as the target phrase names it, and its
    place among that block's inputs), each canvas block's script (``script_heads``: its top
    block as the target phrase names it, and whether it ends the stack) and the mouth it sits
    in (``containers``: its C-block as the target phrase names it, and whether it is the
    first block there).

    The drop offset is a geometric rule plus a learned correction: a relation head reads the
    relation kind (``RELATIONS``, trained on the generated tasks' kinds) from the instruction
    and the grabbed element (its type, box and words: a hat only goes above, a reporter only
    into a slot, a "?" block into a condition), and each kind has a linear rule from the drop
    element's size and the grabbed element's size and stack height (below a block: one block
    height down; above a stack: the dragged stack's height up; into an empty mouth: one arm in
    and one header down; into a mouth that holds blocks: onto its first block's corner; into a
    slot: onto the input). The rules have 126 parameters in all, so they hold on scenes no
    training task showed.

    With ``origin`` (the shipped checkpoint since 6 December 2026), the grab factors into where
    the block is and which one it is there: an origin head reads from the instruction whether
    the block to grab lies in the palette or on the canvas ("a new ... from the palette", "the
    lone ... on the canvas"), and its log-probability is added to the grab logits of the
    elements on that side, so a palette twin and a canvas block of the same text are told
    apart by the words, not the names.

    With ``layout=2`` ordinals are ranked as the grammar counts them (script order, canvas and
    palette apart: ``script_order``), and the mouth features also say whether a block starts a
    C-block's second mouth and how many of a C-block's mouths hold blocks (``mouth_ranks``):
    "into the else branch of 'A'" tells the else branch's first block from the first mouth's.
    ``layout=3`` adds ``else_mouths``: which mouth of an if-else a block starts, read from the
    geometry, and which of its mouths hold blocks, so a lone filled mouth is placed too; and
    ``qualifier_features`` for both phrases: which equally named element stands alone, and
    whose script lies leftmost or rightmost. With ``layout=4`` a drop into a mouth picks the
    C-block the instruction names (as every other relation picks the named block), and
    ``placed`` puts it on the first block of that mouth where the mouth holds blocks
    (``mouth_blocks``, read from the geometry): the network no longer has to find an unnamed
    block inside the named one. With ``layout=5`` the words that name a slot ("the second input
    of 'A'", "the left operand of 'A'": ``said_slot``) meet each input's place in its block,
    counted over the filled slots too, and an empty operand of 'and'/'or' (no element of its
    own) is placed by the block's size (``RULE_INPUTS_SAID``). With ``layout=6`` the words that
    single out one of several equally named blocks ("the second 'A' block", "the lone 'A'
    block", "the 'A' block on the right": ``said_qualifiers``) meet each element's rank, side
    and loneness (``phrase_qualifier_features``), and the grab head also reads how each element
    matches the second phrase, for sentences that name the target first ("Fill the slot of
    'A' with 'B'"). ``layout=7`` finds a block's container only among blocks that hold its
    whole height (``containers(..., whole=True)``), names a block with the words of every block
    nested in its slots (``slot_descendants``) and never drops the grabbed block onto what it
    carries (``carried``). ``layout=8`` reads the drop's target from the quoted phrase that does
    not name the grabbed block (``target_first``): where the first phrase names the target
    ("Fill the input slot of 'A' with 'B'"), the drop head gets its inputs with the phrases'
    roles swapped, so an input's holder, a block's script and its mouth are matched against A.
    The shipped checkpoint is layout 8 (since stop 58, 7 December 2026; layout 7 before, layout
    6 before that)."""

    def __init__(
        self,
        width: int = 64,
        hidden: int = 128,
        dropout: float = 0.3,
        origin: bool = False,
        layout: int = 1,
    ) -> None:
        super().__init__()
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
        vocab = tokens.number_base()  # numbers share NUM's embedding (``_as_embedded``)
        self.config = {
            "width": width, "hidden": hidden, "dropout": dropout, "origin": origin,
            "layout": layout,
        }  # fmt: skip
        self.layout = layout
        self.tok = nn.Embedding(vocab, width, padding_idx=tokens.PAD)
        self.segment = nn.Embedding(5, width)  # before, in, between, in, after the quotes
        self.read = nn.GRU(width, width, batch_first=True)
        self.kind = nn.Embedding(len(ELEMENT_TYPES) + 1, width)
        self.box = nn.Sequential(nn.Linear(6, width), nn.ReLU(), nn.Linear(width, width))
        self.match = nn.Linear(MATCH_FEATURES + MAX_RANK, width)
        self.match_all = nn.Linear(MATCH_FEATURES + MAX_RANK, width)
        # an input's place in its block; layout 5 on: and whether it is the slot the words name
        self.slot_rank = nn.Linear(MAX_RANK + (2 if layout >= 5 else 0), width)
        self.script = nn.Linear(MATCH_FEATURES + MAX_RANK + 1, width)
        # the qualifiers' inputs (``qualifier_features``), layout 3 on
        self.qualify = nn.Linear(3, width) if layout >= 3 else None
        # the words' qualifiers met with each element (``named_qualifier_features``), layout 6 on
        self.named = nn.Linear(NAMED_QUALIFIER_FEATURES, width) if layout >= 6 else None
        # the mouth inputs: ``containers``, then ``mouth_ranks``, then ``else_mouths``
        mouth_inputs = {1: 2, 2: 4}.get(layout, 7)
        self.mouth = nn.Linear(MATCH_FEATURES + MAX_RANK + mouth_inputs, width)

        def mlp(inputs: int, outputs: int) -> nn.Sequential:
            return nn.Sequential(
                nn.Dropout(dropout), nn.Linear(inputs * width, hidden), nn.ReLU(),
                nn.Dropout(dropout), nn.Linear(hidden, hidden), nn.ReLU(),
                nn.Linear(hidden, outputs),
            )  # fmt: skip

        # layout 6 on: the grab head also sees how each element matches the second phrase, for
        # sentences that name the target first ("Fill the slot of 'A' with 'B'")
        self.grab_head = mlp(8 if layout >= 6 else 7, 3)  # logit, offset (2)
        self.drop_head = mlp(14, 3)
        self.relation = nn.Sequential(
            nn.Linear(4 * width, hidden), nn.ReLU(), nn.Linear(hidden, len(RELATIONS))
        )  # fmt: skip
        # per relation kind: offset (x, y) from ``rule_inputs(layout)``, in OFFSET_PX units
        self.rules = nn.Parameter(torch.zeros(len(RELATIONS), len(rule_inputs(layout)), 2))
        # where the block to grab is, read from the instruction: [canvas, palette] (``origin``)
        self.origin = (
            nn.Sequential(nn.Linear(2 * width, hidden), nn.ReLU(), nn.Linear(hidden, 2))
            if origin
            else None
        )  # fmt: skip

    @staticmethod
    def _bag(emb: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.float()
        return (emb * m[..., None]).sum(-2) / m.sum(-1, keepdim=True).clamp(min=1.0)

    def encode(self, obs: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
        """Per-element features and the grab logits/offsets (the drop waits for the grab)."""
        ins = obs["instruction"].long()
        segment, word, src_mask, tgt_mask = phrase_masks(ins)
        emb = self.tok(_as_embedded(ins))
        src_phrase, tgt_phrase = self._bag(emb, src_mask), self._bag(emb, tgt_mask)
        _, h = self.read(emb + self.segment(segment))
        context = h[-1]
        el_tok = obs["element_tokens"].long()
        words = self._bag(self.tok(_as_embedded(el_tok)), el_tok != tokens.PAD)
        box = obs["element_box"].float()
        centre = box[..., :2] + box[..., 2:] / 2
        kinds = obs["element_type"].long()
        shape = self.kind(kinds) + self.box(torch.cat([box, centre], -1))
        container, where = containers(box, kinds, whole=self.layout >= 7)
        children = header_children(container, where)
        named_with = slot_descendants(children) if self.layout >= 7 else children
        head, ends = script_heads(box, kinds)
        stack = stack_heights(box, kinds)  # px
        order = script_order(box, kinds, head, container) if self.layout >= 2 else None
        src_features = match_features(ins, src_mask, el_tok, box, named_with, order)
        m_src = self.match(src_features)
        tgt_features = match_features(ins, tgt_mask, el_tok, box, named_with, order)
        m_tgt = self.match(tgt_features)
        if self.layout >= 3:  # "the lone 'A' block", "the 'A' block on the left"
            m_src = m_src + self.qualify(
                qualifier_features(src_features, box, kinds, head, ends, container)
            )
            m_tgt = m_tgt + self.qualify(
                qualifier_features(tgt_features, box, kinds, head, ends, container)
            )
        if self.named is not None:  # "the second 'A' block", "the 'A' block on the left"
            scripts = (head, ends, container)
            m_src = m_src + self.named(
                phrase_qualifier_features(
                    ins, 1, src_mask, src_features, el_tok, box, kinds, scripts, order
                )
            )
            m_tgt = m_tgt + self.named(
                phrase_qualifier_features(
                    ins, 2, tgt_mask, tgt_features, el_tok, box, kinds, scripts, order
                )
            )
        said = said_slot(ins) if self.layout >= 5 else None
        holder, slot_rank = slot_holders(box, kinds, children if said is not None else None)
        if said is not None:  # "the second input of 'A'": the input whose place is said
            named = (slot_rank * said[:, None, :]).sum(-1, keepdim=True)
            any_said = said.sum(-1)[:, None, None].expand_as(named)
            slot_rank = torch.cat([slot_rank, named, any_said], -1)
        # whether a block starts a mouth (and, from layout 2 on, which)
        mouth = [where]
        if self.layout >= 2:  # which mouth a block starts, and how many mouths hold blocks
            mouth.append(mouth_ranks(container, where, box))
        blocks = None
        if self.layout >= 3:  # which mouth of an if-else, when only one of them holds blocks
            mouths = else_mouths(container, where, box, kinds, el_tok, stack)
            mouth.append(mouths)
            if self.layout >= 4:  # a mouth's drop picks the C-block, placed by the geometry
                blocks = mouth_blocks(container, where, mouths[..., 0])

        def named_by(features: torch.Tensor) -> tuple[torch.Tensor, ...]:
            """As the phrase of ``features`` names a block: an input's holder block (with the
            input's place in it), a block's script by its top block (and whether it ends
            there), a block's mouth by its C-block (and whether it starts there)."""
            return (
                self.match(_gather(features, holder)),
                self.script(torch.cat([_gather(features, head), ends[..., None]], -1)),
                self.mouth(torch.cat([_gather(features, container), *mouth], -1)),
            )

        in_mouth = where[..., 0]
        m_all = self.match_all(match_features(ins, word, el_tok, box, order=order))  # all words
        k = words.shape[1]
        ctx = context[:, None].expand(-1, k, -1)
        src, tgt = src_phrase[:, None].expand(-1, k, -1), tgt_phrase[:, None].expand(-1, k, -1)
        grab_inputs = [words * src, words, shape, ctx, src, m_src, m_all]
        if self.layout >= 6:
            grab_inputs.append(m_tgt)
        g = self.grab_head(torch.cat(grab_inputs, -1))
        grab_ok = torch.zeros_like(kinds, dtype=torch.bool)
        drop_ok = torch.zeros_like(kinds, dtype=torch.bool)
        for kind in GRABBABLE:
            grab_ok |= kinds == kind
        for kind in DROPPABLE:
            drop_ok |= kinds == kind
        neg = torch.finfo(g.dtype).min / 2
        grab_logits = g[..., 0]
        origin_logits = None
        if self.origin is not None:
            # the grab factors into where (the palette or the canvas, as the words say: "from the
            # palette", "the lone ... on the canvas") and which element there
            origin_logits = self.origin(torch.cat([context, src_phrase], -1))
            where = (kinds == FLYOUT_BLOCK).long()  # 0 canvas, 1 palette
            grab_logits = grab_logits + torch.gather(origin_logits.log_softmax(-1), 1, where)
        slots = self.slot_rank(slot_rank)

        first, second = (src, m_src, src_features), (tgt, m_tgt, tgt_features)  # the phrases

        def drop_inputs(target: tuple, grabbed_: tuple) -> torch.Tensor:
            """The drop head's inputs where phrase ``target`` (its words' bag, its match, its
            match features) names the drop's target and ``grabbed_`` the block to grab."""
            phrase, m_named, features = target
            holder_, script_, mouth_ = named_by(features)
            return torch.cat([words * phrase, words, shape, ctx, phrase, words * grabbed_[0],
                              m_named, grabbed_[1], m_all, holder_, slots, script_, mouth_],
                             -1)  # fmt: skip

        return {
            "origin_logits": origin_logits,
            "relation_inputs": torch.cat([context, src_phrase], -1),
            "box": box,
            "size": box[..., 2:] * torch.as_tensor(SCREEN[2:]) / OFFSET_PX,
            "stack": stack / OFFSET_PX,
            "kinds": kinds,
            "grab_logits": grab_logits.masked_fill(~grab_ok, neg),
            "grab_offset": g[..., 1:3],
            "drop_inputs": drop_inputs(second, first),
            # layout 8: the same with the phrases' roles swapped, should the first name the target
            "target_first_inputs": drop_inputs(first, second) if self.layout >= 8 else None,
            "phrase_overlap": torch.stack([src_features[..., 2], tgt_features[..., 2]], -1),
            "shape": shape,
            "words": words,
            "drop_ok": drop_ok,
            "in_mouth": in_mouth,
            "mouth_blocks": blocks,
            "said": said,
        }

    def drop(self, state: dict[str, torch.Tensor], grab: torch.Tensor) -> dict[str, torch.Tensor]:
        """Relation logits, drop logits and offsets, given the grabbed element of each row (B,)."""
        b = torch.arange(len(grab))
        k = state["shape"].shape[1]
        grabbed_shape = state["shape"][b, grab]
        grabbed_words = state["words"][b, grab]  # "?", "<", "and": a boolean, not a reporter
        relation_logits = self.relation(
            torch.cat([state["relation_inputs"], grabbed_shape, grabbed_words], -1)
        )
        grabbed = grabbed_shape[:, None].expand(-1, k, -1)
        inputs = state["drop_inputs"]
        if state.get("target_first_inputs") is not None:
            first = target_first(state["phrase_overlap"], grab)
            inputs = torch.where(first[:, None, None], state["target_first_inputs"], inputs)
        d = self.drop_head(torch.cat([inputs, grabbed], -1))
        neg = torch.finfo(d.dtype).min / 2
        base = rule_features(state["size"], state["stack"], state["kinds"], grab, state["said"])
        features = relation_rule_features(base, state["in_mouth"])
        by_kind = torch.einsum("bkrf,rfo->bkro", features, self.rules)  # (B, K, R, 2)
        kind = relation_logits.softmax(-1)  # (B, R)
        rule = (by_kind * kind[:, None, :, None]).sum(2)
        drop_ok = state["drop_ok"]
        if self.layout >= 7:
            drop_ok = drop_ok & ~carried(state["box"], grab)
        return {
            "relation_logits": relation_logits,
            "drop_logits": d[..., 0].masked_fill(~drop_ok, neg),
            "drop_offset": rule + d[..., 1:3],
        }

    def forward(
        self, obs: dict[str, torch.Tensor], grab: torch.Tensor | None = None
    ) -> dict[str, torch.Tensor]:
        """Grab and drop heads; the drop is conditioned on ``grab`` (default: the argmax)."""
        state = self.encode(obs)
        if grab is None:
            grab = state["grab_logits"].argmax(1)
        return {
            "grab_logits": state["grab_logits"],
            "grab_offset": state["grab_offset"],
            "origin_logits": state["origin_logits"],
            "mouth_blocks": state["mouth_blocks"],
            **self.drop(state, grab),
        }


def target_first(overlap: torch.Tensor, grab: torch.Tensor) -> torch.Tensor:
    """(B,) True where the first quoted phrase names the drop's target: the grabbed element
    (B,) overlaps the second phrase more than the first ("Fill the input slot of 'A' with 'B'",
    "Inside 'A', snap 'B'"), as the demonstrations' targets are labelled (``_target_overlap``;
    a tie keeps the second). ``overlap``: (B, K, 2) each element's Jaccard overlap with the two
    phrases."""
    at_grab = overlap[torch.arange(len(grab)), grab]  # (B, 2)
    return at_grab[:, 0] < at_grab[:, 1]


def _as_embedded(ids: torch.Tensor) -> torch.Tensor:
    """Token ids for the learned embeddings: every number reads as ``NUM`` (which number it is
    matters only to ``match_features``, which compares the ids themselves)."""
    return ids.masked_fill(ids >= tokens.number_base(), tokens.NUM)


def _gather(features: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """(B, K, F) rows of ``features`` at element ``index`` (B, K)."""
    return torch.gather(features, 1, index[..., None].expand(-1, -1, features.shape[-1]))


def shipped_checkpoint() -> Path:
    """The checkpoint that ships with the package (``weights/drag-policy.pt``)."""
    path = WEIGHTS / "drag-policy.pt"
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: the shipped drag policy is missing (a broken install?); retrain it with "
            "examples/train_drag_policy.py and pass drag-policy:PATH"
        )
    return path


def points(
    obs: dict[str, torch.Tensor],
    out: dict[str, torch.Tensor],
    grab: torch.Tensor,
    drop: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Pixel (start, end) for chosen grab and drop element indices (B,) (a layout-4 drop into a
    mouth is placed on the mouth's first block: ``placed``; a drop outside the workspace is
    moved into it: ``inside_workspace``)."""
    b = torch.arange(len(grab))
    drop = placed(out, drop)
    boxes = obs["element_box"].float() * torch.as_tensor(SCREEN)
    src_xy = boxes[b, grab, :2]
    tgt_xy = boxes[b, drop, :2]
    start = src_xy + out["grab_offset"][b, grab] * OFFSET_PX
    start = off_nested_blocks(obs["element_box"], obs["element_type"], grab, start)
    end = tgt_xy + out["drop_offset"][b, drop] * OFFSET_PX + (start - src_xy)
    return start, inside_workspace(obs["element_box"], obs["element_type"], end)


def inside_workspace(box: torch.Tensor, kinds: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """(B, 2) each drop point ``end`` (px) moved to the nearest point of the workspace, at least
    ``WORKSPACE_MARGIN`` inside it: the canvas element's box right of the palette. Blockly
    reverts a drop whose pointer is outside the workspace and deletes a block dropped over the
    palette, so such a drop always fails; moved in, the block still snaps where the intended
    connection lies within the snap radius (48 units) of where the rules put it (a stack
    dropped above a script near the canvas's top edge). Rows without a canvas element keep
    their point."""
    px = box.float() * torch.as_tensor(SCREEN)
    is_canvas = kinds == CANVAS
    canvas = px[torch.arange(len(px)), is_canvas.long().argmax(1)]  # (B, 4), the first canvas
    low = torch.stack([canvas[:, 0].clamp(min=PALETTE_RIGHT), canvas[:, 1]], 1) + WORKSPACE_MARGIN
    high = canvas[:, :2] + canvas[:, 2:] - WORKSPACE_MARGIN
    moved = torch.minimum(torch.maximum(end, low), high)
    return torch.where(is_canvas.any(1)[:, None], moved, end)


def off_nested_blocks(
    box: torch.Tensor, kinds: torch.Tensor, grab: torch.Tensor, start: torch.Tensor
) -> torch.Tensor:
    """(B, 2) the press point ``start`` (px) moved along its row off any block nested in the
    grabbed element (B,) (a reporter in one of its slots, a block in a mouth): a press there
    drags that block instead. It goes to the nearest point just left or right of the nested
    blocks that is on no nested block and inside the grabbed one ("not <A>" is pressed left of
    A, "<A> and <B>" between them); where it hits none, or no such point exists, it stays."""
    px = box.float() * torch.as_tensor(SCREEN)
    b = torch.arange(len(grab))
    g = px[b, grab]  # (B, 4)
    x0, y0 = px[..., 0], px[..., 1]
    x1, y1 = x0 + px[..., 2], y0 + px[..., 3]
    own = torch.arange(kinds.shape[1], device=kinds.device)[None, :] == grab[:, None]
    nested = ((kinds == BLOCK) | (kinds == FLYOUT_BLOCK)) & ~own
    nested &= (x0 >= g[:, None, 0] - 1) & (x1 <= (g[:, 0] + g[:, 2])[:, None] + 1)
    nested &= (y0 >= g[:, None, 1] - 1) & (y1 <= (g[:, 1] + g[:, 3])[:, None] + 1)
    x, y = start[:, 0], start[:, 1]
    in_row = nested & (y0 <= y[:, None]) & (y[:, None] <= y1)
    margin = 5.0
    candidates = torch.cat([x[:, None], x0 - margin, x1 + margin], 1)  # (B, 1 + 2K)
    usable = torch.cat([torch.ones_like(x[:, None], dtype=torch.bool), in_row, in_row], 1)
    covered = (
        (x0[:, None, :] <= candidates[..., None]) & (candidates[..., None] <= x1[:, None, :])
        & in_row[:, None, :]
    ).any(-1)  # fmt: skip
    inside = (candidates >= g[:, None, 0] + 2) & (candidates <= (g[:, 0] + g[:, 2])[:, None] - 2)
    inside[:, 0] = True  # the press point itself counts wherever it is
    ok = usable & ~covered & inside
    distance = torch.where(ok, (candidates - x[:, None]).abs(), torch.full_like(candidates, 1e9))
    best = distance.argmin(1)
    moved = torch.where(ok.any(1), candidates[b, best], x)
    return torch.stack([moved, y], 1)


def trimmed(obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A batch without the element slots that are padding in every row (elements come first,
    padding last, so indices keep their meaning): the same actions, less work."""
    present = np.asarray(obs["element_type"]) > 0
    k = max(1, int(present.sum(1).max()) if present.size else 1)
    return {name: (v[:, :k] if name.startswith("element_") else v) for name, v in obs.items()}


def to_tensors(obs: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
    return {k: torch.as_tensor(np.asarray(v)) for k, v in obs.items()}


class DragPolicy:
    """``predict(obs)``: batched ``elements`` observations to grid actions (B, 4), greedy;
    ``pixel_points(obs)``: the same drags as viewport pixels, before the grid's 10 px cells round
    them (what an agent that answers pixels, such as the single-drag suite's, acts with)."""

    def __init__(self, net: DragPolicyNet) -> None:
        self.net = net.eval()

    @torch.no_grad()
    def pixel_points(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """(start, end), each (B, 2) viewport pixels, for batched observations (or one)."""
        t = to_tensors(trimmed(batched_elements(obs)))
        out = self.net(t)
        start, end = points(t, out, out["grab_logits"].argmax(1), out["drop_logits"].argmax(1))
        return start.numpy(), end.numpy()

    def predict(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        start, end = self.pixel_points(obs)
        return np.concatenate([grid_cells(start), grid_cells(end)], 1)

    def __call__(self, obs: dict[str, Any]) -> np.ndarray:
        """Actions (B, 4) for one observation (B = 1) or a batch."""
        return self.predict(obs)

    def save(self, path: Path) -> None:
        torch.save({"config": self.net.config, "state": self.net.state_dict()}, path)

    @classmethod
    def load(cls, path: Path | str) -> DragPolicy:
        """A saved policy; ValueError says what is wrong with the file."""
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"{path}: no such checkpoint file")
        try:
            data = torch.load(path, map_location="cpu", weights_only=True)
            net = DragPolicyNet(**data["config"])
            net.load_state_dict(data["state"])
        except Exception as exc:  # pickle, zip or shape errors: all mean "not our checkpoint"
            raise ValueError(
                f"{path}: not a drag-policy checkpoint of this version ({type(exc).__name__}: "
                f"{str(exc)[:200]}); write one with examples/train_drag_policy.py"
            ) from None
        return cls(net)


# -- behaviour-cloning targets ------------------------------------------------------------------------
@dataclass
class Targets:
    """Per pooled task: the elements to grab and drop on, and the two pixel points."""

    task: np.ndarray  # (N,) pool indices with usable targets
    grab: np.ndarray  # (N,) element index
    drop: np.ndarray  # (N,) element index
    start: np.ndarray  # (N, 2) px
    end: np.ndarray  # (N, 2) px
    relation: np.ndarray  # (N,) index into RELATIONS
    pick: np.ndarray  # (N,) the element a layout-4 drop head picks (a mouth's C-block)

    def drop_offsets(self, pool: Pool) -> np.ndarray:
        """(N, 2): where the grabbed element's corner must go, from the drop element's corner,
        in ``OFFSET_PX`` units (what ``drop_offset`` predicts)."""
        b = np.arange(len(self.task))
        boxes = pool.elements["element_box"][self.task] * SCREEN
        src, tgt = boxes[b, self.grab, :2], boxes[b, self.drop, :2]
        return (self.end - self.start + src - tgt) / OFFSET_PX

    def fitted_rules(self, pool: Pool, layout: int = 1) -> np.ndarray:
        """(R, ``rule_inputs(layout)``, 2): per relation kind, the minimum-norm least-squares
        linear rule to ``drop_offsets`` (zero for a kind with too few rows): the rules' start.
        Directions the kind's rows do not tell apart (a reporter's height and its stack height
        are one number) get no weight, so a scene where they differ moves the drop a little,
        not by thousands of pixels."""
        b = np.arange(len(self.task))
        box = torch.as_tensor(pool.elements["element_box"][self.task])
        kinds = torch.as_tensor(pool.elements["element_type"][self.task])
        size = box[..., 2:].float() * torch.as_tensor(SCREEN[2:]) / OFFSET_PX
        stack = stack_heights(box, kinds) / OFFSET_PX
        ins = torch.as_tensor(pool.instructions["baseline"][self.task])
        said = said_slot(ins) if layout >= 5 else None
        base = rule_features(size, stack, kinds, torch.as_tensor(self.grab), said)
        obs = {
            "instruction": ins,
            "element_box": box,
            "element_tokens": torch.as_tensor(pool.elements["element_tokens"][self.task]),
            "element_type": kinds,
        }
        features = relation_rule_features(base, mouth_firsts(obs, whole=layout >= 7))
        y = self.drop_offsets(pool)
        rules = np.zeros((len(RELATIONS), len(rule_inputs(layout)), 2), np.float32)
        for r in range(len(RELATIONS)):
            rows = self.relation == r
            if rows.sum() >= 10:
                x = features[b, self.drop, r].double().numpy()
                rules[r] = fit_linear_rule(x[rows], y[rows])
        return rules


def fit_linear_rule(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(F, O): the minimum-norm least-squares ``w`` with ``x @ w ~ y``, ignoring the directions
    of ``x`` whose singular values are below ``RULE_RCOND`` of the largest. Two inputs that are
    equal in every row share their weight, instead of taking two huge weights of opposite
    sign (which a plain fit gives from rounding noise)."""
    return np.linalg.lstsq(x, y, rcond=RULE_RCOND)[0]


def bc_targets(pool: Pool, layout: int = 1) -> Targets:
    """The oracle's drag for every pooled task whose elements show both blocks, checked with the
    drag model (the drop that aligns the intended connections, from the start region's anchor);
    a mouth's drop picks what a ``layout`` network picks (``_mouth_picks``)."""
    rows: list[tuple[int, int, int, tuple[float, float], tuple[float, float], int, bool]] = []
    boxes = pool.elements["element_box"] * SCREEN
    kinds = pool.elements["element_type"]
    for i, snap in enumerate(pool.snapshots):
        regions = snap.task.regions
        if regions is None:
            continue
        anchor = np.array(regions.anchor, np.float32)
        vectors = [(p.dx, p.dy) for p, ok in zip(snap.pairs, snap.intended, strict=True) if ok]
        if not vectors:
            continue
        end = anchor + np.array(vectors[0], np.float32)
        if not simulate(pool.tables, np.array([i]), anchor[None], end[None]).success[0]:
            continue
        grab = _containing(boxes[i], kinds[i], anchor, GRABBABLE)
        if grab < 0:
            continue
        connection = boxes[i, grab, :2] + (end - anchor)  # where the grabbed corner must go
        named = _target_overlap(
            pool.instructions["baseline"][i], pool.elements["element_tokens"][i], grab
        )
        relation = RELATIONS.index(relation_kind(snap.task))
        drop = _nearest(
            boxes[i], kinds[i], connection, DROPPABLE, exclude=grab, prefer=named,
            slot_first=RELATIONS[relation] == "value_slot",
        )  # fmt: skip
        if drop < 0:
            continue
        at_corner = False  # the drop element is the first block of the mouth it goes into
        if RELATIONS[relation] in MOUTH_RELATIONS:
            drop = _first_in_mouth(boxes[i], kinds[i], connection, drop, exclude=grab)
            at_corner = _takes_place(boxes[i, drop, :2], connection)
        rows.append((i, grab, drop, tuple(anchor), tuple(end), relation, at_corner))
    if not rows:
        raise ValueError("no pooled task has a usable oracle drag")
    task, drop, relation = (np.array([r[k] for r in rows]) for k in (0, 2, 5))
    return Targets(
        task=task,
        grab=np.array([r[1] for r in rows]),
        drop=drop,
        start=np.array([r[3] for r in rows], np.float32),
        end=np.array([r[4] for r in rows], np.float32),
        relation=relation,
        pick=_mouth_picks(
            pool, task, drop, np.array([r[6] for r in rows]), relation, whole=layout >= 7
        ),
    )


def _mouth_picks(
    pool: Pool,
    task: np.ndarray,
    drop: np.ndarray,
    at_corner: np.ndarray,
    relation: np.ndarray,
    whole: bool = False,
) -> np.ndarray:
    """What a layout-4 drop head picks: for a drop onto the first block of a mouth
    (``at_corner``: its corner at the connection), the C-block that holds it (``containers``)
    where the geometry places a drop on that C-block back onto ``drop`` (``mouth_blocks``, as
    the policy acts); else ``drop`` itself (where the boxes hide which C-block holds the mouth,
    the drop head learns to pick the mouth's first block)."""
    out = drop.copy()
    for start in range(0, len(task), 256):
        rows = slice(start, start + 256)
        box = torch.as_tensor(pool.elements["element_box"][task[rows]])
        kinds = torch.as_tensor(pool.elements["element_type"][task[rows]]).long()
        el_tok = torch.as_tensor(pool.elements["element_tokens"][task[rows]]).long()
        container, where = containers(box, kinds, whole)
        mouths = else_mouths(container, where, box, kinds, el_tok, stack_heights(box, kinds))
        blocks = mouth_blocks(container, where, mouths[..., 0]).numpy()
        b = np.arange(len(box))
        first = at_corner[rows] & (where[b, drop[rows], 0].numpy() > 0)
        pick = np.where(first, container[b, drop[rows]].numpy(), drop[rows])
        mouth = (relation[rows] == RELATIONS.index("else")).astype(int)
        into = blocks[b, pick, mouth]
        out[rows] = np.where(into == drop[rows], pick, drop[rows])
    return out


def _containing(boxes: np.ndarray, kinds: np.ndarray, point: np.ndarray, allowed: set[int]) -> int:
    best, area = -1, np.inf
    for j, (x, y, w, h) in enumerate(boxes):
        if int(kinds[j]) in allowed and x <= point[0] <= x + w and y <= point[1] <= y + h:
            if w * h < area:
                best, area = j, w * h
    return best


def _target_overlap(instruction: np.ndarray, element_tokens: np.ndarray, grab: int) -> np.ndarray:
    """Per element, the Jaccard overlap of its words with the quoted phrase that names the block
    to drop on: of the first two quoted phrases, the one that names the grabbed element less
    (sentences may name the target first: "Under 'A', put 'B'"; the second on a tie)."""
    quote = np.cumsum(instruction == tokens.QUOTE)
    words = instruction != tokens.QUOTE
    first, second = instruction[(quote == 1) & words], instruction[(quote == 3) & words]
    by_first, by_second = overlaps(first, element_tokens), overlaps(second, element_tokens)
    return by_first if by_first[grab] < by_second[grab] else by_second


def _takes_place(corner: Any, point: np.ndarray) -> bool:
    """Is a block's corner (px) where a drop's connection ``point`` is, so that the dropped
    block takes its place? A new block from the palette lands a few px right of that corner."""
    return bool(-16 <= corner[0] - point[0] <= 4 and abs(corner[1] - point[1]) <= 4)


def _first_in_mouth(
    boxes: np.ndarray, kinds: np.ndarray, point: np.ndarray, c_block: int, exclude: int
) -> int:
    """The block whose corner is at ``point`` inside ``c_block`` (the first block of the mouth
    the drop goes into: the new block takes its place), else ``c_block`` (an empty mouth)."""
    cx, cy = boxes[c_block, :2]
    for j, (x, y, _, _) in enumerate(boxes):
        if j in (exclude, c_block) or int(kinds[j]) != BLOCK:
            continue
        if _takes_place((x, y), point) and x > cx + 3 and y > cy:
            return j
    return c_block


def _nearest(
    boxes: np.ndarray,
    kinds: np.ndarray,
    point: np.ndarray,
    allowed: set[int],
    exclude: int,
    prefer: np.ndarray | None = None,
    slot_first: bool = False,
) -> int:
    """The allowed element nearest ``point``; among those within 4 px of it, with
    ``slot_first`` an input (the slot a reporter fills, rather than its block), then the one the
    instruction names best (``prefer``), then the smallest."""
    best, key = -1, (np.inf, 0.0, 0.0, np.inf)
    for j, (x, y, w, h) in enumerate(boxes):
        if j == exclude or int(kinds[j]) not in allowed:
            continue
        dx = max(x - point[0], 0.0, point[0] - (x + w))
        dy = max(y - point[1], 0.0, point[1] - (y + h))
        distance = float(np.hypot(dx, dy))
        named = float(prefer[j]) if prefer is not None else 0.0
        slot = float(slot_first and int(kinds[j]) in SLOTS)
        k = (max(distance, 4.0), -slot, -named, float(w * h))
        if k < key:
            best, key = j, k
    return best
