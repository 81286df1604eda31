"""An in-app PDF window that opens at a page (system viewers cannot be told a page portably)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from app.ui.widgets import button, hbox


def pdf_available() -> bool:
    """QtPdf ships in the separate PySide6-Pdf wheel; without it PDFs open in the system viewer."""
    try:
        import PySide6.QtPdf
        import PySide6.QtPdfWidgets  # noqa: F401
    except ImportError:
        return False
    return True


class PdfViewer(QDialog):
    """Shows one PDF, scrolled to a 1-based page, with "Open in default app"."""

    def __init__(self, path: str, page: int = 1, parent: QWidget | None = None) -> None:
        from PySide6.QtPdf import QPdfDocument
        from PySide6.QtPdfWidgets import QPdfView

        super().__init__(parent)
        self.path = path
        self.setWindowTitle(Path(path).name)
        self.resize(820, 960)
        self.document = QPdfDocument(self)
        self.document.load(path)
        self.view = QPdfView(self)
        self.view.setAccessibleName(self.tr("PDF document"))
        self.view.setPageMode(QPdfView.PageMode.MultiPage)
        self.view.setZoomMode(QPdfView.ZoomMode.FitToWidth)
        self.view.setDocument(self.document)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 8)
        layout.addWidget(self.view, 1)
        self.page_label = QLabel()
        bar = hbox(self.page_label, None, button(self.tr("Open in default app"), self.open_external))
        bar.setContentsMargins(12, 0, 12, 0)
        layout.addLayout(bar)
        QShortcut(QKeySequence.StandardKey.Close, self, self.close)
        self._first_page = page
        self.jump(page)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        # The view ignores jumps until it has a size: jump again once it is on screen.
        if self._first_page:
            page, self._first_page = self._first_page, 0
            QTimer.singleShot(0, self, lambda: self.jump(page))

    def jump(self, page: int) -> None:
        count = max(self.document.pageCount(), 1)
        index = min(max(page, 1), count) - 1  # the navigator's pages are 0-based
        self.view.pageNavigator().jump(index, QPointF(), 0)
        self.page_label.setText(self.tr("Page %1 of %2").replace("%1", str(index + 1))
                                .replace("%2", str(count)))

    def open_external(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(self.path))
