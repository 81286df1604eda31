"""Live updates for watched folders: watchdog events, debounced, applied on one thread."""

from __future__ import annotations

import logging
import os
import queue
import threading
from typing import TYPE_CHECKING, Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

if TYPE_CHECKING:
    from skills.documents.index import DocumentIndex

log = logging.getLogger(__name__)
QUIET_SECONDS = 0.3  # editors save in several steps; wait for the burst to end


class _Handler(FileSystemEventHandler):
    def __init__(self, events: queue.Queue[tuple[str, ...] | None]) -> None:
        self.events = events

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a file inside changed; that file has its own event
        dest = getattr(event, "dest_path", "") or ""
        self.events.put((_text(event.src_path), _text(dest)))


def _text(path: bytes | str) -> str:
    return path.decode() if isinstance(path, bytes) else path


class FolderWatcher:
    """Owns the observer thread and an apply thread that re-indexes changed paths.

    Scheduling a folder queues the folder itself, so the apply thread first catches up with
    changes made while Hearth was closed, then applies event batches: destinations of moves
    before sources, so a moved file is renamed in the index instead of parsed again."""

    def __init__(self, index: DocumentIndex) -> None:
        self.index = index
        self.events: queue.Queue[tuple[str, ...] | None] = queue.Queue()
        self.observer: Any = Observer()
        self._watches: dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, name="hearth-doc-watch", daemon=True)

    def schedule(self, folder: str) -> None:
        if not os.path.isdir(folder):  # gone or unplugged: watching it would raise
            log.warning("watched folder not found: %s", folder)
            return
        if folder not in self._watches:
            handler = _Handler(self.events)
            self._watches[folder] = self.observer.schedule(handler, folder, recursive=True)
            self.events.put((folder, ""))  # index what is already there

    def unschedule(self, folder: str) -> None:
        watch = self._watches.pop(folder, None)
        if watch is not None:
            self.observer.unschedule(watch)

    def start(self) -> None:
        self.observer.start()
        self._thread.start()

    def stop(self) -> None:
        self.observer.stop()
        self.events.put(None)
        self.observer.join(timeout=5)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        try:
            self.index.resume_pending()  # files dropped in before a quit or crash
        except Exception:  # live updates matter more than one failed catch-up
            log.exception("could not finish indexing left from last time")
        while True:
            batch = self._next_batch()
            if batch is None:
                return
            for path in batch:
                try:
                    self.index.handle_change(path)
                except Exception:  # one bad path must not stop the watcher
                    log.exception("could not update the index for %s", path)

    def _next_batch(self) -> list[str] | None:
        """Wait for an event, then gather more until the folder is quiet for a moment."""
        first = self.events.get()
        if first is None:
            return None
        items = [first]
        while True:
            try:
                item = self.events.get(timeout=QUIET_SECONDS)
            except queue.Empty:
                break
            if item is None:
                self.events.put(None)
                break
            items.append(item)
        dests = [dest for _, dest in items if dest]
        sources = [src for src, _ in items]
        return list(dict.fromkeys(dests + sources))
