#!/usr/bin/env bash
# Build the Linux onedir bundle (packaging/dist/Hearth) and smoke-test it. One command:
#   bash packaging/build_linux.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
FIND_LINKS=()
[ -d ../shared/wheels ] && FIND_LINKS=(--find-links ../shared/wheels)
.venv/bin/python -m pip install --quiet "${FIND_LINKS[@]}" -e ".[package,test]"
.venv/bin/python packaging/make_assets.py
.venv/bin/pyinstaller --noconfirm --log-level WARN \
    --distpath packaging/dist --workpath packaging/build/work packaging/hearth.spec
.venv/bin/python packaging/smoke_test.py packaging/dist --max-mb "${HEARTH_MAX_BUNDLE_MB:-700}"
(cd packaging/dist && tar -czf "Hearth-linux-$(uname -m).tar.gz" Hearth)
echo "built packaging/dist/Hearth and packaging/dist/Hearth-linux-$(uname -m).tar.gz"
