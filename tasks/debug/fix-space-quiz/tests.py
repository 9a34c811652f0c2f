"""Tests of fix-space-quiz: the welcome, the three questions in order, feedback on right and wrong
answers (with the right answer), the score, and the final message."""

from scratch_gym.tasks import Said

QUESTIONS = [
    "What is the largest planet?",
    "How many moons does Mars have?",
    "Which planet do we live on?",
]


def _play(run, *answers):
    run.answer(*answers)
    run.green_flag()
    run.wait_until(
        Said("Robot").includes_text("You scored"), frames=300, message="the quiz never ended"
    )
    return [s for s in run.said("Robot") if s]


def test_welcome_then_questions_in_order(run):
    said = _play(run, "Jupiter", "2", "Earth")
    assert said[0] == "Welcome to the space quiz!", f"first said {said[:1]}"
    asked = [s for s in said if s in QUESTIONS]
    assert asked == QUESTIONS, f"questions asked: {asked}"


def test_all_right(run):
    said = _play(run, "Jupiter", "2", "Earth")
    assert said.count("Correct!") == 3, f"said {said}"
    assert said[-1] == "You scored 3 out of 3", f"last said {said[-1]!r}"
    assert run.var("score") in (3, "3"), f"score is {run.var('score')!r}"


def test_all_wrong_shows_the_answers(run):
    said = _play(run, "Saturn", "5", "Mars")
    hints = [s for s in said if s.startswith("The answer is")]
    assert hints == ["The answer is Jupiter", "The answer is 2", "The answer is Earth"], (
        f"said {said}"
    )
    assert "Correct!" not in said, f"said {said}"
    assert said[-1] == "You scored 0 out of 3", f"last said {said[-1]!r}"


def test_mixed_answers(run):
    said = _play(run, "jupiter", "3", "Earth")
    feedback = [s for s in said if s == "Correct!" or s.startswith("The answer is")]
    assert feedback == ["Correct!", "The answer is 2", "Correct!"], f"feedback {feedback}"
    assert said[-1] == "You scored 2 out of 3", f"last said {said[-1]!r}"
