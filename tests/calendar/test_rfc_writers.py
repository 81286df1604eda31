"""Calendar files from less common writers, read as RFC 5545 says, compared occurrence by
occurrence with recurring-ical-events (tests/calendar/reference.py). Where the reference reads
a file otherwise than the RFC, the test names each difference and the RFC's reason."""

from __future__ import annotations

from pathlib import Path

from tests.calendar.reference import compare

HEAD = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Odd writer//EN\r\n"
TAIL = "END:VCALENDAR\r\n"


def event(*lines: str) -> str:
    return "BEGIN:VEVENT\r\n" + "".join(f"{line}\r\n" for line in lines) + "END:VEVENT\r\n"


def written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "odd.ics"
    path.write_text(text, encoding="utf-8")
    return path


def test_bare_vevents_without_a_vcalendar(tmp_path: Path) -> None:
    body = (event("UID:b1", "DTSTART:20260310T090000Z", "DTEND:20260310T100000Z",
                  "SUMMARY:Bare")
            + event("UID:b2", "DTSTART;TZID=Europe/Paris:20260311T090000", "DURATION:PT1H",
                    "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Bare series"))
    agreement = compare(written(tmp_path, body), (HEAD + body + TAIL).encode())
    assert agreement.same and len(agreement.ours) == 4  # today: not an iCalendar file


# A VTIMEZONE named Europe/Berlin with US-style rules (summer time from the 2nd Sunday of
# March to the 1st Sunday of November): the file's rules win over the IANA zone's.
OWN_RULES = (
    "BEGIN:VTIMEZONE\r\nTZID:{tzid}\r\n"
    "BEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n"
    "DTSTART:19700308T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\n"
    "BEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\n"
    "DTSTART:19701101T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\n"
    "END:VTIMEZONE\r\n")


def test_a_vtimezone_with_other_rules_than_its_iana_namesake(tmp_path: Path) -> None:
    body = (OWN_RULES + event("UID:v1", "DTSTART;TZID={tzid}:20260315T090000",
                              "DTEND;TZID={tzid}:20260315T100000", "SUMMARY:One")
            + event("UID:v2", "DTSTART;TZID={tzid}:20260302T090000",
                    "DTEND;TZID={tzid}:20260302T093000", "RRULE:FREQ=WEEKLY;COUNT=6",
                    "SUMMARY:Weekly"))
    path = written(tmp_path, HEAD + body.format(tzid="Europe/Berlin") + TAIL)
    # The reference reads a TZID named after an IANA zone by the IANA rules: given the same
    # rules under a name of their own, it must follow them.
    agreement = compare(path, (HEAD + body.format(tzid="Berlin (US rules)") + TAIL).encode())
    assert agreement.same, agreement.difference()
    assert ("v1", "2026-03-15T07:00:00Z", "2026-03-15T08:00:00Z", "One") in agreement.ours


def test_local_times_in_a_dst_gap_or_fold(tmp_path: Path) -> None:
    path = written(tmp_path, HEAD + event(
        "UID:d1", "DTSTART;TZID=Europe/Berlin:20260329T023000",
        "DTEND;TZID=Europe/Berlin:20260329T043000", "SUMMARY:In the gap") + event(
        "UID:d2", "DTSTART;TZID=Europe/Berlin:20261025T023000",
        "DTEND;TZID=Europe/Berlin:20261025T033000", "SUMMARY:In the fold") + event(
        "UID:d3", "DTSTART;TZID=Europe/Berlin:20260327T023000", "DURATION:PT30M",
        "RRULE:FREQ=DAILY;COUNT=4", "SUMMARY:Daily across the gap") + event(
        "UID:d4", "DTSTART;TZID=America/New_York:20261030T013000", "DURATION:PT1H",
        "RRULE:FREQ=DAILY;COUNT=4", "SUMMARY:Daily across the fold") + TAIL)
    agreement = compare(path)
    ours, theirs = agreement.difference()
    # RFC 5545 3.3.5: a time in a gap is read with the offset before it (02:30 -> 01:30Z);
    # in a fold, the first of the two (02:30 CEST -> 00:30Z). Both agree on those. 3.3.6: a
    # duration in hours is exact, so an instance that starts in the gap or the fold still
    # lasts 30 minutes or an hour; the reference adds it to the wall clock.
    assert ours == [("d3", "2026-03-29T01:30:00Z", "2026-03-29T02:00:00Z",
                     "Daily across the gap"),
                    ("d4", "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z",
                     "Daily across the fold")]
    assert [(uid, start) for uid, start, *_ in theirs] == [(uid, start) for uid, start, *_
                                                           in ours]
    assert ("d1", "2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z", "In the gap") in \
        agreement.ours
    assert ("d2", "2026-10-25T00:30:00Z", "2026-10-25T02:30:00Z", "In the fold") in \
        agreement.ours


def test_recurrence_ids_in_another_form_replace_their_instance(tmp_path: Path) -> None:
    ny = "TZID=America/New_York"
    path = written(tmp_path, HEAD + event(
        "UID:r1", f"DTSTART;{ny}:20260302T090000", f"DTEND;{ny}:20260302T100000",
        "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Daily") + event(
        "UID:r1", "RECURRENCE-ID:20260303T140000Z", f"DTSTART;{ny}:20260303T110000",
        f"DTEND;{ny}:20260303T120000", "SUMMARY:Moved (UTC)") + event(
        "UID:r1", "RECURRENCE-ID;TZID=Europe/London:20260304T140000",
        f"DTSTART;{ny}:20260304T130000", f"DTEND;{ny}:20260304T140000",
        "SUMMARY:Moved (London)") + event(
        "UID:r1", "RECURRENCE-ID;VALUE=DATE:20260305", f"DTSTART;{ny}:20260305T150000",
        f"DTEND;{ny}:20260305T160000", "SUMMARY:Moved (date)") + event(
        "UID:r2", "DTSTART;VALUE=DATE:20260309", "DTEND;VALUE=DATE:20260310",
        "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:All-day") + event(
        "UID:r2", "RECURRENCE-ID:20260310T000000", "DTSTART;VALUE=DATE:20260312",
        "DTEND;VALUE=DATE:20260313", "SUMMARY:All-day moved") + TAIL)
    agreement = compare(path)
    ours, theirs = agreement.difference()
    # A DATE RECURRENCE-ID on a timed series names that day's instance (Outlook and Google
    # read it so): the reference keeps the original beside the moved one.
    assert (ours, theirs) == ([], [("r1", "2026-03-05T14:00:00Z", "2026-03-05T15:00:00Z",
                                    "Daily")])
    titles = [title for uid, _s, _e, title in agreement.ours if uid == "r1"]
    assert titles == ["Daily", "Moved (UTC)", "Moved (London)", "Moved (date)", "Daily"]
    assert [t for uid, *_, t in agreement.ours if uid == "r2"] == [
        "All-day", "All-day", "All-day moved"]


def test_count_and_until_in_utc_on_zoned_series(tmp_path: Path) -> None:
    path = written(tmp_path, HEAD + event(
        "UID:u1", "DTSTART;TZID=Europe/Berlin:20260320T233000", "DURATION:PT1H",
        "RRULE:FREQ=DAILY;UNTIL=20260325T223000Z", "SUMMARY:Until in UTC") + event(
        "UID:u2", "DTSTART;TZID=Australia/Sydney:20260330T080000", "DURATION:PT1H",
        "RRULE:FREQ=WEEKLY;UNTIL=20260420T220000Z", "SUMMARY:Across Sydney's change") + event(
        "UID:u3", "DTSTART;TZID=America/New_York:20260306T230000", "DURATION:PT30M",
        "RRULE:FREQ=DAILY;COUNT=5", "SUMMARY:Count across New York's change") + event(
        "UID:u4", "DTSTART;TZID=America/New_York:20260306T230000", "DURATION:PT30M",
        "RRULE:FREQ=DAILY;INTERVAL=2;UNTIL=20260313T040000Z", "SUMMARY:Until across it") + TAIL)
    agreement = compare(path)
    assert agreement.same, agreement.difference()
    assert [uid for uid, *_ in agreement.ours].count("u1") == 6  # the 25th's 23:30 is in
