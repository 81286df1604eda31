"""Which files the office tools may read and where they may write, with the reason when not."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from skills.base import SkillError
from skills.files.paths import display, is_inside, normalize_root, root_of

# Names Windows refuses (and that break sync to it): refused everywhere so a file made on
# Linux or macOS still opens on a colleague's PC.
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$", re.IGNORECASE)
_BAD_CHARS = re.compile(r'[<>:"/\\|?*\x00-\x1f]')
MAX_NAME_BYTES = 255


def default_output_folder() -> str:
    """A "Hearth" folder in the user's Documents: where new files go unless the user chose."""
    import platformdirs

    return os.path.join(platformdirs.user_documents_dir(), "Hearth")


@dataclass
class OfficeAccess:
    """roots: folders the user chose; dropped(conversation): files dropped into that chat;
    output: the folder new files go to (created on first write)."""

    roots: Callable[[], list[str]] = list
    dropped: Callable[[str], list[str]] = field(default=lambda _conversation: [])
    output: Callable[[], str] = default_output_folder

    # -- reading ----------------------------------------------------------------------------
    def readable_roots(self) -> list[str]:
        roots = [normalize_root(r) for r in self.roots() if r]
        return [*roots, self.output_folder()]

    def output_folder(self) -> str:
        return normalize_root(self.output() or default_output_folder())

    def readable(self, path: str, conversation: str = "") -> str:
        """The real path of a file the tools may read: inside a chosen folder, or dropped."""
        raw = os.path.expanduser(str(path or "").strip())
        if not raw:
            raise SkillError("give the path of a file")
        for candidate in self._dropped_matching(raw, conversation):
            return candidate
        if not os.path.isabs(raw):
            raise SkillError(f"{display(raw)}: give the full path (or drop the file into the chat)")
        _refuse_dotdot(raw)
        real = os.path.realpath(raw)
        if root_of(real, self.readable_roots()) is None:
            raise SkillError(f"{display(raw)} is outside the folders you chose and was not dropped"
                             " into this chat")
        _regular_file(real, raw)
        return real

    def readable_folder(self, path: str) -> str:
        raw = os.path.expanduser(str(path or "").strip())
        if not raw or not os.path.isabs(raw):
            raise SkillError("give the full path of a folder")
        _refuse_dotdot(raw)
        real = os.path.realpath(raw)
        if root_of(real, self.readable_roots()) is None:
            raise SkillError(f"{display(raw)} is outside the folders you chose")
        if not os.path.isdir(real):
            raise SkillError(f"{display(raw)} is not a folder")
        return real

    def _dropped_matching(self, raw: str, conversation: str) -> list[str]:
        """A dropped file by its full path or its name alone (how the model often says it)."""
        found = []
        for dropped in self.dropped(conversation) if conversation else []:
            if raw in (dropped, os.path.basename(dropped)):
                real = os.path.realpath(dropped)
                _regular_file(real, dropped)
                found.append(real)
        return found

    # -- writing ----------------------------------------------------------------------------
    def target(self, wanted: str, default_name: str, source: str = "",
               next_to_source: bool = False) -> str:
        """Where a new file goes: a bare name lands in the output folder (or beside the source),
        a full path must lie inside a chosen folder. Checks name, links and device files."""
        wanted = str(wanted or "").strip()
        if wanted and (os.sep in wanted or "/" in wanted or wanted.startswith("~")):
            raw = os.path.expanduser(wanted)
            if not os.path.isabs(raw):
                raise SkillError(f"{display(wanted)}: give a file name or a full path")
            _refuse_dotdot(raw)
            folder, name = os.path.split(raw)
        else:
            name = wanted or default_name
            folder = os.path.dirname(source) if next_to_source and source else self.output_folder()
        check_name(name)
        return self._inside(folder, name)

    def _inside(self, folder: str, name: str) -> str:
        roots = self.readable_roots()
        real_folder = os.path.realpath(folder)
        if root_of(real_folder, roots) is None:
            raise SkillError(f"{display(folder)} is outside the folders you chose; write into"
                             f" {display(self.output_folder())} or a chosen folder")
        if os.path.lexists(real_folder) and not os.path.isdir(real_folder):
            raise SkillError(f"{display(folder)} is not a folder")
        path = os.path.join(real_folder, name)
        if os.path.islink(path):
            real = os.path.realpath(path)
            if not any(is_inside(real, r) for r in roots):
                raise SkillError(f"{display(path)} is a link that leads outside the chosen folders")
            raise SkillError(f"{display(path)} is a link; choose another name")
        if os.path.lexists(path):
            mode = os.lstat(path).st_mode
            if not stat.S_ISREG(mode):
                raise SkillError(f"{display(path)} is not a regular file (a device, folder or"
                                 " pipe); it is never written")
        return path


def check_name(name: str) -> None:
    """Refuse names no platform can store safely, with the reason."""
    if name in ("", ".", "..") or _BAD_CHARS.search(name):
        raise SkillError(f"{name!r} is not a usable file name (no / \\ : * ? \" < > | or control"
                         " characters)")
    if _RESERVED.match(name) or name != name.rstrip(" ."):
        raise SkillError(f"{name!r} is a name Windows reserves (or ends in a dot or space)")
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise SkillError("that file name is too long")


def free_name(path: str) -> str:
    """`path`, or "name (2).ext", "name (3).ext"... when it is taken: a new file, never a
    replaced one."""
    if not os.path.lexists(path):
        return path
    base, ext = os.path.splitext(path)
    for n in range(2, 10_000):
        candidate = f"{base} ({n}){ext}"
        if not os.path.lexists(candidate):
            return candidate
    raise SkillError(f"too many files named like {display(path)}")


def _refuse_dotdot(raw: str) -> None:
    if ".." in Path(raw).parts:
        raise SkillError(f"{display(raw)}: paths with '..' are refused; give the full path")


def _regular_file(real: str, shown: str) -> None:
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise SkillError(f"{display(shown)}: {exc.strerror or 'cannot be read'}") from exc
    if not stat.S_ISREG(mode):
        raise SkillError(f"{display(shown)} is not a regular file")
