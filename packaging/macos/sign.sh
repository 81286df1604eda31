#!/usr/bin/env bash
# Sign Hearth.app inside-out with the hardened runtime and a secure timestamp (never --deep,
# which Apple advises against), when an identity is given:
#   HEARTH_CODESIGN_IDENTITY="Developer ID Application: Name (TEAMID)" bash packaging/macos/sign.sh APP
# Without it the app keeps PyInstaller's ad-hoc signatures (enough to run on this Mac).
set -euo pipefail
APP=${1:?usage: sign.sh Hearth.app}
if [ -z "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    echo "HEARTH_CODESIGN_IDENTITY not set: leaving $APP ad-hoc signed (not for distribution)"
    exit 0
fi
ENT="$(cd "$(dirname "$0")" && pwd)/entitlements.plist"
MAIN="$APP/Contents/MacOS/Hearth"
sign() { codesign --force --timestamp --options runtime --sign "$HEARTH_CODESIGN_IDENTITY" "$@"; }
is_macho() { file -b "$1" | grep -q "Mach-O"; }
# Deepest paths first: what is nested inside a framework is signed before the framework.
by_depth() { awk -F/ '{ print NF "\t" $0 }' | sort -rn | cut -f2-; }

# 1. every Mach-O file (.so, .dylib, framework binaries, helpers) except the main executable
find "$APP/Contents" -type f ! -path "$MAIN" | by_depth | while IFS= read -r f; do
    if is_macho "$f"; then sign "$f"; fi
done
# 2. nested frameworks (Qt's), deepest first, sealing their resources
find "$APP/Contents" -type d -name "*.framework" | by_depth | while IFS= read -r fw; do
    sign "$fw"
done
# 3. the main executable with the entitlements, 4. the bundle itself
sign --entitlements "$ENT" "$MAIN"
sign --entitlements "$ENT" "$APP"
codesign --verify --deep --strict --verbose=2 "$APP"
codesign --display --entitlements - "$MAIN" >/dev/null
echo "signed $APP as $HEARTH_CODESIGN_IDENTITY"
