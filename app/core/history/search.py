"""Full-text search over conversation titles and messages: any user text becomes a safe FTS5
query (never a syntax error). Conversations whose title matches come first (role "title", no
message id), then matching messages.

FTS5's unicode61 tokenizer splits words on spaces and punctuation, which Chinese and Japanese
text does not have ("今天天气很好" is one token), so a query with CJK characters searches by
substring instead: a scan, fine for a personal history, and it finds "天气" inside a sentence."""

from __future__ import annotations

import re
import sqlite3

from app.core.history.records import SearchHit
from skills.common import fts
from skills.common.cjk import CJK_RUN

HIT_OPEN, HIT_CLOSE = "[[", "]]"
TITLE_ROLE = "title"  # the role of a hit on a conversation's title
ELLIPSIS = "…"
SNIPPET_WORDS = 16  # FTS snippet length in tokens
SNIPPET_CHARS = 40  # substring snippet: characters kept either side of the first hit

_FTS_SQL = f"""
select m.conversation_id, c.title, m.id, m.role,
       snippet(messages_fts, -1, '{HIT_OPEN}', '{HIT_CLOSE}', '{ELLIPSIS}', {SNIPPET_WORDS})
from messages_fts
join messages m on m.n = messages_fts.rowid
join conversations c on c.id = m.conversation_id
where messages_fts match ?
order by rank
limit ?
"""

_TITLE_SQL = f"""
select c.id, c.title, '', '{TITLE_ROLE}',
       highlight(conversations_fts, 0, '{HIT_OPEN}', '{HIT_CLOSE}')
from conversations_fts
join conversations c on c.id = conversations_fts.conversation_id
where conversations_fts match ?
order by c.pinned desc, c.activity desc
limit ?
"""

_TITLE_SCAN_SQL = """
select c.id, c.title from conversations c
where {conditions}
order by c.pinned desc, c.activity desc
limit ?
"""

_SCAN_SQL = """
select m.conversation_id, c.title, m.id, m.role, m.content, m.reasoning
from messages m join conversations c on c.id = m.conversation_id
where {conditions}
order by m.n desc
limit ?
"""


def match_expression(query: str) -> str | None:
    """User words -> an FTS5 query: every word must appear, each as a prefix ("meet" finds
    "meeting"). Words are quoted, so AND/OR/NOT, quotes, colons and stars are plain text.
    None when the query has no words at all (only punctuation or spaces)."""
    words = fts.words(query)
    if not words:
        return None
    return " ".join(fts.prefix(word) for word in words)


def search(conn: sqlite3.Connection, query: str, limit: int) -> list[SearchHit]:
    words = fts.words(query)
    if not words or limit <= 0:
        return []
    hits = _title_search(conn, query, words, limit)
    limit -= len(hits)
    if limit <= 0:
        return hits
    if CJK_RUN.search(query):
        return hits + _substring_search(conn, words, limit)
    rows = conn.execute(_FTS_SQL, [match_expression(query), limit]).fetchall()
    return hits + [SearchHit(*row) for row in rows]


def _title_search(
    conn: sqlite3.Connection, query: str, words: list[str], limit: int
) -> list[SearchHit]:
    """Conversations whose title holds every word (pinned, then most recently active, first);
    the snippet is the whole title (at most 200 characters) with the hits marked."""
    if not CJK_RUN.search(query):
        rows = conn.execute(_TITLE_SQL, [match_expression(query), limit]).fetchall()
        return [SearchHit(*row) for row in rows]
    conditions = " and ".join("instr(lower(c.title), lower(?)) > 0" for _ in words)
    found = conn.execute(_TITLE_SCAN_SQL.format(conditions=conditions), [*words, limit])
    return [SearchHit(cid, title, "", TITLE_ROLE, _mark(title, words)) for cid, title in found]


def _substring_search(conn: sqlite3.Connection, words: list[str], limit: int) -> list[SearchHit]:
    """Messages whose text contains every word as a substring, newest first."""
    text = "lower(m.content || char(10) || m.reasoning)"
    conditions = " and ".join(f"instr({text}, lower(?)) > 0" for _ in words)
    rows = conn.execute(_SCAN_SQL.format(conditions=conditions), [*words, limit]).fetchall()
    hits = []
    for conversation_id, title, message_id, role, content, reasoning in rows:
        body = content if _find(content, words[0]) >= 0 else reasoning
        hits.append(SearchHit(conversation_id, title, message_id, role, make_snippet(body, words)))
    return hits


def make_snippet(text: str, words: list[str]) -> str:
    """A window of `text` around the first hit, every hit wrapped in [[ ]]."""
    first = max(_find(text, words[0]), 0)
    start, end = max(first - SNIPPET_CHARS, 0), first + SNIPPET_CHARS + len(words[0])
    prefix = ELLIPSIS if start > 0 else ""
    suffix = ELLIPSIS if end < len(text) else ""
    return prefix + _mark(text[start:end], words) + suffix


def _mark(text: str, words: list[str]) -> str:
    """`text` with every occurrence of any word wrapped in [[ ]] (case ignored)."""
    pattern = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.sub(pattern, lambda m: HIT_OPEN + m.group(0) + HIT_CLOSE, text, flags=re.I)


def _find(text: str, word: str) -> int:
    return text.lower().find(word.lower())
