"""Virtual time on the evaluation VM: timing blocks, budgets, failures that do not stop evaluation."""

from __future__ import annotations

from scratch_gym.tasks import Evaluator, Said, Sprite, Timer, idle
from scratch_gym.tasks.projects import project_json
from tests.tasks.conftest import code_task, sprite_project

TIMED = """
when @greenFlag clicked
glide (2) secs to x: (100) y: (0)
wait (1) seconds
say [done] for (1) seconds
say [bye]
"""


def warp_project(scripts: str) -> dict:
    """The project.json of Sprite1 running ``scripts``, its custom blocks run without screen
    refresh (warp mode)."""
    data = project_json(sprite_project(scripts))
    for b in data["targets"][1]["blocks"].values():
        if isinstance(b, dict) and b.get("opcode") in ("procedures_prototype", "procedures_call"):
            b["mutation"]["warp"] = "true"
    return data


def test_glide_wait_say_for_and_timer_follow_virtual_time(page):
    seen = {}

    def test_timeline(run):
        run.green_flag()
        seen["glide"] = run.wait_until(Sprite("Sprite1").x >= 100, frames=120)
        seen["done"] = run.wait_until(Said("Sprite1").contains("done"), frames=60)
        seen["bye"] = run.wait_until(Said("Sprite1").contains("bye"), frames=60)
        seen["timer"] = run.timer
        assert run.sprite("Sprite1").bubble == "bye"

    result = Evaluator(page, code_task(test_timeline)).evaluate(sprite_project(TIMED))
    assert result.success, result.to_info()
    # 2 s glide: 61 frames (the glide reaches x=100 on the frame after 2000 ms); 1 s wait;
    # "say for 1 s" ends through a virtual setTimeout
    assert (seen["glide"], seen["done"], seen["bye"]) == (61, 30, 30)
    assert abs(seen["timer"] - 121 / 30) < 0.01


def test_timer_block_reads_virtual_seconds(page):
    project = sprite_project("when @greenFlag clicked\nwait until <(timer) > (3)>\nsay [three]")

    def test_three(run):
        run.green_flag()
        frames = run.wait_until(Said().contains("three"), frames=200)
        assert 90 <= frames <= 92, frames
        run.expect(Timer() > 3)

    assert Evaluator(page, code_task(test_three)).evaluate(project).success


def test_forever_loop_error_and_unanswered_ask_fail_within_budget_and_evaluation_goes_on(page):
    project = sprite_project(
        "when @greenFlag clicked\nforever\n    turn right (1) degrees\nend\n\n"
        "when [a v] key pressed\nask [What is your name?] and wait\nsay (answer)"
    )

    def test_waits_for_the_loop_to_end(run):
        run.green_flag()
        assert run.until(idle(), frames=200), "the program never finished"

    def test_unanswered_ask(run):
        run.press("a")
        run.wait_until(Said("Sprite1").contains("Ann"), frames=90)

    def test_answered_ask(run):
        run.answer("Ann").press("a")
        run.wait_until(Said("Sprite1").contains("Ann"), frames=10)

    def test_runs_past_the_frame_budget(run):
        run.green_flag().frames(10_000)

    def test_after_the_failures(run):
        run.green_flag().frames(30)
        assert run.sprite("Sprite1").direction == 120

    task = code_task(
        test_waits_for_the_loop_to_end,
        test_unanswered_ask,
        test_answered_ask,
        test_runs_past_the_frame_budget,
        test_after_the_failures,
        frames=300,
        wall_s=5,
    )
    result = Evaluator(page, task).evaluate(project)
    by_name = {t.name: t for t in result.tests}
    assert [t.passed for t in result.tests] == [False, False, True, False, True], result.to_info()
    assert "never finished" in by_name["waits_for_the_loop_to_end"].message
    assert "waiting for an answer to 'What is your name?'" in by_name["unanswered_ask"].message
    assert "budget of 300 frames" in by_name["runs_past_the_frame_budget"].message
    assert by_name["runs_past_the_frame_budget"].frames == 300
    assert result.wall_s < 5
    assert result.psr == 2 / 5


def test_program_error_fails_its_test_and_the_next_test_runs(page):
    project = project_json(
        sprite_project(
            "define broken\nchange x by (5)\n\nwhen [e v] key pressed\nbroken\n\n"
            "when @greenFlag clicked\nsay [fine]"
        )
    )
    blocks = project["targets"][1]["blocks"]
    proto = next(b for b in blocks.values() if b.get("opcode") == "procedures_prototype")
    proto["mutation"]["argumentids"] = "["  # a damaged custom block definition: the VM throws

    def test_calls_the_damaged_block(run):
        run.press("e").frames(5)

    def test_green_flag_still_works(run):
        run.green_flag().frames(2)
        assert run.sprite("Sprite1").bubble == "fine"

    result = Evaluator(
        page, code_task(test_calls_the_damaged_block, test_green_flag_still_works)
    ).evaluate(project)
    first, second = result.tests
    assert not first.passed and "program raised an error" in first.message, first
    assert second.passed, second


def test_warp_forever_loop_is_bounded_and_wall_budget_fails_a_slow_test(page):
    data = warp_project(
        "define spin\nforever\n    change [n v] by (1)\nend\n\nwhen @greenFlag clicked\nspin\n",
    )

    def test_frames_still_advance(run):
        run.green_flag().frames(5)
        assert run.frame == 5

    def test_slow(run):
        run.green_flag().frames(290)

    quick = Evaluator(page, code_task(test_frames_still_advance)).evaluate(data)
    assert quick.success, quick.to_info()
    slow = Evaluator(page, code_task(test_slow, frames=300, wall_s=0.3)).evaluate(data)
    assert not slow.success and "wall-clock budget" in slow.tests[0].message, slow.to_info()


def test_a_frame_that_never_ends_is_cut_at_the_wall_budget(page):
    # Each pass of the warp loop scans a 300,000-item list: one frame is minutes of work.
    data = warp_project(
        "define scan\nforever\n    change [n v] by (item # of [zzz] in [big v])\nend\n\n"
        "when @greenFlag clicked\nscan\n",
    )
    sprite = data["targets"][1]
    sprite["lists"] = {"bigid": ["big", ["a"] * 300_000]}
    for b in sprite["blocks"].values():
        if isinstance(b, dict) and b.get("opcode") == "data_itemnumoflist":
            b["fields"]["LIST"] = ["big", "bigid"]

    def test_endless_frame(run):
        run.green_flag().frames(2)

    def test_next_test_runs(run):
        assert run.frame == 0

    result = Evaluator(
        page, code_task(test_endless_frame, test_next_test_runs, wall_s=1.0)
    ).evaluate(data)
    endless, after = result.tests
    # cut in the page between two clock reads, or by the watchdog when one step outlasts the rest
    assert not endless.passed and "did not finish within 1.0 s" in endless.message, endless
    assert after.passed, after


def test_clones_sensing_the_mouse_pointer_every_frame_run_to_the_end(page):
    # This program once hung the evaluation page; it must now run its 60 frames and be scored.
    project = sprite_project(
        "when @greenFlag clicked\nrepeat (50)\n    create clone of (myself v)\nend\n\n"
        "when I start as a clone\nforever\n    if <touching (mouse-pointer v)?> then\n"
        "        change [hits v] by (1)\n    end\n    go to (random position v)\nend\n"
    )

    def test_sixty_frames(run):
        run.green_flag().frames(60)
        assert run.frame == 60 and len(run.clones("Sprite1")) == 50

    result = Evaluator(page, code_task(test_sixty_frames)).evaluate(project)
    assert result.success, result.to_info()
