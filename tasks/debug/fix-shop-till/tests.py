"""Tests of fix-shop-till: clicking goods fills the basket; clicking the Till adds up the prices of
what is in the basket (looked up by name), takes 2 off a total over 10, says the total and empties
the basket for the next customer."""


def _shop(run, *goods):
    for name in goods:
        run.click(name).frames(1)


def _checkout(run, label):
    before = len([s for s in run.said("Till") if s.startswith("Total")])
    run.click("Till").frames(30)
    totals = [s for s in run.said("Till") if s.startswith("Total")]
    assert len(totals) > before, f"{label}: the Till said no total"
    return totals[-1]


def test_goods_go_into_the_basket(run):
    run.green_flag().frames(1)
    _shop(run, "Apple", "Milk", "Apple")
    basket = run.list("basket")
    assert basket == ["apple", "milk", "apple"], f"basket {basket}"


def test_small_total(run):
    run.green_flag().frames(1)
    _shop(run, "Milk", "Bread")
    said = _checkout(run, "milk + bread")
    assert said == "Total: 4", f"milk (1) + bread (3): the Till says {said!r}"


def test_discount_over_ten(run):
    run.green_flag().frames(1)
    _shop(run, "Cheese", "Apple", "Cheese")
    said = _checkout(run, "cheese + apple + cheese")
    assert said == "Total with discount: 10", f"5 + 2 + 5 = 12 minus 2: the Till says {said!r}"


def test_no_discount_at_exactly_ten(run):
    run.green_flag().frames(1)
    _shop(run, "Cheese", "Bread", "Apple")
    said = _checkout(run, "cheese + bread + apple")
    assert said == "Total: 10", f"5 + 3 + 2: the Till says {said!r}"


def test_next_customer_starts_fresh(run):
    run.green_flag().frames(1)
    _shop(run, "Bread", "Apple")
    first = _checkout(run, "first customer")
    assert run.list("basket") == [], f"the basket after checkout: {run.list('basket')}"
    _shop(run, "Cheese")
    second = _checkout(run, "second customer")
    assert (first, second) == ("Total: 5", "Total: 5"), f"totals {first!r}, {second!r}"


def test_big_basket(run):
    run.green_flag().frames(1)
    _shop(run, *["Milk"] * 11)
    said = _checkout(run, "eleven milks")
    assert said == "Total with discount: 9", f"11 milks (11) minus 2: the Till says {said!r}"
