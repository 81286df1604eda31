"""Launch, then type at once: the answer starts from the prompt prefix saved on disk, the status
bar says "Ready" before its first token, and the GUI thread never stalls (real llama.cpp)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.support.tiny_model import FEW_SKILLS
from tests.ui.test_responsiveness import StallMeter, render_cost_ms, stall_cap_ms

WAIT_MS = 120_000


def use_tiny_model(hearth: Any, tiny_model: Any) -> None:
    hearth.settings.model_path = str(tiny_model.gguf_path)
    hearth.settings.engine = "llama"
    hearth.settings.thinking_default = False
    hearth.settings.max_tokens = 4
    hearth.settings.enabled_skills = FEW_SKILLS


def test_launch_then_type_at_once_answers_from_the_saved_prefix(
        ctx: Any, qtbot: Any, tiny_model: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("llama_cpp")
    hearth = ctx.hearth
    use_tiny_model(hearth, tiny_model)
    # An earlier session saved the prefix; then the app quit (the model's memory is gone).
    hearth.runner.load(hearth.make_backend()).result(WAIT_MS / 1000)
    assert hearth.warmup(lambda _status: None).start().result(WAIT_MS / 1000) is True
    hearth.runner.unload().result(WAIT_MS / 1000)

    seen: list[str] = []
    original = AssistantMessage.add_text

    def add_text(message: AssistantMessage, text: str) -> None:
        seen.append(window.prefix_label.text())  # what the status bar said at this token
        original(message, text)

    monkeypatch.setattr(AssistantMessage, "add_text", add_text)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    cap = stall_cap_ms(render_cost_ms(window.chat))  # this machine's pace, measured now
    meter = StallMeter()
    meter.start()
    window.load_model()  # as at launch
    box = window.chat.composer.input
    box.setFocus()
    qtbot.keyClicks(box, "What can you do?")  # typed at once, while the model still loads
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.chat.composer.send_button.text() == "Send"
                    and bool(seen), timeout=WAIT_MS)
    stall = meter.stop()
    assert seen[0] == "Ready"
    conversation = window.chat.conversation_id
    answer = [m for m in hearth.history.messages(conversation) if m.role == "assistant"][-1]
    prefix = hearth.runner.call(lambda: hearth.runner.backend._key(
        *hearth.assistant.prefix_request(), None)).result(WAIT_MS / 1000)
    assert answer.cached_prompt_tokens >= len(prefix.tokens)  # restored, not recomputed
    assert stall <= cap, f"the GUI thread worked {stall:.0f} ms without a break (cap {cap:.0f})"


def test_settings_show_the_saved_states_and_clear_forgets_them(ctx: Any, qtbot: Any) -> None:
    from app.ui.settings.dialog import SettingsDialog

    saved = ctx.hearth.paths.kv_cache_dir / "prefix-llama" / "model" / "state.llpx"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(bytes(3 * 1024**2))
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    speed = dialog.speed
    qtbot.waitUntil(lambda: speed.usage.text() == "3.0 MB", timeout=WAIT_MS)
    qtbot.mouseClick(speed.clear, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: speed.usage.text() == "0.0 MB", timeout=WAIT_MS)
    assert not saved.exists()
    speed.threads.setValue(3)
    speed.limit.setValue(512)
    dialog.save()
    assert (ctx.hearth.settings.threads, ctx.hearth.settings.prefix_cache_mb) == (3, 512)


def test_prompt_lookup_can_be_turned_off_in_settings(ctx: Any, qtbot: Any) -> None:
    from app.core.settings import load_settings
    from app.ui.settings.dialog import SettingsDialog

    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    assert dialog.speed.lookup.isChecked()  # on by default
    dialog.speed.lookup.setChecked(False)
    with qtbot.waitSignal(dialog.saved, timeout=WAIT_MS) as saved:  # written off the GUI thread
        dialog.save()
    assert "prompt_lookup" in saved.args[0]  # the model reloads with it
    assert ctx.hearth.settings.prompt_lookup is False
    assert load_settings(ctx.hearth.paths.settings_file).prompt_lookup is False  # kept
