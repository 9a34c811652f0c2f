#!/usr/bin/env bash
# Set-up, then lint (ruff) and the whole test suite against the real editor in real Chromium.
# Fails loudly when a test fails or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== pytest"
set +e
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "ERROR: pytest collected no tests" >&2
  exit 1
fi
exit "$rc"
