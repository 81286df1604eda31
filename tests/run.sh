#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Linux or macOS machine, then runs all checks:
# ruff, mypy (strict on app/core, backends, skills), import-linter contracts, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
# llama-cpp-python: the prebuilt wheel beside the repo when there is one, else PyPI (a source build).
FIND_LINKS=()
[ -d ../shared/wheels ] && FIND_LINKS=(--find-links ../shared/wheels)
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "${FIND_LINKS[@]}" -e ".[test]"

export QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy"
.venv/bin/mypy app/core backends skills
echo "== import-linter"
.venv/bin/lint-imports
echo "== pytest"
.venv/bin/python -m pytest -q "$@"
