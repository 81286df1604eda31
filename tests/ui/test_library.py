"""The Library view: true counts, every document with its status, add, remove, re-index,
search with snippets and open at the page (issue 16, defect 8 and the Library view)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from app.ui.pages.library import LibraryView, snippet
from tests.support.text_pdf import text_pdf
from tests.ui.scripts import WAIT_MS


@pytest.fixture
def library(ctx: Any, qtbot: Any) -> LibraryView:
    view = LibraryView(ctx)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: "document" in view.status.text(), timeout=WAIT_MS)
    return view


def rows(view: LibraryView) -> dict[str, str]:
    """Title -> status, as the table shows them."""
    return {view.table.item(r, 0).text(): view.table.item(r, 3).text()
            for r in range(view.table.rowCount())}


def test_a_file_dropped_into_a_chat_is_listed_and_counted(ctx, library, qtbot,
                                                          tmp_path) -> None:
    """Defect 8: the header said "1 document · 4 passages" but the table was empty."""
    assert library.status.text().startswith("No documents yet: add files")  # how they come in
    pdf = text_pdf(tmp_path / "boiler.pdf", ["Cover", "The boiler needs service in May"])
    ctx.hearth.documents.add_paths([pdf], scope="chat-1")  # what a drop on a chat does
    library.refresh()
    qtbot.waitUntil(lambda: library.table.rowCount() == 1, timeout=WAIT_MS)
    assert rows(library) == {"boiler.pdf": "Indexed · only in a chat"}
    assert library.status.text().startswith("1 document  ·  ")
    assert "1 only in a chat" in library.status.text()


def test_add_search_open_at_the_page_and_remove(ctx, library, qtbot, tmp_path,
                                                monkeypatch) -> None:
    pytest.importorskip("PySide6.QtPdfWidgets")
    pdf = text_pdf(tmp_path / "manual.pdf", ["Contents", "Descale the kettle every month"])
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"not a zip at all")
    library.add_files([str(pdf), str(broken)])
    qtbot.waitUntil(lambda: library.table.rowCount() == 2, timeout=WAIT_MS)
    status = rows(library)
    assert status["manual.pdf"] == "Indexed"
    assert status["broken.docx"] == "Skipped: not a valid DOCX file"  # and why, in words
    assert library.status.text().startswith("1 document  ·  ")  # skipped is not counted

    qtbot.keyClicks(library.search, "kettle")
    qtbot.waitUntil(lambda: library.stack.currentWidget() is library.results
                    and library.results.count() == 1, timeout=WAIT_MS)
    hit = library.results.item(0)
    assert hit.text().splitlines() == ["manual.pdf · page 2", "Descale the kettle every month"]
    opened: list[Any] = []
    monkeypatch.setattr("app.ui.open_source.PdfViewer.show", lambda self: opened.append(self))
    library.results.itemActivated.emit(hit)
    assert opened and opened[0].path == str(pdf)
    # On page 2 (the navigator counts from 0).
    qtbot.waitUntil(lambda: opened[0].view.pageNavigator().currentPage() == 1, timeout=WAIT_MS)
    opened[0].close()

    library.search.clear()
    qtbot.waitUntil(lambda: library.stack.currentWidget() is library.table, timeout=WAIT_MS)
    row = next(r for r in range(2) if library.table.item(r, 0).text() == "manual.pdf")
    box = library.confirm_remove(library.path_at(row))
    assert "manual.pdf" in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    next(b for b in box.buttons() if b.text() == "Remove").click()
    qtbot.waitUntil(lambda: "manual.pdf" not in rows(library), timeout=WAIT_MS)
    assert ctx.hearth.documents.search("kettle") == []  # forgotten everywhere
    assert pdf.exists()  # the file itself stays


def test_reindex_one_file_reads_it_again(ctx, library, qtbot, tmp_path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("The gate code is 1234.")
    library.add_files([str(note)])
    qtbot.waitUntil(lambda: library.table.rowCount() == 1, timeout=WAIT_MS)
    note.write_text("The gate code is 9876.")
    library.reindex_file(str(note))
    qtbot.waitUntil(lambda: bool(ctx.hearth.documents.search("9876")), timeout=WAIT_MS)


def test_snippets_show_the_words_searched_for() -> None:
    text = "intro " * 100 + "the boiler is serviced in May " + "tail " * 100
    piece = snippet(text, "boiler")
    assert "boiler" in piece and piece.startswith("…") and piece.endswith("…")
    assert len(piece) <= 182
