"""Live updates for chosen folders: watchdog events go on a queue; one thread hands each burst
(merged, once the folders have been quiet a moment) to the owner's apply(changes).

Used by file search and the document index alike; each receiver checks the disk itself, so
the events only say where to look."""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable, Iterable
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

log = logging.getLogger(__name__)

SETTLE_S = 0.3  # editors save in several steps: wait for the burst to end

# (path, whole_tree): a path to bring in line with the disk; whole_tree for a folder that
# appeared (created, moved in, or newly watched), whose contents no per-file event announces.
Change = tuple[str, bool]
Apply = Callable[[list[Change]], None]


class _Handler(FileSystemEventHandler):
    def __init__(self, changes: queue.Queue[Change | None]) -> None:
        self.changes = changes

    def on_any_event(self, event: FileSystemEvent) -> None:
        kind, is_dir = event.event_type, event.is_directory
        if kind == "moved":
            # the destination first: a receiver can then adopt a moved file instead of
            # dropping it and reading it again
            self.changes.put((os.fsdecode(event.dest_path), is_dir))
            self.changes.put((os.fsdecode(event.src_path), False))
        elif kind in ("deleted", "created") or (kind in ("modified", "closed") and not is_dir):
            # a folder's "modified" only says its listing changed: its children report that
            self.changes.put((os.fsdecode(event.src_path), is_dir and kind == "created"))


class FolderWatcher:
    """Watches folders (recursively) until stop(); `error` says why live updates are off."""

    def __init__(self, apply: Apply, name: str = "hearth-watch",
                 on_start: Callable[[], object] | None = None) -> None:
        self.apply = apply
        self.name = name
        self.on_start = on_start  # runs first on the watcher's thread (catching up)
        self.changes: queue.Queue[Change | None] = queue.Queue()
        self.observer: Any = None
        self.worker: threading.Thread | None = None
        self.error = ""
        self._watches: dict[str, Any] = {}

    @property
    def running(self) -> bool:
        return self.observer is not None

    def start(self, folders: Iterable[str]) -> None:
        """Watch exactly these folders (restarting if already running)."""
        if self.running:
            self.stop()
        self.observer = Observer()
        for folder in folders:
            self._schedule(folder)
        try:
            self.observer.start()
        except OSError as exc:  # e.g. the inotify watch limit on a huge tree
            self._fail(exc)
            return
        self.worker = threading.Thread(target=self._drain, name=self.name, daemon=True)
        self.worker.start()

    def add(self, folder: str, catch_up: bool = True) -> None:
        """Watch one more folder; with catch_up its contents are brought up to date first."""
        if self.running and folder not in self._watches and self._schedule(folder) and catch_up:
            self.changes.put((folder, True))

    def remove(self, folder: str) -> None:
        watch = self._watches.pop(folder, None)
        if watch is not None and self.observer is not None:
            self.observer.unschedule(watch)

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=5)
            self.observer = None
        self._watches.clear()
        if self.worker is not None:
            self.changes.put(None)
            self.worker.join(timeout=30)  # a burst being applied finishes first
            self.worker = None

    def _schedule(self, folder: str) -> bool:
        if not os.path.isdir(folder):  # an unplugged drive must not stop the others
            log.warning("watched folder not found: %s", folder)
            return False
        try:
            self._watches[folder] = self.observer.schedule(
                _Handler(self.changes), folder, recursive=True)
        except OSError as exc:
            self._fail(exc)
            return False
        self.error = ""
        return True

    def _fail(self, exc: OSError) -> None:
        self.error = f"live updates are off: {exc}"
        log.warning(self.error)

    def _drain(self) -> None:
        if self.on_start is not None:
            try:
                self.on_start()
            except Exception:  # live updates matter more than one failed catch-up
                log.exception("%s could not catch up", self.name)
        while True:
            first = self.changes.get()
            if first is None:
                return
            batch = [first]
            stop = self._collect(batch)
            try:
                self.apply(merge(batch))
            except Exception:  # one bad event must not end live updates
                log.exception("%s could not apply changes", self.name)
            if stop:
                return

    def _collect(self, batch: list[Change]) -> bool:
        """Add what arrives until the queue has been quiet for SETTLE_S; True on shutdown."""
        while True:
            try:
                item = self.changes.get(timeout=SETTLE_S)
            except queue.Empty:
                return False
            if item is None:
                return True
            batch.append(item)


def merge(batch: list[Change]) -> list[Change]:
    """One change per path, in first-seen order; a path is walked as a tree if any of its
    events asked for that."""
    merged: dict[str, bool] = {}
    for path, tree in batch:
        merged[path] = merged.get(path, False) or tree
    return list(merged.items())
