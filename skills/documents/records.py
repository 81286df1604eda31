"""Rows of doc_documents: what indexing writes for a parsed, failed, unchanged, moved or gone file."""

from __future__ import annotations

import os
import threading
from typing import Any

import sqlite_utils

from skills.documents import fscheck, store
from skills.documents.chunking import Prepared
from skills.documents.models import Failure, IndexReport
from skills.documents.skips import Skip


class Records:
    """The document rows of index.db; every method takes the index's one lock itself."""

    def __init__(self, db: sqlite_utils.Database, lock: threading.RLock) -> None:
        self.db = db
        self.lock = lock

    def row(self, path: str) -> dict[str, Any] | None:
        with self.lock:
            return next(self.db.query("select * from doc_documents where path = ?", [path]), None)

    def save_parsed(
        self, path: str, stat: store.Stat, scope: str | None, digest: str,
        prepared: Prepared, seconds: float,
    ) -> None:
        """Store a parsed file's details and replace its chunks, in one transaction; the content
        hash (what makes later runs call the file unchanged) is written only once every passage
        is verifiably stored, so a full disk or a kill leaves a file that is indexed again."""
        with self.lock:
            with self.db.conn:
                document_id = self._upsert(path, stat, scope, {
                    "title": prepared.title, "kind": prepared.kind, "sha256": "",
                    "status": store.INDEXING, "skip_code": "", "skip_details": "[]",
                    "pages": prepared.pages,
                    "chunks": len(prepared.chunks), "parse_seconds": seconds,
                })
                store.delete_chunks(self.db.conn, document_id)
                store.insert_chunks(self.db.conn, document_id, prepared.title, prepared.chunks)
            with self.db.conn:
                if not store.seal(self.db.conn, document_id, digest, len(prepared.chunks)):
                    raise store.IncompleteWrite(
                        f"{os.path.basename(path)}: its passages were not all stored")

    def save_failure(
        self, path: str, reason: Skip, stat: store.Stat | None, scope: str | None,
        report: IndexReport, digest: str = "",
    ) -> None:
        """Report a file that cannot be indexed and keep it, with the reason, chunkless."""
        report.failures.append(Failure(path, reason))
        with self.lock, self.db.conn:
            document_id = self._upsert(path, stat or store.Stat(0, 0, 0), scope, {
                "title": os.path.basename(path), "kind": fscheck.kind_name(path), "sha256": digest,
                "status": "failed", "skip_code": reason.why.value,
                "skip_details": reason.details_json(), "pages": 0, "chunks": 0,
                "parse_seconds": 0,
            })
            store.delete_chunks(self.db.conn, document_id)

    def _upsert(
        self, path: str, stat: store.Stat, scope: str | None, values: dict[str, Any]
    ) -> int:
        row = {**values, "path": path, "size": stat.size, "mtime_ns": stat.mtime_ns,
               "ctime_ns": stat.ctime_ns}
        existing = self.row(path)
        in_library = 1 if scope is None else (existing["in_library"] if existing else 0)
        row["in_library"] = in_library
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        updates = ", ".join(f"{c} = excluded.{c}" for c in row if c != "path")
        self.db.execute(
            f"insert into doc_documents ({cols}) values ({marks}) on conflict(path) do update"
            f" set {updates}, indexed_at = datetime('now')",
            list(row.values()),
        )
        document_id: int = self.db.execute(
            "select id from doc_documents where path = ?", [path]
        ).fetchone()[0]
        if scope is not None:
            self.db.execute(
                "insert or ignore into doc_scopes (document_id, scope) values (?, ?)",
                [document_id, scope],
            )
        return document_id

    def mark_unchanged(
        self, row: dict[str, Any], stat: store.Stat, scope: str | None, report: IndexReport
    ) -> None:
        with self.lock, self.db.conn:
            self.db.execute(
                "update doc_documents set size = ?, mtime_ns = ?, ctime_ns = ?,"
                " in_library = max(in_library, ?) where id = ?",
                [stat.size, stat.mtime_ns, stat.ctime_ns, int(scope is None), row["id"]],
            )
            if scope is not None:
                self.db.execute(
                    "insert or ignore into doc_scopes (document_id, scope) values (?, ?)",
                    [row["id"], scope],
                )
        if row["status"] == "failed":
            report.failures.append(
                Failure(row["path"], Skip.stored(row["skip_code"], row["skip_details"])))
        else:
            report.unchanged += 1

    def adopt_moved(self, path: str, digest: str, stat: store.Stat, scope: str | None) -> bool:
        """A new path whose content we already indexed at a path that is gone: a move.
        Keep the chunks and just rename, so moving a folder never re-parses it."""
        with self.lock:
            rows = self.db.execute(
                "select id, path from doc_documents where sha256 = ? and status = 'ok'", [digest]
            ).fetchall()
            for document_id, old_path in rows:
                if os.path.lexists(old_path):
                    continue
                with self.db.conn:
                    self.db.execute(
                        "update doc_documents set path = ?, title = ?, size = ?, mtime_ns = ?,"
                        " ctime_ns = ?, in_library = max(in_library, ?) where id = ?",
                        [path, os.path.basename(path), stat.size, stat.mtime_ns,
                         stat.ctime_ns, int(scope is None), document_id],
                    )
                return True
        return False

    def forget_missing(self, folder: str, present: set[str]) -> int:
        """Remove library documents under `folder` that are no longer there."""
        with self.lock:
            rows = self.db.execute(
                "select id, path from doc_documents where path like ? escape '\\'",
                [fscheck.like_prefix(folder)],
            ).fetchall()
            gone = [i for i, p in rows if p not in present and not os.path.lexists(p)]
            with self.db.conn:
                for document_id in gone:
                    store.delete_document(self.db.conn, document_id)
        return len(gone)

    def remove(self, target: str) -> int:
        """Drop a file (or every file under a folder); returns how many."""
        with self.lock, self.db.conn:
            rows = self.db.execute(
                "select id from doc_documents where path = ? or path like ? escape '\\'",
                [target, fscheck.like_prefix(target)],
            ).fetchall()
            for (document_id,) in rows:
                store.delete_document(self.db.conn, document_id)
        return len(rows)

    def forget_scope(self, scope: str) -> int:
        """A chat was deleted: drop its hold on documents, and the documents only it held (their
        text and search entries too); returns how many documents went."""
        with self.lock:
            with self.db.conn:
                rows = self.db.execute(
                    "select id from doc_documents d where in_library = 0 and exists"
                    " (select 1 from doc_scopes s where s.document_id = d.id and s.scope = ?)"
                    " and not exists (select 1 from doc_scopes s where s.document_id = d.id"
                    " and s.scope != ?)", [scope, scope]).fetchall()
                for (document_id,) in rows:
                    store.delete_document(self.db.conn, document_id)
                self.db.execute("delete from doc_scopes where scope = ?", [scope])
                self.db.execute("delete from doc_queue where scope = ?", [scope])
            store.scrub(self.db.conn)
        return len(rows)

    def remove_unscoped(self, folder: str) -> None:
        """Drop the documents under a folder that no chat holds."""
        with self.lock, self.db.conn:
            rows = self.db.execute(
                "select id from doc_documents d where path like ? escape '\\' and not exists"
                " (select 1 from doc_scopes s where s.document_id = d.id)",
                [fscheck.like_prefix(folder)],
            ).fetchall()
            for (document_id,) in rows:
                store.delete_document(self.db.conn, document_id)
