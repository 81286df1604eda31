"""Desktop notifications through the platform's own service, with Snooze and Open.

Linux: the freedesktop Notifications service over D-Bus (QtDBus), so reminders stay in the
desktop's notification centre with their buttons. macOS and Windows: Qt's tray message, which
posts to the Notification Center / a Windows toast. Without either, the in-app list of recent
reminders still holds every one (the tray menu and the Calendar show it)."""

from __future__ import annotations

import json
import sys
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QSystemTrayIcon

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
SNOOZE_MINUTES = 10
RECENT = 30  # reminders kept in the list (and on disk)


@dataclass
class Reminder:
    """One reminder as shown, kept so a missed one can still be read later."""

    title: str
    text: str
    shown: str = field(default_factory=lambda: datetime.now().astimezone().isoformat(
        timespec="seconds"))
    key: str = ""  # what Open shows (an event uid), "" for a plain message


def load_recent(path: Path) -> list[Reminder]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    out = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict):
            try:
                out.append(Reminder(**{k: str(v) for k, v in item.items()}))
            except TypeError:
                continue  # a field from another version: skip that one
    return out[-RECENT:]


class Notifier(QObject):
    """`notify(title, text, key)` shows a reminder; `opened(key)` when the person clicks Open
    (or the notification itself); Snooze shows it again in ten minutes."""

    opened = Signal(str)
    changed = Signal()  # the list of recent reminders changed
    delivered = Signal(object, object)  # (reminder, notification id or None), from a worker

    def __init__(self, store: Path | None = None, tray: QSystemTrayIcon | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._tray = tray  # a QSystemTrayIcon, the fallback (and the way on macOS / Windows)
        self.recent: list[Reminder] = []
        self._shown: dict[int, Reminder] = {}  # D-Bus notification id -> reminder
        self._early: dict[int, str] = {}  # a button pressed before Notify's reply was handled
        self._dbus: FreedesktopNotifications | None = None
        self._snoozes: list[QTimer] = []
        self.via = "tray" if tray is not None else "none"
        self.delivered.connect(self._delivered)

    def start(self, ops: Any, platform: str = sys.platform) -> None:
        """Read the recent list and find the desktop's service off the GUI thread."""
        store, gui = self._store, self.thread()

        def work() -> tuple[list[Reminder], FreedesktopNotifications | None]:
            service = FreedesktopNotifications.open() if platform.startswith("linux") else None
            if service is not None:
                service.moveToThread(gui)  # its signals are delivered on the GUI thread
            return (load_recent(store) if store else []), service

        ops.run(work, self._started, lambda _e: None)

    def _started(self, result: tuple[list[Reminder], FreedesktopNotifications | None]) -> None:
        recent, service = result
        self.recent = [*recent, *self.recent][-RECENT:]
        self.changed.emit()
        if service is not None:
            self._dbus = service
            self.via = "dbus"
            service.action.connect(self._on_action)
            service.closed.connect(lambda nid: self._shown.pop(nid, None))

    # -- sending ------------------------------------------------------------------------------
    def notify(self, title: str, text: str, key: str = "", remember: bool = True) -> Reminder:
        """Show a notification; a reminder (`remember`) also joins the recent list."""
        reminder = Reminder(title, text, key=key)
        if remember:
            self._remember(reminder)
        self._show(reminder)
        return reminder

    def _show(self, reminder: Reminder) -> None:
        """The bus round trip and the file write happen on a worker: never on the GUI thread."""
        dbus, recent = self._dbus, list(self.recent)
        actions = ["default", self.tr("Open"), "open", self.tr("Open"),
                   "snooze", self.tr("Snooze %1 min").replace("%1", str(SNOOZE_MINUTES))]

        def work() -> None:
            self._save(recent)
            nid = dbus.send(reminder.title, reminder.text, actions) if dbus else None
            self.delivered.emit(reminder, nid)

        threading.Thread(target=work, name="notify", daemon=True).start()

    def _delivered(self, reminder: Reminder, nid: int | None) -> None:
        if nid is not None:
            self._shown[nid] = reminder
            if nid in self._early:
                self._on_action(nid, self._early.pop(nid))
            return
        if self._tray is not None:
            from app.ui.icons import app_icon

            self._tray.showMessage(reminder.title, reminder.text, app_icon(), 15000)

    def snooze(self, reminder: Reminder, minutes: int = SNOOZE_MINUTES) -> QTimer:
        timer = QTimer(self, singleShot=True, interval=minutes * 60_000)
        timer.timeout.connect(lambda: self._snoozed(timer, reminder))
        timer.start()
        self._snoozes.append(timer)
        return timer

    def _snoozed(self, timer: QTimer, reminder: Reminder) -> None:
        self._snoozes.remove(timer)
        timer.deleteLater()
        self.notify(reminder.title, reminder.text, reminder.key)

    def _remember(self, reminder: Reminder) -> None:
        self.recent = [*self.recent, reminder][-RECENT:]
        self.changed.emit()

    def _save(self, recent: list[Reminder]) -> None:
        if self._store is None:
            return
        try:
            self._store.write_text(json.dumps([asdict(r) for r in recent], ensure_ascii=False),
                                   encoding="utf-8")
        except OSError:
            pass  # the list is a convenience: a full disk must not lose the reminder shown

    # -- D-Bus ----------------------------------------------------------------------------------
    def _on_action(self, notification_id: int, action: str) -> None:
        reminder = self._shown.get(notification_id)
        if reminder is None:
            # The reply and the button press travel separately: the press may come first.
            self._early[notification_id] = action
            return
        if action == "snooze":
            self.snooze(reminder)
        else:
            self.opened.emit(reminder.key)

    def close(self) -> None:
        for timer in self._snoozes:
            timer.stop()
        if self._dbus is not None:
            self._dbus.close()
            self._dbus = None


class FreedesktopNotifications(QObject):
    """org.freedesktop.Notifications over one D-Bus connection (jeepney): Notify goes out with
    the exact signature servers check (QtDBus from Python cannot send a uint32), and the
    ActionInvoked / NotificationClosed signals come back on the same connection, which KDE
    requires (it sends them only to the notification's sender)."""

    action = Signal(int, str)  # (notification id, action key), on the GUI thread
    closed = Signal(int)

    def __init__(self, router: Any) -> None:  # jeepney's DBusRouter, imported when used
        super().__init__()
        self._router = router
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="notifications",
                                        daemon=True)

    @classmethod
    def open(cls) -> FreedesktopNotifications | None:
        """None when there is no session bus or no notification service on it."""
        try:
            from jeepney import DBusAddress, new_method_call
            from jeepney.bus_messages import message_bus
            from jeepney.io.threading import DBusRouter, open_dbus_connection
        except ImportError:
            return None
        try:
            router = DBusRouter(open_dbus_connection(bus="SESSION"))
        except (OSError, KeyError, ValueError, RuntimeError):
            return None  # no session bus (a bare server, a container)
        try:
            owner = router.send_and_get_reply(message_bus.NameHasOwner(SERVICE), timeout=2)
            if not owner.body[0]:
                router.close()
                return None
            bus = DBusAddress("/org/freedesktop/DBus", bus_name="org.freedesktop.DBus",
                              interface="org.freedesktop.DBus")
            for member in ("ActionInvoked", "NotificationClosed"):
                rule = f"type='signal',interface='{SERVICE}',member='{member}'"
                router.send_and_get_reply(new_method_call(bus, "AddMatch", "s", (rule,)),
                                          timeout=2)
        except Exception:  # noqa: BLE001 - any bus trouble: fall back to the tray
            router.close()
            return None
        service = cls(router)
        service._thread.start()
        return service

    def send(self, title: str, body: str, actions: list[str]) -> int | None:
        """Show one notification; its id, or None when the service refused it. Blocks for a
        bus round trip (milliseconds), so callers on the GUI thread stay responsive."""
        from jeepney import DBusAddress, MessageType, new_method_call

        from app.ui.icons import ICONS

        address = DBusAddress(PATH, bus_name=SERVICE, interface=SERVICE)
        hints = {"desktop-entry": ("s", "hearth"), "urgency": ("y", 1)}
        message = new_method_call(address, "Notify", "susssasa{sv}i",
                                  ("Hearth", 0, str(ICONS / "hearth.svg"), title, body,
                                   actions, hints, -1))
        try:
            reply = self._router.send_and_get_reply(message, timeout=3)
        except Exception:  # noqa: BLE001 - the service went away: the caller falls back
            return None
        if reply.header.message_type != MessageType.method_return:
            return None
        return int(reply.body[0])

    def _listen(self) -> None:
        from queue import Empty, Queue

        from jeepney import HeaderFields, MatchRule

        queue: Queue[Any] = Queue()
        rule = MatchRule(type="signal", interface=SERVICE)
        try:
            with self._router.filter(rule, queue=queue, bufsize=64):
                while not self._stop.is_set():
                    try:
                        message = queue.get(timeout=0.25)
                    except Empty:
                        continue
                    member = message.header.fields.get(HeaderFields.member)
                    if member == "ActionInvoked":
                        self.action.emit(int(message.body[0]), str(message.body[1]))
                    elif member == "NotificationClosed":
                        self.closed.emit(int(message.body[0]))
        except Exception:  # noqa: BLE001 - the router closed under us: nothing more to hear
            return

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self._router.close()

