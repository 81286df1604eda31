"""Live updates: watchdog events go on a queue; one worker thread applies them to the index
after a short pause that merges bursts (an editor's save is often several events)."""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

log = logging.getLogger(__name__)

SETTLE_S = 0.15  # wait this long after an event for the burst it belongs to

# (path, whole_tree): a path to bring in line with the disk; whole_tree for a folder that
# appeared (created or moved in), whose contents no per-file event will announce.
Change = tuple[str, bool]


class _Handler(FileSystemEventHandler):
    def __init__(self, changes: queue.Queue[Change | None]) -> None:
        self.changes = changes

    def on_any_event(self, event: FileSystemEvent) -> None:
        kind, is_dir = event.event_type, event.is_directory
        if kind == "moved":
            self.changes.put((_text(event.src_path), False))
            self.changes.put((_text(event.dest_path), is_dir))
        elif kind in ("deleted", "created") or (kind in ("modified", "closed") and not is_dir):
            # a folder's "modified" only says its listing changed: its children report that
            self.changes.put((_text(event.src_path), is_dir and kind == "created"))


def _text(path: Any) -> str:
    return os.fsdecode(path)


class Watcher:
    """Watches roots and hands merged changes to `apply(changes)` on its own thread."""

    def __init__(self, apply: Callable[[list[Change]], None]) -> None:
        self.apply = apply
        self.changes: queue.Queue[Change | None] = queue.Queue()
        self.observer: Any = None
        self.worker: threading.Thread | None = None
        self.error = ""

    @property
    def running(self) -> bool:
        return self.observer is not None

    def start(self, roots: list[str]) -> None:
        if self.running:
            self.stop()
        observer = Observer()
        handler = _Handler(self.changes)
        try:
            for root in roots:
                if os.path.isdir(root):  # an unplugged drive must not stop the others
                    observer.schedule(handler, root, recursive=True)
            observer.start()
        except OSError as exc:  # e.g. the inotify watch limit on a huge tree
            self.error = f"live updates are off: {exc}"
            log.warning(self.error)
            return
        self.error = ""
        self.observer = observer
        self.worker = threading.Thread(target=self._drain, name="hearth-files-watch", daemon=True)
        self.worker.start()

    def stop(self) -> None:
        if self.observer is not None:
            self.observer.stop()
            self.observer.join(timeout=5)
            self.observer = None
        if self.worker is not None:
            self.changes.put(None)
            self.worker.join(timeout=5)
            self.worker = None

    def _drain(self) -> None:
        while True:
            first = self.changes.get()
            if first is None:
                return
            batch = [first]
            stop = self._collect(batch)
            try:
                self.apply(_merge(batch))
            except Exception:  # one bad event must not end live updates
                log.exception("applying file changes failed")
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


def _merge(batch: list[Change]) -> list[Change]:
    """One change per path (the receiver checks the disk, so order within a burst is moot);
    a path is walked as a tree if any of its events asked for that."""
    merged: dict[str, bool] = {}
    for path, tree in batch:
        merged[path] = merged.get(path, False) or tree
    return list(merged.items())
