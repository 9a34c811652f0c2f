"""Tests of party-guests: greeting works as before; returning guests get Welcome back, the
"guests" list holds each name once (emptied by the flag), a stage click thinks the count."""


def _sign_in(run, *names):
    for name in names:
        n = len(run.said("Host"))
        run.answer(name).click("Host").frames(6)
        assert len(run.said("Host")) > n, f"no answer to {name} signing in"


def test_invites_to_sign_in(run):
    run.green_flag().frames(3)
    assert run.sprite("Host").bubble == "Click me to sign in", f"{run.sprite('Host').bubble!r}"


def test_greets_a_new_guest(run):
    run.green_flag().frames(3)
    _sign_in(run, "Ana")
    assert run.sprite("Host").bubble == "Hello, Ana!", f"{run.sprite('Host').bubble!r}"


def test_welcomes_back_a_returning_guest(run):
    run.green_flag().frames(3)
    _sign_in(run, "Ana", "Ben", "Ana")
    said = [s for s in run.said("Host") if s.endswith("!")]
    assert said[-3:] == ["Hello, Ana!", "Hello, Ben!", "Welcome back, Ana!"], f"said {said}"
    assert run.list("guests") == ["Ana", "Ben"], f"guests is {run.list('guests')}"


def test_stage_click_thinks_the_count(run):
    run.green_flag().frames(3)
    _sign_in(run, "Ana", "Ben", "Ben")
    run.click("Stage").frames(3)
    host = run.sprite("Host")
    assert host.bubble == "2 guests so far", f"the Host shows {host.bubble!r}"
    assert host.bubble_type == "think", "the count should be a thought"


def test_green_flag_empties_the_book(run):
    run.set_list("guests", ["Zed"])
    run.green_flag().frames(3)
    _sign_in(run, "Zed")
    assert run.sprite("Host").bubble == "Hello, Zed!", f"{run.sprite('Host').bubble!r}"
    assert run.list("guests") == ["Zed"], f"guests is {run.list('guests')}"
