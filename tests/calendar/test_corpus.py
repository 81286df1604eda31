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


@pytest.mark.filterwarnings("ignore::UserWarning")  # icalendar on Evolution's TZID prefix
@pytest.mark.parametrize("name", FILES)
def test_expansion_agrees_with_the_reference(name: str) -> None:
    result = compare(CORPUS / name)
    assert result.reference is not None, result.error
    ours_only, theirs_only = result.difference()
    assert (ours_only, theirs_only) == ([], [])
    assert result.ours, "every corpus file has occurrences in its first year"
