"""The tray icon: Ask, Open Hearth, Pause indexing, Quit. Absent tray -> a normal window app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.ui.i18n import Retranslator


def tray_available() -> bool:
    return QSystemTrayIcon.isSystemTrayAvailable()


class Tray(QObject):
    ask = Signal()
    open_main = Signal()
    quit = Signal()
    pause_indexing = Signal(bool)
    open_recent = Signal(str)  # a reminder picked from "Recent reminders"

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from app.ui.icons import tray_icon  # QIcon's enums: only where there is a tray

        self.icon = QSystemTrayIcon(tray_icon(), self)
        self.icon.setToolTip("Hearth")
        self.menu = QMenu()
        self._tr = Retranslator(self.menu)  # the menu is a window: Qt tells it of a new language
        self.ask_action = self._add(self.ask.emit)
        self.open_action = self._add(self.open_main.emit)
        self.recent_menu = self.menu.addMenu("")
        self._tr(lambda: self.recent_menu.setTitle(self.tr("Recent reminders")))
        self._recent: list[Any] = []
        self._tr(lambda: self.set_recent(self._recent))
        self.menu.addSeparator()
        self.pause_action = self._add(None)
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self.pause_indexing)
        self.server_action: QAction | None = None  # while other apps may use the model
        self._before_quit = self.menu.addSeparator()
        quit_action = self._add(self.quit.emit)
        self._tr(lambda: self.ask_action.setText(self.tr("Ask…")))
        self._tr(lambda: self.open_action.setText(self.tr("Open Hearth")))
        self._tr(lambda: self.pause_action.setText(self.tr("Pause indexing")))
        self._tr(lambda: quit_action.setText(self.tr("Quit Hearth")))
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)

    def set_recent(self, reminders: list[Any]) -> None:
        """The last reminders, newest first, so a missed one can still be read."""
        self._recent = list(reminders)
        self.recent_menu.clear()
        for reminder in reversed(reminders[-10:]):
            action = self.recent_menu.addAction(f"{reminder.title} — {reminder.text}")
            action.triggered.connect(lambda _=False, k=reminder.key: self.open_recent.emit(k))
        if not reminders:
            empty = self.recent_menu.addAction(self.tr("No reminders yet"))
            empty.setEnabled(False)

    def _add(self, slot: Callable[[], object] | None) -> QAction:
        action = self.menu.addAction("")
        if slot is not None:
            action.triggered.connect(lambda _=False: slot())
        return action

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.ask.emit()  # a plain click asks; the menu has the rest

    def show_server(self, running: bool, url: str) -> None:
        """The tray says when other programs can use the model (and where)."""
        if running and self.server_action is None:
            self.server_action = QAction(self.menu)
            self.server_action.setEnabled(False)
            self.menu.insertAction(self._before_quit, self.server_action)
        elif not running and self.server_action is not None:
            self.menu.removeAction(self.server_action)
            self.server_action.deleteLater()
            self.server_action = None
        action = self.server_action
        from app.ui.settings.network_access import (
            open_to_network,  # with the server: no ASGI at launch
        )

        exposed = running and open_to_network(url)
        self._tr(lambda: action.setText(self._serving(url, exposed))
                 if action is not None else None, key="server")
        self._tr(lambda: self.icon.setToolTip(
            (self.tr("Hearth · open to the network") if exposed else
             self.tr("Hearth · serving other apps")) if running else "Hearth"), key="tooltip")

    def _serving(self, url: str, exposed: bool) -> str:
        if exposed:  # other devices can reach it: said first, with the address they use
            return "⚠ " + self.tr("Open to the network at %1").replace("%1", url)
        return self.tr("Serving other apps at %1").replace("%1", url)

    def show(self) -> None:
        self.icon.show()

    def notify(self, title: str, text: str) -> None:
        """Best effort (Qt: 'messages may not appear at all'); reminders also log in the app."""
        from app.ui.icons import app_icon

        self.icon.showMessage(title, text, app_icon(), 8000)

    def hide(self) -> None:
        self.icon.hide()
