#!/usr/bin/env bash
# Notarize one file (a zipped .app or a signed .dmg) with notarytool and fail unless Apple
# accepts it; on rejection print Apple's log. Credentials, whichever is set:
#   HEARTH_NOTARY_KEY (path to an App Store Connect API .p8 key) + HEARTH_NOTARY_KEY_ID +
#   HEARTH_NOTARY_ISSUER, or
#   HEARTH_NOTARY_PROFILE (saved by `xcrun notarytool store-credentials`) and, when that profile
#   lives in a keychain other than the login keychain (CI's build keychain),
#   HEARTH_NOTARY_KEYCHAIN (its path): notarytool looks only in the login keychain otherwise.
set -euo pipefail
FILE=${1:?usage: notarize.sh FILE}
if [ -n "${HEARTH_NOTARY_KEY:-}" ]; then
    AUTH=(--key "$HEARTH_NOTARY_KEY" --key-id "${HEARTH_NOTARY_KEY_ID:?}" \
          --issuer "${HEARTH_NOTARY_ISSUER:?}")
elif [ -n "${HEARTH_NOTARY_PROFILE:-}" ]; then
    AUTH=(--keychain-profile "$HEARTH_NOTARY_PROFILE")
    if [ -n "${HEARTH_NOTARY_KEYCHAIN:-}" ]; then AUTH+=(--keychain "$HEARTH_NOTARY_KEYCHAIN"); fi
else
    echo "notarize.sh: no notary credentials (HEARTH_NOTARY_KEY or HEARTH_NOTARY_PROFILE)" >&2
    exit 2
fi
OUT=$(xcrun notarytool submit "$FILE" "${AUTH[@]}" --wait --output-format json)
echo "$OUT" >&2
# --wait returns when Apple has decided; the decision is in the JSON, not in the exit code.
read -r ID STATUS < <(python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["id"], r["status"])' <<<"$OUT")
if [ "$STATUS" != "Accepted" ]; then
    xcrun notarytool log "$ID" "${AUTH[@]}" >&2 || true
    echo "notarization of $FILE: $STATUS" >&2
    exit 1
fi
echo "notarized $FILE ($ID)" >&2
