"""What runs behind the window: folder watching and indexing, file search roots, reminders.

Started after the window appears and stopped on quit; every call goes through background ops
(the indexes hash and parse files, which must never happen on the GUI thread)."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.ui.context import UiContext


class Services(QObject):
    reminder = Signal(str, str)  # (title, text), delivered on the GUI thread
    status = Signal(str)

    def __init__(self, ctx: UiContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._reminders: Any = None
        self._watching: set[str] = set()
        self._lock = threading.Lock()  # reminders start on a worker and stop on the GUI thread
        self._closing = False

    def start(self) -> None:
        settings = self.ctx.hearth.settings
        if settings.watched_folders:
            self.apply_folders()
        if settings.file_roots:
            self.apply_roots()
        self.ctx.ops.run(self._start_reminders, lambda _r: None,
                         lambda _e: None)  # reminders are extra: a failure stays quiet

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
        """File search covers exactly the folders in settings."""
        wanted = list(self.ctx.hearth.settings.file_roots)
        files = self.ctx.lazy("files")

        def work() -> Any:
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
        if "file_roots" in changed:
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

    def _notify(self, alarm: Any) -> None:
        """Called on the reminders thread: hop to the GUI thread through the signal."""
        when: Any = getattr(alarm, "start", "")
        # Shown in the computer's own zone, whatever zone the event was written in.
        text = f"{when.astimezone():%a %H:%M}" if hasattr(when, "hour") else str(when)
        if getattr(alarm, "location", ""):
            text += f" · {alarm.location}"
        if getattr(alarm, "missed", False):
            text += " · " + QCoreApplication.translate("Services", "missed while Hearth was closed")
        self.reminder.emit(str(alarm.title), text)

    def stop(self) -> None:
        """Safe to call twice (before and after waiting for background work)."""
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
