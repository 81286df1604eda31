"""Time zone names as calendar files write them -> IANA names: IANA itself, Windows names
("W. Europe Standard Time", as Outlook writes), path-prefixed names (Evolution's
"/freeassociation.sourceforge.net/Europe/Berlin"), and custom VTIMEZONE blocks matched by their
offsets to the IANA zone that behaves the same."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from functools import cache, lru_cache, partial
from itertools import pairwise
from zoneinfo import ZoneInfo, available_timezones

from icalendar.timezone.windows_to_olson import WINDOWS_TO_OLSON

from skills.common.clock import valid_zone

UTC = ZoneInfo("UTC")
# Offsets compared every 6 hours over two years: DST rules and transition days must agree.
_WEEK = 28  # samples
_SAMPLES = [datetime(2025, 1, 1, tzinfo=UTC) + timedelta(hours=6 * i) for i in range(104 * _WEEK + 1)]


def iana_name(tzid: str) -> str:
    """The IANA zone a TZID names, or "" when it names none (custom, or unknown)."""
    name = tzid.strip().strip('"')
    if not name:
        return ""
    if valid_zone(name):
        return "UTC" if name.upper() in ("UTC", "GMT", "ETC/UTC", "Z") else name
    if name in WINDOWS_TO_OLSON:
        return WINDOWS_TO_OLSON[name]
    parts = name.split("/")
    for i in range(1, len(parts)):
        tail = "/".join(parts[i:])
        if tail and valid_zone(tail):
            return tail
    return ""


def matching_zone(zone: tzinfo, prefer: tuple[str, ...] = ()) -> str:
    """The IANA zone with the same offsets as a custom VTIMEZONE over 2025-2026, or "".
    `prefer` (the user's own zone, say) wins among zones that behave the same."""
    ours = cache(partial(_offset, zone))  # each candidate asks for the same moments
    try:
        wanted = [ours(moment) for moment in _SAMPLES[::_WEEK]]
    except (ValueError, TypeError, OverflowError):
        return ""
    for name in [*(p for p in prefer if valid_zone(p)), *_candidates()]:
        z = ZoneInfo(name)
        if [_offset(z, moment) for moment in _SAMPLES[::_WEEK]] == wanted and _agree(ours, z):
            return name
    return ""


def same_rules(zone: tzinfo, name: str) -> bool:
    """Whether a file's VTIMEZONE keeps the same offsets as the IANA zone it is named after
    (over 2025-2026): when it does not, the file's rules win (RFC 5545 3.6.5)."""
    try:
        return _agree(partial(_offset, zone), ZoneInfo(name))
    except (ValueError, TypeError, OverflowError):
        return True  # rules that cannot be evaluated: the IANA zone is the better reading


def _agree(ours: Callable[[datetime], timedelta | None], other: tzinfo) -> bool:
    """`ours` (a file's zone's offset at a moment) and `other` have the same offset at every
    6-hour sample: compared once a week, and sample by sample in
    the weeks where either zone's offset changes. A file's VTIMEZONE (dateutil's rules, walked
    from their DTSTART: Outlook writes 1601) costs about a millisecond a moment, so the two
    years' 2,913 samples took seconds for each zone of an Outlook file. A change that is undone
    within the same week would go unseen; no zone's rules do that."""
    weekly = [ours(m) for m in _SAMPLES[::_WEEK]]
    if weekly != [_offset(other, m) for m in _SAMPLES[::_WEEK]]:
        return False
    for week, (a, b) in enumerate(pairwise(weekly)):
        if a != b:  # both zones change offset in this week (their weekly samples are equal)
            fine = _SAMPLES[week * _WEEK:(week + 1) * _WEEK]
            if any(ours(m) != _offset(other, m) for m in fine):
                return False
    return True


def _offset(zone: tzinfo, moment: datetime) -> timedelta | None:
    return moment.astimezone(zone).utcoffset()


@lru_cache(maxsize=1)
def _candidates() -> list[str]:
    """Windows' preferred zones first (the usual answer), then every other IANA zone."""
    preferred = list(dict.fromkeys(WINDOWS_TO_OLSON.values()))
    rest = sorted(n for n in available_timezones() if n not in set(preferred)
                  and "/" in n and not n.startswith(("Etc/", "posix/", "right/")))
    return [n for n in preferred if valid_zone(n)] + rest
