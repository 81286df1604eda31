"""The calendar view's occurrences per shown range, kept while the calendar does not change.

Stepping through months asks for ranges the view fetched ahead; each lookup checks the store's
stamp first (a cheap pragma), so an event a tool or another process wrote meanwhile shows."""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future
from datetime import datetime
from typing import Protocol

from skills.calendar.model import Occurrence


class _Store(Protocol):
    def stamp(self) -> tuple[int, int]: ...

    def occurrences(self, lo: datetime, hi: datetime, query: str = "") -> list[Occurrence]: ...


class RangeCache:
    """get() blocks on the store: call it from a worker. Two asks for the same range (a fetch
    ahead and the step that wants it) share one query instead of running two."""

    def __init__(self, store: _Store, keep: int = 8) -> None:
        self._store, self._keep = store, keep
        self._lock = threading.Lock()
        self._ranges: OrderedDict[tuple[datetime, datetime, tuple[int, int]],
                                 Future[list[Occurrence]]] = OrderedDict()

    def get(self, lo: datetime, hi: datetime) -> list[Occurrence]:
        key = (lo, hi, self._store.stamp())
        with self._lock:
            future = self._ranges.get(key)
            mine = future is None
            if future is None:
                future = self._ranges[key] = Future()
                while len(self._ranges) > self._keep:
                    self._ranges.popitem(last=False)
            else:
                self._ranges.move_to_end(key)
        if mine:
            try:
                future.set_result(self._store.occurrences(lo, hi))
            except BaseException as exc:  # noqa: BLE001 - the caller surfaces it
                with self._lock:
                    self._ranges.pop(key, None)  # a failure is not kept: the next ask retries
                future.set_exception(exc)
        return list(future.result())
