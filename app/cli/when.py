"""Dates typed on the command line: ISO 8601 as the tools take it, or "today", "tomorrow" and
"yesterday", each with an optional time ("tomorrow 17:00"), on this computer's calendar."""

from __future__ import annotations

import re
from datetime import date, timedelta

_OFFSETS = {"yesterday": -1, "today": 0, "tomorrow": 1}
_SPOKEN = re.compile(r"(yesterday|today|tomorrow)(?:[ T](\d{1,2}):(\d{2}))?", re.IGNORECASE)


def cli_when(text: str, today: date | None = None) -> str:
    """`text` as ISO 8601: a day word becomes its date (and time); anything else is passed on
    as typed, for the parser behind it to accept or refuse in its own words."""
    spoken = _SPOKEN.fullmatch(text.strip())
    if spoken is None:
        return text
    word, hour, minute = spoken.groups()
    day = (today or date.today()) + timedelta(days=_OFFSETS[word.lower()])
    if hour is None:
        return day.isoformat()
    return f"{day.isoformat()}T{int(hour):02d}:{minute}"
