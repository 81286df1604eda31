#!/usr/bin/env bash
# Wrap Hearth.app in a .dmg (with an Applications link); sign and notarize it when configured:
#   HEARTH_CODESIGN_IDENTITY, and HEARTH_NOTARY_PROFILE (a `xcrun notarytool store-credentials` name)
set -euo pipefail
APP=${1:?usage: make_dmg.sh Hearth.app}
VERSION=$(/usr/libexec/PlistBuddy -c "Print CFBundleShortVersionString" "$APP/Contents/Info.plist")
DMG="$(dirname "$APP")/Hearth-$VERSION-arm64.dmg"
STAGE=$(mktemp -d)
cp -R "$APP" "$STAGE/"
ln -s /Applications "$STAGE/Applications"
rm -f "$DMG"
hdiutil create -volname "Hearth" -srcfolder "$STAGE" -fs HFS+ -format UDZO "$DMG"
rm -rf "$STAGE"
if [ -n "${HEARTH_CODESIGN_IDENTITY:-}" ]; then
    codesign --force --timestamp --sign "$HEARTH_CODESIGN_IDENTITY" "$DMG"
fi
if [ -n "${HEARTH_NOTARY_PROFILE:-}" ]; then
    xcrun notarytool submit "$DMG" --keychain-profile "$HEARTH_NOTARY_PROFILE" --wait
    xcrun stapler staple "$DMG"
    spctl --assess --type open --context context:primary-signature --verbose "$DMG"
else
    echo "HEARTH_NOTARY_PROFILE not set: skipping notarization"
fi
echo "built $DMG"
