"""The library: every document Hearth can read, with its status; add, remove, re-index, open,
search with snippets. All reading and writing of the index goes through background ops."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.file_actions import pick_documents, reveal_path, start_folder
from app.ui.i18n import Retranslator, plural
from app.ui.skip_reasons import skip_reason, technical
from app.ui.theme import page_layout, page_title, title_row
from app.ui.widgets import add_tabs, confirm, hbox, tr_button

if TYPE_CHECKING:
    from skills.documents.models import CatalogEntry, Progress


TITLE_MAX_WIDTH = 360  # a long file name must leave the folder column room
SEARCH_DELAY_MS = 200  # search once typing pauses
SNIPPET_CHARS = 180
PATH_ROLE = Qt.ItemDataRole.UserRole
COLUMNS = ("title", "kind", "length", "status", "folder")


class _Relay(QObject):
    progress = Signal(object)


def snippet(text: str, query: str, width: int = SNIPPET_CHARS) -> str:
    """The part of a passage around the first query word it contains, on one line."""
    flat = " ".join(text.split())
    lower = flat.lower()
    hits = [lower.find(w) for w in query.lower().split() if w and lower.find(w) >= 0]
    start = max(0, min(hits) - width // 3) if hits else 0
    piece = flat[start:start + width]
    return ("…" if start else "") + piece + ("…" if start + width < len(flat) else "")


def _under(path: str, folders: list[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


class LibraryView(QWidget):
    """Documents (indexed, skipped with why, chat-only), watched folders, problems, search.
    `settings_saved` names the settings it changed (the watched folders), so the services
    that follow them (the folder watcher) apply them at once."""

    settings_saved = Signal(set)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("libraryPage")
        self.ctx = ctx
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress)
        self._tr = Retranslator(self)
        self._entries: list[Any] = []
        self._watched: list[str] = []
        layout, self.status = page_layout(self, self._header())
        self._tr(lambda: self.status.setText(self.tr("Reading the library…")), key="status")
        self.search = QLineEdit(clearButtonEnabled=True)
        self._tr(lambda: self.search.setPlaceholderText(self.tr("Search inside your documents")))
        self._tr(lambda: self.search.setAccessibleName(self.tr("Search inside your documents")))
        self._search_timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._run_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        layout.addWidget(self.search)
        self.setFocusProxy(self.search)  # shown from the sidebar, typing searches
        self.tabs = QTabWidget()
        add_tabs(self.tabs, self._tr, [
            (self._documents_tab(), lambda: self.tr("Documents")),
            (self._folders_tab(), lambda: self.tr("Watched folders")),
            (self._failures_tab(), lambda: self.tr("Problems"))])
        layout.addWidget(self.tabs, 1)
        self._shown_once = False
        self._tr(self.refresh)  # counts, "Problems (n)" and lengths are built with the data

    def _header(self) -> QHBoxLayout:
        title = page_title()
        self._tr(lambda: title.setText(self.tr("Library")))
        self.add_files_button = tr_button(self._tr, lambda: self.tr("Add files…"), self._add_files)
        self.reindex_button = tr_button(self._tr, lambda: self.tr("Re-index now"), self.reindex)
        return title_row(title, self.add_files_button, self.reindex_button)

    def _documents_tab(self) -> QWidget:
        self.table = QTableWidget(0, len(COLUMNS))
        self._tr(lambda: self.table.setHorizontalHeaderLabels(
            [self.tr("Title"), self.tr("Kind"), self.tr("Length"), self.tr("Status"),
             self.tr("Folder")]))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keep the folder's end
        self.table.setWordWrap(False)  # a wrapping cell elides at the end, whatever the mode
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._document_menu)
        self.table.cellDoubleClicked.connect(lambda row, _c: self.open_document(row))
        self._tr(lambda: self.table.setAccessibleName(self.tr("Indexed documents")))
        self.results = QListWidget()
        self.results.setWordWrap(True)
        self.results.setSpacing(2)
        self.results.itemActivated.connect(self._open_result)
        self._tr(lambda: self.results.setAccessibleName(self.tr("Passages found")))
        self.stack = QStackedWidget()
        self.stack.addWidget(self.table)
        self.stack.addWidget(self.results)
        return self.stack

    def _folders_tab(self) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        self.folders = QListWidget()
        self._tr(lambda: self.folders.setAccessibleName(self.tr("Watched folders")))
        column.addWidget(self.folders, 1)
        column.addLayout(hbox(tr_button(self._tr, lambda: self.tr("Add folder…"), self._add_folder),
                              tr_button(self._tr, lambda: self.tr("Stop watching"),
                                        self._remove_folder), None))
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
        self.ctx.ops.run(lambda: (documents.status(), documents.catalog()), self._show,
                         self._failed)

    def _show(self, result: tuple[Any, list[Any]]) -> None:
        status, entries = result
        self._tr(lambda: None, key="status")  # the data below is in the language now shown
        self._entries = entries
        self._watched = list(status.watching)
        indexed = [e for e in entries if e.status == "ok"]
        chat_only = sum(not e.in_library for e in indexed)
        # Counted from the very rows listed below, so the header and the table always agree.
        parts = [plural(len(indexed), self.tr("1 document"), self.tr("%1 documents")),
                 plural(sum(e.chunks for e in indexed), self.tr("1 passage"),
                        self.tr("%1 passages"))]
        if chat_only:
            parts.append(plural(chat_only, self.tr("1 only in a chat"),
                                self.tr("%1 only in chats")))
        if not entries and not self._watched:  # a first visit: say how documents come in
            parts = [self.tr("No documents yet: add files, watch a folder in Settings, or drop "
                             "files on a chat to ask about them.")]
        if status.paused:
            parts.append(self.tr("paused"))
        self.status.setText("  ·  ".join(parts))
        self._fill_table(entries)
        self.folders.clear()
        self.folders.addItems(self._watched)
        self.failures.clear()
        failures = list(status.failures)
        self.failures.addItems([f"{Path(f.path).name} — {skip_reason(f.skip)}"
                                for f in failures])
        count = len(failures)
        self.tabs.setTabText(2, self.tr("Problems") + (f" ({count})" if count else ""))

    def _fill_table(self, entries: list[Any]) -> None:
        self.table.setRowCount(len(entries))
        for row, entry in enumerate(entries):
            values = [entry.title or Path(entry.path).name, self.kind_name(entry.kind),
                      self.length(entry.kind, entry.pages), self.status_text(entry),
                      str(Path(entry.path).parent)]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(self._tooltip(entry) if col == 3 else entry.path)
                item.setData(PATH_ROLE, entry.path)
                self.table.setItem(row, col, item)
        self.table.resizeColumnToContents(0)
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), TITLE_MAX_WIDTH))

    def _tooltip(self, entry: CatalogEntry) -> str:
        """The status in full, with the words a library gave for a damaged file."""
        if entry.skip is None:
            return entry.path
        return "\n".join(t for t in (self.status_text(entry), technical(entry.skip)) if t)

    def status_text(self, entry: CatalogEntry) -> str:
        """Indexed / skipped and why / where it comes from, in a few words."""
        if entry.status != "ok":
            return self.tr("Skipped: %1").replace(
                "%1", skip_reason(entry.skip) if entry.skip else self.tr("unreadable"))
        if _under(entry.path, self._watched):
            return self.tr("Indexed · watching its folder")
        if not entry.in_library:
            return self.tr("Indexed · only in a chat")
        return self.tr("Indexed")

    def kind_name(self, kind: str) -> str:
        """What a user calls the file, not the parser's name for it ("markdown", "xlsx")."""
        names = {"pdf": "PDF", "docx": "Word", "xlsx": "Excel", "pptx": "PowerPoint",
                 "text": self.tr("Text"), "markdown": "Markdown", "html": "HTML", "csv": "CSV"}
        return names.get(kind, kind)

    def length(self, kind: str, pages: int) -> str:
        """Pages of a PDF, sheets of a workbook, slides of a deck; text has no such unit."""
        units = {"pdf": (self.tr("1 page"), self.tr("%1 pages")),
                 "xlsx": (self.tr("1 sheet"), self.tr("%1 sheets")),
                 "pptx": (self.tr("1 slide"), self.tr("%1 slides"))}
        return plural(pages, *units[kind]) if pages and kind in units else "—"

    def _failed(self, error: Exception) -> None:
        self.status.setText(self.tr("The library could not be read: %1").replace(
            "%1", str(error)))

    # -- actions on documents -----------------------------------------------------------------
    def path_at(self, row: int) -> str:
        item = self.table.item(row, 0)
        return str(item.data(PATH_ROLE)) if item is not None else ""

    def open_document(self, row: int, page: int | None = None) -> QWidget | None:
        path = self.path_at(row)
        return self._open(path, page) if path else None

    def _open(self, document: str, page: int | None) -> QWidget | None:
        from types import SimpleNamespace

        from app.ui.open_source import open_source

        return open_source(SimpleNamespace(document=document, page=page), self)

    def _document_menu(self, pos: QPoint) -> None:
        row = self.table.rowAt(pos.y())
        if row < 0:
            return
        path = self.path_at(row)
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: self.open_document(row))
        menu.addAction(self.tr("Show in folder"), lambda: reveal_path(path))
        menu.addSeparator()
        menu.addAction(self.tr("Re-index"), lambda: self.reindex_file(path))
        menu.addAction(self.tr("Remove from Hearth…"), lambda: self.confirm_remove(path))
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def reindex_file(self, path: str) -> None:
        documents = self.ctx.lazy("documents")
        self.status.setText(self.tr("Reading %1 again…").replace("%1", Path(path).name))
        self.ctx.ops.run(lambda: documents.reindex(path), lambda _r: self.refresh(),
                         self._failed)

    def confirm_remove(self, path: str) -> QMessageBox:
        """Removing forgets the passages (the file itself stays): ask, naming the file."""
        return confirm(self, self.tr("Remove from Hearth"),
                       self.tr("Remove “%1” from Hearth? Its passages are forgotten; the file "
                               "itself stays where it is.").replace("%1", Path(path).name),
                       self.tr("Remove"), lambda: self.remove(path), QMessageBox.Icon.Question)

    def remove(self, path: str) -> None:
        documents = self.ctx.lazy("documents")
        self.ctx.ops.run(lambda: documents.remove(path), lambda _r: self.refresh(),
                         self._failed, writes=True)

    def _add_files(self) -> None:
        paths = pick_documents(self, self.tr("Add files to the library"))
        if paths:
            self.add_files(paths)

    def add_files(self, paths: list[str]) -> None:
        documents, relay = self.ctx.lazy("documents"), self._relay
        self.ctx.ops.run(lambda: documents.add_paths(paths, progress=relay.progress.emit),
                         lambda _r: self.refresh(), self._failed)

    # -- search -------------------------------------------------------------------------------
    def _run_search(self) -> None:
        query = self.search.text().strip()
        if not query:
            self.stack.setCurrentWidget(self.table)
            return
        documents = self.ctx.lazy("documents")
        self.ctx.ops.run(lambda: documents.search(query, limit=30),
                         lambda hits: self._show_hits(query, hits), self._failed)

    def _show_hits(self, query: str, hits: list[Any]) -> None:
        if query != self.search.text().strip():
            return  # typing went on: a newer search is coming
        self.tabs.setCurrentIndex(0)
        self.stack.setCurrentWidget(self.results)
        self.results.clear()
        if not hits:
            self.results.addItem(self.tr("No passage matches “%1”.").replace("%1", query))
            return
        for hit in hits:
            where = f"{hit.title} · {hit.location}" if hit.location else hit.title
            item = QListWidgetItem(f"{where}\n{snippet(hit.text, query)}")
            item.setData(PATH_ROLE, (hit.document, hit.page))
            item.setToolTip(hit.document)
            self.results.addItem(item)

    def _open_result(self, item: QListWidgetItem) -> None:
        target = item.data(PATH_ROLE)
        if target:
            self._open(*target)

    # -- index-wide ---------------------------------------------------------------------------
    def reindex(self) -> None:
        documents, relay = self.ctx.lazy("documents"), self._relay
        self.reindex_button.setEnabled(False)
        self.ctx.ops.run(lambda: documents.sync(progress=relay.progress.emit),
                         self._reindexed, self._reindex_failed)

    def _on_progress(self, p: Progress) -> None:
        self.status.setText(self.tr("Indexing %1 of %2: %3").replace("%1", str(p.done))
                            .replace("%2", str(p.total)).replace("%3", Path(p.current).name))

    def _reindexed(self, _report: object) -> None:
        self.reindex_button.setEnabled(True)
        self.refresh()

    def _reindex_failed(self, error: Exception) -> None:
        self.reindex_button.setEnabled(True)
        self._failed(error)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Watch a folder"),
                                                  start_folder())
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

        def done(_r: object) -> None:
            self.refresh()
            self.settings_saved.emit({"watched_folders"})  # watched live from now on

        self.ctx.ops.run(work, done, self._failed, writes=True)
