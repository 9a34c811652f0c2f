#!/usr/bin/env bash
# Install everything scratch-gym needs on a fresh Debian machine. Idempotent: a second run reuses
# what is installed. Installs: Debian chromium, a virtual environment in .venv with the package and
# its test/RL/OCR/demos/Ray/docs extras (CPU torch), and the pinned Scratch editor in the cache folder.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "== installing Debian chromium"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if ! command -v ip >/dev/null 2>&1; then
  echo "== installing Debian iproute2 (the tests' loopback-only network namespace)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq iproute2 >/dev/null
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "== installing Debian npm (to fetch the pinned editor)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  "$PY" -m venv .venv
fi
PIP=".venv/bin/pip --disable-pip-version-check -q"
stamp=.venv/.scratch-gym-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "== installing scratch-gym into .venv (with dev, rl, ocr, demos, ray, docs and nl2scratch extras; CPU torch)"
  # torch first, pinned to the CPU build, so that stable-baselines3 pulls no CUDA torch.
  $PIP install "torch==2.13.0"
  $PIP install -e ".[dev,rl,ocr,demos,ray,docs,nl2scratch]"
  touch "$stamp"
fi

echo "== OCR models (PP-OCRv4 from the rapidocr-onnxruntime wheel, prepared offline)"
.venv/bin/python -c "from scratch_gym.ocr.weights import prepare_weights; prepare_weights()"

echo "== the pinned Scratch editor"
.venv/bin/scratch-gym install

# ScratchWorld's own client (task_runner.py) runs in a separate venv: tests/serve drives it
# unmodified against `scratch-gym serve` (docs/serve.md).
# (rebuilt when it lacks a package the script now pins, e.g. after Agent-S2's were added)
if ! .scratchworld-client-venv/bin/python -c "import requests, openai, anthropic, sklearn, tiktoken; from google import genai" 2>/dev/null; then
  echo "== ScratchWorld's client venv (.scratchworld-client-venv)"
  bash scripts/scratchworld_client_venv.sh .scratchworld-client-venv "$PY"
fi
