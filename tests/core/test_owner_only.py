"""Private files: everything Hearth writes is owner-only on POSIX, older loose modes tightened."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from app.main import main
from tests.support.model_output import answer
from tests.support.scripted_cli import script_file

pytestmark = pytest.mark.skipif(os.name == "nt", reason="POSIX modes")


def loose(home: Path) -> list[str]:
    """Everything under `home`'s folders that group or others may read, write or enter."""
    found = []
    for base, dirs, files in os.walk(home):
        for name in dirs + files:
            path = Path(base) / name
            mode = stat.S_IMODE(path.lstat().st_mode)
            if not path.is_symlink() and mode & 0o077 and path.parent != home.parent:
                found.append(f"{path.relative_to(home)} {oct(mode)}")
    return found


def test_what_hearth_creates_is_owner_only(tiny_model: Any, hearth_home: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("walrus")
    for argv in (["docs", "add", str(folder)], ["files", "add-root", str(folder)],
                 ["calendar", "add", "--title", "Tea", "--start", "2026-12-03T10:00"],
                 ["ask", "hi", "--engine", "scripted", "--script", script_file(tmp_path,
                                                                           answer("Hi."))],
                 ["ask", "hello", "--model", str(tiny_model.gguf_path), "--max-tokens", "4",
                  "--no-think", "--docs"]):  # a short prompt: the KV cache is what counts
        assert main(argv) == 0, capsys.readouterr().err
    made = {p.name for p in hearth_home.rglob("*")}
    assert {"hearth.db", "index.db", "settings.json"} <= made
    assert any(p.parent.name.startswith("kv") or "kv" in p.parts for p in
               hearth_home.rglob("*") if p.is_file()), "a KV cache was written"
    assert loose(hearth_home / "data") == [] and loose(hearth_home / "cache") == []


def test_loose_files_from_an_older_version_are_tightened_at_start(
        hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = hearth_home / "data"
    (data / "old").mkdir(parents=True)
    data.chmod(0o755)
    (data / "old").chmod(0o755)
    for name in ("hearth.db", "old/notes.log"):
        (data / name).write_bytes(b"")
        (data / name).chmod(0o644)
    assert main(["models", "list"]) == 0
    assert loose(data) == []
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE((data / "hearth.db").stat().st_mode) == 0o600


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX umask")
def test_the_callers_umask_is_given_back() -> None:
    before = os.umask(0o022)
    try:
        assert main(["models", "list"]) == 0
        assert os.umask(0o022) == 0o022
    finally:
        os.umask(before)
