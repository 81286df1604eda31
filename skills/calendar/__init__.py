"""A private local calendar: events with recurrence and alarms, .ics import/export, tools."""

from skills.calendar.ical import IcsError, IcsRead, export_ics, import_file, parse_ics, read_ics
from skills.calendar.listing import Listing
from skills.calendar.model import Event, Occurrence
from skills.calendar.reminders import FiredAlarm, Reminders
from skills.calendar.report import ImportIssue, ImportReport
from skills.calendar.store import CalendarStore
from skills.calendar.tools import calendar_skills

__all__ = [
    "CalendarStore",
    "Event",
    "FiredAlarm",
    "IcsError",
    "IcsRead",
    "ImportIssue",
    "ImportReport",
    "Listing",
    "Occurrence",
    "Reminders",
    "calendar_skills",
    "export_ics",
    "import_file",
    "parse_ics",
    "read_ics",
]
