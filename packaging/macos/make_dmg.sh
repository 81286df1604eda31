#!/usr/bin/env bash
# Wrap Hearth.app in a compressed .dmg with an Applications link; when configured, sign it,
# notarize it and staple it. The app inside must already be signed, notarized and stapled
# (build.sh does that first), so it opens offline from any copy, not only from this .dmg.
# Prints the .dmg path on its last line.
#   HEARTH_CODESIGN_IDENTITY  sign the .dmg (required for notarization)
#   HEARTH_NOTARY_*           credentials for notarize.sh
set -euo pipefail
APP=${1:?usage: make_dmg.sh Hearth.app}
HERE="$(cd "$(dirname "$0")" && pwd)"
VERSION=$(/usr/libexec/PlistBuddy -c "Print CFBundleShortVersionString" "$APP/Contents/Info.plist")
DMG="$(cd "$(dirname "$APP")" && pwd)/Hearth-$VERSION-arm64.dmg"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ditto "$APP" "$STAGE/Hearth.app"  # ditto keeps symlinks, extended attributes and the ticket
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -quiet -volname "Hearth" -srcfolder "$STAGE" -fs HFS+ -format UDZO "$DMG" >&2
if [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    codesign --force --timestamp --sign "$HEARTH_CODESIGN_IDENTITY" "$DMG" >&2
fi
if [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ] && \
   [ -n "${HEARTH_NOTARY_KEY:-}${HEARTH_NOTARY_PROFILE:-}" ]; then
    bash "$HERE/notarize.sh" "$DMG"
    xcrun stapler staple "$DMG" >&2
    xcrun stapler validate "$DMG" >&2
    spctl --assess --type open --context context:primary-signature --verbose "$DMG" >&2
else
    echo "no signing identity or notary credentials: the .dmg is not notarized" >&2
fi
echo "$DMG"
