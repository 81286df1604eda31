"""The calendar: month, week, day and agenda views; create, edit, move and delete events;
.ics import and export; the to-do list beside the grid."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from PySide6.QtCore import QDate, QLocale, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QHideEvent, QMouseEvent, QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QHBoxLayout,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.ui.context import UiContext
from app.ui.dates import long_date
from app.ui.file_actions import start_folder
from app.ui.i18n import Retranslator, plural, ui_locale
from app.ui.pages.calendar.editor import EventDialog, ask_scope
from app.ui.pages.calendar.grids import HOUR_PX, MonthGrid, TimeGrid, local
from app.ui.pages.calendar.import_words import file_error, issue_text, kept_reason
from app.ui.pages.calendar.ranges import RangeCache
from app.ui.pages.calendar.todo_list import TodoList
from app.ui.theme import page_layout, page_title, title_row
from app.ui.widgets import confirm, hbox, tr_button

if TYPE_CHECKING:
    from app.ui.pages.calendar.edits import EventChanges
    from skills.calendar.local_edits import Conflict
    from skills.calendar.model import Occurrence, When
    from skills.calendar.report import ImportReport

MAX_LISTED = 10  # titles named in the removal question; the rest are counted


def agenda_html(occurrences: list[Occurrence], first: date, days: int, all_day_label: str,
                empty_label: str, locale: QLocale | None = None, link_color: str = "") -> str:
    """Days as headings, events as lines; empty days say so (a week must not look broken).
    With `link_color`, each title links to "occurrence:<its index in occurrences>"."""
    index = {id(occ): n for n, occ in enumerate(occurrences)}
    by_day: dict[date, list[Occurrence]] = {}
    for occ in occurrences:
        for day in _days_of(occ, first, days):  # every day it covers, as week and month do
            by_day.setdefault(day, []).append(occ)
    parts = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        parts.append(f"<h3>{html.escape(_day_name(day, locale))}</h3>")
        items = by_day.get(day, [])
        if not items:
            parts.append(f'<p style="color:gray;">{html.escape(empty_label)}</p>')
        for occ in items:
            event = occ.event
            when = all_day_label if event.all_day else times_text(locale, occ.start, occ.end)
            where = f" · {html.escape(event.location)}" if event.location else ""
            title = html.escape(event.title)
            if getattr(event, "cancelled", False):
                title = f"<s>{title}</s>"  # cancelled: shown struck through, as other apps do
            # A link opens the event (click, or Tab to it and Enter), in the text's colour.
            title = (f'<a href="occurrence:{index[id(occ)]}" style="color:{link_color}; '
                     f'text-decoration:none;">{title}</a>') if link_color else title
            parts.append(f"<p><b>{html.escape(when)}</b>&nbsp;&nbsp;{title}"
                         f"<span style='color:gray;'>{_own_zone(occ)}{where}</span></p>")
    return "".join(parts)


def _days_of(occ: Occurrence, first: date, days: int) -> list[date]:
    """The shown days a timed occurrence covers (its start's alone for an all-day one)."""
    start = local(occ.start).date()
    if occ.event.all_day or not isinstance(occ.end, datetime):
        return [start]
    last = (local(occ.end) - timedelta(microseconds=1)).date() if occ.end > occ.start else start
    shown = [start + timedelta(days=n) for n in range((last - start).days + 1)]
    return [d for d in shown if first <= d < first + timedelta(days=days)] or [start]


def times_text(locale: QLocale | None, start: When, end: When) -> str:
    """"16:00–16:15", or with the end's day when it ends on another: "16:00 – Sunday 6
    December 14:15" (the locale's words)."""
    s, e = local(start), local(end)
    if s.date() == e.date() or (e - s <= timedelta(days=1) and e.time() == time()
                                and e.date() == s.date() + timedelta(days=1)):
        return f"{s:%H:%M}–{e:%H:%M}"
    return f"{s:%H:%M} – {_day_name(e.date(), locale)} {e:%H:%M}"


def when_text(locale: QLocale, start: When, end: When) -> str:
    """An occurrence's day(s) and times, both days named when they differ."""
    if not isinstance(start, datetime):
        last = end - timedelta(days=1)
        shown = long_date(locale, start, weekday=True, year=False)
        if last <= start:
            return shown
        return f"{shown} – {long_date(locale, last, weekday=True, year=False)}"
    return f"{long_date(locale, local(start).date(), weekday=True, year=False)} " \
           f"{times_text(locale, start, end)}"


def _own_zone(occ: Occurrence) -> str:
    """' · Europe/Berlin 09:00' when the event's own clock differs from this machine's."""
    if occ.event.all_day or not isinstance(occ.start, datetime):
        return ""  # all-day events keep their own dates in every zone
    from skills.calendar.display import view_times  # loaded already: the store is open
    from skills.common.clock import local_timezone_name

    shown = view_times(occ, local_timezone_name())
    if not shown.own_zone:
        return ""
    return f" · {html.escape(shown.own_zone)} {shown.own_start:%H:%M}"


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


class _Agenda(QTextBrowser):
    """The agenda's text: a double-click anywhere on a row opens that row's event. (Its own
    handler, not an event filter on the viewport: a filter owned by the page is called while
    the page is being destroyed, and crashed the interpreter at exit.)"""

    row_opened = Signal(QUrl)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        fragments = self.cursorForPosition(event.position().toPoint()).block().begin()
        while not fragments.atEnd():  # the row's link, wherever on the row it was
            href = fragments.fragment().charFormat().anchorHref()
            if href:
                self.row_opened.emit(QUrl(href))
                return
            fragments += 1
        super().mouseDoubleClickEvent(event)


class CalendarView(QWidget):
    """Month, week, day and agenda; New event, double-click to create or edit, right-click
    for Edit / Delete, drag to move or resize. Every change asks first (as the calendar tools
    do) and runs on the same store, off the GUI thread."""

    MODES = ("month", "week", "day", "agenda")
    shown = Signal()  # a range finished showing (tests, benchmarks)
    changed = Signal()  # an event was added, changed or deleted here

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("calendarPage")
        self.ctx = ctx
        self.first = date.today()
        self.days = 7
        self.mode = "week"
        self._token = 0
        self._ranges: RangeCache | None = None
        self._notice = ""  # shown instead of the event count at the next refresh
        self._tr = Retranslator(self)
        layout, self.status = page_layout(self, self._header())
        self.stack = QStackedWidget()
        self.month_grid = MonthGrid()
        self.time_grid = TimeGrid()
        self.time_scroll = QScrollArea(widgetResizable=True)
        self.time_scroll.setWidget(self.time_grid)
        self.time_scroll.verticalScrollBar().valueChanged.connect(self.time_grid.follow_scroll)
        self.agenda = _Agenda(openLinks=False)  # a row's link opens the event, not a page
        self.agenda.anchorClicked.connect(self._open_agenda_row)
        self.agenda.row_opened.connect(self._open_agenda_row)  # a double-click anywhere on a row
        self._agenda_items: list[Occurrence] = []
        self._scrolled_for: tuple[date, int] | None = None
        self._tr(lambda: self.agenda.setAccessibleName(self.tr("Agenda")))
        self._tr(lambda: self.month_grid.setAccessibleName(self.tr("Month")))
        self._tr(lambda: self.time_grid.setAccessibleName(self.tr("Days by the hour")))
        for grid in (self.month_grid, self.time_grid):
            grid.new_requested.connect(self.new_event)
            grid.edit_requested.connect(self.edit_occurrence)
            grid.delete_requested.connect(self.delete_occurrence)
            grid.move_requested.connect(self.move_occurrence)
        for widget in (self.month_grid, self.time_scroll, self.agenda):
            self.stack.addWidget(widget)
        self.todos = TodoList(ctx, self)  # the to-do list beside the grid
        layout.addLayout(hbox((self.stack, 1), self.todos), 1)
        self.todos.refresh()
        self._shown_once = False
        # Time moves while the page is open: the now line, and to-dos falling overdue.
        self.minute = QTimer(self, interval=60_000)
        self.minute.timeout.connect(self._minute_passed)
        self._tr(self._grid_texts)
        self._tr(self.refresh)  # the title, the count and the agenda's labels

    def _grid_texts(self) -> None:
        locale = ui_locale(self.ctx.translations)
        first = Qt.DayOfWeek(locale.firstDayOfWeek().value).value
        self.month_grid.first_weekday = first
        self.month_grid.day_names = [
            locale.dayName((first - 1 + i) % 7 + 1, QLocale.FormatType.ShortFormat)
            for i in range(7)]
        self.month_grid.more_text = self.tr("+%1 more")
        self.time_grid.day_label = lambda d: locale.toString(
            QDate(d.year, d.month, d.day), "ddd d")
        for grid in (self.month_grid, self.time_grid):
            grid.edit_text, grid.delete_text = self.tr("Edit…"), self.tr("Delete…")
            grid.update()

    def _header(self) -> QVBoxLayout:
        """The title and New event, then a row of views, steps and Import / Export: two rows,
        so the page fits a small laptop screen beside the sidebar in every language."""
        self.title = page_title()
        self.new_button = tr_button(self._tr, lambda: self.tr("New event"), self.new_event)
        self.new_button.setObjectName("primary")
        header = QVBoxLayout()
        header.addLayout(title_row(self.title, self.new_button))
        row = QHBoxLayout()
        header.addLayout(row)
        self._add_mode_buttons(row)
        row.addSpacing(12)
        self._add_step_buttons(row)
        row.addStretch(1)
        row.addWidget(self._transfer_button())
        return header

    def _add_mode_buttons(self, row: QHBoxLayout) -> None:
        group = QButtonGroup(self)
        labels: list[tuple[Callable[[], str], str]] = [
            (lambda: self.tr("Month"), "month"), (lambda: self.tr("Week"), "week"),
            (lambda: self.tr("Day"), "day"), (lambda: self.tr("Agenda"), "agenda")]
        self.mode_buttons: dict[str, QPushButton] = {}
        for label, mode in labels:
            button = tr_button(self._tr, label, partial(self.set_mode, mode))
            button.setCheckable(True)
            button.setChecked(mode == self.mode)
            group.addButton(button)
            row.addWidget(button)
            self.mode_buttons[mode] = button

    def _add_step_buttons(self, row: QHBoxLayout) -> None:
        names: dict[int, Callable[[], str]] = {
            -1: lambda: self.tr("Previous"), 0: lambda: self.tr("Today"),
            1: lambda: self.tr("Next")}
        for step in (-1, 0, 1):
            button = QPushButton({-1: "‹", 1: "›"}.get(step, ""))
            self._tr(partial(_set_name, button, names[step], text=step == 0))
            button.clicked.connect(lambda _=False, s=step: self.step(s))
            row.addWidget(button)

    def _transfer_button(self) -> QPushButton:
        """Import and export behind one menu button, so the header fits a small screen."""
        button = QPushButton()  # a push button with a menu: styled like its neighbours
        menu = QMenu(button)
        menu.setToolTipsVisible(True)
        imp = menu.addAction("")
        imp.triggered.connect(self._import)
        # For a calendar imported again (a subscription's export): what it dropped can go too.
        self.remove_missing = menu.addAction("")
        self.remove_missing.setCheckable(True)
        menu.addSeparator()
        exp = menu.addAction("")
        exp.triggered.connect(self._export)
        self._tr(lambda: button.setText(self.tr("Import / Export")))
        self._tr(lambda: imp.setText(self.tr("Import .ics…")))
        self._tr(lambda: exp.setText(self.tr("Export .ics…")))
        self._tr(lambda: self.remove_missing.setText(self.tr("Remove events the file dropped")))
        self._tr(lambda: self.remove_missing.setToolTip(self.tr(
            "When you import a calendar again, remove the events an earlier import of it "
            "brought in that the file no longer has. You see how many before anything changes.")))
        button.setMenu(menu)
        self.transfer_menu = menu
        return button

    def set_days(self, days: int) -> None:
        self.set_mode("day" if days == 1 else "week")

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.days = {"day": 1, "week": 7}.get(mode, 7)
        if mode in self.mode_buttons:
            self.mode_buttons[mode].setChecked(True)
        self.refresh()

    def step(self, step: int) -> None:
        if step == 0:
            self.first = date.today()
        elif self.mode == "month":
            month = self.first.replace(day=1) + timedelta(days=32 * step if step > 0 else -1)
            self.first = month.replace(day=1)
        else:
            self.first = self.first + timedelta(days=step * (1 if self.mode == "day" else 7))
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        if self._shown_once:  # coming back to the page: show what changed meanwhile
            self.refresh()
        self._shown_once = True
        self.minute.start()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802
        super().hideEvent(event)
        self.minute.stop()  # nothing to move off screen

    def _minute_passed(self) -> None:
        self.time_grid.update()
        self.todos.mark_overdue()

    def shown_range(self) -> tuple[date, int]:
        """The first day and the number of days the current mode shows."""
        if self.mode == "month":
            self.month_grid.month = self.first.replace(day=1)
        return self._range_at(self.first)

    def _range_at(self, first: date) -> tuple[date, int]:
        """shown_range for another first day (the ranges fetched ahead)."""
        if self.mode == "month":
            month = first.replace(day=1)
            return month - timedelta(days=(month.isoweekday()
                                           - self.month_grid.first_weekday) % 7), 42
        if self.mode == "week":
            back = (first.isoweekday() - self.month_grid.first_weekday) % 7
            return first - timedelta(days=back), 7
        return first, 1 if self.mode == "day" else 14  # agenda: two weeks ahead

    def _neighbours(self) -> list[tuple[date, int]]:
        """The ranges one step before and after, which the person most likely asks next."""
        if self.mode == "month":
            month = self.first.replace(day=1)
            firsts = [(month + timedelta(days=32)).replace(day=1),
                      (month - timedelta(days=1)).replace(day=1)]
        else:
            step = timedelta(days=1 if self.mode == "day" else 7)
            firsts = [self.first + step, self.first - step]
        return [self._range_at(f) for f in firsts]

    def _cache(self) -> RangeCache:
        if self._ranges is None:
            self._ranges = RangeCache(self.ctx.lazy("calendar"))
        return self._ranges

    def _fetch_ahead(self) -> None:
        cache = self._cache()
        for first, days in self._neighbours():
            lo, hi = local(first), local(first + timedelta(days=days))
            self.ctx.ops.run(partial(cache.get, lo, hi), lambda _r: None,
                             lambda _e: None)  # only a head start: the real ask reports

    def refresh(self) -> None:
        cache = self._cache()
        first, days = self.shown_range()
        lo = local(first)
        hi = local(first + timedelta(days=days))
        locale = ui_locale(self.ctx.translations)
        if self.mode == "month":
            self.title.setText(locale.toString(QDate(self.first.year, self.first.month, 1),
                                               "MMMM yyyy"))
        else:
            shown = long_date(locale, first, weekday=False, year=True)
            titles = {1: shown, 7: self.tr("Week of %1").replace("%1", shown)}
            self.title.setText(titles.get(days, self.tr("From %1").replace("%1", shown)))
        self._token += 1
        token = self._token
        self.ctx.ops.run(lambda: cache.get(lo, hi),
                         lambda occ: self._show(token, first, days, occ), self._failed)

    def _show(self, token: int, first: date, days: int, occurrences: list[Occurrence]) -> None:
        if token != self._token:
            return  # the person moved on: a newer range is on its way
        if self._notice:  # an import's summary outlives the refresh it triggers
            self.status.setText(self._notice)
            self._notice = ""
        else:
            self.status.setText(plural(len(occurrences), self.tr("1 event"),
                                          self.tr("%1 events")))
            self.status.setToolTip("")
        if self.mode == "month":
            self.month_grid.set_month(self.first, occurrences)
            self.stack.setCurrentWidget(self.month_grid)
        else:
            # The agenda text follows a week or a day too (screen readers read it; it is
            # cheap for a few days), but never a month: 42 days of hundreds of events is the
            # slowest document this view could lay out.
            self._agenda_items = occurrences
            self.agenda.setHtml(agenda_html(
                occurrences, first, days, self.tr("All day"), self.tr("Nothing planned"),
                ui_locale(self.ctx.translations), self.palette().text().color().name()))
            if self.mode in ("week", "day"):
                self._scroll_to_first(first, days, occurrences)
            if self.mode in ("week", "day"):
                self.time_grid.set_days(first, days, occurrences)
                self.stack.setCurrentWidget(self.time_scroll)
            else:
                self.stack.setCurrentWidget(self.agenda)
        self.shown.emit()
        self._fetch_ahead()

    def _scroll_to_first(self, first: date, days: int, occurrences: list[Occurrence]) -> None:
        """A range shown anew opens at the working day (08:00), or earlier when an event
        starts earlier, so the earliest one is in view; a refresh of it does not jump."""
        if self._scrolled_for == (first, days):
            return
        self._scrolled_for = (first, days)
        starts = [max(local(o.start), local(first)) for o in occurrences
                  if not o.event.all_day and isinstance(o.start, datetime)]
        hours = min([8.0, *((s.hour + s.minute / 60) for s in starts)])
        value = int(max(0.0, hours - 0.25 if hours < 8 else hours) * HOUR_PX)
        QTimer.singleShot(0, self, lambda: self.time_scroll.verticalScrollBar().setValue(value))

    def _open_agenda_row(self, url: QUrl) -> None:
        number = url.toString().removeprefix("occurrence:")
        if number.isdigit() and int(number) < len(self._agenda_items):
            self.edit_occurrence(self._agenda_items[int(number)])

    # -- changing events (each asks first, then runs on the store off the GUI thread) --------
    def _zone(self) -> str:
        from skills.common.clock import local_timezone_name

        return local_timezone_name()

    def new_event(self, start: When | None = None, end: When | None = None) -> EventDialog:
        if start is None or end is None:
            now = datetime.now().astimezone().replace(minute=0, second=0, microsecond=0)
            start, end = now + timedelta(hours=1), now + timedelta(hours=2)
        dialog = EventDialog(start, end, None, self._zone(), self)
        dialog.accepted.connect(lambda: self._create(dialog))
        dialog.open()
        return dialog

    def _create(self, dialog: EventDialog) -> None:
        from app.ui.pages.calendar.edits import new_event

        store = self.ctx.lazy("calendar")
        event = new_event(dialog.changes(), self._zone())
        self._run(lambda: store.add(event), self.tr("Added “%1”").replace("%1", event.title))

    def edit_occurrence(self, occ: Occurrence) -> EventDialog:
        dialog = EventDialog(occ.start, occ.end, occ.event, self._zone(), self)
        dialog.accepted.connect(lambda: self._edited(occ, dialog))
        dialog.open()
        return dialog

    def _edited(self, occ: Occurrence, dialog: EventDialog) -> None:
        if dialog.deleted:
            self.delete_occurrence(occ)
            return
        self.with_scope(occ, False, lambda scope: self._save(occ, dialog.changes(), scope))

    def move_occurrence(self, occ: Occurrence, start: When, end: When) -> QMessageBox:
        """A drag: ask, showing the new time, then move (or the scope for a series)."""
        zone = ZoneInfo(occ.event.timezone or self._zone())
        if isinstance(start, datetime) and isinstance(end, datetime):
            start, end = start.astimezone(zone), end.astimezone(zone)
        when = when_text(ui_locale(self.ctx.translations), start, end)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Move event"),
                          self.tr("Move “%1” to %2?").replace("%1", occ.event.title)
                          .replace("%2", when), QMessageBox.StandardButton.Cancel, self)
        move = box.addButton(self.tr("Move"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(move)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(lambda b: self.with_scope(
            occ, False, lambda scope: self._save(occ, {"start": start, "end": end}, scope))
            if b is move else self.refresh())
        box.open()
        return box

    def delete_occurrence(self, occ: Occurrence) -> QMessageBox:
        return confirm(self, self.tr("Delete event"),
                       self.tr("Delete “%1”?").replace("%1", occ.event.title), self.tr("Delete"),
                       lambda: self.with_scope(occ, True, lambda scope: self._gone(occ, scope)))

    def with_scope(self, occ: Occurrence, deleting: bool, then: Callable[[str], None]) -> None:
        """A repeating event asks which instances; a single one goes straight on."""
        from app.ui.pages.calendar.edits import ALL

        if not occ.event.recurring and occ.recurrence_id is None:
            then(ALL)
            return
        box = ask_scope(self, deleting)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(lambda b: then(box.choices[b])  # type: ignore[attr-defined]
                                  if b in box.choices else self.refresh())  # type: ignore[attr-defined]
        box.open()
        self.scope_box = box  # tests press its buttons

    def _save(self, occ: Occurrence, changes: EventChanges, scope: str) -> None:
        from app.ui.pages.calendar.edits import save_occurrence

        store = self.ctx.lazy("calendar")
        title = changes.get("title", occ.event.title)
        self._run(lambda: save_occurrence(store, occ, changes, scope),
                  self.tr("Changed “%1”").replace("%1", title))

    def _gone(self, occ: Occurrence, scope: str) -> None:
        from app.ui.pages.calendar.edits import delete_occurrence

        store = self.ctx.lazy("calendar")
        self._run(lambda: delete_occurrence(store, occ, scope),
                  self.tr("Deleted “%1”").replace("%1", occ.event.title))

    def _run(self, work: Callable[[], object], done_text: str) -> None:
        def done(_r: object) -> None:
            self._notice = done_text
            self.refresh()
            self.changed.emit()

        self.ctx.ops.run(work, done, self._failed, writes=True)

    def _failed(self, error: Exception) -> None:
        self.status.setText(self.tr("The calendar could not be read: %1").replace(
            "%1", file_error(error)))

    def _import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a calendar"), start_folder(),
                                              self.tr("Calendars (*.ics)"))
        if path:
            self.import_file(path)

    def import_file(self, path: str) -> None:
        """Import `path`. First, off the GUI thread, find the events changed both in Hearth
        and in the file (asked about: keep mine / take the file's / keep both) and, with
        "Remove events the file dropped" on, what would be removed (asked too)."""
        store = self.ctx.lazy("calendar")
        removing = self.remove_missing.isChecked()

        def work() -> tuple[list[Conflict], list[str]]:
            # icalendar is slow to load
            from skills.calendar.ical import conflicts_on_reimport, missing_on_reimport
            from skills.common.clock import local_timezone_name

            zone = local_timezone_name()
            missing = missing_on_reimport(store, Path(path), zone) if removing else []
            return conflicts_on_reimport(store, Path(path), zone), missing

        self.ctx.ops.run(work, lambda found: self._ask_conflicts(path, removing, *found),
                         self._failed)

    def _ask_conflicts(self, path: str, removing: bool, conflicts: list[Conflict],
                       missing: list[str]) -> None:
        from app.ui.pages.calendar.conflicts import ConflictDialog

        if not conflicts:
            self._confirm_removal(path, missing, {}, removing)
            return
        dialog = ConflictDialog(conflicts, Path(path).name, self)
        self.conflict_dialog = dialog  # tests answer it

        def answered(result: int) -> None:
            if result == ConflictDialog.DialogCode.Accepted:
                self._confirm_removal(path, missing, dialog.choices(), removing)
            else:
                self.status.setText(self.tr("Import cancelled: nothing changed."))
            dialog.deleteLater()

        dialog.finished.connect(answered)
        dialog.open()  # never blocks the GUI thread

    def _confirm_removal(self, path: str, titles: list[str], choices: dict[tuple[str, str], str],
                         removing: bool) -> None:
        if not titles:  # nothing to remove: no question to ask
            self._run_import(path, removing, choices)
            return
        count = plural(len(titles), self.tr("1 event from an earlier import of this calendar is "
                                            "not in %2 and will be removed:"),
                       self.tr("%1 events from an earlier import of this calendar are not in %2 "
                               "and will be removed:")).replace("%2", Path(path).name)
        shown = [html.escape(t) for t in titles[:MAX_LISTED]]
        if len(titles) > MAX_LISTED:
            shown.append(self.tr("…and %1 more").replace("%1", str(len(titles) - MAX_LISTED)))
        box = confirm(self, self.tr("Remove events?"),
                      html.escape(count) + "<br>• " + "<br>• ".join(shown),
                      plural(len(titles), self.tr("Remove 1 and import"),
                             self.tr("Remove %1 and import")),
                      lambda: self._run_import(path, True, choices), otherwise=lambda: (
                          self.status.setText(self.tr("Import cancelled: nothing changed."))))
        box.setTextFormat(Qt.TextFormat.RichText)

    def _run_import(self, path: str, remove_missing: bool, choices: dict[tuple[str, str], str]) -> None:
        store = self.ctx.lazy("calendar")

        def work() -> ImportReport:
            # imported here: icalendar is slow to load
            from skills.calendar.ical import import_file
            from skills.common.clock import local_timezone_name

            return import_file(store, Path(path), local_timezone_name(),
                               remove_missing=remove_missing, choices=choices)

        def done(report: ImportReport) -> None:
            text = self.tr("Imported: %1 new, %2 updated").replace(
                "%1", str(report.added)).replace("%2", str(report.updated))
            if report.unchanged:
                text += self.tr(", %1 unchanged").replace("%1", str(report.unchanged))
            if report.removed:
                text += self.tr(", %1 removed").replace("%1", str(report.removed))
            if report.kept:
                text += plural(len(report.kept), self.tr("; 1 event you changed in Hearth: "
                                                         "see details"),
                               self.tr("; %1 events you changed in Hearth: see details"))
            if report.repaired or report.skipped:
                text += self.tr("; %1 repaired, %2 skipped").replace(
                    "%1", str(len(report.repaired))).replace("%2", str(len(report.skipped)))
            self.status.setText(text)
            self._notice = text
            # Where and why, in the UI's language; UIDs and a library's words stay as they are.
            issues = [*report.skipped, *report.repaired]
            locale = ui_locale(self.ctx.translations)
            kept = [kept_reason(k, locale) for k in report.kept]  # what was kept, and why
            self.status.setToolTip("\n".join([*kept, *(issue_text(i) for i in issues)][:30]))
            self.refresh()
            self.todos.refresh()  # the file's to-dos came in too

        self.ctx.ops.run(work, done, self._failed, writes=True)

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

            Path(path).write_bytes(export_ics(store.all_events(),
                                              todos=store.todos.all(include_done=True)))

        self.ctx.ops.run(work,
                         lambda _r: self.status.setText(self.tr("Exported to %1").replace(
                             "%1", path)), self._failed, writes=True)
