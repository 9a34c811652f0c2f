"""Tests of greeter: both questions, the variables, next year's age, kid or not (edge 12/13)."""

from scratch_gym.tasks import Question, idle


def _chat(run, name, age):
    run.answer(name, age).green_flag()
    run.wait_until(idle(), frames=150, message=f"the chat with {name}, {age} never finished")
    # an ask shows its question in a bubble too: keep what was said besides the questions
    return [s for s in run.said("Sprite1") if s and not s.endswith("?")]


def test_asks_for_the_name(run):
    run.green_flag()
    run.wait_until(Question() == "What's your name?", frames=10, message="no name question")


def test_second_question_uses_the_name(run):
    run.answer("Ada").green_flag()
    run.wait_until(
        Question() == "Ada, how old are you?", frames=10, message="no 'Ada, how old are you?'"
    )
    assert run.var("name") == "Ada", f"name is {run.var('name')!r}"


def test_kid(run):
    said = _chat(run, "Ada", 9)
    assert said == ["Next year you will be 10", "You are a kid!"], f"said {said}"
    assert str(run.var("age")) == "9", f"age is {run.var('age')!r}"


def test_twelve_is_still_a_kid(run):
    said = _chat(run, "Tom", 12)
    assert said == ["Next year you will be 13", "You are a kid!"], f"said {said}"


def test_thirteen_is_not_a_kid(run):
    said = _chat(run, "Bob", 13)
    assert said == ["Next year you will be 14", "You are not a kid any more!"], f"said {said}"


def test_next_year_message_lasts_two_seconds(run):
    run.answer("Ada", 30).green_flag().frames(3)
    assert run.sprite("Sprite1").bubble == "Next year you will be 31", (
        f"the bubble is {run.sprite('Sprite1').bubble!r}"
    )
    run.seconds(1.7)
    assert run.sprite("Sprite1").bubble == "Next year you will be 31", "gone before 2 s"
    run.seconds(0.5)
    bubble = run.sprite("Sprite1").bubble
    assert bubble == "You are not a kid any more!", f"after 2 s the bubble is {bubble!r}"
