"""Failure kinds at the edges: the CLI's documented exit code per kind, and exception mapping.

The kinds themselves are `backends.errors.FailureKind` (one vocabulary for every layer). The UI
turns a kind into a translated message and an action in app/ui (one place); the CLI prints the
English detail on one line and exits with `exit_code(kind)`."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from backends.errors import FailureKind, kind_of

__all__ = ["EXIT_CODES", "FailureKind", "describe", "exit_code", "kind_of", "refine"]

EXIT_CODES: dict[FailureKind, int] = {
    FailureKind.INTERNAL: 1,
    FailureKind.BAD_INPUT: 2,  # as argparse's usage errors
    FailureKind.NO_MODEL: 3,
    FailureKind.MODEL_BAD: 4,
    FailureKind.CONTEXT_FULL: 5,
    FailureKind.ENGINE_FAILED: 6,
    FailureKind.SERVER_UNREACHABLE: 7,
    FailureKind.SERVER_REFUSED: 8,
    FailureKind.BUSY: 9,
    FailureKind.DISK_FULL: 10,
    FailureKind.STORAGE: 11,
    FailureKind.CANCELLED: 130,  # as a shell reports Ctrl+C
}
"""`hearth` exit codes, documented in the README: one per failure kind."""


def exit_code(kind: FailureKind) -> int:
    return EXIT_CODES.get(kind, 1)


def describe(exc: BaseException) -> str:
    """One line for a person: what failed, where, and what to do. Never a traceback."""
    import sqlite3  # here: the window imports this module before its first frame

    kind = kind_of(exc)
    where = _where(exc)
    if kind is FailureKind.DISK_FULL:
        return (f"the disk is full{where}: free some space and run the command again "
                "(nothing already saved was lost)")
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return (f"Hearth cannot write{where}: the folder is read-only or not yours "
                f"({exc.strerror}); set HEARTH_HOME to a folder you can write")
    if isinstance(exc, sqlite3.Error):
        text = str(exc)
        if "readonly" in text or "read-only" in text:
            return ("Hearth's data is on a read-only disk or folder: set HEARTH_HOME to a "
                    "folder you can write")
        if kind is FailureKind.BUSY:
            return f"Hearth's data is busy in another Hearth process ({text}): try again"
        if "unable to open" in text:
            return (f"a Hearth database could not be opened ({text}): its folder is missing, "
                    "read-only or not yours")
        if kind is FailureKind.STORAGE:
            return f"a Hearth database could not be used ({text})"
    if isinstance(exc, OSError):
        return f"{exc.strerror or exc}{where}"
    detail = " ".join(str(exc).split()) or type(exc).__name__
    return detail[:300]


def _where(exc: BaseException) -> str:
    name = getattr(exc, "filename", None)
    return f" ({name})" if name else ""


def refine(kind: FailureKind, folders: list[Path]) -> FailureKind:
    """A storage error on a disk with no space left is a full disk, whatever SQLite called it
    (opening a database there fails with "unable to open" or an I/O error)."""
    if kind is not FailureKind.STORAGE:
        return kind
    for folder in folders:
        try:
            if os.statvfs(folder).f_bavail == 0:
                return FailureKind.DISK_FULL
        except (OSError, AttributeError):  # gone, or Windows (no statvfs)
            continue
    return kind
