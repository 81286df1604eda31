"""The calendar: a day or week agenda, with .ics import and export."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, QLocale
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.file_actions import start_folder
from app.ui.i18n import Retranslator, plural


def _local(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone()
    return datetime.combine(value, time()).astimezone()


def agenda_html(occurrences: list[Any], first: date, days: int, all_day_label: str,
                empty_label: str, locale: QLocale | None = None) -> str:
    """Days as headings, events as lines; empty days say so (a week must not look broken)."""
    by_day: dict[date, list[Any]] = {}
    for occ in occurrences:
        by_day.setdefault(_local(occ.start).date(), []).append(occ)
    parts = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        parts.append(f"<h3>{html.escape(_day_name(day, locale))}</h3>")
        items = by_day.get(day, [])
        if not items:
            parts.append(f'<p style="color:gray;">{html.escape(empty_label)}</p>')
        for occ in items:
            event = occ.event
            when = all_day_label if event.all_day else (
                f"{_local(occ.start):%H:%M}–{_local(occ.end):%H:%M}")
            where = f" · {html.escape(event.location)}" if event.location else ""
            title = html.escape(event.title)
            if getattr(event, "cancelled", False):
                title = f"<s>{title}</s>"  # cancelled: shown struck through, as other apps do
            parts.append(f"<p><b>{html.escape(when)}</b>&nbsp;&nbsp;{title}"
                         f"<span style='color:gray;'>{_own_zone(occ)}{where}</span></p>")
    return "".join(parts)


def _own_zone(occ: Any) -> str:
    """' · Europe/Berlin 09:00' when the event's own clock differs from this machine's."""
    if occ.event.all_day or not isinstance(occ.start, datetime):
        return ""  # all-day events keep their own dates in every zone
    from skills.calendar.display import view_times  # loaded already: the store is open
    from skills.calendar.timeutil import local_timezone_name

    shown = view_times(occ, local_timezone_name())
    if not shown.own_zone:
        return ""
    return f" · {html.escape(shown.own_zone)} {shown.own_start:%H:%M}"


def _set_text(button: QPushButton, text: Callable[[], str]) -> None:
    button.setText(text())


def _set_name(button: QPushButton, name: Callable[[], str], text: bool) -> None:
    """Arrows show a symbol; the name is what a screen reader says and the tooltip shows."""
    if text:
        button.setText(name())
    button.setAccessibleName(name())
    button.setToolTip(name())


def _day_name(day: date, locale: QLocale | None) -> str:
    # strftime speaks the C locale (English even in a Chinese UI); QLocale speaks the UI's.
    if locale is None:
        return day.strftime("%A %d %B")
    return long_date(locale, day, weekday=True, year=False)


def long_date(locale: QLocale, day: date, weekday: bool, year: bool) -> str:
    """The locale's long date, without the weekday or the year when they would repeat:
    "Monday, 30 November", "11月30日星期一", "30 November 2026", "2026年11月30日"."""
    pattern = locale.dateFormat(QLocale.FormatType.LongFormat)
    if not weekday:
        pattern = re.sub(r"d{4}[,，]?\s*", "", pattern)
    if not year:
        pattern = re.sub(r"[,，]?\s*y+年?", "", pattern)
    return locale.toString(QDate(day.year, day.month, day.day), pattern.strip(" ,"))


class CalendarView(QWidget):
    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("calendarPage")
        self.ctx = ctx
        self.first = date.today()
        self.days = 7
        self._notice = ""  # shown instead of the event count at the next refresh
        self._tr = Retranslator(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 18, 24, 16)
        layout.setSpacing(10)
        layout.addLayout(self._header())
        self.status = QLabel()
        self.status.setObjectName("dim")
        layout.addWidget(self.status)
        self.agenda = QTextBrowser()
        self._tr(lambda: self.agenda.setAccessibleName(self.tr("Agenda")))
        layout.addWidget(self.agenda, 1)
        self._shown_once = False
        self._tr(self.refresh)  # the title, the count and the agenda's labels

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.title = QLabel()
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        self.title.setFont(font)
        row.addWidget(self.title)
        row.addStretch(1)
        group = QButtonGroup(self)
        labels: list[tuple[Callable[[], str], int]] = [(lambda: self.tr("Day"), 1),
                                                       (lambda: self.tr("Week"), 7)]
        for label, days in labels:
            button = QPushButton()
            self._tr(partial(_set_text, button, label))
            button.setCheckable(True)
            button.setChecked(days == self.days)
            button.clicked.connect(lambda _=False, d=days: self.set_days(d))
            group.addButton(button)
            row.addWidget(button)
        names: dict[int, Callable[[], str]] = {
            -1: lambda: self.tr("Previous"), 0: lambda: self.tr("Today"),
            1: lambda: self.tr("Next")}
        for step in (-1, 0, 1):
            button = QPushButton({-1: "‹", 1: "›"}.get(step, ""))
            self._tr(partial(_set_name, button, names[step], text=step == 0))
            button.clicked.connect(lambda _=False, s=step: self.step(s))
            row.addWidget(button)
        imp = QPushButton()
        imp.clicked.connect(self._import)
        exp = QPushButton()
        exp.clicked.connect(self._export)
        self._tr(lambda: imp.setText(self.tr("Import .ics…")))
        self._tr(lambda: exp.setText(self.tr("Export .ics…")))
        row.addWidget(imp)
        row.addWidget(exp)
        return row

    def set_days(self, days: int) -> None:
        self.days = days
        self.refresh()

    def step(self, step: int) -> None:
        self.first = date.today() if step == 0 else self.first + timedelta(days=step * self.days)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._shown_once:  # coming back to the page: show what changed meanwhile
            self.refresh()
        self._shown_once = True

    def refresh(self) -> None:
        first, days, store = self.first, self.days, self.ctx.lazy("calendar")
        lo = _local(first)
        hi = lo + timedelta(days=days)
        shown = long_date(self._locale(), first, weekday=False, year=True)
        self.title.setText(shown if days == 1 else self.tr("Week of %1").replace("%1", shown))
        self.ctx.ops.run(lambda: store.occurrences(lo, hi), self._show, self._failed)

    def _show(self, occurrences: list[Any]) -> None:
        if self._notice:  # an import's summary outlives the refresh it triggers
            self.status.setText(self._notice)
            self._notice = ""
        else:
            self.status.setText(plural(len(occurrences), self.tr("1 event"),
                                          self.tr("%1 events")))
            self.status.setToolTip("")
        self.agenda.setHtml(agenda_html(occurrences, self.first, self.days, self.tr("All day"),
                                        self.tr("Nothing planned"), self._locale()))

    def _locale(self) -> QLocale:
        """Day and month names in the language the UI speaks (not the C locale's English)."""
        language = getattr(self.ctx.translations, "language", "en")
        if language != "en":
            return QLocale(language)
        system = QLocale.system()  # an English UI keeps the user's own order (US or UK)
        return system if system.language() == QLocale.Language.English else QLocale("en_GB")

    def _failed(self, error: Exception) -> None:
        self.status.setText(self.tr("The calendar could not be read: %1").replace(
            "%1", str(error)))

    def _import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a calendar"), start_folder(),
                                              self.tr("Calendars (*.ics)"))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> None:
        store = self.ctx.lazy("calendar")

        def work() -> Any:
            # imported here: icalendar is slow to load
            from skills.calendar.ical import import_file
            from skills.calendar.timeutil import local_timezone_name

            return import_file(store, Path(path), local_timezone_name())

        def done(report: Any) -> None:
            text = self.tr("Imported: %1 new, %2 updated").replace(
                "%1", str(report.added)).replace("%2", str(report.updated))
            if report.repaired or report.skipped:
                text += self.tr("; %1 repaired, %2 skipped").replace(
                    "%1", str(len(report.repaired))).replace("%2", str(len(report.skipped)))
            self.status.setText(text)
            self._notice = text
            # The details are the file's own words (UIDs, reasons): shown as they are.
            issues = [*report.skipped, *report.repaired]
            self.status.setToolTip("\n".join(str(i) for i in issues[:30]))
            self.refresh()

        self.ctx.ops.run(work, done, self._failed)

    def _export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the calendar"),
                                              str(Path(start_folder()) / "Hearth.ics"),
                                              self.tr("Calendars (*.ics)"))
        if path:
            self.export_file(path)

    def export_file(self, path: str) -> None:
        store = self.ctx.lazy("calendar")

        def work() -> None:
            from skills.calendar import export_ics

            Path(path).write_bytes(export_ics(store.all_events()))

        self.ctx.ops.run(work,
                         lambda _r: self.status.setText(self.tr("Exported to %1").replace(
                             "%1", path)), self._failed)
