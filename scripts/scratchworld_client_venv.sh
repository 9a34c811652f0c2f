#!/usr/bin/env bash
# Build a separate virtualenv for ScratchWorld's own client (task_runner.py,
# results.py and the scratch-agent / AWM agents), pinned from their
# requirements.txt.  It holds only what that code path imports:
#   task_runner.py        requests, python-dotenv, (PIL for screenshots)
#   llm_agent.py          openai, pillow, jsonschema, json_repair (utils.py)
#   awm_agent.py          openai
# Agent-S2 (gui_agents) and the OCR server are not on that path and are not
# installed; neither are torch, opencv or playwright.
#
# Usage: scripts/scratchworld_client_venv.sh DIR [PYTHON]
set -euo pipefail
dir="${1:?usage: $0 DIR [PYTHON]}"
python="${2:-python3}"
start=$(date +%s)
"$python" -m venv "$dir"
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
    "requests==2.32.5" \
    "python-dotenv==1.2.1" \
    "openai==2.16.0" \
    "pillow==12.1.0" \
    "jsonschema==4.26.0" \
    "json_repair==0.54.2"
"$dir/bin/python" -c "import requests, dotenv, openai, PIL, jsonschema, json_repair"
echo "scratchworld client venv ready in $dir ($(( $(date +%s) - start )) s)"
