"""Settings page "Connect another app": the switch, base URL, key, ready-to-paste configuration
for OpenClaw, an editor and MCP clients, a connection test and the request log."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.server.client_config import (
    OPENCLAW_CONTEXT,
    Endpoint,
    context_for_openclaw,
    context_memory,
    continue_config,
    mcp_config,
    model_id,
    openclaw_config,
)
from app.core.server.guard import base_url, local_address
from app.core.server.keys import new_api_key
from app.core.server.log import RequestRecord
from app.ui.context import UiContext
from app.ui.i18n import data_size
from app.ui.settings.network_access import NetworkAccess
from app.ui.widgets import button, confirm, dim_label, hbox, spin_box

LOG_ROWS = 200


def _copy(text: str) -> None:
    clipboard = QGuiApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(text)


class ConnectPage(QScrollArea):
    """Edits a copy of the server settings; the dialog's Save applies them (values())."""

    def __init__(self, ctx: UiContext, switch: Any, parent: QWidget | None = None,
                 use_context: Callable[[int], None] | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._set_context = use_context  # fills the dialog's context field (applied on Save)
        self.switch = switch  # app.ui.settings.api_server.ServerSwitch, or None in a bare dialog
        settings = ctx.hearth.settings
        self._key = settings.server_api_key or new_api_key()
        self.setWidgetResizable(True)
        body = QWidget()
        column = QVBoxLayout(body)
        column.setContentsMargins(12, 14, 12, 8)
        self.enabled = QCheckBox(self.tr("Let other apps use Hearth's model (local server)"))
        self.enabled.setChecked(settings.server_enabled)
        self.enabled.setAccessibleName(self.enabled.text())
        self.network = NetworkAccess(settings.server_host)
        self.network.changed.connect(self._refresh)
        self.port = spin_box(1024, 65535, settings.server_port, self.tr("Server port"))
        self.port.valueChanged.connect(lambda _v: self._refresh())
        column.addWidget(self.enabled)
        column.addWidget(dim_label(self.tr(
            "Programs on this computer (OpenClaw, editors, scripts) can then use the model "
            "Hearth has loaded, with the key below. Your own chats always go first.")))
        column.addWidget(self.network)
        column.addLayout(hbox(QLabel(self.tr("Port")), self.port, None))
        self.url = self._copy_row(column, self.tr("Base URL"), "")
        self.key = self._copy_row(column, self.tr("API key"), self._key)
        column.addLayout(hbox(None, button(self.tr("New key"), self._regenerate,
                                          self.tr("Replace the API key with a new one"))))
        column.addWidget(QLabel(self.tr("Web pages allowed to call the server (CORS)")))
        self.origins = QLineEdit(", ".join(settings.server_cors_origins))
        self.origins.setPlaceholderText(self.tr("None (recommended), or e.g. http://localhost:5173"))
        self.origins.setAccessibleName(self.tr("Allowed web origins"))
        column.addWidget(self.origins)
        column.addWidget(QLabel(self.tr("Ready-to-paste configuration")))
        self.configs = QTabWidget()
        self.openclaw = self._config_tab(self.tr("OpenClaw"))
        self.editor = self._config_tab(self.tr("Editor (Continue)"))
        self.mcp = self._config_tab(self.tr("MCP clients"))
        column.addWidget(self.configs)
        self.context_note = dim_label()
        column.addWidget(self.context_note)
        self.use_context = button("", self._use_context)
        self.use_context.setVisible(False)
        self.context_cost = dim_label()
        column.addLayout(hbox(self.use_context, (self.context_cost, 1)))
        self.test = button(self.tr("Test connection"), self._test)
        self.test_result = dim_label()
        column.addLayout(hbox(self.test, (self.test_result, 1)))
        self.clear_log = button(self.tr("Clear log"), self._ask_clear,
                                self.tr("Clear the request log"))
        self.clear_log.setEnabled(False)
        column.addLayout(hbox((QLabel(self.tr("Recent requests (no message text is kept)")), 1),
                             self.clear_log))
        self.log = QListWidget()
        self.log.setAccessibleName(self.tr("Request log"))
        self.log.setMaximumHeight(130)
        column.addWidget(self.log)
        self.setWidget(body)
        self._records: list[RequestRecord] = []
        if switch is not None:
            switch.logged.connect(self.add_record)
            switch.load_log(self._show_kept)  # read off the GUI thread
        self._refresh()

    # -- building ---------------------------------------------------------------------------
    def _copy_row(self, column: QVBoxLayout, title: str, text: str) -> QLineEdit:
        label = QLabel(title)
        label.setMinimumWidth(80)
        field = QLineEdit(text, readOnly=True)
        field.setAccessibleName(title)
        column.addLayout(hbox(label, (field, 1), self._copy_button(title, field.text)))
        return field

    def _copy_button(self, title: str, text: Callable[[], str]) -> QPushButton:
        return button(self.tr("Copy"), lambda: _copy(text()),
                      self.tr("Copy %1").replace("%1", title))

    def _config_tab(self, title: str) -> QPlainTextEdit:
        page = QWidget()
        column = QVBoxLayout(page)
        text = QPlainTextEdit(readOnly=True)
        text.setAccessibleName(title)
        text.setMinimumHeight(150)
        column.addWidget(text)
        column.addWidget(self._copy_button(title, text.toPlainText))
        self.configs.addTab(page, title)
        return text

    # -- state ------------------------------------------------------------------------------
    def base_url(self) -> str:
        return base_url(local_address(self.network.host()), self.port.value())

    def endpoint(self) -> Endpoint:
        info = self.ctx.hearth.runner.info  # a snapshot: never touches the engine
        return Endpoint(base_url=self.base_url(), api_key=self._key,
                        model=model_id(info) if info is not None else "hearth",
                        context_window=info.context_length if info is not None else 0,
                        max_tokens=self.ctx.hearth.settings.max_tokens)

    def _refresh(self) -> None:
        end = self.endpoint()
        self.url.setText(end.base_url)
        self.key.setText(self._key)
        self.openclaw.setPlainText(openclaw_config(end))
        self.editor.setPlainText(continue_config(end))
        self.mcp.setPlainText(mcp_config())
        self._advise_context(end.context_window)

    def _advise_context(self, loaded: int) -> None:
        """What context OpenClaw needs; when the loaded one is shorter, the setting that fits
        and what it costs in memory (read from the model file off the GUI thread)."""
        wanted = context_for_openclaw(loaded)
        needs = self.tr("OpenClaw sends requests of 11,000 to 14,000 tokens, so it needs a "
                        "context of about %1 tokens.").replace("%1", f"{OPENCLAW_CONTEXT:,}")
        if not wanted:
            self.context_note.setText(needs)
            self.use_context.setVisible(False)
            self.context_cost.setText("")
            return
        self.context_note.setText("⚠ " + needs + " " + self.tr(
            "The model is loaded with %1: too short for it.").replace("%1", f"{loaded:,}"))
        self.use_context.setText(self.tr("Use %1 tokens").replace("%1", f"{wanted:,}"))
        self.use_context.setVisible(self._set_context is not None)
        info = self.ctx.hearth.runner.info
        if info is None:
            return

        def shown(costs: tuple[int, int]) -> None:
            more, now = costs
            if more:
                locale = QLocale()
                self.context_cost.setText(self.tr("Its cache takes about %1 of memory (%2 now).")
                                          .replace("%1", data_size(locale, more))
                                          .replace("%2", data_size(locale, now)))

        self.ctx.ops.run(lambda: (context_memory(info, wanted), context_memory(info, loaded)),
                         shown)

    def _use_context(self) -> None:
        wanted = context_for_openclaw(self.endpoint().context_window)
        if self._set_context is None or not wanted:
            return
        self._set_context(wanted)
        self.use_context.setEnabled(False)
        self.context_note.setText(self.tr("The context length is set to %1 tokens: it applies "
                                          "when you save, and the model reloads.")
                                  .replace("%1", f"{wanted:,}"))

    def _regenerate(self) -> None:
        self._key = new_api_key()
        self.test_result.setText(self.tr("A new key takes effect when you save; programs using "
                                         "the old one must be given the new one."))
        self._refresh()

    def add_record(self, record: RequestRecord) -> None:
        self._records = [*self._records[1 - LOG_ROWS:], record]
        self.log.addItem(_row(record))
        while self.log.count() > LOG_ROWS:
            self.log.takeItem(0)
        self.clear_log.setEnabled(True)
        self.log.scrollToBottom()

    def _show_kept(self, kept: list[RequestRecord]) -> None:
        """Requests logged before this page opened (earlier runs too), above any new ones."""
        self._records = [*kept, *(r for r in self._records if r not in kept)][-LOG_ROWS:]
        self.log.clear()
        self.log.addItems([_row(r) for r in self._records])
        self.clear_log.setEnabled(bool(self._records))
        self.log.scrollToBottom()

    def _ask_clear(self) -> None:
        confirm(self, self.tr("Clear the request log?"),
                self.tr("%n logged request(s) will be forgotten, here and on disk.", "",
                        len(self._records)), self.tr("Clear log"), self._clear,
                QMessageBox.Icon.Question)

    def _clear(self) -> None:
        if self.switch is not None:
            self.switch.clear_log()
            self._records = []
            self.log.clear()
            self.clear_log.setEnabled(False)

    def _test(self) -> None:
        """GET /v1/models on the running server with the saved key (off the GUI thread)."""
        settings = self.ctx.hearth.settings
        running = self.switch is not None and self.switch.running
        if not running:
            self.test_result.setText(self.tr("The server is off: turn it on and save first."))
            return
        url, key = self.switch.url, settings.server_api_key
        host, port = url.removeprefix("http://").removesuffix("/v1").rsplit(":", 1)

        def work() -> str:
            conn = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=10)
            try:
                conn.request("GET", "/v1/models", headers={"Authorization": f"Bearer {key}"})
                response = conn.getresponse()
                body = json.loads(response.read() or b"{}")
            finally:
                conn.close()
            if response.status != 200:
                raise RuntimeError(str(body.get("error", {}).get("message", response.status)))
            return str(body["data"][0]["id"])

        self.test.setEnabled(False)
        self.test_result.setText(self.tr("Testing…"))

        def done(model: str) -> None:
            self.test.setEnabled(True)
            self.test_result.setText("✓ " + self.tr("Connected: the server answers with %1.")
                                     .replace("%1", model))

        def failed(error: Exception) -> None:
            self.test.setEnabled(True)
            self.test_result.setText("⚠ " + self.tr("No answer: %1").replace("%1", str(error)))

        self.ctx.ops.run(work, done, failed)

    def values(self) -> dict[str, Any]:
        origins = [o.strip() for o in self.origins.text().split(",") if o.strip()]
        return {"server_enabled": self.enabled.isChecked(), "server_port": self.port.value(),
                "server_host": self.network.host(),
                "server_api_key": self._key, "server_cors_origins": origins}


def _row(record: RequestRecord) -> str:
    translate = QCoreApplication.translate
    when = datetime.fromtimestamp(record.at).strftime("%Y-%m-%d %H:%M:%S")
    tools = f" · {', '.join(record.tool_calls)}" if record.tool_calls else ""
    batched = (" · " + translate("ConnectPage", "batched with %1").replace(
        "%1", str(record.batched_with)) if record.batched_with else "")
    cached = translate("ConnectPage", "%1 cached").replace("%1", str(record.cached_tokens))
    return (f"{when}  {record.status}  {record.path}  {record.client}  "
            f"{record.prompt_tokens}+{record.completion_tokens} ({cached})  "
            f"{record.duration_ms:.0f} ms{tools}{batched}")
