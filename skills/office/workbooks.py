"""Loaded workbooks kept between calls (a question usually takes several queries on one file)."""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence

from skills.office.sheets import Limits, load_sheets
from skills.office.sql import SheetDatabase

Key = tuple[tuple[str, int, int], ...]


class WorkbookCache:
    """SQLite databases of recently queried files, keyed by path, size and modification time,
    so an edited file is loaded again. Holds at most `keep` databases."""

    def __init__(self, limits: Limits | None = None, keep: int = 2) -> None:
        self.limits = limits or Limits()
        self.keep = keep
        self._items: OrderedDict[Key, SheetDatabase] = OrderedDict()
        self._lock = threading.Lock()

    def database(self, paths: Sequence[str]) -> SheetDatabase:
        key = tuple(_stamp(p) for p in paths)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        sheets = [s for p in paths for s in load_sheets(p, self.limits)]
        database = SheetDatabase(sheets)
        with self._lock:
            self._items[key] = database
            while len(self._items) > self.keep:
                _, old = self._items.popitem(last=False)
                old.close()
        return database

    def close(self) -> None:
        with self._lock:
            for database in self._items.values():
                database.close()
            self._items.clear()


def _stamp(path: str) -> tuple[str, int, int]:
    st = os.stat(path)
    return path, st.st_size, st.st_mtime_ns
