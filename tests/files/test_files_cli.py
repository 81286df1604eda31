"""`hearth files ...` end to end: roots saved in settings, scans, searches, readable errors."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import pytest

from app.core.paths import Paths
from app.core.settings import load_settings
from app.main import main
from tests.files.files_helpers import write


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["files", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def added(root: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    write(root / "Lease agreement.txt", "signed by both parties")
    write(root / "photos" / "cat.png", "x" * 2048)
    code, out, _ = run(capsys, "add-root", str(root), "--json")
    assert code == 0 and json.loads(out)["scan"]["added"] == 2
    return root


def test_add_root_saves_the_folder_and_indexes_it(added: Path, capsys) -> None:
    assert load_settings(Paths.from_env().settings_file).file_roots == [str(added)]
    code, out, _ = run(capsys, "status", "--json")
    status = json.loads(out)
    assert code == 0 and status["files"] == 2 and status["roots"] == [str(added)]
    assert status["by_kind"] == {"document": 1, "image": 1}


def test_search_json_gives_objects_with_iso_dates(added: Path, capsys) -> None:
    code, out, _ = run(capsys, "search", "lea", "--json")
    results = json.loads(out)
    assert code == 0 and [r["name"] for r in results] == ["Lease agreement.txt"]
    assert set(results[0]) == {"path", "name", "kind", "size", "modified", "snippet"}
    assert datetime.fromisoformat(results[0]["modified"]).tzinfo is not None
    code, out, _ = run(capsys, "search", "--kind", "image", "--larger-than", "1k", "--json")
    assert [r["name"] for r in json.loads(out)] == ["cat.png"]
    code, out, _ = run(capsys, "search", "--ext", "png", "--before", "2000-01-01", "--json")
    assert json.loads(out) == []


def test_search_prints_readable_lines(added: Path, capsys) -> None:
    code, out, _ = run(capsys, "search", "parties")
    assert code == 0 and str(added / "Lease agreement.txt") in out and "**parties**" in out


def test_scan_after_changes_and_remove_root(added: Path, capsys) -> None:
    write(added / "new.txt", "hello")
    code, out, _ = run(capsys, "scan", "--json")
    assert code == 0 and json.loads(out)["added"] == 1
    code, out, _ = run(capsys, "remove-root", str(added), "--json")
    assert code == 0
    assert load_settings(Paths.from_env().settings_file).file_roots == []
    _, out, _ = run(capsys, "search", "hello", "--json")
    assert json.loads(out) == []


@pytest.mark.parametrize("argv", [
    ["add-root", "/no/such/folder"],
    ["remove-root", "/not/a/root"],
    ["search", "x", "--after", "yesterday-ish"],
    ["search", "x", "--larger-than", "huge"],
    ["search", "x", "--kind", "boat"],
    ["search", "x", "--folder", "/etc"],
    ["search", "x", "--limit", "0"],
    ["scan"],
])
def test_bad_input_gives_one_line_error(argv: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert err.startswith("hearth: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="Windows finds these through its shell API")
def test_status_without_roots_suggests_the_usual_folders(tmp_path: Path, monkeypatch,
                                                         capsys) -> None:
    home = tmp_path / "user"
    (home / "Documents").mkdir(parents=True)
    (home / "Downloads").mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_DOCUMENTS_DIR", "XDG_DESKTOP_DIR", "XDG_DOWNLOAD_DIR", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(var, raising=False)
    code, out, _ = run(capsys, "status")
    assert code == 0 and "No folders chosen yet" in out
    assert f"add-root {home.resolve() / 'Documents'}" in out
    assert f"add-root {home.resolve() / 'Downloads'}" in out and "Desktop" not in out
