"""The Files view: search the chosen folders as you type, filter by kind, date and size, open,
show in folder, or drag results into a chat. Every search runs off the GUI thread; a result
that arrives after newer typing is dropped."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QLocale,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTableView,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.dates import medium_date_time
from app.ui.file_actions import open_path, reveal_path, start_folder
from app.ui.i18n import Retranslator, data_size, plural, ui_locale
from app.ui.theme import page_layout, page_title, title_row
from app.ui.widgets import button, hbox
from skills.files.kinds import KINDS

if TYPE_CHECKING:
    from skills.files.models import IndexStatus


SEARCH_DELAY_MS = 120  # as you type, but not a search per key on a fast typist
PAGE = 200  # results shown at once: more than a person reads, few enough to show at once
MB = 1024 * 1024
Index = QModelIndex | QPersistentModelIndex


_DISPLAY = Qt.ItemDataRole.DisplayRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_USER = Qt.ItemDataRole.UserRole


class FileResults(QAbstractTableModel):
    """Search hits as rows; dragging rows carries their file URLs (copy, never move)."""

    COLUMNS = 5  # name, folder, kind, size, modified

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.hits: list[Any] = []
        self._texts: dict[int, tuple[str, ...]] = {}
        self.headers: list[str] = [""] * self.COLUMNS
        self.kind_names: dict[str, str] = {}
        self.locale = QLocale()

    def set_hits(self, hits: list[Any]) -> None:
        self.beginResetModel()
        self.hits = hits
        self._texts = {}
        self.endResetModel()

    def texts(self, row: int) -> tuple[str, ...]:
        """A row's five cells, formatted once (a paint asks each cell for many roles)."""
        cached = self._texts.get(row)
        if cached is None:
            hit = self.hits[row]
            cached = (hit.name, str(Path(hit.path).parent),
                      self.kind_names.get(hit.kind, hit.kind), data_size(self.locale, hit.size),
                      medium_date_time(self.locale, hit.modified))
            self._texts[row] = cached
        return cached

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.hits)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return self.COLUMNS

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Called for every role of every visible cell on each paint: the common cases first.
        if role == _DISPLAY:
            return self.texts(index.row())[index.column()]
        if role == _TOOLTIP:
            hit = self.hits[index.row()]
            return hit.snippet or hit.path
        if role == _USER:
            return self.path(index.row())
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsDragEnabled if index.isValid() else base

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return ["text/uri-list"]

    def mimeData(self, indexes: Any) -> QMimeData:  # noqa: N802
        rows = sorted({i.row() for i in indexes})
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(self.path(r)) for r in rows])
        return mime

    def supportedDragActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.CopyAction | Qt.DropAction.LinkAction

    def path(self, row: int) -> str:
        hit = self.hits[row]
        return str(hit.os_path or hit.path)


class FilesView(QWidget):
    """Spotlight-like search over the folders chosen for file search."""

    add_to_chat = Signal(list)  # paths, for "Add to chat" (dragging works too)
    searched = Signal(str)  # the query whose results are now shown (tests, benchmarks)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("filesPage")
        self.ctx = ctx
        self._tr = Retranslator(self)
        self._token = 0
        layout, self.status = page_layout(self, self._header())
        layout.addLayout(self._filters())
        self.model = FileResults(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.table.verticalHeader().hide()
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setShowGrid(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 280)
        # Wide enough for a whole date and time: elided in the middle, "01/12/2…6 11:21" hides
        # the year. (Resize-to-contents would measure every row on each result page.)
        header.resizeSection(4, self.fontMetrics().horizontalAdvance("00/00/0000 00:00") + 28)
        self.table.doubleClicked.connect(lambda index: self.open_row(index.row()))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._menu)
        self._tr(lambda: self.table.setAccessibleName(self.tr("Files found")))
        layout.addWidget(self.table, 1)
        self._timer = QTimer(self, singleShot=True, interval=SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.search_now)
        self._tr(self._texts)
        self.refresh_status()

    # -- building -----------------------------------------------------------------------------
    def _header(self) -> QHBoxLayout:
        self.title = page_title()
        self.add_folder_button = button("", self._add_folder)
        return title_row(self.title, self.add_folder_button)

    def _filters(self) -> QHBoxLayout:
        self.query = QLineEdit(clearButtonEnabled=True)
        self.setFocusProxy(self.query)  # shown from the sidebar, typing searches
        self.query.textChanged.connect(lambda _t: self._timer.start())
        self.kind = QComboBox()
        self.when = QComboBox()
        self.size_filter = QComboBox()
        for combo in (self.kind, self.when, self.size_filter):
            combo.currentIndexChanged.connect(lambda _i: self.search_now())
        return hbox((self.query, 1), self.kind, self.when, self.size_filter)

    def _texts(self) -> None:
        self.title.setText(self.tr("Files"))
        self.add_folder_button.setText(self.tr("Add folder…"))
        self.query.setPlaceholderText(self.tr("Search file names and contents"))
        self.query.setAccessibleName(self.tr("Search files"))
        names = {"document": self.tr("Documents"), "spreadsheet": self.tr("Spreadsheets"),
                 "presentation": self.tr("Presentations"), "image": self.tr("Images"),
                 "audio": self.tr("Audio"), "video": self.tr("Videos"),
                 "archive": self.tr("Archives"), "code": self.tr("Code"),
                 "other": self.tr("Other")}
        self.model.kind_names = {
            "document": self.tr("Document"), "spreadsheet": self.tr("Spreadsheet"),
            "presentation": self.tr("Presentation"), "image": self.tr("Image"),
            "audio": self.tr("Audio"), "video": self.tr("Video"), "archive": self.tr("Archive"),
            "code": self.tr("Code"), "other": self.tr("Other")}
        self.model.locale = ui_locale(self.ctx.translations)
        self.model.set_hits(self.model.hits)  # rows shown now are formatted again, in it
        self._refill(self.kind, self.tr("Any kind"), [(names[k], k) for k in KINDS],
                     self.tr("Kind of file"))
        self._refill(self.when, self.tr("Any time"), [
            (self.tr("Today"), 1), (self.tr("Past week"), 7), (self.tr("Past month"), 31),
            (self.tr("Past year"), 366)], self.tr("Modified"))
        self._refill(self.size_filter, self.tr("Any size"), [
            (self.tr("Under 1 MB"), "small"), (self.tr("1 to 100 MB"), "medium"),
            (self.tr("Over 100 MB"), "large")], self.tr("Size"))
        self.model.headers = [self.tr("Name"), self.tr("Folder"), self.tr("Kind"),
                              self.tr("Size"), self.tr("Modified")]
        self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, FileResults.COLUMNS - 1)

    @staticmethod
    def _refill(combo: QComboBox, anything: str, items: list[tuple[str, Any]],
                name: str) -> None:
        chosen = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(anything, None)
        for text, data in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(chosen)))
        combo.setAccessibleName(name)
        combo.blockSignals(False)

    # -- searching ----------------------------------------------------------------------------
    def set_query(self, text: str) -> None:
        self.query.setText(text)
        self.search_now()
        self.query.setFocus()

    def filters(self) -> dict[str, Any]:
        """The search arguments the chosen filters stand for."""
        args: dict[str, Any] = {}
        if self.kind.currentData():
            args["kind"] = self.kind.currentData()
        if self.when.currentData():
            args["modified_after"] = datetime.now().astimezone() - timedelta(
                days=int(self.when.currentData()))
        size = self.size_filter.currentData()
        if size == "small":
            args["smaller_than"] = MB
        elif size == "medium":
            args["larger_than"], args["smaller_than"] = MB, 100 * MB
        elif size == "large":
            args["larger_than"] = 100 * MB
        return args

    def search_now(self) -> None:
        self._timer.stop()
        self._token += 1
        token, query, args = self._token, self.query.text().strip(), self.filters()
        files = self.ctx.lazy("files")
        self.ctx.ops.run(lambda: files.search(query or None, limit=PAGE, **args),
                         lambda hits: self._show(token, query, hits), self._failed)

    def _show(self, token: int, query: str, hits: list[Any]) -> None:
        if token != self._token:
            return  # typing went on: a newer search is on its way
        self.model.set_hits(hits)
        count = len(hits)
        self._tr(lambda: self.status.setText(
            plural(count, self.tr("1 file"), self.tr("%1 files")) if count < PAGE else
            self.tr("The first %1 files; type more to narrow them down").replace(
                "%1", str(PAGE))), key="status")  # said again in a language picked later
        self.searched.emit(query)

    def _failed(self, error: Exception) -> None:
        self._tr(lambda: self.status.setText(
            self.tr("File search failed: %1").replace("%1", str(error))), key="status")

    def refresh_status(self) -> None:
        files = self.ctx.lazy("files")
        self.ctx.ops.run(lambda: files.status(), self._show_status, self._failed)

    def _show_status(self, status: IndexStatus) -> None:
        if not status.roots:
            self._tr(lambda: self.status.setText(self.tr(
                "No folders are chosen for file search yet: add one (Hearth finds files only "
                "there).")), key="status")
            return
        self._tr(lambda: self.status.setText(
            plural(status.files, self.tr("1 file"), self.tr("%1 files")) + " · " + plural(
                len(status.roots), self.tr("in 1 folder"), self.tr("in %1 folders"))),
            key="status")
        self.search_now()

    # -- acting -------------------------------------------------------------------------------
    def selected_paths(self) -> list[str]:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        return [self.model.path(r) for r in rows]

    def open_row(self, row: int) -> None:
        if 0 <= row < len(self.model.hits):
            open_path(self.model.path(row))

    def _menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        path = self.model.path(index.row())
        paths = self.selected_paths() or [path]
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: open_path(path))
        menu.addAction(self.tr("Show in folder"), lambda: reveal_path(path))
        menu.addAction(self.tr("Add to chat"), lambda: self.add_to_chat.emit(paths))
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Search files in a folder"),
                                                  start_folder())
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str) -> None:
        """Files are searched only in folders the person chose: this is one more."""
        hearth = self.ctx.hearth
        if folder not in hearth.settings.file_roots:
            hearth.settings.file_roots.append(folder)
        files = self.ctx.lazy("files")

        def work() -> Any:
            files.add_root(folder)
            hearth.save_settings()
            return files.scan()

        self.status.setText(self.tr("Reading %1…").replace("%1", Path(folder).name))
        self.ctx.ops.run(work, lambda _r: self.refresh_status(), self._failed, writes=True)
