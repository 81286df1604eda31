"""Library and calendar pages, built on first visit; "not available" when a skill is missing."""

from __future__ import annotations

import importlib.util

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.ui.context import UiContext


def unavailable(title: str, detail: str) -> QWidget:
    page = QWidget()
    layout = QVBoxLayout(page)
    heading = QLabel(title)
    font = heading.font()
    font.setPointSizeF(font.pointSizeF() * 1.4)
    heading.setFont(font)
    text = QLabel(detail)
    text.setObjectName("dim")
    text.setWordWrap(True)
    for label in (heading, text):
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(label)
    layout.insertStretch(0, 1)
    layout.addStretch(1)
    return page


def make_library_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    if importlib.util.find_spec("skills.documents") is None:
        return unavailable(QCoreApplication.translate("Pages", "Library"),
                           QCoreApplication.translate("Pages", "Document search is not "
                                                      "available in this build yet."))
    from app.ui.library_view import LibraryView

    return LibraryView(ctx, parent)


def make_calendar_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    if importlib.util.find_spec("skills.calendar") is None:
        return unavailable(QCoreApplication.translate("Pages", "Calendar"),
                           QCoreApplication.translate("Pages", "The calendar is not available "
                                                      "in this build yet."))
    from app.ui.calendar_view import CalendarView

    return CalendarView(ctx, parent)


def make_files_page(ctx: UiContext, parent: QWidget | None = None) -> QWidget:
    from app.ui.files_view import FilesView

    return FilesView(ctx, parent)
