"""Indexing runs: the resumable queue, pause and close, progress, and check/parse/store per file."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from skills.common.in_flight import InFlight
from skills.documents import fscheck, store
from skills.documents.chunking import Prepared
from skills.documents.models import Failure, IndexReport, Progress
from skills.documents.records import Records
from skills.documents.worker import CLOSED, Limits, Outcome, ParserPool

ProgressFn = Callable[[Progress], None]
Files = list[tuple[str, str]]  # (path, root it was found under)


@dataclass(frozen=True)
class _Job:
    """A file that needs parsing, with what was learnt while checking it."""

    path: str
    digest: str
    stat: store.Stat
    scope: str | None
    existed: bool


class Indexer:
    """Checks, parses and stores files; may be paused, and stops for good on close()."""

    def __init__(self, records: Records, limits: Limits, pool: ParserPool) -> None:
        self.records = records
        self.limits = limits
        self.pool = pool
        self.progress: Progress | None = None  # the file being indexed now, for status()
        self.closed = False
        self._running = threading.Event()
        self._running.set()  # cleared while paused
        self._busy = InFlight()  # indexing runs in progress, so close() can wait for them

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    def pause(self) -> None:
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def close(self) -> None:
        """Make every run stop at its next file, paused ones included."""
        self.closed = True
        self._running.set()

    def idle(self, timeout: float) -> bool:
        """Wait for runs in progress to end; False when they did not within `timeout`."""
        return self._busy.idle(timeout)

    # --- the queue an interrupted add_paths resumes from ----------------------------------

    def enqueue(self, files: Files, scope: str | None) -> None:
        with self.records.lock, self.records.db.conn:
            self.records.db.conn.executemany(
                "insert or ignore into doc_queue (path, scope, root) values (?, ?, ?)",
                [(path, scope or "", root) for path, root in files],
            )

    def pending(self) -> list[tuple[str, str, str]]:
        """What is still queued, as (path, scope or '', root) in the order it was added."""
        with self.records.lock:
            rows: list[tuple[str, str, str]] = self.records.db.execute(
                "select path, scope, root from doc_queue order by rowid"
            ).fetchall()
        return rows

    def _dequeue(self, path: str, scope: str | None) -> None:
        with self.records.lock, self.records.db.conn:
            self.records.db.execute(
                "delete from doc_queue where path = ? and scope = ?", [path, scope or ""]
            )

    # --- runs -------------------------------------------------------------------------------

    def index_files(
        self,
        files: Files,
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
        self.progress = None

    def index_one(
        self, path: str, root: str, scope: str | None, report: IndexReport, force: bool = False
    ) -> None:
        job = self._check(path, root, scope, report, force)
        if job is not None:
            self._store(job, None, report)

    def _settle(
        self, parsing: tuple[_Job, Future[Outcome]] | None, report: IndexReport, queued: bool
    ) -> None:
        """Store a parsed file; after close() it stays queued for next time instead."""
        if parsing is None or self.closed:
            return
        job, outcome = parsing
        if self._store(job, outcome, report) and queued:
            self._dequeue(job.path, job.scope)

    def _report(self, value: Progress, progress: ProgressFn | None) -> None:
        self.progress = value
        if progress is not None:
            progress(value)

    def _wait_running(self) -> bool:
        while not self._running.wait(timeout=0.5):
            if self.closed:
                return False
        return not self.closed

    # --- one file ---------------------------------------------------------------------------

    def _check(
        self, path: str, root: str, scope: str | None, report: IndexReport, force: bool = False
    ) -> _Job | None:
        """Settle what needs no parsing (bad, unchanged, moved files); else a parse job."""
        unstorable = fscheck.unstorable_name(path)
        if unstorable is not None:  # reported, but no row: the name cannot be stored
            report.failures.append(Failure(path, unstorable))
            return None
        reason, stat = fscheck.check_file(path, root, self.limits.max_bytes)
        if reason is not None:
            self.records.save_failure(path, reason, stat, scope, report)
            return None
        assert stat is not None
        existing = self.records.row(path)
        if existing is not None and not force and fscheck.same_stat(existing, stat):
            self.records.mark_unchanged(existing, stat, scope, report)
            return None
        try:
            digest = fscheck.hash_file(path)
        except OSError as exc:
            self.records.save_failure(path, fscheck.os_reason(exc), stat, scope, report)
            return None
        if existing is not None and not force and existing["sha256"] == digest:
            self.records.mark_unchanged(existing, stat, scope, report)  # touched, not changed
            return None
        if existing is None and self.records.adopt_moved(path, digest, stat, scope):
            report.unchanged += 1
            return None
        return _Job(path, digest, stat, scope, existing is not None)

    def _parse(self, job: _Job) -> Outcome:
        return self.pool.parse(job.path, self.limits.seconds + job.stat.size / 1e6)

    def _store(self, job: _Job, parsing: Future[Outcome] | None, report: IndexReport) -> bool:
        """Record what parsing gave; False when closing cut it short (the file stays queued)."""
        started = time.perf_counter()
        outcome = parsing.result() if parsing is not None else self._parse(job)
        seconds = time.perf_counter() - started
        if outcome.error is not None and (self.closed or outcome.error == CLOSED):
            return False  # cut short by closing, not the file's fault: read again next time
        if outcome.error is not None:
            self.records.save_failure(job.path, outcome.error, job.stat, job.scope, report,
                                      job.digest)
            return True
        prepared: Prepared = outcome.value
        self.records.save_parsed(job.path, job.stat, job.scope, job.digest, prepared, seconds)
        if job.existed:
            report.updated += 1
        else:
            report.added += 1
        return True


def expand(path: str, report: IndexReport) -> Files:
    """Files to index under a path, each with the root it was found under."""
    if os.path.isdir(path) and not os.path.islink(path):
        return list(fscheck.walk(path, report))
    reason = fscheck.unstorable_name(path)
    if reason is not None:
        report.failures.append(Failure(path, reason))
        return []
    return [(path, os.path.dirname(path))]
