"""Where Hearth keeps its files: platformdirs locations, or everything under HEARTH_HOME."""

from __future__ import annotations

import os
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
        for folder in (self.data, self.cache, self.models, self.logs):
            folder.mkdir(parents=True, exist_ok=True)
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
