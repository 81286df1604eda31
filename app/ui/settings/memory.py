"""Settings > Memory: what Hearth remembers about you (list, search, edit, forget), memory on or
off, and the standing instructions every chat follows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.memory.store import MAX_INSTRUCTIONS, Memory, MemoryStore
from app.ui.context import UiContext
from app.ui.dates import medium_date, medium_date_time
from app.ui.i18n import Retranslator, plural, ui_locale
from app.ui.widgets import bold_label, confirm, dim_label, hbox, tell, tr_button
from skills.common.clock import stored_moment

ID_ROLE = Qt.ItemDataRole.UserRole
SOURCE_ROLE = Qt.ItemDataRole.UserRole + 1  # the chat's id; "" when it cannot be opened
TEXT, SOURCE, ADDED = range(3)


@dataclass
class MemoryView:
    """What the tab shows, read off the GUI thread: memories, instructions, chat titles."""

    memories: list[Any] = field(default_factory=list)
    instructions: str = ""
    titles: dict[str, str | None] = field(default_factory=dict)  # chat id -> title, None: gone


def read_view(ctx: UiContext) -> MemoryView:
    memory, history = ctx.part("memory"), ctx.part("history")
    found = memory.entries()
    titles: dict[str, str | None] = {}
    for source in {m.source for m in found if not m.typed}:
        chat = history.get_conversation(source)
        titles[source] = None if chat is None else chat.title
    return MemoryView(found, memory.instructions(), titles)


class MemoryTab(QWidget):
    """Edits and deletes happen at once (deleting asks first); the switches and the
    instructions are kept with the dialog's Save (values() and save_instructions())."""

    changed = Signal()  # memories or instructions changed: every new chat's prompt is new
    open_conversation = Signal(str)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        settings = ctx.hearth.settings
        self.view = MemoryView()
        self.box: QMessageBox | None = None  # the question on screen (tests click it)
        self._filling = False
        self._tr = Retranslator(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 14, 12, 8)
        column.setSpacing(8)
        self.enabled = QCheckBox()
        self._tr(lambda: self.enabled.setText(self.tr("Use memory in every new chat")))
        self.enabled.setChecked(settings.memory_enabled)
        self.without_asking = QCheckBox()
        self._tr(lambda: self.without_asking.setText(self.tr(
            "Remember without asking what I tell Hearth myself")))
        self.without_asking.setChecked(settings.remember_without_asking)
        column.addWidget(self.enabled)
        column.addWidget(self.without_asking)
        column.addWidget(self._dim(lambda: self.tr(
            "Anything Hearth read in a document, file, event or tool result always asks first.")))
        column.addWidget(self._bold(lambda: self.tr("Standing instructions")))
        self.instructions = QPlainTextEdit()
        self.instructions.setMaximumHeight(70)
        self._tr(lambda: self.instructions.setPlaceholderText(self.tr(
            "For example: always answer in metric; I'm a nurse on night shifts.")))
        self._tr(lambda: self.instructions.setAccessibleName(self.tr("Standing instructions")))
        column.addWidget(self.instructions)
        self.too_long = QLabel(wordWrap=True)
        self.too_long.hide()
        column.addWidget(self.too_long)
        column.addWidget(self._bold(lambda: self.tr("What Hearth remembers about you")))
        self.search = QLineEdit()
        self._tr(lambda: self.search.setPlaceholderText(self.tr("Search memories")))
        self._tr(lambda: self.search.setAccessibleName(self.tr("Search memories")))
        self.search.textChanged.connect(self._filter)
        column.addWidget(self.search)
        column.addWidget(self._table(), 1)
        column.addLayout(self._buttons())
        self.count = self._dim(lambda: "")
        column.addWidget(self.count)
        self.reload()

    # -- building -------------------------------------------------------------------------------
    def _dim(self, text: Callable[[], str]) -> QLabel:
        return self._texted(dim_label(), text)

    def _bold(self, text: Callable[[], str]) -> QLabel:
        return self._texted(bold_label(), text)

    def _texted(self, label: QLabel, text: Callable[[], str]) -> QLabel:
        self._tr(lambda: label.setText(text()))
        return label

    def _table(self) -> QTableWidget:
        self.table = QTableWidget(0, 3)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(TEXT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(SOURCE, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ADDED, QHeaderView.ResizeMode.ResizeToContents)
        self._tr(lambda: self.table.setHorizontalHeaderLabels(
            [self.tr("Memory"), self.tr("From"), self.tr("Added")]))
        self._tr(lambda: self.table.setAccessibleName(self.tr("Memories")))
        self.table.itemChanged.connect(self._edited)
        self.table.cellDoubleClicked.connect(
            lambda row, col: self.open_chat(row) if col == SOURCE else None)
        self.table.itemSelectionChanged.connect(self._selection_changed)
        return self.table

    def _buttons(self) -> QHBoxLayout:
        self.edit_button = self._button(lambda: self.tr("Edit"), self._edit_current)
        self.open_button = self._button(lambda: self.tr("Open its chat"), self.open_chat)
        self.delete_button = self._button(lambda: self.tr("Forget…"), self.ask_delete)
        self.delete_all = self._button(lambda: self.tr("Forget all…"), self.ask_delete_all)
        self._selection_changed()
        return hbox(self.edit_button, self.open_button, self.delete_button, None, self.delete_all)

    def _button(self, text: Callable[[], str], slot: Callable[[], object]) -> QPushButton:
        return tr_button(self._tr, text, slot, named=True)

    # -- reading ---------------------------------------------------------------------------------
    def reload(self) -> None:
        self.ctx.ops.run(lambda: read_view(self.ctx), self._show,
                         title=self.tr("Could not read your memories"))

    def _show(self, view: MemoryView) -> None:
        self.view = view
        if not self.instructions.document().isModified():  # never over what is being typed
            self.instructions.setPlainText(view.instructions)
            self.instructions.document().setModified(False)
        self._filling = True
        self.table.setRowCount(0)
        for memory in view.memories:
            self._add_row(memory)
        self._filling = False
        self._filter(self.search.text())
        self._tr(lambda: self.count.setText(plural(
            len(self.view.memories), self.tr("1 memory."), self.tr("%1 memories."))
            if self.view.memories else self.tr("Nothing remembered yet.")), key="count")
        self._selection_changed()

    def _add_row(self, memory: Memory) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        text = QTableWidgetItem(memory.text)
        text.setData(ID_ROLE, memory.id)
        locale = ui_locale(self.ctx.translations)
        used = stored_moment(memory.last_used)
        text.setToolTip(self.tr("Last given to the model %1").replace(
            "%1", medium_date_time(locale, used)) if used is not None
            else self.tr("Not given to the model yet"))
        self.table.setItem(row, TEXT, text)
        title = None if memory.typed else self.view.titles.get(memory.source)
        opens = not memory.typed and title is not None
        source = QTableWidgetItem(self._source_text(memory, title))
        source.setData(SOURCE_ROLE, memory.source if opens else "")
        source.setFlags(source.flags() & ~Qt.ItemFlag.ItemIsEditable)
        if opens:
            font = source.font()
            font.setUnderline(True)  # a link to the chat (double-click or "Open its chat")
            source.setFont(font)
        self.table.setItem(row, SOURCE, source)
        created = stored_moment(memory.created)
        added = QTableWidgetItem(medium_date(locale, created.date()) if created is not None
                                 else memory.created[:10])
        added.setFlags(added.flags() & ~Qt.ItemFlag.ItemIsEditable)
        self.table.setItem(row, ADDED, added)

    def _source_text(self, memory: Memory, title: str | None) -> str:
        if memory.typed:
            return self.tr("Typed by you")
        if title is None:
            return self.tr("A deleted chat")
        return title or self.tr("New chat")

    def _filter(self, text: str) -> None:
        needle = text.casefold().strip()
        for row in range(self.table.rowCount()):
            item = self.table.item(row, TEXT)
            self.table.setRowHidden(row, bool(needle) and (
                item is None or needle not in item.text().casefold()))

    def _selection_changed(self) -> None:
        row = self._row()
        self.edit_button.setEnabled(row is not None)
        self.delete_button.setEnabled(row is not None)
        self.open_button.setEnabled(row is not None and bool(self._source(row)))
        self.delete_all.setEnabled(bool(self.view.memories))

    def _row(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def _source(self, row: int) -> str:
        item = self.table.item(row, SOURCE)
        return str(item.data(SOURCE_ROLE) or "") if item is not None else ""

    def _memory_id(self, row: int) -> int:
        item = self.table.item(row, TEXT)
        return int(item.data(ID_ROLE)) if item is not None else 0

    # -- changing --------------------------------------------------------------------------------
    def _edit_current(self) -> None:
        row = self._row()
        item = self.table.item(row, TEXT) if row is not None else None
        if item is not None:
            self.table.editItem(item)

    def _edited(self, item: QTableWidgetItem) -> None:
        if self._filling or item.column() != TEXT:
            return
        memory_id, text = int(item.data(ID_ROLE)), item.text()
        memory = self.ctx.lazy("memory")
        self.ctx.ops.run(lambda: memory.edit(memory_id, text), lambda _m: self._done(),
                         self._refused, writes=True)

    def _refused(self, error: Exception) -> None:
        self.box = tell(self, self.tr("Memory not changed"), str(error))
        self.reload()  # the text as it is stored

    def open_chat(self, row: int | None = None) -> None:
        row = self._row() if row is None else row
        source = self._source(row) if row is not None else ""
        if source:
            self.open_conversation.emit(source)

    def ask_delete(self) -> None:
        row = self._row()
        item = self.table.item(row, TEXT) if row is not None else None
        if row is None or item is None:
            return
        memory_id, text = self._memory_id(row), item.text()
        self._ask(self.tr("Forget this?") + f"\n\n“{text}”", self.tr("Forget"),
                  lambda memory: memory.delete(memory_id))

    def ask_delete_all(self) -> None:
        count = len(self.view.memories)
        self._ask(plural(count, self.tr("Forget the one thing Hearth remembers about you?"),
                         self.tr("Forget all %1 things Hearth remembers about you?")),
                  self.tr("Forget all"), lambda memory: memory.delete_all())

    def _ask(self, question: str, action: str,
             change: Callable[[MemoryStore], object]) -> None:
        memory = self.ctx.lazy("memory")
        self.box = confirm(self, self.tr("Forget memories"),
                           question + "\n\n" + self.tr("This cannot be undone."), action,
                           lambda: self.ctx.ops.run(lambda: change(memory),
                                                    lambda _r: self._done(),
                                                    title=self.tr("Could not forget"), writes=True))

    def _done(self) -> None:
        self.changed.emit()
        self.reload()

    # -- saved with the dialog -------------------------------------------------------------------
    def values(self) -> dict[str, Any]:
        return {"memory_enabled": self.enabled.isChecked(),
                "remember_without_asking": self.without_asking.isChecked()}

    def ready_to_save(self) -> bool:
        """False (and says why, under the box) when the instructions are too long to keep."""
        size = len(self.instructions.toPlainText().strip())
        if size <= MAX_INSTRUCTIONS:
            self.too_long.hide()
            return True
        self.too_long.setText(self.tr("The standing instructions hold at most %1 characters; "
                                      "these have %2. Shorten them to save.")
                              .replace("%1", str(MAX_INSTRUCTIONS)).replace("%2", str(size)))
        self.too_long.show()
        return False

    def save_instructions(self) -> None:
        """The dialog's Save: write the instructions if they were edited (off the GUI thread)."""
        if not self.instructions.document().isModified():
            return
        text = self.instructions.toPlainText()
        memory = self.ctx.lazy("memory")
        self.instructions.document().setModified(False)
        self.ctx.ops.run(lambda: memory.set_instructions(text), lambda _r: self.changed.emit(),
                         title=self.tr("Could not save the standing instructions"), writes=True)
