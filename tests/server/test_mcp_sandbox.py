"""`hearth mcp serve` checks what a document or file is, not how it was named: a library
document outside the chosen folders is refused by its bare name too, and a chat's own dropped
document is never reachable from another program."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.main import Hearth, main
from tests.server.test_mcp_serve import session, text


@pytest.fixture
def library(tmp_path: Path, hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    (chosen / "kettle.txt").write_text("kettle descaling notes", encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "diary.txt").write_text("quince private diary", encoding="utf-8")
    (other / "dropped.txt").write_text("medlar dropped in one chat", encoding="utf-8")
    assert main(["files", "add-root", str(chosen)]) == 0  # the chosen folder
    assert main(["docs", "add", str(chosen / "kettle.txt")]) == 0
    assert main(["docs", "add", str(other / "diary.txt")]) == 0  # library, outside it
    hearth = Hearth()
    try:
        hearth.documents.add_paths([str(other / "dropped.txt")], scope="chat-1")
    finally:
        hearth.close()
    capsys.readouterr()
    return chosen


def test_documents_outside_the_chosen_folders_are_refused_by_any_name(
        library: Path, hearth_home: Path) -> None:
    _, by_name, by_title, search, listed, dropped, dropped_search, inside = session(
        hearth_home, [
            ("read_document", {"document": "diary.txt"}),
            ("read_document", {"document": "diary"}),
            ("search_documents", {"query": "quince"}),
            ("list_documents", {}),
            ("read_document", {"document": "dropped.txt"}),
            ("search_documents", {"query": "medlar"}),
            ("read_document", {"document": "kettle.txt"}),
        ])
    for result in (by_name, by_title, dropped):
        assert result.is_error, text(result)
    for result in (by_name, by_title, search, listed, dropped, dropped_search):
        assert "private diary" not in text(result) and "in one chat" not in text(result)
        assert "diary.txt" not in text(result).replace("'diary.txt'", "").replace(
            "diary.txt is outside", "")
    assert "kettle.txt" in text(listed)
    assert not inside.is_error and "descaling" in text(inside)
