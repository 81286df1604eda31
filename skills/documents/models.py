"""Plain records the document index hands to the UI, the CLI and the tools."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Progress:
    """Indexing progress: files done out of total, and the file being parsed now."""

    done: int
    total: int
    current: str = ""


@dataclass(frozen=True)
class Failure:
    """A file that was skipped, and why, in words a user understands."""

    path: str
    reason: str


@dataclass
class IndexReport:
    """What one add_paths / sync call did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    failures: list[Failure] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len(self.failures)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "failed": self.failed}


@dataclass(frozen=True)
class DocumentInfo:
    """One indexed document (or one that failed, with its reason)."""

    path: str
    title: str
    kind: str
    pages: int
    chunks: int
    size: int
    status: str  # ok | failed
    error: str
    indexed_at: str


@dataclass(frozen=True)
class CatalogEntry(DocumentInfo):
    """A document the index knows about, wherever it belongs: the library, or only the chats
    it was dropped into (`chats` holds their ids), indexed or skipped with the reason."""

    in_library: bool
    chats: list[str]


@dataclass
class IndexStatus:
    """The whole index at a glance."""

    documents: int
    chunks: int
    failures: list[Failure]
    in_progress: Progress | None
    paused: bool
    watching: list[str]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Passage:
    """A chunk of a document with where it sits: what search and read return."""

    document: str  # absolute path
    title: str
    location: str  # "page 3", "sheet Budget, rows 2-40", "slide 2", "Scope > Dates"
    page: int | None
    text: str
    score: float
    chunk_id: int
    ordinal: int
    char_start: int
    char_end: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
