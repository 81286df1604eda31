"""Reading what people and models type for dates and sizes: '2026-03-01', '10MB', '1.5 GiB'."""

from __future__ import annotations

import re
from datetime import datetime

_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_size(value: str | int) -> int:
    """Bytes from an int or text like '500', '10MB', '1.5 GiB', '200k' (binary units)."""
    if isinstance(value, bool):
        raise ValueError(f"not a size: {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise ValueError("a size cannot be negative")
        return value
    match = _SIZE.match(value)
    if not match:
        raise ValueError(f"not a size: {value!r} (try 500, 10MB or 1.5GB)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def parse_when(value: str) -> datetime:
    """An aware datetime from ISO 8601 ('2026-03-01', '2026-03-01T09:30', with or without an
    offset). Dates and times without an offset are read in the machine's time zone."""
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(
            f"not a date: {value!r} (use ISO 8601, e.g. 2026-03-01 or 2026-03-01T09:30)"
        ) from None
    return moment if moment.tzinfo else moment.astimezone()
