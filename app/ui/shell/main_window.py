"""The main window: sidebar, chat/library/calendar pages, menus, status bar, drops, model load."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QSplitter, QStackedWidget, QWidget

from app.ui.chat.chat_view import ChatView
from app.ui.context import UiContext
from app.ui.failures import present_error
from app.ui.file_actions import file_name_for, pick_documents, start_folder
from app.ui.i18n import Retranslator
from app.ui.indexing import DropIndexer
from app.ui.notice_banner import NoticeBanner
from app.ui.pages import (
    make_calendar_page,
    make_files_page,
    make_library_page,
    make_routines_page,
)
from app.ui.widgets import tell
from backends.engines import Engine, display_name
from backends.errors import NoUsableTemplate

if TYPE_CHECKING:
    from concurrent.futures import Future

    from PySide6.QtWidgets import QMessageBox

    from app.core.assistant import Assistant
    from app.core.warmup import PrefixStatus
    from app.ui.chat.live_answer import LiveAnswer
    from backends.base import BackendInfo


def _set_name(widget: QWidget, name: Callable[[], str]) -> None:
    widget.setAccessibleName(name())


def _model_name(info: object) -> str:
    return str(getattr(info, "model_name", "") or Path(getattr(info, "model_path", "")).name)


class MainWindow(QMainWindow):
    """Hearth's window. Closing it hides to the tray when there is one (see application.py)."""

    model_loaded = Signal(object)
    prefix_status = Signal(object)  # app.core.warmup.PrefixStatus, from the model thread
    personal_changed = Signal()  # the model's memory tools changed memory (a turn's thread)
    shown = Signal()
    settings_saved = Signal(set)  # names of the settings that changed
    test_notification = Signal()  # Settings > Test notification
    hidden_to_tray = Signal()  # the window was closed while Hearth keeps running in the tray

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.keep_in_tray = False
        self._tr = Retranslator(self)
        self.setWindowTitle("Hearth")
        self.setObjectName("mainWindow")
        self.resize(1180, 780)
        self.setAcceptDrops(True)
        from app.ui.shell.sidebar import Sidebar

        self.sidebar = Sidebar(ctx)
        self.chat = ChatView(ctx)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.chat)
        self._lazy_pages: dict[str, QWidget] = {}
        splitter = QSplitter()
        splitter.addWidget(self.sidebar)
        splitter.addWidget(self._with_header(self.pages))
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([260, 920])
        splitter.setChildrenCollapsible(False)
        splitter.setHandleWidth(1)
        self.setCentralWidget(splitter)
        self.indexer = DropIndexer(ctx, self.chat)
        self._build_status()
        self._build_menus()
        self._connect()
        self._dialogs: dict[str, QWidget] = {}
        self._tr(self._forget_idle_models_dialog)

    def _with_header(self, pages: QStackedWidget) -> QWidget:
        """The chat's header row: the model picker (shown with the chat page)."""
        from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout

        from app.ui.models.picker import ModelPicker

        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.notices = NoticeBanner(self.ctx)  # over every page: said where it is seen
        column.addWidget(self.notices)
        self.chat_header = QWidget()
        row = QHBoxLayout(self.chat_header)
        row.setContentsMargins(16, 6, 16, 0)
        row.addStretch(1)
        self.model_picker = ModelPicker(self.ctx.hearth.settings, self.ctx.hearth.loaded_info)
        self.model_picker.chosen.connect(self.use_model)
        self.model_picker.manage.connect(self.open_models)
        self._tr(self.model_picker.refresh)
        row.addWidget(self.model_picker)
        column.addWidget(self.chat_header)
        column.addWidget(pages, 1)
        pages.currentChanged.connect(lambda _i: self._page_changed())
        return box

    def _forget_idle_models_dialog(self) -> None:
        """The model manager is kept between openings (its downloads go on while hidden); after
        a language change an idle, hidden one is rebuilt next time, in the new language."""
        manager = self._dialogs.get("models")
        if manager is not None and not manager.isVisible() and not getattr(
                manager, "downloading", False):
            del self._dialogs["models"]
            manager.deleteLater()

    # -- setup --------------------------------------------------------------------------------
    def _build_status(self) -> None:
        bar = self.statusBar()
        bar.setSizeGripEnabled(False)
        self.engine_label, self.context_label, self.speed_label = QLabel(), QLabel(), QLabel()
        self._set_engine(lambda: self.tr("No model loaded"))
        self.prefix_label = QLabel()  # "Preparing the assistant… 45%" / "Ready"
        self.api_label = QLabel()  # the local server's queue, while it is on
        self.download_label = QLabel()
        names: list[tuple[QLabel, Callable[[], str], bool]] = [
            (self.engine_label, lambda: self.tr("Model"), False),
            (self.context_label, lambda: self.tr("Context used"), False),
            (self.speed_label, lambda: self.tr("Speed of the last answer"), False),
            (self.prefix_label, lambda: self.tr("Assistant"), True),
            (self.api_label, lambda: self.tr("Other apps"), True),
            (self.download_label, lambda: self.tr("Model download"), True)]
        for label, name, permanent in names:  # permanent: on the right
            self._tr(partial(_set_name, label, name))
            (bar.addPermanentWidget if permanent else bar.addWidget)(label)
        self.prefix_status.connect(self._show_prefix)
        self._following_memory = False
        self.personal_changed.connect(self._personal_changed)

    def show_api(self, running: bool, waiting: int, url: str = "") -> None:
        """Status bar: whether other apps may use the model, how many requests wait, and,
        when other devices can reach it, that it is open to the network and at which URL."""
        from app.ui.settings.network_access import (
            open_to_network,  # with the server: no ASGI at launch
        )

        exposed = running and open_to_network(url)
        self.api_label.setObjectName("warning" if exposed else "")
        self.api_label.style().polish(self.api_label)
        self._tr(lambda: self.api_label.setText(self._api_text(running, waiting, url, exposed)),
                 key="api")
        self._tr(lambda: self.api_label.setToolTip(url if running else ""), key="api_tip")

    def _api_text(self, running: bool, waiting: int, url: str, exposed: bool) -> str:
        if not running:
            return ""
        text = (self.tr("API: %1 in queue").replace("%1", str(waiting)) if waiting
                else self.tr("API: on"))
        if exposed:
            text = "⚠ " + text + " · " + self.tr("open to the network at %1").replace("%1", url)
        return text

    def _set_engine(self, text: Callable[[], str]) -> None:
        self._tr(lambda: self.engine_label.setText(text()), key="engine")

    def _build_menus(self) -> None:
        file = self._menu(lambda: self.tr("&File"))
        self._action(file, lambda: self.tr("&New chat"), QKeySequence.StandardKey.New,
                     self.new_chat)
        self._action(file, lambda: self.tr("&Add files to this chat…"), "Ctrl+O",
                     self._add_files)
        self._action(file, lambda: self.tr("&Export this chat…"), "Ctrl+Shift+E", self._export)
        file.addSeparator()
        quit_action = self._action(file, lambda: self.tr("&Quit Hearth"),
                                   QKeySequence.StandardKey.Quit, self.quit_app)
        # macOS moves actions into the app menu by their English text unless told: in Chinese
        # "退出" would stay in File and the app menu's (and the Dock's) Quit would not be ours.
        quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        view = self._menu(lambda: self.tr("&View"))
        pages: list[tuple[Callable[[], str], str]] = [
            (lambda: self.tr("&Chat"), "chat"), (lambda: self.tr("&Library"), "library"),
            (lambda: self.tr("C&alendar"), "calendar"), (lambda: self.tr("&Files"), "files"),
            (lambda: self.tr("&Routines"), "routines")]
        for number, (text, page) in enumerate(pages, 1):
            self._action(view, text, f"Ctrl+{number}", partial(self.show_page, page))
        view.addSeparator()
        self._action(view, lambda: self.tr("&Search chats"), "Ctrl+Shift+F",
                     self.sidebar._focus_search)
        model = self._menu(lambda: self.tr("&Model"))
        self._action(model, lambda: self.tr("&Models…"), "Ctrl+M", self.open_models)
        settings = self._action(model, lambda: self.tr("Settings…"), "Ctrl+,",
                                self.open_settings)
        settings.setMenuRole(QAction.MenuRole.PreferencesRole)
        self._action(model, lambda: self.tr("S&top answer"), "Ctrl+.", self.chat.stop)
        help_menu = self._menu(lambda: self.tr("&Help"))
        self._action(help_menu, lambda: self.tr("&Keyboard shortcuts"), "Ctrl+/",
                     self.show_shortcuts)
        about = self._action(help_menu, lambda: self.tr("&About Hearth"), None, self.show_about)
        about.setMenuRole(QAction.MenuRole.AboutRole)  # macOS: the app menu's About

    def show_shortcuts(self) -> QMessageBox:
        from app.ui.shell.help_menu import show_shortcuts

        keys = self.ctx.hotkey.keys if self.ctx.hotkey is not None else ""
        return show_shortcuts(self, self.menuBar(), QKeySequence(keys).toString(
            QKeySequence.SequenceFormat.NativeText))

    def show_about(self) -> QMessageBox:
        from app import __version__
        from app.ui.shell.help_menu import show_about

        return show_about(self, __version__, str(self.ctx.hearth.paths.data),
                          self.engine_label.text())

    def _menu(self, title: Callable[[], str]) -> Any:
        menu = self.menuBar().addMenu("")
        self._tr(lambda: menu.setTitle(title()))
        return menu

    def _action(self, menu: QMenu, text: Callable[[], str],
                key: str | QKeySequence.StandardKey | None,
                slot: Callable[[], object]) -> QAction:
        action = QAction(self)
        action.setMenuRole(QAction.MenuRole.NoRole)  # no guessing from the (translated) text
        self._tr(lambda: action.setText(text()))
        if key:
            action.setShortcut(QKeySequence(key))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _connect(self) -> None:
        s, c = self.sidebar, self.chat
        s.new_requested.connect(self.new_chat)
        s.conversation_selected.connect(self.open_conversation)
        s.hit_selected.connect(self.open_conversation)
        s.page_requested.connect(self._page_requested)
        s.deleted.connect(lambda cid: self.new_chat() if c.conversation_id == cid else None)
        s.memory_forgotten.connect(self._personal_changed)
        c.conversation_started.connect(self._conversation_started)
        c.title_changed.connect(lambda _cid, _t: s.reload())
        c.turn_finished.connect(self._turn_finished)
        c.files_dropped.connect(self.indexer.index)
        c.open_models.connect(self.open_models)
        c.open_settings.connect(self.open_settings)
        c.new_chat_requested.connect(self.new_chat)
        self.ctx.ops.failed.connect(self._show_failure)

    # -- navigation ---------------------------------------------------------------------------
    def _forget_figures(self) -> None:
        """Speed and context belong to the chat they were measured in."""
        self._tr(lambda: self.speed_label.setText(""), key="speed")
        self._tr(lambda: self.context_label.setText(""), key="context")

    def new_chat(self) -> None:
        self._forget_figures()
        self.indexer.leave(None)
        self.show_page("chat")
        self.chat.new_conversation()
        self.sidebar.select(None)

    def open_conversation(self, cid: str, focus: object = None) -> None:
        self._open_page_for(cid)
        self.chat.load_conversation(cid, focus)

    def take_over(self, live: LiveAnswer) -> None:
        """An answer still being written elsewhere (quick ask) goes on in this window."""
        if live.conversation_id is not None:
            self._open_page_for(live.conversation_id)
        self.chat.adopt(live)

    def _open_page_for(self, cid: str) -> None:
        if cid != self.chat.conversation_id:
            self._forget_figures()
            self.indexer.leave(cid)
        self.show_page("chat")
        self.sidebar.select(cid)

    def _conversation_started(self, cid: str) -> None:
        self.sidebar.select(cid)
        self.sidebar.reload()

    def _page_requested(self, key: str) -> None:
        if key == "models":
            self.open_models()
        elif key == "settings":
            self.open_settings()
        else:
            self.show_page(key)

    def show_page(self, key: str) -> None:
        if key == "chat":
            self.pages.setCurrentWidget(self.chat)
            return
        page = self._lazy_pages.get(key)
        if page is None:
            makers = {"library": make_library_page, "calendar": make_calendar_page,
                      "files": make_files_page, "routines": make_routines_page}
            page = makers[key](self.ctx, self)
            if key == "files":
                page.add_to_chat.connect(self.add_to_chat)  # type: ignore[attr-defined]
            if key == "routines":
                page.open_conversation.connect(  # type: ignore[attr-defined]
                    self.open_conversation)
                page.ran.connect(self.sidebar.reload)  # type: ignore[attr-defined]
            if key == "library":
                page.settings_saved.connect(self.settings_saved)  # type: ignore[attr-defined]
            self._lazy_pages[key] = page
            self.pages.addWidget(page)
        self.pages.setCurrentWidget(page)
        if page.focusProxy() is not None:
            page.setFocus()  # a search page: what is typed next goes into its search field
        self._page_changed()  # also when it was on screen already: a click unmarked it

    def _page_changed(self) -> None:
        shown = self.pages.currentWidget()
        self.chat_header.setVisible(shown is self.chat)
        keys = [key for key, page in self._lazy_pages.items() if page is shown]
        self.sidebar.mark_page(keys[0] if keys else "chat")

    def refresh_page(self, key: str) -> None:
        """The page on screen reads again what changed behind it (a routine ran on its own
        time); a page not on screen reads when it is shown again (its showEvent)."""
        page = self._lazy_pages.get(key)
        if page is not None and page.isVisible():
            page.refresh()  # type: ignore[attr-defined]

    def show_files(self, query: str = "") -> None:
        """The Files view with this search (from quick ask or the menu)."""
        self.show_page("files")
        page = self._lazy_pages["files"]
        if query:
            page.set_query(query)  # type: ignore[attr-defined]
        else:
            page.query.setFocus()  # type: ignore[attr-defined]

    def add_to_chat(self, paths: list[str]) -> None:
        """Files chosen in the Files view join the open chat, as if dropped on it."""
        self.show_page("chat")
        self.indexer.index(paths)

    # -- dialogs ------------------------------------------------------------------------------
    def open_models(self, first_run: bool = False) -> QWidget:
        from app.ui.models.manager import ModelManager

        dialog = self._dialogs.get("models")
        if dialog is None:
            manager = ModelManager(self.ctx, first_run=first_run, parent=self)
            manager.model_chosen.connect(self.use_model)
            # Closing the dialog only hides it: downloads go on, shown in the status bar.
            manager.progress_text.connect(self.download_label.setText)
            self._dialogs["models"] = dialog = manager
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def open_settings(self) -> QWidget:
        from app.ui.settings.dialog import SettingsDialog

        dialog = SettingsDialog(self.ctx, parent=self)
        dialog.saved.connect(self._settings_saved)
        dialog.open_models.connect(self.open_models)
        dialog.test_notification.connect(self.test_notification)
        dialog.privacy.eraser.erased.connect(self.sidebar.forgotten)
        dialog.privacy.eraser.memory_forgotten.connect(self._personal_changed)
        dialog.memory.open_conversation.connect(self.open_conversation)
        dialog.memory.changed.connect(self._personal_changed)
        dialog.open()
        self._dialogs["settings"] = dialog
        return dialog

    def _settings_saved(self, changed: set[str]) -> None:
        self.settings_saved.emit(changed)
        if "model_path" in changed:
            self.model_picker.refresh()
        if changed & {"model_path", "engine", "remote_url", "context_length", "kv_type",
                      "threads", "prefix_cache_mb", "prompt_lookup"}:
            self.load_model()
        elif changed & {"enabled_skills", "memory_enabled"}:
            self._personal_changed()  # the tools offered are part of the prefix

    def _personal_changed(self) -> None:
        """Memories, instructions or tools changed the prompt prefix: warm the new one, so
        the change costs one computation in the background, not a slower next chat."""
        if self.ctx.hearth.runner.info is not None:
            self._warm_up()

    def _show_failure(self, title: str, message: str) -> None:
        tell(self, title, message)

    # -- model --------------------------------------------------------------------------------
    def use_model(self, path: str) -> None:
        settings = self.ctx.hearth.settings
        settings.model_path = path
        settings.recent_models = [path, *[p for p in settings.recent_models if p != path]][:8]
        self.model_picker.refresh()
        hearth = self.ctx.hearth
        self.ctx.ops.run(hearth.save_settings, lambda _r: self.load_model(),
                         title=self.tr("Could not save settings"), writes=True)

    def load_model(self) -> None:
        """Build and load the backend on the model runner's thread; the window stays live."""
        hearth = self.ctx.hearth
        if not hearth.settings.model_path and not hearth.settings.remote_url:
            self._tr(lambda: self.chat.show_banner(
                self.tr("No model yet. Hearth needs a model to answer: download one or open a "
                        "file you have."), button=True), key="banner")
            return
        self._set_engine(lambda: self.tr("Loading the model…"))
        self._forget_figures()  # measured on the engine that is going away
        self.chat.show_banner("")
        self._tr(lambda: None, key="banner")  # other banners (indexing) must not be redone

        self.prefix_label.setText("")

        def work() -> Any:
            loading = hearth.runner.load(hearth.make_backend())
            # Called on the model thread as the load ends, before any turn queued meanwhile
            # runs: the status bar says "Ready" before that turn's first token.
            loading.add_done_callback(self._loaded)
            return loading.result()

        def ready(info: object) -> None:
            self._model_ready(info)
            self._warm_up()

        self.ctx.ops.run(work, ready, self._model_failed)

    def _model_ready(self, info: object) -> None:
        name, kind = _model_name(info), str(getattr(info, "engine", ""))

        def engine() -> str:
            shown = self.tr("remote") if kind == Engine.REMOTE else display_name(kind)
            return f"{shown} · {name}"

        self._set_engine(engine)
        self._context_length = int(getattr(info, "context_length", 0) or 0)
        self._show_in_use()
        self.model_loaded.emit(info)

    def _show_in_use(self) -> None:
        """Picker and Models dialog name what the runner has loaded (one source of truth)."""
        self.model_picker.refresh()
        manager = self._dialogs.get("models")
        if manager is None:
            return  # never opened: importing its module here would stall the GUI thread
        from app.ui.models.manager import ModelManager

        if isinstance(manager, ModelManager):
            manager.show_in_use()

    def _loaded(self, loading: Future[BackendInfo]) -> None:
        if loading.exception() is None:
            self.prefix_status.emit(None)

    def _warm_up(self) -> None:
        """Bring the saved prompt prefix into the engine (or compute it) on the model thread,
        below any turn the user sends meanwhile; the status bar follows its progress."""
        hearth = self.ctx.hearth

        def start() -> Any:
            self._follow_memory(self.ctx.assistant())
            return hearth.warmup(self.prefix_status.emit).start()

        self.ctx.ops.run(start, on_failure=lambda _exc: self._show_prefix(None))

    def _follow_memory(self, assistant: Assistant) -> None:
        """Once: a memory the model's tools changed (approved in a chat) warms the new prefix
        too. Called off the GUI thread; the signal brings it back to this one."""
        personal = assistant.personal
        if personal is None or self._following_memory:
            return
        self._following_memory = True
        personal.on_change.append(
            lambda: self.personal_changed.emit() if shiboken6.isValid(self) else None)

    def _show_prefix(self, status: PrefixStatus | None) -> None:
        if status is None or status.ready:
            self._tr(lambda: self.prefix_label.setText(self.tr("Ready")), key="prefix")
        else:
            percent = str(status.percent)
            self._tr(lambda: self.prefix_label.setText(
                self.tr("Preparing the assistant… %1%").replace("%1", percent)), key="prefix")

    def _model_failed(self, error: Exception) -> None:
        """Say which model answers now: the previous one when the new one never reached the
        runner (it is still loaded), else none (the runner unloaded it before loading)."""
        failure = present_error(error)
        info = self.ctx.hearth.runner.info  # in memory: what the runner has loaded
        if info is None:
            self._set_engine(lambda: self.tr("No model loaded"))
            self._show_in_use()
            text = failure.text + " " + self.tr("No model is loaded now.")
        else:
            self._model_ready(info)
            text = failure.text + " " + self.tr("%1 is still loaded and answers.").replace(
                "%1", _model_name(info))
        self.chat.show_failure(replace(failure, text=text))
        if isinstance(error, NoUsableTemplate):  # the Models dialog says why and offers a choice
            model = self.ctx.hearth.settings.model_path
            manager = self.open_models()
            manager.open_gguf(model)  # type: ignore[attr-defined]

    def _turn_finished(self, figures: dict[str, Any]) -> None:
        if not getattr(self, "_context_length", 0):
            info = self.ctx.hearth.runner.info  # in memory: what the runner has loaded
            if info is not None:
                self._model_ready(info)
        # A stopped or refused answer has no meaningful speed (a few tokens over microseconds).
        stopped = figures.get("finish_reason") not in (None, "stop", "length", "step_limit")
        tps = 0.0 if stopped or figures.get("tokens", 0) < 2 else float(figures.get("tps", 0))
        self._tr(lambda: self.speed_label.setText(
            self.tr("%1 tok/s").replace("%1", f"{tps:.1f}") if tps else ""), key="speed")
        # What the last step's prompt and answer took of the window (sums over the turn's
        # steps can exceed it); the totals where an older engine gives no per-step figure.
        used = int(figures.get("context_tokens", 0)
                   or figures.get("prompt_tokens", 0) + figures.get("tokens", 0))
        total = getattr(self, "_context_length", 0)
        if used and total:
            compacted = bool(figures.get("compacted"))
            pasted = bool(figures.get("pasted"))

            def context_text() -> str:
                text = self.tr("Context %1 / %2").replace("%1", f"{used:,}").replace(
                    "%2", f"{total:,}")
                if pasted:  # what the model received of the person's words
                    text += self.tr(" · your message: its start and end, the rest as a document")
                return text + self.tr(" · earlier messages summarized") if compacted else text

            self._tr(lambda: self.context_label.setText(context_text()), key="context")
        self.sidebar.reload()

    # -- files --------------------------------------------------------------------------------
    def _add_files(self) -> None:
        paths = pick_documents(self, self.tr("Add files to this chat"))
        if paths:
            self.indexer.index(paths)

    def _export(self) -> None:
        cid = self.chat.conversation_id
        if cid is None:
            return
        conv = self.sidebar._conv(cid)
        name = file_name_for((conv.title if conv else "") or self.tr("New chat"), ".md")
        from PySide6.QtWidgets import QFileDialog

        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export this chat"),
                                              str(Path(start_folder()) / name),
                                              self.tr("Markdown (*.md)"))
        if not path:
            return
        history = self.ctx.lazy("history")
        self.ctx.ops.run(lambda: Path(path).write_text(history.export_markdown(cid),
                                                       encoding="utf-8"),
                         title=self.tr("Could not export the chat"), writes=True)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        self.chat.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        self.chat.dropEvent(event)

    # -- life ---------------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        QTimer.singleShot(0, self, self.shown.emit)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        super().changeEvent(event)
        if (event.type() == QEvent.Type.ActivationChange and self.isActiveWindow()
                and self.isVisible()):
            # Quick ask (another window) may have started or named chats meanwhile.
            self.sidebar.reload()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        # The close button hides into the tray. A quit (Dock > Quit, Cmd+Q, logout, shutdown)
        # closes every window first: that close is accepted (keep_in_tray is off by then,
        # Desktop sees the Quit), or the session's end would be refused.
        if self.keep_in_tray:
            event.ignore()
            self.hide()  # Hearth stays in the tray; Quit is in the tray menu and File menu
            self.hidden_to_tray.emit()
            return
        super().closeEvent(event)

    def pause_downloads(self) -> None:
        manager = self._dialogs.get("models")
        if manager is not None:
            manager.pause_all()  # type: ignore[attr-defined]

    def quit_app(self) -> None:
        self.keep_in_tray = False
        from PySide6.QtWidgets import QApplication

        QApplication.quit()
