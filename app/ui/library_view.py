"""The library: watched folders, indexed documents, failures with reasons, re-index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.i18n import Retranslator, plural

TITLE_MAX_WIDTH = 360  # a long file name must leave the folder column room


class _Relay(QObject):
    progress = Signal(object)


class LibraryView(QWidget):
    """Everything here reads and writes the index through background ops."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryPage")
        self.ctx = ctx
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress)
        self._tr = Retranslator(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 16)
        layout.setSpacing(10)
        layout.addLayout(self._header())
        self.status = QLabel()
        self._tr(lambda: self.status.setText(self.tr("Reading the library…")), key="status")
        self.status.setObjectName("dim")
        layout.addWidget(self.status)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._documents_tab(), "")
        self.tabs.addTab(self._folders_tab(), "")
        self.tabs.addTab(self._failures_tab(), "")
        self._tr(lambda: self.tabs.setTabText(0, self.tr("Documents")))
        self._tr(lambda: self.tabs.setTabText(1, self.tr("Watched folders")))
        self._tr(lambda: self.tabs.setTabText(2, self.tr("Problems")))
        layout.addWidget(self.tabs, 1)
        self._shown_once = False
        self._tr(self.refresh)  # counts, "Problems (n)" and lengths are built with the data

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        title = QLabel()
        self._tr(lambda: title.setText(self.tr("Library")))
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        title.setFont(font)
        row.addWidget(title)
        row.addStretch(1)
        self.reindex_button = QPushButton()
        self._tr(lambda: self.reindex_button.setText(self.tr("Re-index now")))
        self.reindex_button.clicked.connect(self.reindex)
        row.addWidget(self.reindex_button)
        return row

    def _documents_tab(self) -> QWidget:
        self.table = QTableWidget(0, 4)
        self._tr(lambda: self.table.setHorizontalHeaderLabels(
            [self.tr("Title"), self.tr("Kind"), self.tr("Length"), self.tr("Folder")]))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep the folder's end
        self.table.setWordWrap(False)  # a wrapping cell elides at the end, whatever the mode
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self._tr(lambda: self.table.setAccessibleName(self.tr("Indexed documents")))
        return self.table

    def _folders_tab(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        self.folders = QListWidget()
        self._tr(lambda: self.folders.setAccessibleName(self.tr("Watched folders")))
        column.addWidget(self.folders, 1)
        row = QHBoxLayout()
        add = QPushButton()
        add.clicked.connect(self._add_folder)
        remove = QPushButton()
        self._tr(lambda: add.setText(self.tr("Add folder…")))
        self._tr(lambda: remove.setText(self.tr("Stop watching")))
        remove.clicked.connect(self._remove_folder)
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        column.addLayout(row)
        return box

    def _failures_tab(self) -> QWidget:
        self.failures = QListWidget()
        self._tr(lambda: self.failures.setAccessibleName(self.tr("Files that could not be read")))
        self.failures.setWordWrap(True)
        return self.failures

    # -- data ---------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._shown_once:  # coming back to the page: show what changed meanwhile
            self.refresh()
        self._shown_once = True

    def refresh(self) -> None:
        documents = self.ctx.lazy("documents")
        self.ctx.ops.run(lambda: (documents.status(), documents.documents()), self._show,
                         self._failed)

    def _show(self, result: tuple[Any, list[Any]]) -> None:
        status, docs = result
        self._tr(lambda: None, key="status")  # the data below is in the language now shown
        parts = [plural(status.documents, self.tr("1 document"), self.tr("%1 documents")),
                 plural(status.chunks, self.tr("1 passage"), self.tr("%1 passages"))]
        if status.paused:
            parts.append(self.tr("paused"))
        self.status.setText("  ·  ".join(parts))
        self.table.setRowCount(len(docs))
        for row, doc in enumerate(docs):
            values = [doc.title or Path(doc.path).name, self.kind_name(doc.kind),
                      self.length(doc.kind, doc.pages),
                      str(Path(doc.path).parent)]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(doc.path)
                self.table.setItem(row, col, item)
        self.table.resizeColumnToContents(0)
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), TITLE_MAX_WIDTH))
        self.folders.clear()
        self.folders.addItems(list(status.watching))
        self.failures.clear()
        self.failures.addItems([f"{Path(f.path).name} — {f.reason}" for f in status.failures])
        count = len(status.failures)
        self.tabs.setTabText(2, self.tr("Problems") + (f" ({count})" if count else ""))

    def kind_name(self, kind: str) -> str:
        """What a user calls the file, not the parser's name for it ("markdown", "xlsx")."""
        names = {"pdf": "PDF", "docx": "Word", "xlsx": "Excel", "pptx": "PowerPoint",
                 "text": self.tr("Text"), "markdown": "Markdown", "html": "HTML", "csv": "CSV"}
        return names.get(kind, kind)

    def length(self, kind: str, pages: int) -> str:
        """Pages of a PDF, sheets of a workbook, slides of a deck; text has no such unit."""
        if pages and kind == "pdf":
            return plural(pages, self.tr("1 page"), self.tr("%1 pages"))
        if pages and kind == "xlsx":
            return plural(pages, self.tr("1 sheet"), self.tr("%1 sheets"))
        if pages and kind == "pptx":
            return plural(pages, self.tr("1 slide"), self.tr("%1 slides"))
        return "—"

    def _failed(self, error: Exception) -> None:
        self.status.setText(self.tr("The library could not be read: %1").replace(
            "%1", str(error)))

    def reindex(self) -> None:
        documents, relay = self.ctx.lazy("documents"), self._relay
        self.reindex_button.setEnabled(False)
        self.ctx.ops.run(lambda: documents.sync(progress=relay.progress.emit),
                         self._reindexed, self._reindex_failed)

    def _on_progress(self, p: Any) -> None:
        self.status.setText(self.tr("Indexing %1 of %2: %3").replace("%1", str(p.done))
                            .replace("%2", str(p.total)).replace("%3", Path(p.current).name))

    def _reindexed(self, _report: Any) -> None:
        self.reindex_button.setEnabled(True)
        self.refresh()

    def _reindex_failed(self, error: Exception) -> None:
        self.reindex_button.setEnabled(True)
        self._failed(error)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Watch a folder"))
        if folder:
            self._change_watch(folder, add=True)

    def _remove_folder(self) -> None:
        item = self.folders.currentItem()
        if item is not None:
            self._change_watch(item.text(), add=False)

    def _change_watch(self, folder: str, add: bool) -> None:
        hearth = self.ctx.hearth
        watched = hearth.settings.watched_folders
        if add and folder not in watched:
            watched.append(folder)
        elif not add and folder in watched:
            watched.remove(folder)

        documents = self.ctx.lazy("documents")

        def work() -> None:
            (documents.watch if add else documents.unwatch)(folder)
            hearth.save_settings()
            if add:
                documents.sync()

        self.ctx.ops.run(work, lambda _r: self.refresh(), self._failed)
