"""Tests of guest-book: emptying on the flag, new and returning guests, the guest count."""

from scratch_gym.tasks import idle


def _sign_in(run, name):
    run.answer(name).click("Book")
    run.wait_until(idle(), frames=30, message=f"signing in {name} never finished")
    return run.sprite("Book").bubble


def test_green_flag_empties_the_book(run):
    run.set_list("guests", ["Zed", "Ann"])
    run.green_flag().frames(2)
    assert run.list("guests") == [], f"the list holds {run.list('guests')}"
    assert run.sprite("Book").bubble == "Click me to sign in!", "the welcome text"


def test_new_guest(run):
    run.green_flag().frames(2)
    bubble = _sign_in(run, "Ada")
    assert bubble == "Nice to meet you, Ada", f"the Book says {bubble!r}"
    assert run.list("guests") == ["Ada"], f"the list holds {run.list('guests')}"


def test_returning_guest_is_not_added_again(run):
    run.green_flag().frames(2)
    _sign_in(run, "Ada")
    _sign_in(run, "Bob")
    bubble = _sign_in(run, "Ada")
    assert bubble == "Welcome back, Ada", f"the Book says {bubble!r} to Ada the second time"
    assert run.list("guests") == ["Ada", "Bob"], f"the list holds {run.list('guests')}"


def test_n_says_the_number_of_guests(run):
    run.green_flag().frames(2)
    for name in ("Ada", "Bob", "Ada", "Cy"):
        _sign_in(run, name)
    run.press("n").frames(2)
    bubble = run.sprite("Book").bubble
    assert bubble == "Guests: 3", f"the Book says {bubble!r} after Ada, Bob, Ada, Cy"
