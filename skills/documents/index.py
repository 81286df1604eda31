"""DocumentIndex: add, watch, search and read documents; safe to call from a worker thread."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skills.documents import fscheck, store
from skills.documents.chunking import Prepared
from skills.documents.models import (
    DocumentInfo,
    Failure,
    IndexReport,
    IndexStatus,
    Passage,
    Progress,
)
from skills.documents.parsers import kind_of
from skills.documents.worker import Limits, Outcome, ParserPool

log = logging.getLogger(__name__)
ProgressFn = Callable[[Progress], None]
READ_MAX_CHARS = 12_000  # about 3,000 tokens: a piece the model's context can hold


@dataclass(frozen=True)
class _Job:
    """A file that needs parsing, with what was learnt while checking it."""

    path: str
    digest: str
    stat: store.Stat
    scope: str | None
    existed: bool


class _Busy:
    """Counts indexing runs in progress (a context manager) and waits for none."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()

    def __enter__(self) -> None:
        with self._changed:
            self._count += 1

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self._count -= 1
            self._changed.notify_all()

    def idle(self, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self._count == 0, timeout)


class DocumentIndex:
    """The documents part of index.db plus the parsing worker and the folder watcher.

    Every public method may be called from any thread; database access is serialised by one
    lock, and parsing happens outside it in the worker process."""

    def __init__(
        self,
        db_path: Path | str,
        watched: Iterable[str] = (),
        limits: Limits | None = None,
        pool: ParserPool | None = None,
    ) -> None:
        self.db = store.connect(Path(db_path))
        self.limits = limits or (pool.limits if pool is not None else Limits())
        self._owns_pool = pool is None  # a shared pool (tests, benchmarks) outlives us
        self.pool = pool or ParserPool(self.limits)
        self._lock = threading.RLock()
        self._running = threading.Event()
        self._running.set()  # cleared while paused
        self._closed = False
        self._progress: Progress | None = None
        self._watched: list[str] = [fscheck.absolute(f) for f in watched]
        self._watcher: Any = None
        self._titles: tuple[tuple[int, int], frozenset[str]] | None = None  # version, names
        self._busy = _Busy()  # indexing runs in progress, so close() can wait for them

    # --- indexing -------------------------------------------------------------------------

    def add_paths(
        self,
        paths: Iterable[str | Path],
        scope: str | None = None,
        progress: ProgressFn | None = None,
    ) -> IndexReport:
        """Index files and folders (recursively). With a scope (a conversation id) the files
        are visible only in that chat; without one they join the library."""
        report = IndexReport()
        files: list[tuple[str, str]] = []  # (path, root it was found under)
        for raw in paths:
            path = fscheck.absolute(raw)
            found = self._expand(path, report)
            files.extend(found)
            if scope is None and os.path.isdir(path):  # a folder added again: bring it up to date
                report.removed += self._forget_missing(path, {p for p, _ in found})
        self._enqueue(files, scope)
        self._index_files(files, scope, progress, report, queued=True)
        return report

    def resume_pending(self, progress: ProgressFn | None = None) -> IndexReport:
        """Index what an earlier add_paths left undone (the app quit or crashed halfway)."""
        report = IndexReport()
        with self._lock:
            rows = self.db.execute(
                "select path, scope, root from doc_queue order by rowid"
            ).fetchall()
        for scope in dict.fromkeys(s for _, s, _ in rows):
            files = [(p, root) for p, s, root in rows if s == scope]
            self._index_files(files, scope or None, progress, report, queued=True)
        return report

    def _enqueue(self, files: list[tuple[str, str]], scope: str | None) -> None:
        with self._lock, self.db.conn:
            self.db.conn.executemany(
                "insert or ignore into doc_queue (path, scope, root) values (?, ?, ?)",
                [(path, scope or "", root) for path, root in files],
            )

    def _dequeue(self, path: str, scope: str | None) -> None:
        with self._lock, self.db.conn:
            self.db.execute(
                "delete from doc_queue where path = ? and scope = ?", [path, scope or ""]
            )

    def sync(self, progress: ProgressFn | None = None) -> IndexReport:
        """Bring every watched folder up to date: new, changed and deleted files. Cheap when
        nothing changed (size and times are compared before any hashing), so it is how
        indexing resumes after a restart."""
        report = IndexReport()
        files: list[tuple[str, str]] = []
        for folder in list(self._watched):
            if not os.path.isdir(folder):  # an unplugged drive: keep its documents for later
                report.failures.append(Failure(folder, "watched folder not found"))
                continue
            found = self._expand(folder, report)
            files.extend(found)
            report.removed += self._forget_missing(folder, {p for p, _ in found})
        self._index_files(files, None, progress, report)
        return report

    def reindex(self, path: str | Path) -> IndexReport:
        """Parse a file again even if it looks unchanged."""
        report = IndexReport()
        for file, root in self._expand(fscheck.absolute(path), report):
            self._index_one(file, root, None, report, force=True)
        return report

    def remove(self, path: str | Path) -> int:
        """Drop a file (or every file under a folder) from the index; returns how many."""
        target = fscheck.absolute(path)
        with self._lock, self.db.conn:
            rows = self.db.execute(
                "select id from doc_documents where path = ? or path like ? escape '\\'",
                [target, fscheck.like_prefix(target)],
            ).fetchall()
            for (document_id,) in rows:
                store.delete_document(self.db.conn, document_id)
        return len(rows)

    def _index_files(
        self,
        files: list[tuple[str, str]],
        scope: str | None,
        progress: ProgressFn | None,
        report: IndexReport,
        queued: bool = False,
    ) -> None:
        """Check, parse and store each file. Parsing file n+1 (in the worker process) overlaps
        storing file n (here), so indexing costs little more than parsing alone."""
        total = len(files)
        previous: tuple[_Job, Future[Outcome]] | None = None
        with self._busy, ThreadPoolExecutor(1, "hearth-doc-parse") as parser:
            for done, (file, root) in enumerate(files):
                self._report(Progress(done, total, file), progress)
                if not self._wait_running():  # paused: hold here; closed: give up
                    break
                job = self._check(file, root, scope, report)
                current = (job, parser.submit(self._parse, job)) if job else None
                self._settle(previous, report, queued)
                if queued and job is None:
                    self._dequeue(file, scope)
                previous = current
            self._settle(previous, report, queued)
        self._report(Progress(total, total, ""), progress)
        self._progress = None

    def _settle(
        self, parsing: tuple[_Job, Future[Outcome]] | None, report: IndexReport, queued: bool
    ) -> None:
        """Store a parsed file; after close() it stays queued for next time instead."""
        if parsing is None or self._closed:
            return
        job, outcome = parsing
        self._store(job, outcome, report)
        if queued:
            self._dequeue(job.path, job.scope)

    def _report(self, value: Progress, progress: ProgressFn | None) -> None:
        self._progress = value
        if progress is not None:
            progress(value)

    def _wait_running(self) -> bool:
        while not self._running.wait(timeout=0.5):
            if self._closed:
                return False
        return not self._closed

    def _expand(self, path: str, report: IndexReport) -> list[tuple[str, str]]:
        """Files to index under a path, each with the root it was found under."""
        if os.path.isdir(path) and not os.path.islink(path):
            return list(fscheck.walk(path, report))
        return [(path, os.path.dirname(path))]

    def _index_one(
        self, path: str, root: str, scope: str | None, report: IndexReport, force: bool = False
    ) -> None:
        job = self._check(path, root, scope, report, force)
        if job is not None:
            self._store(job, None, report)

    def _check(
        self, path: str, root: str, scope: str | None, report: IndexReport, force: bool = False
    ) -> _Job | None:
        """Settle what needs no parsing (bad, unchanged, moved files); else a parse job."""
        reason, stat = fscheck.check_file(path, root, self.limits.max_bytes)
        if reason:
            self._record_failure(path, reason, stat, scope, report)
            return None
        assert stat is not None
        existing = self._row(path)
        if existing is not None and not force and fscheck.same_stat(existing, stat):
            self._mark_unchanged(existing, stat, scope, report)
            return None
        try:
            digest = fscheck.hash_file(path)
        except OSError as exc:
            self._record_failure(path, fscheck.os_reason(exc), stat, scope, report)
            return None
        if existing is not None and not force and existing["sha256"] == digest:
            self._mark_unchanged(existing, stat, scope, report)  # touched, not changed
            return None
        if existing is None and self._adopt_moved(path, digest, stat, scope):
            report.unchanged += 1
            return None
        return _Job(path, digest, stat, scope, existing is not None)

    def _parse(self, job: _Job) -> Outcome:
        return self.pool.parse(job.path, self.limits.seconds + job.stat.size / 1e6)

    def _store(self, job: _Job, parsing: Future[Outcome] | None, report: IndexReport) -> None:
        started = time.perf_counter()
        outcome = parsing.result() if parsing is not None else self._parse(job)
        seconds = time.perf_counter() - started
        if not outcome.ok:
            self._record_failure(job.path, outcome.error, job.stat, job.scope, report, job.digest)
            return
        prepared: Prepared = outcome.value
        with self._lock, self.db.conn:
            document_id = self._upsert(job.path, job.stat, job.scope, {
                "title": prepared.title, "kind": prepared.kind, "sha256": job.digest,
                "status": "ok", "error": "", "pages": prepared.pages,
                "chunks": len(prepared.chunks), "parse_seconds": seconds,
            })
            store.delete_chunks(self.db.conn, document_id)
            store.insert_chunks(self.db.conn, document_id, prepared.title, prepared.chunks)
        if job.existed:
            report.updated += 1
        else:
            report.added += 1

    def _record_failure(
        self, path: str, reason: str, stat: store.Stat | None, scope: str | None,
        report: IndexReport, digest: str = "",
    ) -> None:
        report.failures.append(Failure(path, reason))
        with self._lock, self.db.conn:
            document_id = self._upsert(path, stat or store.Stat(0, 0, 0), scope, {
                "title": os.path.basename(path), "kind": fscheck.kind_name(path), "sha256": digest,
                "status": "failed", "error": reason, "pages": 0, "chunks": 0,
                "parse_seconds": 0,
            })
            store.delete_chunks(self.db.conn, document_id)

    def _upsert(
        self, path: str, stat: store.Stat, scope: str | None, values: dict[str, Any]
    ) -> int:
        row = {**values, "path": path, "size": stat.size, "mtime_ns": stat.mtime_ns,
               "ctime_ns": stat.ctime_ns}
        existing = self._row(path)
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

    def _mark_unchanged(
        self, row: dict[str, Any], stat: store.Stat, scope: str | None, report: IndexReport
    ) -> None:
        with self._lock, self.db.conn:
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
            report.failures.append(Failure(row["path"], row["error"]))
        else:
            report.unchanged += 1

    def _adopt_moved(self, path: str, digest: str, stat: store.Stat, scope: str | None) -> bool:
        """A new path whose content we already indexed at a path that is gone: a move.
        Keep the chunks and just rename, so moving a folder never re-parses it."""
        with self._lock:
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

    def _forget_missing(self, folder: str, present: set[str]) -> int:
        """Remove library documents under `folder` that are no longer there."""
        with self._lock:
            rows = self.db.execute(
                "select id, path from doc_documents where path like ? escape '\\'",
                [fscheck.like_prefix(folder)],
            ).fetchall()
            gone = [i for i, p in rows if p not in present and not os.path.lexists(p)]
            with self.db.conn:
                for document_id in gone:
                    store.delete_document(self.db.conn, document_id)
        return len(gone)

    def _row(self, path: str) -> dict[str, Any] | None:
        with self._lock:
            cursor = self.db.execute("select * from doc_documents where path = ?", [path])
            names = [d[0] for d in cursor.description]
            found = cursor.fetchone()
        return dict(zip(names, found, strict=True)) if found else None

    # --- watching -------------------------------------------------------------------------

    @property
    def watched(self) -> list[str]:
        return list(self._watched)

    def watch(self, folder: str | Path) -> None:
        """Add a folder to watch (live updates once start_watching() has run)."""
        path = fscheck.absolute(folder)
        if not os.path.isdir(path):
            raise ValueError(f"not a folder: {path}")
        if path not in self._watched:
            self._watched.append(path)
        if self._watcher is not None:
            self._watcher.schedule(path)

    def unwatch(self, folder: str | Path) -> None:
        """Stop watching a folder and drop its documents (unless a chat holds them)."""
        path = fscheck.absolute(folder)
        if path in self._watched:
            self._watched.remove(path)
        if self._watcher is not None:
            self._watcher.unschedule(path)
        with self._lock, self.db.conn:
            rows = self.db.execute(
                "select id from doc_documents d where path like ? escape '\\' and not exists"
                " (select 1 from doc_scopes s where s.document_id = d.id)",
                [fscheck.like_prefix(path)],
            ).fetchall()
            for (document_id,) in rows:
                store.delete_document(self.db.conn, document_id)

    def start_watching(self) -> None:
        """Start the watchdog observer and catch up with changes made while Hearth was off."""
        from skills.documents.watcher import FolderWatcher

        if self._watcher is None:
            self._watcher = FolderWatcher(self)
            for folder in self._watched:
                self._watcher.schedule(folder)
            self._watcher.start()

    def stop(self) -> None:
        """Stop watching (the index stays as it is)."""
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    def handle_change(self, path: str) -> None:
        """A watched path changed: index, re-index or remove it (called by the watcher)."""
        root = next((f for f in self._watched if fscheck.is_under(path, f)), None)
        if root is None or fscheck.hidden(os.path.relpath(path, root)):
            return
        if os.path.isdir(path) and not os.path.islink(path):
            report = IndexReport()
            files = [(file, root) for file, _ in fscheck.walk(path, report)]
            self._index_files(files, None, None, report)
            self._forget_missing(path, set())
        elif os.path.lexists(path):
            if kind_of(Path(path)) is not None:
                self._index_files([(path, root)], None, None, IndexReport())
        else:
            self.remove(path)

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    # --- reading --------------------------------------------------------------------------

    def status(self) -> IndexStatus:
        with self._lock:
            documents, chunks = self.db.execute(
                "select count(*), coalesce(sum(chunks), 0) from doc_documents where status = 'ok'"
            ).fetchone()
        return IndexStatus(
            documents=documents, chunks=chunks, failures=self.failures(),
            in_progress=self._progress, paused=not self._running.is_set(),
            watching=list(self._watched),
        )

    def failures(self) -> list[Failure]:
        with self._lock:
            rows = self.db.execute(
                "select path, error from doc_documents where status = 'failed' order by path"
            ).fetchall()
        return [Failure(p, e) for p, e in rows]

    def documents(self, filter: str | None = None, scope: str | None = None) -> list[DocumentInfo]:
        """Indexed documents (library plus the chat's own), optionally filtered by name."""
        sql = (
            "select path, title, kind, pages, chunks, size, status, error, indexed_at"
            " from doc_documents d where status = 'ok' and (in_library = 1 or exists"
            " (select 1 from doc_scopes s where s.document_id = d.id and s.scope = ?))"
        )
        args: list[Any] = [scope]
        if filter:
            sql += " and (title like ? or path like ?)"
            args += [f"%{filter}%", f"%{filter}%"]
        with self._lock:
            rows = self.db.execute(sql + " order by title, path", args).fetchall()
        return [DocumentInfo(*row) for row in rows]

    def search(self, query: str, scope: str | None = None, limit: int = 8) -> list[Passage]:
        """Best passages for a free-text query (BM25), library plus the chat's own files."""
        with self._lock:
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

    def read(
        self,
        document: str,
        pages: Sequence[int] | None = None,
        section: str | None = None,
        max_chars: int = READ_MAX_CHARS,
        start: int = 0,
        scope: str | None = None,
    ) -> list[Passage]:
        """A document's chunks in order from chunk `start`, up to about max_chars; filtered to
        pages or to sections whose heading path contains `section`. Raises KeyError for a
        document that is not in the index (never reads arbitrary paths)."""
        info = self.find(document, scope)
        if info is None:
            raise KeyError(document)
        with self._lock:
            rows = self.db.execute(
                "select c.id, d.path, d.title, c.location, c.page, c.text, c.ordinal,"
                " c.char_start, c.char_end from doc_chunks c join doc_documents d"
                " on d.id = c.document_id where d.path = ? and c.ordinal >= ? order by c.ordinal",
                [info.path, start],
            ).fetchall()
        out: list[Passage] = []
        used = 0
        for row in rows:
            passage = _passage(row, 0.0)
            if pages and passage.page not in pages:
                continue
            if section and section.casefold() not in passage.location.casefold():
                continue
            if out and used + len(passage.text) > max_chars:
                break
            out.append(passage)
            used += len(passage.text)
        return out

    def chunk_count(self, document: str, scope: str | None = None) -> int:
        info = self.find(document, scope)
        return info.chunks if info else 0

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._running.set()
        self.stop()
        if self._owns_pool:
            self.pool.close()  # a parse in flight fails at once instead of running on
        if not self._busy.idle(timeout=30):
            log.warning("indexing did not stop within 30 s; closing the index anyway")
        with self._lock:
            self.db.conn.close()


def _passage(row: Sequence[Any], score: float) -> Passage:
    chunk_id, path, title, location, page, text, ordinal, start, end = row
    return Passage(path, title, location, page, text, score, chunk_id, ordinal, start, end)
