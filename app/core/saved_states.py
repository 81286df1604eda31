"""Saved model states on disk (prompt prefixes, conversation caches): their size, and Clear."""

from __future__ import annotations

import shutil
from pathlib import Path

from app.core.runner import ModelRunner
from backends.base import LocalEngine


def disk_usage(folder: Path) -> int:
    """Bytes of every saved state under `folder` (the Settings page shows it)."""
    total = 0
    for path in folder.rglob("*") if folder.is_dir() else ():
        try:
            if path.is_file():
                total += path.stat().st_size
        except OSError:  # removed meanwhile (an engine trimming its folder)
            continue
    return total


def clear(runner: ModelRunner, folder: Path) -> None:
    """Forget every saved state: the loaded engine's copies in memory first (on the model
    thread, after the turn running now), then the whole folder. Call off the GUI thread."""
    backend = runner.backend
    if isinstance(backend, LocalEngine):
        runner.call(backend.clear_saved_states).result()
    if folder.is_dir():
        for child in folder.iterdir():
            if child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
