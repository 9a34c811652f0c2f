"""Episode recordings: each screenshot with its action drawn on it, an animated GIF and an HTML
page that steps through observation, action, reward and error.

Frame ``i`` (0-based, one per step) is the screen the agent saw before step ``i`` with that step's
action drawn (a ring for clicks, an arrow for drags, a caption for everything); one last frame
shows the final screen and the outcome. A recording of ``n`` steps has ``n + 1`` frames.
"""

from __future__ import annotations

import html
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

ACTION_COLOUR = (255, 0, 90)
END_COLOUR = (0, 170, 80)
BANNER = 28
FRAME_MS = 900


@dataclass
class StepRecord:
    image: np.ndarray
    action: Any
    reward: float = 0.0
    error: str = ""
    psr: float | None = None
    agent: dict[str, Any] = field(default_factory=dict)


class Recorder:
    """Collects the steps of one episode and writes ``frames/``, ``episode.gif``, ``index.html``."""

    def __init__(self, folder: str | Path, title: str = "") -> None:
        self.folder = Path(folder)
        self.title = title
        self.steps: list[StepRecord] = []
        self.final: np.ndarray | None = None
        self.outcome = ""

    def step(
        self, image: np.ndarray, action: Any, agent_info: dict[str, Any] | None = None
    ) -> None:
        self.steps.append(StepRecord(np.asarray(image), action, agent=dict(agent_info or {})))

    def result(self, reward: float, info: dict[str, Any]) -> None:
        """What the last step did (call after env.step)."""
        last = self.steps[-1]
        last.reward = float(reward)
        last.error = str(info.get("last_action_error") or info.get("infrastructure_error") or "")
        last.psr = info.get("psr")

    def finish(self, image: np.ndarray | None, outcome: str) -> Path:
        self.final = None if image is None else np.asarray(image)
        self.outcome = outcome
        return self.write()

    def frames(self) -> list[Image.Image]:
        out = [
            draw_action(s.image, s.action, f"step {i + 1}: {describe(s.action)}")
            for i, s in enumerate(self.steps)
        ]
        last = (
            self.final if self.final is not None else (self.steps[-1].image if self.steps else None)
        )
        if last is not None:
            out.append(draw_action(last, None, f"end: {self.outcome}"))
        return out

    def write(self) -> Path:
        frames_dir = self.folder / "frames"
        frames_dir.mkdir(parents=True, exist_ok=True)
        frames = self.frames()
        names = []
        for i, frame in enumerate(frames):
            name = f"frames/{i:03d}.png"
            frame.save(self.folder / name)
            names.append(name)
        if frames:
            small = [f.resize((f.width // 2, f.height // 2), Image.BILINEAR) for f in frames]
            small[0].save(
                self.folder / "episode.gif",
                save_all=True,
                append_images=small[1:],
                duration=FRAME_MS,
                loop=0,
            )
        steps = [
            {
                "step": i + 1,
                "action": s.action,
                "reward": s.reward,
                "error": s.error,
                "psr": s.psr,
                "analysis": s.agent.get("analysis", ""),
            }
            for i, s in enumerate(self.steps)
        ]
        _atomic_write(self.folder / "steps.json", json.dumps(steps, indent=1, default=str))
        _atomic_write(self.folder / "index.html", _html(self.title, names, steps, self.outcome))
        return self.folder


def describe(action: Any) -> str:
    """A short text of an action (primitive dict, composite dict or text)."""
    if isinstance(action, dict) and "action_type" in action:
        parts = [str(action["action_type"])]
        for key in ("start", "end"):
            if action.get(key) is not None:
                x, y = action[key]
                parts.append(f"{key}=({float(x):.0f},{float(y):.0f})")
        for key in ("text", "keys", "scroll"):
            if action.get(key) is not None:
                parts.append(f"{key}={action[key]!r}")
        return " ".join(parts)
    if isinstance(action, dict):
        return json.dumps(action, default=str, ensure_ascii=False)
    return str(action)


def draw_action(image: np.ndarray, action: Any, caption: str) -> Image.Image:
    """The screenshot with the action drawn and a caption banner above it."""
    base = Image.fromarray(np.asarray(image, dtype=np.uint8)).convert("RGB")
    canvas = Image.new("RGB", (base.width, base.height + BANNER), (20, 20, 20))
    canvas.paste(base, (0, BANNER))
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(size=16)
    draw.text((8, 5), caption[:150], fill=(255, 255, 255), font=font)
    if isinstance(action, dict):
        start, end = action.get("start"), action.get("end")
        if start is not None:
            sx, sy = float(start[0]), float(start[1]) + BANNER
            _ring(draw, sx, sy, ACTION_COLOUR)
            if end is not None and action.get("action_type") == "drag":
                ex, ey = float(end[0]), float(end[1]) + BANNER
                _arrow(draw, (sx, sy), (ex, ey))
                _ring(draw, ex, ey, END_COLOUR)
    return canvas


def _ring(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int]) -> None:
    for r, w in ((14, 4), (3, 3)):
        draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=w)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float]) -> None:
    draw.line((a, b), fill=ACTION_COLOUR, width=4)
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    for side in (-0.45, 0.45):
        tip = (b[0] - 18 * math.cos(angle + side), b[1] - 18 * math.sin(angle + side))
        draw.line((b, tip), fill=ACTION_COLOUR, width=4)


def _html(title: str, frames: list[str], steps: list[dict[str, Any]], outcome: str) -> str:
    rows = []
    for i, name in enumerate(frames):
        if i < len(steps):
            s = steps[i]
            text = (
                f"<b>step {s['step']}</b> action <code>{html.escape(describe(s['action']))}</code>"
                f" reward {s['reward']:+.3f}"
                + (f" psr {s['psr']:.3f}" if isinstance(s["psr"], (int, float)) else "")
                + (
                    f"<br><span class=err>error: {html.escape(s['error'])}</span>"
                    if s["error"]
                    else ""
                )
                + (f"<br><i>{html.escape(s['analysis'])}</i>" if s["analysis"] else "")
            )
        else:
            text = f"<b>end</b>: {html.escape(outcome)}"
        rows.append(f'<div class="step" data-i="{i}"><p>{text}</p><img src="{name}"></div>')
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:16px}} .step{{display:none}} .step.on{{display:block}}
img{{max-width:100%;border:1px solid #999}} .err{{color:#b00}} code{{background:#eee}}</style>
</head><body><h2>{html.escape(title)}</h2>
<p><button id=prev>&larr; prev</button> <span id=pos></span> <button id=next>next &rarr;</button>
(arrow keys step) &middot; <a href="episode.gif">animated GIF</a></p>
{"".join(rows)}
<script>
const steps=[...document.querySelectorAll('.step')];let i=0;
function show(k){{i=Math.max(0,Math.min(steps.length-1,k));steps.forEach((s,j)=>s.classList.toggle('on',j===i));
document.getElementById('pos').textContent=(i+1)+' / '+steps.length;}}
document.getElementById('prev').onclick=()=>show(i-1);document.getElementById('next').onclick=()=>show(i+1);
document.onkeydown=e=>{{if(e.key==='ArrowLeft')show(i-1);if(e.key==='ArrowRight')show(i+1);}};show(0);
</script></body></html>
"""


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
