"""A file about to be written (bytes, target, preview), and writing it: atomically, a backup
before any overwrite, re-opened and counted after, and undone on request."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skills.base import SkillError
from skills.common.formats import human_size
from skills.documents.fscheck import hash_file
from skills.files.paths import display

Verifier = Callable[[str], dict[str, int]]


@dataclass
class Draft:
    path: str
    kind: str  # csv | xlsx | docx | pptx
    content: bytes
    preview: str  # first rows, the outline, the slide titles
    counts: dict[str, int]  # what re-opening the written file must find
    verify: Verifier
    overwrite: bool = False  # the target exists and will be replaced (a backup is kept)
    notes: list[str] = field(default_factory=list)  # what was done: "removed 14 duplicates"

    def describe(self, action: str) -> str:
        size = human_size(len(self.content))
        what = (f"Replace {display(self.path)} ({size}); the current file is kept as a backup"
                if self.overwrite else f"Create {display(self.path)} ({size})")
        lines = [f"{action}: {what}."]
        lines += self.notes
        if self.preview:
            lines += ["", self.preview]
        return "\n".join(lines)


def commit(draft: Draft) -> dict[str, Any]:
    """Write the draft; returns what the UI needs for Open, Reveal and Undo."""
    folder = os.path.dirname(draft.path)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise SkillError(f"cannot create {display(folder)}: {exc.strerror or exc}") from exc
    if os.path.lexists(draft.path) and not draft.overwrite:
        raise SkillError(f"{display(draft.path)} appeared meanwhile; nothing was written")
    backup = _backup_name(draft.path) if draft.overwrite and os.path.exists(draft.path) else ""
    tmp = _write_temp(folder, draft.content)
    try:
        if backup:
            shutil.copy2(draft.path, backup)
        os.replace(tmp, draft.path)
    except OSError as exc:
        _remove(tmp)
        raise SkillError(f"could not write {display(draft.path)}: {exc.strerror or exc}") from exc
    written = {"written": draft.path, "backup": backup, "kind": draft.kind,
               "size": len(draft.content), "sha256": hashlib.sha256(draft.content).hexdigest(),
               "counts": dict(draft.counts), "actions": ["open", "reveal", "undo"]}
    _check(draft, written)
    return written


def _check(draft: Draft, written: dict[str, Any]) -> None:
    try:
        found = draft.verify(draft.path)
    except Exception as exc:  # the library could not read back what it wrote
        undo(written)
        raise SkillError(f"the written file did not open again ({exc}); it was removed") from exc
    wrong = {k: (v, found.get(k)) for k, v in draft.counts.items() if found.get(k) != v}
    if wrong:
        undo(written)
        detail = ", ".join(f"{k}: expected {a}, found {b}" for k, (a, b) in wrong.items())
        raise SkillError(f"the written file did not check out ({detail}); it was removed")


def undo(written: dict[str, Any]) -> str:
    """Remove the new file, or put the backup back. Refused when the file changed since."""
    path = str(written.get("written") or "")
    backup = str(written.get("backup") or "")
    if not path or not os.path.exists(path):
        raise SkillError(f"{display(path)} is no longer there")
    if hash_file(path) != written.get("sha256"):
        raise SkillError(f"{display(path)} was changed after Hearth wrote it; not undone")
    if backup:
        os.replace(backup, path)
        return f"restored the earlier {os.path.basename(path)}"
    os.remove(path)
    return f"removed {os.path.basename(path)}"


def _write_temp(folder: str, content: bytes) -> str:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".hearth-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        _remove(tmp)
        raise SkillError(f"could not write into {display(folder)}: {exc.strerror or exc}") from exc
    return tmp


def _backup_name(path: str) -> str:
    base, ext = os.path.splitext(path)
    stamp = time.strftime("%Y-%m-%d %H%M%S")
    candidate = f"{base} (backup {stamp}){ext}"
    n = 2
    while os.path.lexists(candidate):
        candidate = f"{base} (backup {stamp} {n}){ext}"
        n += 1
    return candidate


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except OSError:
        pass
