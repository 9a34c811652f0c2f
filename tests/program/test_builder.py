"""ProjectBuilder and assets, without a browser."""

from __future__ import annotations

import hashlib
import io
import json
import wave
import zipfile

import pytest

from scratch_gym.program import Costume, ProjectBuilder, ScratchblocksError, Sound
from scratch_gym.program.assets import circle_costume, rect_costume
from scratch_gym.program.projects import check_sb3


def _target(project: dict, name: str) -> dict:
    return next(t for t in project["targets"] if t["name"] == name)


def test_default_project_has_stage_and_cat_sprite():
    project = ProjectBuilder().build()
    assert [t["name"] for t in project["targets"]] == ["Stage", "Sprite1"]
    assert _target(project, "Sprite1")["costumes"][0]["name"] == "costume1"


def test_sprites_scripts_and_declarations():
    project = (
        ProjectBuilder()
        .sprite("Sprite1", x=10, scripts="when @greenFlag clicked\nchange [score v] by (1)")
        .sprite("Dog", y=-20, scripts="when @greenFlag clicked\nsay (score)\nsay (mine)")
        .sprite("Dog", variables={"mine": 5}, lists={"bag": ["a"]})
        .list("shared list", [1, 2])
        .broadcast("start")
        .build()
    )
    stage, cat, dog = project["targets"]
    assert (cat["x"], dog["y"], dog["layerOrder"]) == (10, -20, 2)
    # score is used by two sprites and declared by none: it becomes global
    assert [v[0] for v in stage["variables"].values()] == ["score"]
    assert cat["variables"] == {}
    assert sorted(v[0] for v in dog["variables"].values()) == ["mine"]
    assert list(dog["lists"].values()) == [["bag", ["a"]]]
    assert list(stage["lists"].values()) == [["shared list", [1, 2]]]
    assert "start" in stage["broadcasts"].values()
    ids = set(cat["blocks"]) | set(dog["blocks"])
    assert len(ids) == len(cat["blocks"]) + len(dog["blocks"])


def test_assets_are_named_by_md5_and_packed():
    ball = circle_costume("ball", 10, "#ff0000")
    beep = Sound.tone("beep", 440, 0.1, rate=8000)
    builder = ProjectBuilder().sprite("Ball", costumes=[ball], sounds=[beep])
    assert ball.md5ext == hashlib.md5(ball.data).hexdigest() + ".svg"
    assert ball.rotation_center == (11.0, 11.0)
    with wave.open(io.BytesIO(beep.data)) as w:
        assert (w.getframerate(), w.getnframes()) == (8000, 800)
    data = builder.sb3_bytes()
    check_sb3(data)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert set(zf.namelist()) == {"project.json", ball.md5ext, beep.md5ext}
        sprite = _target(json.loads(zf.read("project.json")), "Ball")
    assert sprite["costumes"] == [ball.entry()]
    assert sprite["sounds"][0]["sampleCount"] == 800


def test_bitmap_costume():
    from PIL import Image

    costume = Costume.from_image("dot", Image.new("RGBA", (8, 6), (255, 0, 0, 255)))
    assert (costume.data_format, costume.bitmap_resolution) == ("png", 2)
    assert costume.rotation_center == (4, 3)
    assert rect_costume("r", 10, 4).rotation_center == (5.0, 2.0)


def test_pen_extension_is_added_when_used():
    project = ProjectBuilder().sprite("Sprite1", scripts="pen down").build()
    assert project["extensions"] == ["pen"]


def test_script_errors_surface_when_building():
    builder = ProjectBuilder().sprite("Sprite1", scripts="mvoe (10) steps")
    with pytest.raises(ScratchblocksError):
        builder.build()
    with pytest.raises(KeyError):
        ProjectBuilder().remove_sprite("Nobody")
