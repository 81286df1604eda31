"""Calendar and Files views under load: time to show a month / a result page, and how long the
GUI thread stalls per keystroke. Offscreen, on the real views, stores and background ops.

    .venv/bin/python bench/bench_views.py [--events 5000] [--files 100000]

References measured in the same run: the same calendar view over an empty calendar (so the
ratio is what 5,000 events add), and the GUI thread's own idle heartbeat (what a stall adds
over a quiet event loop). Results go to bench/results/views.md."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QElapsedTimer, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

WORDS = "budget travel invoice report plan notes photo receipt draft contract summary".split()


def hearth_at(home: Path):  # type: ignore[no-untyped-def]
    os.environ["HEARTH_HOME"] = str(home)
    from app.main import Hearth

    return Hearth()


def ctx_for(hearth):  # type: ignore[no-untyped-def]
    from app.ui.context import UiContext
    from app.ui.ops import Ops

    return UiContext(hearth, Ops())


def wait(app: QApplication, until, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not until():
        app.processEvents()
        if time.monotonic() > deadline:
            raise TimeoutError("the view did not answer")
        time.sleep(0.0005)


def fill_calendar(store, events: int) -> None:  # type: ignore[no-untyped-def]
    from skills.calendar import Event
    from skills.common.clock import local_timezone_name

    rng, zone = random.Random(1), local_timezone_name()
    today = datetime.combine(date.today(), datetime.min.time()).astimezone()
    batch = []
    for n in range(events):
        start = today + timedelta(days=rng.randint(-180, 180), hours=rng.randint(7, 19),
                                  minutes=rng.choice((0, 15, 30, 45)))
        rule = "FREQ=WEEKLY;COUNT=20" if n % 50 == 0 else ""
        batch.append(Event(uid=f"bench-{n}@hearth", title=f"{rng.choice(WORDS).title()} {n}",
                           start=start, end=start + timedelta(minutes=rng.choice((30, 60, 90))),
                           timezone=zone, rrule=rule))
    store.import_events(batch)


def time_step(app: QApplication, view: Any, grid: Any) -> float:
    """ms from stepping the view one page on to `grid` painted with what was fetched."""
    shown: list[int] = []
    view.shown.connect(lambda: shown.append(1))
    clock = QElapsedTimer()
    clock.start()
    view.step(1)
    wait(app, lambda: bool(shown))
    grid.repaint()
    elapsed = clock.nsecsElapsed() / 1e6
    view.shown.disconnect()
    return elapsed


def time_months(app: QApplication, view, months: int = 12,  # type: ignore[no-untyped-def]
                cold: bool = False) -> list[float]:
    """ms from asking for a month to the month painted (query off-thread, paint on it).
    cold: nothing fetched ahead (the view's range cache emptied before each step)."""
    view.set_mode("month")
    wait(app, lambda: view.stack.currentWidget() is view.month_grid)
    times = []
    for _ in range(months):
        view.ctx.ops.wait(10000)  # the fetch ahead done (or, cold, not competing)
        if cold:
            view._ranges = None  # what was fetched ahead, dropped
        times.append(time_step(app, view, view.month_grid))
    return times


def calendar_figures(app: QApplication, events: int) -> dict[str, object]:
    from app.ui.pages.calendar.view import CalendarView

    out: dict[str, object] = {}
    for label, count in (("empty", 0), ("full", events)):
        hearth = hearth_at(Path(tempfile.mkdtemp(prefix=f"hearth-bench-{label}-")))
        if count:
            started = time.perf_counter()
            fill_calendar(hearth.calendar, count)
            out["import_s"] = time.perf_counter() - started
        view = CalendarView(ctx_for(hearth))
        view.resize(1200, 800)
        view.show()
        wait(app, lambda v=view: v.time_grid.occurrences is not None)
        time_months(app, view, 2)  # warm up (imports, fonts)
        view.first = date.today() - timedelta(days=183)  # the twelve months the events fill
        out[f"month_{label}"] = time_months(app, view, 12)
        view.first = date.today() - timedelta(days=183)
        out[f"month_cold_{label}"] = time_months(app, view, 12, cold=True)
        view.first = date.today()
        # The two halves of a month: the store's query (on a worker) and the paint (GUI).
        first, days = view.shown_range()
        lo = datetime.combine(first, datetime.min.time()).astimezone()
        queries, paints = [], []
        for _ in range(6):
            started = time.perf_counter()
            found = hearth.calendar.occurrences(lo, lo + timedelta(days=days))
            queries.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            view.month_grid.set_month(view.first, found)
            view.month_grid.repaint()
            paints.append((time.perf_counter() - started) * 1000)
        out[f"month_query_{label}"], out[f"month_paint_{label}"] = queries, paints
        view.first = date.today() - timedelta(days=28)  # weeks that have events
        view.set_mode("week")
        weeks = []
        for _ in range(8):
            weeks.append(time_step(app, view, view.time_grid))
        out[f"week_{label}"] = weeks
        view.close()
        view.ctx.ops.wait(10000)
        hearth.close()
    return out


def fill_files(files, root: Path, count: int) -> None:  # type: ignore[no-untyped-def]
    """`count` files as the scanner records them (names searchable, no content to read)."""
    from skills.files.scanner import FoundFile

    rng = random.Random(2)
    now = time.time()
    batch = []
    for n in range(count):
        ext = rng.choice(("pdf", "docx", "xlsx", "jpg", "png", "txt", "md", "zip", "mp3"))
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{n}.{ext}"
        path = str(root / f"a{n // 10000}" / f"b{n // 1000 % 10}" / name)
        mtime = now - rng.randint(0, 3 * 365 * 86400)
        batch.append((FoundFile(path, name, rng.randint(1, 50_000_000), int(mtime * 1e9),
                                mtime), ""))
        if len(batch) == 5000:
            files.store.upsert(batch)
            batch = []
    files.store.upsert(batch)


class Heartbeat:
    """A 1 ms timer on the GUI thread: the longest gap between its ticks is the stall."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.last = time.perf_counter()
        self.worst = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last, self.worst = time.perf_counter(), 0.0
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return self.worst * 1000


def pump(app: QApplication, seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.0002)


def files_figures(app: QApplication, count: int) -> dict[str, object]:
    from app.ui.pages.files import FilesView

    home = Path(tempfile.mkdtemp(prefix="hearth-bench-files-"))
    root = home / "Files"
    root.mkdir()
    hearth = hearth_at(home)
    hearth.settings.file_roots = [str(root)]
    hearth.files.add_root(str(root))
    started = time.perf_counter()
    fill_files(hearth.files, root, count)
    out: dict[str, object] = {"fill_s": time.perf_counter() - started}
    view = FilesView(ctx_for(hearth))
    view.resize(1200, 800)
    view.show()
    wait(app, lambda: view.model.rowCount() > 0)
    beat = Heartbeat()
    idle = []
    for _ in range(20):
        beat.start()
        pump(app, 0.15)
        idle.append(beat.stop())
    out["idle_gap_ms"] = idle
    stalls, pages = [], []
    for word in ("budget", "travel", "report", "photo"):
        view.query.clear()
        pump(app, 0.3)
        for index in range(len(word)):
            searched: list[str] = []
            view.searched.connect(searched.append)
            beat.start()
            clock = QElapsedTimer()
            clock.start()
            QTest.keyClick(view.query, word[index])
            wait(app, lambda s=searched, q=word[: index + 1]: q in s)
            pages.append(clock.nsecsElapsed() / 1e6)
            pump(app, 0.05)
            stalls.append(beat.stop())
            view.searched.disconnect()
    out["keystroke_stall_ms"] = stalls
    out["result_page_ms"] = pages  # key press to a page of results shown (incl. the 120 ms pause)
    view.close()
    view.ctx.ops.wait(10000)
    hearth.close()
    return out


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--files", type=int, default=100_000)
    args = parser.parse_args()
    import app.ui as _ui  # noqa: F401  (the binding guard, as the app has it)

    qapp = QApplication.instance() or QApplication([])
    assert isinstance(qapp, QApplication)
    cal = calendar_figures(qapp, args.events)
    files = files_figures(qapp, args.files)
    month_full, month_empty = cal["month_full"], cal["month_empty"]
    week_full, week_empty = cal["week_full"], cal["week_empty"]
    stalls, idle, pages = files["keystroke_stall_ms"], files["idle_gap_ms"], files["result_page_ms"]
    lines = [
        "# Calendar and Files views under load",
        "",
        f"`.venv/bin/python bench/bench_views.py --events {args.events} --files {args.files}`"
        " (offscreen; the shared 2-core machine)",
        "",
        "| figure | value | reference (same run) | ratio |",
        "|---|---|---|---|",
        f"| calendar, {args.events:,} events: ask for the next month (fetched ahead) -> painted | "
        f"{summary(month_full)} | empty calendar: {summary(month_empty)} | "
        f"{statistics.median(month_full) / statistics.median(month_empty):.2f} |",
        f"| calendar, {args.events:,} events: ask for a week -> painted | "
        f"{summary(week_full)} | empty calendar: {summary(week_empty)} | "
        f"{statistics.median(week_full) / statistics.median(week_empty):.2f} |",
        f"| calendar, {args.events:,} events: a month not fetched ahead -> painted | "
        f"{summary(cal['month_cold_full'])} | empty calendar: "
        f"{summary(cal['month_cold_empty'])} | "
        f"{statistics.median(cal['month_cold_full']) / statistics.median(cal['month_cold_empty']):.2f} |",
        f"| calendar month: the store's query (worker thread) | "
        f"{summary(cal['month_query_full'])} | empty: {summary(cal['month_query_empty'])} | |",
        f"| calendar month: GUI-thread part (lay out + paint) | "
        f"{summary(cal['month_paint_full'])} | empty: {summary(cal['month_paint_empty'])} | |",
        f"| files, {args.files:,} indexed: longest GUI-thread stall per keystroke | "
        f"{summary(stalls)} | idle event loop: {summary(idle)} | "
        f"{statistics.median(stalls) / max(0.01, statistics.median(idle)):.2f} |",
        f"| files, {args.files:,} indexed: key press -> result page shown | {summary(pages)} | "
        "includes the 120 ms typing pause | |",
        "",
        f"Setup: {args.events:,} events imported in {cal['import_s']:.1f} s (1 in 50 a weekly "
        f"series); {args.files:,} file records written in {files['fill_s']:.1f} s.",
    ]
    text = "\n".join(lines) + "\n"
    out = ROOT / "bench" / "results" / "views.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
