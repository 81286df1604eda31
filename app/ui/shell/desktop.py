"""Everything the running app holds together: theme, language, window, tray, hotkey, quick ask."""

from __future__ import annotations

import gc
import logging
import sys
from functools import cached_property
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from app.core.root import HearthParts
from app.ui import markdown
from app.ui.context import UiContext
from app.ui.i18n import Translations
from app.ui.ops import WRITES_WAIT_S, Ops
from app.ui.settings.api_server import ServerSwitch
from app.ui.shell.autostart import hide_dock_icon
from app.ui.shell.main_window import MainWindow
from app.ui.shell.notifications import Notifier
from app.ui.shell.services import Services
from app.ui.shell.tray import Tray, tray_available
from app.ui.theme import ThemeManager

if TYPE_CHECKING:
    from app.ui.chat.live_answer import LiveAnswer
    from app.ui.shell.quick_ask import QuickAsk

log = logging.getLogger(__name__)


class Desktop(QObject):
    def __init__(self, app: QApplication, hearth: HearthParts) -> None:
        super().__init__(app)
        self.app = app
        self.hearth = hearth
        self.translations = Translations(app)
        self.translations.apply(hearth.settings.language)
        self.theme = ThemeManager(app, hearth.settings.theme)
        self.theme.apply(with_stylesheet=False)  # the stylesheet once the window is built
        self.ctx = UiContext(hearth, Ops(self), self.theme, translations=self.translations)
        self.server = ServerSwitch(self.ctx)
        self.ctx.server = self.server
        self.window = MainWindow(self.ctx)
        self.theme.apply_stylesheet()
        self.server.setParent(self.window)  # proposal dialogs open over the window
        self.server.state.connect(lambda on, url: self.window.show_api(on, 0, url))
        self.server.queue.connect(lambda n: self.window.show_api(self.server.running, n,
                                                                 self.server.shown_url))
        self.window.settings_saved.connect(self.server.settings_changed)
        self.services = Services(self.ctx, self)
        self.window.settings_saved.connect(self.services.settings_changed)
        self.tray: Tray | None = None
        if tray_available():
            self.tray = Tray(self)
            self.tray.ask.connect(self.summon_quick)
            self.tray.open_main.connect(self.show_window)
            self.tray.quit.connect(self.window.quit_app)
            self.tray.pause_indexing.connect(self._pause_indexing)
            self.server.state.connect(self.tray.show_server)
        self.notifier = Notifier(hearth.paths.data / "reminders.json",
                                 tray=self.tray.icon if self.tray is not None else None,
                                 parent=self)
        self.services.reminder.connect(self.notifier.notify)
        self.services.routine_ran.connect(self._routine_ran)
        self.notifier.opened.connect(self._open_reminder)
        self.window.test_notification.connect(self.test_notification)
        if self.tray is not None:
            self.notifier.changed.connect(lambda: self.tray.set_recent(self.notifier.recent))
            self.tray.open_recent.connect(self._open_reminder)
        # With a tray, closing the window keeps Hearth running; without one it quits.
        app.setQuitOnLastWindowClosed(self.tray is None)
        self.window.keep_in_tray = self.tray is not None
        self.window.hidden_to_tray.connect(self._still_running_notice)
        # Quitting from outside (Dock > Quit, Cmd+Q, logout, shutdown) closes the windows
        # before the loop ends: they must close then, not hide into the tray.
        self._quit_signal = getattr(app, "quit_requested", None)  # run_app's application
        if self._quit_signal is not None:
            self._quit_signal.connect(self._quitting)
        else:  # an application Hearth did not make (tests, `hearth selftest`)
            app.installEventFilter(self)
        app.commitDataRequest.connect(self._quitting)
        self._hidden_start = False
        self._in_tray = False  # the window was closed into the tray (or never shown)
        self.window.hidden_to_tray.connect(lambda: setattr(self, "_in_tray", True))
        app.applicationStateChanged.connect(self._app_state)
        self._attached = True

    @cached_property
    def quick(self) -> QuickAsk:
        """Quick ask, built after the first frame (or when first summoned before that)."""
        from app.ui.shell.quick_ask import QuickAsk

        quick = QuickAsk(self.ctx)
        quick.open_in_main.connect(self.open_conversation)
        quick.take_over.connect(self.take_over)
        quick.find_files.connect(self.find_files)
        return quick

    def _quick_built(self) -> QuickAsk | None:
        quick: QuickAsk | None = self.__dict__.get("quick")
        return quick

    def summon_quick(self) -> None:
        self.quick.summon()

    def toggle_quick(self) -> None:
        self.quick.toggle()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.app and event.type() == QEvent.Type.Quit:
            self._quitting()
        return False

    def _app_state(self, state: Qt.ApplicationState) -> None:
        """macOS: a click on the Dock icon or opening the app again while it sits in the tray
        reaches Qt as the app turning active (Qt sends it even when it already was): bring the
        window back, as every Mac app does. Not while quick ask is what the user summoned."""
        if (sys.platform == "darwin" and state == Qt.ApplicationState.ApplicationActive
                and self._in_tray and not self._quick_visible()):
            self.show_window()

    def _quick_visible(self) -> bool:
        quick = self._quick_built()
        return quick is not None and quick.isVisible()

    def _quitting(self) -> None:
        self.window.keep_in_tray = False

    def start(self, hidden: bool = False, toggle: bool = False) -> None:
        self._hidden_start = self._in_tray = hidden
        if self.tray is not None:
            self.tray.show()
        hide_dock_icon(hidden)  # macOS: a tray-only start shows no Dock icon
        if not hidden:
            self.window.show()
        if toggle:
            self.quick.summon()
        # After the first paint: nothing slow may delay the window.
        QTimer.singleShot(0, self, self._after_shown)
        QTimer.singleShot(0, self, self.build_after_first_frame)

    def _after_shown(self) -> None:
        # Everything built so far lives as long as the app: keep it out of the cyclic GC's
        # full passes, which would otherwise walk it again and again while answers stream.
        gc.freeze()
        gc.enable()  # `hearth` (app.main) starts with it off until the window is up
        conversations, sidebar = self.ctx.lazy("conversations"), self.window.sidebar
        # Chats started and never used in earlier sessions are not kept.
        self.ctx.ops.run(lambda: conversations.forget_empty(), lambda _r: sidebar.reload(),
                         lambda _e: sidebar.reload())
        self.ctx.ops.run(self.ctx.assistant, lambda _a: None, lambda _e: None)  # warm it up
        markdown.start_loading()
        self.services.start()
        self.notifier.start(self.ctx.ops)
        if self.hearth.settings.server_enabled:
            self.server.start()
        from app.ui.shell.hotkey import create_hotkey, default_hotkey

        self.ctx.hotkey = create_hotkey(self)
        self.ctx.hotkey.activated.connect(self.toggle_quick)
        self.ctx.hotkey.register(self.hearth.settings.hotkey or default_hotkey())
        if self.hearth.settings.model_path or self.hearth.settings.remote_url:
            self.window.load_model()
        else:
            self.window.load_model()  # shows the "no model yet" banner
            self._offer_models()

    def build_after_first_frame(self) -> None:
        """What the first frame does not show, built right after it, in a step of its own (the
        GUI is not held for this and the startup work at once): the window icon (the SVG, and
        QIcon's ~100-name enum), quick ask (a hotkey or tray click before builds it then) and
        the bridge that hands an answer's events to the window (with the core's 20 event
        classes), so the first answer imports nothing on the GUI thread."""
        from app.ui import bridge  # noqa: F401 - importing it is the point
        from app.ui.icons import app_icon

        self.app.setWindowIcon(app_icon())
        self.quick  # noqa: B018 - building it is the point

    def _offer_models(self) -> None:
        """No model yet: the model manager opens with the window, not over the desktop of a
        --hidden start at login (it waits until the window is first shown)."""
        if not self._hidden_start or self.window.isVisible():
            self.window.open_models(first_run=True)
            return

        def once() -> None:
            self.window.shown.disconnect(once)
            if not (self.hearth.settings.model_path or self.hearth.settings.remote_url):
                self.window.open_models(first_run=True)

        self.window.shown.connect(once)

    def _still_running_notice(self) -> None:
        """The first time the window closes into the tray, say so once (then never again)."""
        settings = self.hearth.settings
        if self.tray is None or settings.tray_notice_shown:
            return
        settings.tray_notice_shown = True
        self.notifier.notify(self.tr("Hearth is still running"),
                             self.tr("Hearth keeps running in the tray so reminders and quick "
                                     "ask work. Quit it from the tray menu."), remember=False)
        self.ctx.ops.run(self.hearth.save_settings, lambda _r: None,
                         title=self.tr("Could not save settings"), writes=True)

    def test_notification(self) -> None:
        """Settings > Test: shows what a reminder looks like, through the same service."""
        self.notifier.notify(self.tr("Hearth test reminder"),
                             self.tr("Reminders appear like this, with Snooze and Open."),
                             remember=False)

    def _routine_ran(self, title: str, text: str, key: str) -> None:
        self.window.sidebar.reload()  # its new conversation
        self.window.refresh_page("routines")  # its next run and its run history
        self.notifier.notify(title, text, key=key)

    def _open_reminder(self, key: str = "") -> None:
        """A routine's notification opens its conversation; a reminder, the calendar."""
        if key.startswith("conversation:"):
            self.open_conversation(key.split(":", 1)[1])
            return
        self.show_window()
        self.window.show_page("calendar")

    def handle_message(self, args: list[str]) -> None:
        """A second `hearth` launch: --toggle flips Quick ask, anything else shows the window."""
        if "--toggle" in args:
            self.toggle_quick()
        else:
            self.show_window()

    def show_window(self) -> None:
        self._in_tray = False
        hide_dock_icon(False)
        self.window.showNormal()
        self.window.raise_()
        self.window.activateWindow()

    def find_files(self, query: str) -> None:
        self.show_window()
        self.window.show_files(query)

    def open_conversation(self, cid: str) -> None:
        self.show_window()
        self.window.open_conversation(cid)

    def take_over(self, live: LiveAnswer) -> None:
        self.show_window()
        self.window.take_over(live)

    def _stop_answers(self) -> None:
        """Cancel running turns and let their threads end before the widgets they post to go
        (the partial answers stay saved, marked as stopped)."""
        turn, quick = self.window.chat.turn, self._quick_built()
        handles = [turn.handle if turn is not None else None,
                   quick.handle if quick is not None else None]
        for handle in handles:
            if handle is not None:
                handle.cancel()
        for handle in handles:
            if handle is not None:
                handle.wait(3)

    def _pause_indexing(self, paused: bool) -> None:
        documents = self.ctx.lazy("documents")
        self.ctx.ops.run(lambda: documents.pause() if paused else documents.resume())

    def detach(self) -> None:
        """Stop hearing the application: it outlives this desktop (a test, a restart in one
        process), and what it would still deliver here would reach closed windows. Once: a
        second call (shutdown, then its owner's clean-up) has nothing left to disconnect."""
        if not self._attached:
            return
        self._attached = False
        if self._quit_signal is not None:
            self._quit_signal.disconnect(self._quitting)
        else:
            self.app.removeEventFilter(self)
        self.app.commitDataRequest.disconnect(self._quitting)
        self.app.applicationStateChanged.disconnect(self._app_state)

    def shutdown(self) -> None:
        """Stop answers, release the hotkey, wait for background work, close the stores."""
        self.detach()
        self._stop_answers()
        self.server.stop(wait=True)  # API streams end with an error chunk, not half-written
        self.window.pause_downloads()
        if self.ctx.hotkey is not None:
            self.ctx.hotkey.unregister()
        if self.tray is not None:
            self.tray.hide()
        self.notifier.close()
        self.services.stop()  # first: it ends scans and watchers that ops.wait would wait for
        self.ctx.ops.wait(5000)
        if not self.ctx.ops.wait_for_writes():  # what the person changed is saved first
            log.warning("quitting with changes still being saved after %.0f s", WRITES_WAIT_S)
        self.services.stop()  # and anything that started while we waited
        self.hearth.close()
