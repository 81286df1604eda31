"""Settings > Tool servers: the MCP servers Hearth may use (a command to start, or a URL)."""

from __future__ import annotations

import shlex

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.settings import McpServer
from app.ui.widgets import button, dim_label, follow_selection, hbox, room_to_write

NO_NAME = QT_TRANSLATE_NOOP("ServerDialog", "Give the server a name.")
BAD_URL = QT_TRANSLATE_NOOP("ServerDialog", "The address must start with http:// or https://.")
BAD_COMMAND = QT_TRANSLATE_NOOP("ServerDialog", "The command has an unclosed quote.")
NO_COMMAND = QT_TRANSLATE_NOOP("ServerDialog", "Give the command that starts the server.")


def server_from_fields(name: str, command: str, url: str, use_url: bool,
                       trusted: bool) -> McpServer:
    """The form's fields as a server; ValueError with a one-line reason when they are wrong."""
    name = name.strip()
    if not name:
        raise ValueError(NO_NAME)
    if use_url:
        url = url.strip()
        if not url.startswith(("http://", "https://")):
            raise ValueError(BAD_URL)
        return McpServer(name=name, url=url, trusted=trusted)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ValueError(BAD_COMMAND) from exc
    if not argv:
        raise ValueError(NO_COMMAND)
    return McpServer(name=name, command=argv, trusted=trusted)


class ServerDialog(QDialog):
    """Add or edit one server; OK only closes with valid fields (the error shows inline)."""

    def __init__(self, server: McpServer | None, taken: set[str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Tool server"))
        self._taken = taken
        self.server: McpServer | None = None
        room_to_write(self)  # a command line is long: its example was cut at half
        form = QFormLayout(self)
        self.name = QLineEdit(server.name if server else "")
        self.name.setAccessibleName(self.tr("Server name"))
        form.addRow(self.tr("Name"), self.name)
        self.use_command = QRadioButton(self.tr("Start a program"))
        self.use_url = QRadioButton(self.tr("Connect to an address"))
        group = QButtonGroup(self)
        group.addButton(self.use_command)
        group.addButton(self.use_url)
        form.addRow(self.tr("How"), hbox(self.use_command, self.use_url))
        self.command = QLineEdit(shlex.join(server.command) if server and server.command else "")
        self.command.setPlaceholderText("npx -y @modelcontextprotocol/server-filesystem ~/Notes")
        self.command.setAccessibleName(self.tr("Command"))
        form.addRow(self.tr("Command"), self.command)
        self.url = QLineEdit(server.url if server else "", placeholderText="http://127.0.0.1:8931/mcp")
        self.url.setAccessibleName(self.tr("Address"))
        form.addRow(self.tr("Address"), self.url)
        self.trusted = QCheckBox(self.tr("Trust this server: run its tools without asking"))
        self.trusted.setChecked(bool(server and server.trusted))
        form.addRow("", self.trusted)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        form.addRow("", self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        (self.use_url if server and server.url else self.use_command).setChecked(True)
        self.use_url.toggled.connect(self._kind_changed)
        self._kind_changed()

    def _kind_changed(self) -> None:
        self.command.setEnabled(not self.use_url.isChecked())
        self.url.setEnabled(self.use_url.isChecked())

    def accept(self) -> None:
        try:
            server = server_from_fields(self.name.text(), self.command.text(), self.url.text(),
                                        self.use_url.isChecked(), self.trusted.isChecked())
        except ValueError as exc:
            self.error.setText(QCoreApplication.translate("ServerDialog", str(exc)))
            return
        if server.name in self._taken:
            self.error.setText(self.tr("Another server already has this name."))
            return
        self.server = server
        super().accept()


class McpServersPage(QWidget):
    """The list with Add, Edit and Remove; `servers()` is what Save writes."""

    def __init__(self, servers: list[McpServer], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._servers = list(servers)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 14, 12, 8)
        column.addWidget(dim_label(self.tr(
            "Tool servers (MCP) give Hearth more tools. Hearth asks before running a tool "
            "unless you trust its server. Changes take effect the next time Hearth starts.")))
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Program or address"),
                                              self.tr("Trusted")])
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setAccessibleName(self.tr("Tool servers"))
        self.table.cellDoubleClicked.connect(lambda row, _c: self.edit(row))
        column.addWidget(self.table, 1)
        self.edit_button = button(self.tr("Edit…"), lambda: self.edit(self.table.currentRow()))
        self.remove_button = button(self.tr("Remove"), self.remove_current)
        column.addLayout(hbox(button(self.tr("Add…"), lambda: self.edit(None)),
                              self.edit_button, self.remove_button, None))
        follow_selection(self.table, self.edit_button, self.remove_button)
        self._fill()

    def servers(self) -> list[McpServer]:
        return list(self._servers)

    def _fill(self) -> None:
        self.table.clearSelection()
        self.table.setRowCount(len(self._servers))
        for row, server in enumerate(self._servers):
            where = server.url or shlex.join(server.command)
            trusted = self.tr("Yes") if server.trusted else self.tr("Asks first")
            for col, text in enumerate((server.name, where, trusted)):
                item = QTableWidgetItem(text)
                item.setToolTip(where)
                self.table.setItem(row, col, item)

    def edit(self, row: int | None) -> ServerDialog | None:
        """Opens the server form (non-modal); the list changes when it is accepted."""
        if row is not None and not 0 <= row < len(self._servers):
            return None
        current = self._servers[row] if row is not None else None
        taken = {s.name for s in self._servers} - ({current.name} if current else set())
        dialog = ServerDialog(current, taken, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._store(row, dialog.server))
        dialog.open()
        return dialog

    def _store(self, row: int | None, server: McpServer | None) -> None:
        if server is None:
            return
        if row is None:
            self._servers.append(server)
        else:
            self._servers[row] = server
        self._fill()

    def remove_current(self) -> None:
        row = self.table.currentRow()
        if 0 <= row < len(self._servers):
            del self._servers[row]
            self._fill()
