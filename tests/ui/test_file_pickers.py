"""Choosing files to read (the chat's + Files, File > Add files, the Library's Add files): the
dialog lists the formats Hearth reads, with any other file a choice away, and what is chosen
arrives where it was asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.ui.pages.library import LibraryView
from tests.ui.scripts import WAIT_MS


@pytest.fixture
def dialog(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[tuple[str, str]]:
    """The file dialog, answered with a note: what each opening offered (title, filter)."""
    note = tmp_path / "boiler.md"
    note.write_text("# Boiler\n\nThe boiler needs service in May.\n", encoding="utf-8")
    offered: list[tuple[str, str]] = []

    def answer(_parent: Any, title: str, _folder: str, kinds: str = "") -> tuple[list[str], str]:
        offered.append((title, kinds))
        return [str(note)], kinds.split(";;")[0]

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", answer)
    return offered


def check_kinds(kinds: str) -> None:
    readable, every = kinds.split(";;")
    for suffix in ("*.pdf", "*.docx", "*.xlsx", "*.pptx", "*.md", "*.txt", "*.csv", "*.html"):
        assert suffix in readable.split("(")[1], readable
    assert readable.startswith("Documents (") and every == "All files (*)"


def test_the_chats_pickers_offer_what_hearth_reads_and_bring_it_in(
        window: Any, qtbot: Any, dialog: list[tuple[str, str]]) -> None:
    indexed: list[list[str]] = []
    window.indexer.index = indexed.append
    with qtbot.waitSignal(window.chat.composer.files_dropped, timeout=WAIT_MS) as dropped:
        qtbot.mouseClick(window.chat.composer.attach, Qt.MouseButton.LeftButton)
    assert [Path(p).name for p in dropped.args[0]] == ["boiler.md"]
    window._add_files()  # File > Add files to this chat… (Ctrl+O)
    assert [[Path(p).name for p in paths] for paths in indexed] == [["boiler.md"]] * 2
    assert [title for title, _ in dialog] == ["Add files", "Add files to this chat"]
    for _title, kinds in dialog:
        check_kinds(kinds)


def test_the_librarys_picker_offers_what_hearth_reads_and_indexes_it(
        ctx: Any, qtbot: Any, dialog: list[tuple[str, str]]) -> None:
    library = LibraryView(ctx)
    qtbot.addWidget(library)
    library.show()
    qtbot.mouseClick(library.add_files_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: library.table.rowCount() == 1, timeout=WAIT_MS)
    assert library.table.item(0, 0).text() == "boiler.md"
    assert [title for title, _ in dialog] == ["Add files to the library"]
    check_kinds(dialog[0][1])
