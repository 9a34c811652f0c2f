"""How much work one frame of virtual time holds: a loop that never asks for a redraw runs until
the frame's budget is spent, counted in clock reads; a colour query costs as much as 20 reads, so a
loop polling ``touching color`` does about as many passes a frame as the editor does (tens, not
hundreds), and evaluating it costs no more wall time than the editor would spend."""

from __future__ import annotations

from scratch_gym.program import ProjectBuilder
from scratch_gym.tasks import Evaluator
from tests.tasks.conftest import code_task

COUNTING = """
when @greenFlag clicked
set [n v] to (0)
forever
  change [n v] by (1)
  {body}
end
"""
POLLING = """if <touching color [#1505ff]?> then
    move (10) steps
  end"""


def passes_per_frame(page, body: str) -> float:
    """Loop passes per frame over 30 frames (the colour is nowhere on the stage: nothing moves)."""
    project = (
        ProjectBuilder()
        .sprite("Sprite1", scripts=COUNTING.format(body=body), variables={"n": 0})
        .sb3_bytes()
    )
    seen: dict[str, float] = {}

    def test_count(run):
        run.green_flag().frames(1)
        first = run.var("n", sprite="Sprite1")
        run.frames(30)
        seen["passes"] = (run.var("n", sprite="Sprite1") - first) / 30

    result = Evaluator(page, code_task(test_count, wall_s=30.0)).evaluate(project)
    assert result.success, result.to_info()
    return seen["passes"]


def test_a_colour_polling_loop_does_tens_of_passes_a_frame_not_hundreds(page):
    counting = passes_per_frame(page, "")
    polling = passes_per_frame(page, POLLING)
    # counting alone: the 25 ms budget at 0.05 ms a clock read, a few hundred passes
    assert 200 <= counting <= 600, counting
    # with a colour query (1 ms) in each pass: about 25, as many as an editor manages
    assert 10 <= polling <= 30, polling
