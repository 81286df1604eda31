"""The Connect page: the request log kept from earlier runs, cleared on request; other devices
on the network allowed only by a separate, warned setting that applies when the server
restarts, with the key still required."""

from __future__ import annotations

import http.client
from typing import Any

from PySide6.QtWidgets import QApplication, QMessageBox

from app.core.server.log import RequestLog, RequestRecord
from app.core.server.log_store import RequestLogStore
from app.ui.api_server import ServerSwitch
from app.ui.settings_dialog import SettingsDialog
from tests.ui.scripts import WAIT_MS

ANOTHER_DEVICE = "192.0.2.50"  # an address on the network (TEST-NET-1), as its Host header


def _visible_box() -> QMessageBox | None:
    return next((w for w in QApplication.topLevelWidgets()
                 if isinstance(w, QMessageBox) and w.isVisible()), None)


def _status(url: str, host: str, key: str | None) -> int:
    """GET /v1/models on the server, as another device would send it (its Host header)."""
    port = int(url.removesuffix("/v1").rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Host": f"{host}:{port}"}
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        conn.request("GET", "/v1/models", headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_log_from_an_earlier_run_is_listed_and_cleared(ctx: Any, qtbot: Any) -> None:
    earlier = RequestLog(store=RequestLogStore(ctx.hearth.paths.history_db))  # a past server
    earlier.add(RequestRecord(client="127.0.0.1:5000 OpenAI/Python", method="POST",
                              path="/v1/chat/completions", status=200, prompt_tokens=40,
                              completion_tokens=7, tool_calls=["get_time"]))
    earlier.add(RequestRecord(client="127.0.0.1:5001 curl", method="POST",
                              path="/v1/responses", status=200, prompt_tokens=12))
    earlier.close()
    switch = ServerSwitch(ctx)
    ctx.server = switch
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.connect_page
    qtbot.waitUntil(lambda: page.log.count() == 2, timeout=WAIT_MS)
    first, second = page.log.item(0).text(), page.log.item(1).text()
    assert "/v1/chat/completions" in first and "40+7" in first and "get_time" in first
    assert "/v1/responses" in second
    assert page.clear_log.isEnabled()
    page.clear_log.click()
    qtbot.waitUntil(lambda: _visible_box() is not None, timeout=WAIT_MS)
    box = _visible_box()
    assert box is not None and "2 logged request" in box.text()
    assert page.log.count() == 2  # nothing is forgotten before the person agrees
    next(b for b in box.buttons() if b.text() == "Clear log").click()
    qtbot.waitUntil(lambda: page.log.count() == 0, timeout=WAIT_MS)
    assert not page.clear_log.isEnabled()
    assert ctx.ops.wait(WAIT_MS)
    ctx.hearth.request_log.close()  # its writer finishes what was queued: the clear
    store = RequestLogStore(ctx.hearth.paths.history_db)
    assert store.recent() == []
    store.close()
    switch.deleteLater()


def test_other_devices_need_the_separate_warned_setting_and_still_the_key(
        ctx: Any, qtbot: Any) -> None:
    settings = ctx.hearth.settings
    settings.server_enabled, settings.server_port = True, 0
    switch = ServerSwitch(ctx)
    ctx.server = switch
    switch.start()
    qtbot.waitUntil(lambda: switch.running, timeout=WAIT_MS)
    key = settings.server_api_key
    assert _status(switch.url, ANOTHER_DEVICE, key) == 403  # loopback only by default

    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.connect_page
    dialog.tabs.setCurrentWidget(page)
    network = page.network
    assert not network.allow.isChecked() and not network.address.isEnabled()
    assert not network.warning.isVisible()
    assert page.values()["server_host"] == "127.0.0.1"
    network.allow.click()
    assert network.warning.isVisible() and network.address.isEnabled()
    assert "Anyone on your network who has the key" in network.warning.text()
    assert "when the server restarts" in network.warning.text()
    assert page.values()["server_host"] == "0.0.0.0"  # every network, unless one is chosen
    assert _status(switch.url, ANOTHER_DEVICE, key) == 403  # nothing changes before saving
    dialog.saved.connect(switch.settings_changed)
    dialog.save()
    qtbot.waitUntil(lambda: switch.running and switch.server is not None
                    and switch.server.config.host == "0.0.0.0", timeout=WAIT_MS)
    assert settings.server_host == "0.0.0.0"
    assert _status(switch.url, ANOTHER_DEVICE, None) == 401  # the key is still required
    assert _status(switch.url, ANOTHER_DEVICE, key) == 200
    assert _status(switch.url, "attacker.example", key) == 403  # names still refused
    switch.stop(wait=True)
    switch.deleteLater()
