"""On a really full disk (a filled tmpfs) every office write exits with the documented 10 and
one line, like the rest of the CLI (it exited 2, bad input, with the OS's words)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.failures import EXIT_CODES, FailureKind
from tests.support.capped import hearth_env
from tests.support.full_disk import fill, small_tmpfs


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    with small_tmpfs(tmp_path / "full", 4) as mount:
        yield mount


def test_office_writes_on_a_full_disk_exit_10(tmp_path: Path, full_disk: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["name", "amount"])
    book.active.append(["tea", 3])
    source = tmp_path / "t.xlsx"
    book.save(source)
    (tmp_path / "r.md").write_text("# Report\n\nHello.\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    (home / "data" / "settings.json").write_text(json.dumps(
        {"office_output_folder": str(full_disk / "out")}), encoding="utf-8")
    (full_disk / "out").mkdir()
    fill(full_disk / "filler")
    for argv in (["convert", str(source), "--to", "csv"],
                 ["report", str(tmp_path / "r.md")]):
        result = subprocess.run([sys.executable, "-m", "app.main", "office", *argv, "--yes"],
                                env=hearth_env(home), capture_output=True, text=True,
                                timeout=300, check=False)
        assert result.returncode == EXIT_CODES[FailureKind.DISK_FULL], result.stderr
        assert "Traceback" not in result.stderr
        assert [line for line in result.stderr.splitlines()
                if line.startswith("hearth:")][0].count("\n") == 0
