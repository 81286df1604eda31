"""The event form (New event / double-click), and the question a repeating event asks."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QTime
from PySide6.QtGui import QFocusEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QWidget,
)

from app.ui.pages.calendar.edits import ALL, FOLLOWING, THIS, EventChanges
from app.ui.widgets import button, choice, room_to_write

if TYPE_CHECKING:
    from skills.calendar.model import Event, When

REPEATS = ("", "FREQ=DAILY", "FREQ=WEEKLY", "FREQ=MONTHLY", "FREQ=YEARLY")
ALARMS = (None, 0, 5, 10, 15, 30, 60, 24 * 60)  # minutes before; None: no reminder


def _qdt(value: datetime) -> QDateTime:
    local = value.astimezone()
    return QDateTime(QDate(local.year, local.month, local.day),
                     QTime(local.hour, local.minute))


def _py(value: QDateTime) -> datetime:
    d, t = value.date(), value.time()
    return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute()).astimezone()


class TimeEdit(QDateTimeEdit):
    """A date-time field that takes digits typed where the cursor is: the section under it
    is selected first, so "14" typed into the hour makes 14:00 (a plain QDateTimeEdit inserts
    the digits beside the old ones and refuses the result)."""

    def __init__(self) -> None:
        super().__init__()
        self._typing = False  # a number is being typed into the current section

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.text().isdigit():
            if not self._typing and not self.lineEdit().hasSelectedText():
                self.setSelectedSection(self.currentSection())
            self._typing = True
        else:
            self._typing = False
        super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        self._typing = False
        super().mousePressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802
        self._typing = False
        super().focusInEvent(event)


class EventDialog(QDialog):
    """Title, all day, start, end, place, notes, repeat, reminder. `changes()` is what Save
    writes; `deleted` is set when the person chose Delete."""

    def __init__(self, start: When, end: When, event: Event | None = None,
                 timezone: str = "UTC", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.timezone = (event.timezone if event is not None and event.timezone else timezone)
        self.deleted = False
        self.setWindowTitle(self.tr("Edit event") if event is not None else self.tr("New event"))
        room_to_write(self)
        form = QFormLayout(self)
        self.title = QLineEdit(event.title if event is not None else "")
        self.title.setPlaceholderText(self.tr("What is it?"))
        self.title.setAccessibleName(self.tr("Title"))
        form.addRow(self.tr("Title"), self.title)
        self.all_day = QCheckBox(self.tr("All day"))
        form.addRow("", self.all_day)
        self.start = TimeEdit()
        self.end = TimeEdit()
        for edit, name in ((self.start, self.tr("Starts")), (self.end, self.tr("Ends"))):
            edit.setCalendarPopup(True)
            edit.setAccessibleName(name)
            form.addRow(name, edit)
        all_day = not isinstance(start, datetime)
        self.all_day.setChecked(all_day)
        first = start if isinstance(start, datetime) else datetime.combine(start, time(9))
        last = end if isinstance(end, datetime) else datetime.combine(
            end - timedelta(days=1), time(10))
        self.start.setDateTime(_qdt(first.astimezone() if first.tzinfo else first.astimezone()))
        self.end.setDateTime(_qdt(last.astimezone() if last.tzinfo else last.astimezone()))
        self._length = self.start.dateTime().secsTo(self.end.dateTime())
        self.start.dateTimeChanged.connect(self._start_changed)
        self.end.dateTimeChanged.connect(self._end_changed)
        self.all_day.toggled.connect(self._all_day_changed)
        self._all_day_changed(all_day)
        self.location = QLineEdit(event.location if event is not None else "")
        self.location.setAccessibleName(self.tr("Place"))
        form.addRow(self.tr("Place"), self.location)
        self.notes = QPlainTextEdit(event.notes if event is not None else "")
        self.notes.setAccessibleName(self.tr("Notes"))
        self.notes.setFixedHeight(70)
        form.addRow(self.tr("Notes"), self.notes)
        names = [self.tr("Does not repeat"), self.tr("Every day"), self.tr("Every week"),
                 self.tr("Every month"), self.tr("Every year")]
        repeats: list[tuple[str, object]] = list(zip(names, REPEATS, strict=True))
        self._original_rule = rrule = event.rrule if event is not None else ""
        current = rrule.split(";")[0]
        if current and current not in REPEATS:
            repeats.append((self.tr("Custom (%1)").replace("%1", rrule), rrule))
        self.repeat = choice(repeats, rrule if rrule in dict(repeats).values() else current,
                             self.tr("Repeat"))
        form.addRow(self.tr("Repeat"), self.repeat)
        labels = [self.tr("No reminder"), self.tr("At the start"), self.tr("5 minutes before"),
                  self.tr("10 minutes before"), self.tr("15 minutes before"),
                  self.tr("30 minutes before"), self.tr("1 hour before"),
                  self.tr("1 day before")]
        alarms: list[tuple[str, object]] = list(zip(labels, ALARMS, strict=True))
        chosen = event.alarms[0] if event is not None and event.alarms else None
        if chosen is not None and chosen not in ALARMS:
            alarms.append((self.tr("%1 minutes before").replace("%1", str(chosen)), chosen))
        self.alarm = choice(alarms, chosen, self.tr("Reminder"))
        form.addRow(self.tr("Reminder"), self.alarm)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setWordWrap(True)
        form.addRow("", self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        if event is not None:
            buttons.addButton(button(self.tr("Delete…"), self._delete),
                              QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.title.setFocus()

    def _start_changed(self, start: QDateTime) -> None:
        """The end follows the start: the event keeps its length, as calendar apps do."""
        self.end.setDateTime(start.addSecs(self._length))

    def _end_changed(self, end: QDateTime) -> None:
        length = self.start.dateTime().secsTo(end)
        if length >= 0:
            self._length = length

    def _all_day_changed(self, on: bool) -> None:
        fmt = "yyyy-MM-dd" if on else "yyyy-MM-dd HH:mm"
        for edit in (self.start, self.end):
            edit.setDisplayFormat(fmt)

    def _delete(self) -> None:
        self.deleted = True
        self.accept()

    def changes(self) -> EventChanges:
        """The fields as the store takes them; ValueError with a reason a person reads."""
        title = self.title.text().strip()
        if not title:
            raise ValueError(self.tr("Give the event a title."))
        if self.all_day.isChecked():
            first: date = _day(self.start.date())
            last: date = _day(self.end.date()) + timedelta(days=1)
            if last <= first:
                raise ValueError(self.tr("The end must be on or after the start."))
        else:
            zone = ZoneInfo(self.timezone or "UTC")
            first = _py(self.start.dateTime()).astimezone(zone)
            last = _py(self.end.dateTime()).astimezone(zone)
            if last < first:
                raise ValueError(self.tr("The end must be after the start."))
        rule = str(self.repeat.currentData() or "")
        if rule and self._original_rule.startswith(rule):
            rule = self._original_rule  # keep BYDAY / COUNT the series already had
        minutes = self.alarm.currentData()
        return {"title": title, "start": first, "end": last,
                "all_day": not isinstance(first, datetime),
                "timezone": "" if not isinstance(first, datetime) else self.timezone,
                "location": self.location.text().strip(),
                "notes": self.notes.toPlainText().strip(), "rrule": rule,
                "alarms": [] if minutes is None else [int(minutes)]}

    def accept(self) -> None:
        if not self.deleted:
            try:
                self.changes()
            except ValueError as exc:
                self.error.setText(str(exc))
                return
        super().accept()


def _day(day: QDate) -> date:
    return date(day.year(), day.month(), day.day())


def ask_scope(parent: QWidget, deleting: bool) -> QMessageBox:
    """"This event only / This and following / All events" for a repeating event (the box is
    returned open; its `scope` property is read when it closes)."""
    translate = QCoreApplication.translate
    question = (translate("RepeatScope", "Delete only this event, this and the following "
                                         "ones, or every one?") if deleting else
                translate("RepeatScope", "Change only this event, this and the following "
                                         "ones, or every one?"))
    box = QMessageBox(QMessageBox.Icon.Question, translate("RepeatScope", "Repeating event"),
                      question, QMessageBox.StandardButton.Cancel, parent)
    role = QMessageBox.ButtonRole.AcceptRole
    choices = {box.addButton(translate("RepeatScope", "This event only"), role): THIS,
               box.addButton(translate("RepeatScope", "This and following"), role): FOLLOWING,
               box.addButton(translate("RepeatScope", "All events"), role): ALL}
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.choices = choices  # type: ignore[attr-defined]
    return box
