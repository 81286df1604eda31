"""index.db health: a damaged or foreign cache is moved aside (never deleted) and rebuilt.

index.db only holds what can be derived again (file and document indexes), so the careful
answer to damage is a fresh file: the old one is renamed next to it for inspection, and the
documents it listed are queued so indexing brings them back. The checks are the cheap ones on
every open (header, size against the header's page count, the schema being ours) plus SQLite's
quick_check for files small enough to read at once; deeper damage found later by a query goes
through `set_aside(path, reason)` from the caller that met it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import sqlite_utils

from skills.common.migrations import Migrations, open_migrated

SQLITE_MAGIC = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"_migrations", "doc_documents", "file_index"})
QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024  # bigger files get the cheap checks only on open


class DamageWhy(StrEnum):
    """Why a database file cannot serve: a code the UI and the CLI each put into words."""

    UNREADABLE = "unreadable"  # detail: the system's words
    NOT_SQLITE = "not_sqlite"
    TRUNCATED = "truncated"  # detail: what SQLite found reading the file with its -wal
    FOREIGN = "foreign"  # another program's database
    DAMAGED = "damaged"  # detail: SQLite's words


# The English words for the CLI and logs; the window translates the code itself (app/ui).
_WORDS = {
    DamageWhy.UNREADABLE: "unreadable ({0})",
    DamageWhy.NOT_SQLITE: "not a SQLite database",
    DamageWhy.TRUNCATED: "truncated ({0})",
    DamageWhy.FOREIGN: "another program's database",
    DamageWhy.DAMAGED: "damaged ({0})",
}


@dataclass(frozen=True)
class Damage:
    """What is wrong with a database file: the code, and the system's or SQLite's words."""

    why: DamageWhy
    detail: str = ""

    @property
    def words(self) -> str:
        return _WORDS[self.why].format(self.detail)

    def __str__(self) -> str:
        return self.words


@dataclass(frozen=True)
class SetAside:
    """A damaged index.db that was moved: why, where to, and the documents it listed."""

    reason: Damage
    moved_to: Path
    documents: list[tuple[str, str]] = field(default_factory=list)  # (path, scope or "")

    def notice(self) -> str:
        return (f"the search index was {self.reason.words}; it was moved to {self.moved_to.name} and "
                f"is being rebuilt ({len(self.documents)} documents queued to index again)")


def problem(path: Path, deep: bool = False) -> Damage | None:
    """Why `path` cannot serve as index.db (damaged, truncated, foreign), or None."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as handle:
            header = handle.read(100)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Damage(DamageWhy.UNREADABLE, exc.strerror or str(exc))
    if size == 0:
        return None  # SQLite makes an empty file a new database
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return Damage(DamageWhy.NOT_SQLITE)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    counter_valid = header[24:28] == header[92:96]
    if counter_valid and pages and pages * page_size > size:
        # Shorter than its header says: a checkpoint a full disk cut short leaves exactly
        # that, with every page still in the -wal. Only SQLite, reading both, can tell.
        found = _schema_problem(path, True, "integrity_check(1)")
        return Damage(DamageWhy.TRUNCATED, found.words) if found else None
    return _schema_problem(path, deep or size <= QUICK_CHECK_MAX_BYTES)


def _schema_problem(path: Path, check: bool,
                    pragma: str = "quick_check(1)") -> Damage | None:
    conn = open_read_only(path)
    if conn is None:
        return None  # cannot even be opened here (a read-only folder): not a sign of damage
    try:
        tables = {row[0] for row in conn.execute("select name from sqlite_master")}
        if tables and not tables & OUR_TABLES:
            return Damage(DamageWhy.FOREIGN)
        if check:
            verdict = conn.execute(f"pragma {pragma}").fetchone()[0]
            if verdict != "ok":
                return Damage(DamageWhy.DAMAGED, str(verdict))
    except sqlite3.DatabaseError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return None  # another Hearth is writing it: not damage
        return Damage(DamageWhy.DAMAGED, str(exc))
    finally:
        conn.close()
    return None


def open_read_only(path: Path) -> sqlite3.Connection | None:
    """`path` opened for reading only (query_only set, so callers can tell), or None."""
    # immutable: a read-only folder where no -shm can be made still reads
    for mode in ("ro", "ro&immutable=1"):
        try:
            conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=30,
                                   check_same_thread=False)
            conn.execute("select 1 from sqlite_master limit 1").fetchall()
            conn.execute("pragma query_only = 1")
            return conn
        except sqlite3.OperationalError:
            continue
        except sqlite3.DatabaseError:
            return sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=30)
    return None


def set_aside_if_damaged(path: Path) -> SetAside | None:
    reason = problem(path)
    if not reason:
        return None
    try:
        return set_aside(path, reason)
    except OSError:  # a read-only folder: it stays, and opening it will say why it fails
        return None


def set_aside(path: Path, reason: Damage) -> SetAside:
    """Rename index.db (and its -wal/-shm) out of the way; keep what it listed to rebuild."""
    documents = _salvage(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    moved = path.with_name(f"{path.name}.damaged-{stamp}")
    move_database(path, moved)
    return SetAside(reason, moved, documents)


def move_database(path: Path, to: Path) -> None:
    """Rename a SQLite file, and its -wal and -shm with it."""
    os.replace(path, to)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, to.with_name(to.name + suffix))


def _salvage(path: Path) -> list[tuple[str, str]]:
    """The documents (and the chats they belong to) that can still be read; maybe none.
    Read in id order, stepping over stretches the damage makes unreadable."""
    found: list[tuple[str, str]] = []
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return found
    try:
        last = 0
        while (rows := _documents_after(conn, last)) is not None:
            if not rows:
                break
            for doc_id, doc_path, in_library in rows:
                if in_library:
                    found.append((str(doc_path), ""))
                found += [(str(doc_path), scope) for scope in _scopes(conn, doc_id)]
            last = rows[-1][0]
        found += _queued(conn)
    finally:
        conn.close()
    return found


def _queued(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """What was waiting to be indexed: queued again in the new file, not forgotten."""
    try:
        return [(str(p), str(s)) for p, s in conn.execute("select path, scope from doc_queue")]
    except sqlite3.Error:
        return []


def _documents_after(conn: sqlite3.Connection, last: int) -> list[tuple[int, str, int]] | None:
    """The next readable rows after id `last`, or None when nothing further can be read."""
    for jump in (0, 1, 10, 100, 1_000, 10_000, 100_000):
        try:
            return conn.execute("select id, path, in_library from doc_documents where id > ?"
                                " order by id limit 200", [last + jump]).fetchall()
        except sqlite3.Error:
            continue
    return None


def _scopes(conn: sqlite3.Connection, doc_id: int) -> list[str]:
    try:
        return [str(s) for (s,) in conn.execute(
            "select scope from doc_scopes where document_id = ?", [doc_id])]
    except sqlite3.Error:
        return []


def is_read_only(conn: sqlite3.Connection) -> bool:
    return bool(conn.execute("pragma query_only").fetchone()[0])


def open_index(path: Path, migrations: Migrations, *pragmas: str) -> sqlite_utils.Database:
    """index.db for one component (files, documents), its migrations applied: WAL and a busy
    timeout, since both write to the same file from their own threads, then `pragmas`. On a
    read-only or full disk, the file as it is (searches still work) if it has them all."""
    try:
        return open_migrated(path, migrations, pragmas=pragmas)
    except sqlite3.OperationalError as exc:
        db = sqlite_utils.Database(fallback(path, exc))
        if migrations.applied(db) != migrations.names:
            raise exc from None
    return db


def fallback(path: Path, cause: sqlite3.OperationalError) -> sqlite3.Connection:
    """Where index.db cannot be written (a read-only or full disk), read it as it is; the
    original error when it cannot even be read."""
    conn = open_read_only(path) if path.exists() else None
    if conn is None:
        raise cause
    return conn
