"""Every file of the corpus (exports shaped like Google, Apple, Outlook, Thunderbird, holiday and
sports feeds, plus edge cases) expands exactly as recurring-ical-events expands it over its
first year, occurrence by occurrence: uid, start, end and title."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.calendar.reference import compare

CORPUS = Path(__file__).parent / "corpus"
FILES = sorted(p.name for p in CORPUS.glob("*.ics"))


def test_the_corpus_covers_five_producers_and_the_edge_cases() -> None:
    kinds = {name.split("-")[0] for name in FILES}
    assert {"google", "apple", "outlook", "thunderbird", "holidays", "sports", "edge"} <= kinds
    assert len(FILES) >= 80


# Where the reference reads RFC 5545 otherwise, each difference and the RFC's reason.
RFC_DIFFERENCES = {
    # 3.8.5.3: a series' DTEND gives every instance the same exact duration, so the night
    # shift that starts in the gap (02:30 -> 01:30Z) still lasts an hour; the reference adds
    # the hour to the wall clock and lands on 03:30 CEST, the start itself.
    "edge-dst-gap.ics": ([("gap", "2026-03-29T01:30:00Z", "2026-03-29T02:30:00Z",
                           "Night shift")],
                         [("gap", "2026-03-29T01:30:00Z", "2026-03-29T01:30:00Z",
                           "Night shift")]),
}


@pytest.mark.filterwarnings("ignore::UserWarning")  # icalendar on Evolution's TZID prefix
@pytest.mark.parametrize("name", FILES)
def test_expansion_agrees_with_the_reference(name: str) -> None:
    result = compare(CORPUS / name)
    assert result.reference is not None, result.error
    ours_only, theirs_only = result.difference()
    assert (ours_only, theirs_only) == RFC_DIFFERENCES.get(name, ([], []))
    assert result.ours, "every corpus file has occurrences in its first year"


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", FILES)
def test_export_then_import_keeps_every_occurrence(tmp_path: Path, name: str) -> None:
    from skills.calendar import CalendarStore, export_ics
    from skills.calendar.ical import read_ics
    from tests.calendar.reference import first_year

    data = (CORPUS / name).read_bytes()
    lo, hi = first_year(data)
    listed = []
    for step, db in enumerate(("first.db", "second.db")):
        store = CalendarStore(tmp_path / db)
        store.import_events(read_ics(data, "Europe/Berlin").events)
        listed.append([(o.event.uid, o.start, o.end, o.event.title, o.cancelled)
                       for o in store.listing(lo, hi, limit=100_000).occurrences])
        data = export_ics(store.all_events()) if step == 0 else data
        store.close()
    assert listed[0] == listed[1]
