"""The request log: who asked, how many tokens, how long, which tools; never message bodies."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

Listener = Callable[["RequestRecord"], None]


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
    finish_reason: str = ""
    tools_offered: int = 0
    tool_calls: list[str] = field(default_factory=list)  # names only
    error: str = ""
    at: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return {"type": "request", **asdict(self)}


class RequestLog:
    """The most recent records in memory, and listeners told of each new one (any thread)."""

    def __init__(self, keep: int = 500) -> None:
        self._records: deque[RequestRecord] = deque(maxlen=keep)
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def add(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)
            listeners = list(self._listeners)
        for listener in listeners:
            listener(record)

    def records(self) -> list[RequestRecord]:
        with self._lock:
            return list(self._records)

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)
