"""The status bar's figures are true: the context used is what the last step's prompt and
answer took of the window (not a sum over a tool-using turn's steps, which can exceed it), the
speed is that step's tokens over its decode time, and a model switch clears the old engine's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chat import send, wait_idle


def test_context_and_speed_are_the_last_steps_figures(window, backend, qtbot, ctx) -> None:
    backend.queue(tool_call("get_current_time", timezone="Asia/Tokyo"),
                  tool_call("get_current_time", timezone="Europe/Paris"),
                  answer("Both read.", "It is late in Tokyo and early in Paris."), TITLE)
    with qtbot.waitSignal(window.chat.turn_finished, timeout=WAIT_MS):
        send(qtbot, window, "What time is it in Tokyo and in Paris?")
    steps = [m for m in ctx.hearth.history.messages(window.chat.conversation_id)
             if m.role == "assistant"]
    assert len(steps) == 3
    last = steps[-1]
    used = last.prompt_tokens + last.completion_tokens
    summed = sum(m.prompt_tokens for m in steps) + sum(m.completion_tokens for m in steps)
    assert used < summed  # the test means something: the sums differ from the last step
    window_size = ctx.hearth.runner.info.context_length
    assert window.context_label.text() == f"Context {used:,} / {window_size:,}"
    speed = last.completion_tokens * 1000 / last.timings["decode_ms"]
    assert window.speed_label.text() == f"{speed:.1f} tok/s"


def test_a_model_switch_clears_the_previous_engines_figures(window, backend, qtbot, ctx,
                                                           tiny_model: Any) -> None:
    pytest.importorskip("llama_cpp")
    backend.queue(answer("r", "Hello there, how are you today?"), TITLE)
    send(qtbot, window, "Hi")
    wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: bool(window.context_label.text()), timeout=WAIT_MS)
    ctx.hearth.settings.engine, ctx.hearth.settings.model_path = "llama", str(
        tiny_model.gguf_path)
    with qtbot.waitSignal(window.model_loaded, timeout=WAIT_MS * 4):
        window.load_model()
        assert window.context_label.text() == ""  # from the old engine: gone at once
        assert window.speed_label.text() == ""
    assert window.context_label.text() == "" and window.speed_label.text() == ""
