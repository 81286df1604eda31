"""What an import did, typed for the CLI (--json) and the GUI's import summary."""

from __future__ import annotations

from dataclasses import dataclass, field


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
    kept: list[ImportIssue] = field(default_factory=list)

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
