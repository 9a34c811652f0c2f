"""Tests of bakery-orders: taking orders works as before; v queues a VIP order first, space
serves the oldest order (or says No orders), c changes the last order."""

from scratch_gym.tasks import Said, Sprite


def _open(run):
    run.set_list("orders", ["stale bread"])
    run.green_flag().frames(3)


def _order(run, key, food):
    run.answer(food).press(key)
    run.wait_until(
        Sprite("Baker").bubble.includes_text("Orders waiting"),
        frames=20,
        message=f"no 'Orders waiting' after ordering {food} with {key}",
    )
    run.frames(2)


def test_green_flag_opens_the_bakery(run):
    _open(run)
    assert run.list("orders") == [], f"orders is {run.list('orders')} after the green flag"
    assert run.sprite("Baker").bubble == "Open for business!", "the Baker should greet"


def test_n_takes_orders(run):
    _open(run)
    _order(run, "n", "cake")
    _order(run, "n", "pie")
    assert run.list("orders") == ["cake", "pie"], f"orders is {run.list('orders')}"
    assert run.sprite("Baker").bubble == "Orders waiting: 2", f"{run.sprite('Baker').bubble!r}"


def test_v_puts_vip_orders_first(run):
    _open(run)
    _order(run, "n", "cake")
    _order(run, "v", "tea")
    assert run.list("orders") == ["tea", "cake"], f"orders is {run.list('orders')}"
    assert run.sprite("Baker").bubble == "Orders waiting: 2", f"{run.sprite('Baker').bubble!r}"


def test_space_serves_the_first_order(run):
    _open(run)
    _order(run, "n", "cake")
    _order(run, "n", "pie")
    run.press("space").frames(3)
    assert run.sprite("Baker").bubble == "Here is your cake", f"{run.sprite('Baker').bubble!r}"
    assert run.list("orders") == ["pie"], f"orders is {run.list('orders')} after serving"


def test_space_with_no_orders(run):
    _open(run)
    run.frames(30).press("space").frames(3)
    assert run.sprite("Baker").bubble == "No orders", f"{run.sprite('Baker').bubble!r}"
    assert run.list("orders") == [], f"orders is {run.list('orders')}"


def test_c_changes_the_last_order(run):
    _open(run)
    _order(run, "n", "cake")
    _order(run, "n", "pie")
    run.answer("bun").press("c")
    run.wait_until(Said("Baker").contains("Changed!"), frames=20, message="never said Changed!")
    assert run.list("orders") == ["cake", "bun"], f"orders is {run.list('orders')}"
