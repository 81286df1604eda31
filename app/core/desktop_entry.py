"""Freedesktop desktop entries: Exec= quoted as the Desktop Entry spec requires, the launcher."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

# Characters the spec reserves: an argument holding any of them goes in double quotes.
_RESERVED = frozenset(" \t\n\"'\\><~|&;$*?#()`")


def exec_arg(arg: str) -> str:
    """One argument of an Exec= value, as it is written in the file.

    Inside double quotes `"`, backquote, `$` and backslash take a backslash; `%` is doubled
    (field codes); then the file's string escapes double every backslash once more, which is
    why a literal backslash ends up as four (the spec says so in as many words)."""
    quoted = arg
    if not arg or _RESERVED & set(arg):
        escaped = "".join(f"\\{c}" if c in '"`$\\' else c for c in arg)
        quoted = f'"{escaped}"'
    return quoted.replace("%", "%%").replace("\\", "\\\\").replace("\n", "\\n")


def exec_line(args: list[str]) -> str:
    """The Exec= value that runs `args` (not a shell: no single quotes, which the spec rejects)."""
    return " ".join(exec_arg(a) for a in args)


def app_command(*args: str) -> list[str]:
    """How a desktop session starts this Hearth: the bundle's executable (an absolute path, not
    `hearth` looked up on a PATH the session may not have), or this Python running the module."""
    if getattr(sys, "frozen", False):
        return [sys.executable, *args]
    return [sys.executable, "-m", "app.main", *args]


def launcher_text(command: list[str], icon: Path) -> str:
    return ("[Desktop Entry]\nType=Application\nName=Hearth\nGenericName=Local assistant\n"
            "Comment=A private assistant that runs on this computer\n"
            f"Exec={exec_line(command)}\nIcon={icon}\nTerminal=false\n"
            "Categories=Office;Utility;\nStartupWMClass=hearth\n")


def install_launcher(data_home: Path, icon_source: Path) -> Path:
    """The application-menu entry and its icon under `data_home` (~/.local/share); returns the
    entry's path. Replaces what an earlier install wrote."""
    icon = data_home / "icons" / "hicolor" / "scalable" / "apps" / "hearth.svg"
    icon.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(icon_source, icon)
    entry = data_home / "applications" / "hearth.desktop"
    entry.parent.mkdir(parents=True, exist_ok=True)
    staged = entry.with_name(f".{entry.name}.tmp")
    staged.write_text(launcher_text(app_command(), icon), encoding="utf-8")
    os.replace(staged, entry)  # a menu never reads half an entry
    return entry


def remove_launcher(data_home: Path) -> list[Path]:
    gone = [data_home / "applications" / "hearth.desktop",
            data_home / "icons" / "hicolor" / "scalable" / "apps" / "hearth.svg"]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone
