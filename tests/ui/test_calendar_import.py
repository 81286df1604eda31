"""The calendar page's import summary (repaired and skipped, with lines, in the tooltip) and
the agenda's display of cancelled events (struck through) and of an event's own zone."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from app.ui.main_window import MainWindow
from tests.ui.scripts import WAIT_MS

CORPUS = Path(__file__).resolve().parents[1] / "calendar" / "corpus"


def test_import_summary_names_repairs_and_skips(window, qtbot, tmp_path) -> None:
    window.show_page("calendar")
    calendar: Any = window.pages.currentWidget()
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
    window.show_page("calendar")
    calendar: Any = window.pages.currentWidget()
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
        window.show_page("calendar")
        calendar: Any = window.pages.currentWidget()
        calendar.first = date(2026, 3, 2)
        calendar.import_file(str(CORPUS / "edge-windows-zone-no-vtimezone.ics"))
        qtbot.waitUntil(lambda: "PST standup" in calendar.agenda.toPlainText(), timeout=WAIT_MS)
        text = calendar.agenda.toPlainText()
        assert "18:00–19:00" in text and "America/Los_Angeles 09:00" in text
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
