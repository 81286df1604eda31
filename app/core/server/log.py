"""The request log: who asked, how many tokens, how long, which tools; never message bodies."""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Protocol

from skills.common.limits import LIMITS, cut_text

Listener = Callable[["RequestRecord"], None]
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RequestRecord:
    """One handled request, as Settings and `hearth serve --json` show it."""

    client: str  # address and user agent
    method: str
    path: str
    status: int
    model: str = ""
    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    duration_ms: float = 0.0
    queue_position: int = 0
    gave_way: int = 0  # times it let the person's own turn go first
    batched_with: int = 0  # the most other requests decoded in one batch with it
    finish_reason: str = ""
    tools_offered: int = 0
    tool_calls: list[str] = field(default_factory=list)  # names only
    error: str = ""
    at: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, object]:
        return {"type": "request", **asdict(self)}

    def bounded(self) -> RequestRecord:
        """This record with each text field within the log's limit (log_field_bytes): a
        client's user agent or path is theirs to make as long as they like."""
        cap = LIMITS.log_field_bytes
        return replace(self, client=cut_text(self.client, cap), method=cut_text(self.method, 16),
                       path=cut_text(self.path, cap), model=cut_text(self.model, cap),
                       finish_reason=cut_text(self.finish_reason, 32),
                       tool_calls=[cut_text(n, 64) for n in self.tool_calls[:64]],
                       error=cut_text(self.error, cap))


class Keeper(Protocol):
    """Where records outlive the process (log_store.RequestLogStore)."""

    def add(self, records: Iterable[RequestRecord]) -> None: ...

    def recent(self) -> list[RequestRecord]: ...

    def clear(self) -> None: ...

    def close(self) -> None: ...


class RequestLog:
    """The most recent records in memory, and listeners told of each new one (any thread).

    With a `store`, the records kept there are read once at the start, and each new one is
    written by a thread of the log's own: a request never waits for the disk."""

    def __init__(self, keep: int = 1000, store: Keeper | None = None) -> None:
        self._records: deque[RequestRecord] = deque(store.recent() if store else (), maxlen=keep)
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()
        self._store = store
        self._writes: queue.SimpleQueue[RequestRecord | str] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None

    def add(self, record: RequestRecord) -> None:
        record = record.bounded()
        with self._lock:
            self._records.append(record)
            listeners = list(self._listeners)
            self._write(record)
        for listener in listeners:
            listener(record)

    def records(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def clear(self) -> None:
        """Forget every record, here and on disk (in order with writes still queued)."""
        with self._lock:
            self._records.clear()
            self._write(_CLEAR)

    def close(self) -> None:
        """Write what is queued, then stop the writer and close the store."""
        with self._lock:
            writer, self._writer = self._writer, None
            store, self._store = self._store, None
        if writer is not None:
            self._writes.put(_STOP)
            writer.join()
        if store is not None:
            store.close()

    def _write(self, item: RequestRecord | str) -> None:  # under the lock
        if self._store is None:
            return
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_loop, args=(self._store,),
                                            name="hearth-request-log", daemon=True)
            self._writer.start()
        self._writes.put(item)

    def _write_loop(self, store: Keeper) -> None:
        while True:
            items = [self._writes.get()]
            while not self._writes.empty():  # what arrived meanwhile: one transaction
                items.append(self._writes.get())
            batch: list[RequestRecord] = []
            for item in items:
                if isinstance(item, RequestRecord):
                    batch.append(item)
                    continue
                self._save(store, batch)
                batch = []
                if item == _STOP:
                    return
                self._guarded(store.clear)
            self._save(store, batch)

    def _save(self, store: Keeper, batch: list[RequestRecord]) -> None:
        if batch:
            self._guarded(lambda: store.add(batch))

    @staticmethod
    def _guarded(work: Callable[[], None]) -> None:
        try:
            work()
        except (sqlite3.Error, OSError) as exc:  # a full or locked disk loses log lines only
            log.warning("request log not written: %s", exc)


_CLEAR, _STOP = "clear", "stop"
