"""The in-app switch for the OpenAI-compatible server: starts and stops it off the GUI thread,
shows proposals from other programs for approval, and reports state and queue to the window."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

from app.ui.context import UiContext

if TYPE_CHECKING:  # the server's modules load when it starts, not before the window
    from app.core.events import ConfirmationRequest
    from app.core.server.log import RequestLog, RequestRecord
    from app.core.server.service import ApiServer

SERVER_SETTINGS = {"server_enabled", "server_host", "server_port"}
QUEUE_POLL_MS = 1000


class ServerSwitch(QObject):
    """Owns the ApiServer while Settings says it is on (off by default)."""

    state = Signal(bool, str)  # running, shown_url or the reason it could not start
    queue = Signal(int)  # API requests running or waiting now
    logged = Signal(object)  # a RequestRecord, on the GUI thread
    proposal = Signal(object)  # a ConfirmationRequest from another program

    def __init__(self, ctx: UiContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.server: ApiServer | None = None
        self._timer = QTimer(self, interval=QUEUE_POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._last_queue = -1
        self._log: RequestLog | None = None
        self._log_lock = threading.Lock()
        self.proposal.connect(self._ask_person)

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def url(self) -> str:
        """The URL programs on this computer use."""
        return self.server.url if self.server is not None else ""

    @property
    def shown_url(self) -> str:
        """The URL the tray and status bar show: where other devices reach it when the
        server is open to the network (app.ui.settings.network_access)."""
        from app.ui.settings.network_access import reachable_url

        if self.server is None:
            return ""
        return reachable_url(self.server.url, self.server.config.host)

    def start(self) -> None:
        if self.server is not None:
            return
        from app.core.server.proposals import ProposalDesk
        from app.core.server.service import ApiServer, ServerConfig  # the ASGI stack, on demand

        settings = self.ctx.hearth.settings
        hearth = self.ctx.hearth
        config = ServerConfig(api_key=lambda: settings.server_api_key, host=settings.server_host,
                              port=settings.server_port,
                              cors_origins=lambda: list(settings.server_cors_origins),
                              default_max_tokens=lambda: settings.max_tokens)

        def work() -> ApiServer:
            from app.core.server.keys import ensure_api_key
            from skills.calendar.tools import calendar_skills
            from skills.common.clock import local_timezone_name

            if ensure_api_key(settings):
                hearth.save_settings()
            zone = local_timezone_name()
            desk = ProposalDesk(calendar_skills(self.ctx.part("calendar"), zone),
                                self.proposal.emit, zone)
            server = ApiServer(hearth.runner, config, log=self._request_log(), proposals=desk,
                               loading=lambda: bool(settings.model_path or settings.remote_url))
            server.start()
            return server

        self.ctx.ops.run(work, self._started, self._failed)

    def stop(self, wait: bool = False) -> None:
        """Cut off API answers (streams end with an error chunk) and stop listening; off the
        GUI thread unless the app is quitting (`wait`)."""
        server, self.server = self.server, None
        self._timer.stop()
        if server is None:
            return
        if wait:
            server.stop()
        else:
            self.ctx.ops.run(server.stop, lambda _r: None, lambda _e: None)
        self.state.emit(False, "")

    def settings_changed(self, changed: set[str]) -> None:
        if not changed & SERVER_SETTINGS:
            return
        self.stop()
        if self.ctx.hearth.settings.server_enabled:
            self.start()

    def _started(self, server: ApiServer) -> None:
        if not self.ctx.hearth.settings.server_enabled:  # switched off while it started
            server.stop()
            return
        self.server = server
        self._timer.start()
        self.state.emit(True, self.shown_url)

    def _failed(self, error: Exception) -> None:
        self.state.emit(False, str(error))

    def _poll(self) -> None:
        count = self.server.api_requests if self.server is not None else 0
        if count != self._last_queue:
            self._last_queue = count
            self.queue.emit(count)

    def _request_log(self) -> RequestLog:
        """The log kept in hearth.db, opened once (on a worker: it reads the disk)."""
        with self._log_lock:
            if self._log is None:
                self._log = self.ctx.hearth.request_log
                self._log.subscribe(self.logged.emit)
            return self._log

    def load_log(self, on_ready: Callable[[list[RequestRecord]], None]) -> None:
        """The kept requests (from earlier runs too), handed to `on_ready` on the GUI thread."""
        self.ctx.ops.run(lambda: self._request_log().records(), on_ready)

    def clear_log(self, on_done: Callable[[Any], None] | None = None) -> None:
        """Forget every logged request, in memory and in hearth.db."""
        self.ctx.ops.run(lambda: self._request_log().clear(), on_done, writes=True)

    def _ask_person(self, request: ConfirmationRequest) -> None:
        from PySide6.QtWidgets import QMessageBox  # its class is made when first named

        parent = self.parent()
        box = QMessageBox(parent if isinstance(parent, QWidget) else None)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.tr("Another program asks to change your calendar"))
        box.setText(request.description)
        box.setInformativeText(self.tr("Nothing changes unless you allow it."))
        allow = box.addButton(self.tr("Allow"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Refuse"), QMessageBox.ButtonRole.RejectRole)

        def answered(_result: object) -> None:
            if box.clickedButton() is allow:
                request.approve()
            else:
                request.deny()
            box.deleteLater()

        box.finished.connect(answered)
        box.open()  # never blocks the GUI thread
