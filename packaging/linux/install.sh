#!/usr/bin/env bash
# Put Hearth in the application menu, with its icon: run it from the unpacked folder, e.g.
#   tar -xzf Hearth-*-linux-x86_64.tar.gz -C ~/.local/opt && ~/.local/opt/Hearth/install.sh
# The entry names this folder's executable by its absolute path (no PATH needed); move the
# folder later and run this again. `install.sh --remove` takes the entry and icon away.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" = "--remove" ]; then
    exec "$HERE/hearth" desktop remove
fi
"$HERE/hearth" desktop install
command -v update-desktop-database >/dev/null && \
    update-desktop-database "${XDG_DATA_HOME:-$HOME/.local/share}/applications" || true
