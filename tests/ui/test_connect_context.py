"""The Connect page says what context OpenClaw needs, and when the loaded model's is shorter,
offers the setting that fits with the memory it costs; choosing it fills the context field,
which applies on Save like any other setting."""

from __future__ import annotations

from typing import Any

import pytest

from app.core.server.client_config import context_memory
from app.ui.settings.dialog import SettingsDialog
from backends.scripted import ScriptedBackend
from tests.ui.test_chinese_everywhere import chinese, english_in  # noqa: F401 - a fixture


@pytest.fixture
def backend(tiny_model: Any) -> ScriptedBackend:
    """A model loaded with an 8K context, its file the tiny GGUF (for the memory figures)."""
    scripted = ScriptedBackend()
    scripted.info.context_length = 8192
    scripted.info.model_path = str(tiny_model.gguf_path)
    return scripted


def test_short_context_is_named_and_the_fitting_one_offered(ctx: Any, qtbot: Any) -> None:
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.connect_page
    assert "32,768" in page.context_note.text() and "8,192" in page.context_note.text()
    assert page.use_context.isVisibleTo(page) and "32,768" in page.use_context.text()
    info = ctx.hearth.runner.info
    assert context_memory(info, 32768) == 4 * context_memory(info, 8192) > 0
    qtbot.waitUntil(lambda: "memory" in page.context_cost.text(), timeout=10_000)
    page.use_context.click()
    assert dialog.context.value() == 32768
    assert "when you save" in page.context_note.text()
    assert ctx.hearth.settings.context_length != 32768  # nothing applied before Save


def test_a_context_that_fits_only_says_what_openclaw_needs(ctx: Any, qtbot: Any,
                                                          backend: ScriptedBackend) -> None:
    backend.info.context_length = 32768
    info = ctx.hearth.runner.info
    info.context_length = 32768
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.connect_page
    assert "32,768" in page.context_note.text() and "too short" not in page.context_note.text()
    assert not page.use_context.isVisibleTo(page)


@pytest.mark.usefixtures("chinese")
def test_the_advice_reads_in_chinese(ctx: Any, qtbot: Any) -> None:
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.connect_page
    qtbot.waitUntil(lambda: bool(page.context_cost.text()), timeout=10_000)
    shown = [page.context_note.text(), page.use_context.text(), page.context_cost.text()]
    assert all(text and not english_in(text) for text in shown), shown
    page.use_context.click()
    assert not english_in(page.context_note.text())
