"""The documents tables in index.db: schema (named migrations) and the SQL the index runs."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from skills import index_health
from skills.common import fts
from skills.common.cjk import is_cjk, pieces, run_bigrams
from skills.common.migrations import Migrations
from skills.documents.chunking import Chunk
from skills.documents.skips import from_words

migrations = Migrations("documents")


@migrations
def m001_documents(db: sqlite_utils.Database) -> None:
    db.executescript(
        """
        create table doc_documents (
            id integer primary key,
            path text not null unique,
            title text not null default '',
            kind text not null default '',
            size integer not null default 0,
            mtime_ns integer not null default 0,
            ctime_ns integer not null default 0,
            sha256 text not null default '',
            status text not null default 'ok',      -- ok | failed
            error text not null default '',
            pages integer not null default 0,
            chunks integer not null default 0,
            in_library integer not null default 1,  -- 0: only visible in the chats in doc_scopes
            parse_seconds real not null default 0,
            indexed_at text not null default (datetime('now'))
        );
        create index doc_documents_sha on doc_documents(sha256);
        create table doc_scopes (
            document_id integer not null references doc_documents(id) on delete cascade,
            scope text not null,
            primary key (document_id, scope)
        );
        create table doc_chunks (
            id integer primary key,
            document_id integer not null references doc_documents(id) on delete cascade,
            ordinal integer not null,
            location text not null default '',
            page integer,
            char_start integer not null default 0,
            char_end integer not null default 0,
            text text not null
        );
        create index doc_chunks_document on doc_chunks(document_id, ordinal);
        create virtual table doc_fts using fts5(
            text, cjk, title, tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """
    )


@migrations
def m002_queue(db: sqlite_utils.Database) -> None:
    # files asked for but not yet indexed, so quitting halfway loses nothing ('' = library)
    db.execute(
        "create table doc_queue (path text not null, scope text not null default '',"
        " root text not null default '', primary key (path, scope))"
    )


@migrations
def m003_skip_codes(db: sqlite_utils.Database) -> None:
    # Why a file was skipped, as a code and its details (the UI words it in its language);
    # the English sentences stored before are read into codes once, here.
    db.execute("alter table doc_documents add column skip_code text not null default ''")
    db.execute("alter table doc_documents add column skip_details text not null default '[]'")
    rows = db.execute("select id, error from doc_documents where error != ''").fetchall()
    for document_id, sentence in rows:
        found = from_words(sentence)
        db.execute("update doc_documents set skip_code = ?, skip_details = ?, error = ''"
                   " where id = ?", [found.why.value, found.details_json(), document_id])


def connect(path: Path) -> sqlite_utils.Database:
    """Open index.db shared with the file index: WAL so readers never block the writer."""
    # WAL + synchronous normal: durable enough for a cache; secure_delete: a forgotten chat's
    # text is overwritten, not left in free pages.
    return index_health.open_index(path, migrations, "foreign_keys = on",
                                   "synchronous = normal", "secure_delete = on")


INDEXING = "indexing"  # a row whose passages are being written: never "unchanged"


class IncompleteWrite(OSError):
    """SQLite reported success but a document's passages are not all there (a full disk)."""


def seal(conn: sqlite3.Connection, document_id: int, digest: str, chunks: int) -> bool:
    """Mark a document indexed, with its hash, only if all its passages and their search
    entries are stored; False (nothing changed) otherwise."""
    cursor = conn.execute(
        "update doc_documents set status = 'ok', sha256 = ? where id = ?"
        " and (select count(*) from doc_chunks where document_id = ?) = ?"
        " and (select count(*) from doc_fts where rowid in"
        "      (select id from doc_chunks where document_id = ?)) = ?",
        [digest, document_id, document_id, chunks, document_id, chunks],
    )
    return cursor.rowcount == 1


def repair(conn: sqlite3.Connection) -> int:
    """Documents whose stored passages do not match their row (an interrupted or failed write
    by any version) lose their hash, so the next run indexes them again; returns how many."""
    with conn:
        cursor = conn.execute(
            "update doc_documents set sha256 = '', status = ? where status = ? or"
            " (status = 'ok' and chunks != (select count(*) from doc_chunks c"
            "  where c.document_id = doc_documents.id))",
            [INDEXING, INDEXING],
        )
    return cursor.rowcount


@dataclass(frozen=True)
class Stat:
    size: int
    mtime_ns: int
    ctime_ns: int


def delete_chunks(conn: sqlite3.Connection, document_id: int) -> None:
    conn.execute(
        "delete from doc_fts where rowid in (select id from doc_chunks where document_id = ?)",
        [document_id],
    )
    conn.execute("delete from doc_chunks where document_id = ?", [document_id])


def insert_chunks(
    conn: sqlite3.Connection, document_id: int, title: str, chunks: list[Chunk]
) -> None:
    title_words = re.sub(r"[_\-.]+", " ", title)
    for chunk in chunks:
        cursor = conn.execute(
            "insert into doc_chunks (document_id, ordinal, location, page, char_start, char_end,"
            " text) values (?, ?, ?, ?, ?, ?, ?)",
            [document_id, chunk.ordinal, chunk.location, chunk.page, chunk.char_start,
             chunk.char_end, chunk.text],
        )
        conn.execute(
            "insert into doc_fts (rowid, text, cjk, title) values (?, ?, ?, ?)",
            [cursor.lastrowid, chunk.text, chunk.cjk, title_words],
        )


def scrub(conn: sqlite3.Connection) -> None:
    """Make deleted text unreadable on disk: FTS5 keeps deletes as tombstones beside the old
    entries until its segments merge, and the WAL holds old pages until a checkpoint."""
    with conn:
        conn.execute("insert into doc_fts (doc_fts) values ('optimize')")
    conn.execute("pragma wal_checkpoint(truncate)")  # best effort: a reader may hold old pages


def delete_document(conn: sqlite3.Connection, document_id: int) -> None:
    delete_chunks(conn, document_id)
    conn.execute("delete from doc_scopes where document_id = ?", [document_id])
    conn.execute("delete from doc_documents where id = ?", [document_id])


_STOPWORD_TEXT = (
    "a an and are as at be by can could did do does for from had has have how i in is it its"
    " me my of on or our so than that the their them then there these they this those to was"
    " we were what when where which who whom why will with would you your about into please"
    " tell show give find list any all"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


TITLE_PREFIX = 4  # compare words by their start: "reports" still finds report.pdf


def title_prefixes(conn: sqlite3.Connection) -> frozenset[str]:
    """Starts of every word in a document name, to tell which query words could match one."""
    words: set[str] = set()
    for (title,) in conn.execute("select title from doc_documents where status = 'ok'"):
        words.update(w[:TITLE_PREFIX] for w in fts.words(title.lower()))
    return frozenset(words)


def match_expression(query: str, titles: frozenset[str] | None = None) -> str:
    """An FTS5 query for free text: words OR'ed (BM25 ranks), CJK as bigrams, all quoted so
    user text can never be read as FTS syntax. Document names are searched only for words
    that start like a word of some name (`titles`): scoring a column costs time per match."""
    words: list[str] = []
    grams: list[str] = []
    for token in fts.words(query):
        for piece in pieces(token):
            if is_cjk(piece):
                grams.extend(run_bigrams(piece).split())
            else:
                words.append(piece.lower())
    kept = [w for w in words if w not in STOPWORDS] or words
    parts = []
    if kept:
        # adjacent query words also count as a phrase: names like "Granite Orchard" then
        # outrank passages that merely mention "granite" and "orchard" apart
        pairs = [f"{a} {b}" for a, b in zip(kept, kept[1:], strict=False)]
        terms = [fts.quote(w) for w in dict.fromkeys(kept + pairs)]
        parts.append("text : (" + " OR ".join(terms) + ")")
        named = [w for w in dict.fromkeys(kept) if titles is None or w[:TITLE_PREFIX] in titles]
        if named:
            parts.append("title : (" + " OR ".join(fts.quote(w) for w in named) + ")")
    if grams:
        terms = [fts.quote(g) + ("*" if len(g) == 1 else "") for g in dict.fromkeys(grams)]
        parts.append("cjk : (" + " OR ".join(terms) + ")")
    return " OR ".join(parts)


_RANKED = "select rowid as id, bm25(doc_fts, 1.0, 1.0, 0.3) as rank from doc_fts" \
    " where doc_fts match ? order by rank"
_PASSAGES = """
select c.id, d.path, d.title, c.location, c.page, c.text, c.ordinal, c.char_start,
       c.char_end, hits.rank
from hits
join doc_chunks c on c.id = hits.id
join doc_documents d on d.id = c.document_id
where d.in_library = 1
   or exists (select 1 from doc_scopes s where s.document_id = d.id and s.scope = ?)
order by hits.rank
limit ?
"""
# Rank inside FTS5 first and join only the best few: joining every match before sorting costs
# more than the ranking itself. Chat-only documents can push library hits out of the few, so
# when that may have happened the search runs again over all matches.
SEARCH_FEW_SQL = f"with hits as ({_RANKED} limit ?) {_PASSAGES}"
SEARCH_ALL_SQL = f"with hits as ({_RANKED}) {_PASSAGES}"
OVERFETCH = 4


def search(
    conn: sqlite3.Connection, expression: str, scope: str | None, limit: int
) -> list[tuple[Any, ...]]:
    rows = conn.execute(SEARCH_FEW_SQL, [expression, limit * OVERFETCH, scope, limit]).fetchall()
    if len(rows) < limit and conn.execute(
        "select exists (select 1 from doc_documents where in_library = 0)"
    ).fetchone()[0]:
        rows = conn.execute(SEARCH_ALL_SQL, [expression, scope, limit]).fetchall()
    return rows
