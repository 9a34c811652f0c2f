"""Offline PP-OCRv4 model folders for PaddleOCR, prepared from the ``rapidocr-onnxruntime`` wheel.

PaddleOCR 3.x downloads its weights by default; ``rapidocr-onnxruntime==1.4.4`` ships the PP-OCRv4
mobile detection and recognition ONNX models (Apache-2.0). :func:`prepare_weights` links them into
``<cache>/ocr/<model name>/inference.onnx`` next to the ``inference.yml`` PaddleOCR needs (its
``Global.model_name``, pre- and post-processing, and for recognition the character list read from
the ONNX file's ``character`` metadata). Nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

from scratch_gym.ocr.base import OcrUnavailable
from scratch_gym.paths import cache_dir

DET_NAME = "PP-OCRv4_mobile_det"
REC_NAME = "PP-OCRv4_mobile_rec"
_WHEEL_FILES = {DET_NAME: "ch_PP-OCRv4_det_infer.onnx", REC_NAME: "ch_PP-OCRv4_rec_infer.onnx"}
_NORMALIZE = {"mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225], "scale": "1./255."}


def ocr_cache_dir() -> Path:
    return cache_dir() / "ocr"


def wheel_weights_dir() -> Path:
    """The ``models`` folder of the installed ``rapidocr_onnxruntime`` package."""
    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        raise OcrUnavailable(
            "the PP-OCRv4 weights come from rapidocr-onnxruntime==1.4.4: "
            "pip install 'scratch-gym[ocr]'"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "models"


def det_config(limit_side_len: int) -> dict:
    return {
        "Global": {"model_name": DET_NAME},
        "PreProcess": {
            "transform_ops": [
                {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
                {"DetResizeForTest": {"limit_side_len": limit_side_len, "limit_type": "max"}},
                {"NormalizeImage": {**_NORMALIZE, "order": "hwc"}},
                {"ToCHWImage": None},
                {"KeepKeys": {"keep_keys": ["image", "shape"]}},
            ]
        },
        "PostProcess": {
            "name": "DBPostProcess",
            "thresh": 0.3,
            "box_thresh": 0.3,
            "max_candidates": 1000,
            "unclip_ratio": 2.0,
        },
    }


def rec_config(characters: list[str]) -> dict:
    return {
        "Global": {"model_name": REC_NAME},
        "PreProcess": {
            "transform_ops": [
                {"DecodeImage": {"channel_first": False, "img_mode": "BGR"}},
                {"RecResizeImg": {"image_shape": [3, 48, 320]}},
                {"KeepKeys": {"keep_keys": ["image"]}},
            ]
        },
        "PostProcess": {"name": "CTCLabelDecode", "character_dict": characters},
    }


def rec_characters(onnx_path: Path) -> list[str]:
    """The recognition model's character list (its ``character`` ONNX metadata)."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    if "character" not in meta:
        raise OcrUnavailable(f"{onnx_path} has no 'character' metadata")
    return meta["character"].splitlines()


def _yaml(data: dict) -> str:
    """JSON text, which is valid YAML (PaddleX reads the file with a YAML loader)."""
    return json.dumps(data, ensure_ascii=False, indent=1)


def prepare_weights(
    root: Path | None = None, det_limit_side_len: int = 4000, force: bool = False
) -> dict[str, Path]:
    """Create the two model folders (once; the detection settings are kept up to date).

    Returns ``{"det": dir, "rec": dir}``. ``force`` rewrites everything.
    """
    root = root or ocr_cache_dir()
    source = wheel_weights_dir()
    dirs = {"det": root / DET_NAME, "rec": root / REC_NAME}
    for name, folder in ((DET_NAME, dirs["det"]), (REC_NAME, dirs["rec"])):
        onnx = folder / "inference.onnx"
        yml = folder / "inference.yml"
        src = source / _WHEEL_FILES[name]
        if not src.is_file():
            raise OcrUnavailable(f"missing {src}; reinstall rapidocr-onnxruntime==1.4.4")
        folder.mkdir(parents=True, exist_ok=True)
        if force or not onnx.is_file() or onnx.stat().st_size != src.stat().st_size:
            tmp = folder / "inference.onnx.part"
            shutil.copyfile(src, tmp)
            tmp.replace(onnx)
        if name == DET_NAME:
            text = _yaml(det_config(det_limit_side_len))
        elif force or not yml.is_file():
            text = _yaml(rec_config(rec_characters(src)))
        else:
            continue  # the character list only changes with the weights (force=True)
        if force or not yml.is_file() or yml.read_text(encoding="utf-8") != text:
            (folder / "inference.yml.part").write_text(text, encoding="utf-8")
            (folder / "inference.yml.part").replace(yml)
    return dirs
