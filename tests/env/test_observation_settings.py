"""The paper's observation ablation through ``gym.make``: screen only, + elements, + OCR text
fused as ScratchWorld fuses it, on a scene built here in the real editor."""

from __future__ import annotations

import gymnasium as gym
import pytest

import scratch_gym  # noqa: F401  (registers the ids)
from scratch_gym.ocr import missing_packages
from scratch_gym.program.projects import empty_project

MISSING = missing_packages("paddleocr")


def comment_scene() -> dict:
    """The empty project with two workspace comments: an open one (its text is a DOM textarea)
    and a minimized one, whose title only the pixels show."""
    project = empty_project()
    project["targets"][1]["comments"] = {
        "open": {"blockId": None, "x": 60, "y": 80, "width": 200, "height": 120,
                 "minimized": False, "text": "Zebra crossing"},
        "shut": {"blockId": None, "x": 60, "y": 300, "width": 200, "height": 120,
                 "minimized": True, "text": "Giraffe"},
    }  # fmt: skip
    return project


def test_each_setting_builds_its_space_and_a_bad_name_lists_the_allowed_ones():
    spaces = {}
    for name in ("screen", "screen_elements", "screen_elements_ocr", "paper"):
        env = gym.make("ScratchWorld-Primitive-v0", observation=name)
        spaces[name] = set(env.observation_space.spaces)
        env.close()
    assert "elements" not in spaces["screen"]
    assert spaces["screen_elements"] == spaces["screen_elements_ocr"] == spaces["paper"]
    assert spaces["screen_elements"] == spaces["screen"] | {"elements"}
    with pytest.raises(ValueError, match="allowed: .*screen_elements_ocr, paper"):
        gym.make("ScratchWorld-Primitive-v0", observation="screen_ocr")


@pytest.mark.browser
@pytest.mark.skipif(bool(MISSING), reason=f"the ocr extra is missing ({', '.join(MISSING)})")
def test_ocr_fusion_adds_text_that_the_dom_list_lacks():
    env = gym.make("ScratchWorld-Primitive-v0", observation="screen_elements_ocr")
    try:
        obs, info = env.reset(options={"project": comment_scene()})
        elements = info["elements"]
        dom = [e for e in elements if e["source"] == "dom"]
        ocr = [e for e in elements if e["source"] == "ocr"]
        assert not any("giraffe" in e.get("text", "").lower() for e in dom)
        found = [e for e in ocr if "giraffe" in e["text"].lower()]
        assert len(found) == 1 and found[0]["type"] == "text", ocr
        assert f'"{found[0]["text"]}"' in obs["elements"]
        # the open comment's text is a DOM element that holds the OCR line: listed once
        assert any(e.get("text") == "Zebra crossing" for e in dom)
        assert not any("zebra" in e["text"].lower() for e in ocr)
        assert ocr and all(e["score"] >= 0.5 for e in ocr)
        assert info["ocr_ms"] > 0
        # a step that changes nothing on screen reuses the frame's OCR
        obs, _, _, _, info = env.step(
            {"action_type": "scroll", "start": [700, 30], "scroll": [0, 0]}
        )
        assert [e.get("text") for e in info["elements"]] == [e.get("text") for e in elements]
    finally:
        env.close()
