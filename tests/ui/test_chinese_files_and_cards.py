"""In Chinese, the Files view with results (its rows too) and finished tool cards (status,
file actions, the result of a written file) speak Chinese."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.office.conftest import make_sales
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chinese_everywhere import chinese, english_in, english_on  # noqa: F401
from tests.ui.test_documents import drop
from tests.ui.test_files_view import folder  # noqa: F401 - a fixture


def cells(view: Any) -> list[str]:
    model = view.model
    return [str(model.data(model.index(r, c)) or "") for r in range(model.rowCount())
            for c in range(2, model.columnCount())]  # after the name and folder: ours


def test_the_files_view_with_results_speaks_chinese(ctx, qtbot, qapp, folder) -> None:  # noqa: F811
    from app.ui.i18n import Translations

    ctx.hearth.settings.file_roots = [str(folder)]
    ctx.hearth.files.add_root(str(folder))
    ctx.hearth.files.scan()
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.show_page("files")
    view = window.pages.currentWidget()
    qtbot.waitUntil(lambda: view.model.rowCount() == 4, timeout=WAIT_MS)
    assert view.status.text() == "4 files"
    translations = Translations(qapp)  # Chinese picked in Settings while results are shown
    ctx.translations = translations
    try:
        assert translations.apply("zh_CN") == "zh_CN"
        qtbot.waitUntil(lambda: view.title.text() != "Files", timeout=WAIT_MS)
        found = english_on(view)
        words = {text: english_in(text) for text in cells(view) if english_in(text)}
        assert found == {} and words == {}
    finally:
        translations.apply("en")


def test_finished_tool_cards_speak_chinese(ctx, qtbot, chinese, backend, tmp_path) -> None:  # noqa: F811
    ctx.translations = chinese
    ctx.hearth.settings.office_output_folder = str(tmp_path / "made")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    drop(window, [make_sales(tmp_path / "sales.xlsx")])
    qtbot.waitUntil(lambda: window.indexer.running == 0 and bool(window.chat.banner_text.text()),
                    timeout=WAIT_MS)
    backend.queue(tool_call("office_report", title="销售汇总",
                            markdown="# 合计\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
                  answer("Written.", "好了。"), TITLE)
    window.chat.send("写一份 Word 报告")
    (reply,) = window.chat.findChildren(AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    card = next(iter(reply.cards.values()))
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    assert card.file_actions is not None
    assert english_on(card) == {}  # labels, arguments' names, the written file's result
    assert "销售汇总.docx" in card.result.text()
