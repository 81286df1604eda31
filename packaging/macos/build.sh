#!/usr/bin/env bash
# Build Hearth.app and Hearth-<version>-arm64.dmg on an Apple Silicon Mac (macOS 14+).
#   bash packaging/macos/build.sh
# Signing and notarization run only when their environment variables are set (see sign.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(uname -m)" = "arm64" ] || { echo "Hearth.app is built for Apple Silicon (arm64) only" >&2; exit 1; }
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# llama.cpp with Metal (shaders embedded in the dylib), portable across Apple Silicon.
export CMAKE_ARGS="-DGGML_METAL=ON -DGGML_NATIVE=OFF -DCMAKE_OSX_ARCHITECTURES=arm64"
export MACOSX_DEPLOYMENT_TARGET=14.0
# mlx-metal is built per macOS; force the macOS 14 wheel so the metallib runs on 14, 15 and 26.
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet --only-binary=:all: --no-deps \
    --platform macosx_14_0_arm64 --target .venv/mlx-metal-14 "mlx-metal" || true
.venv/bin/python -m pip install --quiet -e ".[package,test]" "mlx-lm>=0.32.2"
if [ -d .venv/mlx-metal-14/mlx/lib ]; then
    cp -f .venv/mlx-metal-14/mlx/lib/* "$(.venv/bin/python -c 'import mlx, os; print(os.path.dirname(mlx.__file__))')/lib/"
fi
.venv/bin/python packaging/make_assets.py
.venv/bin/pyinstaller --noconfirm --log-level WARN \
    --distpath packaging/dist --workpath packaging/build/work packaging/hearth.spec
APP=packaging/dist/Hearth.app
# The metallib must sit beside libmlx, or MLX fails with "Failed to load the default metallib".
test -f "$APP/Contents/Frameworks/mlx/lib/mlx.metallib" || test -f "$APP/Contents/Resources/mlx/lib/mlx.metallib"
.venv/bin/python packaging/smoke_test.py packaging/dist --max-mb "${HEARTH_MAX_BUNDLE_MB:-900}"
bash packaging/macos/sign.sh "$APP"
bash packaging/macos/make_dmg.sh "$APP"
