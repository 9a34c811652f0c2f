"""ScratchWorld's OCR server (their ``ocr_server/main.py``) answered by scratch-gym's OCR.

Their agents in primitive mode POST each screenshot to ``{ocr_server_url}/ocr/detect`` (multipart
field ``file``, form field ``confidence``, default 0.5) and fuse the text lines it returns with
the DOM element list. This app answers the same routes with the same fields and status codes:
``POST /ocr/detect`` (``{success, elements: [{text, confidence, x, y, width, height,
element_type}], total_elements, error}``; 400 for a file that is not an image or is empty; 422
for a malformed form), ``GET /health`` and ``GET /info``. One engine per process, loaded at
startup (offline: :mod:`scratch_gym.ocr.weights`); calls are serialized by a lock and run off the
event loop. Behind the same guard as the main app (:mod:`.security`). See docs/serve.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import math
import threading
from collections.abc import AsyncIterator
from typing import Any

import numpy as np
from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from pydantic import BaseModel

from scratch_gym import __version__
from scratch_gym.ocr import OcrEngine, TextBox, make_engine
from scratch_gym.serve.security import Guard

log = logging.getLogger("scratch_gym.serve.ocr")
OCR_MAX_BODY_BYTES = 10_000_000  # an upload above this gets 413 (a 1280x720 screenshot: ~0.2 MB)
MAX_IMAGE_PIXELS = 4096 * 4096  # a larger image gets 400 before it is decoded
BACKENDS = {"paddleocr": "PaddleOCR", "rapidocr": "RapidOCR"}  # engine name -> their ocr_backend
BUTTON_WORDS = ("button", "click", "ok", "cancel")  # their element_type rule's words


class OCRElement(BaseModel):
    """One text line: its text, confidence and integer axis-aligned box in image pixels."""

    text: str
    confidence: float
    x: int
    y: int
    width: int
    height: int
    element_type: str = "text"


class OCRResponse(BaseModel):
    """``/ocr/detect``'s answer, their ``OCRResponse``."""

    success: bool
    elements: list[OCRElement]
    total_elements: int
    error: str | None = None


class BadImage(ValueError):
    """An upload that cannot be read as an image (answered 400)."""


def classify_element(text: str) -> str:
    """Their ``element_type``: ``button`` when the lower-cased text contains one of
    :data:`BUTTON_WORDS` anywhere (as theirs, a substring: ``Looks`` holds ``ok``), else ``label``
    when it ends with a colon, else ``text``."""
    lowered = text.lower().strip()
    if any(word in lowered for word in BUTTON_WORDS):
        return "button"
    if lowered.endswith(":"):
        return "label"
    return "text"


def decode_image(data: bytes, max_pixels: int = MAX_IMAGE_PIXELS) -> np.ndarray:
    """An upload's pixels as RGB uint8 (H, W, 3), alpha dropped; raises :class:`BadImage`."""
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, OSError) as exc:
        raise BadImage(f"file is not a readable image: {exc}") from None
    width, height = image.size
    if width * height > max_pixels:
        raise BadImage(f"image is {width}x{height} pixels; at most {max_pixels} pixels are allowed")
    try:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)
    except (OSError, ValueError) as exc:  # a truncated or corrupt file fails on decoding
        raise BadImage(f"file is not a readable image: {exc}") from None


def element(box: TextBox) -> OCRElement:
    """A text box as their element: the smallest integer box that holds it."""
    x0, y0 = math.floor(box.x), math.floor(box.y)
    x1, y1 = math.ceil(box.x + box.w), math.ceil(box.y + box.h)
    text = box.text.strip()
    return OCRElement(
        text=text,
        confidence=float(box.score),
        x=x0,
        y=y0,
        width=x1 - x0,
        height=y1 - y0,
        element_type=classify_element(text),
    )


def create_ocr_app(
    token: str | None = None,
    max_body_bytes: int = OCR_MAX_BODY_BYTES,
    engine: str = "paddleocr",
    port: int | None = None,
) -> Any:
    """The guarded ASGI app (``.app`` is the FastAPI app). ``engine`` is a
    :data:`scratch_gym.ocr.ENGINES` name; it is made now (OcrUnavailable without the ``ocr``
    extra) and loads its models at startup. ``port`` is only reported by ``/info``."""
    ocr: OcrEngine = make_engine(engine, min_score=0.0)  # the request's confidence filters
    lock = threading.Lock()

    def read(data: bytes) -> list[TextBox]:
        image = decode_image(data)  # outside the lock: decoding may overlap another read
        with lock:  # held by the thread, so a cancelled request cannot overlap the next read
            return ocr.recognize(image)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        load = getattr(ocr, "load", None)
        if load is not None:
            await asyncio.to_thread(load)
        yield

    app = FastAPI(title="scratch-gym serve (ScratchWorld's OCR server)", lifespan=lifespan)
    app.state.engine = ocr

    @app.post("/ocr/detect", response_model=OCRResponse)
    async def detect_text(
        file: UploadFile = File(...),  # noqa: B008 - FastAPI's way to declare a form field
        confidence: float = Form(0.5),
    ) -> OCRResponse:
        content_type = file.content_type or ""
        if not content_type.startswith("image/"):
            raise HTTPException(
                400,
                f"File must be an image: its content type is {content_type!r} (allowed: image/*)",
            )
        data = await file.read()
        if not data:
            raise HTTPException(400, "Empty image file: the upload has no bytes")
        try:
            boxes = await asyncio.to_thread(read, data)
        except BadImage as exc:
            raise HTTPException(400, str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - theirs answers an OCR failure as success: false
            log.exception("OCR failed")
            return OCRResponse(success=False, elements=[], total_elements=0, error=str(exc))
        found = [element(b) for b in boxes if b.text.strip() and b.score >= confidence]
        found.sort(key=lambda e: (e.y, e.x))
        return OCRResponse(success=True, elements=found, total_elements=len(found))

    backend = BACKENDS.get(engine, engine)

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "healthy", "service": "scratch-gym-ocr", "version": __version__,
                "ocr_backend": backend, "gpu_enabled": False}  # fmt: skip

    @app.get("/info")
    async def info() -> dict[str, Any]:
        return {"service_name": "scratch-gym serve OCR", "version": __version__,
                "ocr_backend": backend, "gpu_enabled": False, "max_concurrent_requests": 1,
                "server_port": port}  # fmt: skip

    return Guard(app, token, max_body_bytes)
