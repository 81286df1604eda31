"""Driving `hearth` commands with the scripted engine: its script file, settings on disk, the JSON
lines `hearth ask --json` prints, and the history they leave."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.history import HistoryStore
from app.core.paths import Paths
from app.main import main

if TYPE_CHECKING:
    import pytest


def script_file(folder: Path, *outputs: str) -> str:
    """A script file for `--engine scripted --script`: the raw outputs it replays, in order."""
    path = folder / "script.json"
    path.write_text(json.dumps(list(outputs)), encoding="utf-8")
    return str(path)


def write_settings(home: Path, **values: Any) -> None:
    """The settings file under HEARTH_HOME, as the settings dialog would save it."""
    folder = home / "data"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(values), encoding="utf-8")


def ask_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    """`hearth ask ... --json` in this process: exit code, the printed records, stderr."""
    if "scripted" in argv and "--no-think" not in argv:
        argv = (*argv, "--think")  # the scripted outputs are Think-mode outputs
    code = main(["ask", *argv, "--json"])
    captured = capsys.readouterr()
    return code, [json.loads(line) for line in captured.out.splitlines()], captured.err


def open_history() -> HistoryStore:
    """The history database the commands wrote (under this test's HEARTH_HOME)."""
    return HistoryStore(Paths.from_env().history_db)
