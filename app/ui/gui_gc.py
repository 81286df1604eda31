"""Python's cyclic garbage collector runs on the GUI thread only, from a timer.

Automatic collection runs in whichever thread happens to allocate: a worker thread could then
destroy a Qt widget caught in a reference cycle, and Qt crashes the process when a widget is
destroyed outside the GUI thread (seen: a segmentation fault while a folder watcher started on
a pool thread). Anki does the same (automatic collection off, collected from the main loop)."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects, generation by generation as Python's own
    thresholds would, once a second on the thread that owns it (the GUI thread)."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._timer.start(INTERVAL_MS)

    def check(self) -> None:
        young, middle, old = gc.get_count()
        if young > self.thresholds[0]:
            gc.collect(0)
            if middle > self.thresholds[1]:
                gc.collect(1)
                if old > self.thresholds[2]:
                    gc.collect(2)
