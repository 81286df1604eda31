"""Start Hearth's desktop with a tray, show the window, then quit the way the system does (the
Dock's Quit, Cmd+Q, logout, shutdown all reach Qt as QCoreApplication.quit); report one JSON
line (`--plain-app`: on a plain QApplication, as tests and selftest give it). A process of
its own: a quit leaves Qt's event loops unusable for later tests."""

from __future__ import annotations

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HOME = tempfile.TemporaryDirectory(prefix="hearth-quit-", ignore_cleanup_errors=True)  # gone at exit
os.environ["HEARTH_HOME"] = HOME.name


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    if "--plain-app" in sys.argv:  # an application Hearth did not make: an event filter hears
        app = QApplication([])
    else:  # the one `hearth` makes, which says when a Quit reaches it
        from app.ui.shell.application import hearth_application

        app = hearth_application([sys.argv[0]])
    import app.ui.shell.desktop as desktop_module
    from app.main import Hearth

    desktop_module.tray_available = lambda: True  # offscreen has no tray of its own
    desktop = desktop_module.Desktop(app, Hearth())
    hidden: list[bool] = []
    desktop.window.hidden_to_tray.connect(lambda: hidden.append(True))
    desktop.window.show()
    QTimer.singleShot(50, app.quit)
    QTimer.singleShot(30_000, lambda: app.exit(7))  # hang guard: the quit was refused
    code = app.exec()
    report = {"exit": code, "hid_into_tray": bool(hidden),
              "window_visible": desktop.window.isVisible()}
    desktop.shutdown()
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
