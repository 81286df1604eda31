"""Library and calendar pages as a user reads them: plain words, in the language of the UI."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QPushButton

from app.ui.pages.calendar.view import agenda_html
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import WAIT_MS


def _workbook(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Month", "Spent"])
    book.create_sheet("Budget").append(["Q3", 12000])
    book.save(path)


def test_watching_a_folder_lists_kind_and_length_of_each_document(ctx, qtbot, tmp_path,
                                                                  monkeypatch) -> None:
    folder = tmp_path / "Finance"
    folder.mkdir()
    (folder / "notes.md").write_text("# Budget\n\nTravel: 12,000 EUR for Q3.")
    _workbook(folder / "travel.xlsx")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.show_page("library")
    library: Any = window.pages.currentWidget()
    monkeypatch.setattr("app.ui.pages.library.QFileDialog.getExistingDirectory",
                        lambda *_a, **_k: str(folder))
    library.tabs.setCurrentIndex(1)
    add = next(b for b in library.findChildren(QPushButton) if b.text() == "Add folder…")
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: library.table.rowCount() == 2, timeout=WAIT_MS)
    rows = {library.table.item(r, 0).text(): [library.table.item(r, c).text()
                                              for c in (1, 2, 3, 4)] for r in range(2)}
    watching = "Indexed · watching its folder"
    assert rows == {"notes.md": ["Markdown", "—", watching, str(folder)],
                    "travel.xlsx": ["Excel", "2 sheets", watching, str(folder)]}
    assert library.status.text().startswith("2 documents")
    assert library.folders.item(0).text() == str(folder)


def test_the_agenda_names_days_in_the_language_of_the_ui() -> None:
    monday = date(2026, 11, 30)
    chinese = agenda_html([], monday, 2, "全天", "没有安排", QLocale("zh_CN"))
    assert "11月30日星期一" in chinese and "12月1日星期二" in chinese
    assert chinese.count("没有安排") == 2
    english = agenda_html([], monday, 1, "All day", "Nothing planned", QLocale("en_GB"))
    assert "Monday, 30 November" in english and "2026" not in english
