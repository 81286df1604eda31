"""File-system checks for indexing: what to walk, what to refuse and why, what changed."""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from skills.documents import store
from skills.documents.models import Failure, IndexReport
from skills.documents.parsers import kind_of
from skills.documents.skips import Skip, SkipWhy, skip


def absolute(path: str | Path) -> str:
    return os.path.abspath(os.path.expanduser(str(path)))


def is_under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def like_prefix(folder: str) -> str:
    escaped = folder.rstrip(os.sep).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + os.sep.replace("\\", "\\\\") + "%"


def kind_name(path: str) -> str:
    return kind_of(Path(path)) or ""


def walk(folder: str, report: IndexReport) -> Iterator[tuple[str, str]]:
    """Supported files under a folder; links to folders are not followed (no loops)."""
    def on_error(exc: OSError) -> None:
        report.failures.append(Failure(str(exc.filename or folder), os_reason(exc)))

    for base, dirs, names in os.walk(folder, followlinks=False, onerror=on_error):
        dirs[:] = sorted(d for d in dirs if not hidden(d))
        for name in sorted(names):
            if hidden(name):
                continue
            path = os.path.join(base, name)
            if kind_of(Path(path)) is None:
                continue
            reason = unstorable_name(path)
            if reason is not None:  # skipped with its reason; its neighbours are indexed as usual
                report.failures.append(Failure(path, reason))
                continue
            yield path, folder


def unstorable_name(path: str) -> Skip | None:
    """Why a path cannot be kept in the index (None when it can): names that are not valid UTF-8
    (bytes Python carries as lone surrogates) cannot be stored as text, nor shown exactly."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return Skip(SkipWhy.NAME_NOT_UTF8)
    return None


def hidden(relative: str) -> bool:
    """Hidden files and folders, and Office's "~$name.docx" lock files, are not documents."""
    return any(part.startswith((".", "~$")) for part in Path(relative).parts if part != ".")


def check_file(path: str, root: str, max_bytes: int) -> tuple[Skip | None, store.Stat | None]:
    """Why not to parse this path (None: parse it), and its stat."""
    if kind_of(Path(path)) is None:
        return skip(SkipWhy.UNSUPPORTED_TYPE, Path(path).suffix or "(none)"), None
    try:
        st = os.stat(path)
    except OSError as exc:
        return os_reason(exc), None
    stat = store.Stat(st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if os.path.islink(path):
        real = os.path.realpath(path)
        if not is_under(real, os.path.realpath(root)):
            return Skip(SkipWhy.LINK_OUTSIDE), stat
    if not os.path.isfile(path):
        return Skip(SkipWhy.NOT_REGULAR), stat
    if st.st_size > max_bytes:
        return skip(SkipWhy.TOO_LARGE, size(st.st_size), size(max_bytes)), stat
    if not os.access(path, os.R_OK):
        return Skip(SkipWhy.PERMISSION_DENIED), stat
    return None, stat


def os_reason(exc: OSError) -> Skip:
    if exc.errno == errno.ELOOP:
        return Skip(SkipWhy.LINK_LOOP)
    if exc.errno == errno.ENOENT:
        return Skip(SkipWhy.NOT_FOUND)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return Skip(SkipWhy.PERMISSION_DENIED)
    return skip(SkipWhy.UNREADABLE, exc.strerror or exc)


def size(n: int) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e9 else f"{n / 1e6:.0f} MB"


def same_stat(row: dict[str, Any], stat: store.Stat) -> bool:
    # ctime cannot be set by tools that restore mtime after an edit, so an in-place edit
    # that keeps size and mtime is still noticed (then the hash decides).
    return bool(
        row["size"] == stat.size and row["mtime_ns"] == stat.mtime_ns
        and row["ctime_ns"] == stat.ctime_ns and (row["sha256"] or row["status"] == "failed")
    )


def hash_file(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
