#!/usr/bin/env bash
# Build the Linux onedir bundle (packaging/dist/Hearth) and smoke-test it. One command, from a
# fresh clone:
#   bash packaging/build_linux.sh
# HEARTH_NO_INSTALL=1 skips the pip step (an environment that already has .[package,test]);
# HEARTH_CLEAN=1 throws PyInstaller's cache away first; HEARTH_MAX_BUNDLE_MB caps the size.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
if [ -z "${HEARTH_NO_INSTALL:-}" ]; then
    FIND_LINKS=()
    [ -d ../shared/wheels ] && FIND_LINKS=(--find-links ../shared/wheels)  # prebuilt llama-cpp
    # When llama-cpp-python compiles here: not tuned to this machine but a CPU backend per
    # instruction-set level, plain x86-64 to AVX-512 VNNI, installed beside libllama (as
    # llama.cpp's own releases ship); Hearth loads the best one for the processor it runs on
    # (backends/llama_backends.py). On a Zen 4 VM a decoding step took 0.35 s with its kernels,
    # 0.44 s with AVX2 ones (bench/RESULTS.md, session 11). GGML_BACKEND_DIR as a STRING: as a
    # PATH CMake makes it absolute against the build folder and the variants miss the wheel.
    export CMAKE_ARGS=${CMAKE_ARGS:-"-DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON -DGGML_BACKEND_DIR:STRING=llama_cpp/lib"}
    .venv/bin/python -m pip install --quiet "${FIND_LINKS[@]}" -e ".[package,test]"
fi
VERSION=$(.venv/bin/python -c "import tomllib;print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])")
CLEAN=()
[ -n "${HEARTH_CLEAN:-}" ] && CLEAN=(--clean)
start=$(date +%s)
.venv/bin/python packaging/make_assets.py
.venv/bin/python -m PyInstaller --noconfirm --log-level WARN "${CLEAN[@]}" \
    --distpath packaging/dist --workpath packaging/build/work packaging/hearth.spec
echo "build took $(( $(date +%s) - start )) s"
# install.sh puts Hearth in the application menu with an absolute Exec= and its icon.
cp packaging/linux/install.sh packaging/dist/Hearth/
QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/smoke_test.py packaging/dist \
    --max-mb "${HEARTH_MAX_BUNDLE_MB:-400}"
ARCHIVE="Hearth-$VERSION-linux-$(uname -m).tar.gz"
(cd packaging/dist && tar -czf "$ARCHIVE" Hearth)
echo "built packaging/dist/Hearth ($(du -sh packaging/dist/Hearth | cut -f1)) and packaging/dist/$ARCHIVE"
