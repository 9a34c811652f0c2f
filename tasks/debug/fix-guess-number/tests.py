"""Tests of fix-guess-number: the question, the Too high!/Too low! hints (read against the secret
number the program picked), and the final message with the number of tries."""

from scratch_gym.tasks import Question, Said, asking


def _secret(run):
    run.green_flag()
    run.wait_until(asking(), frames=10, message="the Wizard never asked for a guess")
    return int(run.var("secret"))


def test_asks_for_a_guess(run):
    run.green_flag()
    run.wait_until(
        Question() == "Guess my number from 1 to 50", frames=10, message="no first question"
    )
    secret = int(run.var("secret"))
    assert 1 <= secret <= 50, f"the secret number is {secret}"


def test_too_high(run):
    secret = _secret(run)
    run.answer(secret + 7)
    run.wait_until(Said("Wizard").contains("Too high!"), frames=10, message="no Too high!")
    run.expect(~Said("Wizard").contains("Too low!"), f"{secret + 7} is not too low")


def test_too_low(run):
    secret = _secret(run)
    run.answer(secret - 7)
    run.wait_until(Said("Wizard").contains("Too low!"), frames=10, message="no Too low!")
    run.expect(~Said("Wizard").contains("Too high!"), f"{secret - 7} is not too high")


def test_hints_then_win_counts_tries(run):
    secret = _secret(run)
    run.answer(secret + 3, secret - 2, secret)
    run.wait_until(
        Said("Wizard").contains("You got it in 3 tries!"), frames=120, message="no win message"
    )
    said = [s for s in run.said("Wizard") if s and not s.startswith("Guess")]
    assert said == ["Too high!", "Too low!", "You got it in 3 tries!"], f"said {said}"
