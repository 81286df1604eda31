"""A server named as a bare command (`npx`, `uvx`) found where the user's terminal finds it.

An app started from Finder, the Dock or a login item gets launchd's PATH
(/usr/bin:/bin:/usr/sbin:/sbin), not the one the user's shell profile builds (Homebrew's
/opt/homebrew/bin, nvm's node, ~/.local/bin for uv). So a command not on Hearth's own PATH is
looked up on the PATH a login shell reports, and the server runs with that PATH too (`npx` is a
script that needs `node` beside it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable

_MARK = "__HEARTH_PATH__"


def server_env(command: str, path: str, login_path: Callable[[], str]) -> dict[str, str] | None:
    """{"PATH": the login shell's} when only it finds `command`; None when nothing changes."""
    if os.sep in command or (os.altsep and os.altsep in command):
        return None  # a path the user gave: taken as it is
    if shutil.which(command, path=path):
        return None
    shell_path = login_path()
    if shell_path and shutil.which(command, path=shell_path):
        return {"PATH": shell_path}
    return None


def login_shell_path(shell: str | None = None, timeout: float = 10.0) -> str:
    """The PATH the user's login (and interactive) shell sets up; "" if it cannot be read.

    Interactive too: nvm and many PATH additions live in ~/.zshrc, not ~/.zprofile. Markers
    around the value skip whatever the profile prints."""
    if sys.platform == "win32":
        return ""
    shell = shell or os.environ.get("SHELL") or "/bin/zsh"
    try:
        out = subprocess.run([shell, "-ilc", f'printf "{_MARK}%s{_MARK}" "$PATH"'],
                             capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL, errors="replace").stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    parts = out.split(_MARK)
    return parts[1] if len(parts) >= 3 else ""
