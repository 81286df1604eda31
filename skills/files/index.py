"""FileIndex: the folders the user chose, kept in index.db by catch-up scans and live updates,
searchable by name, kind, date, size and content. Safe to call from a worker thread."""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from skills import index_health
from skills.common.folder_watch import Change, FolderWatcher
from skills.documents.worker import ParserPool
from skills.files import content
from skills.files.ignore import IgnoreRules
from skills.files.kinds import extension, has_text, kind_of, normalize_kind
from skills.files.models import FileHit, FileInfo, IndexStatus, ScanProgress, ScanReport, local_time
from skills.files.paths import (
    check_inside,
    display,
    normalize_root,
    outer_roots,
    root_of,
)
from skills.files.query import Filters, search
from skills.files.scanner import FoundFile, Walker, found_from_stat
from skills.files.store import FileStore

BATCH = 256  # files per write transaction during a scan
PROGRESS_EVERY = 500  # files between progress callbacks
MAX_ERRORS = 200  # unreadable places kept in a report (the count goes on)


class FileIndex:
    """The file index. Roots are OS paths, resolved; `search` and `info` never look outside."""

    def __init__(self, db_path: Path | str, roots: Sequence[str] = (),
                 ignore_patterns: Sequence[str] = (), pool: ParserPool | None = None) -> None:
        """`pool`: the limited worker documents are parsed in (made here when not given)."""
        self.store = FileStore(Path(db_path))
        self._owns_pool = pool is None
        self.pool = pool or content.content_pool()
        self.rules = IgnoreRules(ignore_patterns)
        self._roots = list(dict.fromkeys(normalize_root(root) for root in roots))
        self._stop = threading.Event()
        self._scanning = threading.Lock()
        self.watcher = FolderWatcher(self._apply, "hearth-files-watch")
        if not index_health.is_read_only(self.store.conn):  # a read-only disk: just read
            self.store.keep_only(self._roots)  # roots dropped while Hearth was shut

    @property
    def roots(self) -> list[str]:
        return list(self._roots)

    def add_root(self, path: str) -> str:
        """Add a folder (returns its resolved path). Call `scan()` to index it."""
        resolved = normalize_root(path)
        if not os.path.isdir(resolved):
            raise ValueError(f"{display(path)} is not a folder")
        if resolved not in self._roots:
            self._roots.append(resolved)
            self._rewatch()
        return resolved

    def remove_root(self, path: str) -> str:
        """Stop indexing a folder and forget its files (unless another root holds them)."""
        candidates = {normalize_root(path), os.path.abspath(os.path.expanduser(path))}
        match = next((r for r in self._roots if r in candidates), None)
        if match is None:
            raise ValueError(f"{display(path)} is not one of the folders chosen for file search")
        self._roots.remove(match)
        self.store.keep_only(self._roots)
        self._rewatch()
        return match

    def set_ignore_patterns(self, patterns: Sequence[str]) -> None:
        """Replace the user's own patterns (gitignore syntax); the next scan drops what they
        now exclude and picks up what they no longer do."""
        self.rules = IgnoreRules(patterns)

    def _rewatch(self) -> None:
        if self.watcher.running:
            self.watcher.start(outer_roots(self._roots))

    # -- scanning -------------------------------------------------------------------------

    def scan(self, progress: Callable[[ScanProgress], None] | None = None) -> ScanReport:
        """Catch up with the disk: new and changed files (by size and mtime) are read, unchanged
        ones are skipped, vanished ones forgotten. `stop()` from another thread ends it early."""
        report = ScanReport(roots=list(self._roots))
        started = time.monotonic()
        with self._scanning:
            self._stop.clear()
            self.store.keep_only(self._roots)
            for root in outer_roots(self._roots):
                if self._stop.is_set():
                    break
                self._scan_root(root, report, progress)
        report.stopped = self._stop.is_set()
        report.seconds = time.monotonic() - started
        return report

    def _scan_root(self, root: str, report: ScanReport,
                   progress: Callable[[ScanProgress], None] | None) -> None:
        """Two passes: names and metadata of everything first (so a new root is searchable by
        name within seconds), then the text of new files. Changed files are read at once so
        their old text never disappears from searches."""
        if not os.path.isdir(root):  # unmounted or deleted: keep what we knew, say why
            report.errors.append((display(root), "folder not found"))
            return
        known = self.store.known(root)
        walker = Walker(self.rules, self._stop.is_set)
        batch: list[tuple[FoundFile, str | None]] = []
        for found in walker.walk(root):
            report.seen += 1
            before = known.pop(os.fsencode(found.path), None)
            if before == (found.size, found.mtime_ns):
                report.unchanged += 1
            elif before is None:
                report.added += 1
                batch.append((found, None if has_text(extension(found.name)) else ""))
            else:
                report.updated += 1
                batch.append((found, self._content(found)))
            if len(batch) >= BATCH:
                self.store.upsert(batch)
                batch.clear()
            if progress and report.seen % PROGRESS_EVERY == 0:
                progress(ScanProgress(root, report.seen, report.added + report.updated,
                                      display(found.path)))
        self.store.upsert(batch)
        room = MAX_ERRORS - len(report.errors)
        report.errors += [(display(p), r) for p, r in walker.errors[: max(room, 0)]]
        if not self._stop.is_set():  # a stopped walk did not see everything: delete nothing
            report.removed += self.store.remove(known)
        self._read_pending(root, report, progress)
        if not self._stop.is_set():
            self.store.mark_scanned(root, time.time())

    def _read_pending(self, root: str, report: ScanReport,
                      progress: Callable[[ScanProgress], None] | None) -> None:
        """The content pass; what a stopped scan leaves pending, the next one picks up."""
        pending = self.store.pending(root)
        done: list[tuple[int, str]] = []
        for number, (file_id, raw, ext, size) in enumerate(pending, 1):
            if self._stop.is_set():
                break
            path = os.fsdecode(raw)
            done.append((file_id, content.extract(path, ext, size, self.pool)))
            if len(done) >= BATCH // 4:
                self.store.set_content(done)
                done.clear()
            if progress and number % PROGRESS_EVERY == 0:
                progress(ScanProgress(root, report.seen, report.added + report.updated,
                                      display(path), phase="content"))
        self.store.set_content(done)
        if progress:
            progress(ScanProgress(root, report.seen, report.added + report.updated,
                                  phase="content"))

    # -- live updates ---------------------------------------------------------------------

    def start_watching(self) -> None:
        """Follow creates, edits, moves and deletes under the roots until `stop()`."""
        self.watcher.start(outer_roots(self._roots))

    def stop(self) -> None:
        """Stop watching and end a running scan early (it keeps what it has indexed)."""
        self._stop.set()
        self.watcher.stop()

    def _apply(self, changes: list[Change]) -> None:
        for path, tree in changes:
            root = root_of(path, self._roots)
            if root is not None:
                self._sync(root, path, tree)

    def _sync(self, root: str, path: str, tree: bool) -> None:
        """Bring one path in line with the disk, whatever the event claimed."""
        try:
            st = os.lstat(path)
        except OSError:
            self.store.remove_under(path)
            return
        is_dir = stat.S_ISDIR(st.st_mode)
        if not (is_dir or stat.S_ISREG(st.st_mode)) or self.rules.skips_path(root, path, is_dir):
            self.store.remove_under(path)  # a symlink, device, or something now ignored
        elif is_dir:
            if tree:
                self._index_tree(root, path)
        else:
            self._index_files([found_from_stat(path, st)])

    def _index_tree(self, root: str, folder: str) -> None:
        walker = Walker(self.rules)
        batch: list[FoundFile] = []
        for found in walker.walk(root, start=folder):
            batch.append(found)
            if len(batch) >= BATCH:
                self._index_files(batch)
                batch = []
        self._index_files(batch)

    def _index_files(self, found: list[FoundFile]) -> None:
        changed = [f for f in found
                   if self.store.signature(os.fsencode(f.path)) != (f.size, f.mtime_ns)]
        self.store.upsert([(f, self._content(f)) for f in changed])

    # -- reading --------------------------------------------------------------------------

    def search(self, query: str | None = None, kind: str | None = None,
               extensions: Sequence[str] | None = None, folder: str | None = None,
               modified_after: datetime | None = None, modified_before: datetime | None = None,
               larger_than: int | None = None, smaller_than: int | None = None,
               limit: int = 20) -> list[FileHit]:
        """Files matching every given word (as a prefix, in name or content; Chinese and
        Japanese anywhere inside a name or text) and filter.
        Name matches come first, then content matches; newer before older within each."""
        filters = Filters(
            kind=normalize_kind(kind) if kind else None,
            extensions=[e.strip().lstrip(".").lower() for e in extensions or () if e.strip()],
            folder=display(check_inside(self._absolute(folder), self._roots)) if folder else None,
            modified_after=modified_after,
            modified_before=modified_before,
            larger_than=larger_than,
            smaller_than=smaller_than,
        )
        if limit < 1:
            raise ValueError("limit must be at least 1")
        with self.store.lock:
            return search(self.store.conn, query, filters, min(limit, 1000))

    def resolve(self, path: str) -> str:
        """The OS path for a path the user or model gave (display text is accepted, so names
        that are not UTF-8 still open), checked to lie inside a root after resolving links."""
        with self.store.lock:
            row = self.store.conn.execute(
                "select raw from file_index where path = ?", [display(path)]
            ).fetchone()
        candidate = os.fsdecode(bytes(row[0])) if row else self._absolute(path)
        return check_inside(candidate, self._roots)

    def _absolute(self, path: str) -> str:
        """An absolute path; a relative one ('Trip/budget.xlsx') is looked for in each root."""
        expanded = os.path.expanduser(path)
        if os.path.isabs(expanded):
            return expanded
        for root in self._roots:
            candidate = os.path.join(root, expanded)
            if os.path.lexists(candidate):
                return candidate
        raise ValueError(f"{display(path)!r} is not in the chosen folders; give its full path")

    def info(self, path: str) -> FileInfo:
        """Details of one file inside the roots (from the index, or from disk if not indexed)."""
        real = self.resolve(path)
        try:
            st = os.stat(real)
        except OSError as exc:
            raise FileNotFoundError(f"{display(path)} cannot be read: {exc.strerror}") from exc
        with self.store.lock:
            row = self.store.conn.execute(
                "select has_content from file_index where raw = ?", [os.fsencode(real)]
            ).fetchone()
        name = os.path.basename(real)
        found = found_from_stat(real, st)
        return FileInfo(
            path=display(real), name=display(name), folder=display(os.path.dirname(real)),
            extension=extension(name), kind="folder" if stat.S_ISDIR(st.st_mode)
            else kind_of(extension(name)), size=st.st_size,
            modified=local_time(st.st_mtime), created=local_time(found.created),
            indexed=row is not None, has_content=bool(row and row[0] == 1), os_path=real,
        )

    def status(self) -> IndexStatus:
        with self.store.lock:
            conn = self.store.conn
            kinds = conn.execute(
                "select kind, count(*), coalesce(sum(size), 0) from file_index group by kind"
            ).fetchall()
            last = conn.execute("select max(last_scan) from file_index_roots").fetchone()[0]
        return IndexStatus(
            roots=[display(r) for r in self._roots],
            files=sum(k[1] for k in kinds),
            total_bytes=sum(k[2] for k in kinds),
            by_kind={k[0]: k[1] for k in kinds},
            last_scan=local_time(last) if last else None,
            scanning=self._scanning.locked(),
            watching=self.watcher.running,
            watch_error=self.watcher.error,
        )

    def close(self) -> None:
        self.stop()
        with self._scanning:  # let a scan in another thread finish its batch first
            self.store.close()
        if self._owns_pool:
            self.pool.close()

    def _content(self, found: FoundFile) -> str:
        return content.extract(found.path, extension(found.name), found.size, self.pool)
