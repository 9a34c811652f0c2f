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


def _settle_in_page(page, from_call: bool, scroll_on_frame: int | None = None) -> dict:
    """``editor.settle`` with two stable frames, run in the page; with ``scroll_on_frame`` the
    workspace scrolls by 40 px in that animation frame after the call."""
    return page.page.evaluate(
        """async ([fromCall, scrollOn]) => {
          const ws = ScratchGym.workspace();
          if (scrollOn !== null) {
            let n = 0;
            const tick = () => {
              if (++n === scrollOn) ws.scroll(ws.scrollX + 40, ws.scrollY);
              else requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }
          return (await ScratchGym.call('editor.settle',
            {timeout_ms: 3000, stable_frames: 2, from_call: fromCall})).value;
        }""",
        [from_call, scroll_on_frame],
    )


def test_a_step_settle_counts_its_stable_frames_from_the_call(fresh_editor):
    """With from_call (an env step's settle), a still editor settles after two frames, not three;
    a change in one of them starts the count again."""
    still = _settle_in_page(fresh_editor, from_call=True)
    assert still["settled"] and still["frames"] == 2, still
    full = _settle_in_page(fresh_editor, from_call=False)
    assert full["settled"] and full["frames"] == 3, full
    moved = _settle_in_page(fresh_editor, from_call=True, scroll_on_frame=1)
    assert moved["settled"] and moved["frames"] >= 3, moved
    fresh_editor.bridge.view_reset()
