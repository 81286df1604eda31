"""Desktop integration: one instance, --toggle, hotkeys, language, keyboard access, startup."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale, QTranslator
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractButton, QApplication

from app.ui.i18n import TRANSLATIONS, resolve_language
from app.ui.shell.hotkey import create_hotkey, default_hotkey, parse_chord
from app.ui.shell.hotkey.keys import mac_keycode, windows_vk, x11_keysym_name
from app.ui.shell.main_window import MainWindow
from app.ui.shell.single_instance import SingleInstance, instance_key
from tests.ui.scripts import WAIT_MS

ROOT = Path(__file__).resolve().parents[2]


def test_a_second_launch_hands_its_toggle_to_the_first(qapp, qtbot, tmp_path) -> None:
    key = instance_key(str(tmp_path))
    first = SingleInstance(key, tmp_path)
    assert first.acquire()
    second = SingleInstance(key, tmp_path)
    try:
        assert not second.acquire()  # the first one holds the lock
        with qtbot.waitSignal(first.message, timeout=WAIT_MS) as got:
            assert second.send(["--toggle"])
        assert got.args == [["--toggle"]]
    finally:
        first.release()
    third = SingleInstance(key, tmp_path)
    assert third.acquire()  # released: a new first instance can start
    third.release()


SECOND_LAUNCH = """
import sys
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from app.ui.shell.single_instance import SingleInstance

app = QCoreApplication([])
second = SingleInstance(sys.argv[1], Path(sys.argv[2]))
assert not second.claim()
tries = second._try_connect

def try_connect(socket):
    connected = tries(socket)
    if not connected:
        print("MISSED", flush=True)  # the first one is not listening yet
    return connected

second._try_connect = try_connect
print("SENT" if second.send(["--toggle"], patience_s=120) else "GAVE UP", flush=True)
"""


def test_a_launch_before_the_first_one_listens_is_heard_once_it_does(qapp, qtbot,
                                                                    tmp_path) -> None:
    """`hearth` takes the lock before its window and listens after the first frame: a second
    launch in between must not be lost (it keeps trying to connect)."""
    key = instance_key(str(tmp_path))
    first = SingleInstance(key, tmp_path)
    assert first.claim()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    second = subprocess.Popen([sys.executable, "-c", SECOND_LAUNCH, key, str(tmp_path)],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert second.stdout is not None
        assert second.stdout.readline().strip() == "MISSED"  # it tried before we listened
        with qtbot.waitSignal(first.message, timeout=WAIT_MS) as got:
            assert first.listen()
        assert got.args == [["--toggle"]]
        out, _ = second.communicate(timeout=120)  # a hang guard only
        assert out.split()[-1] == "SENT"
    finally:
        second.kill()
        first.release()


def test_toggle_message_flips_quick_ask(app_desktop) -> None:
    desktop = app_desktop
    assert QApplication.instance().quitOnLastWindowClosed()  # no tray: closing quits
    desktop.handle_message(["--toggle"])
    assert desktop.quick.isVisible()
    desktop.handle_message(["--toggle"])
    assert not desktop.quick.isVisible()
    desktop.handle_message(["--show"])
    assert desktop.window.isVisible()


def test_with_a_tray_closing_the_window_keeps_hearth_running(ctx, qtbot) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.keep_in_tray = True
    window.show()
    window.close()
    assert not window.isVisible()
    assert window.keep_in_tray  # hidden, not quit: the tray's Quit ends the app


def test_hotkey_parsing_and_native_key_codes() -> None:
    chord = parse_chord("Ctrl+Alt+Space")
    assert chord is not None and chord.ctrl and chord.alt and not chord.shift
    assert parse_chord("") is None
    assert (windows_vk(chord.key), mac_keycode(chord.key), x11_keysym_name(chord.key)) == (
        0x20, 49, "space")
    k = parse_chord("Ctrl+Shift+K")
    assert k is not None and (windows_vk(k.key), mac_keycode(k.key), x11_keysym_name(k.key)) == (
        ord("K"), 40, "k")
    f5 = parse_chord("Alt+F5")
    assert f5 is not None and (windows_vk(f5.key), x11_keysym_name(f5.key)) == (0x74, "F5")
    assert default_hotkey() == ("Alt+Space" if sys.platform == "darwin" else "Ctrl+Alt+Space")


def test_an_impossible_hotkey_says_what_to_do_instead(qapp) -> None:
    hotkey = create_hotkey()
    if QApplication.platformName() == "offscreen":
        status = hotkey.register("Ctrl+Alt+Space")
        assert not status.ok and "hearth --toggle" in status.message
    assert not hotkey.register("Space").ok  # no modifier: would swallow ordinary typing
    assert "not a key combination" in hotkey.register("Ctrl+Alt+").message


def test_simplified_chinese_follows_the_system_and_translates(qapp) -> None:
    assert resolve_language("system", QLocale(QLocale.Language.Chinese, QLocale.Country.China)) \
        == "zh_CN"
    assert resolve_language("system", QLocale(QLocale.Language.German)) == "en"
    assert resolve_language("en", QLocale(QLocale.Language.Chinese)) == "en"
    translator = QTranslator()
    assert translator.load("hearth_zh_CN", str(TRANSLATIONS))
    QApplication.installTranslator(translator)
    try:
        window_title = QApplication.translate("Sidebar", "New chat")
        assert window_title == "新对话"
        assert QApplication.translate("Composer", "Send") == "发送"
    finally:
        QApplication.removeTranslator(translator)


def test_every_button_has_a_name_and_takes_keyboard_focus(ctx, qtbot) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    buttons = [b for b in window.findChildren(QAbstractButton) if b.isVisibleTo(window)]
    assert len(buttons) > 8
    for button in buttons:
        assert button.text() or button.accessibleName(), button.objectName()
        assert button.focusPolicy() & 0x1, button.text()  # reachable with Tab
    assert window.chat.composer.input.accessibleName() == "Message"
    assert window.chat.composer.input.tabChangesFocus()  # Tab must not be trapped


def test_text_follows_the_system_font_size(ctx, qtbot) -> None:
    app = QApplication.instance()
    normal = app.font()
    try:
        bigger = type(normal)(normal)
        bigger.setPointSizeF(normal.pointSizeF() * 1.5)
        app.setFont(bigger)
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        assert window.chat.composer.input.font().pointSizeF() == pytest.approx(
            bigger.pointSizeF())
        assert window.sidebar.new_button.font().pointSizeF() == pytest.approx(
            bigger.pointSizeF())
    finally:
        app.setFont(normal)


def test_hearth_opens_its_window_from_the_command_line(tmp_path) -> None:
    """`hearth` with no subcommand shows the window (the probe quits once it is exposed)."""
    env = {**os.environ, "HEARTH_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen",
           "HEARTH_STARTUP_PROBE": "1"}
    done = subprocess.run([sys.executable, "-m", "app.main"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "HEARTH_WINDOW_SHOWN" in done.stdout
    assert "Traceback" not in done.stderr


def test_library_and_calendar_pages_show_their_content(ctx, qtbot, tmp_path) -> None:
    from datetime import date

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    ics = tmp_path / "cal.ics"
    today = date.today().strftime("%Y%m%d")
    ics.write_text("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\n"
                   f"UID:one@test\r\nDTSTAMP:{today}T080000Z\r\nDTSTART:{today}T100000Z\r\n"
                   f"DTEND:{today}T110000Z\r\nSUMMARY:Standup\r\nEND:VEVENT\r\n"
                   "END:VCALENDAR\r\n")
    window.show_page("calendar")
    calendar: Any = window.pages.currentWidget()
    calendar.import_file(str(ics))
    qtbot.waitUntil(lambda: "Standup" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
    out = tmp_path / "out.ics"
    calendar.export_file(str(out))
    qtbot.waitUntil(lambda: out.exists() and "Standup" in out.read_text(), timeout=WAIT_MS)
    window.show_page("library")
    library: Any = window.pages.currentWidget()
    qtbot.waitUntil(lambda: "documents" in library.status.text(), timeout=WAIT_MS)


def test_watched_folders_are_indexed_in_the_background_and_reminders_run(ctx, qtbot,
                                                                         tmp_path) -> None:
    from app.ui.shell.services import Services

    folder = tmp_path / "Notes"
    folder.mkdir()
    (folder / "a.txt").write_text("The boiler service is due in May.")
    ctx.hearth.settings.watched_folders = [str(folder)]
    services = Services(ctx)
    services.start()
    documents = ctx.hearth.documents
    qtbot.waitUntil(lambda: [Path(d.path).name for d in documents.documents()] == ["a.txt"],
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: services._reminders is not None, timeout=WAIT_MS)
    ctx.hearth.settings.watched_folders = []
    services.settings_changed({"watched_folders"})
    qtbot.waitUntil(lambda: documents.watched == [], timeout=WAIT_MS)
    assert ctx.ops.wait(WAIT_MS)
    services.stop()  # the fixture then checks that no watcher or reminder thread is left


def test_quitting_mid_answer_stops_it_and_keeps_what_was_written(ctx, qtbot, backend,
                                                                 monkeypatch) -> None:
    from app.ui.shell.desktop import Desktop
    from tests.ui.scripts import LONG_ANSWER, answer

    slow = type(backend)([answer("r", LONG_ANSWER)], delay=0.002)
    ctx.hearth.runner.load(slow).result(10)
    monkeypatch.setattr("app.ui.shell.desktop.tray_available", lambda: False)
    desktop = Desktop(QApplication.instance(), ctx.hearth)
    qtbot.addWidget(desktop.window)
    qtbot.addWidget(desktop.quick)
    desktop.window.chat.send("Write a lot")
    qtbot.waitUntil(lambda: desktop.window.chat.turn is not None
                    and desktop.window.chat.turn.handle is not None
                    and bool(desktop.window.chat.turn.message.answer), timeout=WAIT_MS)
    cid = desktop.window.chat.turn.handle.conversation_id
    handle = desktop.window.chat.turn.handle
    desktop._stop_answers()
    assert handle.done  # the turn thread ended before the window could go away
    qtbot.waitUntil(lambda: desktop.window.chat.turn is None, timeout=WAIT_MS)
    stored = ctx.hearth.history.messages(cid)
    assert stored[-1].role == "assistant" and stored[-1].status == "cancelled"
    assert 0 < len(stored[-1].content) < len(LONG_ANSWER)
    desktop.ctx.ops.wait(WAIT_MS)
    desktop.detach()
    desktop.theme.setParent(None)
    desktop.setParent(None)
    QApplication.instance().setStyleSheet("")
    QApplication.instance().setPalette(QPalette())


def test_a_mistyped_command_is_an_error_not_a_silent_window(capsys) -> None:
    from app.ui.shell.application import run_app

    def no_hearth() -> None:
        raise AssertionError("the app must not start")

    assert run_app(["histroy"], no_hearth) == 2
    assert "unknown command or option 'histroy'" in capsys.readouterr().err
    assert run_app(["--bogus"], no_hearth) == 2


def test_a_launch_without_options_reads_as_the_parser_would() -> None:
    """`hearth` alone skips building the parser (before the window): the options it then
    has are the parser's own defaults."""
    from app.ui.shell.application import _parse, parse_args

    assert vars(parse_args([])) == vars(_parse([]))
    assert parse_args(["--hidden"]).hidden and not parse_args(["--hidden"]).toggle


def test_the_instance_key_is_hashlibs_sha256_of_user_and_folder(tmp_path) -> None:
    """The key names the lock file and the socket that later launches reach: it must stay
    what every earlier Hearth computed (hashlib's SHA-256), whichever module computes it."""
    import getpass
    import hashlib

    expected = hashlib.sha256(f"{getpass.getuser()}:{tmp_path}".encode()).hexdigest()[:16]
    assert instance_key(str(tmp_path)) == f"hearth-{expected}"
