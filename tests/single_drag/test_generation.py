"""The task generator covers Scratch 3's single drags: every relation kind, source and shape,
every palette category, scenes as people build them; the oracle solves each kind in the real
editor; instructions name blocks in many ways; unknown words match element texts."""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import replace

import pytest

from scratch_gym.agents.single_drag import DragOracleAgent
from scratch_gym.program import parse_scripts
from scratch_gym.single_drag import tokens
from scratch_gym.single_drag.generation.blocks import block_kinds
from scratch_gym.single_drag.generation.generator import TaskGenerator, reinstruct, spots
from scratch_gym.single_drag.rl_spaces import encode_elements
from scratch_gym.single_drag.tasks.kinds import (
    RELATION_KINDS,
    SHAPES,
    SOURCE_KINDS,
    edited_blocks,
    relation_kind,
    source_kind,
    source_shape,
)
from scratch_gym.single_drag.training.heuristic import heuristic_points
from tests.conftest import REPO_ROOT


@pytest.fixture(scope="module")
def drawn():
    """600 drawn tasks (no editor needed to draw; the view is fitted by ``sample``)."""
    gen = TaskGenerator(0)
    tasks = [gen.draw() for _ in range(600)]
    return [t for t in tasks if t is not None]


def test_every_relation_source_and_shape_is_generated(drawn):
    relations = Counter(relation_kind(t) for t in drawn)
    sources = Counter(source_kind(t) for t in drawn)
    shapes = Counter(source_shape(t) for t in drawn)
    assert set(relations) == set(RELATION_KINDS), relations
    assert set(sources) == set(SOURCE_KINDS), sources
    assert set(shapes) == set(SHAPES), shapes
    assert min(relations.values()) >= 20, relations  # drawn evenly by kind
    pairs = {(relation_kind(t), source_kind(t)) for t in drawn}
    for kind in RELATION_KINDS:  # each relation from the palette and from the canvas
        assert (kind, "palette") in pairs and (kind, "canvas_block") in pairs, kind


def test_a_forever_goes_among_blocks_only_with_an_empty_mouth(drawn):
    """scratch-blocks puts a forever (no next connection) where blocks already are only by
    wrapping them in its mouth, which needs the mouth empty: a canvas forever headed mid-stack
    or into a filled mouth is drawn empty."""
    forevers = []
    for t in drawn:
        blocks = edited_blocks(t)
        block = blocks.get(t.source.block or "")
        if not isinstance(block, dict) or block.get("opcode") != "control_forever":
            continue
        goal = t.goal[0]
        target = blocks[goal.block]
        occupied = (
            target["next"]
            if goal.rel == "below"
            else (target["inputs"].get(goal.input) or [None, None])[1]
        )
        mouth = (block["inputs"].get("SUBSTACK") or [None, None])[1]
        forevers.append((bool(occupied), bool(mouth)))
    assert (True, True) not in forevers, forevers
    assert (True, False) in forevers, forevers  # such drags are drawn


def test_sources_span_every_category_and_the_infix_operators(drawn):
    palette = {t.source.opcode for t in drawn if t.source.origin == "flyout"}
    categories = {t.view.category for t in drawn if t.source.origin == "flyout"}
    assert {"motion", "looks", "sound", "events", "control", "sensing", "operators",
            "variables", "pen"} <= categories  # fmt: skip
    assert {"operator_add", "operator_and", "operator_or", "operator_mod"} & palette
    assert any(op.startswith("data_") and "list" in op for op in palette)  # lists
    assert {"data_variable", "data_listcontents"} & palette  # variable reporters
    menus = {"motion_goto", "motion_glideto", "motion_pointtowards", "looks_switchcostumeto",
             "looks_switchbackdropto", "sound_play", "sound_playuntildone",
             "sensing_touchingobject", "sensing_distanceto", "control_create_clone_of"}  # fmt: skip
    assert len(menus & palette) >= 3  # blocks with sprite, costume and sound menus
    infix = {k.opcode for k in block_kinds()["reporter"] + block_kinds()["boolean"]}
    assert {"operator_add", "operator_subtract", "operator_multiply", "operator_divide",
            "operator_mod", "operator_and", "operator_or"} <= infix  # fmt: skip
    for kind in block_kinds()["reporter"]:
        parse_scripts(kind.text(), variables=["my variable"], lists=["my list"])


def test_scenes_are_varied_as_people_build_them(drawn):
    scripts = [len(t.project["scripts"]) for t in drawn]
    blocks = [
        sum(1 for b in edited_blocks(t).values() if isinstance(b, dict) and not b.get("shadow"))
        for t in drawn
    ]
    assert min(scripts) == 1 and max(scripts) >= 9
    assert max(blocks) >= 35
    assert {t.view.target for t in drawn} >= {None, "Stage"}
    assert any(t.view.target not in (None, "Stage") for t in drawn)  # another sprite
    assert {t.view.stage_size for t in drawn} == {"large", "small"}
    scales = [t.view.scale for t in drawn]
    assert min(scales) < 0.6 and max(scales) > 0.9
    assert any(t.project.get("variables") for t in drawn)
    # C-mouths both empty and filled, and targets nested inside C-blocks
    mouths = [s for t in drawn for s in spots(edited_blocks(t)) if s.kind in ("c_mouth", "else")]
    assert {s.empty for s in mouths} == {True, False}
    nested = 0
    for t in drawn:
        blocks = edited_blocks(t)
        parent = blocks[t.main_relation().block].get("parent")
        if parent and blocks[parent]["opcode"].startswith("control_"):
            nested += 1
    assert nested >= 20


def test_instructions_name_blocks_in_many_ways(drawn):
    texts = [t.instruction for t in drawn]
    assert len(set(texts)) == len(texts)
    verbs = Counter(t.split()[0] for t in texts)
    assert len(verbs) >= 8, verbs
    joined = "\n".join(texts)
    for phrase in ("stack starting with", "between", "condition slot", "else branch",
                   "input slot of", "on top of", "from the", "lone", "motion_"):  # fmt: skip
        assert phrase in joined, phrase
    assert any(w in joined for w in ("greater than", "bigger than", "plus", "equals"))
    assert any(t.split("'")[1:2] and " the second '" in t for t in texts)  # ordinals


CANVAS_CUES = (" on the canvas", " in the code area", " on the workspace", " in the scripting area",
               "the existing", "lone", "standalone", "free", "loose", "separate", "single",
               "stack", "script", "group")  # fmt: skip
PALETTE_CUES = ("palette", "flyout", "menu", "toolbox", "category", "blocks", "a new")


def test_canvas_sources_come_fresh_from_the_palette_often_beside_their_twin(drawn):
    """A canvas source is sometimes a block as the palette shows it (default values, the
    palette's first variable and list), often with the palette open at its category (its twin
    in view, as right after a user drags a block out)."""
    from scratch_gym.program import catalogue
    from scratch_gym.single_drag.generation.blocks import BlockKind, named

    canvas = twins = valued = fresh = 0
    for task in drawn:
        if source_kind(task) == "palette":
            continue
        canvas += 1
        spec = catalogue.get(edited_blocks(task)[task.source.block]["opcode"])
        twins += task.view.category == spec.category
        if sum(a.kind in ("number", "text", "angle") for a in spec.args) < 2:
            continue  # random values keep a default often enough: only blocks of 2+ values tell
        valued += 1
        script = task.project["scripts"][int(task.source.block[1:].split("b")[0])]["text"]
        variables = sorted(task.project.get("variables", []), key=str.lower)
        lists = sorted(task.project.get("lists", []), key=str.lower)
        fresh += script.split("\n")[0] == named(BlockKind(spec).text(), variables[0], lists[0])
    assert 0.25 * valued <= fresh <= 0.6 * valued and valued >= 20, (fresh, valued)
    assert 0.4 * canvas <= twins <= 0.8 * canvas, (twins, canvas)


@pytest.mark.parametrize("origin", ["palette", "canvas_block", "canvas_stack"])
def test_a_source_whose_twin_shows_is_named_with_where_it_is(origin):
    """Where a block of the source's opcode shows on the other side (the palette for a canvas
    source, the canvas for a palette one), the source phrase always says where the block is;
    otherwise it sometimes leaves that out, as people do."""
    import random

    from scratch_gym.single_drag.generation.grammar import Named, source_phrase

    cues = PALETTE_CUES if origin == "palette" else CANVAS_CUES
    for seed in range(300):
        phrase = source_phrase(
            origin, Named("move (10) steps"), random.Random(seed), "motion", True
        )
        assert any(c in phrase for c in cues), phrase
    bare = [source_phrase(origin, Named("move (10) steps"), random.Random(seed), "motion")
            for seed in range(300)]  # fmt: skip
    if origin != "canvas_stack":  # a stack is a canvas thing by name
        assert any(not any(c in p for c in cues) for p in bare)


def test_an_if_else_block_is_named_with_its_else(drawn):
    """Scratch shows 'if <> then ... else' on the if-else block; scratchblocks text leaves the
    else on a line of its own. A label without it would name the if block too, so a task that
    asks for 'if then' from the palette, where both stand, would have two answers."""
    import random

    from scratch_gym.single_drag.generation.grammar import Labeller, bare_label, palette_label
    from scratch_gym.single_drag.tasks.kinds import edited_blocks

    assert bare_label("control_if") == "if then" and bare_label("control_if_else") == "if then else"
    rng = random.Random(0)
    names = {palette_label("control_if_else", rng, "if <> then") for _ in range(60)}
    assert all("else" in n for n in names), names
    seen = 0
    for task in drawn[:200]:
        blocks = edited_blocks(task, task.build_project())
        labeller = Labeller(random.Random(1), blocks)
        for bid, b in blocks.items():
            if isinstance(b, dict) and b.get("opcode") == "control_if_else":
                for style in ("values", "plain", "bare"):
                    assert labeller.label(bid, style).endswith("else"), labeller.label(bid, style)
                seen += 1
    assert seen > 0


def test_rewording_keeps_the_task_and_varies_the_sentence(drawn):
    """``reinstruct`` (training data: more sentences per captured scene) words the same task
    anew: seeded, varied, and still of the task's relation kind (the grammar's relation words
    for a C-mouth, an else branch, a condition)."""
    import random

    words = {"else": ("else", "second", "substack"), "condition": ("condition", "slot", "boolean",
             "hexagonal", "input", "operand")}  # fmt: skip
    varied = 0
    for task in drawn[:120]:
        first = [reinstruct(task, random.Random(7)) for _ in range(2)]
        assert first[0] == first[1]  # seeded
        texts = {reinstruct(task, random.Random(seed)) for seed in range(6)}
        varied += len(texts) >= 3
        kind = relation_kind(task)
        for text in texts:
            assert text.count("'") >= 2, text  # the block to drag is quoted
            if kind in words:
                assert any(w in text.lower() for w in words[kind]), (kind, text)
    assert varied >= 100


def test_the_oracle_solves_every_relation_kind_in_the_real_editor(drag_env):
    """One task of each kind, sampled (view fitted, regions from Blockly's geometry) and
    dragged by the oracle in the real editor. The blocks the task records as in view (those its
    ordinals count) are the canvas blocks of the element list the environment shows."""
    env = drag_env
    env.reset(options={"task": "dc-01"})
    oracle = DragOracleAgent()
    oracle.bind(env)
    gen = TaskGenerator(4)
    failed = []
    for kind in RELATION_KINDS:
        task = gen.sample(env.page, kind)
        assert relation_kind(task) == kind
        obs, info = env.reset(options={"task": task})
        listed = {e["block_id"] for e in env.page.bridge.elements_list() if e["type"] == "block"}
        assert set(task.meta["in_view"]) == listed, task.instruction
        oracle.reset(env.task)
        _, reward, terminated, _, info = env.step(oracle.act(obs, info))
        assert terminated
        if reward != 1.0:
            failed.append((kind, task.instruction))
    assert not failed, failed
    assert "in_view" not in TaskGenerator(4, version=5).sample(env.page).meta  # counts them all


def test_an_and_or_of_comparisons_keeps_its_own_brackets():
    # Two comparisons joined by "or" begin with "<" and end with ">" but are two booleans: the
    # "or" block still needs its brackets, or the condition slot it fills does not parse (a
    # generator crash once in about 3,000 draws).
    (or_,) = [k for k in block_kinds()["boolean"] if k.opcode == "operator_or"]
    operands = iter(["<(15) < [welcome]>", "<[] > [cat]>"])
    text = or_.text(lambda kind, bracket: next(operands))
    assert text == "<<(15) < [welcome]> or <[] > [cat]>>"
    parsed = parse_scripts(f"repeat until {text}\nend")
    (top,) = parsed.scripts
    condition = parsed.blocks[top]["inputs"]["CONDITION"][1]
    assert parsed.blocks[condition]["opcode"] == "operator_or"


def test_unknown_words_get_the_same_id_in_instructions_and_elements():
    ids = tokens.encode("Drag the 'factorial' block below 'set zorblax to 0'", 16)
    assert tokens.encode("factorial", 1)[0] in ids
    assert tokens.encode("zorblax", 1)[0] in ids
    assert tokens.encode("factorial", 1)[0] != tokens.encode("score", 1)[0]
    assert len(set(tokens.encode("alpha beta gamma delta", 4))) == 4
    assert max(ids) < tokens.size()


def test_the_heuristic_finds_a_block_by_a_name_no_vocabulary_holds():
    elements = [
        {"type": "flyout_block", "text": "factorial", "x": 20, "y": 200, "w": 80, "h": 30},
        {"type": "flyout_block", "text": "score", "x": 20, "y": 250, "w": 60, "h": 30},
        {"type": "block", "text": "say Hello", "x": 400, "y": 200, "w": 90, "h": 40},
        {"type": "block", "text": "say blorptastic", "x": 400, "y": 400, "w": 130, "h": 40},
    ]
    obs = {
        "instruction": tokens.encode(
            "Drag the 'factorial' block from the palette into the slot of 'say blorptastic'",
            tokens.INSTRUCTION_TOKENS,
        ),
        **encode_elements(elements),
    }
    start, end = heuristic_points(obs)
    assert 20 <= start[0] <= 100 and 200 <= start[1] <= 230  # factorial, not score
    assert end[1] > 350  # dropped at 'say blorptastic', not 'say Hello'


TRAINING_CODE = (
    "scratch_gym/single_drag/generation",
    "scratch_gym/single_drag/tokens.py",
    "scratch_gym/single_drag/training",
    "examples/train_drag_policy.py",
    "scratch_gym/single_drag/tasks/knowledge.py",
)


def test_training_code_never_reads_scratchworld():
    """The generator, grammar, vocabulary, policy and heuristic import nothing that reads a
    ScratchWorld checkout and name none of its files (its drag tasks are a transfer test)."""
    files = []
    for entry in TRAINING_CODE:
        path = REPO_ROOT / entry
        files += sorted(path.glob("*.py")) if path.is_dir() else [path]
    assert len(files) >= 8
    for path in files:
        text = path.read_text()
        # env ids ("ScratchWorld-SingleDragElements-v0") are the library's own names
        assert not re.search(r"scratchworld(?!-)", text.lower()), path
        for node in ast.walk(ast.parse(text)):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert "scratchworld" not in name and "perception" not in name, (path, name)


def test_the_static_check_catches_a_planted_read():
    planted = "from scratch_gym.scratchworld.drag import load\n"
    assert re.search(r"scratchworld(?!-)", planted.lower())
    assert not re.search(r"scratchworld(?!-)", "gym.make('scratchworld-singledrag-v0')")


def _three_moves() -> dict:
    """Two scripts (left, right) each ending in 'move (10) steps', and one more alone."""

    def move(**more):
        return {"opcode": "motion_movesteps", "inputs": {"STEPS": [1, [4, "10"]]}, "fields": {},
                "next": None, "topLevel": False, "shadow": False, **more}  # fmt: skip

    def hat(opcode, x, nxt):
        return {"opcode": opcode, "inputs": {}, "fields": {}, "parent": None, "next": nxt,
                "topLevel": True, "shadow": False, "x": x, "y": 0}  # fmt: skip

    return {
        "h1": hat("event_whenflagclicked", 0, "m1"),
        "m1": move(parent="h1"),
        "h2": hat("event_whenthisspriteclicked", 600, "m2"),
        "m2": move(parent="h2"),
        "m3": move(parent=None, topLevel=True, x=300, y=300),
    }


def test_equally_named_blocks_are_told_apart_as_the_lone_one_or_by_their_scripts_side():
    """Three 'move (10) steps' blocks: one in a script on the left, one in a script on the
    right, one alone on the canvas. Besides ordinals, the grammar names the lone one as such
    ("the lone ...", never another) and the scripts' blocks by their side; a qualifier never
    fits two of them."""
    import collections
    import random

    from scratch_gym.single_drag.generation.grammar import LONE, Labeller

    blocks = _three_moves()
    seen = collections.defaultdict(collections.Counter)
    for seed in range(200):
        labeller = Labeller(random.Random(seed), blocks)
        for bid in ("m1", "m2", "m3"):
            seen[bid][labeller.name(bid).qualifier] += 1
    assert set(seen["m1"]) == {"first", " on the left"}
    assert set(seen["m2"]) == {"second", " on the right"}
    assert set(seen["m3"]) - {"third"} == set(LONE)


def test_ordinals_sides_and_lone_count_only_the_blocks_in_view():
    """The same three 'move (10) steps' blocks with the left script out of view: the right
    script's block is now the first (never the second) and the lone one the second (never the
    third); with only the right script in view its block needs no qualifier at all."""
    import collections
    import random

    from scratch_gym.single_drag.generation.grammar import Labeller

    blocks = _three_moves()
    seen = collections.defaultdict(collections.Counter)
    for seed in range(200):
        labeller = Labeller(random.Random(seed), blocks, shown={"h2", "m2", "m3"})
        for bid in ("m2", "m3"):
            seen[bid][labeller.name(bid).qualifier] += 1
        alone = Labeller(random.Random(seed), blocks, shown={"h2", "m2"})
        seen["m2 alone"][alone.name("m2").qualifier] += 1
    assert "first" in seen["m2"] and "second" not in seen["m2"], seen["m2"]
    assert "second" in seen["m3"] and "third" not in seen["m3"], seen["m3"]
    assert set(seen["m2 alone"]) == {""}


def test_only_known_generator_versions_draw():
    with pytest.raises(ValueError, match=r"generator version must be one of \(5, 6, 7\), got 4"):
        TaskGenerator(0, version=4)


END_OF_SCRIPT = "end of the script that starts with"


def test_the_end_of_a_script_is_the_last_block_of_its_hats_own_stack(drawn):
    """Version 7 says "at the end of the script that starts with 'A'" only of the last block of
    A's own stack, never of the last block in a mouth (which ends no script); version 6, kept
    drawable as it drew, also said it of those."""
    from scratch_gym.single_drag.generation.grammar import stack_top

    def ends(tasks):
        out = []
        for task in tasks:
            if task is not None and END_OF_SCRIPT in task.instruction:
                blocks = edited_blocks(task, task.build_project())
                target = task.main_relation().block
                top = stack_top(blocks, target)
                out.append(top != target and not blocks[top].get("parent"))
        return out

    v7 = ends(drawn)
    assert len(v7) >= 3 and all(v7), v7
    gen6 = TaskGenerator(0, version=6)
    v6 = ends(gen6.draw() for _ in range(2000))
    assert v6 and not all(v6)


def test_the_end_of_a_script_is_named_only_with_its_top_in_view(drawn):
    """The top block that names a script must show: with it out of view the phrase is never
    used, with it in view it is."""
    import random

    from scratch_gym.single_drag.generation.grammar import stack_top

    task = next(t for t in drawn if END_OF_SCRIPT in t.instruction)
    blocks = edited_blocks(task, task.build_project())
    top = stack_top(blocks, task.main_relation().block)
    canvas = [b for b, v in blocks.items() if isinstance(v, dict) and not v.get("shadow")]
    for in_view, expected in ((canvas, True), ([b for b in canvas if b != top], False)):
        shown = replace(task, meta={**task.meta, "in_view": in_view})
        texts = [reinstruct(shown, random.Random(seed)) for seed in range(80)]
        assert any(END_OF_SCRIPT in t for t in texts) is expected


def test_a_palette_block_is_not_named_by_a_bare_label_another_shares():
    """'set effect to' is in Looks and in Sound: version 7 names either by its text or opcode,
    never by the shared bare label; a label only one block shows stays in use."""
    import random

    from scratch_gym.single_drag.generation.grammar import palette_label, shared_bare

    assert {"set effect to", "change effect by", "length of", "contains?"} <= shared_bare()
    assert "move steps" not in shared_bare()
    text = "set [color v] effect to (0)"
    v7 = {palette_label("looks_seteffectto", random.Random(s), text, True) for s in range(100)}
    v6 = {palette_label("looks_seteffectto", random.Random(s), text) for s in range(100)}
    assert "set effect to" not in v7 and "set effect to" in v6
    assert "set color effect to 0" in v7
    moves = {palette_label("motion_movesteps", random.Random(s), "move (10) steps", True)
             for s in range(100)}  # fmt: skip
    assert "move steps" in moves
