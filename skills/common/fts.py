"""SQLite FTS5 query pieces shared by history, file search and documents: words as the
unicode61 tokenizer sees them, and user text always quoted, so it can never be read as FTS
syntax (AND, OR, NEAR, column:, *, quotes)."""

from __future__ import annotations

import re

WORD = re.compile(r"\w+")  # what the unicode61 tokenizer treats as a word


def words(text: str) -> list[str]:
    return WORD.findall(text)


def quote(term: str) -> str:
    """One FTS5 string (a word or a phrase), whatever it contains."""
    return '"' + term.replace('"', '""') + '"'


def prefix(term: str) -> str:
    """Matches every word that starts with `term` ("meet" finds "meeting")."""
    return quote(term) + "*"
