"""Owner-only folders on Windows: the icacls commands that give Hearth's folders the user's ACL.

The POSIX 0700/0600 of paths.owner_only, in Windows terms: each folder (data, cache, models,
logs) gets an ACL of its own, not the profile's inherited one, granting full control to the
user and to SYSTEM only (SYSTEM is Windows' root: services and backups run as it, and 0700
does not keep root out either); what lies inside, and what Hearth creates later, inherits
exactly that. The decision (which commands, in which order) is pure and tested on every
platform; only `tighten` runs them, and only on Windows. A failure is logged, never fatal:
the folders still work with the profile's ACL, which already limits them to the user.
"""

from __future__ import annotations

import csv
import logging
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger(__name__)

SYSTEM_SID = "S-1-5-18"
MARKER = ".owner-only"  # in a folder once tightened: later starts spawn nothing for it
WHOAMI = ["whoami", "/user", "/fo", "csv", "/nh"]  # "DOMAIN\\user","S-1-5-21-..."

Run = Callable[[list[str]], tuple[int, str]]  # argv -> (exit status, its output)


def user_sid(whoami_output: str) -> str:
    """The SID in `whoami /user /fo csv /nh`'s output ("" when it has none)."""
    for row in csv.reader(whoami_output.strip().splitlines()):
        if len(row) >= 2 and row[-1].strip().startswith("S-1-"):
            return row[-1].strip()
    return ""


def commands(folder: Path, sid: str) -> list[list[str]]:
    """The icacls argvs (lists: no shell, any path is one argument) that make `folder` owner-only.

    1. `/reset` drops explicit grants an older version or another program added (Everyone...);
    2. `/inheritance:r` then drops the profile's inherited ACEs and `/grant:r` gives the user
       and SYSTEM full control, inherited by subfolders (CI) and files (OI), in one command, so
       no step leaves the user locked out;
    3. the contents are reset to inherit from the folder (`/T` every level, `/C` past errors)."""
    grant = ["/grant:r", f"*{sid}:(OI)(CI)F", f"*{SYSTEM_SID}:(OI)(CI)F"]
    return [["icacls", str(folder), "/reset", "/Q"],
            ["icacls", str(folder), "/inheritance:r", *grant, "/Q"],
            ["icacls", str(folder / "*"), "/reset", "/T", "/C", "/Q"]]


def pending(folders: Iterable[Path]) -> list[Path]:
    """The folders not tightened yet: new ones (a deleted cache comes back with the profile's
    ACL) and those a failure left as they were. What is created inside a tightened folder
    later inherits its ACL, so each folder is done once, not at every start."""
    return [f for f in folders if not (f / MARKER).exists()]


def tighten(folders: Iterable[Path], run: Run) -> int:
    """Run the commands for every folder not done yet; returns how many failed (each logged)."""
    folders = pending(folders)
    if not folders:
        return 0
    code, out = _safely(run, WHOAMI)
    sid = user_sid(out) if code == 0 else ""
    if not sid:
        log.warning("Could not find the user's SID (whoami: %s); folders keep the profile's "
                    "ACL", out.strip()[:200])
        return 1
    failed = 0
    for folder in folders:
        empty = _empty(folder)
        ok = True
        for argv in commands(folder, sid):
            code, out = _safely(run, argv)
            if code != 0 and not (argv[-3:] == ["/T", "/C", "/Q"] and empty):
                ok = False
                log.warning("Could not make %s owner-only (%s: exit %s, %s)", folder,
                            " ".join(argv[2:]), code, out.strip()[:200])
        failed += int(not ok)
        if ok:
            _mark(folder)
    return failed


def _mark(folder: Path) -> None:
    try:
        (folder / MARKER).touch()
    except OSError:
        pass  # tried again next start


def _empty(folder: Path) -> bool:
    """icacls fails on `folder\\*` when nothing matches: an empty folder has nothing to reset."""
    try:
        return not any(folder.iterdir())
    except OSError:
        return False


def _safely(run: Run, argv: list[str]) -> tuple[int, str]:
    try:
        return run(argv)
    except (OSError, subprocess.SubprocessError) as exc:  # missing, not allowed, or hung
        return -1, str(exc)


def run_hidden(argv: list[str]) -> tuple[int, str]:
    """Run a console tool without a console window flashing up (the GUI starts it too)."""
    if sys.platform == "win32":
        done = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                              check=False, timeout=120,
                              creationflags=subprocess.CREATE_NO_WINDOW)
        return done.returncode, done.stdout + done.stderr
    raise OSError("icacls is a Windows tool")
