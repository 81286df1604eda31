"""Writes the calendar test corpus (tests/calendar/corpus/*.ics): files in the shapes that Google
Calendar, Apple Calendar, Outlook, Thunderbird/Lightning, holiday feeds and sports feeds export,
plus the edge cases issue 15 lists. Hand-written templates, deterministic variants; nothing is
downloaded. Run again after editing: `python tests/calendar/corpus/make_corpus.py`."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent

RULES = [
    "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
    "FREQ=DAILY;COUNT=30",
    "FREQ=DAILY;INTERVAL=3;UNTIL=20261031T220000Z",
    "FREQ=MONTHLY;BYDAY=2TU",
    "FREQ=MONTHLY;BYMONTHDAY=31",
    "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
    "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "FREQ=WEEKLY;WKST=SU;BYDAY=SU,SA;INTERVAL=2;COUNT=20",
    "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15",
    "FREQ=WEEKLY;UNTIL=20260401T000000Z;BYDAY=TH",
    "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20260630T160000Z",
    "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=1",
    "FREQ=MONTHLY;BYDAY=-1FR;COUNT=8",
    "FREQ=WEEKLY;BYDAY=MO",
]
ZONES = ["Europe/Berlin", "America/New_York", "Europe/London", "Asia/Tokyo", "Australia/Sydney",
         "America/Los_Angeles", "Asia/Kolkata", "America/Sao_Paulo"]
WINDOWS = {"Europe/Berlin": "W. Europe Standard Time", "America/New_York": "Eastern Standard Time",
           "Europe/London": "GMT Standard Time", "Asia/Tokyo": "Tokyo Standard Time",
           "Australia/Sydney": "AUS Eastern Standard Time",
           "America/Los_Angeles": "Pacific Standard Time", "Asia/Kolkata": "India Standard Time",
           "America/Sao_Paulo": "E. South America Standard Time"}
# VTIMEZONE bodies as the producers write them (standard/daylight rules from 1601 or 1970).
VTZ = {
    "Europe/Berlin": ("+0100", "+0200", "CET", "CEST", "-1SU", 3, "-1SU", 10, "020000", "030000"),
    "America/New_York": ("-0500", "-0400", "EST", "EDT", "2SU", 3, "1SU", 11, "020000", "020000"),
    "Europe/London": ("+0000", "+0100", "GMT", "BST", "-1SU", 3, "-1SU", 10, "010000", "020000"),
    "America/Los_Angeles": ("-0800", "-0700", "PST", "PDT", "2SU", 3, "1SU", 11, "020000",
                            "020000"),
    "Australia/Sydney": ("+1000", "+1100", "AEST", "AEDT", "1SU", 10, "1SU", 4, "020000",
                         "030000"),
}
FIXED = {"Asia/Tokyo": ("+0900", "JST"), "Asia/Kolkata": ("+0530", "IST"),
         "America/Sao_Paulo": ("-0300", "-03")}


def fold(line: str) -> str:
    """Fold at 75 octets as RFC 5545 3.1 says, wherever that falls (Google: mid-parameter)."""
    data = line.encode()
    if len(data) <= 75:
        return line
    parts, start, width = [], 0, 75
    while start < len(data):
        end = min(len(data), start + width)
        while end < len(data) and (data[end] & 0xC0) == 0x80:
            end -= 1  # never split a UTF-8 character
        parts.append(data[start:end].decode())
        start, width = end, 74
    return "\r\n ".join(parts)


def vtimezone(zone: str, tzid: str, since: str = "19700101", x_lic: bool = True) -> list[str]:
    lines = ["BEGIN:VTIMEZONE", f"TZID:{tzid}"]
    if x_lic:
        lines.append(f"X-LIC-LOCATION:{zone}")
    if zone in FIXED:
        off, name = FIXED[zone]
        return [*lines, "BEGIN:STANDARD", f"TZOFFSETFROM:{off}", f"TZOFFSETTO:{off}",
                f"TZNAME:{name}", f"DTSTART:{since}T000000", "END:STANDARD", "END:VTIMEZONE"]
    std, dst, sname, dname, dday, dmon, sday, smon, dtime, stime = VTZ[zone]
    return [*lines, "BEGIN:DAYLIGHT", f"TZOFFSETFROM:{std}", f"TZOFFSETTO:{dst}",
            f"TZNAME:{dname}", f"DTSTART:{since[:4]}{dmon:02d}{since[6:8]}T{dtime}",
            f"RRULE:FREQ=YEARLY;BYMONTH={dmon};BYDAY={dday}", "END:DAYLIGHT",
            "BEGIN:STANDARD", f"TZOFFSETFROM:{dst}", f"TZOFFSETTO:{std}", f"TZNAME:{sname}",
            f"DTSTART:{since[:4]}{smon:02d}{since[6:8]}T{stime}",
            f"RRULE:FREQ=YEARLY;BYMONTH={smon};BYDAY={sday}", "END:STANDARD", "END:VTIMEZONE"]


def calendar(head: list[str], body: list[str], folded: bool = True) -> str:
    lines = ["BEGIN:VCALENDAR", *head, *body, "END:VCALENDAR"]
    return "\r\n".join(fold(x) if folded else x for x in lines) + "\r\n"


def google(n: int, rule: str, zone: str) -> str:
    head = ["PRODID:-//Google Inc//Google Calendar 70.9054//EN", "VERSION:2.0",
            "CALSCALE:GREGORIAN", "METHOD:PUBLISH", f"X-WR-CALNAME:Work {n}",
            f"X-WR-TIMEZONE:{zone}", "X-WR-CALDESC:"]
    body = vtimezone(zone, zone) if zone in VTZ or zone in FIXED else []
    uid = f"{n:04d}abcdef{n * 7919 % 100000:05d}@google.com"
    body += ["BEGIN:VEVENT", f"DTSTART;TZID={zone}:20260105T093000",
             f"DTEND;TZID={zone}:20260105T100000", f"RRULE:{rule}",
             f"EXDATE;TZID={zone}:20260107T093000", "DTSTAMP:20251201T101010Z", f"UID:{uid}",
             "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=gabo"
             "@example.com;X-NUM-GUESTS=0:mailto:gabo@example.com",
             "ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=Ren"
             "ée Dupont-Lefèvre;X-NUM-GUESTS=0:mailto:renee.dupont-lefevre@example.org",
             "CREATED:20251120T080000Z",
             "DESCRIPTION:Agenda:\\n- status\\n- blockers\\nJoin: https://meet.google.com/"
             "abc-defg-hij",
             "LAST-MODIFIED:20251201T090000Z", "LOCATION:Room 4\\, 2nd floor", "SEQUENCE:2",
             "STATUS:CONFIRMED", f"SUMMARY:Team sync {n}", "TRANSP:OPAQUE",
             "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:This is an event reminder",
             "TRIGGER:-P0DT0H10M0S", "END:VALARM", "END:VEVENT",
             # a moved instance (RECURRENCE-ID), as Google writes it after the series
             "BEGIN:VEVENT", f"DTSTART;TZID={zone}:20260114T150000",
             f"DTEND;TZID={zone}:20260114T153000", "DTSTAMP:20251201T101010Z", f"UID:{uid}",
             f"RECURRENCE-ID;TZID={zone}:20260114T093000", "CREATED:20251120T080000Z",
             "LAST-MODIFIED:20251202T090000Z", "SEQUENCE:3", "STATUS:CONFIRMED",
             f"SUMMARY:Team sync {n} (moved)", "TRANSP:OPAQUE", "END:VEVENT",
             # a UTC single event (converted through X-WR-TIMEZONE) and an all-day one
             "BEGIN:VEVENT", "DTSTART:20260210T130000Z", "DTEND:20260210T140000Z",
             "DTSTAMP:20251201T101010Z", f"UID:single{n}@google.com", "SUMMARY:Lunch with Sam",
             "SEQUENCE:0", "STATUS:CONFIRMED", "TRANSP:OPAQUE", "END:VEVENT",
             "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20260301", "DTEND;VALUE=DATE:20260304",
             "DTSTAMP:20251201T101010Z", f"UID:trip{n}@google.com", "SUMMARY:Trip to Lyon",
             "TRANSP:TRANSPARENT", "END:VEVENT"]
    return calendar(head, body)


def apple(n: int, rule: str, zone: str) -> str:
    head = ["METHOD:PUBLISH", "VERSION:2.0", f"X-WR-CALNAME:Home {n}",
            "PRODID:-//Apple Inc.//macOS 14.4//EN", "X-APPLE-CALENDAR-COLOR:#34AADC",
            f"X-WR-TIMEZONE:{zone}", "CALSCALE:GREGORIAN"]
    body = vtimezone(zone, zone, since="19700101", x_lic=False) if zone in VTZ or \
        zone in FIXED else []
    uid = f"{n:08X}-1A2B-4C3D-9E8F-0123456789AB"
    body += ["BEGIN:VEVENT", "TRANSP:OPAQUE", "DTEND;TZID=" + zone + ":20260112T190000",
             f"UID:{uid}", "DTSTAMP:20251130T120000Z", "LOCATION:Gym",
             "X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC", "SEQUENCE:1",
             f"SUMMARY:Training {n}", "LAST-MODIFIED:20251130T115959Z",
             "DTSTART;TZID=" + zone + ":20260112T180000", "CREATED:20251101T100000Z",
             f"RRULE:{rule}", "BEGIN:VALARM", "X-WR-ALARMUID:AB12CD34-0000-0000-0000-000000000001",
             f"UID:AB12CD34-0000-0000-0000-{n:012d}", "TRIGGER:-PT30M",
             "ATTACH;VALUE=URI:Chord", "ACTION:AUDIO", "END:VALARM", "END:VEVENT",
             "BEGIN:VEVENT", "TRANSP:TRANSPARENT", "DTEND;VALUE=DATE:20260419",
             f"UID:{uid}-bday", "DTSTAMP:20251130T120000Z", "SUMMARY:Mum's birthday",
             "DTSTART;VALUE=DATE:20260418", "RRULE:FREQ=YEARLY", "X-APPLE-UNIVERSAL-ID:"
             "f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f", "END:VEVENT",
             "BEGIN:VEVENT", "DTSTART;TZID=" + zone + ":20260120T083000",
             "DTEND;TZID=" + zone + ":20260120T091500", f"UID:{uid}-dentist",
             "DTSTAMP:20251130T120000Z", "SUMMARY:Dentist", "LOCATION:Main St 12",
             "X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-APPLE-RADIUS=70;X-TITLE=Main St 12:"
             "geo:52.520008,13.404954", "BEGIN:VALARM", "ACTION:DISPLAY",
             "TRIGGER;VALUE=DATE-TIME:20260119T180000Z", "DESCRIPTION:Reminder", "END:VALARM",
             "END:VEVENT"]
    return calendar(head, body, folded=False)


def outlook(n: int, rule: str, zone: str) -> str:
    tzid = WINDOWS[zone]
    head = ["PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN", "VERSION:2.0",
            "METHOD:PUBLISH", "X-MS-OLK-FORCEINSPECTOROPEN:TRUE"]
    body = vtimezone(zone, tzid, since="16010101", x_lic=False) if zone in VTZ or \
        zone in FIXED else []
    uid = ("040000008200E00074C5B7101A82E00800000000" + f"{n:08x}" + "0" * 24).upper()
    body += ["BEGIN:VEVENT", "CLASS:PUBLIC", "CREATED:20251115T093000Z",
             f"DESCRIPTION:Quarterly planning {n}\\n\\n", f"DTEND;TZID=\"{tzid}\":20260106T120000",
             "DTSTAMP:20251201T080000Z", f"DTSTART;TZID=\"{tzid}\":20260106T110000",
             "LAST-MODIFIED:20251115T093000Z", "LOCATION:Teams", "PRIORITY:5",
             f"RRULE:{rule}", f"EXDATE;TZID=\"{tzid}\":20260113T110000,20260120T110000",
             "SEQUENCE:0", "SUMMARY;LANGUAGE=en-us:Planning", "TRANSP:OPAQUE", f"UID:{uid}",
             "X-MICROSOFT-CDO-BUSYSTATUS:BUSY", "X-MICROSOFT-CDO-IMPORTANCE:1",
             "X-MICROSOFT-DISALLOW-COUNTER:FALSE", "X-MS-OLK-AUTOFILLLOCATION:FALSE",
             "BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
             "END:VALARM", "END:VEVENT",
             "BEGIN:VEVENT", "CLASS:PUBLIC", "DTSTART;VALUE=DATE:20260224",
             "DTEND;VALUE=DATE:20260225", "DTSTAMP:20251201T080000Z", "SUMMARY:Company day",
             f"UID:{uid[:-4]}DAY1", "X-MICROSOFT-CDO-ALLDAYEVENT:TRUE",
             "X-MICROSOFT-CDO-BUSYSTATUS:FREE", "END:VEVENT"]
    return calendar(head, body)


def thunderbird(n: int, rule: str, zone: str) -> str:
    head = ["PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "VERSION:2.0"]
    body = vtimezone(zone, zone) if zone in VTZ or zone in FIXED else []
    uid = f"{n:08x}-5f1e-4b7a-9d2c-lightning"
    body += ["BEGIN:VEVENT", "CREATED:20251110T101500Z", "LAST-MODIFIED:20251111T101500Z",
             "DTSTAMP:20251111T101500Z", f"UID:{uid}", f"SUMMARY:Choir {n}",
             f"RRULE:{rule}", f"DTSTART;TZID={zone}:20260108T193000",
             f"DTEND;TZID={zone}:20260108T211500", "X-MOZ-GENERATION:3",
             f"RDATE;TZID={zone}:20260110T100000", "END:VEVENT",
             "BEGIN:VEVENT", "CREATED:20251110T101500Z", "LAST-MODIFIED:20251111T101500Z",
             "DTSTAMP:20251111T101500Z", f"UID:{uid}", f"SUMMARY:Choir {n} - concert",
             f"RECURRENCE-ID;TZID={zone}:20260129T193000", f"DTSTART;TZID={zone}:20260129T180000",
             f"DTEND;TZID={zone}:20260129T220000", "SEQUENCE:1", "X-MOZ-GENERATION:4",
             "END:VEVENT",
             "BEGIN:VTODO", "CREATED:20251110T101500Z", "DTSTAMP:20251111T101500Z",
             f"UID:todo-{uid}", "SUMMARY:Buy sheet music", f"DUE;TZID={zone}:20260115T180000",
             "STATUS:NEEDS-ACTION", "END:VTODO"]
    return calendar(head, body, folded=False)


def holidays(n: int, country: str) -> str:
    head = ["PRODID:-//Holiday feed//Public holidays//EN", "VERSION:2.0", "METHOD:PUBLISH",
            f"X-WR-CALNAME:Holidays {country}", "X-PUBLISHED-TTL:P1D"]
    body: list[str] = []
    days = [("0101", "New Year's Day"), ("0501", "Labour Day"), ("1225", "Christmas Day"),
            ("1226", "Boxing Day"), ("0403", "Good Friday"), ("0406", "Easter Monday")]
    for i, (md, name) in enumerate(days):
        yearly = md in ("0101", "0501", "1225", "1226")
        body += ["BEGIN:VEVENT", f"UID:{country}-{md}-{n}@holidays.example",
                 "DTSTAMP:20251201T000000Z", f"DTSTART;VALUE=DATE:2026{md}",
                 f"DTEND;VALUE=DATE:2026{md}",  # zero length, as many feeds write it
                 "RRULE:FREQ=YEARLY" if yearly else "RRULE:",
                 f"SUMMARY:{name}", "TRANSP:TRANSPARENT", "CLASS:PUBLIC",
                 "CATEGORIES:Holidays", "END:VEVENT"]
        if i == 1:  # some feeds write the rule twice
            body.insert(len(body) - 5, "RRULE:FREQ=YEARLY")
    return calendar(head, body)


def sports(n: int) -> str:
    head = ["PRODID:-//Fixtures//Season 2026//EN", "VERSION:2.0", f"X-WR-CALNAME:FC {n} fixtures",
            "X-WR-TIMEZONE:UTC", "REFRESH-INTERVAL;VALUE=DURATION:PT12H"]
    body: list[str] = []
    for week in range(20):
        day = 3 + week * 7
        month, dom = 1 + (day - 1) // 28, 1 + (day - 1) % 28
        status = "CANCELLED" if week == 5 else "CONFIRMED"
        body += ["BEGIN:VEVENT", f"UID:match-{n}-{week}@fixtures.example",
                 "DTSTAMP:20251201T000000Z",
                 f"DTSTART:2026{month:02d}{dom:02d}T{14 + week % 4:02d}3000Z",
                 "DURATION:PT1H45M", f"SUMMARY:FC {n} vs Rovers {week}",
                 f"LOCATION:Stadium {week % 3}", f"STATUS:{status}",
                 f"SEQUENCE:{1 if week == 7 else 0}", "END:VEVENT"]
    return calendar(head, body)


EDGE = {
    "edge-rdate-periods": ["BEGIN:VEVENT", "UID:rp", "DTSTART;TZID=Europe/Berlin:20260105T090000",
                           "DTEND;TZID=Europe/Berlin:20260105T100000", "RRULE:FREQ=WEEKLY;COUNT=5",
                           "RDATE;VALUE=PERIOD:20260110T100000Z/PT3H,20260111T080000Z/"
                           "20260111T083000Z", "RDATE;VALUE=DATE:20260120",
                           "RDATE;TZID=Europe/Berlin:20260125T170000",
                           "SUMMARY:Periods", "END:VEVENT"],
    "edge-exdate-date": ["BEGIN:VEVENT", "UID:exd", "DTSTART;TZID=America/New_York:20260105T180000",
                         "DTEND;TZID=America/New_York:20260105T190000", "RRULE:FREQ=DAILY;COUNT=20",
                         "EXDATE;VALUE=DATE:20260107,20260110", "SUMMARY:Exdate dates",
                         "END:VEVENT"],
    "edge-thisandfuture": ["BEGIN:VEVENT", "UID:taf", "DTSTART;TZID=Europe/London:20260105T090000",
                           "DTEND;TZID=Europe/London:20260105T100000",
                           "RRULE:FREQ=WEEKLY;COUNT=10", "SUMMARY:Course", "END:VEVENT",
                           "BEGIN:VEVENT", "UID:taf",
                           "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/London:20260202T090000",
                           "DTSTART;TZID=Europe/London:20260202T140000",
                           "DTEND;TZID=Europe/London:20260202T160000", "SEQUENCE:1",
                           "SUMMARY:Course (afternoons)", "END:VEVENT"],
    "edge-moved-out-of-range": ["BEGIN:VEVENT", "UID:moo", "DTSTART:20260105T090000Z",
                                "DTEND:20260105T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4",
                                "SUMMARY:Review", "END:VEVENT", "BEGIN:VEVENT", "UID:moo",
                                "RECURRENCE-ID:20260112T090000Z", "DTSTART:20280301T090000Z",
                                "DTEND:20280301T100000Z", "SUMMARY:Review (much later)",
                                "END:VEVENT"],
    "edge-duplicate-override": ["BEGIN:VEVENT", "UID:dup", "DTSTART:20260105T090000Z",
                                "DTEND:20260105T100000Z", "RRULE:FREQ=DAILY;COUNT=5",
                                "SUMMARY:Daily", "END:VEVENT",
                                "BEGIN:VEVENT", "UID:dup", "RECURRENCE-ID:20260107T090000Z",
                                "DTSTART:20260107T110000Z", "DTEND:20260107T120000Z",
                                "SEQUENCE:1", "SUMMARY:Daily (v1)", "END:VEVENT",
                                "BEGIN:VEVENT", "UID:dup", "RECURRENCE-ID:20260107T090000Z",
                                "DTSTART:20260107T130000Z", "DTEND:20260107T140000Z",
                                "SEQUENCE:2", "SUMMARY:Daily (v2)", "END:VEVENT"],
    "edge-floating": ["BEGIN:VEVENT", "UID:flt", "DTSTART:20260105T080000",
                      "DTEND:20260105T083000", "RRULE:FREQ=DAILY;COUNT=60", "SUMMARY:Pills",
                      "END:VEVENT"],
    "edge-until-utc-zoned": ["BEGIN:VEVENT", "UID:uu", "DTSTART;TZID=Asia/Tokyo:20260105T080000",
                             "DTEND;TZID=Asia/Tokyo:20260105T090000",
                             "RRULE:FREQ=DAILY;UNTIL=20260109T230000Z", "SUMMARY:Tokyo mornings",
                             "END:VEVENT", "BEGIN:VEVENT", "UID:uu2",
                             "DTSTART;TZID=America/Los_Angeles:20260105T200000",
                             "DTEND;TZID=America/Los_Angeles:20260105T210000",
                             "RRULE:FREQ=DAILY;UNTIL=20260109T040000Z", "SUMMARY:LA evenings",
                             "END:VEVENT"],
    "edge-mixed-date-datetime": ["BEGIN:VEVENT", "UID:mix", "DTSTART;VALUE=DATE:20260105",
                                 "DTEND;VALUE=DATE:20260106", "RRULE:FREQ=WEEKLY;COUNT=6",
                                 "EXDATE:20260112T000000", "RDATE:20260108T000000",
                                 "SUMMARY:Bins out", "END:VEVENT"],
    "edge-cancelled": ["BEGIN:VEVENT", "UID:can", "DTSTART:20260105T090000Z",
                       "DTEND:20260105T100000Z", "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Club",
                       "END:VEVENT", "BEGIN:VEVENT", "UID:can", "RECURRENCE-ID:20260112T090000Z",
                       "DTSTART:20260112T090000Z", "DTEND:20260112T100000Z",
                       "STATUS:CANCELLED", "SUMMARY:Club", "END:VEVENT",
                       "BEGIN:VEVENT", "UID:can2", "DTSTART:20260120T090000Z",
                       "DTEND:20260120T100000Z", "STATUS:CANCELLED", "SUMMARY:Called off",
                       "END:VEVENT"],
    "edge-custom-vtimezone": [*vtimezone("Europe/Berlin", "Customized Time Zone", "16010101",
                                         x_lic=False),
                              "BEGIN:VEVENT", "UID:cust",
                              "DTSTART;TZID=Customized Time Zone:20260302T090000",
                              "DTEND;TZID=Customized Time Zone:20260302T093000",
                              "RRULE:FREQ=WEEKLY;COUNT=6", "SUMMARY:Across DST", "END:VEVENT"],
    "edge-windows-zone-no-vtimezone": ["BEGIN:VEVENT", "UID:win",
                                       "DTSTART;TZID=Pacific Standard Time:20260302T090000",
                                       "DTEND;TZID=Pacific Standard Time:20260302T100000",
                                       "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:PST standup",
                                       "END:VEVENT"],
    "edge-evolution-tzid": ["BEGIN:VEVENT", "UID:evo",
                            "DTSTART;TZID=/freeassociation.sourceforge.net/Europe/Paris:"
                            "20260323T120000",
                            "DTEND;TZID=/freeassociation.sourceforge.net/Europe/Paris:"
                            "20260323T130000", "RRULE:FREQ=DAILY;COUNT=14",
                            "SUMMARY:Paris lunch", "END:VEVENT"],
    "edge-end-before-start": ["BEGIN:VEVENT", "UID:ebs", "DTSTART:20260105T100000Z",
                              "DTEND:20260105T090000Z", "SUMMARY:Backwards", "END:VEVENT"],
    "edge-zero-all-day": ["BEGIN:VEVENT", "UID:zad", "DTSTART;VALUE=DATE:20260105",
                          "DTEND;VALUE=DATE:20260105", "RRULE:FREQ=MONTHLY;COUNT=6",
                          "SUMMARY:Rent", "END:VEVENT"],
    "edge-no-dtend": ["BEGIN:VEVENT", "UID:nde", "DTSTART:20260105T100000Z",
                      "RRULE:FREQ=WEEKLY;COUNT=3", "SUMMARY:Deadline", "END:VEVENT",
                      "BEGIN:VEVENT", "UID:nde2", "DTSTART;VALUE=DATE:20260106",
                      "SUMMARY:Day note", "END:VEVENT"],
    "edge-dst-gap": ["BEGIN:VEVENT", "UID:gap", "DTSTART;TZID=Europe/Berlin:20260327T023000",
                     "DTEND;TZID=Europe/Berlin:20260327T033000", "RRULE:FREQ=DAILY;COUNT=4",
                     "SUMMARY:Night shift", "END:VEVENT"],
    "edge-leap-day": ["BEGIN:VEVENT", "UID:leap", "DTSTART;VALUE=DATE:20240229",
                      "DTEND;VALUE=DATE:20240301", "RRULE:FREQ=YEARLY;COUNT=3",
                      "SUMMARY:Leap birthday", "END:VEVENT"],
    "edge-no-uid": ["BEGIN:VEVENT", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z",
                    "SUMMARY:Nameless", "END:VEVENT"],
    "edge-two-rrules": ["BEGIN:VEVENT", "UID:two", "DTSTART:20260105T100000Z",
                        "DTEND:20260105T110000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4",
                        "RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=4", "SUMMARY:Two rules", "END:VEVENT"],
}


def edge(name: str, body: list[str]) -> str:
    head = ["PRODID:-//Hearth tests//Edge cases//EN", "VERSION:2.0", f"X-WR-CALNAME:{name}"]
    return calendar(head, body)


def corpus() -> dict[str, str]:
    files: dict[str, str] = {}
    for i, rule in enumerate(RULES):
        zone = ZONES[i % len(ZONES)]
        files[f"google-{i:02d}.ics"] = google(i, rule, zone)
        files[f"apple-{i:02d}.ics"] = apple(i, rule, ZONES[(i + 3) % len(ZONES)])
        files[f"outlook-{i:02d}.ics"] = outlook(i, rule, ZONES[(i + 5) % len(ZONES)])
        files[f"thunderbird-{i:02d}.ics"] = thunderbird(i, rule, ZONES[(i + 1) % len(ZONES)])
    for i, country in enumerate(["DE", "UK", "FR", "US", "JP"]):
        files[f"holidays-{country.lower()}.ics"] = holidays(i, country)
    for i in range(5):
        files[f"sports-{i:02d}.ics"] = sports(i)
    for name, body in EDGE.items():
        files[f"{name}.ics"] = edge(name, body)
    return files


if __name__ == "__main__":
    for old in HERE.glob("*.ics"):
        old.unlink()
    for name, text in corpus().items():
        (HERE / name).write_bytes(text.encode())
    print(f"wrote {len(corpus())} files to {HERE}")
