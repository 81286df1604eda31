"""The Calendar view: month / week / day / agenda, create and edit by double-click, drag to
move or resize, repeating-event edits, delete, reminders per event (issue 16)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from app.ui.pages.calendar.editor import EventDialog
from app.ui.pages.calendar.grids import GUTTER, HOUR_PX
from app.ui.pages.calendar.view import CalendarView
from skills.calendar.model import Event
from skills.common.clock import local_timezone_name
from tests.ui.scripts import WAIT_MS

MONDAY = date.today() - timedelta(days=date.today().weekday())


def at(day: date, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute)).astimezone()


@pytest.fixture
def view(ctx: Any, qtbot: Any) -> CalendarView:
    page = CalendarView(ctx)
    qtbot.addWidget(page)
    page.resize(1000, 700)
    page.show()
    page.month_grid.first_weekday = 1
    page.first = MONDAY + timedelta(days=2)  # a Wednesday: the week starts on its Monday
    return page


def add(ctx: Any, title: str, start: datetime, minutes: int = 60, **fields: Any) -> Event:
    return ctx.hearth.calendar.add(Event(uid="", title=title, start=start,
                                         end=start + timedelta(minutes=minutes),
                                         timezone=local_timezone_name(), **fields))


def show(qtbot: Any, view: CalendarView, mode: str) -> None:
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.set_mode(mode)


def press(box: QMessageBox, text: str) -> None:
    next(b for b in box.buttons() if b.text() == text).click()


def hit(view: CalendarView, title: str) -> Any:
    grid = view.month_grid if view.mode == "month" else view.time_grid
    grid.repaint()
    return next(h for h in grid.hits if h.occ.event.title == title)


def test_new_event_with_its_own_reminder(ctx, view, qtbot) -> None:
    show(qtbot, view, "week")
    dialog = view.new_event(at(MONDAY + timedelta(days=1), 14), at(MONDAY + timedelta(days=1),
                                                                   15))
    assert dialog.width() >= dialog.fontMetrics().horizontalAdvance("x") * 60  # room for notes
    dialog.title.setText("Dentist")
    dialog.location.setText("High Street")
    dialog.alarm.setCurrentIndex(dialog.alarm.findData(15))
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        dialog.accept()
    (event,) = ctx.hearth.calendar.all_events()
    assert (event.title, event.location, event.alarms) == ("Dentist", "High Street", [15])
    qtbot.waitUntil(lambda: any(h.occ.event.title == "Dentist" for h in view.time_grid.hits)
                    or view.time_grid.repaint() is None and bool(view.time_grid.hits),
                    timeout=WAIT_MS)
    assert view.status.text() == "Added “Dentist”"


def test_drag_moves_and_the_bottom_edge_resizes_after_asking(ctx, view, qtbot) -> None:
    add(ctx, "Review", at(MONDAY + timedelta(days=2), 10))
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: bool(view.time_grid.occurrences), timeout=WAIT_MS)
    rect = hit(view, "Review").rect
    grid = view.time_grid
    start = QPoint(int(rect.center().x()), int(rect.top() + 10))
    qtbot.mousePress(grid, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(grid, start + QPoint(0, HOUR_PX))  # an hour later
    qtbot.mouseRelease(grid, Qt.MouseButton.LeftButton, pos=start + QPoint(0, HOUR_PX))
    box = next(w for w in view.findChildren(QMessageBox) if w.isVisible())
    assert "Review" in box.text() and "11:00" in box.text()
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(box, "Move")
    (event,) = ctx.hearth.calendar.all_events()
    assert event.start.astimezone().hour == 11 and event.duration == timedelta(hours=1)

    qtbot.waitUntil(lambda: hit(view, "Review").rect.top() > rect.top() + HOUR_PX / 2,
                    timeout=WAIT_MS)
    rect = hit(view, "Review").rect
    edge = QPoint(int(rect.center().x()), int(rect.bottom() - 2))
    qtbot.mousePress(grid, Qt.MouseButton.LeftButton, pos=edge)
    qtbot.mouseMove(grid, edge + QPoint(0, HOUR_PX // 2))
    qtbot.mouseRelease(grid, Qt.MouseButton.LeftButton, pos=edge + QPoint(0, HOUR_PX // 2))
    box = next(w for w in view.findChildren(QMessageBox) if w.isVisible())
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(box, "Move")
    (event,) = ctx.hearth.calendar.all_events()
    assert event.start.astimezone().hour == 11 and event.duration == timedelta(minutes=90)


def shown_dialog(view: CalendarView) -> EventDialog:
    (dialog,) = [d for d in view.findChildren(EventDialog) if d.isVisible()]
    return dialog


def test_double_click_on_empty_time_offers_an_hour_there(ctx, view, qtbot) -> None:
    show(qtbot, view, "week")
    grid = view.time_grid
    tuesday_2pm = QPoint(int(GUTTER + grid.column_width() * 1.5),
                         int(grid.y_of(at(MONDAY, 14))) + 2)  # snaps to the quarter hour
    qtbot.mouseDClick(grid, Qt.MouseButton.LeftButton, pos=tuesday_2pm)
    dialog = shown_dialog(view)
    tuesday = MONDAY + timedelta(days=1)
    assert dialog.start.dateTime().toPython() == datetime.combine(tuesday, time(14))
    assert dialog.end.dateTime().toPython() == datetime.combine(tuesday, time(15))
    dialog.reject()


def test_double_click_on_an_empty_day_of_the_month_offers_nine_to_ten(ctx, view, qtbot) -> None:
    show(qtbot, view, "month")
    grid = view.month_grid
    qtbot.mouseDClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(9).center().toPoint())
    dialog = shown_dialog(view)
    day = grid.first_day() + timedelta(days=9)
    assert dialog.start.dateTime().toPython() == datetime.combine(day, time(9))
    assert dialog.end.dateTime().toPython() == datetime.combine(day, time(10))
    dialog.reject()


def test_double_click_edits_and_a_repeating_event_asks_which(ctx, view, qtbot) -> None:
    add(ctx, "Standup", at(MONDAY, 9), 15, rrule="FREQ=DAILY;COUNT=5")
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: len(view.time_grid.occurrences) == 5, timeout=WAIT_MS)
    wednesday = next(h for h in (view.time_grid.repaint(), view.time_grid.hits)[1]
                     if h.occ.start.astimezone().date() == MONDAY + timedelta(days=2))
    qtbot.mouseDClick(view.time_grid, Qt.MouseButton.LeftButton,
                      pos=wednesday.rect.center().toPoint())
    (dialog,) = [d for d in view.findChildren(EventDialog) if d.isVisible()]
    assert dialog.title.text() == "Standup" and dialog.repeat.currentData().startswith(
        "FREQ=DAILY")
    dialog.title.setText("Standup with guests")
    dialog.accept()
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(view.scope_box, "This event only")
    titles = [o.event.title for o in ctx.hearth.calendar.occurrences(at(MONDAY, 0),
                                                                     at(MONDAY, 0) + timedelta(days=7))]
    assert titles.count("Standup with guests") == 1 and titles.count("Standup") == 4

    occurrences = ctx.hearth.calendar.occurrences(at(MONDAY, 0), at(MONDAY, 0) + timedelta(days=7))
    thursday = next(o for o in occurrences if o.start.astimezone().date() == MONDAY + timedelta(days=3))
    box = view.delete_occurrence(thursday)
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    press(box, "Delete")
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(view.scope_box, "This and following")
    left = ctx.hearth.calendar.occurrences(at(MONDAY, 0), at(MONDAY, 0) + timedelta(days=7))
    assert sorted(o.start.astimezone().date().weekday() for o in left) == [0, 1, 2]


def test_month_shows_the_month_and_a_chip_drags_to_another_day(ctx, view, qtbot) -> None:
    view.first = date.today().replace(day=10)
    add(ctx, "Haircut", at(view.first, 16))
    show(qtbot, view, "month")
    assert view.stack.currentWidget() is view.month_grid
    chip = hit(view, "Haircut")
    grid = view.month_grid
    target = grid.cell_rect((view.first + timedelta(days=2) - grid.first_day()).days).center()
    qtbot.mousePress(grid, Qt.MouseButton.LeftButton, pos=chip.rect.center().toPoint())
    qtbot.mouseMove(grid, target.toPoint())
    qtbot.mouseRelease(grid, Qt.MouseButton.LeftButton, pos=target.toPoint())
    box = next(w for w in view.findChildren(QMessageBox) if w.isVisible())
    with qtbot.waitSignal(view.changed, timeout=WAIT_MS):
        press(box, "Move")
    (event,) = ctx.hearth.calendar.all_events()
    assert event.start.astimezone().date() == view.first + timedelta(days=2)
    assert event.start.astimezone().hour == 16  # the time of day stays
    show(qtbot, view, "agenda")
    assert view.stack.currentWidget() is view.agenda


def test_the_next_month_is_fetched_ahead_and_a_change_meanwhile_still_shows(
        ctx, view, qtbot, monkeypatch) -> None:
    store = ctx.hearth.calendar
    next_month = (view.first.replace(day=1) + timedelta(days=32)).replace(day=15)
    add(ctx, "Dentist", at(next_month, 9))
    asked: list[datetime] = []
    real = store.occurrences
    monkeypatch.setattr(store, "occurrences",
                        lambda lo, hi, query="": asked.append(lo) or real(lo, hi, query))
    show(qtbot, view, "month")
    # This month, the next and the last: each asked (anything else asking the store as well,
    # e.g. a late read, must not hide them).
    wanted = {first for first, _days in (view.shown_range(), *view._neighbours())}
    assert len(wanted) == 3
    qtbot.waitUntil(lambda: wanted <= {lo.astimezone().date() for lo in list(asked)},
                    timeout=WAIT_MS)
    assert ctx.ops.wait(WAIT_MS)
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.step(1)
    first, _days = view.shown_range()
    asked_days = [lo.astimezone().date() for lo in asked]
    assert asked_days.count(first) == 1  # shown from what was fetched ahead: no second query
    assert "Dentist" in {o.event.title for o in view.month_grid.occurrences}

    add(ctx, "Plumber", at(next_month, 14))  # as the assistant's tool would, same store
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.step(-1)
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.step(1)
    assert {"Dentist", "Plumber"} <= {o.event.title for o in view.month_grid.occurrences}


def test_a_week_chip_keeps_its_title_whole_in_a_narrow_column(ctx, view, qtbot) -> None:
    """The window at its usual size leaves a week column ~65 px: "17:00 Dentist" came out as
    "17:00 Den…". The title goes first, the time and place under it where the chip has room."""
    from app.ui.pages.calendar.grids import chip_inner, chip_lines, month_text, timed_text

    view.resize(900, 700)
    add(ctx, "Dentist", at(MONDAY + timedelta(days=3), 17), location="Rua Augusta 12")
    add(ctx, "Call", at(MONDAY + timedelta(days=4), 9), minutes=20)
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: len(view.time_grid.occurrences) == 2, timeout=WAIT_MS)
    grid = view.time_grid
    hour, short = hit(view, "Dentist"), hit(view, "Call")
    metrics = grid.fontMetrics()
    assert metrics.horizontalAdvance("17:00 Dentist") > chip_inner(hour.rect).width()  # narrow
    lines = [text for _place, text in chip_lines(metrics, hour.rect, timed_text(hour.occ))]
    assert lines[:2] == ["Dentist", f"{at(MONDAY, 17):%H:%M}"]
    assert [text for _p, text in chip_lines(metrics, short.rect, timed_text(short.occ))] == [
        "Call"]  # twenty minutes hold one line: the title
    show(qtbot, view, "month")  # the month: the time where it fits, else the title alone
    start = f"{at(MONDAY, 17):%H:%M}"
    for width, shown in ((900, "Dentist"), (2400, f"{start} Dentist")):
        view.resize(width, 700)
        chip = hit(view, "Dentist")
        assert month_text(chip.occ, metrics, chip_inner(chip.rect).width()) == shown


def test_a_chip_running_on_from_above_the_view_names_itself_in_view(ctx, view, qtbot) -> None:
    """A night ferry's second day, with the hours scrolled to the morning: its words stood at
    midnight, under the day names, and the block on screen was empty."""
    from PySide6.QtGui import QColor

    from app.ui.pages.calendar.grids import DAY_HEADER

    night = at(MONDAY + timedelta(days=2), 21)
    add(ctx, "Night ferry", night, minutes=11 * 60)
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: bool(view.time_grid.occurrences), timeout=WAIT_MS)
    grid = view.time_grid
    view.time_scroll.verticalScrollBar().setValue(6 * HOUR_PX)  # the morning in view
    qtbot.waitUntil(lambda: grid.header_at == 6 * HOUR_PX, timeout=WAIT_MS)
    grid.repaint()
    (morning,) = [h for h in grid.hits if h.rect.top() < grid.header_at]  # from midnight on
    top = grid.header_at + DAY_HEADER * 2  # the first hour in view, under the day names
    image = grid.grab().toImage()
    line = grid.fontMetrics().height()
    dark = [x for x in range(int(morning.rect.left()) + 6, int(morning.rect.right()) - 3)
            for y in range(top, top + line)
            if QColor(image.pixel(x, y)).lightness() < 110]  # the text's ink, not the fill
    assert dark, "the part of the chip in view has no words"
