"""Opening a file, or showing it in its folder, with the platform's own programs. Injectable:
tests pass a recording fake; nothing here runs unless the user approved the action."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Protocol

from skills.files.runnable import runnable_reason

LAUNCH_WAIT_S = 10.0  # how long the platform's opener may take to hand the file over


class Opener(Protocol):
    def open(self, path: str) -> None: ...

    def reveal(self, path: str) -> None: ...


def file_manager_name(platform: str = sys.platform) -> str:
    if platform == "darwin":
        return "Finder"
    return "File Explorer" if platform == "win32" else "the file manager"


def open_command(path: str, platform: str = sys.platform) -> list[str] | None:
    """The command that opens `path` in its default app; None on Windows (os.startfile)."""
    if platform == "win32":
        return None
    return ["open", path] if platform == "darwin" else ["xdg-open", path]


def reveal_command(path: str, platform: str = sys.platform) -> list[str]:
    """The command that shows `path` selected in its folder (Linux: opens the folder)."""
    if platform == "darwin":
        return ["open", "-R", path]
    if platform == "win32":
        return ["explorer", f"/select,{path}"]
    return ["xdg-open", os.path.dirname(path) or path]


class SystemOpener:
    """Launches the platform's programs detached, so closing Hearth leaves the app open."""

    def __init__(self, platform: str = sys.platform) -> None:
        self.platform = platform

    def open(self, path: str) -> None:
        if runnable_reason(path):  # the last line of defence: this opener never runs programs
            self.reveal(path)
            return
        command = open_command(path, self.platform)
        if command is None:
            os.startfile(path)  # type: ignore[attr-defined]  # Windows only
        else:
            self._launch(command)

    def reveal(self, path: str) -> None:
        self._launch(reveal_command(path, self.platform))

    def _launch(self, command: list[str]) -> None:
        """Raises OSError unless a program took the file: `xdg-open` and `open` exit non-zero
        when no application handles it, and only then may Hearth say it did not open."""
        try:
            process = subprocess.Popen(  # fixed program, path passed as one argument
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True,
            )
        except FileNotFoundError as exc:
            raise OSError(f"cannot open files here: {command[0]} is not installed") from exc
        try:
            code = process.wait(timeout=LAUNCH_WAIT_S)
        except subprocess.TimeoutExpired:
            return  # still running: it is the application itself (xdg-open may exec it)
        if code != 0:
            raise OSError(f"no program on this computer opened it ({command[0]} exited "
                          f"with status {code})")
