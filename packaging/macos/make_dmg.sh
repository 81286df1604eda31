#!/usr/bin/env bash
# Wrap Hearth.app in a compressed .dmg with an Applications link; sign, notarize and staple it
# when configured. Prints the .dmg path on its last line.
#   HEARTH_CODESIGN_IDENTITY  sign the .dmg (required for notarization)
#   HEARTH_NOTARY_PROFILE     a profile saved by `xcrun notarytool store-credentials`
set -euo pipefail
APP=${1:?usage: make_dmg.sh Hearth.app}
VERSION=$(/usr/libexec/PlistBuddy -c "Print CFBundleShortVersionString" "$APP/Contents/Info.plist")
DMG="$(cd "$(dirname "$APP")" && pwd)/Hearth-$VERSION-arm64.dmg"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
ditto "$APP" "$STAGE/Hearth.app"  # ditto keeps symlinks, extended attributes and signatures
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -quiet -volname "Hearth" -srcfolder "$STAGE" -fs HFS+ -format UDZO "$DMG" >&2
if [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    codesign --force --timestamp --sign "$HEARTH_CODESIGN_IDENTITY" "$DMG" >&2
fi
if [ -n "${HEARTH_NOTARY_PROFILE:-}" ] && [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    # notarytool (altool stopped notarizing in November 2023); --wait returns the verdict.
    xcrun notarytool submit "$DMG" --keychain-profile "$HEARTH_NOTARY_PROFILE" --wait >&2
    xcrun stapler staple "$DMG" >&2
    xcrun stapler validate "$DMG" >&2
    spctl --assess --type open --context context:primary-signature --verbose "$DMG" >&2
else
    echo "HEARTH_NOTARY_PROFILE (and a signing identity) not set: skipping notarization" >&2
fi
echo "$DMG"
