"""Settle detection copes with what Blockly 12 shows differently from the VM."""

from __future__ import annotations

from scratch_gym.program import ProjectBuilder


def test_settles_with_reporters_over_shadows_and_custom_blocks(fresh_editor):
    project = (
        ProjectBuilder()
        .sprite(
            "Sprite1",
            scripts=(
                "when @greenFlag clicked\n"
                "move ((x position) + (2)) steps\n"
                "\n"
                "define jump (h)\n"
                "change y by (h)\n"
            ),
        )
        .build()
    )
    fresh_editor.load_project(project)
    result = fresh_editor.settle(timeout_ms=3000)
    assert result["settled"], result
    assert result["ms"] < 3000
