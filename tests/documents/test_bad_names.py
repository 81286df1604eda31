"""A file name that is not valid UTF-8 is skipped with its reason, never stopping its folder."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from app.main import main
from skills.documents import DocumentIndex

pytestmark = pytest.mark.skipif(sys.platform == "darwin", reason="macOS refuses such names")


def folder_with_a_bad_name(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/caf\xe9 menu.txt", "wb") as handle:  # Latin-1 name
        handle.write(b"latin one")
    (folder / "good.txt").write_text("the good neighbour walrus", encoding="utf-8")
    return folder


def test_docs_add_indexes_the_neighbour_and_names_the_skipped_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = folder_with_a_bad_name(tmp_path)
    assert main(["docs", "add", str(folder), "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    report = json.loads(line)
    assert report["added"] == 1
    (failure,) = report["failures"]
    assert "not valid UTF-8" in failure["reason"] and failure["path"].endswith("caf\udce9 menu.txt")
    assert main(["docs", "add", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "caf\\udce9 menu.txt: its name is not valid UTF-8" in out  # shown, escaped
    assert main(["docs", "search", "walrus"]) == 0
    assert "good.txt" in capsys.readouterr().out


def test_a_watched_folder_with_a_bad_name_still_fills(tmp_path: Path, pool) -> None:  # type: ignore[no-untyped-def]
    folder = folder_with_a_bad_name(tmp_path)
    index = DocumentIndex(tmp_path / "index.db", watched=[str(folder)], pool=pool)
    try:
        report = index.sync()
        assert report.added == 1 and len(report.failures) == 1
        assert index.status().documents == 1
        index.handle_change(os.fsdecode(os.fsencode(folder) + b"/caf\xe9 menu.txt"))  # the watcher
        assert index.status().documents == 1
    finally:
        index.close()
