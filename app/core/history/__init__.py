"""Conversation history in hearth.db: the store, its records, search and export."""

from app.core.history.records import (
    ROLES,
    STATUSES,
    Conversation,
    HistoryError,
    NotFound,
    SearchHit,
    StoredMessage,
)
from app.core.history.store import HistoryStore

__all__ = [
    "ROLES",
    "STATUSES",
    "Conversation",
    "HistoryError",
    "HistoryStore",
    "NotFound",
    "SearchHit",
    "StoredMessage",
]
