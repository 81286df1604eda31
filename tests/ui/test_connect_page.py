"""The Connect page: the request log kept from earlier runs, cleared on request; other devices
on the network allowed only by a separate, warned setting that applies when the server
restarts, with the key still required."""

from __future__ import annotations

import http.client
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtWidgets import QApplication, QMessageBox

from app.core.server.guard import ANY_ADDRESS
from app.core.server.log import RequestLog, RequestRecord
from app.core.server.log_store import RequestLogStore
from app.ui.settings.api_server import ServerSwitch
from app.ui.settings.dialog import SettingsDialog
from app.ui.settings.network_access import network_addresses
from app.ui.shell.main_window import MainWindow
from app.ui.shell.tray import Tray
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture

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


def _logged_earlier(ctx: Any, qtbot: Any, *records: RequestRecord) -> tuple[ServerSwitch, Any]:
    """`records` logged by a past server, then Settings opened: (the switch, its Connect page
    once it lists them)."""
    earlier = RequestLog(store=RequestLogStore(ctx.hearth.paths.history_db))
    for record in records:
        earlier.add(record)
    earlier.close()
    switch = ServerSwitch(ctx)
    ctx.server = switch
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    page = dialog.connect_page
    qtbot.waitUntil(lambda: page.log.count() == len(records), timeout=WAIT_MS)
    return switch, page


def test_log_from_an_earlier_run_is_listed_and_cleared(ctx: Any, qtbot: Any) -> None:
    switch, page = _logged_earlier(
        ctx, qtbot,
        RequestRecord(client="127.0.0.1:5000 OpenAI/Python", method="POST",
                      path="/v1/chat/completions", status=200, prompt_tokens=40,
                      completion_tokens=7, tool_calls=["get_time"]),
        RequestRecord(client="127.0.0.1:5001 curl", method="POST", path="/v1/responses",
                      status=200, prompt_tokens=12))
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


def test_a_batched_request_reads_in_the_ui_language(
        ctx: Any, qtbot: Any, chinese: Any) -> None:  # noqa: F811 - the fixture
    switch, page = _logged_earlier(
        ctx, qtbot,
        RequestRecord(client="127.0.0.1:5000 OpenClaw", method="POST", path="/v1/responses",
                      status=200, prompt_tokens=40, completion_tokens=7, cached_tokens=30,
                      batched_with=3))
    row = page.log.item(0).text()
    assert "与 3 个请求合批" in row and "30 个已缓存" in row
    assert "batched" not in row and "cached" not in row
    assert ctx.ops.wait(WAIT_MS)
    ctx.hearth.request_log.close()
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


def _status_at(url: str, key: str) -> int:
    """GET /v1/models at the address shown, as another device on the network would."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(str(parts.hostname), int(parts.port or 0), timeout=60)
    try:
        conn.request("GET", "/v1/models", headers={"Authorization": f"Bearer {key}"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_open_to_the_network_is_said_with_the_reachable_address_in_tray_and_status_bar(
        ctx: Any, qtbot: Any) -> None:
    settings = ctx.hearth.settings
    settings.server_enabled, settings.server_port, settings.server_host = True, 0, ANY_ADDRESS
    switch = ServerSwitch(ctx)
    ctx.server = switch
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    tray = Tray()
    switch.state.connect(tray.show_server)
    switch.state.connect(lambda on, url: window.show_api(on, 0, url))
    with qtbot.waitSignal(switch.state, timeout=WAIT_MS) as started:
        switch.start()
    running, url = started.args
    assert running and switch.server is not None
    own = [a for a in network_addresses(ANY_ADDRESS) if a != ANY_ADDRESS]
    port = switch.server.port
    assert url == f"http://{own[0] if own else ANY_ADDRESS}:{port}/v1"  # never 127.0.0.1
    assert tray.server_action is not None
    assert tray.server_action.text() == f"⚠ Open to the network at {url}"
    assert window.api_label.text() == f"⚠ API: on · open to the network at {url}"
    if own:  # the address shown is where another device reaches it
        assert _status_at(url, settings.server_api_key) == 200

    settings.server_host = "127.0.0.1"  # back to this computer only: the mark goes
    with qtbot.waitSignal(switch.state, timeout=WAIT_MS,
                          check_params_cb=lambda on, _url: on) as again:
        switch.settings_changed({"server_host"})
    assert again.args[1].startswith("http://127.0.0.1:")
    assert tray.server_action.text() == f"Serving other apps at {again.args[1]}"
    assert window.api_label.text() == "API: on"
    switch.stop(wait=True)
    tray.menu.deleteLater()
    switch.deleteLater()


def test_the_network_mark_speaks_chinese(ctx: Any, qtbot: Any, chinese: Any) -> None:  # noqa: F811
    ctx.translations = chinese
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    tray = Tray()
    url = "http://192.0.2.2:8080/v1"
    tray.show_server(True, url)
    window.show_api(True, 2, url)
    assert tray.server_action is not None
    assert tray.server_action.text() == f"⚠ 已向网络开放：{url}"
    assert "已向网络开放" in tray.icon.toolTip()
    assert window.api_label.text().endswith(f"已向网络开放：{url}")
    assert english_on(window.statusBar()) == {}
    tray.menu.deleteLater()


def test_an_ipv6_address_is_written_in_brackets_in_every_url_shown() -> None:
    """Where the server listens on an IPv6 address, the URL shown to other devices and the one
    programs on this computer use are both valid URLs (the address in brackets)."""
    from app.core.server.guard import base_url, local_address
    from app.ui.settings.network_access import reachable_url

    assert reachable_url("http://[::1]:8484/v1", "fd00::5") == "http://[fd00::5]:8484/v1"
    assert base_url(local_address("::"), 8484) == "http://[::1]:8484/v1"
    assert base_url(local_address(ANY_ADDRESS), 8484) == "http://127.0.0.1:8484/v1"
    assert urlsplit(reachable_url("http://[::1]:8484/v1", "fd00::5")).port == 8484
