"""Read-only queries on the document index: counts, document lists, BM25 search, reading in order."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from skills.documents import fscheck, store
from skills.documents.models import CatalogEntry, DocumentInfo, Failure, Passage
from skills.documents.records import Records
from skills.documents.skips import Skip


class Queries:
    """Answers about what is indexed; each takes the index's one lock itself."""

    def __init__(self, records: Records) -> None:
        self.db = records.db
        self.lock = records.lock
        self._titles: tuple[tuple[int, int], frozenset[str]] | None = None  # version, names

    def counts(self) -> tuple[int, int]:
        """How many documents are indexed, and how many chunks they hold."""
        with self.lock:
            documents, chunks = self.db.execute(
                "select count(*), coalesce(sum(chunks), 0) from doc_documents where status = 'ok'"
            ).fetchone()
        return documents, chunks

    def failures(self) -> list[Failure]:
        with self.lock:
            rows = self.db.execute(
                "select path, skip_code, skip_details from doc_documents where status = 'failed'"
                " order by path"
            ).fetchall()
        return [Failure(p, Skip.stored(code, details)) for p, code, details in rows]

    def documents(self, filter: str | None = None, scope: str | None = None) -> list[DocumentInfo]:
        """Indexed documents (library plus the chat's own), optionally filtered by name."""
        sql = (
            "select path, title, kind, pages, chunks, size, status, skip_code, skip_details,"
            " indexed_at from doc_documents d where status = 'ok' and (in_library = 1 or exists"
            " (select 1 from doc_scopes s where s.document_id = d.id and s.scope = ?))"
        )
        args: list[Any] = [scope]
        if filter:
            sql += " and (title like ? or path like ?)"
            args += [f"%{filter}%", f"%{filter}%"]
        with self.lock:
            rows = self.db.execute(sql + " order by title, path", args).fetchall()
        return [_document(row) for row in rows]

    def catalog(self) -> list[CatalogEntry]:
        """Every document, indexed or failed, library or chat-only: what `counts` counts."""
        sql = (
            "select path, title, kind, pages, chunks, size, status, skip_code, skip_details,"
            " indexed_at, in_library, (select group_concat(scope, char(31)) from doc_scopes s"
            " where s.document_id = d.id) from doc_documents d order by title, path"
        )
        with self.lock:
            rows = self.db.execute(sql).fetchall()
        return [_catalog_entry(row) for row in rows]

    def search(self, query: str, scope: str | None = None, limit: int = 8) -> list[Passage]:
        """Best passages for a free-text query (BM25), library plus the chat's own files."""
        with self.lock:
            version = (self.db.conn.total_changes,  # our writes, and other connections':
                       self.db.execute("pragma data_version").fetchone()[0])
            if self._titles is None or self._titles[0] != version:
                self._titles = (version, store.title_prefixes(self.db.conn))
            expression = store.match_expression(query, self._titles[1])
            if not expression:
                return []
            rows = store.search(self.db.conn, expression, scope, limit)
        return [_passage(row[:-1], -row[-1]) for row in rows]

    def find(self, document: str, scope: str | None = None) -> DocumentInfo | None:
        """An indexed document by path or by name; None for anything not in the index."""
        wanted = document.strip()
        candidates = self.documents(scope=scope)
        absolute = fscheck.absolute(wanted) if os.path.isabs(os.path.expanduser(wanted)) else ""
        for info in candidates:
            if info.path == absolute:
                return info
        by_name = [i for i in candidates if i.title.casefold() == wanted.casefold()]
        if len(by_name) == 1:
            return by_name[0]
        partial = [i for i in candidates if wanted.casefold() in i.title.casefold()]
        return partial[0] if len(partial) == 1 else None

    def chunks_from(self, path: str, start: int) -> list[Passage]:
        """A document's chunks in order from chunk `start`."""
        with self.lock:
            rows = self.db.execute(
                "select c.id, d.path, d.title, c.location, c.page, c.text, c.ordinal,"
                " c.char_start, c.char_end from doc_chunks c join doc_documents d"
                " on d.id = c.document_id where d.path = ? and c.ordinal >= ? order by c.ordinal",
                [path, start],
            ).fetchall()
        return [_passage(row, 0.0) for row in rows]


def select_passages(
    passages: list[Passage], pages: Sequence[int] | None, section: str | None, max_chars: int
) -> list[Passage]:
    """The passages on `pages` or under `section`, in order, up to about max_chars (at least one)."""
    out: list[Passage] = []
    used = 0
    for passage in passages:
        if pages and passage.page not in pages:
            continue
        if section and section.casefold() not in passage.location.casefold():
            continue
        if out and used + len(passage.text) > max_chars:
            break
        out.append(passage)
        used += len(passage.text)
    return out


def _passage(row: Sequence[Any], score: float) -> Passage:
    chunk_id, path, title, location, page, text, ordinal, start, end = row
    return Passage(path, title, location, page, text, score, chunk_id, ordinal, start, end)


def _document(row: Sequence[Any]) -> DocumentInfo:
    path, title, kind, pages, chunks, size, status, code, details, indexed_at = row
    return DocumentInfo(path, title, kind, pages, chunks, size, status, _skip(code, details),
                        indexed_at)


def _skip(code: str, details: str) -> Skip | None:
    return Skip.stored(code, details) if code else None


def _catalog_entry(row: Sequence[Any]) -> CatalogEntry:
    path, title, kind, pages, chunks, size, status, code, details, indexed_at, in_library, chats = row
    return CatalogEntry(path, title, kind, pages, chunks, size, status, _skip(code, details),
                        indexed_at,
                        in_library=bool(in_library), chats=chats.split("\x1f") if chats else [])
