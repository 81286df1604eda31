#!/usr/bin/env bash
# Sign Hearth.app inside-out with the hardened runtime (never --deep), when an identity is given.
#   HEARTH_CODESIGN_IDENTITY="Developer ID Application: Name (TEAMID)" bash packaging/macos/sign.sh APP
set -euo pipefail
APP=${1:?usage: sign.sh Hearth.app}
if [ -z "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    echo "HEARTH_CODESIGN_IDENTITY not set: leaving $APP unsigned (ad-hoc signatures from PyInstaller)"
    exit 0
fi
ENT="$(dirname "$0")/entitlements.plist"
sign() { codesign --force --timestamp --options runtime --sign "$HEARTH_CODESIGN_IDENTITY" "$@"; }
# 1. every Mach-O library and extension, deepest first
find "$APP/Contents" -type f \( -name "*.dylib" -o -name "*.so" -o -perm -u+x \) -print0 |
    while IFS= read -r -d '' f; do
        if file "$f" | grep -q "Mach-O" && [ "$f" != "$APP/Contents/MacOS/Hearth" ]; then sign "$f"; fi
    done
# 2. nested frameworks, 3. the main executable with entitlements, 4. the bundle itself
find "$APP/Contents" -type d -name "*.framework" -print0 | while IFS= read -r -d '' fw; do sign "$fw"; done
sign --entitlements "$ENT" "$APP/Contents/MacOS/Hearth"
sign --entitlements "$ENT" "$APP"
codesign --verify --strict --verbose=2 "$APP"
