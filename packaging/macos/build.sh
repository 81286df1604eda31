#!/usr/bin/env bash
# Build Hearth.app and Hearth-<version>-arm64.dmg on an Apple Silicon Mac, smoke-testing the app
# as built, as signed and as installed from the .dmg. One command:
#   bash packaging/macos/build.sh
# Environment (all optional):
#   HEARTH_CODESIGN_IDENTITY  "Developer ID Application: Name (TEAMID)": sign (sign.sh)
#   HEARTH_NOTARY_KEY, HEARTH_NOTARY_KEY_ID, HEARTH_NOTARY_ISSUER   an App Store Connect API key,
#   or HEARTH_NOTARY_PROFILE (+ HEARTH_NOTARY_KEYCHAIN)   a notarytool profile: notarize the
#                             app (stapled before the .dmg is made) and the .dmg (notarize.sh)
#   HEARTH_MACOS_MIN          oldest macOS the app runs on (default 14.0, MLX's minimum)
# The smoke test always runs an MLX generation (on the CPU where the Mac has no Metal device).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(uname -s)" != Darwin ] || [ "$(uname -m)" != arm64 ]; then
    echo "Hearth.app is built on and for Apple Silicon (arm64) Macs only" >&2
    exit 1
fi
MIN=${HEARTH_MACOS_MIN:-14.0}
export HEARTH_MACOS_MIN=$MIN MACOSX_DEPLOYMENT_TARGET=$MIN
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
VPY=.venv/bin/python
$VPY -m pip install --quiet --upgrade pip

# llama.cpp from source with Metal (kernels embedded in libggml-metal), no tuning to this Mac's
# CPU. No pip cache: a wheel cached from another CMAKE_ARGS would be reused silently.
export CMAKE_ARGS="-DGGML_METAL=ON -DGGML_METAL_EMBED_LIBRARY=ON -DGGML_NATIVE=OFF \
-DCMAKE_OSX_ARCHITECTURES=arm64 -DCMAKE_OSX_DEPLOYMENT_TARGET=$MIN"
$VPY -m pip install --quiet --no-cache-dir --no-binary llama-cpp-python -e ".[package,test]"
LLAMA_LIB=$($VPY -c "import importlib.util as u, os; print(os.path.join(os.path.dirname(u.find_spec('llama_cpp').origin), 'lib'))")
if ! ls "$LLAMA_LIB"/libggml-metal* >/dev/null 2>&1; then
    echo "llama-cpp-python was built without Metal: rebuilding it" >&2
    $VPY -m pip install --quiet --no-cache-dir --force-reinstall --no-deps \
        --no-binary llama-cpp-python "llama-cpp-python>=0.3.36"
    ls "$LLAMA_LIB"/libggml-metal* >/dev/null
fi

# mlx and mlx-metal are built per macOS release; pip picks the build host's, whose metallib
# needs that release (a macOS 26 build fails on 15 with "language version 4.0"). Install the
# wheels made for the oldest macOS we support instead, at the same version.
MLX_VERSION=$($VPY -c "from importlib.metadata import version; print(version('mlx'))")
PYVER=$($VPY -c "import sys; print(f'{sys.version_info[0]}{sys.version_info[1]}')")
WHEELS=packaging/build/mlx-wheels
rm -rf "$WHEELS"
$VPY -m pip download --quiet --no-deps --only-binary=:all: --python-version "$PYVER" \
    --platform "macosx_${MIN/./_}_arm64" -d "$WHEELS" "mlx==$MLX_VERSION" "mlx-metal==$MLX_VERSION"
$VPY -m pip install --quiet --no-deps --force-reinstall "$WHEELS"/*.whl

$VPY packaging/make_assets.py
$VPY -m PyInstaller --noconfirm --log-level WARN \
    --distpath packaging/dist --workpath packaging/build/work packaging/hearth.spec
APP=packaging/dist/Hearth.app
FW="$APP/Contents/Frameworks"
# The login item: an agent inside the bundle that starts Hearth with --hidden (signed with it).
$VPY packaging/macos/bundle_plists.py "$APP" "${HEARTH_BUNDLE_ID:-app.hearth.Hearth}"
# MLX looks for its kernels beside the libmlx that dyld loads ("Failed to load the default
# metallib" otherwise): check the bundle against the lookup rules of the version installed.
$VPY packaging/macos/check_mlx.py "$APP" --mlx-version "$MLX_VERSION"
# llama.cpp's Metal backend must be there too, or the app silently runs on the CPU.
ls "$FW"/llama_cpp/lib/libggml-metal* >/dev/null
$VPY packaging/macos/check_minos.py "$APP" "$MIN"

SMOKE=("$VPY" packaging/smoke_test.py packaging/dist --max-mb "${HEARTH_MAX_BUNDLE_MB:-900}")
QT_QPA_PLATFORM=offscreen "${SMOKE[@]}"
bash packaging/macos/sign.sh "$APP"
if [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    QT_QPA_PLATFORM=offscreen "${SMOKE[@]}"  # the hardened runtime can break ctypes or dlopen
    if [ -n "${HEARTH_NOTARY_KEY:-}${HEARTH_NOTARY_PROFILE:-}" ]; then
        # The app itself gets a ticket, stapled before it goes into the .dmg: a copy dragged to
        # /Applications then opens without asking Apple (offline too).
        ZIP=packaging/build/Hearth-notarize.zip
        ditto -c -k --keepParent "$APP" "$ZIP"
        bash packaging/macos/notarize.sh "$ZIP"
        xcrun stapler staple "$APP"
        xcrun stapler validate "$APP"
        spctl --assess --type execute --verbose "$APP"
    fi
fi
DMG=$(bash packaging/macos/make_dmg.sh "$APP" | tail -1)
# As a user gets it: from the mounted, read-only disk image.
MOUNT=$(mktemp -d)
hdiutil attach -nobrowse -readonly -mountpoint "$MOUNT" "$DMG" >/dev/null
trap 'hdiutil detach "$MOUNT" >/dev/null || true' EXIT
QT_QPA_PLATFORM=offscreen $VPY packaging/smoke_test.py "$MOUNT" --max-mb "${HEARTH_MAX_BUNDLE_MB:-900}"
echo "built $DMG"
