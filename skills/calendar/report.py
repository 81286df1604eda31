"""What an import did, typed for the CLI (--json) and the GUI's import summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class IssueWhy(StrEnum):
    """Why an import skipped or repaired something: a code the UI and the CLI each word."""

    LINE_IGNORED = "line_ignored"
    NOT_CONTENT_LINE = "not_content_line"  # details: the line's start
    TOO_DEEP = "too_deep"  # details: the depth allowed
    TOO_MANY_COMPONENTS = "too_many_components"  # details: how many are read
    END_UNOPENED = "end_unopened"  # details: the component named
    END_EARLY = "end_early"  # details: the component closed, the one still open
    TOO_MANY_LINES = "too_many_lines"  # details: the lines allowed
    CUT_OFF = "cut_off"  # details: the component left open
    PROP_MISSING = "prop_missing"  # details: the property
    PROP_NOT_TIME = "prop_not_time"  # details: the property (and the library's words)
    RRULE_UNREADABLE = "rrule_unreadable"  # details: the property, why
    UNREADABLE = "unreadable"  # details: the library's words
    UNKNOWN_ZONE = "unknown_zone"  # details: the zone named, the zone used instead
    DEFAULT_LENGTH = "default_length"
    KINDS_MATCHED = "kinds_matched"
    SWAPPED = "swapped"
    ONE_DAY = "one_day"
    EMPTY_RRULE = "empty_rrule"
    RRULE_TWICE = "rrule_twice"
    LISTED = "listed"  # details: how many repetitions
    OTHER = "other"  # details: the words as they came (an unexpected error)


# The English words for the CLI and the model; the window words the code itself (app/ui). A
# detail beyond a sentence's own fields is a library's words, added in brackets.
_ISSUE_WORDS = {
    IssueWhy.LINE_IGNORED: "line ignored: not an iCalendar content line",
    IssueWhy.NOT_CONTENT_LINE: "not an iCalendar content line: {0}",
    IssueWhy.TOO_DEEP: "components nested more than {0} deep",
    IssueWhy.TOO_MANY_COMPONENTS: "more than {0} components: the rest of the file was not read",
    IssueWhy.END_UNOPENED: "END:{0} closes nothing that is open",
    IssueWhy.END_EARLY: "END:{0} before END:{1}",
    IssueWhy.TOO_MANY_LINES: "more than {0} lines in one component",
    IssueWhy.CUT_OFF: "the file ends before END:{0} (it looks cut off)",
    IssueWhy.PROP_MISSING: "{0} is missing",
    IssueWhy.PROP_NOT_TIME: "{0} is not a date or time",
    IssueWhy.RRULE_UNREADABLE: "{0} cannot be read: {1}",
    IssueWhy.UNREADABLE: "cannot be read",
    IssueWhy.UNKNOWN_ZONE: "unknown time zone {0}: read as {1}",
    IssueWhy.DEFAULT_LENGTH: "cannot be read: the event is given its default length",
    IssueWhy.KINDS_MATCHED: "end is a date while start is a time (or the reverse): matched",
    IssueWhy.SWAPPED: "end before start: start and end swapped",
    IssueWhy.ONE_DAY: "all-day event ends when it starts: read as one day",
    IssueWhy.EMPTY_RRULE: "empty RRULE ignored",
    IssueWhy.RRULE_TWICE: "the same RRULE written twice: kept once",
    IssueWhy.LISTED: "repeats in a time zone of the file's own that no IANA zone follows: its "
                     "{0} repetitions were listed one by one",
    IssueWhy.OTHER: "{0}",
}


def fields(why: IssueWhy) -> int:
    """How many details the sentence of `why` holds (the rest are a library's words)."""
    return _ISSUE_WORDS[why].count("{")


@dataclass(frozen=True)
class Fault:
    """What is wrong, without where: the code and the details its sentence needs."""

    why: IssueWhy
    details: tuple[str, ...] = ()


def fault(why: IssueWhy, *details: object) -> Fault:
    return Fault(why, tuple(str(d) for d in details))


@dataclass(frozen=True)
class ImportIssue:
    """One thing an import skipped or repaired: which event, where in the file, and why (a code;
    `reason` words it in English)."""

    uid: str
    line: int
    fault: Fault

    @property
    def reason(self) -> str:
        own = fields(self.fault.why)
        details = self.fault.details
        text = _ISSUE_WORDS[self.fault.why].format(*details[:own], *([""] * own))
        return text + (f" ({details[own]})" if len(details) > own else "")

    def to_json(self) -> dict[str, object]:
        return {"uid": self.uid, "line": self.line, "reason": self.reason,
                "code": self.fault.why.value, "details": list(self.fault.details)}

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "the file"
        return f"{where}{f' ({self.uid})' if self.uid else ''}: {self.reason}"


class KeptWhy(StrEnum):
    """Which version of an event changed in Hearth an import kept: a code the UI and the CLI
    each put into words."""

    NOT_NEWER = "not_newer"  # the person's edit stays: the file's copy is not newer
    TOOK_FILES = "took_files"  # changed on both sides; the file's version was written
    KEPT_BOTH = "kept_both"  # changed on both sides; the file's added as a copy
    KEPT_YOURS = "kept_yours"  # changed on both sides; the person's edit (or delete) stays


@dataclass(frozen=True)
class Kept:
    """One event the person changed or deleted in Hearth that an import met, and what it kept."""

    uid: str
    why: KeptWhy
    title: str  # as the person knows it: its title in Hearth (the file's when deleted)
    when: str = ""  # "2026-12-02T09:00": which occurrence, for one of a series
    deleted: bool = False  # deleted in Hearth, rather than changed
    chosen: bool = False  # the person chose this version (else the default: theirs stays)

    @property
    def reason(self) -> str:
        """The English words (the CLI's); the window words the code itself."""
        what = f"'{self.title}'" + (f" on {self.when}" if self.when else "")
        both = ("deleted in Hearth, changed in the file" if self.deleted
                else "changed in Hearth and in the file")
        chose = " (you chose)" if self.chosen else ""
        return what + ": " + {
            KeptWhy.NOT_NEWER: f"kept as you {'deleted' if self.deleted else 'changed'} it in "
                               "Hearth (the file's copy is not newer)",
            KeptWhy.TOOK_FILES: f"{both}; took the file's{chose}",
            KeptWhy.KEPT_BOTH: f"{both}; kept both{chose}",
            KeptWhy.KEPT_YOURS: f"{both}; kept {'it deleted' if self.deleted else 'yours'}{chose}",
        }[self.why]

    def to_json(self) -> dict[str, object]:
        return {"uid": self.uid, "line": 0, "reason": self.reason, "code": self.why.value,
                "title": self.title, "when": self.when, "deleted": self.deleted,
                "chosen": self.chosen}


@dataclass
class ImportReport:
    """What an import did, typed for the CLI (--json) and the GUI's import summary."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0  # the stored copy is the same or newer (SEQUENCE, LAST-MODIFIED)
    removed: int = 0  # dropped from a re-imported subscription (on request)
    skipped: list[ImportIssue] = field(default_factory=list)
    repaired: list[ImportIssue] = field(default_factory=list)
    # What the person changed or deleted in Hearth, and which version was kept and why.
    kept: list[Kept] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"added": self.added, "updated": self.updated, "unchanged": self.unchanged,
                "removed": self.removed, "skipped": [i.to_json() for i in self.skipped],
                "repaired": [i.to_json() for i in self.repaired],
                "kept": [i.to_json() for i in self.kept]}

    def summary(self) -> str:
        counts = [(self.unchanged, "unchanged"),
                  (len(self.kept), "changed or deleted in Hearth (see below)"),
                  (self.removed, "removed"), (len(self.repaired), "repaired"),
                  (len(self.skipped), "skipped")]
        return ", ".join([f"{self.added} new", f"{self.updated} updated",
                          *(f"{n} {what}" for n, what in counts if n)])
