"""Drop files on the window, watch them index, ask about them, open the cited source."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "Project"
    docs.mkdir()
    (docs / "notes.txt").write_text("The launch date is 14 March. The venue is the harbour.")
    (docs / "plan.md").write_text("# Plan\n\nBudget is 12,000 euros for the launch party.")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 this is not really a pdf")
    return docs


def drop(target: Any, paths: list[Path]) -> None:
    """What the OS sends when files are dragged from a file manager and released."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QPointF(target.width() / 2, target.height() / 2)
    enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    event = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, event)


def wait_indexed(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: window.indexer.running == 0 and "ready" in
                    window.chat.banner_text.text(), timeout=WAIT_MS)


def test_dropped_folder_is_indexed_for_this_chat_with_failures_explained(window, folder, qtbot,
                                                                          ctx) -> None:
    drop(window.chat.composer, [folder])
    wait_indexed(qtbot, window)
    cid = window.chat.conversation_id
    assert cid is not None  # dropping into a new chat starts the conversation
    names = {Path(d.path).name for d in ctx.hearth.documents.documents(scope=cid)}
    assert names == {"notes.txt", "plan.md"}
    assert not ctx.hearth.documents.documents(scope=None)  # not added to the library
    banner = window.chat.banner_text.text()
    assert banner.startswith("2 files ready")
    assert "broken.pdf" in banner
    assert "Project" in window.chat.composer.files_label.text()  # what the user dropped


def test_drop_on_the_window_then_ask_and_open_the_cited_file(window, folder, backend, qtbot,
                                                             monkeypatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("app.ui.open_source.QDesktopServices.openUrl",
                        lambda url: opened.append(url.toLocalFile()) or True)
    drop(window, [folder / "notes.txt"])
    wait_indexed(qtbot, window)
    backend.queue(tool_call("search_documents", query="launch date"),
                  answer("Found it.", "The launch is on 14 March [1]."), TITLE)
    window.chat.send("When is the launch?")
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    (reply,) = window.chat.findChildren(AssistantMessage)
    (card,) = reply.cards.values()
    assert card.title.text().endswith("Searched documents")
    assert "notes.txt" in card.result.text()
    assert [s.citation for s in reply.sources] == [1]
    assert "[1] notes.txt" in reply._sources_label.text()
    reply._sources_label.linkActivated.emit("cite:1")
    assert opened == [str(folder / "notes.txt")]
    first_call = backend.calls[0].messages
    assert any("notes.txt" in str(m.get("content", "")) for m in first_call)  # attachment note


def two_page_pdf(path: Path) -> Path:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(300, 400)
    writer.add_blank_page(300, 400)
    with path.open("wb") as handle:
        writer.write(handle)
    return path


def test_a_pdf_source_opens_in_app_at_its_page(window, tmp_path, qtbot) -> None:
    pytest.importorskip("PySide6.QtPdfWidgets")
    from app.ui.open_source import open_source

    pdf = two_page_pdf(tmp_path / "report.pdf")
    viewer = open_source(SimpleNamespace(document=str(pdf), page=2), window)
    assert viewer is not None
    qtbot.addWidget(viewer)
    # On page 2 (the navigator counts from 0).
    qtbot.waitUntil(lambda: viewer.view.pageNavigator().currentPage() == 1, timeout=WAIT_MS)
    assert "2 of 2" in viewer.page_label.text()


def test_a_missing_source_says_so_without_blocking(window, tmp_path, qtbot) -> None:
    from app.ui.open_source import open_source

    box = open_source(SimpleNamespace(document=str(tmp_path / "gone.pdf"), page=1), window)
    assert box is not None and "gone.pdf" in box.text()
    box.close()


def test_a_cited_launcher_is_shown_in_its_folder_never_run(window, tmp_path, monkeypatch) -> None:
    from app.ui.open_source import open_source

    opened: list[str] = []
    monkeypatch.setattr("app.ui.open_source.QDesktopServices.openUrl",
                        lambda url: opened.append(url.toLocalFile()) or True)
    launcher = tmp_path / "notes.txt"
    launcher.write_text("[Desktop Entry]\nType=Application\nExec=sh -c 'touch /tmp/x'\n")
    assert open_source(SimpleNamespace(document=str(launcher), page=None), window) is None
    assert opened == [str(tmp_path)]


def test_every_failed_file_is_named_and_an_empty_one_is_called_empty(window, qtbot, ctx,
                                                                     tmp_path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("A note with words in it.", encoding="utf-8")
    empty_pdf, empty_docx = tmp_path / "blank.pdf", tmp_path / "draft.docx"
    empty_pdf.write_bytes(b"")
    empty_docx.write_bytes(b"")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not really a pdf")
    drop(window.chat.composer, [good, empty_pdf, empty_docx, broken])
    wait_indexed(qtbot, window)
    banner = window.chat.banner_text.text()
    assert banner.startswith("1 file ready") and "3 could not be read" in banner
    for name in ("blank.pdf", "draft.docx", "broken.pdf"):  # each of them, not the first
        assert name in banner
    assert "blank.pdf: the file is empty (0 bytes)" in banner
    assert "draft.docx: the file is empty (0 bytes)" in banner
    empty_part = banner[banner.index("blank.pdf"):banner.index("broken.pdf")]
    assert "damaged" not in empty_part and "OCR" not in empty_part
