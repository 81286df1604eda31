"""DocumentIndex: add, watch, search and read documents; safe to call from a worker thread."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from skills import index_health
from skills.common.folder_watch import Change, FolderWatcher
from skills.documents import fscheck, store
from skills.documents.indexing import Files, Indexer, ProgressFn, expand
from skills.documents.models import (
    CatalogEntry,
    DocumentInfo,
    Failure,
    IndexReport,
    IndexStatus,
    Passage,
)
from skills.documents.parsers import kind_of
from skills.documents.queries import Queries, select_passages
from skills.documents.records import Records
from skills.documents.skips import Skip, SkipWhy
from skills.documents.worker import Limits, ParserPool

__all__ = ["READ_MAX_CHARS", "DocumentIndex", "ProgressFn"]

log = logging.getLogger(__name__)
READ_MAX_CHARS = 12_000  # about 3,000 tokens: a piece the model's context can hold


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
        if not index_health.is_read_only(self.db.conn):
            store.repair(self.db.conn)
        self.limits = limits or (pool.limits if pool is not None else Limits())
        self._owns_pool = pool is None  # a shared pool (tests, benchmarks) outlives us
        self.pool = pool or ParserPool(self.limits)
        self._lock = threading.RLock()
        self._records = Records(self.db, self._lock)
        self._indexer = Indexer(self._records, self.limits, self.pool)
        self._queries = Queries(self._records)
        self._watched: list[str] = [fscheck.absolute(f) for f in watched]
        self._watcher: FolderWatcher | None = None

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
        files: Files = []
        for raw in paths:
            path = fscheck.absolute(raw)
            found = expand(path, report)
            files.extend(found)
            if scope is None and os.path.isdir(path):  # a folder added again: bring it up to date
                report.removed += self._records.forget_missing(path, {p for p, _ in found})
        self._indexer.enqueue(files, scope)
        self._indexer.index_files(files, scope, progress, report, queued=True)
        return report

    def requeue(self, documents: Iterable[tuple[str, str]]) -> None:
        """Queue (path, scope or '') to be indexed again, as after index.db was rebuilt."""
        by_scope: dict[str, Files] = {}
        for path, scope in documents:
            by_scope.setdefault(scope, []).append((path, os.path.dirname(path)))
        for scope, files in by_scope.items():
            self._indexer.enqueue(files, scope or None)

    def resume_pending(self, progress: ProgressFn | None = None) -> IndexReport:
        """Index what an earlier add_paths left undone (the app quit or crashed halfway)."""
        report = IndexReport()
        rows = self._indexer.pending()
        for scope in dict.fromkeys(s for _, s, _ in rows):
            files = [(p, root) for p, s, root in rows if s == scope]
            self._indexer.index_files(files, scope or None, progress, report, queued=True)
        return report

    def sync(self, progress: ProgressFn | None = None) -> IndexReport:
        """Bring every watched folder up to date: new, changed and deleted files. Cheap when
        nothing changed (size and times are compared before any hashing), so it is how
        indexing resumes after a restart."""
        report = IndexReport()
        files: Files = []
        for folder in list(self._watched):
            if not os.path.isdir(folder):  # an unplugged drive: keep its documents for later
                report.failures.append(Failure(folder, Skip(SkipWhy.FOLDER_NOT_FOUND)))
                continue
            found = expand(folder, report)
            files.extend(found)
            report.removed += self._records.forget_missing(folder, {p for p, _ in found})
        self._indexer.index_files(files, None, progress, report)
        return report

    def reindex(self, path: str | Path) -> IndexReport:
        """Parse a file again even if it looks unchanged."""
        report = IndexReport()
        for file, root in expand(fscheck.absolute(path), report):
            self._indexer.index_one(file, root, None, report, force=True)
        return report

    def remove(self, path: str | Path) -> int:
        """Drop a file (or every file under a folder) from the index; returns how many."""
        return self._records.remove(fscheck.absolute(path))

    def forget_scope(self, scope: str) -> int:
        """A chat was deleted: forget the files dropped into it (unless the library or another
        chat holds them too); returns how many documents went."""
        return self._records.forget_scope(scope)

    def pause(self) -> None:
        self._indexer.pause()

    def resume(self) -> None:
        self._indexer.resume()

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
            self._watcher.add(path)

    def unwatch(self, folder: str | Path) -> None:
        """Stop watching a folder and drop its documents (unless a chat holds them)."""
        path = fscheck.absolute(folder)
        if path in self._watched:
            self._watched.remove(path)
        if self._watcher is not None:
            self._watcher.remove(path)
        self._records.remove_unscoped(path)

    def start_watching(self) -> None:
        """Start the watchdog observer and catch up with changes made while Hearth was off
        (files dropped in before a quit first, then each watched folder)."""
        if self._watcher is None:
            self._watcher = FolderWatcher(self._apply_changes, "hearth-doc-watch",
                                          on_start=self.resume_pending)
            self._watcher.start([])
            for folder in self._watched:
                self._watcher.add(folder)

    def stop(self) -> None:
        """Stop watching (the index stays as it is)."""
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    def _apply_changes(self, changes: list[Change]) -> None:
        for path, _tree in changes:  # a folder is always brought up to date as a whole
            try:
                self.handle_change(path)
            except Exception:  # one bad path must not stop the others
                log.exception("could not update the index for %s", path)

    def handle_change(self, path: str) -> None:
        """A watched path changed: index, re-index or remove it (called by the watcher)."""
        root = next((f for f in self._watched if fscheck.is_under(path, f)), None)
        if root is None or fscheck.hidden(os.path.relpath(path, root)):
            return
        if os.path.isdir(path) and not os.path.islink(path):
            report = IndexReport()
            files = [(file, root) for file, _ in fscheck.walk(path, report)]
            self._indexer.index_files(files, None, None, report)
            self._records.forget_missing(path, set())
        elif os.path.lexists(path):
            if kind_of(Path(path)) is not None:
                self._indexer.index_files([(path, root)], None, None, IndexReport())
        else:
            self.remove(path)

    # --- reading --------------------------------------------------------------------------

    def status(self) -> IndexStatus:
        documents, chunks = self._queries.counts()
        return IndexStatus(
            documents=documents, chunks=chunks, failures=self.failures(),
            in_progress=self._indexer.progress, paused=self._indexer.paused,
            watching=list(self._watched),
        )

    def failures(self) -> list[Failure]:
        return self._queries.failures()

    def documents(self, filter: str | None = None, scope: str | None = None) -> list[DocumentInfo]:
        """Indexed documents (library plus the chat's own), optionally filtered by name."""
        return self._queries.documents(filter, scope)

    def catalog(self) -> list[CatalogEntry]:
        """Every document the index holds, with where it belongs and whether it was read."""
        return self._queries.catalog()

    def search(self, query: str, scope: str | None = None, limit: int = 8) -> list[Passage]:
        """Best passages for a free-text query (BM25), library plus the chat's own files."""
        return self._queries.search(query, scope, limit)

    def find(self, document: str, scope: str | None = None) -> DocumentInfo | None:
        """An indexed document by path or by name; None for anything not in the index."""
        return self._queries.find(document, scope)

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
        passages = self._queries.chunks_from(info.path, start)
        return select_passages(passages, pages, section, max_chars)

    def close(self) -> None:
        if self._indexer.closed:
            return
        self._indexer.close()
        if self._owns_pool:
            self.pool.close()  # first: a parse in flight fails at once instead of running on
        self.stop()  # then the watcher's worker, no longer held by that parse, ends quickly
        if not self._indexer.idle(timeout=30):
            log.warning("indexing did not stop within 30 s; closing the index anyway")
        with self._lock:
            self.db.conn.close()
