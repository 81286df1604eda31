"""What an import did, typed for the CLI (--json) and the GUI's import summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


@dataclass(frozen=True)
class ImportIssue:
    """One thing an import skipped or repaired: which event, where in the file, and why."""

    uid: str
    line: int
    reason: str

    def to_json(self) -> dict[str, object]:
        return {"uid": self.uid, "line": self.line, "reason": self.reason}

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
        parts = [f"{self.added} new", f"{self.updated} updated"]
        if self.unchanged:
            parts.append(f"{self.unchanged} unchanged")
        if self.kept:
            parts.append(f"{len(self.kept)} changed or deleted in Hearth (see below)")
        if self.removed:
            parts.append(f"{self.removed} removed")
        if self.repaired:
            parts.append(f"{len(self.repaired)} repaired")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        return ", ".join(parts)
