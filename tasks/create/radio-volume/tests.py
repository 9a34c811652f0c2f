"""Tests of radio-volume: the start state, volume up and down with what is said, the limits,
muting, and switching on and off by clicks."""


def _volume(run):
    return round(run.sprite("Radio").volume)


def test_green_flag_sets_half_volume_and_off(run):
    run.green_flag().frames(2)
    assert _volume(run) == 50, f"volume is {_volume(run)}"
    assert run.sprite("Radio").costume == "off", f"costume {run.sprite('Radio').costume!r}"


def test_up_and_down_say_the_new_volume(run):
    run.green_flag().frames(2)
    run.press("up arrow").frames(2)
    assert _volume(run) == 60, f"volume is {_volume(run)} after up"
    run.press("down arrow").frames(2).press("down arrow").frames(2)
    assert _volume(run) == 40, f"volume is {_volume(run)} after up, down, down"
    said = run.said("Radio")
    assert said == ["Volume: 60", "Volume: 50", "Volume: 40"], f"the Radio said {said}"


def test_volume_stops_at_100(run):
    run.green_flag().frames(2)
    for _ in range(7):
        run.press("up arrow").frames(2)
    assert _volume(run) == 100, f"volume is {_volume(run)} after 7 ups"
    assert run.sprite("Radio").bubble == "Volume: 100", f"bubble {run.sprite('Radio').bubble!r}"


def test_m_mutes(run):
    run.green_flag().frames(2)
    run.press("m").frames(2)
    assert _volume(run) == 0 and run.sprite("Radio").bubble == "Muted", "m should mute"
    run.press("up arrow").frames(2)
    assert run.sprite("Radio").bubble == "Volume: 10", f"bubble {run.sprite('Radio').bubble!r}"


def test_clicks_switch_on_and_off(run):
    run.green_flag().frames(2)
    costumes = []
    for _ in range(3):
        run.click("Radio").frames(40)
        costumes.append(run.sprite("Radio").costume)
    assert costumes == ["on", "off", "on"], f"costumes after three clicks: {costumes}"
