"""Tests of top-scores: the flag empties "scores" and a lower score still gets "Scores: N"; the
list stays sorted highest first, holds only the top 3, and a new best says New high score!."""


def _enter(run, *scores):
    for score in scores:
        n = len(run.said("Scoreboard"))
        run.answer(score).click("Scoreboard").frames(8)
        assert len(run.said("Scoreboard")) > n, f"no reply after entering {score}"


def _scores(run):
    return [str(s) for s in run.list("scores")]


def test_green_flag_empties_scores(run):
    run.set_list("scores", [5, 6])
    run.green_flag().frames(2)
    assert _scores(run) == [], f"scores is {_scores(run)} after the green flag"


def test_first_score_is_a_high_score(run):
    run.green_flag().frames(2)
    _enter(run, 50)
    assert _scores(run) == ["50"], f"scores is {_scores(run)}"
    assert run.sprite("Scoreboard").bubble == "New high score!", "50 is the best so far"


def test_lower_score_says_the_count(run):
    run.green_flag().frames(2)
    _enter(run, 50, 20)
    assert _scores(run) == ["50", "20"], f"scores is {_scores(run)}"
    assert run.sprite("Scoreboard").bubble == "Scores: 2", f"{run.sprite('Scoreboard').bubble!r}"


def test_sorted_highest_first(run):
    run.green_flag().frames(2)
    _enter(run, 50, 80, 60)
    assert _scores(run) == ["80", "60", "50"], f"scores is {_scores(run)}"
    assert run.said("Scoreboard")[-1] == "Scores: 3", f"said {run.said('Scoreboard')}"
    _enter(run, 90)
    assert run.sprite("Scoreboard").bubble == "New high score!", "90 beats 80"


def test_keeps_only_the_top_three(run):
    run.green_flag().frames(2)
    _enter(run, 10, 20, 30, 40)
    assert _scores(run) == ["40", "30", "20"], f"scores is {_scores(run)}"
    _enter(run, 5)
    assert _scores(run) == ["40", "30", "20"], f"after 5: {_scores(run)}"
    assert run.sprite("Scoreboard").bubble == "Scores: 3", f"{run.sprite('Scoreboard').bubble!r}"
