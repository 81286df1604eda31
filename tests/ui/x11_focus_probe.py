"""Run under a real X server with a window manager: start Hearth's desktop as `hearth` does
(a model in the settings, earlier chats), wait until the window is active and the model loaded,
press Tab on the X server (XTest) and report where the keyboard focus went (one JSON line)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ["QT_QPA_PLATFORM"] = "xcb"
HOME = tempfile.TemporaryDirectory(prefix="hearth-x11-", ignore_cleanup_errors=True)  # gone at exit
os.environ["HEARTH_HOME"] = HOME.name
TABS = 4


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    app = QApplication([])
    from app.main import Hearth
    from app.ui.shell.desktop import Desktop

    hearth = Hearth()
    hearth.settings.model_path, hearth.settings.engine = sys.argv[1], "llama"
    for title in ("Earlier chat", "Trip plans"):
        cid = hearth.history.create_conversation(title).id
        hearth.history.add_message(cid, "user", "hello")
        hearth.history.add_message(cid, "assistant", "hi there")
    desktop = Desktop(app, hearth)
    window = desktop.window
    loaded: list[bool] = []
    window.model_loaded.connect(lambda *_a: loaded.append(True))
    desktop.start()
    deadline = time.monotonic() + 60  # a hang guard: on a quiet machine it takes a moment
    seen: dict[str, list[str]] = {"focus": []}
    s, c = window.sidebar, window.chat.composer
    names = {s.new_button: "new", s.search: "search", s.list: "list", c.input: "composer",
             c.attach: "attach", c.think: "think", c.send_button: "send"}

    def name(widget: QWidget | None) -> str:
        return names.get(widget, type(widget).__name__) if widget is not None else "none"

    def ready() -> None:
        if not (window.isActiveWindow() and loaded) and time.monotonic() < deadline:
            QTimer.singleShot(100, ready)
            return
        seen["focus"].append(name(QApplication.focusWidget()))
        tab(TABS)

    def tab(left: int) -> None:
        if not left:
            print(json.dumps(seen), flush=True)
            window.keep_in_tray = False
            app.quit()
            return
        press_tab()
        QTimer.singleShot(300, lambda: (seen["focus"].append(name(QApplication.focusWidget())),
                                        tab(left - 1)))

    QTimer.singleShot(100, ready)
    app.exec()
    desktop.shutdown()


def press_tab() -> None:
    """A real key press, through the X server and the window manager, as a keyboard gives."""
    from Xlib import XK, X, display
    from Xlib.ext import xtest

    dpy = display.Display()
    code = dpy.keysym_to_keycode(XK.string_to_keysym("Tab"))
    xtest.fake_input(dpy, X.KeyPress, code)
    xtest.fake_input(dpy, X.KeyRelease, code)
    dpy.sync()
    dpy.close()


if __name__ == "__main__":
    main()
