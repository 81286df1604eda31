"""Reminders reach the desktop's own notification service with Snooze and Open, and are
kept in a list of recent reminders (issue 16, defect 4 and Notifications)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.ui.shell.notifications import Notifier, load_recent
from tests.ui.scripts import WAIT_MS

DAEMON = Path(__file__).with_name("fake_notification_daemon.py")


@pytest.fixture
def session_bus(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if not shutil.which("dbus-daemon"):
        pytest.skip("needs dbus-daemon (apt-get install dbus)")
    pytest.importorskip("jeepney")
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, text=True)
    assert bus.stdout is not None
    address = bus.stdout.readline().strip()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    try:
        yield address
    finally:
        bus.terminate()
        bus.wait(10)


@pytest.fixture
def daemon(session_bus: str) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen([sys.executable, str(DAEMON)], stdout=subprocess.PIPE,
                               text=True, env={**os.environ})
    assert process.stdout is not None
    assert json.loads(process.stdout.readline()) == {"ready": True}
    try:
        yield process
    finally:
        process.terminate()
        process.wait(10)


def test_a_reminder_reaches_the_service_and_snooze_and_open_work(ctx, qtbot, daemon,
                                                                 tmp_path) -> None:
    store = tmp_path / "reminders.json"
    notifier = Notifier(store)
    notifier.start(ctx.ops)
    qtbot.waitUntil(lambda: notifier.via == "dbus", timeout=WAIT_MS)
    try:
        check_buttons(notifier, daemon, qtbot, store)
    finally:
        notifier.close()


def check_buttons(notifier: Notifier, daemon: Any, qtbot: Any, store: Path) -> None:
    notifier.notify("Dentist", "Thu 10:30 · High Street", key="uid-1")
    call = json.loads(daemon.stdout.readline())
    assert call == {"signature": "susssasa{sv}i", "app": "Hearth", "summary": "Dentist",
                    "body": "Thu 10:30 · High Street",
                    "actions": ["default", "Open", "open", "Open", "snooze", "Snooze 10 min"]}
    qtbot.waitUntil(lambda: len(notifier._snoozes) == 1, timeout=WAIT_MS)  # Snooze pressed
    assert notifier._snoozes[0].interval() == 10 * 60_000
    with qtbot.waitSignal(notifier.opened, timeout=WAIT_MS) as opened:
        notifier.notify("Open me: standup", "09:00", key="uid-2")
    assert opened.args == ["uid-2"]
    qtbot.waitUntil(lambda: len(load_recent(store)) == 2, timeout=WAIT_MS)  # kept on disk
    assert [r.title for r in Notifier(store).recent] == []  # read only when started


def test_without_a_service_the_tray_shows_it_and_the_list_keeps_it(ctx, qtbot,
                                                                   session_bus) -> None:
    class Tray:
        def __init__(self) -> None:
            self.shown: list[tuple[str, str]] = []

        def showMessage(self, title: str, text: str, *_args: Any) -> None:  # noqa: N802
            self.shown.append((title, text))

    tray = Tray()
    notifier = Notifier(None, tray=tray)
    notifier.start(ctx.ops)
    assert ctx.ops.wait(WAIT_MS)
    qtbot.wait(10)
    assert notifier.via == "tray"
    notifier.notify("Dentist", "Thu 10:30")
    qtbot.waitUntil(lambda: tray.shown == [("Dentist", "Thu 10:30")], timeout=WAIT_MS)
    assert [r.title for r in notifier.recent] == ["Dentist"]
