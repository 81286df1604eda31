"""Move is move, resize is resize: a short block dragged to another day keeps its length; the
handle is a few pixels at its end whatever its height; the confirm names both days when they
differ; week, month and agenda show a multi-day timed event on each day it covers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from app.ui.pages.calendar.grids import RESIZE_EDGE
from tests.ui.scripts import WAIT_MS
from tests.ui.test_calendar_view import MONDAY, add, at, hit, press, show, view  # noqa: F401 - a fixture

FRIDAY, SUNDAY = MONDAY + timedelta(days=4), MONDAY + timedelta(days=6)


def drag(qtbot: Any, grid: Any, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(grid, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(grid, end)
    qtbot.mouseRelease(grid, Qt.MouseButton.LeftButton, pos=end)


def shown_box(page: Any) -> QMessageBox:
    return next(w for w in page.findChildren(QMessageBox) if w.isVisible())


def test_a_short_block_dragged_to_another_day_keeps_its_15_minutes(ctx, view, qtbot) -> None:  # noqa: F811
    add(ctx, "Call", at(FRIDAY, 16), minutes=15)
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: bool(view.time_grid.occurrences), timeout=WAIT_MS)
    grid = view.time_grid
    rect = hit(view, "Call").rect
    sunday_x = int(rect.center().x() + 2 * grid.column_width())
    # Grabbed low in the block, just above its handle: a move, never a resize.
    grab = QPoint(int(rect.center().x()), int(rect.bottom()) - RESIZE_EDGE - 1)
    drag(qtbot, grid, grab, QPoint(sunday_x, grab.y()))
    box = shown_box(view)
    assert "16:00–16:15" in box.text() and "Sunday" in box.text()
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(box, "Move")
    (event,) = ctx.hearth.calendar.all_events()
    assert event.start.astimezone().date() == SUNDAY and event.start.astimezone().hour == 16
    assert event.duration == timedelta(minutes=15)


def test_the_handle_resizes_in_its_own_day_and_the_confirm_names_both_days(
        ctx, view, qtbot) -> None:  # noqa: F811
    add(ctx, "Shift", at(FRIDAY, 16), minutes=60)
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: bool(view.time_grid.occurrences), timeout=WAIT_MS)
    grid = view.time_grid
    rect = hit(view, "Shift").rect
    handle = QPoint(int(rect.center().x()), int(rect.bottom()) - 1)
    target = QPoint(int(rect.center().x() + grid.column_width()), handle.y() + 88)
    drag(qtbot, grid, handle, target)  # dragged sideways too: only the end's time follows
    box = shown_box(view)
    assert "16:00–19:00" in box.text()
    press(box, "Cancel")

    ctx.hearth.calendar.update(ctx.hearth.calendar.all_events()[0].uid,
                               end=at(SUNDAY, 14, 15))  # Friday 16:00 to Sunday 14:15
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.refresh()
    parts = [h for h in (grid.repaint(), grid.hits)[1] if h.occ.event.title == "Shift"]
    assert len(parts) == 3 and [p.ends_here for p in parts] == [False, False, True]
    middle = parts[1].rect
    drag(qtbot, grid, middle.center().toPoint(),
         middle.center().toPoint() - QPoint(int(grid.column_width()), 0))
    box = shown_box(view)
    assert "16:00 – " in box.text() and "14:15" in box.text()
    assert "Thursday" in box.text() and "Saturday" in box.text()  # both days named
    press(box, "Cancel")

    show(qtbot, view, "month")
    days = {d for d, occs in view.month_grid._by_day.items() if any(
        o.event.title == "Shift" for o in occs)}
    assert days == {FRIDAY, FRIDAY + timedelta(days=1), SUNDAY}
    show(qtbot, view, "agenda")
    text = view.agenda.toPlainText()
    assert text.count("Shift") == 3 and text.count("16:00 – Sunday") == 3
