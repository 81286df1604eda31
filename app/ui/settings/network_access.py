"""The Connect page's "Allow other devices on this network" control: off by default (loopback
only); turned on, it offers an address to listen on and says plainly what that exposes."""

from __future__ import annotations

from urllib.parse import urlsplit

from PySide6.QtCore import Signal
from PySide6.QtNetwork import QAbstractSocket, QNetworkInterface
from PySide6.QtWidgets import QCheckBox, QLabel, QVBoxLayout, QWidget

from app.core.server.guard import ANY_ADDRESS, base_url, is_loopback_host
from app.ui.widgets import choice, hbox

LOOPBACK = "127.0.0.1"


def network_addresses(current: str) -> list[str]:
    """Every network (0.0.0.0), the address already chosen, then this computer's own IPv4
    addresses (read from its interfaces: no name lookup, nothing to wait for)."""
    own = [a.toString() for a in QNetworkInterface.allAddresses()
           if a.protocol() == QAbstractSocket.NetworkLayerProtocol.IPv4Protocol
           and not a.isLoopback()]
    chosen = [] if is_loopback_host(current) or not current else [current]
    return list(dict.fromkeys([ANY_ADDRESS, *chosen, *own]))


def reachable_url(local_url: str, bind_host: str) -> str:
    """The base URL to show for a server bound to `bind_host`: the local one while loopback
    only; else the address other devices use (this computer's own for every network)."""
    if not local_url or not bind_host or is_loopback_host(bind_host):
        return local_url
    host = bind_host
    if bind_host in (ANY_ADDRESS, "::"):
        own = [a for a in network_addresses(bind_host) if a != ANY_ADDRESS]
        host = own[0] if own else bind_host  # no network now: say what it listens on
    return base_url(host, urlsplit(local_url).port or 0)  # local_url always has a port


def open_to_network(url: str) -> bool:
    """Whether a shown server URL is reachable from other devices (not loopback)."""
    host = urlsplit(url).hostname
    return bool(host) and not is_loopback_host(str(host))


class NetworkAccess(QWidget):
    """Edits the server's listening address; `host()` is what Save stores as server_host."""

    changed = Signal()

    def __init__(self, current: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._loopback = current if is_loopback_host(current) else LOOPBACK
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.allow = QCheckBox(self.tr("Allow other devices on this network"))
        self.allow.setAccessibleName(self.allow.text())
        self.allow.setChecked(not is_loopback_host(current))
        column.addWidget(self.allow)
        self.address = choice([(self.tr("Every network (%1)").replace("%1", address)
                                if address == ANY_ADDRESS else address, address)
                               for address in network_addresses(current)], current,
                              self.tr("Network address to listen on"))
        column.addLayout(hbox(QLabel(self.tr("Listen on")), (self.address, 1)))
        self.warning = QLabel("⚠ " + self.tr(
            "Anyone on your network who has the key can then use Hearth's model, and ask to "
            "change your calendar (you still allow or refuse each change). Hearth's Host check "
            "then accepts this address. The key is still required. This takes effect when the "
            "server restarts (when you save, if it is on)."))
        self.warning.setObjectName("warning")
        self.warning.setWordWrap(True)
        column.addWidget(self.warning)
        self.allow.toggled.connect(self._toggled)
        self.address.currentIndexChanged.connect(lambda _i: self.changed.emit())
        self._toggled(self.allow.isChecked())

    def host(self) -> str:
        """The address to bind: loopback unless other devices are allowed."""
        if not self.allow.isChecked():
            return self._loopback
        return str(self.address.currentData())

    def _toggled(self, on: bool) -> None:
        self.address.setEnabled(on)
        self.warning.setVisible(on)
        self.changed.emit()
