"""Dates as the UI's locale writes them, with the month in words (never "02/12/2026", which
half the world reads as February): one owner for every page."""

from __future__ import annotations

import re
from datetime import date, datetime

from PySide6.QtCore import QDate, QLocale


def long_date(locale: QLocale, day: date, weekday: bool, year: bool) -> str:
    """The locale's long date, without the weekday or the year when they would repeat:
    "Monday, 30 November", "11月30日星期一", "30 November 2026", "2026年11月30日"."""
    return locale.toString(QDate(day.year, day.month, day.day), _pattern(locale, weekday, year))


def medium_date(locale: QLocale, day: date) -> str:
    """A date in a list or table: "2 Dec 2026", "Dec 2, 2026", "2026年12月2日"."""
    pattern = _pattern(locale, weekday=False, year=True).replace("MMMM", "MMM")
    return locale.toString(QDate(day.year, day.month, day.day), pattern)


def medium_date_time(locale: QLocale, moment: datetime) -> str:
    """A date and time in a table: "2 Dec 2026 10:15", "Dec 2, 2026 10:15", "2026年12月2日 10:15"."""
    return f"{medium_date(locale, moment.date())} {moment:%H:%M}"


def _pattern(locale: QLocale, weekday: bool, year: bool) -> str:
    pattern = locale.dateFormat(QLocale.FormatType.LongFormat)
    if not weekday:
        pattern = re.sub(r"d{4}[,，]?\s*", "", pattern)
    if not year:
        pattern = re.sub(r"[,，]?\s*y+年?", "", pattern)
    return pattern.strip(" ,")
