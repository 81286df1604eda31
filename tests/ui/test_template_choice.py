"""A GGUF without a usable chat template is refused with the reason and a way out: Hearth's
built-in template for its architecture, or a .jinja file the person picks (issue 26)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.support.tiny_model import CHAT_TEMPLATE, FEW_SKILLS, copy_without_template
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chat import messages, send

pytestmark = pytest.mark.usefixtures("needs_llama_cpp")


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> MainWindow:
    ctx.hearth.settings.engine = "llama"
    ctx.hearth.settings.enabled_skills = FEW_SKILLS  # the template is the subject, not the tools
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


def test_a_gguf_without_a_template_is_refused_then_runs_with_a_chosen_file(
        window, ctx, qtbot, tiny_model, tmp_path, monkeypatch) -> None:
    bare = tmp_path / "bare.gguf"
    copy_without_template(tiny_model.gguf_path, bare)
    window.use_model(str(bare))  # chosen from the picker or at start: the load is refused...
    manager = window.open_models()
    qtbot.waitUntil(manager.template_file.isVisible, timeout=WAIT_MS * 4)
    assert ctx.hearth.runner.info is None  # ...nothing loaded
    assert "no usable chat template" in manager.error.text()  # the reason, in the dialog
    assert "carries no chat template" in manager.error.toolTip()
    assert manager.template_offer.text() == "Use the Nanbeige4.2 template"  # the choices
    chosen = tmp_path / "chat.jinja"
    chosen.write_text(CHAT_TEMPLATE, encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(chosen), ""))
    with qtbot.waitSignal(window.model_loaded, timeout=WAIT_MS * 4):
        qtbot.mouseClick(manager.template_file, Qt.MouseButton.LeftButton)
    assert Path(ctx.hearth.runner.info.model_path) == bare  # loaded, with the file chosen
    assert ctx.hearth.settings.template_file(str(bare)) == str(chosen)
    assert ctx.hearth.settings.known_template_models == []
    assert manager.error.isHidden() and manager.template_file.isHidden()
    manager.hide()
    ctx.hearth.settings.max_tokens = 12  # random weights: a short answer is answer enough
    if window.chat.composer.think.isChecked():
        window.chat.composer.think.click()
    send(qtbot, window, "Hi")
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS * 8)
    (reply,) = messages(window, AssistantMessage)
    stored = ctx.hearth.history.messages(window.chat.conversation_id)[-1]
    assert stored.role == "assistant" and stored.status == "complete"  # it answered
    assert (stored.content + stored.reasoning).strip()


def test_a_broken_template_of_another_architecture_names_what_is_missing(
        window, ctx, qtbot, tiny_model, tmp_path) -> None:
    other = tmp_path / "other.gguf"
    copy_without_template(tiny_model.gguf_path, other, template="{% if %}",
                          architecture="llama")
    manager = window.open_models()
    manager.open_gguf(str(other))
    qtbot.waitUntil(manager.template_file.isVisible, timeout=WAIT_MS)
    text = manager.error.text()
    assert "no usable chat template" in text and "(llama)" in text  # which one is missing
    assert "does not compile" in manager.error.toolTip()
    assert manager.template_offer.isHidden()  # Hearth has none of its own for llama
    not_a_template = tmp_path / "notes.jinja"
    not_a_template.write_text("{% for %}", encoding="utf-8")
    manager.use_template_file(str(other), str(not_a_template))
    qtbot.waitUntil(lambda: "not a chat template" in manager.error.text(), timeout=WAIT_MS)
    assert ctx.hearth.settings.template_file(str(other)) == ""  # nothing kept


def test_the_template_choice_reads_in_chinese(qtbot) -> None:
    from PySide6.QtCore import QTranslator
    from PySide6.QtWidgets import QApplication

    from app.ui.i18n import TRANSLATIONS

    translator = QTranslator()
    assert translator.load("hearth_zh_CN", str(TRANSLATIONS))
    QApplication.installTranslator(translator)
    try:
        assert QApplication.translate("ModelManager", "Choose a template file…") == \
            "选择模板文件…"
    finally:
        QApplication.removeTranslator(translator)


def test_the_welcome_gives_way_once_a_model_is_in_use(window, ctx, qtbot, tiny_model) -> None:
    """The first run's "There is no model here yet" stayed over the model just opened."""
    manager = window.open_models(first_run=True)
    assert manager.heading.text() == "Welcome to Hearth"
    assert "no model here yet" in manager.intro.text()
    with qtbot.waitSignal(window.model_loaded, timeout=WAIT_MS * 4):
        manager.open_gguf(str(tiny_model.gguf_path))  # opened from the welcome itself
    assert manager.heading.text() == "Models"
    assert manager.intro.text().startswith("Download a build of Nanbeige4.2-3B")
