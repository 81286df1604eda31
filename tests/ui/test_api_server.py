"""The in-app server: switched on while a chat streams, the chat goes on, an API request is
answered through the same model queue, the tray and status bar say it is on."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest
import yaml

from app.ui.chat.message import AssistantMessage
from app.ui.settings.api_server import ServerSwitch
from app.ui.settings.dialog import SettingsDialog
from app.ui.shell.main_window import MainWindow
from app.ui.shell.tray import Tray
from backends.scripted import ScriptedBackend
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_chat import messages, send, shown_text, wait_idle

CHAT = answer("Counting slowly.", " ".join(f"n{i}" for i in range(120)))


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend(delay=0.01)  # slow enough that the switch flips mid-answer


def _ask_api(url: str, key: str) -> dict[str, Any]:
    host, port = url.removeprefix("http://").removesuffix("/v1").rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        conn.request("POST", "/v1/chat/completions", body=json.dumps(
            {"messages": [{"role": "user", "content": "hi"}]}),
            headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        response = conn.getresponse()
        return {"status": response.status, **json.loads(response.read())}
    finally:
        conn.close()


def test_server_switched_on_mid_chat_keeps_the_chat_and_shows_in_tray(
        ctx: Any, qtbot: Any, backend: ScriptedBackend) -> None:
    settings = ctx.hearth.settings
    settings.server_port = 0  # any free port
    switch = ServerSwitch(ctx)
    ctx.server = switch
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    switch.setParent(window)  # as the app does: proposal dialogs open over the window
    window.show()
    tray = Tray()
    switch.state.connect(tray.show_server)
    switch.state.connect(lambda on, _url: window.show_api(on, 0))
    backend.queue(CHAT, TITLE, answer("An API caller.", "Hello, other app."))
    send(qtbot, window, "Count for me")
    assert window.chat.streaming
    settings.server_enabled = True
    with qtbot.waitSignal(switch.state, timeout=WAIT_MS) as started:
        switch.settings_changed({"server_enabled"})
    running, url = started.args
    assert running and url.startswith("http://127.0.0.1:")
    assert tray.server_action is not None and url in tray.server_action.text()
    assert window.api_label.text() == "API: on"
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert shown_text(reply).strip().endswith("n119")  # the whole answer, nothing lost
    # The chat's turn names the conversation after its answer: wait until that step has taken
    # its scripted output, or the API request, sent first, would be given the title.
    qtbot.waitUntil(lambda: backend.pending == 1, timeout=WAIT_MS)
    result: dict[str, Any] = {}
    ctx.ops.run(lambda: _ask_api(url, settings.server_api_key), result.update)
    qtbot.waitUntil(lambda: bool(result), timeout=WAIT_MS)
    assert result["status"] == 200
    assert result["choices"][0]["message"]["content"] == "Hello, other app."
    switch.stop(wait=True)
    assert tray.server_action is None and window.api_label.text() == ""
    tray.menu.deleteLater()


def test_connect_page_offers_url_key_and_configs(ctx: Any, qtbot: Any) -> None:
    ctx.hearth.settings.server_port = 8484
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.connect_page
    assert page.url.text() == "http://127.0.0.1:8484/v1"
    key = page.key.text()
    assert key.startswith("hearth-")
    openclaw = json.loads(page.openclaw.toPlainText())
    provider = openclaw["models"]["providers"]["hearth"]
    assert provider["baseUrl"] == "http://127.0.0.1:8484/v1" and provider["apiKey"] == key
    assert provider["models"][0]["contextWindow"] == 32768  # the loaded model's window
    (editor_model,) = yaml.safe_load(page.editor.toPlainText())["models"]
    assert editor_model["apiBase"] == "http://127.0.0.1:8484/v1" and editor_model["apiKey"] == key
    assert json.loads(page.mcp.toPlainText())["mcpServers"]["hearth"]["args"] == ["mcp", "serve"]
    page._regenerate()
    assert page.key.text() != key and page.values()["server_api_key"] == page.key.text()
    assert page.values()["server_enabled"] is False  # off by default




def test_a_proposal_from_another_program_waits_for_allow(ctx: Any, qtbot: Any) -> None:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.core.events import ConfirmationRequest

    switch = ServerSwitch(ctx)
    request = ConfirmationRequest("p1", "add_event", {"title": "Dentist"},
                                  "Another program asks: add 'Dentist' on 3 December")
    switch.proposal.emit(request)
    qtbot.waitUntil(lambda: any(isinstance(w, QMessageBox) and w.isVisible()
                                for w in QApplication.topLevelWidgets()), timeout=WAIT_MS)
    box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)
               and w.isVisible())
    assert "Dentist" in box.text() and not request.answered
    allow = next(b for b in box.buttons() if b.text() == "Allow")
    allow.click()
    qtbot.waitUntil(lambda: request.answered, timeout=WAIT_MS)
    assert request.approved
    switch.deleteLater()
