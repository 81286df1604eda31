"""Smaller calendar defects from issue 26: Week and Day open where the earliest event is,
Agenda rows open the event (click, double-click, or Tab and Enter), digits typed into the event form's hour
are taken and the end keeps the length, and dates are written with the month in words."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from PySide6.QtCore import QLocale, Qt

from app.ui.dates import medium_date_time
from app.ui.pages.calendar.editor import EventDialog
from app.ui.pages.calendar.grids import DAY_HEADER, HOUR_PX
from tests.ui.scripts import WAIT_MS
from tests.ui.test_calendar_view import MONDAY, add, at, hit, show, view  # noqa: F401 - a fixture

WEDNESDAY = MONDAY + timedelta(days=2)


def visible(page: Any, title: str) -> bool:
    rect = hit(page, title).rect
    top = page.time_scroll.verticalScrollBar().value()
    bottom = top + page.time_scroll.viewport().height()
    return top + DAY_HEADER * 2 <= rect.top() and rect.bottom() <= bottom


def test_week_and_day_open_where_the_earliest_event_is(ctx, view, qtbot) -> None:  # noqa: F811
    add(ctx, "Early flight", at(WEDNESDAY, 5, 30))
    add(ctx, "Standup", at(WEDNESDAY, 9))
    show(qtbot, view, "week")
    qtbot.waitUntil(lambda: visible(view, "Early flight"), timeout=WAIT_MS)
    show(qtbot, view, "day")  # the Wednesday alone: the same
    qtbot.waitUntil(lambda: visible(view, "Early flight"), timeout=WAIT_MS)
    with qtbot.waitSignal(view.shown, timeout=WAIT_MS):
        view.step(1)  # Thursday, nothing early: the working day, as before
    qtbot.waitUntil(lambda: view.time_scroll.verticalScrollBar().value() == 8 * HOUR_PX,
                    timeout=WAIT_MS)


def shown_dialog(page: Any) -> EventDialog:
    (dialog,) = [d for d in page.findChildren(EventDialog) if d.isVisible()]
    return dialog


def test_an_agenda_row_opens_its_event(ctx, view, qtbot) -> None:  # noqa: F811
    add(ctx, "Dentist", at(WEDNESDAY, 10))
    show(qtbot, view, "agenda")
    qtbot.waitUntil(lambda: "Dentist" in view.agenda.toPlainText(), timeout=WAIT_MS)
    view.agenda.setFocus()
    qtbot.keyClick(view.agenda, Qt.Key.Key_Tab)  # to the first event's link
    qtbot.keyClick(view.agenda, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in view.findChildren(EventDialog)),
                    timeout=WAIT_MS)
    assert shown_dialog(view).title.text() == "Dentist"
    shown_dialog(view).reject()
    qtbot.waitUntil(lambda: not any(d.isVisible() for d in view.findChildren(EventDialog)),
                    timeout=WAIT_MS)
    when = view.agenda.document().find("10:00")  # the row's time, not its link
    where = view.agenda.cursorRect(when).center()
    qtbot.mouseDClick(view.agenda.viewport(), Qt.MouseButton.LeftButton, pos=where)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in view.findChildren(EventDialog)),
                    timeout=WAIT_MS)
    assert shown_dialog(view).title.text() == "Dentist"


def test_digits_typed_into_the_hour_are_taken_and_the_end_follows(ctx, view, qtbot) -> None:  # noqa: F811
    dialog = view.new_event(at(WEDNESDAY, 10), at(WEDNESDAY, 10, 45))
    start = dialog.start
    start.setFocus()
    start.lineEdit().setCursorPosition(12)  # where a click into "10" puts the cursor
    qtbot.keyClicks(start, "14")
    assert start.dateTime().time().hour() == 14
    assert dialog.end.dateTime().time().toString("HH:mm") == "14:45"  # 45 minutes, kept
    dialog.title.setText("Piano")
    dialog.accept()
    qtbot.waitUntil(lambda: bool(ctx.hearth.calendar.all_events()), timeout=WAIT_MS)
    (event,) = ctx.hearth.calendar.all_events()
    assert event.start.astimezone().hour == 14 and event.duration == timedelta(minutes=45)


def test_dates_have_the_month_in_words() -> None:
    moment = datetime(2026, 12, 2, 10, 15)
    assert medium_date_time(QLocale("en_GB"), moment) == "2 Dec 2026 10:15"
    assert medium_date_time(QLocale("en_US"), moment) == "Dec 2, 2026 10:15"
    assert medium_date_time(QLocale("zh_CN"), moment) == "2026年12月2日 10:15"
