"""Costume and sound assets for built projects: SVG drawn from shapes, WAV synthesised from tones.

Assets are stored in an .sb3 under their md5 (``<md5>.<ext>``), which is how the editor finds
them; :class:`Costume` and :class:`Sound` compute that name and the ``project.json`` entry.
"""

from __future__ import annotations

import hashlib
import io
import math
import struct
import wave
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image


def md5_hex(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


# -- costumes -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Costume:
    """A costume: its bytes, format (``svg`` or ``png``) and rotation centre (costume pixels)."""

    name: str
    data: bytes
    data_format: str = "svg"
    rotation_center: tuple[float, float] = (0.0, 0.0)
    bitmap_resolution: int = 1

    @property
    def asset_id(self) -> str:
        return md5_hex(self.data)

    @property
    def md5ext(self) -> str:
        return f"{self.asset_id}.{self.data_format}"

    def entry(self) -> dict[str, Any]:
        """The costume's ``project.json`` entry."""
        return {
            "name": self.name,
            "bitmapResolution": self.bitmap_resolution,
            "dataFormat": self.data_format,
            "assetId": self.asset_id,
            "md5ext": self.md5ext,
            "rotationCenterX": self.rotation_center[0],
            "rotationCenterY": self.rotation_center[1],
        }

    @classmethod
    def from_svg(
        cls, name: str, svg: str | bytes, rotation_center: tuple[float, float] | None = None
    ) -> Costume:
        """A costume from SVG text; the rotation centre defaults to the middle of its size."""
        data = svg.encode("utf-8") if isinstance(svg, str) else svg
        if rotation_center is None:
            rotation_center = _svg_middle(data)
        return cls(name, data, "svg", rotation_center, 1)

    @classmethod
    def from_image(
        cls, name: str, image: Image.Image, rotation_center: tuple[float, float] | None = None
    ) -> Costume:
        """A bitmap costume from a Pillow image (stored as PNG at bitmap resolution 2, as the
        editor does; the rotation centre is in the image's pixels)."""
        buf = io.BytesIO()
        image.save(buf, format="PNG")
        w, h = image.size
        center = rotation_center if rotation_center is not None else (w / 2, h / 2)
        return cls(name, buf.getvalue(), "png", center, 2)


def _svg_middle(data: bytes) -> tuple[float, float]:
    import re

    head = data[:500].decode("utf-8", "replace")
    w = re.search(r'width="([\d.]+)', head)
    h = re.search(r'height="([\d.]+)', head)
    return (float(w[1]) / 2 if w else 0.0, float(h[1]) / 2 if h else 0.0)


def svg_document(width: float, height: float, *elements: str) -> str:
    """An SVG document of the given size holding ``elements`` (SVG element strings)."""
    body = "".join(elements)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">{body}</svg>'
    )


def circle(cx: float, cy: float, r: float, fill: str = "#4c97ff", stroke: str = "none") -> str:
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" stroke="{stroke}"/>'


def rect(x: float, y: float, w: float, h: float, fill: str = "#4c97ff", stroke="none") -> str:
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="{stroke}"/>'


def polygon(points: list[tuple[float, float]], fill: str = "#4c97ff", stroke="none") -> str:
    pts = " ".join(f"{x},{y}" for x, y in points)
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}"/>'


def text(x: float, y: float, content: str, size: float = 16, fill: str = "#000000") -> str:
    return (
        f'<text x="{x}" y="{y}" font-family="Sans Serif" font-size="{size}" '
        f'fill="{fill}">{escape(content)}</text>'
    )


def circle_costume(name: str, radius: float = 20, fill: str = "#4c97ff") -> Costume:
    """A filled circle, centred."""
    d = 2 * radius + 2
    return Costume.from_svg(name, svg_document(d, d, circle(d / 2, d / 2, radius, fill)))


def rect_costume(name: str, width: float = 40, height: float = 40, fill="#4c97ff") -> Costume:
    """A filled rectangle, centred."""
    return Costume.from_svg(name, svg_document(width, height, rect(0, 0, width, height, fill)))


def backdrop(name: str, fill: str = "#ffffff", *elements: str) -> Costume:
    """A 480x360 backdrop of one colour, with optional extra SVG elements on top."""
    doc = svg_document(480, 360, rect(0, 0, 480, 360, fill), *elements)
    return Costume.from_svg(name, doc, (240, 180))


# -- sounds -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sound:
    """A sound: WAV bytes with their sample rate and sample count."""

    name: str
    data: bytes
    rate: int
    sample_count: int

    @property
    def asset_id(self) -> str:
        return md5_hex(self.data)

    @property
    def md5ext(self) -> str:
        return f"{self.asset_id}.wav"

    def entry(self) -> dict[str, Any]:
        """The sound's ``project.json`` entry."""
        return {
            "name": self.name,
            "assetId": self.asset_id,
            "dataFormat": "wav",
            "format": "",
            "rate": self.rate,
            "sampleCount": self.sample_count,
            "md5ext": self.md5ext,
        }

    @classmethod
    def from_wav(cls, name: str, data: bytes) -> Sound:
        with wave.open(io.BytesIO(data)) as w:
            return cls(name, data, w.getframerate(), w.getnframes())

    @classmethod
    def tone(
        cls,
        name: str,
        frequency: float = 440.0,
        seconds: float = 0.5,
        *,
        rate: int = 22050,
        volume: float = 0.5,
        wave_shape: str = "sine",
    ) -> Sound:
        """A synthesised tone (``sine``, ``square``, ``saw`` or ``noise``) with short fades."""
        n = max(1, int(seconds * rate))
        fade = max(1, min(n // 10, int(0.01 * rate)))
        state = 12345
        samples = []
        for i in range(n):
            phase = (i * frequency / rate) % 1.0
            if wave_shape == "square":
                v = 1.0 if phase < 0.5 else -1.0
            elif wave_shape == "saw":
                v = 2.0 * phase - 1.0
            elif wave_shape == "noise":
                state = (1103515245 * state + 12345) & 0x7FFFFFFF
                v = state / 0x3FFFFFFF - 1.0
            else:
                v = math.sin(2 * math.pi * phase)
            env = min(1.0, i / fade, (n - 1 - i) / fade)
            samples.append(int(max(-1.0, min(1.0, v * volume * env)) * 32767))
        return cls.from_wav(name, wav_bytes(samples, rate))


def wav_bytes(samples: list[int], rate: int) -> bytes:
    """16-bit mono PCM WAV from integer samples."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return buf.getvalue()
