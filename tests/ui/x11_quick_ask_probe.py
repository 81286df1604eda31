"""Run under a real X server with a window manager: show quick ask in Hearth's light or dark
look (argv[1]), then report how the X server and the window manager see it (one JSON line)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
os.environ["QT_QPA_PLATFORM"] = "xcb"
HOME = tempfile.TemporaryDirectory(prefix="hearth-x11-", ignore_cleanup_errors=True)  # gone at exit
os.environ["HEARTH_HOME"] = HOME.name


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from app.main import Hearth
    from app.ui.context import UiContext
    from app.ui.ops import Ops
    from app.ui.shell.quick_ask import QuickAsk
    from app.ui.shell.x11_window import composited
    from app.ui.theme import ThemeManager

    ThemeManager(app, sys.argv[1] if len(sys.argv) > 1 else "light").apply()
    hearth = Hearth()
    quick = QuickAsk(UiContext(hearth, Ops()))
    quick.summon()

    deadline = time.monotonic() + 40  # a hang guard: on a quiet machine it takes a moment

    def state() -> str:
        import subprocess

        return subprocess.run(["xprop", "-id", str(int(quick.winId())), "_NET_WM_STATE"],
                              capture_output=True, text=True).stdout

    def report() -> None:
        # The window manager applies the request when it gets to it (later on a busy machine):
        # look again until it has, instead of after a fixed time.
        seen = state()
        corners = corner_lightness(quick)
        if ("_NET_WM_STATE_SKIP_TASKBAR" not in seen or corners is None) \
                and time.monotonic() < deadline:
            QTimer.singleShot(100, report)
            return
        window, border = (quick.palette().window().color(), quick.palette().mid().color())
        print(json.dumps({"state": seen, "composited": composited(),
                          "masked": not quick.mask().isEmpty(),
                          "mask_corner_open": not quick.mask().contains(quick.rect().topLeft()),
                          "corner_darkest": corners, "window": window.lightness(),
                          "border": border.lightness()}), flush=True)
        app.quit()

    QTimer.singleShot(100, report)
    app.exec()
    hearth.close()


def corner_lightness(quick: Any) -> int | None:
    """The darkest pixel the X server shows in the four rounded corners of the box, inside its
    mask (0-255); None until the box is on screen (its inside has the window colour)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor, QGuiApplication

    frame = quick.frame.geometry()
    origin = quick.mapToGlobal(QPoint(0, 0))
    shot = QGuiApplication.primaryScreen().grabWindow(
        0, origin.x(), origin.y(), quick.width(), quick.height()).toImage()
    inside = QColor(shot.pixel(frame.left() + 24, frame.bottom() - 4))
    if inside != quick.palette().window().color():
        return None
    mask, size = quick.mask(), 16
    points = [QPoint(x, y) for left in (frame.left(), frame.right() - size + 1)
              for top in (frame.top(), frame.bottom() - size + 1)
              for x in range(left, left + size) for y in range(top, top + size)]
    return min(QColor(shot.pixel(p)).lightness() for p in points if mask.contains(p))


if __name__ == "__main__":
    main()
