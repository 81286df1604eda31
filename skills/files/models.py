"""Plain records the file index hands out: search hits, file details, scan and status reports."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any


def local_time(seconds: float) -> datetime:
    """An aware datetime in the machine's time zone (what a user reads as 'modified')."""
    return datetime.fromtimestamp(seconds, tz=UTC).astimezone()


def _fields(record: Any, **shown: object) -> dict[str, Any]:
    """A record for JSON: its fields in order, `shown` replacing some; never `os_path` (for a
    name that is not UTF-8 it holds lone surrogates, which JSON text cannot carry)."""
    return {k: v for k, v in {**asdict(record), **shown}.items() if k != "os_path"}


def _seconds(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


@dataclass(frozen=True)
class FileHit:
    """One search result. `path` is display text; `os_path` is what opens the file (it differs
    only for names that are not valid UTF-8)."""

    path: str
    name: str
    kind: str
    size: int
    modified: datetime
    snippet: str = ""
    os_path: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _fields(self, modified=_seconds(self.modified))


@dataclass(frozen=True)
class FileInfo:
    """Everything the index knows about one file (or what a fresh stat says, if not indexed)."""

    path: str
    name: str
    folder: str
    extension: str
    kind: str
    size: int
    modified: datetime
    created: datetime
    indexed: bool
    has_content: bool
    os_path: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _fields(self, modified=_seconds(self.modified), created=_seconds(self.created))


@dataclass(frozen=True)
class ScanProgress:
    """Sent to a scan's progress callback every few hundred files and at the end of each pass.
    phase "names": walking and recording files; "content": reading the text of new files."""

    root: str
    seen: int
    changed: int
    current: str = ""
    phase: str = "names"


@dataclass
class ScanReport:
    """What a catch-up scan found: counts per outcome, unreadable places, time taken."""

    roots: list[str] = field(default_factory=list)
    seen: int = 0
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    errors: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0
    stopped: bool = False

    def to_dict(self) -> dict[str, Any]:
        return _fields(self, errors=[{"path": p, "reason": r} for p, r in self.errors],
                       seconds=round(self.seconds, 3))


@dataclass(frozen=True)
class IndexStatus:
    """The index at a glance, for `hearth files status` and the settings page."""

    roots: list[str]
    files: int
    total_bytes: int
    by_kind: dict[str, int]
    last_scan: datetime | None
    scanning: bool
    watching: bool
    watch_error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _fields(self, last_scan=_seconds(self.last_scan) if self.last_scan else None)
