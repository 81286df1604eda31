"""The defects a new user met on day one (issue 16), each pinned by what the user saw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.ui.scripts import WAIT_MS


def test_file_search_folders_from_settings_are_scanned_without_an_error(ctx, qtbot,
                                                                        tmp_path) -> None:
    """Defect 1: Settings > Folders > File search folders > Add > Save said "'list' object is
    not callable" and file search stayed at "0 files, last scan: never"."""
    from app.ui.shell.services import Services

    folder = tmp_path / "Projects"
    folder.mkdir()
    (folder / "plan.txt").write_text("the plan")
    failures: list[tuple[str, str]] = []
    ctx.ops.failed.connect(lambda title, message: failures.append((title, message)))
    services = Services(ctx)
    ctx.hearth.settings.file_roots = [str(folder)]
    services.settings_changed({"file_roots"})
    files = ctx.hearth.files
    qtbot.waitUntil(lambda: files.status().files == 1 or bool(failures), timeout=WAIT_MS)
    assert failures == []
    assert [Path(r).name for r in files.roots] == ["Projects"]
    assert ctx.ops.wait(WAIT_MS)
    services.stop()


def test_patterns_left_out_in_settings_apply_without_a_restart(ctx, qtbot, tmp_path) -> None:
    """Settings > Folders: a pattern typed under the file search folders drops matching files
    from search at once, and clearing it brings them back, while Hearth runs."""
    from app.ui.settings.dialog import SettingsDialog
    from app.ui.shell.services import Services

    folder = tmp_path / "Projects"
    folder.mkdir()
    (folder / "plan.txt").write_text("the plan")
    (folder / "build.log").write_text("noise")
    ctx.hearth.settings.file_roots = [str(folder)]
    services = Services(ctx)
    services.start()
    files = ctx.hearth.files

    def found() -> set[str]:
        return {hit.name for hit in files.search(limit=10)}

    def save(patterns: str) -> None:
        dialog = SettingsDialog(ctx)
        qtbot.addWidget(dialog)
        dialog.saved.connect(services.settings_changed)
        dialog.ignore.setText(patterns)
        dialog.save()

    qtbot.waitUntil(lambda: found() == {"plan.txt", "build.log"}, timeout=WAIT_MS)
    save("*.log, drafts/")
    qtbot.waitUntil(lambda: found() == {"plan.txt"}, timeout=WAIT_MS)
    assert ctx.hearth.settings.file_ignore_patterns == ["*.log", "drafts/"]
    save("")
    qtbot.waitUntil(lambda: found() == {"plan.txt", "build.log"}, timeout=WAIT_MS)
    assert ctx.ops.wait(WAIT_MS)
    services.stop()


def _luminance(c: Any) -> float:
    def channel(v: int) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())


def _visible_fraction(icon: Any, background: str) -> float:
    """How much of a 22 px tray icon stands out (WCAG contrast >= 3:1) from this panel."""
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(22, 22, QImage.Format.Format_ARGB32)
    image.fill(QColor(background))
    painter = QPainter(image)
    icon.paint(painter, 0, 0, 22, 22)
    painter.end()
    panel = _luminance(QColor(background))
    standing_out = 0
    for y in range(22):
        for x in range(22):
            pixel = _luminance(image.pixelColor(x, y))
            low, high = sorted((pixel, panel))
            standing_out += (high + 0.05) / (low + 0.05) >= 3
    return standing_out / (22 * 22)


def test_the_tray_icon_is_visible_on_dark_and_light_panels(qapp) -> None:
    """Defect 2: the icon was drawn solid black, a black square on a dark panel (only macOS
    recolours mask icons)."""
    from app.ui.icons import tray_icon

    for panel in ("#000000", "#202020", "#3c3c3c", "#808080", "#3465a4", "#e8e8e8", "#ffffff"):
        assert _visible_fraction(tray_icon("linux"), panel) > 0.15, panel
        assert _visible_fraction(tray_icon("win32"), panel) > 0.15, panel
    assert tray_icon("darwin").isMask()  # the menu bar recolours it


def test_closing_into_the_tray_says_so_once(ctx, qtbot, monkeypatch) -> None:
    """Defect 2: closing the window hid the app with no hint that it still runs."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.desktop import Desktop
    from app.ui.shell.notifications import Notifier

    said: list[tuple[str, str]] = []
    monkeypatch.setattr("app.ui.shell.desktop.tray_available", lambda: True)
    monkeypatch.setattr(Notifier, "notify",
                        lambda self, title, text, key="", remember=True: said.append(
                            (title, text)))
    desktop = Desktop(QApplication.instance(), ctx.hearth)
    qtbot.addWidget(desktop.window)
    qtbot.addWidget(desktop.quick)
    for _ in range(3):
        desktop.window.show()
        desktop.window.close()
    assert not desktop.window.isVisible()
    assert [title for title, _ in said] == ["Hearth is still running"]
    assert desktop.ctx.ops.wait(WAIT_MS)
    from app.core.settings import load_settings

    assert load_settings(ctx.hearth.paths.settings_file).tray_notice_shown  # not after restart
    desktop.tray.hide()
    desktop.detach()
    desktop.theme.setParent(None)
    desktop.setParent(None)
    QApplication.instance().setStyleSheet("")
    QApplication.instance().setPalette(QPalette())


def test_a_quick_ask_chat_shows_in_the_sidebar(ctx, qtbot, backend) -> None:
    """Defect 9: quick-ask chats were missing from the sidebar."""
    from PySide6.QtCore import Qt

    from app.ui.shell.main_window import MainWindow
    from app.ui.shell.quick_ask import QuickAsk
    from tests.ui.scripts import answer

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    quick = QuickAsk(ctx)
    qtbot.addWidget(quick)
    backend.queue(answer("Easy.", "It is 4."), "Sums")
    quick.summon()
    qtbot.keyClicks(quick.input, "What is 2 + 2?")
    qtbot.keyClick(quick.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: ctx.hearth.history.get_conversation(quick.conversation_id).title
                    == "Sums", timeout=WAIT_MS)
    quick.dismiss()
    window.activateWindow()  # the person comes back to the window
    qtbot.waitUntil(lambda: "Sums" in [window.sidebar.list.item(i).text()
                                       for i in range(window.sidebar.list.count())],
                    timeout=WAIT_MS)


def test_untitled_chats_have_one_name_and_empty_ones_are_not_kept(ctx, qtbot) -> None:
    """Defect 9: empty chats stayed in the list; untitled ones were named three ways."""
    from app.ui.shell.sidebar import Sidebar

    history = ctx.hearth.history
    used = history.create_conversation()
    history.add_message(used.id, "user", "the boiler")
    empty = history.create_conversation()
    sidebar = Sidebar(ctx)
    qtbot.addWidget(sidebar)
    sidebar.reload()
    qtbot.waitUntil(lambda: sidebar.list.count() == 1, timeout=WAIT_MS)
    assert sidebar.list.item(0).text() == "New chat"
    sidebar.search.setText("boiler")
    qtbot.waitUntil(lambda: sidebar.results.count() == 1, timeout=WAIT_MS)
    assert sidebar.results.item(0).text().startswith("New chat: ")
    assert history.export_markdown(used.id).startswith("# New chat")
    forgotten = ctx.hearth.conversations.forget_empty(keep=None)
    assert [f.conversation_id for f in forgotten] == [empty.id]
    assert history.get_conversation(empty.id) is None
    assert history.get_conversation(used.id) is not None


def test_figures_belong_to_their_chat_and_stopped_answers_have_no_speed(ctx, qtbot) -> None:
    """Defect 11: the status bar kept the previous chat's context and speed; Esc on an
    approval showed "Failed" and "78521.7 tok/s"; "1 tokens"."""
    from types import SimpleNamespace

    from app.core.events import TurnDone
    from app.ui.chat.live_answer import LiveAnswer
    from app.ui.chat.tool_card import ToolCard
    from app.ui.shell.main_window import MainWindow

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window._context_length = 8192
    window._turn_finished({"tps": 21.5, "tokens": 40.0, "prompt_tokens": 900.0,
                           "finish_reason": "stop"})
    assert window.speed_label.text() == "21.5 tok/s"
    assert window.context_label.text() == "Context 940 / 8,192"
    window.new_chat()
    assert window.speed_label.text() == "" and window.context_label.text() == ""
    window._turn_finished({"tps": 78521.7, "tokens": 1.0, "prompt_tokens": 900.0,
                           "finish_reason": "cancelled"})
    assert window.speed_label.text() == ""

    live = LiveAnswer(None, None, thinking=False)
    live.first_token = live.started_at
    text, figures = live._figures(TurnDone("c", "m", "stop", usage={"completion_tokens": 1}))
    assert text == "1 token" and figures["tps"] == 0.0

    card = ToolCard("c1", "delete_event", {"uid": "x"})
    qtbot.addWidget(card)
    card.ask(SimpleNamespace(description="Delete the dentist", approve=lambda: None,
                             deny=lambda: None, arguments={}))
    card.finish(False, "The person declined.", None)  # Esc ended the turn before a decision
    assert "Failed" not in card.status.text()
    assert card.status.text() == "○ Stopped before you decided"


def test_an_indexing_banner_stays_with_its_chat(ctx, qtbot, tmp_path) -> None:
    """Defect 11: "0 files ready" banners lingered into other chats."""
    from app.ui.shell.main_window import MainWindow

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 not really")
    window.indexer.index([str(broken)])
    qtbot.waitUntil(lambda: window.indexer.running == 0 and "read" in
                    window.chat.banner_text.text(), timeout=WAIT_MS)
    text = window.chat.banner_text.text()
    assert not text.startswith("0 files") and text.startswith("Nothing could be read")
    window.new_chat()
    assert not window.chat.banner.isVisible()


def _darkest(window: Any, widget: Any) -> int:
    """The darkest pixel where `widget` shows inside `window`, as the screen shows it."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor

    image = window.grab().toImage()
    origin = widget.mapTo(window, QPoint(0, 0))
    return min(QColor(image.pixel(origin.x() + x, origin.y() + y)).lightness()
               for x in range(0, widget.width(), 2) for y in range(0, widget.height(), 3))


def test_the_sidebar_scroll_bar_has_no_black_groove(ctx, qtbot) -> None:
    """Defect 13: a black scrollbar groove in the sidebar."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.sidebar import Sidebar
    from app.ui.theme import ThemeManager

    history = ctx.hearth.history
    for i in range(60):
        conv = history.create_conversation(f"Chat {i}")
        history.add_message(conv.id, "user", "hello")
    try:
        for dark in (False, True):
            ThemeManager(QApplication.instance(), "dark" if dark else "light").apply()
            sidebar = Sidebar(ctx)
            qtbot.addWidget(sidebar)
            sidebar.resize(260, 400)
            sidebar.show()
            sidebar.reload()
            qtbot.waitUntil(lambda s=sidebar: s.list.count() == 60, timeout=WAIT_MS)
            bar = sidebar.list.verticalScrollBar()
            qtbot.waitUntil(bar.isVisible, timeout=WAIT_MS)
            # The darkest pixel of the bar is the handle (@mid), never black.
            assert _darkest(sidebar, bar) > (40 if dark else 150)
    finally:
        QApplication.instance().setStyleSheet("")
        QApplication.instance().setPalette(QPalette())


def test_drops_are_taken_as_a_copy_and_delete_asks_naming_the_chat(ctx, qtbot,
                                                                   tmp_path) -> None:
    """Defect 13: drops accepted as a move (a file manager may delete the original); the
    delete confirmation defaulted to Yes without naming the chat; export said "chat.md"."""
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.ui.chat.composer import Composer
    from app.ui.file_actions import file_name_for
    from app.ui.shell.sidebar import Sidebar

    composer = Composer()
    qtbot.addWidget(composer)
    note = tmp_path / "note.txt"
    note.write_text("x")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(note))])
    offered = Qt.DropAction.MoveAction | Qt.DropAction.CopyAction
    enter = QDragEnterEvent(QPointF(5, 5), offered, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    enter.setDropAction(Qt.DropAction.MoveAction)  # what a file manager proposes
    QApplication.sendEvent(composer, enter)
    assert enter.isAccepted() and enter.dropAction() == Qt.DropAction.CopyAction
    drop = QDropEvent(QPointF(5, 5), offered, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    drop.setDropAction(Qt.DropAction.MoveAction)
    QApplication.sendEvent(composer, drop)
    assert drop.dropAction() == Qt.DropAction.CopyAction
    composer.set_attachments([str(note)])
    assert "📎" not in composer.files_label.text() and "attachment.svg" in (
        composer.files_label.text())

    conv = ctx.hearth.history.create_conversation("Boiler quotes")
    ctx.hearth.history.add_message(conv.id, "user", "hi")
    sidebar = Sidebar(ctx)
    qtbot.addWidget(sidebar)
    sidebar.reload()
    qtbot.waitUntil(lambda: sidebar.list.count() == 1, timeout=WAIT_MS)
    box = sidebar.delete(conv.id)
    assert box is not None and "Boiler quotes" in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert ctx.hearth.history.get_conversation(conv.id) is not None  # Cancel keeps it
    assert file_name_for("Boiler quotes: 2/3?", ".md") == "Boiler quotes 2 3.md"


def test_the_gui_never_tells_people_to_pass_command_line_options(ctx, qtbot) -> None:
    """Defect 11: "...or pass --model" in the GUI (the engine's words are for the CLI)."""
    from app.ui.shell.main_window import MainWindow
    from backends.errors import ModelNotFound
    from backends.select import model_format

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    try:
        model_format("")
    except ModelNotFound as exc:
        assert "--model" in str(exc)  # what the CLI prints
        window._model_failed(exc)
    text = window.chat.banner_text.text()
    assert text and "--model" not in text and "pass" not in text
