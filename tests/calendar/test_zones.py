"""A file's VTIMEZONE against the IANA zone it is named after: the same rules, or its own."""

from __future__ import annotations

from icalendar import Calendar

from skills.calendar.zones import matching_zone, same_rules

# Europe/Berlin as Outlook writes it: rules that start in 1601 (each moment walks them).
RULES = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n"
    "BEGIN:VTIMEZONE\r\nTZID:Berlin {spring}\r\n"
    "BEGIN:STANDARD\r\nDTSTART:16011028T030000\r\nRRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10\r\n"
    "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
    "BEGIN:DAYLIGHT\r\nDTSTART:16010325T020000\r\nRRULE:FREQ=YEARLY;BYDAY={spring};BYMONTH=3\r\n"
    "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
    "END:VTIMEZONE\r\nEND:VCALENDAR\r\n")


def zone(spring: str):  # type: ignore[no-untyped-def]
    """A TZID of its own for each rule: icalendar keeps the first zone it built for a name."""
    calendar = Calendar.from_ical(RULES.format(spring=spring))
    return calendar.walk("VTIMEZONE")[0].to_tz()


def test_outlooks_berlin_keeps_the_iana_zone() -> None:
    assert same_rules(zone("-1SU"), "Europe/Berlin")
    assert matching_zone(zone("-1SU"), ("Europe/Berlin",)) == "Europe/Berlin"


def test_summer_time_a_day_early_is_a_zone_of_its_own() -> None:
    """The last Saturday of March: the same week as Berlin's change, one day apart."""
    assert not same_rules(zone("-1SA"), "Europe/Berlin")
    assert matching_zone(zone("-1SA"), ("Europe/Berlin",)) != "Europe/Berlin"


def test_summer_time_weeks_apart_is_a_zone_of_its_own() -> None:
    assert not same_rules(zone("2SU"), "Europe/Berlin")
