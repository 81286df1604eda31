"""`hearth selftest`'s window check: build the real main window as the app does, show it, close it."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.desktop import Desktop
    from app.ui.shell.main_window import MainWindow

WINDOW_TIMEOUT_MS = 20000  # a cold frozen start on a busy CI runner can take seconds


def window_selftest(hearth: Any, timeout_ms: int = WINDOW_TIMEOUT_MS) -> None:
    """Open the main window offscreen, wait until it is shown, close it; raise on any failure.

    The window is built through Desktop, exactly as run_app builds it (icons, translations,
    theme, tray, quick ask), so a bundle missing a Qt plugin, a resource or a module fails
    here. Desktop.start is not called: it would register the hotkey and load the model."""
    # Offscreen unless the caller asks for a real platform (QT_QPA_PLATFORM=cocoa on a Mac).
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.desktop import Desktop

    app = QApplication.instance() or QApplication(["hearth"])
    assert isinstance(app, QApplication)
    app.setApplicationName("Hearth")
    app.setOrganizationName("Hearth")
    desktop = Desktop(app, hearth)  # raises when the stylesheet is missing
    desktop.build_after_first_frame()  # quick ask and the window icon, as start() has them built
    _check_resources(app)
    failures: list[str] = []
    desktop.ctx.ops.failed.connect(lambda title, message: failures.append(f"{title}: {message}"))
    try:
        _show_and_wait(desktop.window, timeout_ms, QEventLoop, QTimer)
    finally:
        _close(desktop)
    if failures:
        raise RuntimeError(f"the window reported a failure: {failures[0]}")


def _check_resources(app: QApplication) -> None:
    """What Qt would drop silently: an icon that does not render, a translation not found."""
    from PySide6.QtCore import QTranslator

    from app.ui.i18n import LANGUAGES, TRANSLATIONS

    if app.windowIcon().pixmap(32, 32).isNull():
        raise RuntimeError("the app icon did not load (resources/icons or Qt's SVG plugin)")
    for language in LANGUAGES:
        if language != "en" and not QTranslator().load(f"hearth_{language}", str(TRANSLATIONS)):
            raise RuntimeError(f"the {language} translation is missing from {TRANSLATIONS}")


def _show_and_wait(window: MainWindow, timeout_ms: int, loop_type: type[QEventLoop],
                   timer_type: type[QTimer]) -> None:
    """Show the window and run the event loop until its `shown` signal or the timeout."""
    shown: list[bool] = []
    loop = loop_type()

    def on_shown() -> None:
        shown.append(True)
        loop.quit()

    window.shown.connect(on_shown)
    timer_type.singleShot(timeout_ms, loop.quit)
    window.show()
    if not shown:  # `shown` is emitted from the event loop after the first show event
        loop.exec()
    handle = window.windowHandle()
    if not shown or not window.isVisible():
        raise RuntimeError(f"the main window was not shown within {timeout_ms} ms")
    if handle is None or not handle.isExposed():
        raise RuntimeError("the main window was shown but never exposed (no platform plugin?)")


def _close(desktop: Desktop) -> None:
    """Close the window for good (not to the tray) and let background work finish."""
    desktop.window.keep_in_tray = False
    desktop.window.close()
    desktop.quick.close()
    if desktop.tray is not None:
        desktop.tray.hide()
    if not desktop.ctx.ops.wait(5000):
        raise RuntimeError("background work did not finish after the window closed")
