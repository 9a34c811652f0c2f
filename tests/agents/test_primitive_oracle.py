"""The primitive oracle solves tasks with mouse and keyboard only, one task per feature: C-blocks,
reporters nested in inputs, a new broadcast message, switching sprites (traffic-light); a custom
block with inputs made in Make a Block, its argument reporters (power); the stage's scripts
(day-and-night); a debug edit of a field (fix-countdown). Each action goes through ``env.step``;
the repair it relies on (Ctrl+Z undoes a drag) is checked on its own."""

from __future__ import annotations

import pytest

from scratch_gym.agents.factory import make_agent
from scratch_gym.agents.primitive_oracle import gestures as g
from scratch_gym.agents.primitive_oracle.view import EditorView
from scratch_gym.runner.episode import run_episode
from scratch_gym.tasks import load_task

PRIMITIVE = {"click", "double_click", "drag", "type", "key", "hotkey", "scroll", "done"}


@pytest.mark.parametrize(
    "task_id", ["traffic-light", "power", "day-and-night", "fix-countdown", "shopping-basket"]
)
def test_primitive_oracle_solves_the_task(primitive_env, task_id):
    agent = make_agent("oracle", mode="primitive")
    actions: list[str] = []
    outcome = run_episode(
        primitive_env,
        agent,
        load_task(task_id),
        on_step=lambda i, action, r, info: actions.append(action["action_type"]),
    )
    assert outcome["status"] == "success" and outcome["psr"] == 1.0, outcome
    assert outcome["action_errors"] == 0
    assert set(actions) <= PRIMITIVE and actions[-1] == "done"
    assert agent.info.get("differs_from_golden") is None


def test_ctrl_z_undoes_a_drag_from_the_palette(primitive_env):
    """The oracle's repair of a drag that snapped elsewhere: Ctrl+Z takes the block away again."""
    primitive_env.reset(options={"task": "say-hello"})
    view = EditorView(primitive_env)
    before = set(view.vm()["blocks"])
    source = next(b for b in view.flyout() if b["opcode"] == "motion_movesteps")
    primitive_env.step(g.drag(source["grab"], (500.0, 500.0)))
    made = set(view.vm()["blocks"]) - before
    assert [
        view.vm()["blocks"][i]["opcode"] for i in made if not view.vm()["blocks"][i]["shadow"]
    ] == ["motion_movesteps"]
    primitive_env.step(g.hotkey("Control+z"))
    assert set(view.vm()["blocks"]) == before


@pytest.mark.parametrize("value", ["45", "0"])
def test_an_angle_input_takes_the_typed_value(primitive_env, value):
    """An angle opens its dial without focusing its text: the oracle clicks again and selects the
    text before typing, so the value (0 too) reaches the VM instead of the void."""
    from scratch_gym.agents.primitive_oracle.editing import ScriptEditor

    primitive_env.reset(options={"task": "clock-backwards"})
    view = EditorView(primitive_env)
    blocks = view.vm()["blocks"]
    block = next(i for i, b in blocks.items() if b["opcode"] == "motion_pointindirection")
    plan = ScriptEditor(view).set_input(block, "DIRECTION", "90")
    plan_then = ScriptEditor(view).set_input(block, "DIRECTION", value)
    for gestures in (plan, plan_then):  # 0 -> 90 -> value: each time a change that must land
        for action in gestures:
            primitive_env.step(action)
    blocks = view.vm()["blocks"]
    shadow = blocks[block]["inputs"]["DIRECTION"]["shadow"]
    assert str(blocks[shadow]["fields"]["NUM"]["value"]) == value


def test_a_colour_not_on_the_stage_is_set_with_the_sliders(primitive_env):
    """No pixel of the colour to pick with the eyedropper: Color, Saturation and Brightness are
    set on the picker's sliders (exactly at the ends of their ranges, within a level elsewhere)."""
    from scratch_gym.agents.primitive_oracle.editing import ScriptEditor

    primitive_env.reset(options={"task": "pen-wall"})
    view = EditorView(primitive_env)
    category = g.find(view.elements(), type="category", text="Sensing")
    primitive_env.step(g.click(g.centre(category)))
    source = next(b for b in view.flyout() if b["opcode"] == "sensing_touchingcolor")
    primitive_env.step(g.drag(source["grab"], (450.0, 300.0)))
    placed = next(b for b in view.workspace()["blocks"] if b["opcode"] == "sensing_touchingcolor")
    for colour in ("#ff0000", "#3a7bd5"):
        for action in ScriptEditor(view).set_input(placed["id"], "COLOR", colour):
            primitive_env.step(action)
        blocks = view.vm()["blocks"]
        got = blocks[blocks[placed["id"]]["inputs"]["COLOR"]["shadow"]]["fields"]["COLOUR"]["value"]
        want = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
        have = [int(got[i : i + 2], 16) for i in (1, 3, 5)]
        assert max(abs(a - b) for a, b in zip(want, have, strict=True)) <= (
            0 if colour == "#ff0000" else 2
        ), got


def test_a_c_block_put_inside_a_stack_keeps_the_blocks_below_it_under_it(primitive_env):
    """A C-block dropped in the middle of a stack wraps the blocks below it. The oracle takes such
    a drop back (Ctrl+Z), hangs those blocks under the new block on free canvas, then moves it in:
    the new block ends up between the two, its mouth empty, and nothing is lost."""
    from scratch_gym.agents.composite_plan import BlockTree
    from scratch_gym.agents.primitive_oracle.editing import ScriptEditor

    primitive_env.reset(options={"task": "fix-bounce"})
    view = EditorView(primitive_env)
    blocks = view.vm()["blocks"]
    after = next(i for i, b in blocks.items() if b["opcode"] == "motion_gotoxy")
    tail = blocks[after]["next"]
    plan = ScriptEditor(view).insert(
        BlockTree("new", "control_repeat", ("control_repeat",)), after, None
    )
    made = None
    try:
        while True:
            primitive_env.step(next(plan))
    except StopIteration as stop:
        made = stop.value
    blocks = view.vm()["blocks"]
    assert blocks[made]["opcode"] == "control_repeat"
    assert blocks[after]["next"] == made and blocks[made]["next"] == tail
    assert not (blocks[made].get("inputs", {}).get("SUBSTACK") or {}).get("block")
    tops = [i for i, b in blocks.items() if not b.get("parent") and not b.get("shadow")]
    assert len(tops) == 1, tops  # one script: nothing was left apart


def test_deleting_a_drop_that_ctrl_z_left_keeps_the_blocks_it_wrapped(primitive_env):
    """Where Ctrl+Z leaves a failed drop in place, the oracle deletes the new block by dragging it
    onto the palette, which deletes what it holds too. A C-block dropped mid-stack holds the
    blocks below it: they are set aside first, back in the stack, and only the new block goes."""
    from scratch_gym.agents.composite_plan import BlockTree
    from scratch_gym.agents.primitive_oracle.editing import ScriptEditor

    primitive_env.reset(options={"task": "fix-bounce"})
    view = EditorView(primitive_env)
    blocks = view.vm()["blocks"]
    after = next(i for i, b in blocks.items() if b["opcode"] == "motion_gotoxy")
    tail = blocks[after]["next"]
    editor = ScriptEditor(view)
    source = _play(primitive_env, editor._source(BlockTree("new", "control_repeat", ())))
    target = _play(primitive_env, editor._target(after, None, None, source))
    before = set(view.vm()["blocks"])
    kept = {i for i in before if not blocks[i].get("shadow")}
    grab, hold = source["grab"], source["previous"]
    primitive_env.step(g.drag(grab, (grab[0] + target[0] - hold[0], grab[1] + target[1] - hold[1])))
    blocks = view.vm()["blocks"]
    (made,) = [i for i in blocks if i not in before and not blocks[i].get("shadow")]
    assert blocks[made]["inputs"]["SUBSTACK"]["block"] == tail  # it wrapped the blocks below

    _play(primitive_env, editor._remove_new(before))
    blocks = view.vm()["blocks"]
    assert made not in blocks
    assert kept <= set(blocks), kept - set(blocks)
    assert blocks[after]["next"] == tail


def _play(env, plan):
    """Step every action of an oracle generator through the env; returns its return value."""
    try:
        while True:
            env.step(next(plan))
    except StopIteration as stop:
        return stop.value


def test_a_new_definition_is_set_apart_below_the_scripts(primitive_env):
    """Make a Block puts the new definition at the top of the view, over the scripts there; the
    oracle drags it below all of them, so its body is built on free canvas."""
    from scratch_gym.agents.primitive_oracle.agent import PrimitiveOracleAgent, _overlap, _roots

    task = load_task("thermostat-limits")
    primitive_env.reset(options=task.reset_options())
    agent = make_agent("oracle", mode="primitive")
    assert isinstance(agent, PrimitiveOracleAgent)
    agent.bind(primitive_env)
    agent.reset(task)
    _, _, want = next(agent._targets_to_edit())
    _play(primitive_env, agent._define_blocks(want))
    ws = agent.view.workspace()
    defines = [b for b in ws["blocks"] if b["opcode"] == "procedures_definition"]
    root = _roots(ws["blocks"])
    others = [b for b in ws["blocks"] if root[b["id"]] not in {d["id"] for d in defines}]
    assert len(defines) == 2 and others
    for define in defines:
        assert define["y"] > max(b["y"] + b["h"] for b in others), define
        assert not any(_overlap(define, b) for b in others)


def test_a_second_pass_repairs_what_the_first_left_different(primitive_env, monkeypatch):
    """When the scripts still differ from the golden after the first pass (here its edits are
    skipped, as if a drag had undone them), the oracle goes over the targets again before it
    answers done, and the task is solved."""
    from scratch_gym.agents.primitive_oracle import agent as oracle_agent

    edit_target = oracle_agent.ScriptEditor.edit_target
    passes: list[int] = []

    def first_pass_lost(self, want):
        passes.append(1)
        return iter(()) if len(passes) == 1 else edit_target(self, want)

    monkeypatch.setattr(oracle_agent.ScriptEditor, "edit_target", first_pass_lost)
    agent = make_agent("oracle", mode="primitive")
    outcome = run_episode(primitive_env, agent, load_task("say-hello"))
    assert len(passes) == 2
    assert outcome["status"] == "success" and agent.info.get("differs_from_golden") is None
