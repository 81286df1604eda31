"""Plain records the document index hands to the UI, the CLI and the tools."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from skills.documents.skips import Skip


@dataclass(frozen=True)
class Progress:
    """Indexing progress: files done out of total, and the file being parsed now."""

    done: int
    total: int
    current: str = ""


@dataclass(frozen=True)
class Failure:
    """A file that was skipped, and why (a code; `reason` words it in English)."""

    path: str
    skip: Skip

    @property
    def reason(self) -> str:
        return self.skip.words

    def to_dict(self) -> dict[str, Any]:
        """For JSON: the English reason, and the code and details a program can act on."""
        return {"path": self.path, "reason": self.reason, "code": self.skip.why.value,
                "details": list(self.skip.details)}


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
        return {**asdict(self), "failures": [f.to_dict() for f in self.failures],
                "failed": self.failed}


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
    skip: Skip | None  # why it failed
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
        return {**asdict(self), "failures": [f.to_dict() for f in self.failures]}


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
