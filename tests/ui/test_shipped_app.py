"""The shipped app on a real desktop (issue 25): quit at logout, menu roles, a --hidden start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import WAIT_MS

# A Desktop shut down and then cleaned up after must not disconnect twice (libpyside warns).
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

@pytest.fixture
def tray() -> bool:
    return True  # as the running app has one (the offscreen platform has none of its own)


@pytest.fixture
def desktop(app_desktop: Any) -> Any:
    """The running app's Desktop, with a tray."""
    return app_desktop


@pytest.mark.parametrize("application", ["hearth", "plain"])
def test_a_quit_from_the_system_closes_the_window_it_does_not_hide_it(application: str) -> None:
    """Dock > Quit, Cmd+Q from the app menu, logout and shutdown all reach Qt as a Quit that
    closes every window first: the window must close then, not hide into the tray (and say
    "Hearth is still running"), or the quit could be refused. Heard through the application
    `hearth` makes, or through an event filter on one it did not make."""
    probe = Path(__file__).with_name("quit_probe.py")
    extra = ["--plain-app"] if application == "plain" else []
    done = subprocess.run([sys.executable, str(probe), *extra], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"exit": 0, "hid_into_tray": False, "window_visible": False}


def test_the_close_button_still_hides_into_the_tray(desktop: Any, qtbot: Any) -> None:
    desktop.window.show()
    with qtbot.waitSignal(desktop.window.hidden_to_tray, timeout=WAIT_MS):
        desktop.window.close()
    assert desktop.window.keep_in_tray and not desktop.window.isVisible()


def _roles(window: MainWindow) -> dict[str, QAction.MenuRole]:
    return {a.text(): a.menuRole() for menu in window.menuBar().findChildren(type(
        window.menuBar().actions()[0].menu())) for a in menu.actions() if a.text()}


def test_quit_and_settings_keep_their_mac_menu_roles_in_chinese(ctx: Any, qtbot: Any) -> None:
    """macOS places Quit, Settings and About in the app menu by role; left to guess from the text,
    the Chinese "退出 Hearth" stayed in File and the app menu's Quit was not Hearth's."""
    from app.ui.i18n import Translations

    translations = Translations(QApplication.instance())
    translations.apply("zh_CN")
    try:
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        roles = _roles(window)
    finally:
        translations.apply("en")
    quit_text = next(t for t in roles if "退出" in t)
    assert roles[quit_text] == QAction.MenuRole.QuitRole
    assert roles[next(t for t in roles if "设置" in t)] == QAction.MenuRole.PreferencesRole
    assert roles[next(t for t in roles if "关于" in t)] == QAction.MenuRole.AboutRole
    placed = (QAction.MenuRole.QuitRole, QAction.MenuRole.PreferencesRole,
              QAction.MenuRole.AboutRole)
    others = {t: r for t, r in roles.items() if r not in placed}
    assert others and set(others.values()) == {QAction.MenuRole.NoRole}


def test_a_hidden_start_without_a_model_waits_for_the_window_to_offer_one(
        desktop: Any, qtbot: Any) -> None:
    """At login (`--hidden`) nothing pops up; the model manager comes with the window."""
    settings = desktop.hearth.settings
    settings.model_path, settings.remote_url = "", ""
    desktop.start(hidden=True)
    # The hotkey is set in the same startup step that offered the models, just before.
    qtbot.waitUntil(lambda: desktop.ctx.hotkey is not None, timeout=WAIT_MS)
    assert not [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    desktop.show_window()
    qtbot.waitUntil(lambda: "models" in desktop.window._dialogs
                    and desktop.window._dialogs["models"].isVisible(), timeout=WAIT_MS)
    desktop.shutdown()


def test_quitting_saves_a_rename_queued_behind_slow_work(desktop: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a starved machine the 5 s quitting gives background work can pass with a rename still
    queued behind slow reads: it is saved before the stores close (it failed on the closed
    history before), and the reopened history has it."""
    from app.core.history import HistoryStore

    history = desktop.hearth.history
    cid = history.create_conversation(title="Untitled").id
    ops, release = desktop.ctx.ops, threading.Event()
    for _ in range(4):  # every worker of the pool held by a slow read
        ops.run(lambda: release.wait(60), lambda _r: None)
    desktop.window.sidebar.rename(cid, "Trip to Lisbon")
    short = ops.wait

    def five_seconds_pass(msecs: int = 5000) -> bool:
        done = short(10)  # the rename is still queued when the wait gives up
        release.set()  # the reads end later on
        return done

    monkeypatch.setattr(ops, "wait", five_seconds_pass)
    desktop.shutdown()
    reopened = HistoryStore(history.path)
    try:
        conversation = reopened.get_conversation(cid)
        assert conversation is not None and conversation.title == "Trip to Lisbon"
    finally:
        reopened.close()


def test_the_single_instance_lock_lives_in_the_users_data_folder(qapp: Any, tmp_path: Any
                                                                  ) -> None:
    """Not in the shared temp folder, where another account could take the name first."""
    import tempfile
    from pathlib import Path

    from app.ui.shell.single_instance import SingleInstance, instance_key

    key = instance_key(str(tmp_path))
    first = SingleInstance(key, tmp_path / "data")
    assert first.acquire()
    try:
        assert (tmp_path / "data" / f"{key}.lock").is_file()
        assert not (Path(tempfile.gettempdir()) / f"{key}.lock").exists()
    finally:
        first.release()


def test_on_a_mac_the_dock_icon_brings_back_a_window_closed_to_the_tray(
        desktop: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Dock click (or opening the app again) reaches Qt as the app turning active."""
    from PySide6.QtCore import Qt

    app = QApplication.instance()
    monkeypatch.setattr("sys.platform", "darwin")
    desktop.window.show()
    desktop.window.close()  # into the tray
    assert not desktop.window.isVisible()
    app.applicationStateChanged.emit(Qt.ApplicationState.ApplicationActive)
    assert desktop.window.isVisible()
    desktop.window.close()
    desktop.quick.summon()  # quick ask is what the user asked for: the window stays away
    app.applicationStateChanged.emit(Qt.ApplicationState.ApplicationActive)
    assert not desktop.window.isVisible()
