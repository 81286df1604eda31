"""What runs behind the window: folder watching and indexing, file search roots, reminders,
routines (a GUI-side timer that only asks the core scheduler, off the GUI thread, to run what
is due).

Started after the window appears and stopped on quit; every call goes through background ops
(the indexes hash and parse files, which must never happen on the GUI thread)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal

from app.ui.context import UiContext

if TYPE_CHECKING:
    from app.core.routines.store import Routine, Run
    from skills.calendar.reminders import FiredAlarm

ROUTINE_CHECK_MS = 30_000  # a missed run (asleep, closed) runs at most this long after waking


class Services(QObject):
    reminder = Signal(str, str)  # (title, text), delivered on the GUI thread
    routine_ran = Signal(str, str, str)  # (title, text, "conversation:<id>"), on the GUI thread
    status = Signal(str)

    def __init__(self, ctx: UiContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._reminders: Any = None
        self._watching: set[str] = set()
        self._lock = threading.Lock()  # reminders start on a worker and stop on the GUI thread
        self._closing = False
        self._checking = False  # a routine check is running (it may take a model answer long)
        self.routine_timer = QTimer(self, interval=ROUTINE_CHECK_MS)
        self.routine_timer.timeout.connect(self.check_routines)

    def start(self) -> None:
        settings = self.ctx.hearth.settings
        if settings.watched_folders:
            self.apply_folders()
        if settings.file_roots:
            self.apply_roots()
        self.ctx.ops.run(self._start_reminders, lambda _r: None,
                         lambda _e: None)  # reminders are extra: a failure stays quiet
        self.routine_timer.start()

    # -- folders ------------------------------------------------------------------------------
    def apply_folders(self) -> None:
        """Make the document index watch exactly the folders in settings, then catch up."""
        wanted = list(self.ctx.hearth.settings.watched_folders)
        documents = self.ctx.lazy("documents")

        def work() -> Any:
            for folder in set(documents.watched) - set(wanted):
                documents.unwatch(folder)
            for folder in wanted:
                documents.watch(folder)
            if "documents" not in self._watching:
                documents.start_watching()
                self._watching.add("documents")
            return documents.sync()

        self.ctx.ops.run(work, lambda _r: self.status.emit(""),
                         title=self.tr("Could not index your watched folders"))

    def apply_roots(self) -> None:
        """File search covers exactly the folders in settings, less what its patterns leave out."""
        wanted = list(self.ctx.hearth.settings.file_roots)
        files = self.ctx.lazy("files")
        ignore = list(self.ctx.hearth.settings.file_ignore_patterns)

        def work() -> Any:
            files.set_ignore_patterns(ignore)
            for root in set(files.roots) - set(wanted):  # a property, not a method
                files.remove_root(root)
            for root in wanted:
                files.add_root(root)
            if "files" not in self._watching:
                files.start_watching()
                self._watching.add("files")
            return files.scan()

        self.ctx.ops.run(work, lambda _r: None,
                         title=self.tr("Could not scan your file search folders"))

    def settings_changed(self, changed: set[str]) -> None:
        if "watched_folders" in changed:
            self.apply_folders()
        if changed & {"file_roots", "file_ignore_patterns"}:
            self.apply_roots()

    # -- reminders ----------------------------------------------------------------------------
    def _start_reminders(self) -> None:
        from skills.calendar import Reminders
        from skills.common.clock import local_timezone_name

        with self._lock:
            if self._closing:
                return  # the app is quitting: the calendar is about to close
            # All-day events remind at local midnight, so the reminders need the user's zone.
            self._reminders = Reminders(self.ctx.part("calendar"), self._notify,
                                        timezone=local_timezone_name())
            self._reminders.start()

    def _notify(self, alarm: FiredAlarm) -> None:
        """Called on the reminders thread: hop to the GUI thread through the signal."""
        when: Any = getattr(alarm, "start", "")
        # Shown in the computer's own zone, whatever zone the event was written in.
        text = f"{when.astimezone():%a %H:%M}" if hasattr(when, "hour") else str(when)
        if getattr(alarm, "location", ""):
            text += f" · {alarm.location}"
        if getattr(alarm, "todo", False):
            text = QCoreApplication.translate("Services", "To-do due %1").replace("%1", text)
        if getattr(alarm, "missed", False):
            text += " · " + QCoreApplication.translate("Services", "missed while Hearth was closed")
        self.reminder.emit(str(alarm.title), text)

    # -- routines -----------------------------------------------------------------------------
    def check_routines(self) -> None:
        """Run what is due, off the GUI thread; each run is announced as it ends. Without a
        model (none chosen, or still loading at start) nothing runs: it stays owed."""
        if self._checking or self._closing:
            return
        self._checking = True
        hearth = self.ctx.hearth

        def work() -> Any:
            if not hearth.runner.can_answer:
                return []
            return self.ctx.part("scheduler").run_due(on_run=self._announce)

        self.ctx.ops.run(work, self._checked, lambda _e: self._checked(None))

    def _checked(self, _runs: object) -> None:
        self._checking = False

    def _announce(self, routine: Routine, run: Run, missed: bool) -> None:
        """On the worker: one notification per run, opening its conversation."""
        held = self.ctx.part("approvals").pending(run.conversation_id)
        texts = {
            "done": QCoreApplication.translate("Services", "The answer is ready."),
            "timed_out": QCoreApplication.translate("Services", "Stopped at its time budget."),
            "interrupted": QCoreApplication.translate("Services", "Stopped before it finished."),
            "cut": QCoreApplication.translate(
                "Services", "The answer was stopped because it kept repeating itself."),
            "failed": QCoreApplication.translate("Services", "Could not run.")}
        text = texts.get(run.status, "")
        if held:
            text = QCoreApplication.translate("Services", "Waits for your approval: %1").replace(
                "%1", held[0].description)
        if missed and run.status != "failed":  # (a run's note also says why it stopped)
            text = QCoreApplication.translate(
                "Services", "Missed while Hearth was not running; ran now.") + " " + text
        self.routine_ran.emit(str(routine.title), text, f"conversation:{run.conversation_id}")

    def stop(self) -> None:
        """Safe to call twice (before and after waiting for background work)."""
        self.routine_timer.stop()
        scheduler = getattr(self.ctx.hearth, "__dict__", {}).get("scheduler")
        if scheduler is not None:
            scheduler.stop()  # the run going on ends now: the app is quitting
        with self._lock:
            self._closing = True
            reminders, self._reminders = self._reminders, None
        if reminders is not None:
            reminders.stop()
        for name in self._watching:
            part = getattr(self.ctx.hearth, name, None)
            if part is not None:
                part.stop()
        self._watching.clear()
