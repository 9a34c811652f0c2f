#!/usr/bin/env bash
# Set-up, then one real episode in the editor (prints each step; saves the last screenshot).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/scratch-gym run --out runs/demo "$@"
