"""Tests of shopping-basket: the basket fills and counts as before; r removes, a adds on top."""

from scratch_gym.tasks import List, Said

START = ["apple", "bread", "milk"]


def _ready(run):
    run.set_list("basket", ["old", "stuff"])
    run.green_flag().frames(5)


def test_green_flag_fills_the_basket(run):
    _ready(run)
    assert run.list("basket") == START, f"basket is {run.list('basket')}"
    assert "Ready to shop!" in run.said("Shopper"), f"Shopper said {run.said('Shopper')}"


def test_click_counts_items(run):
    _ready(run)
    run.click("Shopper").frames(2)
    bubble = run.sprite("Shopper").bubble
    assert bubble == "Items: 3", f"clicking shows {bubble!r}, not 'Items: 3'"


def test_r_removes_the_named_item(run):
    _ready(run)
    run.answer("bread").press("r")
    run.wait_until(
        Said("Shopper").contains("Removed bread"), frames=30, message="never said 'Removed bread'"
    )
    assert run.list("basket") == ["apple", "milk"], f"basket is {run.list('basket')}"
    run.click("Shopper").frames(2)
    assert run.sprite("Shopper").bubble == "Items: 2", f"shows {run.sprite('Shopper').bubble!r}"


def test_r_with_a_missing_item(run):
    _ready(run)
    run.answer("cake").press("r")
    run.wait_until(
        Said("Shopper").contains("No cake in the basket"),
        frames=30,
        message="never said 'No cake in the basket'",
    )
    assert run.list("basket") == START, f"basket changed to {run.list('basket')}"


def test_a_adds_a_new_item_on_top(run):
    _ready(run)
    run.answer("eggs").press("a")
    run.wait_until(List("basket").contains("eggs"), frames=30, message="eggs never added")
    assert run.list("basket") == ["eggs", *START], f"basket is {run.list('basket')}"


def test_a_refuses_duplicates(run):
    _ready(run)
    run.answer("milk").press("a")
    run.wait_until(
        Said("Shopper").contains("Already have it"), frames=30, message="no 'Already have it'"
    )
    assert run.list("basket") == START, f"basket changed to {run.list('basket')}"
