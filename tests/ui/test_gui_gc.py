"""Cyclic garbage is collected on the GUI thread, from a timer, never by whichever worker thread
happens to allocate (a widget destroyed on a worker thread crashes the process)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from PySide6.QtCore import QObject

from app.ui.gui_gc import GuiThreadCollector


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_automatic_collection_is_off_and_the_timer_collects_cycles(qapp: Any) -> None:
    owner = QObject()
    collector = GuiThreadCollector(owner)
    assert not gc.isenabled()  # no collection can start on a worker thread
    freed: list[bool] = []
    cycle = _Cycle()
    weakref.finalize(cycle, freed.append, True)
    del cycle
    assert freed == []  # a cycle: only the collector frees it
    collector.thresholds = (0, 0, 0)  # as if allocation had passed every threshold
    collector.check()  # what the timer does, on the thread that owns it
    assert freed == [True]
    owner.deleteLater()
