"""Tests of parrot-memory: the greeting and the repeating still work; the "memory" list keeps
the last 3 things said (emptied by the flag); space thinks them back a second each, then
says Squawk!."""

from scratch_gym.tasks import Said


def _teach(run, *words):
    run.set_list("memory", ["old"]).set_variable("i", 9, sprite="Parrot")
    run.green_flag().frames(2)
    for word in words:
        run.answer(word).click("Parrot").frames(6)


def test_greets_on_green_flag(run):
    run.green_flag().frames(2)
    assert run.sprite("Parrot").bubble == "Polly wants a cracker!", "no greeting"


def test_repeats_what_it_hears(run):
    _teach(run, "hello")
    assert run.sprite("Parrot").bubble == "hello", (
        f"the Parrot shows {run.sprite('Parrot').bubble!r}"
    )


def test_remembers_what_it_hears(run):
    _teach(run, "hi", "bye")
    assert run.list("memory") == ["hi", "bye"], f"memory is {run.list('memory')}"


def test_keeps_only_the_last_three(run):
    _teach(run, "a", "b", "c", "d")
    assert run.list("memory") == ["b", "c", "d"], f"memory is {run.list('memory')}"


def test_space_thinks_them_back(run):
    _teach(run, "one", "two", "three", "four")
    run.press("space").frames(15)
    parrot = run.sprite("Parrot")
    assert (parrot.bubble, parrot.bubble_type) == ("two", "think"), (
        f"half a second after space the Parrot shows {parrot.bubble!r} ({parrot.bubble_type})"
    )
    run.seconds(1)
    assert run.sprite("Parrot").bubble == "three", f"then {run.sprite('Parrot').bubble!r}"
    run.wait_until(Said("Parrot").contains("Squawk!"), frames=60, message="never said Squawk!")
    assert run.said("Parrot")[-4:] == ["two", "three", "four", "Squawk!"], (
        f"the Parrot said {run.said('Parrot')}"
    )
