"""Private document Q&A: parse, index (SQLite FTS5) and search the user's documents."""

from skills.documents.index import DocumentIndex
from skills.documents.models import (
    DocumentInfo,
    Failure,
    IndexReport,
    IndexStatus,
    Passage,
    Progress,
)
from skills.documents.skips import Skip, SkipWhy
from skills.documents.tools import document_skills
from skills.documents.worker import Limits

__all__ = [
    "DocumentIndex",
    "DocumentInfo",
    "Failure",
    "IndexReport",
    "IndexStatus",
    "Limits",
    "Passage",
    "Progress",
    "Skip",
    "SkipWhy",
    "document_skills",
]
