"""The Routines page: questions Hearth asks itself on a schedule. Add, edit, pause, delete,
run now, each one's run history (a run opens its conversation), and the changes runs wait to
have approved. Every read and write runs off the GUI thread."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from app.core.failures import FailureKind
from app.ui.context import UiContext
from app.ui.failures import present
from app.ui.i18n import Retranslator, ui_locale
from app.ui.pages.routine_editor import RoutineDialog, schedule_text, when_text
from app.ui.pending_changes import PendingChanges
from app.ui.theme import page_layout, page_title, title_row
from app.ui.widgets import confirm, hbox, tr_button

if TYPE_CHECKING:
    from app.core.routines.store import Routine


CONVERSATION_ROLE = Qt.ItemDataRole.UserRole + 1


class RoutinesView(QWidget):
    open_conversation = Signal(str)
    ran = Signal()  # "Run now" made a conversation: the chat list has one more
    shown = Signal()  # the list was read and shown (tests)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("routinesPage")
        self.ctx = ctx
        self.routines: list[Any] = []
        self.runs: list[Any] = []
        self._reads = 0
        self._shown_once = False
        self._tr = Retranslator(self)
        self.title = page_title()
        self._tr(lambda: self.title.setText(self.tr("Routines")))
        self.new_button = self._button(lambda: self.tr("New routine"), self.new_routine)
        self.new_button.setObjectName("primary")
        layout, self.status = page_layout(self, title_row(self.title, self.new_button))
        self.table = self._build_table()
        layout.addWidget(self.table, 2)
        layout.addLayout(self._build_actions())
        self.pending_label = self._label(lambda: self.tr("Waiting for your approval"))
        self.pending = PendingChanges(ctx, self)
        self.pending.decided.connect(lambda _c: self.refresh())
        self.pending.shown.connect(lambda: self.pending_label.setVisible(
            bool(self.pending.cards)))
        layout.addWidget(self.pending_label)
        layout.addWidget(self.pending)
        layout.addWidget(self._label(lambda: self.tr("Run history")))
        self.history = QListWidget()
        self._tr(lambda: self.history.setAccessibleName(self.tr("Run history")))
        self.history.itemActivated.connect(self._open_run)
        self.history.itemDoubleClicked.connect(self._open_run)
        layout.addWidget(self.history, 1)
        self._tr(self.refresh)

    # -- building -------------------------------------------------------------------------
    def _button(self, text: Callable[[], str], slot: Callable[[], Any]) -> QPushButton:
        return tr_button(self._tr, text, slot)

    def _label(self, text: Callable[[], str]) -> QLabel:
        label = QLabel()
        self._tr(lambda: label.setText(text()))
        return label

    def _build_table(self) -> QTableWidget:
        table = QTableWidget(0, 3)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.verticalHeader().hide()
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self._tr(lambda: table.setHorizontalHeaderLabels(
            [self.tr("Name"), self.tr("When"), self.tr("Next run")]))
        self._tr(lambda: table.setAccessibleName(self.tr("Routines")))
        table.itemSelectionChanged.connect(self._selected)
        table.itemDoubleClicked.connect(lambda _i: self.edit_routine())
        return table

    def _build_actions(self) -> QHBoxLayout:
        self.run_button = self._button(lambda: self.tr("Run now"), self.run_now)
        self.edit_button = self._button(lambda: self.tr("Edit…"), self.edit_routine)
        self.pause_button = self._button(lambda: self.tr("Pause"), self.toggle_pause)
        self.delete_button = self._button(lambda: self.tr("Delete…"), self.delete_routine)
        self._actions = (self.run_button, self.edit_button, self.pause_button, self.delete_button)
        for each in self._actions:
            each.setEnabled(False)
        return hbox(*self._actions, None)

    # -- reading --------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._shown_once:  # coming back: routines made in a chat, runs and times since
            self.refresh()
        self._shown_once = True

    def refresh(self) -> None:
        store, scheduler = self.ctx.lazy("routines"), self.ctx.lazy("scheduler")

        def read() -> tuple[list[Any], Any]:
            now = scheduler.now()
            return [(r, r.schedule.next_due(now)) for r in store.all()], store.runs(None, 200)

        # Reads run on a pool and may finish out of order: only the latest is shown.
        self._reads += 1
        number = self._reads
        self.ctx.ops.run(read, lambda got: self._show(*got) if number == self._reads else None,
                         title=self.tr("Could not read your routines"))
        self.pending.show_for(None, every=True)

    def _show(self, routines: list[tuple[Any, Any]], runs: list[Any]) -> None:
        chosen = self.current()
        locale = ui_locale(self.ctx.translations)
        self.routines, self.runs = [r for r, _ in routines], runs
        self.table.setRowCount(len(routines))
        for row, (routine, following) in enumerate(routines):
            later = self.tr("Paused") if routine.paused else (
                when_text(locale, following.replace(tzinfo=None)) if following else "—")
            cells = [routine.title, schedule_text(locale, routine.schedule), later]
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
            if chosen is not None and routine.id == chosen.id:
                self.table.selectRow(row)
        self.status.setText(self.tr("No routines yet: add one, or ask Hearth in a chat to "
                                    "do something every morning.") if not routines else "")
        self._selected()
        self.shown.emit()

    def current(self) -> Any:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.routines[rows[0].row()] if rows and rows[0].row() < len(self.routines) \
            else None

    def _selected(self) -> None:
        routine = self.current()
        for button in self._actions:
            button.setEnabled(routine is not None)
        self.pause_button.setText(self.tr("Resume") if routine is not None and routine.paused
                                  else self.tr("Pause"))
        self.history.clear()
        locale = ui_locale(self.ctx.translations)
        names = {each.id: each.title for each in self.routines}
        for run in self.runs:
            if routine is not None and run.routine_id != routine.id:
                continue
            text = f"{when_text(locale, run.due.astimezone().replace(tzinfo=None))} · " \
                   f"{self.status_text(run.status)}"
            if routine is None and run.routine_id in names:  # every routine's runs: say whose
                text = f"{names[run.routine_id]} · {text}"
            item = QListWidgetItem(text)
            # Why it failed or stopped, or when it was missed; escaped: a server's error words
            # could look like HTML, which a tooltip would render.
            item.setToolTip(f"<p>{html.escape(run.note)}</p>" if run.note else "")
            item.setData(CONVERSATION_ROLE, run.conversation_id)
            self.history.addItem(item)

    def status_text(self, status: str) -> str:
        return {"running": self.tr("Running"), "done": self.tr("Done"),
                "waiting_approval": self.tr("Waits for your approval"),
                "failed": self.tr("Failed"), "timed_out": self.tr("Stopped at its time budget"),
                "interrupted": self.tr("Interrupted"),
                "cut": self.tr("Stopped: it kept repeating itself")}.get(status, status)

    def _open_run(self, item: QListWidgetItem) -> None:
        conversation = str(item.data(CONVERSATION_ROLE) or "")
        if conversation:
            self.open_conversation.emit(conversation)

    # -- changing -------------------------------------------------------------------------
    def new_routine(self) -> RoutineDialog:
        return self._edit(None)

    def edit_routine(self) -> RoutineDialog | None:
        routine = self.current()
        return self._edit(routine) if routine is not None else None

    def _edit(self, routine: Routine | None) -> RoutineDialog:
        """The routine form (non-modal); a new routine, or `routine` changed, when saved."""
        from skills.common.clock import local_timezone_name

        zone = routine.schedule.timezone if routine is not None else local_timezone_name()
        dialog = RoutineDialog(ui_locale(self.ctx.translations), zone, routine, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._save(routine, dialog.values()))
        dialog.open()
        return dialog

    def _save(self, routine: Routine | None, values: tuple[Any, ...]) -> None:
        store, scheduler = self.ctx.lazy("routines"), self.ctx.lazy("scheduler")
        title, ask, schedule = values
        if routine is None:
            self._write(lambda: store.add(title, ask, schedule, scheduler.now()))
        else:
            self._write(lambda: store.update(routine.id, scheduler.now(), title=title, ask=ask,
                                             schedule=schedule))

    def toggle_pause(self) -> None:
        routine = self.current()
        if routine is None:
            return
        store, scheduler = self.ctx.lazy("routines"), self.ctx.lazy("scheduler")
        self._write(lambda: store.update(routine.id, scheduler.now(),
                                         paused=not routine.paused))

    def delete_routine(self) -> QMessageBox | None:
        routine = self.current()
        if routine is None:
            return None
        store = self.ctx.lazy("routines")
        return confirm(self, self.tr("Delete routine"),
                       self.tr("Delete the routine “%1”? Its conversations stay.").replace(
                           "%1", routine.title), self.tr("Delete"),
                       lambda: self._write(lambda: store.delete(routine.id)))

    def run_now(self) -> None:
        routine = self.current()
        if routine is None:
            return
        if not self.ctx.hearth.runner.can_answer:  # it could only fail: say why now
            self.status.setText(present(FailureKind.NO_MODEL).text)
            return
        scheduler = self.ctx.lazy("scheduler")
        self.status.setText(self.tr("Running “%1”…").replace("%1", routine.title))
        self.ctx.ops.run(lambda: scheduler.run_now(routine.id), lambda _r: self._ran(),
                         title=self.tr("Could not run the routine"))

    def _ran(self) -> None:
        self.status.setText("")
        self.refresh()
        self.ran.emit()

    def _write(self, work: Callable[[], Any]) -> None:
        self.ctx.ops.run(work, lambda _r: self.refresh(),
                         title=self.tr("Could not save the routine"), writes=True)
