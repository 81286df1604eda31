"""index.db tables for files (migrations component "files") and the writes that keep them."""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

import sqlite_utils

from skills import index_health
from skills.common.cjk import index_terms, sql_index_terms
from skills.common.migrations import Migrations
from skills.files.kinds import extension, kind_of
from skills.files.paths import bytes_range, display
from skills.files.scanner import FoundFile

migrations = Migrations("files")


@migrations
def files_001_index(db: sqlite_utils.Database) -> None:
    # raw: the exact OS bytes of the path (opens names that are not UTF-8); path: display text.
    # has_content: 1 text indexed, 0 none, -1 text still to read (scans resume this).
    db.execute(
        "create table file_index (id integer primary key, raw blob not null unique,"
        " path text not null, folder text not null, name text not null, ext text not null,"
        " kind text not null, size integer not null, mtime_ns integer not null,"
        " created real not null, has_content integer not null default 0)"
    )
    db.execute("create index file_index_path on file_index(path)")
    db.execute("create index file_index_mtime on file_index(mtime_ns)")
    db.execute("create index file_index_kind on file_index(kind, mtime_ns)")
    # Prefix indexes make "lea*" as cheap as "lease"; unicode61 folds case and accents.
    db.execute(
        "create virtual table file_index_fts using fts5(name, content, prefix='1 2 3',"
        " tokenize='unicode61 remove_diacritics 2')"
    )
    db.execute(
        "create trigger file_index_gone after delete on file_index"
        " begin delete from file_index_fts where rowid = old.id; end"
    )
    db.execute("create table file_index_roots (root text primary key, last_scan real)")


@migrations
def files_002_cjk_pairs(db: sqlite_utils.Database) -> None:
    # Chinese and Japanese were found only at word starts: add columns of character pairs
    # (cjk.py). FTS5 tables cannot gain columns, so the table is rebuilt under its own name,
    # its rows copied with their pairs computed in SQL (no file is read again).
    db.conn.create_function("hearth_cjk_terms", 1, sql_index_terms, deterministic=True)
    db.execute("drop trigger file_index_gone")
    db.execute("alter table file_index_fts rename to file_index_fts_001")
    db.execute(
        "create virtual table file_index_fts using fts5(name, content, name_cjk, content_cjk,"
        " prefix='1 2 3', tokenize='unicode61 remove_diacritics 2')"
    )
    db.execute(
        "insert into file_index_fts (rowid, name, content, name_cjk, content_cjk)"
        " select rowid, name, content, hearth_cjk_terms(name), hearth_cjk_terms(content)"
        " from file_index_fts_001"
    )
    db.execute("drop table file_index_fts_001")
    db.execute(
        "create trigger file_index_gone after delete on file_index"
        " begin delete from file_index_fts where rowid = old.id; end"
    )


PENDING = -1  # has_content while a file's text waits for the content pass of a scan
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def name_terms(name: str) -> str:
    """The name plus its camelCase and letter/digit parts, so 'LeaseAgreement2024.pdf' is
    found by 'agreement' and '2024' as well as by its full words."""
    parts = _CAMEL.findall(name)
    return name + " " + " ".join(parts) if len(parts) > 1 else name


def connect(path: Path) -> sqlite_utils.Database:
    """WAL and a busy timeout: the documents index writes to the same file from its own thread."""
    return index_health.open_index(path, migrations, "synchronous = normal")


_UPSERT = (
    "insert into file_index (raw, path, folder, name, ext, kind, size, mtime_ns, created,"
    " has_content) values (?,?,?,?,?,?,?,?,?,?) on conflict(raw) do update set"
    " path=excluded.path, folder=excluded.folder, name=excluded.name, ext=excluded.ext,"
    " kind=excluded.kind, size=excluded.size, mtime_ns=excluded.mtime_ns,"
    " created=excluded.created, has_content=excluded.has_content"
)


def _row(found: FoundFile, content: str | None) -> tuple[object, ...]:
    """Parameters for _UPSERT (first ten) and for the FTS insert (last five)."""
    raw = os.fsencode(found.path)
    path = display(found.path)
    name = display(found.name)
    ext = extension(found.name)
    state = PENDING if content is None else int(bool(content))
    terms = name_terms(name)
    return (raw, path, os.path.dirname(path), name, ext, kind_of(ext), found.size,
            found.mtime_ns, found.created, state, terms, content or "", index_terms(terms),
            index_terms(content or ""), raw)


class FileStore:
    """All SQL writes for the file index, serialised by one lock (callers may be the UI's
    worker thread, the watcher thread and the CLI)."""

    def __init__(self, path: Path) -> None:
        self.db = connect(path)
        self.conn: sqlite3.Connection = self.db.conn
        self.lock = threading.RLock()

    def known(self, root: str) -> dict[bytes, tuple[int, int]]:
        """raw path -> (size, mtime_ns) for every indexed file under `root`."""
        lo, hi = bytes_range(os.fsencode(root))
        with self.lock:
            rows = self.conn.execute(
                "select raw, size, mtime_ns from file_index where raw > ? and raw < ?", [lo, hi]
            ).fetchall()
        return {bytes(r[0]): (r[1], r[2]) for r in rows}

    def signature(self, raw: bytes) -> tuple[int, int] | None:
        with self.lock:
            row = self.conn.execute(
                "select size, mtime_ns from file_index where raw = ?", [raw]
            ).fetchone()
        return (row[0], row[1]) if row else None

    def upsert(self, batch: Iterable[tuple[FoundFile, str | None]]) -> None:
        """Insert or refresh files with their content, in one transaction. Content None means
        "read it later" (PENDING): the name is searchable now, the text follows."""
        rows = [_row(found, content) for found, content in batch]
        if not rows:
            return
        with self.lock, self.conn:
            self.conn.executemany(_UPSERT, [r[:10] for r in rows])
            # The FTS row shares the file's id; looking it up by path keeps this one statement.
            self.conn.executemany(
                "insert or replace into file_index_fts (rowid, name, content, name_cjk,"
                " content_cjk) select id, ?, ?, ?, ? from file_index where raw = ?",
                [r[10:] for r in rows],
            )

    def pending(self, root: str) -> list[tuple[int, bytes, str, int]]:
        """(id, raw path, extension, size) of files under `root` whose text is still to read."""
        lo, hi = bytes_range(os.fsencode(root))
        with self.lock:
            rows = self.conn.execute(
                "select id, raw, ext, size from file_index where has_content = ?"
                " and raw > ? and raw < ?", [PENDING, lo, hi],
            ).fetchall()
        return [(r[0], bytes(r[1]), r[2], r[3]) for r in rows]

    def set_content(self, items: Iterable[tuple[int, str]]) -> None:
        with self.lock, self.conn:
            for file_id, content in items:
                self.conn.execute(
                    "update file_index_fts set content = ?, content_cjk = ? where rowid = ?",
                    [content, index_terms(content), file_id],
                )
                self.conn.execute(
                    "update file_index set has_content = ? where id = ?",
                    [int(bool(content)), file_id],
                )

    def remove(self, raws: Iterable[bytes]) -> int:
        with self.lock, self.conn:
            cur = self.conn.executemany(
                "delete from file_index where raw = ?", [[r] for r in raws]
            )
            return cur.rowcount

    def remove_under(self, folder: str) -> int:
        """Forget a file or everything inside a folder (a delete or move the watcher saw)."""
        raw = os.fsencode(folder)
        lo, hi = bytes_range(raw)
        with self.lock, self.conn:
            cur = self.conn.execute(
                "delete from file_index where raw = ? or (raw > ? and raw < ?)", [raw, lo, hi]
            )
            return cur.rowcount

    def keep_only(self, roots: list[str]) -> int:
        """Drop every row outside `roots` (a root was removed, perhaps while Hearth was shut)."""
        clauses = " or ".join("(raw > ? and raw < ?)" for _ in roots) or "0"
        params = [b for r in roots for b in bytes_range(os.fsencode(r))]
        with self.lock, self.conn:
            cur = self.conn.execute(f"delete from file_index where not ({clauses})", params)
            self.conn.execute(
                "delete from file_index_roots where root not in"
                f" ({','.join('?' for _ in roots)})", [display(r) for r in roots],
            )
            return cur.rowcount

    def mark_scanned(self, root: str, when: float) -> None:
        with self.lock, self.conn:
            self.conn.execute(
                "insert or replace into file_index_roots (root, last_scan) values (?, ?)",
                [display(root), when],
            )

    def close(self) -> None:
        with self.lock:
            self.conn.close()
