"""Run under a real X server: register the hotkey, press it with XTest, report what happened.

    python x11_hotkey_probe.py grab|press   (prints one JSON line)"""

from __future__ import annotations

import ctypes
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ["QT_QPA_PLATFORM"] = "xcb"


def press(keys: list[str]) -> None:
    """Fake the key presses the way a user's keyboard would (XTest), on our own connection."""
    x11 = ctypes.CDLL("libX11.so.6")
    xtst = ctypes.CDLL("libXtst.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XStringToKeysym.restype = ctypes.c_ulong
    x11.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x11.XFlush.argtypes = [ctypes.c_void_p]
    xtst.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
                                       ctypes.c_ulong]
    display = x11.XOpenDisplay(None)
    codes = [x11.XKeysymToKeycode(display, x11.XStringToKeysym(k.encode())) for k in keys]
    for code in codes:
        xtst.XTestFakeKeyEvent(display, code, 1, 0)
    for code in reversed(codes):
        xtst.XTestFakeKeyEvent(display, code, 0, 0)
    x11.XFlush(display)


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from app.ui.shell.hotkey import create_hotkey

    hotkey = create_hotkey()
    status = hotkey.register("Ctrl+Alt+Space")
    fired: list[bool] = []
    hotkey.activated.connect(lambda: (fired.append(True), app.quit()))
    if sys.argv[1] == "press" and status.ok:
        QTimer.singleShot(100, lambda: press(["Control_L", "Alt_L", "space"]))
        QTimer.singleShot(3000, app.quit)
        app.exec()
    elif sys.argv[1] == "grab":
        QTimer.singleShot(int(sys.argv[2]) if len(sys.argv) > 2 else 0, app.quit)
        print(json.dumps({"kind": type(hotkey).__name__, "ok": status.ok}), flush=True)
        app.exec()
    hotkey.unregister()
    print(json.dumps({"kind": type(hotkey).__name__, "ok": status.ok,
                      "message": status.message, "fired": bool(fired)}))


if __name__ == "__main__":
    main()
