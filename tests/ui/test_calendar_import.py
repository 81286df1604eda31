"""The calendar page's import summary (repaired and skipped, with lines, in the tooltip) and
the agenda's display of cancelled events (struck through) and of an event's own zone."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMessageBox

from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture

CORPUS = Path(__file__).resolve().parents[1] / "calendar" / "corpus"


def calendar_page(window: MainWindow) -> Any:
    window.show_page("calendar")
    return window.pages.currentWidget()


def test_import_summary_names_repairs_and_skips(window, qtbot, tmp_path) -> None:
    calendar = calendar_page(window)
    text = (CORPUS / "holidays-uk.ics").read_bytes().decode()
    broken = tmp_path / "holidays.ics"  # one event with a date no program could read
    broken.write_bytes(text.replace("DTSTART;VALUE=DATE:20261225", "DTSTART;VALUE=DATE:2026-12-25"
                                    ).encode())
    calendar.import_file(str(broken))
    qtbot.waitUntil(lambda: "repaired" in calendar.status.text(), timeout=WAIT_MS)
    assert calendar.status.text() == "Imported: 5 new, 0 updated; 8 repaired, 1 skipped"
    tip = calendar.status.toolTip()
    assert "(UK-1225-1@holidays.example): DTSTART is not a date or time" in tip
    assert "line 11 (UK-0101-1@holidays.example): all-day event ends when it starts" in tip


def test_cancelled_events_are_struck_through(window, qtbot) -> None:
    calendar = calendar_page(window)
    calendar.first = date(2026, 1, 19)  # the import refreshes the agenda at this week
    calendar.import_file(str(CORPUS / "edge-cancelled.ics"))
    qtbot.waitUntil(lambda: "Called off" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
    html = calendar.agenda.toHtml()
    struck = html[:html.index("Called off")].rsplit("<span", 1)[-1]
    assert "line-through" in struck
    club = html[:html.index("Club")].rsplit("<span", 1)[-1]
    assert "line-through" not in club  # the 19th's Club is on


def test_an_event_in_another_zone_shows_its_own_clock_too(ctx, qtbot, monkeypatch) -> None:
    import time

    monkeypatch.setenv("TZ", "Europe/Berlin")  # this machine's zone, for the agenda
    time.tzset()
    try:
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        calendar = calendar_page(window)
        calendar.first = date(2026, 3, 2)
        calendar.import_file(str(CORPUS / "edge-windows-zone-no-vtimezone.ics"))
        qtbot.waitUntil(lambda: "PST standup" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
        text = calendar.agenda.toPlainText()
        assert "18:00–19:00" in text and "America/Los_Angeles 09:00" in text
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def club_ics(path: Path, events: dict[str, str]) -> Path:
    """A subscription-style export: the same calendar name each time, events by UID."""
    body = "".join(
        f"BEGIN:VEVENT\r\nUID:{uid}@club.example\r\nDTSTAMP:20260101T000000Z\r\n"
        f"DTSTART:202603{2 + n:02d}T180000Z\r\nDTEND:202603{2 + n:02d}T190000Z\r\n"
        f"SUMMARY:{title}\r\nEND:VEVENT\r\n" for n, (uid, title) in enumerate(events.items()))
    path.write_text("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Club//EN\r\n"
                    f"X-WR-CALNAME:Club\r\n{body}END:VCALENDAR\r\n", encoding="utf-8")
    return path


def _box() -> Any:
    from PySide6.QtWidgets import QApplication, QMessageBox

    return next((w for w in QApplication.topLevelWidgets()
                 if isinstance(w, QMessageBox) and w.isVisible()), None)


def _reimport_asks(qtbot: Any, calendar: Any, path: Path) -> Any:
    calendar.import_file(str(path))
    qtbot.waitUntil(lambda: _box() is not None, timeout=WAIT_MS)
    return _box()


def test_remove_what_the_file_dropped_says_how_many_first(ctx, window, qtbot, tmp_path) -> None:
    calendar = calendar_page(window)
    calendar.first = date(2026, 3, 2)
    first = club_ics(tmp_path / "club.ics", {"a": "Swim", "b": "Run", "c": "Climb"})
    calendar.import_file(str(first))
    qtbot.waitUntil(lambda: "Climb" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
    assert calendar.status.text() == "Imported: 3 new, 0 updated"

    again = club_ics(tmp_path / "club.ics", {"a": "Swim", "d": "Row"})  # Run, Climb dropped
    calendar.remove_missing.trigger()  # in the Import / Export menu
    assert calendar.remove_missing.isChecked()
    box = _reimport_asks(qtbot, calendar, again)
    assert "2 events from an earlier import of this calendar are not in club.ics" in box.text()
    assert "Run" in box.text() and "Climb" in box.text() and "Swim" not in box.text()
    assert "Climb" in calendar.agenda.toPlainText()  # nothing changed before the answer
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: "nothing changed" in calendar.status.text(), timeout=WAIT_MS)
    assert {e.title for e in ctx.hearth.calendar.all_events()} == {"Swim", "Run", "Climb"}

    box = _reimport_asks(qtbot, calendar, again)
    remove = next(b for b in box.buttons() if b.text() == "Remove 2 and import")
    remove.click()
    qtbot.waitUntil(lambda: "removed" in calendar.status.text(), timeout=WAIT_MS)
    assert calendar.status.text() == "Imported: 1 new, 0 updated, 1 unchanged, 2 removed"
    qtbot.waitUntil(lambda: "Row" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
    shown = calendar.agenda.toPlainText()
    assert "Swim" in shown and "Climb" not in shown and "Run" not in shown
    assert {e.title for e in ctx.hearth.calendar.all_events()} == {"Swim", "Row"}


def test_the_removal_question_speaks_chinese(ctx, qtbot, tmp_path, chinese) -> None:  # noqa: F811
    ctx.translations = chinese
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    calendar = calendar_page(window)
    calendar.import_file(str(club_ics(tmp_path / "club.ics", {"a": "游泳", "b": "跑步"})))
    # The first import done (not just any status with a 0 in it, e.g. "0 个日程" before it ends):
    # the question below is about the events it brought in.
    qtbot.waitUntil(lambda: calendar.status.text() == "已导入：新增 2，更新 0", timeout=WAIT_MS)
    calendar.remove_missing.trigger()
    box = _reimport_asks(qtbot, calendar, club_ics(tmp_path / "club.ics", {"a": "游泳"}))
    assert english_on(box) == {} and "跑步" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: calendar.status.text() == "已取消导入：没有任何更改。",
                    timeout=WAIT_MS)
    assert english_on(calendar) == {}


def test_what_an_import_skipped_or_repaired_is_told_in_chinese(window, qtbot, tmp_path,
                                                               chinese) -> None:  # noqa: F811
    """Why a line was skipped or repaired crosses as a code: a Chinese window says it in
    Chinese (the reader's English sentences were shown as they were); the CLI keeps English."""
    from app.ui.pages.calendar.import_words import issue_text
    from skills.calendar.report import Fault, ImportIssue, IssueWhy, fields
    from tests.ui.test_chinese_everywhere import english_in

    calendar = calendar_page(window)
    text = (CORPUS / "holidays-uk.ics").read_bytes().decode()
    broken = tmp_path / "holidays.ics"
    broken.write_bytes(text.replace("DTSTART;VALUE=DATE:20261225", "DTSTART;VALUE=DATE:2026-12-25"
                                    ).encode())
    calendar.import_file(str(broken))
    qtbot.waitUntil(lambda: bool(calendar.status.toolTip()), timeout=WAIT_MS)
    tip = calendar.status.toolTip()
    assert "第 11 行 (UK-0101-1@holidays.example)：全天日程的结束与开始相同：按一天读取" in tip, tip
    assert "DTSTART 不是日期或时间" in tip and "all-day" not in tip

    terms = {"END", "VEVENT", "RRULE", "DTSTART", "iCalendar", "IANA"}
    worded = {why: issue_text(ImportIssue("", 3, Fault(why, ("VEVENT", "RRULE")[:fields(why)])))
              for why in IssueWhy if why is not IssueWhy.OTHER}
    assert {why: t for why, t in worded.items() if set(english_in(t)) - terms} == {}
    english = ImportIssue("u1", 11, Fault(IssueWhy.ONE_DAY))
    assert str(english) == "line 11 (u1): all-day event ends when it starts: read as one day"


def test_a_file_that_is_not_a_calendar_is_told_in_chinese(window, qtbot, tmp_path,
                                                          chinese) -> None:  # noqa: F811
    from tests.ui.test_chinese_everywhere import english_in

    calendar = calendar_page(window)
    assert window.ctx.ops.wait(WAIT_MS)  # the page's first read is shown: it sets the status
    notes = tmp_path / "notes.ics"
    notes.write_text("Shopping: eggs, milk\n", encoding="utf-8")
    calendar.import_file(str(notes))
    qtbot.waitUntil(lambda: "BEGIN:VCALENDAR" in calendar.status.text(), timeout=WAIT_MS)
    text = calendar.status.text()
    assert "不是 iCalendar 文件" in text, text
    assert not set(english_in(text)) - {"iCalendar", "BEGIN", "VCALENDAR"}, text
