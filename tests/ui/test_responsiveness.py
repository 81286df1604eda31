"""The GUI thread never stalls: an answer streams at full speed while a folder indexes."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QElapsedTimer, QTimer

from app.ui.chat.message import AssistantMessage
from app.ui.main_window import MainWindow
from tests.ui.scripts import LONG_ANSWER, TITLE, WAIT_MS, answer

MAX_STALL_MS = 50
TICK_MS = 5


class StallMeter:
    """A fast timer: the largest gap between ticks is the longest the event loop was busy."""

    def __init__(self) -> None:
        self.clock = QElapsedTimer()
        self.gaps: list[int] = []
        self.timer = QTimer()
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.clock.start()
        self.timer.start()

    def _tick(self) -> None:
        self.gaps.append(self.clock.restart())

    def stop(self) -> int:
        self.timer.stop()
        return max(self.gaps[1:], default=0)


def test_no_stall_while_streaming_and_indexing(ctx, backend, qtbot, tmp_path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    for i in range(40):
        (folder / f"paper-{i}.md").write_text(f"# Paper {i}\n\n" + "Some findings. " * 400)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(1100, 800)
    window.show()
    qtbot.waitExposed(window)
    backend.queue(answer("Long reasoning. " * 50, LONG_ANSWER), TITLE)
    meter = StallMeter()
    meter.start()
    started = time.perf_counter()
    window.indexer.index([str(folder)])
    window.chat.send("Write a long report")
    qtbot.waitUntil(lambda: not window.chat.streaming and window.indexer.running == 0,
                    timeout=WAIT_MS * 4)
    worst = meter.stop()
    elapsed = time.perf_counter() - started
    (reply,) = window.chat.findChildren(AssistantMessage)
    assert reply.answer.strip() == LONG_ANSWER.strip()  # everything arrived
    names = {Path(d.path).name for d in ctx.hearth.documents.documents(
        scope=window.chat.conversation_id)}
    assert len(names) == 40
    assert len(meter.gaps) > 10, f"too few ticks in {elapsed:.1f} s"
    assert worst <= MAX_STALL_MS, f"the event loop stalled for {worst} ms"
