"""A calendar import's report in the UI's language: what it skipped or repaired (IssueWhy) and
which version it kept of an event changed in Hearth (KeptWhy); the one place those codes become
words here (the CLI's English is ImportIssue.reason and Kept.reason)."""

from __future__ import annotations

import re
from datetime import datetime

from PySide6.QtCore import QCoreApplication, QLocale

from app.ui.dates import medium_date_time
from skills.calendar.icsread import IcsError, IcsWhy
from skills.calendar.report import ImportIssue, IssueWhy, Kept, KeptWhy, fields


def _sentence(kept: Kept) -> str:
    translate = QCoreApplication.translate
    if kept.why is KeptWhy.NOT_NEWER:
        return (translate("KeptReason", "%1: kept as you deleted it in Hearth (the file's copy "
                                        "is not newer)") if kept.deleted else
                translate("KeptReason", "%1: kept as you changed it in Hearth (the file's copy "
                                        "is not newer)"))
    if kept.why is KeptWhy.TOOK_FILES:
        return (translate("KeptReason", "%1: deleted in Hearth, changed in the file; took the "
                                        "file's version") if kept.deleted else
                translate("KeptReason", "%1: changed in Hearth and in the file; took the file's "
                                        "version"))
    if kept.why is KeptWhy.KEPT_BOTH:
        return translate("KeptReason", "%1: changed in Hearth and in the file; kept both")
    return (translate("KeptReason", "%1: deleted in Hearth, changed in the file; kept it "
                                    "deleted") if kept.deleted else
            translate("KeptReason", "%1: changed in Hearth and in the file; kept yours"))


def _what(kept: Kept, locale: QLocale) -> str:
    translate = QCoreApplication.translate
    if not kept.when:
        return translate("KeptReason", "'%1'").replace("%1", kept.title)
    when = medium_date_time(locale, datetime.fromisoformat(kept.when))
    return translate("KeptReason", "'%1' on %2").replace("%1", kept.title).replace("%2", when)


def kept_reason(kept: Kept, locale: QLocale) -> str:
    text = _sentence(kept).replace("%1", _what(kept, locale))
    if kept.chosen:
        text = QCoreApplication.translate("KeptReason", "%1 (you chose)").replace("%1", text)
    return text


def _issue_sentence(why: IssueWhy) -> str:
    translate = QCoreApplication.translate
    return {
        IssueWhy.LINE_IGNORED: translate(
            "ImportIssue", "line ignored: not an iCalendar content line"),
        IssueWhy.NOT_CONTENT_LINE: translate("ImportIssue", "not an iCalendar content line: %1"),
        IssueWhy.TOO_DEEP: translate("ImportIssue", "components nested more than %1 deep"),
        IssueWhy.TOO_MANY_COMPONENTS: translate(
            "ImportIssue", "more than %1 components: the rest of the file was not read"),
        IssueWhy.END_UNOPENED: translate("ImportIssue", "END:%1 closes nothing that is open"),
        IssueWhy.END_EARLY: translate("ImportIssue", "END:%1 before END:%2"),
        IssueWhy.TOO_MANY_LINES: translate("ImportIssue", "more than %1 lines in one component"),
        IssueWhy.CUT_OFF: translate(
            "ImportIssue", "the file ends before END:%1 (it looks cut off)"),
        IssueWhy.PROP_MISSING: translate("ImportIssue", "%1 is missing"),
        IssueWhy.PROP_NOT_TIME: translate("ImportIssue", "%1 is not a date or time"),
        IssueWhy.RRULE_UNREADABLE: translate("ImportIssue", "%1 cannot be read: %2"),
        IssueWhy.UNREADABLE: translate("ImportIssue", "cannot be read"),
        IssueWhy.UNKNOWN_ZONE: translate("ImportIssue", "unknown time zone %1: read as %2"),
        IssueWhy.DEFAULT_LENGTH: translate(
            "ImportIssue", "cannot be read: the event is given its default length"),
        IssueWhy.KINDS_MATCHED: translate(
            "ImportIssue", "end is a date while start is a time (or the reverse): "
                           "matched"),
        IssueWhy.SWAPPED: translate("ImportIssue", "end before start: start and end swapped"),
        IssueWhy.ONE_DAY: translate(
            "ImportIssue", "all-day event ends when it starts: read as one day"),
        IssueWhy.EMPTY_RRULE: translate("ImportIssue", "empty RRULE ignored"),
        IssueWhy.RRULE_TWICE: translate("ImportIssue", "the same RRULE written twice: kept once"),
        IssueWhy.LISTED: translate(
            "ImportIssue", "repeats in a time zone of the file's own that no IANA "
                           "zone follows: its %1 repetitions were listed one by one"),
        IssueWhy.OTHER: "%1",  # an unexpected error's own words, shown as they came
    }[why]


def issue_text(issue: ImportIssue) -> str:
    """Where in the file, and why (a library's own words follow in brackets, as they came)."""
    translate = QCoreApplication.translate
    details = issue.fault.details
    own = fields(issue.fault.why)
    padded = (*details, "", "")
    why = re.sub(r"%([12])", lambda found: padded[int(found[1]) - 1],
                 _issue_sentence(issue.fault.why))
    if len(details) > own:
        why += f" ({details[own]})"
    where = (translate("ImportIssue", "line %1").replace("%1", str(issue.line)) if issue.line
             else translate("ImportIssue", "the file"))
    if issue.uid:
        where += f" ({issue.uid})"
    return translate("ImportIssue", "%1: %2").replace("%1", where).replace("%2", why)


def file_error(error: BaseException) -> str:
    """Why nothing of a file could be imported (other errors keep their own words)."""
    if not isinstance(error, IcsError):
        return str(error)
    if error.why is IcsWhy.NOT_ICALENDAR:
        return QCoreApplication.translate(
            "ImportIssue", "it is not an iCalendar file (no BEGIN:VCALENDAR found).")
    return QCoreApplication.translate(
        "ImportIssue", "it is %1 MB; Hearth imports calendar files up to %2 MB (split it, or "
                       "export a shorter range).").replace("%1", str(error.megabytes)).replace(
        "%2", str(error.limit))
