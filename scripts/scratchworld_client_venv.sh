#!/usr/bin/env bash
# Build a separate virtualenv for ScratchWorld's own client (task_runner.py,
# results.py and the scratch-agent / AWM / Agent-S2 agents), pinned from their
# requirements.txt.  It holds only what that code path imports:
#   task_runner.py        requests, python-dotenv, (PIL for screenshots)
#   llm_agent.py          openai, pillow, jsonschema, json_repair (utils.py)
#   awm_agent.py          openai
#   Agent-S2 (gui_agents.s2, their Agent-S/ folder)
#                         anthropic, backoff, numpy, scikit-learn, tiktoken,
#                         pydantic, pytesseract, google-genai (imported at
#                         module level; only the OpenAI engine is called)
# gui_agents itself is not installed: scratch_gym.serve.dropin puts their
# checkout's Agent-S/ on PYTHONPATH (their README: `pip install -e Agent-S`).
# CPU-only wheels: no torch, opencv, paddle, playwright or model weights; the
# tesseract binary is not needed (pytesseract is only imported).
#
# Usage: scripts/scratchworld_client_venv.sh DIR [PYTHON]
set -euo pipefail
dir="${1:?usage: $0 DIR [PYTHON]}"
python="${2:-python3}"
start=$(date +%s)
"$python" -m venv "$dir"
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
    "requests==2.32.5" \
    "python-dotenv==1.2.1" \
    "openai==2.16.0" \
    "pillow==12.1.0" \
    "jsonschema==4.26.0" \
    "json_repair==0.54.2" \
    "anthropic==0.77.0" \
    "backoff==2.2.1" \
    "numpy==2.2.6" \
    "scipy==1.15.3" \
    "scikit-learn==1.7.2" \
    "tiktoken==0.12.0" \
    "pydantic==2.12.5" \
    "pytesseract==0.3.13" \
    "google-genai==1.62.0"
"$dir/bin/python" -c "import requests, dotenv, openai, PIL, jsonschema, json_repair, anthropic, backoff, numpy, sklearn, tiktoken, pydantic, pytesseract; from google import genai"
echo "scratchworld client venv ready in $dir ($(( $(date +%s) - start )) s)"
