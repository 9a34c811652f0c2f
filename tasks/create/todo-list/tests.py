"""Tests of todo-list: emptying on the flag, adding at the top, finishing tasks, finding them."""

from scratch_gym.tasks import idle


def _key(run, key, answer=None):
    if answer is not None:
        run.answer(answer)
    run.press(key)
    run.wait_until(idle(), frames=30, message=f"the {key} key's script never finished")
    return run.sprite("Notebook").bubble


def _fill(run, *tasks):
    run.green_flag().frames(2)
    for task in tasks:
        _key(run, "a", task)


def test_green_flag_empties_the_list(run):
    run.set_list("todo", ["old", "stuff"])
    run.green_flag().frames(2)
    assert run.list("todo") == [], f"the list holds {run.list('todo')}"


def test_a_adds_at_the_top(run):
    run.green_flag().frames(2)
    assert _key(run, "a", "milk") == "Tasks: 1", "after adding milk"
    assert _key(run, "a", "bread") == "Tasks: 2", "after adding bread"
    assert run.list("todo") == ["bread", "milk"], f"the list holds {run.list('todo')}"


def test_d_finishes_the_top_task(run):
    _fill(run, "milk", "bread")
    assert _key(run, "d") == "Done: bread", "the first d"
    assert run.list("todo") == ["milk"], f"the list holds {run.list('todo')}"
    assert _key(run, "d") == "Done: milk", "the second d"
    assert _key(run, "d") == "Nothing to do!", "d on an empty list"
    assert run.list("todo") == [], f"the list holds {run.list('todo')}"


def test_f_finds_a_task(run):
    _fill(run, "milk", "bread", "eggs")
    assert _key(run, "f", "milk") == "Number 3", "finding milk in eggs, bread, milk"
    assert _key(run, "f", "eggs") == "Number 1", "finding eggs"
    assert _key(run, "f", "cake") == "Not on the list", "finding cake"
