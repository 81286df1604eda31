"""The to-do list beside the calendar grid: tick to complete (untick to reopen), an add field
with an optional due date and time, Show done, Delete… (asked first). The store is read and
written off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDate, QDateTime, QEvent, QLocale, QPoint, Qt, QTime, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QDateTimeEdit,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.dates import medium_date, medium_date_time
from app.ui.i18n import Retranslator, ui_locale
from app.ui.widgets import confirm, hbox, tr_button

if TYPE_CHECKING:
    from skills.calendar.todos import Todo

UID_ROLE = Qt.ItemDataRole.UserRole + 1
WIDTH = 240


class TodoList(QWidget):
    changed = Signal()  # the list was read and shown again (tests)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("todoList")
        self.setFixedWidth(WIDTH)
        self.ctx = ctx
        self.todos: list[Todo] = []
        self._showing = False  # the list is being filled: ticks are not the person's
        self._reads = 0
        self.clock: Callable[[], datetime] = _now  # what "overdue" is measured against
        self._late: set[str] = set()  # the to-dos shown as overdue
        self._tr = Retranslator(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 0, 0, 0)
        heading = QLabel()
        self._tr(lambda: heading.setText(self.tr("To-dos")))
        column.addWidget(heading)
        column.addLayout(self._build_add())
        self.list = QListWidget()
        self._tr(lambda: self.list.setAccessibleName(self.tr("To-dos")))
        self.list.setWordWrap(True)
        self.list.itemChanged.connect(self._ticked)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        column.addWidget(self.list, 1)
        self.show_done = QCheckBox()
        self._tr(lambda: self.show_done.setText(self.tr("Show done")))
        self.show_done.toggled.connect(lambda _on: self.refresh())
        column.addWidget(self.show_done)

    def _build_add(self) -> QVBoxLayout:
        box = QVBoxLayout()
        self.title = QLineEdit()
        self._tr(lambda: self.title.setPlaceholderText(self.tr("Add a to-do")))
        self._tr(lambda: self.title.setAccessibleName(self.tr("New to-do")))
        self.title.returnPressed.connect(self.add)
        self.add_button = tr_button(self._tr, lambda: self.tr("Add"), self.add)
        box.addLayout(hbox((self.title, 1), self.add_button))
        self.has_due = QCheckBox()
        self._tr(lambda: self.has_due.setText(self.tr("Due")))
        self.due = QDateTimeEdit(calendarPopup=True, displayFormat="yyyy-MM-dd HH:mm")
        self._tr(lambda: self.due.setAccessibleName(self.tr("Due")))
        self.due.setDateTime(QDateTime(QDate.currentDate().addDays(1), QTime(9, 0)))
        self.due.setEnabled(False)
        self.has_due.toggled.connect(self.due.setEnabled)
        box.addLayout(hbox(self.has_due, (self.due, 1)))  # its own row: the time is read whole
        return box

    # -- reading --------------------------------------------------------------------------
    def refresh(self) -> None:
        store, every = self.ctx.lazy("calendar"), self.show_done.isChecked()
        self._reads += 1  # reads may finish out of order: only the latest is shown
        number = self._reads
        self.ctx.ops.run(lambda: store.todos.all(include_done=every),
                         lambda found: self._show(found) if number == self._reads else None,
                         title=self.tr("Could not read your to-dos"))

    def _show(self, todos: list[Todo]) -> None:
        self.todos = todos
        locale = ui_locale(self.ctx.translations)
        now = self.clock()
        self._late = {t.uid for t in todos if is_overdue(t, now)}
        self._showing = True
        self.list.clear()
        for todo in todos:
            late = todo.uid in self._late
            item = QListWidgetItem(self._text(todo, locale, late))
            item.setData(UID_ROLE, todo.uid)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if todo.done else Qt.CheckState.Unchecked)
            self._mark(item, todo.done, late)
            self.list.addItem(item)
        self._showing = False
        self.changed.emit()

    def _text(self, todo: Todo, locale: QLocale, late: bool) -> str:
        text = ("! " if 0 < todo.priority <= 4 else "") + str(todo.title)
        due = todo.due
        if due is None:
            return text
        # The month in words, as everywhere else: "03/12/2026" is March to half the world.
        shown = (medium_date_time(locale, due.astimezone()) if isinstance(due, datetime)
                 else medium_date(locale, due))
        line = self.tr("overdue since %1") if late else self.tr("due %1")
        return text + "\n" + line.replace("%1", shown)

    def _mark(self, item: QListWidgetItem, done: bool, late: bool) -> None:
        """Overdue in the accent colour (said in words too); done struck through and dimmed."""
        if late:
            item.setForeground(self.palette().color(QPalette.ColorRole.Accent))
        elif done:
            font = item.font()
            font.setStrikeOut(True)
            item.setFont(font)
            item.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))

    def mark_overdue(self) -> None:
        """Shown again if a to-do fell overdue since (the calendar calls it each minute)."""
        now = self.clock()
        if {t.uid for t in self.todos if is_overdue(t, now)} != self._late:
            self._show(self.todos)  # rebuilt only when a mark changes: a tick box stays put

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and not self._showing:
            self._show(self.todos)  # light <-> dark: the marks' colours follow

    # -- changing -------------------------------------------------------------------------
    def add(self) -> None:
        from skills.calendar.todos import Todo
        from skills.common.clock import local_timezone_name

        title = self.title.text().strip()
        if not title:
            self.title.setFocus()
            return
        tz = local_timezone_name()
        due = None
        if self.has_due.isChecked():
            moment = self.due.dateTime()
            day, clock = moment.date(), moment.time()
            due = datetime(day.year(), day.month(), day.day(), clock.hour(), clock.minute(),
                           tzinfo=ZoneInfo(tz))
        store = self.ctx.lazy("calendar")
        self.title.clear()
        self._write(lambda: store.todos.add(Todo("", title, due, tz)))

    def _ticked(self, item: QListWidgetItem) -> None:
        if self._showing:
            return
        uid, done = str(item.data(UID_ROLE)), item.checkState() == Qt.CheckState.Checked
        store = self.ctx.lazy("calendar")
        self._write(lambda: store.todos.complete(uid, done))

    def _menu(self, point: QPoint) -> None:
        item = self.list.itemAt(point)
        if item is None:
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Delete…"), lambda: self.delete(str(item.data(UID_ROLE))))
        menu.popup(self.list.viewport().mapToGlobal(point))

    def delete(self, uid: str) -> QMessageBox:
        todo = next((t for t in self.todos if t.uid == uid), None)
        title = todo.title if todo is not None else uid
        store = self.ctx.lazy("calendar")
        return confirm(self, self.tr("Delete to-do"), self.tr("Delete “%1”?").replace("%1", title),
                       self.tr("Delete"), lambda: self._write(lambda: store.todos.delete(uid)))

    def _write(self, work: Callable[[], object]) -> None:
        self.ctx.ops.run(work, lambda _r: self.refresh(),
                         title=self.tr("Could not save the to-do"), writes=True)


def _now() -> datetime:
    return datetime.now().astimezone()


def is_overdue(todo: Todo, now: datetime) -> bool:
    """Open and past its due time; a to-do due on a day is overdue once that day is over."""
    due = todo.due
    if todo.done or due is None:
        return False
    if isinstance(due, datetime):
        return due < now
    return isinstance(due, date) and due < now.date()
