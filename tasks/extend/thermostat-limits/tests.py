"""Tests of thermostat-limits: the flag and the arrows work as before; the temperature stays
within 15..25 (thinking Limit reached! at a limit), the costume shows hot/ok/cold, space adds 3."""

from scratch_gym.tasks import Var


def _start(run):
    run.set_variable("temp", 99)
    run.green_flag().frames(3)


def _keys(run, key, times):
    for _ in range(times):
        run.press(key).frames(1)
    run.frames(2)


def _state(run):
    t = run.sprite("Thermostat")
    return str(run.var("temp")), t.costume, t.bubble, t.bubble_type


def test_green_flag_starts_at_20(run):
    _start(run)
    assert _state(run)[:3] == ("20", "ok", "20"), f"temp, costume, bubble: {_state(run)}"


def test_arrows_change_by_one(run):
    _start(run)
    _keys(run, "up arrow", 2)
    assert _state(run)[::2] == ("22", "22"), f"after up, up: {_state(run)}"
    _keys(run, "down arrow", 3)
    assert _state(run)[:3] == ("19", "ok", "19"), f"after down x3: {_state(run)}"


def test_costume_shows_hot_ok_cold(run):
    _start(run)
    _keys(run, "up arrow", 3)
    assert _state(run)[:2] == ("23", "hot"), f"at 23: {_state(run)}"
    _keys(run, "down arrow", 1)
    assert _state(run)[:2] == ("22", "ok"), f"at 22: {_state(run)}"
    _keys(run, "down arrow", 5)
    assert _state(run)[:2] == ("17", "cold"), f"at 17: {_state(run)}"


def test_stops_at_25(run):
    _start(run)
    _keys(run, "up arrow", 7)
    assert _state(run) == ("25", "hot", "Limit reached!", "think"), f"after 7 ups: {_state(run)}"


def test_stops_at_15(run):
    _start(run)
    _keys(run, "down arrow", 7)
    state = _state(run)
    assert state == ("15", "cold", "Limit reached!", "think"), f"after 7 downs: {state}"
    _keys(run, "up arrow", 1)
    assert _state(run)[2:] == ("16", "say"), f"at 16 it should say 16: {_state(run)}"


def test_space_boosts_by_3(run):
    _start(run)
    _keys(run, "space", 1)
    run.expect(Var("temp") == 23, "space should raise 20 to 23")
    assert _state(run)[2] == "23", f"after space: {_state(run)}"
    _keys(run, "space", 2)
    assert _state(run)[:3] == ("25", "hot", "Limit reached!"), f"after 3 spaces: {_state(run)}"
