"""The routine dialog (name, question, first time, repetition, its next three runs) and the
schedule in the person's language."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QDate, QDateTime, QLocale, QTime
from PySide6.QtWidgets import (
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.routines import Schedule
from app.core.routines.schedule import EVERY
from app.ui.dates import medium_date_time
from app.ui.i18n import Retranslator
from app.ui.widgets import dim_label, room_to_write

if TYPE_CHECKING:
    from app.core.routines.store import Routine


REPEATS = ("", EVERY["day"], EVERY["weekday"], EVERY["week"], EVERY["month"])


def when_text(locale: QLocale, moment: datetime) -> str:
    """A run time as the UI's locale writes it, the month in words (never "02/12/2026")."""
    return medium_date_time(locale, moment)


def schedule_text(locale: QLocale, schedule: Schedule) -> str:
    """"Every weekday at 07:30", "Once, 03/12/2026 08:00", in the UI's language."""
    at, day = schedule.start.strftime("%H:%M"), str(schedule.start.day)
    rule = schedule.rrule.upper()
    if not rule:
        text = QCoreApplication.translate("Routines", "Once, %1")
        return text.replace("%1", when_text(locale, schedule.start))
    if rule == EVERY["day"]:
        return QCoreApplication.translate("Routines", "Every day at %1").replace("%1", at)
    if rule == EVERY["weekday"]:
        return QCoreApplication.translate("Routines", "Every weekday at %1").replace("%1", at)
    if rule == EVERY["week"]:
        name = locale.dayName(schedule.start.isoweekday(), QLocale.FormatType.LongFormat)
        text = QCoreApplication.translate("Routines", "Every %1 at %2")
        return text.replace("%1", name).replace("%2", at)
    if rule == EVERY["month"]:
        text = QCoreApplication.translate("Routines", "Every month on day %1 at %2")
        return text.replace("%1", day).replace("%2", at)
    text = QCoreApplication.translate("Routines", "Custom rule: %1")
    return text.replace("%1", schedule.rrule)


def _name(label: QLabel, field: QWidget, text: Callable[[], str]) -> None:
    label.setText(text())
    field.setAccessibleName(text())


class RoutineDialog(QDialog):
    """Add or edit a routine; `values()` after accept: (title, ask, Schedule)."""

    def __init__(self, locale: QLocale, timezone: str, routine: Routine | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._locale, self.timezone, self.routine = locale, timezone, routine
        self._tr = Retranslator(self)
        self._tr(lambda: self.setWindowTitle(
            self.tr("Edit routine") if routine is not None else self.tr("New routine")))
        self.name = QLineEdit(routine.title if routine is not None else "")
        self.ask = QPlainTextEdit(routine.ask if routine is not None else "")
        self.ask.setTabChangesFocus(True)
        self._tr(lambda: self.name.setPlaceholderText(self.tr("Morning briefing")))
        self._tr(lambda: self.ask.setPlaceholderText(self.tr(
            "What Hearth is asked each time, e.g. “What is on my calendar today, and which "
            "to-dos are due?” Its answer comes as a new chat and a notification.")))
        self.when = QDateTimeEdit(calendarPopup=True, displayFormat="yyyy-MM-dd HH:mm")
        self.repeat = QComboBox()
        self.next_runs = dim_label()
        self._fill(routine)
        self._build()
        for signal in (self.when.dateTimeChanged, self.repeat.currentIndexChanged):
            signal.connect(self._preview)
        self._tr(self._preview)

    def _fill(self, routine: Routine | None) -> None:
        start = routine.schedule.start if routine is not None else (
            datetime.now().replace(minute=0, second=0, microsecond=0) + timedelta(hours=1))
        self.when.setDateTime(QDateTime(QDate(start.year, start.month, start.day),
                                        QTime(start.hour, start.minute)))
        self._rules = list(REPEATS)
        rule = routine.schedule.rrule if routine is not None else ""
        if rule not in self._rules:
            self._rules.append(rule)  # a rule written elsewhere (the CLI) stays as it is
        self._tr(self._repeat_names)
        self.repeat.setCurrentIndex(self._rules.index(rule))

    def _repeat_names(self) -> None:
        names = [self.tr("Once"), self.tr("Every day"), self.tr("Every weekday"),
                 self.tr("Every week"), self.tr("Every month")]
        names += [self.tr("Custom rule: %1").replace("%1", r) for r in self._rules[5:]]
        index = max(0, self.repeat.currentIndex())
        self.repeat.clear()
        self.repeat.addItems(names)
        self.repeat.setCurrentIndex(index)

    def _build(self) -> None:
        form = QFormLayout()
        labels = [(lambda: self.tr("Name"), self.name), (lambda: self.tr("Ask"), self.ask),
                  (lambda: self.tr("First run"), self.when), (lambda: self.tr("Repeat"),
                                                              self.repeat)]
        for text, field in labels:
            label = QLabel()
            label.setBuddy(field)
            self._tr(partial(_name, label, field, text))
            form.addRow(label, field)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        room_to_write(self)
        column.addLayout(form)
        column.addWidget(self.next_runs)
        column.addWidget(self.buttons)

    def schedule(self) -> Schedule:
        moment = self.when.dateTime()
        day, clock = moment.date(), moment.time()
        start = datetime(day.year(), day.month(), day.day(), clock.hour(), clock.minute())
        return Schedule(start, self.timezone, self._rules[max(0, self.repeat.currentIndex())])

    def _preview(self) -> None:
        from zoneinfo import ZoneInfo

        runs = self.schedule().upcoming(datetime.now(ZoneInfo(self.timezone)), 3)
        shown = ", ".join(when_text(self._locale, r.replace(tzinfo=None)) for r in runs)
        said = self.tr("Next runs: %1") if len(runs) > 1 else self.tr("Runs once: %1")
        self.next_runs.setText(said.replace("%1", shown) if runs
                               else self.tr("This time has passed: it would never run."))

    def _accept(self) -> None:
        from zoneinfo import ZoneInfo

        if not self.ask.toPlainText().strip():
            self.next_runs.setText(self.tr("Write what Hearth should ask."))
            self.ask.setFocus()
            return
        if not self.schedule().upcoming(datetime.now(ZoneInfo(self.timezone)), 1):
            self.when.setFocus()  # the preview already says this time has passed
            return
        self.accept()

    def values(self) -> tuple[str, str, Schedule]:
        return self.name.text().strip(), self.ask.toPlainText().strip(), self.schedule()
