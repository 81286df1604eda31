"""An iterative folder walk (no recursion limit on deep trees) that never follows symlinks
and keeps going past folders it may not read or files that vanish mid-walk."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from skills.files.ignore import DirRules, IgnoreRules


@dataclass(frozen=True, slots=True)
class FoundFile:
    """One regular file as the walk saw it. `path` is the OS path (surrogate-escaped str)."""

    path: str
    name: str
    size: int
    mtime_ns: int
    created: float  # birth time where the OS records one, else the inode change time


def found_from_stat(path: str, st: os.stat_result) -> FoundFile:
    created = getattr(st, "st_birthtime", None)
    return FoundFile(
        path=path,
        name=os.path.basename(path),
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        created=float(created if created is not None else st.st_ctime),
    )


class Walker:
    """Walks one root with the index's ignore rules; collects (path, reason) for what it could
    not read instead of stopping."""

    def __init__(self, rules: IgnoreRules, should_stop: Callable[[], bool] = lambda: False):
        self.rules = rules
        self.should_stop = should_stop
        self.errors: list[tuple[str, str]] = []

    def walk(self, root: str, start: str | None = None) -> Iterator[FoundFile]:
        """Every file under `start` (default: the root) that the rules keep."""
        base = start or root
        first = self.rules.for_root(root) if base == root else self._rules_at(root, base)
        stack: list[tuple[str, DirRules]] = [(base, first)]
        while stack and not self.should_stop():
            folder, rules = stack.pop()
            for entry in self._entries(folder):
                kept = self._keep(root, rules, entry)
                if kept is None:
                    continue
                if isinstance(kept, FoundFile):
                    yield kept
                else:
                    stack.append((entry.path, self.rules.enter(rules, entry.path)))

    def _rules_at(self, root: str, folder: str) -> DirRules:
        rules = self.rules.for_root(root)
        rel = os.path.relpath(folder, root)
        current = root
        for part in rel.split(os.sep):
            current = os.path.join(current, part)
            rules = self.rules.enter(rules, current)
        return rules

    def _entries(self, folder: str) -> list[os.DirEntry[str]]:
        try:
            with os.scandir(folder) as it:
                return list(it)
        except OSError as exc:  # permission denied, vanished, not a folder any more
            self.errors.append((folder, exc.strerror or str(exc)))
            return []

    def _keep(self, root: str, rules: DirRules, entry: os.DirEntry[str]) -> FoundFile | bool | None:
        """FoundFile for a kept file, True for a folder to enter, None to skip."""
        try:
            if entry.is_symlink():  # never followed: a link may lead out of the roots
                return None
            st = entry.stat(follow_symlinks=False)
        except OSError as exc:
            self.errors.append((entry.path, exc.strerror or str(exc)))
            return None
        is_dir = stat.S_ISDIR(st.st_mode)
        if not is_dir and not stat.S_ISREG(st.st_mode):
            return None  # sockets, pipes, devices
        attributes = getattr(st, "st_file_attributes", 0)
        if self.rules.skips(rules, root, entry.path, entry.name, is_dir, attributes):
            return None
        return True if is_dir else found_from_stat(entry.path, st)
