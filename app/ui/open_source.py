"""Open a cited source: PDFs at their page in-app when QtPdf is there, else the system viewer."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui.pages.pdf_viewer import PdfViewer, pdf_available


def open_source(source: object, parent: QWidget | None = None) -> QWidget | None:
    """Returns the in-app viewer when one was opened (tests look at its page)."""
    path = str(getattr(source, "document", "") or "")
    if not path or not Path(path).exists():
        # Non-modal: a missing file must not block the chat that is still streaming.
        box = QMessageBox(QMessageBox.Icon.Information, "Hearth",
                          QCoreApplication.translate("Sources", "This file is no longer there:")
                          + f"\n{path or '?'}", parent=parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return box
    page = getattr(source, "page", None)
    if path.lower().endswith(".pdf") and pdf_available():
        viewer = PdfViewer(path, int(page or 1), parent)
        viewer.show()
        return viewer
    from skills.files.runnable import runnable_reason  # the file index: not for the 1st frame

    if runnable_reason(path):  # a launcher or script: show its folder, never run it
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(Path(path).parent)))
        return None
    QDesktopServices.openUrl(QUrl.fromLocalFile(path))
    return None
