#!/usr/bin/env bash
# Set-up, then lint (ruff), the docs site (mkdocs, warnings as errors: a dead link fails) and the
# whole test suite against the real editor in real Chromium.
# Fails loudly when a test fails or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
echo "== mkdocs build --strict"
site=$(mktemp -d)
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet -d "$site"
rm -rf "$site"
echo "== pytest"
# The tests need no network: they run in a network namespace of their own with only the loopback
# interface (where unshare is allowed, e.g. as root), so every server they start (the editor's
# page server, the Ray cluster) binds and is reached on 127.0.0.1 and nothing else.
# --durations=25: the slowest tests are listed after every run (where the suite's time goes).
# SCRATCH_GYM_TEST_WORKERS=N runs the tests in N pytest-xdist worker processes, a test file at a
# time each (--dist loadfile: a file's fixtures are built once). The default, 0, runs them in this
# process: on 2 cores two workers were slower (1,229 s against 1,007 s on 7 December 2026, the
# cores 98% busy against 70%), as each starts its own browser and the editors compete for the
# cores; on a machine with more cores, workers pay.
workers=${SCRATCH_GYM_TEST_WORKERS:-0}
run_tests=(.venv/bin/python -m pytest -q -p no:cacheprovider --durations=25)
if [ "$workers" != "0" ]; then
  run_tests+=(-n "$workers" --dist loadfile)
fi
run_tests+=("$@")
if unshare -n true 2>/dev/null; then
  echo "(in a loopback-only network namespace)"
  run_tests=(unshare -n bash -c 'ip link set lo up && exec "$@"' bash "${run_tests[@]}")
fi
set +e
"${run_tests[@]}"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
  echo "ERROR: pytest collected no tests" >&2
  exit 1
fi
exit "$rc"
