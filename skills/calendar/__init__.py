"""A private local calendar: events with recurrence and alarms, .ics import/export, tools."""

from skills.calendar.ical import IcsError, export_ics, parse_ics
from skills.calendar.model import Event, Occurrence
from skills.calendar.reminders import FiredAlarm, Reminders
from skills.calendar.store import CalendarStore, ImportReport
from skills.calendar.tools import calendar_skills

__all__ = [
    "CalendarStore",
    "Event",
    "FiredAlarm",
    "IcsError",
    "ImportReport",
    "Occurrence",
    "Reminders",
    "calendar_skills",
    "export_ics",
    "parse_ics",
]
