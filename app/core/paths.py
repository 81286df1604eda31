"""Where Hearth keeps its files: platformdirs locations, or everything under HEARTH_HOME."""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Hearth"


@dataclass(frozen=True)
class Paths:
    """Every location Hearth writes to. Build with `Paths.from_env()`; tests set HEARTH_HOME."""

    data: Path  # user data: hearth.db (history, calendar), settings
    cache: Path  # derived, rebuildable: index.db, KV caches
    models: Path  # downloaded models
    logs: Path

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Paths:
        env = os.environ if environ is None else environ
        home = env.get("HEARTH_HOME")
        if home:
            root = Path(home).expanduser()
            return cls(root / "data", root / "cache", root / "models", root / "logs")
        return cls(
            data=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)),
            cache=Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
            models=Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "models",
            logs=Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
        )

    def ensure(self) -> Paths:
        """Create every folder owner-only (0700 on POSIX, the user's own ACL on Windows) and
        tighten what an older version left readable by others: conversations, indexes and
        caches are private."""
        folders = (self.data, self.cache, self.models, self.logs)
        for folder in folders:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            owner_only(folder)
        if sys.platform == "win32":
            from app.core.windows_acl import run_hidden, tighten

            tighten(folders, run_hidden)  # failures are logged: the profile's ACL still holds
        return self

    @property
    def history_db(self) -> Path:
        return self.data / "hearth.db"

    @property
    def index_db(self) -> Path:
        return self.cache / "index.db"

    @property
    def settings_file(self) -> Path:
        return self.data / "settings.json"

    @property
    def kv_cache_dir(self) -> Path:
        return self.cache / "kv"


OWNER_UMASK = 0o077  # what Hearth creates is readable by its user only


def owner_only(folder: Path) -> None:
    """Folders under `folder` 0700 and files 0600 at most (POSIX; on Windows ACLs do this:
    windows_acl.py, from Paths.ensure)."""
    if os.name == "nt":
        return
    _tighten(folder)
    for base, dirs, files in os.walk(folder):
        for name in dirs + files:
            _tighten(Path(base) / name)


def _tighten(path: Path) -> None:
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            return  # never follow a link out of Hearth's folders
        mode = stat.S_IMODE(info.st_mode)
        if mode & 0o077:  # the owner's own bits stay as they were
            path.chmod(mode & ~0o077)
    except OSError:
        pass  # a read-only disk or a file another user owns: reading still works
