"""Run under a real X server with a window manager: show quick ask, then report how the X
server and the window manager see it (one JSON line)."""

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


def main() -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from app.main import Hearth
    from app.ui.context import UiContext
    from app.ui.ops import Ops
    from app.ui.shell.quick_ask import QuickAsk
    from app.ui.shell.x11_window import composited

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
        if "_NET_WM_STATE_SKIP_TASKBAR" not in seen and time.monotonic() < deadline:
            QTimer.singleShot(100, report)
            return
        print(json.dumps({"state": seen, "composited": composited(),
                          "masked": not quick.mask().isEmpty(),
                          "mask_corner_open": not quick.mask().contains(quick.rect().topLeft()),
                          }), flush=True)
        app.quit()

    QTimer.singleShot(100, report)
    app.exec()
    hearth.close()


if __name__ == "__main__":
    main()
