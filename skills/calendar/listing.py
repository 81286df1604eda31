"""A page of occurrences over a range: what fits the per-call limit, how many more, where the
next page starts, and why expansion was cut short (when it was)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime

from skills.calendar.model import Occurrence, When

DEFAULT_LIMIT = 200  # occurrences per call (CLI and tools); the rest are counted, not listed
MORE_CAP = 10_000  # "N more" counts this far, then says "more than"


@dataclass
class Listing:
    occurrences: list[Occurrence]
    more: int = 0  # occurrences after this page, within the range (up to MORE_CAP)
    more_at_least: bool = False  # True when counting stopped at MORE_CAP
    next_start: When | None = None  # ask again from here for the next page
    cuts: list[str] = field(default_factory=list)  # series whose expansion hit its budget

    @property
    def complete(self) -> bool:
        return not self.more and not self.cuts

    def note(self) -> str:
        """One or two sentences for people and the model: what was left out and how to get it."""
        parts: list[str] = []
        if self.more:
            count = f"more than {self.more:,}" if self.more_at_least else f"{self.more:,}"
            start = self.next_start.isoformat() if self.next_start is not None else ""
            parts.append(f"{count} more not listed; to see them, ask again from {start}.")
        parts += [f"Limited: {cut}; ask for a shorter range to see every repetition."
                  for cut in self.cuts]
        return " ".join(parts)

    def to_json(self) -> dict[str, object]:
        return {"more": self.more, "more_at_least": self.more_at_least,
                "next_start": self.next_start.isoformat() if self.next_start else None,
                "cuts": list(self.cuts)}


def take(stream: Iterator[Occurrence], limit: int,
         order: Callable[[Occurrence], tuple[datetime, int, str]]) -> Listing:
    """The first `limit` occurrences (plus any that start at the same moment as the last one,
    so the next page can begin strictly later), then count the rest."""
    page: list[Occurrence] = []
    last_key: datetime | None = None
    for occ in stream:
        k = order(occ)
        if len(page) >= limit and (k[0] != last_key or len(page) >= 2 * limit):
            listing = Listing(page, more=1, next_start=occ.start)
            for _ in stream:
                if listing.more >= MORE_CAP:
                    listing.more_at_least = True
                    break
                listing.more += 1
            return listing
        page.append(occ)
        last_key = k[0]
    return Listing(page)
